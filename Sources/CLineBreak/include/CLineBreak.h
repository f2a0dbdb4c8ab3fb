// Line break opportunities of Unicode Standard Annex #14 (UAX #14, "Unicode Line Breaking
// Algorithm"), computed by ICU's rule-based line break iterator (libicuuc, `ubrk_open` with
// `UBRK_LINE` and the root locale). Plain C only: ICU's headers are included by linebreak.c and
// never seen by Swift, so they cannot clash with the ICU headers Foundation brings.
#ifndef NOTEPRESS_CLINEBREAK_H
#define NOTEPRESS_CLINEBREAK_H

#include <stdint.h>

/// Writes the line break opportunities of the UTF-8 text `text` (`length` bytes, valid UTF-8)
/// into `breaks`, ascending, as byte offsets into `text`: an offset `k` means a line may end
/// after byte `k - 1` (before byte `k`). Offset 0 is never reported; `length` always is (the end
/// of the text), unless `length` is 0. `capacity` must be at least `length`, which is the most
/// there can be. Thread-safe: each thread keeps its own iterator, opened on first use.
///
/// Returns the number of offsets written, or -1 when ICU reports an error (then the caller breaks
/// at spaces only).
int32_t notepress_line_breaks(const char *text, int32_t length, int32_t *breaks, int32_t capacity);

#endif
