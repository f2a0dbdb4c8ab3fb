import Foundation
import Notepress
import NotepressPlatform

/// The temporary files of atomic writes (``AtomicFile``: `DIR/.NAME.tmp-XXXXXX`, then `rename(2)`)
/// and what becomes of them when a run is cut short.
///
/// - `SIGINT`, `SIGTERM`, `SIGHUP`: the temporaries in flight are removed, then the process ends
///   by the signal (``installInterruptCleanup()``).
/// - `SIGKILL`, a crash, a power cut: the next folder run into the same output folder removes
///   every file below it whose name is such a temporary's (``OutputFolderLock``), unless another
///   Notepress run is writing into that folder at the time (its temporaries are live): runs hold
///   a shared `flock(2)` on the output folder while they write, and only a run that gets the lock
///   exclusively removes temporaries.
package enum Temporaries {
    /// Call first thing in `main` (before any thread starts): see ``Platform/removeTemporariesOnInterrupt()``.
    package static func installInterruptCleanup() { Platform.removeTemporariesOnInterrupt() }

    /// Whether `name` is the name of a temporary file Notepress makes (``Platform/isTemporaryName(_:)``).
    package static func isTemporary(_ name: String) -> Bool { Platform.isTemporaryName(name) }

    /// Removes every regular file named like a temporary (``isTemporary(_:)``) in `folder` and the
    /// folders below it (symbolic links are not followed); returns the paths removed, sorted.
    /// `recursive: false`: `folder` alone; `only`: a further test of the name.
    package static func removeStale(in folder: String, recursive: Bool = true, only: (String) -> Bool = { _ in true }) -> [String] {
        var removed: [String] = []
        var stack = [folder]
        while let dir = stack.popLast() {
            for e in Platform.directoryEntries(dir) ?? [] {
                let path = PathText.join(dir, e.name)
                var kind = e.kind
                if kind == nil { kind = Platform.status(path, followLinks: false)?.kind }
                if kind == .directory {
                    if recursive { stack.append(path) }
                } else if kind == .regular, isTemporary(e.name), only(e.name), Platform.removeFile(path) == nil {
                    removed.append(path)
                }
            }
        }
        return removed.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}

/// A folder run's hold on its output folder (``Temporaries``): made before anything is written,
/// kept until the process ends.
package final class OutputFolderLock: @unchecked Sendable {
    private let fd: Int32?
    /// Temporaries of killed runs removed when the lock was taken.
    package let removed: [String]

    /// Takes the lock on `folder` (made when missing). When no other run holds it, first removes
    /// the temporaries killed runs left below `folder` and, for each of `extra` (a depfile's folder
    /// and name, outside it), the temporaries of that name in that folder.
    package init(_ folder: String, extra: [(folder: String, name: String)] = []) {
        if Platform.status(folder) == nil { _ = Platform.makeDirectories(folder) }
        var removed: [String] = []
        var fd = Platform.lockFolder(folder, exclusive: true, wait: false)
        if let f = fd {
            removed = Temporaries.removeStale(in: folder)
            for (dir, name) in extra {
                removed += Temporaries.removeStale(in: dir, recursive: false) { base in
                    base.hasPrefix("." + name + ".tmp-") && base.utf8.count == name.utf8.count + 12
                }
            }
            if !Platform.relock(f, exclusive: false, wait: true) {
                Platform.closeDescriptor(f)
                fd = Platform.lockFolder(folder, exclusive: false, wait: true)
            }
        } else {
            fd = Platform.lockFolder(folder, exclusive: false, wait: true)
        }
        self.fd = fd
        self.removed = removed
    }

    deinit { if let fd { Platform.closeDescriptor(fd) } }
}
