import Foundation

/// The images of a book, each packaged once (EPUB 3.3 §3.2, core media types): a file is read,
/// its kind told from its first bytes (not its name), and it gets a package path
/// `images/NNN-name.ext` in the order first used (WebP, a core media type only since EPUB 3.3,
/// is refused: EPUB 3.2 reading systems and epubcheck 4 would need a fallback); the same file used again (by any chapter) gets
/// the same path.
package final class EPUBResources {
    /// One packaged image.
    package struct Image: Sendable, Equatable {
        /// The path in the package, relative to the package document (`images/001-pic.png`).
        package var path: String
        package var bytes: [UInt8]
        /// `image/png`, `image/jpeg`, `image/gif` or `image/svg+xml`.
        package var mediaType: String
    }

    /// What became of an image file.
    package enum Outcome: Equatable {
        /// Packaged at this path.
        case packaged(String)
        /// No such file (or unreadable).
        case missing
        /// The file is not an image of a core media type.
        case notImage
    }

    /// The images packaged, in the order first used.
    package private(set) var images: [Image] = []
    private var byFile: [String: Outcome] = [:]

    /// A book's empty set of images.
    package init() {}

    /// Packages the image at `file` (a path as the process reaches it) once.
    package func add(file: String) -> Outcome {
        let key = (file as NSString).standardizingPath
        if let done = byFile[key] { return done }
        let outcome: Outcome
        var isFolder: ObjCBool = false
        if !FileManager.default.fileExists(atPath: key, isDirectory: &isFolder) || isFolder.boolValue {
            outcome = .missing
        } else if let data = FileManager.default.contents(atPath: key) {
            let bytes = [UInt8](data)
            if let (type, ext) = Self.mediaType(of: bytes) {
                let path = "images/" + Self.pad(images.count + 1) + "-" + Self.safeName(PathName.stem(key)) + "." + ext
                images.append(Image(path: path, bytes: bytes, mediaType: type))
                outcome = .packaged(path)
            } else {
                outcome = .notImage
            }
        } else {
            outcome = .missing
        }
        byFile[key] = outcome
        return outcome
    }

    /// The media type and file extension of an image, told from its first bytes; `nil` when the
    /// bytes are no PNG, JPEG, GIF or SVG image.
    package static func mediaType(of b: [UInt8]) -> (String, String)? {
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return ("image/png", "png") }
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return ("image/jpeg", "jpg") }
        if b.starts(with: Array("GIF87a".utf8)) || b.starts(with: Array("GIF89a".utf8)) { return ("image/gif", "gif") }
        // SVG: XML text whose first element is `svg` (after a declaration, comments, a doctype).
        let head = String(decoding: b.prefix(4096), as: UTF8.self)
        if let r = head.range(of: "<svg"), !head[..<r.lowerBound].contains("<html"), head.contains("http://www.w3.org/2000/svg") {
            return ("image/svg+xml", "svg")
        }
        return nil
    }

    /// `name` with only ASCII letters, digits, `-` and `_` (others `_`), at most 40 of them: file
    /// names readers and zip tools take everywhere (no spaces: epubcheck's PKG-010).
    static func safeName(_ name: String) -> String {
        var out = ""
        for u in name.unicodeScalars.prefix(40) {
            out.unicodeScalars.append(u.isASCII && (u.properties.isAlphabetic || ("0"..."9").contains(u) || u == "-" || u == "_") ? u : "_")
        }
        return out.isEmpty ? "image" : out
    }

    /// `n` with at least three digits.
    static func pad(_ n: Int) -> String {
        let s = String(n)
        return s.count >= 3 ? s : String(repeating: "0", count: 3 - s.count) + s
    }
}

/// File names.
enum PathName {
    /// The last component without its extension.
    static func stem(_ path: String) -> String {
        let last = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return last }
        return String(last[..<dot])
    }
}
