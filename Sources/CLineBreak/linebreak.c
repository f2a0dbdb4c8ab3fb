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

int32_t notepress_line_breaks(const char *text, int32_t length, int32_t *breaks, int32_t capacity) {
    if (length <= 0) return 0;
    UBreakIterator *bi = thread_iterator();
    if (!bi) return -1;
    UErrorCode status = U_ZERO_ERROR;
    UText ut = UTEXT_INITIALIZER;
    utext_openUTF8(&ut, text, length, &status);
    if (U_FAILURE(status)) return -1;
    ubrk_setUText(bi, &ut, &status);
    if (U_FAILURE(status)) { utext_close(&ut); return -1; }
    int32_t n = 0;
    for (int32_t b = ubrk_next(bi); b != UBRK_DONE && n < capacity; b = ubrk_next(bi)) breaks[n++] = b;
    // The iterator keeps a shallow clone of `ut`, which points into `text`: point it at a static
    // empty text, so it never refers to the caller's buffer after this call.
    UText empty = UTEXT_INITIALIZER;
    UErrorCode reset = U_ZERO_ERROR;
    utext_openUTF8(&empty, "", 0, &reset);
    ubrk_setUText(bi, &empty, &reset);
    utext_close(&empty);
    utext_close(&ut);
    return n;
}
