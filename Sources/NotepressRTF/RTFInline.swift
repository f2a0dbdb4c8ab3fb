import Foundation
import NotepressAST
import NotepressThemes

/// Inline runs: character formatting, links, footnote references (see ``RTFEmitter``).
extension RTFBuilder {

    /// Writes all runs of `inl`.
    mutating func writeInlines(_ inl: Inlines, _ ctx: BlockContext) {
        writeInlines(inl, 0..<inl.runs.count, InlineAttributeTable(inl), ctx)
    }

    /// Writes the runs of `inl` in `range`; `table` is `inl`'s attribute table (built once per
    /// paragraph, however many lines it is written as).
    mutating func writeInlines(_ inl: Inlines, _ range: Range<Int>, _ table: InlineAttributeTable, _ ctx: BlockContext) {
        var i = range.lowerBound
        let runs = inl.runs
        // The outermost link or image span of each run: a field covers exactly the runs that share it.
        while i < range.upperBound {
            if let image = table[run: runs[i]].outermostTarget, picture(of: inl, image, table) != nil {
                i = writePicture(inl, i, range, table, ctx)
            } else if let link = table[run: runs[i]].outermostTarget, let raw = table.link(link)?.destination {
                // No field for a destination that URLSafety drops (or an empty one): the text alone.
                let destination = URLSafety.destination(raw, unsafe: unsafe)
                if !destination.isEmpty {
                    out.open(); out.word("field")
                    out.open(); out.symbol("*"); out.word("fldinst")
                    out.open(); out.text(Self.hyperlinkInstruction(destination)); out.close()
                    out.close()
                    out.open(); out.word("fldrslt")
                    out.open(); out.word("cf", Self.colorLink); out.word("ul")
                }
                while i < range.upperBound, table[run: runs[i]].outermostTarget == link {
                    i = writePicture(inl, i, range, table, ctx)
                }
                if !destination.isEmpty { out.close(); out.close(); out.close() }
            } else {
                writeRun(runs[i], table[run: runs[i]].attributes, ctx)
                i += 1
            }
        }
    }

    /// The picture embedded for image span `span` of `inl`, if it is an image whose destination
    /// ``picture`` gives one for (not a dangerous destination: ``URLSafety``).
    func picture(of inl: Inlines, _ span: Int, _ table: InlineAttributeTable) -> RTFPicture? {
        guard let picture, case .image(let l) = inl.spans[span].kind,
              !URLSafety.destination(l.destination, unsafe: unsafe).isEmpty else { return nil }
        return picture(l.destination)
    }

    /// Writes run `i` of `inl`, or, when it is in an image with a picture (``picture(of:_:_:)``),
    /// that picture at the image's size (`\picwgoal`/`\pichgoal`, ``RTFPicture/goal(width:height:maxWidth:)``)
    /// in place of all the image's runs in `range` (its description). Returns the next run.
    mutating func writePicture(_ inl: Inlines, _ i: Int, _ range: Range<Int>, _ table: InlineAttributeTable, _ ctx: BlockContext) -> Int {
        let runs = inl.runs
        guard let image = table[run: runs[i]].innermostImage, let pic = picture(of: inl, image, table),
              case .image(let l) = inl.spans[image].kind else {
            writeRun(runs[i], table[run: runs[i]].attributes, ctx)
            return i + 1
        }
        let goal = pic.goal(width: l.width, height: l.height, maxWidth: max(RTFEmitter.textWidth - ctx.indent, 720))
        out.open(); out.word("pict"); out.word(pic.kind == .png ? "pngblip" : "jpegblip")
        out.word("picw", pic.pixelWidth); out.word("pich", pic.pixelHeight)
        out.word("picwgoal", goal.width); out.word("pichgoal", goal.height)
        out.newline()
        out.hexData(pic.bytes)
        out.close()
        var next = i + 1
        while next < range.upperBound, table[run: runs[next]].innermostImage == image { next += 1 }
        return next
    }

    /// The HYPERLINK field instruction for `destination` (RTF 1.9.1 "Fields"): a fragment of this
    /// or a relative file (`#id`, `page.rtf#id`, as a site writes them) names the bookmark of that
    /// id with the `\l` switch (``bookmarkName(forID:)``), the file (if any) before it; an
    /// absolute URL stays whole (its fragment is the web page's business).
    static func hyperlinkInstruction(_ destination: String) -> String {
        // The usual destination, ASCII with nothing to quote and either a scheme or no `#`, is
        // written whole: found in one pass over its bytes.
        var copy = destination
        let whole = copy.withUTF8 { b -> Bool in
            var inScheme = true, schemeLength = 0, hasScheme = false, hasHash = false
            for c in b {
                if c >= 0x80 || c == 0x5C || c == 0x22 { return false }
                if inScheme {
                    if c == UInt8(ascii: ":") {
                        hasScheme = schemeLength > 0
                        inScheme = false
                    } else if (0x30...0x39).contains(c) || (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c)
                                || c == UInt8(ascii: "+") || c == UInt8(ascii: "-") || c == UInt8(ascii: ".") {
                        schemeLength += 1
                    } else {
                        // A byte no scheme has, before the first `:`: no scheme.
                        inScheme = false
                    }
                }
                if c == UInt8(ascii: "#") { hasHash = true }
            }
            return hasScheme || !hasHash
        }
        if whole { return "HYPERLINK \"" + destination + "\"" }
        let hasScheme: Bool
        let utf8 = destination.utf8
        if !utf8.contains(where: { $0 >= 0x80 }) {
            // ASCII: every byte is a Character (CR LF aside, which is neither `:` nor allowed).
            hasScheme = utf8.firstIndex(of: UInt8(ascii: ":")).map { c in
                c != utf8.startIndex && utf8[..<c].allSatisfy { b in
                    (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b)
                        || b == UInt8(ascii: "+") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
                }
            } ?? false
        } else {
            hasScheme = destination.firstIndex(of: ":").map { c in
                destination[..<c].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) } && c != destination.startIndex
            } ?? false
        }
        if !hasScheme, let hash = destination.firstIndex(of: "#") {
            let file = String(destination[..<hash])
            let fragment = {
                let f = String(destination[destination.index(after: hash)...])
                // Without a `%` there is nothing to decode (and nothing invalid).
                return f.utf8.contains(UInt8(ascii: "%")) ? f.removingPercentEncoding ?? f : f
            }()
            let mark = "\\l \"" + fieldQuoted(bookmarkName(forID: fragment)) + "\""
            return file.isEmpty ? "HYPERLINK " + mark : "HYPERLINK \"" + fieldQuoted(file) + "\" " + mark
        }
        return "HYPERLINK \"" + fieldQuoted(destination) + "\""
    }

    /// A field argument's escaping (Word field syntax): `\` → `\\`, `"` → `\"`. The result is
    /// then RTF-escaped like all text. Characters equal to `\` or `"` only: one carrying a
    /// combining mark is another Character and left alone.
    static func fieldQuoted(_ s: String) -> String {
        let utf8 = s.utf8
        // Nothing to quote: the same string (the loop below would rebuild it unchanged).
        if !utf8.contains(where: { $0 == 0x5C || $0 == 0x22 }) { return s }
        if !utf8.contains(where: { $0 >= 0x80 }) {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(utf8.count + 8)
            for b in utf8 {
                if b == 0x5C || b == 0x22 { bytes.append(0x5C) }
                bytes.append(b)
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        var out = ""
        for c in s {
            if c == "\\" || c == "\"" { out.append("\\") }
            out.append(c)
        }
        return out
    }

    /// Whether a run with attributes `a` has character properties of its own (``writeRunProps(_:)``).
    static func hasRunProps(_ a: InlineAttributes) -> Bool {
        a.code || a.script || a.textStyle != nil || a.strong || a.emphasis || a.strikethrough || a.tag != nil
            || a.colorRole == .alert || a.marker || a.letterpress || a.highlight || a.superscript || a.subscript || a.insert
    }

    /// Writes the character properties of a run's attributes (on top of the paragraph's): first
    /// the complex-script ones after `\rtlch` (`\af` code font, `\afs`, `\ab`, `\ai`; `~script~`
    /// is italic there, as cursive faces have no Hebrew or Arabic), then the Latin ones after
    /// `\ltrch` (`\f`, `\fs`, `\b`, `\i`), then those of every script (`\strike`, `\cf`, `\impr`).
    /// Nothing for a run without attributes.
    mutating func writeRunProps(_ a: InlineAttributes) {
        let size = a.textStyle.map { RTFEmitter.halfPoints(theme.style($0).size) }
        if a.code || a.script || size != nil || a.strong || a.emphasis {
            out.word("rtlch")
            if a.code { out.word("af", codeFont) }
            if let size { out.word("afs", size) }
            if a.strong { out.word("ab") }
            if a.emphasis || (a.script && !a.code) { out.word("ai") }
            out.word("ltrch")
            if a.code { out.word("f", codeFont) } else if a.script { out.word("f", scriptFont) }
            if let size { out.word("fs", size) }
            if a.strong { out.word("b") }
            if a.emphasis { out.word("i") }
        }
        if a.strikethrough { out.word("strike") }
        if a.insert { out.word("ul") }
        if a.superscript { out.word("super") } else if a.subscript { out.word("sub") }
        if a.tag != nil { out.word("cf", Self.colorLink) }
        if a.colorRole == .alert { out.word("cf", Self.colorAlert) }
        if a.marker { out.word("cf", Self.colorSecondary) }
        if a.letterpress { out.word("impr") }
        // ==highlight==: the background of a text marker (HTML's <mark> colour).
        if a.highlight { out.word("highlight", extraColor(Self.markColor)) }
    }

    /// The background of highlighted text (`==text==`): the yellow of browsers' `<mark>`.
    static let markColor = RGBColor(red: 0xFF, green: 0xFF, blue: 0x00)

    /// Writes one run whose flat attributes are `attributes`.
    mutating func writeRun(_ run: InlineRun, _ attributes: InlineAttributes, _ ctx: BlockContext) {
        switch run.content {
        case .text(let t):
            if Self.hasRunProps(attributes) {
                out.open(); writeRunProps(attributes); out.text(t); out.close()
            } else {
                out.text(t)
            }
        case .softBreak:
            out.text(" ")
        case .hardBreak:
            out.word("line")
        case .rawHTML:
            break
        case .footnoteReference(let label, let number, _):
            guard !ctx.inFootnote, !writtenFootnotes.contains(label), let blocks = footnotes[label] else {
                out.open(); out.word("super"); out.text(String(number)); out.close()
                return
            }
            writtenFootnotes.insert(label)
            var c = BlockContext()
            c.inFootnote = true
            c.spaceAfter = 0
            let saved = pendingPrefix
            pendingPrefix = .content([.group([.word("super"), .word("chftn")]), .text(" ")])
            out.open(); out.word("super"); out.word("chftn"); out.close()
            out.open(); out.word("footnote")
            let start = out.bytes.count
            for b in blocks { writeBlock(b, c) }
            if pendingPrefix != nil {
                let s = theme.style(for: .footnote)
                beginParagraph()
                writeCharProps(s)
                writePendingPrefix()
                endParagraph()
            }
            pendingPrefix = saved
            // The last paragraph of a footnote ends with the group, not with \par.
            out.removeTrailingPar(since: start)
            out.close()
        }
    }

    /// The direction of the runs of `inl` in `range` (their text's first strong character).
    static func direction(_ inl: Inlines, _ range: Range<Int>) -> TextDirection? {
        for i in range {
            // The first run with a strong character decides.
            if case .text(let t) = inl.runs[i].content, let d = TextDirection.base(of: t) { return d }
        }
        return nil
    }
}
