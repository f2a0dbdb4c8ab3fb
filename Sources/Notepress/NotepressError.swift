import Foundation
import NotepressAST
import NotepressPlatform

/// Why a document or a file of a run could not be converted.
///
/// Each case carries what a caller needs to act on it (the file, the position, the `errno` value,
/// the encoding); ``file``, ``position`` and ``message`` are the parts of the one-line form the
/// command line prints, ``description`` (`file:line:column: error: message`, as compilers write
/// it; the position is left out when there is none). Positions are 1-based lines and columns, the
/// columns counting UTF-8 bytes of the decoded text, as every position Notepress reports.
///
/// ``Notepress/convert(_:from:to:options:)`` and ``Notepress/parse(_:from:)`` throw
/// ``invalidFrontMatter(file:position:message:)``, ``schemaViolation(file:position:message:)``
/// (TEI output that fails the schema) and ``pageTemplate(file:message:)``; the other cases come
/// from reading and writing files.
public enum NotepressError: Error, LocalizedError, CustomStringConvertible, Sendable, Equatable {
    /// An input file cannot be opened or read. `code` is the C library's `errno` value: `ENOENT`
    /// reads "no such file", `EISDIR` "is a folder, not a file", any other "cannot be read: " and
    /// `strerror(3)`'s text.
    case fileUnreadable(file: String, code: Int32)
    /// The bytes at `position` are not UTF-8; `byte` is the first byte of the bad sequence.
    case invalidUTF8(file: String, position: SourcePosition, byte: UInt8)
    /// The text has a NUL character at `position` (a binary file?).
    case nulByte(file: String?, position: SourcePosition)
    /// The bytes at `position` are not valid text of `encoding` (an `iconv(3)` name, from
    /// `--encoding` or a byte order mark), or the file ends inside a character; `message` says
    /// which bytes and their offset in the file.
    case invalidEncoding(file: String, position: SourcePosition, encoding: String, message: String)
    /// `iconv(3)` knows no encoding called `encoding` (`iconv -l` lists the names).
    case unknownEncoding(file: String, encoding: String)
    /// The YAML front matter (or a TiddlyWiki header) is malformed, or a field has a bad value
    /// (`created: 2024-02-30`), at `position` of the file.
    case invalidFrontMatter(file: String?, position: SourcePosition, message: String)
    /// TEI output does not match the schema: `position` is the line and column in the generated
    /// XML, `message` libxml2's.
    case schemaViolation(file: String?, position: SourcePosition?, message: String)
    /// The TEI schema cannot be read or compiled (`message` says which and why).
    case invalidSchema(file: String?, position: SourcePosition?, message: String)
    /// The HTML page template cannot be read or rendered.
    case pageTemplate(file: String?, message: String)
    /// A theme file cannot be read or is not a valid theme: `path` is the JSON path of the bad
    /// value (`styles.body.sizes.ax9`), empty for the whole file.
    case invalidTheme(file: String, path: String, message: String)
    /// An input named on the command line does not exist.
    case inputNotFound(file: String)
    /// A folder of the input cannot be listed; `code` is the `errno` value.
    case folderUnreadable(file: String, code: Int32)
    /// A symbolic link in an input folder points nowhere.
    case brokenSymbolicLink(file: String)
    /// A symbolic link in an input folder leads back to `target`, a folder being walked.
    case folderLoop(file: String, target: String)
    /// An output is not written because writing it would be unsafe (through a symbolic link, over
    /// an input, outside the output folder, onto a block device, twice in one run) or impossible
    /// (a path a depfile cannot hold). `file` is the input whose output it is, or the path.
    case outputRefused(file: String, message: String)
    /// An output file or folder cannot be made or written (`message` has the system's reason).
    case writeFailed(file: String, message: String)
    /// Any other failure, as the part that failed describes it.
    case failed(file: String?, position: SourcePosition?, message: String)

    /// The file the error is about (an input, an output, a schema or template), if any.
    public var file: String? {
        switch self {
        case .fileUnreadable(let f, _), .invalidUTF8(let f, _, _), .invalidEncoding(let f, _, _, _),
             .unknownEncoding(let f, _), .invalidTheme(let f, _, _),
             .inputNotFound(let f), .folderUnreadable(let f, _), .brokenSymbolicLink(let f), .folderLoop(let f, _),
             .outputRefused(let f, _), .writeFailed(let f, _):
            return f
        case .nulByte(let f, _), .invalidFrontMatter(let f, _, _), .schemaViolation(let f, _, _), .invalidSchema(let f, _, _), .pageTemplate(let f, _), .failed(let f, _, _):
            return f
        }
    }

    /// Where in ``file`` the problem is (line and column, 1-based), if known. Not for
    /// ``schemaViolation(file:position:message:)``, whose position is in the generated XML (its
    /// ``message`` gives it), not in the input file.
    public var position: SourcePosition? {
        switch self {
        case .invalidUTF8(_, let p, _), .nulByte(_, let p), .invalidEncoding(_, let p, _, _), .invalidFrontMatter(_, let p, _):
            return p
        case .invalidSchema(_, let p, _), .failed(_, let p, _):
            return p
        default:
            return nil
        }
    }

    /// What went wrong, without the file and position: one line of English, as the command line
    /// prints it after `error: `.
    public var message: String {
        switch self {
        case .fileUnreadable(_, let code):
            let e = SystemError(code: code)
            return e.isMissing ? "no such file" : e.isFolder ? "is a folder, not a file" : "cannot be read: \(e.text)"
        case .invalidUTF8(_, _, let byte):
            return "invalid UTF-8 (byte \(Self.hex(byte))); convert the file to UTF-8 or name its encoding (--encoding)"
        case .nulByte:
            return "contains a NUL byte (binary file?)"
        case .invalidEncoding(_, _, _, let m):
            return m
        case .unknownEncoding(_, let name):
            return "unknown encoding '\(name)' (iconv -l lists the names)"
        case .invalidFrontMatter(_, _, let m):
            return m
        case .schemaViolation(_, let p, let m):
            return "TEI output does not validate (line \(p?.line ?? 0), column \(p?.column ?? 0) of the XML): \(m)"
        case .invalidSchema(_, _, let m):
            return m
        case .pageTemplate(_, let m):
            return "HTML page template: \(m)"
        case .invalidTheme(_, let path, let m):
            return path.isEmpty ? m : "\(path): \(m)"
        case .inputNotFound:
            return "no such file or folder"
        case .folderUnreadable(_, let code):
            return "cannot read folder: \(Platform.errorText(code))"
        case .brokenSymbolicLink:
            return "broken symbolic link"
        case .folderLoop(_, let target):
            return "folder loop: leads back to \(target); not followed"
        case .outputRefused(_, let m), .writeFailed(_, let m):
            return m
        case .failed(_, _, let m):
            return m
        }
    }

    /// `file:line:column: error: message` (the parts that are known), as the command line prints it.
    public var description: String {
        Diagnostic(.error, message, file: file, position: position).description
    }

    /// ``description``, for `LocalizedError` (`error.localizedDescription`).
    public var errorDescription: String? { description }

    /// `0xE9` for 233: two upper-case hexadecimal digits.
    static func hex(_ b: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "0x" + String(digits[Int(b >> 4)]) + String(digits[Int(b & 0xF)])
    }

    /// `error` as a ``NotepressError``: itself when it is one, else ``failed(file:position:message:)``
    /// with its description, naming `file`.
    package static func wrapping(_ error: Error, file: String?) -> NotepressError {
        (error as? NotepressError) ?? .failed(file: file, position: nil, message: "\(error)")
    }
}
