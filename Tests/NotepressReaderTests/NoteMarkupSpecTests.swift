import Foundation
import NotepressAST
import NotepressReaders
import NotepressHTML
import XCTest
import NotepressTestSupport

/// One example of man/notepress-markup.7.md, in CommonMark spec.txt format.
struct NoteSpecExample {
    var number: Int
    var line: Int
    var keepMarkers: Bool
    var markdown: String
    var html: String
}

/// Parses the examples: a line of 32 backticks + ` example` (optionally followed by options such as
/// `keep-markers`), the input, a line `.`, the expected HTML, a line of 32 backticks. `→` is a tab.
func parseNoteSpecExamples(_ text: String) -> [NoteSpecExample] {
    let fence = String(repeating: "`", count: 32)
    var examples: [NoteSpecExample] = []
    var state = 0  // 0 outside, 1 input, 2 output
    var input: [String] = [], output: [String] = []
    var keep = false
    var startLine = 0
    for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let line = String(rawLine)
        switch state {
        case 0:
            if line.hasPrefix(fence + " example") {
                state = 1
                input = []; output = []
                keep = line.dropFirst(fence.count + 8).split(separator: " ").contains("keep-markers")
                startLine = index + 1
            }
        case 1:
            if line == "." { state = 2 } else { input.append(line) }
        default:
            if line == fence {
                state = 0
                func untab(_ lines: [String]) -> String {
                    lines.map { $0 + "\n" }.joined().replacingOccurrences(of: "→", with: "\t")
                }
                examples.append(NoteSpecExample(number: examples.count + 1, line: startLine, keepMarkers: keep,
                                                markdown: untab(input), html: untab(output)))
            } else {
                output.append(line)
            }
        }
    }
    return examples
}

/// Test-only HTML for note blocks, exactly as man/notepress-markup.7.md specifies. To be replaced by
/// the HTML emitter's `HTMLEmitter.fragment` once it exists.
/// The real HTML emitter's body output for note blocks.
func renderNoteFragmentForSpec(_ blocks: [Block]) -> String {
    HTMLEmitter().fragment(Document(metadata: DocumentMetadata(sourceFormat: .note), blocks: blocks))
}

final class NoteMarkupSpecTests: XCTestCase {
    static var specURL: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("man/notepress-markup.7.md")
    }

    func testSpecHasAtLeastSixtyExamplesCoveringEveryRule() throws {
        let text = try String(contentsOf: Self.specURL, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("% notepress-markup(7)"))
        for section in ["# NAME", "# DESCRIPTION", "# RULES", "# EXAMPLES"] {
            XCTAssertTrue(text.contains("\n" + section), section)
        }
        let examples = parseNoteSpecExamples(text)
        XCTAssertGreaterThanOrEqual(examples.count, 60)
        let all = examples.map(\.html).joined()
        for tag in ["<strong>", "<em>", "<del>", "<span class=\"script\">", "<span class=\"alert\">", "<span class=\"marker\">",
                    "<ol start=", "<li value=", "<br />", "&amp;", "&lt;", "&quot;", "\t"] {
            XCTAssertTrue(all.contains(tag), "no example shows \(tag)")
        }
        XCTAssertTrue(examples.contains { $0.keepMarkers })
    }

    func testSpecExamples() throws {
        let text = try String(contentsOf: Self.specURL, encoding: .utf8)
        let examples = parseNoteSpecExamples(text)
        var failures = 0
        for ex in examples {
            let blocks = NoteReader(keepMarkers: ex.keepMarkers).parse(ex.markdown)
            let html = renderNoteFragmentForSpec(blocks)
            if html != ex.html {
                failures += 1
                XCTFail("example \(ex.number) (line \(ex.line)):\ninput:    \(ex.markdown.debugDescription)\nexpected: \(ex.html.debugDescription)\nactual:   \(html.debugDescription)")
            }
        }
        XCTAssertEqual(failures, 0)
    }
}
