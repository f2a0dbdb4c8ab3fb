// See include/CMicroHTTPD.h. The symbols are looked up once, by name, in libmicrohttpd 12 (its
// soname: libmicrohttpd.so.12 on Linux, libmicrohttpd.12.dylib on macOS, where Homebrew's two
// prefixes are tried after the loader's own search path). Each function pointer has the type of
// the function the header declares, so a mismatch with the installed header is a compile error.
#include "CMicroHTTPD.h"

#include <COptionalLibrary.h>
#include <dlfcn.h>
#include <netdb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NP_FN(name) __typeof__(name) *

static struct {
    NP_FN(MHD_start_daemon) start_daemon;
    NP_FN(MHD_get_daemon_info) get_daemon_info;
    NP_FN(MHD_stop_daemon) stop_daemon;
    NP_FN(MHD_lookup_connection_value) lookup_connection_value;
    NP_FN(MHD_create_response_from_buffer) create_response_from_buffer;
    NP_FN(MHD_create_response_from_callback) create_response_from_callback;
    NP_FN(MHD_add_response_header) add_response_header;
    NP_FN(MHD_queue_response) queue_response;
    NP_FN(MHD_destroy_response) destroy_response;
} lib;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char error[512];

static void *open_library(void) {
#if defined(__APPLE__)
    const char *const candidates[] = {"libmicrohttpd.12.dylib", "/opt/homebrew/lib/libmicrohttpd.12.dylib",
                                "/usr/local/lib/libmicrohttpd.12.dylib"};
#else
    const char *const candidates[] = {"libmicrohttpd.so.12"};
#endif
    return notepress_open_optional_library("NOTEPRESS_LIBMICROHTTPD", candidates, sizeof candidates / sizeof candidates[0]);
}

static void load(void) {
    void *h = open_library();
    if (!h) {
        const char *why = dlerror();
        snprintf(error, sizeof error, "GNU libmicrohttpd (libmicrohttpd12), the HTTP server of notepress serve, cannot be loaded: %s",
                 why ? why : "not found");
        return;
    }
#define LOAD(field, symbol)                                                                            \
    if (!(*(void **)&lib.field = dlsym(h, #symbol))) {                                                 \
        const char *why = dlerror();                                                                   \
        snprintf(error, sizeof error, "GNU libmicrohttpd has no symbol " #symbol ": %s", why ? why : "?"); \
        return;                                                                                        \
    }
    LOAD(start_daemon, MHD_start_daemon)
    LOAD(get_daemon_info, MHD_get_daemon_info)
    LOAD(stop_daemon, MHD_stop_daemon)
    LOAD(lookup_connection_value, MHD_lookup_connection_value)
    LOAD(create_response_from_buffer, MHD_create_response_from_buffer)
    LOAD(create_response_from_callback, MHD_create_response_from_callback)
    LOAD(add_response_header, MHD_add_response_header)
    LOAD(queue_response, MHD_queue_response)
    LOAD(destroy_response, MHD_destroy_response)
#undef LOAD
}

const char *notepress_mhd_load_error(void) {
    pthread_once(&once, load);
    return error[0] ? error : NULL;
}

/// An unescape callback that leaves the path as it came (percent-escapes and all): `%2F` and `%00`
/// must stay visible, not be decoded before the handler sees them.
static size_t keep_escapes(void *context, struct MHD_Connection *connection, char *s) {
    (void)context;
    (void)connection;
    return strlen(s);
}

struct MHD_Daemon *notepress_mhd_start(
    const char *host, uint16_t port, MHD_AccessHandlerCallback handler, void *handler_context,
    MHD_RequestCompletedCallback completed, void *completed_context,
    unsigned int connection_limit, unsigned int timeout_seconds, size_t memory_limit) {
    if (notepress_mhd_load_error()) return NULL;
    struct addrinfo hints;
    struct addrinfo *found = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    if (getaddrinfo(host ? host : "127.0.0.1", NULL, &hints, &found) != 0 || found == NULL) return NULL;
    struct sockaddr_storage address;
    memset(&address, 0, sizeof address);
    memcpy(&address, found->ai_addr, found->ai_addrlen);
    int family = found->ai_family;
    freeaddrinfo(found);
    unsigned int flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL;
    if (family == AF_INET6) {
        flags |= MHD_USE_IPv6;
        ((struct sockaddr_in6 *)&address)->sin6_port = htons(port);
    } else {
        ((struct sockaddr_in *)&address)->sin_port = htons(port);
    }
    return lib.start_daemon(flags, port, NULL, NULL, handler, handler_context,
                            MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
                            MHD_OPTION_UNESCAPE_CALLBACK, keep_escapes, (void *)NULL,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
                            MHD_OPTION_END);
}

uint16_t notepress_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = lib.get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

void notepress_mhd_stop_daemon(struct MHD_Daemon *daemon) { lib.stop_daemon(daemon); }

const char *notepress_mhd_lookup_connection_value(struct MHD_Connection *connection, enum MHD_ValueKind kind,
                                                  const char *key) {
    return lib.lookup_connection_value(connection, kind, key);
}

struct MHD_Response *notepress_mhd_create_response_from_buffer(size_t size, void *buffer,
                                                               enum MHD_ResponseMemoryMode mode) {
    return lib.create_response_from_buffer(size, buffer, mode);
}

struct MHD_Response *notepress_mhd_create_response_from_callback(uint64_t size, size_t block_size,
                                                                 MHD_ContentReaderCallback crc, void *crc_cls,
                                                                 MHD_ContentReaderFreeCallback crfc) {
    return lib.create_response_from_callback(size, block_size, crc, crc_cls, crfc);
}

enum MHD_Result notepress_mhd_add_response_header(struct MHD_Response *response, const char *header,
                                                  const char *content) {
    return lib.add_response_header(response, header, content);
}

enum MHD_Result notepress_mhd_queue_response(struct MHD_Connection *connection, unsigned int status_code,
                                             struct MHD_Response *response) {
    return lib.queue_response(connection, status_code, response);
}

void notepress_mhd_destroy_response(struct MHD_Response *response) { lib.destroy_response(response); }
