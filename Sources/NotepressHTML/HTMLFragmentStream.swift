import Foundation
import NotepressAST

/// Writes a document's HTML body on a thread of its own while a reader is still building the
/// document: the reader hands over each finished top-level block (``push(_:)``), the writer
/// renders it at once, and ``finish()`` returns the same bytes as
/// ``HTMLEmitter/fragmentBytes(_:)`` on the whole document.
///
/// The one thing that needs the whole document is footnote back-references (how many references
/// each footnote has): footnote definitions come last in the block list (libcmark-gfm moves them
/// there), so the writer waits for the reader's last block before it writes the first definition.
/// With two cores, reading and writing then take about as long as the longer of the two.
///
/// Use from two threads: one reader calls ``push(_:)`` in document order and then ``finish()``.
public final class HTMLFragmentStream: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending: [Block] = []
    private var closed = false
    private var result: [UInt8] = []
    private let done = DispatchSemaphore(value: 0)

    /// Starts the writer thread.
    public init(options: HTMLOptions) {
        let thread = Thread { [self] in
            result = render(options)
            done.signal()
        }
        thread.stackSize = 64 << 20  // as deep as the main thread: blocks nest up to ASTLimits
        thread.start()
    }

    /// Hands over the next top-level block (document order).
    public func push(_ block: Block) {
        condition.lock()
        pending.append(block)
        condition.signal()
        condition.unlock()
    }

    /// Ends the input and waits for the writer: the body HTML, UTF-8.
    public func finish() -> [UInt8] {
        condition.lock()
        closed = true
        condition.signal()
        condition.unlock()
        done.wait()
        return result
    }

    /// The writer thread: renders blocks as they come; before the first footnote definition it
    /// waits for the rest and counts references over every block.
    private func render(_ options: HTMLOptions) -> [UInt8] {
        var w = HTMLBodyWriter(options: options)
        w.tightStack = [false, false]  // as `blocks(_:tight: false)` does for the top level
        var all: [Block] = []
        while true {
            condition.lock()
            while pending.isEmpty && !closed { condition.wait() }
            let batch = pending
            pending.removeAll(keepingCapacity: true)
            let isClosed = closed
            condition.unlock()
            if let k = batch.firstIndex(where: { if case .footnoteDefinition = $0.kind { return true } else { return false } }) {
                for b in batch[..<k] { w.visit(b) }
                // The footnotes: wait for the rest, count references over the whole document.
                let firstFootnote = all.count + k
                all.append(contentsOf: batch)
                condition.lock()
                while !closed { condition.wait() }
                all.append(contentsOf: pending)
                pending.removeAll()
                condition.unlock()
                w.prepare(all)
                for b in all[firstFootnote...] { w.visit(b) }
                return w.finish()
            }
            for b in batch { w.visit(b) }
            all.append(contentsOf: batch)
            if isClosed { return w.finish() }
        }
    }
}
