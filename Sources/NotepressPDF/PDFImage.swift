import Foundation
import NotepressAST
import NotepressPlatform
import NotepressThemes
import NotepressContainer

/// Images: a paragraph that is one image becomes a figure, scaled to the text width (or its
/// given width); an image given a width under half the column at the start of a paragraph
/// floats at its left, the paragraph's first lines beside it. PNG and JPEG files are embedded,
/// anything else (a missing file, another format) is warned about at its position and its
/// description written instead.
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
        guard let path = localImage(image) else { return false }
        let available = textWidth - indent(ctx)
        let given = image.width.map { Double($0) * 0.75 } ?? available
        library.tagBegin(handle, "Figure", nil)
        let status = library.image(handle, path, indent(ctx), min(given, available), theme.style(for: .body).size * 0.6)
        library.tagEnd(handle, "Figure")
        if status != 0 {
            imageWarning(image, "is not a PNG or JPEG file that can be read")
            return false
        }
        return true
    }

    /// The file of a local image: from the chapter's image folder, else the document's; `nil`
    /// after a warning when it is remote or not there. With `readable`, also `nil` (after a
    /// warning) when it is not a PNG or JPEG file the shim can read.
    func localImage(_ image: Link, readable: Bool = false) -> String? {
        let destination = image.destination
        if destination.contains("://") || destination.hasPrefix("data:") {
            imageWarning(image, "is not a local file (not embedded)")
            return nil
        }
        var path = destination.removingPercentEncoding ?? destination
        if let q = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<q]) }
        if !path.hasPrefix("/"), let folder = imageFolder {
            path = folder + "/" + path
        } else if !path.hasPrefix("/"), let source = document.metadata.sourcePath, let slash = source.lastIndex(of: "/") {
            path = String(source[...slash]) + path
        }
        // Told apart before the shim draws it: a missing file is not "not an image"; only a
        // regular file of at most ``maxImageBytes`` is read (the shim would read `/dev/zero` to
        // no end, and wait on a FIFO without a writer).
        switch ImageFile.read(path, maxBytes: Self.maxImageBytes) {
        case .image(let h, _) where h.kind != .gif: break
        case .image: imageWarning(image, "is not a PNG or JPEG image (GIF is not drawn)"); return nil
        case let file: imageWarning(image, file.problem(kinds: "PNG or JPEG")); return nil
        }
        var width = 0.0, height = 0.0
        if readable && library.imageSize(handle, path, &width, &height) != 0 {
            imageWarning(image, "is not a PNG or JPEG file that can be read")
            return nil
        }
        return path
    }

    /// Warns that `image` is not drawn (`why`) and its description written instead; the
    /// description is then not an image within text (``attributed(_:_:color:omitting:)``).
    func imageWarning(_ image: Link, _ why: String) {
        warnedInlineImages.insert(image.position ?? SourcePosition(line: 0, column: 0))
        diagnostics.append(Diagnostic(.warning, "PDF: image \(image.destination) \(why); its description is written instead",
                                      file: document.metadata.sourcePath, position: image.position))
    }

    /// The image a paragraph starts with, when it floats (issue 49, exclusion paths): given a
    /// width under half the column and followed by text in its paragraph. The paragraph's lines
    /// flow around it (``writeFloating(_:_:_:)``).
    func floatingImage(_ inlines: Inlines, _ ctx: BlockContext) -> Link? {
        let table = InlineAttributeTable(inlines)
        var image: Link?
        for run in inlines.runs {
            let a = table[run: run].attributes
            if let i = a.image, image == nil || i == image {
                image = i
                continue
            }
            switch run.content {
            case .text(let t) where t.allSatisfy(\.isWhitespace): continue
            case .softBreak, .hardBreak: continue
            default: break
            }
            guard let image, let width = image.width, width > 0, Double(width) * 0.75 < (textWidth - indent(ctx)) / 2 else { return nil }
            return image
        }
        return nil
    }

    /// A paragraph of `inlines` (style `s`) that starts with `image`, floated at the left indent
    /// at its given size, the first lines beside it; `false` (after a warning) when the image
    /// cannot be drawn.
    func writeFloating(_ image: Link, _ inlines: Inlines, _ s: ResolvedStyle, _ ctx: BlockContext) -> Bool {
        guard let path = localImage(image, readable: true) else { return false }
        let text = attributed(inlines, s, omitting: image)
        paragraph(text, s, ctx, tag: "P", spaceAfter: s.size * 0.6) { p in
            p.float_image = UnsafePointer(self.strings.c(path))
            p.float_width = Double(image.width ?? 0) * 0.75
            p.float_height = image.height.map { Double($0) * 0.75 } ?? 0
            p.float_gap = s.size * 0.8
        }
        return true
    }
}
