#ifndef NOTEPRESS_CGUMBO_SHIM_H
#define NOTEPRESS_CGUMBO_SHIM_H
/* Google's gumbo, an HTML5 parser (the WHATWG tokenizer and tree builder): raw HTML in Markdown. */
#include <gumbo.h>
#endif
