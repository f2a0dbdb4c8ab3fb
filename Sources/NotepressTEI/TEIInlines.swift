import Foundation
import NotepressAST

/// Element depths that TEI output never exceeds, so that stock XML parsers read it: libxml2
/// refuses documents nested deeper than 256 elements (`xmlParserMaxDepth`, "Excessive depth in
/// document") unless asked for `XML_PARSE_HUGE`. The deepest element written is at
/// ``maxElementDepth`` + 2 (a `graphic` in a `figure`), well under that limit, whatever the input.
/// Depth counts the document's own elements: `TEI` is 1, `text` 2, `body` 3.
enum TEILimits {
    /// The element depth of `body`.
    static let bodyDepth = 3
    /// The deepest `quote`, `list` or `item`; deeper block quotes and lists are written as their
    /// content (flattened). Readers nest containers at most ``ASTLimits/maxNestingDepth`` (128)
    /// deep, so only notes placed deep inside deep containers reach it.
    static let maxContainerDepth = 160
    /// The deepest `note` written at its first reference; a deeper one is written where its
    /// definition stands, or at the end of the body (the reference becomes a `ref` to it, as
    /// later references are).
    static let maxNoteDepth = 160
    /// The deepest `hi` of its own: deeper highlighting spans are merged into the innermost `hi`,
    /// whose `rend` then lists every value in force (each once, in the order they opened).
    static let maxInlineDepth = 190
    /// The deepest inline element of any kind (a link, code, an image, or a `hi` with nothing to
    /// merge into); spans deeper still write no element of their own, only their content.
    static let maxElementDepth = 196
}

extension TEIBuilder {
    /// One inline element being built.
    struct InlineFrame {
        enum Kind { case root, hi, ref, code, image(Link) }
        var kind: Kind
        var element: XMLTreeElement
        /// The element's depth in the document.
        var depth: Int
        /// Image description, collected as plain text.
        var alt = ""
        /// For a `hi`: the `rend` values in force (its own span's and any merged into it), with
        /// how many open spans give each, in the order they opened.
        var rend: [(value: String, count: Int)] = []
        /// `rend` changed since the element was started: the next content needs an element with
        /// the new value (the old one keeps what it holds).
        var rendChanged = false

        var isLeaf: Bool {
            switch kind {
            case .code, .image: return true
            default: return false
            }
        }
    }

    /// How one open span is written.
    enum SpanPlacement {
        /// Its own frame (the top one while it is open).
        case own
        /// A `rend` value merged into the top `hi` frame.
        case merged(String)
        /// No element: inside code or an image, or too deep for any element.
        case transparent
    }

    /// The inline content of an element at depth `depth`: walks the span tree with
    /// ``Inlines/transition(from:to:into:)`` and keeps one frame per written element, so time
    /// and memory are linear in the runs and spans, and depth is bounded by ``TEILimits``.
    mutating func inlines(_ content: Inlines, depth: Int) -> [XMLTreeNode] {
        var frames: [InlineFrame] = [InlineFrame(kind: .root, element: XMLTreeElement("#root"), depth: depth)]
        var placements: [SpanPlacement] = []

        func open(_ s: Int) {
            let top = frames.count - 1
            if frames[top].isLeaf { placements.append(.transparent); return }
            let kind = content.spans[s].kind
            // Keys and abbreviations (MkDocs) are their text in TEI.
            if case .keyboard = kind { placements.append(.transparent); return }
            if case .abbreviation = kind { placements.append(.transparent); return }
            let d = frames[top].depth + 1
            if let rend = Self.rend(kind) {
                var topIsHi = false
                if case .hi = frames[top].kind { topIsHi = true }
                if d <= TEILimits.maxInlineDepth || (!topIsHi && d <= TEILimits.maxElementDepth) {
                    frames.append(InlineFrame(kind: .hi, element: XMLTreeElement("hi", [("rend", rend)]), depth: d,
                                              rend: [(rend, 1)]))
                    placements.append(.own)
                } else if topIsHi {
                    mergedHighlighting = true
                    if let i = frames[top].rend.firstIndex(where: { $0.value == rend }) {
                        frames[top].rend[i].count += 1
                    } else {
                        frames[top].rend.append((rend, 1))
                        frames[top].rendChanged = true
                    }
                    placements.append(.merged(rend))
                } else {
                    mergedHighlighting = true
                    placements.append(.transparent)
                }
                return
            }
            guard d <= TEILimits.maxElementDepth else {
                mergedHighlighting = true
                placements.append(.transparent)
                return
            }
            let frameKind: InlineFrame.Kind
            switch kind {
            case .code, .math: frameKind = .code
            case .image(let l): frameKind = .image(l)
            default: frameKind = .ref
            }
            frames.append(InlineFrame(kind: frameKind, element: Self.element(for: anchorLinked(kind), unsafe: unsafe), depth: d))
            placements.append(.own)
        }

        func close() {
            switch placements.removeLast() {
            case .transparent:
                return
            case .merged(let rend):
                let top = frames.count - 1
                guard let i = frames[top].rend.firstIndex(where: { $0.value == rend }) else { return }
                frames[top].rend[i].count -= 1
                if frames[top].rend[i].count == 0 {
                    frames[top].rend.remove(at: i)
                    frames[top].rendChanged = true
                }
            case .own:
                let f = frames.removeLast()
                let parent = frames.count - 1
                if case .image(let link) = f.kind {
                    if let figure = Self.figure(link, alt: f.alt, unsafe: unsafe) {
                        Self.appendElement(figure, to: parent, in: &frames)
                    } else {
                        Self.appendText(f.alt, to: parent, in: &frames)
                    }
                } else {
                    Self.appendElement(f.element, to: parent, in: &frames)
                }
            }
        }

        var t = SpanTransition()
        var current: Int?
        for run in content.runs {
            if run.span != current {
                content.transition(from: current, to: run.span, into: &t)
                for _ in t.closing { close() }
                for s in t.opening { open(s) }
                current = run.span
            }
            writeRun(run, into: &frames)
        }
        if current != nil {
            content.transition(from: current, to: nil, into: &t)
            for _ in t.closing { close() }
        }
        return frames[0].element.children
    }

    /// Writes one run into the innermost frame of `frames` (``inlines(_:depth:)``): in an image
    /// its text joins the description; in code, text only; elsewhere line breaks and footnote
    /// references too (a note is written at its first reference unless that is too deep).
    mutating func writeRun(_ run: InlineRun, into frames: inout [InlineFrame]) {
        let top = frames.count - 1
        switch frames[top].kind {
        case .image:
            frames[top].alt += Inlines([InlineRun(run.content)]).plainText
        case .code:
            switch run.content {
            case .text(let t): Self.appendText(t, to: top, in: &frames)
            case .softBreak, .hardBreak: Self.appendText(" ", to: top, in: &frames)
            case .footnoteReference(_, let n, _): Self.appendText(String(n), to: top, in: &frames)
            case .rawHTML: break
            }
        default:
            switch run.content {
            case .text(let t): Self.appendText(t, to: top, in: &frames)
            case .softBreak: Self.appendText("\n", to: top, in: &frames)
            case .hardBreak: Self.appendElement(XMLTreeElement("lb"), to: top, in: &frames)
            case .rawHTML: break
            case .footnoteReference(let label, let number, _):
                let key = Self.normalize(label)
                if numbers[key] == nil { numbers[key] = number }
                if let id = writtenNotes[key] {
                    Self.appendElement(Self.noteReference(id, number), to: top, in: &frames)
                } else if definitions[key] != nil {
                    if frames[top].depth + 1 > TEILimits.maxNoteDepth {
                        let id = noteID(key)
                        deferredNotes.append((key, id))
                        pendingNotes[key] = id
                        Self.appendElement(Self.noteReference(id, number), to: top, in: &frames)
                    } else {
                        let n = note(key, depth: frames[top].depth + 1)
                        Self.appendElement(n, to: frames.count - 1, in: &frames)
                    }
                } else {
                    Self.appendText("[^\(label)]", to: top, in: &frames)
                }
            }
        }
    }

    /// Starts a new element for frame `i` when its `rend` changed and it holds content already.
    static func prepare(_ i: Int, in frames: inout [InlineFrame]) {
        guard frames[i].rendChanged else { return }
        frames[i].rendChanged = false
        let rend = frames[i].rend.map(\.value).joined(separator: " ")
        if frames[i].element.attributes.first?.1 == rend { return }
        if frames[i].element.children.isEmpty {
            frames[i].element.attributes = [("rend", rend)]
            return
        }
        let finished = frames[i].element
        frames[i].element = XMLTreeElement("hi", [("rend", rend)])
        appendElement(finished, to: i - 1, in: &frames)
    }

    /// Appends `e` to frame `i`'s element (after ``prepare(_:in:)``).
    static func appendElement(_ e: XMLTreeElement, to i: Int, in frames: inout [InlineFrame]) {
        prepare(i, in: &frames)
        frames[i].element.append(e)
    }

    /// Appends text to frame `i`'s element (after ``prepare(_:in:)``); empty text adds nothing.
    static func appendText(_ t: String, to i: Int, in frames: inout [InlineFrame]) {
        guard !t.isEmpty else { return }
        prepare(i, in: &frames)
        frames[i].element.append(text: t)
    }

    /// The `figure` of an image: its title as `head`, a `graphic` with the URL (and Obsidian's
    /// size), its description as `figDesc`; `nil` when ``URLSafety`` drops the destination (the
    /// description is then written as text).
    static func figure(_ link: Link, alt: String, unsafe: Bool) -> XMLTreeElement? {
        let source = URLSafety.destination(link.destination, unsafe: unsafe)
        if source.isEmpty { return nil }
        var figure = XMLTreeElement("figure")
        if !link.title.isEmpty {
            var head = XMLTreeElement("head"); head.append(text: link.title); figure.append(head)
        }
        // Obsidian's size (`![[shot.png|400x300]]`): TEI's data.outputMeasurement, in pixels.
        figure.append(XMLTreeElement("graphic", [("url", Self.uriReference(source))]
            + (link.width.map { [("width", "\($0)px")] } ?? []) + (link.height.map { [("height", "\($0)px")] } ?? [])))
        if !alt.isEmpty {
            var desc = XMLTreeElement("figDesc"); desc.append(text: alt); figure.append(desc)
        }
        return figure
    }

    /// A later reference to a written note: `ref[@type="noteref"][@target="#id"]` with the number.
    static func noteReference(_ id: String, _ number: Int) -> XMLTreeElement {
        var ref = XMLTreeElement("ref", [("type", "noteref"), ("target", "#" + id)])
        ref.append(text: String(number))
        return ref
    }

    /// The `rend` value of a span written as `hi`, or `nil` for the others.
    static func rend(_ kind: InlineSpan.Kind) -> String? {
        switch kind {
        case .strong: return "bold"
        case .emphasis: return "italic"
        case .strikethrough: return "strikethrough"
        case .script: return "script"
        case .colorRole(let r): return r.rawValue
        case .letterpress: return "letterpress"
        case .marker: return "marker"
        case .textStyle(let s): return "style-" + s.rawValue
        case .highlight: return "mark"
        case .superscript: return "sup"
        case .subscript: return "sub"
        case .insert: return "underline"
        case .code, .link, .image, .tag, .math, .keyboard, .abbreviation: return nil
        }
    }

    /// `kind` with a link to `#id` of this document (a heading or block anchor) pointed at that
    /// block's `xml:id` (``TEIIdentifiers/anchorID(_:)``); any other span as it is.
    func anchorLinked(_ kind: InlineSpan.Kind) -> InlineSpan.Kind {
        guard case .link(var l) = kind, l.destination.hasPrefix("#") else { return kind }
        let raw = String(l.destination.dropFirst())
        let fragment = raw.utf8.contains(UInt8(ascii: "%")) ? raw.removingPercentEncoding ?? raw : raw
        guard anchors.contains(fragment) else { return kind }
        l.destination = "#" + TEIIdentifiers.anchorID(fragment)
        return .link(l)
    }

    /// The element of a span that is not a `hi` (see ``rend(_:)``).
    /// The element a span opens; a link's `@target` only for a destination ``URLSafety`` keeps.
    static func element(for kind: InlineSpan.Kind, unsafe: Bool) -> XMLTreeElement {
        switch kind {
        case .code: return XMLTreeElement("code")
        case .math(let display): return XMLTreeElement("formula", [("notation", "TeX")] + (display ? [("rend", "display")] : []))
        case .link(let l):
            let target = URLSafety.destination(l.destination, unsafe: unsafe)
            return XMLTreeElement("ref", target.isEmpty ? [] : [("target", uriReference(target))])
        case .image: return XMLTreeElement("figure")
        case .tag: return XMLTreeElement("rs", [("type", "tag")])
        default: return XMLTreeElement("hi", [("rend", rend(kind) ?? "")])
        }
    }

    /// A destination as a URI reference that TEI's `teidata.pointer` (`xsd:anyURI`, no whitespace)
    /// accepts, by RFC 3986: ASCII characters outside `unreserved`, `reserved` and `%` (§2), a `%`
    /// not starting `%XX` (§2.1), `[`/`]` except around an IP-literal host (§3.2.2), the
    /// authority's delimiters that do not delimit (``delimitersToEncode(_:authority:)``) and every
    /// `#` after the first (§3.5) are percent-encoded as UTF-8; a relative reference whose first segment has a
    /// `:` gets `./` in front (§4.2). Non-ASCII characters stay (IRIs, RFC 3987).
    static func uriReference(_ s: String) -> String {
        let scalars = Array(s.unicodeScalars)
        func isAlpha(_ u: Unicode.Scalar) -> Bool { ("a"..."z").contains(u) || ("A"..."Z").contains(u) }
        func isDigit(_ u: Unicode.Scalar) -> Bool { ("0"..."9").contains(u) }
        func isHex(_ u: Unicode.Scalar) -> Bool { isDigit(u) || ("a"..."f").contains(u) || ("A"..."F").contains(u) }
        // Scheme (§3.1) and authority (§3.2) boundaries.
        var schemeEnd: Int?
        if let first = scalars.first, isAlpha(first) {
            var i = 1
            while i < scalars.count, isAlpha(scalars[i]) || isDigit(scalars[i]) || "+-.".unicodeScalars.contains(scalars[i]) { i += 1 }
            if i < scalars.count, scalars[i] == ":" { schemeEnd = i }
        }
        var authority = 0..<0
        let afterScheme = schemeEnd.map { $0 + 1 } ?? 0
        if afterScheme + 1 < scalars.count, scalars[afterScheme] == "/", scalars[afterScheme + 1] == "/" {
            var j = afterScheme + 2
            while j < scalars.count, !"/?#".unicodeScalars.contains(scalars[j]) { j += 1 }
            authority = (afterScheme + 2)..<j
        }
        // Bytes, not String appends: this runs for every link (a tenth of a TEI run when it
        // appended scalar by scalar and searched the allowed set as a string per character).
        var out: [UInt8] = []
        out.reserveCapacity(scalars.count + 8)
        if schemeEnd == nil, let colon = scalars.firstIndex(of: ":"),
           !scalars[..<colon].contains(where: { "/?#".unicodeScalars.contains($0) }) {
            out += [0x2E, 0x2F]  // "./"
        }
        let encodedInAuthority = Self.delimitersToEncode(scalars, authority: authority)
        var seenHash = false
        for (i, u) in scalars.enumerated() {
            var encode: Bool
            if u.isASCII {
                encode = !Self.uriKeepsASCII[Int(u.value)]
                if u == "%" {
                    encode = !(i + 2 < scalars.count && isHex(scalars[i + 1]) && isHex(scalars[i + 2]))
                } else if authority.contains(i), u == "[" || u == "]" || u == ":" || u == "@" {
                    encode = encodedInAuthority.contains(i)
                } else if u == "[" || u == "]" {
                    encode = true
                } else if u == "#" {
                    encode = seenHash
                    seenHash = true
                }
            } else {
                // C1 controls and Unicode spaces are not allowed in IRIs either.
                encode = u.properties.generalCategory == .control || u.properties.isWhitespace
            }
            if encode {
                let hex: [UInt8] = Array("0123456789ABCDEF".utf8)
                UTF8.encode(u) { b in out += [0x25, hex[Int(b >> 4)], hex[Int(b & 0xF)]] }
            } else {
                UTF8.encode(u) { out.append($0) }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Positions of `[`, `]`, `:` and `@` inside `authority` (a range of `scalars`) that must be
    /// percent-encoded for the authority to parse (RFC 3986 §3.2): userinfo ends at the last `@`
    /// (an earlier one is encoded); brackets stay only around an IP-literal host, `[` … `]` followed
    /// by nothing or `:` and digits (§3.2.2); a port is digits (§3.2.3), so a `:` of the host and
    /// port is kept only before a port of one or more digits and encoded otherwise (a reg-name may hold
    /// `%3A`). Before this, `http://h[1]/` or `http://h:abc/` made the whole file fail to
    /// validate.
    static func delimitersToEncode(_ scalars: [Unicode.Scalar], authority: Range<Int>) -> Set<Int> {
        guard !authority.isEmpty else { return [] }
        var encode: Set<Int> = []
        let ats = authority.filter { scalars[$0] == "@" }
        encode.formUnion(ats.dropLast())
        let host = (ats.last.map { $0 + 1 } ?? authority.lowerBound)..<authority.upperBound
        for i in authority.lowerBound..<host.lowerBound where scalars[i] == "[" || scalars[i] == "]" { encode.insert(i) }
        // Digits, at least one (libxml2, whose parser the validator uses, refuses an empty port).
        func isPort(_ r: Range<Int>) -> Bool { !r.isEmpty && r.allSatisfy { ("0"..."9").contains(scalars[$0]) } }
        // An IP-literal host: brackets and the colons inside them stay.
        if host.lowerBound < host.upperBound, scalars[host.lowerBound] == "[",
           let close = host.dropFirst().first(where: { scalars[$0] == "]" }), close > host.lowerBound + 1 {
            let rest = (close + 1)..<host.upperBound
            if rest.isEmpty || (scalars[rest.lowerBound] == ":" && isPort(rest.dropFirst())) {
                return encode
            }
        }
        // A reg-name or IPv4 host: every bracket is encoded, and every colon but one before a port.
        for i in host where scalars[i] == "[" || scalars[i] == "]" { encode.insert(i) }
        let colons = host.filter { scalars[$0] == ":" }
        if let first = colons.first, colons.count == 1, isPort((first + 1)..<host.upperBound) {
            return encode
        }
        encode.formUnion(colons)
        return encode
    }

    /// ASCII characters a URI reference keeps as they are (RFC 3986 §2: `unreserved`, `reserved`
    /// and `%`), indexed by code point; ``uriReference(_:)`` then looks at `%`, `[`, `]`, `#`.
    static let uriKeepsASCII: [Bool] = (0..<128).map { c in
        let u = Unicode.Scalar(UInt8(c))
        return ("a"..."z").contains(u) || ("A"..."Z").contains(u) || ("0"..."9").contains(u)
            || "-._~:/?#[]@!$&'()*+,;=%".unicodeScalars.contains(u)
    }
}
