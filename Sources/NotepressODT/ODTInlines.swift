import NotepressAST
import NotepressThemes

/// Inline runs (see ``ODTEmitter``): character styles, links (`text:a`), footnotes
/// (`text:note`), images (`draw:frame`), and ODF's white space (`text:s`, `text:tab`,
/// `text:line-break`).
extension ODTBuilder {
    /// The background of highlighted text (`==text==`): the yellow of browsers' `<mark>`.
    static let markColor = RGBColor(red: 0xFF, green: 0xFF, blue: 0x00)

    /// Writes all runs of `inl`: consecutive runs in one link share one `text:a`; the runs of an
    /// image (its description) become one frame, or its description when it cannot be embedded.
    mutating func writeInlines(_ inl: Inlines, _ ctx: ODTContext) {
        let table = InlineAttributeTable(inl)
        let runs = inl.runs
        var i = 0
        while i < runs.count {
            let linkSpan = table[run: runs[i]].innermostLink
            var opened = false
            if let span = linkSpan, let raw = table.link(span)?.destination {
                let destination = URLSafety.destination(raw, unsafe: unsafe)
                if !destination.isEmpty {
                    startLink(destination)
                    opened = true
                }
            }
            while i < runs.count, table[run: runs[i]].innermostLink == linkSpan {
                let entry = table[run: runs[i]]
                if let image = entry.innermostImage, let link = table.link(image) {
                    var end = i
                    while end < runs.count, table[run: runs[end]].innermostImage == image { end += 1 }
                    writeImage(link, inl, i..<end, table, ctx, inLink: opened)
                    i = end
                } else {
                    writeRun(runs[i], entry.attributes, ctx, inLink: linkSpan != nil)
                    i += 1
                }
            }
            if opened { x.end() }
        }
    }

    /// Opens a `text:a` to `destination`: a fragment (`#id`) names the bookmark of a heading or
    /// block id; a relative path is written relative to the package's folder (`../`), as ODF
    /// resolves links from inside the package.
    mutating func startLink(_ destination: String) {
        var href = destination
        if href.hasPrefix("#") {
            href = "#" + (String(href.dropFirst()).removingPercentEncoding ?? String(href.dropFirst()))
        } else if !Self.hasScheme(href), !href.hasPrefix("/") {
            href = "../" + href
        }
        x.start("text:a", attributeList: [
            ("xlink:type", "simple"), ("xlink:href", href), ("text:style-name", "Internet_20_link"),
            ("text:visited-style-name", "Visited_20_Internet_20_Link"),
        ])
    }

    /// Whether `s` starts with a URI scheme (`https:`, `mailto:`).
    static func hasScheme(_ s: String) -> Bool {
        guard let colon = s.firstIndex(of: ":"), colon != s.startIndex else { return false }
        return s[..<colon].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }

    /// The text style key of a run's attributes under `theme` (static: a method call on the
    /// builder while it is being mutated would copy it).
    static func textKey(_ a: InlineAttributes, _ theme: ResolvedTheme) -> TextKey {
        var k = TextKey()
        if a.math != nil { k.parent = "TeX_20_math" } else if a.code { k.parent = "Source_20_Text" }
        k.bold = a.strong
        k.italic = a.emphasis
        k.strike = a.strikethrough
        k.underline = a.insert
        k.superscript = a.superscript
        k.subscript = a.subscript && !a.superscript
        k.script = a.script && !a.code
        k.size = a.textStyle.map { theme.style($0).size }
        if a.tag != nil { k.color = theme.colors.link }
        if a.colorRole == .alert { k.color = theme.colors.alert }
        if a.marker { k.color = theme.colors.secondary }
        if a.highlight { k.background = Self.markColor }
        k.engraved = a.letterpress
        return k
    }

    /// Writes one run.
    mutating func writeRun(_ run: InlineRun, _ attributes: InlineAttributes, _ ctx: ODTContext, inLink: Bool) {
        switch run.content {
        case .text(let t):
            writeSpan(textStyle(Self.textKey(attributes, theme)), t)
        case .softBreak:
            writeText(" ")
        case .hardBreak:
            x.start("text:line-break")
            x.end()
            afterSpace = true
        case .rawHTML:
            break
        case .footnoteReference(let label, let number, _):
            writeFootnote(label, number, ctx, inLink: inLink)
        }
    }

    /// A footnote reference: at its first reference (outside footnotes and links) the note itself,
    /// `text:note` with its number and body; later references a `text:note-ref` to it; inside a
    /// footnote or a link (where ODF has no notes) the number, superscript.
    mutating func writeFootnote(_ label: String, _ number: Int, _ ctx: ODTContext, inLink: Bool) {
        let sup = textStyle(TextKey(parent: "Footnote_20_anchor"))
        guard !ctx.inFootnote, !inLink, let blocks = footnotes[label] else {
            writeSpan(sup, String(number))
            return
        }
        if let id = writtenFootnotes[label] {
            x.start("text:span", ["text:style-name": sup ?? "Footnote_20_anchor"])
            x.start("text:note-ref", ["text:note-class": "footnote", "text:reference-format": "text", "text:ref-name": "ftn\(id)"])
            x.text(String(number))
            x.end()
            x.end()
            return
        }
        let id = writtenFootnotes.count + 1
        writtenFootnotes[label] = id
        x.start("text:note", ["text:id": "ftn\(id)", "text:note-class": "footnote"])
        x.element("text:note-citation", text: String(number))
        x.start("text:note-body")
        let saved = (afterSpace, pendingText, pendingBookmarks)
        pendingText = nil
        pendingBookmarks = []
        var c = ODTContext()
        c.inFootnote = true
        for b in blocks { writeBlock(b, c) }
        if blocks.isEmpty { pendingText = "" }
        flushPending(c)
        (afterSpace, pendingText, pendingBookmarks) = saved
        x.end()
        x.end()
    }

    /// An image: a frame as large as ``ODTImages/displaySize(pixels:link:maxWidth:)`` says, anchored
    /// as a character, its description as title and description (alternative text). An image
    /// that cannot be embedded keeps its description as text, with a warning at its position
    /// (a remote one, not fetched, becomes a link to it).
    mutating func writeImage(_ link: Link, _ inl: Inlines, _ range: Range<Int>, _ table: InlineAttributeTable,
                             _ ctx: ODTContext, inLink: Bool) {
        var alt = ""
        for r in range { if case .text(let t) = inl.runs[r].content { alt += t } else if inl.runs[r].content == .softBreak { alt += " " } }
        switch images.lookup(link.destination) {
        case .embedded(let index):
            let image = images.embedded[index]
            let room = ODTEmitter.textWidth - (ctx.listDepth > 0 ? Double(ctx.listDepth) * 36 : min(ctx.indent, ODTEmitter.maxIndent))
            let size = ODTImages.displaySize(pixels: image.pixels, link: link, maxWidth: max(room, 72))
            frameCount += 1
            x.start("draw:frame", attributeList: [
                ("draw:style-name", "fr1"), ("draw:name", "Image\(frameCount)"), ("text:anchor-type", "as-char"),
                ("svg:width", ODTEmitter.pt(size.width)), ("svg:height", ODTEmitter.pt(size.height)), ("draw:z-index", "0"),
            ])
            x.start("draw:image", attributeList: [
                ("xlink:href", image.name), ("xlink:type", "simple"), ("xlink:show", "embed"), ("xlink:actuate", "onLoad"),
                ("draw:mime-type", image.mediaType),
            ])
            x.end()
            if !alt.isEmpty {
                x.element("svg:title", text: alt)
                x.element("svg:desc", text: alt)
            }
            x.end()
            afterSpace = false
        case .missing(let why):
            if !missingImagesReported {
                diagnostics.append(Diagnostic(.warning, "ODT: \(why); its description is kept as text",
                                              file: document.metadata.sourcePath, position: link.position ?? currentPosition))
            }
            for r in range { writeRun(inl.runs[r], table[run: inl.runs[r]].attributes, ctx, inLink: inLink) }
        case .notEmbedded(let why):
            if let why {
                diagnostics.append(Diagnostic(.warning, "ODT: \(why); its description is kept as text",
                                              file: document.metadata.sourcePath, position: link.position ?? currentPosition))
            }
            let remote = why == nil && !inLink
            if remote { startLink(URLSafety.destination(link.destination, unsafe: unsafe)) }
            for r in range { writeRun(inl.runs[r], table[run: inl.runs[r]].attributes, ctx, inLink: inLink || remote) }
            if remote { x.end() }
        }
    }

    /// `text` in a `text:span` of `style`, or bare when `style` is `nil`.
    mutating func writeSpan(_ style: String?, _ text: String, code: Bool = false) {
        guard let style else { writeText(text); return }
        x.start("text:span", ["text:style-name": style])
        writeText(text)
        x.end()
    }

    /// Writes `s` as ODF text: a space after a space (or at a line's start) as `text:s` (with a
    /// count for a run), which ODF does not collapse; tabs as `text:tab`, line feeds as
    /// `text:line-break`; carriage returns dropped.
    mutating func writeText(_ s: String, code: Bool = false) {
        let u = Array(s.utf8)
        var segment = 0, i = 0
        func flush(_ to: Int) {
            if to > segment { x.text(String(decoding: u[segment..<to], as: UTF8.self)) }
        }
        while i < u.count {
            let c = u[i]
            switch c {
            case 0x20:
                if !afterSpace {
                    afterSpace = true
                    i += 1
                    continue
                }
                flush(i)
                var n = 0
                while i < u.count, u[i] == 0x20 { n += 1; i += 1 }
                if n == 1 { x.start("text:s") } else { x.start("text:s", ["text:c": String(n)]) }
                x.end()
                segment = i
            case 0x09, 0x0A, 0x0D:
                flush(i)
                if c == 0x09 {
                    x.start("text:tab"); x.end()
                } else if c == 0x0A {
                    x.start("text:line-break"); x.end()
                }
                afterSpace = true
                i += 1
                segment = i
            default:
                afterSpace = false
                i += 1
            }
        }
        flush(u.count)
    }
}
