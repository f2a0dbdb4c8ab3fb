// See include/CBuildInfo.h.
#include "CBuildInfo.h"

#include <unicode/uversion.h>

#ifndef NOTEPRESS_COMMIT
#define NOTEPRESS_COMMIT "unknown commit"
#endif

const char *notepress_build_commit(void) {
    return NOTEPRESS_COMMIT;
}

void notepress_icu_version(char *buffer) {
    UVersionInfo info;
    u_getVersion(info);
    u_versionToString(info, buffer);
}
