import Foundation

/// Values deliberately left for the process exit to reclaim.
///
/// Freeing a large tree node by node is a visible share of a one-document conversion (callgrind on
/// the 1 MB corpus: a sixth of the HTML run for the document, about a third of the TEI writer for
/// its XML tree). cmark-gfm's own program avoids the same cost with an arena it never frees; a
/// process that converts one document and exits does the same with ``keep(_:)``. Writers hand
/// their intermediate trees to ``keepIfSingleDocument(_:)``, which keeps them only when the
/// process said it converts one document (``singleDocument``): a library user or a folder run
/// frees them as usual, so memory stays bounded per document there.
///
/// What is kept belongs to the current run, not to the process: a process that runs again
/// (`convert FILE --watch`, `serve`) calls ``endRun()`` after each run, which lets go of it all and
/// clears ``singleDocument`` (each rebuild of a 2.3 MB note to TEI kept another 50 MB until exit).
package enum ProcessLifetime {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var kept: [Any] = []
    nonisolated(unsafe) private static var single = false

    /// Whether this process converts one document and then exits (set once, before converting,
    /// by the single-file command line).
    package static var singleDocument: Bool {
        get { lock.lock(); defer { lock.unlock() }; return single }
        set { lock.lock(); single = newValue; lock.unlock() }
    }

    /// Keeps `value` alive until the process exits, or the run ends (``endRun()``).
    package static func keep(_ value: Any) {
        lock.lock(); kept.append(value); lock.unlock()
    }

    /// Keeps `value` until exit when ``singleDocument`` is set; otherwise does nothing, and the
    /// caller's last reference frees it as usual.
    package static func keepIfSingleDocument(_ value: Any) {
        lock.lock(); defer { lock.unlock() }
        if single { kept.append(value) }
    }

    /// Ends the run: lets go of every value kept so far (the caller's thread frees them) and
    /// clears ``singleDocument``, so that a long-running process keeps nothing from one run to the next.
    package static func endRun() {
        lock.lock()
        let released = kept
        kept = []
        single = false
        lock.unlock()
        withExtendedLifetime(released) {}
    }
}
