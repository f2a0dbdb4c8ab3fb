/// The Dynamic Type text styles a theme maps document parts to, named as UIKit's
/// `UIFont.TextStyle` names them (Apple Human Interface Guidelines, Typography), largest first:
/// the four larger styles headings use (`largeTitle`, `title1`, `title2`, `title3`) and the six
/// of the note itself (`headline` … `caption2`).
public enum TextStyle: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    /// Large Title (34 pt at the Large size category).
    case largeTitle
    /// Title 1 (28 pt): first-level headings.
    case title1
    /// Title 2 (22 pt): second-level headings.
    case title2
    /// Title 3 (20 pt): third-level headings.
    case title3
    /// Headline (17 pt semibold): headings of levels 4–6, the note's title.
    case headline
    /// Subheadline (15 pt): table cells.
    case subheadline
    /// Body (17 pt): the text of a note.
    case body
    /// Footnote (13 pt): footnotes and code.
    case footnote
    /// Caption 1 (12 pt).
    case caption1
    /// Caption 2 (11 pt): the date badge.
    case caption2
}

/// A semantic colour a run of text takes from the theme rather than a literal colour.
public enum ColorRole: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    /// Note markup's ALL-CAPS words; red in the default theme.
    case alert
}

/// A link destination and optional title (CommonMark §6.3), with where the link was written and,
/// after a site run resolved it (``SiteLinkTarget``), what it points at.
public struct Link: Sendable, Equatable, Hashable {
    /// How a link was written in the source.
    public enum Syntax: String, Sendable, Equatable, Hashable, Codable {
        /// CommonMark's inline, reference and autolinks (`[t](d)`, `[t][r]`, `<d>`), GFM's
        /// extended autolinks.
        case standard
        /// A wiki link, `[[Note]]`, `[[Note|label]]`, `[[Note#Heading]]` (note markup always;
        /// Markdown with `--wikilinks`). Until a site resolves it, ``Link/destination`` holds the
        /// target as written (`Note#Heading`, without the label).
        case wiki
    }

    /// The destination (URL or path), as written or as a site rewrote it.
    public var destination: String
    /// The title (`[t](d "title")`), empty without one.
    public var title: String
    /// How the link was written.
    public var syntax: Syntax
    /// Where the link (its `[` or `<`, or the `!` of an image) starts in the source, when the
    /// reader knows it (1-based line and byte column, as ``SourcePosition``).
    public var position: SourcePosition?
    /// Set when a site run resolved the destination to another input of the site (or its own
    /// page): what writers that do not link by path need (a man page's name and section).
    public var target: SiteLinkTarget?
    /// A wiki link a site could not resolve: writers show its text only (HTML as
    /// `<span class="wikilink-missing">`); ``destination`` is empty.
    public var isMissing: Bool
    /// A wiki embed of a note (`![[note]]`, `![[note#Heading]]`, `![[note#^id]]`): a site run puts
    /// the note's content in its place; elsewhere it is a link to the note.
    public var isEmbed: Bool
    /// A site run already gave the link its final destination (content of an embedded note,
    /// rewritten relative to the embedding page): not rewritten again.
    package var isRewritten = false
    /// An image's size in pixels as Obsidian writes it (`![[shot.png|400x300]]`,
    /// `![alt|400](shot.png)`: ``WikiLinkSyntax/size(_:)``); `nil` when not given.
    public var width: Int?
    /// See ``width`` (`nil` for a width alone: the image keeps its proportions).
    public var height: Int?
    /// Attributes written after the link or image (MkDocs `attr_list`: `[t](u){ .cls }`);
    /// HTML writes those ``MarkupAttributes/htmlAttributes`` allows; `nil`: none.
    public var attributes: MarkupAttributes?

    /// A link (see the properties); a plain `[t](d)` by default.
    public init(destination: String, title: String = "", syntax: Syntax = .standard, position: SourcePosition? = nil,
                target: SiteLinkTarget? = nil, isMissing: Bool = false, isEmbed: Bool = false) {
        self.destination = destination
        self.title = title
        self.syntax = syntax
        self.position = position
        self.target = target
        self.isMissing = isMissing
        self.isEmbed = isEmbed
    }
}

/// The input a resolved link points at, as the site table records it: the relative path of the
/// input and its man page name and section (a man page shows a link to another page as
/// `name(section)`, man-pages(7) "SEE ALSO").
public struct SiteLinkTarget: Sendable, Equatable, Hashable {
    /// The target input's path below the input folder (`user/features/tags.md`).
    public var path: String
    /// The target's man page name (`podman-run`).
    public var manName: String
    /// The target's man section (`1`, `3p`).
    public var manSection: String

    /// A target (see the properties).
    public init(path: String, manName: String, manSection: String) {
        self.path = path
        self.manName = manName
        self.manSection = manSection
    }
}

/// One attribute span: a node of the span tree of one ``Inlines`` value ("nesting stored
/// once"). A span's identity is its index in ``Inlines/spans``; its enclosing span is
/// ``parent``, which always has a smaller index (spans are numbered in the order they open).
/// Runs point at their innermost span (``InlineRun/span``), so a span nested `d` deep costs one
/// entry, not `d` copies in every run: memory stays linear in the input at any depth.
///
/// Emitters that rebuild nesting (HTML, TEI, the JSON dump) walk the tree with
/// `Inlines.transition(from:to:into:)`; emitters that only need flags (RTF, ANSI, man) read
/// ``InlineAttributeTable``. Two adjacent spans of the same kind (`*a*_b_`) are two entries.
/// 16 bytes: links and images keep their destination in a box, the parent index is 32 bits.
public struct InlineSpan: Sendable, Equatable, Hashable {
    /// What a span is.
    public enum Kind: Sendable, Equatable, Hashable {
        /// Strong emphasis (`**bold**`; note markup `*bold*`).
        case strong
        /// Emphasis (`*italic*`; note markup `_italic_`).
        case emphasis
        /// Strikethrough (GFM `~~struck~~`; note markup `-struck-`).
        case strikethrough
        /// Note markup's `~script~` span, shown in the theme's script (cursive) font.
        case script
        /// Inline code (CommonMark §6.1). Runs inside are literal text.
        case code
        /// A link; the runs inside are its text.
        indirect case link(Link)
        /// An image; the runs inside are its description (alt text).
        indirect case image(Link)
        /// Text in a semantic colour of the theme (note markup's ALL-CAPS words: ``ColorRole/alert``).
        case colorRole(ColorRole)
        /// Text in another Dynamic Type style than its block's.
        case textStyle(TextStyle)
        /// Text that looks pressed into the page (Text Kit's `NSTextEffectLetterpressStyle`).
        case letterpress
        /// A note-markup delimiter kept visible by `--keep-markers` (the editor view).
        case marker
        /// An inline hashtag (`Hashtags`, `--hashtags`): the runs inside are its text (`#work`),
        /// the value its name without the `#` (`work`).
        indirect case tag(String)
        /// A `==highlighted==` span (Obsidian): HTML `<mark>`, RTF `\\highlight`, ANSI reverse
        /// video, TEI `<hi rend="mark">`, man bold.
        case highlight
        /// Math (`$…$`, `$$…$$`, ```` ```math ````; ``VaultSyntax``): the one text run inside is the
        /// TeX source exactly as written. `display` for `$$…$$` and ```` ```math ```` blocks.
        /// Writers that draw no math show the source in the code style (``InlineAttributes/code``).
        case math(display: Bool)
        /// Superscript (raw HTML `<sup>`): HTML `<sup>`, RTF `\\super`, TEI `<hi rend="sup">`.
        case superscript
        /// Subscript (raw HTML `<sub>`): HTML `<sub>`, RTF `\\sub`, TEI `<hi rend="sub">`.
        case `subscript`
        /// Inserted text (MkDocs `pymdownx.caret` `^^text^^`): HTML `<ins>`, RTF `\\ul`, ANSI
        /// underline, TEI `<hi rend="underline">`, man italic.
        case insert
        /// Keys to press (MkDocs `pymdownx.keys` `++ctrl+alt+del++`): HTML `<kbd>`; plain text
        /// in the other formats.
        case keyboard
        /// An abbreviation (MkDocs `abbr`): the value is its expansion, HTML `<abbr title="…">`;
        /// the text unchanged in the other formats.
        indirect case abbreviation(String)
    }

    /// What the span does to the runs inside it.
    public var kind: Kind
    /// The parent's index, or -1 at the top level.
    @usableFromInline var parentIndex: Int32

    /// The index in ``Inlines/spans`` of the span enclosing this one, or `nil` at the top level.
    public var parent: Int? {
        get { parentIndex < 0 ? nil : Int(parentIndex) }
        set { parentIndex = Int32(newValue ?? -1) }
    }

    /// A span of `kind` inside span `parent` (an index in ``Inlines/spans``, smaller than the new
    /// span's own index), or at the top level.
    public init(_ kind: Kind, parent: Int? = nil) {
        self.kind = kind
        self.parentIndex = Int32(parent ?? -1)
    }
}

/// The content of one run.
public enum RunContent: Sendable, Equatable {
    /// Literal text (never contains a line break unless it is code).
    case text(String)
    /// A line break within a paragraph that renders as a space or newline (CommonMark §6.13).
    case softBreak
    /// A hard line break (CommonMark §6.12); note markup's line ends within a paragraph.
    case hardBreak
    /// A footnote reference: the label as written, and the 1-based number of its definition
    /// in order of first reference; `occurrence` counts references to the same note (1, 2, …).
    indirect case footnoteReference(label: String, number: Int, occurrence: Int)
    /// Raw inline HTML (CommonMark §6.10), verbatim. Dropped unless unsafe output is on.
    case rawHTML(String)
}

/// One run of inline content and the innermost span that encloses it (24 bytes).
public struct InlineRun: Sendable, Equatable {
    /// Text, a break, a footnote reference or raw HTML.
    public var content: RunContent
    /// The span index, or -1 outside every span.
    @usableFromInline var spanIndex: Int32

    /// The index in ``Inlines/spans`` of the innermost span enclosing the run (its ancestors
    /// enclose it too), or `nil` when the run is in no span.
    public var span: Int? {
        get { spanIndex < 0 ? nil : Int(spanIndex) }
        set { spanIndex = Int32(newValue ?? -1) }
    }

    /// A run of `content` inside span `span` (an index in ``Inlines/spans``), or in no span.
    public init(_ content: RunContent, span: Int? = nil) {
        self.content = content
        self.spanIndex = Int32(span ?? -1)
    }
}

/// The attributes of a run, flattened: what RTF and terminal output need.
public struct InlineAttributes: Sendable, Equatable, Hashable {
    /// Inside a ``InlineSpan/Kind/strong`` span.
    public var strong = false
    /// Inside an ``InlineSpan/Kind/emphasis`` span.
    public var emphasis = false
    /// Inside a ``InlineSpan/Kind/strikethrough`` span.
    public var strikethrough = false
    /// Inside a ``InlineSpan/Kind/script`` span.
    public var script = false
    /// Inside a ``InlineSpan/Kind/code`` span.
    public var code = false
    /// Inside a ``InlineSpan/Kind/marker`` span (a visible note-markup delimiter).
    public var marker = false
    /// Inside a ``InlineSpan/Kind/letterpress`` span.
    public var letterpress = false
    /// The innermost link, if any.
    public var link: Link?
    /// The innermost image, if the run is (part of) an image description.
    public var image: Link?
    /// The name of the hashtag the run is part of (``InlineSpan/Kind/tag(_:)``).
    public var tag: String?
    /// Inside a ``InlineSpan/Kind/highlight`` span.
    public var highlight = false
    /// Inside a ``InlineSpan/Kind/math(display:)`` span (then ``code`` is set too: writers
    /// without math show the TeX source in the code style); `true` for display math.
    public var math: Bool?
    /// Inside a ``InlineSpan/Kind/superscript`` span.
    public var superscript = false
    /// Inside a ``InlineSpan/Kind/subscript`` span.
    public var `subscript` = false
    /// Inside a ``InlineSpan/Kind/insert`` span.
    public var insert = false
    /// The innermost colour role, if any.
    public var colorRole: ColorRole?
    /// The innermost text style span's style, if any (else the block's style applies).
    public var textStyle: TextStyle?

    /// No attribute: a run outside every span.
    public init() {}

    /// The attributes of `kinds` applied outermost first (a later link or image wins).
    public init<S: Sequence>(_ kinds: S) where S.Element == InlineSpan.Kind {
        for kind in kinds { add(kind) }
    }

    /// Adds the attribute of one span nested inside the ones already added.
    public mutating func add(_ kind: InlineSpan.Kind) {
        switch kind {
        case .strong: strong = true
        case .emphasis: emphasis = true
        case .strikethrough: strikethrough = true
        case .script: script = true
        case .code: code = true
        case .marker: marker = true
        case .letterpress: letterpress = true
        case .highlight: highlight = true
        case .superscript: superscript = true
        case .subscript: self.subscript = true
        case .insert: insert = true
        case .keyboard, .abbreviation: break
        case .math(let display):
            math = display
            code = true
        case .link(let l): link = l
        case .image(let l): image = l
        case .tag(let name): tag = name
        case .colorRole(let r): colorRole = r
        case .textStyle(let s): textStyle = s
        }
    }
}

/// Inline content: runs in order and the tree of spans they sit in.
///
/// Invariants (checked by ``init(runs:spans:)``, kept by `InlinesBuilder`): every span's
/// parent and every run's span is an index of ``spans``; a parent's index is smaller than its
/// child's. Spans no run sits in (directly or below) are allowed and never written.
public struct Inlines: Sendable, Equatable, ExpressibleByArrayLiteral {
    /// The runs, in reading order.
    public var runs: [InlineRun]
    /// The span tree (see ``InlineSpan``), in the order the spans open.
    public var spans: [InlineSpan]

    /// Runs and their span tree. Precondition: the invariants above (O(runs + spans) check).
    public init(runs: [InlineRun], spans: [InlineSpan]) {
        for (i, s) in spans.enumerated() { precondition(s.parentIndex < Int32(i), "span \(i): parent must come before it") }
        for r in runs { precondition(r.spanIndex < Int32(spans.count), "run span index out of range") }
        self.runs = runs
        self.spans = spans
    }

    /// Runs in no span.
    public init(_ runs: [InlineRun] = []) {
        precondition(runs.allSatisfy { $0.spanIndex < 0 }, "runs point into spans: use init(runs:spans:)")
        self.runs = runs
        self.spans = []
    }

    /// Runs in no span (see ``init(_:)``).
    public init(arrayLiteral elements: InlineRun...) { self.init(elements) }

    /// Trusted: built by ``InlinesBuilder``.
    init(uncheckedRuns runs: [InlineRun], spans: [InlineSpan]) {
        self.runs = runs
        self.spans = spans
    }

    /// Whether there is no run.
    public var isEmpty: Bool { runs.isEmpty }

    /// The runs in `range` with the same span tree (spans outside it are kept and never written).
    public func subrange(_ range: Range<Int>) -> Inlines {
        Inlines(uncheckedRuns: Array(runs[range]), spans: spans)
    }

    /// The indices of the spans enclosing run `run`, outermost first. O(depth): for tests and
    /// single look-ups, never per run of a whole paragraph (use ``InlineAttributeTable`` or
    /// `transition(from:to:into:)`).
    public func spanChain(ofRun run: Int) -> [Int] {
        var chain: [Int] = []
        var s = runs[run].spanIndex
        while s >= 0 {
            chain.append(Int(s))
            s = spans[Int(s)].parentIndex
        }
        return chain.reversed()
    }

    /// The kinds of the spans enclosing run `run`, outermost first (O(depth), see ``spanChain(ofRun:)``).
    public func spanKinds(ofRun run: Int) -> [InlineSpan.Kind] {
        spanChain(ofRun: run).map { spans[$0].kind }
    }

    /// The flat attributes of run `run` (O(depth), see ``spanChain(ofRun:)``).
    public func attributes(ofRun run: Int) -> InlineAttributes {
        InlineAttributes(spanKinds(ofRun: run))
    }

    /// A heading as a title or table-of-contents entry shows it: ``plainText`` without footnote
    /// references (a reference's number is a mark in the heading, not part of its name:
    /// `# Report[^1]` is titled `Report`). Heading ids keep the number (``headingIDText``, GitHub's
    /// rule).
    public var titleText: String {
        plainText(footnoteNumbers: false)
    }

    /// ``plainText``, footnote references as their number or (`footnoteNumbers` false) left out.
    func plainText(footnoteNumbers: Bool) -> String {
        var s = ""
        for run in runs {
            switch run.content {
            case .text(let t): s += t
            case .softBreak: s += " "
            case .hardBreak: s += "\n"
            case .footnoteReference(_, let n, _): if footnoteNumbers { s += String(n) }
            case .rawHTML: break
            }
        }
        return s
    }

    /// The text without markup: text runs verbatim, breaks as `"\n"` (hard) or `" "` (soft),
    /// footnote references as their number, raw HTML dropped.
    public var plainText: String { plainText(footnoteNumbers: true) }
}
