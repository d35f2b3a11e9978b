/*
 * payhandoff_heap.c — the one allocation path of the arm64 Android library, linked in with
 * `--wrap=malloc --wrap=calloc --wrap=realloc --wrap=free --wrap=posix_memalign` so that every
 * allocation the library makes (Swift, the C ABI, cJSON, the JNI shim) and every block it frees
 * goes through here.
 *
 * Why: since Android 11 the arm64 heap returns pointers whose top byte is a tag (0xB4) and free()
 * aborts when a pointer comes back with another top byte. Embedded Swift keeps String flags in
 * the top byte of a heap address, so the tag is gone by the time Swift frees the buffer. Here each
 * block is allocated with a header in front holding the system allocator's own pointer and the
 * block's size, and the library gets the block's address with the top byte cleared (the same
 * memory under arm64's top-byte-ignore). free() hands the system allocator back exactly the
 * pointer it returned, whatever the top byte of the address it is given. No manifest flag
 * (android:allowNativeHeapPointerTagging) is needed.
 *
 * Not covered: with MTE (memory tagging extension) enabled for the app, the tag is checked on
 * every access, and an address without it faults; PayHandoff is not tested under MTE.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

void *__real_malloc(size_t size);
void __real_free(void *pointer);

void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *pointer, size_t size);
void __wrap_free(void *pointer);
int __wrap_posix_memalign(void **out, size_t alignment, size_t size);

/* 16 bytes, so a block right after it keeps malloc's 16-byte alignment. */
typedef struct {
    void *system;
    size_t size;
} payhandoff_heap_header;

_Static_assert(sizeof(payhandoff_heap_header) <= 16, "the header must fit in 16 bytes");

static uintptr_t untagged(void *pointer) {
#if defined(__aarch64__)
    return (uintptr_t)pointer & ((UINT64_C(1) << 56) - 1);
#else
    return (uintptr_t)pointer;
#endif
}

static payhandoff_heap_header *header_of(void *block) {
    return (payhandoff_heap_header *)(untagged(block) - sizeof(payhandoff_heap_header));
}

/* alignment: a power of two. The system allocator's blocks are 16-byte aligned on every
   Android ABI this is linked into, so size + max(alignment, 16) bytes always leave room for the
   header and an aligned block. */
static void *allocate(size_t alignment, size_t size) {
    if (alignment < 16) alignment = 16;
    if (size > SIZE_MAX - alignment) return NULL;
    void *system = __real_malloc(size + alignment);
    if (system == NULL) return NULL;
    uintptr_t start = untagged(system) + sizeof(payhandoff_heap_header);
    uintptr_t block = (start + alignment - 1) & ~(uintptr_t)(alignment - 1);
    payhandoff_heap_header *header = (payhandoff_heap_header *)(block - sizeof(payhandoff_heap_header));
    header->system = system;
    header->size = size;
    return (void *)block;
}

void *__wrap_malloc(size_t size) {
    return allocate(16, size);
}

void *__wrap_calloc(size_t count, size_t size) {
    if (size != 0 && count > SIZE_MAX / size) return NULL;
    void *block = allocate(16, count * size);
    if (block != NULL) memset(block, 0, count * size);
    return block;
}

void *__wrap_realloc(void *pointer, size_t size) {
    if (pointer == NULL) return allocate(16, size);
    void *block = allocate(16, size);
    if (block == NULL) return NULL; /* the old block stays valid, as realloc promises */
    size_t old = header_of(pointer)->size;
    memcpy(block, (void *)untagged(pointer), old < size ? old : size);
    __wrap_free(pointer);
    return block;
}

void __wrap_free(void *pointer) {
    if (pointer == NULL) return;
    __real_free(header_of(pointer)->system);
}

int __wrap_posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *block = allocate(alignment, size);
    if (block == NULL) return ENOMEM;
    *out = block;
    return 0;
}
