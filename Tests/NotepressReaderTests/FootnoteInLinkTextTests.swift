import Foundation
import XCTest
import NotepressTestSupport

/// Issue 44 item 9: a footnote reference inside link text, `[a [^b] c](https://example.com)`,
/// gave an `<a>` nested in an `<a>` (cmark-gfm#249), which browsers split. The reference now
/// follows the link (the link keeps its text), so no format nests a link: HTML, RTF (the
/// footnote outside the HYPERLINK field), TEI (the note after `</ref>`), ANSI (after the OSC 8
/// link), man (after `.UE`) and JSON (after the link, not among its children).
final class FootnoteInLinkTextTests: XCTestCase {
    static let input = "[a [^b] c](https://example.com)\n\n[^b]: note\n"

    func convert(_ text: String, _ args: [String]) throws -> String {
        let dir = try makeTempDir(self)
        let path = try writeTestFile(text, "x.md", in: dir).path
        let r = try NotepressBinary.run(["convert"] + args + [path], currentDirectory: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.stdoutText
    }

    /// The deepest nesting of `<a` … `</a>` in `html`.
    static func anchorDepth(_ html: String) -> Int {
        var depth = 0, most = 0
        var rest = Substring(html)
        while true {
            let open = rest.range(of: "<a "), close = rest.range(of: "</a>")
            if let open, close == nil || open.lowerBound < close!.lowerBound {
                depth += 1
                most = max(most, depth)
                rest = rest[open.upperBound...]
            } else if let close {
                depth -= 1
                rest = rest[close.upperBound...]
            } else {
                return most
            }
        }
    }

    func testAFootnoteReferenceInLinkTextFollowsTheLinkInHTML() throws {
        let html = try convert(Self.input, ["-t", "html", "--fragment"])
        XCTAssertTrue(html.hasPrefix("<p><a href=\"https://example.com\">a  c</a><sup class=\"footnote-ref\"><a href=\"#fn-b\" id=\"fnref-b\" data-footnote-ref>1</a></sup></p>\n"),
                      html)
        XCTAssertEqual(Self.anchorDepth(html), 1, html)
        // Inside emphasis, at the start, as the whole text, twice, and with an image in the link.
        let more = """
            *[x [^b] y](https://e.org/1)* [[^b] z](https://e.org/2) [[^c]](https://e.org/3) [p [^b] q [^c]](https://e.org/4) [![i](i.png) [^c]](https://e.org/5)

            [^b]: note b
            [^c]: note c

            """
        let page = try convert(more, ["-t", "html", "--fragment"])
        XCTAssertEqual(Self.anchorDepth(page), 1, page)
        for expected in [
            "<em><a href=\"https://e.org/1\">x  y</a><sup class=\"footnote-ref\"><a href=\"#fn-b\" id=\"fnref-b\" data-footnote-ref>1</a></sup></em>",
            "<a href=\"https://e.org/2\"> z</a><sup class=\"footnote-ref\"><a href=\"#fn-b\" id=\"fnref-b-2\" data-footnote-ref>1</a></sup>",
            "<a href=\"https://e.org/3\"></a><sup class=\"footnote-ref\"><a href=\"#fn-c\" id=\"fnref-c\" data-footnote-ref>2</a></sup>",
            "<a href=\"https://e.org/4\">p  q </a><sup class=\"footnote-ref\"><a href=\"#fn-b\" id=\"fnref-b-3\" data-footnote-ref>1</a></sup><sup class=\"footnote-ref\"><a href=\"#fn-c\" id=\"fnref-c-2\" data-footnote-ref>2</a></sup>",
            "<a href=\"https://e.org/5\"><img src=\"i.png\" alt=\"i\" /> </a><sup class=\"footnote-ref\"><a href=\"#fn-c\" id=\"fnref-c-3\" data-footnote-ref>2</a></sup>",
        ] {
            XCTAssertTrue(page.contains(expected), "missing \(expected) in\n\(page)")
        }
    }

    /// The balanced `{…}` group of RTF that starts at `start`.
    static func group(_ rtf: String, from start: String.Index) -> Substring {
        var depth = 0
        var i = start
        while i < rtf.endIndex {
            if rtf[i] == "\\" { i = rtf.index(i, offsetBy: 2, limitedBy: rtf.endIndex) ?? rtf.endIndex; continue }
            if rtf[i] == "{" { depth += 1 }
            if rtf[i] == "}" { depth -= 1; if depth == 0 { return rtf[start...i] } }
            i = rtf.index(after: i)
        }
        return rtf[start...]
    }

    func testNoOtherFormatPutsTheFootnoteInsideTheLink() throws {
        // RTF: the footnote comes after the HYPERLINK field, not in its result.
        let rtf = try convert(Self.input, ["-t", "rtf"])
        let field = try XCTUnwrap(rtf.range(of: "{\\field{\\*\\fldinst{HYPERLINK \"https://example.com\"}}"), rtf)
        let whole = Self.group(rtf, from: field.lowerBound)
        XCTAssertFalse(whole.contains("\\chftn") || whole.contains("\\footnote"), String(whole))
        XCTAssertTrue(rtf[whole.endIndex...].hasPrefix("{\\super\\chftn}{\\footnote "), String(rtf[whole.endIndex...].prefix(60)))
        // TEI: the note follows </ref>.
        let tei = try convert(Self.input, ["-t", "tei"])
        XCTAssertTrue(tei.contains("<p><ref target=\"https://example.com\">a  c</ref><note place=\"foot\" n=\"1\""), tei)
        // ANSI with OSC 8 hyperlinks: the mark follows the link's closing sequence.
        let ansi = try convert(Self.input, ["-t", "ansi", "--hyperlinks", "always"])
        let open = try XCTUnwrap(ansi.range(of: "\u{1B}]8;;https://example.com\u{1B}\\"), ansi)
        let close = try XCTUnwrap(ansi.range(of: "\u{1B}]8;;\u{1B}\\", range: open.upperBound..<ansi.endIndex), ansi)
        XCTAssertFalse(ansi[open.upperBound..<close.lowerBound].contains("[1]"), ansi)
        XCTAssertTrue(ansi[close.upperBound...].contains("[1]"), ansi)
        // man: the mark after .UE.
        let man = try convert(Self.input, ["-t", "man"])
        XCTAssertTrue(man.contains(".UR https://example.\\:com\na c\n.UE \\c\n[1]\n"), man)
        // JSON: the reference is the link's sibling, not its child.
        let json = try convert(Self.input, ["-t", "json"])
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let paragraph = try XCTUnwrap((object["children"] as? [[String: Any]])?.first)
        let inlines = try XCTUnwrap(paragraph["inlines"] as? [[String: Any]])
        XCTAssertEqual(inlines.count, 2, json)
        XCTAssertEqual(inlines.first?["kind"] as? String, "link")
        XCTAssertEqual((inlines.first?["children"] as? [[String: Any]])?.compactMap { $0["text"] as? String }, ["a  c"])
        XCTAssertEqual(inlines.last?["footnote_reference"] as? String, "b")
    }
}
