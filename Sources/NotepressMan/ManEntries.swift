import NotepressAST

/// Tagged entries, `.TP` (groff_man(7) "TP"): options, commands, environment variables and
/// exit statuses, however the page's author wrote them (see ``ManEmitter``).
extension ManRenderer {

    /// What the first line of a paragraph or a heading is as the tag of an entry.
    enum TermLine {
        /// An option: its first run is bold or code and starts with `-` (go-md2man's
        /// `**--flag**`, `` `-1`, `--oneline` ``).
        case option
        /// Another term: bold or code first (`` `SAMPLE_TOOL_COLOR` ``, `**0**`, `**checkpoint**`).
        case term
    }

    /// Longest tag line, in runs, looked at: a term is a few words.
    static let maxTermRuns = 64

    /// Whether the one-line `c` is a tag, and which. An option: its first run is bold or code
    /// text starting with `-`, and every other text run is bold, code or italic
    /// (`**-o**, **--output**=*FILE*`), a placeholder, or punctuation between them (`, `, `|`,
    /// `=`, `[`, `]`, `...`). Another term: bold or code words without spaces, separated by
    /// punctuation only (`` `SAMPLE_TOOL_COLOR` ``, `**help**, **h**`): a bold line of prose
    /// (`**Website: https://…**`) or a synopsis line is no term. `nil` when it is neither.
    func termLine(_ c: Inlines) -> TermLine? {
        guard let first = c.runs.first, case .text(let t) = first.content, c.runs.count <= Self.maxTermRuns,
              !t.trimmingHorizontalWhitespace().isEmpty else { return nil }
        let firstAttributes = c.attributes(ofRun: 0)
        guard firstAttributes.strong || firstAttributes.code else { return nil }
        let option = t.hasPrefix("-")
        let table = InlineAttributeTable(c)
        for (k, run) in c.runs.enumerated() {
            switch run.content {
            case .text(let text):
                let a = table[run: run].attributes
                if option && (a.strong || a.code || a.emphasis) { continue }
                if !option && (a.strong || a.code) && !a.emphasis {
                    if text.contains(" ") && text.trimmingHorizontalWhitespace().contains(" ") { return nil }
                    continue
                }
                if k == 0 || !text.allSatisfy({ " ,|=[]{}().:/".contains($0) }) { return nil }
            case .rawHTML: if !option { return nil }
            case .softBreak, .hardBreak, .footnoteReference: return nil
            }
        }
        return option ? .option : .term
    }

    /// The index of the first line break of `c`, if any.
    static func firstBreak(_ c: Inlines) -> Int? {
        c.runs.firstIndex { $0.content == .softBreak || $0.content == .hardBreak }
    }

    /// Whether `c` (the lines after a term) starts with a pandoc definition marker, `: `.
    static func startsWithDefinitionMarker(_ c: Inlines) -> Bool {
        guard case .text(let t)? = c.runs.first?.content else { return false }
        return t.hasPrefix(": ") || t == ":"
    }

    /// `c` split into its `: ` definitions (pandoc's definition lists; go-md2man writes several
    /// under one term): a new definition starts at each line that begins with `: `; the marker and
    /// the blanks after it are removed. `c` starts with a marker.
    static func definitions(_ c: Inlines) -> [Inlines] {
        var result: [Inlines] = []
        var start = 0
        func add(_ end: Int) {
            var d = c.subrange(start..<end)
            if case .text(let t)? = d.runs.first?.content, t.hasPrefix(":") {
                d.runs[0].content = .text(String(t.dropFirst().drop { $0 == " " || $0 == "\t" }))
            }
            result.append(d)
        }
        var i = 0
        while i < c.runs.count {
            if i > start, c.runs[i].content == .softBreak || c.runs[i].content == .hardBreak, i + 1 < c.runs.count,
               startsWithDefinitionMarker(c.subrange((i + 1)..<(i + 2))) {
                add(i)
                start = i + 1
            }
            i += 1
        }
        add(c.runs.count)
        return result
    }

    /// Whether `b` starts an entry of its own (which ends the body of an option before it): a
    /// paragraph whose first line is an option or a term with lines after it, or a term with
    /// `: ` definitions, or a one-line option.
    func startsEntry(_ b: Block) -> Bool {
        guard case .paragraph(let c) = b.kind else { return false }
        guard let br = Self.firstBreak(c) else { return termLine(c) == .option }
        return Self.startsWithDefinitionMarker(c.subrange((br + 1)..<c.runs.count))
            || (c.runs[br].content == .softBreak && termLine(c.subrange(0..<br)) != nil)
    }

    /// The blocks of `bs` from `start` that belong to the body of an entry: up to the next
    /// heading, or (`untilEntry`) the next block that starts an entry.
    func entryBody(_ bs: [Block], from start: Int, untilEntry: Bool) -> Int {
        var j = start
        while j < bs.count {
            if case .heading = bs[j].kind { break }
            if untilEntry && startsEntry(bs[j]) { break }
            j += 1
        }
        return j
    }

    /// When `bs[i]` starts an entry, writes it (with its body) and returns the index of the block
    /// after it; else `nil`. Entries:
    /// - a term line followed by `: ` lines (pandoc, go-md2man; runc's COMMANDS): each `: ` line
    ///   and each following paragraph that starts with `: ` is a definition of its own;
    /// - an option or term line followed by more lines (`**-h**, **--help**` / `   Print …`;
    ///   ENVIRONMENT and EXIT STATUS entries);
    /// - a one-line option paragraph followed by its description (skopeo);
    /// - a heading below the section headings whose text is an option, or below the
    ///   subsection headings whose text is a term (`#### **--cdi-spec-dir**=*path*`,
    ///   `#### **CONTAINERS_CONF**`, podman), the body running to the next heading.
    /// An option's body runs on to the next entry or heading (skopeo's `--authfile` has several
    /// paragraphs). Note markup has no entries: its bold lines are headlines; nor has the
    /// SYNOPSIS (its lines are commands).
    mutating func entry(_ bs: [Block], at i: Int) -> Int? {
        guard !inNameSection, !isNote, !w.minusEverywhere else { return nil }
        switch bs[i].kind {
        case .paragraph(let c):
            if let br = Self.firstBreak(c) {
                let first = c.subrange(0..<br)
                let rest = c.subrange((br + 1)..<c.runs.count)
                if Self.startsWithDefinitionMarker(rest) {
                    let defs = Self.definitions(rest)
                    var more = defs.dropFirst().map { Block(.paragraph($0)) }
                    var j = i + 1
                    while j < bs.count {
                        if case .paragraph(let next) = bs[j].kind, Self.startsWithDefinitionMarker(next) {
                            more += Self.definitions(next).map { Block(.paragraph($0)) }
                        } else if let continued = definitionContinuation(bs[j]) {
                            more += continued
                        } else {
                            break
                        }
                        j += 1
                    }
                    writeEntry(tag: first, definitions: Array(defs.prefix(1)), rest: more)
                    return j
                }
                // A hard break ends a line of a list of lines (`**Website:** `url` \`), not a tag.
                guard c.runs[br].content == .softBreak, let kind = termLine(first), !rest.isEmpty else { return nil }
                let end = kind == .option ? entryBody(bs, from: i + 1, untilEntry: true) : i + 1
                writeEntry(tag: first, definitions: [rest], rest: Array(bs[(i + 1)..<end]))
                return end
            }
            guard termLine(c) == .option, i + 1 < bs.count, !startsEntry(bs[i + 1]) else { return nil }
            if case .heading = bs[i + 1].kind { return nil }
            let end = entryBody(bs, from: i + 1, untilEntry: true)
            var body = Array(bs[(i + 1)..<end])
            var defs: [Inlines] = []
            if case .paragraph(let d)? = body.first?.kind {
                defs = [d]
                body.removeFirst()
            }
            writeEntry(tag: c, definitions: defs, rest: body)
            return end
        case .heading(let level, let c):
            // Options at any level below the sections; other terms only below the subsections
            // (a `## `COLUMNS`` subsection stays `.SS`, as the author chose).
            guard level > shLevel, containerDepth == 0, !isIndentedRonnHeading(bs[i]), let kind = termLine(c),
                  kind == .option || level > shLevel + 1 else { return nil }
            inNameSection = false
            let end = entryBody(bs, from: i + 1, untilEntry: false)
            var body = Array(bs[(i + 1)..<end])
            var defs: [Inlines] = []
            if case .paragraph(let d)? = body.first?.kind {
                defs = [d]
                body.removeFirst()
            }
            writeEntry(tag: c, definitions: defs, rest: body)
            return end
        default:
            return nil
        }
    }

    /// The blocks of a definition's further paragraph, when `b` is one: go-md2man (blackfriday's
    /// definition lists) and pandoc read a block indented four columns under a `: ` definition
    /// as part of it, where CommonMark sees an indented code block (top level, content at column
    /// 5 or more; a fenced block starts at column 4 at most). Its text is read as Markdown again
    /// (``ManEmitter/readMarkdown``), so text indented eight columns stays code. `nil` otherwise.
    func definitionContinuation(_ b: Block) -> [Block]? {
        guard containerDepth == 0, case .codeBlock(let info, let literal) = b.kind, info.isEmpty,
              let column = b.position?.column, column >= 5 else { return nil }
        if let readMarkdown { return readMarkdown(literal) }
        return literal.components(separatedBy: "\n\n").map { $0.trimmingCharacters(in: .newlines) }.filter { !$0.isEmpty }
            .map { Block(.paragraph(Inlines([InlineRun(.text($0.replacingOccurrences(of: "\n", with: " ")))]))) }
    }

    /// `.TP`, the tag line, the first definition; further definitions and `rest` inside
    /// `.RS`/`.RE`, so they stay indented under the tag.
    mutating func writeEntry(tag t: Inlines, definitions: [Inlines], rest: [Block]) {
        w.macro("TP")
        tag(t)
        if let first = definitions.first { flow(first) }
        let more = definitions.dropFirst().map { Block(.paragraph($0)) } + rest
        guard !more.isEmpty else { return }
        w.macro("RS")
        containerDepth += 1
        blocks(more)
        containerDepth -= 1
        w.macro("RE")
    }
}
