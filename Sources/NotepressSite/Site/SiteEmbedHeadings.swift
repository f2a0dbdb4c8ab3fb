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
}
