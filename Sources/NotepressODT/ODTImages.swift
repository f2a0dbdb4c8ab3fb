import Foundation
import NotepressAST
import NotepressContainer

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
        /// No such file: why, for the warning (unless a site's link report says it).
        case missing(String)
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
        let file = ImageFile.read(url.path, maxBytes: Self.maxBytes)
        guard case .image(let header, let bytes) = file else {
            if file == .missing { return .missing("image '\(destination)' " + file.problem(kinds: "")) }
            return .notEmbedded("image '\(destination)' " + file.problem(kinds: "PNG, JPEG or GIF"))
        }
        let ext = header.kind == .jpeg ? "jpg" : header.kind.fileExtension
        embedded.append(Embedded(name: "Pictures/\(embedded.count + 1).\(ext)", mediaType: header.kind.mediaType, bytes: bytes,
                                 pixels: (header.width, header.height)))
        return .embedded(embedded.count - 1)
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
