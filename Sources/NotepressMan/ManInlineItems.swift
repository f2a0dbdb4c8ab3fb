import NotepressAST

/// Turns text into ``InlineItem``s for ``ManRenderer/makeInlineItems(_:flow:unsafe:ronnTags:warn:into:afterRun:)``:
/// words (their parts in fonts), spaces, indents and breaks, into ``items``, which the caller
/// lays out as they come (``removeFirst(_:)``) or takes at the end (``takeItems()``). No space
/// first or last, never two spaces in a row.
///
/// A struct with mutating methods rather than nested functions over local variables: Swift
/// checks the variables such functions capture for exclusive access at run time (4 % of a man
/// run on the corpus); a struct's stored properties are checked when compiling.
struct InlineItemSink {
    /// Items made and not yet handed on.
    private(set) var items: [InlineItem] = []
    /// Something was made; a space is held back until an item follows it.
    private var started = false
    private var heldSpace = false
    /// The word being made, if any.
    private var pending: Word?
    /// At the start of a line (flow only), and the columns of blanks seen there so far.
    private var lineStart: Bool
    private var indentColumns = 0

    /// `lineStart`: blanks that start the text are kept as an indent (flowed text). `buffer`: an
    /// emptied item buffer whose capacity is reused.
    init(lineStart: Bool, reusing buffer: [InlineItem] = []) {
        self.lineStart = lineStart
        items = buffer
        items.removeAll(keepingCapacity: true)
    }

    /// Forgets the first `n` items (laid out already).
    mutating func removeFirst(_ n: Int) { items.removeFirst(n) }

    /// The items made and not removed; the sink is left empty.
    mutating func takeItems() -> [InlineItem] {
        defer { items = [] }
        return items
    }

    /// Adds `item`; a space is held until a later item follows it, and dropped at the start.
    mutating func emit(_ item: InlineItem) {
        if case .space = item {
            if started { heldSpace = true }
            return
        }
        if heldSpace { items.append(.space); heldSpace = false }
        started = true
        items.append(item)
    }

    /// Ends the word being made, if any.
    mutating func flush() { if let word = pending { pending = nil; emit(.word(word)) } }

    /// Adds a part to the word being made.
    private mutating func push(_ part: WordPart) {
        if pending == nil { pending = Word(part) } else { pending!.append(part) }
    }

    /// A space between words.
    mutating func space() {
        flush()
        emit(.space)
    }

    /// A hard line break: blanks after it are an indent again.
    mutating func hardBreak() {
        emit(.hardBreak)
        lineStart = true
        indentColumns = 0
    }

    /// Adds `text` in `font` (`literal`: code), split into words at its spaces.
    mutating func add(_ text: String, _ font: RoffFont, _ literal: Bool) {
        var text = text
        if lineStart {
            var k = text.unicodeScalars.startIndex
            while k != text.unicodeScalars.endIndex {
                let u = text.unicodeScalars[k]
                if u == " " { indentColumns += 1 } else if u == "\t" { indentColumns += 8 - indentColumns % 8 } else { break }
                k = text.unicodeScalars.index(after: k)
            }
            if k == text.unicodeScalars.endIndex { return }
            text = String(text.unicodeScalars[k...])
            lineStart = false
            if indentColumns > 0 { flush(); emit(.indent(indentColumns)) }
        }
        // Split at space bytes when each is a Character of its own (the same pieces as
        // splitting at space Characters): true when both its neighbours are ASCII, since only
        // non-ASCII scalars (Prepend before, Extend, ZWJ or SpacingMark after; UAX #29) join a
        // space into a larger grapheme cluster. No list of pieces: each is handed on as it is found.
        let split = text.withUTF8Bytes { bytes -> Bool in
            guard ManRenderer.spacesStandAlone(bytes) else { return false }
            func piece(_ r: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[r]), as: UTF8.self) }
            var start = 0
            for i in 0..<bytes.count where bytes[i] == 0x20 {
                if start != i { push(WordPart(text: piece(start..<i), font: font, literal: literal)) }
                flush(); emit(.space)
                start = i + 1
            }
            if start != bytes.count { push(WordPart(text: piece(start..<bytes.count), font: font, literal: literal)) }
            return true
        }
        if split { return }
        var start = text.startIndex
        var i = start
        while i != text.endIndex {
            let next = text.index(after: i)
            if text[i] == " " {
                if start != i { push(WordPart(text: String(text[start..<i]), font: font, literal: literal)) }
                flush(); emit(.space)
                start = next
            }
            i = next
        }
        if start != text.endIndex { push(WordPart(text: String(text[start...]), font: font, literal: literal)) }
    }
}

/// The link or image each span of one ``Inlines`` shows, if any, worked out once per span rather
/// than once per run in it (the link-target rules were 5 % of a man run when repeated per run).
struct LiveSpans {
    /// The spans' table.
    let table: InlineAttributeTable
    /// Keep dangerous destinations (``URLSafety``).
    let unsafe: Bool
    /// Known answers, by span id × 2 + 1 for links, + 0 for images.
    private var known: [Int: (Int, Link)?] = [:]

    init(table: InlineAttributeTable, unsafe: Bool) {
        self.table = table
        self.unsafe = unsafe
    }

    /// The innermost link (`link`) or image span of `run`, with its link as shown, or `nil`.
    mutating func span(_ run: InlineRun?, link: Bool) -> (Int, Link)? {
        guard let run else { return nil }
        return span(table[run: run], link: link)
    }

    /// ``span(_:link:)`` of the run whose table entry is `e` (looked up once per run).
    mutating func span(_ e: InlineAttributeTable.Entry, link: Bool) -> (Int, Link)? {
        guard let id = link ? e.innermostLink : e.innermostImage else { return nil }
        let key = id &* 2 &+ (link ? 1 : 0)
        if let found = known[key] { return found }
        let found = table.link(id).flatMap { live(id, $0, link: link) }
        known[key] = .some(found)
        return found
    }

    /// The link as shown: a page of the site as is; else its destination made safe, `nil` when
    /// that is empty or (for a link) not shown (``ManRenderer/linkTarget(_:)``).
    private func live(_ id: Int, _ l: Link, link: Bool) -> (Int, Link)? {
        // A link to another page of the site is shown as that page's name and section.
        if l.target != nil { return (id, l) }
        let destination = URLSafety.destination(l.destination, unsafe: unsafe)
        if destination.isEmpty || (link && ManRenderer.linkTarget(destination) == .none) { return nil }
        return (id, Link(destination: destination, title: l.title))
    }
}
