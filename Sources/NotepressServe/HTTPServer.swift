import CMicroHTTPD
import Foundation

/// The HTTP server of `notepress serve`: GNU libmicrohttpd, a thread per connection (so an open
/// event stream or a slow client never holds up another request, nor the rebuild, which runs on
/// the caller's thread), answering `GET` and `HEAD` from the output folder only.
///
/// - Paths: ``RequestPath`` (what may be asked for), ``StaticFiles`` (what is there).
/// - HTML pages get the live-reload script (``BuildEvents/inject(into:)``); every other file is
///   sent as it is on disk.
/// - Conditional requests: `If-None-Match` (the ETag) and `If-Modified-Since` give 304.
/// - A path not in the output: 404 with the output's `404.html` when it has one.
/// - Bounds: at most ``connectionLimit`` connections, ``memoryLimit`` bytes of request line and
///   headers (the library answers 414/431 past it), ``timeoutSeconds`` of silence.
package final class HTTPServer: @unchecked Sendable {
    /// Why the server could not start.
    package struct StartError: Error, CustomStringConvertible {
        package var description: String
    }

    package static let connectionLimit: UInt32 = 256
    package static let memoryLimit = 32 * 1024
    package static let timeoutSeconds: UInt32 = 60
    /// How often an idle event stream sends a comment (keeps it under ``timeoutSeconds``).
    static let keepAliveSeconds = 15.0

    package let files: StaticFiles
    package let events: BuildEvents
    /// The port it listens on (the kernel's choice for port 0).
    package private(set) var port: UInt16 = 0
    private var daemon: OpaquePointer?
    private let lock = NSLock()

    /// Starts serving `root` on `host`:`port` (`port` 0: a free port, see ``port``).
    /// - Throws: ``StartError`` when the address cannot be resolved or bound (in use, not local).
    package init(root: String, host: String, port: UInt16, events: BuildEvents) throws {
        files = StaticFiles(root: root)
        self.events = events
        if let why = notepress_mhd_load_error() { throw StartError(description: String(cString: why)) }
        let box = Unmanaged.passUnretained(self).toOpaque()
        guard let d = notepress_mhd_start(host, port, accessHandler, box, nil, nil,
                                          Self.connectionLimit, Self.timeoutSeconds, Self.memoryLimit) else {
            throw StartError(description: "cannot listen on \(host) port \(port) (in use, or not an address of this machine)")
        }
        daemon = d
        let bound = notepress_mhd_port(d)
        self.port = bound == 0 ? port : bound
    }

    /// Stops: ends the event streams, closes every connection, waits for their threads.
    package func stop() {
        events.stop()
        lock.lock()
        let d = daemon
        daemon = nil
        lock.unlock()
        if let d { notepress_mhd_stop_daemon(d) }
    }

    deinit { stop() }

    /// Answers one request (called on the connection's thread).
    fileprivate func answer(_ connection: OpaquePointer, url: String, method: String) -> MHD_Result {
        guard method == "GET" || method == "HEAD" else {
            return send(connection, 405, Array("only GET and HEAD\n".utf8), type: "text/plain; charset=utf-8",
                        headers: [("Allow", "GET, HEAD")])
        }
        if url == BuildEvents.eventsPath { return stream(connection) }
        if url == BuildEvents.scriptPath {
            return send(connection, 200, Array(BuildEvents.script.utf8), type: "text/javascript; charset=utf-8")
        }
        switch RequestPath.resolve(url) {
        case .badRequest(let why):
            return send(connection, 400, Array("bad request: \(why)\n".utf8), type: "text/plain; charset=utf-8")
        case .notFound:
            return notFound(connection, url)
        case .segments(let segments, let folder):
            switch files.lookup(segments, folder: folder) {
            case .notFound: return notFound(connection, url)
            case .addSlash: return send(connection, 301, [], type: "text/plain; charset=utf-8", headers: [("Location", url + "/")])
            case .file(let file):
                var etag = file.etag
                var body = file.bytes
                if file.isHTML {
                    // The page's bytes depend on the build too (its generation, the overlay).
                    etag = String(etag.dropLast()) + "-g\(events.state.generation)\""
                    body = events.inject(into: body)
                }
                let headers = [("ETag", etag), ("Last-Modified", file.lastModified), ("Cache-Control", "no-cache")]
                if let match = header(connection, "If-None-Match") {
                    if match.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == etag || $0 == "*" }) {
                        return send(connection, 304, [], type: nil, headers: headers)
                    }
                } else if !file.isHTML, let since = header(connection, "If-Modified-Since"), since == file.lastModified {
                    return send(connection, 304, [], type: nil, headers: headers)
                }
                return send(connection, 200, body, type: file.contentType, headers: headers)
            }
        }
    }

    private func notFound(_ connection: OpaquePointer, _ url: String) -> MHD_Result {
        if let page = files.notFoundPage() {
            return send(connection, 404, events.inject(into: page.bytes), type: page.contentType)
        }
        return send(connection, 404, events.inject(into: BuildEvents.notFoundPage(url)), type: "text/html; charset=utf-8")
    }

    private func header(_ connection: OpaquePointer, _ name: String) -> String? {
        notepress_mhd_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
    }

    private func send(_ connection: OpaquePointer, _ status: UInt32, _ body: [UInt8], type: String?,
                      headers: [(String, String)] = []) -> MHD_Result {
        let response: OpaquePointer? = body.withUnsafeBytes { raw in
            notepress_mhd_create_response_from_buffer(raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let response else { return .NO }
        if let type { notepress_mhd_add_response_header(response, "Content-Type", type) }
        notepress_mhd_add_response_header(response, "X-Content-Type-Options", "nosniff")
        for (k, v) in headers { notepress_mhd_add_response_header(response, k, v) }
        let r = notepress_mhd_queue_response(connection, status, response)
        notepress_mhd_destroy_response(response)
        return r
    }

    /// `text/event-stream`: the current generation (`event: build`), then `event: reload` for each
    /// new build, a comment every ``keepAliveSeconds`` in between.
    private func stream(_ connection: OpaquePointer) -> MHD_Result {
        let s = EventStream(events: events)
        let context = Unmanaged.passRetained(s).toOpaque()
        guard let response = notepress_mhd_create_response_from_callback(UInt64.max, 1024, streamReader, context, streamFree) else {
            Unmanaged<EventStream>.fromOpaque(context).release()
            return .NO
        }
        notepress_mhd_add_response_header(response, "Content-Type", "text/event-stream")
        notepress_mhd_add_response_header(response, "Cache-Control", "no-cache")
        let r = notepress_mhd_queue_response(connection, 200, response)
        notepress_mhd_destroy_response(response)
        return r
    }
}

/// One open event stream: what is still to be sent.
final class EventStream: @unchecked Sendable {
    let events: BuildEvents
    var seen: Int?
    var pending: [UInt8] = []
    init(events: BuildEvents) { self.events = events }

    /// The next bytes (at most `max`), waiting for a build when there is nothing; `nil` at the end.
    func next(_ max: Int) -> [UInt8]? {
        if pending.isEmpty {
            if let seen {
                guard let now = events.wait(after: seen, seconds: HTTPServer.keepAliveSeconds) else { return nil }
                pending = now > seen ? Array("event: reload\ndata: \(now)\n\n".utf8) : Array(": keep-alive\n\n".utf8)
                self.seen = now
            } else {
                let now = events.state.generation
                pending = Array("retry: 500\nevent: build\ndata: \(now)\n\n".utf8)
                seen = now
            }
        }
        let out = Array(pending.prefix(max))
        pending.removeFirst(out.count)
        return out
    }
}

private let accessHandler: MHD_AccessHandlerCallback = { context, connection, url, method, _, _, _, _ in
    guard let context, let connection, let url, let method else { return .NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    return server.answer(connection, url: String(cString: url), method: String(cString: method))
}

private let streamReader: MHD_ContentReaderCallback = { context, _, buffer, max in
    guard let context, let buffer else { return -1 }
    let s = Unmanaged<EventStream>.fromOpaque(context).takeUnretainedValue()
    guard let bytes = s.next(max) else { return -1 }  // MHD_CONTENT_READER_END_OF_STREAM
    bytes.withUnsafeBytes { raw in
        if let base = raw.baseAddress { buffer.withMemoryRebound(to: UInt8.self, capacity: raw.count) { $0.update(from: base.assumingMemoryBound(to: UInt8.self), count: raw.count) } }
    }
    return bytes.count
}

private let streamFree: MHD_ContentReaderFreeCallback = { context in
    guard let context else { return }
    Unmanaged<EventStream>.fromOpaque(context).release()
}

extension HTTPServer {
    /// Whether `host` names this machine's loopback interface only (`127.0.0.0/8`, `::1`, `localhost`).
    package static func isLoopback(_ host: String) -> Bool {
        let h = host.lowercased()
        return h == "localhost" || h == "::1" || h == "[::1]" || h.hasPrefix("127.")
    }
}
