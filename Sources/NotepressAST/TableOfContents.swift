/// A table of contents (`--toc`): the top-level headings of a document down to a level, each
/// with its id (``Document/headingIDs()``) and its nesting depth. Every writer that shows one
/// (HTML `nav`, RTF, terminal, TEI `div[@type="contents"]`) takes its entries from here.
///
/// Nesting: an entry is nested under the nearest entry before it with a smaller level, so a jump
/// (`#` then `####`) nests one step, not three, and a later `##` comes back beside the first
/// nested one — what pandoc's and GitHub's outlines do. Consecutive entries therefore differ by at
/// most one step deeper (any number shallower), which lets writers open at most one list per entry.
/// Built in one pass with a stack of levels: linear in the headings.
package struct TableOfContents: Sendable, Equatable {
    /// One line of the table.
    package struct Entry: Sendable, Equatable {
        /// The heading level, 1…6.
        package var level: Int
        /// The nesting depth, 0 for the outermost entries; at most one more than the previous
        /// entry's (0 for the first).
        package var depth: Int
        /// The heading text (``HeadingID/text``).
        package var text: String
        /// The heading's id (``HeadingID/id``), the link target.
        package var id: String

        package init(level: Int, depth: Int, text: String, id: String) {
            self.level = level
            self.depth = depth
            self.text = text
            self.id = id
        }
    }

    /// pandoc's default `--toc-depth`: headings of levels 1 to 3.
    package static let defaultMaxLevel = 3

    /// The entries in document order.
    package var entries: [Entry]

    /// Whether there is nothing to show (writers then write no table at all).
    package var isEmpty: Bool { entries.isEmpty }

    /// The table of `headings` (level, text, id, in document order) whose level is at most
    /// `maxLevel` (1…6), nested as the type describes.
    package init(headings: [(level: Int, text: String, id: String)], maxLevel: Int = defaultMaxLevel) {
        var levels: [Int] = []
        var entries: [Entry] = []
        for h in headings where h.level <= maxLevel {
            while let last = levels.last, last >= h.level { levels.removeLast() }
            entries.append(Entry(level: h.level, depth: levels.count, text: h.text, id: h.id))
            levels.append(h.level)
        }
        self.entries = entries
    }

    /// The table of the document's top-level headings (``HeadingID/isTopLevel``) of level at most
    /// `maxLevel`, with the ids of ``Document/headingIDs()``. When headings carry their ids
    /// (``Document/carriedHeadingIDs``), those, and a heading without one is left out.
    package init(_ document: Document, maxLevel: Int = defaultMaxLevel) {
        let carried = document.carriedHeadingIDs
        let prepared = carried.contains { $0 != nil }
        var rows: [(level: Int, text: String, id: String)] = []
        for (h, id) in zip(document.headingIDs(), carried) where h.isTopLevel {
            if !prepared { rows.append((h.level, h.text, h.id)) } else if let id { rows.append((h.level, h.text, id)) }
        }
        self.init(headings: rows, maxLevel: maxLevel)
    }
}

/// Python-Markdown's `toc` marker: a paragraph that is only `[TOC]` (MkDocs turns `toc` on in
/// every project; `--markdown-extension toc` elsewhere). The Markdown reader gives it as a
/// ``Block/Kind/unknown(typeName:blocks:)`` block named ``typeName`` holding the paragraph as
/// written. Writers that show a table of contents (HTML, RTF, DOCX, ODT, terminal text, TEI)
/// write the document's table there (``TableOfContents/init(_:maxLevel:)``, the `--toc` one),
/// whether or not `--toc` is on; the others warn (``warning(format:)``) and keep the text.
package enum ContentsMarker {
    /// The type name of a marker block.
    package static let typeName = "toc"
    /// The marker as written.
    package static let text = "[TOC]"

    /// Whether `blocks` hold a marker block at any depth (a walk without copies).
    package static func occurs(in blocks: [Block]) -> Bool {
        for b in blocks {
            switch b.kind {
            case .unknown(let name, let children): if name == typeName || occurs(in: children) { return true }
            case .blockQuote(let children), .footnoteDefinition(_, let children): if occurs(in: children) { return true }
            case .list(let l): for item in l.items where occurs(in: item.blocks) { return true }
            case .alert(let a): if occurs(in: a.blocks) { return true }
            case .definitionList(let items):
                for item in items { for d in item.definitions where occurs(in: d) { return true } }
            case .paragraph, .heading, .codeBlock, .htmlBlock, .thematicBreak, .table: continue
            }
        }
        return false
    }

    /// The table a document's markers stand for: its `--toc` table of headings down to
    /// `maxLevel`; `nil` when the document has no marker.
    package static func contents(of document: Document, maxLevel: Int) -> TableOfContents? {
        occurs(in: document.blocks) ? TableOfContents(document, maxLevel: maxLevel) : nil
    }

    /// The warning of a writer that writes no table where a marker is: it keeps the marker's text.
    package static func warning(format: String) -> String {
        "\(text) (a table of contents marker): \(format) has no table of contents; kept as text"
    }
}
