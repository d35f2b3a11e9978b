#ifndef PAYHANDOFF_IOS_CCJSON_SHIM_H
#define PAYHANDOFF_IOS_CCJSON_SHIM_H
/* The vendored cJSON (core/third_party/cjson, on the pod's header search path) and the few
   libc functions PayHandoffABI calls (malloc, free, strlen, strnlen, memcpy), as
   Sources/CcJSON/shim.h provides them on Linux. Only standard C headers: no Darwin module,
   so the same files also compile in the Embedded guard (make ios-check). */
#include "cJSON.h"
#include <stdlib.h>
#include <string.h>
#endif
