import CLibCrypto
import Foundation
import NotepressAST
import NotepressContainer
import NotepressHTML
import NotepressThemes

/// What the EPUB writer takes from the conversion options.
package struct EPUBOptions: Sendable {
    /// The theme the stylesheet is made from (``EPUBStylesheet``).
    package var theme: ResolvedTheme
    /// Highlighted code blocks carry their token classes (coloured by the stylesheet).
    package var highlight: Bool
    /// `SOURCE_DATE_EPOCH`: the package's `dcterms:modified` and the zip entries' dates.
    package var sourceDateEpoch: Date?
    /// The headings down to this level make a one-chapter book's table of contents.
    package var tableOfContentsMaxLevel: Int

    package init(theme: ResolvedTheme, highlight: Bool = true, sourceDateEpoch: Date? = nil, tableOfContentsMaxLevel: Int = 3) {
        self.theme = theme
        self.highlight = highlight
        self.sourceDateEpoch = sourceDateEpoch
        self.tableOfContentsMaxLevel = tableOfContentsMaxLevel
    }
}

/// One chapter of a book: a document whose links into the book already name chapter files
/// (`ch002.xhtml#id`) and whose images name packaged paths (``EPUBResources``).
package struct EPUBChapter: Sendable {
    package var document: Document
    /// The chapter's file name in the package (`ch001.xhtml`).
    package var fileName: String
    /// The title the navigation shows.
    package var title: String
    /// The images raw HTML shows: `src` as written, percent-decoded → packaged path
    /// (``EPUBResources``); any other raw `img` is written as its `alt` text.
    package var rawHTMLImages: [String: String]

    package init(document: Document, fileName: String, title: String, rawHTMLImages: [String: String] = [:]) {
        self.document = document
        self.fileName = fileName
        self.title = title
        self.rawHTMLImages = rawHTMLImages
    }

    /// The file name of chapter `n` (0-based): `ch001.xhtml`, …
    package static func fileName(_ n: Int) -> String { "ch" + EPUBResources.pad(n + 1) + ".xhtml" }
}

/// An entry of the book's table of contents: a chapter (or a place in one), or a heading
/// grouping entries (a part of a `SUMMARY.md`, a folder).
package struct EPUBNavEntry: Sendable, Equatable {
    package var title: String
    /// `ch001.xhtml` or `ch001.xhtml#id`; `nil` for a heading that only groups ``children``.
    package var href: String?
    package var children: [EPUBNavEntry]

    package init(title: String, href: String?, children: [EPUBNavEntry] = []) {
        self.title = title
        self.href = href
        self.children = children
    }
}

/// A whole book.
package struct EPUBBookContent {
    package var title: String
    /// A BCP 47 language tag (`en`, `de-CH`).
    package var language: String
    package var creators: [String]
    /// The date when there is no `SOURCE_DATE_EPOCH` (the document's).
    package var date: Date?
    /// The chapters in reading order (the spine).
    package var chapters: [EPUBChapter]
    package var resources: EPUBResources
    /// The table of contents; `nil`: each chapter's headings (``EPUBOptions/tableOfContentsMaxLevel``).
    package var toc: [EPUBNavEntry]?
    /// The book's writing direction: right to left turns pages right to left (the spine's
    /// `page-progression-direction`) and sets `dir` on every document.
    package var direction: TextDirection = .leftToRight

    package init(title: String, language: String, creators: [String], date: Date?, chapters: [EPUBChapter],
                 resources: EPUBResources, toc: [EPUBNavEntry]? = nil) {
        self.title = title
        self.language = language
        self.creators = creators
        self.date = date
        self.chapters = chapters
        self.resources = resources
        self.toc = toc
    }
}

/// Writes EPUB 3.3 packages: XHTML content documents from the HTML writer (``EPUBChapterTree``),
/// the theme's stylesheet (``EPUBStylesheet``), the navigation document and an NCX for EPUB 2
/// reading systems, the package document, images, in a zip (``ZipArchive``) whose bytes depend only
/// on the input and `SOURCE_DATE_EPOCH`.
package enum EPUBEmitter {
    /// The folder of the package document and everything it lists.
    static let root = "EPUB/"

    /// The package's bytes.
    /// - Throws: ``ContainerError`` when libzip cannot be loaded or fails.
    package static func render(_ book: EPUBBookContent, options: EPUBOptions, diagnostics: inout [Diagnostic]) throws -> [UInt8] {
        let htmlOptions = Self.htmlOptions(highlight: options.highlight)
        // Every chapter's tree first: a link's fragment is kept only when its chapter has the id.
        var trees: [EPUBChapterTree] = []
        trees.reserveCapacity(book.chapters.count)
        var targets = EPUBLinkTargets(chapters: [:], images: Set(book.resources.images.map(\.path)))
        for c in book.chapters {
            var chapterOptions = htmlOptions
            // `[TOC]`: the chapter's own table (``ContentsMarker``).
            chapterOptions.markerContents = ContentsMarker.contents(of: c.document, maxLevel: options.tableOfContentsMaxLevel)
            let (body, unknown) = HTMLEmitter(options: chapterOptions).render(c.document)
            for b in unknown {
                diagnostics.append(Diagnostic(.warning, "unknown node '\(b.typeName)' written as its content",
                                              file: c.document.metadata.sourcePath, position: b.position))
            }
            var html = ""
            if c.document.metadata.titleSource != .firstHeading, let t = c.document.metadata.title, !t.isEmpty {
                html = "<h1 class=\"note-title\">" + HTMLEscape.text(t) + "</h1>\n"
            }
            html += String(decoding: body, as: UTF8.self)
            let tree = EPUBChapterTree(body: html)
            targets.chapters[c.fileName] = tree.ids
            trees.append(tree)
        }
        var archive = ZipArchive(modified: options.sourceDateEpoch ?? Date(timeIntervalSince1970: 315_532_800))
        archive.add("mimetype", text: "application/epub+zip", stored: true)
        archive.add("META-INF/container.xml", bytes: EPUBPackageDocuments.container(root + "package.opf"))
        var chapterFiles: [(name: String, bytes: [UInt8], mathML: Bool)] = []
        for (c, tree) in zip(book.chapters, trees) {
            let (bytes, mathML) = chapterXHTML(c, tree: tree, targets: targets, language: book.language, direction: book.direction)
            chapterFiles.append((c.fileName, bytes, mathML))
        }
        let toc = book.toc ?? headingsTOC(book.chapters, maxLevel: options.tableOfContentsMaxLevel)
        let identifier = Self.identifier(book, chapters: chapterFiles.map(\.bytes))
        let docs = EPUBPackageDocuments(title: book.title, language: book.language, identifier: identifier,
                                        toc: sanitized(toc, targets: targets), firstChapter: book.chapters.first?.fileName,
                                        direction: book.direction)
        archive.add(root + "package.opf", bytes: docs.packageDocument(creators: book.creators, modified: modified(book, options: options),
                                                                  chapters: chapterFiles.map { ($0.name, $0.mathML) },
                                                                  images: book.resources.images))
        archive.add(root + "nav.xhtml", bytes: docs.navigation())
        archive.add(root + "toc.ncx", bytes: docs.ncx())
        archive.add(root + "style.css", text: EPUBStylesheet(theme: options.theme).css())
        for f in chapterFiles { archive.add(root + f.name, bytes: f.bytes) }
        for image in book.resources.images { archive.add(root + image.path, bytes: image.bytes, stored: image.mediaType != "image/svg+xml") }
        return try archive.bytes()
    }

    /// The HTML body options of a chapter: a page's (block ids, `dir="auto"`, alerts, table cell
    /// alignment as styles), raw HTML as pages keep it without `--unsafe`.
    static func htmlOptions(highlight: Bool) -> HTMLOptions {
        var o = HTMLOptions(unsafe: false, tagfilter: true, tablePreferStyleAttributes: true, blockIDs: true, directionAuto: true,
                            alerts: true, numberWidths: false, tagPagePrefix: nil)
        o.highlight = highlight
        return o
    }

    /// One chapter's XHTML and whether it holds MathML.
    static func chapterXHTML(_ c: EPUBChapter, tree: EPUBChapterTree, targets: EPUBLinkTargets, language: String,
                             direction: TextDirection = .leftToRight) -> ([UInt8], Bool) {
        let w = XMLStreamWriter()
        var attributes = [("xmlns", "http://www.w3.org/1999/xhtml"), ("xmlns:epub", "http://www.idpf.org/2007/ops"),
                          ("xml:lang", language), ("lang", language)]
        if direction == .rightToLeft { attributes.append(("dir", "rtl")) }
        w.start("html", attributeList: attributes)
        w.start("head")
        w.element("meta", ["charset": "utf-8"])
        w.element("title", text: c.title.isEmpty ? "Untitled" : c.title)
        w.element("link", ["rel": "stylesheet", "type": "text/css", "href": "style.css"])
        w.end()
        w.start("body")
        w.start("section", ["class": "note", "epub:type": "chapter"])
        var body = EPUBXHTMLWriter(writer: w, targets: targets, fileName: c.fileName, rawHTMLImages: c.rawHTMLImages)
        body.write(tree.nodes)
        w.end()
        w.end()
        w.end()
        return (w.bytes(), body.wroteMathML)
    }

    /// Each chapter's top-level headings down to `maxLevel`, nested by level; a chapter without
    /// headings is one entry with its title.
    static func headingsTOC(_ chapters: [EPUBChapter], maxLevel: Int) -> [EPUBNavEntry] {
        var out: [EPUBNavEntry] = []
        for c in chapters {
            let headings = c.document.headingIDs().filter { $0.isTopLevel && $0.level <= maxLevel && !$0.id.isEmpty }
            if headings.isEmpty || chapters.count > 1 {
                out.append(EPUBNavEntry(title: c.title, href: c.fileName))
                if chapters.count > 1 { continue }
            }
            // A stack of open entries by level: each heading goes under the nearest smaller level.
            var stack: [(level: Int, entry: EPUBNavEntry)] = []
            func close(to level: Int) {
                while let last = stack.last, last.level >= level {
                    stack.removeLast()
                    if stack.isEmpty { out.append(last.entry) } else { stack[stack.count - 1].entry.children.append(last.entry) }
                }
            }
            for h in headings {
                close(to: h.level)
                stack.append((h.level, EPUBNavEntry(title: h.text, href: c.fileName + "#" + EPUBPackageDocuments.fragment(h.id))))
            }
            close(to: 0)
        }
        return out
    }

    /// `entries` with what a navigation document cannot hold taken out: empty titles get the
    /// target's name, links to ids the chapter does not have lose the fragment, groups without
    /// entries go (a `span` entry must have a list under it).
    static func sanitized(_ entries: [EPUBNavEntry], targets: EPUBLinkTargets) -> [EPUBNavEntry] {
        entries.compactMap { e in
            var e = e
            e.children = sanitized(e.children, targets: targets)
            if let href = e.href {
                let parts = href.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let file = String(parts[0])
                guard let ids = targets.chapters[file] else { e.href = nil; return e.children.isEmpty ? nil : e }
                if parts.count == 2, !ids.contains(EPUBPaths.percentDecoded(String(parts[1]))) { e.href = file }
            } else if e.children.isEmpty {
                return nil
            }
            if e.title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { e.title = e.href ?? "Untitled" }
            return e
        }
    }

    /// `dcterms:modified`: `SOURCE_DATE_EPOCH`, else the book's date, else 1980-01-01.
    static func modified(_ book: EPUBBookContent, options: EPUBOptions) -> String {
        var c = CivilDateTime(options.sourceDateEpoch ?? book.date ?? Date(timeIntervalSince1970: 315_532_800))
        c.millisecond = 0
        return c.iso8601
    }

    /// `urn:uuid:` of a name-based UUID (RFC 9562 §5.8, version 8 from SHA-256 as its appendix B.2
    /// shows) of the book's title, language and chapters' bytes: the same content, the same identifier.
    static func identifier(_ book: EPUBBookContent, chapters: [[UInt8]]) -> String {
        var name = Array((book.title + "\u{1F}" + book.language + "\u{1F}").utf8)
        for c in chapters { name += c; name.append(0x1F) }
        for i in book.resources.images { name += Array(i.path.utf8); name += i.bytes }
        var d = [UInt8](repeating: 0, count: 32)
        name.withUnsafeBytes { p in d.withUnsafeMutableBufferPointer { notepress_sha256(p.baseAddress, p.count, $0.baseAddress) } }
        d[6] = (d[6] & 0x0F) | 0x80
        d[8] = (d[8] & 0x3F) | 0x80
        let hex = d.prefix(16).map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        let h = Array(hex)
        return "urn:uuid:" + String(h[0..<8]) + "-" + String(h[8..<12]) + "-" + String(h[12..<16]) + "-" + String(h[16..<20]) + "-" + String(h[20..<32])
    }
}
