import Foundation
import XCTest
import NotepressAST
import NotepressReaders
import NotepressThemes
import NotepressRTF
@testable import Notepress

/// Shared helpers of the RTF tests.
enum RTFTestSupport {
    /// 2026-11-29 14:05:00 UTC, the creation date every test document gets.
    static let created = Date(timeIntervalSince1970: 1_795_961_100)

    static func markdown(_ text: String, title: String? = nil) -> Document {
        var doc = MarkdownReader(format: .gfm).parse(text, path: "x.md").document
        doc.metadata.title = title
        doc.metadata.created = created
        return doc
    }

    static func rtf(_ doc: Document, theme: ResolvedTheme = Theme.standard.resolved()) -> (String, [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        var options = ConversionOptions()
        options.theme = theme
        let bytes = try! RTFWriter().write(doc, options: options, diagnostics: &diagnostics)
        return (String(decoding: bytes, as: UTF8.self), diagnostics)
    }

    static var goldenDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/rtf")
    }
}

final class RTFTests: XCTestCase {
    // MARK: Escaping and serialisation

    func testEscapeTextUnicodeEdgeCases() {
        XCTAssertEqual(RTFSerializer.escapeText("caf\u{E9}"), "caf\\u233?")
        XCTAssertEqual(RTFSerializer.escapeText("\u{4E2D}"), "\\u20013?")
        // U+1F600 = D83D DE00 → 55357-65536, 56832-65536.
        XCTAssertEqual(RTFSerializer.escapeText("\u{1F600}"), "\\u-10179?\\u-8704?")
        XCTAssertEqual(RTFSerializer.escapeText("\u{FFFF}"), "\\u-1?")
        // U+10FFFF = DBFF DFFF.
        XCTAssertEqual(RTFSerializer.escapeText("\u{10FFFF}"), "\\u-9217?\\u-8193?")
        XCTAssertEqual(RTFSerializer.escapeText("\u{7FFF}\u{8000}"), "\\u32767?\\u-32768?")
    }

    func testEscapeTextSpecialsAndControls() {
        XCTAssertEqual(RTFSerializer.escapeText("a\\b{c}d"), "a\\\\b\\{c\\}d")
        XCTAssertEqual(RTFSerializer.escapeText("a\tb"), "a\\tab b")
        XCTAssertEqual(RTFSerializer.escapeText("a\u{1}\u{7F}\u{85}\nb"), "ab")
    }

    func testControlWordsNeverEatTextSpaces() {
        let s = RTFSerializer.serialize([.group([.word("b"), .text(" x")]), .word("fs", 24), .text("y"),
                                         .word("par"), .newline, .text(" z")])
        XCTAssertEqual(s, "{\\b  x}\\fs24 y\\par \n z")
    }

    // MARK: Header

    func testHeaderFontColorInfo() {
        let (rtf, _) = RTFTestSupport.rtf(RTFTestSupport.markdown("Hello.", title: "My \"note\" \u{E9}"))
        XCTAssertTrue(rtf.hasPrefix("{\\rtf1\\ansi\\ansicpg1252\\deff0\\uc1 \n{\\fonttbl{\\f0\\fswiss\\fprq2\\fcharset0 -apple-system{\\*\\falt Helvetica};}{\\f1\\fmodern\\fprq1\\fcharset0 Menlo{\\*\\falt Courier New};}{\\f2\\fscript\\fprq2\\fcharset0 Snell Roundhand{\\*\\falt Zapf Chancery};}}"), rtf)
        XCTAssertTrue(rtf.contains("{\\colortbl;\\red28\\green28\\blue30;\\red215\\green0\\blue21;"), rtf)
        XCTAssertTrue(rtf.contains("{\\info{\\title My \"note\" \\u233?}{\\creatim\\yr2026\\mo11\\dy29\\hr14\\min5}}"), rtf)
        XCTAssertTrue(rtf.hasSuffix("}\n"))
    }

    func testSerifThemeUsesRoman() {
        var theme = Theme.standard
        theme.styles[.body]!.family = "Georgia"
        theme.styles[.body]!.generic = .serif
        let (rtf, _) = RTFTestSupport.rtf(RTFTestSupport.markdown("x"), theme: theme.resolved())
        XCTAssertTrue(rtf.contains("{\\f0\\froman\\fprq2\\fcharset0 Georgia{\\*\\falt Times New Roman};}"), rtf)
    }

    // MARK: Styles follow the size category

    func testSizesAndLeadingFollowCategory() {
        let doc = RTFTestSupport.markdown("# Head\n\nBody text.", title: "T")
        let (xs, _) = RTFTestSupport.rtf(doc, theme: Theme.standard.resolved(category: .extraSmall))
        let (ax5, _) = RTFTestSupport.rtf(doc, theme: Theme.standard.resolved(category: .accessibilityExtraExtraExtraLarge))
        // Body 14 pt / leading round(22*14/17)=18 at xs; 53 pt / round(22*53/17)=69 at AX5.
        XCTAssertTrue(xs.contains("\\sa120\\sl360\\slmult0\\f0\\fs28\\cf1 Body text.\\par"), xs)
        XCTAssertTrue(ax5.contains("\\sa120\\sl1380\\slmult0\\f0\\fs106\\cf1 Body text.\\par"), ax5)
        // Heading 1 (headline, semibold → bold) with its outline level.
        XCTAssertTrue(xs.contains("\\pard\\plain\\outlinelevel0\\keepn\\sb240\\sa120\\sl360\\slmult0\\f0\\fs28\\cf1\\b Head\\par"), xs)
        // Title: noteTitle style, engraved.
        XCTAssertTrue(ax5.contains("\\fs106\\cf1\\b\\impr T\\par"), ax5)
    }

    func testBoldTextSettingMakesBodyBold() {
        let doc = RTFTestSupport.markdown("Body.")
        let (rtf, _) = RTFTestSupport.rtf(doc, theme: Theme.standard.resolved(boldText: true))
        XCTAssertTrue(rtf.contains("\\fs34\\cf1\\b Body.\\par"), rtf)
    }

    func testDateBadgeRightAlignedCaption() {
        let (rtf, _) = RTFTestSupport.rtf(RTFTestSupport.markdown("x"))
        // caption2 at Large: 11 pt, leading 13 pt.
        XCTAssertTrue(rtf.contains("\\pard\\plain\\qr\\sa240\\sl260\\slmult0\\f0\\fs22\\cf1\\cf4 29 November 2026\\par"), rtf)
        XCTAssertEqual(RTFEmitter.badgeDate(Date(timeIntervalSince1970: 0)), "1 January 1970")
    }

    // MARK: Note features (hand-made runs)

    func testNoteSpans() {
        var b = InlinesBuilder()
        b.append(.text("script"), in: .script)
        b.append(.text(" "))
        b.append(.text("ALERT"), in: .colorRole(.alert))
        b.append(.text(" "))
        b.append(.text("pressed"), in: .letterpress)
        b.push(.strikethrough)
        b.append(.text("gone"), in: .strong)
        b.pop()
        b.append(.text("*"), in: .marker)
        b.append(.rawHTML("<b>"))
        let doc = Document(metadata: DocumentMetadata(sourceFormat: .note), blocks: [Block(.paragraph(b.take()))])
        let (rtf, _) = RTFTestSupport.rtf(doc)
        XCTAssertTrue(rtf.contains("{\\f2 script} {\\cf2 ALERT} {\\impr pressed}{\\b\\strike gone}{\\cf4 *}\\par"), rtf)
        XCTAssertFalse(rtf.contains("<b>"))
        XCTAssertFalse(rtf.contains("\\info{\\title"), "no title without metadata title")
        XCTAssertFalse(rtf.contains("\\creatim"))
    }

    func testUnknownBlockWarnsAndWritesChildren() {
        let child = Block(.paragraph([InlineRun(.text("inside"))]))
        let doc = Document(metadata: DocumentMetadata(sourcePath: "u.md", sourceFormat: .gfm),
                           blocks: [Block(.unknown(typeName: "mystery", blocks: [child]), position: SourcePosition(line: 3, column: 1)),
                                    Block(.htmlBlock("<div>dropped</div>"))])
        let (rtf, diags) = RTFTestSupport.rtf(doc)
        XCTAssertTrue(rtf.contains(" inside\\par"), rtf)
        XCTAssertFalse(rtf.contains("dropped"))
        XCTAssertEqual(diags.map(\.description), ["u.md:3:1: warning: RTF: unknown block 'mystery' written as its children"])
    }

    func testFootnoteWrittenAtFirstReferenceOnly() {
        let (rtf, _) = RTFTestSupport.rtf(RTFTestSupport.markdown("A[^n] B[^n].\n\n[^n]: Note text.\n"))
        XCTAssertEqual(rtf.components(separatedBy: "{\\footnote").count - 1, 1)
        XCTAssertTrue(rtf.contains("A{\\super\\chftn}{\\footnote \n\\pard\\plain\\sa0\\sl360\\slmult0\\f0\\fs26\\cf1{\\super\\chftn} Note text.} B{\\super 1}.\\par"), rtf)
    }

    func testLinkFieldEscaping() {
        let (rtf, _) = RTFTestSupport.rtf(RTFTestSupport.markdown("[x](a\\\\b\"c)"))
        XCTAssertTrue(rtf.contains("{\\field{\\*\\fldinst{HYPERLINK \"a\\\\\\\\b\\\\\"c\"}}{\\fldrslt{\\cf3\\ul x}}}"), rtf)
    }

    func testNoteNumbersKeptThroughSeparateLists() {
        let item = { (n: Int) in ListItem(number: n, blocks: [Block(.paragraph([InlineRun(.text("i\(n)"))]))]) }
        let list = ListBlock(type: .ordered, start: 1, delimiter: .period, tight: true, items: [item(1), item(2), item(5)])
        let (rtf, _) = RTFTestSupport.rtf(Document(metadata: DocumentMetadata(sourceFormat: .note), blocks: [Block(.list(list))]))
        XCTAssertTrue(rtf.contains("\\levelstartat1"), rtf)
        XCTAssertTrue(rtf.contains("\\levelstartat5"), rtf)
        XCTAssertTrue(rtf.contains("\\ls2\\ilvl0\\fi-680\\li680\\tx680{\\listtext\\f0\\fs34 5.\\tab}i5\\par"), rtf)
        XCTAssertTrue(rtf.contains("\\ls1\\ilvl0\\fi-680\\li680\\tx680{\\listtext\\f0\\fs34 2.\\tab}i2\\par"), rtf)
        XCTAssertTrue(rtf.contains("{\\listtext\\f0\\fs34 5.\\tab}i5\\par"), rtf)
    }

    func testDeepListsStayWithinNineLevelsAndHalfTheWidth() {
        var block = Block(.paragraph([InlineRun(.text("deepest"))]))
        for _ in 0..<12 {
            block = Block(.list(ListBlock(type: .bullet, tight: true, items: [ListItem(blocks: [block])])))
        }
        let (rtf, _) = RTFTestSupport.rtf(Document(metadata: DocumentMetadata(sourceFormat: .gfm), blocks: [block]))
        XCTAssertFalse(rtf.contains("\\ilvl9"), "RTF has only nine list levels")
        XCTAssertTrue(rtf.contains("\\ilvl8"), rtf)
        XCTAssertTrue(rtf.contains("\\li4680\\tx4680{\\listtext\\f0\\fs34 \\u9642?\\tab}deepest\\par"), rtf)
        // Items that start with a nested list get their own marker paragraph first.
        XCTAssertEqual(rtf.components(separatedBy: "{\\listtext").count - 1, 12)
    }

    func testUnreferencedFootnoteWrittenAtEnd() {
        let doc = Document(metadata: DocumentMetadata(sourceFormat: .gfm), blocks: [
            Block(.footnoteDefinition(label: "z", blocks: [Block(.paragraph([InlineRun(.text("Orphan note."))]))])),
            Block(.paragraph([InlineRun(.text("Body."))])),
        ])
        let (rtf, _) = RTFTestSupport.rtf(doc)
        XCTAssertTrue(rtf.contains(" Body.\\par \n\\pard\\plain\\sa120\\sl440\\slmult0\\f0\\fs34\\cf1{\\super z} Orphan note.\\par"), rtf)
        XCTAssertFalse(rtf.contains("{\\footnote"))
    }

    /// A heading, a list and a footnote through the binary, twice (two processes, each with its
    /// own hash seed): the same bytes, and the body as written.
    func testListAndFootnoteBytesAcrossProcesses() throws {
        let md = Data("---\ntitle: t\ncreated: 2026-11-29T14:05:00Z\n---\n# A\n\n- b\n- c[^1]\n\n[^1]: d\n".utf8)
        let a = try NotepressBinary.run(["convert", "-t", "rtf", "-f", "gfm", "-"], stdin: md)
        let b = try NotepressBinary.run(["convert", "-t", "rtf", "-f", "gfm", "-"], stdin: md)
        XCTAssertEqual(a.status, 0, a.stderr)
        XCTAssertEqual(a.stdout, b.stdout)
        let body = [
            #"{\info{\title t}{\creatim\yr2026\mo11\dy29\hr14\min5}}"#,
            #"\paperw12240\paperh15840\margl1440\margr1440\margt1440\margb1440\ftnbj\ftnnar "#,
            #"\pard\plain\sa120\sl440\slmult0\f0\fs34\cf1\b\impr t\par "#,
            #"\pard\plain\qr\sa240\sl260\slmult0\f0\fs22\cf1\cf4 29 November 2026\par "#,
            #"\pard\plain\outlinelevel0\keepn\sb240\sa120\sl440\slmult0\f0\fs34\cf1\b A\par "#,
            #"\pard\plain\li680\sa0\sl440\slmult0\f0\fs34\cf1\ls1\ilvl0\fi-680\li680\tx680{\listtext\f0\fs34 \u8226?\tab}b\par "#,
            #"\pard\plain\li680\sa120\sl440\slmult0\f0\fs34\cf1\ls1\ilvl0\fi-680\li680\tx680{\listtext\f0\fs34 \u8226?\tab}c{\super\chftn}{\footnote "#,
            #"\pard\plain\sa0\sl360\slmult0\f0\fs26\cf1{\super\chftn} d}\par "#,
            "}", "",
        ].joined(separator: "\n")
        XCTAssertTrue(a.stdoutText.hasSuffix(body), a.stdoutText)
    }

    // MARK: Golden files

    func testGoldenFiles() throws {
        let dir = RTFTestSupport.goldenDirectory
        let cases = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".md") }.sorted()
        XCTAssertGreaterThanOrEqual(cases.count, 6, "golden cases missing in \(dir.path)")
        let actualDir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("rtf-golden-actual")
        try FileManager.default.createDirectory(at: actualDir, withIntermediateDirectories: true)
        for name in cases {
            let stem = String(name.dropLast(3))
            let source = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
            let (rtf, _) = RTFTestSupport.rtf(RTFTestSupport.markdown(source, title: stem))
            try rtf.write(to: actualDir.appendingPathComponent(stem + ".rtf"), atomically: true, encoding: .utf8)
            guard let expected = try? String(contentsOf: dir.appendingPathComponent(stem + ".rtf"), encoding: .utf8) else {
                XCTFail("missing golden \(stem).rtf (actual output in \(actualDir.path))")
                continue
            }
            XCTAssertEqual(rtf, expected, "golden \(stem).rtf differs (actual in \(actualDir.path))")
        }
    }
}
