import Foundation
import Notepress
import NotepressPlatform

/// Decides whether an output path may be written (see ``BatchConverter``'s safety rules).
struct OutputGuard: Sendable {
    /// Real path of the output folder.
    var root: String
    /// Real paths of input folders.
    var inputFolders: [String]
    /// Device and inode of every input file (worked out on first need): an output that is one
    /// of them (by any path, hard links included) is refused.
    let inputFiles: LazyIdentities
    /// Real paths of output folders already resolved (many outputs share a folder).
    let folders = RealPathCache()

    /// - Throws: ``NotepressError`` naming `input` when `path` must not be written.
    func check(_ path: String, input: String) throws {
        if let st = Platform.status(path, followLinks: false) {
            if st.kind == .symbolicLink {
                throw NotepressError.outputRefused(file: input, message: "output \(path) is a symbolic link; refusing to write through it")
            }
            if inputFiles.contains(FileIdentity(st)) {
                throw NotepressError.outputRefused(file: input, message: "output \(path) is an input file; refusing to overwrite it")
            }
        }
        // The output itself is not a link (checked above), so its real path is its folder's real
        // path and its name.
        let real = PathText.join(folders.realPath(PathText.deletingLastComponent(path)), PathText.lastComponent(path))
        if real != root && !real.hasPrefix(root == "/" ? "/" : root + "/") {
            throw NotepressError.outputRefused(file: input, message: "output \(path) resolves to \(real), outside the output folder \(root); refusing to write it")
        }
        // An output folder inside an input folder is allowed only when the walk leaves it out
        // (--exclude, an ignore file: checked by the command): nothing below it is an input.
        for f in inputFolders where real.hasPrefix(f + "/") && !root.hasPrefix(f + "/") {
            throw NotepressError.outputRefused(file: input, message: "output \(path) resolves into the input folder \(f); refusing to write it")
        }
    }
}

/// A file's identity on this machine: device and inode number (`stat(2)`'s `st_dev`, `st_ino`).
struct FileIdentity: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64

    init(_ st: Platform.FileStatus) {
        device = st.device
        inode = st.inode
    }

    /// The identities of the files at `paths` (symbolic links followed); paths that cannot be
    /// `stat`ed are left out.
    static func of(_ paths: [String]) -> Set<FileIdentity> {
        var set = Set<FileIdentity>(minimumCapacity: paths.count)
        for p in paths where p != "-" { if let st = Platform.status(p) { set.insert(FileIdentity(st)) } }
        return set
    }
}

/// The ``FileIdentity`` set of a list of input paths, made on the first lookup (thread-safe): a
/// first run writes only new files and a no-change run writes none, so neither needs it.
final class LazyIdentities: @unchecked Sendable {
    let paths: [String]
    private var set: Set<FileIdentity>?
    private let lock = NSLock()

    init(_ paths: [String]) { self.paths = paths }

    func contains(_ id: FileIdentity) -> Bool {
        lock.lock(); defer { lock.unlock() }
        if set == nil { set = FileIdentity.of(paths) }
        return set!.contains(id)
    }
}

/// ``InputScanner/realPath(_:)`` of folders, remembered (thread-safe). A folder made during the run
/// resolves to the same path before and after it exists, since its parent is resolved.
final class RealPathCache: @unchecked Sendable {
    private var cache: [String: String] = [:]
    private let lock = NSLock()

    func realPath(_ folder: String) -> String {
        lock.lock()
        if let r = cache[folder] { lock.unlock(); return r }
        lock.unlock()
        let r = InputScanner.realPath(folder)
        lock.lock(); cache[folder] = r; lock.unlock()
        return r
    }
}
