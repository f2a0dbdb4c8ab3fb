// The one file that talks to the C library of the platform: Glibc (Linux), Musl (static Linux)
// or Darwin (macOS). Every other file of the package calls these functions instead, so a port
// touches this file only. `make test` fails when another file imports a C library module or uses
// a field whose name differs between platforms (Tests/check-platform.sh).
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

    /// Writes every byte to `fd` (`write(2)`, retried on short writes and `EINTR`). Returns `false`
    /// on an error (`errno` set; `EPIPE` when the reader went away).
    @discardableResult
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard var p = bytes.baseAddress else { return true }
        var left = bytes.count
        while left > 0 {
            #if canImport(Darwin)
            let n = Darwin.write(fd, p, left)
            #elseif canImport(Musl)
            let n = Musl.write(fd, p, left)
            #else
            let n = Glibc.write(fd, p, left)
            #endif
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            if n == 0 { return false }
            p += n
            left -= n
        }
        return true
    }

    /// ``writeAll(_:_:)`` for a byte array.
    @discardableResult
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { writeAll(fd, $0) }
    }

    /// Flushes the C library's buffered standard output (what `print` wrote) and tells whether
    /// any write to it failed: `nil`, or the error (`ENOSPC` for a full disk, `EIO`, …). A closed
    /// pipe (`EPIPE`, `| head`) is not an error: the reader wanted no more.
    package static func flushStandardOutput() -> SystemError? {
        // fflush(NULL) flushes every output stream (standard error is unbuffered, so this is
        // standard output); EOF when a write failed.
        if fflush(nil) != 0 {
            let code = errno
            return code == EPIPE ? nil : SystemError(code: code == 0 ? EIO : code, step: .write)
        }
        return nil
    }

    /// Whether `code` is `EPIPE` (the reader of a pipe went away).
    package static func isBrokenPipe(_ code: Int32) -> Bool { code == EPIPE }

    // MARK: Whole files

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

    /// Writes `bytes` to a regular file atomically: a new file `TEMPORARIES/tmp-XXXXXX` (`mkstemp(3)`;
    /// `temporaryFolder`, a folder of Notepress's own in the same file system as `path`, is made
    /// when missing, one level), mode 0644, then `rename(2)` over `path`. Readers see the old file
    /// or the new one, never a part. The temporary file is removed on failure; while it exists an
    /// interrupt removes it (``removeTemporariesOnInterrupt()``), and the folder when it is empty.
    /// - Returns: `nil`, or the failed step and its `errno` (``SystemError/Step/createTemporary``
    ///   `ENOENT` when the temporaries' folder cannot be made for want of its parent,
    ///   ``SystemError/Step/rename`` `ENOENT` when `path`'s folder is missing, `EXDEV` when it is
    ///   in another file system).
    package static func writeAtomically(_ path: String, temporaryFolder: String, _ bytes: [UInt8]) -> SystemError? {
        var template: [CChar] = []
        var fd: Int32 = -1
        var made: Int32 = 0
        // Made and recorded under the registry's lock: an interrupt (``removeTemporariesOnInterrupt()``)
        // sees every temporary that exists, and none is made after it. The folder may be removed
        // by another run between the calls (it removes it when empty): a few tries.
        // The folder must be a real folder: never a symbolic link (its target is not Notepress's
        // own) nor a file; a missing one is made below.
        var folderStatus = stat()
        if lstat(temporaryFolder, &folderStatus) == 0 && folderStatus.st_mode & S_IFMT != S_IFDIR {
            return SystemError(code: ENOTDIR, step: .temporaryFolder)
        }
        TemporaryRegistry.shared.lock()
        for _ in 0..<4 {
            template = Array((temporaryFolder + "/tmp-XXXXXX").utf8CString)
            fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            made = errno
            if fd >= 0 || made != ENOENT { break }
            if mkdir(temporaryFolder, 0o777) != 0 && errno != EEXIST { made = errno; break }
        }
        if fd >= 0 { TemporaryRegistry.shared.add(template, folder: temporaryFolder) }
        TemporaryRegistry.shared.unlock()
        guard fd >= 0 else { return SystemError(code: made, step: .createTemporary) }
        let tmp = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { TemporaryRegistry.shared.lock(); TemporaryRegistry.shared.remove(template); TemporaryRegistry.shared.unlock() }
        var ok = writeAll(fd, bytes)
        var code = errno
        var step = SystemError.Step.write
        fchmod(fd, 0o644)
        if close(fd) != 0 && ok { ok = false; code = errno }
        if ok && rename(tmp, path) != 0 { ok = false; code = errno; step = .rename }
        if !ok {
            unlink(tmp)
            return SystemError(code: code, step: step)
        }
        return nil
    }

    /// Whether `name` is the name `mkstemp(3)` gives the temporaries of
    /// ``writeAtomically(_:temporaryFolder:_:)`` in their folder: `tmp-` and six letters or digits.
    /// Only such files of that folder are removed after a killed run; anything else a user put
    /// there stays.
    package static func isOwnTemporaryName(_ name: String) -> Bool {
        let b = Array(name.utf8)
        guard b.count == 10, b[0..<4].elementsEqual("tmp-".utf8) else { return false }
        return b[4...].allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }

    /// Whether `name` has the shape `.NAME.tmp-XXXXXX` (`NAME` not empty, `XXXXXX` six letters or
    /// digits): the temporaries Notepress made beside its outputs before it kept them in a folder
    /// of its own, and the shape many other programs use. Never a reason to delete a file (it may
    /// be anyone's); the watcher of `notepress serve` ignores changes to such files.
    package static func isTemporaryName(_ name: String) -> Bool {
        let b = Array(name.utf8)
        let suffix = Array(".tmp-".utf8)
        guard b.count >= 1 + 1 + suffix.count + 6, b[0] == UInt8(ascii: ".") else { return false }
        let tail = b[(b.count - 6)...]
        guard tail.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else { return false }
        return Array(b[(b.count - 6 - suffix.count)..<(b.count - 6)]) == suffix
    }

    /// From now on `SIGINT`, `SIGTERM`, `SIGHUP` and `SIGQUIT` (Ctrl-\\) remove the temporary files
    /// of atomic writes still in flight, then end the process by that signal (its default action:
    /// a shell reports status 128 + N, 130 for Ctrl-C, 143 for `kill`, 131 for Ctrl-\\, which dumps
    /// no core: a `core` file could replace one of the user's). The signals are blocked in the calling
    /// thread, and so in every thread it starts later; one thread of this function's own takes
    /// them with `sigwait(3)`, so the cleanup runs as ordinary code (locks, `unlink(2)`), never in
    /// a signal handler. Call it first thing in `main`, before any other thread is started. A
    /// signal ignored (`SIG_IGN`, ``ignoringSignals(_:_:)``) is discarded, not taken.
    package static func removeTemporariesOnInterrupt() {
        var set = sigset_t()
        sigemptyset(&set)
        for s in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&set, s) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        let box = UnsafeMutablePointer<sigset_t>.allocate(capacity: 1)
        box.initialize(to: set)
        #if canImport(Darwin)
        var thread: pthread_t? = nil
        #else
        var thread = pthread_t()
        #endif
        _ = pthread_create(&thread, nil, { raw in
            let set = raw!.assumingMemoryBound(to: sigset_t.self)
            var signal: Int32 = 0
            while sigwait(set, &signal) != 0 {}
            // Holding the lock to the end: no new temporary is made after these are removed.
            TemporaryRegistry.shared.lock()
            TemporaryRegistry.shared.removeAll()
            // A long-running command (serve, convert --watch) stops its work and ends with its own status.
            if let stop = InterruptHandler.shared.take() {
                let status = stop(signal)
                fflush(nil)
                _exit(status)
            }
            var one = sigset_t()
            sigemptyset(&one)
            sigaddset(&one, signal)
            _ = Glue.setDefault(signal)
            if signal == SIGQUIT { _ = Glue.noCoreDump() }
            pthread_sigmask(SIG_UNBLOCK, &one, nil)
            raise(signal)
            _exit(128 + signal)
        }, box)
    }

    /// Makes the next `SIGINT`, `SIGTERM`, `SIGHUP` or `SIGQUIT` call `stop` (with the signal's number) on the
    /// signal thread of ``removeTemporariesOnInterrupt()`` once the temporaries are removed (no new
    /// one is made from then on), and then end the process with the status `stop` returns instead
    /// of by the signal: a command
    /// that runs until it is stopped (`notepress serve`, `convert --watch`) ends with status 0.
    package static func onInterrupt(_ stop: @escaping @Sendable (Int32) -> Int32) {
        InterruptHandler.shared.set(stop)
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

    /// Whether `fd` is a terminal (`isatty(3)`).
    package static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// The terminal's size in columns and rows (`TIOCGWINSZ`, tty_ioctl(4)) when `fd` is a
    /// terminal that reports one; `nil` otherwise.
    package static func terminalSize(_ fd: Int32) -> (columns: Int, rows: Int)? {
        guard isatty(fd) != 0 else { return nil }
        var ws = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &ws) == 0 else { return nil }
        return (Int(ws.ws_col), Int(ws.ws_row))
    }

    /// The C library's `wcwidth(3)` for `scalar` in a UTF-8 locale: columns a terminal gives it
    /// (0, 1, 2), or -1 for a scalar the library's tables do not know (Unicode UAX #11 as the C
    /// library encodes it).
    package static func wcwidth(_ scalar: UInt32) -> Int {
        guard let loc = UTF8Locale.shared.handle else { return Int(cWcwidth(Int32(bitPattern: scalar))) }
        let old = uselocale(loc)
        defer { uselocale(old) }
        return Int(cWcwidth(Int32(bitPattern: scalar)))
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

    // MARK: Character encodings

    /// Why ``convertEncoding(_:from:to:)`` stopped.
    package enum EncodingFailure: Error, Sendable, Equatable {
        /// `iconv_open(3)` knows no conversion between the two names (`EINVAL`).
        case unknownEncoding
        /// The bytes at `offset` (0-based, in the input) are not a valid sequence of the source
        /// encoding, or name a character the target encoding lacks (`EILSEQ`); `converted` is the
        /// output for the input before them.
        case invalidSequence(offset: Int, converted: [UInt8])
        /// The input ends inside a multibyte sequence that starts at `offset` (`EINVAL` at the end).
        case truncatedSequence(offset: Int, converted: [UInt8])
    }

    /// Whether `iconv_open(3)` can convert from the encoding `name` (as `iconv -l` lists them:
    /// `LATIN1`, `WINDOWS-1252`, `SHIFT_JIS`, `UTF-16LE`…; case is ignored) to UTF-8.
    package static func isKnownEncoding(_ name: String) -> Bool {
        let cd = iconv_open("UTF-8", name)
        if cd == invalidConverter { return false }
        iconv_close(cd)
        return true
    }

    /// Converts `bytes` from the character encoding `source` to `target` with the C library's
    /// `iconv(3)` (glibc's gconv modules on Linux, libiconv on macOS, musl's built-in tables):
    /// no table of our own. Stops at the first byte sequence that is invalid in `source` (or that
    /// `target` cannot hold): no replacement character is ever made up. A byte order mark is
    /// converted like any other character (callers that detect one drop it first). Linear in
    /// the input: one pass, the output buffer grown by doubling.
    /// - Returns: the converted bytes, or where and why the conversion stopped.
    package static func convertEncoding(_ bytes: UnsafeRawBufferPointer, from source: String, to target: String)
        -> Result<[UInt8], EncodingFailure> {
        let cd = iconv_open(target, source)
        if cd == invalidConverter { return .failure(.unknownEncoding) }
        defer { iconv_close(cd) }
        var output = [UInt8](repeating: 0, count: max(64, bytes.count + bytes.count / 2 + 16))
        var produced = 0
        guard let base = bytes.baseAddress, bytes.count > 0 else { return .success([]) }
        var inPointer = UnsafeMutablePointer<CChar>(mutating: base.assumingMemoryBound(to: CChar.self))
        var inLeft = bytes.count
        while true {
            var outLeft = output.count - produced
            let (result, code): (Int, Int32) = output.withUnsafeMutableBytes { raw in
                var outPointer: UnsafeMutablePointer<CChar>? = raw.baseAddress!.assumingMemoryBound(to: CChar.self) + produced
                var inOptional: UnsafeMutablePointer<CChar>? = inPointer
                let r = iconv(cd, &inOptional, &inLeft, &outPointer, &outLeft)
                let e = errno
                inPointer = inOptional!
                return (r, e)
            }
            produced = output.count - outLeft
            if result != -1 {
                if inLeft == 0 { break }
                continue
            }
            let offset = bytes.count - inLeft
            switch code {
            case E2BIG:
                output.append(contentsOf: repeatElement(0, count: output.count))
            case EILSEQ:
                return .failure(.invalidSequence(offset: offset, converted: Array(output[..<produced])))
            case EINVAL:
                return .failure(.truncatedSequence(offset: offset, converted: Array(output[..<produced])))
            default:
                return .failure(.invalidSequence(offset: offset, converted: Array(output[..<produced])))
            }
        }
        // Flush any shift state (stateful encodings such as ISO-2022-JP).
        while true {
            var outLeft = output.count - produced
            let r: Int = output.withUnsafeMutableBytes { raw in
                var outPointer: UnsafeMutablePointer<CChar>? = raw.baseAddress!.assumingMemoryBound(to: CChar.self) + produced
                return iconv(cd, nil, nil, &outPointer, &outLeft)
            }
            let e = errno
            produced = output.count - outLeft
            if r == -1 && e == E2BIG { output.append(contentsOf: repeatElement(0, count: output.count)); continue }
            break
        }
        output.removeSubrange(produced...)
        return .success(output)
    }

    /// `(iconv_t) -1`, what `iconv_open(3)` returns on failure.
    private static var invalidConverter: UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: -1) }

    /// The text of the last C library error (`strerror(errno)`), e.g. "No such file or directory".
    package static func errorText(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }

    /// The current `errno`.
    package static var lastError: Int32 { errno }

    /// Makes `path` and any missing parent folders (`mkdir(2)` with mode 0777 less the umask, as
    /// `mkdir -p` does). Returns `nil` on success, else the `errno` of the step that failed
    /// (`ENOTDIR` when a parent is a file, `EACCES`, …; ``errorText(_:)`` gives its text).
    /// Folders are made under the lock of the temporaries' registry: once an interrupt holds it
    /// (``removeTemporariesOnInterrupt()``), no folder is made, so a command that removes its
    /// output folder on stop (`serve` without `-o`) sees it stay removed.
    package static func makeDirectories(_ path: String) -> Int32? {
        if path.isEmpty { return nil }
        TemporaryRegistry.shared.lock()
        defer { TemporaryRegistry.shared.unlock() }
        var prefix = ""
        for (i, part) in path.split(separator: "/", omittingEmptySubsequences: false).enumerated() {
            prefix += (i == 0 ? "" : "/") + part
            if part.isEmpty || part == "." { continue }
            if mkdir(prefix, 0o777) == 0 { continue }
            let code = errno
            if code == EEXIST, let st = status(prefix), st.kind == .directory { continue }
            return code == EEXIST ? ENOTDIR : code
        }
        return nil
    }

    /// Removes the folder at `path` when it is empty (`rmdir(2)`, which refuses a folder with
    /// entries); whether it did.
    package static func removeEmptyFolder(_ path: String) -> Bool { rmdir(path) == 0 }

    /// A child process whose standard input is the read end of a pipe that the parent writes to.
    package struct PipedChild: Sendable {
        /// The child's process id.
        package let pid: Int32
        /// The write end of the pipe (close-on-exec); the parent closes it to end the child's input.
        package let input: Int32
    }

    /// Starts `arguments[0]` (looked up in `PATH` unless it holds a `/`, as `execvp(3)` does) with
    /// `posix_spawnp(3)`, its standard input a new pipe and `environment` as its environment.
    /// Standard output and error are inherited. No new process group is made, so the child stays
    /// in the terminal's foreground process group (a pager can read the terminal without being
    /// stopped by `SIGTTIN`/`SIGTTOU`), as git and man(1) start their pagers. `SIGPIPE`, `SIGINT`
    /// and `SIGQUIT` are reset to their default action and no signal is blocked in the child,
    /// whatever the parent ignores or blocks.
    /// - Returns: the child, or the `errno` value when the pipe or the process cannot be made
    ///   (`ENOENT` when the program does not exist).
    package static func spawnWithInputPipe(_ arguments: [String], environment: [String: String]) -> Result<PipedChild, SystemError> {
        guard !arguments.isEmpty else { return .failure(SystemError(code: EINVAL)) }
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return .failure(SystemError(code: errno)) }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)  // dup2 onto 0 clears it for the child's copy

        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        var attributes: posix_spawnattr_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, readEnd, 0)
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGPIPE, SIGINT, SIGQUIT] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in argv + envp { free(p) } }
        var pid: pid_t = 0
        let rc = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
        close(readEnd)
        guard rc == 0 else {
            close(writeEnd)
            return .failure(SystemError(code: rc))
        }
        return .success(PipedChild(pid: pid, input: writeEnd))
    }

    /// Waits for the child `pid` to end (`waitpid(2)`, retried on `EINTR`). Returns its exit
    /// status, 128 + the signal number when a signal ended it, or `nil` when it cannot be waited for.
    package static func waitForExit(_ pid: Int32) -> Int32? {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return nil }
        }
        let low = status & 0x7F
        return low == 0 ? (status >> 8) & 0xFF : 128 + low
    }

    /// Closes a file descriptor (`close(2)`).
    package static func closeDescriptor(_ fd: Int32) { close(fd) }

    /// Signals whose disposition ``ignoringSignals(_:_:)`` changes.
    package enum Signal: Sendable {
        /// `SIGPIPE`: writing to a pipe nobody reads.
        case brokenPipe
        /// `SIGINT` (Ctrl-C) and `SIGQUIT` (Ctrl-\\), sent to the whole foreground process group.
        case interrupt, quit

        var number: Int32 {
            switch self {
            case .brokenPipe: return SIGPIPE
            case .interrupt: return SIGINT
            case .quit: return SIGQUIT
            }
        }
    }

    /// Runs `body` with `signals` ignored (`signal(3)` with `SIG_IGN`) and restores their previous
    /// actions afterwards. With `SIGPIPE` ignored a write to a closed pipe fails with `EPIPE`
    /// instead of ending the process.
    package static func ignoringSignals<T>(_ signals: [Signal], _ body: () throws -> T) rethrows -> T {
        let previous = signals.map { ($0.number, signal($0.number, SIG_IGN)) }
        defer { for (n, handler) in previous.reversed() { signal(n, handler) } }
        return try body()
    }
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
    /// `ENOENT`, the code of a missing file (the same number on every platform Notepress runs on).
    package static let noSuchFile = SystemError(code: ENOENT)
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

extension Platform {
    /// Loads the shared library at `path` (`dlopen(3)`, functions bound on first call, which is
    /// cheaper than binding all of Qt up front, and symbols kept local), or
    /// gives `dlerror(3)`'s reason.
    package static func loadLibrary(_ path: String) -> Result<UnsafeMutableRawPointer, LoadError> {
        if let handle = dlopen(path, RTLD_LAZY | RTLD_LOCAL) { return .success(handle) }
        return .failure(LoadError(message: dlerror().map { String(cString: $0) } ?? "\(path): cannot be loaded"))
    }

    /// Why ``loadLibrary(_:)`` failed: `dlerror(3)`'s text (it names the file and the cause).
    package struct LoadError: Error, Sendable, Equatable {
        package var message: String
    }

    /// The address of the function `name` in a library from ``loadLibrary(_:)`` (`dlsym(3)`).
    package static func symbol(_ library: UnsafeMutableRawPointer, _ name: String) -> UnsafeMutableRawPointer? {
        dlsym(library, name)
    }

    /// The path of the running executable (`/proc/self/exe` on Linux, `_NSGetExecutablePath`
    /// on macOS), links resolved; `nil` when it cannot be had.
    package static func executablePath() -> String? {
        #if canImport(Darwin)
        var size: UInt32 = 4096
        var buffer = [CChar](repeating: 0, count: Int(size))
        guard _NSGetExecutablePath(&buffer, &size) == 0 else { return nil }
        return realPath(String(cString: buffer))
        #else
        return realPath("/proc/self/exe")
        #endif
    }
}

/// The temporary files of atomic writes in flight (``Platform/writeAtomically(_:temporaryFolder:_:)``)
/// and the folders they were made in, behind a `pthread_mutex_t`: what an interrupt removes
/// (``Platform/removeTemporariesOnInterrupt()``). Paths are kept as the C strings `unlink(2)` takes.
private final class TemporaryRegistry: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var paths: [[CChar]] = []
    private var folders: Set<String> = []
    static let shared = TemporaryRegistry()
    private init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }
    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    /// Records `path`, made in `folder` (caller holds the lock).
    func add(_ path: [CChar], folder: String) {
        paths.append(path)
        folders.insert(folder)
    }
    /// Forgets `path` (caller holds the lock); few are in flight at once (one per job).
    func remove(_ path: [CChar]) {
        if let i = paths.lastIndex(of: path) { paths.remove(at: i) }
    }
    /// Removes every recorded file, then each folder temporaries were made in when it is empty
    /// (another run's temporaries keep theirs) (caller holds the lock).
    func removeAll() {
        for p in paths { _ = p.withUnsafeBufferPointer { unlink($0.baseAddress!) } }
        paths.removeAll()
        for f in folders { rmdir(f) }
    }
}

/// What an interrupt calls first (``Platform/onInterrupt(_:)``), behind a `pthread_mutex_t`.
private final class InterruptHandler: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var stop: (@Sendable (Int32) -> Int32)?
    static let shared = InterruptHandler()
    private init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }
    func set(_ body: @escaping @Sendable (Int32) -> Int32) {
        pthread_mutex_lock(mutex); stop = body; pthread_mutex_unlock(mutex)
    }
    func take() -> (@Sendable (Int32) -> Int32)? {
        pthread_mutex_lock(mutex); defer { pthread_mutex_unlock(mutex) }
        return stop
    }
}

/// Calls whose Swift spelling differs between the C libraries.
private enum Glue {
    /// `signal(s, SIG_DFL)`.
    static func setDefault(_ s: Int32) -> Bool {
        var action = sigaction()
        sigemptyset(&action.sa_mask)
        #if canImport(Darwin)
        action.__sigaction_u.__sa_handler = SIG_DFL
        #else
        action.__sigaction_handler.sa_handler = SIG_DFL
        #endif
        return sigaction(s, &action, nil) == 0
    }

    /// `setrlimit(RLIMIT_CORE, 0)`: a signal whose default action dumps core ends the process without one.
    static func noCoreDump() -> Bool {
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        #if canImport(Darwin)
        return setrlimit(RLIMIT_CORE, &none) == 0
        #else
        return setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none) == 0
        #endif
    }
}

/// The C library's `wcwidth`; Glibc's module map hides it behind `_XOPEN_SOURCE`, so it is
/// declared by its symbol name (the same on every platform).
@_silgen_name("wcwidth")
private func cWcwidth(_ c: Int32) -> Int32

/// A UTF-8 `LC_CTYPE` locale handle for `wcwidth`, created once and never changed.
/// The C locale (`fnmatchSegment`: byte-wise matching).
private final class CLocale: @unchecked Sendable {
    let handle: locale_t?
    init() { handle = newlocale(LC_CTYPE_MASK | LC_COLLATE_MASK, "C", nil) }
    static let shared = CLocale()
}

private final class UTF8Locale: @unchecked Sendable {
    let handle: locale_t?
    init() {
        #if canImport(Darwin)
        handle = newlocale(LC_CTYPE_MASK, "UTF-8", nil)
        #else
        handle = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil)
        #endif
    }
    static let shared = UTF8Locale()
}

/// Watches folders for changes to their entries: inotify(7) on Linux, kqueue(2) on macOS.
/// One watch per folder (not recursive: the caller adds the folders below, and new ones as they
/// appear). Events are read in batches by ``wait(timeoutMilliseconds:)``.
package final class FolderWatcher: @unchecked Sendable {
    /// One change the kernel reported.
    package struct Event: Sendable, Equatable {
        /// The watched folder the change happened in (as given to ``add(_:)``).
        package var folder: String
        /// The entry's name in it; empty when the folder itself changed (kqueue names no entry,
        /// and a folder that was removed or moved away reports itself).
        package var name: String
        /// Whether the entry is a folder (inotify's `IN_ISDIR`).
        package var isFolder: Bool
        /// Whether the watched folder itself went away (removed or moved): its watch is gone.
        package var folderGone: Bool
    }

    private let fd: Int32
    private var folders: [Int32: String] = [:]
    private var watched: [String: Int32] = [:]
    /// Set when the kernel's queue overflowed: events were lost, so anything may have changed.
    package private(set) var overflowed = false

    /// A watcher, or `nil` when the kernel refuses one (`errno` set).
    package init?() {
        #if canImport(Darwin)
        fd = kqueue()
        #else
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        #endif
        guard fd >= 0 else { return nil }
    }

    deinit {
        #if canImport(Darwin)
        for f in folders.keys { close(f) }
        #endif
        close(fd)
    }

    /// Whether `folder` is watched.
    package func isWatching(_ folder: String) -> Bool { watched[folder] != nil }

    /// Starts watching `folder`'s entries (created, removed, renamed, written); `false` when the
    /// kernel refuses (`errno` set: `ENOSPC` past `fs.inotify.max_user_watches`). Adding a folder
    /// already watched does nothing.
    @discardableResult
    package func add(_ folder: String) -> Bool {
        if watched[folder] != nil { return true }
        #if canImport(Darwin)
        let f = open(folder, O_EVTONLY)
        guard f >= 0 else { return false }
        var change = kevent(ident: UInt(f), filter: Int16(EVFILT_VNODE), flags: UInt16(EV_ADD | EV_CLEAR),
                            fflags: UInt32(NOTE_WRITE | NOTE_DELETE | NOTE_RENAME | NOTE_EXTEND | NOTE_ATTRIB | NOTE_REVOKE),
                            data: 0, udata: nil)
        guard kevent(fd, &change, 1, nil, 0, nil) == 0 else { close(f); return false }
        let w = f
        #else
        let mask = IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB
            | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR
        let w = inotify_add_watch(fd, folder, UInt32(mask))
        guard w >= 0 else { return false }
        #endif
        folders[w] = folder
        watched[folder] = w
        return true
    }

    /// Waits up to `timeoutMilliseconds` (-1: for ever) for changes and returns every event
    /// queued by then; empty when none came in time. Events of folders no longer watched are
    /// dropped; a folder that went away is reported once (``Event/folderGone``) and forgotten.
    package func wait(timeoutMilliseconds: Int32) -> [Event] {
        overflowed = false
        #if canImport(Darwin)
        var events = [kevent](repeating: kevent(), count: 64)
        var timeout = timespec(tv_sec: Int(max(timeoutMilliseconds, 0) / 1000), tv_nsec: Int(max(timeoutMilliseconds, 0) % 1000) * 1_000_000)
        let n = timeoutMilliseconds < 0 ? kevent(fd, nil, 0, &events, 64, nil) : kevent(fd, nil, 0, &events, 64, &timeout)
        guard n > 0 else { return [] }
        var out: [Event] = []
        for e in events.prefix(Int(n)) {
            let w = Int32(e.ident)
            guard let folder = folders[w] else { continue }
            let gone = e.fflags & UInt32(NOTE_DELETE | NOTE_RENAME | NOTE_REVOKE) != 0
            if gone { forget(w); close(w) }
            out.append(Event(folder: folder, name: "", isFolder: true, folderGone: gone))
        }
        return out
        #else
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let r = poll(&p, 1, timeoutMilliseconds)
            if r < 0 && errno == EINTR { continue }
            guard r > 0 else { return [] }
            break
        }
        var out: [Event] = []
        let size = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<inotify_event>.alignment)
        defer { buffer.deallocate() }
        while true {
            let n = read(fd, buffer, size)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= n {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameStart = buffer + offset + MemoryLayout<inotify_event>.size
                let name = event.len > 0 ? String(cString: nameStart.assumingMemoryBound(to: CChar.self)) : ""
                offset += MemoryLayout<inotify_event>.size + Int(event.len)
                if event.mask & UInt32(IN_Q_OVERFLOW) != 0 { overflowed = true; continue }
                guard let folder = folders[event.wd] else { continue }
                if event.mask & UInt32(IN_IGNORED) != 0 { forget(event.wd); continue }
                let gone = event.mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0
                if gone {
                    _ = inotify_rm_watch(fd, event.wd)
                    forget(event.wd)
                }
                out.append(Event(folder: folder, name: name, isFolder: event.mask & UInt32(IN_ISDIR) != 0 || gone, folderGone: gone))
            }
        }
        return out
        #endif
    }

    private func forget(_ w: Int32) {
        if let f = folders.removeValue(forKey: w), watched[f] == w { watched[f] = nil }
    }
}
