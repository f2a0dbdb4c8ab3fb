import Foundation
import Notepress
import NotepressAST

/// Note embeds in a site run (Obsidian's and Foam's transclusion): a paragraph that is only
/// `![[note]]` becomes the note's body under its title as a heading, `![[note#Heading]]` that
/// section (the heading and what follows it up to the next heading of its level or above),
/// `![[note#^id]]` the block with that anchor; in every format.
///
/// - The target resolves as a wiki link from the page that embeds it (``SiteResolver``: names,
///   paths, aliases).
/// - Links inside the embedded content resolve from the embedded note and are written relative
///   to the embedding page (``SiteRewriter/rewrite(_:path:resolutions:format:fileExtension:notesIndex:outputFrom:)``).
/// - Headings are placed below the host's (``wholeNote(_:title:)``, ``section(_:under:)``): a
///   whole note under its title at level 2, its own headings one level down; a section one level
///   below the host heading it appears under. No embedded `#` heading becomes a second page title.
/// - Embeds in the embedded content are expanded too, at most ``maxDepth`` deep; a cycle (a note
///   embedding itself, or a note it embeds) or a deeper embed stays a link, with a warning at the
///   file, line and column where that `![[…]]` is written (the page's or an embedded note's). So
///   does an embed whose target or fragment is not found, and an embed inside a paragraph with
///   other text (written as a link to the note).
/// - Ids of the inserted blocks are dropped (the page keeps unique ids).
/// - The site table records each page's embeds (``SiteRecord/embeds``); the page's digest
///   includes the embedded notes' text (at any depth), so an edit of one renders the embedding
///   page again, and the depfile lists the embedded inputs (``dependencies(of:)``).
package struct SiteEmbeds: Sendable {
    /// The deepest embed inside embedded content.
    package static let maxDepth = 4
    let rewriter: SiteRewriter
    /// Input paths by their path below the input folder.
    let sources: [String: String]
    /// Loads the document of a page by its path below the input folder.
    let load: @Sendable (String) -> Document?

    package init(rewriter: SiteRewriter, sources: [String: String], load: @escaping @Sendable (String) -> Document?) {
        self.rewriter = rewriter
        self.sources = sources
        self.load = load
    }

    /// The embeds of a run of `batch`: embedded notes are read again (once per embedding page and
    /// format) with the run's loader. A shard's embedded notes may be other shards' inputs: they
    /// are read below the input folder (`--root`).
    static func forRun(_ batch: BatchConverter, rewriter: SiteRewriter, sources: [String: String], sharded: Bool) -> SiteEmbeds {
        var paths = sources
        if sharded, let root = batch.inputFolders.first {
            for r in rewriter.resolver.table.records where r.kind == .page && paths[r.path] == nil { paths[r.path] = root + "/" + r.path }
        }
        let known = paths
        return SiteEmbeds(rewriter: rewriter, sources: known) { relative in
            guard let path = known[relative], let bytes = try? DocumentLoader.read(path) else { return nil }
            return try? batch.load(InputFile(path: path, relative: relative), bytes: bytes, modified: nil).0
        }
    }

    /// The targets of the note embeds of `document`, as written, in document order.
    package static func targets(_ document: Document) -> [String] {
        var out: [String] = []
        document.forEachBlock { b, _ in
            switch b.kind {
            case .paragraph(let c), .heading(_, let c):
                for s in c.spans { if case .link(let l) = s.kind, l.isEmbed { out.append(l.destination) } }
            default: break
            }
        }
        return out
    }

    /// The names the note embeds of `records` may resolve by, in lower case: each target's name
    /// (before `#`) as written, and its last component without a document extension. A superset
    /// of what ``SiteResolver`` matches (file name, path suffix, alias, a folder's index page):
    /// see ``mayBeEmbedded(_:names:)``.
    package static func embedNames(_ records: [SiteRecord]) -> Set<String> {
        var names = Set<String>()
        for r in records {
            for t in r.embeds {
                let name = (t.firstIndex(of: "#").map { String(t[..<$0]) } ?? t).trimmingHorizontalWhitespace().lowercased()
                guard !name.isEmpty else { continue }
                names.insert(name)
                // `![[./folder/]]`: the folder's name (its index page).
                var trimmed = Substring(name)
                while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
                var last = PathText.lastComponent(String(trimmed))
                if DocumentLoader.format(forPath: last) != nil { last = PathText.deletingExtension(last) }
                names.insert(last)
            }
        }
        return names
    }

    /// Whether a note embed may resolve to the page `r`: its file name without extension, its
    /// folder's name (a folder's index page) or one of its aliases is among `names`
    /// (``embedNames(_:)``). True for more pages than are embedded, never false for one that is.
    package static func mayBeEmbedded(_ r: SiteRecord, names: Set<String>) -> Bool {
        guard !names.isEmpty, r.kind == .page else { return false }
        let lower = r.path.lowercased()
        if names.contains(PathText.deletingExtension(PathText.lastComponent(lower))) { return true }
        let folder = SitePaths.folderOf(lower)
        if !folder.isEmpty, names.contains(PathText.lastComponent(folder)) { return true }
        return r.aliases.contains { names.contains($0.lowercased()) }
    }

    /// Record `i` and the records it embeds, at any depth up to ``maxDepth``, each once, in the
    /// order first met (the page `from` itself left out): what an embed of `i` puts into a page.
    package static func embedded(_ i: Int, from: String, resolver: SiteResolver) -> [Int] {
        let table = resolver.table
        var out: [Int] = []
        var seen: Set<Int> = []
        var level = [i]
        var depth = 0
        while !level.isEmpty, depth <= maxDepth {
            var next: [Int] = []
            for r in level where table.paths[r] != from && seen.insert(r).inserted {
                out.append(r)
                for t in table.records[r].embeds {
                    if case .page(let k) = resolver.resolve(.wiki, t, from: table.paths[r]).target { next.append(k) }
                }
            }
            level = next
            depth += 1
        }
        return out
    }

    /// The input paths the page `record` embeds (at any depth), for the depfile.
    package func dependencies(of record: SiteRecord) -> [String] {
        var out: [String] = []
        for t in record.embeds {
            guard case .page(let i) = rewriter.resolver.resolve(.wiki, t, from: record.path).target else { continue }
            for e in Self.embedded(i, from: record.path, resolver: rewriter.resolver) {
                if let p = sources[rewriter.resolver.table.paths[e]], !out.contains(p) { out.append(p) }
            }
        }
        return out
    }

    /// The embed a paragraph consists of (whitespace aside), or `nil`.
    static func embed(_ c: Inlines) -> Link? {
        var found: (Int, Link)?
        for (i, s) in c.spans.enumerated() {
            if case .link(let l) = s.kind, l.isEmbed {
                if found != nil { return nil }
                found = (i, l)
            }
        }
        guard let (index, link) = found else { return nil }
        for r in c.runs.indices {
            if c.runs[r].span != nil, c.spanChain(ofRun: r).contains(index) { continue }
            switch c.runs[r].content {
            case .text(let t) where t.allSatisfy({ $0 == " " || $0 == "\t" }): continue
            case .softBreak, .hardBreak: continue
            default: return nil
            }
        }
        return link
    }

    /// `document`, the page at `path`, with its embeds expanded for a writer (`format`,
    /// `fileExtension`); warnings go to `diagnostics` when it is given (the first writer).
    package func expand(_ document: Document, path: String, format: OutputFormat, fileExtension: String,
                        diagnostics: inout [Diagnostic]) -> Document {
        guard document.blocks.contains(where: Self.mayEmbed) else { return document }
        var d = document
        var context = Context(page: path, file: document.metadata.sourcePath ?? path, format: format, fileExtension: fileExtension)
        d.blocks = expand(d.blocks, from: path, chain: [path], under: 1, context: &context)
        d.knownFreeOfRawHTML = false  // an embedded note may hold raw HTML
        if context.footnotesEmbedded { d.blocks = Self.numberingFootnotes(d.blocks) }
        diagnostics += context.diagnostics
        return d
    }

    struct Context {
        let page: String
        /// The file whose blocks are being expanded (the page's, or an embedded note's input
        /// path): where warnings about the embeds written in it point.
        var file: String
        let format: OutputFormat
        let fileExtension: String
        var diagnostics: [Diagnostic] = []
        var warned = Set<String>()
        /// Embeds expanded so far: each one's footnote labels get its number as a prefix.
        var embeds = 0
        /// An embedded note brought footnotes (the page's are then numbered again).
        var footnotesEmbedded = false
        /// The embeds being expanded, outermost first (``key(_:_:)``): a part that holds one of
        /// them would contain itself.
        var open: [String] = []

        /// An embed's identity: the page it is written in (its path below the input folder) and
        /// its line:column there.
        static func key(_ file: String, _ position: SourcePosition?) -> String {
            file + "\u{0}" + (position?.description ?? "")
        }
    }

    /// Whether a block holds an embed anywhere (a quick test before the rebuild).
    static func mayEmbed(_ b: Block) -> Bool {
        switch b.kind {
        case .paragraph(let c): return c.spans.contains { if case .link(let l) = $0.kind { return l.isEmbed } else { return false } }
        case .table(let t): return !tableEmbeds(t).isEmpty
        default: return !b.children.isEmpty && b.children.contains(where: mayEmbed)
        }
    }

    /// `blocks` with their embeds expanded; `hostLevel` is the level of the heading the blocks
    /// appear under (1 at a page's start: its title's), followed through the blocks' own headings.
    func expand(_ blocks: [Block], from: String, chain: [String], under hostLevel: Int, context: inout Context) -> [Block] {
        var out: [Block] = []
        out.reserveCapacity(blocks.count)
        var hostLevel = hostLevel
        for b in blocks {
            switch b.kind {
            case .heading(let level, _):
                hostLevel = level
                out.append(b)
            case .paragraph(let c):
                if let link = Self.embed(c) {
                    out += embedded(link, block: b, from: from, chain: chain, under: hostLevel, context: &context)
                } else {
                    if Self.mayEmbed(b), chain.count == 1 {
                        warn("embed inside a paragraph with other text: written as a link", b.position, &context)
                    }
                    out.append(b)
                }
            case .blockQuote(let children):
                var n = b; n.kind = .blockQuote(expand(children, from: from, chain: chain, under: hostLevel, context: &context)); out.append(n)
            case .alert(var a):
                a.blocks = expand(a.blocks, from: from, chain: chain, under: hostLevel, context: &context)
                var n = b; n.kind = .alert(a); out.append(n)
            case .list(var l):
                for k in l.items.indices {
                    l.items[k].blocks = expand(l.items[k].blocks, from: from, chain: chain, under: hostLevel, context: &context)
                }
                var n = b; n.kind = .list(l); out.append(n)
            case .table(let t):
                if chain.count == 1 { warnKept(Self.tableEmbeds(t), in: "a table cell", b, &context) }
                out.append(b)
            case .footnoteDefinition(_, let children):
                if chain.count == 1 { warnKept(Self.blockEmbeds(children), in: "a footnote definition", b, &context) }
                out.append(b)
            default:
                out.append(b)
            }
        }
        return out
    }

    func warn(_ message: String, _ position: SourcePosition?, _ context: inout Context) {
        let key = context.file + ":" + (position?.description ?? "") + message
        guard context.warned.insert(key).inserted else { return }
        context.diagnostics.append(Diagnostic(.warning, message, file: context.file, position: position))
    }

    /// The blocks an embed stands for, or the paragraph itself (a link) with a warning; their
    /// headings placed below the host's (``wholeNote(_:title:)``, ``section(_:under:)``).
    func embedded(_ link: Link, block: Block, from: String, chain: [String], under hostLevel: Int,
                  context: inout Context) -> [Block] {
        let what = "embed '![[\(link.destination)]]'"
        // Warnings point at this embed where it is written (in `from`, the page or a note it embeds).
        let position = link.position ?? block.position
        let r = rewriter.resolver.resolve(.wiki, link.destination, from: from)
        guard case .page(let i) = r.target else {
            let note = link.destination.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            warn("\(what): no note named '\(note)'; written as a link", position, &context)
            return [block]
        }
        let table = rewriter.resolver.table
        let target = table.paths[i]
        let targetFile = sources[target] ?? target
        if chain.contains(target), chain.count > Self.maxDepth {
            // A note met again this deep is a cycle (its part would be read to tell).
            return cycle(what, target: target, chain: chain, position, &context, block)
        }
        guard chain.count <= Self.maxDepth else {
            warn("\(what): embeds nested deeper than \(Self.maxDepth); written as a link", position, &context)
            return [block]
        }
        guard let document = load(target) else {
            warn("\(what): \(target) could not be read; written as a link", position, &context)
            return [block]
        }
        var selected: [Block]
        if let fragment = r.fragment, !fragment.isEmpty {
            guard let id = r.id, let part = Self.part(of: document.blocks, id: id) else {
                warn("\(what): no \(fragment.hasPrefix("^") ? "block anchor" : "heading") '\(fragment)' in \(target); written as a link",
                     position, &context)
                return [block]
            }
            selected = fragment.hasPrefix("^") ? part : Self.section(part, under: hostLevel)
        } else {
            selected = Self.wholeNote(document.blocks, title: document.metadata.title ?? target)
        }
        // The definitions of the footnotes the part refers to come with it (a section or a block
        // leaves them behind at the end of the note).
        // A cycle only when the part holds an embed being expanded (this one, or one that led
        // here): another section of the same note, or of a note that embeds this one, is not one.
        let open = context.open + [Context.key(from, position)]
        if chain.contains(target), Self.containsEmbed(selected, file: target, among: Set(open)) {
            return cycle(what, target: target, chain: chain, position, &context, block)
        }
        let referenced = Self.footnoteLabels(selected)
        if !referenced.isEmpty {
            let present = Set(selected.compactMap { b -> String? in
                if case .footnoteDefinition(let l, _) = b.kind { return l } else { return nil }
            })
            selected += document.blocks.filter { b in
                if case .footnoteDefinition(let l, _) = b.kind { return referenced.contains(l) && !present.contains(l) }
                return false
            }
        }
        let file = context.file, outer = context.open
        context.file = targetFile
        context.open = open
        selected = expand(selected, from: target, chain: chain + [target], under: hostLevel, context: &context)
        context.file = file
        context.open = outer
        let rewritten = rewriter.rewrite(Document(metadata: document.metadata, blocks: selected), path: target,
                                         resolutions: rewriter.resolutions(of: table.records[i]), format: context.format,
                                         fileExtension: context.fileExtension, notesIndex: false, outputFrom: context.page)
        var blocks = rewritten.blocks.map { var b = $0; b.id = nil; return b }
        if !referenced.isEmpty || blocks.contains(where: { if case .footnoteDefinition = $0.kind { return true } else { return false } }) {
            // Its labels made its own (the page's `[^1]` is another note), numbered with the page's.
            context.embeds += 1
            context.footnotesEmbedded = true
            // A space is in no label libcmark-gfm reads (`[^a b]` is no footnote): the label
            // cannot be one the author wrote; ``numberingFootnotes(_:)`` gives it its final name.
            blocks = Self.relabelingFootnotes(blocks, prefix: "embed\(context.embeds) ")
        }
        return blocks
    }

    /// The labels of the footnote references in `blocks`, at any depth.
    static func footnoteLabels(_ blocks: [Block]) -> Set<String> {
        var out = Set<String>()
        for b in blocks {
            _ = InlineRewriting.changingInlines(b, spanless: true) { c in
                for r in c.runs { if case .footnoteReference(let l, _, _) = r.content { out.insert(l) } }
                return nil
            }
        }
        return out
    }

    /// `blocks` with every footnote label (references and definitions) prefixed by `prefix`.
    static func relabelingFootnotes(_ blocks: [Block], prefix: String) -> [Block] {
        blocks.map { block in
            var b = InlineRewriting.mapInlines(block, spanless: true) { c in
                guard c.runs.contains(where: { if case .footnoteReference = $0.content { return true } else { return false } }) else { return nil }
                var n = c
                for k in n.runs.indices {
                    if case .footnoteReference(let l, let number, let occurrence) = n.runs[k].content {
                        n.runs[k].content = .footnoteReference(label: prefix + l, number: number, occurrence: occurrence)
                    }
                }
                return n
            }
            if case .footnoteDefinition(let l, let children) = b.kind { b.kind = .footnoteDefinition(label: prefix + l, blocks: children) }
            return b
        }
    }

    /// A page's blocks after its embeds brought footnotes: every definition moved to the end (out
    /// of quotes, callouts and list items an embed sat in), in the order of first reference, each
    /// reference numbered by it and counted (`occurrence`), as libcmark-gfm numbers a document's
    /// own; a definition nothing refers to is dropped, as libcmark-gfm drops it.
    static func numberingFootnotes(_ blocks: [Block]) -> [Block] {
        var definitions: [String: Block] = [:]
        func strip(_ blocks: [Block]) -> [Block] {
            var out: [Block] = []
            for b in blocks {
                var n = b
                switch b.kind {
                case .footnoteDefinition(let l, _):
                    if definitions[l] == nil { definitions[l] = b }
                    continue
                case .blockQuote(let children): n.kind = .blockQuote(strip(children))
                case .alert(var a): a.blocks = strip(a.blocks); n.kind = .alert(a)
                case .list(var l):
                    for k in l.items.indices { l.items[k].blocks = strip(l.items[k].blocks) }
                    n.kind = .list(l)
                default: break
                }
                out.append(n)
            }
            return out
        }
        let body = strip(blocks)
        // Embedded labels (``relabelingFootnotes(_:prefix:)``: with a space) get names no label
        // the page or its notes wrote takes (`embed2-1`, else `embed2-1-2`, …; case ignored, as
        // labels match), so two notes never merge into one.
        var taken = Set(definitions.keys.filter { !$0.contains(" ") }.map { $0.lowercased() })
        var renamed: [String: String] = [:]
        for l in definitions.keys.sorted() where l.contains(" ") {
            let base = l.replacingOccurrences(of: " ", with: "-")
            var name = base, n = 1
            while taken.contains(name.lowercased()) { n += 1; name = base + "-" + String(n) }
            taken.insert(name.lowercased())
            renamed[l] = name
        }
        var number: [String: Int] = [:]
        var occurrences: [String: Int] = [:]
        var order: [String] = []
        func renumber(_ c: Inlines) -> Inlines? {
            var n = c
            var changed = false
            for k in n.runs.indices {
                guard case .footnoteReference(let l, let old, let oldOccurrence) = n.runs[k].content, definitions[l] != nil else { continue }
                let num: Int
                if let known = number[l] { num = known } else { order.append(l); num = order.count; number[l] = num }
                let occurrence = occurrences[l, default: 0] + 1
                occurrences[l] = occurrence
                let name = renamed[l] ?? l
                if num != old || occurrence != oldOccurrence || name != l {
                    n.runs[k].content = .footnoteReference(label: name, number: num, occurrence: occurrence)
                    changed = true
                }
            }
            return changed ? n : nil
        }
        var out = body.map { InlineRewriting.mapInlines($0, spanless: true, renumber) }
        // Definitions in number order; one may refer to a note not met yet (it is numbered next).
        var k = 0
        while k < order.count {
            var d = InlineRewriting.mapInlines(definitions[order[k]]!, spanless: true, renumber)
            if let name = renamed[order[k]], case .footnoteDefinition(_, let children) = d.kind {
                d.kind = .footnoteDefinition(label: name, blocks: children)
            }
            out.append(d)
            k += 1
        }
        return out
    }

    /// The section of heading `id` (the heading and the blocks up to the next heading of its
    /// level or above), or the block whose anchor is `id` (`^x`), at any depth.
    static func part(of blocks: [Block], id: String) -> [Block]? {
        if id.hasPrefix("^") {
            var stack = Array(blocks.reversed())
            while let b = stack.popLast() {
                if b.id == id { return [b] }
                stack += b.children.reversed()
            }
            return nil
        }
        guard let start = blocks.firstIndex(where: { $0.id == id }), case .heading(let level, _) = blocks[start].kind else { return nil }
        var end = start + 1
        while end < blocks.count {
            if case .heading(let l, _) = blocks[end].kind, l <= level { break }
            end += 1
        }
        return Array(blocks[start..<end])
    }
}
