import Foundation
import Notepress
import NotepressAST
import NotepressPlatform
import NotepressReaders

/// A MkDocs project (MkDocs' "Configuration" guide): the folder that holds `mkdocs.yml`, read
/// with libyaml (the front-matter reader's, ``FrontMatter/parseYAML(_:path:firstLine:)``).
///
/// A folder run on such a folder builds as `mkdocs build` would: the pages are `docs_dir`'s
/// (default `docs`), `site_name` is the site title unless `--site-title` is given, `nav:` is the
/// sidebar's order (``entries(_:depth:)``; pages it does not list follow it), and the Markdown
/// extensions `markdown_extensions:` lists are read on every page (``MkDocsExtension``; one
/// notice for each listed extension that is not implemented), with `toc` always (MkDocs loads
/// it in every project: `[TOC]` markers are tables of contents). Found by ``find(_:)``: the input
/// folder holds `mkdocs.yml`, or it is the `docs_dir` of a parent that does. Other keys are
/// ignored.
package struct MkDocsFolder: Sendable {
    /// The folder holding `mkdocs.yml`, as the command line reached it.
    package var root: String
    /// `mkdocs.yml`.
    package var configFile: String
    /// The folder whose pages make the site (`docs_dir`).
    package var docs: String
    /// `site_name`.
    package var siteName: String?
    /// Where a page's source is edited (``editURL(repoURL:editURI:template:)``), `{path}` standing
    /// for its path below `docs_dir`; `nil`: no edit links.
    package var editURL: String?
    /// The extensions turned on that the reader implements.
    package var extensions: Set<MkDocsExtension> = []
    /// The text of the link after each heading (`toc`'s `permalink` option), `nil`: none.
    package var permalink: String?
    /// `exclude_docs` and `draft_docs` (gitignore patterns, from `docs_dir`): files `mkdocs build`
    /// does not publish. Negated patterns (`!x`) are not read (a warning says so).
    package var excludeDocs: [String] = []
    /// `extra_css` and `extra_javascript` (paths below `docs_dir`, or URLs): linked into every page.
    package var extraStylesheets: [String] = []
    package var extraScripts: [String] = []
    /// `nav:` as entries, `nil` when not given.
    package var nav: [SiteSummaryEntry]?
    /// Notices and warnings (`file:line:column: …`), for the caller to print.
    package var warnings: [String] = []

    /// The project `input` is, or `nil`.
    package static func find(_ input: String) -> MkDocsFolder? {
        guard Platform.status(input)?.kind == .directory else { return nil }
        for name in ["mkdocs.yml", "mkdocs.yaml"] {
            let own = PathText.join(input, name)
            if Platform.status(own)?.kind == .regular { return read(root: input, config: own) }
        }
        let parent = PathText.deletingLastComponent(InputScanner.realPath(input))
        guard !parent.isEmpty else { return nil }
        for name in ["mkdocs.yml", "mkdocs.yaml"] {
            let config = PathText.join(parent, name)
            if Platform.status(config)?.kind == .regular, var p = read(root: parent, config: config),
               InputScanner.realPath(p.docs) == InputScanner.realPath(input) {
                p.docs = input
                return p
            }
        }
        return nil
    }

    /// The project whose configuration is `config`, in folder `root`.
    static func read(root: String, config: String) -> MkDocsFolder? {
        guard case .success(let bytes) = Platform.readFile(config) else { return nil }
        var p = MkDocsFolder(root: root, configFile: config, docs: PathText.join(root, "docs"))
        let yaml: FrontMatter?
        do {
            yaml = try FrontMatter.parseYAML(String(decoding: bytes, as: UTF8.self), path: config, firstLine: 1)
        } catch let e as FrontMatterError {
            p.warnings.append("\(config):\(e.line):\(e.column): warning: \(e.message); mkdocs.yml is not read (the folder builds as a plain folder)")
            return p
        } catch {
            return p
        }
        guard let yaml else { return p }
        // MkDocs always loads `toc`, `tables` and `fenced_code` (its `markdown_extensions`
        // built-ins), listed or not: `[TOC]` markers are read in every project.
        p.extensions.insert(.toc)
        p.warnings += notices(bytes, config: config, yaml: yaml)
        if let d = yaml.fields["docs_dir"], !d.isEmpty { p.docs = d.hasPrefix("/") ? d : PathText.join(root, d) }
        p.siteName = yaml.fields["site_name"]
        p.editURL = editURL(repoURL: yaml.fields["repo_url"], editURI: yaml.fields["edit_uri"], template: yaml.fields["edit_uri_template"])
        for key in ["exclude_docs", "draft_docs"] {
            guard let text = yaml.fields[key] else { continue }
            for raw in text.split(whereSeparator: \.isNewline) {
                let line = raw.trimmingCharacters(in: .whitespaces)
                if line.isEmpty || line.hasPrefix("#") { continue }
                if line.hasPrefix("!") {
                    p.warnings.append("\(config):\(lineOf(key, in: bytes)):1: warning: \(key): '\(line)' (a negated pattern) is not read; the files it would publish again stay out")
                    continue
                }
                p.excludeDocs.append(line)
            }
        }
        // `extra_javascript` items may be maps (`- path: x.js` with `defer:`/`async:`): their path.
        func paths(_ key: String) -> [String] {
            guard case .list(let items)? = yaml.collections[key] else { return yaml.fields[key].map { [$0] } ?? [] }
            return items.compactMap { item in
                switch item {
                case .string(let s): return s
                case .map(let m): if case .string(let s)? = m["path"] { return s } else { return nil }
                default: return nil
                }
            }
        }
        p.extraStylesheets = paths("extra_css")
        p.extraScripts = paths("extra_javascript")
        if case .list(let items)? = yaml.collections["nav"] {
            let nav = entries(items, depth: 0)
            p.nav = nav
            p.warnings += missingPages(nav, docs: p.docs, config: config, bytes: bytes)
        }
        // A list of names and one-key maps, or (as MkDocs also takes it) one map of names.
        var extensionItems: [MetadataValue]?
        switch yaml.collections["markdown_extensions"] {
        case .list(let items)?: extensionItems = items
        case .map(let m)?: extensionItems = m.keys.sorted().map { .map([$0: m[$0]!]) }
        default: extensionItems = nil
        }
        if let items = extensionItems {
            var unknown: [String] = []
            for item in items {
                let names: [String]
                switch item {
                case .string(let n): names = [n]
                case .map(let m):
                    names = m.keys.sorted()
                    // `- toc: { permalink: true }` or `permalink: "#"`: a link after each heading.
                    if case .map(let o)? = m["toc"] ?? m["markdown.extensions.toc"] {
                        switch o["permalink"] {
                        case .bool(true)?: p.permalink = "\u{B6}"
                        case .string(let s)? where !s.isEmpty && s != "false": p.permalink = s == "true" ? "\u{B6}" : s
                        default: break
                        }
                    }
                default: names = []
                }
                for written in names {
                    let n = written.hasPrefix("markdown.extensions.") ? String(written.dropFirst(20)) : written
                    if let e = MkDocsExtension(rawValue: n) {
                        p.extensions.insert(e)
                    } else if let parts = bundles[n] {
                        p.extensions.formUnion(parts)
                    } else if !native.contains(n), !unknown.contains(n) {
                        unknown.append(n)
                    }
                }
            }
            let line = lineOf("markdown_extensions", in: bytes)
            for n in unknown {
                p.warnings.append("\(config):\(line):1: warning: Markdown extension '\(n)' is not implemented; pages are read without it")
            }
        }
        return p
    }

    /// MkDocs' edit link of a page (its `Page._set_edit_url`): `edit_uri_template` (`{path}`), else
    /// `edit_uri` followed by the page's path, joined to `repo_url` as a relative URL; `edit_uri`
    /// defaults to `edit/master/docs/` for GitHub and GitLab and `src/default/docs/` for
    /// Bitbucket, and an empty one turns the links off. Only http(s) URLs make links.
    static func editURL(repoURL: String?, editURI: String?, template: String?) -> String? {
        let repo = repoURL?.trimmingCharacters(in: .whitespaces) ?? ""
        var edit: String
        if let t = template, !t.isEmpty {
            edit = t.replacingOccurrences(of: "{path_noext}", with: "{path}")
        } else if let e = editURI {
            guard !e.isEmpty else { return nil }
            edit = e.hasSuffix("/") || e.hasPrefix("?") || e.hasPrefix("#") ? e : e + "/"
            edit += "{path}"
        } else {
            let host = repo.split(separator: "/").dropFirst().first.map { $0.lowercased() } ?? ""
            switch host {
            case "github.com", "gitlab.com": edit = "edit/master/docs/{path}"
            case "bitbucket.org": edit = "src/default/docs/{path}"
            default: return nil
            }
        }
        let joined: String
        if edit.hasPrefix("https://") || edit.hasPrefix("http://") {
            joined = edit
        } else if repo.isEmpty {
            return nil
        } else if edit.hasPrefix("/") {
            // An absolute path: on the repository's host.
            let parts = repo.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count >= 3 else { return nil }
            joined = parts[0] + "//" + parts[2].prefix { $0 != "/" } + edit
        } else {
            joined = (repo.hasSuffix("/") || edit.hasPrefix("?") || edit.hasPrefix("#") ? repo : repo + "/") + edit
        }
        return joined.hasPrefix("https://") || joined.hasPrefix("http://") ? joined : nil
    }

    /// Extensions whose syntax libcmark-gfm's GFM reading (and the highlighter, front matter)
    /// already covers: listed without a notice.
    package static let native: Set<String> = [
        "tables", "fenced_code", "footnotes", "meta", "sane_lists", "codehilite", "smarty",
        "pymdownx.superfences", "pymdownx.highlight", "pymdownx.inlinehilite", "pymdownx.tasklist",
        "pymdownx.magiclink", "pymdownx.betterem", "pymdownx.saneheaders",
    ]

    /// The extensions of a MkDocs project's pages (MkDocs reads Markdown only; the kinds
    /// Notepress reads as Markdown). Other files of `docs_dir` are copied as they are.
    package static let pageExtensions: Set<String> = ["md", "markdown", "mdown", "mkd"]

    /// Python-Markdown's extensions that are a set of others: `extra` (abbr, attr_list, def_list,
    /// fenced_code, footnotes, md_in_html, tables), by the parts the reader implements.
    package static let bundles: [String: Set<MkDocsExtension>] = ["extra": [.abbr, .attrList, .defList]]

    /// A warning for each `nav:` entry naming a page `docs` does not hold (left out of the sidebar),
    /// at the entry's line in `mkdocs.yml` (`bytes`).
    static func missingPages(_ nav: [SiteSummaryEntry], docs: String, config: String, bytes: [UInt8]) -> [String] {
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        var out: [String] = []
        for e in nav where e.kind == .chapter && !SitePaths.isExternal(e.target) {
            let path = SitePaths.percentDecoded(SitePaths.split(e.target).path)
            if Platform.status(PathText.join(docs, path))?.kind == .regular { continue }
            let line = lines.firstIndex { $0.contains(e.target) }.map { $0 + 1 } ?? lineOf("nav", in: bytes)
            out.append("\(config):\(line):1: warning: nav entry '\(e.target)' names no page in \(docs); left out of the sidebar")
        }
        return out
    }

    /// The 1-based line where top-level key `key` is written (1 when not found).
    static func lineOf(_ key: String, in bytes: [UInt8]) -> Int {
        let text = String(decoding: bytes, as: UTF8.self)
        for (n, l) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where l.hasPrefix(key + ":") {
            return n + 1
        }
        return 1
    }

    /// `nav:`'s items at `depth`: `- page.md` (titled by the page), `- Title: page.md`,
    /// `- Title: https://…` (an external link), `- Section: [items]` (a section holding them).
    static func entries(_ items: [MetadataValue], depth: Int) -> [SiteSummaryEntry] {
        var out: [SiteSummaryEntry] = []
        for item in items {
            switch item {
            case .string(let target):
                out.append(SiteSummaryEntry(kind: .chapter, title: "", target: target, depth: depth))
            case .map(let m):
                for (title, value) in m.sorted(by: { $0.key < $1.key }) {
                    switch value {
                    case .string(let target):
                        out.append(SiteSummaryEntry(kind: .chapter, title: title, target: target, depth: depth))
                    case .list(let sub):
                        out.append(SiteSummaryEntry(kind: .section, title: title, depth: depth))
                        out += entries(sub, depth: depth + 1)
                    default:
                        continue
                    }
                }
            default:
                continue
            }
        }
        return out
    }

    /// The project as the site engine's book (``BookFolder``): its root, `docs_dir`, title, nav,
    /// and `pymdownx.snippets`' lines as its directives when turned on.
    package var book: BookFolder {
        var b = BookFolder(root: root, rootReal: InputScanner.realPath(root), source: docs, title: siteName, configFile: configFile)
        b.directives = extensions.contains(.snippets) ? .snippets : nil
        b.nav = nav
        b.extraStylesheets = extraStylesheets
        b.extraScripts = extraScripts
        b.warnings = warnings
        b.editURL = editURL
        return b
    }
}
