import Foundation

/// Which file a request's path names: the one policy of the server for URL paths. The path comes
/// with its %-escapes (the library decodes nothing, see CMicroHTTPD/libmicrohttpd.c); it is decoded here,
/// byte by byte, and refused unless every segment names an entry inside the output folder:
///
/// - 400: a path that does not start with `/`, a bad escape (`%4`, `%zz`), a NUL byte or another
///   control character (raw or escaped), a decoded path that is not UTF-8, a backslash;
/// - 404: `..` and `.` segments (raw or escaped: `%2e%2e`), an escaped slash (`%2F`: no file name
///   holds one), and hidden names (`.notepress-manifest`, `.git`: the output's own records).
///
/// Symbolic links that lead out of the output folder are refused where the file is opened
/// (``StaticFiles``).
package enum RequestPath {
    /// What a request's path resolves to.
    package enum Resolution: Equatable, Sendable {
        /// The segments below the output folder (empty: the folder itself); `folder`: the path
        /// ended with `/`.
        case segments([String], folder: Bool)
        /// 400 Bad Request, with the reason.
        case badRequest(String)
        /// 404 Not Found: a name no file inside the output can have.
        case notFound
    }

    /// Longest path accepted, in bytes (the library bounds the request line and headers as a whole).
    package static let maxLength = 4096

    /// Decodes `raw` (the path of the request line, without its query).
    package static func resolve(_ raw: String) -> Resolution {
        let bytes = Array(raw.utf8)
        guard bytes.first == UInt8(ascii: "/") else { return .badRequest("the path must start with /") }
        guard bytes.count <= maxLength else { return .badRequest("the path is longer than \(maxLength) bytes") }
        var segments: [String] = []
        var current: [UInt8] = []
        var escapedSlash = false
        var i = 1
        func finish() -> Resolution? {
            defer { current.removeAll(keepingCapacity: true) }
            if current.isEmpty { return nil }
            guard let name = String(validating: current, as: UTF8.self) else { return .badRequest("the path is not UTF-8") }
            if name == "." || name == ".." || name.hasPrefix(".") { return .notFound }
            segments.append(name)
            return nil
        }
        while i < bytes.count {
            var b = bytes[i]
            if b == UInt8(ascii: "/") {
                if let r = finish() { return r }
                i += 1
                continue
            }
            if b == UInt8(ascii: "%") {
                guard i + 2 < bytes.count, let hi = hex(bytes[i + 1]), let lo = hex(bytes[i + 2]) else {
                    return .badRequest("a bad %-escape in the path")
                }
                b = hi << 4 | lo
                i += 3
                if b == UInt8(ascii: "/") { escapedSlash = true }
            } else {
                i += 1
            }
            if b < 0x20 || b == 0x7F { return .badRequest("a control character or NUL byte in the path") }
            if b == UInt8(ascii: "\\") { return .badRequest("a backslash in the path") }
            current.append(b)
        }
        let folder = bytes.last == UInt8(ascii: "/")
        if let r = finish() { return r }
        if escapedSlash { return .notFound }
        return .segments(segments, folder: folder || segments.isEmpty)
    }

    private static func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
