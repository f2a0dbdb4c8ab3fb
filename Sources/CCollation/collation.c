// See include/CCollation.h.
#include "CCollation.h"

#include <COptionalLibrary.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unicode/ucol.h>
#include <unicode/uiter.h>

// ICU renames every entry point with its version (ucol_open → ucol_open_72): the header's macro
// gives the name to look up, and U_ICU_VERSION_SHORT the library's soname.
#define NP_STR2(x) #x
#define NP_STR(x) NP_STR2(x)
#define NP_FN(name) __typeof__(name) *

static struct {
    NP_FN(ucol_open) open;
    NP_FN(ucol_close) close;
    NP_FN(ucol_setAttribute) set;
    NP_FN(ucol_nextSortKeyPart) next;
    NP_FN(uiter_setUTF8) iter;
} lib;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_key_t collator_key;

static void fail(const char *what, const char *detail) {
    fprintf(stderr, "notepress: ICU's libicui18n (needed to sort note titles): %s%s%s\n",
            what, detail ? ": " : "", detail ? detail : "");
    exit(69);
}

static void close_collator(void *c) { lib.close((UCollator *)c); }

static void load(void) {
#if defined(__APPLE__)
    const char *const candidates[] = {"libicui18n." U_ICU_VERSION_SHORT ".dylib",
                                      "/opt/homebrew/opt/icu4c/lib/libicui18n." U_ICU_VERSION_SHORT ".dylib",
                                      "/usr/local/opt/icu4c/lib/libicui18n." U_ICU_VERSION_SHORT ".dylib"};
#else
    const char *const candidates[] = {"libicui18n.so." U_ICU_VERSION_SHORT};
#endif
    void *h = notepress_open_optional_library("NOTEPRESS_LIBICUI18N", candidates, sizeof candidates / sizeof candidates[0]);
    if (!h) fail("cannot load it", dlerror());
#define LOAD(field, symbol) \
    if (!(*(void **)&lib.field = dlsym(h, NP_STR(symbol)))) fail("no symbol " NP_STR(symbol), dlerror());
    LOAD(open, ucol_open)
    LOAD(close, ucol_close)
    LOAD(set, ucol_setAttribute)
    LOAD(next, ucol_nextSortKeyPart)
#undef LOAD
    // uiter_setUTF8 lives in libicuuc (linked: CICU).
    lib.iter = uiter_setUTF8;
    pthread_key_create(&collator_key, close_collator);
}

// The thread's collator: root locale, numeric ordering, secondary strength.
static UCollator *collator(void) {
    pthread_once(&once, load);
    UCollator *c = pthread_getspecific(collator_key);
    if (c) return c;
    UErrorCode status = U_ZERO_ERROR;
    c = lib.open("", &status);
    lib.set(c, UCOL_NUMERIC_COLLATION, UCOL_ON, &status);
    lib.set(c, UCOL_STRENGTH, UCOL_SECONDARY, &status);
    if (U_FAILURE(status)) fail("cannot open the root collator", u_errorName(status));
    pthread_setspecific(collator_key, c);
    return c;
}

int32_t notepress_natural_sort_key(const char *text, int32_t length, uint8_t *key, int32_t capacity) {
    UCollator *c = collator();
    // The key of a UTF-8 text read in place (ucol_getSortKey wants UTF-16): parts until it ends.
    UCharIterator it;
    lib.iter(&it, text, length);
    uint32_t state[2] = {0, 0};
    int32_t total = 0;
    uint8_t chunk[256];
    for (;;) {
        UErrorCode status = U_ZERO_ERROR;
        int32_t n = lib.next(c, &it, state, chunk, (int32_t)sizeof chunk, &status);
        if (U_FAILURE(status)) fail("ucol_nextSortKeyPart failed", u_errorName(status));
        for (int32_t i = 0; i < n; i++, total++) if (total < capacity - 1) key[total] = chunk[i];
        if (n < (int32_t)sizeof chunk) break;
    }
    if (total < capacity) key[total] = 0;
    return total;
}
