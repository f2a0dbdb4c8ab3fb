import Foundation
import Notepress
import NotepressAST
import NotepressTEI

/// Gives each writer a document whose link destinations are final for its format: the one place
/// links between inputs are rewritten (no writer rewrites a link itself).
///
/// - A link to a page becomes the relative path of that page's output in the same format's tree
///   (`b.md` → `b.html`, `b.rtf`, `b.xml`, …; a folder → its index page), with the fragment
///   mapped to the id the page has (TEI: the `xml:id` form, ``TEIIdentifiers/anchorID(_:)``);
///   the link carries ``Link/target`` (the man writer shows `name(section)`).
/// - A link to another file becomes its relative path in the output tree (assets keep their
///   place relative to the pages).
/// - A wiki link nothing matches becomes its text (``Link/isMissing``); a standard link that is
///   broken stays as written. Both are in the link report.
///
/// What a page reads from the table is summed up by ``digest(of:)``: a page is rendered again on a
/// re-run when it changes even if its input did not (a heading renamed in the page it links to).
package struct SiteRewriter: Sendable {
    /// The resolver of the site table pages are rendered against.
    package let resolver: SiteResolver
    /// The generated notes list's file name at the root of the HTML tree.
    package var notesIndexName: String { resolver.table.rootHasIndexPage ? "notes-index.html" : "index.html" }

    /// A rewriter over `resolver`'s table.
    package init(resolver: SiteResolver) {
        self.resolver = resolver
    }

    /// The key of a link in ``Resolutions``: how it is written and its destination.
    package struct LinkKey: Hashable, Sendable {
        var kind: SiteLinkRecord.Kind
        var target: String
    }

    /// The resolutions of a page's links, each resolved once for all formats.
    package typealias Resolutions = [LinkKey: LinkResolution]

    /// Resolves every link the page `record` records.
    package func resolutions(of record: SiteRecord) -> Resolutions {
        var out: Resolutions = [:]
        for l in record.links {
            let key = LinkKey(kind: l.kind, target: l.target)
            if out[key] == nil { out[key] = resolver.resolve(l.kind, l.target, from: record.path) }
        }
        return out
    }

    /// `document` (the page at `path`) with its links rewritten for a writer that writes files
    /// with extension `fileExtension` (`tei`: TEI fragments). `notesIndex`: set
    /// ``DocumentMetadata/notesIndexHref`` (HTML pages).
    package func rewrite(_ document: Document, path: String, resolutions: Resolutions, format: OutputFormat, fileExtension: String,
                        notesIndex: Bool, root: String? = nil, outputFrom: String? = nil) -> Document {
        let table = resolver.table
        // `root`: links start from it (the not-found page, shown at any depth), not from the page.
        // `outputFrom`: the page the content is written into (an embedding page), when not `path`.
        let fromFolder = root == nil ? SitePaths.folderOf(table.outputStem(forInput: outputFrom ?? path)) : ""
        let prefix = root ?? ""
        var d = document
        func link(_ l: Link, image: Bool) -> (Link, toLink: Bool)? {
            guard !l.isRewritten else { return nil }
            guard let resolved = resolvedLink(l, image: image) else { return nil }
            var n = resolved.0
            n.isRewritten = true
            return (n, resolved.toLink)
        }
        func resolvedLink(_ l: Link, image: Bool) -> (Link, toLink: Bool)? {
            let kind: SiteLinkRecord.Kind = l.syntax == .wiki ? (image ? .wikiImage : .wiki) : (image ? .image : .link)
            guard let r = resolutions[LinkKey(kind: kind, target: l.destination)] else {
                // Not recorded (external): a wiki link is never external.
                if l.syntax == .wiki { return (InlineRewriting.missing(l), true) }
                return nil
            }
            var out = l
            switch r.target {
            case .external:
                return nil
            case .none:
                if l.syntax == .wiki { return (InlineRewriting.missing(l), true) }
                return nil
            case .page(let i):
                let targetPath = table.paths[i]
                let stem = table.stems[i] ?? PathText.deletingExtension(targetPath)
                var dest = targetPath == (outputFrom ?? path) && r.fragment != nil && r.suffix.isEmpty
                    ? "" : prefix + SitePaths.urlPath(SitePaths.relative(fromFolder: fromFolder, to: stem + "." + fileExtension))
                // The query as written (`p.md?UI=MVC#h` → `p.html?UI=MVC#h`).
                dest += r.suffix
                if let fragment = r.fragment, !fragment.isEmpty, format != .man {
                    if let id = r.id {
                        dest += "#" + SitePaths.urlFragment(format == .tei ? TEIIdentifiers.anchorID(id) : id)
                    } else {
                        // Unmatched (reported): as written, but one fragment (`[[Note#A#Z]]`, a
                        // heading path, gave `Note.html#A#Z`, not a URL).
                        dest += "#" + fragment.replacingOccurrences(of: "#", with: "%23")
                    }
                }
                out.destination = dest
                out.target = table.linkTargets[i]
                // A page embedded as an image (`![x](note.md)`) is a link to it.
                return (out, image)
            case .file(let i):
                out.destination = prefix + SitePaths.urlPath(SitePaths.relative(fromFolder: fromFolder, to: table.paths[i])) + r.suffix
                return (out, false)
            }
        }
        func rewrite(_ c: Inlines) -> Inlines? {
            var out: Inlines?
            for (i, span) in c.spans.enumerated() {
                switch span.kind {
                case .link(let l):
                    if let (n, _) = link(l, image: false) {
                        if out == nil { out = c }
                        out!.spans[i].kind = .link(n)
                    }
                case .image(let l):
                    if let (n, toLink) = link(l, image: true) {
                        if out == nil { out = c }
                        out!.spans[i].kind = toLink ? .link(n) : .image(n)
                    }
                default: break
                }
            }
            return out
        }
        // Every link into the site (wiki links included) is recorded: none, nothing to rewrite.
        if !resolutions.isEmpty {
            var changed: [Block]?
            for (i, b) in document.blocks.enumerated() {
                if let n = InlineRewriting.changingInlines(b, rewrite) {
                    if changed == nil { changed = document.blocks }
                    changed![i] = n
                }
            }
            if let changed { d.blocks = changed }
        }
        if notesIndex {
            d.metadata.notesIndexHref = prefix + SitePaths.urlPath(SitePaths.relative(fromFolder: fromFolder, to: notesIndexName))
        }
        return d
    }

    /// SHA-256 (hex) of everything the page `record`'s outputs read from the table: its own output
    /// path, the notes list's name, and for each link the target's path, output path, man name and
    /// section and the id its fragment found; for each note it embeds (``SiteEmbeds``, nested
    /// embeds included), the note's path, title, input hash (``SiteRecord/sha256``) and its links as
    /// they resolve. Unchanged input + unchanged digest = unchanged pages.
    package func digest(of record: SiteRecord, resolutions: Resolutions? = nil) -> String {
        let table = resolver.table
        let rs = resolutions ?? self.resolutions(of: record)
        // The facts go into one buffer, hashed once.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256 + record.links.count * 96)
        func put(_ s: String) { bytes.append(contentsOf: s.utf8); bytes.append(0x1F) }
        // One link's kind, target as written and what it resolves to: the same facts for a page's
        // own links and for those of the notes it embeds (both are written into this page).
        func putResolution(_ l: SiteLinkRecord, _ r: LinkResolution) {
            put(l.kind.rawValue); put(l.target)
            switch r.target {
            case .external: put("external")
            case .none: put("none")
            case .page(let i):
                let t = table.linkTargets[i]
                put("page"); put(table.paths[i]); put(table.stems[i] ?? ""); put(t?.manName ?? ""); put(t?.manSection ?? "")
                put(r.id ?? "-")
            case .file(let i): put("file"); put(table.paths[i])
            }
        }
        put(table.outputStem(forInput: record.path))
        put(notesIndexName)
        var seen = Set<LinkKey>()
        for l in record.links {
            let key = LinkKey(kind: l.kind, target: l.target)
            guard seen.insert(key).inserted, let r = rs[key] else { continue }
            putResolution(l, r)
            // An embedded note: its text (by its input's hash) and title, and those of the notes it
            // embeds, are part of this page, with its links as they resolve now (a deleted target
            // of an embedded note's link, or an edit of only its code block, left this page stale).
            if case .page(let i) = r.target, l.kind == .wiki, record.embeds.contains(l.target) {
                for e in SiteEmbeds.embedded(i, from: record.path, resolver: resolver) {
                    let er = table.records[e]
                    put("embed"); put(er.path); put(er.title ?? ""); put(er.sha256 ?? "-")
                    let ers = self.resolutions(of: er)
                    for el in er.links {
                        guard let x = ers[LinkKey(kind: el.kind, target: el.target)] else { continue }
                        putResolution(el, x)
                    }
                }
            }
            bytes.append(0x1E)
        }
        return SHA256.hex(bytes)
    }
}
