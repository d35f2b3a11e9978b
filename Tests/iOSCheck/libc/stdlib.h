/* Stand-in for the iOS SDK's <stdlib.h> in make ios-check, which has no Apple SDK: the
   ISO C declarations PayHandoffABI can use, nothing platform-specific, so code that needs more
   than standard C (a glibc extension, a Linux header) fails to compile here as it would on iOS. */
#ifndef PAYHANDOFF_IOSCHECK_STDLIB_H
#define PAYHANDOFF_IOSCHECK_STDLIB_H
#include <stddef.h>
void *malloc(size_t size);
void *calloc(size_t count, size_t size);
void *realloc(void *pointer, size_t size);
void free(void *pointer);
void abort(void) __attribute__((noreturn));
#endif
