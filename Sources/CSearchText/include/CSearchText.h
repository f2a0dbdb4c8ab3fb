// The search's text rules from ICU (libicuuc), a plain C interface (ICU's headers are included by
// searchtext.c only, never seen by Swift): the one normalisation of a search term and the words
// of a text by ICU's word break iterator (UAX #29 plus ICU's dictionaries for Thai, Lao, Khmer,
// Myanmar, Chinese and Japanese). Texts are UTF-16 (ICU's own encoding, and Swift's `utf16`).
#ifndef NOTEPRESS_CSEARCHTEXT_H
#define NOTEPRESS_CSEARCHTEXT_H

#include <stdint.h>

/// Writes the search form of `src` (`length` UTF-16 units) into `dst` (room for `capacity`
/// units): compatibility decomposition (NFKD), full case folding (`ß` → `ss`), NFKD again, every
/// mark (general category M) removed, then NFKC (Hangul jamo back into syllables). Returns the
/// length of the result (more than `capacity`: nothing usable was written, call again with that
/// room), or -1 when ICU reports an error.
int32_t notepress_search_fold(const uint16_t *src, int32_t length, uint16_t *dst, int32_t capacity);

/// Full case folding alone (`u_strFoldCase`, default mappings), same contract as above.
int32_t notepress_search_casefold(const uint16_t *src, int32_t length, uint16_t *dst, int32_t capacity);

/// Full lower-casing in the root locale (`u_strToLower`: what JavaScript's `toLowerCase` does),
/// same contract as above.
int32_t notepress_search_lowercase(const uint16_t *src, int32_t length, uint16_t *dst, int32_t capacity);

/// The words of `text` (`length` UTF-16 units) by ICU's word break iterator (root locale): for
/// each segment whose rule status is a word's (number, letter, kana or ideograph; not spaces or
/// punctuation) three numbers are written into `out` — its start, its end (UTF-16 offsets) and
/// its rule status (100… number, 200… letter, 300… kana, 400… ideograph). At most `capacity`
/// numbers are written; returns how many the text needs (3 per word; call again with that room
/// when larger than `capacity`), or -1 when ICU reports an error.
int32_t notepress_search_words(const uint16_t *text, int32_t length, int32_t *out, int32_t capacity);

#endif
