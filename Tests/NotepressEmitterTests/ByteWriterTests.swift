import XCTest
import NotepressTestSupport
@testable import NotepressAST
@testable import NotepressMan
@testable import NotepressRTF
@testable import NotepressTEI

/// Regression tests for the byte-buffer writers of issue 19: each escaper now works on UTF-8
/// bytes and must write what its Character/scalar-by-scalar version wrote (expected values are
/// the pre-change outputs).
final class ByteWriterTests: XCTestCase {
    /// JSON: quote, backslash, C0 (named and `\u00XX`), DEL and C1 (`C2 80`…`C2 9F` in UTF-8)
    /// escaped; other non-ASCII copied.
    func testJSONByteEscapingMatchesScalarRules() {
        var b = InlinesBuilder()
        b.append(.text("q\"b\\c\u{1}\u{7F}\u{85}\u{9F}\u{A0}é\tz\r\n"))
        let doc = Document(metadata: DocumentMetadata(sourceFormat: .gfm), blocks: [Block(.paragraph(b.take()))])
        let json = ASTDump.json(doc)
        XCTAssertTrue(json.contains(#"{"text": "q\"b\\c\u0001\u007f\u0085\u009f"# + "\u{A0}é" + #"\tz\r\n"}"#), json)
        XCTAssertEqual(Array(json.utf8), ASTDump.jsonBytes(doc))
    }

    /// XML: `&`, `<`, `>` (and `"`, TAB, LF, CR in attributes) as references, CR as `&#xD;` in
    /// text, C0 controls and U+FFFE/U+FFFF removed, other characters copied.
    func testXMLByteEscapingMatchesScalarRules() {
        let s = "a\"b<&>\t\n\r\u{FFFF}\u{FFFE}\u{1}é\u{FFFD}\u{1F600}"
        XCTAssertEqual(XMLEscaping.attribute(s), "a&quot;b&lt;&amp;&gt;&#x9;&#xA;&#xD;é\u{FFFD}\u{1F600}")
        XCTAssertEqual(XMLEscaping.text(s), "a\"b&lt;&amp;&gt;\t\n&#xD;é\u{FFFD}\u{1F600}")
    }

    /// RTF: `\`, `{`, `}` escaped, TAB as `\tab `, C0, DEL and C1 dropped, other characters as
    /// signed UTF-16 `\uN?` (surrogate pairs above U+FFFF).
    func testRTFByteEscapingMatchesScalarRules() {
        XCTAssertEqual(RTFSerializer.escapeText("a\\b {c}\u{85}d\u{7F}\t\u{1F600}é\u{1}"),
                       #"a\\b \{c\}d\tab \u-10179?\u-8704?\u233?"#)
        XCTAssertEqual(RTFSerializer.serialize([.word("b", nil), .text("x"), .text(""), .word("fs", 24), .hex(0xE9), .newline]),
                       "\\b x\\fs24\\'e9\n")
    }

    /// roff: the ASCII byte path and the scalar path apply the same rules.
    func testRoffASCIIEscapingMatchesScalarRules() {
        XCTAssertEqual(RoffEscaper.escape("a\\b-c\"d@e\tf\u{1}", context: .argument, minus: false), "a\\eb-c\\(dqd@e f")
        XCTAssertEqual(RoffEscaper.escape("a\"d@e", context: .cell, minus: false), "a\"d\\[at]e")
        XCTAssertEqual(RoffEscaper.escape("x\ty\r", context: .code, minus: true), "x\ty")
        XCTAssertEqual(RoffEscaper.escape("http://x.y/z", context: .text, minus: false, breakable: true),
                       "http:/\\:/\\:x.\\:y/\\:z")
        XCTAssertEqual(RoffEscaper.escape("é\u{2014}x-", context: .text, minus: true), "\\[u00E9]\\(emx\\-")
        XCTAssertEqual(RoffWriter.quoteIfNeeded("a b"), "\"a b\"")
        XCTAssertEqual(RoffWriter.quoteIfNeeded(""), "\"\"")
        XCTAssertEqual(RoffWriter.quoteIfNeeded("\"q\""), "\"q\"")
        XCTAssertEqual(RoffWriter.quoteIfNeeded("ab"), "ab")
    }
}
