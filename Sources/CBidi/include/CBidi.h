// Text direction from ICU (libicuuc), as a plain C interface: ICU's headers are included by
// bidi.c only, never seen by Swift (they would clash with the ICU headers Foundation brings).
//
// - `notepress_base_direction`: the paragraph direction of Unicode Standard Annex #9 ("Unicode
//   Bidirectional Algorithm"), rules P2 and P3 — the direction of the first character whose
//   bidirectional type is L, R or AL — with ICU's character data (`u_charDirection`). Characters
//   between an isolate initiator (LRI, RLI, FSI) and its matching PDI are skipped, as P2 says.
// - `notepress_locale_is_rtl`: whether a language tag's script is written right to left
//   (ICU's `uloc_isRightToLeft`, from the likely script of the language: `he`, `ar`, `fa`, `ur`,
//   `yi`, `az-Arab`, … yes; `en`, `ja`, `az` no).
#ifndef NOTEPRESS_CBIDI_H
#define NOTEPRESS_CBIDI_H

#include <stdint.h>

/// The base direction of the UTF-8 text `text` (`length` bytes; invalid sequences are skipped):
/// 1 left to right, 2 right to left, 0 neutral (no strong character outside isolates).
int32_t notepress_base_direction(const char *text, int32_t length);

/// 1 when the language tag `tag` (BCP 47, NUL-terminated) is written right to left, else 0.
int32_t notepress_locale_is_rtl(const char *tag);

#endif
