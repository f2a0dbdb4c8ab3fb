// How Notepress finds a system library it loads with dlopen(3) on first use instead of linking
// (OpenSSL's libcrypto: Sources/CLibCrypto; GNU libmicrohttpd: Sources/CMicroHTTPD), so that a
// process that never needs it never maps it. One rule for every such library.
#ifndef NOTEPRESS_COPTIONALLIBRARY_H
#define NOTEPRESS_COPTIONALLIBRARY_H

#include <stddef.h>

/// The file the environment variable `override` names, when it is set and not empty (a test, an
/// unusual installation); else the first of the `count` `candidates` (sonames the loader searches
/// for, then absolute paths) that loads. Every symbol is bound at once and kept local
/// (RTLD_NOW | RTLD_LOCAL). NULL when none loads: dlerror() then says why (of the last tried).
void *notepress_open_optional_library(const char *override, const char *const *candidates, size_t count);

#endif
