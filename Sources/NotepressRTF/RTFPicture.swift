/// A PNG or JPEG picture embedded in RTF (RTF 1.9.1, "Pictures": `{\pict\pngblip …}`,
/// `{\pict\jpegblip …}`): its bytes and its size in pixels, read from the file's own header.
package struct RTFPicture: Sendable, Equatable {
    /// The picture's format.
    package enum Kind: Sendable, Equatable {
        case png, jpeg
    }

    /// The format (`\pngblip` or `\jpegblip`).
    package var kind: Kind
    /// The file's bytes, written as hexadecimal.
    package var bytes: [UInt8]
    /// The width in pixels (PNG `IHDR`, JPEG start of frame).
    package var pixelWidth: Int
    /// The height in pixels.
    package var pixelHeight: Int

    /// The most bytes a picture may have to be embedded (twice that as RTF hexadecimal); a larger
    /// one stays a link to its file.
    package static let maxBytes = 4 << 20

    /// The picture of a PNG or JPEG file's `bytes`, or `nil` for anything else, a header without
    /// a size, or more than ``maxBytes``.
    package init?(bytes: [UInt8]) {
        guard bytes.count <= Self.maxBytes, let (kind, w, h) = Self.header(bytes), w > 0, h > 0 else { return nil }
        self.kind = kind
        self.bytes = bytes
        pixelWidth = w
        pixelHeight = h
    }

    /// Format and size in pixels from the header: PNG's `IHDR` (the first chunk), or JPEG's
    /// first start-of-frame marker (`SOF0`–`SOF15` but `DHT`, `JPG` and `DAC`), segments skipped
    /// by their lengths (at most one pass over the bytes).
    static func header(_ b: [UInt8]) -> (Kind, Int, Int)? {
        func be(_ i: Int, _ n: Int) -> Int { (i..<i + n).reduce(0) { $0 << 8 | Int(b[$1]) } }
        if b.count >= 24, b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), b[12..<16].elementsEqual("IHDR".utf8) {
            return (.png, be(16, 4), be(20, 4))
        }
        guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        var i = 2
        while i + 9 < b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }  // fill byte
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { i += 2; continue }  // no length
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                return (.jpeg, be(i + 7, 2), be(i + 5, 2))
            }
            i += 2 + be(i + 2, 2)
        }
        return nil
    }

    /// The size written for a picture of `width` × `height` CSS pixels (either may be `nil`:
    /// the other scaled in proportion, both `nil`: the pixel size), in twips (15 a CSS pixel),
    /// no wider than `maxWidth` twips (scaled down in proportion).
    package func goal(width: Int?, height: Int?, maxWidth: Int) -> (width: Int, height: Int) {
        var w = Double(width ?? 0), h = Double(height ?? 0)
        switch (width, height) {
        case (nil, nil): w = Double(pixelWidth); h = Double(pixelHeight)
        case (nil, _): w = h * Double(pixelWidth) / Double(pixelHeight)
        case (_, nil): h = w * Double(pixelHeight) / Double(pixelWidth)
        default: break
        }
        w *= 15; h *= 15
        if w > Double(maxWidth) { h *= Double(maxWidth) / w; w = Double(maxWidth) }
        return (max(1, Int(w.rounded())), max(1, Int(h.rounded())))
    }
}
