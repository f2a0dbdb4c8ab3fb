import Foundation
import NotepressAST

/// Writes a document's HTML body on a thread of its own while a reader is still building the
/// document: the reader hands over each finished top-level block (``push(_:)``), the writer
/// renders it at once and lets it go, and ``finish()`` returns the same bytes as
/// ``HTMLEmitter/fragmentBytes(_:)`` on the whole document.
///
/// The one thing that needs more than the block at hand is footnote back-references (how many
/// references each footnote has): references are counted as blocks pass, and footnote
/// definitions (which libcmark-gfm puts last) are kept and written at the end, when every
/// reference has been counted. With two cores, reading and writing take about as long as the
/// longer of the two; with a reader that does not keep its blocks either, memory holds the text,
/// the output and the blocks in flight rather than the whole tree.
///
/// Use from two threads: one reader calls ``push(_:)`` in document order and then ``finish()``.
package final class HTMLFragmentStream: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending: [Block] = []
    private var closed = false
    private var result: [UInt8] = []
    private var unknown: [(String, SourcePosition?)] = []
    private let done = DispatchSemaphore(value: 0)

    /// Starts the writer thread. `preparing`, when given, is applied to each top-level block on
    /// the writer thread, in document order, before it is written (heading ids and anchors: the
    /// reader's thread, the longer of the two, then only reads).
    package init(options: HTMLOptions, preparing: (@Sendable (Block) -> Block)? = nil) {
        let thread = Thread { [self] in
            result = render(options, preparing: preparing)
            done.signal()
        }
        thread.stackSize = 64 << 20  // as deep as the main thread: blocks nest up to ASTLimits
        thread.start()
    }

    /// Hands over the next top-level block (document order).
    package func push(_ block: Block) {
        condition.lock()
        pending.append(block)
        condition.signal()
        condition.unlock()
    }

    /// Ends the input and waits for the writer: the body HTML, UTF-8.
    package func finish() -> [UInt8] {
        condition.lock()
        closed = true
        condition.signal()
        condition.unlock()
        done.wait()
        return result
    }

    /// Type names and positions of the ``Block/Kind/unknown(typeName:blocks:)`` blocks written
    /// (at any depth, document order); valid after ``finish()``.
    package var unknownBlocks: [(typeName: String, position: SourcePosition?)] { unknown.map { ($0.0, $0.1) } }

    /// The writer thread.
    private func render(_ options: HTMLOptions, preparing: (@Sendable (Block) -> Block)?) -> [UInt8] {
        var w = HTMLBodyWriter(options: options)
        w.tightStack = [false, false]  // as `blocks(_:tight: false)` does for the top level
        var footnotes: [Block] = []
        while true {
            condition.lock()
            while pending.isEmpty && !closed { condition.wait() }
            let batch = pending
            pending.removeAll(keepingCapacity: true)
            let isClosed = closed
            condition.unlock()
            for pushed in batch {
                let block = preparing.map { $0(pushed) } ?? pushed
                w.prepare([block])  // counts footnote references, notes unknown blocks
                if !footnotes.isEmpty {
                    footnotes.append(block)
                } else if case .footnoteDefinition = block.kind {
                    footnotes.append(block)
                } else {
                    w.visit(block)
                }
            }
            if isClosed { break }
        }
        w.closeRawBlockElements()  // as `blocks(_:tight:)` closes them at the end of the top level
        for block in footnotes { w.visit(block) }
        unknown = w.unknownBlocks
        return w.finish()
    }
}
