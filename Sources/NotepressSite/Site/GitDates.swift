import CLibGit2
import Foundation
import Notepress
import NotepressAST
import NotepressPlatform

/// Page dates from the history of the git work tree a folder run's input folder is in (issue 47):
/// a page's `created` is the author time of the commit that added its file, following renames,
/// and its `updated` the time of the last commit that touched it, unless its file differs from
/// HEAD (an uncommitted edit: then the file's time). Read with libgit2 (``CLibGit2``, loaded on
/// first use), never by running `git`.
///
/// One walk of the log for the whole folder, not one per file: newest commit first, each commit's
/// changes below the folder against its parent (merges left out, as `git log` shows a file's
/// history), stopping once every page asked for has reached the commit that added it. The walk
/// and `git status` run once, on the first page that asks (``dates(for:)``), so a re-run whose
/// HEAD and files are unchanged reads no history (its pages keep their records). Front matter
/// still wins (``SiteFeeds/lastModified(_:)``, ``DocumentLoader``).
///
/// A shallow clone: the oldest commit fetched has no parent here, so it "adds" every file it
/// holds; such files' `created` is that commit's time (the run warns once).
package final class GitDates: @unchecked Sendable {
    /// One page's dates from history.
    package struct Dates: Sendable, Equatable {
        /// The commit that added the file (seconds since 1970).
        package var created: Date
        /// The last commit that touched it; `nil` when the file differs from HEAD.
        package var updated: Date?
    }

    /// HEAD's commit id: the manifest records it (``Manifest/gitHead``), so a re-run notices a new commit.
    package let head: String
    /// The input folder below the work tree, `/`-separated, ending in `/` (`""` at its top).
    let prefix: String
    /// The pages whose dates are wanted, relative to the input folder.
    let wanted: [String]
    private let repository: OpaquePointer
    private let lock = NSLock()
    private var history: [String: Dates]?

    private init(repository: OpaquePointer, head: String, prefix: String, wanted: [String]) {
        self.repository = repository
        self.head = head
        self.prefix = prefix
        self.wanted = wanted
    }

    deinit { notepress_git_close(repository) }

    /// The history of the work tree `folder` (a real path) is in, for the pages `wanted`
    /// (paths relative to `folder`), with the warnings to show once: `nil` outside a work tree
    /// (found without loading libgit2: no `.git` in `folder` or above it), in a repository
    /// without a commit, or when libgit2 cannot be loaded (warned).
    package static func open(folder: String, wanted: [String]) -> (dates: GitDates?, warnings: [String]) {
        guard isInWorkTree(folder) else { return (nil, []) }
        guard let repo = notepress_git_open(folder) else {
            if let why = notepress_git_unavailable() {
                return (nil, ["page dates come from file times, not from git history: " + String(cString: why)])
            }
            return (nil, [])
        }
        var id = [CChar](repeating: 0, count: 41)
        guard notepress_git_head(repo, &id) == 0 else { notepress_git_close(repo); return (nil, []) }
        let top = InputScanner.realPath(String(cString: notepress_git_workdir(repo)))
        let base = top.hasSuffix("/") ? top : top + "/"
        var prefix = ""
        if folder != top {
            guard folder.hasPrefix(base) else { notepress_git_close(repo); return (nil, []) }
            prefix = String(folder.dropFirst(base.count)) + "/"
        }
        let shallow = notepress_git_is_shallow(repo) == 1
        let dates = GitDates(repository: repo, head: String(decoding: id.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), prefix: prefix, wanted: wanted)
        return (dates, shallow ? ["the git repository is a shallow clone: pages older than its oldest commit fetched are "
            + "dated by that commit (git fetch --unshallow gives their true dates)"] : [])
    }

    /// The history for a folder run whose inputs are below `folders` (a walk of one folder, or a
    /// list's or site table's root: `notepress scan`, a shard), for its pages `files`; `nil` for
    /// inputs from several folders or single files. A shard reads the history of its own pages,
    /// `scan` of every page: both give the dates a run of the whole folder gives, so a sharded
    /// site has the same bytes.
    package static func forRun(folders: [String], files: [InputFile]) -> (dates: GitDates?, warnings: [String]) {
        guard folders.count == 1 else { return (nil, []) }
        return open(folder: folders[0], wanted: files.map(\.relative))
    }

    /// Whether `folder` or a folder above it holds `.git` (a folder, or a file for a worktree or
    /// submodule).
    static func isInWorkTree(_ folder: String) -> Bool {
        var f = folder
        while !f.isEmpty {
            if Platform.status(PathText.join(f, ".git")) != nil { return true }
            let up = PathText.deletingLastComponent(f)
            if up == f || f == "/" { break }
            f = up.isEmpty ? "/" : up
        }
        return false
    }

    /// The dates of the page at `relative` (below the input folder); `nil` when its file is not in
    /// HEAD's history (untracked, ignored). The first call reads the history (once, any thread).
    package func dates(for relative: String) -> Dates? {
        lock.lock()
        defer { lock.unlock() }
        if history == nil { history = read() }
        return history?[relative]
    }

    /// One walk of the log and one `git status` (see the type).
    private func read() -> [String: Dates] {
        let changed = ChangedPaths()
        _ = prefix.withCString { p in
            notepress_git_changed_paths(repository, p, Unmanaged.passUnretained(changed).toOpaque()) { context, path, inHead in
                let c = Unmanaged<ChangedPaths>.fromOpaque(context!).takeUnretainedValue()
                let path = String(cString: path!)
                if inHead != 0 { c.paths.insert(path) } else { c.new.insert(path) }
            }
        }
        let walker = HistoryWalker(wanted: wanted.map { prefix + $0 }.filter { !changed.new.contains($0) })
        let context = Unmanaged.passUnretained(walker).toOpaque()
        _ = prefix.withCString { p in
            notepress_git_walk(repository, p, context) { context, time, status, old, new in
                let w = Unmanaged<HistoryWalker>.fromOpaque(context!).takeUnretainedValue()
                return w.change(time: time, status: UInt8(bitPattern: status), old: old.map { String(cString: $0) },
                                new: String(cString: new!)) ? 1 : 0
            }
        }
        var out: [String: Dates] = [:]
        for (path, d) in walker.found {
            guard let created = d.created ?? d.oldest, path.hasPrefix(prefix) else { continue }
            let updated = changed.paths.contains(path) ? nil : d.updated
            out[String(path.dropFirst(prefix.count))] = Dates(created: Date(timeIntervalSince1970: TimeInterval(created)),
                                                              updated: updated.map { Date(timeIntervalSince1970: TimeInterval($0)) })
        }
        return out
    }
}

/// The paths `git status` reports (``GitDates``): files of HEAD that differ from it, and files
/// not in HEAD (new, untracked, ignored: no history).
private final class ChangedPaths {
    var paths = Set<String>()
    var new = Set<String>()
}

/// The state of one walk of the log, newest commit first (``GitDates``): for each page asked
/// for, by the name its file has at the commit being read, the first change seen (its
/// `updated`) and the commit that added it (its `created`).
private final class HistoryWalker {
    struct Found { var updated: Int64?; var created: Int64?; var oldest: Int64? }
    /// Per page (path at HEAD, below the work tree), what the walk found.
    var found: [String: Found] = [:]
    /// The name a page's file has at the commit being read → its path at HEAD.
    var alias: [String: String] = [:]
    /// Pages not yet back at the commit that added them.
    var pending: Int

    init(wanted: [String]) {
        for w in wanted { alias[w] = w }
        pending = alias.count
    }

    /// One change; true to stop the walk (every page's addition found).
    func change(time: Int64, status: UInt8, old: String?, new: String) -> Bool {
        guard let head = alias[new] else { return false }
        alias[new] = nil
        pending -= 1
        if status == UInt8(ascii: "D") {
            // Deleted by a commit newer than any change seen: this name's file is not the page's
            // (a history the walk's order interleaves).
            return pending == 0
        }
        var f = found[head] ?? Found()
        if f.updated == nil { f.updated = time }
        f.oldest = time
        switch status {
        case UInt8(ascii: "A"):
            f.created = time
        case UInt8(ascii: "R"):
            // Before this commit the file had its old name.
            if let old {
                if alias[old] == nil { pending += 1 }
                alias[old] = head
            }
        default:
            alias[new] = head
            pending += 1
        }
        found[head] = f
        return pending == 0
    }
}
