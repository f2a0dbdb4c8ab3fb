import NotepressAST

/// ``MkDocsSyntax``'s inline side: attribute lists, abbreviations, keys, carets.
extension MkDocsSyntax {
    /// One piece of a text run: text that stays in the run's span, or text in a new span.
    enum Piece {
        /// Text that stays in the run's span.
        case text(String)
        /// Text in a new span of that kind inside the run's span.
        case span(InlineSpan.Kind, String)
    }

    /// `c` with the inline extensions read in its text runs (outside code and math); `c` itself
    /// when nothing was found.
    func inlines(_ c: Inlines) -> Inlines {
        guard !c.runs.isEmpty else { return c }
        // Spans whose text is literal (code, math) and links/images, in one pass (parents first).
        let literal = Self.literalSpans(c)
        var out = c
        var changed = false
        if extensions.contains(.attrList) { changed = linkAttributes(&out) }
        let scanning = extensions.contains(.keys) || extensions.contains(.caret) || (extensions.contains(.abbr) && !abbreviations.isEmpty)
        guard scanning else { return changed ? out : c }
        var runs: [InlineRun] = []
        runs.reserveCapacity(out.runs.count)
        for r in out.runs {
            guard case .text(let t) = r.content, !(r.span.map { literal[$0] } ?? false) else {
                runs.append(r)
                continue
            }
            let pieces = scan(t)
            if pieces.count == 1, case .text = pieces[0] {
                runs.append(r)
                continue
            }
            changed = true
            for p in pieces {
                switch p {
                case .text(let s):
                    runs.append(InlineRun(.text(s), span: r.span))
                case .span(let kind, let s):
                    out.spans.append(InlineSpan(kind, parent: r.span))
                    runs.append(InlineRun(.text(s), span: out.spans.count - 1))
                }
            }
        }
        guard changed else { return c }
        out.runs = runs
        return out
    }

    /// The pieces of one text run: keys, inserts, superscripts, abbreviations and plain text.
    func scan(_ t: String) -> [Piece] {
        let u = Array(t.utf8)
        var pieces: [Piece] = []
        var plainStart = 0
        var i = 0
        func flush(_ end: Int) {
            if end > plainStart { pieces.append(.text(String(decoding: u[plainStart..<end], as: UTF8.self))) }
        }
        let keys = extensions.contains(.keys), caret = extensions.contains(.caret)
        let abbr = extensions.contains(.abbr) && !abbreviations.isEmpty
        while i < u.count {
            let b = u[i]
            if keys, b == 0x2B, i + 1 < u.count, u[i + 1] == 0x2B, let (end, names) = Self.keys(u, i) {
                flush(i)
                for (k, name) in names.enumerated() {
                    if k > 0 { pieces.append(.text("+")) }
                    pieces.append(.span(.keyboard, Self.keyLabel(name)))
                }
                i = end
                plainStart = i
                continue
            }
            if caret, b == 0x5E, let (end, inner, double) = Self.caret(u, i) {
                flush(i)
                pieces.append(.span(double ? .insert : .superscript, inner))
                i = end
                plainStart = i
                continue
            }
            if abbr, Self.isWordByte(b), i == 0 || !Self.isWordByte(u[i - 1]) {
                var e = i
                while e < u.count, Self.isWordByte(u[e]) { e += 1 }
                let word = String(decoding: u[i..<e], as: UTF8.self)
                if let title = abbreviations[word] {
                    flush(i)
                    pieces.append(.span(.abbreviation(title), word))
                    plainStart = e
                }
                i = e
                continue
            }
            i += 1
        }
        flush(u.count)
        return pieces.isEmpty ? [.text("")] : pieces
    }

    /// A word's byte for abbreviations: letters, digits, `_`, `-`, and any non-ASCII byte.
    static func isWordByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x2D || b >= 0x80
    }

    /// `++key+key++` at `i`: the index after it and the key names, or `nil`.
    static func keys(_ u: [UInt8], _ i: Int) -> (Int, [String])? {
        var j = i + 2
        var names: [String] = []
        var start = j
        while j < u.count {
            let b = u[j]
            if b == 0x20 || b == 0x09 { return nil }
            if b == 0x2B {
                guard j > start else { return nil }
                names.append(String(decoding: u[start..<j], as: UTF8.self))
                if j + 1 < u.count, u[j + 1] == 0x2B { return (j + 2, names) }
                start = j + 1
            }
            j += 1
        }
        return nil
    }

    /// The label of a key as pymdownx.keys shows it: known names capitalised (`ctrl` → `Ctrl`),
    /// a quoted name without its quotes, any other as written.
    static func keyLabel(_ name: String) -> String {
        if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") { return String(name.dropFirst().dropLast()) }
        if let k = keyNames[name.lowercased()] { return k }
        return name.count == 1 ? name.uppercased() : name
    }

    /// Key names pymdownx.keys knows, lower case → label (a common subset).
    static let keyNames: [String: String] = [
        "ctrl": "Ctrl", "control": "Ctrl", "alt": "Alt", "shift": "Shift", "cmd": "Cmd", "command": "Cmd",
        "meta": "Meta", "option": "Option", "opt": "Option", "super": "Super", "windows": "Win", "win": "Win",
        "del": "Del", "delete": "Del", "enter": "Enter", "return": "Return", "tab": "Tab", "esc": "Esc",
        "escape": "Esc", "space": "Space", "backspace": "Backspace", "insert": "Ins", "ins": "Ins", "home": "Home",
        "end": "End", "page-up": "Page Up", "page-down": "Page Down", "arrow-up": "Up", "arrow-down": "Down",
        "arrow-left": "Left", "arrow-right": "Right", "up": "Up", "down": "Down", "left": "Left", "right": "Right",
        "fn": "Fn", "caps-lock": "Caps Lock", "print-screen": "Print Screen",
        "f1": "F1", "f2": "F2", "f3": "F3", "f4": "F4", "f5": "F5", "f6": "F6", "f7": "F7", "f8": "F8", "f9": "F9",
        "f10": "F10", "f11": "F11", "f12": "F12",
    ]

    /// `^^text^^` (insert) or `^text^` (superscript, no blank inside) at `i`: the index after it,
    /// the text, and whether it was doubled; `nil` when none starts there.
    static func caret(_ u: [UInt8], _ i: Int) -> (Int, String, Bool)? {
        if i + 2 < u.count, u[i + 1] == 0x5E {
            let s = i + 2
            guard u[s] != 0x20, u[s] != 0x5E else { return nil }
            var j = s
            while j + 1 < u.count {
                if u[j] == 0x5E, u[j + 1] == 0x5E, u[j - 1] != 0x20 {
                    return (j + 2, String(decoding: u[s..<j], as: UTF8.self), true)
                }
                j += 1
            }
            return nil
        }
        let s = i + 1
        guard s < u.count, u[s] != 0x20, u[s] != 0x5E else { return nil }
        var j = s
        while j < u.count {
            if u[j] == 0x20 || u[j] == 0x09 { return nil }
            if u[j] == 0x5E { return j > s ? (j + 1, String(decoding: u[s..<j], as: UTF8.self), false) : nil }
            j += 1
        }
        return nil
    }

    // MARK: attribute lists

    /// Reads `{ … }` right after a link or image (the next run, text in the link's parent span,
    /// starting with `{`) into the link's ``Link/attributes``. Whether any was read.
    func linkAttributes(_ c: inout Inlines) -> Bool {
        var changed = false
        var i = 1
        while i < c.runs.count {
            defer { i += 1 }
            guard case .text(let t) = c.runs[i].content, t.hasPrefix("{"), let prev = c.runs[i - 1].span else { continue }
            // The outermost span of the previous run that the current run is not in.
            var s = prev
            var found: Int?
            while true {
                if s == c.runs[i].span { break }
                found = s
                guard let p = c.spans[s].parent else { break }
                s = p
            }
            guard let link = found, c.spans[link].parent == c.runs[i].span else { continue }
            let u = Array(t.utf8)
            guard let close = u.firstIndex(of: 0x7D), let attrs = Self.attributeList(u[0...close]) else { continue }
            switch c.spans[link].kind {
            case .link(var l):
                l.attributes = attrs
                c.spans[link].kind = .link(l)
            case .image(var l):
                var a = attrs
                a.pairs.removeAll { p in
                    if p.key == "width", let w = Int(p.value) { l.width = w; return true }
                    if p.key == "height", let h = Int(p.value) { l.height = h; return true }
                    return false
                }
                l.attributes = a.isEmpty ? nil : a
                c.spans[link].kind = .image(l)
            default: continue
            }
            c.runs[i].content = .text(String(decoding: u[(close + 1)...], as: UTF8.self))
            changed = true
        }
        return changed
    }

    /// A heading's content without its trailing `{ … }` (and the blanks before it), with the
    /// attributes; `nil` when its last run is not text in no span ending with one.
    static func trailingAttributes(_ c: Inlines) -> (Inlines, MarkupAttributes)? {
        guard let last = c.runs.last, last.span == nil, case .text(let t) = last.content, t.utf8.last == 0x7D
                || t.hasSuffix(" ") else { return nil }
        var u = Array(t.utf8)
        while u.last == 0x20 || u.last == 0x09 { u.removeLast() }
        guard u.last == 0x7D, let open = u.lastIndex(of: 0x7B), let attrs = attributeList(u[open...]) else { return nil }
        var end = open
        while end > 0, u[end - 1] == 0x20 || u[end - 1] == 0x09 { end -= 1 }
        var out = c
        if end == 0 { out.runs.removeLast() } else { out.runs[out.runs.count - 1].content = .text(String(decoding: u[..<end], as: UTF8.self)) }
        return (out, attrs)
    }

    /// A paragraph's content without a last line that is a `{ … }` by itself, with the
    /// attributes; `nil` when there is none.
    static func trailingAttributeLine(_ c: Inlines) -> (Inlines, MarkupAttributes)? {
        guard c.runs.count >= 3, let last = c.runs.last, last.span == nil, case .text(let t) = last.content,
              case .softBreak = c.runs[c.runs.count - 2].content else { return nil }
        var u = Array(t.utf8)
        while u.last == 0x20 || u.last == 0x09 { u.removeLast() }
        guard u.first == 0x7B, u.last == 0x7D, let attrs = attributeList(u[...]) else { return nil }
        var out = c
        out.runs.removeLast(2)
        return (out, attrs)
    }

    /// The attributes of `{ #id .class key=value key="v w" }` (or `{: … }`), the braces included;
    /// `nil` when the text between them is not such a list.
    static func attributeList(_ s: ArraySlice<UInt8>) -> MarkupAttributes? {
        let u = Array(s)
        guard u.count >= 3, u.first == 0x7B, u.last == 0x7D else { return nil }
        var i = 1
        if u[i] == 0x3A { i += 1 }
        let end = u.count - 1
        var a = MarkupAttributes()
        var any = false
        while i < end {
            let b = u[i]
            if b == 0x20 || b == 0x09 { i += 1; continue }
            var j = i
            // A word up to a blank, or a key=quoted value.
            while j < end, u[j] != 0x20, u[j] != 0x09, u[j] != 0x3D { j += 1 }
            let word = String(decoding: u[i..<j], as: UTF8.self)
            if j < end, u[j] == 0x3D {
                var k = j + 1
                var value: String
                if k < end, u[k] == 0x22 || u[k] == 0x27 {
                    let q = u[k]
                    k += 1
                    let vs = k
                    while k < end, u[k] != q { k += 1 }
                    guard k < end else { return nil }
                    value = String(decoding: u[vs..<k], as: UTF8.self)
                    k += 1
                } else {
                    let vs = k
                    while k < end, u[k] != 0x20, u[k] != 0x09 { k += 1 }
                    value = String(decoding: u[vs..<k], as: UTF8.self)
                }
                guard !word.isEmpty, !value.contains("{") else { return nil }
                // `id=…` and `class=…` are the id and classes, as `#…` and `.…` are.
                if word == "id" {
                    a.id = value
                } else if word == "class" {
                    a.classes += value.split(separator: " ").map(String.init)
                } else {
                    a.pairs.append(MarkupAttributes.Pair(key: word, value: value))
                }
                i = k
            } else if word.hasPrefix("#"), word.count > 1 {
                a.id = String(word.dropFirst())
                i = j
            } else if word.hasPrefix("."), word.count > 1 {
                a.classes.append(String(word.dropFirst()))
                i = j
            } else {
                // A bare word (Python-Markdown ignores it); `{` or `}` inside: not a list.
                guard !word.contains("{"), !word.contains("}") else { return nil }
                i = j
                continue
            }
            any = true
        }
        return any ? a : nil
    }

    // MARK: abbreviations

    /// `blocks` without the paragraphs made only of `*[ABBR]: expansion` lines (at any depth),
    /// whose definitions are recorded in ``abbreviations``.
    mutating func collectAbbreviations(_ blocks: [Block]) -> [Block] {
        var out: [Block] = []
        for var b in blocks {
            switch b.kind {
            case .paragraph(let c):
                let lines = Self.lines(c).map { $0.plainText }
                let defs = lines.compactMap(Self.abbreviation)
                if !defs.isEmpty, defs.count == lines.count {
                    for (k, v) in defs where abbreviations[k] == nil { abbreviations[k] = v }
                    continue
                }
            case .blockQuote(let children): b.kind = .blockQuote(collectAbbreviations(children))
            case .list(var l):
                for i in l.items.indices { l.items[i].blocks = collectAbbreviations(l.items[i].blocks) }
                b.kind = .list(l)
            default: break
            }
            out.append(b)
        }
        return out
    }

    /// `*[ABBR]: expansion` as (ABBR, expansion), or `nil`. (cmark gives `*[ABBR]:` back as text:
    /// the `*` opens nothing, the brackets link nowhere.)
    static func abbreviation(_ line: String) -> (String, String)? {
        guard line.hasPrefix("*["), let close = line.firstIndex(of: "]") else { return nil }
        let name = line[line.index(line.startIndex, offsetBy: 2)..<close]
        let rest = line[line.index(after: close)...]
        guard !name.isEmpty, rest.hasPrefix(":") else { return nil }
        return (String(name), String(rest.dropFirst()).trimmingHorizontalWhitespace())
    }
}
