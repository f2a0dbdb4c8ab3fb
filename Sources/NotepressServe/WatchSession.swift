import Foundation
import Notepress

/// What one build of a watch session did: its exit status, its failures (as printed), and how
/// many files it wrote or removed (0: the outputs are as they were; the browser need not reload).
package struct WatchBuild: Sendable {
    package var status: Int32
    package var failures: [String]
    package var written: Int

    package init(status: Int32, failures: [String], written: Int) {
        self.status = status
        self.failures = failures
        self.written = written
    }
}

/// A site built again on every change (`convert --watch`, `serve`): ``build`` builds once (the
/// command line parses its options afresh each time, so a changed template or theme file is read
/// again, and runs the incremental site build, which converts only what changed and what depends
/// on it); the session watches what the first build read and builds after each burst of changes.
package struct WatchSession {
    /// Builds once. A command line that no longer holds (a template that stopped compiling) is a
    /// failed build with its message, not the end of the session.
    let build: () -> WatchBuild
    /// Where the session's own lines go (standard error).
    let say: (String) -> Void

    package init(build: @escaping () -> WatchBuild, say: @escaping (String) -> Void) {
        self.build = build
        self.say = say
    }

    /// Watches `targets` (what the first build read) and builds again after each burst of
    /// changes; `after` is told each build's summary. Returns only when watching fails (the message).
    package func watch(_ targets: WatchTargets, quiet: Bool, after: (WatchBuild) -> Void) -> String {
        let watcher: SiteWatcher
        do {
            watcher = try SiteWatcher(targets)
        } catch {
            return "\(error)"
        }
        // A save during the first build came before the watch began: one incremental run now
        // catches it (it converts nothing when nothing changed); later saves wake the watcher.
        let catchUp = build()
        if catchUp.written > 0 || catchUp.status != 0 { after(catchUp) }
        if !quiet { say("watching for changes (Ctrl-C stops)") }
        while true {
            let changed = watcher.waitForChange()
            let start = Date()
            let summary = build()
            after(summary)
            if !quiet {
                let ms = Int(Date().timeIntervalSince(start) * 1000)
                say("changed: \(changed.prefix(3).joined(separator: ", "))\(changed.count > 3 ? ", …" : ""); rebuilt in \(ms) ms")
            }
        }
    }
}
