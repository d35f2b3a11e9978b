/*
 * The .wasm's memory allocator, linked ahead of wasi-libc's dlmalloc (issue 26): malloc, free,
 * calloc, realloc, posix_memalign and aligned_alloc over size classes.
 *
 * Why not dlmalloc: it is ~13 KB of the module (dlmalloc, dlfree, realloc, dispose_chunk and
 * their helpers), a sixth of what the checkout page would still download beyond its goal. What
 * the module allocates is short-lived (a call's cJSON tree, its strings, the coordinator's
 * arrays) and bounded by PAYHANDOFF_MAX_SNAPSHOT_BYTES-sized documents, so a page needs no
 * coalescing: a freed block goes back to its class's list and the next request of that class
 * takes it. The price is memory, never correctness: a block is at most twice what was asked
 * (plus a 16-byte header), and memory taken from the browser is kept for reuse, not returned
 * (wasm memory cannot shrink anyway).
 *
 * Blocks: class k holds 16 << k bytes, header included; the header (16 bytes, so payloads keep
 * malloc's 16-byte alignment) holds the class and, for an over-aligned posix_memalign block, the
 * distance back to the block's start. Fresh blocks come from a bump pointer over the memory
 * above __heap_base, grown with memory.grow. Single-threaded, as the module is (the header of
 * include/payhandoff.h: one coordinator per thread; the web has one).
 *
 * Tested by make web-libc-test (Tests/WasmLibc/malloc_test.c): random sizes, alignments,
 * reallocs and frees with every byte checked, under Node's WASI.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define HEADER 16u
#define CLASSES 27u /* 16 B … 1 GiB: wasm32 memory is at most 4 GiB, and larger requests fail */
#define PAGE 65536u

typedef struct {
    uint32_t klass;  /* the block's class */
    uint32_t offset; /* bytes from the block's start to this header (0 unless over-aligned) */
    uint32_t unused[2];
} header;

extern unsigned char __heap_base;

static void *free_list[CLASSES];
static uintptr_t bump, bump_end;

/* The class whose blocks hold `total` bytes, header included; CLASSES when none does. */
static uint32_t class_of(size_t total) {
    uint32_t k = 0;
    while (k < CLASSES && ((size_t)HEADER << k) < total) k++;
    return k;
}

/* A block of class k: a freed one, or fresh memory (growing the module's memory). */
static unsigned char *take(uint32_t k) {
    size_t size = (size_t)HEADER << k;
    void *block = free_list[k];
    if (block) {
        free_list[k] = *(void **)block;
        return block;
    }
    if (bump == 0) {
        bump = ((uintptr_t)&__heap_base + (HEADER - 1)) & ~(uintptr_t)(HEADER - 1);
        bump_end = (uintptr_t)__builtin_wasm_memory_size(0) * PAGE;
    }
    if (size > bump_end - bump) {
        size_t pages = (size - (bump_end - bump) + PAGE - 1) / PAGE;
        if (__builtin_wasm_memory_grow(0, pages) == (size_t)-1) return NULL;
        bump_end += pages * PAGE;
    }
    block = (void *)bump;
    bump += size;
    return block;
}

/* The header in front of a payload. */
static header *header_of(void *payload) {
    return (header *)((unsigned char *)payload - HEADER);
}

/* A payload of at least `size` bytes at a multiple of `align` (a power of two, 16 or more). */
static void *allocate(size_t size, size_t align) {
    const size_t largest = (size_t)HEADER << (CLASSES - 1);
    if (align > largest / 2 || size > largest - HEADER - align) {
        errno = ENOMEM;
        return NULL;
    }
    uint32_t k = class_of(size + HEADER + (align > HEADER ? align : 0));
    unsigned char *block = take(k);
    if (!block) {
        errno = ENOMEM;
        return NULL;
    }
    uintptr_t payload = ((uintptr_t)block + HEADER + (align - 1)) & ~(uintptr_t)(align - 1);
    header *h = header_of((void *)payload);
    h->klass = k;
    h->offset = (uint32_t)((unsigned char *)h - block);
    return (void *)payload;
}

void *malloc(size_t size) {
    return allocate(size, HEADER);
}

void free(void *payload) {
    if (!payload) return;
    header *h = header_of(payload);
    void **block = (void **)((unsigned char *)h - h->offset);
    *block = free_list[h->klass];
    free_list[h->klass] = block;
}

void *calloc(size_t count, size_t size) {
    if (size != 0 && count > SIZE_MAX / size) {
        errno = ENOMEM;
        return NULL;
    }
    void *payload = malloc(count * size);
    if (payload) memset(payload, 0, count * size);
    return payload;
}

void *realloc(void *payload, size_t size) {
    if (!payload) return malloc(size);
    header *h = header_of(payload);
    /* What this block can hold from the payload on. */
    size_t room = ((size_t)HEADER << h->klass) - h->offset - HEADER;
    if (size <= room) return payload;
    void *moved = malloc(size);
    if (!moved) return NULL; /* the old block stays valid, as C requires */
    memcpy(moved, payload, room);
    free(payload);
    return moved;
}

int posix_memalign(void **out, size_t align, size_t size) {
    if (align < sizeof(void *) || (align & (align - 1)) != 0) return EINVAL;
    void *payload = allocate(size, align < HEADER ? HEADER : align);
    if (!payload) return ENOMEM;
    *out = payload;
    return 0;
}

void *aligned_alloc(size_t align, size_t size) {
    if (align == 0 || (align & (align - 1)) != 0) {
        errno = EINVAL;
        return NULL;
    }
    return allocate(size, align < HEADER ? HEADER : align);
}
