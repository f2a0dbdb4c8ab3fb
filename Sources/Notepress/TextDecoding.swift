import NotepressAST
import NotepressPlatform

/// How input bytes become text when they are not plain UTF-8: a UTF-16 byte order mark, or a
/// legacy encoding named with `--encoding`. The rule (as the WHATWG Encoding Standard's "decode"
/// applies it to web pages: a byte order mark wins over the declared encoding):
///
/// 1. `EF BB BF` (UTF-8 BOM): UTF-8, whatever `--encoding` says.
/// 2. `FF FE` / `FE FF` (UTF-16 BOM): UTF-16 little / big endian. (UTF-32 is not sniffed: `FF FE
///    00 00` is also a UTF-16 BOM followed by U+0000; name it with `--encoding UTF-32LE`.)
/// 3. Otherwise the `--encoding` name (`iconv -l` lists them; case ignored), UTF-8 when none.
///
/// Conversion goes through the C library's `iconv(3)` (``Platform/convertEncoding(_:from:to:)``),
/// never through a table of our own, and stops at the first invalid sequence: the error names the
/// file, the line and column where it stands (columns in UTF-8 bytes of the text before it, as
/// every position Notepress reports), the byte and its offset in the file. Foundation's
/// `String.Encoding` was not used: on Linux it cannot say where a conversion failed, and it takes
/// no IANA/iconv names such as `shift_jis` or `windows-1252` without CoreFoundation calls that
/// swift-corelibs-foundation does not export.
enum TextDecoding {
    /// The encoding to convert from with iconv and the length of the byte order mark to skip, or
    /// `nil` when the bytes are UTF-8 (with or without a BOM) and take the UTF-8 path.
    static func source(of bytes: UnsafeRawBufferPointer, declared: String?) -> (encoding: String, bomLength: Int)? {
        let n = bytes.count
        if n >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { return nil }
        if n >= 2 && bytes[0] == 0xFF && bytes[1] == 0xFE { return ("UTF-16LE", 2) }
        if n >= 2 && bytes[0] == 0xFE && bytes[1] == 0xFF { return ("UTF-16BE", 2) }
        guard let declared, !isUTF8(declared) else { return nil }
        return (declared, 0)
    }

    /// Whether `name` is a spelling of UTF-8 (`utf-8`, `UTF8`, `utf_8`).
    static func isUTF8(_ name: String) -> Bool {
        name.uppercased().filter { $0 != "-" && $0 != "_" } == "UTF8"
    }

    /// Whether text in `encoding` has NUL bytes of its own (UTF-16, UTF-32, UCS-2…): then a NUL
    /// byte does not mean a binary file. Asks iconv how `a` is written in it.
    static func hasNULBytes(_ encoding: String) -> Bool {
        guard !isUTF8(encoding) else { return false }
        let a: [UInt8] = [0x61]
        guard case .success(let encoded) = a.withUnsafeBytes({ Platform.convertEncoding($0, from: "UTF-8", to: encoding) })
        else { return false }
        return encoded.contains(0)
    }

    /// The bytes after the byte order mark, converted from `encoding` to UTF-8, as text.
    /// - Throws: ``NotepressError`` naming `name` with line and column: an invalid or truncated
    ///   sequence, a NUL character, or an encoding iconv does not know.
    static func decode(_ bytes: UnsafeRawBufferPointer, skipping bomLength: Int, from encoding: String,
                       name: String) throws -> String {
        let body = UnsafeRawBufferPointer(rebasing: bytes[bomLength...])
        switch Platform.convertEncoding(body, from: encoding, to: "UTF-8") {
        case .success(let utf8):
            if utf8.contains(0), let problem = DocumentLoader.checkBytes(utf8, name: name) { throw problem }
            return String(decoding: utf8, as: UTF8.self)
        case .failure(.unknownEncoding):
            throw NotepressError.unknownEncoding(file: name, encoding: encoding)
        case .failure(.invalidSequence(let offset, let converted)):
            throw NotepressError.invalidEncoding(file: name, position: position(after: converted), encoding: encoding, message:
                                  "invalid \(encoding) text (\(what(body, at: offset, encoding: encoding)) at byte offset \(offset + bomLength)); "
                                  + (bomLength > 0 ? "the file starts with a \(encoding) byte order mark"
                                                   : "is --encoding right?"))
        case .failure(.truncatedSequence(let offset, let converted)):
            throw NotepressError.invalidEncoding(file: name, position: position(after: converted), encoding: encoding, message:
                                  "the file ends inside a \(encoding) character (\(what(body, at: offset, encoding: encoding)) at byte offset \(offset + bomLength))")
        }
    }

    /// The line and column (1-based; column in UTF-8 bytes) just after `text`.
    static func position(after text: [UInt8]) -> SourcePosition {
        var line = 1
        var lineStart = 0
        for (i, b) in text.enumerated() where b == 0x0A {
            line += 1
            lineStart = i + 1
        }
        return SourcePosition(line: line, column: text.count - lineStart + 1)
    }

    /// The bytes at `offset` as the error names them: a UTF-16 or UTF-32 code unit (`code unit
    /// 0xD800`, in the encoding's byte order), else one byte (`byte 0x81`).
    static func what(_ bytes: UnsafeRawBufferPointer, at offset: Int, encoding: String) -> String {
        let plain = encoding.uppercased().filter { $0 != "-" && $0 != "_" }
        let width = plain.hasPrefix("UTF16") || plain.hasPrefix("UCS2") ? 2 : plain.hasPrefix("UTF32") || plain.hasPrefix("UCS4") ? 4 : 1
        guard width > 1, offset + width <= bytes.count else { return "byte " + hex(bytes[offset]) }
        var unit = Array(bytes[offset..<(offset + width)])
        if plain.hasSuffix("LE") { unit.reverse() }
        return "code unit 0x" + unit.map { String(hex($0).dropFirst(2)) }.joined()
    }

    static func hex(_ b: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "0x" + String(digits[Int(b >> 4)]) + String(digits[Int(b & 0xF)])
    }
}
