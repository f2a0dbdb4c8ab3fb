// Line break opportunities of Unicode Standard Annex #14 (UAX #14, "Unicode Line Breaking
// Algorithm"), computed by ICU's rule-based line break iterator (libicuuc, `ubrk_open` with
// `UBRK_LINE` and the root locale). Plain C only: ICU's headers are included by linebreak.c and
// never seen by Swift, so they cannot clash with the ICU headers Foundation brings.
//
// One pass over a text: `notepress_line_breaks_begin`, then `notepress_line_breaks_next` until
// it returns 0, then `notepress_line_breaks_end`, all on one thread, with `text` valid during
// `notepress_line_breaks_begin`. Each thread has its own iterator (opened on first use, closed
// when the thread ends), so threads may run passes at the same time.
#ifndef NOTEPRESS_CLINEBREAK_H
#define NOTEPRESS_CLINEBREAK_H

#include <stdint.h>

/// Starts a pass over the UTF-8 text `text` (`length` bytes, valid UTF-8), copied as UTF-16 (ICU
/// reads that in place; the offsets reported are still UTF-8 byte offsets). Returns 0, or -1 when
/// ICU reports an error or memory runs out.
int32_t notepress_line_breaks_begin(const char *text, int32_t length);

/// Writes the next line break opportunities of the pass into `breaks`, ascending, at most
/// `capacity`, as byte offsets into the text: an offset `k` means a line may end after byte
/// `k - 1` (before byte `k`). Offset 0 is never reported; the text's length always is, last
/// (unless it is 0). Returns how many were written: 0 when the pass is over.
int32_t notepress_line_breaks_next(int32_t *breaks, int32_t capacity);

/// Ends the pass. (The pass works on the thread's own UTF-16 copy of the text, made by
/// `notepress_line_breaks_begin`: the caller's buffer is not read after that call.)
void notepress_line_breaks_end(void);

#endif
