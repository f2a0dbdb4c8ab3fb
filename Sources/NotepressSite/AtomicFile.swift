import Foundation
import Notepress
import NotepressPlatform

/// The one way Notepress writes an output file (converted documents, the HTML index, the
/// manifest, depfiles).
///
/// - A regular file or a new path is written atomically: a temporary file in Notepress's own
///   folder of temporaries (``Temporaries``: the output folder's `.notepress-tmp` in a folder
///   run, else the one beside the file), then `rename(2)` over the path
///   (``Platform/writeAtomically(_:temporaryFolder:_:)``); a missing folder is made first.
/// - An existing FIFO or character device (`-o fifo`, `-o /dev/null`, `-o /dev/tty`) is written
///   into as it is (``Platform/writeInPlace(_:_:)``): a rename would replace the node by a regular
///   file and the reader would never get the bytes. A socket is opened the same way and fails
///   with the system's message; it is never replaced.
/// - `/dev/stdout`, `/dev/stderr` and `/dev/fd/N` are the process's own descriptor N, written
///   with `write(2)` at its current offset, as a shell redirection would (not reopened: reopening
///   `/proc/self/fd/1` when it is a regular file would start at its first byte).
/// - A block device is refused: neither writing over a disk nor replacing its node is wanted.
package enum AtomicFile {
    /// - Throws: ``NotepressError`` naming `path` when the folder cannot be made or the file
    ///   cannot be written.
    package static func write(_ bytes: [UInt8], to path: String) throws {
        if let fd = inheritedDescriptor(path) {
            guard Platform.writeAll(fd, bytes) else {
                throw NotepressError.writeFailed(file: path, message: "cannot write: \(Platform.errorText())")
            }
            return
        }
        if let st = Platform.status(path) {
            switch st.kind {
            case .fifo, .characterDevice, .socket:
                if let e = Platform.writeInPlace(path, bytes) {
                    throw NotepressError.writeFailed(file: path, message: "cannot write: \(e.text)")
                }
                return
            case .blockDevice:
                throw NotepressError.outputRefused(file: path, message: "is a block device; refusing to write to it")
            case .directory:
                throw NotepressError.writeFailed(file: path, message: "is a folder, not a file")
            default:
                break
            }
        }
        let (dir, _) = split(path)
        let folder = dir.isEmpty ? "." : dir
        var temporaries = Temporaries.folder(forWritingIn: folder)
        var error = Platform.writeAtomically(path, temporaryFolder: temporaries.path, bytes)
        if let e = error, e.isMissing, !dir.isEmpty, e.step == .rename || e.step == .createTemporary && temporaries.own {
            // Make the folder only when it is missing (one mkdir per folder, not per file).
            if let code = Platform.makeDirectories(dir) {
                throw NotepressError.writeFailed(file: path, message: "cannot create folder \(dir): \(Platform.errorText(code))")
            }
            if temporaries.own { temporaries = Temporaries.folder(forWritingIn: folder) }
            error = Platform.writeAtomically(path, temporaryFolder: temporaries.path, bytes)
        }
        if let e = error, e.step == .rename, e.code == EXDEV, !temporaries.own {
            // The folder is on another file system than the output folder (a mount point in it):
            // the folder's own temporaries, so that the rename stays atomic.
            Temporaries.lockOnce(folder)
            temporaries = (PathText.join(folder, Temporaries.folderName), true)
            error = Platform.writeAtomically(path, temporaryFolder: temporaries.path, bytes)
        }
        if temporaries.own { Temporaries.release(temporaries.path) }
        if let e = error, e.step == .temporaryFolder {
            throw NotepressError.writeFailed(file: path, message: "cannot write: \(temporaries.path) is a symbolic link or a file, "
                                             + "not Notepress's folder of temporaries; move it out of the way")
        }
        if let e = error {
            throw NotepressError.writeFailed(file: path, message: e.step == .createTemporary ? "cannot create a temporary file: \(e.text)" : "cannot write: \(e.text)")
        }
    }

    /// `path`'s folder and last component, split at the last `/` byte: `a/b` → (`a`, `b`),
    /// `b` → (``, `b`), `/b` → (`/`, `b`); doubled `/` count as one and a trailing `/` is dropped
    /// first (`a//b` → (`a`, `b`), `a/b/` → (`a`, `b`), `/` → (`/`, `/`)), as `NSString`'s
    /// `deletingLastPathComponent`/`lastPathComponent` do. Bytes, not `NSString`: a folder run
    /// splits 20 000 such paths, and `NSString` splits at `Character`s, so a `/` followed by a
    /// combining mark (a tag page `tags/\u{300}.html`) was not a separator to it.
    static func split(_ path: String) -> (folder: String, name: String) {
        let p = PathText.collapsingSlashes(path)
        if p == "/" { return ("/", "/") }
        guard p.utf8.contains(0x2F) else { return ("", p) }
        return (PathText.deletingLastComponent(p), PathText.lastComponent(p))
    }

    /// The descriptor `path` names when it is one of the process's own: `/dev/stdout` (1),
    /// `/dev/stderr` (2), `/dev/fd/N` (N).
    static func inheritedDescriptor(_ path: String) -> Int32? {
        switch path {
        case "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default:
            guard path.hasPrefix("/dev/fd/"), let n = Int32(path.dropFirst("/dev/fd/".count)), n >= 0 else { return nil }
            return n
        }
    }
}
