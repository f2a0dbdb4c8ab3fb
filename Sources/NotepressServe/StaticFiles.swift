import Foundation
import Notepress
import NotepressPlatform

/// The files of the output folder as the server answers for them: which file a request names
/// (`index.html` for folders, never a listing), its content type, and its validators (ETag,
/// Last-Modified) for conditional requests.
package struct StaticFiles: Sendable {
    /// The output folder, its real path (symbolic links resolved).
    package let root: String

    /// - Parameter root: the output folder (must exist).
    package init(root: String) {
        self.root = Platform.realPath(root) ?? root
    }

    /// A file found for a request.
    package struct File: Sendable {
        /// Its path (real, inside ``StaticFiles/root``).
        package var path: String
        package var bytes: [UInt8]
        package var contentType: String
        /// A strong ETag from the size, modification time and inode.
        package var etag: String
        /// The modification time as an HTTP date (RFC 9110, IMF-fixdate).
        package var lastModified: String
        /// Whether it is an HTML page (the live-reload script goes into these).
        package var isHTML: Bool { contentType.hasPrefix("text/html") }
    }

    /// What a lookup gives.
    package enum Lookup: Sendable {
        case file(File)
        /// A folder named without its trailing slash: redirect so that relative links work.
        case addSlash
        case notFound
    }

    /// The file `segments` name below the root: the folder's `index.html` for a folder. Nothing
    /// whose real path lies outside the root (a symbolic link out of the output) is found.
    package func lookup(_ segments: [String], folder: Bool) -> Lookup {
        var path = segments.isEmpty ? root : root + "/" + segments.joined(separator: "/")
        guard let real = Platform.realPath(path), real == root || real.hasPrefix(root == "/" ? "/" : root + "/"),
              let st = Platform.status(real) else { return .notFound }
        path = real
        if st.kind == .directory {
            if !folder { return .addSlash }
            return lookup(segments + ["index.html"], folder: false)
        }
        guard st.kind == .regular, case .success(let bytes) = Platform.readFile(path) else { return .notFound }
        return .file(File(path: path, bytes: bytes, contentType: Self.contentType(of: path),
                          etag: "\"" + String(st.size, radix: 16) + "-" + String(st.modifiedNanoseconds, radix: 16) + "-"
                              + String(st.inode, radix: 16) + "\"",
                          lastModified: Self.httpDate(nanoseconds: st.modifiedNanoseconds)))
    }

    /// The output's own not-found page (`404.html` at the root), if there is one.
    package func notFoundPage() -> File? {
        if case .file(let f) = lookup(["404.html"], folder: false) { return f }
        return nil
    }

    /// Content types by extension (lower case); others are `application/octet-stream`.
    package static let contentTypes: [String: String] = [
        "html": "text/html; charset=utf-8", "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8", "mjs": "text/javascript; charset=utf-8",
        "json": "application/json", "jsonl": "application/jsonl", "xml": "application/xml", "txt": "text/plain; charset=utf-8",
        "md": "text/markdown; charset=utf-8", "note": "text/plain; charset=utf-8",
        "rtf": "application/rtf", "ans": "text/plain; charset=utf-8", "man": "text/troff",
        "1": "text/troff", "5": "text/troff", "7": "text/troff", "8": "text/troff",
        "svg": "image/svg+xml", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
        "webp": "image/webp", "avif": "image/avif", "ico": "image/vnd.microsoft.icon", "bmp": "image/bmp",
        "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf",
        "pdf": "application/pdf", "wasm": "application/wasm", "mp4": "video/mp4", "webm": "video/webm",
        "mp3": "audio/mpeg", "ogg": "audio/ogg", "wav": "audio/wav",
    ]

    /// The content type of `path` by its extension.
    package static func contentType(of path: String) -> String {
        contentTypes[(path as NSString).pathExtension.lowercased()] ?? "application/octet-stream"
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT` for a time in nanoseconds since 1970.
    package static func httpDate(nanoseconds: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(nanoseconds / 1_000_000_000)))
    }
}
