import Foundation
import Notepress
import NotepressAST
import NotepressResources

/// The navigation of a site (sidebar, breadcrumbs, previous/next), made once per run from the
/// site table alone, so every shard of a site makes the same.
///
/// The tree: one section per folder, headed by the folder's index page (`index.*`, else
/// `README.*`; its title names the section, else the folder's name), holding the folder's pages
/// and subfolders. The root index page comes first. Order within a section:
/// 1. mdBook's `SUMMARY.md` at the root, when there is one (``SiteSummary``): its chapters, in
///    order, nested as its lists nest them, labelled by their link text; its part titles are
///    section headings and its `---` lines separators of the top level; drafts (no file) are
///    left out (warned when read); pages it does not list follow in the order below; `SUMMARY.md`
///    itself is not a page. The root index page comes first unless the summary places it.
/// 2. Front matter `nav_order` (or `weight`, Hugo's name), a number; smaller first; pages
///    without one after those with one.
/// 3. The title, in natural order (``NaturalOrder``: numbers as numbers, case ignored), then the path.
/// The reading order (previous/next) is the tree's depth-first order. The root's `404.*` page
/// (the site's not-found page) is not listed.
///
/// Size: a page's sidebar lists the whole tree when the site has at most ``fullTreeLimit`` pages;
/// in a larger site, only the sections on the way to the page are open, and an open section of
/// more than ``sectionLimit`` entries lists the ``window`` entries on either side of the page and
/// a link to the section's head for the rest (the top level likewise, with a link to the notes
/// list), so a page's size does not grow with the site.
package final class SiteNavigation: Sendable {
    /// A site of at most this many pages shows its whole tree on every page.
    package static let fullTreeLimit = 400
    /// An open section with more entries than this shows a window around the page.
    package static let sectionLimit = 100
    /// Entries each side of the page in a windowed section.
    package static let window = 20

    struct Node: Sendable {
        var title: String
        /// The record index of the page this node links to (a section's head), if any.
        var page: Int?
        /// The folder of a section node.
        var folder: String?
        var children: [Int] = []
        var parent: Int?
        /// A part title or a separator of `SUMMARY.md` (no page, no children).
        var role: Role = .entry
        /// An external link of MkDocs' `nav:` (no page): its URL.
        var url: String?
    }

    /// What a node shows.
    enum Role: Sendable { case entry, part, separator }

    let table: SiteTable
    let nodes: [Node]
    /// Top-level nodes.
    let top: [Int]
    /// Page record indices in reading order.
    package let order: [Int]
    /// Position in ``order`` by record index.
    let position: [Int: Int]
    /// The node of each page (record index → node index).
    let nodeOfPage: [Int: Int]
    /// The site title (`--site-title`, else the root index page's title, else `Notes`).
    package let siteTitle: String
    /// Whether every page shows the whole tree.
    let fullTree: Bool
    /// Whether the site has `print.html` (``SitePrint``): the header's Print link (`printHref`).
    package let printPage: Bool
    /// The record index of `SUMMARY.md` when it gives the order.
    let summary: Int?
    /// SHA-256 (hex) of everything the chrome of every page is made from (site title, the tree
    /// with its titles and output paths, the order): with the page itself, what a page's digest
    /// needs (a changed title rewrites the pages that show the tree).
    package let digest: String
    /// MkDocs' `extra_css` and `extra_javascript`: below the site's root, or URLs.
    let extraStylesheets: [String]
    let extraScripts: [String]
    /// Sidebar entries of nodes off a page's way, by output folder (``values(record:fromFolder:notesIndex:root:)``).
    let closedItems = ItemCache()

    /// A lock-guarded cache of made sidebar entries.
    final class ItemCache: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String: [Int: MustacheValue]] = [:]
        func get(_ key: String) -> [Int: MustacheValue] { lock.lock(); defer { lock.unlock() }; return items[key] ?? [:] }
        func set(_ key: String, _ value: [Int: MustacheValue]) {
            lock.lock(); defer { lock.unlock() }
            items[key, default: [:]].merge(value) { a, _ in a }
        }
    }

    /// The navigation of `table`'s pages; `siteTitle`: `--site-title`; `nav`: MkDocs' `nav:`
    /// (``MkDocsFolder``), which then gives the order as `SUMMARY.md` would (sections: labels
    /// holding their entries; external links listed as links).
    /// `extras`: MkDocs' `extra_css` and `extra_javascript` (``BookFolder/extraStylesheets``),
    /// linked from every page. `printPage`: the site has `print.html` (``SitePrint``): every
    /// page's header links it (`printHref`).
    package init(_ table: SiteTable, siteTitle: String? = nil, nav: [SiteSummaryEntry]? = nil,
                 extras: (css: [String], js: [String]) = ([], []), printPage: Bool = false) {
        self.table = table
        self.extraStylesheets = extras.css
        self.extraScripts = extras.js
        self.printPage = printPage
        var nodes: [Node] = []
        var nodeOfPage: [Int: Int] = [:]
        let rootIndex = table.folderIndex[""]
        // Pages of the navigation: not the site's own not-found page (`404.*` at the root).
        let pageIndices = table.records.indices.filter {
            table.kinds[$0] == .page && table.records[$0].format != nil && !SitePaths.isNotFoundPage(table.paths[$0])
        }
        let heads = Set(table.folderIndex.values)
        func title(_ i: Int) -> String {
            table.records[i].title ?? PathText.lastComponent(table.stems[i] ?? table.paths[i])
        }
        let summary = table.summary
        self.summary = summary
        var top: [Int] = []
        // 1. SUMMARY.md (or mkdocs.yml's nav): its chapters, nested by list depth, with its part
        // titles and separators.
        if summary != nil || nav != nil {
            Self.addSummary(table, summary: summary, nav: nav, title: title, nodes: &nodes, nodeOfPage: &nodeOfPage, top: &top)
        }
        // The root index page first, unless the summary placed it.
        var head: [Int] = []
        if let r = rootIndex, nodeOfPage[r] == nil {
            head = [nodes.count]
            nodeOfPage[r] = nodes.count
            nodes.append(Node(title: title(r), page: r))
        }
        // Nodes made so far (the summary's, the root index) keep their order.
        let placedBySummary = nodes.count
        // 2. The folder tree of the pages not placed yet.
        var sectionOf: [String: Int] = [:]
        func section(_ folder: String) -> Int? {
            if folder.isEmpty { return nil }
            if let n = sectionOf[folder] { return n }
            let parent = section(SitePaths.folderOf(folder))
            let head = table.folderIndex[folder].flatMap { nodeOfPage[$0] == nil ? $0 : nil }
            let n = nodes.count
            nodes.append(Node(title: head.map(title) ?? PathText.lastComponent(folder), page: head, folder: folder, parent: parent))
            if let head { nodeOfPage[head] = n }
            sectionOf[folder] = n
            if let parent { nodes[parent].children.append(n) } else { top.append(n) }
            return n
        }
        for i in pageIndices where nodeOfPage[i] == nil && i != summary {
            let folder = SitePaths.folderOf(table.paths[i])
            if heads.contains(i) && table.folderIndex[folder] == i {
                _ = section(folder)
                continue
            }
            let parent = section(folder)
            let n = nodes.count
            nodes.append(Node(title: title(i), page: i, parent: parent))
            nodeOfPage[i] = n
            if let parent { nodes[parent].children.append(n) } else { top.append(n) }
        }
        // 3. Sorted: nav_order/weight, title, path (SUMMARY's own order kept).
        let (sortedNodes, sortedTop) = Self.sorted(nodes, top: top, placedBySummary: placedBySummary, table: table,
                                                   hasSummary: summary != nil || nav != nil)
        let topSorted = head + sortedTop
        self.nodes = sortedNodes
        self.top = topSorted
        self.nodeOfPage = nodeOfPage
        let pages = Self.pageOrder(sortedNodes, top: topSorted)
        self.order = pages.order
        self.position = pages.position
        self.fullTree = pageIndices.count <= Self.fullTreeLimit
        let shownTitle = siteTitle ?? rootIndex.map(title) ?? "Notes"
        self.siteTitle = shownTitle
        let digest = Self.chromeDigest(table, siteTitle: shownTitle, fullTree: fullTree, nodes: sortedNodes, top: topSorted)
        self.digest = extras.css.isEmpty && extras.js.isEmpty ? digest
            : SHA256.hex(Array(([digest] + extras.css + ["\u{1E}"] + extras.js).joined(separator: "\u{1F}").utf8))
    }

    /// Step 3 of ``init(_:siteTitle:nav:extras:printPage:)``: `nodes` and the `top` level with
    /// the children of each node and the top level sorted by nav_order/weight, title and path,
    /// the first `placedBySummary` nodes (SUMMARY.md's or nav's, the root index) kept in their
    /// order; pages the summary does not list come after a separator when it has part titles.
    static func sorted(_ nodes: [Node], top: [Int], placedBySummary: Int, table: SiteTable, hasSummary: Bool) -> ([Node], [Int]) {
        func key(_ n: Int) -> (Double, NaturalOrder.Key, String) {
            let node = nodes[n]
            let fields = node.page.map { table.records[$0].fields } ?? [:]
            let order = (fields["nav_order"] ?? fields["weight"]).flatMap { Double($0.trimmingHorizontalWhitespace()) } ?? .infinity
            return (order, NaturalOrder.key(node.title), node.folder ?? node.page.map { table.paths[$0] } ?? "")
        }
        // Each node's key made once (made per comparison, the sort of a 20 000-note site spent
        // 80 M instructions on it: issue 37).
        let keys = nodes.indices.map(key)
        func less(_ a: Int, _ b: Int) -> Bool {
            let x = keys[a], y = keys[b]
            if x.0 != y.0 { return x.0 < y.0 }
            if x.1 != y.1 { return x.1 < y.1 }
            return x.2.utf8.lexicographicallyPrecedes(y.2.utf8)
        }
        var sortedNodes = nodes
        for n in sortedNodes.indices {
            let kids = sortedNodes[n].children
            sortedNodes[n].children = kids.filter { $0 < placedBySummary } + kids.filter { $0 >= placedBySummary }.sorted(by: less)
        }
        let listed = top.filter { $0 < placedBySummary }
        var unlisted = top.filter { $0 >= placedBySummary }.sorted(by: less)
        // Pages SUMMARY.md does not list come after a separator when it has part titles, so they
        // do not read as the last part's (the new-user try-out).
        if hasSummary, !unlisted.isEmpty, listed.contains(where: { nodes[$0].role == .part }) {
            sortedNodes.append(Node(title: "", role: .separator))
            unlisted.insert(sortedNodes.count - 1, at: 0)
        }
        return (sortedNodes, listed + unlisted)
    }

    /// Step 1 of ``init(_:siteTitle:)``: the chapters of SUMMARY.md (the record `summary`),
    /// nested by list depth, with its part titles and separators, as nodes; pages it names twice,
    /// drafts and links to no page are left out.
    static func addSummary(_ table: SiteTable, summary: Int?, nav: [SiteSummaryEntry]?, title: (Int) -> String, nodes: inout [Node],
                           nodeOfPage: inout [Int: Int], top: inout [Int]) {
        let resolver = SiteResolver(table: table)
        let from = summary.map { table.paths[$0] } ?? "mkdocs.yml"
        // The node of the last chapter at each depth (a chapter nests under the nearest one above it).
        var stack: [(depth: Int, node: Int)] = []
        for e in nav ?? summary.map({ table.records[$0].summary }) ?? [] {
            func place(_ node: Node) {
                while let last = stack.last, last.depth >= e.depth { stack.removeLast() }
                var node = node
                node.parent = stack.last?.node
                let n = nodes.count
                nodes.append(node)
                if let p = node.page { nodeOfPage[p] = n }
                if let parent = stack.last?.node { nodes[parent].children.append(n) } else { top.append(n) }
                stack.append((e.depth, n))
            }
            switch e.kind {
            case .section:
                place(Node(title: e.title, folder: ""))
            case .chapter where SitePaths.isExternal(e.target):
                place(Node(title: e.title, url: e.target))
            case .part, .separator:
                stack.removeAll()
                top.append(nodes.count)
                nodes.append(Node(title: e.title, role: e.kind == .part ? .part : .separator))
            case .draft:
                continue
            case .chapter:
                let r = resolver.resolve(.link, e.target, from: from)
                guard case .page(let p) = r.target, nodeOfPage[p] == nil, p != summary, table.records[p].format != nil else { continue }
                place(Node(title: e.title.isEmpty ? title(p) : e.title, page: p))
            }
        }
    }

    /// The pages in reading order (the tree walked depth first from the top nodes `top`), and
    /// each page's place in it.
    static func pageOrder(_ sortedNodes: [Node], top topSorted: [Int]) -> (order: [Int], position: [Int: Int]) {
        var order: [Int] = []
        func walk(_ n: Int) {
            if let p = sortedNodes[n].page { order.append(p) }
            for c in sortedNodes[n].children { walk(c) }
        }
        for n in topSorted { walk(n) }
        var position: [Int: Int] = [:]
        for (k, p) in order.enumerated() { position[p] = k }
        return (order, position)
    }

    /// What every page's chrome is made of, hashed: the site title, the tree (titles, pages,
    /// nesting), the order; pages are written again when it changes.
    static func chromeDigest(_ table: SiteTable, siteTitle shownTitle: String, fullTree: Bool, nodes sortedNodes: [Node],
                             top topSorted: [Int]) -> String {
        // What every page's chrome is made of: the title, the tree (titles, pages, nesting), the order.
        var facts: [UInt8] = Array(shownTitle.utf8)
        facts.append(0x1E)
        if fullTree { facts.append(0x46) }
        for n in sortedNodes {
            facts += Array(n.title.utf8); facts.append(0x1F)
            if let p = n.page { facts += Array(table.paths[p].utf8); facts.append(0x1F); facts += Array((table.stems[p] ?? "").utf8) }
            facts.append(0x1F)
            facts += Array((n.folder ?? "").utf8); facts.append(0x1F)
            facts += Array((n.url ?? "").utf8); facts.append(0x1F)
            facts.append(n.role == .part ? 0x50 : n.role == .separator ? 0x53 : 0x45)
            for c in n.children { facts += Array(String(c).utf8); facts.append(0x2C) }
            facts.append(0x1E)
        }
        for t in topSorted { facts += Array(String(t).utf8); facts.append(0x2C) }
        return SHA256.hex(facts)
    }

    /// The href of page `record` from the output folder `fromFolder`.
    func href(_ record: Int, from fromFolder: String) -> String {
        let stem = table.stems[record] ?? PathText.deletingExtension(table.paths[record])
        return SitePaths.urlPath(SitePaths.relative(fromFolder: fromFolder, to: stem + ".html"))
    }

    /// The node's link target: its page, else (a section without an index page) its first page
    /// in reading order.
    func target(_ n: Int) -> Int? {
        if let p = nodes[n].page { return p }
        for c in nodes[n].children { if let t = target(c) { return t } }
        return nil
    }

    /// The ancestors of node `n`, outermost first, and `n`.
    func chain(_ n: Int) -> [Int] {
        var out: [Int] = []
        var c: Int? = n
        while let x = c { out.insert(x, at: 0); c = nodes[x].parent }
        return out
    }

    /// The chrome values of a page (record index `record`, `nil` for a generated page such as the
    /// notes list) whose output lies in `fromFolder`: `root`, `siteTitle`, `homeHref`,
    /// `sidebar`, `breadcrumbs`/`hasBreadcrumbs`, `previous`/`next`/`hasPager`, `inSite`.
    /// `assets`: whether the shared stylesheet and script are linked (`stylesheetHref`,
    /// `scriptHref`, `searchHref`).
    /// `root`: a base URL the links start from instead of the relative way up (the 404 page).
    package func values(record: Int?, fromFolder: String, notesIndex: String, root base: String? = nil) -> [String: MustacheValue] {
        let depth = fromFolder.isEmpty ? 0 : fromFolder.split(separator: "/").count
        let root = base.map(SiteFeeds.base) ?? String(repeating: "../", count: depth)
        // Under a base (the not-found page), every link starts from it.
        func href(_ record: Int, from fromFolder: String) -> String {
            base == nil ? self.href(record, from: fromFolder) : root + self.href(record, from: "")
        }
        var v: [String: MustacheValue] = [:]
        v["inSite"] = .bool(true)
        v["root"] = .string(root)
        v["siteTitle"] = .string(siteTitle)
        v["homeHref"] = .string(root + "index.html")
        v["stylesheetHref"] = .string(root + SiteAssets.stylesheetPath)
        v["scriptHref"] = .string(root + SiteAssets.scriptPath)
        v["searchHref"] = .string(root + SiteAssets.searchPage)
        if !extraStylesheets.isEmpty || !extraScripts.isEmpty {
            func link(_ path: String) -> MustacheValue { .string(SitePaths.isExternal(path) || path.hasPrefix("/") ? path : root + path) }
            v["extraStylesheets"] = .list(extraStylesheets.map(link))
            v["extraScripts"] = .list(extraScripts.map(link))
        }
        v["notesIndexHref"] = .string(root + notesIndex)
        if printPage { v["printHref"] = .string(root + SitePrint.path) }
        let current = record.flatMap { nodeOfPage[$0] }
        let open = Set(current.map(chain) ?? [])
        // A node off the page's way is the same on every page of the folder: made once.
        var made = closedItems.get(fromFolder + "\u{1F}" + root)
        var added = false
        func item(_ n: Int) -> MustacheValue {
            if !open.contains(n), let v = made[n] { return v }
            let v = build(n)
            if !open.contains(n) { made[n] = v; added = true }
            return v
        }
        // An entry off the page's way names its content for the template's memo (``MustacheMemo``):
        // rendered once per output folder (the tree's digest, the folder, the root, the node).
        let memoPrefix = digest + "\u{1F}" + fromFolder + "\u{1F}" + root + "\u{1F}"
        func build(_ n: Int) -> MustacheValue {
            let node = nodes[n]
            // A section without an index page is a label (its <summary> opens it) when its pages
            // are listed, else a link to its first page.
            let showChildren = fullTree || open.contains(n)
            let t = node.page ?? (showChildren && !node.children.isEmpty ? nil : target(n))
            var m: [String: MustacheValue] = [:]
            m["title"] = .string(node.title)
            m["href"] = .string(node.url ?? t.map { href($0, from: fromFolder) } ?? "")
            m["current"] = .bool(n == current)
            m["isSection"] = .bool(node.folder != nil && n != current)
            m["isPart"] = .bool(node.role == .part)
            m["isSeparator"] = .bool(node.role == .separator)
            var kids: [MustacheValue] = []
            if showChildren && !node.children.isEmpty {
                var list = node.children
                var more = false
                if list.count > Self.sectionLimit {
                    let here = list.firstIndex { open.contains($0) } ?? 0
                    let lo = max(0, here - Self.window), hi = min(list.count, here + Self.window + 1)
                    more = lo > 0 || hi < list.count
                    list = Array(list[lo..<hi])
                }
                kids = list.map(item)
                if more {
                    kids.append(.map(["title": .string("More in \(node.title)…"), "href": .string(target(n).map { href($0, from: fromFolder) } ?? ""), "current": .bool(false),
                                      "isSection": .bool(false), "hasChildren": .bool(false), "open": .bool(false),
                                      "children": .list([])]))
                }
            }
            m["children"] = .list(kids)
            m["hasChildren"] = .bool(!kids.isEmpty)
            m["open"] = .bool(open.contains(n) && !kids.isEmpty)
            if !open.contains(n) { m[MustacheMemo.key] = .string(memoPrefix + String(n)) }
            return .map(m)
        }
        // The top level is windowed as a section is (a flat folder of 100 000 notes).
        var topList = top
        var topMore = false
        if top.count > Self.sectionLimit {
            let here = top.firstIndex { open.contains($0) } ?? 0
            let lo = max(0, here - Self.window), hi = min(top.count, here + Self.window + 1)
            topMore = lo > 0 || hi < top.count
            topList = Array(top[lo..<hi])
        }
        var sidebar = topList.map(item)
        if topMore {
            sidebar.append(.map(["title": .string("All notes…"), "href": .string(root + notesIndex), "current": .bool(false),
                                 "isSection": .bool(false), "hasChildren": .bool(false), "open": .bool(false), "children": .list([])]))
        }
        v["sidebar"] = .list(sidebar)
        if added { closedItems.set(fromFolder + "\u{1F}" + root, made) }
        let crumbs = breadcrumbs(current, root: root) { href($0, from: fromFolder) }
        v["breadcrumbs"] = .list(crumbs)
        v["hasBreadcrumbs"] = .bool(crumbs.count > 1)
        let (previous, next) = neighbours(record) { href($0, from: fromFolder) }
        if let previous { v["previous"] = previous }
        if let next { v["next"] = next }
        v["hasPager"] = .bool(previous != nil || next != nil)
        return v
    }

    /// The breadcrumbs of ``values(record:fromFolder:notesIndex:root:)`` for the node `current`:
    /// the site's home unless the way starts at the root index page, then the node's ancestors
    /// and the node (a section without an index page is a label; the page is marked current).
    func breadcrumbs(_ current: Int?, root: String, href: (Int) -> String) -> [MustacheValue] {
        var crumbs: [MustacheValue] = []
        if let c = current {
            let rootIndex = table.folderIndex[""]
            if rootIndex == nil || nodes[chain(c)[0]].page != rootIndex {
                crumbs.append(.map(["title": .string(siteTitle), "href": .string(root + "index.html"), "isCurrent": .bool(false)]))
            }
            // A section without an index page is a label; the page itself is marked current.
            for n in chain(c) {
                let t = n == c ? nil : nodes[n].page
                crumbs.append(.map(["title": .string(nodes[n].title), "href": .string(t.map { href($0) } ?? ""),
                                    "isCurrent": .bool(n == c)]))
            }
        }
        return crumbs
    }

    /// The pager of ``values(record:fromFolder:notesIndex:root:)``: the pages before and after
    /// `record` in reading order (title and link), `nil` at either end or for a generated page.
    func neighbours(_ record: Int?, href: (Int) -> String) -> (previous: MustacheValue?, next: MustacheValue?) {
        guard let r = record, let k = position[r] else { return (nil, nil) }
        var previous: MustacheValue?, next: MustacheValue?
        if k > 0 {
            let p = order[k - 1]
            previous = .map(["title": .string(title(p)), "href": .string(href(p))])
        }
        if k + 1 < order.count {
            let p = order[k + 1]
            next = .map(["title": .string(title(p)), "href": .string(href(p))])
        }
        return (previous, next)
    }

    func title(_ record: Int) -> String {
        nodeOfPage[record].map { nodes[$0].title } ?? table.records[record].title ?? PathText.lastComponent(table.paths[record])
    }
}
