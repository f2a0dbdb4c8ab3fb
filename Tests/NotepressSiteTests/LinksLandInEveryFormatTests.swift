import Foundation
import XCTest
import NotepressTestSupport

/// Issue 31, items 1–6: every link lands, in every format, through the real binary and the real
/// reader (xmllint for TEI, LibreOffice for RTF bookmarks).
final class LinksLandInEveryFormatTests: XCTestCase {

    /// The files below `dir` whose name ends with `suffix`, by path relative to `dir`.
    func files(_ dir: URL, suffix: String) -> [String: URL] {
        var out: [String: URL] = [:]
        let e = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil)
        while let u = e?.nextObject() as? URL {
            if u.lastPathComponent.hasSuffix(suffix) { out[String(u.path.dropFirst(dir.path.count + 1))] = u }
        }
        return out
    }

    /// Every `ref/@target` of a TEI file that starts with `#`, and whether xmllint finds an
    /// element with that `xml:id`.
    func teiFragmentTargets(_ xml: URL) throws -> [(String, Bool)] {
        let (status, out) = try runTool("xmllint", ["--xpath", "//*[local-name()='ref']/@target", xml.path])
        XCTAssertEqual(status, 0, out)
        let targets = out.components(separatedBy: "target=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        return try targets.filter { $0.hasPrefix("#") }.map { t in
            let id = String(t.dropFirst())
            let (_, n) = try runTool("xmllint", ["--xpath", "count(//*[@xml:id='\(id)'])", xml.path])
            return (t, n.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
        }
    }

    // Item 1
    func testSingleFileTEILinkToDigitOrEmojiHeadingPointsAtItsXMLID() throws {
        let dir = try makeTempDir(self)
        let md = try writeTestFile("# 2024 plans\n\nSee [plans](#2024-plans) and [party](#section).\n\n## 🎉\n\nText.\n", "a.md", in: dir)
        let r = try NotepressBinary.run(["convert", md.path, "-t", "tei", "-o", dir.appendingPathComponent("a.xml").path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let targets = try teiFragmentTargets(dir.appendingPathComponent("a.xml"))
        XCTAssertEqual(targets.map(\.0), ["#h.2024-plans", "#section"])
        for (t, found) in targets { XCTAssertTrue(found, "no xml:id for \(t)") }
    }

    // Item 2
    func testBlockAnchorHasTEITargetAndListItemAnchorHasRTFBookmark() throws {
        let dir = try makeTempDir(self)
        let md = try writeTestFile("- first item ^first\n- second item\n\nA paragraph. ^para\n\nSee [one](#^first) and [two](#^para).\n", "b.md", in: dir)
        var r = try NotepressBinary.run(["convert", md.path, "--wikilinks", "-t", "tei", "-o", dir.appendingPathComponent("b.xml").path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let targets = try teiFragmentTargets(dir.appendingPathComponent("b.xml"))
        XCTAssertEqual(targets.map(\.0), ["#b.first", "#b.para"])
        for (t, found) in targets { XCTAssertTrue(found, "no xml:id for \(t)") }
        let rtf = dir.appendingPathComponent("b.rtf")
        r = try NotepressBinary.run(["convert", md.path, "--wikilinks", "-t", "rtf", "-o", rtf.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        try LibreOffice.soffice("fodt", [rtf], outDir: dir)
        let odf = try String(contentsOf: dir.appendingPathComponent("b.fodt"), encoding: .utf8)
        let bookmarks = Set(odf.components(separatedBy: "<text:bookmark text:name=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) })
        let links = odf.components(separatedBy: "xlink:href=\"#").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        XCTAssertEqual(links.count, 2, odf)
        for l in links { XCTAssertTrue(bookmarks.contains(l), "link #\(l) has no bookmark among \(bookmarks)") }
        // The list item's bookmark stands in the list item.
        let item = try XCTUnwrap(odf.components(separatedBy: "<text:list-item>").dropFirst().first?.components(separatedBy: "</text:list-item>").first)
        XCTAssertTrue(item.contains(#"<text:bookmark text:name="bk_first"/>"#), item)
    }

    // Item 3
    func testRTFBookmarksOfHyphenAndUnderscoreHeadingsDoNotCollide() throws {
        let dir = try makeTempDir(self)
        let md = try writeTestFile("# a-b\n\nOne.\n\n# a_b\n\nTwo. Back to [hyphen](#a-b) and [underscore](#a_b).\n", "c.md", in: dir)
        let rtf = dir.appendingPathComponent("c.rtf")
        let r = try NotepressBinary.run(["convert", md.path, "-t", "rtf", "-o", rtf.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        try LibreOffice.soffice("fodt", [rtf], outDir: dir)
        let odf = try String(contentsOf: dir.appendingPathComponent("c.fodt"), encoding: .utf8)
        // Each heading's bookmark, as LibreOffice read it (a renamed duplicate would show here).
        func bookmark(ofHeading text: String) -> String? {
            guard let r = odf.range(of: #"<text:h [^>]*><text:bookmark text:name="([^"]*)"/>(?:<text:span [^>]*>)?"# + text, options: .regularExpression) else { return nil }
            let s = odf[r]
            return s.components(separatedBy: "text:name=\"")[1].components(separatedBy: "\"")[0]
        }
        let hyphen = try XCTUnwrap(bookmark(ofHeading: "a-b"), odf)
        let underscore = try XCTUnwrap(bookmark(ofHeading: "a_b"), odf)
        XCTAssertNotEqual(hyphen, underscore)
        let links = odf.components(separatedBy: "xlink:href=\"#").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        XCTAssertEqual(links, [hyphen, underscore])
    }

    // Item 4
    func testFootnoteReferenceInHeadingStaysOutOfTitleAndTableOfContents() throws {
        let dir = try makeTempDir(self)
        let md = try writeTestFile("# Report[^1]\n\n## Costs[^2]\n\nText.\n\n[^1]: Draft.\n[^2]: Estimated.\n", "r.md", in: dir)
        let html = try NotepressBinary.run(["convert", md.path, "-t", "html", "--toc"]).stdoutText
        XCTAssertTrue(html.contains("<title>Report</title>"), html)
        XCTAssertTrue(html.contains(">Costs</a>"), html)
        XCTAssertFalse(html.contains("Costs2"), html)
        let json = try NotepressBinary.run(["convert", md.path, "-t", "json"]).stdoutText
        XCTAssertTrue(json.contains("\"title\": \"Report\","), json)
        let tei = try NotepressBinary.run(["convert", md.path, "-t", "tei", "--toc"]).stdoutText
        XCTAssertTrue(tei.contains("<title>Report</title>"), tei)
        XCTAssertFalse(tei.contains("Costs2"), tei)
        let rtf = try NotepressBinary.run(["convert", md.path, "-t", "rtf", "--toc"]).stdoutText
        XCTAssertFalse(rtf.contains("Report1") || rtf.contains("Costs2"), rtf)
    }

    // Item 5
    func testRewrittenPageLinkKeepsItsQueryString() throws {
        let dir = try makeTempDir(self)
        let input = dir.appendingPathComponent("in"), out = dir.appendingPathComponent("out")
        _ = try writeTestFile("See [the page](p.md?UI=MVC#h) and [top](p.md?x=1).\n", "a.md", in: input)
        _ = try writeTestFile("# H\n\nText.\n", "p.md", in: input)
        let r = try NotepressBinary.run(["convert", input.path, "-o", out.path, "-t", "html,tei"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let html = try String(contentsOf: try XCTUnwrap(files(out, suffix: "a.html").values.first), encoding: .utf8)
        XCTAssertTrue(html.contains(#"href="p.html?UI=MVC#h""#), html)
        XCTAssertTrue(html.contains(#"href="p.html?x=1""#), html)
        let tei = try String(contentsOf: try XCTUnwrap(files(out, suffix: "a.xml").values.first), encoding: .utf8)
        XCTAssertTrue(tei.contains(#"target="p.xml?UI=MVC#h""#), tei)
    }

    // Item 6
    func testLinkToAnOutputNameThatExistsIsNotReported() throws {
        let dir = try makeTempDir(self)
        let input = dir.appendingPathComponent("in"), out = dir.appendingPathComponent("out")
        _ = try writeTestFile("See [sub](sub/index.html) and [page](sub/page.html#part).\n", "a.md", in: input)
        _ = try writeTestFile("# Sub\n", "sub/README.md", in: input)
        _ = try writeTestFile("# Page\n\n## Part\n", "sub/page.md", in: input)
        let r = try NotepressBinary.run(["convert", input.path, "-o", out.path, "--strict-links"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(r.stderr.contains("no such file"), r.stderr)
        let html = try String(contentsOf: try XCTUnwrap(files(out, suffix: "a.html").values.first), encoding: .utf8)
        XCTAssertTrue(html.contains(#"href="sub/index.html""#), html)
        XCTAssertTrue(html.contains(#"href="sub/page.html#part""#), html)
    }
}

/// fuzz-site seed 1: a block id written on two paragraphs (`^blk2` twice) gave two
/// `xml:id="b.blk2"`, and the TEI output failed its own schema ("ID b.blk2 already defined").
final class DuplicateBlockAnchorTEITests: XCTestCase {
    func testTwoParagraphsWithOneBlockIDStayValidTEI() throws {
        let d = try makeTempDir(self)
        let note = d.appendingPathComponent("n.md")
        try Data("First ^blk2\n\nSecond ^blk2\n\n[to it](#^blk2)\n".utf8).write(to: note)
        let r = try NotepressBinary.run(["convert", note.path, "-t", "tei", "--wikilinks"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let xml = r.stdoutText
        XCTAssertEqual(xml.components(separatedBy: "xml:id=\"b.blk2\"").count - 1, 1, xml)
        let file = d.appendingPathComponent("n.xml")
        try r.stdout.write(to: file)
        let lint = try runTool("xmllint", ["--noout", file.path])
        XCTAssertEqual(lint.status, 0, lint.output)
    }
}
