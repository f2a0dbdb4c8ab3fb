import Foundation
import NotepressAST

/// The fields of a man page's `.TH` title line (man(7) "TH"; groff_man(7)):
/// `.TH name section [date [source [manual]]]`.
package struct ManTitle: Sendable, Equatable {
    /// The page's name as written (the `.TH` line upper-cases it, as man-pages(7) asks).
    package var name: String
    /// The manual section: `1`, `8`, `3p`…
    package var section: String
    /// The date, `YYYY-MM-DD` when it could be normalised, else verbatim; `""` when unknown.
    package var date: String
    /// The source: project and version (`exa v0.9.0`, `GNU coreutils 9.1`).
    package var source: String
    /// The manual's title (`User Commands`).
    package var manual: String
    /// A ronn-style one-line description (`name(1) -- description`) or front matter's
    /// `description`, used to synthesise NAME.
    package var description: String?
    /// Whether ``name`` is a default (the document's title or the file name's stem) rather
    /// than a title line's: such a name is no command's, and may be shortened for the header
    /// line (``ManTitleResolver/headerName(_:note:)``).
    package var nameIsDefault = false

    package init(name: String, section: String = "1", date: String = "", source: String = "", manual: String = "",
                description: String? = nil) {
        self.name = name
        self.section = section
        self.date = date
        self.source = source
        self.manual = manual
        self.description = description
    }
}

/// Finds a man page's title in a document and removes the title block from the body.
///
/// Conventions recognised, in this order (the first that matches supplies the title block):
/// 1. pandoc's title block (pandoc manual, "Metadata blocks"): a first paragraph of `%` lines,
///    `% title` / `% author(s)` / `% date`. When the title has the form `name(section) extra` or
///    `name section extra` (go-md2man, `% exa(1) v0.9.0`, `% podman 1`, `% runc "8"`), name,
///    section and source (`extra`) are taken from it.
/// 2. ronn's heading (ronn-format(7)): a first level-1 heading `name(section) -- description`.
/// 3. go-md2man's title heading: a first level-1 heading of `.TH`-like words,
///    `name section "date" source "manual"` (go-md2man's own go-md2man.1.md).
/// 4. A first level-1 heading that is only `name(section)` (`# ls(1)`, `# x(8) --`).
/// Then front-matter fields (`metadata.fields` `section`, `date`, `source`, `manual`, and
/// `description`, the NAME line's description as ronn's heading gives it) override,
/// and anything still missing gets a default (name: `metadata.title`, else the source file's
/// stem; section: a `.N` suffix of that stem, else `1`; date: `metadata.created` as `YYYY-MM-DD`,
/// else empty) with a warning.
package enum ManTitleResolver {
    /// - Returns: the title, the body without the title block, and warnings.
    package static func resolve(_ document: Document, defaultSection: String? = nil) -> (title: ManTitle, body: [Block], diagnostics: [Diagnostic]) {
        var blocks = document.blocks
        var name: String?
        var section: String?
        var date: String?
        var source: String?
        var manual: String?
        var description: String?
        var nameIsDefault = false
        var diagnostics: [Diagnostic] = []
        let file = document.metadata.sourcePath

        if let first = blocks.first {
            switch first.kind {
            case .paragraph(let c) where c.plainText.hasPrefix("%"):
                let lines = percentLines(c)
                blocks.removeFirst()
                if let t = lines.first {
                    let parsed = parseNameSection(t)
                    name = parsed.name
                    section = parsed.section
                    if let rest = parsed.rest, !rest.isEmpty { source = rest }
                }
                if lines.count >= 3, !lines[2].isEmpty { date = lines[2] }
            case .heading(1, let c):
                let text = c.plainText.trimmingHorizontalWhitespace()
                if let r = parseRonn(text) {
                    name = r.name; section = r.section; description = r.description
                    blocks.removeFirst()
                } else if let g = parseTHWords(text) {
                    name = g.name; section = g.section
                    date = g.date; source = g.source; manual = g.manual
                    blocks.removeFirst()
                } else if let p = parseBareTitle(text) {
                    name = p.name; section = p.section
                    blocks.removeFirst()
                }
            default:
                break
            }
        }
        let f = document.metadata.fields
        // pandoc's man template: `.TH "$title$" "$section$" "$date$" "$footer$" "$header$"`;
        // Notepress's own `source` and `manual` win over them.
        if let v = f["footer"], !v.isEmpty { source = v }
        if let v = f["header"], !v.isEmpty { manual = v }
        if let v = f["section"], !v.isEmpty { section = v }
        if let v = f["date"], !v.isEmpty { date = v }
        if let v = f["source"], !v.isEmpty { source = v }
        if let v = f["manual"], !v.isEmpty { manual = v }
        if let v = f["description"], !v.isEmpty { description = v }

        if name == nil || name!.isEmpty {
            name = defaultName(document, file: file, section: &section, diagnostics: &diagnostics)
            nameIsDefault = true
        }
        // The input file name's section (`x.8.md` → 8) when the document names none: the
        // section links to the page show (``pageReference(path:fields:)``).
        if section == nil || section!.isEmpty, let file {
            let s = stem(file)
            if let dot = s.lastIndex(of: "."), isSection(String(s[s.index(after: dot)...])) { section = String(s[s.index(after: dot)...]) }
        }
        // The output file's extension (`-o page.8`) when neither names a section.
        if section == nil || section!.isEmpty, let d = defaultSection, !d.isEmpty { section = d }
        if document.metadata.sourceFormat == .note {
            // A note is no command: section 7 (miscellaneous) in a "Notes" manual, unless its
            // front matter says otherwise.
            if section == nil || section!.isEmpty { section = "7" }
            if manual == nil || manual!.isEmpty { manual = "Notes" }
        }
        if section == nil || section!.isEmpty {
            section = "1"
            diagnostics.append(Diagnostic(.warning, "man: no manual section given; using 1", file: file))
        }
        if date == nil || date!.isEmpty {
            if let c = document.metadata.created {
                date = isoDate(c)
            } else {
                date = ""
                diagnostics.append(Diagnostic(.warning, "man: no date (front matter `date` or `created`); the .TH date is empty", file: file))
            }
        }
        let normalDate = normaliseDate(date!)
        var title = ManTitle(name: name!, section: section!, date: normalDate, source: source ?? "",
                             manual: manual ?? "", description: description)
        title.nameIsDefault = nameIsDefault
        return (title, blocks, diagnostics)
    }

    /// The page name of ``resolve(_:defaultSection:)`` when the document gives none: the
    /// front-matter title, else the file's stem (without a `.SECTION` suffix, which becomes the
    /// section when none is set yet; warned), else `UNTITLED` (warned).
    static func defaultName(_ document: Document, file: String?, section: inout String?, diagnostics: inout [Diagnostic]) -> String {
        let fileStem = file.map(Self.stem)
        // A title taken from the first heading is not a page name: the file's stem is.
        let stem = document.metadata.titleSource == .firstHeading ? fileStem : (document.metadata.title ?? fileStem)
        if var s = stem, !s.isEmpty {
            if let dot = s.lastIndex(of: "."), isSection(String(s[s.index(after: dot)...])) {
                if section == nil { section = String(s[s.index(after: dot)...]) }
                s = String(s[..<dot])
            }
            // A front-matter title is not a default; the file's stem is.
            if stem == fileStem { diagnostics.append(Diagnostic(.warning, "man: no title line; page name '\(s)' taken from the file name", file: file)) }
            return s
        } else {
            diagnostics.append(Diagnostic(.warning, "man: no title line and no file name; page named UNTITLED", file: file))
            return "UNTITLED"
        }
    }

    /// How a link from another page names the page at `path` (`name(section)`, man-pages(7)
    /// "SEE ALSO"), from its file name and front matter only, as ``resolve(_:)`` defaults them:
    /// the file name without its extension and without a trailing `.SECTION` (`podman-run.1.md`
    /// → `podman-run`); the section from front matter `section`, else that suffix, else `1`.
    package static func pageReference(path: String, fields: [String: String]) -> (name: String, section: String) {
        var name = stem(path)
        var section: String?
        if let dot = name.lastIndex(of: "."), isSection(String(name[name.index(after: dot)...])) {
            section = String(name[name.index(after: dot)...])
            name = String(name[..<dot])
        }
        if let s = fields["section"], !s.isEmpty { section = s }
        return (name, section ?? "1")
    }

    /// The name and section a folder run installs the page at `path` under (`NAME.SECTION`, as
    /// `man` looks pages up: `buildah-add.1`): the title block's (``resolve(_:defaultSection:)``'s
    /// conventions 1–4, read from `document`'s first block), else the file name's `.SECTION` suffix
    /// (`buildah-add.1.md`) or the file's stem with front matter `section`, which overrides the
    /// section; a note (note markup) is `STEM.7` by default. `nil` when the page has no man title at all (no title block, no section in its
    /// file name or front matter: a `README.md`), which a folder run reports instead of writing.
    package static func installedName(_ document: Document, path: String) -> (name: String, section: String)? {
        var name: String?
        var section: String?
        if let first = document.blocks.first {
            switch first.kind {
            case .paragraph(let c) where c.plainText.hasPrefix("%"):
                if let t = percentLines(c).first {
                    let parsed = parseNameSection(t)
                    name = parsed.name
                    section = parsed.section
                }
            case .heading(1, let c):
                let text = c.plainText.trimmingHorizontalWhitespace()
                if let r = parseRonn(text) { name = r.name; section = r.section }
                else if let g = parseTHWords(text) { name = g.name; section = g.section }
                else if let p = parseBareTitle(text) { name = p.name; section = p.section }
            default: break
            }
        }
        let file = pageReference(path: path, fields: [:])
        let fileHasSection = file.name != stem(path)
        let fieldSection = document.metadata.fields["section"].flatMap { $0.isEmpty ? nil : $0 }
        // A note is a page of section 7 (``resolve(_:defaultSection:)``).
        let isNote = document.metadata.sourceFormat == .note
        if name == nil || name!.isEmpty {
            guard fileHasSection || fieldSection != nil || isNote else { return nil }
            name = file.name
        }
        if let s = fieldSection { section = s }
        if (section == nil || section!.isEmpty) && !fileHasSection && isNote { section = "7" }
        if section == nil || section!.isEmpty { section = fileHasSection ? file.section : "1" }
        return (name!, section!)
    }

    /// A path's file name without its extension (`a/b.1.md` → `b.1`; `.md` stays `.md`), as
    /// `NSString`'s `lastPathComponent` and `deletingPathExtension` give it, without Foundation.
    static func stem(_ path: String) -> String {
        var p = Substring(path)
        while p.count > 1, p.hasSuffix("/") { p = p.dropLast() }
        let name = p.lastIndex(of: "/").map { p[p.index(after: $0)...] } ?? p
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return String(name) }
        return String(name[..<dot])
    }

    /// The text of each `%` line of a pandoc title block, without the `%` and surrounding spaces.
    static func percentLines(_ c: Inlines) -> [String] {
        var lines: [String] = []
        var current = ""
        for run in c.runs {
            switch run.content {
            case .text(let t): current += t
            case .softBreak, .hardBreak: lines.append(current); current = ""
            case .footnoteReference(_, let n, _): current += "[\(n)]"
            case .rawHTML(let h): current += h
            }
        }
        lines.append(current)
        return lines.map { l in
            var s = Substring(l)
            if s.hasPrefix("%") { s = s.dropFirst() }
            return s.trimmingHorizontalWhitespace()
        }
    }

    /// Columns of the header line man(1) draws (groff and mandoc at 80 columns: 78).
    static let headerColumns = 78

    /// The name for `.TH` of a note's page (a note's title is a sentence, not a command name)
    /// or of a page named by default (``ManTitle/nameIsDefault``: a long Markdown file name,
    /// `getting-started-with-the-cluster-api.md`, is no command's either), shortened so that the header line (`NAME(7)`, the manual centred, `NAME(7)`) fits in
    /// ``headerColumns`` without the three colliding: cut at the last space that leaves room for
    /// `...` (else inside the word). `shortened` says whether it was cut. Other pages keep their
    /// name: it is the command's.
    package static func headerName(_ title: ManTitle, note: Bool) -> (name: String, shortened: Bool) {
        guard note || title.nameIsDefault else { return (title.name, false) }
        // Without a manual, groff and mandoc fill in the section's (``defaultManualColumns``).
        let manual = title.manual.isEmpty ? defaultManualColumns(title.section) : title.manual.count
        // The footer centres the date (10 columns) under the same right-hand `NAME(7)`; a blank
        // at least between each side and the centre.
        let room = (headerColumns - max(manual, 10) - 2) / 2 - (title.section.count + 2)
        let name = title.name
        // Columns: CJK characters take two (``isCJK``), others one.
        func columns<S: StringProtocol>(_ s: S) -> Int { s.reduce(0) { $0 + ($1.unicodeScalars.contains(where: isCJK) ? 2 : 1) } }
        guard columns(name) > room, room > 3 else { return (name, false) }
        let limit = room - 3
        var cut = name.prefix(0)
        var used = 0
        for ch in name {
            used += columns(String(ch))
            if used > limit { break }
            cut = name[..<name.index(after: cut.endIndex)]
        }
        // Within a word: back to its start, unless that leaves less than half.
        if name[cut.endIndex] != " ", let space = cut.lastIndex(of: " "), columns(cut[..<space]) >= limit / 2 {
            cut = cut[..<space]
        }
        while cut.last == " " || cut.last == "," || cut.last == ":" || cut.last == ";" { cut = cut.dropLast() }
        return (cut + "...", true)
    }

    /// Columns of the manual's name groff (an.tmac) and mandoc fill in for a page of `section`
    /// without one, the longer of the two: "General Commands Manual" (1), "System Calls Manual"
    /// (2), "Library Functions Manual" (3), "Kernel Interfaces Manual" / "Device Drivers Manual"
    /// (4), "File Formats Manual" (5), "Games Manual" (6), "Miscellaneous Information Manual"
    /// (7), "System Manager's Manual" (8), "Kernel Developer's Manual" (9); 32 for others.
    static func defaultManualColumns(_ section: String) -> Int {
        switch section.first {
        case "1": return 23
        case "2": return 19
        case "3", "4": return 24
        case "5": return 19
        case "6": return 12
        case "8": return 23
        case "9": return 25
        default: return 32
        }
    }

    /// `name(section) rest`, `name section rest`, `name "section" rest` or just `name`.
    static func parseNameSection(_ t: String) -> (name: String, section: String?, rest: String?) {
        let s = t.trimmingHorizontalWhitespace()
        if let open = s.firstIndex(of: "("), let close = s[open...].firstIndex(of: ")"),
           !s[..<open].contains(" "), isSection(String(s[s.index(after: open)..<close])) {
            let rest = s[s.index(after: close)...].trimmingHorizontalWhitespace()
            return (String(s[..<open]), String(s[s.index(after: open)..<close]), rest)
        }
        var words = splitWords(s)
        guard !words.isEmpty else { return (s, nil, nil) }
        let name = words.removeFirst()
        if let sec = words.first, isSection(sec) {
            words.removeFirst()
            return (name, sec, words.joined(separator: " "))
        }
        return (name, nil, words.joined(separator: " "))
    }

    /// ronn: `name(section) -- description` (also with `—` or a single `-`).
    static func parseRonn(_ t: String) -> (name: String, section: String, description: String)? {
        for sep in [" -- ", " \u{2014} ", " - "] {
            guard let r = t.range(of: sep) else { continue }
            let head = String(t[..<r.lowerBound]).trimmingHorizontalWhitespace()
            let p = parseNameSection(head)
            guard let sec = p.section, p.rest?.isEmpty ?? true, !p.name.isEmpty else { continue }
            return (p.name, sec, String(t[r.upperBound...]).trimmingHorizontalWhitespace())
        }
        return nil
    }

    /// A heading that is only `name(section)`, perhaps with an empty ronn description
    /// (`# ls(1)`, `# x(8) --`): a page title, as in the README's list of title shapes.
    static func parseBareTitle(_ t: String) -> (name: String, section: String)? {
        var head = t
        for dash in ["--", "\u{2014}", "-"] where head.hasSuffix(" " + dash) {
            head = String(head.dropLast(dash.count + 1)).trimmingHorizontalWhitespace()
            break
        }
        let p = parseNameSection(head)
        guard let sec = p.section, p.rest?.isEmpty ?? true, !p.name.isEmpty, head.contains("(") else { return nil }
        return (p.name, sec)
    }

    /// go-md2man's title heading: `name section ["date" [source ["manual"]]]`, with quotes.
    /// A heading of more than two words is such a title only when it quotes one (`"January 2015"`,
    /// as `.TH` arguments are written): `# Chapter 1 overview` is an ordinary heading.
    static func parseTHWords(_ t: String) -> (name: String, section: String, date: String?, source: String?, manual: String?)? {
        let w = splitWords(t)
        guard w.count >= 2, isSection(w[1]), w.count == 2 || t.contains("\"") else { return nil }
        return (w[0], w[1], w.count > 2 ? w[2] : nil, w.count > 3 ? w[3] : nil, w.count > 4 ? w[4] : nil)
    }

    /// Splits on spaces, keeping "double-quoted strings" together (without their quotes).
    static func splitWords(_ s: String) -> [String] {
        var words: [String] = []
        var cur = ""
        var inQuote = false
        var had = false
        for ch in s {
            if ch == "\"" { inQuote.toggle(); had = true; continue }
            if ch == " " && !inQuote {
                if had || !cur.isEmpty { words.append(cur) }
                cur = ""; had = false
                continue
            }
            cur.append(ch)
        }
        if had || !cur.isEmpty { words.append(cur) }
        return words
    }

    /// A manual section: a digit 1–9 optionally followed by ASCII letters (`3p`, `1ssl`), or `n`
    /// or `l` alone (Tcl's sections). `notes`, `not` and `(404)` are no sections: this is the one
    /// rule that decides whether a title names a page (`name(section)`, `name section`).
    static func isSection(_ s: String) -> Bool {
        if s == "n" || s == "l" { return true }
        guard let f = s.first, "123456789".contains(f), s.count <= 6 else { return false }
        return s.dropFirst().allSatisfy { $0.isASCII && $0.isLetter }
    }

    /// `YYYY-MM-DD` of `d` in UTC (``CivilDateTime``, proleptic Gregorian).
    static func isoDate(_ d: Date) -> String { CivilDateTime(d).isoDate }

    /// The `.TH` date: an ISO 8601 timestamp (`2020-02-03T10:00:00Z`) keeps its date part, the
    /// form mandoc(1) reads; a date written as text (`January 2015`, `3 May 2024`) is kept as
    /// the author wrote it, as go-md2man and pandoc print it (groff prints any text; mandoc's
    /// lint notes "cannot parse date, using it verbatim" and prints it as written too).
    static func normaliseDate(_ s: String) -> String {
        let t = s.trimmingHorizontalWhitespace()
        if t.count >= 10 {
            let p = Array(t.prefix(10))
            let digits = [0, 1, 2, 3, 5, 6, 8, 9].allSatisfy { p[$0].isASCII && p[$0].isNumber }
            if digits && p[4] == "-" && p[7] == "-" { return String(p) }
        }
        return t
    }
}
