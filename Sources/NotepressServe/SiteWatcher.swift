import Foundation
import Notepress
import NotepressPlatform
import NotepressSite

/// What a watching run watches: the input folders (with every folder below them, and new ones
/// as they appear), single input files, and the files the command line names besides (the page
/// template and its partials' folder, a theme file, the data folder).
package struct WatchTargets: Sendable {
    /// Folders watched with everything below them.
    package var folders: [String] = []
    /// Files watched by name (their folder is watched; only events of these names count).
    package var files: [String] = []
    /// Folders whose changes never count (the output folder, when it lies inside an input).
    package var ignored: [String] = []
    /// `--follow-symlinks`: a symbolic link in a watched folder whose target lies outside every
    /// watched folder has its target watched too (the file, or the folder with everything below it).
    package var followSymlinks = false

    package init(folders: [String] = [], files: [String] = [], ignored: [String] = [], followSymlinks: Bool = false) {
        self.folders = folders
        self.files = files
        self.ignored = ignored
        self.followSymlinks = followSymlinks
    }
}

/// Waits for changes to ``WatchTargets`` (``Platform``'s ``FolderWatcher``: inotify on Linux,
/// kqueue on macOS) and turns a burst of them into one: editors save by writing a temporary file
/// and renaming it over the note, several events within a few milliseconds; the burst ends when
/// ``quietMilliseconds`` pass without another event (or ``maxDelayMilliseconds`` after the first).
package final class SiteWatcher: @unchecked Sendable {
    package static let quietMilliseconds: Int32 = 25
    package static let maxDelayMilliseconds = 250.0

    private let watcher: FolderWatcher
    private let targets: WatchTargets
    private let ignored: [String]
    /// Folder → the names of ``WatchTargets/files`` in it.
    private var namedFiles: [String: Set<String>] = [:]
    /// Folders watched for named files only (not below an input folder).
    private var fileFolders: Set<String> = []
    /// The real paths of the folders watched with everything below them: a link target inside
    /// one is watched already.
    private var treeRoots: [String] = []

    /// - Throws: ``SiteWatcher/WatchError`` when the kernel gives no watcher or refuses a watch.
    package init(_ targets: WatchTargets) throws {
        guard let w = FolderWatcher() else { throw WatchError(description: "cannot watch files: " + Platform.errorText()) }
        watcher = w
        self.targets = targets
        ignored = targets.ignored.map { Platform.realPath($0) ?? $0 }
        treeRoots = targets.folders.map { Platform.realPath($0) ?? $0 }
        for f in targets.folders { try addTree(f) }
        for f in targets.files {
            try watchFile(f)
            // A file named through a symbolic link is read through it: its target changes.
            if Platform.status(f, followLinks: false)?.kind == .symbolicLink { try watchLinkTarget(f) }
        }
    }

    /// Watches the file `f` by name: its folder, for events of that name.
    private func watchFile(_ f: String) throws {
        let folder = (f as NSString).deletingLastPathComponent
        let dir = folder.isEmpty ? "." : folder
        namedFiles[dir, default: []].insert((f as NSString).lastPathComponent)
        if !watcher.isWatching(dir) {
            fileFolders.insert(dir)
            guard watcher.add(dir) else { throw WatchError(description: "cannot watch \(dir): " + Platform.errorText()) }
        }
    }

    /// Watches what the symbolic link `link` leads to when it lies outside every watched folder: a
    /// file by name (editors save by renaming over it), a folder with everything below it.
    private func watchLinkTarget(_ link: String) throws {
        guard let real = Platform.realPath(link), let kind = Platform.status(real)?.kind,
              !isInsideTree(real), !isIgnored(real) else { return }
        if kind == .directory {
            treeRoots.append(real)
            try addTree(real)
        } else {
            try watchFile(real)
        }
    }

    /// Whether the real path `real` is a watched folder or lies below one.
    private func isInsideTree(_ real: String) -> Bool {
        treeRoots.contains { real == $0 || real.hasPrefix($0 == "/" ? "/" : $0 + "/") }
    }

    /// Why watching failed.
    package struct WatchError: Error, CustomStringConvertible {
        package var description: String
    }

    /// Blocks until something watched changes and the burst is over; returns the paths that
    /// changed (a folder's path when the kernel names no entry), sorted.
    package func waitForChange() -> [String] {
        var changed = Set<String>()
        while changed.isEmpty {
            changed.formUnion(relevant(watcher.wait(timeoutMilliseconds: -1)))
        }
        let start = Date()
        while Date().timeIntervalSince(start) * 1000 < Self.maxDelayMilliseconds {
            let more = watcher.wait(timeoutMilliseconds: Self.quietMilliseconds)
            if more.isEmpty && !watcher.overflowed { break }
            changed.formUnion(relevant(more))
        }
        return changed.sorted()
    }

    /// The paths among `events` that count, watching new folders as they appear.
    private func relevant(_ events: [FolderWatcher.Event]) -> [String] {
        var out: [String] = []
        if watcher.overflowed { out.append(".") }
        for e in events {
            let path = e.name.isEmpty ? e.folder : PathText.join(e.folder, e.name)
            if isIgnored(path) { continue }
            if let names = namedFiles[e.folder], names.contains(e.name) { out.append(path); continue }
            if fileFolders.contains(e.folder) && !e.folderGone { continue }
            // The output's own temporaries and records, editors' swap files: not inputs.
            if Temporaries.isTemporary(e.name) || e.name.hasPrefix(".notepress-") { continue }
            if e.isFolder && !e.folderGone && !e.name.isEmpty { try? addTree(path) }
            // kqueue names the folder only: a new subfolder may be in it.
            if e.name.isEmpty && !e.folderGone { try? addTree(e.folder) }
            // A link made or changed: its target, when outside, is watched from now on.
            if targets.followSymlinks && !e.name.isEmpty && Platform.status(path, followLinks: false)?.kind == .symbolicLink {
                try? watchLinkTarget(path)
            }
            out.append(path)
        }
        return out
    }

    private func isIgnored(_ path: String) -> Bool {
        let real = Platform.realPath(path) ?? path
        return ignored.contains { real == $0 || real.hasPrefix($0 + "/") }
    }

    /// Watches `folder` and every folder below it, output aside; symbolic links are not followed,
    /// but with ``WatchTargets/followSymlinks`` the targets outside of the watched folders are watched.
    private func addTree(_ folder: String) throws {
        var stack = [folder]
        while let dir = stack.popLast() {
            if isIgnored(dir) { continue }
            if !watcher.isWatching(dir) {
                guard watcher.add(dir) else {
                    if Platform.status(dir)?.kind != .directory { continue }  // gone meanwhile
                    throw WatchError(description: "cannot watch \(dir): " + Platform.errorText()
                        + " (Linux: raise fs.inotify.max_user_watches)")
                }
            }
            for e in Platform.directoryEntries(dir) ?? [] {
                let path = PathText.join(dir, e.name)
                let kind = e.kind ?? Platform.status(path, followLinks: false)?.kind
                if kind == .directory { stack.append(path) }
                if kind == .symbolicLink && targets.followSymlinks { try watchLinkTarget(path) }
            }
        }
    }
}
