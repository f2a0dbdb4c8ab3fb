import NotepressAST
import NotepressRawHTML

/// Options of the HTML body writer.
package struct HTMLOptions: Sendable, Equatable {
    /// Keep raw HTML and dangerous URLs (cmark's `CMARK_OPT_UNSAFE`). Off: raw HTML becomes
    /// `<!-- raw HTML omitted -->` and dangerous URLs an empty attribute, as cmark-gfm does.
    package var unsafe: Bool
    /// Apply GFM's tagfilter to raw HTML that `unsafe` keeps.
    package var tagfilter: Bool
    /// Table cell alignment as `style="text-align: …"` instead of the `align` attribute that
    /// HTML5 made obsolete (cmark's `CMARK_OPT_TABLE_PREFER_STYLE_ATTRIBUTES`). Standalone pages
    /// use it; fragments default to cmark's plain output.
    package var tablePreferStyleAttributes: Bool
    /// Write the ids blocks carry (``Block/id``: heading ids, block anchors) as `id` attributes.
    /// Off, the output is cmark-gfm's whatever ids the document has.
    package var blockIDs: Bool
    /// The URL of the tag pages folder relative to this page, ending in `/` (`../tags/`), when the
    /// site has tag pages: a hashtag is then `<a class="tag" href="PREFIX+PAGE.html">`
    /// (``Hashtags/pagePath(_:)``), else `<span class="tag">`.
    package var tagPagePrefix: String?

    /// `dir="auto"` on every block that holds text (`p`, `h1`–`h6`, `li`, `blockquote`, `th`,
    /// `td`, alerts), as GitHub writes it, so that each block takes the direction of its first
    /// strong character (HTML Living Standard §3.2.6.4, the `dir` attribute). Standalone pages
    /// use it; fragments keep cmark's plain output.
    package var directionAuto: Bool
    /// Write ``Alert`` blocks as GitHub does (`<div class="markdown-alert markdown-alert-note">`,
    /// a `<p class="markdown-alert-title">Note</p>` title, then the content). Off, an alert is
    /// written as the block quote it was read from, marker line included, which is what
    /// cmark-gfm writes: `--fragment` stays byte-identical to cmark-gfm. Standalone pages use it.
    package var alerts: Bool
    /// On an ordered list whose largest number has three or more digits, `style="--np-digits: N"`
    /// (N digits), from which the page's stylesheet sizes the list's start padding so that the
    /// numbers are not clipped. Standalone pages use it.
    package var numberWidths: Bool
    /// Highlighted code blocks (``Block/highlight``) as `<span class="tok-ROLE">` runs inside
    /// their `<code>` (plain text unwrapped); off, code is text only, as cmark-gfm writes it.
    package var highlight = false
    /// The text of a permalink after each heading that has an id (MkDocs `toc` `permalink`:
    /// `<a class="headerlink" href="#id" title="Permanent link">¶</a>`, as Python-Markdown writes
    /// it); `nil`: none.
    package var permalink: String?
    /// The table a `[TOC]` marker block (``ContentsMarker``) is written as, a `nav` as `--toc`'s
    /// (``HTMLTableOfContents``); `nil`: a marker is an unknown block, written as its text.
    package var markerContents: TableOfContents?

    package init(unsafe: Bool = false, tagfilter: Bool = true, tablePreferStyleAttributes: Bool = false, blockIDs: Bool = true,
                directionAuto: Bool = false, alerts: Bool = false, numberWidths: Bool = false, tagPagePrefix: String? = nil) {
        self.unsafe = unsafe
        self.tagfilter = tagfilter
        self.tablePreferStyleAttributes = tablePreferStyleAttributes
        self.blockIDs = blockIDs
        self.directionAuto = directionAuto
        self.alerts = alerts
        self.numberWidths = numberWidths
        self.tagPagePrefix = tagPagePrefix
    }
}

/// Writes a document's body as HTML.
///
/// For Markdown the output is byte for byte what libcmark-gfm's `cmark_render_html` writes for
/// the same input, options and extensions (tables, task lists, footnotes included). Note markup
/// adds `<span class="script">`, `<span class="alert">` (ALL-CAPS words), `<span class="marker">`
/// (delimiters kept by `--keep-markers`), `<span class="letterpress">` and
/// `<span class="text-STYLE">`; items of a note list whose number does not follow the previous
/// one carry `value="N"`. Hashtags (`--hashtags`) are `<span class="tag">#name</span>`, or links
/// to their tag pages (``HTMLOptions/tagPagePrefix``). Pages (not fragments) add `dir="auto"` on
/// text blocks, GitHub's alert markup and the digits of long ordered lists (``HTMLOptions``).
package struct HTMLEmitter: Sendable {
    package var options: HTMLOptions

    package init(options: HTMLOptions = HTMLOptions()) {
        self.options = options
    }

    /// The body content (no page template).
    package func fragment(_ document: Document) -> String {
        String(decoding: fragmentBytes(document), as: UTF8.self)
    }

    /// ``fragment(_:)`` as UTF-8 bytes, without the copy into a `String`.
    package func fragmentBytes(_ document: Document) -> [UInt8] {
        render(document).body
    }

    /// The body as UTF-8 bytes and the ``Block/Kind/unknown(typeName:blocks:)`` blocks it wrote as
    /// their content (type name and position, document order, any depth), for warnings.
    package func render(_ document: Document) -> (body: [UInt8], unknownBlocks: [(typeName: String, position: SourcePosition?)]) {
        var w = HTMLBodyWriter(options: options)
        w.prepare(document.blocks)
        w.blocks(document.blocks, tight: false)
        let unknown = w.unknownBlocks.map { (typeName: $0.0, position: $0.1) }
        return (w.finish(), unknown)
    }
}

/// Appends a string's UTF-8 bytes (markup and already-escaped text) to the output buffer.
func += (lhs: inout [UInt8], rhs: String) {
    var rhs = rhs
    rhs.withUTF8 { lhs.append(contentsOf: $0) }
}

extension Array where Element == UInt8 {
    /// Appends static markup (a literal tag) as bytes: no `String` is built.
    mutating func put(_ s: StaticString) {
        s.withUTF8Buffer { append(contentsOf: $0) }
    }

    /// Appends an integer in decimal, as `"\(n)"` writes it (one digit without a `String`).
    mutating func put(decimal n: Int) {
        if n >= 0 && n < 10 { append(0x30 + UInt8(n)) } else { self += String(n) }
    }
}

/// The body renderer; mirrors cmark's html.c event by event so output matches it.
struct HTMLBodyWriter: BlockVisitor {
    let options: HTMLOptions
    /// The output, UTF-8.
    var out: [UInt8] = []
    var footnoteIndex = 0
    /// How many references each footnote label has (for extra backrefs).
    var referenceCounts: [String: Int] = [:]
    var tightStack: [Bool] = [false]
    /// Unknown blocks seen by ``prepare(_:)``: type name and position.
    var unknownBlocks: [(String, SourcePosition?)] = []
    /// The span lists ``inlines(_:)`` fills between runs, kept from call to call so that their
    /// storage is allocated once per document rather than once per paragraph.
    var spanTransition = SpanTransition()
    /// Raw inline elements a kept start tag opened in the inline content being written
    /// (``sanitizedInlineHTML(_:)``), outermost first.
    var rawInlineOpen: [String] = []
    /// The raw inline element whose content is being left out (`<script>` … `</script>`).
    var rawInlineDropping: String?
    /// Kept elements HTML blocks of the container being written left open around the Markdown
    /// blocks after them (``sanitizedHTMLBlock(_:)``), outermost first.
    var rawBlockOpen: [RawHTMLElement] = []
    /// Sets of content tabs written so far (``writeTabs(_:)``: their inputs' names).
    var tabSets = 0

    /// ``HTMLOptions/directionAuto``: text blocks carry ` dir="auto"` (``putDir()``).
    let directionAuto: Bool

    init(options: HTMLOptions) {
        self.options = options
        directionAuto = options.directionAuto
        out.reserveCapacity(1 << 16)
    }

    /// ` dir="auto"` when ``HTMLOptions/directionAuto`` is on, else nothing.
    mutating func putDir() {
        if directionAuto { out.put(" dir=\"auto\"") }
    }

    mutating func prepare(_ blocks: [Block]) {
        let doc = Document(metadata: DocumentMetadata(sourceFormat: .gfm), blocks: blocks)
        func count(_ inl: Inlines) {
            for r in inl.runs {
                if case .footnoteReference(let l, _, _) = r.content { referenceCounts[l, default: 0] += 1 }
            }
        }
        doc.forEachBlock { b, _ in
            switch b.kind {
            case .paragraph(let i), .heading(_, let i): count(i)
            case .table(let t):
                t.header.forEach(count)
                for row in t.rows { row.forEach(count) }
            case .unknown(let name, _) where !ContentTabs.isTabs(name) && !(name == ContentsMarker.typeName && options.markerContents != nil):
                unknownBlocks.append((name, b.position))
            default: break
            }
        }
    }

    /// Closes the footnote section, if any, and hands over the output.
    mutating func finish() -> [UInt8] {
        if footnoteIndex > 0 { out.put("</ol>\n</section>\n") }
        return out
    }

    /// cmark's `cmark_html_render_cr`: a newline unless at the start of output or of a line.
    mutating func cr() {
        if let last = out.last, last != 0x0A { out.append(0x0A) }
    }

    mutating func blocks(_ bs: [Block], tight: Bool) {
        tightStack.append(tight)
        let outer = rawBlockOpen
        rawBlockOpen = []
        visit(bs)
        closeRawBlockElements()  // raw HTML never reaches past its container
        rawBlockOpen = outer
        tightStack.removeLast()
    }

    // MARK: blocks

    mutating func visitParagraph(_ content: Inlines, _ block: Block) {
        if let a = block.attributes, !(tightStack.last ?? false) {
            // An attribute list's paragraph (MkDocs `attr_list`): its id, classes, safe attributes.
            cr(); out.put("<p")
            putAttributes(a, id: a.id ?? (options.blockIDs ? block.id : nil))
            putDir(); out.put(">")
            inlines(content)
            out.put("</p>\n")
            return
        }
        paragraph(content, backrefLabel: nil, id: options.blockIDs ? block.id : nil)
    }

    /// A paragraph; `id` (a block anchor, ``Block/id``) goes on the `p`, or on an empty `span`
    /// before the text in a tight list item (which has no `p`).
    mutating func paragraph(_ content: Inlines, backrefLabel: String?, id: String? = nil) {
        let tight = tightStack.last ?? false
        if let id {
            if tight {
                out.put("<span id=\""); HTMLEscape.appendAttribute(id, to: &out); out.put("\"></span>")
            } else {
                cr(); out.put("<p id=\""); HTMLEscape.appendAttribute(id, to: &out); out.put("\""); putDir(); out.put(">")
            }
        } else if !tight {
            cr(); out.put("<p"); putDir(); out.put(">")
        }
        inlines(content)
        if !tight {
            if let label = backrefLabel { out.put(" "); backrefs(label) }
            out.put("</p>\n")
        }
    }

    mutating func visitHeading(level: Int, _ content: Inlines, _ block: Block) {
        cr()
        out.put("<h"); out.put(decimal: level)
        let id = options.blockIDs ? block.id : nil
        if let a = block.attributes {
            putAttributes(a, id: id)
        } else if let id {
            out.put(" id=\""); HTMLEscape.appendAttribute(id, to: &out); out.put("\"")
        }
        putDir(); out.put(">")
        inlines(content)
        if let id, let mark = options.permalink {
            out.put("<a class=\"headerlink\" href=\"#"); HTMLEscape.appendURL(id, to: &out)
            out.put("\" title=\"Permanent link\">"); HTMLEscape.appendText(mark, to: &out); out.put("</a>")
        }
        out.put("</h"); out.put(decimal: level); out.put(">\n")
    }

    mutating func visitBlockQuote(_ children: [Block], _ block: Block) {
        cr(); out.put("<blockquote"); putDir(); out.put(">\n")
        blocks(children, tight: false)
        cr(); out.put("</blockquote>\n")
    }

    /// An alert: GitHub's markup (``HTMLOptions/alerts``), or the block quote it was read from.
    mutating func visitAlert(_ alert: Alert, _ block: Block) {
        // An alert with no marker in its source (a MkDocs admonition) has no block quote to give back.
        guard options.alerts || alert.marker.isEmpty else {
            visitBlockQuote(alert.blockQuoteChildren, block)
            return
        }
        writeAlert(alert)
    }

    mutating func visitList(_ list: ListBlock, _ block: Block) {
        cr()
        var style = ""
        if options.numberWidths && list.type == .ordered {
            var largest = list.start, next = list.start
            for item in list.items {
                let n = item.number ?? next
                largest = max(largest, abs(n))
                next = n + 1
            }
            let digits = String(largest).count
            if digits >= 3 { style = " style=\"--np-digits: \(digits)\"" }
        }
        if list.type == .bullet {
            out.put("<ul>\n")
        } else if list.start == 1 {
            out.put("<ol"); out += style; out.put(">\n")
        } else {
            out.put("<ol start=\""); out.put(decimal: list.start); out.put("\""); out += style; out.put(">\n")
        }
        var expected = list.start
        for item in list.items {
            cr()
            out.put("<li"); putDir()
            if let n = item.number {
                if n != expected { out.put(" value=\""); out.put(decimal: n); out.put("\"") }
                expected = n
            }
            expected += 1
            out.put(">")
            switch item.task {
            case .checked: out.put("<input type=\"checkbox\" checked=\"\" disabled=\"\" /> ")
            case .unchecked: out.put("<input type=\"checkbox\" disabled=\"\" /> ")
            case nil: break
            }
            blocks(item.blocks, tight: list.tight)
            out.put("</li>\n")
        }
        if list.type == .bullet { out.put("</ul>\n") } else { out.put("</ol>\n") }
    }

    mutating func visitCodeBlock(info: String, literal: String, _ block: Block) {
        cr()
        if info.isEmpty {
            out.put("<pre><code>")
        } else {
            let firstWord = info.prefix { !($0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0B}" || $0 == "\u{0C}") }
            out.put("<pre><code class=\"language-"); HTMLEscape.appendAttribute(String(firstWord), to: &out); out.put("\">")
        }
        if options.highlight, let h = block.highlight {
            h.forEachPiece(of: literal) { role, text in
                if role == .plain {
                    HTMLEscape.appendText(String(text), to: &out)
                } else {
                    out += "<span class=\"".utf8; out += role.cssClass.utf8; out += "\">".utf8
                    HTMLEscape.appendText(String(text), to: &out)
                    out += "</span>".utf8
                }
            }
        } else {
            HTMLEscape.appendText(literal, to: &out)
        }
        out.put("</code></pre>\n")
    }

    mutating func visitHTMLBlock(_ html: String, _ block: Block) {
        cr()
        if !options.unsafe {
            sanitizedHTMLBlock(html)
        } else if options.tagfilter {
            out += HTMLEscape.tagfiltered(html)
        } else {
            out += html
        }
        cr()
    }

    mutating func visitThematicBreak(_ block: Block) {
        cr(); out.put("<hr />\n")
    }

    mutating func visitTable(_ table: Table, _ block: Block) {
        cr(); out.put("<table>\n")
        out.put("<thead>\n")
        row(table.header, table.alignments, header: true)
        out.put("</thead>\n")
        if !table.rows.isEmpty {
            out.put("<tbody>\n")
            for r in table.rows { row(r, table.alignments, header: false) }
            out.put("</tbody>\n")
        }
        out.put("</table>\n")
    }

    /// A table row: `th` cells in the header row, else `td`.
    mutating func row(_ cells: [Inlines], _ alignments: [Table.Alignment], header: Bool) {
        out.put("<tr>\n")
        for i in cells.indices {
            out.put(header ? "<th" : "<td"); putDir()
            let align = i < alignments.count ? alignments[i] : .none
            if align != .none {
                out.put(options.tablePreferStyleAttributes ? " style=\"text-align: " : " align=\"")
                out += align.rawValue
                out.put("\"")
            }
            out.put(">")
            inlines(cells[i])
            out.put(header ? "</th>\n" : "</td>\n")
        }
        out.put("</tr>\n")
    }

    mutating func visitFootnoteDefinition(label: String, _ children: [Block], _ block: Block) {
        if footnoteIndex == 0 {
            closeRawBlockElements()  // the footnotes are no part of an open `<details>`
            out += "<section class=\"footnotes\" data-footnotes>\n<ol>\n"
        }
        footnoteIndex += 1
        out += "<li id=\"fn-" + HTMLEscape.url(label) + "\">\n"
        tightStack.append(false)
        let outer = rawBlockOpen
        rawBlockOpen = []
        var wroteBackref = false
        for (i, child) in children.enumerated() {
            if i == children.count - 1, case .paragraph(let content) = child.kind {
                paragraph(content, backrefLabel: label)
                wroteBackref = true
            } else {
                visit(child)
            }
        }
        closeRawBlockElements()
        rawBlockOpen = outer
        tightStack.removeLast()
        if !wroteBackref { backrefs(label); out += "\n" }
        out += "</li>\n"
    }

    mutating func backrefs(_ label: String) {
        let l = HTMLEscape.url(label)
        out += "<a href=\"#fnref-\(l)\" class=\"footnote-backref\" data-footnote-backref aria-label=\"Back to content\">↩</a>"
        let n = referenceCounts[label] ?? 1
        if n > 1 {
            for i in 2...n {
                out += " <a href=\"#fnref-\(l)-\(i)\" class=\"footnote-backref\" data-footnote-backref aria-label=\"Back to content\">↩<sup class=\"footnote-ref\">\(i)</sup></a>"
            }
        }
    }

    mutating func visitUnknown(typeName: String, _ children: [Block], _ block: Block) {
        if typeName == ContentTabs.set { writeTabs(children); return }
        if typeName == ContentsMarker.typeName, let toc = options.markerContents {
            // `[TOC]`: the `--toc` nav (nothing for a page without headings).
            let nav = HTMLTableOfContents.markup(toc)
            if !nav.isEmpty {
                cr()
                out += nav
                out.put("\n")
            }
            return
        }
        blocks(children, tight: false)
    }
}
