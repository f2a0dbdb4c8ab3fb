import Foundation
import NotepressAST
import NotepressThemes

/// Inline runs: character formatting, links, footnote references (see ``RTFEmitter``).
extension RTFBuilder {

    /// The nodes of all runs of `inl`.
    mutating func inlineNodes(_ inl: Inlines, _ ctx: BlockContext) -> [RTFNode] {
        inlineNodes(inl, 0..<inl.runs.count, InlineAttributeTable(inl), ctx)
    }

    /// The nodes of the runs of `inl` in `range`; `table` is `inl`'s attribute table (built once
    /// per paragraph, however many lines it is written as).
    mutating func inlineNodes(_ inl: Inlines, _ range: Range<Int>, _ table: InlineAttributeTable,
                              _ ctx: BlockContext) -> [RTFNode] {
        var nodes: [RTFNode] = []
        var i = range.lowerBound
        let runs = inl.runs
        // The outermost link or image span of each run: a field covers exactly the runs that share it.
        while i < range.upperBound {
            if let link = table[run: runs[i]].outermostTarget, let raw = table.link(link)?.destination {
                // No field for a destination that URLSafety drops (or an empty one): the text alone.
                let destination = URLSafety.destination(raw, unsafe: unsafe)
                var result: [RTFNode] = destination.isEmpty ? [] : [.word("cf", Self.colorLink), .word("ul")]
                while i < range.upperBound, table[run: runs[i]].outermostTarget == link {
                    result += runNodes(runs[i], table[run: runs[i]].attributes, ctx)
                    i += 1
                }
                if destination.isEmpty { nodes += result; continue }
                nodes.append(.group([
                    .word("field"),
                    .group([.symbol("*"), .word("fldinst"), .group([.text(Self.hyperlinkInstruction(destination))])]),
                    .group([.word("fldrslt"), .group(result)]),
                ]))
            } else {
                nodes += runNodes(runs[i], table[run: runs[i]].attributes, ctx)
                i += 1
            }
        }
        return nodes
    }

    /// A field argument's escaping (Word field syntax): `\` → `\\`, `"` → `\"`. The result is
    /// then RTF-escaped like all text.
    /// The HYPERLINK field instruction for `destination` (RTF 1.9.1 "Fields"): a fragment of this
    /// or a relative file (`#id`, `page.rtf#id`, as a site writes them) names the bookmark of that
    /// id with the `\l` switch (``bookmarkName(forID:)``), the file (if any) before it; an
    /// absolute URL stays whole (its fragment is the web page's business).
    static func hyperlinkInstruction(_ destination: String) -> String {
        let hasScheme = destination.firstIndex(of: ":").map { c in
            destination[..<c].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) } && c != destination.startIndex
        } ?? false
        if !hasScheme, let hash = destination.firstIndex(of: "#") {
            let file = String(destination[..<hash])
            let fragment = { let f = String(destination[destination.index(after: hash)...]); return f.removingPercentEncoding ?? f }()
            let mark = "\\l \"" + fieldQuoted(bookmarkName(forID: fragment)) + "\""
            return file.isEmpty ? "HYPERLINK " + mark : "HYPERLINK \"" + fieldQuoted(file) + "\" " + mark
        }
        return "HYPERLINK \"" + fieldQuoted(destination) + "\""
    }

    static func fieldQuoted(_ s: String) -> String {
        var out = ""
        for c in s {
            if c == "\\" || c == "\"" { out.append("\\") }
            out.append(c)
        }
        return out
    }

    /// Character properties of a run's attributes (on top of the paragraph's): first the
    /// complex-script ones after `\rtlch` (`\af` code font, `\afs`, `\ab`, `\ai`; `~script~` is
    /// italic there, as cursive faces have no Hebrew or Arabic), then the Latin ones after
    /// `\ltrch` (`\f`, `\fs`, `\b`, `\i`), then those of every script (`\strike`, `\cf`, `\impr`).
    /// Empty for a run without attributes.
    func runProps(_ a: InlineAttributes) -> [RTFNode] {
        let size = a.textStyle.map { RTFEmitter.halfPoints(theme.style($0).size) }
        var cs: [RTFNode] = []
        var latin: [RTFNode] = []
        if a.code {
            cs.append(.word("af", codeFont)); latin.append(.word("f", codeFont))
        } else if a.script {
            latin.append(.word("f", scriptFont))
        }
        if let size { cs.append(.word("afs", size)); latin.append(.word("fs", size)) }
        if a.strong { cs.append(.word("ab")); latin.append(.word("b")) }
        if a.emphasis || (a.script && !a.code) { cs.append(.word("ai")) }
        if a.emphasis { latin.append(.word("i")) }
        var p: [RTFNode] = []
        if !cs.isEmpty || !latin.isEmpty { p += [.word("rtlch")] + cs + [.word("ltrch")] + latin }
        if a.strikethrough { p.append(.word("strike")) }
        if a.tag != nil { p.append(.word("cf", Self.colorLink)) }
        if a.colorRole == .alert { p.append(.word("cf", Self.colorAlert)) }
        if a.marker { p.append(.word("cf", Self.colorSecondary)) }
        if a.letterpress { p.append(.word("impr")) }
        return p
    }

    /// The nodes of one run whose flat attributes are `attributes`.
    mutating func runNodes(_ run: InlineRun, _ attributes: InlineAttributes, _ ctx: BlockContext) -> [RTFNode] {
        switch run.content {
        case .text(let t):
            let props = runProps(attributes)
            return props.isEmpty ? [.text(t)] : [.group(props + [.text(t)])]
        case .softBreak:
            return [.text(" ")]
        case .hardBreak:
            return [.word("line")]
        case .rawHTML:
            return []
        case .footnoteReference(let label, let number, _):
            guard !ctx.inFootnote, !writtenFootnotes.contains(label), let blocks = footnotes[label] else {
                return [.group([.word("super"), .text(String(number))])]
            }
            writtenFootnotes.insert(label)
            var c = BlockContext()
            c.inFootnote = true
            c.spaceAfter = 0
            let saved = pendingPrefix
            pendingPrefix = ([], [.group([.word("super"), .word("chftn")]), .text(" ")])
            var inner: [RTFNode] = []
            for b in blocks { inner += blockNodes(b, c) }
            if pendingPrefix != nil {
                let s = theme.style(for: .footnote)
                inner += paragraph(props: charProps(s), content: [])
            }
            pendingPrefix = saved
            // The last paragraph of a footnote ends with the group, not with \par.
            if inner.last == .word("par") { inner.removeLast() }
            return [.group([.word("super"), .word("chftn")]), .group([.word("footnote")] + inner)]
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
