import Foundation
import NotepressAST

/// The headings of embedded content, placed below the heading that introduces the embed
/// (``SiteEmbeds``): an embedded note never brings a level-1 heading (a second page title, a man
/// page `.SH` that would swallow the rest of the host page) into the page that embeds it.
extension SiteEmbeds {
    /// A whole note's blocks under its title: the note's headings one level down (capped at 6)
    /// and the title as a level-2 heading before them, unless the note's first heading already
    /// says the title (ASCII case and surrounding blanks aside): that heading is the title
    /// heading then, at level 2, not repeated.
    static func wholeNote(_ blocks: [Block], title: String) -> [Block] {
        var out = shifted(blocks, by: 1)
        let key = { (s: String) in s.trimmingHorizontalWhitespace().lowercased() }
        if let first = out.firstIndex(where: { if case .heading = $0.kind { return true } else { return false } }),
           case .heading(_, let content) = out[first].kind, key(content.titleText) == key(title) {
            out[first].kind = .heading(level: 2, content: content)
            return out
        }
        var b = InlinesBuilder()
        b.append(.text(title))
        out.insert(Block(.heading(level: 2, content: b.take())), at: 0)
        return out
    }

    /// A section (``part(of:id:)``, its heading first) with its headings shifted so that the
    /// section's heading sits one level below `hostLevel`, the level of the host heading it
    /// appears under (1 where none comes before it: the page title's), capped at 6.
    static func section(_ blocks: [Block], under hostLevel: Int) -> [Block] {
        guard case .heading(let level, _)? = blocks.first?.kind else { return blocks }
        return shifted(blocks, by: min(hostLevel, 5) + 1 - level)
    }

    /// `blocks` with every heading (at any depth) `by` levels down (up when negative), kept
    /// within 1...6.
    static func shifted(_ blocks: [Block], by n: Int) -> [Block] {
        guard n != 0 else { return blocks }
        return blocks.map { b in
            var b = b
            switch b.kind {
            case .heading(let level, let content): b.kind = .heading(level: max(1, min(6, level + n)), content: content)
            case .blockQuote(let children): b.kind = .blockQuote(shifted(children, by: n))
            case .alert(var a): a.blocks = shifted(a.blocks, by: n); b.kind = .alert(a)
            case .list(var l):
                for k in l.items.indices { l.items[k].blocks = shifted(l.items[k].blocks, by: n) }
                b.kind = .list(l)
            default: break
            }
            return b
        }
    }

    /// The cycle warning for an embed of `target` (already in `chain`), and the embed kept as
    /// the link `block`: the cycle from the target back to it, the same words whichever page it
    /// is met from.
    func cycle(_ what: String, target: String, chain: [String], _ position: SourcePosition?,
               _ context: inout Context, _ block: Block) -> [Block] {
        let start = chain.firstIndex(of: target) ?? 0
        let cycle = chain[start...] + [target]
        warn("\(what): embeds itself (\(cycle.joined(separator: " → "))); written as a link", position, &context)
        return [block]
    }

    /// Whether `blocks` (read from the page `file`, its path below the input folder) hold, at any depth, an embed whose
    /// ``Context/key(_:_:)`` is in `keys`.
    static func containsEmbed(_ blocks: [Block], file: String, among keys: Set<String>) -> Bool {
        var stack = Array(blocks.reversed())
        while let b = stack.popLast() {
            switch b.kind {
            case .paragraph(let c), .heading(_, let c):
                for s in c.spans {
                    if case .link(let l) = s.kind, l.isEmbed, keys.contains(Context.key(file, l.position ?? b.position)) { return true }
                }
            default: stack += b.children.reversed()
            }
        }
        return false
    }

    /// The note embeds in the cells of `table`, in reading order.
    static func tableEmbeds(_ table: Table) -> [Link] {
        (table.header + table.rows.joined()).flatMap { c in
            c.spans.compactMap { s -> Link? in if case .link(let l) = s.kind, l.isEmbed { return l } else { return nil } }
        }
    }

    /// The note embeds in the paragraphs and headings of `blocks`, at any depth.
    static func blockEmbeds(_ blocks: [Block]) -> [Link] {
        var out: [Link] = []
        for b in blocks {
            switch b.kind {
            case .paragraph(let c), .heading(_, let c):
                out += c.spans.compactMap { s -> Link? in if case .link(let l) = s.kind, l.isEmbed { return l } else { return nil } }
            case .table(let t): out += tableEmbeds(t)
            default: out += blockEmbeds(b.children)
            }
        }
        return out
    }

    /// Warns, at each of `links` (embeds in `place`, inside `block`), that it is kept as a link:
    /// a table cell or a footnote holds inline text, not the blocks of a note.
    func warnKept(_ links: [Link], in place: String, _ block: Block, _ context: inout Context) {
        for l in links {
            warn("embed '![[\(l.destination)]]' in \(place): written as a link", l.position ?? block.position, &context)
        }
    }
}
