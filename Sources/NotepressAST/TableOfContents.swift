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
