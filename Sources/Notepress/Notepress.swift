// The library's front door: one call converts a string, two (parse, render) keep the document in
// between. `import Notepress` is all a client needs: the AST (Document, Block, Inlines…) and the
// themes are re-exported; everything else (readers, emitters, the batch machinery of the command
// line) is `package` and stays behind this file.
@_exported import NotepressAST
@_exported import NotepressThemes
import NotepressResources

/// Converts note markup and CommonMark/GFM to HTML, RTF, terminal text, TEI XML, man pages or a
/// JSON dump of the document tree.
///
/// ```swift
/// import Notepress
///
/// let page = try Notepress.convert("# Hello\n\n*Bold* move.", from: .gfm, to: .html)
/// print(page.text)
/// ```
///
/// ``convert(_:from:to:options:)`` reads and writes in one call; ``parse(_:from:)`` returns the
/// ``Document`` (metadata and a tree of blocks) to inspect or render several times with
/// ``Document/render(as:options:)``. Markdown is read by libcmark-gfm exactly as
/// GitHub reads it; note markup by the rules of `man/notepress-markup.7.md`. Both accept YAML
/// front matter (`title`, `created`, `tags`, `lang`, …). Output bytes depend only on the source
/// and the options: nothing reads the environment, the clock or a terminal.
public enum Notepress {
    /// Converts `source` from `format` to `output`.
    ///
    /// - Parameters:
    ///   - source: the document's text (a leading byte order mark is skipped).
    ///   - format: its syntax: ``SourceFormat/note``, ``SourceFormat/commonmark`` or
    ///     ``SourceFormat/gfm`` (GitHub Flavored Markdown).
    ///   - output: the format to write.
    ///   - options: theme, fragment or page, width and colours of terminal text, … (the defaults
    ///     are what `notepress convert` writes without options).
    /// - Returns: the output text and the warnings of reading and writing (a node written as its
    ///   content, nesting flattened, …), each with its line and column.
    /// - Throws: ``NotepressError/invalidFrontMatter(file:position:message:)`` for front matter
    ///   with a bad field (`created: 2024-02-30`) or, in note markup, that is not a YAML mapping;
    ///   ``NotepressError/nulByte(file:position:)`` for a NUL character;
    ///   ``NotepressError/schemaViolation(file:position:message:)`` for TEI that fails the schema
    ///   (a bug, when it happens); ``NotepressError/pageTemplate(file:message:)`` for a page
    ///   template that cannot be rendered.
    public static func convert(_ source: String, from format: SourceFormat, to output: OutputFormat,
                               options: ConversionOptions = ConversionOptions()) throws -> Conversion {
        let read = try self.read(source, from: format)
        var result = try highlighted(read.document, for: output, options: options).render(as: output, options: options)
        result.diagnostics = read.diagnostics + result.diagnostics
        return result
    }

    /// Reads `source` in `format` into a ``Document`` (front matter in
    /// ``Document/metadata``, the content in ``Document/blocks``), to inspect or to render with
    /// ``Document/render(as:options:)``. A document read from a string has no source
    /// path; its title is the front matter's, else `nil`.
    /// - Throws: the reading errors of ``convert(_:from:to:options:)``.
    public static func parse(_ source: String, from format: SourceFormat) throws -> Document {
        try read(source, from: format).document
    }

    /// ``parse(_:from:)`` with the reader's warnings.
    static func read(_ source: String, from format: SourceFormat) throws -> (document: Document, diagnostics: [Diagnostic]) {
        var text = source
        if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
        if text.utf8.contains(0), let problem = DocumentLoader.checkBytes(Array(text.utf8), name: "") {
            throw NotepressError.nulByte(file: nil, position: problem.position ?? SourcePosition(line: 1, column: 1))
        }
        var loader = DocumentLoader(format: format)
        loader.unnamedSource = nil
        let result = try loader.load(text: text, path: nil, modified: nil, topLevelBlock: nil, retainBlocks: true)
        // Prepared as `notepress convert` prepares one file (heading ids, wiki links as text).
        let document = SingleDocumentPreparer(wikilinks: format == .note).prepare(result.document)
        return (document, result.diagnostics)
    }
}

/// An output format of ``Notepress/convert(_:from:to:options:)`` and
/// ``Document/render(as:options:)``; the raw values are the names `notepress convert
/// -t` takes.
public enum OutputFormat: String, Sendable, Equatable, Hashable, CaseIterable {
    /// A standalone HTML5 page (the Mustache page template, a stylesheet from the theme), or with
    /// ``ConversionOptions/fragment`` the body only (byte for byte cmark-gfm's HTML for Markdown).
    case html
    /// RTF 1.9 for word processors (LibreOffice, Word, TextEdit), typeset with the theme.
    case rtf
    /// Terminal text: SGR styles at ``ConversionOptions/colorDepth``, lines broken at
    /// ``ConversionOptions/width`` columns by Unicode's line breaking rules, box-drawn tables.
    case ansi
    /// TEI P5 XML, validated against the shipped RELAX NG schema (unless
    /// ``ConversionOptions/validate`` is off).
    case tei
    /// A man(7) page in roff, clean for `mandoc -T lint` and `groff -ww`.
    case man
    /// The document tree as JSON (the format of `notepress convert -t json`, described in the
    /// README's "The AST as JSON").
    case json
    /// Office Open XML for Word (`.docx`), with Word's built-in style names.
    case docx
    /// OpenDocument text for LibreOffice (`.odt`).
    case odt
    /// An EPUB 3 e-book (`.epub`); a folder run makes one book of the folder.
    case epub
    /// PDF laid out with Pango and Cairo, in the theme's text styles at its size category
    /// (``ConversionOptions/paperSize``); binary: ``Conversion/bytes`` holds it.
    case pdf

    /// The file extension of the format's files, without the dot: `html`, `rtf`, `ans`, `xml`,
    /// `man`, `json`, `pdf`.
    public var fileExtension: String { writer.fileExtension }

    /// Whether the output is binary (``pdf``): ``Conversion/bytes`` holds it, ``Conversion/text`` is empty.
    public var isBinary: Bool { [.pdf, .docx, .odt, .epub].contains(self) }

    /// The writer of the format (``WriterRegistry``).
    var writer: any DocumentWriter { WriterRegistry.writer(for: self) }

    /// Whether output in this format with `options` is standalone HTML pages: ``html`` without
    /// ``ConversionOptions/fragment``. A folder run gives such pages the site's chrome and writes
    /// the notes list, tag pages, search and the shared assets beside them; no other format (and
    /// no HTML fragment) gets any of these.
    public func makesHTMLPages(with options: ConversionOptions) -> Bool {
        self == .html && !options.fragment
    }
}

/// The result of a conversion: the output and the warnings met on the way.
public struct Conversion: Sendable, Equatable {
    /// The output document (RTF is ASCII; the other formats UTF-8 text); empty for a binary
    /// format (``OutputFormat/isBinary``: PDF and the zip packages), whose output is ``bytes``.
    public var text: String
    /// The output of a binary format; `nil` for text formats.
    private var binary: [UInt8]?
    /// The output document's bytes: a binary format's (PDF, DOCX, ODT, EPUB), or ``text`` as UTF-8.
    public var bytes: [UInt8] { binary ?? Array(text.utf8) }
    /// Warnings of reading and writing, in order, each with its line and column in the source
    /// when known (``Diagnostic/description`` prints `line:column: warning: message`). Empty for
    /// most documents.
    public var diagnostics: [Diagnostic]

    /// A result of `text` with `diagnostics`.
    public init(text: String, diagnostics: [Diagnostic] = []) {
        self.text = text
        self.diagnostics = diagnostics
    }

    /// A result of binary output (PDF, DOCX, ODT, EPUB) with `diagnostics`: ``bytes`` holds it, ``text`` is empty.
    public init(bytes: [UInt8], diagnostics: [Diagnostic] = []) {
        self.text = ""
        self.binary = bytes
        self.diagnostics = diagnostics
    }
}

extension Document {
    /// Writes the document in `format` (see ``Notepress/convert(_:from:to:options:)`` for the
    /// options and errors).
    /// - Returns: the output and the writer's warnings.
    /// - Throws: ``NotepressError/schemaViolation(file:position:message:)`` (TEI) or
    ///   ``NotepressError/pageTemplate(file:message:)`` (HTML pages).
    public func render(as format: OutputFormat, options: ConversionOptions = ConversionOptions()) throws -> Conversion {
        var diagnostics: [Diagnostic] = []
        let bytes = try format.writer.write(self, options: options, diagnostics: &diagnostics)
        if format.isBinary { return Conversion(bytes: bytes, diagnostics: diagnostics) }
        return Conversion(text: String(decoding: bytes, as: UTF8.self), diagnostics: diagnostics)
    }
}

extension Theme {
    /// The shipped `default` theme (`Templates/themes/default.json`: Apple's Dynamic Type table,
    /// headings in its emphasized weights, font lists for every system), which `notepress
    /// convert` uses without `--theme` and ``ConversionOptions`` by default. Loaded once.
    public static let `default`: Theme = {
        guard let theme = try? named("default") else { preconditionFailure("the built-in default theme does not load") }
        return theme
    }()

    /// The names of the shipped themes (`default`, `high-contrast`, `reading`), sorted: the
    /// names ``named(_:)`` takes.
    public static var builtInNames: [String] { ThemeLoader(store: TemplateStore()).availableThemes() }

    /// A shipped theme by name (``builtInNames``), or a theme file by its path (a `.json` file in
    /// the format of the shipped ones, `Templates/themes/`), with everything it inherits. Resolve it at a
    /// size category for ``ConversionOptions/theme``:
    /// `options.theme = try Theme.named("reading").resolved(category: .extraLarge)`.
    /// - Throws: ``NotepressError/invalidTheme(file:path:message:)`` when there is no such theme
    ///   or the file is not a valid theme.
    public static func named(_ name: String) throws -> Theme {
        do {
            return try ThemeLoader(store: TemplateStore()).load(name)
        } catch let e as ThemeError {
            throw NotepressError.invalidTheme(file: e.file, path: e.path, message: e.message)
        }
    }
}
