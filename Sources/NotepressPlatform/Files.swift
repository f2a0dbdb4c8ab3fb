// Platform: whole files, folders, locks, links and shell patterns of names.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("Notepress needs Glibc, Musl or Darwin")
#endif

extension Platform {
    /// Reads every byte of `path` with `open(2)` and `read(2)` until end of file, so pipes work as
    /// well as regular files: a FIFO, `/dev/stdin`, a process substitution (`<(…)`, a
    /// `/dev/fd/N` path). The file's size (`fstat(2)`) only sizes the first buffer.
    /// - Returns: the bytes, or the `errno` of the failed call (`ENOENT`, `EACCES`, `EISDIR` when
    ///   `path` is a folder, …).
    package static func readFile(_ path: String) -> Result<[UInt8], SystemError> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(SystemError(code: errno)) }
        defer { close(fd) }
        var st = stat()
        let hint = fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG ? Int(st.st_size) : 0
        // One byte more than the size: the read that returns 0 confirms the end without growing.
        // A regular file's size is known: no larger buffer (clearing 64 KiB per small note cost
        // more than reading it); others start at 64 KiB and double.
        var buffer = [UInt8](repeating: 0, count: hint > 0 ? hint + 1 : 64 << 10)
        var count = 0
        while true {
            if count == buffer.count { buffer.append(contentsOf: repeatElement(0, count: buffer.count)) }
            let n = buffer.withUnsafeMutableBytes { raw in read(fd, raw.baseAddress! + count, raw.count - count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(SystemError(code: errno))
            }
            if n == 0 { break }
            count += n
        }
        buffer.removeSubrange(count...)
        return .success(buffer)
    }

    /// The first `count` bytes of the file at `path` (fewer when it is shorter): `open(2)` and
    /// `read(2)` until `count` bytes or end of file. For sniffing a file's kind without reading it
    /// all. `nil` when it cannot be opened or read (`errno` set).
    package static func readPrefix(_ path: String, count: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let n = buffer.withUnsafeMutableBytes { raw in read(fd, raw.baseAddress! + got, count - got) }
            if n < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if n == 0 { break }
            got += n
        }
        buffer.removeSubrange(got...)
        return buffer
    }

    /// Writes `bytes` into an existing file that is not replaced: `open(2)` with `O_WRONLY` (no
    /// `O_CREAT`, no `O_TRUNC`), then ``writeAll(_:_:)-(_,[UInt8])``. For FIFOs and character
    /// devices, where a temporary file and `rename(2)` would replace the node by a regular file.
    /// Opening a FIFO waits for its reader, as `cat > fifo` does. Opening a socket fails (`ENXIO`).
    /// - Returns: `nil`, or the `errno` of the failed call.
    package static func writeInPlace(_ path: String, _ bytes: [UInt8]) -> SystemError? {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return SystemError(code: errno) }
        let ok = writeAll(fd, bytes)
        let code = errno
        if close(fd) != 0 && ok { return SystemError(code: errno) }
        return ok ? nil : SystemError(code: code)
    }

    /// Sets the modification (and access) time of `path` to `nanoseconds` since 1970 (`utimensat(2)`,
    /// the link itself when `path` is a symbolic link). Returns `nil`, or the `errno` of the failure.
    @discardableResult
    package static func setModificationTime(_ path: String, nanoseconds: Int64) -> SystemError? {
        let t = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var times = [t, t]
        return utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW) == 0 ? nil : SystemError(code: errno)
    }

    /// Opens the folder `path` and takes an advisory lock on it (`flock(2)`: `exclusive` or shared;
    /// without `wait`, fails at once when another process holds a conflicting lock). The lock
    /// lasts until the descriptor is closed, also when the process is killed. Returns the
    /// descriptor, or `nil` (`errno` set: `EWOULDBLOCK` when another process holds the lock).
    package static func lockFolder(_ path: String, exclusive: Bool, wait: Bool) -> Int32? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        guard relock(fd, exclusive: exclusive, wait: wait) else { let e = errno; close(fd); errno = e; return nil }
        return fd
    }

    /// Changes the `flock(2)` lock on `fd` (from ``lockFolder(_:exclusive:wait:)``) to `exclusive`
    /// or shared; whether it did. (The change is not atomic: the old lock may be gone when it fails.)
    package static func relock(_ fd: Int32, exclusive: Bool, wait: Bool) -> Bool {
        flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | (wait ? 0 : LOCK_NB)) == 0
    }

    /// Removes the file (not a folder) at `path` (`unlink(2)`). Returns `nil`, or the `errno` of
    /// the failure (``SystemError/isMissing`` when there was none).
    @discardableResult
    package static func removeFile(_ path: String) -> SystemError? {
        unlink(path) == 0 ? nil : SystemError(code: errno)
    }

    /// The canonical absolute path of an existing file or folder, symbolic links resolved
    /// (`realpath(3)`); `nil` when a part of it does not exist or cannot be searched.
    package static func realPath(_ path: String) -> String? {
        guard let r = realpath(path, nil) else { return nil }
        defer { free(r) }
        return String(cString: r)
    }

    /// Whether `name` (one path segment, no `/`) matches the shell pattern `pattern` by
    /// `fnmatch(3)` with no flags: `*`, `?`, bracket expressions with POSIX classes
    /// (`[[:digit:]]`), ranges and `!`/`^` negation, `\` quoting the next character; a leading
    /// `.` is not special. Bytes are compared in the C locale, whatever the process's locale, as
    /// git's wildmatch does (`?` is one byte; classes are ASCII).
    package static func fnmatchSegment(_ pattern: String, _ name: String) -> Bool {
        guard let loc = CLocale.shared.handle else { return fnmatch(pattern, name, 0) == 0 }
        let old = uselocale(loc)
        defer { uselocale(old) }
        return fnmatch(pattern, name, 0) == 0
    }

    /// The entries of a folder (`readdir(3)`), with whether each is a folder, a regular file, or
    /// must be `stat`ed to tell (a symbolic link or a file system that gives no type); without `.`
    /// and `..`, in the order the folder gives. `nil` when it cannot be opened (`errno` set).
    package static func directoryEntries(_ dir: String) -> [(name: String, kind: FileKind?)]? {
        guard let d = opendir(dir) else { return nil }
        defer { closedir(d) }
        var entries: [(name: String, kind: FileKind?)] = []
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name == "." || name == ".." { continue }
            let kind: FileKind?
            switch Int32(e.pointee.d_type) {
            case Int32(DT_REG): kind = .regular
            case Int32(DT_DIR): kind = .directory
            default: kind = nil
            }
            entries.append((name, kind))
        }
        return entries
    }

    /// Removes the folder at `path` when it is empty (`rmdir(2)`, which refuses a folder with
    /// entries); whether it did.
    package static func removeEmptyFolder(_ path: String) -> Bool { rmdir(path) == 0 }
}

/// The C locale (`fnmatchSegment`: byte-wise matching).
private final class CLocale: @unchecked Sendable {
    let handle: locale_t?
    init() { handle = newlocale(LC_CTYPE_MASK | LC_COLLATE_MASK, "C", nil) }
    static let shared = CLocale()
}
