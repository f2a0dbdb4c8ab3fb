/// Inline hashtags (`#groceries`, `#work/projects`), as Bear and Obsidian write them: the one rule
/// of what is a tag in running text, how tags merge with front-matter tags, and which page a tag
/// links to. Readers apply it with `--hashtags` (``tag(_:into:)``); every writer renders the
/// resulting ``InlineSpan/Kind/tag(_:)`` spans.
///
/// A hashtag is `#` followed by a name, where
/// - the `#` starts a word: it begins a paragraph, heading or table cell, or follows whitespace, a
///   line break or opening punctuation (Unicode Ps and Pi, `"`, `'`), so `C#`, `a#b`, `&#35;` and
///   a URL's `/#fragment` are not tags;
/// - the name is letters, combining marks, digits, `_`, `-` and `/` (nested tags, `#work/projects`),
///   runs to the first other character (`#milk.` is `milk`), drops a trailing `/`, does not start
///   with `/`, and has at least one character that is not a digit (`#1984` and `#12` are not tags,
///   as in Obsidian);
/// - it is ordinary text: text inside code (spans and blocks), links, images, kept note-markup
///   delimiters and raw HTML is never a tag, and a Markdown heading's `#` marks are not text at all.
///
/// The `#` and the name stay in the text, inside a ``InlineSpan/Kind/tag(_:)`` span that holds
/// the name without the `#`.
package enum Hashtags {
    /// `block` with every hashtag in its inline content (at any depth) inside a tag span; each
    /// name found is appended to `tags` in reading order (repeats included; ``merge(_:_:)``
    /// drops them). O(size of the block).
    package static func tag(_ block: Block, into tags: inout [String]) -> Block {
        var b = block
        switch block.kind {
        case .paragraph(let c): b.kind = .paragraph(tag(c, into: &tags))
        case .heading(let level, let c): b.kind = .heading(level: level, content: tag(c, into: &tags))
        case .blockQuote(let children): b.kind = .blockQuote(children.map { tag($0, into: &tags) })
        case .list(var list):
            for i in list.items.indices { list.items[i].blocks = list.items[i].blocks.map { tag($0, into: &tags) } }
            b.kind = .list(list)
        case .table(var table):
            table.header = table.header.map { tag($0, into: &tags) }
            table.rows = table.rows.map { $0.map { tag($0, into: &tags) } }
            b.kind = .table(table)
        case .footnoteDefinition(let label, let children):
            b.kind = .footnoteDefinition(label: label, blocks: children.map { tag($0, into: &tags) })
        case .unknown(let name, let children):
            b.kind = .unknown(typeName: name, blocks: children.map { tag($0, into: &tags) })
        case .alert(var alert):
            alert.blocks = alert.blocks.map { tag($0, into: &tags) }
            b.kind = .alert(alert)
        case .definitionList(var items):
            for i in items.indices {
                items[i].term = tag(items[i].term, into: &tags)
                items[i].definitions = items[i].definitions.map { $0.map { tag($0, into: &tags) } }
            }
            b.kind = .definitionList(items)
        case .codeBlock, .htmlBlock, .thematicBreak:
            break
        }
        return b
    }

    /// `content` with its hashtags inside tag spans (the same value when it has none); names are
    /// appended to `tags`. Text runs that follow each other in one span are scanned as one text,
    /// so a tag split over runs is found whole. Linear in the runs and spans.
    package static func tag(_ content: Inlines, into tags: inout [String]) -> Inlines {
        // Fast path: no `#` in any text run.
        guard content.runs.contains(where: { if case .text(let t) = $0.content { return t.utf8.contains(0x23) } else { return false } })
        else { return content }
        let table = InlineAttributeTable(content)
        // Segments: maximal stretches of text runs in one span where tags may stand.
        var found: [(runs: Range<Int>, text: String, matches: [(range: Range<String.Index>, name: String)])] = []
        var previous: Unicode.Scalar?
        var atStart = true
        var i = 0
        let runs = content.runs
        while i < runs.count {
            guard case .text(let t) = runs[i].content else {
                switch runs[i].content {
                case .softBreak, .hardBreak: previous = " "
                default: previous = "0"  // a footnote reference or raw HTML: not a word start
                }
                atStart = false
                i += 1
                continue
            }
            let a = table[run: runs[i]].attributes
            if a.code || a.link != nil || a.image != nil || a.marker || a.tag != nil {
                if let last = t.unicodeScalars.last { previous = last; atStart = false }
                i += 1
                continue
            }
            var j = i + 1
            var text = t
            while j < runs.count, runs[j].span == runs[i].span, case .text(let more) = runs[j].content {
                text += more
                j += 1
            }
            let matches = scan(text, after: atStart ? nil : previous)
            if !matches.isEmpty {
                found.append((i..<j, text, matches))
                for m in matches { tags.append(m.name) }
            }
            if let last = text.unicodeScalars.last { previous = last; atStart = false }
            i = j
        }
        guard !found.isEmpty else { return content }

        // Rebuild in reading order: spans re-opened as the runs need them, tag spans inserted.
        var b = InlinesBuilder()
        var transition = SpanTransition()
        var current: Int?
        var next = 0
        i = 0
        while i < runs.count {
            if runs[i].span != current {
                content.transition(from: current, to: runs[i].span, into: &transition)
                for _ in transition.closing { b.pop() }
                for s in transition.opening { b.push(content.spans[s].kind) }
                current = runs[i].span
            }
            if next < found.count, found[next].runs.lowerBound == i {
                let segment = found[next]
                var at = segment.text.startIndex
                for m in segment.matches {
                    if at < m.range.lowerBound { b.append(.text(String(segment.text[at..<m.range.lowerBound]))) }
                    b.append(.text(String(segment.text[m.range])), in: .tag(m.name))
                    at = m.range.upperBound
                }
                if at < segment.text.endIndex { b.append(.text(String(segment.text[at...]))) }
                i = segment.runs.upperBound
                next += 1
                continue
            }
            b.append(runs[i].content)
            i += 1
        }
        return b.take()
    }

    /// The hashtags of `text` (see the type), `previous` being the character before it (`nil`
    /// at the start of a paragraph, heading or cell): ranges of `#name` and the names. Finds each
    /// `#` in the UTF-8 bytes and decodes only around it: one pass over the bytes.
    package static func scan(_ text: String, after previous: Unicode.Scalar?) -> [(range: Range<String.Index>, name: String)] {
        var result: [(range: Range<String.Index>, name: String)] = []
        let utf8 = text.utf8
        let scalars = text.unicodeScalars
        // Where the last tag ended: a `#` right after it does not start a word.
        var lastEnd: String.Index?
        var i = utf8.startIndex
        while let hash = utf8[i...].firstIndex(of: 0x23) {
            i = utf8.index(after: hash)
            let startsTag: Bool
            if hash == utf8.startIndex {
                startsTag = previous.map(startsWord) ?? true
            } else if hash == lastEnd {
                startsTag = false
            } else {
                startsTag = startsWord(after: scalars[scalars.index(before: hash)])
            }
            guard startsTag else { continue }
            var end = i
            var lastKept = i
            while end < scalars.endIndex, isNameCharacter(scalars[end]) {
                let u = scalars[end]
                end = scalars.index(after: end)
                if u != "/" { lastKept = end }
            }
            let name = String(scalars[i..<lastKept])
            guard !name.isEmpty, name.utf8.first != UInt8(ascii: "/"),
                  name.utf8.contains(where: { $0 < 0x30 || $0 > 0x39 }) else { continue }
            result.append((hash..<lastKept, name))
            lastEnd = lastKept
            i = lastKept
        }
        return result
    }

    /// Whether a `#` after `u` starts a word: `u` is whitespace, opening punctuation (Ps),
    /// an initial quote (Pi), or `"`/`'`.
    static func startsWord(after u: Unicode.Scalar) -> Bool {
        if u.isASCII {
            switch u {
            case " ", "\t", "\n", "\r", "\u{0B}", "\u{0C}", "\"", "'", "(", "[", "{": return true
            default: return false
            }
        }
        if u.properties.isWhitespace { return true }
        switch u.properties.generalCategory {
        case .openPunctuation, .initialPunctuation: return true
        default: return false
        }
    }

    /// Letters, combining marks, decimal digits, `_`, `-`, `/`.
    static func isNameCharacter(_ u: Unicode.Scalar) -> Bool {
        if u == "_" || u == "-" || u == "/" { return true }
        if u.isASCII {
            return ("a"..."z").contains(u) || ("A"..."Z").contains(u) || ("0"..."9").contains(u)
        }
        switch u.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber:
            return true
        default:
            return false
        }
    }

    /// `frontMatter` tags, then the hashtags found, each once: a tag that differs from an earlier
    /// one only in case is the same tag (as Obsidian and Bear treat them), and the first spelling
    /// is kept.
    package static func merge(_ frontMatter: [String], _ found: [String]) -> [String] {
        var seen: Set<String> = []
        var result: [String] = []
        for t in frontMatter + found where seen.insert(t.lowercased()).inserted { result.append(t) }
        return result
    }

    /// The path of a tag's page below the tag pages folder, without extension (front-matter tags
    /// and hashtags alike): the name in lower case (so `#Work` and `#work` share a page), a nested
    /// tag's `/` kept as a folder (`Work/Projects` → `work/projects`), empty, `.` and `..` parts
    /// dropped (`_` when nothing is left). In each part, whitespace, control characters and the
    /// characters some file systems refuse (`\ : * ? " < > |`) become `-` (`Reading List` →
    /// `reading-list`), a leading `.` becomes `_` (no hidden files), and a part is cut to at most
    /// 200 UTF-8 bytes at a Unicode scalar boundary; other characters (letters of any script) are kept.
    /// Tags that map to the same path share one page, which names them all. Writers
    /// percent-encode it in links; the site writes the page there.
    package static func pagePath(_ tag: String) -> String {
        var parts: [String] = []
        for raw in tag.lowercased().split(separator: "/") where raw != "." && raw != ".." {
            var part = ""
            var bytes = 0
            for u in raw.unicodeScalars {
                var c = u
                switch u {
                case "\\", ":", "*", "?", "\"", "<", ">", "|": c = "-"
                default:
                    if u.properties.isWhitespace || u.properties.generalCategory == .control { c = "-" }
                }
                if part.isEmpty && c == "." { c = "_" }
                bytes += String(c).utf8.count
                if bytes > 200 { break }
                part.unicodeScalars.append(c)
            }
            parts.append(part)
        }
        return parts.isEmpty ? "_" : parts.joined(separator: "/")
    }
}
