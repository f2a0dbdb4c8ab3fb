/// The six Dynamic Type text styles a theme maps document parts to, named as UIKit's
/// `UIFont.TextStyle` names them (Apple Human Interface Guidelines, Typography).
public enum TextStyle: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    case headline, subheadline, body, footnote, caption1, caption2
}

/// A semantic colour a run of text takes from the theme rather than a literal colour.
public enum ColorRole: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    /// Note markup's ALL-CAPS words; red in the default theme.
    case alert
}

/// A link destination and optional title (CommonMark §6.3).
public struct Link: Sendable, Equatable, Hashable {
    public var destination: String
    public var title: String
    public init(destination: String, title: String = "") {
        self.destination = destination
        self.title = title
    }
}

/// One attribute span (16 bytes: links and images keep their destination in a box, so the
/// common spans stay small; runs hold arrays of these). Runs carry the spans that enclose them, outermost first, so that emitters
/// which need nesting (HTML, TEI) can rebuild it exactly, and emitters that only need flags
/// (RTF, ANSI) can read ``InlineAttributes``.
///
/// `id` tells two adjacent spans of the same kind apart (`*a*_b_` is two emphasis spans, not one);
/// it is unique within one document and assigned in source order.
public struct InlineSpan: Sendable, Equatable, Hashable {
    public enum Kind: Sendable, Equatable, Hashable {
        case strong
        case emphasis
        case strikethrough
        /// Note markup's `~script~` span, shown in the theme's script (cursive) font.
        case script
        /// Inline code (CommonMark §6.1). Runs inside are literal text.
        case code
        indirect case link(Link)
        /// An image; the runs inside are its description (alt text).
        indirect case image(Link)
        case colorRole(ColorRole)
        case textStyle(TextStyle)
        /// Text that looks pressed into the page (Text Kit's `NSTextEffectLetterpressStyle`).
        case letterpress
        /// A note-markup delimiter kept visible by `--keep-markers` (the editor view).
        case marker
    }

    public var id: Int
    public var kind: Kind

    public init(id: Int, kind: Kind) {
        self.id = id
        self.kind = kind
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

/// One run of inline content with the spans that enclose it.
public struct InlineRun: Sendable, Equatable {
    public var content: RunContent
    /// Enclosing spans, outermost first.
    public var spans: [InlineSpan]

    public init(_ content: RunContent, spans: [InlineSpan] = []) {
        self.content = content
        self.spans = spans
    }

    /// The flat attribute view of ``spans``.
    public var attributes: InlineAttributes { InlineAttributes(spans) }
}

/// The attributes of a run, flattened: what RTF and terminal output need.
public struct InlineAttributes: Sendable, Equatable, Hashable {
    public var strong = false
    public var emphasis = false
    public var strikethrough = false
    public var script = false
    public var code = false
    public var marker = false
    public var letterpress = false
    /// The innermost link, if any.
    public var link: Link?
    /// The innermost image, if the run is (part of) an image description.
    public var image: Link?
    public var colorRole: ColorRole?
    public var textStyle: TextStyle?

    public init() {}

    public init(_ spans: [InlineSpan]) {
        for span in spans {
            switch span.kind {
            case .strong: strong = true
            case .emphasis: emphasis = true
            case .strikethrough: strikethrough = true
            case .script: script = true
            case .code: code = true
            case .marker: marker = true
            case .letterpress: letterpress = true
            case .link(let l): link = l
            case .image(let l): image = l
            case .colorRole(let r): colorRole = r
            case .textStyle(let s): textStyle = s
            }
        }
    }
}

/// Inline content: attributed runs in order.
public struct Inlines: Sendable, Equatable, ExpressibleByArrayLiteral {
    public var runs: [InlineRun]

    public init(_ runs: [InlineRun] = []) { self.runs = runs }
    public init(arrayLiteral elements: InlineRun...) { self.runs = elements }

    public var isEmpty: Bool { runs.isEmpty }

    /// The text without markup: text runs verbatim, breaks as `"\n"` (hard) or `" "` (soft),
    /// footnote references as their number, raw HTML dropped.
    public var plainText: String {
        var s = ""
        for run in runs {
            switch run.content {
            case .text(let t): s += t
            case .softBreak: s += " "
            case .hardBreak: s += "\n"
            case .footnoteReference(_, let n, _): s += String(n)
            case .rawHTML: break
            }
        }
        return s
    }
}
