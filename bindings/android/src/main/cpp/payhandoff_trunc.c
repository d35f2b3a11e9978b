/*
 * payhandoff_trunc.c — trunc() for the armeabi-v7a and x86 libraries. The Embedded Swift standard
 * library rounds a double when it sizes a hash table; 32-bit ARM has no instruction for that before
 * ARMv8, nor x86 before SSE4.1 (Android's x86 stops at SSSE3), so LLVM calls trunc(), which lives in libm. Defining it here (hidden, like everything
 * the version script does not export) keeps the library's only dependency libc.so.
 */
#include <stdint.h>
#include <string.h>

__attribute__((visibility("hidden"))) double trunc(double x);

double trunc(double x) {
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    int exponent = (int)((bits >> 52) & 0x7FF) - 1023;
    if (exponent >= 52) return x; /* already integral, or infinity, or NaN */
    if (exponent < 0) {
        bits &= UINT64_C(1) << 63; /* |x| < 1: a zero of x's sign */
    } else {
        bits &= ~((UINT64_C(1) << (52 - exponent)) - 1); /* drop the fraction bits */
    }
    memcpy(&x, &bits, sizeof x);
    return x;
}
