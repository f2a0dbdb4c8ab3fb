import Foundation
import NotepressAST

/// Path text operations on `/`-separated paths, without Foundation's `NSString` path methods
/// (which normalise the whole string on every call; a folder run makes several calls per file).
package enum PathText {
    /// `path` for a one-line message: a line feed written `\n`, a carriage return `\r` and a
    /// backslash before them `\\` (a file name may hold any byte but `/` and NUL); `path`
    /// itself when it holds neither (the usual case).
    package static func oneLine(_ path: String) -> String {
        Diagnostic.oneLine(path)
    }

    /// `base` and `component` joined by one `/`; `component` alone when `base` is empty.
    package static func join(_ base: String, _ component: String) -> String {
        if base.isEmpty { return component }
        if component.isEmpty { return base }
        return base.utf8.last == 0x2F ? base + component : base + "/" + component
    }

    /// `path` with each run of `/` written once and a trailing `/` dropped (`a//b/` → `a/b`;
    /// `/` and `//` → `/`; `` stays ``), by bytes; `path` itself, uncopied, when there is
    /// nothing to change (the usual case).
    package static func collapsingSlashes(_ path: String) -> String {
        let u = path.utf8
        var previousWasSlash = false
        var clean = true
        for b in u {
            if b == 0x2F && previousWasSlash { clean = false; break }
            previousWasSlash = b == 0x2F
        }
        if clean && !(previousWasSlash && u.count > 1) { return path }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(u.count)
        for b in u where !(b == 0x2F && bytes.last == 0x2F) { bytes.append(b) }
        if bytes.count > 1 && bytes.last == 0x2F { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The path without the extension of its last component (`a/b.md` → `a/b`); a leading dot
    /// (`.profile`) is not an extension.
    package static func deletingExtension(_ path: String) -> String {
        let u = Array(path.utf8)
        var i = u.count - 1
        while i > 0 {
            if u[i] == 0x2F { return path }
            if u[i] == 0x2E { return u[i - 1] == 0x2F ? path : String(decoding: u[..<i], as: UTF8.self) }
            i -= 1
        }
        return path
    }

    /// The last component (`a/b.md` → `b.md`).
    package static func lastComponent(_ path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: 0x2F) else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }

    /// `path` with every byte outside ASCII letters and digits, `-._~!$&'()*+,=@` and `/`
    /// percent-encoded from its UTF-8 (RFC 3986 §2.1), as swift-corelibs-foundation's
    /// `CharacterSet.urlPathAllowed` does: RFC 3986's path characters less `:` (which would make
    /// a relative reference's first segment read as a scheme, §4.2) and `;`.
    package static func percentEncodedPath(_ path: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(path.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for b in path.utf8 {
            switch b {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A,
                 0x2D, 0x2E, 0x5F, 0x7E, 0x21, 0x24, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x2B, 0x2C, 0x3D, 0x40, 0x2F:
                out.append(b)
            default:
                out.append(0x25); out.append(hex[Int(b >> 4)]); out.append(hex[Int(b & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The folder part (`a/b.md` → `a`; `b.md` → `.`; `/b` → `/`).
    package static func deletingLastComponent(_ path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: 0x2F) else { return "." }
        if slash == path.utf8.startIndex { return "/" }
        return String(path[..<slash])
    }
}
