// Platform: writing to descriptors, standard output, terminals and character widths.
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
}

/// The C library's `wcwidth`; Glibc's module map hides it behind `_XOPEN_SOURCE`, so it is
/// declared by its symbol name (the same on every platform).
@_silgen_name("wcwidth")
private func cWcwidth(_ c: Int32) -> Int32

/// A UTF-8 `LC_CTYPE` locale handle for `wcwidth`, created once and never changed.
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
