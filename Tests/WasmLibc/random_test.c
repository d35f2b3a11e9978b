/* make web-libc-test: bindings/web/wasm/payhandoff_wasm_random.c, the arc4random_buf the .wasm
 * links in place of wasi-libc's, built for wasm32-wasi and run under Node by
 * Tests/WasmLibc/run_wasi.mjs, whose --random option says what the host's random_get does; the
 * same word is this program's argument:
 *   counter  fills each call's bytes with a running count (mod 251) and succeeds: every length,
 *            beyond getentropy's 256 bytes a call included, must come out as exactly those bytes,
 *            in order, and nothing past the buffer may change
 *   host     Node's own random_get: two 32-byte draws differ
 *   fail     fails (EIO): arc4random_buf must not return (it traps; the runner expects the trap)
 * Prints "web-libc: ..." lines; exits 1 on a failure.
 */
#include "../../bindings/web/wasm/payhandoff_wasm_random.c"

#include <stdio.h>
#include <string.h>

#define GUARD 16

static int counter(void)
{
    static const size_t lengths[] = {0, 1, 7, 255, 256, 257, 511, 512, 513, 1000, 4096};
    static unsigned char buffer[4096 + GUARD];
    unsigned expected = 0;
    int failures = 0;
    size_t i, j;
    for (i = 0; i < sizeof lengths / sizeof lengths[0]; i++)
    {
        memset(buffer, 0xAA, sizeof buffer);
        arc4random_buf(buffer, lengths[i]);
        for (j = 0; j < lengths[i]; j++)
        {
            if (buffer[j] != expected++ % 251)
            {
                printf("FAIL: arc4random_buf(%zu): byte %zu is %u, not the host's byte %u\n", lengths[i], j, buffer[j], (expected - 1) % 251);
                failures++;
                break;
            }
        }
        for (j = lengths[i]; j < lengths[i] + GUARD; j++)
        {
            if (buffer[j] != 0xAA)
            {
                printf("FAIL: arc4random_buf(%zu) wrote byte %zu, past the buffer\n", lengths[i], j);
                failures++;
                break;
            }
        }
    }
    printf("web-libc: arc4random_buf: %u lengths from 0 to 4096 bytes are the host's random_get bytes, in order\n",
           (unsigned)(sizeof lengths / sizeof lengths[0]));
    return failures;
}

static int host(void)
{
    unsigned char first[32], second[32];
    arc4random_buf(first, sizeof first);
    arc4random_buf(second, sizeof second);
    if (memcmp(first, second, sizeof first) == 0)
    {
        printf("FAIL: two 32-byte draws from the host's random_get are the same\n");
        return 1;
    }
    printf("web-libc: arc4random_buf: two 32-byte draws from Node's random_get differ\n");
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = (argc > 1) ? argv[1] : "";
    unsigned char byte;
    if (strcmp(mode, "counter") == 0)
    {
        return counter() == 0 ? 0 : 1;
    }
    if (strcmp(mode, "host") == 0)
    {
        return host() == 0 ? 0 : 1;
    }
    if (strcmp(mode, "fail") == 0)
    {
        fflush(stdout);
        arc4random_buf(&byte, 1);
        printf("FAIL: arc4random_buf returned although random_get failed\n");
        return 1;
    }
    printf("FAIL: usage: random_test counter|host|fail\n");
    return 1;
}
