/* make web-libc-test: bindings/web/wasm/payhandoff_wasm_malloc.c, the allocator the .wasm links in
 * place of wasi-libc's dlmalloc, built for wasm32-wasi (this program then has no dlmalloc either)
 * and run under Node's WASI by Tests/WasmLibc/run_wasi.mjs:
 *   - 300,000 random malloc/calloc/realloc/posix_memalign/aligned_alloc/free operations over 512
 *     live blocks (1 byte to 320 KB, alignments 8 to 4,096): every block is filled with its own
 *     byte and checked before it is resized or freed, and every live block is checked every
 *     10,000 operations, so an overlap or a lost byte fails; calloc's bytes must be zero,
 *     realloc must keep the old bytes, every payload must be 16-byte (or its alignment) aligned;
 *   - the refusals: an impossible size, calloc overflow, a bad alignment, realloc failing leaves
 *     the old block intact;
 *   - reuse: 100,000 allocate/free cycles of one size do not grow the memory.
 * Prints "web-libc: ..." lines; exits 1 on a failure.
 */
#include "../../bindings/web/wasm/payhandoff_wasm_malloc.c"

#include <stdio.h>

#define SLOTS 512
#define OPERATIONS 300000

static struct { unsigned char *p; size_t size; unsigned char fill; } slot[SLOTS];
static uint64_t state = 0x9E3779B97F4A7C15u;
static int failures = 0;

static uint32_t next(void) {
    state ^= state << 13; state ^= state >> 7; state ^= state << 17;
    return (uint32_t)(state >> 11);
}

static size_t random_size(void) {
    uint32_t r = next() % 100;
    if (r < 60) return 1 + next() % 64;
    if (r < 90) return 1 + next() % 4096;
    if (r < 99) return 1 + next() % 65536;
    return 1 + next() % (320 * 1024);
}

static void fail(const char *what, int index) {
    if (failures++ < 10) printf("FAIL: %s (slot %d)\n", what, index);
}

static void check(int i) {
    size_t j;
    for (j = 0; j < slot[i].size; j++)
        if (slot[i].p[j] != slot[i].fill) { fail("a block's bytes changed", i); return; }
}

static void fill(int i, size_t from) {
    memset(slot[i].p + from, slot[i].fill, slot[i].size - from);
}

int main(void) {
    long op;
    int i;
    for (op = 0; op < OPERATIONS; op++) {
        i = (int)(next() % SLOTS);
        uint32_t kind = next() % 6;
        if (slot[i].p) {
            check(i);
            if (kind < 2) {
                size_t size = random_size();
                unsigned char *moved = realloc(slot[i].p, size);
                if (!moved) { fail("realloc refused", i); continue; }
                size_t kept = size < slot[i].size ? size : slot[i].size;
                size_t j;
                for (j = 0; j < kept; j++)
                    if (moved[j] != slot[i].fill) { fail("realloc lost bytes", i); break; }
                if (((uintptr_t)moved & 15) != 0) fail("realloc not 16-byte aligned", i);
                slot[i].p = moved;
                slot[i].size = size;
                fill(i, kept);
            } else {
                free(slot[i].p);
                slot[i].p = NULL;
            }
            continue;
        }
        size_t size = random_size(), align = 16;
        if (kind == 0) {
            slot[i].p = malloc(size);
        } else if (kind == 1) {
            slot[i].p = calloc(1 + next() % 8, size);
            if (slot[i].p) {
                size_t j;
                for (j = 0; j < size; j++)
                    if (slot[i].p[j] != 0) { fail("calloc's bytes are not zero", i); break; }
            }
        } else if (kind == 2 || kind == 3) {
            void *out = NULL;
            align = (size_t)8 << (next() % 10); /* 8 … 4096 */
            if (posix_memalign(&out, align, size) != 0) out = NULL;
            slot[i].p = out;
        } else {
            align = (size_t)16 << (next() % 8);
            slot[i].p = aligned_alloc(align, size);
        }
        if (!slot[i].p) { fail("an allocation was refused", i); continue; }
        if (((uintptr_t)slot[i].p & (align - 1)) != 0 || ((uintptr_t)slot[i].p & 15) != 0) fail("misaligned", i);
        slot[i].size = size;
        slot[i].fill = (unsigned char)(1 + next() % 255);
        fill(i, 0);
        if (op % 10000 == 0) {
            int k;
            for (k = 0; k < SLOTS; k++) if (slot[k].p) check(k);
        }
    }
    for (i = 0; i < SLOTS; i++) if (slot[i].p) { check(i); free(slot[i].p); }
    printf("web-libc: malloc: %d random operations over %d blocks, every byte checked\n", OPERATIONS, SLOTS);

    errno = 0;
    if (malloc((size_t)-1) != NULL || errno != ENOMEM) fail("malloc(SIZE_MAX) must fail with ENOMEM", -1);
    if (calloc((size_t)1 << 20, (size_t)1 << 20) != NULL) fail("calloc overflow must fail", -1);
    void *out = NULL;
    if (posix_memalign(&out, 24, 10) != EINVAL) fail("posix_memalign(24) must be EINVAL", -1);
    if (posix_memalign(&out, (size_t)1 << 31, 10) != ENOMEM) fail("posix_memalign(2 GiB) must be ENOMEM", -1);
    volatile size_t three = 3; /* a constant would be refused by the compiler, not the function */
    if (aligned_alloc(three, 10) != NULL) fail("aligned_alloc(3) must fail", -1);
    unsigned char *kept = malloc(100);
    memset(kept, 0x5A, 100);
    if (realloc(kept, (size_t)-1) != NULL) fail("realloc(SIZE_MAX) must fail", -1);
    for (i = 0; i < 100; i++) if (kept[i] != 0x5A) { fail("a failed realloc changed the block", -1); break; }
    free(kept);
    free(NULL);
    printf("web-libc: malloc: impossible sizes and alignments refused, a failed realloc keeps its block\n");

    size_t pages = __builtin_wasm_memory_size(0);
    for (op = 0; op < 100000; op++) {
        void *a = malloc(3000 + (size_t)(op % 1000)), *b = malloc(100000);
        free(a);
        free(b);
    }
    if (__builtin_wasm_memory_size(0) != pages) fail("allocate/free cycles grew the memory", -1);
    printf("web-libc: malloc: 100,000 allocate/free cycles reuse their blocks (%zu pages before and after)\n", pages);
    return failures ? 1 : 0;
}
