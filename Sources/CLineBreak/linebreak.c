// See include/CLineBreak.h.
#include "CLineBreak.h"

#include <pthread.h>
#include <stdlib.h>
#include <unicode/ubrk.h>
#include <unicode/utf8.h>

// Per thread: one line break iterator (opening one loads the rules: far too slow per paragraph)
// and the text of the current pass in UTF-16, ICU's own encoding. ICU reads a UTF-8 text through
// a UText that converts it a small chunk at a time and maps every index back; given UTF-16 it
// reads the text in place. The boundaries are the same (the rules see the same code points); a
// UTF-16 index is turned back into a UTF-8 byte offset with `to_utf8` (identity for ASCII text).
// All of it is freed when the thread ends.
typedef struct {
    UBreakIterator *bi;
    UChar *text16;    // capacity `capacity` units
    int32_t *to_utf8; // capacity `capacity` + 1 entries; used when `mapped`
    int32_t capacity;
    int mapped;
} LineBreakState;

static pthread_key_t state_key;
static pthread_once_t state_once = PTHREAD_ONCE_INIT;

static void free_state(void *p) {
    LineBreakState *s = (LineBreakState *)p;
    ubrk_close(s->bi);
    free(s->text16);
    free(s->to_utf8);
    free(s);
}

static void make_key(void) { pthread_key_create(&state_key, free_state); }

static LineBreakState *thread_state(void) {
    pthread_once(&state_once, make_key);
    LineBreakState *s = pthread_getspecific(state_key);
    if (s) return s;
    UErrorCode status = U_ZERO_ERROR;
    UBreakIterator *bi = ubrk_open(UBRK_LINE, "", NULL, 0, &status);
    if (U_FAILURE(status)) return NULL;
    s = calloc(1, sizeof *s);
    if (!s) { ubrk_close(bi); return NULL; }
    s->bi = bi;
    pthread_setspecific(state_key, s);
    return s;
}

// Room for a text of `length` UTF-8 bytes (at most `length` UTF-16 units). Texts of more than
// 64 KiB get buffers of their own size, given back at the next smaller pass (so a huge paragraph
// does not keep its memory); smaller ones share buffers that only grow up to that size.
static int reserve(LineBreakState *s, int32_t length) {
    const int32_t keep = 1 << 16;
    if (length <= s->capacity && !(s->capacity > keep && length <= keep)) return 0;
    int32_t capacity = length > keep ? length : keep;
    UChar *t = malloc((size_t)capacity * sizeof(UChar));
    int32_t *m = malloc(((size_t)capacity + 1) * sizeof(int32_t));
    if (!t || !m) { free(t); free(m); return -1; }
    free(s->text16);
    free(s->to_utf8);
    s->text16 = t;
    s->to_utf8 = m;
    s->capacity = capacity;
    return 0;
}

int32_t notepress_line_breaks_begin(const char *text, int32_t length) {
    LineBreakState *s = thread_state();
    if (!s || length < 0) return -1;
    if (reserve(s, length > 0 ? length : 1) != 0) return -1;
    const uint8_t *u8 = (const uint8_t *)text;
    int32_t i = 0;
    while (i < length && u8[i] < 0x80) { s->text16[i] = u8[i]; i++; }
    int32_t n16 = i;
    s->mapped = i < length;
    if (s->mapped) {
        for (int32_t k = 0; k < i; k++) s->to_utf8[k] = k;
        while (i < length) {
            int32_t start = i;
            UChar32 c;
            U8_NEXT(u8, i, length, c);
            if (c < 0) c = 0xFFFD;  // ill-formed (never from Swift strings): as ICU's UTF-8 UText
            if (c <= 0xFFFF) {
                s->to_utf8[n16] = start;
                s->text16[n16++] = (UChar)c;
            } else {
                // No boundary falls between the two halves of a surrogate pair.
                s->to_utf8[n16] = start;
                s->text16[n16++] = U16_LEAD(c);
                s->to_utf8[n16] = start;
                s->text16[n16++] = U16_TRAIL(c);
            }
        }
        s->to_utf8[n16] = length;
    }
    UErrorCode status = U_ZERO_ERROR;
    ubrk_setText(s->bi, s->text16, n16, &status);
    return U_FAILURE(status) ? -1 : 0;
}

int32_t notepress_line_breaks_next(int32_t *breaks, int32_t capacity) {
    LineBreakState *s = thread_state();
    if (!s) return 0;
    int32_t n = 0;
    while (n < capacity) {
        int32_t b = ubrk_next(s->bi);
        if (b == UBRK_DONE) break;
        breaks[n++] = s->mapped ? s->to_utf8[b] : b;
    }
    return n;
}

void notepress_line_breaks_end(void) {
    // Nothing to do: the iterator reads the thread's own UTF-16 copy of the text, never the
    // caller's buffer, and the next pass replaces it.
}
