import NotepressContainer

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

    /// The picture of a PNG or JPEG file's `bytes` (``ImageHeader``: kind, size and a whole
    /// structure), or `nil` for anything else or more than ``maxBytes``.
    package init?(bytes: [UInt8]) {
        guard bytes.count <= Self.maxBytes, let h = ImageHeader.read(bytes), h.kind == .png || h.kind == .jpeg else { return nil }
        self.kind = h.kind == .png ? .png : .jpeg
        self.bytes = bytes
        pixelWidth = h.width
        pixelHeight = h.height
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
