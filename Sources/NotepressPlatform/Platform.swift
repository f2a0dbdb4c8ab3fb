// NotepressPlatform: the one module that talks to the C library of the platform: Glibc (Linux),
// Musl (static Linux) or Darwin (macOS). Every other module of the package calls these functions
// instead, so a port touches this module only. `make test` fails when a file outside it imports a
// C library module or uses a field whose name differs between platforms (.ci/check-platform.sh).
// This file: the `Platform` namespace, file status and the one error type, `SystemError`; the
// other files extend `Platform` by concern (Files, Encodings, Processes, SignalsAndTemporaries,
// Terminal) and hold `FolderWatcher`.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("Notepress needs Glibc, Musl or Darwin")
#endif

/// Platform calls: file status, writing to descriptors, terminals, character widths, folders.
package enum Platform {
    /// What kind of file a path names (`stat(2)`'s `st_mode & S_IFMT`).
    package enum FileKind: Sendable, Equatable {
        case regular, directory, symbolicLink, fifo, characterDevice, blockDevice, socket, other
    }

    /// The part of `stat(2)` Notepress uses.
    package struct FileStatus: Sendable, Equatable {
        package var kind: FileKind
        /// Size in bytes.
        package var size: Int
        /// Modification time in nanoseconds since 1970-01-01 UTC (`st_mtim` on Linux,
        /// `st_mtimespec` on Darwin).
        package var modifiedNanoseconds: Int64
        /// Device and inode number: together they name one file on this machine (hard links share them).
        package var device: UInt64
        package var inode: UInt64
        /// Permission bits (`st_mode & 0o7777`).
        package var permissions: UInt32

        /// The modification time in seconds since 1970 (fractional).
        package var modifiedSeconds: Double { Double(modifiedNanoseconds) / 1e9 }
    }

    /// `stat(2)` (`followLinks`) or `lstat(2)` of `path`; `nil` when it fails (`errno` set).
    package static func status(_ path: String, followLinks: Bool = true) -> FileStatus? {
        var st = stat()
        let r = followLinks ? stat(path, &st) : lstat(path, &st)
        guard r == 0 else { return nil }
        return FileStatus(st)
    }

    /// `fstat(2)` of an open descriptor; `nil` when it fails.
    package static func status(fd: Int32) -> FileStatus? {
        var st = stat()
        guard fstat(fd, &st) == 0 else { return nil }
        return FileStatus(st)
    }

    /// The text of the last C library error (`strerror(errno)`), e.g. "No such file or directory".
    package static func errorText(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }

    /// The current `errno`.
    package static var lastError: Int32 { errno }
}

/// A failed C library call: its `errno` value and, for a call made of several steps
/// (``Platform/writeAtomically(_:temporaryFolder:_:)``), which step failed. The one error type of the
/// platform layer; ``description`` is `strerror(3)`'s text.
package struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The step of a several-step operation that failed.
    package enum Step: Sendable, Equatable {
        /// Opening, reading or any single call (the default).
        case open
        /// Creating the temporary file of an atomic write (`mkstemp(3)`).
        case createTemporary
        /// Writing or closing the temporary file of an atomic write.
        case write
        /// Renaming the temporary file of an atomic write over its path (`rename(2)`).
        case rename
        /// The folder of temporaries of an atomic write is there but not a folder: a symbolic
        /// link (followed, its target's files would be Notepress's to remove) or a file.
        case temporaryFolder
    }
    /// The `errno` value (`ENOENT`, `EACCES`, …).
    package var code: Int32
    /// Which step failed (``Step/open`` for single calls).
    package var step: Step
    /// An error with `errno` value `code`, failed at `step`.
    package init(code: Int32, step: Step = .open) {
        self.code = code
        self.step = step
    }
    /// `strerror(3)`'s text, e.g. "No such file or directory".
    package var text: String { Platform.errorText(code) }
    /// ``text``.
    package var description: String { text }
    /// `ENOENT`: no such file or folder.
    package var isMissing: Bool { code == ENOENT }
    /// `EISDIR`: the path is a folder.
    package var isFolder: Bool { code == EISDIR }
    /// `EISDIR`, the code of a folder opened as a file.
    package static let isAFolder = SystemError(code: EISDIR)
}

extension Platform.FileStatus {
    init(_ st: stat) {
        let type = st.st_mode & S_IFMT
        switch type {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        case S_IFIFO: kind = .fifo
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        case S_IFSOCK: kind = .socket
        default: kind = .other
        }
        size = Int(st.st_size)
        #if canImport(Darwin)
        modifiedNanoseconds = Int64(st.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(st.st_mtimespec.tv_nsec)
        #else
        modifiedNanoseconds = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
        #endif
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
        permissions = UInt32(st.st_mode) & 0o7777
    }
}
