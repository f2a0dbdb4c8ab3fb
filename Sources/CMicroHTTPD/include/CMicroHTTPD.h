// GNU libmicrohttpd, the HTTP server of `notepress serve` (Sources/NotepressServe/HTTPServer.swift),
// loaded with dlopen(3) when a server starts: linked, it and the libraries it pulls in (GnuTLS,
// nettle, p11-kit, libidn2, ...: nine) cost every process ~1.5 ms of start-up (a C program that
// does nothing: 0.47 ms, 2.00 ms linked with -lmicrohttpd), which `convert` of one file never needs.
// Its header gives the types and constants; the functions are the few below, each calling the
// loaded library's function of the same name after `notepress_mhd_`. MHD_start_daemon and
// MHD_get_daemon_info are variadic, which Swift cannot call: `notepress_mhd_start` and
// `notepress_mhd_port` call them with the options Notepress uses.
//
// Call `notepress_mhd_load_error` first: the others may be called only once it returned NULL.
// NOTEPRESS_LIBMICROHTTPD names another file to load instead (a test, an unusual installation).
#ifndef NOTEPRESS_CMICROHTTPD_H
#define NOTEPRESS_CMICROHTTPD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// Loads the library once (any thread); NULL when it is loaded, else one line saying why not
/// (what dlopen or dlsym said), the same on every call.
const char *notepress_mhd_load_error(void);

/// Starts a daemon on `host` (a name or a numeric IPv4/IPv6 address; NULL: 127.0.0.1) and `port`
/// (0: the kernel picks a free one): a thread per connection and an internal poll(2) thread, at
/// most `connection_limit` connections, a connection closed after `timeout_seconds` without
/// traffic, `memory_limit` bytes per connection for the request line and headers (a longer URL or
/// larger headers are answered 414 or 431 by the library). Paths reach `handler` with their
/// %-escapes (the server decodes them by its own rules: Sources/NotepressServe/RequestPath.swift).
/// NULL when the address cannot be resolved or bound.
struct MHD_Daemon *notepress_mhd_start(
    const char *host, uint16_t port, MHD_AccessHandlerCallback handler, void *handler_context,
    MHD_RequestCompletedCallback completed, void *completed_context,
    unsigned int connection_limit, unsigned int timeout_seconds, size_t memory_limit);

/// The port `daemon` listens on (useful after port 0), or 0.
uint16_t notepress_mhd_port(struct MHD_Daemon *daemon);

void notepress_mhd_stop_daemon(struct MHD_Daemon *daemon);
const char *notepress_mhd_lookup_connection_value(struct MHD_Connection *connection, enum MHD_ValueKind kind,
                                                  const char *key);
struct MHD_Response *notepress_mhd_create_response_from_buffer(size_t size, void *buffer,
                                                               enum MHD_ResponseMemoryMode mode);
struct MHD_Response *notepress_mhd_create_response_from_callback(uint64_t size, size_t block_size,
                                                                 MHD_ContentReaderCallback crc, void *crc_cls,
                                                                 MHD_ContentReaderFreeCallback crfc);
enum MHD_Result notepress_mhd_add_response_header(struct MHD_Response *response, const char *header,
                                                  const char *content);
enum MHD_Result notepress_mhd_queue_response(struct MHD_Connection *connection, unsigned int status_code,
                                             struct MHD_Response *response);
void notepress_mhd_destroy_response(struct MHD_Response *response);

#endif
