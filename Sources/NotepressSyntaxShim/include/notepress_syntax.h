// A plain C interface to KDE's KSyntaxHighlighting (C++/Qt5), for Notepress's code highlighting.
//
// This target is built as a shared library of its own (the `NotepressSyntaxShim` dynamic library
// product: libNotepressSyntaxShim.so beside the `notepress` binary) that Notepress loads with
// dlopen(3) the first time a document has a fenced code block with a language, so a run without
// code never loads Qt, and the binary still starts where the library is not installed. Swift
// never includes this header: NotepressHighlight looks the functions up by name (dlsym) with the
// signatures below, which are the contract between the two.
//
// Text is UTF-8; offsets and lengths are in UTF-8 bytes of the text given. Styles are the numbers
// of KSyntaxHighlighting::Theme::TextStyle; np_syntax_style_name gives the library's own name of
// each (Normal, Keyword, Function, …), which Notepress maps onto its roles in one table.
#ifndef NOTEPRESS_SYNTAX_H
#define NOTEPRESS_SYNTAX_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif

/// The version of KSyntaxHighlighting the shim was built against ("5.103.0"). A static string.
const char *np_syntax_library_version(void);

/// Builds the library's repository of syntax definitions and themes (once per process; later
/// calls return the same one). NULL when it cannot be built.
void *np_syntax_open(void);

/// How many syntax definitions the repository holds.
int np_syntax_definition_count(void *repository);

/// Resolves a code block's language (`swift`, `py`, `Bash`, `c++`) to a definition by the
/// library's rules: its name (case ignored), else a file name with that extension (`x.py`).
/// Writes the definition's name (NUL-terminated, cut to `capacity`) into `name` and returns 1,
/// or returns 0 for an unknown language.
int np_syntax_resolve(void *repository, const char *language, char *name, size_t capacity);

/// Called for each token: `offset` and `length` in UTF-8 bytes of the text, `style` a TextStyle.
typedef void (*np_syntax_token_fn)(void *context, size_t offset, size_t length, int style);

/// Tokenises `length` bytes of UTF-8 `text` with the definition named `definition` (from
/// np_syntax_resolve), line by line, calling `token` for each token in order (tokens do not
/// overlap; gaps are plain text). Lines longer than `max_line` bytes are left plain (bounded
/// time on huge lines; the state carries on from the line before). Returns 0 when the definition
/// is unknown, else 1.
int np_syntax_highlight(void *repository, const char *definition, const char *text, size_t length,
                        size_t max_line, np_syntax_token_fn token, void *context);

/// The library's name of a TextStyle ("Keyword", "ControlFlow", "DataType", …), or NULL past the
/// last one. A static string.
const char *np_syntax_style_name(int style);

/// The colours of the library theme `theme` ("Breeze Light", "GitHub Dark", …; case ignored):
/// writes 0xRRGGBB of style `style`'s text into `*rgb` and its bold and italic flags, and
/// returns 1; returns 0 when the theme is unknown. `style` -1 gives the editor's background
/// colour in `*rgb` (and the normal text's flags).
int np_syntax_theme_style(void *repository, const char *theme, int style, unsigned *rgb, int *bold, int *italic);

/// Calls `each` with the name of every library theme, sorted.
void np_syntax_theme_names(void *repository, void (*each)(void *context, const char *name), void *context);

#ifdef __cplusplus
}
#endif
#endif
