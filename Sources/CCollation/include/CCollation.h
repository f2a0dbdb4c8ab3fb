// Natural order of names (note titles, paths) by ICU's collation (libicui18n): the root locale's
// collation (CLDR root, so the order never depends on the machine's locale), numeric ordering on
// ("Entry 9" before "Entry 90" before "Entry 8999"), secondary strength (case is ignored: "apple
// pie" before "Zebra"; accents are not). Plain C only: ICU's headers are included by collation.c
// and never seen by Swift, so they cannot clash with the ICU headers Foundation brings.
//
// libicui18n is loaded with dlopen on the first key (through COptionalLibrary; environment
// variable NOTEPRESS_LIBICUI18N names another file): a run that lists no notes never maps it.
#ifndef NOTEPRESS_CCOLLATION_H
#define NOTEPRESS_CCOLLATION_H

#include <stdint.h>

/// Writes the sort key of the UTF-8 text `text` (`length` bytes) into `key` (at most `capacity`
/// bytes) and returns the key's length, without its terminating zero byte; when that is more
/// than `capacity` - 1, nothing usable was written and the caller retries with a larger buffer.
/// Two texts' keys compared byte by byte (shorter first on a common prefix) give their natural
/// order; equal keys mean the texts are equal to this order. Each thread has its own collator.
/// Ends the process (exit status 69, a message on standard error) when libicui18n cannot be loaded.
int32_t notepress_natural_sort_key(const char *text, int32_t length, uint8_t *key, int32_t capacity);

#endif
