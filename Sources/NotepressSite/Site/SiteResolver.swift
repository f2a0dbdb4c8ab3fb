import Foundation
import Notepress
import NotepressAST

/// What a link of a page points at in the site, and what is wrong with it.
package struct LinkResolution: Sendable, Equatable, Hashable {
    /// Where the link goes.
    package enum Target: Sendable, Equatable, Hashable {
        /// Not into the site (a URL with a scheme, `//host`, empty): left as written, not checked.
        case external
        /// A page (record index in the table).
        case page(Int)
        /// Another file, an asset (record index).
        case file(Int)
        /// Nothing in the site.
        case none
    }

    /// Where the link goes.
    package var target: Target
    /// Pages: the id the fragment names (a heading id, or `^id` for a block anchor); `nil`
    /// without a fragment or when it names nothing.
    package var id: String?
    /// The fragment as written (without `#`), `nil` when there is none.
    package var fragment: String?
    /// Files: the query and fragment as written (`?raw=1#page=2`), kept on the rewritten link.
    /// Pages: the query as written (`?UI=MVC`), kept before the rewritten fragment.
    package var suffix: String = ""
    /// Why the link is broken (the link report's message), or `nil`.
    package var problem: String?
    /// What the link report says of a link that resolved all the same (an alias of several notes:
    /// which one it went to), or `nil`. Not a broken link (`--strict-links` lets it pass).
    package var notice: String?

    /// A link out of the site.
    package static let external = LinkResolution(target: .external)

    /// A resolution (see the properties).
    package init(target: Target, id: String? = nil, fragment: String? = nil, suffix: String = "", problem: String? = nil) {
        self.target = target
        self.id = id
        self.fragment = fragment
        self.suffix = suffix
        self.problem = problem
    }

    static func broken(_ message: String) -> LinkResolution { LinkResolution(target: .none, problem: message) }
    static func file(_ i: Int, suffix: String) -> LinkResolution { LinkResolution(target: .file(i), suffix: suffix) }

    /// A page's resolution with the link's query (`?UI=MVC`, or `""`) kept (``suffix``).
    func withQuery(_ query: String) -> LinkResolution {
        var r = self
        r.suffix = query
        return r
    }
}

/// Resolves links against a ``SiteTable`` (pure: same table, same answers).
///
/// Standard links (`[t](dest)`): the destination is split into path, query and fragment; the
/// path is percent-decoded and read relative to the page's folder (a leading `/` means the input
/// folder, as GitHub reads repository links); `..` may not climb above the input folder. The
/// path names a page or file of the table exactly (case matters), or a folder, which stands for
/// its index page (`index.*`, else `README.*`). A fragment is matched against the target's heading
/// ids, then percent-decoded, then slugged (``HeadingSlugger/slug(of:)``: `#Section Title`),
/// and `#^id` against its block anchors.
///
/// Wiki links (`[[target#fragment]]`): a target starting with `/`, `./` or `../` is a path (from
/// the input folder, or from the page's folder), with or without the file's extension. Any other
/// target is an identifier, matched case-insensitively (an exact-case match first) against the
/// end of every input's path without extension (`todo`, `house/todo`), or, with an extension that
/// is not a document's (`image.png`), against other files; pages first for links, files first
/// for image embeds; then against folders (their index page). Ties go to the shortest path
/// (fewest components, then fewest bytes, then byte order), as Foam and Obsidian resolve an
/// ambiguous name. An empty target is the page itself (`[[#Heading]]`). The fragment is
/// slugged (`[[Note#Section Title]]` → `#section-title`).
package struct SiteResolver: Sendable {
    /// The table links are resolved against.
    package let table: SiteTable
    /// Each page's heading ids and anchors, for fragment look-ups in O(1).
    let idSets: [Set<String>]
    /// Each page by its HTML output path (`sub/index.html` for `sub/README.md`): a link written
    /// to the page's output name is a link to the page.
    let byOutputPath: [String: Int]
    /// Pages by front-matter alias, in lower case (``SiteRecord/aliases``), in table order.
    let byAlias: [String: [Int]]

    /// A resolver for `table` (its id sets are made here, O(ids)).
    package init(table: SiteTable) {
        self.table = table
        idSets = table.records.map { r in Set(r.ids + r.anchors.map { "^" + $0 }) }
        var outputs: [String: Int] = [:]
        for (i, r) in table.records.enumerated() where r.kind == .page {
            outputs[table.outputStem(forInput: r.path) + ".html"] = outputs[table.outputStem(forInput: r.path) + ".html"] ?? i
        }
        byOutputPath = outputs
        var aliases: [String: [Int]] = [:]
        for (i, r) in table.records.enumerated() where r.kind == .page {
            for a in Set(r.aliases.map { $0.lowercased() }) { aliases[a, default: []].append(i) }
        }
        byAlias = aliases
    }

    /// The resolution of a link of the page at `from` (a record path).
    package func resolve(_ kind: SiteLinkRecord.Kind, _ target: String, from: String) -> LinkResolution {
        switch kind {
        case .wiki, .wikiImage: return resolveWiki(target, from: from, image: kind == .wikiImage)
        case .link, .image: return resolveStandard(target, from: from, image: kind == .image)
        }
    }

    func resolveStandard(_ destination: String, from: String, image: Bool) -> LinkResolution {
        if destination.isEmpty || SitePaths.isExternal(destination) { return .external }
        // Built only for a broken link (most links resolve).
        let what = { image ? "image '\(destination)'" : "link to '\(destination)'" }
        let (rawPath, query, fragment) = SitePaths.split(destination)
        if rawPath.isEmpty {
            guard let fragment, !fragment.isEmpty, let self_ = table.byPath[from] else { return .external }
            return pageResolution(self_, fragment: fragment, what: what, from: from, wiki: false)
        }
        let decoded = SitePaths.percentDecoded(rawPath)
        guard let path = SitePaths.resolve(decoded, inFolder: SitePaths.folderOf(from)) else {
            return .broken("\(what()): outside the input folder; not copied")
        }
        if let i = table.byPath[path], !decoded.hasSuffix("/") {
            if table.kinds[i] == .file {
                return .file(i, suffix: query + (fragment.map { "#" + $0 } ?? ""))
            }
            return pageResolution(i, fragment: fragment, what: what, from: from, wiki: false).withQuery(query)
        }
        // A link written to a page's output (`sub/index.html`, `sub/page.html`), as a reader of
        // the site would write it: that page.
        if table.byPath[path] == nil, let i = byOutputPath[path] {
            return pageResolution(i, fragment: fragment, what: what, from: from, wiki: false).withQuery(query)
        }
        if table.folders.contains(path) {
            guard let index = table.folderIndex[path] else {
                return .broken("\(what()): folder \(path.isEmpty ? "." : path) has no index page (index or README)")
            }
            return pageResolution(index, fragment: fragment, what: what, from: from, wiki: false).withQuery(query)
        }
        return .broken("\(what()): no such file \(path)")
    }

    /// A page's resolution with its fragment matched.
    func pageResolution(_ i: Int, fragment: String?, what: () -> String, from: String, wiki: Bool) -> LinkResolution {
        guard let fragment, !fragment.isEmpty else { return LinkResolution(target: .page(i), fragment: fragment) }
        if let id = matchFragment(fragment, in: i, wiki: wiki) {
            return LinkResolution(target: .page(i), id: id, fragment: fragment)
        }
        let page = table.paths[i]
        let missing = fragment.hasPrefix("^") ? "no block anchor '\(fragment)'" : "no heading '\(SitePaths.percentDecoded(fragment))'"
        return LinkResolution(target: .page(i), fragment: fragment,
                              problem: "\(what()): \(missing) in \(page == from ? "this page (\(page))" : page)")
    }

    /// The id in page `i` a fragment names, if any (see the type's rules).
    func matchFragment(_ fragment: String, in i: Int, wiki: Bool) -> String? {
        let ids = idSets[i]
        if ids.contains(fragment) { return fragment }
        if wiki, !fragment.hasPrefix("^"), fragment.contains("#") { return matchHeadingPath(fragment, in: i) }
        let decoded = SitePaths.percentDecoded(fragment)
        if ids.contains(decoded) { return decoded }
        if decoded.hasPrefix("^") { return nil }
        let slug = HeadingSlugger.slug(of: decoded)
        return ids.contains(slug) ? slug : nil
    }

    /// Obsidian's heading path `A#B#C` (`[[Note#A#B]]`): heading C, the first after B, itself
    /// the first after A, in document order; each step matches a heading's id, its text
    /// (slugged), or a numbered repeat of that slug (`usage-1`: the second "Usage").
    func matchHeadingPath(_ path: String, in i: Int) -> String? {
        let ids = table.records[i].ids
        var from = 0
        var found: String?
        for step in path.split(separator: "#").map({ SitePaths.percentDecoded(String($0)).trimmingHorizontalWhitespace() }) where !step.isEmpty {
            let slug = HeadingSlugger.slug(of: step)
            func matches(_ id: String) -> Bool {
                if id == step || id == slug { return true }
                guard id.hasPrefix(slug + "-") else { return false }
                let n = id.utf8.dropFirst(slug.utf8.count + 1)
                return !n.isEmpty && n.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
            }
            guard let k = ids[from...].firstIndex(where: matches) else { return nil }
            found = ids[k]
            from = k + 1
        }
        return found
    }

    func resolveWiki(_ target: String, from: String, image: Bool) -> LinkResolution {
        let what = { "wiki link '[[\(target)]]'" }
        var name = target
        var fragment: String?
        if let hash = target.firstIndex(of: "#") {
            name = String(target[..<hash]).trimmingHorizontalWhitespace()
            fragment = String(target[target.index(after: hash)...]).trimmingHorizontalWhitespace()
        }
        if name.isEmpty {
            guard let self_ = table.byPath[from] else { return .broken("\(what()): not in the site") }
            return pageResolution(self_, fragment: fragment, what: what, from: from, wiki: true)
        }
        var found: Int?
        if name.hasPrefix("/") || name.hasPrefix("./") || name.hasPrefix("../") {
            guard let path = SitePaths.resolve(name, inFolder: SitePaths.folderOf(from)) else {
                return .broken("\(what()): outside the input folder")
            }
            found = wikiPath(path, image: image)
        } else {
            found = wikiIdentifier(name, image: image)
        }
        var ambiguity: String?
        if found == nil || (table.kinds[found!] == .file && !image), let a = aliasTarget(name, what: what) {
            // No note of that name: a note's front-matter alias.
            found = a.page
            ambiguity = a.problem
        }
        guard let i = found else {
            return .broken("\(what()): no note or file named '\(name)'")
        }
        if let ambiguity {
            var r = pageResolution(i, fragment: fragment, what: what, from: from, wiki: true)
            r.notice = ambiguity
            return r
        }
        if table.kinds[i] == .file { return .file(i, suffix: fragment.map { "#" + $0 } ?? "") }
        return pageResolution(i, fragment: fragment, what: what, from: from, wiki: true)
    }

    /// A path from a wiki link: the input at it, the page at it plus a document extension, or
    /// the folder's index page.
    func wikiPath(_ path: String, image: Bool) -> Int? {
        if let i = table.byPath[path] { return i }
        let lower = path.lowercased()
        if let i = (table.byName[PathText.lastComponent(lower)] ?? []).first(where: {
            table.kinds[$0] == .page && table.wikiKeys[$0] == lower
        }) {
            return i
        }
        return table.folderIndex[path]
    }

    /// An identifier from a wiki link (see the type's rules).
    func wikiIdentifier(_ name: String, image: Bool) -> Int? {
        let ext = WikiLinkSyntax.fileExtension(name)
        let isDocument = !ext.isEmpty && DocumentLoader.inputExtensions.contains { $0.extension == ext }
        let wanted = (isDocument ? PathText.deletingExtension(name) : name)
        let lower = wanted.lowercased()
        let key = PathText.lastComponent(lower)
        let slashed = "/" + lower
        let candidates = (table.byName[key] ?? []).filter { i in
            let p = table.wikiKeys[i]
            return p == lower || p.hasSuffix(slashed)
        }
        let pages = candidates.filter { table.kinds[$0] == .page && (ext.isEmpty || isDocument) }
        let files = candidates.filter { table.kinds[$0] == .file }
        let ordered = image ? [files, pages] : [pages, files]
        for group in ordered where !group.isEmpty {
            return shortest(group, exactCase: wanted)
        }
        // A folder: its index page.
        let folders = (table.foldersByName[key] ?? []).filter { f in
            let l = f.lowercased()
            return (l == lower || l.hasSuffix("/" + lower)) && table.folderIndex[f] != nil
        }
        guard !folders.isEmpty else { return nil }
        let best = folders.min { a, b in Self.shorter(a, b) }!
        return table.folderIndex[best]
    }

    /// The page whose front-matter alias is `name` (ASCII and Unicode case ignored); several:
    /// the shortest path, as for names, with the ambiguity reported.
    func aliasTarget(_ name: String, what: () -> String) -> (page: Int, problem: String?)? {
        guard let pages = byAlias[name.lowercased()], !pages.isEmpty else { return nil }
        let best = pages.min { Self.shorter(table.paths[$0], table.paths[$1]) }!
        guard pages.count > 1 else { return (best, nil) }
        let names = pages.map { table.paths[$0] }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return (best, "\(what()): alias '\(name)' of \(pages.count) notes (\(names.joined(separator: ", "))); linked to \(table.paths[best])")
    }

    /// The candidate with an exact-case match if any, then the shortest path.
    func shortest(_ group: [Int], exactCase: String) -> Int {
        let slashed = "/" + exactCase
        let exact = group.count == 1 ? group : group.filter { i in
            let p = table.wikiPaths[i]
            return p == exactCase || p.hasSuffix(slashed)
        }
        let pool = exact.isEmpty ? group : exact
        return pool.min { Self.shorter(table.paths[$0], table.paths[$1]) }!
    }

    /// Fewer path components, then fewer bytes, then byte order.
    static func shorter(_ a: String, _ b: String) -> Bool {
        let ca = a.utf8.filter { $0 == 0x2F }.count, cb = b.utf8.filter { $0 == 0x2F }.count
        if ca != cb { return ca < cb }
        if a.utf8.count != b.utf8.count { return a.utf8.count < b.utf8.count }
        return a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}
