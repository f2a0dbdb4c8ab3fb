import Foundation
import NotepressAST

/// Images embedded in the package (`Pictures/N.ext`), each file once however often it is shown,
/// sized from its header (PNG, JPEG, GIF) at 96 pixels per inch or from the size the source gave
/// (Obsidian's `|400x300`, HTML's `width`/`height`), and scaled down to fit the text width.
struct ODTImages {
    /// One embedded file.
    struct Embedded {
        /// The path inside the package (`Pictures/1.png`).
        var name: String
        /// `image/png`, `image/jpeg` or `image/gif`.
        var mediaType: String
        /// The file's bytes.
        var bytes: [UInt8]
        /// The size in pixels from the header.
        var pixels: (width: Int, height: Int)
    }

    /// What an image destination became.
    enum Lookup {
        /// Embedded: the index in ``embedded``.
        case embedded(Int)
        /// Not embedded (missing, unreadable, not PNG/JPEG/GIF, remote): why, for the warning;
        /// `nil` for a remote image (shown as a link, no warning).
        case notEmbedded(String?)
    }

    /// The files embedded so far, in order of first use.
    private(set) var embedded: [Embedded] = []
    /// What each destination resolved to.
    private var byDestination: [String: Lookup] = [:]
    /// The folder relative destinations are read from (the document's folder).
    let base: URL
    /// Files larger than this are not embedded (a warning): the package stays bounded.
    static let maxBytes = 64 << 20

    /// Images read relative to the folder of `sourcePath` (the current folder for standard input).
    init(sourcePath: String?) {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        if let p = sourcePath {
            base = URL(fileURLWithPath: p, relativeTo: cwd).deletingLastPathComponent()
        } else {
            base = cwd
        }
    }

    /// The image at `destination` (a relative or absolute path, `file:` URL, percent-encoded or
    /// not; its `?query` and `#fragment` are ignored), read and embedded on first use.
    mutating func lookup(_ destination: String) -> Lookup {
        if let known = byDestination[destination] { return known }
        let result = load(destination)
        byDestination[destination] = result
        return result
    }

    private mutating func load(_ destination: String) -> Lookup {
        var path = destination
        if let cut = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<cut]) }
        let lower = path.lowercased()
        if lower.hasPrefix("file://") {
            path = String(path.dropFirst(7))
        } else if let colon = path.firstIndex(of: ":"), path[..<colon].allSatisfy({ $0.isASCII && $0.isLetter }),
                  path.distance(from: path.startIndex, to: colon) > 1 {
            return .notEmbedded(nil)
        }
        path = path.removingPercentEncoding ?? path
        guard !path.isEmpty else { return .notEmbedded("the image has no file name") }
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : URL(fileURLWithPath: path, relativeTo: base)
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        guard let attributes, (attributes[.type] as? FileAttributeType) == .typeRegular else {
            return .notEmbedded("image '\(destination)' not found")
        }
        if let size = attributes[.size] as? Int, size > Self.maxBytes {
            return .notEmbedded("image '\(destination)' is larger than \(Self.maxBytes >> 20) MB")
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            return .notEmbedded("image '\(destination)' cannot be read")
        }
        let bytes = [UInt8](data)
        guard let (type, ext, pixels) = Self.sniff(bytes) else {
            return .notEmbedded("'\(destination)' is not a PNG, JPEG or GIF image")
        }
        embedded.append(Embedded(name: "Pictures/\(embedded.count + 1).\(ext)", mediaType: type, bytes: bytes, pixels: pixels))
        let result = Lookup.embedded(embedded.count - 1)
        return result
    }

    /// The media type, extension and size in pixels of a PNG, JPEG or GIF file, from its header;
    /// `nil` for anything else (or a header without a size).
    static func sniff(_ b: [UInt8]) -> (String, String, (width: Int, height: Int))? {
        func be16(_ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
        func be32(_ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
        // PNG: signature, then the IHDR chunk's width and height (big-endian).
        if b.count >= 24, b[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            let w = be32(16), h = be32(20)
            return w > 0 && h > 0 ? ("image/png", "png", (width: w, height: h)) : nil
        }
        // GIF87a / GIF89a: the logical screen's width and height (little-endian).
        if b.count >= 10, b[0..<4].elementsEqual(Array("GIF8".utf8)) {
            let w = Int(b[6]) | Int(b[7]) << 8, h = Int(b[8]) | Int(b[9]) << 8
            return w > 0 && h > 0 ? ("image/gif", "gif", (width: w, height: h)) : nil
        }
        // JPEG: SOI, then segments up to a start-of-frame (SOF0–SOF15 but DHT, JPG, DAC).
        if b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 {
            var i = 2
            while i + 9 < b.count {
                guard b[i] == 0xFF else { return nil }
                let marker = b[i + 1]
                if marker == 0xFF { i += 1; continue }
                if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }
                if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                    let h = be16(i + 5), w = be16(i + 7)
                    return w > 0 && h > 0 ? ("image/jpeg", "jpg", (width: w, height: h)) : nil
                }
                i += 2 + be16(i + 2)
            }
        }
        return nil
    }

    /// The size an image is shown at, in points: the source's size in pixels when given (a width
    /// alone keeps the proportions), else the file's, at 96 pixels per inch (0.75 pt per pixel);
    /// then scaled down, proportions kept, to at most `maxWidth`.
    static func displaySize(pixels: (width: Int, height: Int), link: Link, maxWidth: Double) -> (width: Double, height: Double) {
        var w = Double(pixels.width), h = Double(pixels.height)
        if let lw = link.width, lw > 0 {
            let lh = link.height.flatMap { $0 > 0 ? Double($0) : nil } ?? h * Double(lw) / w
            w = Double(lw); h = lh
        } else if let lh = link.height, lh > 0 {
            w = w * Double(lh) / h; h = Double(lh)
        }
        w *= 0.75; h *= 0.75
        if w > maxWidth { h *= maxWidth / w; w = maxWidth }
        return (max(w, 0.75), max(h, 0.75))
    }
}
