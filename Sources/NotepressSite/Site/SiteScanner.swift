import Foundation
import Notepress
import NotepressAST
import NotepressMan
import NotepressRawHTML

/// The scan of a site: one ``SiteRecord`` per input from its parsed document (or, for other
/// files, from its path alone). What a page's record holds is what other pages and site-wide
/// outputs may read about it (see ``SiteTable``).
package enum SiteScanner {
    /// The longest excerpt kept, in characters (an ellipsis `…` marks a cut).
    package static let excerptLength = 200

    /// The record of page `relative` read as `document` (whose headings carry their ids:
    /// ``Document/assigningHeadingIDs()``; ids are assigned here when they do not).
    package static func record(_ relative: String, document: Document) -> SiteRecord {
        let meta = document.metadata
        var r = SiteRecord(path: relative, kind: .page)
        r.format = meta.sourceFormat
        r.title = meta.title
        r.titleSource = meta.titleSource
        r.created = meta.created.map { CivilDateTime($0).iso8601 }
        r.tags = meta.tags
        r.aliases = Self.aliases(meta)
        // A tiddler is named by its `title:` (TiddlyWiki links name titles, and a title such as
        // `$:/AdvancedSearch` is stored as `$__AdvancedSearch.tid`): links find it by that name.
        if meta.titleSource == .frontMatter, let t = meta.title?.trimmingHorizontalWhitespace(), !t.isEmpty,
           DocumentLoader.isTiddler(relative), !r.aliases.contains(t) {
            r.aliases.append(t)
        }
        r.fields = meta.fields
        // One walk for the ids, anchors and links.
        var complete = true
        var links: [SiteLinkRecord] = []
        // The search's sections: the top part, then one per heading.
        var sections: [SiteSearchSection] = []
        var words: [String] = []
        var snippet = ""
        var sectionID = "", sectionHeading = ""
        func closeSection() {
            if !words.isEmpty || !sectionHeading.isEmpty {
                sections.append(SiteSearchSection(id: sectionID, heading: sectionHeading,
                                                  words: words.prefix(SiteSearchSection.maxTerms).joined(separator: " "),
                                                  text: String(snippet.prefix(SiteSearchSection.textLength))))
            }
            words.removeAll(keepingCapacity: true)
            snippet = ""
        }
        func text(_ c: Inlines) {
            guard words.count < SiteSearchSection.maxTerms else { return }
            let plain = c.plainText
            SearchTerms.terms(plain, into: &words)
            if snippet.count < SiteSearchSection.textLength {
                let collapsed = plain.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                if !collapsed.isEmpty { snippet += (snippet.isEmpty ? "" : " ") + collapsed }
            }
        }
        document.forEachBlock { block, _ in
            switch block.kind {
            case .heading(_, let c):
                if let id = block.id { r.ids.append(id) } else { complete = false }
                collectLinks(c, into: &links)
                closeSection()
                sectionID = block.id ?? ""
                sectionHeading = c.plainText
            case .paragraph(let c):
                if let id = block.id, id.hasPrefix("^") { r.anchors.append(String(id.dropFirst())) }
                collectLinks(c, into: &links)
                text(c)
            case .table(let t):
                for cell in t.header { collectLinks(cell, into: &links); text(cell) }
                for row in t.rows { for cell in row { collectLinks(cell, into: &links); text(cell) } }
            case .definitionList(let items):
                for item in items { collectLinks(item.term, into: &links); text(item.term) }
            default: break
            }
        }
        closeSection()
        r.search = sections
        if !complete { r.ids = document.headingIDs().map(\.id) }
        // Raw HTML's anchors are link targets, its links and images are checked and copied (#53).
        let html = RawHTMLReferences.of(document)
        r.ids += html.anchors
        for (link, image) in html.destinations {
            if link.destination.isEmpty || SitePaths.isExternal(link.destination) { continue }
            links.append(SiteLinkRecord(kind: image ? .image : .link, target: link.destination,
                                        line: link.position?.line ?? 0, column: link.position?.column ?? 0))
        }
        r.links = links
        r.embeds = SiteEmbeds.targets(document)
        r.excerpt = excerpt(document)
        r.math = Self.hasMath(document)
        // The name and section the page is installed under (`nil`: no man title; links then
        // name it by its file, ``SiteTable``).
        let man = ManTitleResolver.installedName(document, path: relative)
        r.manName = man?.name
        r.manSection = man?.section
        if SiteSummary.isSummary(relative, format: meta.sourceFormat) { r.summary = SiteSummary.entries(document) }
        return r
    }

    /// Front-matter `aliases` (also `alias`): a list of names, or one name (commas do not split
    /// it: Obsidian reads a list), trimmed, empty ones left out.
    static func aliases(_ meta: DocumentMetadata) -> [String] {
        var out: [String] = []
        for key in ["aliases", "alias"] {
            if let s = meta.fields[key] { out.append(s) }
            if case .list(let items)? = meta.collections[key] {
                for case .string(let s) in items { out.append(s) }
            }
        }
        return out.map { $0.trimmingHorizontalWhitespace() }.filter { !$0.isEmpty }
    }

    /// Whether any inline content of `document` holds a math span.
    static func hasMath(_ document: Document) -> Bool {
        func inl(_ c: Inlines) -> Bool { c.spans.contains { if case .math = $0.kind { return true } else { return false } } }
        var found = false
        document.forEachBlock { b, _ in
            guard !found else { return }
            switch b.kind {
            case .paragraph(let c), .heading(_, let c): found = inl(c)
            case .table(let t): found = t.header.contains(where: inl) || t.rows.contains { $0.contains(where: inl) }
            case .definitionList(let items): found = items.contains { inl($0.term) }
            default: break
            }
        }
        return found
    }

    /// The record of a file that is not a page (an asset).
    package static func fileRecord(_ relative: String) -> SiteRecord {
        SiteRecord(path: relative, kind: .file)
    }

    /// The files the images of files given themselves (``InputFile/given``: several files, not a
    /// folder) name, read from each file's own folder: the site's other files, under the path
    /// the image gives from the page (`img/a.png` beside `notes/x.md` is `img/a.png`, as its
    /// page `x.html` links it), so they resolve and are copied as a folder's are. Only regular
    /// files; not a path that climbs out (`../a.png`), is `known` (a file of the site already),
    /// or another given file's image took (the first file given wins).
    static func besideFiles(_ files: [InputFile], records: [SiteRecord], known: Set<String>) -> [InputFile] {
        var recordOf: [String: Int] = [:]
        for (i, r) in records.enumerated() where r.kind == .page { recordOf[r.path] = recordOf[r.path] ?? i }
        var out: [InputFile] = []
        var taken = known
        for f in files where f.given && f.path != "-" {
            guard let r = recordOf[f.relative] else { continue }
            let folder = PathText.deletingLastComponent(f.path)
            for link in records[r].links where link.kind == .image {
                let decoded = SitePaths.percentDecoded(SitePaths.split(link.target).path)
                guard !decoded.isEmpty, !decoded.hasPrefix("/"), let virtual = SitePaths.resolve(decoded, inFolder: ""),
                      !taken.contains(virtual) else { continue }
                let real = folder.isEmpty ? decoded : PathText.join(folder, decoded)
                guard Platform.status(real)?.kind == .regular else { continue }
                taken.insert(virtual)
                out.append(InputFile(path: real, relative: virtual))
            }
        }
        return out
    }

    /// Every link and image into the site (not external, not empty), in document order.
    static func links(in document: Document) -> [SiteLinkRecord] {
        var out: [SiteLinkRecord] = []
        document.forEachBlock { block, _ in
            switch block.kind {
            case .paragraph(let c), .heading(_, let c): collectLinks(c, into: &out)
            case .table(let t):
                for cell in t.header { collectLinks(cell, into: &out) }
                for row in t.rows { for cell in row { collectLinks(cell, into: &out) } }
            case .definitionList(let items): for item in items { collectLinks(item.term, into: &out) }
            default: break
            }
        }
        return out
    }

    /// The links and images into the site of one inline content, appended to `out`.
    static func collectLinks(_ c: Inlines, into out: inout [SiteLinkRecord]) {
            for span in c.spans {
                let link: Link
                let image: Bool
                switch span.kind {
                case .link(let l): link = l; image = false
                case .image(let l): link = l; image = true
                default: continue
                }
                let kind: SiteLinkRecord.Kind = link.syntax == .wiki ? (image ? .wikiImage : .wiki) : (image ? .image : .link)
                if link.syntax == .standard && (link.destination.isEmpty || SitePaths.isExternal(link.destination)) { continue }
                out.append(SiteLinkRecord(kind: kind, target: link.destination, line: link.position?.line ?? 0,
                                          column: link.position?.column ?? 0))
            }
    }

    /// The first top-level paragraph's plain text, spaces collapsed, cut at a word boundary to
    /// at most ``excerptLength`` characters (`…` added when cut); `nil` when there is none.
    static func excerpt(_ document: Document) -> String? {
        for b in document.blocks {
            guard case .paragraph(let c) = b.kind else { continue }
            // The paragraph's text with runs of spaces, tabs and line breaks as one space, trimmed;
            // at most 4 bytes per character are needed for the cut, so a long paragraph stops early.
            var bytes: [UInt8] = []
            let enough = excerptLength * 4 + 4
            var space = false
            func add(_ s: String) {
                for u in s.utf8 {
                    if u == 0x20 || u == 0x0A || u == 0x09 || u == 0x0D {
                        space = !bytes.isEmpty
                    } else {
                        if space { bytes.append(0x20); space = false }
                        bytes.append(u)
                    }
                }
            }
            for run in c.runs where bytes.count < enough {
                switch run.content {
                case .text(let t): add(t)
                case .softBreak, .hardBreak: space = !bytes.isEmpty
                case .footnoteReference(_, let n, _): add(String(n))
                case .rawHTML: break
                }
            }
            if bytes.isEmpty { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            if bytes.count < excerptLength { return text }  // fewer bytes than the limit: fewer characters
            guard text.count > excerptLength - 1 || bytes.count >= enough else { return text }
            // Cut at the last space before the limit (or inside a very long first word).
            let head = text.prefix(excerptLength - 1)
            if let lastSpace = head.lastIndex(of: " ") { return String(head[..<lastSpace]) + "…" }
            return String(head) + "…"
        }
        return nil
    }
}
