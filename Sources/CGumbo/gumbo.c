// See include/CGumbo.h. The symbols are looked up once, by name, in libgumbo 1 (its soname:
// libgumbo.so.1 on Linux, libgumbo.1.dylib on macOS, where Homebrew's two prefixes are tried after
// the loader's own search path). Each function pointer has the type of the function the header
// declares, so a mismatch with the installed header is a compile error.
#include "CGumbo.h"

#include <COptionalLibrary.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#define NP_FN(name) __typeof__(name) *

static struct {
    const GumboOptions *default_options;
    NP_FN(gumbo_parse_with_options) parse_with_options;
    NP_FN(gumbo_destroy_output) destroy_output;
    NP_FN(gumbo_normalized_tagname) normalized_tagname;
} lib;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char error[512];

static void *open_library(void) {
#if defined(__APPLE__)
    const char *const candidates[] = {"libgumbo.1.dylib", "/opt/homebrew/lib/libgumbo.1.dylib",
                                      "/usr/local/lib/libgumbo.1.dylib"};
#else
    const char *const candidates[] = {"libgumbo.so.1"};
#endif
    return notepress_open_optional_library("NOTEPRESS_LIBGUMBO", candidates, sizeof candidates / sizeof candidates[0]);
}

static void load_symbols(void) {
    void *h = open_library();
    if (!h) {
        const char *why = dlerror();
        snprintf(error, sizeof error, "gumbo (libgumbo1), the HTML parser of raw HTML in Markdown, cannot be loaded: %s",
                 why ? why : "not found");
        return;
    }
#define LOAD(field, symbol)                                                                       \
    if (!(*(void **)&lib.field = dlsym(h, #symbol))) {                                            \
        const char *why = dlerror();                                                              \
        snprintf(error, sizeof error, "gumbo has no symbol " #symbol ": %s", why ? why : "?");    \
        return;                                                                                   \
    }
    LOAD(default_options, kGumboDefaultOptions)
    LOAD(parse_with_options, gumbo_parse_with_options)
    LOAD(destroy_output, gumbo_destroy_output)
    LOAD(normalized_tagname, gumbo_normalized_tagname)
#undef LOAD
}

/// Loads the symbols; when that fails, says so once on standard error.
static void load(void) {
    load_symbols();
    if (error[0])
        fprintf(stderr, "notepress: warning: %s; raw HTML is left out, as cmark-gfm's safe mode does "
                        "(install libgumbo1, or name the file with NOTEPRESS_LIBGUMBO)\n", error);
}

const char *notepress_gumbo_load_error(void) {
    pthread_once(&once, load);
    return error[0] ? error : NULL;
}

GumboOptions notepress_gumbo_default_options(void) { return *lib.default_options; }

GumboOutput *notepress_gumbo_parse_with_options(const GumboOptions *options, const char *buffer, size_t length) {
    return lib.parse_with_options(options, buffer, length);
}

void notepress_gumbo_destroy_output(const GumboOptions *options, GumboOutput *output) {
    lib.destroy_output(options, output);
}

const char *notepress_gumbo_normalized_tagname(GumboTag tag) { return lib.normalized_tagname(tag); }
