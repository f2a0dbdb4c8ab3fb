// Platform: the folder watcher of `notepress serve` and `convert --watch` (inotify, kqueue).
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("Notepress needs Glibc, Musl or Darwin")
#endif

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
