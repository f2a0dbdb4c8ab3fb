import Foundation
import Notepress
import NotepressAST

/// One entry of an mdBook `SUMMARY.md` as the site table records it (key `summary` of the
/// `SUMMARY.md` record): what the navigation is built from, in the file's order.
package struct SiteSummaryEntry: Sendable, Equatable {
    /// What the entry is (mdBook's SUMMARY.md format).
    package enum Kind: String, Sendable, Equatable {
        /// A heading after the first block (`# Part title`): a section heading of the sidebar.
        case part
        /// A link, `[Label](path.md)`: in a paragraph (a prefix or suffix chapter, depth 0) or a
        /// list item (a numbered chapter, nested by its list's depth).
        case chapter
        /// A link without a destination, `- [Draft]()`: a chapter not written yet (not listed; warned).
        case draft
        /// A `---` line (a thematic break): a separator line in the sidebar.
        case separator
        /// A section of MkDocs' `nav:` (a title holding entries one deeper; no page of its own).
        case section
    }

    /// What the entry is.
    package var kind: Kind
    /// The label (a part's heading text, a chapter's link text).
    package var title: String
    /// A chapter's destination as written (empty otherwise).
    package var target: String
    /// Chapters: the list depth (0: a prefix or suffix chapter or a top-level list item).
    package var depth: Int
    /// 1-based line and byte column in `SUMMARY.md` (0 when unknown).
    package var line: Int
    /// See ``line``.
    package var column: Int

    /// An entry (see the properties).
    package init(kind: Kind, title: String, target: String = "", depth: Int = 0, line: Int = 0, column: Int = 0) {
        self.kind = kind
        self.title = title
        self.target = target
        self.depth = depth
        self.line = line
        self.column = column
    }
}

/// mdBook's `SUMMARY.md` (the root's, in a Markdown syntax): the order and nesting of a site's
/// navigation when present. Format (mdBook's guide, "SUMMARY.md"): an optional title (the first
/// block, a heading: ignored); prefix chapters (links in paragraphs, not nested); numbered
/// chapters (links in list items, nested by sub-lists), with part titles (headings) and
/// separators (`---`) between them; suffix chapters (links in paragraphs after them). A chapter
/// with an empty destination is a draft. The link's text is the page's label in the sidebar,
/// breadcrumbs and previous/next. `SUMMARY.md` itself is not a page of the site (not written,
/// not in the notes list, the search, the sitemap or the feed).
package enum SiteSummary {
    /// The path of the summary below the input folder.
    package static let path = "SUMMARY.md"

    /// Whether a page at `path` read as `format` is the site's summary.
    package static func isSummary(_ path: String, format: SourceFormat?) -> Bool {
        path == Self.path && (format == .gfm || format == .commonmark)
    }

    /// The entries of `document`, in order.
    package static func entries(_ document: Document) -> [SiteSummaryEntry] {
        var out: [SiteSummaryEntry] = []
        for (k, b) in document.blocks.enumerated() {
            switch b.kind {
            case .heading(_, let c):
                // The first block, a heading, is the summary's title (mdBook ignores it).
                if k > 0 {
                    out.append(SiteSummaryEntry(kind: .part, title: c.titleText, line: b.position?.line ?? 0,
                                                column: b.position?.column ?? 0))
                }
            case .paragraph(let c):
                out += chapters(c, depth: 0, all: true)
            case .list(let l):
                items(l, depth: 0, into: &out)
            case .thematicBreak:
                out.append(SiteSummaryEntry(kind: .separator, title: "", line: b.position?.line ?? 0, column: b.position?.column ?? 0))
            default:
                break
            }
        }
        return out
    }

    /// A list's items: each item's first link is a chapter at `depth`, its sub-lists one deeper.
    static func items(_ list: ListBlock, depth: Int, into out: inout [SiteSummaryEntry]) {
        for item in list.items {
            var named = false
            for b in item.blocks {
                switch b.kind {
                case .paragraph(let c) where !named:
                    let found = chapters(c, depth: depth, all: false)
                    out += found
                    named = !found.isEmpty
                case .list(let sub):
                    items(sub, depth: depth + 1, into: &out)
                default:
                    break
                }
            }
        }
    }

    /// The links of `c` as chapters (drafts when the destination is empty): all of them, or the first.
    static func chapters(_ c: Inlines, depth: Int, all: Bool) -> [SiteSummaryEntry] {
        // Each link span's text: the runs inside it (at any depth).
        var order: [Int] = []
        var label: [Int: String] = [:]
        for (k, run) in c.runs.enumerated() {
            // The outermost link around the run (O(depth): a summary's lines are short).
            let link = c.spanChain(ofRun: k).first { if case .link = c.spans[$0].kind { return true } else { return false } } ?? -1
            guard link >= 0 else { continue }
            if label[link] == nil { order.append(link) }
            switch run.content {
            case .text(let t): label[link, default: ""] += t
            case .softBreak, .hardBreak: label[link, default: ""] += " "
            default: label[link, default: ""] += ""
            }
        }
        var out: [SiteSummaryEntry] = []
        for i in order {
            guard case .link(let l) = c.spans[i].kind else { continue }
            let title = (label[i] ?? "").trimmingHorizontalWhitespace()
            out.append(SiteSummaryEntry(kind: l.destination.isEmpty ? .draft : .chapter, title: title, target: l.destination,
                                        depth: depth, line: l.position?.line ?? 0, column: l.position?.column ?? 0))
            if !all { break }
        }
        return out
    }

    /// The warnings of a page read for a site: a draft chapter of the summary (not listed), a
    /// `nav_order` or `weight` that is not a number (ignored), positioned in `bytes` (the input).
    package static func diagnostics(_ relative: String, document: Document, bytes: [UInt8]) -> [Diagnostic] {
        var out: [Diagnostic] = []
        if isSummary(relative, format: document.metadata.sourceFormat) {
            for e in entries(document) where e.kind == .draft {
                out.append(Diagnostic(.warning, "draft chapter '\(e.title)' has no file; not listed in the navigation",
                                      file: relative, position: SourcePosition(line: e.line, column: e.column)))
            }
        }
        // The field the navigation reads: `nav_order`, else `weight`.
        let fields = document.metadata.fields
        let key = fields["nav_order"] != nil ? "nav_order" : "weight"
        if let v = fields[key], Double(v.trimmingHorizontalWhitespace()) == nil {
            out.append(Diagnostic(.warning, "\(key) '\(v)' is not a number; ignored (the page is ordered by its title)",
                                  file: relative, position: frontMatterPosition(of: key, in: bytes)))
        }
        return out
    }

    /// Where `key:` is written in the front matter at the top of `bytes` (its value's column), if found.
    static func frontMatterPosition(of key: String, in bytes: [UInt8]) -> SourcePosition? {
        let k = Array(key.utf8)
        var line = 1, start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            if line > 1, end - start >= 3, bytes[start] == 0x2D, bytes[start + 1] == 0x2D, bytes[start + 2] == 0x2D { return nil }
            if end - start > k.count, Array(bytes[start..<start + k.count]) == k {
                var p = start + k.count
                while p < end, bytes[p] == 0x20 || bytes[p] == 0x09 { p += 1 }
                if p < end, bytes[p] == 0x3A {
                    p += 1
                    while p < end, bytes[p] == 0x20 || bytes[p] == 0x09 { p += 1 }
                    return SourcePosition(line: line, column: p - start + 1)
                }
            }
            line += 1
            start = end + 1
            if line > 1000 { return nil }
        }
        return nil
    }
}
