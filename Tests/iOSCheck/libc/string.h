/* Stand-in for the iOS SDK's <string.h> in make ios-check: ISO C, plus strnlen (POSIX.1-2008,
   in Darwin's libc since iOS 4.3). */
#ifndef PAYHANDOFF_IOSCHECK_STRING_H
#define PAYHANDOFF_IOSCHECK_STRING_H
#include <stddef.h>
void *memcpy(void *destination, const void *source, size_t count);
void *memmove(void *destination, const void *source, size_t count);
void *memset(void *destination, int value, size_t count);
int memcmp(const void *a, const void *b, size_t count);
void *memchr(const void *text, int value, size_t count);
size_t strlen(const char *text);
size_t strnlen(const char *text, size_t limit);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t count);
#endif
