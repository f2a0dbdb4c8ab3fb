import Foundation
import XCTest
import NotepressTestSupport
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
        // Issue 16: a family that exists or is mapped everywhere per role (the last of the theme's
        // list), with its RTF family class: no `-apple-system` (a CSS keyword), no Menlo.
        XCTAssertTrue(rtf.hasPrefix("{\\rtf1\\ansi\\ansicpg1252\\deff0\\uc1 \n{\\fonttbl{\\f0\\fswiss\\fprq2\\fcharset0 Arial{\\*\\falt Liberation Sans};}"
            + "{\\f1\\fmodern\\fprq1\\fcharset0 Courier New{\\*\\falt DejaVu Sans Mono};}{\\f2\\fscript\\fprq2\\fcharset0 Zapf Chancery{\\*\\falt Segoe Script};}"
            + "{\\f3\\fswiss\\fprq2\\fcharset0 Noto Sans CJK SC{\\*\\falt Microsoft YaHei};}}"), rtf)
        XCTAssertTrue(rtf.contains("{\\colortbl;\\red28\\green28\\blue30;\\red215\\green0\\blue21;"), rtf)
        XCTAssertTrue(rtf.contains("{\\info{\\title My \"note\" \\u233?}{\\creatim\\yr2026\\mo11\\dy29\\hr14\\min5}}"), rtf)
        XCTAssertTrue(rtf.hasSuffix("}\n"))
    }

    func testSerifThemeUsesRoman() {
        var theme = Theme.standard
        theme.styles[.body]!.family = "Charter"
        theme.styles[.body]!.fallbacks = ["Georgia", "Times New Roman"]
        theme.styles[.body]!.generic = .serif
        let (rtf, _) = RTFTestSupport.rtf(RTFTestSupport.markdown("x"), theme: theme.resolved())
        XCTAssertTrue(rtf.contains("{\\f0\\froman\\fprq2\\fcharset0 Times New Roman{\\*\\falt Georgia};}"), rtf)
    }

    // MARK: Styles follow the size category

    func testSizesAndLeadingFollowCategory() {
        let doc = RTFTestSupport.markdown("# Head\n\nBody text.", title: "T")
        let (xs, _) = RTFTestSupport.rtf(doc, theme: Theme.standard.resolved(category: .extraSmall))
        let (ax5, _) = RTFTestSupport.rtf(doc, theme: Theme.standard.resolved(category: .accessibilityExtraExtraExtraLarge))
        // Body 14 pt / leading 19 pt (HIG, xSmall) at xs; 53 pt / 62 pt at AX5 — the same size and
        // weight for complex scripts (\afs) as for Latin (\fs), the East Asian font (\dbch\af3).
        XCTAssertTrue(xs.contains("\\pard\\plain\\ltrpar\\sa120\\sl380\\slmult0\\dbch\\af3\\rtlch\\af0\\afs28\\ltrch\\f0\\fs28\\cf1 Body text.\\par"), xs)
        XCTAssertTrue(ax5.contains("\\pard\\plain\\ltrpar\\sa120\\sl1240\\slmult0\\dbch\\af3\\rtlch\\af0\\afs106\\ltrch\\f0\\fs106\\cf1 Body text.\\par"), ax5)
        // Heading 1: title1 (25 pt / 31 at xSmall, 58 / 68 at AX5; regular in Apple's table, which
        // Theme.standard is; the shipped themes make it bold), with its outline level.
        XCTAssertTrue(xs.contains("\\pard\\plain\\ltrpar\\outlinelevel0\\keepn\\sb240\\sa120\\sl620\\slmult0\\dbch\\af3\\rtlch\\af0\\afs50\\ltrch\\f0\\fs50\\cf1 Head\\par"), xs)
        XCTAssertTrue(ax5.contains("\\outlinelevel0\\keepn\\sb240\\sa120\\sl1360\\slmult0\\dbch\\af3\\rtlch\\af0\\afs116\\ltrch\\f0\\fs116\\cf1 Head\\par"), ax5)
        // Title: noteTitle style, engraved.
        XCTAssertTrue(ax5.contains("\\rtlch\\af0\\afs106\\ab\\ltrch\\f0\\fs106\\b\\cf1\\impr T\\par"), ax5)
    }

    func testBoldTextSettingMakesBodyBold() {
        let doc = RTFTestSupport.markdown("Body.")
        let (rtf, _) = RTFTestSupport.rtf(doc, theme: Theme.standard.resolved(boldText: true))
        XCTAssertTrue(rtf.contains("\\rtlch\\af0\\afs34\\ab\\ltrch\\f0\\fs34\\b\\cf1 Body.\\par"), rtf)
    }

    /// Issue 16: the badge is a circle with the date inside that the text wraps around (an
    /// ellipse shape with tight wrapping along a polygon on its outline, a borderless text box
    /// over it), anchored in a one-point paragraph; a right-aligned date for readers without
    /// shapes.
    func testDateBadgeIsARoundShapeTheTextWrapsAround() {
        let (rtf, _) = RTFTestSupport.rtf(RTFTestSupport.markdown("x"))
        // caption2 at Large: 11 pt, leading 13 pt; diameter six lines: 78 pt = 1560 twips, at the
        // right edge of the 9360-twip column.
        XCTAssertTrue(rtf.contains("\\pard\\plain\\ltrpar\\sl-20\\slmult0\\fs2{\\shp{\\*\\shpinst\\shpleft7800\\shptop0\\shpright9360\\shpbottom1560"
            + "\\shpfhdr0\\shpbxcolumn\\shpbxignore\\shpbypara\\shpbyignore\\shpwr4\\shpwrk0\\shpfblwtxt0\\shpz0\\shplid1025"
            + "{\\sp{\\sn shapeType}{\\sv 3}}{\\sp{\\sn fFilled}{\\sv 0}}{\\sp{\\sn lineColor}{\\sv 7367788}}"), rtf)
        XCTAssertTrue(rtf.contains("{\\sp{\\sn pWrapPolygonVertices}{\\sv 8;25;(21600,10800);(21232,13595);"), rtf)
        // The text box: the day (17.6 pt, bold), the month and the year (11 pt, secondary colour).
        XCTAssertTrue(rtf.contains("\\shpwr3\\shpwrk0\\shpfblwtxt0\\shpz1\\shplid1026{\\sp{\\sn shapeType}{\\sv 202}}"), rtf)
        XCTAssertTrue(rtf.contains("{\\shptxt\\pard\\plain\\ltrpar\\qc\\sl-352\\slmult0\\rtlch\\af0\\afs35\\ab\\ltrch\\f0\\fs35\\b\\cf1 29\\par"
            + "\\pard\\plain\\ltrpar\\qc\\sl-260\\slmult0\\rtlch\\af0\\afs22\\ltrch\\f0\\fs22\\cf4 Nov\\par"
            + "\\pard\\plain\\ltrpar\\qc\\sl-260\\slmult0\\rtlch\\af0\\afs22\\ltrch\\f0\\fs22\\cf4 2026\\par}"), rtf)
        XCTAssertTrue(rtf.contains("{\\shprslt\\pard\\plain\\ltrpar\\qr\\sl260\\slmult0\\dbch\\af3\\rtlch\\af0\\afs22\\ltrch\\f0\\fs22\\cf1\\cf4 29 November 2026}}\\par"), rtf)
        XCTAssertEqual(RTFEmitter.badgeDate(Date(timeIntervalSince1970: 0)), "1 January 1970")
        // At AX5 (40 pt, leading 48: 288 pt) the circle is capped at a quarter of the text width
        // (2340 twips) and its text scaled with it.
        let (ax5, _) = RTFTestSupport.rtf(RTFTestSupport.markdown("x"), theme: Theme.standard.resolved(category: .accessibilityExtraExtraExtraLarge))
        XCTAssertTrue(ax5.contains("\\shpleft7020\\shptop0\\shpright9360\\shpbottom2340"), ax5)
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
        // Complex-script properties beside the Latin ones: bold is \ab and \b; script is the
        // script font for Latin and italic for Hebrew or Arabic (no cursive face has them).
        XCTAssertTrue(rtf.contains("{\\rtlch\\ai\\ltrch\\f2 script} {\\cf2 ALERT} {\\impr pressed}{\\rtlch\\ab\\ltrch\\b\\strike gone}{\\cf4 *}\\par"), rtf)
        XCTAssertFalse(rtf.contains("<b>"))
        XCTAssertFalse(rtf.contains("\\info{\\title"), "no title without metadata title")
        XCTAssertFalse(rtf.contains("\\creatim"))
    }

    func testUnknownBlockWarnsAndWritesChildren() {
        let child = Block(.paragraph([InlineRun(.text("inside"))]))
        let doc = Document(metadata: DocumentMetadata(sourcePath: "u.md", sourceFormat: .gfm),
                           blocks: [Block(.unknown(typeName: "mystery", blocks: [child]), position: SourcePosition(line: 3, column: 1)),
                                    Block(.htmlBlock("<div>read <b>too</b></div>"))])
        let (rtf, diags) = RTFTestSupport.rtf(doc)
        XCTAssertTrue(rtf.contains(" inside\\par"), rtf)
        // An HTML block's text is read (issue #53), no longer dropped.
        XCTAssertTrue(rtf.contains("read {\\rtlch\\ab\\ltrch\\b too}"), rtf)
        XCTAssertEqual(diags.map(\.description), ["u.md:3:1: warning: RTF: unknown block 'mystery' written as its children"])
    }

    func testFootnoteWrittenAtFirstReferenceOnly() {
        let (rtf, _) = RTFTestSupport.rtf(RTFTestSupport.markdown("A[^n] B[^n].\n\n[^n]: Note text.\n"))
        XCTAssertEqual(rtf.components(separatedBy: "{\\footnote").count - 1, 1)
        XCTAssertTrue(rtf.contains("A{\\super\\chftn}{\\footnote \n\\pard\\plain\\ltrpar\\sa0\\sl360\\slmult0\\dbch\\af3\\rtlch\\af0\\afs26\\ltrch\\f0\\fs26\\cf1"
            + "{\\super\\chftn} Note text.} B{\\super 1}.\\par"), rtf)
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
        XCTAssertTrue(rtf.contains("\\ls2\\ilvl0\\fi-680\\li680\\tx680{\\listtext\\pard\\plain\\rtlch\\af0\\afs34\\ab\\ltrch\\f0\\fs34\\b\\cf1 5.\\tab}i5\\par"), rtf)
        XCTAssertTrue(rtf.contains("\\ls1\\ilvl0\\fi-680\\li680\\tx680{\\listtext\\pard\\plain\\rtlch\\af0\\afs34\\ab\\ltrch\\f0\\fs34\\b\\cf1 2.\\tab}i2\\par"), rtf)
    }

    func testDeepListsStayWithinNineLevelsAndHalfTheWidth() {
        var block = Block(.paragraph([InlineRun(.text("deepest"))]))
        for _ in 0..<12 {
            block = Block(.list(ListBlock(type: .bullet, tight: true, items: [ListItem(blocks: [block])])))
        }
        let (rtf, _) = RTFTestSupport.rtf(Document(metadata: DocumentMetadata(sourceFormat: .gfm), blocks: [block]))
        XCTAssertFalse(rtf.contains("\\ilvl9"), "RTF has only nine list levels")
        XCTAssertTrue(rtf.contains("\\ilvl8"), rtf)
        XCTAssertTrue(rtf.contains("\\li4680\\tx4680{\\listtext\\pard\\plain\\rtlch\\af0\\afs34\\ltrch\\f0\\fs34\\cf1 \\u9642?\\tab}deepest\\par"), rtf)
        // Items that start with a nested list get their own marker paragraph first.
        XCTAssertEqual(rtf.components(separatedBy: "{\\listtext").count - 1, 12)
    }

    func testUnreferencedFootnoteWrittenAtEnd() {
        let doc = Document(metadata: DocumentMetadata(sourceFormat: .gfm), blocks: [
            Block(.footnoteDefinition(label: "z", blocks: [Block(.paragraph([InlineRun(.text("Orphan note."))]))])),
            Block(.paragraph([InlineRun(.text("Body."))])),
        ])
        let (rtf, _) = RTFTestSupport.rtf(doc)
        XCTAssertTrue(rtf.contains(" Body.\\par \n\\pard\\plain\\ltrpar\\sa120\\sl440\\slmult0\\dbch\\af3\\rtlch\\af0\\afs34\\ltrch\\f0\\fs34\\cf1{\\super z} Orphan note.\\par"), rtf)
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
        let head = [
            #"{\info{\title t}{\creatim\yr2026\mo11\dy29\hr14\min5}}"#,
            #"\paperw12240\paperh15840\margl1440\margr1440\margt1440\margb1440\ftnbj\ftnnar "#,
            #"\pard\plain\ltrpar\sa120\sl440\slmult0\dbch\af3\rtlch\af0\afs34\ab\ltrch\f0\fs34\b\cf1\impr t\par "#,
            #"\pard\plain\ltrpar\sl-20\slmult0\fs2{\shp{\*\shpinst\shpleft7800"#,
        ].joined(separator: "\n")
        XCTAssertTrue(a.stdoutText.contains(head), a.stdoutText)
        let body = [
            #" 29 November 2026}}\par "#,
            #"\pard\plain\ltrpar\outlinelevel0\keepn\sb240\sa120\sl680\slmult0\dbch\af3\rtlch\af0\afs56\ab\ltrch\f0\fs56\b\cf1{\*\bkmkstart id_a}{\*\bkmkend id_a}A\par "#,
            #"\pard\plain\ltrpar\li680\sa0\sl440\slmult0\dbch\af3\rtlch\af0\afs34\ltrch\f0\fs34\cf1\ls1\ilvl0\fi-680\li680\tx680{\listtext\pard\plain\rtlch\af0\afs34\ltrch\f0\fs34\cf1 \u8226?\tab}b\par "#,
            #"\pard\plain\ltrpar\li680\sa120\sl440\slmult0\dbch\af3\rtlch\af0\afs34\ltrch\f0\fs34\cf1\ls1\ilvl0\fi-680\li680\tx680{\listtext\pard\plain\rtlch\af0\afs34\ltrch\f0\fs34\cf1 \u8226?\tab}c{\super\chftn}{\footnote "#,
            #"\pard\plain\ltrpar\sa0\sl360\slmult0\dbch\af3\rtlch\af0\afs26\ltrch\f0\fs26\cf1{\super\chftn} d}\par "#,
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
