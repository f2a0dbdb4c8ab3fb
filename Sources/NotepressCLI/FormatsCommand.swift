import Foundation
import Notepress

/// `notepress formats` (also `notepress --list-formats`, `convert --list-formats`): one line per
/// format, `NAME<TAB>input|output<TAB>EXTENSIONS<TAB>DESCRIPTION`, tab-separated like
/// `notepress themes`. Extensions are space-separated with their dots; `-` when only `-f`/`-t`
/// selects the format. Inputs come from ``DocumentLoader/inputExtensions``, outputs from
/// ``WriterRegistry`` (``WriterRegistry/outputExtensions(of:)``), so the listing is the rule the
/// command applies.
func runFormatsCommand(_ args: [String]) -> Int32 {
    runCommand(Commands.formats, args) { a in
        guard a.positionals.isEmpty else { throw UsageError("takes no arguments") }
        print(formatListing(), terminator: "")
        return 0
    }
}

/// The text `notepress formats` prints.
func formatListing() -> String {
    let inputText: [SourceFormat: String] = [
        .note: "note markup (man notepress-markup); .tid: TiddlyWiki header, then note markup or Markdown",
        .commonmark: "CommonMark without extensions",
        .gfm: "GitHub Flavored Markdown (libcmark-gfm)",
    ]
    let outputText: [OutputFormat: String] = [
        .html: "HTML5 page (--fragment: the body, as cmark-gfm writes it)",
        .json: "the document tree as JSON",
        .ansi: "terminal text with SGR colours",
        .tei: "TEI P5 XML, validated against the RelaxNG schema",
        .rtf: "RTF for LibreOffice, Word and TextEdit",
        .man: "man(7) roff page",
        .docx: "Office Open XML for Word, with Word's style names",
        .odt: "OpenDocument text for LibreOffice",
        .epub: "EPUB 3 e-book (a folder: one book)",
        .pdf: "PDF laid out with Pango and Cairo: outline, links, tagged structure (a folder: one book)",
    ]
    var out = ""
    for f in SourceFormat.allCases {
        let exts = DocumentLoader.inputExtensions.filter { $0.format == f }.map { "." + $0.extension }
        out += "\(f.rawValue)\tinput\t\(exts.isEmpty ? "-" : exts.joined(separator: " "))\t\(inputText[f] ?? "")\n"
    }
    for w in WriterRegistry.all {
        let exts = WriterRegistry.outputExtensions(of: w).map { "." + $0 }
        out += "\(w.name)\toutput\t\(exts.joined(separator: " "))\t\(outputText[w.format] ?? "")\n"
    }
    return out
}
