import Foundation
import Notepress
import NotepressPlatform

/// The temporary files of atomic writes (``AtomicFile``) and what becomes of them when a run is
/// cut short. The rule: Notepress removes only what it made, and never a file because of the
/// shape of its name.
///
/// - Every temporary is made in a folder of Notepress's own, `.notepress-tmp` (``folderName``),
///   then renamed over its output (`rename(2)`, atomic within one file system): for a folder run
///   (and `notepress index`) the one in the output folder, whatever the output's subfolder
///   (``OutputFolderLock``); for any other write (`-o x.html`, a depfile, `scan -o`) the one in
///   the output's own folder. An output below the output folder but on another file system (a
///   mount point inside it) uses its own folder's, so that the rename stays atomic. The folder is
///   removed when the run ends (when no other run has a temporary in it), so it is not left
///   in a published tree.
/// - `SIGINT`, `SIGTERM`, `SIGHUP`: the temporaries in flight are removed, and their folders
///   when empty, then the process ends by the signal (``installInterruptCleanup()``).
/// - `.notepress-tmp` must be a real folder: a symbolic link or a file of that name is an error
///   for every write that would use it (its target is never written into or emptied).
/// - `SIGKILL`, a crash, a power cut: the next run that writes into the same folder removes the
///   temporaries (`tmp-XXXXXX`, regular files) in that folder's `.notepress-tmp` first (any
///   other file a user put there stays), unless another Notepress run is writing there at the
///   time (its temporaries are live): runs hold a shared `flock(2)` on the folder while they
///   write, and only a run that gets the lock exclusively removes temporaries. Files elsewhere
///   (`.draft.md.tmp-Zz99Yy` beside a note, say) are never touched.
package enum Temporaries {
    /// The name of Notepress's own folder of temporaries: `.notepress-tmp`.
    package static let folderName = ".notepress-tmp"

    /// Call first thing in `main` (before any thread starts): see ``Platform/removeTemporariesOnInterrupt()``.
    package static func installInterruptCleanup() { Platform.removeTemporariesOnInterrupt() }

    /// Whether `name` has the shape of other programs' temporaries (``Platform/isTemporaryName(_:)``):
    /// for the watcher of `notepress serve`, which ignores their changes; never a reason to delete.
    package static func isTemporary(_ name: String) -> Bool { Platform.isTemporaryName(name) }

    /// The folder of temporaries for a write into `folder` (a path as ``AtomicFile`` splits it):
    /// the output folder's when `folder` is below an ``OutputFolderLock``'s folder, otherwise
    /// `folder`'s own (the first such write into `folder` takes its lock, as ``OutputFolderLock``
    /// does, and so removes what killed runs left there). `own`: the folder is `folder`'s own
    /// (``release(_:)`` it after the write).
    static func folder(forWritingIn folder: String) -> (path: String, own: Bool) {
        if let root = Platform.LockedFolders.shared.root(containing: folder) { return (PathText.join(root, folderName), false) }
        lockOnce(folder)
        return (PathText.join(folder, folderName), true)
    }

    /// Removes the folder of temporaries `path` when it is empty (another run's live temporary
    /// keeps it).
    static func release(_ path: String) { _ = Platform.removeEmptyFolder(path) }

    /// Locks `folder` (``Platform/lockFolder(_:exclusive:wait:)``) for the process: exclusively
    /// first, and when that succeeds (no other run writes there) removes every file in its
    /// `.notepress-tmp` (temporaries of killed runs) and the folder; then shared. Returns the
    /// descriptor (`nil` when the folder cannot be opened: nothing is removed) and the paths
    /// removed, sorted.
    static func lock(_ folder: String) -> (fd: Int32?, removed: [String]) {
        var removed: [String] = []
        var fd = Platform.lockFolder(folder, exclusive: true, wait: false)
        if let f = fd {
            // Only a real folder (a symbolic link named so leads to someone else's files), and in
            // it only the files mkstemp named (``Platform/isOwnTemporaryName(_:)``): anything else
            // a user put there stays, and so does the folder then.
            let temporaries = PathText.join(folder, folderName)
            if Platform.status(temporaries, followLinks: false)?.kind == .directory {
                for e in Platform.directoryEntries(temporaries) ?? [] where Platform.isOwnTemporaryName(e.name) {
                    let path = PathText.join(temporaries, e.name)
                    guard Platform.status(path, followLinks: false)?.kind == .regular else { continue }
                    if Platform.removeFile(path) == nil { removed.append(path) }
                }
                _ = Platform.removeEmptyFolder(temporaries)
            }
            if !Platform.relock(f, exclusive: false, wait: true) {
                Platform.closeDescriptor(f)
                fd = Platform.lockFolder(folder, exclusive: false, wait: true)
            }
        } else {
            fd = Platform.lockFolder(folder, exclusive: false, wait: true)
        }
        return (fd, removed.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    /// `folder` with runs of `/` written once and no trailing `/` (as ``AtomicFile`` splits paths):
    /// the form ``Platform/LockedFolders`` compares.
    static func normal(_ folder: String) -> String {
        let f = PathText.collapsingSlashes(folder)
        return f.isEmpty ? "." : f
    }

    /// Takes `folder`'s lock (``lock(_:)``) unless this process did already: the descriptor stays
    /// open (and the lock held) until the process ends.
    static func lockOnce(_ folder: String) {
        Platform.LockedFolders.shared.lockOnce(folder) { lock($0).fd != nil }
    }
}

/// A folder run's hold on its output folder (``Temporaries``): made before anything is written,
/// kept until the run ends. While it lives, every temporary of a write below the folder is made
/// in `FOLDER/.notepress-tmp`; when it ends, that folder is removed if empty.
package final class OutputFolderLock: @unchecked Sendable {
    private let fd: Int32?
    private let folder: String
    /// Temporaries of killed runs removed when the lock was taken (files of `FOLDER/.notepress-tmp`).
    package let removed: [String]

    /// Takes the lock on `folder` (made when missing). When no other run holds it, first removes
    /// the temporaries killed runs left in `FOLDER/.notepress-tmp`.
    package init(_ folder: String) {
        if Platform.status(folder) == nil { _ = Platform.makeDirectories(folder) }
        (fd, removed) = Temporaries.lock(folder)
        self.folder = folder
        Platform.LockedFolders.shared.add(root: Temporaries.normal(folder))
    }

    deinit {
        Platform.LockedFolders.shared.remove(root: Temporaries.normal(folder))
        Temporaries.release(PathText.join(folder, Temporaries.folderName))
        if let fd { Platform.closeDescriptor(fd) }
    }
}
