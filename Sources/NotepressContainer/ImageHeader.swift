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

    /// The header of `bytes`, or `nil` when they are not a PNG, GIF or JPEG whose size can be read.
    package static func read(_ bytes: [UInt8]) -> ImageHeader? {
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
