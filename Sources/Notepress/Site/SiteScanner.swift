import Foundation
import NotepressAST
import NotepressMan

/// The scan of a site: one ``SiteRecord`` per input from its parsed document (or, for other
/// files, from its path alone). What a page's record holds is what other pages and site-wide
/// outputs may read about it (see ``SiteTable``).
public enum SiteScanner {
    /// The longest excerpt kept, in characters (an ellipsis `…` marks a cut).
    public static let excerptLength = 200

    /// The record of page `relative` read as `document` (whose headings carry their ids:
    /// ``Document/assigningHeadingIDs()``; ids are assigned here when they do not).
    public static func record(_ relative: String, document: Document) -> SiteRecord {
        let meta = document.metadata
        var r = SiteRecord(path: relative, kind: .page)
        r.format = meta.sourceFormat
        r.title = meta.title
        r.titleSource = meta.titleSource
        r.created = meta.created.map { CivilDateTime($0).iso8601 }
        r.tags = meta.tags
        r.fields = meta.fields
        r.ids = document.headingIDs().map(\.id)
        r.anchors = BlockAnchors.anchors(in: document)
        r.links = links(in: document)
        r.excerpt = excerpt(document)
        let (title, _, _) = ManTitleResolver.resolve(document)
        r.manName = title.name
        r.manSection = title.section
        return r
    }

    /// The record of a file that is not a page (an asset).
    public static func fileRecord(_ relative: String) -> SiteRecord {
        SiteRecord(path: relative, kind: .file)
    }

    /// Every link and image into the site (not external, not empty), in document order.
    static func links(in document: Document) -> [SiteLinkRecord] {
        var out: [SiteLinkRecord] = []
        func scan(_ c: Inlines) {
            for span in c.spans {
                let link: Link
                let image: Bool
                switch span.kind {
                case .link(let l): link = l; image = false
                case .image(let l): link = l; image = true
                default: continue
                }
                let kind: SiteLinkRecord.Kind = link.syntax == .wiki ? (image ? .wikiImage : .wiki) : (image ? .image : .link)
                if link.syntax == .standard && (link.destination.isEmpty || SitePaths.isExternal(link.destination)) { continue }
                out.append(SiteLinkRecord(kind: kind, target: link.destination, line: link.position?.line ?? 0,
                                          column: link.position?.column ?? 0))
            }
        }
        document.forEachBlock { block, _ in
            switch block.kind {
            case .paragraph(let c), .heading(_, let c): scan(c)
            case .table(let t):
                for cell in t.header { scan(cell) }
                for row in t.rows { for cell in row { scan(cell) } }
            default: break
            }
        }
        return out
    }

    /// The first top-level paragraph's plain text, spaces collapsed, cut at a word boundary to
    /// at most ``excerptLength`` characters (`…` added when cut); `nil` when there is none.
    static func excerpt(_ document: Document) -> String? {
        for b in document.blocks {
            guard case .paragraph(let c) = b.kind else { continue }
            let words = c.plainText.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
            if words.isEmpty { continue }
            var text = ""
            for w in words {
                if text.count + w.count + (text.isEmpty ? 0 : 1) > excerptLength - 1 {
                    return text.isEmpty ? String(w.prefix(excerptLength - 1)) + "…" : text + "…"
                }
                if !text.isEmpty { text += " " }
                text += w
            }
            return text
        }
        return nil
    }
}
