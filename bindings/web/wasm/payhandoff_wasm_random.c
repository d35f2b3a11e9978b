/* arc4random_buf for the WebAssembly module: scripts/build-wasm.sh links it ahead of wasi-libc,
 * so libc's own is not linked.
 *
 * Embedded Swift's SystemRandomNumberGenerator calls arc4random_buf, 8 bytes a draw, for every
 * random value the C ABI takes: the checkout nonces and POS tokens of new flows
 * (Sources/PayHandoffABI/CoordinatorExports.swift, Sources/PayHandoff/Support/CorrelationSecret.swift).
 * wasi-libc's arc4random_buf is a ChaCha20 generator seeded from getentropy that assert()s the
 * seeding worked, and that assert brings in fprintf and with it the whole of printf and stdio
 * (about 15 KB of the module). Here every byte comes straight from getentropy, that is WASI's
 * random_get: the host's cryptographic generator (crypto.getRandomValues in browsers and Node,
 * bindings/web/src/wasi.ts), the very source libc's generator is seeded from. A flow draws a few
 * times 8 bytes, so one host call per draw costs nothing that matters.
 */
#include <stddef.h>
#include <stdlib.h>
#include <sys/random.h> /* getentropy: declared here by wasi-libc whatever the -std */

/* getentropy gives at most 256 bytes per call (EIO beyond). */
#define PAYHANDOFF_WASM_ENTROPY_CHUNK 256

void arc4random_buf(void *buffer, size_t count)
{
    unsigned char *at = (unsigned char *)buffer;
    while (count > 0)
    {
        size_t chunk = (count < PAYHANDOFF_WASM_ENTROPY_CHUNK) ? count : PAYHANDOFF_WASM_ENTROPY_CHUNK;
        if (getentropy(at, chunk) != 0)
        {
            /* The host has no randomness to give. arc4random_buf cannot report it, and going on
             * would hand out nonces and tokens an attacker can guess: stop here, as libc's
             * assert would (it aborts, which traps). The glue turns the trap into module_trapped
             * and calls the module no more (bindings/web/src/library.ts). */
            __builtin_trap();
        }
        at += chunk;
        count -= chunk;
    }
}
