// Platform: child processes (the pager), shared libraries loaded on first use, the executable's path.
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

    /// The file of the first library loaded into this process whose file name starts with
    /// `prefix` (`libKF5SyntaxHighlighting`), links resolved: `/proc/self/maps` on Linux, dyld's
    /// image list on macOS; `nil` when none is loaded.
    package static func loadedLibraryPath(prefix: String) -> String? {
        #if canImport(Darwin)
        for i in 0..<_dyld_image_count() {
            guard let c = _dyld_get_image_name(i) else { continue }
            let path = String(cString: c)
            if let slash = path.lastIndex(of: "/"), path[path.index(after: slash)...].hasPrefix(prefix) { return realPath(path) }
        }
        return nil
        #else
        guard case .success(let bytes) = readFile("/proc/self/maps") else { return nil }
        // Each line ends with the mapped file's path; look for "/PREFIX" and take its line's path.
        let needle = Array(("/" + prefix).utf8)
        guard let first = needle.first else { return nil }
        var i = 0
        while i + needle.count <= bytes.count {
            if bytes[i] == first && bytes[i..<(i + needle.count)].elementsEqual(needle) {
                var start = i
                while start > 0 && bytes[start - 1] != 0x0A && bytes[start - 1] != 0x20 { start -= 1 }
                var end = i
                while end < bytes.count && bytes[end] != 0x0A { end += 1 }
                return realPath(String(decoding: bytes[start..<end], as: UTF8.self))
            }
            i += 1
        }
        return nil
        #endif
    }

    /// Where a shim library of Notepress's own (`libNotepressSyntaxShim.so`,
    /// `libNotepressPDFShim.so`: `fileName`) is looked for, in order: the file the environment
    /// variable names (`environment`, its value) when set; beside the executable (`swift build`
    /// puts it there); `../lib/notepress/` of the executable's folder (`make install`:
    /// PREFIX/bin/notepress and PREFIX/lib/notepress/).
    package static func shimCandidates(fileName: String, environment: String?, executable: String?) -> [String] {
        if let e = environment, !e.isEmpty { return [e] }
        guard let exe = executable, let slash = exe.lastIndex(of: "/") else { return [] }
        let dir = String(exe[..<slash])
        return [dir + "/" + fileName, dir + "/../lib/notepress/" + fileName]
    }

    /// The file name of a shared library called `name` on this platform (`libNAME.so`, `.dylib` on macOS).
    package static func sharedLibraryFileName(_ name: String) -> String {
        #if os(macOS)
        "lib\(name).dylib"
        #else
        "lib\(name).so"
        #endif
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
