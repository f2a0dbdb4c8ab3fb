import Foundation
import Notepress
import NotepressAST
import NotepressHTML
import NotepressPlatform

/// mdBook's `print.html` for a folder run's HTML pages: every page of the navigation in its
/// reading order (``SiteNavigation/order``: `SUMMARY.md`, `mkdocs.yml`'s `nav:`, else the
/// sidebar's order) on one page, each page's content (its `<article class="note">` as the run
/// left it in the output folder, converted now or kept from an earlier run) in an `<article
/// class="note print-note">` of its own, headed by its title.
///
/// - Ids are made unique across the page: each page has a prefix (its output path's stem with `/`
///   as `-`: `notes/b.html` → `notes-b`, unique), its section takes the prefix and each id in it
///   becomes `PREFIX-ID` (`-2`, `-3`… added when that is taken).
/// - A link to a page of the print view becomes an in-page link (`other.html#h` → `#other-h`,
///   `other.html` → `#other`); every other relative URL (`href`, `src`: images, assets, tag pages)
///   is rebased to the site root, where `print.html` lies; links with a scheme stay as written.
/// - Bounded: a site of more than ``noteLimit`` pages gets no print page (one warning); one whose
///   pages hold more than ``byteLimit`` bytes gets a print page that says so.
///
/// The site stylesheet's print rules start each page on a new sheet and leave the chrome out.
package enum SitePrint {
    /// The print page's path below the HTML root (each page's header links it: `printHref`).
    package static let path = "print.html"
    /// Sites with more pages than this get no print page.
    package static let noteLimit = 2_000
    /// The most bytes of page content the print page holds.
    package static let byteLimit = 20_000_000

    /// The pages a print page would hold (the navigation's pages), when not more than ``noteLimit``.
    static func pageCount(_ table: SiteTable) -> Int? {
        var n = 0
        for i in table.records.indices where table.kinds[i] == .page && table.records[i].format != nil {
            n += 1
            if n > noteLimit { return nil }
        }
        return n
    }

    /// Whether a run over `table` with `options` writes `print.html` (and pages link it): asked
    /// for (``ConversionOptions/printPage``), the pages made with the built-in page template (a
    /// `--template` page or the data folder's `html/page.html` lays out its content where it
    /// likes, where the print page could not find it: regression test
    /// PageTemplateTests.testTemplateAndMetadataChangesInvalidateTheManifest), not more than
    /// ``noteLimit`` pages, and no input's page is `print.html` itself.
    package static func wanted(_ table: SiteTable, options: ConversionOptions) -> Bool {
        guard options.printPage, options.pageTemplate?.isBuiltIn != false, pageCount(table) != nil else { return false }
        return !table.records.indices.contains { table.kinds[$0] == .page && (table.stems[$0] ?? PathText.deletingExtension(table.paths[$0])) == "print" }
    }

    /// The warning of a site too large for a print page (``noteLimit``), when it applies.
    static func warning(_ table: SiteTable, options: ConversionOptions) -> Diagnostic? {
        guard options.printPage, pageCount(table) == nil else { return nil }
        return Diagnostic(.warning, "print.html not written: the site has more than \(noteLimit) pages "
            + "(--no-print-page leaves it out without this warning)")
    }

    /// One page's part of the print view.
    struct Part {
        /// Its output's URL path below the HTML root (`notes/b.html`), and its folder.
        var key: String
        var folder: String
        /// The id of its section; its ids are `prefix-ID`.
        var prefix: String
        /// Its `<article>`'s content as written.
        var content: String
        /// Its ids as written → their ids in the print page.
        var ids: [String: String] = [:]
    }

    /// The print page's notes: `nav`'s pages read from the HTML tree at `root`, in reading order.
    /// `missing`: pages with no readable output (failed, or made with a template without
    /// `<article class="note">`), left out; `nil` body: more than ``byteLimit`` bytes.
    static func notes(_ nav: SiteNavigation, root: String) -> (body: String?, missing: [String]) {
        let table = nav.table
        var parts: [Part] = []
        var missing: [String] = []
        var used = Set<String>()
        var total = 0
        for i in nav.order {
            let stem = table.stems[i] ?? PathText.deletingExtension(table.paths[i])
            guard case .success(let bytes) = Platform.readFile(PathText.join(root, stem + ".html")),
                  let content = article(String(decoding: bytes, as: UTF8.self)) else {
                missing.append(table.paths[i])
                continue
            }
            total += content.utf8.count
            if total > byteLimit { return (nil, missing) }
            let key = SitePaths.urlPath(stem + ".html")
            var part = Part(key: key, folder: SitePaths.folderOf(key), prefix: unique(idText(stem), &used), content: content)
            _ = rewriteAttributes(content) { name, value in
                if name == "id", part.ids[value] == nil { part.ids[value] = unique(part.prefix + "-" + value, &used) }
                return nil
            }
            parts.append(part)
        }
        var byKey: [String: Int] = [:]
        for (k, p) in parts.enumerated() where byKey[p.key] == nil { byKey[p.key] = k }
        var out = ""
        out.reserveCapacity(total + parts.count * 80)
        for p in parts {
            out += "<article class=\"note print-note\" id=\"" + HTMLEscape.attribute(p.prefix) + "\">\n"
            out += rewriteAttributes(p.content) { name, value in
                switch name {
                case "id": return HTMLEscape.attribute(p.ids[value] ?? value)
                case "href": return HTMLEscape.url(link(value, in: p, parts: parts, byKey: byKey))
                case "src": return HTMLEscape.url(rebased(value, in: p))
                case "aria-describedby", "aria-labelledby", "for", "headers":
                    return HTMLEscape.attribute(value.split(separator: " ").map { p.ids[String($0)] ?? String($0) }.joined(separator: " "))
                default: return nil
                }
            }
            out += "</article>\n"
        }
        return (out, missing)
    }

    /// `text` as an id: spaces as `-` (a stem may hold them), `/` as `-`.
    static func idText(_ text: String) -> String {
        String(text.map { $0 == "/" || $0.isWhitespace ? "-" : $0 })
    }

    /// `id`, or `id-2`, `id-3`… the first not in `used`; inserted.
    static func unique(_ id: String, _ used: inout Set<String>) -> String {
        var candidate = id
        var n = 2
        while used.contains(candidate) {
            candidate = id + "-" + String(n)
            n += 1
        }
        used.insert(candidate)
        return candidate
    }

    /// The content of a written page's `<article class="note">` (up to its last `</article>`),
    /// without the "Linked from" list; `nil` when the page has none.
    static func article(_ html: String) -> String? {
        guard let start = html.range(of: "<article class=\"note\">"),
              let end = html.range(of: "</article>", options: .backwards), start.upperBound <= end.lowerBound else { return nil }
        var content = html[start.upperBound..<end.lowerBound]
        if let backlinks = content.range(of: "<nav class=\"backlinks\"", options: .backwards) {
            content = content[..<backlinks.lowerBound]
        }
        while content.last?.isWhitespace == true { content = content.dropLast() }
        return String(content.drop { $0 == "\n" }) + "\n"
    }

    /// A link of page `p` in the print page: to a page of it, the in-page link; else ``rebased(_:in:)``.
    static func link(_ url: String, in p: Part, parts: [Part], byKey: [String: Int]) -> String {
        if url.hasPrefix("#") {
            let fragment = SitePaths.percentDecoded(String(url.dropFirst()))
            return p.ids[fragment].map { "#" + SitePaths.urlFragment($0) } ?? url
        }
        guard !SitePaths.isExternal(url), !url.hasPrefix("/") else { return url }
        let (path, query, fragment) = SitePaths.split(url)
        guard !path.isEmpty, query.isEmpty, var key = SitePaths.resolve(path, inFolder: p.folder) else { return rebased(url, in: p) }
        if path.hasSuffix("/") { key += key.isEmpty ? "index.html" : "/index.html" }
        guard let t = byKey[key] else { return rebased(url, in: p) }
        let target = parts[t]
        guard let fragment, !fragment.isEmpty else { return "#" + SitePaths.urlFragment(target.prefix) }
        let id = target.ids[SitePaths.percentDecoded(fragment)] ?? target.prefix
        return "#" + SitePaths.urlFragment(id)
    }

    /// A relative URL of page `p` made relative to the site root (`img.png` in `notes/` →
    /// `notes/img.png`); others as written.
    static func rebased(_ url: String, in p: Part) -> String {
        guard !url.isEmpty, !url.hasPrefix("#"), !url.hasPrefix("/"), !SitePaths.isExternal(url) else { return url }
        let (path, _, _) = SitePaths.split(url)
        guard !path.isEmpty, let resolved = SitePaths.resolve(path, inFolder: p.folder) else { return url }
        return resolved + (path.hasSuffix("/") && !resolved.isEmpty ? "/" : "") + url.dropFirst(path.count)
    }

    /// `html` with the double-quoted attribute values of its tags passed to `change` (name,
    /// value with its character references decoded); a non-nil answer (escaped) replaces the
    /// value. Written HTML escapes `<` in text and `"` in values, so the scan needs no parser.
    static func rewriteAttributes(_ html: String, _ change: (String, String) -> String?) -> String {
        let b = Array(html.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(b.count + b.count / 8)
        var copied = 0
        var inTag = false
        var i = 0
        func isName(_ c: UInt8) -> Bool {
            (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A || c >= 0x30 && c <= 0x39 || c == 0x2D || c == 0x5F || c == 0x3A
        }
        while i < b.count {
            let c = b[i]
            if c == 0x3C {
                inTag = true
            } else if c == 0x3E {
                inTag = false
            } else if inTag, c == 0x3D, i + 1 < b.count, b[i + 1] == 0x22 {
                var s = i
                while s > 0, isName(b[s - 1]) { s -= 1 }
                if s < i, s > 0, b[s - 1] == 0x20 || b[s - 1] == 0x0A || b[s - 1] == 0x09,
                   let end = b[(i + 2)...].firstIndex(of: 0x22) {
                    let name = String(decoding: b[s..<i], as: UTF8.self).lowercased()
                    let value = unescaped(String(decoding: b[(i + 2)..<end], as: UTF8.self))
                    if let new = change(name, value) {
                        out.append(contentsOf: b[copied..<(i + 2)])
                        out.append(contentsOf: Array(new.utf8))
                        copied = end
                    }
                    i = end + 1
                    continue
                }
            }
            i += 1
        }
        if copied == 0 { return html }
        out.append(contentsOf: b[copied...])
        return String(decoding: out, as: UTF8.self)
    }

    /// An attribute value's character references decoded (those written HTML uses).
    static func unescaped(_ value: String) -> String {
        guard value.contains("&") else { return value }
        return value.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#x27;", with: "'")
            .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }
}

extension BatchConverter {
    /// Writes `print.html` (``SitePrint``) at the HTML tree's `root` when the run wants it
    /// (``SitePrint/wanted(_:options:)``), from the pages in the output folder (so after they are
    /// written), only when its bytes changed; recorded with the tag pages (``SitePagesResult/tagPages``).
    func writePrintPage(_ table: SiteTable, root: String, notesIndex: String, into result: inout SitePagesResult) {
        guard SitePrint.wanted(table, options: options) else { return }
        let path = PathText.join(root, SitePrint.path)
        let nav = SiteNavigation(table, siteTitle: options.siteTitle, nav: book?.nav, printPage: true)
        let notes = SitePrint.notes(nav, root: root)
        let body = notes.body ?? "<p class=\"print-too-large\">The notes hold more than \(SitePrint.byteLimit / 1_000_000) MB: "
            + "too many to print as one page. Print them page by page.</p>\n"
        if !notes.missing.isEmpty {
            result.warnings.append(Diagnostic(.warning, "print.html leaves out \(notes.missing.count) page\(notes.missing.count == 1 ? "" : "s") "
                + "whose HTML holds no <article class=\"note\"> or was not written: " + notes.missing.prefix(3).joined(separator: ", ")
                + (notes.missing.count > 3 ? ", …" : ""), file: path))
        }
        if notes.body == nil {
            result.warnings.append(Diagnostic(.warning, "print.html holds no notes: they are more than \(SitePrint.byteLimit / 1_000_000) MB",
                                              file: path))
        }
        do {
            let lists = HTMLIndex(theme: options.theme, templates: options.templates, stylesheets: options.stylesheets)
            let page = try PageTemplate.builtIn("html/print.html", store: options.templates)
            var data = lists.commonValues()
            for (k, v) in nav.values(record: nil, fromFolder: "", notesIndex: notesIndex) { data[k] = v }
            data["title"] = .string(nav.siteTitle)
            data["stylesheet"] = ""
            data["notes"] = .string(body)
            let bytes = try page.renderUTF8(.map(data), capacity: body.utf8.count + 65_536)
            try OutputGuard(root: InputScanner.realPath(outputRoot), inputFolders: inputFolders, inputFiles: LazyIdentities([]))
                .check(path, input: path)
            if !Self.fileHolds(path, bytes) {
                try AtomicFile.write(bytes, to: path)
                result.written.append(path)
            }
            let st = Platform.status(path, followLinks: false)
            result.tagPages.append(Manifest.Output(path: relativeToRoot(path), sha256: SHA256.hex(bytes), size: st?.size,
                                                   mtimeNanoseconds: st?.modifiedNanoseconds))
            result.paths.append(path)
        } catch {
            result.errors.append(NotepressError.wrapping(error, file: path))
        }
    }
}
