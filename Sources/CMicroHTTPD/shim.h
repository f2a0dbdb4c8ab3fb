#ifndef NOTEPRESS_CMICROHTTPD_SHIM_H
#define NOTEPRESS_CMICROHTTPD_SHIM_H
// GNU libmicrohttpd, the HTTP server of `notepress serve` (Sources/NotepressServe/HTTPServer.swift).
// MHD_start_daemon and MHD_get_daemon_info are variadic, which Swift cannot call: the two inline
// functions below call them with the options Notepress uses. Nothing else is wrapped.
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netdb.h>
#include <microhttpd.h>

/// An unescape callback that leaves the path as it came (percent-escapes and all), so that the
/// server decodes it by its own rules (Sources/NotepressServe/RequestPath.swift): `%2F` and `%00`
/// must stay visible, not be decoded before the handler sees them.
static inline size_t notepress_mhd_keep_escapes(void *context, struct MHD_Connection *connection, char *s) {
    (void)context; (void)connection;
    return strlen(s);
}

/// Starts a daemon on `host` (a name or a numeric IPv4/IPv6 address; NULL: 127.0.0.1) and `port`
/// (0: the kernel picks a free one): a thread per connection and an internal poll(2) thread, at
/// most `connection_limit` connections, a connection closed after `timeout_seconds` without
/// traffic, `memory_limit` bytes per connection for the request line and headers (a longer URL or
/// larger headers are answered 414 or 431 by the library). Paths reach `handler` with their
/// %-escapes (`notepress_mhd_keep_escapes`). NULL when the address cannot be resolved or bound.
static inline struct MHD_Daemon *notepress_mhd_start(
    const char *host, uint16_t port, MHD_AccessHandlerCallback handler, void *handler_context,
    MHD_RequestCompletedCallback completed, void *completed_context,
    unsigned int connection_limit, unsigned int timeout_seconds, size_t memory_limit) {
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
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_context,
                            MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
                            MHD_OPTION_UNESCAPE_CALLBACK, notepress_mhd_keep_escapes, (void *)NULL,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
                            MHD_OPTION_END);
}

/// The port `daemon` listens on (useful after port 0), or 0.
static inline uint16_t notepress_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}
#endif
