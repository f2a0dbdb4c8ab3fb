import Foundation
import NotepressAST

/// The `teiHeader` and the `front` (table of contents) of a conversion: the parts of the TEI
/// document made from the metadata and the section list rather than from the body's blocks.
extension TEIBuilder {
    /// `front` holding the table of contents (see ``TEIEmitter``), or `nil` for an empty table.
    /// Lists nest at most six deep (one per heading level).
    static func front(_ toc: TableOfContents) -> XMLTreeElement? {
        guard !toc.isEmpty else { return nil }
        var head = XMLTreeElement("head")
        head.append(text: "Contents")
        let div = XMLTreeElement("div", [("type", "contents")], [.element(head), .element(contentsList(toc))])
        return XMLTreeElement("front", [], [.element(div)])
    }

    /// The nested `list` of a non-empty table: one `item` per entry holding a `ref` to its
    /// section, and the list of the entries nested under it.
    static func contentsList(_ toc: TableOfContents) -> XMLTreeElement {
        // One open list per depth, and its last item (still open: a deeper list may go into it).
        var lists = [XMLTreeElement("list")]
        var items: [XMLTreeElement?] = [nil]
        func closeDeepest() {
            var list = lists.removeLast()
            if let item = items.removeLast() { list.append(item) }
            items[items.count - 1]?.append(list)
        }
        for e in toc.entries {
            while lists.count - 1 > e.depth { closeDeepest() }
            if lists.count - 1 < e.depth {
                lists.append(XMLTreeElement("list"))
                items.append(nil)
            }
            if let item = items[items.count - 1] { lists[lists.count - 1].append(item) }
            var ref = XMLTreeElement("ref", [("target", "#" + e.id)])
            ref.append(text: e.text)
            items[items.count - 1] = XMLTreeElement("item", [], [.element(ref)])
        }
        while lists.count > 1 { closeDeepest() }
        if let item = items[0] { lists[0].append(item) }
        return lists[0]
    }

    /// What a `[TOC]` marker (``ContentsMarker``) is written as: the table as a bulleted list
    /// among the blocks, `type="contents"`, each item a `p` holding a `ref` to its section's
    /// `xml:id` (``TEIIdentifiers/headingID(_:)`` of the heading id), then the list of the
    /// entries nested under it; nothing for an empty table. Lists nest at most six deep.
    static func markerList(_ toc: TableOfContents) -> [XMLTreeElement] {
        guard !toc.isEmpty else { return [] }
        func list() -> XMLTreeElement { XMLTreeElement("list", [("rend", "bulleted"), ("type", "contents")]) }
        // One open list per depth, and its last item (still open: a deeper list may go into it).
        var lists = [list()]
        var items: [XMLTreeElement?] = [nil]
        func closeDeepest() {
            var l = lists.removeLast()
            if let item = items.removeLast() { l.append(item) }
            items[items.count - 1]?.append(l)
        }
        for e in toc.entries {
            while lists.count - 1 > e.depth { closeDeepest() }
            if lists.count - 1 < e.depth {
                lists.append(list())
                items.append(nil)
            }
            if let item = items[items.count - 1] { lists[lists.count - 1].append(item) }
            var ref = XMLTreeElement("ref", [("target", "#" + TEIIdentifiers.headingID(e.id))])
            ref.append(text: e.text)
            items[items.count - 1] = XMLTreeElement("item", [], [.element(XMLTreeElement("p", [], [.element(ref)]))])
        }
        while lists.count > 1 { closeDeepest() }
        if let item = items[0] { lists[0].append(item) }
        return [lists[0]]
    }

    /// What each `rend` value of `hi` means (`tagsDecl/rendition`): scheme and content.
    static let renditions: [String: (scheme: String, content: String)] = [
        "bold": ("css", "font-weight: bold;"),
        "italic": ("css", "font-style: italic;"),
        "strikethrough": ("css", "text-decoration: line-through;"),
        "script": ("css", "font-family: cursive; /* note markup ~script~: a handwriting face */"),
        "alert": ("css", "color: red; /* note markup: a word of two or more capital letters, in the alert colour */"),
        "letterpress": ("css", "text-shadow: 0 1px 0 white, 0 -1px 0 gray; /* pressed into the page (Text Kit's letterpress effect) */"),
        "marker": ("css", "color: gray; /* a note-markup delimiter kept visible (--keep-markers) */"),
    ]

    /// The `rendition` meaning of one `rend` value (``renditions``; `style-NAME`: an Apple Dynamic
    /// Type text style).
    static func rendition(_ value: String) -> (scheme: String, content: String) {
        if let r = renditions[value] { return r }
        if value.hasPrefix("style-") {
            return ("free", "Apple Dynamic Type text style \(value.dropFirst(6)) (Human Interface Guidelines, Typography)")
        }
        return ("free", value)
    }

    /// The `rend` values of every `hi` in `root`, each once, sorted (an iterative walk: the tree
    /// may be deep).
    static func rendValues(_ root: XMLTreeElement) -> [String] {
        var seen = Set<String>()
        var stack = [root]
        while let e = stack.popLast() {
            if e.name == "hi", let rend = e.attributes.first(where: { $0.0 == "rend" })?.1 {
                for v in rend.split(separator: " ") { seen.insert(String(v)) }
            }
            for case .element(let c) in e.children { stack.append(c) }
        }
        return seen.sorted()
    }

    func header(renditions: [String] = []) -> XMLTreeElement {
        let meta = document.metadata
        var title = meta.title ?? ""
        if title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { title = "Untitled" }
        var titleEl = XMLTreeElement("title"); titleEl.append(text: title)
        var pub = XMLTreeElement("p"); pub.append(text: "Converted by Notepress")
        var bibl = XMLTreeElement("bibl")
        if let path = meta.outputSourcePath {
            var idno = XMLTreeElement("idno", [("type", "path")]); idno.append(text: path); bibl.append(idno)
        }
        var fmt = XMLTreeElement("idno", [("type", "format")]); fmt.append(text: meta.sourceFormat.rawValue)
        bibl.append(fmt)
        let fileDesc = XMLTreeElement("fileDesc", [], [
            .element(XMLTreeElement("titleStmt", [], [.element(titleEl)])),
            .element(XMLTreeElement("publicationStmt", [], [.element(pub)])),
            .element(XMLTreeElement("sourceDesc", [], [.element(bibl)])),
        ])
        var teiHeader = XMLTreeElement("teiHeader")
        teiHeader.append(fileDesc)
        if !renditions.isEmpty {
            var tags = XMLTreeElement("tagsDecl")
            for value in renditions {
                let r = Self.rendition(value)
                var e = XMLTreeElement("rendition", [("xml:id", "rend." + value), ("scheme", r.scheme)])
                e.append(text: r.content)
                tags.append(e)
            }
            teiHeader.append(XMLTreeElement("encodingDesc", [], [.element(tags)]))
        }
        var profile = XMLTreeElement("profileDesc")
        if let created = meta.created {
            let c = CivilDateTime(created)
            var date = XMLTreeElement("date", [("when", c.iso8601)])
            date.append(text: c.longDate)
            profile.append(XMLTreeElement("creation", [], [.element(date)]))
        }
        if !meta.tags.isEmpty {
            var keywords = XMLTreeElement("keywords")
            for tag in meta.tags {
                var term = XMLTreeElement("term"); term.append(text: tag); keywords.append(term)
            }
            profile.append(XMLTreeElement("textClass", [], [.element(keywords)]))
        }
        if !profile.children.isEmpty { teiHeader.append(profile) }
        return teiHeader
    }
}
