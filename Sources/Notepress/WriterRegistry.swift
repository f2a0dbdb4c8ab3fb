import NotepressAST

/// Every output format by the name `-t` takes, as pandoc keeps its writers. Each writer lives in
/// `Writers/<Name>Writer.swift` and adds itself here with one line.
package enum WriterRegistry {
    package static let all: [any DocumentWriter] = [
        HTMLWriter(),
        JSONDumpWriter(),
        ANSIWriter(),
        TEIWriter(),
        RTFWriter(),
        ManWriter(),
        DOCXWriter(),
        ODTWriter(),
        EPUBWriter(),
        PDFWriter(),
    ]

    /// The writer called `name` (an ``OutputFormat`` raw value, as `-t` takes it), or `nil`.
    package static func writer(named name: String) -> (any DocumentWriter)? {
        OutputFormat(rawValue: name).map(writer(for:))
    }

    /// The writer of `format`.
    package static func writer(for format: OutputFormat) -> any DocumentWriter {
        guard let w = all.first(where: { $0.format == format }) else { preconditionFailure("no writer for \(format)") }
        return w
    }

    /// The writer an output file's extension names, as pandoc takes the output format from `-o`:
    /// each writer's ``DocumentWriter/fileExtension`` and the others of
    /// ``outputExtensions(of:)`` (`.htm` is HTML; `.1` to `.9` are man pages, also with a
    /// section suffix of lowercase letters such as `.3p` or `.1ssl`, as man(1) names sections).
    /// Case is ignored. `nil` for any other extension (the caller keeps its default).
    package static func writer(forOutputPath path: String) -> (any DocumentWriter)? {
        let name = PathText.lastComponent(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = name[name.index(after: dot)...].lowercased()
        if let w = all.first(where: { outputExtensions(of: $0).contains(ext) }) { return w }
        if let first = ext.first, ("1"..."9").contains(first), ext.dropFirst().allSatisfy({ ("a"..."z").contains($0) }) {
            return writer(for: .man)
        }
        return nil
    }

    /// The extensions (without the dot) that select `writer` in ``writer(forOutputPath:)``, the
    /// one it writes first.
    package static func outputExtensions(of writer: any DocumentWriter) -> [String] {
        switch writer.format {
        case .html: return [writer.fileExtension, "htm"]
        case .man: return [writer.fileExtension] + (1...9).map(String.init)
        case .rtf, .ansi, .tei, .json, .docx, .odt, .epub, .pdf: return [writer.fileExtension]
        }
    }
}
