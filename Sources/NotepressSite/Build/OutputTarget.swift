import Foundation
import Notepress

/// What `convert -o PATH` names, decided once from the inputs, the formats and PATH, as a pandoc
/// user reads it: one file for one input (standard output without `-o`), one EPUB or PDF book
/// for a folder or several files with `-o NAME.epub` or `NAME.pdf`, else an output folder. A PATH that looks like a
/// file is never made a folder silently: a trailing `/` asks for a folder of any name.
package enum OutputTarget: Sendable, Equatable {
    /// One output file (or standard output without `-o`).
    case file
    /// The inputs as one EPUB or PDF book (NotepressSite's ``EPUBBook``, ``PDFBook``).
    case book
    /// An output folder: one output per input and format.
    case folder

    /// The target of a `convert` run.
    /// - Parameters:
    ///   - inputs: the INPUTs (`-` for standard input).
    ///   - folderInput: the only input is a folder.
    ///   - listed: the inputs come from a list or a site table (`--files-from`, `--site-table`): a folder run.
    ///   - output: `-o` (`nil`: standard output).
    ///   - formats: the formats `-t` names, `nil` when it is not given (PATH's extension chooses).
    /// - Throws: ``SiteBuildRefusal`` naming the problem and what to do, when PATH names a file
    ///   (its extension is an output format's, or for a folder any short extension) but the run
    ///   makes a folder, or when PATH is an existing folder where one file is written.
    package static func of(inputs: [String], folderInput: Bool, listed: Bool, output: String?,
                           formats: [OutputFormat]?) throws -> OutputTarget {
        let oneFile = !listed && inputs.count == 1 && !folderInput
        guard let output else { return oneFile ? .file : .folder }
        if listed { return .folder }
        let asksFolder = output.hasSuffix("/")
        let exists = Platform.status(output)
        let namesFormat = !asksFolder && WriterRegistry.writer(forOutputPath: output) != nil
        let count = formats?.count ?? 1
        if exists?.kind == .directory || asksFolder {
            // One file, or several files (not a folder) that a name like `x.pdf` would make one
            // book or one file of: the folder of that name is not written into unless `/` says so.
            if (oneFile && count == 1 || !oneFile && !folderInput), namesFormat {
                throw SiteBuildRefusal("-o \(output) is a folder, not a file; give another file name, "
                    + "or -o \(output)/ to write into that folder")
            }
            return .folder
        }
        if oneFile {
            guard count > 1 else { return .file }
            if namesFormat {
                throw SiteBuildRefusal("-o \(output) looks like a file name; several formats need an output folder "
                    + "(-o \(output)/ makes a folder of that name)")
            }
            return .folder
        }
        let bookFormat = OutputFormat(rawValue: (PathText.lastComponent(output) as NSString).pathExtension.lowercased())
            .flatMap { [.epub, .pdf].contains($0) ? $0 : nil }
        let epub = bookFormat != nil
        if let bookFormat, formats == nil || formats == [bookFormat], !inputs.contains("-") { return .book }
        // An existing file: the command line says it is not a folder.
        if exists != nil { return .folder }
        let what = folderInput ? "converting a folder" : "converting several files"
        if namesFormat || (folderInput && looksLikeFileName(output)) {
            throw SiteBuildRefusal("-o \(output) looks like a file name; \(what) needs an output folder "
                + "(-o \(output)/ makes a folder of that name"
                + (epub || count > 1 ? ")" : "; -o NAME.epub or NAME.pdf makes one book of them)"))
        }
        return .folder
    }

    /// Whether `path` ends in a name with a short extension of letters and digits (`site.html`,
    /// `file.txt`): a file's name rather than a folder's. Hidden names (`.site`) are not.
    static func looksLikeFileName(_ path: String) -> Bool {
        let last = PathText.lastComponent(path)
        let ext = (last as NSString).pathExtension
        return !ext.isEmpty && ext.utf8.count <= 5 && !last.hasPrefix(".")
            && ext.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }
}
