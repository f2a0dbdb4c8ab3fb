// See include/COptionalLibrary.h.
#include "COptionalLibrary.h"

#include <dlfcn.h>
#include <stdlib.h>

void *notepress_open_optional_library(const char *override, const char *const *candidates, size_t count) {
    const char *named = override ? getenv(override) : NULL;
    if (named && *named) return dlopen(named, RTLD_NOW | RTLD_LOCAL);
    void *handle = NULL;
    for (size_t i = 0; i < count && !handle; i++) handle = dlopen(candidates[i], RTLD_NOW | RTLD_LOCAL);
    return handle;
}
