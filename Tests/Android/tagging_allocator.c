/*
 * tagging_allocator.c — preloaded (LD_PRELOAD) into the arm64 harness run under qemu-aarch64 to
 * behave like Android 11+'s heap: every pointer the allocator returns carries the tag 0xB4 in its
 * top byte, and free()/realloc() abort when a pointer comes back with another top byte (as
 * Android's allocator does: "Pointer tag for 0x… was truncated"). qemu implements arm64's
 * top-byte-ignore, so tagged pointers can be dereferenced; the process opts in to the tagged
 * address syscall ABI, as Android does for apps, or the kernel (qemu) would refuse tagged
 * buffers passed to write() and friends.
 *
 * The allocator underneath is glibc's (__libc_malloc and friends), so nothing here allocates.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

#ifndef PR_SET_TAGGED_ADDR_CTRL
#define PR_SET_TAGGED_ADDR_CTRL 55
#endif
#ifndef PR_TAGGED_ADDR_ENABLE
#define PR_TAGGED_ADDR_ENABLE (1UL << 0)
#endif

#define TAG UINT64_C(0xB4)
#define TAG_SHIFT 56

void *__libc_malloc(size_t size);
void *__libc_calloc(size_t count, size_t size);
void *__libc_realloc(void *pointer, size_t size);
void *__libc_memalign(size_t alignment, size_t size);
void __libc_free(void *pointer);

static void enable_tagged_addresses(void) {
    static volatile int done;
    if (done) return;
    done = 1;
    if (prctl(PR_SET_TAGGED_ADDR_CTRL, PR_TAGGED_ADDR_ENABLE, 0, 0, 0) != 0) {
        static const char message[] = "tagging allocator: prctl(PR_SET_TAGGED_ADDR_CTRL) failed\n";
        (void)!write(2, message, sizeof message - 1);
        abort();
    }
}

__attribute__((constructor)) static void tagging_allocator_init(void) {
    enable_tagged_addresses();
}

static void *tagged(void *pointer) {
    if (pointer == NULL) return NULL;
    enable_tagged_addresses();
    return (void *)(((uintptr_t)pointer & ((UINT64_C(1) << TAG_SHIFT) - 1)) | (TAG << TAG_SHIFT));
}

/* The pointer glibc returned, after checking the tag is the one handed out. */
static void *checked(void *pointer, const char *what) {
    uintptr_t bits = (uintptr_t)pointer;
    if ((bits >> TAG_SHIFT) != TAG) {
        char message[128];
        static const char hex[] = "0123456789abcdef";
        size_t n = 0;
        for (const char *p = "tagging allocator: "; *p; p++) message[n++] = *p;
        for (const char *p = what; *p; p++) message[n++] = *p;
        for (const char *p = " of 0x"; *p; p++) message[n++] = *p;
        for (int shift = 60; shift >= 0; shift -= 4) message[n++] = hex[(bits >> shift) & 0xF];
        for (const char *p = ": pointer tag was changed (expected 0xb4)\n"; *p; p++) message[n++] = *p;
        (void)!write(2, message, n);
        abort();
    }
    return (void *)(bits & ((UINT64_C(1) << TAG_SHIFT) - 1));
}

void *malloc(size_t size) {
    return tagged(__libc_malloc(size));
}

void *calloc(size_t count, size_t size) {
    return tagged(__libc_calloc(count, size));
}

void *realloc(void *pointer, size_t size) {
    if (pointer == NULL) return malloc(size);
    return tagged(__libc_realloc(checked(pointer, "realloc"), size));
}

void free(void *pointer) {
    if (pointer == NULL) return;
    __libc_free(checked(pointer, "free"));
}

void *memalign(size_t alignment, size_t size) {
    return tagged(__libc_memalign(alignment, size));
}

void *aligned_alloc(size_t alignment, size_t size) {
    return memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *pointer = memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *out = pointer;
    return 0;
}

void *valloc(size_t size) {
    return memalign((size_t)sysconf(_SC_PAGESIZE), size);
}
