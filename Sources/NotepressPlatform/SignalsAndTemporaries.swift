// Platform: atomic writes and their temporary files, the folders made under their lock, and the
// signals: the thread that removes the temporaries on an interrupt, signals ignored for a while.
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

extension Platform {
    /// The folders this process writes into and holds locks on, for the whole process (a lock
    /// is a `flock(2)` on an open descriptor, which belongs to the process): the output folders of
    /// folder runs alive now (counted: nested runs of one process), and the other folders written
    /// into, each locked once and kept until the process ends. The one such table, here beside
    /// the registry of temporaries, as every piece of process-wide state is (issue 51). Paths are
    /// compared as given: callers normalise them (runs of `/` as one, no trailing `/`).
    package final class LockedFolders: @unchecked Sendable {
        /// The table of this process.
        package static let shared = LockedFolders()
        private let mutex = PlatformMutex()
        private var roots: [String: Int] = [:]
        private var locked: Set<String> = []

        private init() {}

        /// A folder run writes below `root` from now on.
        package func add(root: String) { mutex.locked { roots[root, default: 0] += 1 } }

        /// A folder run below `root` ended.
        package func remove(root: String) {
            mutex.locked { if let n = roots[root] { roots[root] = n > 1 ? n - 1 : nil } }
        }

        /// The registered root `folder` is in or below, the longest when several are.
        package func root(containing folder: String) -> String? {
            mutex.locked {
                var best: String?
                for r in roots.keys where folder == r || folder.hasPrefix(r == "/" ? r : r + "/") {
                    if best.map({ r.utf8.count > $0.utf8.count }) ?? true { best = r }
                }
                return best
            }
        }

        /// Calls `lock` for `folder` unless this process did already and it succeeded (it
        /// returns whether it took the lock; a folder not made yet is tried again next time).
        package func lockOnce(_ folder: String, _ lock: (String) -> Bool) {
            mutex.locked {
                guard locked.insert(folder).inserted else { return }
                if !lock(folder) { locked.remove(folder) }
            }
        }
    }
}

/// A `pthread_mutex_t` (the platform module has no Foundation lock of its own).
private final class PlatformMutex: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }
    func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }
}
