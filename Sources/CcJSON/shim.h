#ifndef PAYHANDOFF_CCJSON_SHIM_H
#define PAYHANDOFF_CCJSON_SHIM_H
/* Debian installs the header as <cjson/cJSON.h>; pkg-config libcjson adds -I.../cjson too. */
#include <cjson/cJSON.h>
/* malloc/free/strnlen/memcpy for the C ABI layer: Embedded Swift cannot import Glibc, so the
   few libc functions PayHandoffABI needs come in through this module. */
#include <stdlib.h>
#include <string.h>
#endif
