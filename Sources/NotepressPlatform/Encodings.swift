// Platform: character encodings, converted by the C library's iconv(3).
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
}
