import Foundation

extension Platform {
    /// Writes `bytes` to standard output with ``writeAll(_:_:)``. A closed pipe (`EPIPE`, `| head`)
    /// ends the output quietly (callers ignore SIGPIPE around it); any other failure (a full disk:
    /// `> /dev/full`) is remembered for ``finishStandardOutput()``, the first one only.
    package static func writeStandardOutput(_ bytes: [UInt8]) {
        if !writeAll(1, bytes) {
            let code = lastError
            if !isBrokenPipe(code) { StandardOutputFailure.shared.note(SystemError(code: code, step: .write)) }
        }
    }

    /// Flushes what `print` buffered (``flushStandardOutput()``) and tells whether any write to
    /// standard output failed: the first failure of ``writeStandardOutput(_:)``, else the flush's,
    /// else `nil`.
    package static func finishStandardOutput() -> SystemError? {
        let flushed = flushStandardOutput()
        return StandardOutputFailure.shared.first ?? flushed
    }
}

/// The first failed write to standard output (``Platform/writeStandardOutput(_:)``). Standard
/// output belongs to the process, and so does what became of it: this record is process-wide, and
/// kept here, in the platform module, with the temporaries' registry and the interrupt handler.
private final class StandardOutputFailure: @unchecked Sendable {
    static let shared = StandardOutputFailure()
    private let lock = NSLock()
    private var failure: SystemError?

    /// The first failure noted, or `nil`.
    var first: SystemError? {
        lock.lock(); defer { lock.unlock() }
        return failure
    }

    /// Notes `error` unless a failure was noted already.
    func note(_ error: SystemError) {
        lock.lock()
        if failure == nil { failure = error }
        lock.unlock()
    }
}
