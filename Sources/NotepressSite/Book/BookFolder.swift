import Foundation
import Notepress
import NotepressPlatform

/// An mdBook book (mdBook's guide, "Configuration"): the folder that holds `book.toml`, its
/// source folder (`[book] src`, default `src`) and its title (`[book] title`).
///
/// A folder run on a book builds as `mdbook build` would: the pages are the source folder's,
/// `[book] title` is the site title unless `--site-title` is given, and chapters' directives
/// (``BookDirectives``) may reach any file inside ``root``. Found by ``find(_:)``:
/// - the input folder holds `book.toml`: the book is that folder;
/// - the input folder is a book's source folder (its parent holds a `book.toml` whose `src`
///   names it): the book is the parent, so `{{#include ../listings/x.rs}}` still reaches;
/// - the input folder holds `SUMMARY.md` and no `book.toml` anywhere above: the book's root is
///   the input folder itself (directives work; no title).
package struct BookFolder: Sendable, Equatable {
    /// The folder with `book.toml` (else the input folder), as the command line reached it.
    package var root: String
    /// ``root`` with symbolic links resolved: no directive reaches outside it.
    package var rootReal: String
    /// The folder whose pages make the site (`[book] src`).
    package var source: String
    /// `[book] title`, when given.
    package var title: String?
    /// The `book.toml` read, when there is one (a dependency of every page).
    package var configFile: String?
    /// Problems reading `book.toml` (`file:line:column: warning: …`), for the caller to print.
    package var warnings: [String] = []
    /// Which directives pages hold (``BookDirectives/Syntax``): mdBook's, or (an MkDocs project,
    /// ``MkDocsFolder``) `pymdownx.snippets`' when turned on, else none.
    package var directives: BookDirectives.Syntax? = .mdBook
    /// MkDocs' `nav:` (``MkDocsFolder``): the sidebar's order; `nil`: none given.
    package var nav: [SiteSummaryEntry]?
    /// Where a page's source is edited (``ConversionOptions/editURL``: `{path}` is the page's path
    /// below the source folder): `[output.html] edit-url-template` with mdBook's `{path}` (the
    /// path from the book's root, `SRC/chapter.md`) made so; MkDocs' `repo_url` + `edit_uri`
    /// (``MkDocsFolder/editURL``).
    package var editURL: String?
    /// MkDocs' `extra_css` and `extra_javascript`: paths below the site's root (or URLs) every
    /// HTML page links, after the site's own stylesheet and script.
    package var extraStylesheets: [String] = []
    package var extraScripts: [String] = []

    /// The book `input` is (see the type's rules), or `nil` for any other input.
    package static func find(_ input: String) -> BookFolder? {
        guard Platform.status(input)?.kind == .directory else { return nil }
        let own = PathText.join(input, "book.toml")
        if Platform.status(own)?.kind == .regular { return book(root: input, config: own) }
        let parent = PathText.deletingLastComponent(InputScanner.realPath(input))
        let parentConfig = PathText.join(parent, "book.toml")
        if !parent.isEmpty, Platform.status(parentConfig)?.kind == .regular,
           var b = book(root: parent, config: parentConfig),
           InputScanner.realPath(b.source) == InputScanner.realPath(input) {
            b.source = input
            return b
        }
        if Platform.status(PathText.join(input, "SUMMARY.md"))?.kind == .regular {
            return BookFolder(root: input, rootReal: InputScanner.realPath(input), source: input)
        }
        return nil
    }

    /// The book whose `book.toml` is `config` in folder `root`.
    static func book(root: String, config: String) -> BookFolder? {
        guard case .success(let bytes) = Platform.readFile(config) else { return nil }
        let toml = BookConfigReader.read(String(decoding: bytes, as: UTF8.self), file: config)
        let src = toml.values["book"]?["src"] ?? "src"
        let source = src.hasPrefix("/") ? src : PathText.join(root, src)
        var b = BookFolder(root: root, rootReal: InputScanner.realPath(root), source: source,
                           title: toml.values["book"]?["title"], configFile: config)
        b.warnings = toml.warnings
        if let t = toml.values["output.html"]?["edit-url-template"], !t.isEmpty, t.hasPrefix("https://") || t.hasPrefix("http://") {
            // mdBook replaces {path} with `src` + "/" + the chapter's path below it.
            b.editURL = t.replacingOccurrences(of: "{path}", with: (src.hasPrefix("/") ? "" : src.hasSuffix("/") ? src : src + "/") + "{path}")
        }
        return b
    }
}

/// The part of TOML (toml.io, v1.0.0) that `book.toml` needs here, read without a TOML library
/// (Debian has no C TOML library to link): `[table]` headers, `key = "basic string"` (escapes
/// `\" \\ \n \t \r \uXXXX \UXXXXXXXX`), `key = 'literal string'`, dotted keys (`book.title = "…"`,
/// as `[book] title`), quoted keys, and `#` comments. Values of other types (numbers, booleans,
/// arrays, inline tables, multi-line strings) are skipped: nothing here reads them. `[[array]]`
/// tables are skipped with their keys.
package enum BookConfigReader {
    /// String values by table (`""`: the top level) and key; problems found.
    package struct Result: Sendable {
        package var values: [String: [String: String]] = [:]
        package var warnings: [String] = []
    }

    /// Reads `text` (the contents of `file`, for messages).
    package static func read(_ text: String, file: String) -> Result {
        var result = Result()
        var table: String? = ""
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw[...]
            let t = line.drop { $0 == " " || $0 == "\t" }
            if t.isEmpty || t.hasPrefix("#") { continue }
            if t.hasPrefix("[[") { table = nil; continue }
            if t.hasPrefix("[") {
                guard let close = t.firstIndex(of: "]") else {
                    result.warnings.append("\(file):\(n + 1):1: warning: table header without ']'; ignored")
                    table = nil
                    continue
                }
                table = keyPath(t[t.index(after: t.startIndex)..<close]).joined(separator: ".")
                continue
            }
            guard let current = table, let eq = equalsSign(t) else { continue }
            var path = keyPath(t[..<eq])
            guard let key = path.popLast() else { continue }
            let full = ([current].filter { !$0.isEmpty } + path).joined(separator: ".")
            let valueText = t[t.index(after: eq)...].drop { $0 == " " || $0 == "\t" }
            if let v = string(valueText) { result.values[full, default: [:]][key] = v }
        }
        return result
    }

    /// The `=` that ends a key (outside quotes).
    static func equalsSign(_ s: Substring) -> Substring.Index? {
        var quote: Character?
        for i in s.indices {
            let c = s[i]
            if let q = quote { if c == q { quote = nil } } else if c == "\"" || c == "'" { quote = c } else if c == "=" { return i }
        }
        return nil
    }

    /// A key (bare, quoted or dotted) as its parts.
    static func keyPath(_ s: Substring) -> [String] {
        var parts: [String] = [], current = "", quote: Character?
        for c in s {
            if let q = quote {
                if c == q { quote = nil } else { current.append(c) }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == "." {
                parts.append(current); current = ""
            } else if c != " " && c != "\t" {
                current.append(c)
            }
        }
        parts.append(current)
        return parts
    }

    /// A one-line basic or literal string value; `nil` for any other value.
    static func string(_ s: Substring) -> String? {
        if s.hasPrefix("\"\"\"") || s.hasPrefix("'''") { return nil }
        if s.hasPrefix("'") {
            let rest = s.dropFirst()
            return rest.firstIndex(of: "'").map { String(rest[..<$0]) }
        }
        guard s.hasPrefix("\"") else { return nil }
        var out = "", escaped = false
        var it = s.dropFirst().makeIterator()
        while let c = it.next() {
            if escaped {
                escaped = false
                switch c {
                case "n": out.append("\n")
                case "t": out.append("\t")
                case "r": out.append("\r")
                case "b": out.append("\u{8}")
                case "f": out.append("\u{C}")
                case "u", "U":
                    var hex = ""
                    for _ in 0..<(c == "u" ? 4 : 8) { if let h = it.next() { hex.append(h) } }
                    guard let v = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(v) else { return nil }
                    out.unicodeScalars.append(scalar)
                default: out.append(c)
                }
            } else if c == "\\" {
                escaped = true
            } else if c == "\"" {
                return out
            } else {
                out.append(c)
            }
        }
        return nil
    }
}
