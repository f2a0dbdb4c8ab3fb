// See include/CSearchText.h.
#include "CSearchText.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/ustring.h>
#include <unicode/utf16.h>

// A scratch buffer that grows (freed by the caller).
static UChar *grow(UChar *p, int32_t n) { return (UChar *)realloc(p, (size_t)(n > 0 ? n : 1) * sizeof(UChar)); }

// `norm` applied to `src` into a new buffer; its length in `*len`; NULL on error.
static UChar *normalize(const UNormalizer2 *norm, const UChar *src, int32_t n, int32_t *len) {
    UErrorCode e = U_ZERO_ERROR;
    int32_t need = unorm2_normalize(norm, src, n, NULL, 0, &e);
    if (e != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(e)) return NULL;
    UChar *out = grow(NULL, need + 1);
    if (!out) return NULL;
    e = U_ZERO_ERROR;
    *len = unorm2_normalize(norm, src, n, out, need + 1, &e);
    if (U_FAILURE(e)) { free(out); return NULL; }
    return out;
}

// Copies `n` units of `src` into `dst` when they fit; returns `n`.
static int32_t deliver(const UChar *src, int32_t n, uint16_t *dst, int32_t capacity) {
    if (n <= capacity) memcpy(dst, src, (size_t)n * sizeof(UChar));
    return n;
}

int32_t notepress_search_casefold(const uint16_t *src, int32_t length, uint16_t *dst, int32_t capacity) {
    UErrorCode e = U_ZERO_ERROR;
    int32_t n = u_strFoldCase((UChar *)dst, capacity, (const UChar *)src, length, U_FOLD_CASE_DEFAULT, &e);
    if (e == U_BUFFER_OVERFLOW_ERROR || e == U_STRING_NOT_TERMINATED_WARNING) return n;
    return U_FAILURE(e) ? -1 : n;
}

int32_t notepress_search_lowercase(const uint16_t *src, int32_t length, uint16_t *dst, int32_t capacity) {
    UErrorCode e = U_ZERO_ERROR;
    int32_t n = u_strToLower((UChar *)dst, capacity, (const UChar *)src, length, "", &e);
    if (e == U_BUFFER_OVERFLOW_ERROR || e == U_STRING_NOT_TERMINATED_WARNING) return n;
    return U_FAILURE(e) ? -1 : n;
}

int32_t notepress_search_fold(const uint16_t *src, int32_t length, uint16_t *dst, int32_t capacity) {
    UErrorCode e = U_ZERO_ERROR;
    const UNormalizer2 *nfkd = unorm2_getNFKDInstance(&e);
    const UNormalizer2 *nfkc = unorm2_getNFKCInstance(&e);
    if (U_FAILURE(e)) return -1;
    int32_t n1 = 0, n2 = 0, n3 = 0, n4 = 0, result = -1;
    UChar *a = normalize(nfkd, (const UChar *)src, length, &n1), *b = NULL, *c = NULL, *d = NULL;
    if (!a) goto done;
    e = U_ZERO_ERROR;
    n2 = u_strFoldCase(NULL, 0, a, n1, U_FOLD_CASE_DEFAULT, &e);
    if (!(b = grow(NULL, n2 + 1))) goto done;
    e = U_ZERO_ERROR;
    n2 = u_strFoldCase(b, n2 + 1, a, n1, U_FOLD_CASE_DEFAULT, &e);
    if (U_FAILURE(e)) goto done;
    if (!(c = normalize(nfkd, b, n2, &n3))) goto done;
    // Marks out, in place.
    int32_t i = 0, k = 0;
    while (i < n3) {
        int32_t start = i;
        UChar32 cp;
        U16_NEXT(c, i, n3, cp);
        if (U_GET_GC_MASK(cp) & U_GC_M_MASK) continue;
        while (start < i) c[k++] = c[start++];
    }
    if (!(d = normalize(nfkc, c, k, &n4))) goto done;
    result = deliver(d, n4, dst, capacity);
done:
    free(a); free(b); free(c); free(d);
    return result;
}

// Per thread: one word break iterator (opening one loads the rules and dictionaries), closed
// when the thread ends.
static pthread_key_t key;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static void close_iterator(void *p) { ubrk_close((UBreakIterator *)p); }
static void make_key(void) { pthread_key_create(&key, close_iterator); }

int32_t notepress_search_words(const uint16_t *text, int32_t length, int32_t *out, int32_t capacity) {
    pthread_once(&once, make_key);
    UBreakIterator *bi = (UBreakIterator *)pthread_getspecific(key);
    UErrorCode e = U_ZERO_ERROR;
    if (!bi) {
        bi = ubrk_open(UBRK_WORD, "", NULL, 0, &e);
        if (U_FAILURE(e)) return -1;
        pthread_setspecific(key, bi);
    }
    ubrk_setText(bi, (const UChar *)text, length, &e);
    if (U_FAILURE(e)) return -1;
    int32_t n = 0, start = ubrk_first(bi);
    for (int32_t end = ubrk_next(bi); end != UBRK_DONE; start = end, end = ubrk_next(bi)) {
        int32_t status = ubrk_getRuleStatus(bi);
        if (status < UBRK_WORD_NONE_LIMIT) continue;
        if (n + 3 <= capacity) { out[n] = start; out[n + 1] = end; out[n + 2] = status; }
        n += 3;
    }
    ubrk_setText(bi, NULL, 0, &e);
    return n;
}
