// libzip, the zip container of DOCX, ODT and EPUB (Sources/NotepressContainer), loaded with
// dlopen(3) on the first package a run writes, so that a run writing HTML, man or any other
// single-file format never maps it. Its header (Debian libzip-dev) gives the types; the functions
// are the few below, each calling the loaded library's function of the same name after
// `notepress_`.
//
// Call `notepress_zip_load_error` first: the others may be called only once it returned NULL.
// NOTEPRESS_LIBZIP names another file to load instead (a test, an unusual installation).
#ifndef NOTEPRESS_CLIBZIP_H
#define NOTEPRESS_CLIBZIP_H

#include <stddef.h>
#include <stdint.h>
#include <zip.h>

/// Loads the library once (any thread); NULL when it is loaded, else one line saying why not (what
/// dlopen or dlsym said), the same on every call.
const char *notepress_zip_load_error(void);

/// Writes the `count` entries (`names[i]` holding `lengths[i]` bytes at `data[i]`, each stored
/// when `stored[i]` is non-zero, else deflated at level 9) into a new zip archive in memory, in
/// that order, every entry dated `mtime` (a DOS time: from 1980 on; libzip writes no extra field for an entry from a
/// buffer, which ZipArchiveTests checks), so
/// that the same entries give the same bytes. On success returns 0 and sets `*out` (to free with
/// free(3)) and `*out_length`; else returns -1 and writes libzip's message into `message`.
int notepress_zip_write(size_t count, const char *const *names, const uint8_t *const *data, const size_t *lengths,
                        const int *stored, int64_t mtime, uint8_t **out, size_t *out_length,
                        char *message, size_t message_size);

/// Reads the zip archive of `length` bytes at `data` (opened with ZIP_CHECKCONS: libzip's
/// consistency checks of the central directory against the local headers) and calls `entry` with
/// each entry in archive order: its name, its uncompressed bytes (valid during the call only) and
/// whether it is stored. An entry larger than `max_entry_size` bytes is not read: an error. Returns
/// 0 when every entry was read; 1 when `entry` returned non-zero (reading stops there); -1 when
/// the archive cannot be read, with libzip's message in `message`.
int notepress_zip_read(const uint8_t *data, size_t length, size_t max_entry_size, void *context,
                       int (*entry)(void *context, const char *name, const uint8_t *bytes, size_t length, int stored),
                       char *message, size_t message_size);

#endif
