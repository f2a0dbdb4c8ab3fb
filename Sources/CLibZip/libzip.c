// See include/CLibZip.h. The symbols are looked up once, by name, in libzip (its sonames
// libzip.so.4 on Linux (Debian bookworm), libzip.5.dylib on macOS, where Homebrew's two prefixes are tried
// after the loader's own search path). Each function pointer has the type of the function the
// header declares, so a mismatch with the installed header is a compile error.
#include "CLibZip.h"

#include <COptionalLibrary.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NP_FN(name) __typeof__(name) *

static struct {
    NP_FN(zip_source_buffer_create) source_buffer_create;
    NP_FN(zip_source_keep) source_keep;
    NP_FN(zip_source_free) source_free;
    NP_FN(zip_open_from_source) open_from_source;
    NP_FN(zip_source_buffer) source_buffer;
    NP_FN(zip_file_add) file_add;
    NP_FN(zip_set_file_compression) set_file_compression;
    NP_FN(zip_file_set_mtime) file_set_mtime;
    NP_FN(zip_close) close;
    NP_FN(zip_discard) discard;
    NP_FN(zip_get_error) get_error;
    NP_FN(zip_error_strerror) error_strerror;
    NP_FN(zip_source_open) source_open;
    NP_FN(zip_source_read) source_read;
    NP_FN(zip_source_close) source_close;
    NP_FN(zip_source_seek) source_seek;
    NP_FN(zip_source_tell) source_tell;
    NP_FN(zip_get_num_entries) get_num_entries;
    NP_FN(zip_stat_index) stat_index;
    NP_FN(zip_fopen_index) fopen_index;
    NP_FN(zip_fread) fread;
    NP_FN(zip_fclose) fclose;
} lib;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char error[512];

static void *open_library(void) {
#if defined(__APPLE__)
    const char *const candidates[] = {"libzip.5.dylib", "/opt/homebrew/lib/libzip.5.dylib", "/usr/local/lib/libzip.5.dylib"};
#else
    const char *const candidates[] = {"libzip.so.4"};
#endif
    return notepress_open_optional_library("NOTEPRESS_LIBZIP", candidates, sizeof candidates / sizeof candidates[0]);
}

static void load(void) {
    void *h = open_library();
    if (!h) {
        const char *why = dlerror();
        snprintf(error, sizeof error, "libzip (libzip4), the zip container of DOCX, ODT and EPUB, cannot be loaded: %s",
                 why ? why : "not found");
        return;
    }
#define LOAD(field, symbol)                                                                       \
    if (!(*(void **)&lib.field = dlsym(h, #symbol))) {                                            \
        const char *why = dlerror();                                                              \
        snprintf(error, sizeof error, "libzip has no symbol " #symbol ": %s", why ? why : "?");    \
        return;                                                                                   \
    }
    LOAD(source_buffer_create, zip_source_buffer_create)
    LOAD(source_keep, zip_source_keep)
    LOAD(source_free, zip_source_free)
    LOAD(open_from_source, zip_open_from_source)
    LOAD(source_buffer, zip_source_buffer)
    LOAD(file_add, zip_file_add)
    LOAD(set_file_compression, zip_set_file_compression)
    LOAD(file_set_mtime, zip_file_set_mtime)
    LOAD(close, zip_close)
    LOAD(discard, zip_discard)
    LOAD(get_error, zip_get_error)
    LOAD(error_strerror, zip_error_strerror)
    LOAD(source_open, zip_source_open)
    LOAD(source_read, zip_source_read)
    LOAD(source_close, zip_source_close)
    LOAD(source_seek, zip_source_seek)
    LOAD(source_tell, zip_source_tell)
    LOAD(get_num_entries, zip_get_num_entries)
    LOAD(stat_index, zip_stat_index)
    LOAD(fopen_index, zip_fopen_index)
    LOAD(fread, zip_fread)
    LOAD(fclose, zip_fclose)
#undef LOAD
}

const char *notepress_zip_load_error(void) {
    pthread_once(&once, load);
    return error[0] ? error : NULL;
}

static int fail(char *message, size_t size, const char *what, zip_error_t *e) {
    snprintf(message, size, "%s: %s", what, e ? lib.error_strerror(e) : "?");
    return -1;
}

/// Reads the whole of the finished in-memory archive `src` into a new buffer.
static int read_back(zip_source_t *src, uint8_t **out, size_t *out_length, char *message, size_t size) {
    if (lib.source_open(src) < 0) return fail(message, size, "cannot reopen the archive", NULL);
    if (lib.source_seek(src, 0, SEEK_END) < 0) { lib.source_close(src); return fail(message, size, "cannot seek", NULL); }
    zip_int64_t length = lib.source_tell(src);
    lib.source_seek(src, 0, SEEK_SET);
    uint8_t *buffer = malloc(length > 0 ? (size_t)length : 1);
    if (!buffer) { lib.source_close(src); snprintf(message, size, "out of memory"); return -1; }
    zip_int64_t got = length > 0 ? lib.source_read(src, buffer, (zip_uint64_t)length) : 0;
    lib.source_close(src);
    if (got != length) { free(buffer); snprintf(message, size, "short read of the archive"); return -1; }
    *out = buffer;
    *out_length = (size_t)length;
    return 0;
}

int notepress_zip_write(size_t count, const char *const *names, const uint8_t *const *data, const size_t *lengths,
                        const int *stored, int64_t mtime, uint8_t **out, size_t *out_length,
                        char *message, size_t message_size) {
    // libzip turns a time_t into a DOS date with localtime(3): give it the time whose local
    // broken-down fields are `mtime`'s in UTC, so the bytes do not depend on TZ.
    time_t utc = (time_t)(mtime < 315532800 ? 315532800 : mtime);
    struct tm fields;
    gmtime_r(&utc, &fields);
    fields.tm_isdst = -1;
    time_t dos_time = mktime(&fields);
    zip_error_t e;
    memset(&e, 0, sizeof e);
    zip_source_t *src = lib.source_buffer_create(NULL, 0, 0, &e);
    if (!src) return fail(message, message_size, "cannot make an archive in memory", &e);
    lib.source_keep(src);
    zip_t *za = lib.open_from_source(src, ZIP_TRUNCATE, &e);
    if (!za) { lib.source_free(src); return fail(message, message_size, "cannot open the archive", &e); }
    for (size_t i = 0; i < count; i++) {
        zip_source_t *entry = lib.source_buffer(za, data[i], lengths[i], 0);
        zip_int64_t index = entry ? lib.file_add(za, names[i], entry, ZIP_FL_ENC_UTF_8) : -1;
        if (index < 0) {
            if (entry) lib.source_free(entry);
            fail(message, message_size, names[i], lib.get_error(za));
            lib.discard(za); lib.source_free(src);
            return -1;
        }
        lib.set_file_compression(za, (zip_uint64_t)index, stored[i] ? ZIP_CM_STORE : ZIP_CM_DEFLATE, stored[i] ? 0 : 9);
        lib.file_set_mtime(za, (zip_uint64_t)index, dos_time, 0);
    }
    if (lib.close(za) < 0) {
        fail(message, message_size, "cannot finish the archive", lib.get_error(za));
        lib.discard(za); lib.source_free(src);
        return -1;
    }
    int status = read_back(src, out, out_length, message, message_size);
    lib.source_free(src);
    return status;
}

int notepress_zip_read(const uint8_t *data, size_t length, size_t max_entry_size, void *context,
                       int (*entry)(void *context, const char *name, const uint8_t *bytes, size_t length, int stored),
                       char *message, size_t message_size) {
    zip_error_t e;
    memset(&e, 0, sizeof e);
    zip_source_t *src = lib.source_buffer_create(length ? data : NULL, length, 0, &e);
    if (!src) return fail(message, message_size, "cannot read the archive from memory", &e);
    zip_t *za = lib.open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &e);
    if (!za) { lib.source_free(src); return fail(message, message_size, "not a zip archive", &e); }
    int status = 0;
    zip_int64_t count = lib.get_num_entries(za, 0);
    for (zip_int64_t i = 0; i < count && status == 0; i++) {
        zip_stat_t st;
        if (lib.stat_index(za, (zip_uint64_t)i, 0, &st) < 0 || !(st.valid & ZIP_STAT_NAME) || !(st.valid & ZIP_STAT_SIZE)) {
            status = fail(message, message_size, "cannot read an entry's header", lib.get_error(za));
            break;
        }
        if (st.size > max_entry_size) {
            snprintf(message, message_size, "%s: %llu bytes, more than %zu", st.name, (unsigned long long)st.size, max_entry_size);
            status = -1;
            break;
        }
        zip_file_t *f = lib.fopen_index(za, (zip_uint64_t)i, 0);
        if (!f) { status = fail(message, message_size, st.name, lib.get_error(za)); break; }
        uint8_t *buffer = malloc(st.size ? (size_t)st.size : 1);
        zip_int64_t got = buffer && st.size ? lib.fread(f, buffer, st.size) : 0;
        uint8_t extra;
        zip_int64_t more = buffer ? lib.fread(f, &extra, 1) : 0;  // the end: libzip checks the CRC there
        int closed = lib.fclose(f);
        if (!buffer || got != (zip_int64_t)st.size || more != 0 || closed != 0) {
            snprintf(message, message_size, "%s: %s (%lld of %llu bytes)", st.name,
                     more < 0 || closed != 0 ? "CRC or data error" : "short read", (long long)got, (unsigned long long)st.size);
            free(buffer);
            status = -1;
            break;
        }
        int stored = (st.valid & ZIP_STAT_COMP_METHOD) && st.comp_method == ZIP_CM_STORE;
        if (entry(context, st.name, buffer, (size_t)st.size, stored) != 0) status = 1;
        free(buffer);
    }
    lib.discard(za);  // read only: frees the archive and its source
    return status;
}
