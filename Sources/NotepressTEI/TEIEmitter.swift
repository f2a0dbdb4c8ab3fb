import Foundation
import NotepressAST

/// Writes a ``Document`` as TEI P5 XML (namespace `http://www.tei-c.org/ns/1.0`), a subset
/// described exactly by `Templates/tei/notepress-tei.rng`. Element choices follow pandoc's TEI
/// writer where they fit and the TEI P5 Guidelines otherwise (chapters named below).
///
/// Header (TEI P5 §2 "The TEI Header"):
///
/// | Source                         | TEI                                                                 |
/// |--------------------------------|---------------------------------------------------------------------|
/// | `metadata.title`               | `teiHeader/fileDesc/titleStmt/title` (`Untitled` when absent/empty) |
/// | (fixed)                        | `fileDesc/publicationStmt/p` = `Converted by Notepress` (no dates)   |
/// | `metadata.sourcePath`, format  | `fileDesc/sourceDesc/bibl/idno[@type="path"]` (``DocumentMetadata/outputSourcePath``: never absolute), `idno[@type="format"]` |
/// | `rend` values used in the text | `encodingDesc/tagsDecl/rendition[@xml:id="rend.VALUE"][@scheme]`, one per value: what it means, in CSS (`scheme="css"`) or words (`scheme="free"`), TEI P5 §2.3.4 |
/// | `metadata.created`             | `profileDesc/creation/date[@when]`, `@when` `YYYY-MM-DDTHH:MM:SSZ` (UTC), content `29 November 2026` |
/// | `metadata.tags`                | `profileDesc/textClass/keywords/term`, one per tag                  |
/// | front matter `lang`            | `TEI/@xml:lang` (``DocumentMetadata/language``: only a well-formed tag) |
///
/// Table of contents (`--toc`, ``tableOfContentsMaxLevel``; TEI P5 §4.5 "Front Matter"): before
/// the body, `front/div[@type="contents"]` with `head` `Contents` and a `list` of `item`s, each a
/// `ref[@target="#ID"]` to a section's `div` (its `xml:id`, so the links always match) and, for
/// the sections nested in it, a `list` of their own (``TableOfContents`` nesting). Nothing without
/// sections.
///
/// Blocks (TEI P5 §3 "Elements Available in All TEI Documents", §4 "Default Text Structure"):
///
/// | AST                        | TEI                                                                      |
/// |----------------------------|--------------------------------------------------------------------------|
/// | top-level heading, level n | `div[@xml:id]` with `head`; divs nest by level (a heading closes every open div of level ≥ n) |
/// | heading inside a container | `p[@rend="heading-n"]` (a `div` cannot appear inside `quote`, `item`, `note`) |
/// | paragraph                  | `p`                                                                      |
/// | block quote                | `quote` containing blocks                                                |
/// | alert (GitHub `[!NOTE]` …) | `note[@type]`, `@type` the kind (`note`, `tip`, `important`, `warning`, `caution`), containing blocks |
/// | bullet list                | `list[@rend="bulleted"]` of `item`                                       |
/// | ordered list               | `list[@rend="numbered"]` of `item[@n]`; `@n` is the item's number (the list's start, counting up, or the note's own number) |
/// | task list item             | `item[@ana="#task-checked"]` or `item[@ana="#task-unchecked"]` (`@ana`, att.global.analytic) |
/// | code block                 | `ab[@type="codeblock"]` holding `code[@lang]`; `@lang` is the first word of the info string, when present. (TEI's `ab` has no `@lang`; `code/@lang` is TEI's "formal language" attribute, §3.13.2.) The final newline is dropped. |
/// | raw HTML block             | dropped (never copied as markup)                                         |
/// | thematic break             | `milestone[@unit="section"]`                                             |
/// | table                      | `table`; the header is `row[@role="label"]`, body rows `row`; cells `cell[@rend="left|center|right"]` (no `@rend` for default alignment) |
/// | footnote definition        | written at its first reference (see below); a definition never referenced is written where it stands as `note[@place="foot"]` |
/// | unknown node               | warning, then its children                                               |
///
/// Inlines (TEI P5 §3.3 "Highlighting and Quotation"):
///
/// | AST span / run        | TEI                                                                          |
/// |-----------------------|------------------------------------------------------------------------------|
/// | strong                | `hi[@rend="bold"]`                                                           |
/// | emphasis              | `hi[@rend="italic"]`                                                         |
/// | strikethrough         | `hi[@rend="strikethrough"]`                                                  |
/// | script (`~x~`)        | `hi[@rend="script"]`                                                         |
/// | colour role alert     | `hi[@rend="alert"]`                                                          |
/// | letterpress / marker  | `hi[@rend="letterpress"]` / `hi[@rend="marker"]`                             |
/// | text style s          | `hi[@rend="style-s"]` (e.g. `style-headline`)                                |
/// | inline code           | `code` (spans inside code are not kept: TEI `code` holds text only)           |
/// | link                  | `ref[@target]` (no `@target` for an empty destination; the link title is not kept) |
/// | image                 | `figure` with `head` (the title, if any), `graphic[@url]`, `figDesc` (the description as plain text). `figure` is in `model.inter`, allowed inside `p`, `hi`, `head`, `cell` (§14.4). An image with an empty destination becomes its description as text. |
/// | footnote reference    | first reference: `note[@place="foot"][@n][@xml:id]` holding the definition's blocks, at the reference point (as pandoc does); later references: `ref[@type="noteref"][@target="#id"]` with the number |
/// | hashtag (`--hashtags`) | `rs[@type="tag"]` around `#name` (TEI P5 §13.2.1, referring strings); the name is also a `keywords/term` |
/// | hard break            | `lb`                                                                         |
/// | soft break            | a newline                                                                    |
/// | raw inline HTML       | dropped                                                                      |
///
/// Depth (``TEILimits``): no element is nested deeper than stock XML parsers accept (libxml2: 256),
/// whatever the input. Highlighting nested past ``TEILimits/maxInlineDepth`` is merged into the
/// innermost `hi`, whose `rend` lists every value in force (`rend="bold italic"`); block quotes and
/// lists past ``TEILimits/maxContainerDepth`` are written as their content; a note whose reference
/// is past ``TEILimits/maxNoteDepth`` is written where its definition stands (or at the end of the body),
/// referred to by a `ref`.
/// One warning says when any of this happened.
///
/// Headings' `xml:id` values are their GitHub ids (``HeadingIDAssigner``, the ids HTML pages show),
/// made NCNames by ``TEIIdentifiers/headingID(_:)``; a heading inside a container keeps its id on
/// its `p`. Footnotes get `fn-N` (`-2`, `-3`, … when a heading took that id).
/// Characters XML 1.0 does not allow are removed (see ``XMLEscaping``). Output is deterministic.
package struct TEIEmitter: Sendable {
    /// The TEI P5 namespace.
    package static let namespace = "http://www.tei-c.org/ns/1.0"

    /// Elements laid out one child per line (they never hold character data directly).
    static let blockElements: Set<String> = [
        "TEI", "teiHeader", "fileDesc", "titleStmt", "publicationStmt", "sourceDesc", "bibl",
        "profileDesc", "creation", "textClass", "keywords", "text", "front", "body", "div", "list", "item", "encodingDesc", "tagsDecl",
        "quote", "table", "row",
    ]

    /// Keep dangerous link and image destinations live (`--unsafe`; ``URLSafety``).
    package var unsafe: Bool
    /// `--toc`: write a table of contents of the sections of level 1 to this (1…6); `nil`: none.
    package var tableOfContentsMaxLevel: Int?
    /// The table written where a `[TOC]` marker is (``ContentsMarker``; `--toc`'s entries, with
    /// the document's heading ids); `nil`: a marker is an unknown node, written as its text.
    package var markerContents: TableOfContents?

    package init(unsafe: Bool = false, tableOfContentsMaxLevel: Int? = nil) {
        self.unsafe = unsafe
        self.tableOfContentsMaxLevel = tableOfContentsMaxLevel
    }

    /// The TEI document as text: XML declaration, `TEI` root, final newline. Warnings (unknown
    /// nodes) go to `diagnostics`.
    package func render(_ document: Document, diagnostics: inout [Diagnostic]) -> String {
        String(decoding: renderBytes(document, diagnostics: &diagnostics), as: UTF8.self)
    }

    /// ``render(_:diagnostics:)`` as UTF-8 bytes, written into one byte buffer.
    package func renderBytes(_ document: Document, diagnostics: inout [Diagnostic]) -> [UInt8] {
        renderBytesAndTree(document, diagnostics: &diagnostics).bytes
    }

    /// ``renderBytes(_:diagnostics:)`` and the `TEI` tree they were serialized from, for a caller
    /// that decides when the tree is freed (the command line leaves it to the process exit).
    package func renderBytesAndTree(_ document: Document, diagnostics: inout [Diagnostic]) -> (bytes: [UInt8], tree: XMLTreeElement) {
        let root = tree(document, diagnostics: &diagnostics)
        var s = XMLSerializer(blockElements: Self.blockElements)
        return (s.documentBytes(root), root)
    }

    /// The `TEI` root element, built but not serialized.
    package func tree(_ document: Document, diagnostics: inout [Diagnostic]) -> XMLTreeElement {
        let assigned = document.assigningMissingHeadingIDs()
        var b = TEIBuilder(document: assigned)
        // Headings that came with no id (an embedded note's, NotepressSite's `SiteEmbeds`) are
        // not the page's own: the contents list them in no format.
        let before = document.carriedHeadingIDs
        if before.contains(where: { $0 != nil }) {
            b.notInContents = Set(zip(before, assigned.carriedHeadingIDs).compactMap { $0 == nil ? $1.map(TEIIdentifiers.headingID) : nil })
        }
        b.unsafe = unsafe
        b.tableOfContentsMaxLevel = tableOfContentsMaxLevel
        b.markerContents = markerContents
        let root = b.build()
        diagnostics += b.diagnostics
        return root
    }
}

/// Turns heading text into unique `xml:id` values (xsd:NCName).
struct IDAllocator {
    private var used: Set<String> = []

    /// A slug of `text`: ASCII letters/digits lowercased, other runs become `-`.
    static func slug(_ text: String) -> String {
        var s = ""
        var pendingDash = false
        for u in text.unicodeScalars {
            if u.isASCII, u.properties.isAlphabetic || ("0"..."9").contains(u) {
                if pendingDash && !s.isEmpty { s += "-" }
                pendingDash = false
                s.unicodeScalars.append(Unicode.Scalar(UInt8(ascii: u).lowercasedASCII))
            } else {
                pendingDash = true
            }
        }
        if s.isEmpty { return "section" }
        if let f = s.unicodeScalars.first, !f.properties.isAlphabetic { return "sec-" + s }
        return s
    }

    /// Marks `id` used; `false` when it already was.
    mutating func claim(_ id: String) -> Bool { used.insert(id).inserted }

    /// `base` if unused, else `base-2`, `base-3`, …; the result is marked used.
    mutating func unique(_ base: String) -> String {
        var candidate = base
        var n = 2
        while used.contains(candidate) {
            candidate = "\(base)-\(n)"
            n += 1
        }
        used.insert(candidate)
        return candidate
    }
}

private extension UInt8 {
    init(ascii u: Unicode.Scalar) { self = UInt8(truncatingIfNeeded: u.value) }
    var lowercasedASCII: UInt8 { (65...90).contains(self) ? self + 32 : self }
}

/// The state of one conversion.
struct TEIBuilder {
    let document: Document
    /// Keep dangerous link and image destinations live (``URLSafety``).
    var unsafe = false
    /// `--toc`: the deepest section level the table of contents lists; `nil`: no table.
    var tableOfContentsMaxLevel: Int?
    /// ``TEIEmitter/markerContents``.
    var markerContents: TableOfContents?
    /// Each section `div` written, in order: its heading level, text and `xml:id`.
    var sections: [(level: Int, text: String, id: String)] = []
    /// The `xml:id`s of headings the table of contents leaves out (an embedded note's).
    var notInContents = Set<String>()
    var diagnostics: [Diagnostic] = []
    var ids = IDAllocator()
    /// The block ids of the document (headings' GitHub ids, block anchors `^id`): a link to
    /// `#id` is written to its `xml:id` (``TEIIdentifiers/anchorID(_:)``).
    var anchors: Set<String> = []
    /// Footnote definitions by normalised label (first definition wins).
    var definitions: [String: [Block]] = [:]
    /// Footnote numbers by normalised label, from the references.
    var numbers: [String: Int] = [:]
    /// `xml:id` of each footnote already written (or deferred), by normalised label.
    var writtenNotes: [String: String] = [:]
    /// Notes whose reference was too deep to hold them (``TEILimits/maxNoteDepth``): normalised
    /// label and `xml:id`, in the order deferred. Each is written where its definition stands
    /// if the body has not passed it yet, else at the end of the body.
    var deferredNotes: [(key: String, id: String)] = []
    /// The deferred notes not written yet: `xml:id` by normalised label.
    var pendingNotes: [String: String] = [:]
    /// Whether highlighting past ``TEILimits/maxInlineDepth`` was merged (warned once).
    var mergedHighlighting = false
    /// Whether containers past ``TEILimits/maxContainerDepth`` were flattened (warned once).
    var flattenedContainers = false
    /// Block anchors given an `xml:id` so far: an id that two paragraphs carry (`^a` written twice)
    /// names the first, as a link to it lands on the first in HTML (an `xml:id` is unique).
    var anchoredParagraphs: Set<String> = []
    /// Raw HTML ids (``Block/anchors``) given an `<anchor xml:id>`: those whose `xml:id` no
    /// heading, block anchor or earlier raw id took (as in HTML, a link lands on the first);
    /// taken out once written.
    var rawAnchors: Set<String> = []

    init(document: Document) {
        self.document = document
        document.forEachBlock { block, _ in
            if case .footnoteDefinition(let label, let blocks) = block.kind {
                let key = Self.normalize(label)
                if definitions[key] == nil { definitions[key] = blocks }
            }
            // Heading ids and block anchors first, so that a footnote id never takes one.
            if let id = block.id {
                switch block.kind {
                case .heading, .paragraph:
                    _ = ids.unique(TEIIdentifiers.anchorID(id))
                    anchors.insert(id)
                default: break
                }
            }
        }
        // Raw HTML ids after every block id, so that none takes a heading's.
        document.forEachBlock { block, _ in
            for id in block.anchors where !anchors.contains(id) && ids.claim(TEIIdentifiers.anchorID(id)) {
                anchors.insert(id)
                rawAnchors.insert(id)
            }
        }
    }

    /// The `<anchor xml:id>` elements of `block`'s raw HTML ids not written yet (``rawAnchors``).
    mutating func anchorElements(_ block: Block) -> [XMLTreeNode] {
        var out: [XMLTreeNode] = []
        for id in block.anchors where rawAnchors.remove(id) != nil {
            out.append(.element(XMLTreeElement("anchor", [("xml:id", TEIIdentifiers.anchorID(id))])))
        }
        return out
    }

    /// The `xml:id` of a heading block (``TEIIdentifiers/headingID(_:)`` of its id).
    static func headingXMLID(_ block: Block) -> String {
        TEIIdentifiers.headingID(block.id ?? "")
    }

    /// Footnote labels match case-insensitively with whitespace collapsed (CommonMark §4.7).
    static func normalize(_ label: String) -> String {
        label.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).joined(separator: " ")
    }

    mutating func build() -> XMLTreeElement {
        var root = XMLTreeElement("TEI", [("xmlns", TEIEmitter.namespace)])
        if let lang = document.metadata.language { root.attributes.append(("xml:lang", lang)) }
        let body = body()
        root.append(header(renditions: Self.rendValues(body)))
        var text = XMLTreeElement("text")
        if let maxLevel = tableOfContentsMaxLevel,
           let front = Self.front(TableOfContents(headings: sections.filter { !notInContents.contains($0.id) }, maxLevel: maxLevel)) {
            text.append(front)
        }
        text.append(body)
        root.append(text)
        return root
    }

    // MARK: Sections

    /// `body`: blocks before the first heading, then nested `div`s. Never empty (TEI requires
    /// content): an empty document gets one empty `p`. Deferred notes go last, into the
    /// innermost open `div` (or the body), where blocks may still follow.
    mutating func body() -> XMLTreeElement {
        var stack: [(level: Int, element: XMLTreeElement)] = [(0, XMLTreeElement("body"))]
        func closeTop(_ stack: inout [(level: Int, element: XMLTreeElement)]) {
            let top = stack.removeLast()
            stack[stack.count - 1].element.append(top.element)
        }
        /// The depth of the innermost open element (`TEI` 1, `text` 2, `body` 3, `div`s below).
        func depth(_ stack: [(level: Int, element: XMLTreeElement)]) -> Int { TEILimits.bodyDepth + stack.count - 1 }
        var pending = document.blocks[...].map { $0 }
        var index = 0
        while index < pending.count {
            let block = pending[index]
            index += 1
            switch block.kind {
            case .heading(let level, let content):
                while stack.count > 1 && stack[stack.count - 1].level >= level { closeTop(&stack) }
                let id = Self.headingXMLID(block)
                sections.append((level, content.titleText, id))
                var div = XMLTreeElement("div", [("xml:id", id)])
                var head = XMLTreeElement("head")
                head.children = anchorElements(block) + inlines(content, depth: depth(stack) + 2)
                div.append(head)
                stack.append((level, div))
            case .unknown(ContentsMarker.typeName, _) where markerContents != nil:
                for e in Self.markerList(markerContents!) { stack[stack.count - 1].element.append(e) }
            case .unknown(let name, let children):
                warnUnknown(name, block)
                pending.insert(contentsOf: children, at: index)
            default:
                for e in self.block(block, depth: depth(stack)) { stack[stack.count - 1].element.append(e) }
            }
        }
        // Deferred notes whose definition was passed (or is not at the top): each may defer
        // others, so a queue, not recursion.
        var next = 0
        while next < deferredNotes.count {
            let (key, id) = deferredNotes[next]
            next += 1
            guard pendingNotes.removeValue(forKey: key) != nil else { continue }
            stack[stack.count - 1].element.append(noteElement(key, id: id, depth: depth(stack) + 1))
        }
        while stack.count > 1 { closeTop(&stack) }
        var body = stack[0].element
        if body.children.isEmpty { body.append(XMLTreeElement("p")) }
        if mergedHighlighting {
            diagnostics.append(Diagnostic(.warning, "TEI: highlighting nested deeper than \(TEILimits.maxInlineDepth) elements "
                + "is merged into one hi listing its rend values (XML readers refuse deeper documents)", file: document.metadata.sourcePath))
        }
        if flattenedContainers {
            diagnostics.append(Diagnostic(.warning, "TEI: block quotes and lists nested deeper than \(TEILimits.maxContainerDepth) elements "
                + "are written as their content (XML readers refuse deeper documents)", file: document.metadata.sourcePath))
        }
        return body
    }

    mutating func warnUnknown(_ name: String, _ block: Block) {
        // Content tabs (ContentTabs): each tab its labelled content, as meant.
        if ContentTabs.isTabs(name) { return }
        diagnostics.append(Diagnostic(.warning, "TEI: unknown node '\(name)'; writing its children",
                                      file: document.metadata.sourcePath, position: block.position))
    }

    // MARK: Blocks

    /// The elements of `bs`, to be placed in an element at element depth `depth`.
    mutating func blocks(_ bs: [Block], depth: Int) -> [XMLTreeElement] {
        var out: [XMLTreeElement] = []
        for b in bs { out += block(b, depth: depth) }
        return out
    }

    /// The elements of `b`, to be placed in an element at element depth `depth`. A block quote or
    /// list whose element would be deeper than ``TEILimits/maxContainerDepth`` is written as its
    /// children (flattened), so that no document is nested deeper than parsers accept.
    mutating func block(_ b: Block, depth: Int) -> [XMLTreeElement] {
        switch b.kind {
        case .paragraph(let c):
            let anchor = b.id.flatMap { anchoredParagraphs.insert($0).inserted ? TEIIdentifiers.anchorID($0) : nil }
            var p = XMLTreeElement("p", anchor.map { [("xml:id", $0)] } ?? [])
            p.children = anchorElements(b) + inlines(c, depth: depth + 1); return [p]
        case .heading(let level, let c):
            var p = XMLTreeElement("p", [("rend", "heading-\(min(max(level, 1), 6))"), ("xml:id", Self.headingXMLID(b))])
            p.children = anchorElements(b) + inlines(c, depth: depth + 1)
            return [p]
        case .blockQuote(let children):
            if depth + 1 > TEILimits.maxContainerDepth {
                flattenedContainers = true
                return blocks(children, depth: depth)
            }
            return [XMLTreeElement("quote", [], blocks(children, depth: depth + 1).map { .element($0) })]
        case .alert(let a):
            if depth + 1 > TEILimits.maxContainerDepth {
                flattenedContainers = true
                return blocks(a.blocks, depth: depth)
            }
            // A callout's title (Obsidian's custom title or type) in @n, TEI's label of a note.
            return [XMLTreeElement("note", [("type", a.kind.rawValue)] + (a.title.map { [("n", $0)] } ?? []),
                                   blocks(a.blocks, depth: depth + 1).map { .element($0) })]
        case .list(let l):
            if depth + 2 > TEILimits.maxContainerDepth {
                flattenedContainers = true
                return l.items.flatMap { blocks($0.blocks, depth: depth) }
            }
            var list = XMLTreeElement("list", [("rend", l.type == .ordered ? "numbered" : "bulleted")])
            var next = l.start
            for item in l.items {
                var attrs: [(String, String)] = []
                if l.type == .ordered {
                    let n = item.number ?? next
                    attrs.append(("n", String(n)))
                    next = n + 1
                }
                if let task = item.task {
                    attrs.append(("ana", task == .checked ? "#task-checked" : "#task-unchecked"))
                }
                list.append(XMLTreeElement("item", attrs, blocks(item.blocks, depth: depth + 2).map { .element($0) }))
            }
            return [list]
        case .codeBlock(let info, let literal) where b.highlight != nil:
            return [TEICode.highlighted(info: info, literal: literal, b.highlight!)]
        case .codeBlock(let info, let literal):
            var code = XMLTreeElement("code")
            if let lang = info.split(whereSeparator: { $0 == " " || $0 == "\t" }).first {
                code.attributes.append(("lang", String(lang)))
            }
            code.append(text: literal.hasSuffix("\n") ? String(literal.dropLast()) : literal)
            return [XMLTreeElement("ab", [("type", "codeblock")], [.element(code)])]
        case .htmlBlock:
            return []
        case .thematicBreak:
            return [XMLTreeElement("milestone", [("unit", "section")])]
        case .table(let t):
            var table = XMLTreeElement("table")
            table.append(row(t.header, t.alignments, header: true, depth: depth + 2))
            for r in t.rows { table.append(row(r, t.alignments, header: false, depth: depth + 2)) }
            return [table]
        case .footnoteDefinition(let label, _):
            let key = Self.normalize(label)
            if let id = pendingNotes.removeValue(forKey: key) { return [noteElement(key, id: id, depth: depth + 1)] }
            if writtenNotes[key] != nil { return [] }
            return [note(key, depth: depth + 1)]
        case .unknown(ContentsMarker.typeName, _) where markerContents != nil:
            return Self.markerList(markerContents!)
        case .unknown(let name, let children):
            warnUnknown(name, b)
            return blocks(children, depth: depth)
        case .definitionList(let items):
            if depth + 2 > TEILimits.maxContainerDepth {
                flattenedContainers = true
                return items.flatMap { item in
                    var p = XMLTreeElement("p")
                    p.children = inlines(item.term, depth: depth + 1)
                    return [p] + item.definitions.flatMap { blocks($0, depth: depth) }
                }
            }
            // A glossary list: each term a label, its definitions one item (TEI pairs them).
            var list = XMLTreeElement("list", [("type", "gloss")])
            for item in items {
                var label = XMLTreeElement("label")
                label.children = inlines(item.term, depth: depth + 2)
                list.append(label)
                list.append(XMLTreeElement("item", [], item.definitions.flatMap { blocks($0, depth: depth + 2) }.map { .element($0) }))
            }
            return [list]
        }
    }

    /// A table row at element depth `depth`.
    mutating func row(_ cells: [Inlines], _ alignments: [Table.Alignment], header: Bool, depth: Int) -> XMLTreeElement {
        var row = XMLTreeElement("row", header ? [("role", "label")] : [])
        for (i, c) in cells.enumerated() {
            let align = i < alignments.count ? alignments[i] : .none
            var cell = XMLTreeElement("cell", align == .none ? [] : [("rend", align.rawValue)])
            cell.children = inlines(c, depth: depth + 1)
            row.append(cell)
        }
        if cells.isEmpty { row.append(XMLTreeElement("cell")) }
        return row
    }

    /// The `xml:id` of the note for definition `key`, allocated now and marked written, so that a
    /// note referring to itself (directly or not) gets a `ref`, not endless recursion.
    mutating func noteID(_ key: String) -> String {
        let number = numbers[key]
        let id = ids.unique(number.map { "fn-\($0)" } ?? "fn-" + IDAllocator.slug(key))
        writtenNotes[key] = id
        return id
    }

    /// The `note` for the definition `key` at element depth `depth` (see ``noteID(_:)``).
    mutating func note(_ key: String, depth: Int) -> XMLTreeElement {
        noteElement(key, id: noteID(key), depth: depth)
    }

    /// The `note` element for `key` with the allocated `id`, at element depth `depth`.
    mutating func noteElement(_ key: String, id: String, depth: Int) -> XMLTreeElement {
        var attrs: [(String, String)] = [("place", "foot")]
        if let number = numbers[key] { attrs.append(("n", String(number))) }
        attrs.append(("xml:id", id))
        let content = blocks(definitions[key] ?? [], depth: depth)
        return XMLTreeElement("note", attrs, content.map { .element($0) })
    }
}
