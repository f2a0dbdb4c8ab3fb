// See include/CLineBreak.h.
#include "CLineBreak.h"

#include <pthread.h>
#include <unicode/ubrk.h>
#include <unicode/utext.h>

// One line break iterator per thread (opening one loads the rules: far too slow per paragraph),
// closed when the thread ends.
static pthread_key_t iterator_key;
static pthread_once_t iterator_once = PTHREAD_ONCE_INIT;

static void close_iterator(void *bi) { ubrk_close((UBreakIterator *)bi); }

static void make_key(void) { pthread_key_create(&iterator_key, close_iterator); }

static UBreakIterator *thread_iterator(void) {
    pthread_once(&iterator_once, make_key);
    UBreakIterator *bi = pthread_getspecific(iterator_key);
    if (bi) return bi;
    UErrorCode status = U_ZERO_ERROR;
    bi = ubrk_open(UBRK_LINE, "", NULL, 0, &status);
    if (U_FAILURE(status)) return NULL;
    pthread_setspecific(iterator_key, bi);
    return bi;
}

int32_t notepress_line_breaks_begin(const char *text, int32_t length) {
    UBreakIterator *bi = thread_iterator();
    if (!bi) return -1;
    UErrorCode status = U_ZERO_ERROR;
    UText ut = UTEXT_INITIALIZER;
    utext_openUTF8(&ut, text, length, &status);
    if (U_FAILURE(status)) return -1;
    // The iterator keeps its own shallow clone of `ut` (pointing into `text`).
    ubrk_setUText(bi, &ut, &status);
    utext_close(&ut);
    return U_FAILURE(status) ? -1 : 0;
}

int32_t notepress_line_breaks_next(int32_t *breaks, int32_t capacity) {
    UBreakIterator *bi = thread_iterator();
    if (!bi) return 0;
    int32_t n = 0;
    while (n < capacity) {
        int32_t b = ubrk_next(bi);
        if (b == UBRK_DONE) break;
        breaks[n++] = b;
    }
    return n;
}

void notepress_line_breaks_end(void) {
    // Nothing to do: pointing the iterator at another text costs as much as a short pass (ICU
    // clones the UText and resets its caches), and the next pass replaces the text anyway. Until
    // then the iterator keeps a pointer to the old text that nothing reads (the next call on it
    // is notepress_line_breaks_begin, and closing it at thread exit does not touch the text).
}
