import Foundation
import Notepress
import NotepressAST
import NotepressReaders
import XCTest
import NotepressTestSupport

/// Issue 2: the loader's checks and the `convert` command on good and bad input.
final class DocumentLoaderTests: XCTestCase {
    func testInvalidUTF8IsRejectedWithLineAndColumn() {
        let data = Data("ok line\nbad \u{E9}".utf8.dropLast(2) + [0xC3, 0x28])  // "bad " then an invalid pair
        XCTAssertThrowsError(try DocumentLoader().load(data: data, path: "x.note", modified: nil)) { error in
            let e = error as! NotepressError
            XCTAssertEqual(e.position, SourcePosition(line: 2, column: 5))
            XCTAssertTrue(e.description.hasPrefix("x.note:2:5: error: invalid UTF-8 (byte 0xC3)"), e.description)
        }
    }

    func testOverlongAndSurrogateEncodingsAreInvalid() {
        for bad: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
            XCTAssertThrowsError(try DocumentLoader().load(data: Data(bad), path: "b.md", modified: nil), "\(bad)")
        }
        XCTAssertNoThrow(try DocumentLoader().load(data: Data("é中😀".utf8), path: "g.md", modified: nil))
    }

    func testNULByteIsRejected() {
        XCTAssertThrowsError(try DocumentLoader().load(data: Data([0x61, 0x0A, 0x62, 0x00]), path: "n.md", modified: nil)) { error in
            XCTAssertEqual((error as! NotepressError).position, SourcePosition(line: 2, column: 2))
            XCTAssertTrue("\(error)".contains("NUL byte"))
        }
    }

    func testFormatFromExtension() {
        XCTAssertEqual(DocumentLoader.format(forPath: "a/b.note"), .note)
        XCTAssertEqual(DocumentLoader.format(forPath: "b.TXT"), .note)
        XCTAssertEqual(DocumentLoader.format(forPath: "b.md"), .gfm)
        XCTAssertEqual(DocumentLoader.format(forPath: "b.markdown"), .gfm)
        XCTAssertNil(DocumentLoader.format(forPath: "b.png"))
    }

    func testTitleFallsBackToStemAndDateToClampedModificationTime() throws {
        let mtime = Date(timeIntervalSince1970: 2_000_000_000)
        let sde = Date(timeIntervalSince1970: 1_700_000_000)
        let r = try DocumentLoader(sourceDateEpoch: sde).load(data: Data("*hi*".utf8), path: "dir/My note.note", modified: mtime)
        XCTAssertEqual(r.document.metadata.title, "My note")
        XCTAssertEqual(r.document.metadata.created, sde, "SOURCE_DATE_EPOCH clamps a later file time")
        let older = Date(timeIntervalSince1970: 1_000_000_000)
        let r2 = try DocumentLoader(sourceDateEpoch: sde).load(data: Data("x".utf8), path: "a.note", modified: older)
        XCTAssertEqual(r2.document.metadata.created, older)
    }

    func testFrontMatterFillsMetadataForMarkdownAndNotes() throws {
        let text = "---\ntitle: Trip\ncreated: 2024-03-14T09:30:00Z\ntags: [a, b]\nsection: 7\n---\n# Heading\n"
        let r = try DocumentLoader().load(data: Data(text.utf8), path: "t.md", modified: nil)
        XCTAssertEqual(r.document.metadata.title, "Trip")
        XCTAssertEqual(r.document.metadata.created, Date(timeIntervalSince1970: 1_710_408_600))
        XCTAssertEqual(r.document.metadata.tags, ["a", "b"])
        XCTAssertEqual(r.document.metadata.fields["section"], "7")
        guard case .heading(1, _)? = r.document.blocks.first?.kind else { return XCTFail("\(r.document.blocks)") }
        XCTAssertEqual(r.document.blocks.first?.position, SourcePosition(line: 7, column: 1), "positions are file lines")
    }

    func testLeadingRuleInMarkdownThatIsNotYAMLStaysMarkdown() throws {
        let text = "---\n: : not yaml [\n---\n"
        let r = try DocumentLoader().load(data: Data(text.utf8), path: "t.md", modified: nil)
        guard case .thematicBreak? = r.document.blocks.first?.kind else { return XCTFail("\(r.document.blocks)") }
    }

    func testBadFrontMatterInANoteIsAnErrorWithItsLine() {
        let text = "---\ntitle: ok\ncreated: [unclosed\n---\nbody\n"
        XCTAssertThrowsError(try DocumentLoader().load(data: Data(text.utf8), path: "bad.note", modified: nil)) { error in
            let e = error as! NotepressError
            XCTAssertEqual(e.file, "bad.note")
            XCTAssertNotNil(e.position)
            XCTAssertGreaterThanOrEqual(e.position?.line ?? 0, 3)
        }
    }

    func testByteOrderMarkIsDropped() throws {
        let r = try DocumentLoader().load(data: Data([0xEF, 0xBB, 0xBF] + Array("# T\n".utf8)), path: "b.md", modified: nil)
        guard case .heading(1, let c)? = r.document.blocks.first?.kind else { return XCTFail() }
        XCTAssertEqual(c.plainText, "T")
    }

    func testDeepNestingIsFlattenedWithAWarning() {
        let md = String(repeating: "> ", count: 500) + "deep\n"
        let r = MarkdownReader().parse(md)
        var maxDepth = 0
        r.document.forEachBlock { _, d in maxDepth = max(maxDepth, d) }
        XCTAssertEqual(maxDepth, ASTLimits.maxNestingDepth, "quotes beyond the limit are flattened")
        XCTAssertEqual(r.diagnostics.count, 1)
        XCTAssertTrue(r.diagnostics[0].message.contains("flattened"))
        XCTAssertTrue(HTMLWriterTestsSupport.fragment(r.document).contains("<p>deep</p>"))
    }
}

enum HTMLWriterTestsSupport {
    static func fragment(_ d: Document) -> String {
        var diags: [Diagnostic] = []
        var o = ConversionOptions()
        o.fragment = true
        return String(decoding: try! HTMLWriter().write(d, options: o, diagnostics: &diags), as: UTF8.self)
    }
}

final class ConvertCommandTests: XCTestCase {
    func testFolderWithBadFilesConvertsTheRestAndExitsOne() throws {
        let dir = try makeTempDir(self)
        let src = dir.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: src.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try "# Good\n".write(to: src.appendingPathComponent("good.md"), atomically: true, encoding: .utf8)
        try "*fine* note".write(to: src.appendingPathComponent("sub/fine.note"), atomically: true, encoding: .utf8)
        try Data([0x61, 0xFF, 0x62]).write(to: src.appendingPathComponent("latin1.md"))
        try Data([0x61, 0x00]).write(to: src.appendingPathComponent("binary.txt"))
        try Data([0x89, 0x50]).write(to: src.appendingPathComponent("picture.png"))
        try FileManager.default.createSymbolicLink(atPath: src.appendingPathComponent("sub/loop").path, withDestinationPath: src.path)
        let out = dir.appendingPathComponent("out")
        let r = try NotepressBinary.run(["convert", src.path, "-o", out.path])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("good.html").path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("sub/fine.html").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent("latin1.html").path))
        XCTAssertTrue(r.stderr.contains("latin1.md:1:2: error: invalid UTF-8"), r.stderr)
        XCTAssertTrue(r.stderr.contains("binary.txt:1:2: error:") && r.stderr.contains("NUL byte"), r.stderr)
        XCTAssertTrue(r.stderr.contains("sub/loop: warning: folder loop: leads back to "), r.stderr)
        XCTAssertTrue(r.stderr.contains("converted 2,") && r.stderr.contains("skipped 1 (unknown kind), failed 2"), r.stderr)
    }

    /// Outputs without typography (fragment, json, man, tei) skip loading the theme, but a theme
    /// the user names is still loaded and checked, whatever the output.
    func testThemeIsCheckedWhenGivenEvenIfTheOutputDoesNotUseIt() throws {
        let dir = try makeTempDir(self)
        let f = dir.appendingPathComponent("a.md")
        try "# A\n\n*b*\n".write(to: f, atomically: true, encoding: .utf8)
        for t in ["json", "man", "html"] {
            let bad = try NotepressBinary.run(["convert", f.path, "-t", t, "--fragment", "--theme", "no-such-theme"])
            XCTAssertEqual(bad.status, 2, "\(t): \(bad.stderr)")
            XCTAssertTrue(bad.stderr.contains("no theme named 'no-such-theme'"), bad.stderr)
            let plain = try NotepressBinary.run(["convert", f.path, "-t", t, "--fragment"])
            let themed = try NotepressBinary.run(["convert", f.path, "-t", t, "--fragment", "--theme", "reading"])
            XCTAssertEqual(plain.status, 0, plain.stderr)
            XCTAssertFalse(plain.stdout.isEmpty)
            XCTAssertEqual(plain.stdout, themed.stdout, "\(t) output does not depend on the theme")
        }
        // A page does use it.
        let page = try NotepressBinary.run(["convert", f.path, "-t", "html"])
        let readingPage = try NotepressBinary.run(["convert", f.path, "-t", "html", "--theme", "reading"])
        XCTAssertNotEqual(page.stdout, readingPage.stdout)
    }

    func testOutputThatIsTheInputIsRefused() throws {
        let dir = try makeTempDir(self)
        let f = dir.appendingPathComponent("same.html")
        try "# keep me\n".write(to: f, atomically: true, encoding: .utf8)
        let r = try NotepressBinary.run(["convert", "-f", "gfm", f.path, "-o", f.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("refusing to overwrite"), r.stderr)
        XCTAssertEqual(try String(contentsOf: f, encoding: .utf8), "# keep me\n")
        // An output folder inside the input folder is refused too.
        let r2 = try NotepressBinary.run(["convert", dir.path, "-o", dir.appendingPathComponent("out").path])
        XCTAssertEqual(r2.status, 2)
        XCTAssertTrue(r2.stderr.contains("inside the input folder"), r2.stderr)
    }

    func testMissingAndDirectoryInputs() throws {
        let r = try NotepressBinary.run(["convert", "/nonexistent/x.md"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("/nonexistent/x.md: error: no such file"), r.stderr)
        let dir = try makeTempDir(self)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("d.md"), withIntermediateDirectories: true)
        let r2 = try NotepressBinary.run(["convert", "-t", "json", dir.appendingPathComponent("d.md").path, dir.appendingPathComponent("x.md").path, "-o", dir.appendingPathComponent("o").path])
        XCTAssertEqual(r2.status, 1, r2.stderr)
    }

    func testUsageErrorsExitTwo() throws {
        XCTAssertEqual(try NotepressBinary.run(["convert", "--bogus", "x"]).status, 2)
        XCTAssertEqual(try NotepressBinary.run(["convert", "-t", "pptx", "x.md"]).status, 2)
        XCTAssertEqual(try NotepressBinary.run(["convert", "--size-category", "huge", "x.md"]).status, 2)
        let help = try NotepressBinary.run(["convert", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdoutText.contains("--keep-markers"))
    }

    func testStdinToStdoutFragmentEqualsCmarkOutput() throws {
        let r = try NotepressBinary.run(["convert", "--fragment", "-"], stdin: Data("Hello *world*\n\n- [x] done\n".utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdoutText, "<p>Hello <em>world</em></p>\n<ul>\n<li><input type=\"checkbox\" checked=\"\" disabled=\"\" /> done</li>\n</ul>\n")
    }

    func testSafeByDefaultAndUnsafeOnRequest() throws {
        let md = "<script>alert(1)</script>\n\n[x](javascript:alert(1)) <b>hi</b>\n"
        let safe = try NotepressBinary.run(["convert", "--fragment", "-"], stdin: Data(md.utf8)).stdoutText
        XCTAssertFalse(safe.contains("<script"))
        XCTAssertFalse(safe.contains("javascript:"))
        XCTAssertTrue(safe.contains("<a href=\"\">x</a>"), safe)
        let unsafe = try NotepressBinary.run(["convert", "--fragment", "--unsafe", "-"], stdin: Data(md.utf8)).stdoutText
        XCTAssertTrue(unsafe.contains("&lt;script>alert(1)&lt;/script>"), "tagfilter still applies: \(unsafe)")
        XCTAssertTrue(unsafe.contains("<b>hi</b>"))
        XCTAssertTrue(unsafe.contains("href=\"javascript:alert(1)\""))
    }

    func testGFMTildeIsStrikethroughButNoteTildeIsScript() throws {
        let md = try NotepressBinary.run(["convert", "--fragment", "-f", "gfm", "-"], stdin: Data("~one~ ~~two~~\n".utf8))
        XCTAssertEqual(md.stdoutText, "<p><del>one</del> <del>two</del></p>\n")
        let note = try NotepressBinary.run(["convert", "--fragment", "-f", "note", "-"], stdin: Data("~one~\n".utf8))
        XCTAssertEqual(note.stdoutText, "<p><span class=\"script\">one</span></p>\n")
    }

    func testJSONDumpShowsTheAST() throws {
        let r = try NotepressBinary.run(["convert", "-t", "json", "-f", "note", "-"], stdin: Data("URGENT *x*\n".utf8),
                                        environment: ["SOURCE_DATE_EPOCH": "0"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let obj = try JSONSerialization.jsonObject(with: r.stdout) as! [String: Any]
        XCTAssertEqual(obj["type"] as? String, "document")
        let meta = obj["metadata"] as! [String: Any]
        XCTAssertEqual(meta["sourceFormat"] as? String, "note")
        XCTAssertEqual(meta["created"] as? String, "1970-01-01T00:00:00Z")
        let para = (obj["children"] as! [[String: Any]])[0]
        XCTAssertEqual(para["type"] as? String, "paragraph")
        XCTAssertEqual(para["position"] as? String, "1:1")
        // Spans are nodes with children (README "The AST as JSON"): alert(URGENT), " ", strong(x).
        let nodes = para["inlines"] as? [[String: Any]] ?? []
        XCTAssertEqual(nodes.count, 3)
        guard nodes.count == 3 else { return }
        XCTAssertEqual(nodes[0]["kind"] as? String, "color")
        XCTAssertEqual(nodes[0]["role"] as? String, "alert")
        XCTAssertEqual((nodes[0]["children"] as? [[String: Any]])?.first?["text"] as? String, "URGENT")
        XCTAssertEqual(nodes[1]["text"] as? String, " ")
        XCTAssertEqual(nodes[2]["kind"] as? String, "strong")
        XCTAssertEqual((nodes[2]["children"] as? [[String: Any]])?.first?["text"] as? String, "x")
    }

    func testEveryCorpusMarkdownFileConvertsWithExitZero() throws {
        let dir = try makeTempDir(self)
        let r = try NotepressBinary.run(["convert", TestPaths.corpus.appendingPathComponent("markdown").path, "-o", dir.path, "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        // Besides one page per file: the notes list, the search page, the generated 404 page and
        // the print view.
        let outputs = TestPaths.files(under: dir, extensions: ["html"])
            .filter { !["index.html", "search.html", "404.html", "print.html"].contains($0.lastPathComponent) }
        XCTAssertEqual(outputs.count, TestPaths.files(under: TestPaths.corpus.appendingPathComponent("markdown"), extensions: ["md"]).count)
        // What one of them says: ripgrep's guide opens with its `##` heading and first paragraph.
        let guide = try String(contentsOf: dir.appendingPathComponent("ripgrep__GUIDE.html"), encoding: .utf8)
        XCTAssertTrue(guide.contains("<h2 id=\"user-guide\" dir=\"auto\">User Guide</h2>\n<p dir=\"auto\">This guide is intended to give an elementary description of ripgrep and an\n"
            + "overview of its capabilities."), String(guide.prefix(2000)))
        XCTAssertTrue(guide.contains("<li dir=\"auto\"><a href=\"#basics\">Basics</a></li>"))
    }

    func testCorpusNotesConvertWithoutSpuriousStyling() throws {
        let dir = try makeTempDir(self)
        let notes = TestPaths.corpus.appendingPathComponent("notes")
        let r = try NotepressBinary.run(["convert", notes.path, "-o", dir.path, "-t", "html", "--fragment"])
        XCTAssertEqual(r.status, 0, r.stderr)
        // MANIFEST.tsv is not a kind we read: skipped and counted, not an error (the .tid note is
        // read since issue 21).
        XCTAssertTrue(r.stderr.contains("converted 4, skipped 0 (unchanged), skipped 1 (unknown kind), failed 0"), r.stderr)
        let tar = try String(contentsOf: dir.appendingPathComponent("cheat__tar.html"), encoding: .utf8)
        XCTAssertFalse(tar.contains("<del>"), "options like -xvf are not strikethrough")
        XCTAssertTrue(tar.contains("tar -xvf"), tar)
    }

    /// Issue 3's check: `convert samples/notes -o out --size-category ax5 --theme reading` writes
    /// pages whose chosen sizes are Apple's AX5 column, in rem of 16 px (1 pt = 1 CSS px).
    func testServedSizesAreTheTablesAtAX5WithTheSerifTheme() throws {
        let dir = try makeTempDir(self)
        let r = try NotepressBinary.run(["convert", TestPaths.samples.appendingPathComponent("notes").path, "-o", dir.path,
                                         "--size-category", "ax5", "--theme", "reading", "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        // A folder's pages share one stylesheet (issue 34), linked from each page.
        let html = try String(contentsOf: dir.appendingPathComponent("shopping-list.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("href=\"_notepress/notepress.css\""), String(html.prefix(1500)))
        let page = try String(contentsOf: dir.appendingPathComponent("_notepress/notepress.css"), encoding: .utf8)
        guard let root = page.range(of: ":root {"), let end = page.range(of: "}", range: root.upperBound..<page.endIndex) else {
            return XCTFail("no :root block")
        }
        let block = String(page[root.upperBound..<end.lowerBound])
        let ax5: [(String, Double)] = [("headline", 53), ("body", 53), ("subheadline", 49), ("footnote", 44), ("caption1", 43), ("caption2", 40)]
        for (style, points) in ax5 {
            let rem = points / 16
            let text = String(format: "%g", rem)
            XCTAssertTrue(block.contains("--np-\(style)-size: \(text)rem;"), "\(style) at ax5 should be \(points) pt = \(text)rem: \(block)")
        }
        XCTAssertTrue(page.contains("Charter"), "the serif theme's family")
        XCTAssertTrue(page.contains("data-size-category=\"accessibilityExtraExtraExtraLarge\""), "the chosen category is marked")
    }

    func testTemplatesPrintGivesTheEmbeddedPageAndDataDirOverrides() throws {
        let r = try NotepressBinary.run(["templates", "print", "html"])
        XCTAssertEqual(r.status, 0)
        let onDisk = try String(contentsOf: TestPaths.root.appendingPathComponent("Templates/html/page.html"), encoding: .utf8)
        XCTAssertEqual(r.stdoutText, onDisk)
        let dir = try makeTempDir(self)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("html"), withIntermediateDirectories: true)
        try "<!doctype html><title>{{title}}</title>{{body}}".write(to: dir.appendingPathComponent("html/page.html"), atomically: true, encoding: .utf8)
        let r2 = try NotepressBinary.run(["templates", "print", "html", "--data-dir", dir.path])
        XCTAssertEqual(r2.stdoutText, "<!doctype html><title>{{title}}</title>{{body}}")
    }
}
