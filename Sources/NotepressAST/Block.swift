import Foundation

/// One block of a document, with where it starts in the source.
///
/// Node names follow the CommonMark spec (section 4–5) and cmark's node types.
public struct Block: Sendable, Equatable {
    /// What the block is, with its content.
    public var kind: Kind
    /// Where the block starts in the source (1-based), or `nil` for synthesised blocks.
    public var position: SourcePosition?
    /// The block's anchor: a heading's id (GitHub's algorithm: github-slugger's lower-cased,
    /// punctuation-free slug, `-1`, `-2`, … for repeats) or a paragraph's block anchor (`^id`).
    /// ``Notepress/parse(_:from:)`` and site runs set it; `nil` for other blocks.
    public var id: String?
    /// A fenced code block's text in highlighting roles (``CodeHighlight``), when its info string
    /// names a language the highlighting library knows and highlighting is on; `nil` otherwise
    /// (then writers write the code as plain text).
    public var highlight: CodeHighlight?
    /// Link targets raw HTML gives a paragraph or heading (`<a id="x"></a>`, `<span id="x">`,
    /// `<h2 id="x">`; `RawHTMLPolicy.anchorIDs(of:)`), in order, besides its ``id``: formats
    /// that do not write the HTML (TEI `<anchor xml:id>`, RTF bookmarks) write them so that a
    /// `#x` link lands there. Empty for other blocks.
    public var anchors: [String] = []
    /// Attributes written for the block (MkDocs `attr_list`: `## Heading { #id .cls }`, a
    /// `{ .cls }` line after a paragraph): a heading's ``MarkupAttributes/id`` is its anchor
    /// (``HeadingIDAssigner``); HTML writes the classes and safe attributes. `nil`: none.
    public var attributes: MarkupAttributes?

    /// A block of `kind` that starts at `position` in the source (`nil`: synthesised), with the
    /// anchor `id` (``id``; `nil` for none) and code `highlight` (code blocks only).
    public init(_ kind: Kind, position: SourcePosition? = nil, id: String? = nil, highlight: CodeHighlight? = nil) {
        self.kind = kind
        self.position = position
        self.id = id
        self.highlight = highlight
    }

    /// The kinds of block. `indirect` because containers hold blocks.
    public indirect enum Kind: Sendable, Equatable {
        /// A paragraph of inline content (CommonMark §4.8).
        case paragraph(Inlines)
        /// An ATX or setext heading; `level` is 1…6 (CommonMark §4.2, §4.3).
        case heading(level: Int, content: Inlines)
        /// A block quote (CommonMark §5.1).
        case blockQuote([Block])
        /// A bullet or ordered list (CommonMark §5.3, GFM task list items §5.3).
        case list(ListBlock)
        /// An indented or fenced code block. `info` is the unescaped info string ("" when absent);
        /// `literal` the content, ending with a newline unless empty (CommonMark §4.4, §4.5).
        case codeBlock(info: String, literal: String)
        /// A raw HTML block, verbatim (CommonMark §4.6). Emitters drop it unless unsafe output is on.
        case htmlBlock(String)
        /// A thematic break (CommonMark §4.1).
        case thematicBreak
        /// A GFM table (GFM spec §4.10).
        case table(Table)
        /// A footnote definition; `label` as written between `[^` and `]`.
        case footnoteDefinition(label: String, blocks: [Block])
        /// A GitHub alert: a top-level block quote whose first line is `[!NOTE]`, `[!TIP]`,
        /// `[!IMPORTANT]`, `[!WARNING]` or `[!CAUTION]` (GFM input only; see ``Alert``).
        case alert(Alert)
        /// A definition list (MkDocs `def_list`: a `Term` line, then `:   Definition` lines):
        /// terms, each with its definitions.
        case definitionList([DefinitionItem])
        /// A node this version does not know (an extension's block, say). Emitters warn and write
        /// its children.
        case unknown(typeName: String, blocks: [Block])
    }
}

/// One term of a definition list and its definitions (``Block/Kind/definitionList(_:)``).
public struct DefinitionItem: Sendable, Equatable {
    /// The term.
    public var term: Inlines
    /// The definitions, each its blocks.
    public var definitions: [[Block]]
    /// Where the term starts in the source, or `nil`.
    public var position: SourcePosition?

    /// A term and its definitions.
    public init(term: Inlines, definitions: [[Block]], position: SourcePosition? = nil) {
        self.term = term
        self.definitions = definitions
        self.position = position
    }
}

/// A bullet or ordered list.
public struct ListBlock: Sendable, Equatable {
    /// Bullet (`-`, `+`, `*`; note markup has none) or ordered (`1.`, `1)`) (CommonMark §5.2).
    public enum ListType: String, Sendable, Equatable, Codable {
        /// A bullet list: items start with `-`, `+` or `*`.
        case bullet
        /// An ordered list: items start with a number and `.` or `)`.
        case ordered
    }
    /// `period` for `1.`, `parenthesis` for `1)`; `nil` for bullet lists.
    public enum Delimiter: String, Sendable, Equatable, Codable {
        /// `1.`
        case period
        /// `1)`
        case parenthesis
    }

    /// Bullet or ordered.
    public var type: ListType
    /// The first item's number (ordered lists); 1 for bullet lists.
    public var start: Int
    /// What follows an ordered item's number; `nil` for bullet lists.
    public var delimiter: Delimiter?
    /// The bullet character (`-`, `+`, `*`) of a bullet list, if known.
    public var bulletChar: Character?
    /// A tight list renders its paragraphs without `<p>` (CommonMark §5.3).
    public var tight: Bool
    /// The items, in order.
    public var items: [ListItem]

    /// A list of `type` whose items are `items`; `start` is the first number of an ordered list.
    public init(type: ListType, start: Int = 1, delimiter: Delimiter? = nil, bulletChar: Character? = nil,
                tight: Bool, items: [ListItem]) {
        self.type = type
        self.start = start
        self.delimiter = delimiter
        self.bulletChar = bulletChar
        self.tight = tight
        self.items = items
    }
}

/// One item of a list.
public struct ListItem: Sendable, Equatable {
    /// The state of a GFM task list item, or `nil` for an ordinary item.
    public enum TaskState: String, Sendable, Equatable, Codable {
        /// `[ ]`: to do.
        case unchecked
        /// `[x]` or `[X]`: done.
        case checked
    }

    /// The task box of a GFM task list item (`- [ ] to do`), or `nil`.
    public var task: TaskState?
    /// An explicit number the item keeps (note markup keeps each line's own number);
    /// `nil` means "previous + 1" as in CommonMark.
    public var number: Int?
    /// The item's content (paragraphs, nested lists, …).
    public var blocks: [Block]
    /// Where the item starts in the source (1-based), or `nil`.
    public var position: SourcePosition?

    /// An item holding `blocks`, with an optional task box and kept number.
    public init(task: TaskState? = nil, number: Int? = nil, blocks: [Block], position: SourcePosition? = nil) {
        self.task = task
        self.number = number
        self.blocks = blocks
        self.position = position
    }
}

/// A GFM table: one header row, zero or more body rows, one alignment per column.
public struct Table: Sendable, Equatable {
    /// A column's alignment from the delimiter row (`---`, `:--`, `:-:`, `--:`).
    public enum Alignment: String, Sendable, Equatable, Codable {
        /// `---`: none given (writers align to the start).
        case none
        /// `:--`
        case left
        /// `:-:`
        case center
        /// `--:`
        case right
    }

    /// One entry per column; the number of columns.
    public var alignments: [Alignment]
    /// The header row; GFM requires exactly one.
    public var header: [Inlines]
    /// Body rows. Each has exactly `alignments.count` cells (cmark pads short rows with empty cells).
    public var rows: [[Inlines]]

    /// A table of `header` and `rows`, one alignment per column.
    public init(alignments: [Alignment], header: [Inlines], rows: [[Inlines]]) {
        self.alignments = alignments
        self.header = header
        self.rows = rows
    }
}

/// A GitHub alert ("callout", "admonition"): a block quote that starts with a marker line naming
/// its kind, which GitHub draws as a titled, coloured box.
///
/// The rule (GitHub Docs, "Basic writing and formatting syntax", Alerts; the same as
/// commonmark-hs's and comrak's `alerts` extensions): in GFM input, a block quote at the top level
/// of the document (alerts "cannot be nested within other elements") whose first paragraph starts
/// with `[!KIND]` (any case) alone on its line, followed by a line break or by the end of that
/// paragraph, and that has content after the marker. Anything else stays a block quote. The node
/// is named `alert` (GitHub's name; the JSON dump's `"type": "alert"`).
public struct Alert: Sendable, Equatable {
    /// The kinds: GitHub's five (`note` … `caution`), then Obsidian's other callout types, by
    /// their marker's name in lower case (Obsidian's aliases: ``kind(ofCalloutType:)``).
    public enum Kind: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
        /// `[!NOTE]`: useful information.
        case note
        /// `[!TIP]`: advice (Obsidian: also `hint`).
        case tip
        /// `[!IMPORTANT]`: key information.
        case important
        /// `[!WARNING]`: urgent information (Obsidian: also `attention`).
        case warning
        /// `[!CAUTION]`: risks or negative outcomes.
        case caution
        /// Obsidian `[!abstract]` (`summary`, `tldr`).
        case abstract
        /// Obsidian `[!info]`.
        case info
        /// Obsidian `[!todo]`.
        case todo
        /// Obsidian `[!success]` (`check`, `done`).
        case success
        /// Obsidian `[!question]` (`help`, `faq`).
        case question
        /// Obsidian `[!failure]` (`fail`, `missing`).
        case failure
        /// Obsidian `[!danger]` (`error`).
        case danger
        /// Obsidian `[!bug]`.
        case bug
        /// Obsidian `[!example]`.
        case example
        /// Obsidian `[!quote]` (`cite`).
        case quote

        /// The title GitHub shows: `Note`, `Tip`, `Important`, `Warning`, `Caution` (and the
        /// capitalised name of the others).
        public var title: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

        /// Whether GitHub knows the kind (the five alerts).
        public var isGitHubAlert: Bool {
            switch self {
            case .note, .tip, .important, .warning, .caution: return true
            default: return false
            }
        }
    }

    /// A foldable callout's state (Obsidian `[!tip]-` closed, `[!tip]+` open).
    public enum Fold: String, Sendable, Equatable, Codable {
        /// `+`: foldable, open at first.
        case open
        /// `-`: folded until opened.
        case closed
    }

    /// Obsidian's aliases of callout types (Obsidian Help, "Callouts": supported types).
    public static let calloutAliases: [String: Kind] = [
        "summary": .abstract, "tldr": .abstract, "hint": .tip, "check": .success, "done": .success,
        "help": .question, "faq": .question, "attention": .warning, "fail": .failure, "missing": .failure,
        "error": .danger, "cite": .quote,
    ]

    /// The kind of an Obsidian callout type (ASCII case ignored): a kind's name, an alias, else
    /// ``Kind/note`` (Obsidian draws unknown types as notes, titled with the type).
    public static func kind(ofCalloutType type: String) -> Kind {
        let t = type.lowercased()
        return Kind(rawValue: t) ?? calloutAliases[t] ?? .note
    }

    /// How the marker line ended in the source.
    public enum MarkerEnd: String, Sendable, Equatable, Codable {
        /// The marker was the whole first paragraph (a blank `>` line followed).
        case paragraphEnd
        /// A soft line break: the first paragraph goes on after it.
        case softBreak
        /// A hard line break (two trailing spaces or a backslash).
        case hardBreak
    }

    /// Which of the five alerts.
    public var kind: Kind
    /// The marker as written, `[!NOTE]` or `[!note]`: what a writer that gives the block quote
    /// back (HTML `--fragment`, byte-identical to cmark-gfm) writes. Empty: no marker in the
    /// source (a MkDocs admonition), written as an alert everywhere.
    public var marker: String
    /// How the marker line ended (for the same writers).
    public var markerEnd: MarkerEnd
    /// The content after the marker line.
    public var blocks: [Block]
    /// An Obsidian callout's title: the text after the marker (`> [!info] Custom title`), else
    /// the type as written, capitalised (`[!faq]` is titled `Faq`); `nil` for a GitHub alert.
    public var title: String?
    /// Foldable callouts (`[!tip]-`, `[!tip]+`); `nil`: not foldable.
    public var fold: Fold?
    /// An Obsidian callout's title as written after the marker, with its inline markup (code,
    /// emphasis, math, links), whose plain text is ``title``; `nil` when no title was written
    /// (the type's name) or for a GitHub alert. Writers show it where they can, else ``title``.
    public var titleInlines: Inlines?

    /// An alert of `kind` read from `marker`, holding `blocks`.
    public init(kind: Kind, marker: String, markerEnd: MarkerEnd, blocks: [Block], title: String? = nil, fold: Fold? = nil,
                titleInlines: Inlines? = nil) {
        self.kind = kind
        self.marker = marker
        self.markerEnd = markerEnd
        self.blocks = blocks
        self.title = title
        self.fold = fold
        self.titleInlines = titleInlines
    }

    /// ``titleInlines`` when it has markup (a run in a span: code, emphasis, math, a link), else
    /// `nil`: writers show it as inline content, and a plain title as ``displayTitle``'s text.
    public var markedTitle: Inlines? {
        guard let t = titleInlines, t.runs.contains(where: { $0.span != nil }) else { return nil }
        return t
    }

    /// The title writers show: ``title``, else the kind's (``Kind/title``).
    public var displayTitle: String { title ?? kind.title }

    /// The kind named by a marker line's text (`[!NOTE]`, ASCII case ignored), or `nil`: one
    /// of GitHub's five.
    public static func kind(ofMarker text: String) -> Kind? {
        guard text.hasPrefix("[!"), text.hasSuffix("]"), text.count > 3 else { return nil }
        return Kind(rawValue: String(text.dropFirst(2).dropLast()).lowercased()).flatMap { $0.isGitHubAlert ? $0 : nil }
    }

    /// An Obsidian callout's first line (`[!type]`, then `-` or `+`, then an optional title):
    /// its type as written, fold and title (`nil` when none), or `nil` when the line is no marker.
    public static func calloutHeader(_ line: String) -> (type: String, fold: Fold?, title: String?)? {
        let u = Array(line.utf8)
        guard u.count > 3, u[0] == 0x5B, u[1] == 0x21 else { return nil }
        var i = 2
        while i < u.count, u[i] != 0x5D {
            let c = u[i]
            guard (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2D || c == 0x5F else { return nil }
            i += 1
        }
        guard i < u.count, i > 2 else { return nil }
        let type = String(decoding: u[2..<i], as: UTF8.self)
        i += 1
        var fold: Fold?
        if i < u.count, u[i] == 0x2D { fold = .closed; i += 1 } else if i < u.count, u[i] == 0x2B { fold = .open; i += 1 }
        guard i == u.count || u[i] == 0x20 || u[i] == 0x09 else { return nil }
        let title = String(decoding: u[i...], as: UTF8.self).trimmingHorizontalWhitespace()
        return (type, fold, title.isEmpty ? nil : title)
    }

    /// The blocks of the block quote the alert was read from: the marker put back as the first
    /// paragraph's first line (a text run and the break), or as a paragraph of its own.
    public var blockQuoteChildren: [Block] {
        var rest = blocks
        let marker = InlineRun(.text(self.marker))
        switch markerEnd {
        case .paragraphEnd:
            return [Block(.paragraph(Inlines([marker])))] + rest
        case .softBreak, .hardBreak:
            let br = InlineRun(markerEnd == .softBreak ? .softBreak : .hardBreak)
            guard let first = rest.first, case .paragraph(var inl) = first.kind else {
                return [Block(.paragraph(Inlines([marker])))] + rest
            }
            inl.runs.insert(contentsOf: [marker, br], at: 0)
            rest[0] = Block(.paragraph(inl), position: first.position)
            return rest
        }
    }
}
