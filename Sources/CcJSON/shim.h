#ifndef PAYHANDOFF_CCJSON_SHIM_H
#define PAYHANDOFF_CCJSON_SHIM_H
/* Debian installs the header as <cjson/cJSON.h>; pkg-config libcjson adds -I.../cjson too. */
#include <cjson/cJSON.h>
#endif
