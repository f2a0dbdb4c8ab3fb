import Foundation

/// What a package needs to know of an image file before embedding it: its kind (from the file's
/// signature, never its name) and its size in pixels (from its header): PNG (the IHDR chunk,
/// ISO/IEC 15948 §11.2.2), GIF (the logical screen descriptor, GIF89a §18) and JPEG (the first
/// start-of-frame marker, ITU T.81 B.2.2). Anything else is not an image a word processor
/// surely shows, and ``read(_:)`` says `nil`.
package struct ImageHeader: Sendable, Equatable {
    /// The formats recognised.
    package enum Kind: String, Sendable, Equatable {
        /// Portable Network Graphics.
        case png
        /// JPEG (JFIF, Exif).
        case jpeg
        /// GIF87a and GIF89a.
        case gif

        /// The file name extension a package gives the image (`png`, `jpeg`, `gif`).
        package var fileExtension: String { rawValue }
        /// The media type (`image/png`, …).
        package var mediaType: String { "image/" + rawValue }
    }

    /// The format.
    package var kind: Kind
    /// Width in pixels (at least 1).
    package var width: Int
    /// Height in pixels (at least 1).
    package var height: Int

    /// The header of `bytes`, or `nil` when they are not a PNG, GIF or JPEG whose size can be
    /// read and whose structure is whole (``isComplete(_:kind:)``).
    package static func read(_ bytes: [UInt8]) -> ImageHeader? {
        guard let h = header(bytes), isComplete(bytes, kind: h.kind) else { return nil }
        return h
    }

    /// The kind whose signature `bytes` start with, whether or not the rest is whole.
    package static func signature(_ bytes: [UInt8]) -> Kind? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) { return .gif }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        return nil
    }

    /// Whether the file's structure is whole, as readers that decode it (epubcheck's PKG-021,
    /// Word) need: a PNG's chunks, walked by their lengths, stay inside the file and reach
    /// `IEND` after at least one `IDAT`; a JPEG's segments reach a start of scan (`SOS`); a GIF
    /// ends with its trailer (`;`: a GIF cut short does not).
    static func isComplete(_ b: [UInt8], kind: Kind) -> Bool {
        switch kind {
        case .gif: return b.last == 0x3B  // the trailer ends the data stream (GIF89a §27)
        case .png:
            var i = 8, data = false
            while i + 8 <= b.count {
                let length = Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
                let type = b[(i + 4)..<(i + 8)]
                guard i + 12 + length <= b.count else { return false }
                if type.elementsEqual("IDAT".utf8) { data = true }
                if type.elementsEqual("IEND".utf8) { return data }
                i += 12 + length
            }
            return false
        case .jpeg:
            var i = 2
            while i + 3 < b.count {
                guard b[i] == 0xFF else { return false }
                let marker = b[i + 1]
                if marker == 0xFF { i += 1; continue }
                if marker == 0xDA { return true }
                if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }
                let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
                guard length >= 2 else { return false }
                i += 2 + length
            }
            return false
        }
    }

    /// The header alone (kind and size), structure unchecked.
    static func header(_ bytes: [UInt8]) -> ImageHeader? {
        func be16(_ i: Int) -> Int { Int(bytes[i]) << 8 | Int(bytes[i + 1]) }
        func be32(_ i: Int) -> Int { be16(i) << 16 | be16(i + 2) }
        let size: (Kind, Int, Int)?
        if bytes.count >= 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
           bytes[12...15].elementsEqual("IHDR".utf8) {
            size = (.png, be32(16), be32(20))
        } else if bytes.count >= 10, bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) {
            size = (.gif, Int(bytes[6]) | Int(bytes[7]) << 8, Int(bytes[8]) | Int(bytes[9]) << 8)
        } else if bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 {
            size = jpegSize(bytes).map { (.jpeg, $0.width, $0.height) }
        } else {
            size = nil
        }
        guard let (kind, w, h) = size, w > 0, h > 0 else { return nil }
        return ImageHeader(kind: kind, width: w, height: h)
    }

    /// The size in the first SOFn segment (C0–CF but C4 DHT, C8 JPG, CC DAC), walking the
    /// segments from the start; `nil` when none is found before the data ends.
    private static func jpegSize(_ b: [UInt8]) -> (width: Int, height: Int)? {
        var i = 2
        while i + 3 < b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }  // fill byte
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                guard i + 8 < b.count else { return nil }
                return (Int(b[i + 7]) << 8 | Int(b[i + 8]), Int(b[i + 5]) << 8 | Int(b[i + 6]))
            }
            guard length >= 2 else { return nil }
            i += 2 + length
        }
        return nil
    }
}

/// An image file read for a package, and what is wrong with it when it cannot be embedded: the
/// one place every writer that embeds images (DOCX, ODT, EPUB, RTF, PDF) tells a missing file
/// from an empty, damaged or foreign one, and words it.
package enum ImageFile: Equatable {
    /// A PNG, JPEG or GIF image whose header and structure are whole.
    case image(ImageHeader, [UInt8])
    /// No file there (or it cannot be read).
    case missing
    /// A folder, FIFO, device or socket: never read (`/dev/zero` has no end, a FIFO may wait
    /// forever for a writer).
    case notRegular
    /// More than the writer's limit of bytes.
    case tooLarge(limit: Int)
    /// An empty file.
    case empty
    /// A file that starts as an image of `kind` but is cut short or damaged.
    case damaged(ImageHeader.Kind)
    /// Something else (text, WebP, SVG, …): its first bytes, for a writer that takes other kinds.
    case other([UInt8])

    /// The file at `path`, read when it is a regular file of at most `maxBytes`.
    package static func read(_ path: String, maxBytes: Int) -> ImageFile {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return .missing }
        guard attributes[.type] as? FileAttributeType == .typeRegular else { return .notRegular }
        if let size = attributes[.size] as? Int, size > maxBytes { return .tooLarge(limit: maxBytes) }
        guard let data = FileManager.default.contents(atPath: path) else { return .missing }
        return of([UInt8](data))
    }

    /// What `bytes` are as an image.
    package static func of(_ bytes: [UInt8]) -> ImageFile {
        if bytes.isEmpty { return .empty }
        if let h = ImageHeader.read(bytes) { return .image(h, bytes) }
        if let kind = ImageHeader.signature(bytes) { return .damaged(kind) }
        return .other(bytes)
    }

    /// Why the image is not embedded, to follow its name (`image a.png ` + this): `not found`,
    /// `is an empty file`, `is a damaged PNG file`, `is larger than 64 MB`, or for any other file
    /// `is not a ` + `kinds` (`PNG, JPEG or GIF`) + ` image`.
    package func problem(kinds: String) -> String {
        switch self {
        case .image: return ""
        case .missing: return "not found"
        case .notRegular: return "is not a regular file"
        case .tooLarge(let limit): return "is larger than \(limit >> 20) MB"
        case .empty: return "is an empty file"
        case .damaged(let kind): return "is a damaged \(kind.rawValue.uppercased()) file"
        case .other: return "is not a \(kinds) image"
        }
    }
}
