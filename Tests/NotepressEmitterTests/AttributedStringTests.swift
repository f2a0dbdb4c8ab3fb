import Foundation
import Notepress
import NotepressRawHTML
import XCTest
import NotepressTestSupport

/// Issue 18: `Document.attributedString(theme:sizeCategory:)` and the `NotepressAttributes`
/// scope, on Linux through the custom scope (Apple's fonts and presentation intents are not
/// there to test).
final class AttributedStringTests: XCTestCase {
    typealias Scope = AttributeScopes.NotepressAttributes

    /// The inline attributes a run carries, as the AST's ``InlineAttributes``.
    static func flat(_ run: AttributedString.Runs.Run) -> InlineAttributes {
        var a = InlineAttributes()
        a.strong = run.strong ?? false
        a.emphasis = run.emphasis ?? false
        a.strikethrough = run.strikethrough ?? false
        a.script = run.script ?? false
        a.code = run.code ?? false
        a.marker = run.marker ?? false
        a.letterpress = run.letterpress ?? false
        a.link = run.hyperlink
        a.image = run.image
        a.tag = run.tag
        a.colorRole = run.colorRole
        return a
    }

    /// Every text run of every paragraph, heading and table cell, in order, is found in the
    /// attributed string with exactly its span attributes (``Inlines/attributes(ofRun:)``) and
    /// its text style (an inline text-style span's, else the block's).
    func assertRoundTrip(_ doc: Document, file: StaticString = #filePath, line: UInt = #line) {
        let attributed = doc.attributedString()
        let text = String(attributed.characters)
        var cursor = text.startIndex
        var checked = 0
        func check(_ inlines: Inlines, blockStyle: TextStyle) {
            for (i, run) in inlines.runs.enumerated() {
                guard case .text(let t) = run.content, !t.isEmpty else { continue }
                guard let found = text.range(of: t, range: cursor..<text.endIndex) else {
                    return XCTFail("\(t.debugDescription) not found after offset \(text.distance(from: text.startIndex, to: cursor))", file: file, line: line)
                }
                cursor = found.upperBound
                let lower = AttributedString.Index(found.lowerBound, within: attributed)!
                let upper = AttributedString.Index(found.upperBound, within: attributed)!
                var expected = inlines.attributes(ofRun: i)
                let style = expected.textStyle ?? blockStyle
                expected.textStyle = nil
                for r in attributed[lower..<upper].runs {
                    XCTAssertEqual(Self.flat(r), expected, "run \(t.debugDescription)", file: file, line: line)
                    XCTAssertEqual(r.textStyle, style, "run \(t.debugDescription)", file: file, line: line)
                }
                checked += 1
            }
        }
        let theme = Theme.default.resolved()
        func walk(_ blocks: [Block], role: ThemeRole) {
            for b in blocks {
                switch b.kind {
                case .paragraph(let c): check(c, blockStyle: theme.textStyle(for: role))
                case .heading(let level, let c): check(c, blockStyle: theme.textStyle(for: .heading(level)))
                case .blockQuote(let children): walk(children, role: .blockQuote)
                case .list(let l): for item in l.items { walk(item.blocks, role: role) }
                case .table(let t):
                    for cell in t.header { check(cell, blockStyle: theme.textStyle(for: .tableHeader)) }
                    for row in t.rows { for cell in row { check(cell, blockStyle: theme.textStyle(for: .tableCell)) } }
                case .footnoteDefinition(_, let children): walk(children, role: .footnote)
                case .alert(let a): walk(a.blocks, role: role)
                case .unknown(_, let children): walk(children, role: role)
                case .definitionList(let items):
                    for item in items {
                        check(item.term, blockStyle: theme.textStyle(for: role))
                        for d in item.definitions { walk(d, role: role) }
                    }
                case .codeBlock, .htmlBlock, .thematicBreak: break
                }
            }
        }
        walk(doc.blocks, role: .body)
        XCTAssertGreaterThan(checked, 10, file: file, line: line)
    }

    func testEveryRunCarriesTheASTsSpansInMarkdown() throws {
        let md = """
            # Title with *emphasis* and `code`

            Some **bold _and nested ~~struck~~ text_ here** then [a *link*](https://example.org "T"),
            ![an *image*](pic.png) and <b>raw</b> html and a footnote[^1] and www.example.com.

            > quoted **strong** line\\
            > after a hard break

            1. first *one*
               - inner **two**
            2. [x] done

            | head *a* | head b |
            |---|---|
            | cell **c** | `d` |

            > [!WARNING]
            > be *careful*

            [^1]: the *note* itself.
            """
        // Raw HTML is read into spans first (`<b>raw</b>` is strong text, issue #53).
        assertRoundTrip(RawHTMLReading.reading(try Notepress.parse(md, from: .gfm)))
    }

    func testEveryRunCarriesTheASTsSpansInNoteMarkup() throws {
        let note = """
            Shopping list for TODAY

            1. *milk* and _eggs_ and -old- ~fancy~ things
            2. ask *Bob _about_ it*
            just a plain line with snake_case_name
            """
        let doc = try Notepress.parse(note, from: .note)
        assertRoundTrip(doc)
        // ALL-CAPS words take the alert colour role.
        let a = doc.attributedString()
        let today = a.runs.first { String(a[$0.range].characters) == "TODAY" }
        XCTAssertEqual(today?.colorRole, .alert)
        let fancy = a.runs.first { String(a[$0.range].characters) == "fancy" }
        XCTAssertEqual(fancy?.script, true)
    }

    func testBlocksBecomeLinesWithTheirKindsAndLevels() throws {
        let md = """
            ---
            title: Groceries
            ---
            # Shop *now*

            1. **milk**
            2. [x] bread
               - rye

            > quoted

            ```
            let x = 1
            ```

            | a | b |
            |---|---|
            | 1 | 2 |

            line one\\
            line two
            """
        let a = try Notepress.parse(md, from: .gfm).attributedString()
        XCTAssertEqual(String(a.characters),
                       "Groceries\nShop now\n1. milk\n2. \u{2611} bread\n\t\u{2022} rye\nquoted\nlet x = 1\na\tb\n1\t2\nline one\u{2028}line two\n")
        func run(_ text: String) -> AttributedString.Runs.Run? { a.runs.first { String(a[$0.range].characters) == text } }
        XCTAssertEqual(run("Groceries\n")?.blockKind, .title)
        XCTAssertEqual(run("Groceries\n")?.letterpress, true)
        XCTAssertEqual(run("now")?.headingLevel, 1)
        XCTAssertEqual(run("now")?.textStyle, .title1)
        XCTAssertEqual(run("now")?.emphasis, true)
        XCTAssertEqual(run("now")?.blockKind, .heading)
        XCTAssertEqual(run("milk")?.listItem, Scope.ListItem(type: .ordered, number: 1, depth: 1))
        XCTAssertEqual(run("1. ")?.listMarker, true)
        XCTAssertEqual(run("2. \u{2611} ")?.listItem?.task, .checked)
        XCTAssertEqual(run("\t\u{2022} ")?.listItem, Scope.ListItem(type: .bullet, number: nil, depth: 2))
        XCTAssertEqual(run("quoted\n")?.quoteDepth, 1)
        XCTAssertEqual(run("let x = 1\n")?.blockKind, .codeBlock)
        XCTAssertEqual(run("let x = 1\n")?.code, true)
        XCTAssertEqual(run("let x = 1\n")?.textStyle, .footnote)
        XCTAssertEqual(run("a\tb\n")?.blockKind, .tableHeader)
        XCTAssertEqual(run("1\t2\n")?.blockKind, .tableCell)
        XCTAssertNil(run("milk")?.quoteDepth)
        XCTAssertNil(run("quoted\n")?.strong)
    }

    func testSizeCategoryScalesPointSizes() throws {
        let doc = try Notepress.parse("# Head\n\nbody\n", from: .gfm)
        func sizes(_ c: SizeCategory) -> [Double] { doc.attributedString(sizeCategory: c).runs.compactMap(\.pointSize) }
        // Apple's Dynamic Type table: title1 and body at Large, xSmall and AX5.
        XCTAssertEqual(sizes(.large), [28, 17])
        XCTAssertEqual(sizes(.extraSmall), [25, 14])
        XCTAssertEqual(sizes(.accessibilityExtraExtraExtraLarge), [58, 53])
    }

    func testDangerousLinkIsTextNotAHyperlink() throws {
        let a = try Notepress.parse("[bad](javascript:alert(1)) and [good](https://example.org)", from: .gfm).attributedString()
        let links = a.runs.compactMap { r in r.hyperlink.map { (String(a[r.range].characters), $0.destination) } }
        XCTAssertEqual(links.map(\.0), ["good"])
        XCTAssertEqual(links.map(\.1), ["https://example.org"])
        XCTAssertEqual(String(a.characters), "bad and good\n")
    }
}
