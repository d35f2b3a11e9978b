#ifndef PAYHANDOFF_HARNESS_H
#define PAYHANDOFF_HARNESS_H
#include <stdint.h>

/* Runs the whole C harness (vectors under vectors_root, hostile calls, threads, fuzzing) in
   this process, for XCTest; prints as the command-line harness does. Writes the counts and
   returns 0 when nothing failed. */
int32_t payhandoff_harness_run(const char *vectors_root, int32_t *passed_count, int32_t *failed_count);

#endif
