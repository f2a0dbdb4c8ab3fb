import Foundation
import NotepressContainer

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
        /// Not packaged: what the file is (missing, empty, damaged, of another kind), for the
        /// warning (``ImageFile/problem(kinds:)``).
        case refused(ImageFile)
    }

    /// The kinds a book packages, as warnings name them.
    package static let kinds = "PNG, JPEG, GIF or SVG"

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
        let file = ImageFile.read(key, maxBytes: Int.max)
        if let (type, ext) = Self.mediaType(of: file), case .image(_, let bytes) = file {
            outcome = .packaged(add(bytes, type: type, ext: ext, key: key))
        } else if let (type, ext) = Self.mediaType(of: file), case .other(let bytes) = file {
            outcome = .packaged(add(bytes, type: type, ext: ext, key: key))
        } else {
            outcome = .refused(file)
        }
        byFile[key] = outcome
        return outcome
    }

    private func add(_ bytes: [UInt8], type: String, ext: String, key: String) -> String {
        let path = "images/" + Self.pad(images.count + 1) + "-" + Self.safeName(PathName.stem(key)) + "." + ext
        images.append(Image(path: path, bytes: bytes, mediaType: type))
        return path
    }

    /// The media type and file extension of an image file (``ImageFile``: a PNG, JPEG or GIF
    /// whose header and structure are whole), or of SVG text; `nil` for anything else.
    static func mediaType(of file: ImageFile) -> (String, String)? {
        switch file {
        case .image(let h, _): return (h.kind.mediaType, h.kind == .jpeg ? "jpg" : h.kind.fileExtension)
        case .other(let b):
            // SVG: XML text whose first element is `svg` (after a declaration, comments, a doctype).
            let head = String(decoding: b.prefix(4096), as: UTF8.self)
            if let r = head.range(of: "<svg"), !head[..<r.lowerBound].contains("<html"), head.contains("http://www.w3.org/2000/svg") {
                return ("image/svg+xml", "svg")
            }
            return nil
        default: return nil
        }
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
