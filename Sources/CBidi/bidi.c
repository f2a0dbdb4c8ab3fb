// See include/CBidi.h.
#include "CBidi.h"

#include <unicode/uchar.h>
#include <unicode/uloc.h>
#include <unicode/utf8.h>

int32_t notepress_base_direction(const char *text, int32_t length) {
    const uint8_t *s = (const uint8_t *)text;
    int32_t i = 0;
    int32_t isolates = 0;  // open isolate initiators (UAX #9 P2: skip up to the matching PDI)
    while (i < length) {
        UChar32 c;
        U8_NEXT(s, i, length, c);
        if (c < 0) continue;
        UCharDirection d = u_charDirection(c);
        switch (d) {
        case U_LEFT_TO_RIGHT_ISOLATE:
        case U_RIGHT_TO_LEFT_ISOLATE:
        case U_FIRST_STRONG_ISOLATE:
            isolates++;
            break;
        case U_POP_DIRECTIONAL_ISOLATE:
            if (isolates > 0) isolates--;
            break;
        case U_LEFT_TO_RIGHT:
            if (isolates == 0) return 1;
            break;
        case U_RIGHT_TO_LEFT:
        case U_RIGHT_TO_LEFT_ARABIC:
            if (isolates == 0) return 2;
            break;
        default:
            break;
        }
    }
    return 0;
}

int32_t notepress_locale_is_rtl(const char *tag) {
    char locale[ULOC_FULLNAME_CAPACITY];
    UErrorCode status = U_ZERO_ERROR;
    int32_t parsed = 0;
    uloc_forLanguageTag(tag, locale, (int32_t)sizeof locale, &parsed, &status);
    if (U_FAILURE(status) || parsed <= 0) return 0;
    return uloc_isRightToLeft(locale) ? 1 : 0;
}
