import Foundation
import NotepressAST
import NotepressContainer

/// Images: a paragraph that is one image becomes a figure, scaled to the text width (or its
/// given width); PNG and JPEG files are embedded, anything else is warned about at its position
/// and its description written instead.
extension PDFEmitter {
    /// The largest image file drawn (64 MiB, as DOCX and ODT embed).
    static let maxImageBytes = 64 << 20

    /// The image of a paragraph whose every run is the description of one image.
    func soleImage(_ inlines: Inlines) -> Link? {
        var image: Link?
        let table = InlineAttributeTable(inlines)
        for i in inlines.runs.indices {
            let a = table[run: inlines.runs[i]].attributes
            guard let link = a.image else {
                if case .text(let t) = inlines.runs[i].content, t.allSatisfy(\.isWhitespace) { continue }
                if case .softBreak = inlines.runs[i].content { continue }
                return nil
            }
            if let image, image != link { return nil }
            image = link
        }
        if image == nil, inlines.runs.isEmpty { return nil }
        return image
    }

    /// Draws the image as a figure; `false` (after a warning) when it cannot be embedded.
    func writeImage(_ image: Link, _ ctx: BlockContext) -> Bool {
        let destination = image.destination
        let warn = { (why: String) in
            // Its description follows: not an image within text (``attributed(_:_:color:)``).
            self.warnedInlineImages.insert(image.position ?? SourcePosition(line: 0, column: 0))
            self.diagnostics.append(Diagnostic(.warning, "PDF: image \(destination) \(why); its description is written instead",
                                               file: self.document.metadata.sourcePath, position: image.position))
        }
        if destination.contains("://") || destination.hasPrefix("data:") {
            warn("is not a local file (not embedded)")
            return false
        }
        var path = destination.removingPercentEncoding ?? destination
        if let q = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<q]) }
        if !path.hasPrefix("/"), let source = document.metadata.sourcePath, let slash = source.lastIndex(of: "/") {
            path = String(source[...slash]) + path
        }
        // Told apart before the shim draws it: a missing file is not "not an image".
        switch ImageFile.read(path, maxBytes: Self.maxImageBytes) {
        case .image(let h, _) where h.kind != .gif: break
        case .image: warn("is not a PNG or JPEG image (GIF is not drawn)"); return false
        case let file: warn(file.problem(kinds: "PNG or JPEG")); return false
        }
        let available = textWidth - indent(ctx)
        let given = image.width.map { Double($0) * 0.75 } ?? available
        library.tagBegin(handle, "Figure", nil)
        let status = library.image(handle, path, indent(ctx), min(given, available), theme.style(for: .body).size * 0.6)
        library.tagEnd(handle, "Figure")
        if status != 0 {
            warn("is not a PNG or JPEG file that can be read")
            return false
        }
        return true
    }
}
