/// Builds an ``Inlines`` value in reading order: open a span (``push(_:)``), add runs
/// (``append(_:)``), close it (``pop()``). Readers and tests share it; it keeps the invariants of
/// ``Inlines`` (parents before children, runs pointing at the innermost open span).
///
/// Every operation is O(1) (amortised), except ``append(contentsOf:)`` (O(runs + spans) of the
/// grafted value), so building is linear in the output at any nesting depth.
package struct InlinesBuilder: Sendable {
    private var runs: [InlineRun] = []
    private var spans: [InlineSpan] = []
    /// The innermost open span, -1 at the top level.
    private var open: Int32 = -1

    /// An empty builder: no runs, no spans, nothing open.
    package init() {}

    /// The index of the innermost open span, or `nil` at the top level.
    package var openSpan: Int? { open < 0 ? nil : Int(open) }

    /// Whether no run has been added since the last ``take()``.
    package var isEmpty: Bool { runs.isEmpty }

    /// How many runs have been added since the last ``take()``.
    package var runCount: Int { runs.count }

    /// Opens a span of `kind` inside the innermost open one; returns its index.
    @discardableResult
    package mutating func push(_ kind: InlineSpan.Kind) -> Int {
        precondition(spans.count < Int(Int32.max), "too many spans in one paragraph")
        spans.append(InlineSpan(kind, parent: openSpan))
        open = Int32(spans.count - 1)
        return spans.count - 1
    }

    /// Closes the innermost open span. Precondition: one is open.
    package mutating func pop() {
        precondition(open >= 0, "pop() without an open span")
        open = spans[Int(open)].parentIndex
    }

    /// Adds a run inside the innermost open span.
    package mutating func append(_ content: RunContent) {
        runs.append(InlineRun(content, span: openSpan))
    }

    /// Adds one run inside a new span of `kind` of its own (push, append, pop).
    package mutating func append(_ content: RunContent, in kind: InlineSpan.Kind) {
        push(kind)
        append(content)
        pop()
    }

    /// Appends `text` to the last run, which must be a text run in the innermost open span (a
    /// reader joining adjacent text). The string grows in place (amortised O(added length)).
    package mutating func extendLastText(_ text: String) {
        let last = runs.count - 1
        guard last >= 0, case .text(var t) = runs[last].content, runs[last].spanIndex == open else {
            preconditionFailure("extendLastText: the last run is not text in the open span")
        }
        runs[last].content = .softBreak  // drops the array's reference: `t` is unique
        t += text
        runs[last].content = .text(t)
    }

    /// Removes `suffix` from the end of the last run when that run is text in the innermost open
    /// span and ends with it (a reader taking back a `[` that turned out to open a wiki link); a
    /// run left empty is dropped. Returns whether it did. O(length of the suffix).
    @discardableResult
    package mutating func removeSuffixOfLastText(_ suffix: String) -> Bool {
        let last = runs.count - 1
        guard last >= 0, case .text(var t) = runs[last].content, runs[last].spanIndex == open, t.hasSuffix(suffix) else {
            return false
        }
        runs[last].content = .softBreak  // drops the array's reference: `t` is unique
        t.removeLast(suffix.count)
        if t.isEmpty { runs.removeLast() } else { runs[last].content = .text(t) }
        return true
    }

    /// Adds the runs of `other` with its whole span tree nested inside the innermost open span.
    package mutating func append(contentsOf other: Inlines) {
        let offset = Int32(spans.count)
        precondition(spans.count + other.spans.count < Int(Int32.max), "too many spans in one paragraph")
        spans.reserveCapacity(spans.count + other.spans.count)
        for var s in other.spans {
            s.parentIndex = s.parentIndex < 0 ? open : s.parentIndex + offset
            spans.append(s)
        }
        runs.reserveCapacity(runs.count + other.runs.count)
        for var r in other.runs {
            r.spanIndex = r.spanIndex < 0 ? open : r.spanIndex + offset
            runs.append(r)
        }
    }

    /// The content built so far; the builder starts over (empty, nothing open).
    package mutating func take() -> Inlines {
        let result = Inlines(uncheckedRuns: runs, spans: spans)
        runs = []
        spans = []
        open = -1
        return result
    }

    /// ``take()`` into arrays allocated for exactly their elements (no up-to-2× slack of a grown
    /// array in a tree that lives as long as the document); the builder keeps its capacity for
    /// the next paragraph. Elements are moved, not copied (no retain/release per element).
    package mutating func takeExact() -> Inlines {
        let r = Self.takeExact(&runs, refill: InlineRun(.hardBreak))
        let s = Self.takeExact(&spans, refill: InlineSpan(.strong))
        open = -1
        return Inlines(uncheckedRuns: r, spans: s)
    }

    /// Moves the elements of `elements` into a new array of exactly their count and empties
    /// `elements` (capacity kept). `refill` must own no object: the moved-from slots hold it
    /// until they are emptied, so that emptying releases nothing twice.
    @inline(__always)
    package static func takeExact<Element>(_ elements: inout [Element], refill: Element) -> [Element] {
        let n = elements.count
        if n == 0 { return [] }
        let exact = [Element](unsafeUninitializedCapacity: n) { buffer, count in
            elements.withUnsafeMutableBufferPointer { source in
                buffer.baseAddress!.moveInitialize(from: source.baseAddress!, count: n)
                source.baseAddress!.initialize(repeating: refill, count: n)
            }
            count = n
        }
        elements.removeAll(keepingCapacity: true)
        return exact
    }
}

/// The tags to write between two runs: the spans to close (innermost first) and to open
/// (outermost first). Reused from run to run (``Inlines/transition(from:to:into:)``), so a
/// paragraph allocates it once.
package struct SpanTransition: Sendable {
    /// Spans open before and not after, innermost first.
    package var closing: [Int] = []
    /// Spans open after and not before, outermost first.
    package var opening: [Int] = []

    /// Empty lists (filled by ``Inlines/transition(from:to:into:)``).
    package init() {}
}

extension Inlines {
    /// Fills `t` with the spans to close and open to go from inside span `from` (a run's
    /// ``InlineRun/span``, `nil` for the top level) to inside span `to`: walks both up to their
    /// lowest common ancestor. Because a parent's index is smaller than its child's, the larger
    /// of two different indices is never an ancestor of the other, so the walk needs no depths.
    /// Cost: the number of spans closed and opened, which is what an emitter writes anyway; over
    /// a paragraph, at most twice the number of spans.
    ///
    /// Emitters that rebuild nesting use it between consecutive runs: start from `nil`, go to
    /// each run's span, end by going to `nil`.
    package func transition(from: Int?, to: Int?, into t: inout SpanTransition) {
        t.closing.removeAll(keepingCapacity: true)
        t.opening.removeAll(keepingCapacity: true)
        var a = Int32(from ?? -1)
        var b = Int32(to ?? -1)
        while a != b {
            if a > b {
                t.closing.append(Int(a))
                a = spans[Int(a)].parentIndex
            } else {
                t.opening.append(Int(b))
                b = spans[Int(b)].parentIndex
            }
        }
        t.opening.reverse()
    }
}

/// Per-span facts that depend on the whole chain of enclosing spans, computed once per
/// ``Inlines`` in O(spans) (each span's entry is its parent's plus itself): what RTF, terminal
/// and man output read per run instead of walking the chain (which would cost depth × runs).
public struct InlineAttributeTable: Sendable {
    /// What holds at one point of the span tree.
    public struct Entry: Sendable, Equatable {
        /// The flat attributes (``InlineAttributes``).
        public var attributes = InlineAttributes()
        /// Span indices (-1 none): innermost link, innermost image, innermost and outermost
        /// link or image. 32 bits each keep an entry small (the table has one per span).
        var indices = SIMD4<Int32>(repeating: -1)

        /// The innermost enclosing link span (index in ``Inlines/spans``).
        public var innermostLink: Int? { Self.index(indices[0]) }
        /// The innermost enclosing image span.
        public var innermostImage: Int? { Self.index(indices[1]) }
        /// The innermost enclosing link or image span.
        public var innermostTarget: Int? { Self.index(indices[2]) }
        /// The outermost enclosing link or image span.
        public var outermostTarget: Int? { Self.index(indices[3]) }

        /// The top level: no attribute, no link or image.
        public init() {}

        private static func index(_ i: Int32) -> Int? { i < 0 ? nil : Int(i) }
    }

    private var entries: [Entry]
    private let spans: [InlineSpan]
    private static let top = Entry()

    /// Builds the table of `inlines` (no allocation when it has no spans).
    public init(_ inlines: Inlines) {
        spans = inlines.spans
        entries = []
        guard !spans.isEmpty else { return }
        entries.reserveCapacity(spans.count)
        for (i, span) in spans.enumerated() {
            var e = span.parentIndex < 0 ? Entry() : entries[Int(span.parentIndex)]
            e.attributes.add(span.kind)
            switch span.kind {
            case .link, .image:
                let index = Int32(i)
                if case .link = span.kind { e.indices[0] = index } else { e.indices[1] = index }
                e.indices[2] = index
                if e.indices[3] < 0 { e.indices[3] = index }
            default:
                break
            }
            entries.append(e)
        }
    }

    /// The entry of span `span` (`nil`: the top level, where nothing applies).
    public subscript(span: Int?) -> Entry {
        guard let span else { return Self.top }
        return entries[span]
    }

    /// The entry that applies to `run`.
    public subscript(run run: InlineRun) -> Entry {
        run.spanIndex < 0 ? Self.top : entries[Int(run.spanIndex)]
    }

    /// The link of link or image span `span` (its destination and title).
    public func link(_ span: Int) -> Link? {
        switch spans[span].kind {
        case .link(let l), .image(let l): return l
        default: return nil
        }
    }
}
