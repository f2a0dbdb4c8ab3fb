import NotepressAST
import NotepressContainer

/// The package's XML documents besides the chapters, each through ``XMLStreamWriter``: the OCF
/// `container.xml`, the package document (EPUB 3.3 §5), the navigation document (§7) with its
/// table of contents and landmarks, and the NCX (OPF 2.0.1 §2.4.1) for EPUB 2 reading systems.
struct EPUBPackageDocuments {
    var title: String
    var language: String
    /// `urn:uuid:…`, the package's unique identifier (also the NCX's `dtb:uid`).
    var identifier: String
    var toc: [EPUBNavEntry]
    /// The first chapter's file (the `bodymatter` landmark).
    var firstChapter: String?
    /// Right to left: the spine's `page-progression-direction` and the navigation's `dir`.
    var direction: TextDirection = .leftToRight

    /// `META-INF/container.xml` naming the package document at `path`.
    static func container(_ path: String) -> [UInt8] {
        let w = XMLStreamWriter()
        w.start("container", ["version": "1.0", "xmlns": "urn:oasis:names:tc:opendocument:xmlns:container"])
        w.start("rootfiles")
        w.element("rootfile", ["full-path": path, "media-type": "application/oebps-package+xml"])
        w.end()
        w.end()
        return w.bytes()
    }

    /// The package document: metadata, manifest (chapters with their `mathml` property, images
    /// with their media types), spine in reading order.
    func packageDocument(creators: [String], modified: String, chapters: [(name: String, mathML: Bool)],
                         images: [EPUBResources.Image]) -> [UInt8] {
        let w = XMLStreamWriter()
        w.start("package", ["xmlns": "http://www.idpf.org/2007/opf", "version": "3.0", "unique-identifier": "uid", "xml:lang": language])
        w.start("metadata", ["xmlns:dc": "http://purl.org/dc/elements/1.1/"])
        w.element("dc:identifier", ["id": "uid"], text: identifier)
        w.element("dc:title", text: title)
        w.element("dc:language", text: language)
        for c in creators { w.element("dc:creator", text: c) }
        w.element("meta", ["property": "dcterms:modified"], text: modified)
        w.end()
        w.start("manifest")
        w.element("item", ["id": "nav", "href": "nav.xhtml", "media-type": "application/xhtml+xml", "properties": "nav"])
        w.element("item", ["id": "ncx", "href": "toc.ncx", "media-type": "application/x-dtbncx+xml"])
        w.element("item", ["id": "css", "href": "style.css", "media-type": "text/css"])
        for (i, c) in chapters.enumerated() {
            var attrs = [("id", "c" + EPUBResources.pad(i + 1)), ("href", c.name), ("media-type", "application/xhtml+xml")]
            if c.mathML { attrs.append(("properties", "mathml")) }
            w.start("item", attributeList: attrs)
            w.end()
        }
        for (i, image) in images.enumerated() {
            w.element("item", ["id": "img" + EPUBResources.pad(i + 1), "href": image.path, "media-type": image.mediaType])
        }
        w.end()
        w.start("spine", attributeList: direction == .rightToLeft ? [("toc", "ncx"), ("page-progression-direction", "rtl")] : [("toc", "ncx")])
        for i in chapters.indices { w.element("itemref", ["idref": "c" + EPUBResources.pad(i + 1)]) }
        w.end()
        w.end()
        return w.bytes()
    }

    /// The navigation document: `toc` (nested `ol`s) and `landmarks` (where the text begins).
    func navigation() -> [UInt8] {
        let w = XMLStreamWriter()
        var attributes = [("xmlns", "http://www.w3.org/1999/xhtml"), ("xmlns:epub", "http://www.idpf.org/2007/ops"),
                          ("xml:lang", language), ("lang", language)]
        if direction == .rightToLeft { attributes.append(("dir", "rtl")) }
        w.start("html", attributeList: attributes)
        w.start("head")
        w.element("meta", ["charset": "utf-8"])
        w.element("title", text: title)
        w.element("link", ["rel": "stylesheet", "type": "text/css", "href": "style.css"])
        w.end()
        w.start("body")
        w.start("nav", ["epub:type": "toc", "id": "toc"])
        w.element("h1", text: "Contents")
        list(toc.isEmpty ? [EPUBNavEntry(title: title, href: firstChapter)] : toc, w)
        w.end()
        w.start("nav", ["epub:type": "landmarks", "id": "landmarks", "hidden": "hidden"])
        w.element("h1", text: "Landmarks")
        w.start("ol")
        // Where the text begins (a landmark may only point at a spine item: not this document).
        if let firstChapter {
            w.start("li")
            w.element("a", ["epub:type": "bodymatter", "href": firstChapter], text: "Start of content")
            w.end()
        }
        w.end()
        w.end()
        w.end()
        w.end()
        return w.bytes()
    }

    private func list(_ entries: [EPUBNavEntry], _ w: XMLStreamWriter) {
        w.start("ol")
        for e in entries {
            w.start("li")
            if let href = e.href { w.element("a", ["href": href], text: e.title) } else { w.element("span", text: e.title) }
            if !e.children.isEmpty { list(e.children, w) }
            w.end()
        }
        w.end()
    }

    /// The NCX: the same tree as `navPoint`s, numbered in reading order.
    func ncx() -> [UInt8] {
        let w = XMLStreamWriter()
        w.start("ncx", ["xmlns": "http://www.daisy.org/z3986/2005/ncx/", "version": "2005-1", "xml:lang": language])
        w.start("head")
        w.element("meta", ["name": "dtb:uid", "content": identifier])
        w.element("meta", ["name": "dtb:depth", "content": String(max(1, Self.depth(toc)))])
        w.element("meta", ["name": "dtb:totalPageCount", "content": "0"])
        w.element("meta", ["name": "dtb:maxPageNumber", "content": "0"])
        w.end()
        w.start("docTitle")
        w.element("text", text: title)
        w.end()
        w.start("navMap")
        var order = NCXOrder()
        navPoints(toc.isEmpty ? [EPUBNavEntry(title: title, href: firstChapter)] : toc, w, order: &order)
        w.end()
        w.end()
        return w.bytes()
    }

    /// The NCX's numbering: each navPoint an id of its own, each target one `playOrder` (a section
    /// without a page of its own points at its first chapter, and shares that chapter's order:
    /// two orders for one target are an error for epubcheck, RSC-005).
    private struct NCXOrder {
        var points = 0
        var orders: [String: Int] = [:]
        mutating func next(_ src: String) -> (id: String, playOrder: String) {
            points += 1
            if orders[src] == nil { orders[src] = orders.count + 1 }
            return ("np" + String(points), String(orders[src]!))
        }
    }

    private func navPoints(_ entries: [EPUBNavEntry], _ w: XMLStreamWriter, order: inout NCXOrder) {
        for e in entries {
            guard let src = e.href ?? Self.firstHref(e.children) ?? firstChapter else { continue }
            let n = order.next(src)
            w.start("navPoint", ["id": n.id, "playOrder": n.playOrder])
            w.start("navLabel")
            w.element("text", text: e.title)
            w.end()
            w.element("content", ["src": src])
            navPoints(e.children, w, order: &order)
            w.end()
        }
    }

    static func firstHref(_ entries: [EPUBNavEntry]) -> String? {
        for e in entries { if let h = e.href ?? firstHref(e.children) { return h } }
        return nil
    }

    static func depth(_ entries: [EPUBNavEntry]) -> Int {
        entries.map { 1 + depth($0.children) }.max() ?? 0
    }

    /// An id as a URL fragment: characters a URL may not hold literally percent-encoded.
    static func fragment(_ id: String) -> String {
        var out = ""
        for b in id.utf8 {
            let ok = (b >= 0x30 && b <= 0x39) || ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A) || "-._~!$&'()*+,;=:@/?".utf8.contains(b)
            if ok { out.unicodeScalars.append(Unicode.Scalar(b)) } else {
                let h = String(b, radix: 16, uppercase: true)
                out += "%" + (h.count == 1 ? "0" + h : h)
            }
        }
        return out
    }
}
