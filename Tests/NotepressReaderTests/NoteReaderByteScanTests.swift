import NotepressAST
import NotepressReaders
import XCTest
import NotepressTestSupport

/// Edges of the byte-level note scanner (Sources/NotepressReaders/NoteInlineScanner.swift):
/// multi-byte characters right next to delimiters, line ends, escapes at the end of a line,
/// marker-only list lines, and span arrays shared between runs. The rules are those of
/// man/notepress-markup.7.md; these inputs only exercise where bytes and scalars differ.
final class NoteReaderByteScanTests: XCTestCase {
    private func runs(_ text: String, keepMarkers: Bool = false, file: StaticString = #filePath, line: UInt = #line) -> Inlines {
        noteParagraphRuns(text, keepMarkers: keepMarkers, file: file, line: line)
    }

    private func sig(_ text: String, keepMarkers: Bool = false) -> String {
        noteSignature(runs(text, keepMarkers: keepMarkers))
    }

    func testMultiByteNeighboursOfDelimiters() {
        // Two-, three- and four-byte letters right before a delimiter: word-internal, literal.
        XCTAssertEqual(sig("é*a* 日*a* 𝐀*a*"), "é*a* 日*a* 𝐀*a*")
        // …and right after an opener / before a closer: spans open and close.
        XCTAssertEqual(sig("*é* _日本_ ~𝐀~"), "<b:é> <i:日本> <c:𝐀>")
        // Unicode whitespace (no-break space, ideographic space) and opening punctuation before
        // an opener (three-byte `「`, `（`), two-byte `«`.
        XCTAssertEqual(sig("a\u{A0}*b* c\u{3000}_d_"), "a\u{A0}<b:b> c\u{3000}<i:d>")
        XCTAssertEqual(sig("「*強*」（_弱_）«-x-»"), "「<b:強>」（<i:弱>）«<s:x>»")
        // A combining mark after an opener cannot start a span; after a word it continues it.
        XCTAssertEqual(sig("*\u{301}a*"), "*\u{301}a*")
        XCTAssertEqual(sig("*e\u{301}*\u{301}"), "*e\u{301}*\u{301}")
        // An emoji is neither a word character nor opening punctuation: no span on either side.
        XCTAssertEqual(sig("*🙂* 🙂*a*"), "*🙂* 🙂*a*")
    }

    func testAllCapsWithMultiByteLetters() {
        XCTAssertEqual(sig("ÉTÉ été Été"), "<A:ÉTÉ> été Été")
        // Combining accents belong to the word; a lowercase two-byte letter spoils it.
        XCTAssertEqual(sig("E\u{301}TE\u{301} ÉTé"), "<A:E\u{301}TE\u{301}> ÉTé")
        XCTAssertEqual(sig("ΣΑΣ ДОМ дом"), "<A:ΣΑΣ> <A:ДОМ> дом")
        // A Roman numeral (a number) or a digit inside spoils the word; one letter is too few.
        XCTAssertEqual(sig("ABⅫ AB2 É"), "ABⅫ AB2 É")
        // CJK letters are not uppercase; a word that starts with a mark is not a word start.
        XCTAssertEqual(sig("中文 \u{301}AB"), "中文 \u{301}AB")
        // The alert run sits in an alert span of its own, the second span in source order.
        let r = runs("*a* OK")
        XCTAssertEqual(r.runs.last?.span, 1)
        XCTAssertEqual(r.spans, [InlineSpan(.strong), InlineSpan(.colorRole(.alert))])
    }

    func testCRLFLineEnds() {
        let blocks = NoteReader().parse("*a*\r\nb\r\n\r\n1. c\r\n")
        XCTAssertEqual(blocks.count, 2)
        guard case .paragraph(let p) = blocks[0].kind else { return XCTFail("\(blocks)") }
        XCTAssertEqual(noteSignature(p), "<b:a>⏎b")
        guard case .list(let l) = blocks[1].kind else { return XCTFail("\(blocks)") }
        XCTAssertEqual(l.items.count, 1)
        guard case .paragraph(let item) = l.items[0].blocks.first?.kind else { return XCTFail("\(l)") }
        XCTAssertEqual(noteSignature(item), "c")
        // Only one CR before the LF goes; a CR elsewhere is text.
        XCTAssertEqual(sig("a\r\r\nb"), "a\r⏎b")
        XCTAssertEqual(sig("a\rb"), "a\rb")
        // A line of only a CR is blank.
        XCTAssertEqual(NoteReader().parse("a\r\n\r\nb").count, 2)
    }

    func testLineThatIsOnlyAListMarker() {
        let blocks = NoteReader().parse("3. \n4.\t\t\n5.")
        guard case .list(let l) = blocks.first?.kind else { return XCTFail("\(blocks)") }
        // `3. ` and `4.<tab><tab>` are items without content; `5.` (no space) is a paragraph.
        XCTAssertEqual(l.items.map(\.number), [3, 4])
        XCTAssertTrue(l.items.allSatisfy(\.blocks.isEmpty))
        XCTAssertEqual(blocks.count, 2)
        guard case .paragraph(let p) = blocks[1].kind else { return XCTFail("\(blocks)") }
        XCTAssertEqual(noteSignature(p), "5.")
        // The content column is a byte offset after the ASCII marker.
        let item = NoteReader().parse("12.  é")
        guard case .list(let l2) = item.first?.kind else { return XCTFail("\(item)") }
        XCTAssertEqual(l2.items[0].blocks.first?.position?.column, 6)
    }

    func testEscapesAtLineEnd() {
        // A backslash at the very end escapes nothing and stays.
        XCTAssertEqual(sig("a\\"), "a\\")
        XCTAssertEqual(sig("a\\\nb\\*"), "a\\⏎b*")
        // An escaped backslash at the end, and an escape right after a multi-byte letter.
        XCTAssertEqual(sig("a\\\\"), "a\\")
        XCTAssertEqual(sig("é\\*x\\_"), "é*x_")
        XCTAssertEqual(sig("a\\", keepMarkers: true), "a\\")
        XCTAssertEqual(sig("é\\*", keepMarkers: true), "é<m:\\>*")
    }

    func testRunsInsideOneSpanPointAtIt() {
        // `*a OK b*`: three runs inside the strong span; the alert run is in a span inside it.
        let r = runs("*a OK b* c")
        XCTAssertEqual(noteSignature(r), "<b:a ><b,A:OK><b: b> c")
        XCTAssertEqual(r.runs.map(\.span), [0, 1, 0, nil])
        XCTAssertEqual(r.spans, [InlineSpan(.strong), InlineSpan(.colorRole(.alert), parent: 0)])
    }

    func testTextRunsCutFromBytesKeepEveryByte() {
        // Long and short runs, multi-byte text around every kind of break.
        let text = "naïve façade — 日本語のテキスト *東京* über-long-text-that-is-more-than-fifteen-bytes ÅÄÖ x"
        XCTAssertEqual(sig(text),
                       "naïve façade — 日本語のテキスト <b:東京> über-long-text-that-is-more-than-fifteen-bytes <A:ÅÄÖ> x")
        XCTAssertEqual(NoteReader().parse(text).count, 1)
    }
}
