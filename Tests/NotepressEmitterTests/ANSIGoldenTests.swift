import Foundation
import XCTest
import NotepressTestSupport
@testable import Notepress
import NotepressANSI
import NotepressAST
import NotepressReaders
import NotepressThemes

/// Shared helpers for the terminal emitter's tests.
enum ANSITestSupport {
    static let goldenDir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Golden/ansi")

    /// Reads a case: `.note` with NoteReader, `.md` as GFM after front matter. The title is the
    /// front-matter title only (no file-name stem), so goldens do not depend on file names.
    static func read(_ url: URL) throws -> Document {
        let text = try String(contentsOf: url, encoding: .utf8)
        if url.pathExtension == "note" { return try NoteReader().read(text, path: nil).document }
        return try readMarkdown(text)
    }

    static func readMarkdown(_ text: String) throws -> Document {
        let (fm, body, offset) = try FrontMatter.split(text, path: nil)
        var doc = MarkdownReader(format: .gfm).parse(body, path: nil, lineOffset: offset).document
        doc.metadata.title = fm?.title
        doc.metadata.created = fm?.created
        return doc
    }

    static func render(_ doc: Document, width: Int, depth: ColorDepth = .none, hyperlinks: Bool = false,
                       ascii: Bool = false, boldText: Bool = false) -> String {
        var d: [Diagnostic] = []
        let o = ANSIOptions(width: width, colorDepth: depth, hyperlinks: hyperlinks, ascii: ascii,
                            theme: Theme.standard.resolved(boldText: boldText))
        return ANSIEmitter.render(doc, options: o, diagnostics: &d)
    }

    /// The lines of `out` (without the final newline) that are wider than `width` or end with a
    /// space, measured with ``TerminalWidth/displayColumns(ofRendered:)`` (escapes excluded).
    static func layoutProblems(_ out: String, width: Int) -> [String] {
        var problems: [String] = []
        for line in out.split(separator: "\n", omittingEmptySubsequences: false) {
            let s = String(line)
            let w = TerminalWidth.displayColumns(ofRendered: s)
            if w > width { problems.append("too wide (\(w)): \(s)") }
            let visible = s.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
                .replacingOccurrences(of: "\u{1B}\\]8;;[^\u{1B}]*\u{1B}\\\\", with: "", options: .regularExpression)
            if visible.hasSuffix(" ") { problems.append("trailing space: \(s)") }
        }
        return problems
    }
}

/// Golden files for the terminal emitter.
///
/// Naming: `Golden/ansi/<case>.md` (or `.note`) is the input; beside it
/// `<case>.<profile>-<width>.ansi` is the complete expected output, where `<profile>` is
/// `plain` (no colour, no hyperlinks), `ansi16` (16 colours), `truecolor` (24-bit colour) or, for
/// the `links` case only, `truecolor-osc8` (24-bit colour with OSC 8 hyperlinks), and `<width>` is
/// 40 or 80 columns. Set `NOTEPRESS_UPDATE_GOLDEN=1` to rewrite them (then read them before
/// committing).
final class ANSIGoldenTests: XCTestCase {
    static let cases = ["headings.md", "emphasis.md", "nested-lists.md", "task-lists.md", "blockquote.md",
                        "code-long-line.md", "cjk-table.md", "long-words.md", "links.md", "footnotes.md",
                        "alert-script.note", "title.md"]
    static let profiles: [(name: String, depth: ColorDepth, hyperlinks: Bool)] = [
        ("plain", .none, false), ("ansi16", .ansi16, false), ("truecolor", .truecolor, false),
    ]

    func testGoldenFiles() throws {
        let update = ProcessInfo.processInfo.environment["NOTEPRESS_UPDATE_GOLDEN"] == "1"
        var compared = 0
        for file in Self.cases {
            let input = ANSITestSupport.goldenDir.appendingPathComponent(file)
            let doc = try ANSITestSupport.read(input)
            let stem = (file as NSString).deletingPathExtension
            var profiles = Self.profiles
            if stem == "links" { profiles.append(("truecolor-osc8", .truecolor, true)) }
            for p in profiles {
                for width in [40, 80] {
                    let out = ANSITestSupport.render(doc, width: width, depth: p.depth, hyperlinks: p.hyperlinks)
                    let golden = ANSITestSupport.goldenDir.appendingPathComponent("\(stem).\(p.name)-\(width).ansi")
                    if update { try out.write(to: golden, atomically: true, encoding: .utf8) }
                    let expected = try String(contentsOf: golden, encoding: .utf8)
                    XCTAssertEqual(out, expected, "\(golden.lastPathComponent) differs")
                    XCTAssertEqual(ANSITestSupport.layoutProblems(out, width: width), [], golden.lastPathComponent)
                    if p.depth == .none && !p.hyperlinks {
                        XCTAssertFalse(out.utf8.contains(0x1B), "\(golden.lastPathComponent) has an escape")
                    }
                    compared += 1
                }
            }
        }
        XCTAssertEqual(compared, Self.cases.count * 6 + 2)
    }
}
