import Foundation
import NotepressAST

/// Inline content: words, fonts, links and their layout into roff lines (see ``ManEmitter``).
extension ManRenderer {

    /// The columns `items` take on one line: words plus one per space.
    static func width(_ items: [InlineItem]) -> Int {
        items.reduce(0) { sum, item in
            switch item {
            case .word(let p): return sum + p.reduce(0) { $0 + $1.text.unicodeScalarCount }
            case .space, .hardBreak: return sum + 1
            case .indent(let n): return sum + n
            case .linkStart, .linkEnd: return sum
            }
        }
    }

    /// Writes a tag line (`.TP`): one line, never wrapped, links as text.
    mutating func tag(_ c: Inlines) {
        let items = inlineItems(c, flow: false)
        let saved = w.width
        w.width = Int.max
        layout(items)
        w.endText()
        w.width = saved
    }

    /// Writes filled text.
    ///
    /// A paragraph with `.UR`/`.MT` links, words longer than 30 columns (URLs, paths) or CJK text
    /// (written without spaces) is set ragged-right (`.ad l` … `.ad`, groff(7) "ad"): a URL on a line of
    /// its own leaves nothing to stretch, and justified text would make groff warn "cannot adjust
    /// line".
    mutating func flow(_ c: Inlines) {
        guard w.atCleanLineStart else { return flowWhole(c) }
        // Streamed: items are laid out as they are made, a few thousand at a time, into a fresh
        // output; whether the paragraph is ragged is known at its end, and `.ad l` goes before it
        // (what `w.control(".ad l")` writes at a clean line start, see ``RoffWriter/atCleanLineStart``).
        w.holdOutput()
        var ragged = false
        var warnings: [String] = []
        // The item buffer of the last paragraph, emptied, with its capacity.
        var sink = InlineItemSink(lineStart: true, reusing: itemBuffer)
        itemBuffer = []
        var i = 0
        /// Items looked at for ``makesRagged(_:)``.
        var checked = 0
        var mail = false
        Self.makeInlineItems(c, flow: true, unsafe: unsafe, ronnTags: ronnClosingTags, warn: { warnings.append($0) },
                             into: &sink) { sink in
            if !ragged {
                while checked < sink.items.count && !ragged {
                    ragged = Self.makesRagged(sink.items[checked])
                    checked += 1
                }
            }
            if sink.items.count >= 4096 {
                // Each item needs the two after it.
                while i + 2 < sink.items.count { i = layoutStep(sink.items, i, context: .text, lastLinkWasMail: &mail) }
                sink.removeFirst(i)
                checked = max(0, checked - i)
                i = 0
            }
        }
        let items = sink.takeItems()
        while i < items.count { i = layoutStep(items, i, context: .text, lastLinkWasMail: &mail) }
        var pending = items
        pending.removeAll(keepingCapacity: true)
        itemBuffer = pending
        for m in warnings { warn(m) }
        w.releaseOutput(inserting: ragged ? ".ad l\n" : "")
        w.endText()
        if ragged { w.control(".ad") }
    }

    /// Whether `item` makes its paragraph ragged-right (see ``flow(_:)``).
    static func makesRagged(_ item: InlineItem) -> Bool {
        switch item {
        case .linkStart: return true
        case .word(let p):
            var n = 0
            for part in p {
                if part.text.withUTF8Bytes({ $0.allSatisfy { $0 < 0x80 } }) {
                    n += part.text.utf8.count
                } else {
                    if part.text.unicodeScalars.contains(where: isCJK) { return true }
                    n += part.text.unicodeScalarCount
                }
            }
            return n > 30
        default: return false
        }
    }

    /// ``flow(_:)`` with the paragraph's items made first (when the writer is not at a clean line start).
    mutating func flowWhole(_ c: Inlines) {
        let items = inlineItems(c, flow: true)
        let ragged = items.contains(where: Self.makesRagged)
        if ragged { w.control(".ad l") }
        layout(items)
        w.endText()
        if ragged { w.control(".ad") }
    }

    mutating func layout(_ items: [InlineItem], context: RoffContext = .text) {
        var i = 0
        var mail = false
        while i < items.count { i = layoutStep(items, i, context: context, lastLinkWasMail: &mail) }
    }

    /// Writes `items[i]` (looking at most two items ahead) and returns the index of the next item
    /// to write. `lastLinkWasMail` is whether the last `.linkStart` seen was a `mailto:` link.
    mutating func layoutStep(_ items: [InlineItem], _ i: Int, context: RoffContext, lastLinkWasMail mail: inout Bool) -> Int {
        switch items[i] {
        case .word(let parts): return writeWord(parts, items, i, context: context)
        case .space: w.space()
        case .indent(let columns): w.fixedSpace(columns)
        case .hardBreak: if w.lastMacro != "br" { w.macro("br") }
        case .linkStart(let destination):
            mail = destination.lowercased().hasPrefix("mailto:")
            if mail {
                w.macro("MT", [String(destination.dropFirst(7))], minus: true)
            } else {
                w.macro("UR", escapedArgs: [Self.breakableURL(destination)])
            }
        case .linkEnd:
            // The `.UE` trailer (groff_man(7)): the punctuation that follows the link without a
            // space. A word that goes on after it (CJK text: `，這是…`) continues on the next line
            // after `\c`, so it keeps its break points and no space comes in between.
            if i + 1 < items.count, case .word(let parts) = items[i + 1], let first = parts.first,
               first.font == .roman, !first.literal {
                let split = Self.splitTrailer(parts)
                let trailer = RoffEscaper.escape(split.trailer, context: .argument, minus: false)
                guard let rest = split.rest else {
                    w.macro(mail ? "ME" : "UE", escapedArgs: [trailer])
                    var next = i + 2
                    if next < items.count, case .space = items[next] { next += 1 }
                    return next
                }
                w.macro(mail ? "ME" : "UE", escapedArgs: [trailer + "\\c"])
                return writeWord(rest, items, i + 1, context: context)
            }
            w.macro(mail ? "ME" : "UE")
        }
        return i + 1
    }

    /// Writes the word `parts` (which is `items[i]`, or what is left of it after a `.UE` trailer)
    /// and decides the sentence break after it; returns the index of the next item to write.
    mutating func writeWord(_ parts: Word, _ items: [InlineItem], _ i: Int, context: RoffContext) -> Int {
        w.word(parts, context: context)
        if i + 1 < items.count, case .space = items[i + 1], endsWithPeriodLike(parts) {
            let plain = parts.count == 1 ? parts[0].text : parts.map(\.text).joined()
            var nextWord: String?
            if i + 2 < items.count, case .word(let np) = items[i + 2] { nextWord = np.map(\.text).joined() }
            // The word without the opening bracket and quotes around it (no Foundation
            // CharacterSet per sentence end: the profile showed it).
            var bare = plain.lowercased().unicodeScalars[...]
            while let f = bare.first, f == "(" || f == "\"" || f == "'" { bare = bare.dropFirst() }
            while let l = bare.last, l == "(" || l == "\"" || l == "'" { bare = bare.dropLast() }
            let abbreviation = abbreviations.contains(String(bare))
            let nextLower = nextWord?.first?.isLowercase ?? false
            if (abbreviation && plain.lowercased() != "etc.") || nextLower || (plain.lowercased() == "etc." && nextLower) {
                if plain.hasSuffix(".") { w.zeroWidth() }
            } else if nextWord != nil {
                w.sentenceBreak()
                return i + 2
            }
        }
        return i + 1
    }

    /// Splits the word after a link into its leading punctuation (closing, final, dash, connector
    /// and other punctuation, Unicode general categories Pe, Pf, Pd, Pc, Po: `,` `.` `)` `，` `。`
    /// `」`), which is the `.UE` trailer, and the rest. Only the first part is looked at (the caller
    /// checked that it is roman and not code). The rest is `nil` when nothing is left.
    static func splitTrailer(_ parts: Word) -> (trailer: String, rest: Word?) {
        let text = parts[0].text
        var end = text.unicodeScalars.startIndex
        while end != text.unicodeScalars.endIndex {
            switch text.unicodeScalars[end].properties.generalCategory {
            case .closePunctuation, .finalPunctuation, .dashPunctuation, .connectorPunctuation, .otherPunctuation:
                end = text.unicodeScalars.index(after: end)
                continue
            default: break
            }
            break
        }
        let trailer = String(text.unicodeScalars[..<end])
        var rest = Array(parts.dropFirst())
        let left = String(text.unicodeScalars[end...])
        if !left.isEmpty { rest.insert(WordPart(text: left, font: parts[0].font, literal: parts[0].literal), at: 0) }
        return (trailer, rest.isEmpty ? nil : Word(rest))
    }

    /// A URL escaped as a macro argument with `\:` (an optional break, groff(7)) where a
    /// breakable word may break (``RoffEscaper/breaksAfter(_:)``, before `%`, between CJK
    /// characters) past the scheme, so that groff can break a URL longer than the line
    /// (groff_man(7), "UR"): one rule for URLs in text and in `.UR`.
    static func breakableURL(_ url: String) -> String {
        guard let sep = url.range(of: "://") else {
            return RoffWriter.quoteIfNeeded(RoffEscaper.escape(url, context: .argument, minus: true))
        }
        var e = RoffEscaper.escape(String(url[..<sep.upperBound]), context: .argument, minus: true)
        e += RoffEscaper.escape(String(url[sep.upperBound...]), context: .argument, minus: true, breakable: true)
        return RoffWriter.quoteIfNeeded(e)
    }

    /// Whether a word ends a sentence as roff sees it: `.`, `!` or `?`, possibly followed by
    /// closing `)`, `]`, `"`, `'`, `*` (groff(7) "Sentences").
    func endsWithPeriodLike(_ parts: Word) -> Bool {
        // The text is the parts joined; the last non-empty part ends it.
        var k = parts.count - 1
        while k >= 0 && parts[k].text.isEmpty { k -= 1 }
        guard k >= 0, let b = parts[k].text.utf8.last else { return false }
        // A last byte that is ASCII and none of `)]"'*.!?` ends in no such Character.
        switch b {
        case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "*"),
             UInt8(ascii: "."), UInt8(ascii: "!"), UInt8(ascii: "?"): break
        case 0..<0x80: return false
        default: break
        }
        if k == 0, let ascii = Self.asciiEndsWithPeriodLike(parts[0].text) { return ascii }
        return endsWithPeriodLike(parts.count == 1 ? parts[0].text : parts.map(\.text).joined())
    }

    /// ``endsWithPeriodLike(_:)`` on the bytes of printable-ASCII text, whose bytes are its
    /// Characters; `nil` for other text.
    static func asciiEndsWithPeriodLike(_ s: String) -> Bool? {
        s.withUTF8Bytes { u -> Bool? in
            guard u.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
            var end = u.count
            while end > 0 {
                switch u[end - 1] {
                case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "*"): end -= 1
                    continue
                default: break
                }
                break
            }
            guard end > 0 else { return false }
            let l = u[end - 1]
            return l == UInt8(ascii: ".") || l == UInt8(ascii: "!") || l == UInt8(ascii: "?")
        }
    }

    func endsWithPeriodLike(_ s: String) -> Bool {
        var t = Substring(s)
        while let l = t.last, ")]\"'*\u{2019}\u{201D}".contains(l) { t = t.dropLast() }
        guard let l = t.last else { return false }
        return l == "." || l == "!" || l == "?"
    }

    /// The font of a run: bold for strong, code and alert colour; italic for emphasis and script.
    func font(_ a: InlineAttributes) -> RoffFont { Self.font(a) }

    static func font(_ a: InlineAttributes) -> RoffFont {
        let bold = a.strong || a.code || a.colorRole == .alert || a.highlight
        let italic = a.emphasis || a.script || a.insert
        switch (bold, italic) {
        case (true, true): return .boldItalic
        case (true, false): return .bold
        case (false, true): return .italic
        case (false, false): return .roman
        }
    }

    /// Flattens runs into words, spaces, breaks and link boundaries. With `flow` false (headings,
    /// tags, cells) links become `text <url>` and hard breaks spaces.
    mutating func inlineItems(_ c: Inlines, flow: Bool) -> [InlineItem] {
        var sink = InlineItemSink(lineStart: flow)
        var warnings: [String] = []
        Self.makeInlineItems(c, flow: flow, unsafe: unsafe, ronnTags: ronnClosingTags, warn: { warnings.append($0) },
                             into: &sink) { _ in }
        for m in warnings { warn(m) }
        return sink.takeItems()
    }

    /// Makes the items of ``inlineItems(_:flow:)`` into `sink`, in order, and calls `afterRun`
    /// after each run of `c` (and at the end), which may lay out and remove items made so far:
    /// no space first or last, never two spaces in a row. A link or image whose destination
    /// ``URLSafety`` drops (without `unsafe`) or that has none is its text alone; so is a link
    /// whose target ``linkTarget(_:)`` does not show. Struck-out text is written
    /// `[STRIKEOUT:text]`, as pandoc writes it (roff has no strike-out that both groff and mandoc
    /// show on terminals). In `flow`, spaces and tabs that start a line (after a hard break, or at
    /// the start) are kept as ``InlineItem/indent(_:)`` (tab stops every 8 columns).
    /// `ronnTags`: in ronn input, the element names the document closes (see ``rawInline``).
    static func makeInlineItems(_ c: Inlines, flow: Bool, unsafe: Bool, ronnTags: Set<String>? = nil, warn: (String) -> Void,
                                into sink: inout InlineItemSink, afterRun: (inout InlineItemSink) -> Void) {
        // Items are made into a struct's buffer, which `afterRun` sees after each run: state kept
        // in local variables that nested functions capture was checked for exclusive access at
        // run time (4 % of a man run).
        // The innermost link and image span of each run, and its flat attributes.
        let table = InlineAttributeTable(c)
        var spans = LiveSpans(table: table, unsafe: unsafe)
        /// Inside struck-out text (`[STRIKEOUT:` written, `]` not yet).
        var struck = false
        let runs = c.runs
        /// The open link: span id, link, and how it is written.
        var openLink: (id: Int, link: Link, mode: LinkMode)?
        for (idx, run) in runs.enumerated() {
            afterRun(&sink)
            let entry = table[run: run]
            let link = spans.span(entry, link: true)
            if let o = openLink, link?.0 != o.id {
                closeLink(o, &sink)
                openLink = nil
            }
            let a = entry.attributes
            if a.strikethrough != struck, openLink?.mode != .urlOnly {
                // After a link that ends here, before one that starts here.
                if struck { sink.add("]", .roman, false) } else { sink.add("[STRIKEOUT:", .roman, false) }
                struck = a.strikethrough
            }
            if let link, openLink == nil {
                // Text of the whole link.
                var text = ""
                for r in runs[idx...] {
                    guard spans.span(r, link: true)?.0 == link.0 else { break }
                    if case .text(let t) = r.content { text += t }
                }
                if let target = link.1.target {
                    // A page of the site: its `name(section)`; alone when the text is the name.
                    let reference = target.manName + "(" + target.manSection + ")"
                    let name = text.trimmingHorizontalWhitespace()
                    if name.isEmpty || name == target.manName {
                        sink.flush()
                        sink.add(reference, .roman, false)
                        openLink = (link.0, link.1, .urlOnly)
                        continue  // the link's runs are skipped: the reference is written once
                    }
                    openLink = (link.0, link.1, text.contains(reference) ? .textOnly : .textThenPage(reference))
                } else {
                let dest = link.1.destination
                if case .page(let reference) = linkTarget(dest) {
                    // Another page: its `name(section)` after the text, unless the text says it.
                    openLink = (link.0, link.1, text.contains(reference) ? .textOnly : .textThenPage(reference))
                } else if text.isEmpty || text == dest || "mailto:" + text == dest {
                    sink.flush()
                    sink.add(text.isEmpty ? dest : text, .roman, true)
                    openLink = (link.0, link.1, .urlOnly)
                    continue  // the link's runs are skipped: the URL is written once
                } else {
                    if flow {
                        sink.flush()
                        sink.emit(.linkStart(destination: link.1.destination))
                    }
                    openLink = (link.0, link.1, flow ? .macro : .textThenURL)
                }
                }
            } else if let o = openLink, o.mode == .urlOnly {
                continue
            }
            let f = font(a)
            switch run.content {
            // `2<sup>7</sup>` reads 2⁷, not 27 (``ScriptText``).
            case .text(let t): sink.add(a.superscript || a.subscript ? ScriptText.text(t, a) : t, f, a.code)
            case .softBreak: sink.space()
            case .hardBreak:
                if flow { sink.flush(); sink.hardBreak() } else { sink.space() }
            case .footnoteReference(_, let n, _): sink.add("[\(n)]", .roman, false)
            case .rawHTML(let h):
                switch rawInline(h, flow: flow, ronnTags: ronnTags, warn: warn) {
                case .nothing: break
                case .hardBreak: sink.flush(); sink.hardBreak()
                case .space: sink.space()
                case .placeholder(let name): sink.add(name, .italic, false)
                }
            }
            // An image ends: add its URL unless inside a link.
            if let img = spans.span(entry, link: false), spans.span(idx + 1 < runs.count ? runs[idx + 1] : nil, link: false)?.0 != img.0,
               link == nil {
                sink.space()
                sink.add("<" + img.1.destination + ">", .roman, true)
            }
        }
        if let o = openLink { closeLink(o, &sink) }
        if struck { sink.add("]", .roman, false) }
        sink.flush()
        afterRun(&sink)
    }

    /// Ends the open link `o` of ``makeInlineItems(_:flow:unsafe:ronnTags:warn:into:afterRun:)``
    /// as its mode says: the link macro's end, the URL or the page reference after the text.
    static func closeLink(_ o: (id: Int, link: Link, mode: LinkMode), _ sink: inout InlineItemSink) {
        switch o.mode {
        case .macro:
            sink.flush()
            sink.emit(.linkEnd)
        case .textThenURL:
            sink.space()
            sink.add("<" + o.link.destination + ">", .roman, true)
        case .textThenPage(let reference):
            sink.space()
            sink.add("(" + reference + ")", .roman, false)
        case .urlOnly, .textOnly:
            break
        }
    }

    /// Whether every space byte of `u` has ASCII bytes (or the text's ends) on both sides, so that
    /// each is a grapheme cluster of its own (see ``InlineItemSink/add(_:_:_:)``).
    static func spacesStandAlone(_ u: UnsafeBufferPointer<UInt8>) -> Bool {
        var previous: UInt8 = 0
        var afterSpace = false
        for b in u {
            if afterSpace && b >= 0x80 { return false }
            afterSpace = b == 0x20
            if afterSpace && previous >= 0x80 { return false }
            previous = b
        }
        return true
    }
}

extension RoffWriter {
    /// Lays out a table cell's items on one line (no sentence breaks, no macros).
    mutating func layoutCell(_ items: [InlineItem]) {
        for item in items {
            switch item {
            case .word(let p): word(p, context: .cell)
            case .space, .hardBreak, .indent: space()
            case .linkStart, .linkEnd: break
            }
        }
    }
}
