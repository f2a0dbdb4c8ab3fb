import Foundation
import NotepressAST
import NotepressContainer

/// Images embedded in the package (see ``DOCXEmitter``): PNG, JPEG and GIF files (``ImageHeader``
/// reads their kind and pixel size), each once under `word/media/`, drawn inline at their size
/// (or the Obsidian/HTML width and height the link carries) at 96 pixels per inch, scaled down to
/// fit the text width and height. A missing file, a remote URL or a file that is not one of
/// those images is a warning at the image's position, and its description is written instead.
extension DOCXBuilder {
    /// The largest image file read (64 MiB): bigger ones are not embedded.
    static let maxImageBytes = 64 << 20
    /// English Metric Units per pixel at 96 pixels per inch (914 400 per inch).
    static let emuPerPixel = 9525

    /// Writes image `link` (description `description`) as an inline drawing, or the description.
    func writeImage(_ link: Link, description: String, _ ctx: DOCXContext) {
        guard let (id, header) = embeddedImage(link) else {
            if !description.isEmpty { run(description, DOCXRun()) }
            return
        }
        var w = Double(link.width ?? header.width)
        var h = link.width == nil ? Double(header.height)
            : Double(link.height ?? Int((Double(header.height) * w / Double(header.width)).rounded()))
        if link.width == nil, let lh = link.height { h = Double(lh); w = Double(header.width) * h / Double(header.height) }
        // EMU: 635 per twip.
        let maxW = Double((DOCXEmitter.textWidth - min(ctx.indent, DOCXEmitter.maxIndent)) * 635)
        let maxH = Double(DOCXEmitter.textHeight * 635)
        var cx = max(w, 1) * Double(Self.emuPerPixel), cy = max(h, 1) * Double(Self.emuPerPixel)
        let scale = min(1, maxW / cx, maxH / cy)
        cx = (cx * scale).rounded(); cy = (cy * scale).rounded()
        drawingCount += 1
        let n = String(drawingCount)
        let ext: KeyValuePairs<String, String> = ["cx": String(Int(cx)), "cy": String(Int(cy))]
        x.start("w:r"); x.start("w:drawing")
        x.start("wp:inline", ["distT": "0", "distB": "0", "distL": "0", "distR": "0"])
        x.element("wp:extent", ext)
        x.element("wp:effectExtent", ["l": "0", "t": "0", "r": "0", "b": "0"])
        x.element("wp:docPr", ["id": n, "name": "Picture " + n, "descr": description])
        x.start("wp:cNvGraphicFramePr"); x.element("a:graphicFrameLocks", ["noChangeAspect": "1"]); x.end()
        x.start("a:graphic"); x.start("a:graphicData", ["uri": Self.pictureNS])
        x.start("pic:pic")
        x.start("pic:nvPicPr"); x.element("pic:cNvPr", ["id": n, "name": "Picture " + n, "descr": description])
        x.element("pic:cNvPicPr"); x.end()
        x.start("pic:blipFill"); x.element("a:blip", ["r:embed": id])
        x.start("a:stretch"); x.element("a:fillRect"); x.end(); x.end()
        x.start("pic:spPr")
        x.start("a:xfrm"); x.element("a:off", ["x": "0", "y": "0"]); x.element("a:ext", ext); x.end()
        x.start("a:prstGeom", ["prst": "rect"]); x.element("a:avLst"); x.end()
        x.end()
        x.end(); x.end(); x.end()
        x.end(); x.end(); x.end()
    }

    /// The relationship id and header of the image `link` names, read once per file; `nil`
    /// (after a warning at the image) when it cannot be embedded.
    func embeddedImage(_ link: Link) -> (String, ImageHeader)? {
        let destination = URLSafety.destination(link.destination, unsafe: unsafe)
        guard !destination.isEmpty else { return nil }
        let key: String
        var file = ImageFile.missing
        if destination.hasPrefix("data:") {
            key = destination
            file = .other([])  // not base64: no image
            if imagesByPath[key] == nil, let comma = destination.firstIndex(of: ","),
               destination[..<comma].hasSuffix(";base64"),
               let data = Data(base64Encoded: String(destination[destination.index(after: comma)...]), options: .ignoreUnknownCharacters) {
                file = ImageFile.of([UInt8](data))
            }
        } else if Self.hasScheme(destination) {
            warn("image \(destination) is not embedded (a remote image); its description is kept", at: link.position)
            return nil
        } else {
            var path = destination
            if let cut = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<cut]) }
            path = path.removingPercentEncoding ?? path
            if !path.hasPrefix("/"), let source = sourceFile ?? document.metadata.sourcePath {
                let folder = (source as NSString).deletingLastPathComponent
                if !folder.isEmpty { path = folder + "/" + path }
            }
            key = path
            if imagesByPath[key] == nil { file = ImageFile.read(path, maxBytes: Self.maxImageBytes) }
        }
        if let known = imagesByPath[key] {
            return known.map { ($0.id, $0.header) }
        }
        guard case .image(let header, let bytes) = file else {
            if file != .missing || !missingImagesReported { warn("image \(destination) \(file.problem(kinds: "PNG, JPEG or GIF")); its description is kept", at: link.position) }
            imagesByPath[key] = .some(nil)
            return nil
        }
        let id = "rId\(relationships.count + 5)"
        let target = "media/image\(media.count + 1).\(header.kind.fileExtension)"
        relationships.append(DOCXRelationship(id: id, type: "image", target: target, external: false))
        media.append(DOCXMedia(id: id, target: target, bytes: bytes, kind: header.kind))
        imagesByPath[key] = (id, header)
        return (id, header)
    }
}
