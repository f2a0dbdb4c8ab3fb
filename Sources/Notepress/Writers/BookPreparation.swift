import Foundation
import NotepressAST
import NotepressEPUB
import NotepressRawHTML

/// A document made ready to be a chapter of a book (EPUB, and a PDF book's chapters, whose
/// images stay where they are): its links into the book pointing at chapter files, for EPUB its
/// images packaged (``EPUBResources``) and their destinations the package paths; what cannot be
/// in the book is reported at its file, line and column and written as text:
/// - a relative link to something not in the book becomes its text;
/// - (EPUB) an image that is missing, or not a PNG, JPEG, GIF or SVG image, becomes its
///   description; a remote image (`https:`) becomes a link to it (a package holds its images).
package enum BookPreparation {
    /// `document` prepared. `baseFolder`: where the images' relative paths start (the document's
    /// folder; a book's root, whose links the site already made relative to it). `chapterFiles`:
    /// a book's chapters by their site output path (`notes/a.xhtml` → `ch002.xhtml`); `nil` for a
    /// single document. `resources`: where images are packaged; `nil`: images are left as they
    /// are. `label` starts each warning (`epub`); `file`: the document's path for diagnostics.
    /// `reportsMissing`: a missing image is warned about (not when the site's link report says
    /// it: one warning, not two).
    package static func prepare(_ document: Document, baseFolder: String, chapterFiles: [String: String]?,
                                resources: EPUBResources?, label: String, file: String?, reportsMissing: Bool = true,
                                diagnostics: inout [Diagnostic]) -> Document {
        var d = document
        var notes: [Diagnostic] = []
        func warn(_ message: String, _ l: Link) {
            notes.append(Diagnostic(.warning, label + ": " + message, file: file, position: l.position))
        }
        func link(_ l: Link) -> Link? {
            let dest = l.destination
            guard !l.isMissing, !dest.isEmpty, !dest.hasPrefix("#"), !dest.hasPrefix("//"), !EPUBPaths.hasScheme(dest) else { return nil }
            var out = l
            let (path, fragment) = split(dest)
            if let chapter = chapterFiles?[path] ?? chapterFiles?[EPUBPaths.percentDecoded(path)] {
                out.destination = chapter + (fragment.map { "#" + $0 } ?? "")
                return out
            }
            warn("link to \(dest): not in the book; written as its text", l)
            out.destination = ""
            return out
        }
        func image(_ l: Link) -> (Link, toLink: Bool)? {
            guard let resources else { return nil }
            let dest = l.destination
            var out = l
            if dest.hasPrefix("//") || EPUBPaths.hasScheme(dest) {
                if dest.lowercased().hasPrefix("data:") {
                    warn("image data: URL not packaged; written as its text", l)
                    out.destination = ""
                    return (out, false)
                }
                warn("remote image \(dest) not packaged (a book holds its images); written as a link to it", l)
                return (out, true)
            }
            guard !dest.isEmpty else { return nil }
            let path = EPUBPaths.percentDecoded(split(dest).path)
            let full = path.hasPrefix("/") ? path : baseFolder + "/" + path
            switch resources.add(file: full) {
            case .packaged(let p):
                out.destination = p
            case .refused(let file):
                if reportsMissing || file != .missing {
                    warn("image \(dest) \(file.problem(kinds: EPUBResources.kinds)); written as its text", l)
                }
                out.destination = ""
            }
            return (out, false)
        }
        func rewrite(_ c: Inlines) -> Inlines? {
            var out: Inlines?
            for (i, span) in c.spans.enumerated() {
                switch span.kind {
                case .link(let l):
                    if let n = link(l) {
                        if out == nil { out = c }
                        out!.spans[i].kind = .link(n)
                    }
                case .image(let l):
                    if let (n, toLink) = image(l) {
                        if out == nil { out = c }
                        out!.spans[i].kind = toLink ? .link(n) : .image(n)
                    }
                default: break
                }
            }
            return out
        }
        d.blocks = document.blocks.map { InlineRewriting.mapInlines($0, rewrite) }
        diagnostics += notes
        return d
    }

    /// The images raw HTML shows (`<img src>`, which the chapter keeps as HTML), packaged like
    /// Markdown's from `folder` (the document's own: the site does not rewrite raw HTML): their
    /// `src` as written (percent-decoded) → the package path. One that cannot be packaged
    /// (missing, damaged, not an image, remote, `data:`) is warned about at its HTML's file, line
    /// and column; the chapter shows its `alt` text.
    package static func rawHTMLImages(_ document: Document, folder: String, resources: EPUBResources, file: String?,
                                      reportsMissing: Bool = true, diagnostics: inout [Diagnostic]) -> [String: String] {
        var out: [String: String] = [:]
        var warned = Set<String>()
        for image in RawHTMLReferences.of(document).imageSources {
            let src = image.destination
            let key = EPUBPaths.percentDecoded(src)
            let path = EPUBPaths.percentDecoded(split(src).path)
            guard !path.isEmpty, out[key] == nil, !warned.contains(src) else { continue }
            let alt = image.title.isEmpty ? "" : " ('\(image.title)')"
            var problem: String?
            if src.hasPrefix("//") || EPUBPaths.hasScheme(src) {
                problem = src.lowercased().hasPrefix("data:") ? "raw HTML image data: URL not packaged"
                    : "remote raw HTML image \(src) not packaged (a book holds its images)"
            } else {
                switch resources.add(file: path.hasPrefix("/") ? path : folder + "/" + path) {
                case .packaged(let p): out[key] = p
                case .refused(let f) where f == .missing && !reportsMissing: warned.insert(src)
                case .refused(let f): problem = "raw HTML image \(src) \(f.problem(kinds: EPUBResources.kinds))"
                }
            }
            if let problem {
                warned.insert(src)
                diagnostics.append(Diagnostic(.warning, "epub: " + problem + "; written as its alt text" + alt, file: file,
                                              position: image.position))
            }
        }
        return out
    }

    /// `dest` without its query, and its fragment (`a.xhtml?x=1#h` → `a.xhtml`, `h`).
    static func split(_ dest: String) -> (path: String, fragment: String?) {
        var path = Substring(dest)
        var fragment: String?
        if let h = path.firstIndex(of: "#") { fragment = String(path[path.index(after: h)...]); path = path[..<h] }
        if let q = path.firstIndex(of: "?") { path = path[..<q] }
        return (String(path), fragment)
    }

    /// The book's title: the document's (front matter, first heading, file name), else "Untitled".
    package static func title(of document: Document) -> String {
        let t = document.metadata.title?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        return t.isEmpty ? "Untitled" : t
    }

    /// Front matter `lang` (or `language`) when it is a language tag (BCP 47's shape), else `en`.
    package static func language(of document: Document) -> String {
        let f = document.metadata.fields
        guard let tag = (f["lang"] ?? f["language"])?.trimmingCharacters(in: .whitespaces), isLanguageTag(tag) else { return "en" }
        return tag
    }

    /// The book's direction: front matter `dir` (`rtl`, `ltr`), else that of ``language(of:)``'s
    /// script (Hebrew, Arabic, Persian… right to left), as an HTML page's `dir` is chosen.
    package static func direction(of document: Document) -> TextDirection {
        if let d = document.metadata.fields["dir"].flatMap({ TextDirection(rawValue: $0.lowercased()) }) { return d }
        return TextDirection.of(language: language(of: document))
    }

    /// `tag` has BCP 47's shape: 2–8 letters, then `-` and 1–8 letters or digits, repeated.
    package static func isLanguageTag(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...8).contains(first.count), first.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic })
        else { return false }
        return parts.dropFirst().allSatisfy { p in
            (1...8).contains(p.count) && p.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
        }
    }

    /// Front matter `author` (or `authors`): one name, or a list of names.
    package static func creators(of document: Document) -> [String] {
        let m = document.metadata
        for key in ["author", "authors"] {
            if let s = m.fields[key]?.trimmingCharacters(in: .whitespaces), !s.isEmpty { return [s] }
            if case .list(let items)? = m.collections[key] {
                return items.compactMap { if case .string(let s) = $0, !s.isEmpty { return s } else { return nil } }
            }
        }
        return []
    }
}
