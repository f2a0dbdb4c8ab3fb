import Foundation
import NotepressPlatform
import NotepressAST
import NotepressHighlight
import NotepressReaders

/// Reads input files into documents: checks the bytes, splits front matter, picks the reader,
/// and fills the metadata defaults.
package struct DocumentLoader: Sendable {
    /// Forces the input syntax (`-f`); `nil` picks it from the file extension.
    package var format: SourceFormat?
    /// Keep note-markup delimiters visible (`--keep-markers`).
    package var keepMarkers = false
    /// Inline hashtags (`--hashtags`): `#word` becomes a tag span and a tag of the note, after the
    /// front-matter tags (``Hashtags``).
    package var hashtags = false
    /// The character encoding of inputs that start with no byte order mark (`--encoding`: an
    /// `iconv(3)` name such as `latin1`, `windows-1252`, `shift_jis`); `nil` means UTF-8. A UTF-8
    /// or UTF-16 byte order mark wins over it (``TextDecoding``).
    package var encoding: String?
    /// `SOURCE_DATE_EPOCH` in seconds, when set: clamps dates taken from file times.
    package var sourceDateEpoch: Date?
    /// Parse Markdown with libcmark-gfm's arena allocator (``MarkdownReader/arena``): faster, but
    /// Markdown reads then run one at a time. For processes that read one document.
    package var cmarkArena = false
    /// Read wiki links in Markdown (``MarkdownReader/wikilinks``; `--wikilinks`). Note markup
    /// always reads them.
    package var wikilinks = false
    /// Read math (`$…$`, `$$…$$`, ```` ```math ````), `%%comments%%` and `==highlights==` in
    /// Markdown (``VaultSyntax``). Off here (cmark-gfm's reading, which the spec suites check);
    /// the command line turns it on except for `--fragment` without `--math`.
    package var vaultSyntax = false
    /// The MkDocs Markdown extensions Markdown is read with (``MarkdownReader/mkdocs``:
    /// `--markdown-extension`, a MkDocs project's `mkdocs.yml`); empty: cmark-gfm's reading.
    package var mkdocs: Set<MkDocsExtension> = []
    /// Markdown extensions other than the format's (``MarkdownReader/extensions``) and cmark's
    /// smart punctuation: no command-line option sets them; the cmark-gfm spec suites run
    /// through this loader with them (Tests/NotepressReaderTests/CmarkSpecTests.swift).
    var markdownExtensions: Set<GFMExtension>?
    /// `-M key=value` (pandoc's `--metadata`): applied after the front matter, so they win.
    package var metadataOverrides = MetadataOverrides()
    var smartPunctuation = false
    /// Highlight fenced code blocks that name a language (``CodeHighlighter``), block by block as
    /// they are read; off by default (``ConversionOptions/highlightsCode(in:)`` decides for a run).
    package var highlightCode = false
    /// Whether this run said already that the highlighting library is missing (once per run;
    /// shared by the copies of this loader).
    let unavailableHighlighting = CodeHighlighter.UnavailableWarning()
    /// Markdown past these bounds is refused with ``NotepressError/failed(file:position:message:)``
    /// at the line that crosses one (``InputLimits``: shapes libcmark-gfm 0.29 parses in more than
    /// linear time or memory, or whose output outgrows the input); nil lifts them
    /// (`--no-input-limits`).
    package var inputLimits: InputLimits? = .standard
    /// The name messages give a document read without a path: `<stdin>` (the command line reads
    /// standard input then); `nil` names no file (a string given to ``Notepress/parse(_:from:)``).
    var unnamedSource: String? = "<stdin>"
    /// The source line of each line of the text read (``MarkdownReader/lineMap``), set for one
    /// document whose text a pass before the parse changed (a site's mdBook directives).
    package var lineMap: [Int32]?

    package init(format: SourceFormat? = nil, keepMarkers: Bool = false, sourceDateEpoch: Date? = nil) {
        self.format = format
        self.keepMarkers = keepMarkers
        self.sourceDateEpoch = sourceDateEpoch
    }

    /// `SOURCE_DATE_EPOCH` from the environment (reproducible-builds.org spec): a decimal count of
    /// seconds since 1970-01-01 UTC; `nil` when unset or malformed.
    package static func sourceDateEpoch(from environment: [String: String]) -> Date? {
        guard let s = environment["SOURCE_DATE_EPOCH"], let n = Int64(s), n >= 0 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(n))
    }

    /// The file extensions Notepress reads (without the dot, lower case) and the syntax each
    /// implies: `.note`/`.txt` note markup; `.tid` TiddlyWiki files (``isTiddler(_:)``: note markup
    /// unless their `type:` says Markdown); `.md`, `.markdown`, `.mdown`, `.mkd` and ronn's `.ronn`
    /// GFM. ``format(forPath:)`` applies it; `notepress formats` lists it.
    package static let inputExtensions: [(extension: String, format: SourceFormat)] = [
        ("note", .note), ("txt", .note), ("tid", .note),
        ("md", .gfm), ("markdown", .gfm), ("mdown", .gfm), ("mkd", .gfm), ("ronn", .gfm),
    ]

    /// Whether `iconv(3)` knows the character encoding `name` (for `--encoding`; `iconv -l` lists
    /// the names, case is ignored).
    package static func isKnownEncoding(_ name: String) -> Bool {
        TextDecoding.isUTF8(name) || Platform.isKnownEncoding(name)
    }

    /// Whether text in the encoding `name` has NUL bytes of its own (UTF-16, UTF-32): a NUL byte
    /// then does not make a file binary (``InputSelection/nulBytesAreText``).
    package static func encodingHasNULBytes(_ name: String) -> Bool {
        TextDecoding.hasNULBytes(name)
    }

    /// Whether `path` names a TiddlyWiki file (`.tid`, case ignored): its `field: value` header is
    /// read as metadata (``TiddlerHeader``), and its `type:` field picks the body's syntax.
    package static func isTiddler(_ path: String) -> Bool {
        PathText.lastComponent(path).lowercased().hasSuffix(".tid")
    }

    /// The syntax a file name implies (``inputExtensions``, case ignored); `nil` for kinds
    /// Notepress does not read.
    package static func format(forPath path: String) -> SourceFormat? {
        let name = PathText.lastComponent(path)
        guard let dot = name.utf8.lastIndex(of: 0x2E), dot != name.utf8.startIndex else { return nil }
        let ext = name[name.utf8.index(after: dot)...].lowercased()
        return inputExtensions.first { $0.extension == ext }?.format
    }

    /// Reads a file. `topLevelBlock` sees each top-level block as soon as it is read (see
    /// ``MarkdownReader/parse(_:path:lineOffset:topLevelBlock:)``); it is not called when loading fails.
    /// - Throws: ``NotepressError`` naming the file (unreadable, a folder, bad bytes, bad front matter).
    /// With `retainBlocks` false (and a `topLevelBlock`), the blocks only go to the callback and
    /// the result's document has none: for a writer that renders blocks as they come.
    package func load(path: String, topLevelBlock: ((Block) -> Void)? = nil, retainBlocks: Bool = true) throws -> ReadResult {
        // The file's bytes are released as soon as they are text (one copy of the input less
        // while the document is built).
        let text: String = try {
            let bytes = try Self.read(path)
            return try bytes.withUnsafeBytes { try Self.text(of: $0, name: path, encoding: encoding) }
        }()
        return try load(text: text, path: path, modified: Self.modificationDate(path), topLevelBlock: topLevelBlock,
                        retainBlocks: retainBlocks)
    }

    /// The bytes of the file at `path`, read until end of file (``Platform/readFile(_:)``), so a
    /// FIFO, `/dev/stdin` or a process substitution (`<(…)`) reads like a regular file.
    /// - Throws: ``NotepressError/fileUnreadable(file:code:)`` ("no such file", "is a folder, not
    ///   a file", or "cannot be read: " and the system's reason).
    package static func read(_ path: String) throws -> [UInt8] {
        switch Platform.readFile(path) {
        case .success(let bytes): return bytes
        case .failure(let e): throw NotepressError.fileUnreadable(file: path, code: e.code)
        }
    }

    /// A file's modification time (`stat(2)`, nanoseconds kept), or `nil` when it cannot be read.
    package static func modificationDate(_ path: String) -> Date? {
        Platform.status(path).map { Date(timeIntervalSince1970: $0.modifiedSeconds) }
    }

    /// Reads bytes. `path` names the input in messages and metadata (`nil` for stdin);
    /// `modified` is the file time used when the front matter has no `created`.
    /// - Throws: ``NotepressError`` for invalid UTF-8, a NUL byte, or bad front matter.
    package func load(data: Data, path: String?, modified: Date?, topLevelBlock: ((Block) -> Void)? = nil,
                     retainBlocks: Bool = true) throws -> ReadResult {
        try load(text: Self.text(of: data, name: path ?? "<stdin>", encoding: encoding), path: path, modified: modified, topLevelBlock: topLevelBlock,
                 retainBlocks: retainBlocks)
    }

    /// Reads bytes (see ``load(data:path:modified:topLevelBlock:retainBlocks:)``).
    package func load(bytes: [UInt8], path: String?, modified: Date?) throws -> ReadResult {
        try load(text: bytes.withUnsafeBytes { try Self.text(of: $0, name: path ?? "<stdin>", encoding: encoding) }, path: path, modified: modified,
                 topLevelBlock: nil, retainBlocks: true)
    }

    /// The bytes as text, without a leading byte order mark: UTF-8, UTF-16 with a byte order
    /// mark, or `encoding` (``TextDecoding``).
    /// - Throws: ``NotepressError`` naming `name`, with line and column, for invalid UTF-8 (or
    ///   invalid text in the encoding) or a NUL byte.
    static func text(of data: Data, name: String, encoding: String? = nil) throws -> String {
        try data.withUnsafeBytes { try text(of: $0, name: name, encoding: encoding) }
    }

    /// ``text(of:name:encoding:)-(Data,_,_)`` of raw bytes.
    static func text(of raw: UnsafeRawBufferPointer, name: String, encoding: String? = nil) throws -> String {
        if let (source, bomLength) = TextDecoding.source(of: raw, declared: encoding) {
            return try TextDecoding.decode(raw, skipping: bomLength, from: source, name: name)
        }
        let all = raw.bindMemory(to: UInt8.self)
        let hasBOM = all.count >= 3 && all[0] == 0xEF && all[1] == 0xBB && all[2] == 0xBF
        let body = UnsafeBufferPointer(rebasing: all[(hasBOM ? 3 : 0)...])
        // Fast path: no NUL (memchr) and valid UTF-8 (the standard library's validator); only
        // a file that fails either is scanned again to say where.
        if all.isEmpty || memchr(all.baseAddress!, 0, all.count) == nil, let valid = Self.validUTF8(body) {
            return valid
        }
        if let problem = Self.checkBytes(Array(all), name: name) { throw problem }
        return String(decoding: body, as: UTF8.self)
    }

    /// Reads checked text (see ``load(data:path:modified:topLevelBlock:)``).
    func load(text: String, path: String?, modified: Date?, topLevelBlock: ((Block) -> Void)?, retainBlocks: Bool) throws -> ReadResult {
        let retainBlocks = retainBlocks || topLevelBlock == nil
        let name = path ?? unnamedSource
        var format = self.format ?? path.flatMap(Self.format(forPath:)) ?? .gfm
        // TiddlyWiki writes `[[label|target]]`; Obsidian and Foam `[[target|label]]`.
        let wikiLinkOrder: WikiLinkSyntax.Order = path.map(Self.isTiddler) == true ? .labelFirst : .targetFirst

        var frontMatter: FrontMatter?
        var body = text
        var lineOffset = 0
        var headerWarnings: [Diagnostic] = []
        do {
            if let path, Self.isTiddler(path) {
                // A TiddlyWiki file: its `field: value` header is the metadata; `type:` decides the
                // body's syntax, else -f, else note markup.
                let t = try TiddlerHeader.split(text, path: name)
                frontMatter = FrontMatter(title: t.header.title, created: t.header.created, tags: t.header.tags,
                                          fields: t.header.fields)
                (body, lineOffset, headerWarnings) = (t.body, t.bodyLineOffset, t.warnings)
                format = t.header.bodyFormat ?? self.format ?? .note
            } else {
                // In Markdown a leading `---` block that is not a YAML mapping stays Markdown (thematic
                // breaks); a mapping with a bad field is an error in both syntaxes.
                var invalid: FrontMatterError?
                (frontMatter, body, lineOffset) = try FrontMatter.split(text, path: name, markdown: format != .note) { invalid = $0 }
                headerWarnings += frontMatter?.warnings ?? []
                if let e = invalid {
                    headerWarnings.append(Diagnostic(.warning, e.message + "; the block is read as Markdown", file: name,
                                                     position: SourcePosition(line: e.line, column: e.column)))
                }
            }
        } catch let e as FrontMatterError {
            throw NotepressError.invalidFrontMatter(file: name ?? e.file, position: SourcePosition(line: e.line, column: e.column), message: e.message)
        }

        // --hashtags: each top-level block is tagged as it is read, so a writer fed block by block
        // (``topLevelBlock``) sees the tags too.
        // ronn input: its `<placeholders>` are emphasis in every format (``RonnPlaceholder``),
        // given the element names the source closes somewhere. Code highlighting likewise.
        let ronnClosed = path.map { $0.lowercased().hasSuffix(".ronn") } == true ? RonnPlaceholder.closedTagNames(in: body) : nil
        var findings = CodeHighlighter.Findings()
        let highlighter = highlightCode ? CodeHighlighter() : nil
        let transforms = hashtags || ronnClosed != nil || highlighter != nil
        var foundTags: [String] = []
        var tagged: [Block] = []
        let readerCallback: ((Block) -> Void)? = !transforms ? topLevelBlock : { [hashtags] block in
            var b = hashtags ? Hashtags.tag(block, into: &foundTags) : block
            if let ronnClosed { b = InlineRewriting.mapInlines(b, spanless: true) { RonnPlaceholder.rewrite($0, closed: ronnClosed) } }
            if let h = highlighter, let n = h.highlight(b, findings: &findings) { b = n }
            if retainBlocks { tagged.append(b) }
            topLevelBlock?(b)
        }
        let readerRetains = transforms ? false : retainBlocks

        var result: ReadResult
        var headingTitle: String?
        switch format {
        case .note:
            let blocks = NoteReader(keepMarkers: keepMarkers, wikiLinkOrder: wikiLinkOrder).parse(body, lineOffset: lineOffset, topLevelBlock: readerCallback,
                                                                    retainBlocks: readerRetains)
            result = ReadResult(document: Document(metadata: DocumentMetadata(sourceFormat: .note), blocks: blocks))
        case .gfm, .commonmark:
            var reader = MarkdownReader(format: format, extensions: markdownExtensions)
            reader.arena = cmarkArena
            reader.smart = smartPunctuation
            reader.wikilinks = wikilinks
            if vaultSyntax { reader.vaultSyntax = VaultSyntax.Features() }
            reader.limits = inputLimits
            reader.wikiLinkOrder = wikiLinkOrder
            reader.lineMap = lineMap
            reader.mkdocs = mkdocs
            // The first level-1 heading at the top level, seen as blocks go by (a streaming
            // writer keeps none).
            let first = FirstHeadingBox()
            let watch: ((Block) -> Void)? = frontMatter?.title != nil ? readerCallback : { block in
                if first.title == nil, case .heading(1, let content) = block.kind { first.title = content.titleText }
                readerCallback?(block)
            }
            result = reader.parse(body, path: name, lineOffset: lineOffset, topLevelBlock: watch, retainBlocks: readerRetains)
            if let v = result.refused {
                throw NotepressError.failed(file: name, position: SourcePosition(line: v.line, column: v.column), message: v.message)
            }
            headingTitle = first.title.map { $0.trimmingHorizontalWhitespace() }.flatMap { $0.isEmpty ? nil : $0 }
        }
        if transforms { result.document.blocks = tagged }
        result.diagnostics = headerWarnings + result.diagnostics
        if let e = findings.unavailable, unavailableHighlighting.claim() {
            result.diagnostics.append(Diagnostic(.warning, "code is not highlighted: \(e.reason)", file: name, position: nil))
        }
        result.notes = findings.unknown.map {
            Diagnostic(.warning, "code block language '\($0.language)' is not known to the highlighter; written as plain code",
                       file: name, position: $0.position)
        }
        result.document.metadata = metadata(result.document.metadata, path: path, format: format, frontMatter: frontMatter,
                                            headingTitle: headingTitle, modified: modified, foundTags: foundTags)
        return result
    }

    /// The metadata of a document read by ``load(text:path:modified:topLevelBlock:retainBlocks:)``:
    /// `base` (the reader's) with the source's path and format, the title (front matter, else the
    /// first level-1 heading, else the file's stem), the date (front matter, else the file's time
    /// in whole seconds, no later than `SOURCE_DATE_EPOCH`), tags, fields and collections, and
    /// the metadata overrides applied.
    func metadata(_ base: DocumentMetadata, path: String?, format: SourceFormat, frontMatter: FrontMatter?,
                  headingTitle: String?, modified: Date?, foundTags: [String]) -> DocumentMetadata {
        var meta = base
        meta.sourcePath = path
        meta.sourceFormat = format
        // Title: front matter, else (Markdown) the first level-1 heading, else the file's stem.
        if let t = frontMatter?.title {
            meta.title = t
            meta.titleSource = .frontMatter
        } else if let t = headingTitle {
            meta.title = t
            meta.titleSource = .firstHeading
        } else {
            meta.title = path.map { (($0 as NSString).lastPathComponent as NSString).deletingPathExtension }
            meta.titleSource = .fileName
        }
        if let c = frontMatter?.created {
            meta.created = c
        } else if let m = modified {
            // A file time counts in whole seconds (as SOURCE_DATE_EPOCH does): no sub-second
            // noise in outputs; a typed `created` keeps its fraction.
            let whole = Date(timeIntervalSince1970: m.timeIntervalSince1970.rounded(.down))
            meta.created = sourceDateEpoch.map { min($0, whole) } ?? whole
        } else {
            meta.created = sourceDateEpoch
        }
        meta.tags = hashtags ? Hashtags.merge(frontMatter?.tags ?? [], foundTags) : frontMatter?.tags ?? []
        meta.fields = frontMatter?.fields ?? [:]
        meta.collections = frontMatter?.collections ?? [:]
        metadataOverrides.apply(to: &meta)
        return meta
    }

    /// The first level-1 heading's text, filled by the reader's block callback.
    final class FirstHeadingBox {
        var title: String?
    }

    /// `bytes` as a `String` when they are valid UTF-8, else `nil`.
    static func validUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        if #available(macOS 15, *) { return String(validating: bytes, as: UTF8.self) }
        return checkBytes(Array(bytes)) == nil ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// The first problem that stops the file `name` from being read as text: invalid UTF-8
    /// (``NotepressError/invalidUTF8(file:position:byte:)``) or a NUL byte
    /// (``NotepressError/nulByte(file:position:)``), with its line and column (columns in bytes,
    /// 1-based); `nil` when there is none.
    static func checkBytes(_ bytes: [UInt8], name: String = "") -> NotepressError? {
        var line = 1, lineStart = 0
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x80 {
                if b == 0 {
                    return .nulByte(file: name, position: SourcePosition(line: line, column: i - lineStart + 1))
                }
                if b == 0x0A { line += 1; lineStart = i + 1 }
                i += 1
                continue
            }
            var len = 0
            var minValue: UInt32 = 0
            var value: UInt32 = 0
            if b & 0xE0 == 0xC0 { len = 2; minValue = 0x80; value = UInt32(b & 0x1F) }
            else if b & 0xF0 == 0xE0 { len = 3; minValue = 0x800; value = UInt32(b & 0x0F) }
            else if b & 0xF8 == 0xF0 { len = 4; minValue = 0x10000; value = UInt32(b & 0x07) }
            var ok = len > 0 && i + len <= n
            if ok {
                for k in 1..<len {
                    let c = bytes[i + k]
                    if c & 0xC0 != 0x80 { ok = false; break }
                    value = value << 6 | UInt32(c & 0x3F)
                }
            }
            if ok && (value < minValue || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) { ok = false }
            if !ok {
                return .invalidUTF8(file: name, position: SourcePosition(line: line, column: i - lineStart + 1), byte: b)
            }
            i += len
        }
        return nil
    }
}
