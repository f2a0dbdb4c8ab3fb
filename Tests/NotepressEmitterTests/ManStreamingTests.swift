import Foundation
import XCTest
import NotepressTestSupport
@testable import Notepress
import NotepressAST
import NotepressMan
import NotepressReaders

/// Paragraphs are laid out as their items are made, a few thousand items at a time, and `.ad l`
/// is put in front afterwards when the paragraph turns out ragged. The golden
/// `Golden/man/long-paragraph.md` (checked by ``ManGoldenTests``) pins a 3.7 kB paragraph to the
/// output of the emitter before streaming; these put the decisions that look ahead (sentence
/// ends, abbreviations, the word after a link) and `.ad l` right at the chunk boundaries.
final class ManStreamingTests: XCTestCase {
    /// `n` filler words, then `tail`: the tail's first item lands at item index 2n.
    func paragraph(filler n: Int, _ tail: String) -> String {
        String(repeating: "word ", count: n) + tail + "\n"
    }

    func testSentenceEndAcrossChunkBoundaries() {
        for n in 2040...2052 {
            let (out, _) = ManTestSupport.render(paragraph(filler: n, "end. Next e.g. more and so on."), path: "x.md")
            XCTAssertTrue(out.contains("end.\nNext e.g.\\& more"), "n=\(n): " + out.suffix(200))
            XCTAssertFalse(out.contains(".ad l"), "n=\(n): no reason to be ragged")
        }
    }

    func testLinkTrailerAcrossChunkBoundaries() {
        for n in 2040...2052 {
            let (out, _) = ManTestSupport.render(paragraph(filler: n, "[site](https://example.org/a), then [mail](mailto:a@b.c). Done"),
                                                 path: "x.md")
            XCTAssertTrue(out.hasPrefix(".TH \"X\" \"1\" \"2024-05-06\"\n.PP\n.ad l\nword word"), "n=\(n): " + out.prefix(80))
            XCTAssertTrue(out.contains("\n.UR https://example.\\:org/\\:a\nsite\n.UE ,\nthen\n.MT a@b.c\nmail\n.ME .\nDone\n.ad\n"),
                          "n=\(n): " + out.suffix(200))
        }
    }

    /// A link as the very last item of a long paragraph still makes all of it ragged.
    func testRaggedDecidedByLastItem() {
        let (out, _) = ManTestSupport.render(paragraph(filler: 5000, "[end](https://example.org/)"), path: "x.md")
        XCTAssertTrue(out.hasPrefix(".TH \"X\" \"1\" \"2024-05-06\"\n.PP\n.ad l\nword word"), String(out.prefix(80)))
        XCTAssertTrue(out.hasSuffix("\n.UR https://example.\\:org/\\:\nend\n.UE\n.ad\n"), String(out.suffix(80)))
        XCTAssertEqual(out.components(separatedBy: ".ad l\n").count, 2)
    }

    /// Streaming does not change where lines break: 78 columns, greedy, words whole.
    func testLongParagraphFillsAt78Columns() {
        let (out, _) = ManTestSupport.render(paragraph(filler: 3000, "last"), path: "x.md")
        let text = out.split(separator: "\n").filter { !$0.hasPrefix(".") }
        // 15 words of 4 letters and their spaces make 74 columns; a 16th would make 79.
        XCTAssertEqual(text.count, 201)
        XCTAssertTrue(text.dropLast().allSatisfy { $0.count == 74 }, String(text[0]))
        XCTAssertEqual(text.joined(separator: " "), String(repeating: "word ", count: 3000) + "last")
    }

    /// The escaping function's fast path (text no rule changes) and its rules side by side.
    func testEscapeFastPathAndRules() {
        XCTAssertEqual(RoffEscaper.escape("plain words (1)", context: .text, minus: false), "plain words (1)")
        XCTAssertEqual(RoffEscaper.escape("a@b", context: .text, minus: false), "a@b")
        XCTAssertEqual(RoffEscaper.escape("a@b", context: .cell, minus: false), "a\\[at]b")
        XCTAssertEqual(RoffEscaper.escape("a\"b", context: .text, minus: false), "a\"b")
        XCTAssertEqual(RoffEscaper.escape("a\"b", context: .argument, minus: false), "a\\(dqb")
        XCTAssertEqual(RoffEscaper.escape("a.b/c", context: .text, minus: false), "a.b/c")
        XCTAssertEqual(RoffEscaper.escape("a.b/c", context: .text, minus: false, breakable: true), "a.\\:b/\\:c")
        XCTAssertEqual(RoffEscaper.escape("x-y", context: .text, minus: false), "x-y")
        XCTAssertEqual(RoffEscaper.escape("x-y", context: .text, minus: true), "x\\-y")
        XCTAssertEqual(RoffEscaper.escape("a\u{7F}b\u{1}c", context: .text, minus: false), "abc")
    }

    /// A code block's lines are split at line feeds (bytes, when there is no carriage return):
    /// empty lines kept, trailing blanks dropped, `.` and `'` at a line start guarded.
    func testCodeBlockLines() {
        let block = Block(.codeBlock(info: "", literal: ".a\n\n'b  \nc\n"))
        let doc = Document(metadata: DocumentMetadata(title: "t", sourceFormat: .gfm), blocks: [block])
        var diags: [Diagnostic] = []
        let out = ManEmitter().render(doc, diagnostics: &diags)
        XCTAssertTrue(out.contains("\n.EX\n\\&.a\n\n\\&'b\nc\n.EE\n"), out)
    }
}
