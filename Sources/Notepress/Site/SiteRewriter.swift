import Foundation
import NotepressAST
import NotepressTEI

/// Gives each writer a document whose link destinations are final for its format: the one place
/// links between inputs are rewritten (no writer rewrites a link itself).
///
/// - A link to a page becomes the relative path of that page's output in the same format's tree
///   (`b.md` → `b.html`, `b.rtf`, `b.xml`, …; a folder → its index page), with the fragment
///   mapped to the id the page has (TEI: the `xml:id` form, ``TEIIdentifiers/headingID(_:)``);
///   the link carries ``Link/target`` (the man writer shows `name(section)`).
/// - A link to another file becomes its relative path in the output tree (assets keep their
///   place relative to the pages).
/// - A wiki link nothing matches becomes its text (``Link/isMissing``); a standard link that is
///   broken stays as written. Both are in the link report.
///
/// What a page reads from the table is summed up by ``digest(of:)``: a page is rendered again on a
/// re-run when it changes even if its input did not (a heading renamed in the page it links to).
public struct SiteRewriter: Sendable {
    public let resolver: SiteResolver
    /// The generated notes list's file name at the root of the HTML tree.
    public var notesIndexName: String { resolver.table.rootHasIndexPage ? "notes-index.html" : "index.html" }

    public init(resolver: SiteResolver) {
        self.resolver = resolver
    }

    /// The key of a link in ``Resolutions``: how it is written and its destination.
    public struct LinkKey: Hashable, Sendable {
        var kind: SiteLinkRecord.Kind
        var target: String
    }

    /// The resolutions of a page's links, each resolved once for all formats.
    public typealias Resolutions = [LinkKey: LinkResolution]

    /// Resolves every link the page `record` records.
    public func resolutions(of record: SiteRecord) -> Resolutions {
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
    public func rewrite(_ document: Document, path: String, resolutions: Resolutions, format: String, fileExtension: String,
                        notesIndex: Bool) -> Document {
        let table = resolver.table
        let fromFolder = SitePaths.folderOf(table.outputStem(forInput: path))
        var d = document
        func link(_ l: Link, image: Bool) -> (Link, toLink: Bool)? {
            let kind: SiteLinkRecord.Kind = l.syntax == .wiki ? (image ? .wikiImage : .wiki) : (image ? .image : .link)
            guard let r = resolutions[LinkKey(kind: kind, target: l.destination)] else {
                // Not recorded (external): a wiki link is never external.
                if l.syntax == .wiki { return (Self.missing(l), true) }
                return nil
            }
            var out = l
            switch r.target {
            case .external:
                return nil
            case .none:
                if l.syntax == .wiki { return (Self.missing(l), true) }
                return nil
            case .page(let i):
                let t = table.records[i]
                let stem = table.outputStem(t.path) ?? PathText.deletingExtension(t.path)
                var dest = t.path == path && r.fragment != nil
                    ? "" : SitePaths.urlPath(SitePaths.relative(fromFolder: fromFolder, to: stem + "." + fileExtension))
                if let fragment = r.fragment, !fragment.isEmpty, format != "man" {
                    if let id = r.id {
                        dest += "#" + SitePaths.urlFragment(format == "tei" && !id.hasPrefix("^") ? TEIIdentifiers.headingID(id) : id)
                    } else {
                        dest += "#" + fragment
                    }
                }
                out.destination = dest
                out.target = SiteLinkTarget(path: t.path, manName: t.manName ?? PathText.deletingExtension(PathText.lastComponent(t.path)),
                                            manSection: t.manSection ?? "1")
                // A page embedded as an image (`![x](note.md)`) is a link to it.
                return (out, image)
            case .file(let i):
                out.destination = SitePaths.urlPath(SitePaths.relative(fromFolder: fromFolder, to: table.records[i].path)) + r.suffix
                return (out, false)
            }
        }
        func rewrite(_ c: Inlines) -> Inlines {
            var c = c
            for (i, span) in c.spans.enumerated() {
                switch span.kind {
                case .link(let l):
                    if let (n, _) = link(l, image: false) { c.spans[i].kind = .link(n) }
                case .image(let l):
                    if let (n, toLink) = link(l, image: true) { c.spans[i].kind = toLink ? .link(n) : .image(n) }
                default: break
                }
            }
            return c
        }
        d.blocks = document.blocks.map { Self.mapInlines($0, rewrite) }
        if notesIndex {
            d.metadata.notesIndexHref = SitePaths.urlPath(SitePaths.relative(fromFolder: fromFolder, to: notesIndexName))
        }
        return d
    }

    /// A wiki link nothing matches: its text only.
    static func missing(_ l: Link) -> Link {
        var m = l
        m.destination = ""
        m.isMissing = true
        return m
    }

    /// `block` with `f` applied to every inline content in it (paragraphs, headings, table cells,
    /// at any depth).
    static func mapInlines(_ block: Block, _ f: (Inlines) -> Inlines) -> Block {
        var b = block
        switch b.kind {
        case .paragraph(let c): b.kind = .paragraph(f(c))
        case .heading(let level, let c): b.kind = .heading(level: level, content: f(c))
        case .blockQuote(let children): b.kind = .blockQuote(children.map { mapInlines($0, f) })
        case .list(var list):
            list.items = list.items.map { item in
                var item = item
                item.blocks = item.blocks.map { mapInlines($0, f) }
                return item
            }
            b.kind = .list(list)
        case .table(var t):
            t.header = t.header.map(f)
            t.rows = t.rows.map { $0.map(f) }
            b.kind = .table(t)
        case .footnoteDefinition(let label, let children):
            b.kind = .footnoteDefinition(label: label, blocks: children.map { mapInlines($0, f) })
        case .unknown(let name, let children):
            b.kind = .unknown(typeName: name, blocks: children.map { mapInlines($0, f) })
        case .codeBlock, .htmlBlock, .thematicBreak:
            break
        }
        return b
    }

    /// SHA-256 (hex) of everything the page `record`'s outputs read from the table: its own output
    /// path, the notes list's name, and for each link the target's path, output path, man name and
    /// section and the id its fragment found. Unchanged input + unchanged digest = unchanged pages.
    public func digest(of record: SiteRecord, resolutions: Resolutions? = nil) -> String {
        let table = resolver.table
        let rs = resolutions ?? self.resolutions(of: record)
        var h = SHA256()
        func put(_ s: String) { h.update(s); h.update([0x1F]) }
        put(table.outputStem(forInput: record.path))
        put(notesIndexName)
        var seen = Set<LinkKey>()
        for l in record.links {
            let key = LinkKey(kind: l.kind, target: l.target)
            guard seen.insert(key).inserted, let r = rs[key] else { continue }
            put(l.kind.rawValue); put(l.target)
            switch r.target {
            case .external: put("external")
            case .none: put("none")
            case .page(let i):
                let t = table.records[i]
                put("page"); put(t.path); put(table.outputStem(t.path) ?? ""); put(t.manName ?? ""); put(t.manSection ?? "")
                put(r.id ?? "-")
            case .file(let i):
                put("file"); put(table.records[i].path)
            }
            h.update([0x1E])
        }
        return SHA256.hexString(h.finalize())
    }
}
