import Foundation

/// Threads that run batches of indexed work (``run(_:_:)``) until ``finish()``: the phases of a
/// site run share them instead of starting threads for each phase.
final class WorkerPool: @unchecked Sendable {
    private let condition = NSCondition()
    private var body: (@Sendable (Int) -> Void)?
    private var count = 0
    private var next = 0
    private var unfinished = 0
    private var generation = 0
    private var stopping = false
    private var threads: [Thread] = []

    /// Starts `threads` threads with 64 MiB stacks.
    init(threads n: Int) {
        for _ in 0..<max(1, n) {
            let t = Thread { [self] in work() }
            t.stackSize = 64 << 20
            threads.append(t)
            t.start()
        }
    }

    private func work() {
        var seen = 0
        condition.lock()
        while true {
            while !stopping && generation == seen { condition.wait() }
            if stopping { condition.unlock(); return }
            seen = generation
            while next < count, let body {
                let i = next
                next += 1
                condition.unlock()
                body(i)
                condition.lock()
                unfinished -= 1
                if unfinished == 0 { condition.broadcast() }
            }
        }
    }

    /// Runs `body(i)` for every `i` in `0..<count` on the pool's threads; returns when all are done.
    func run(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        guard count > 0 else { return }
        condition.lock()
        self.body = body
        self.count = count
        next = 0
        unfinished = count
        generation += 1
        condition.broadcast()
        while unfinished > 0 { condition.wait() }
        self.body = nil
        condition.unlock()
    }

    /// Ends the threads (after the last ``run(_:_:)``).
    func finish() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }
}

/// A thread-safe array of slots filled by index.
final class Slots<T>: @unchecked Sendable {
    private var items: [T?]
    private let lock = NSLock()
    init(count: Int) { items = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ v: T) { lock.lock(); items[i] = v; lock.unlock() }
    func get(_ i: Int) -> T? { lock.lock(); defer { lock.unlock() }; return items[i] }
    /// `body` of slot `i`, read in place (the slot is not copied).
    func read<R>(_ i: Int, _ body: (T?) -> R) -> R { lock.lock(); defer { lock.unlock() }; return body(items[i]) }
    /// Changes slot `i` in place.
    func update(_ i: Int, _ body: (inout T?) -> Void) { lock.lock(); body(&items[i]); lock.unlock() }
    func values() -> [T] { lock.lock(); defer { lock.unlock() }; return items.compactMap { $0 } }
}

/// A budget of input bytes whose parsed documents are kept between the phases (beyond it a page
/// is parsed again when it is rendered).
final class ByteBudget: @unchecked Sendable {
    private var left: Int
    private let lock = NSLock()
    init(_ bytes: Int) { left = bytes }
    func take(_ n: Int) -> Bool {
        lock.lock(); defer { lock.unlock() }
        guard n <= left else { return false }
        left -= n
        return true
    }
}
