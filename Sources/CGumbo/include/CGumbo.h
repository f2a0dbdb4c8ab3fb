// Google's gumbo, an HTML5 parser (the WHATWG tokenizer and tree builder): raw HTML in Markdown
// (Sources/NotepressRawHTML), loaded with dlopen(3) on the first raw HTML a run meets, so that a
// run of Markdown without raw HTML never maps it (linked, loading and relocating it cost every
// process ~1 M instructions of start-up). Its header gives the types; the functions are the few
// below, each calling the loaded library's function of the same name after `notepress_`.
//
// Call `notepress_gumbo_load_error` first: the others may be called only once it returned NULL.
// NOTEPRESS_LIBGUMBO names another file to load instead (a test, an unusual installation).
#ifndef NOTEPRESS_CGUMBO_H
#define NOTEPRESS_CGUMBO_H

#include <stddef.h>
#include <gumbo.h>

/// Loads the library once (any thread); NULL when it is loaded, else one line saying why not
/// (what dlopen or dlsym said), the same on every call. The first call that fails also writes
/// that line, as a warning that raw HTML is left out, to standard error.
const char *notepress_gumbo_load_error(void);

/// gumbo's kGumboDefaultOptions (a copy: the loaded library's data).
GumboOptions notepress_gumbo_default_options(void);

GumboOutput *notepress_gumbo_parse_with_options(const GumboOptions *options, const char *buffer, size_t length);
void notepress_gumbo_destroy_output(const GumboOptions *options, GumboOutput *output);
const char *notepress_gumbo_normalized_tagname(GumboTag tag);

#endif
