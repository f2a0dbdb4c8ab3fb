/// The roles of highlighted code: one fixed set that every writer styles from the theme, whatever
/// library tokenised the code. ``CodeRole/libraryStyles`` is the one table from the library's
/// style names onto them.
public enum CodeRole: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    /// Language keywords (`let`, `func`, `class`).
    case keyword
    /// Control flow keywords (`if`, `return`, `for`).
    case controlFlow
    /// Type names and built-in types (`Int`, `String`).
    case type
    /// Function names, definitions and calls.
    case function
    /// Variables (`$foo` in shell or PHP).
    case variable
    /// String literals, verbatim and special strings (regular expressions).
    case string
    /// Character literals and escapes inside strings (`'a'`, `\n`).
    case character
    /// Numbers in any base.
    case number
    /// Named constants (`true`, `nil`, `NULL`).
    case constant
    /// Comments.
    case comment
    /// Documentation comments and their markup (`///`, `@param`).
    case documentation
    /// Preprocessor lines and imports (`#include`, `import`).
    case preprocessor
    /// Operators (`+`, `::`, `->`).
    case `operator`
    /// Attributes and annotations (`@override`, `__attribute__`).
    case attribute
    /// What the language definition marks as an error or alert.
    case error
    /// Everything else: the code block's ordinary text.
    case plain

    /// The CSS class of the role in HTML (`tok-keyword`, `tok-control-flow`, …).
    public var cssClass: String {
        switch self {
        case .controlFlow: "tok-control-flow"
        default: "tok-" + rawValue
        }
    }

    /// The role's name in lower-case words joined by hyphens (`control-flow`): CSS classes and
    /// TEI's `type` values. (A switch, not a conversion: writers ask for it once per token.)
    public var kebabName: String {
        switch self {
        case .controlFlow: "control-flow"
        default: rawValue
        }
    }

    /// The one table: each text style name of KDE's KSyntaxHighlighting (`Theme::TextStyle`, the
    /// library's "default styles", `ds*` in its syntax files) and the role it becomes. A style not
    /// listed is plain. The first style named for a role is the role's representative, whose colour
    /// a library theme (`--highlight-style`) gives the role.
    public static let libraryStyles: [(style: String, role: CodeRole)] = [
        ("Normal", .plain),
        ("Keyword", .keyword), ("BuiltIn", .keyword), ("Extension", .keyword),
        ("ControlFlow", .controlFlow),
        ("DataType", .type),
        ("Function", .function),
        ("Variable", .variable),
        ("String", .string), ("VerbatimString", .string), ("SpecialString", .string),
        ("Char", .character), ("SpecialChar", .character),
        ("DecVal", .number), ("BaseN", .number), ("Float", .number),
        ("Constant", .constant),
        ("Comment", .comment), ("RegionMarker", .comment),
        ("Documentation", .documentation), ("Annotation", .documentation), ("CommentVar", .documentation),
        ("Information", .documentation),
        ("Preprocessor", .preprocessor), ("Import", .preprocessor),
        ("Operator", .operator), ("Others", .plain),
        ("Attribute", .attribute),
        ("Error", .error), ("Alert", .error), ("Warning", .error),
    ]

    /// The role of a library style name (``libraryStyles``); plain for a name not in the table.
    public static func role(ofLibraryStyle name: String) -> CodeRole {
        styleIndex[name] ?? .plain
    }

    private static let styleIndex: [String: CodeRole] = {
        var d: [String: CodeRole] = [:]
        for (s, r) in libraryStyles where d[s] == nil { d[s] = r }
        return d
    }()

    /// The library style whose colour stands for the role (the first row of ``libraryStyles``
    /// naming it).
    public var representativeLibraryStyle: String {
        Self.libraryStyles.first { $0.role == self }!.style
    }
}

/// A code block's text cut into runs of one role each, the whole ``Block/Kind/codeBlock(info:literal:)``
/// literal in order: what the highlighter leaves on ``Block/highlight`` and every writer reads.
public struct CodeHighlight: Sendable, Equatable {
    /// One run: `length` UTF-8 bytes of the literal in `role`.
    public struct Run: Sendable, Equatable {
        /// The role of the run's text.
        public var role: CodeRole
        /// Its length in UTF-8 bytes (each run starts and ends on a character boundary).
        public var length: Int

        /// A run of `length` bytes in `role`.
        public init(role: CodeRole, length: Int) {
            self.role = role
            self.length = length
        }
    }

    /// The language's name as the library calls it (`Swift`, `Python`, `Bash`).
    public var language: String
    /// The runs, covering the literal; neighbours have different roles.
    public var runs: [Run]

    /// Runs of `language` (merged where neighbours share a role; empty runs dropped).
    public init(language: String, runs: [Run]) {
        self.language = language
        var merged: [Run] = []
        merged.reserveCapacity(runs.count)
        for r in runs where r.length > 0 {
            if let last = merged.last, last.role == r.role { merged[merged.count - 1].length += r.length } else { merged.append(r) }
        }
        self.runs = merged
    }

    /// The runs with their text, cut from `literal` (the code block's): what a writer walks.
    /// Text past the runs' end (a literal changed since) is plain.
    public func pieces(of literal: String) -> [(role: CodeRole, text: Substring)] {
        var out: [(role: CodeRole, text: Substring)] = []
        out.reserveCapacity(runs.count + 1)
        forEachPiece(of: literal) { out.append(($0, $1)) }
        return out
    }

    /// Calls `body` with each run's role and text in order (``pieces(of:)`` without the array:
    /// a huge block's writer keeps one piece at a time).
    public func forEachPiece(of literal: String, _ body: (CodeRole, Substring) -> Void) {
        let utf8 = literal.utf8
        var i = utf8.startIndex
        for r in runs {
            guard i < utf8.endIndex else { break }
            let j = utf8.index(i, offsetBy: r.length, limitedBy: utf8.endIndex) ?? utf8.endIndex
            body(r.role, literal[i..<j])
            i = j
        }
        if i < utf8.endIndex { body(.plain, literal[i...]) }
    }
}

/// A fenced code block's info string read for its language: the first word (```` ```swift ````,
/// ```` ```sh title=x ````), or in pandoc's attribute form the first class
/// (```` ```{.python .numberLines} ````, ```` ```{python} ````). `nil` when there is none.
public enum CodeInfo {
    /// The language the info string names, as written (the library resolves names, aliases and
    /// case), or `nil`.
    public static func language(_ info: String) -> String? {
        var s = Substring(info).drop { $0 == " " || $0 == "\t" }
        if s.first == "{" {
            s = s.dropFirst()
            let inside = s.prefix { $0 != "}" }
            let words = inside.split(whereSeparator: { $0 == " " || $0 == "\t" })
            let word = words.first { $0.hasPrefix(".") }.map { $0.dropFirst() }
                ?? words.first { !$0.contains("=") && !$0.hasPrefix("#") }
            return word.flatMap { $0.isEmpty ? nil : String($0) }
        }
        let word = s.prefix { $0 != " " && $0 != "\t" && $0 != "{" && $0 != "," }
        return word.isEmpty ? nil : String(word)
    }
}
