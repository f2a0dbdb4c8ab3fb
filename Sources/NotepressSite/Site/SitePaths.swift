import Foundation
import Notepress

/// Path rules of a site (a folder run): which input is a folder's index page, where each input's
/// outputs go, and how a link's destination is read as a path. Pure functions of `/`-separated
/// relative paths (no file system), so a sharded run computes the same paths as one process.
package enum SitePaths {
    /// The output path of an input without its extension: its relative path without the
    /// extension, except that a folder's `README.*` becomes `index` when the folder has no
    /// `index.*` input (as mdBook writes `README.md` as `index.html`), so that every folder with
    /// either page has `index.html` for web servers. Names compare case-insensitively
    /// (`Readme.md`, `INDEX.md`).
    package static func outputStem(_ relative: String, folderHasIndex: Bool) -> String {
        let stem = PathText.deletingExtension(relative)
        guard !folderHasIndex, isReadme(relative) else {
            return stem
        }
        let folder = folderOf(relative)
        return folder.isEmpty ? "index" : folder + "/index"
    }

    /// Whether `relative`'s file name is `index.*` (case ignored).
    package static func isIndex(_ relative: String) -> Bool { stemIs(relative, "index") }

    /// Whether `relative` is the site's own not-found page: `404.*` in the root folder. Its links
    /// start from the site's root (``notFoundRoot(baseURL:)``), as a server shows it at any depth.
    package static func isNotFoundPage(_ relative: String) -> Bool { folderOf(relative).isEmpty && PathText.deletingExtension(relative) == "404" }

    /// Where the links of the not-found page start: `--base-url` (with a `/` at the end), else
    /// `/`, the root of the host (right when the site is served at a host's root, as
    /// `notepress serve` serves it; a site below a path needs `--base-url`).
    package static func notFoundRoot(baseURL: String?) -> String { baseURL.map { $0.hasSuffix("/") ? $0 : $0 + "/" } ?? "/" }

    /// Whether `relative`'s file name is `README.*` (case ignored).
    package static func isReadme(_ relative: String) -> Bool { stemIs(relative, "readme") }

    /// Whether the file name of `relative` without extension (``PathText/deletingExtension(_:)``
    /// of ``PathText/lastComponent(_:)``), lower-cased, is `lowerName` (ASCII lower case). An
    /// ASCII name is compared byte by byte (no `lowercased()` copy per file of a folder run);
    /// another is lower-cased as `String` does it (Unicode's full case mapping: `İNDEX` is not
    /// `index`).
    static func stemIs(_ relative: String, _ lowerName: String) -> Bool {
        let stem = PathText.deletingExtension(PathText.lastComponent(relative))
        guard stem.utf8.allSatisfy({ $0 < 0x80 }) else { return stem.lowercased() == lowerName }
        return stem.utf8.elementsEqual(lowerName.utf8) { a, b in (a >= 0x41 && a <= 0x5A ? a | 0x20 : a) == b }
    }

    /// The folder part of a relative path (`a/b.md` → `a`; `b.md` → empty).
    package static func folderOf(_ relative: String) -> String {
        guard let slash = relative.utf8.lastIndex(of: 0x2F) else { return "" }
        return String(relative[..<slash])
    }

    /// The relative URL path from a file in folder `from` to the path `to` (both relative to the
    /// same root, `/`-separated, no `.` or `..`): `from` `a/b`, `to` `a/c/d.html` → `../c/d.html`.
    package static func relative(fromFolder from: String, to: String) -> String {
        // Bytes: the common leading folders end at a `/` in both (`from` ends like one).
        var from = from
        var to = to
        return from.withUTF8 { a in
            to.withUTF8 { b in
                var common = 0  // bytes of `b` in the common folders, their `/` included
                var i = 0
                while i < a.count, i < b.count, a[i] == b[i] {
                    i += 1
                    if i < b.count, b[i - 1] == 0x2F { common = i }
                }
                if i == a.count, i < b.count, b[i] == 0x2F { common = i + 1 }  // `from` is all common
                var ups = 0
                if common < a.count || (a.count > 0 && common == 0) {
                    // Folders of `from` below the common part: one `..` each.
                    var k = common
                    ups = 1
                    while k < a.count { if a[k] == 0x2F { ups += 1 }; k += 1 }
                    if common >= a.count { ups = 0 }
                }
                var out: [UInt8] = []
                out.reserveCapacity(ups * 3 + b.count - common)
                for _ in 0..<ups { out += [0x2E, 0x2E, 0x2F] }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: b[common...]))
                return String(decoding: out, as: UTF8.self)
            }
        }
    }

    /// `folder` joined with a relative path and normalised (`.` dropped, `..` taking off the
    /// component before it); `nil` when it climbs above the root. A leading `/` means the root.
    package static func resolve(_ path: String, inFolder folder: String) -> String? {
        var parts: [Substring] = []
        if !path.hasPrefix("/"), !folder.isEmpty { parts = folder.split(separator: "/") }
        for c in path.split(separator: "/", omittingEmptySubsequences: true) {
            if c == "." { continue }
            if c == ".." {
                if parts.isEmpty { return nil }
                parts.removeLast()
                continue
            }
            parts.append(c)
        }
        return parts.joined(separator: "/")
    }

    /// Whether a link destination leaves the site: it has a URL scheme (RFC 3986 §3.1:
    /// `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`, so `https:`, `mailto:`, `vscode:`) or is a
    /// network-path reference (`//host/…`).
    package static func isExternal(_ destination: String) -> Bool {
        if destination.hasPrefix("//") { return true }
        var first = true
        for u in destination.utf8 {
            if u == 0x3A { return !first }
            let letter = (u | 0x20) >= 0x61 && (u | 0x20) <= 0x7A
            if first {
                if !letter { return false }
                first = false
            } else if !(letter || (u >= 0x30 && u <= 0x39) || u == 0x2B || u == 0x2D || u == 0x2E) {
                return false
            }
        }
        return false
    }

    /// A destination split into its path, query (with `?`) and fragment (without `#`, `nil` when
    /// there is no `#`).
    package static func split(_ destination: String) -> (path: String, query: String, fragment: String?) {
        var rest = Substring(destination)
        var fragment: String?
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        var query = ""
        if let q = rest.firstIndex(of: "?") {
            query = String(rest[q...])
            rest = rest[..<q]
        }
        return (String(rest), query, fragment)
    }

    /// `%XX` sequences decoded as UTF-8 (RFC 3986 §2.1); the text itself when it holds none or
    /// they do not decode to valid UTF-8.
    package static func percentDecoded(_ s: String) -> String {
        guard s.utf8.contains(0x25) else { return s }
        return s.removingPercentEncoding ?? s
    }

    /// A path as a relative URL (``PathText/percentEncodedPath(_:)``).
    package static func urlPath(_ path: String) -> String {
        PathText.percentEncodedPath(path)
    }

    /// A fragment as it goes into a URL: characters outside RFC 3986's `fragment` set
    /// percent-encoded from their UTF-8 (spaces, `^` of block anchors are; letters of any script
    /// are kept, as browsers show them).
    package static func urlFragment(_ fragment: String) -> String {
        var out = ""
        for u in fragment.unicodeScalars {
            let v = u.value
            let keep = v >= 0x80 || (v >= 0x30 && v <= 0x39) || ((v | 0x20) >= 0x61 && (v | 0x20) <= 0x7A)
                || "-._~!$&'()*+,;=:@/?".unicodeScalars.contains(u)
            if keep {
                out.unicodeScalars.append(u)
            } else {
                for b in String(u).utf8 { out += String(format: "%%%02X", b) }
            }
        }
        return out
    }
}
