import Foundation
import XCTest
import NotepressTestSupport

/// Issue 31, items 17–20: notes, metadata and the README's own statements, through the real
/// binary and the real readers (Chromium for HTML, xmllint for TEI, SwiftPM for the package).
final class NotesMetadataAndReadmeTests: XCTestCase {

    /// The page as Chromium's DOM has it after loading (`--dump-dom`).
    static func chromiumDOM(_ page: URL) throws -> String {
        let (status, out) = try runTool("chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", page.absoluteString])
        XCTAssertEqual(status, 0, out)
        return out
    }

    // Item 17
    func testTiddlyWikiLinkIsLabelFirstInTidFilesAndTargetFirstElsewhere() throws {
        let dir = try makeTempDir(self)
        let tid = try writeTestFile("title: Docs\n\nSee [[the docs|https://example.com/]] or [[the other tiddler|Other]].\n", "Docs.tid", in: dir)
        let html = dir.appendingPathComponent("Docs.html")
        var r = try NotepressBinary.run(["convert", tid.path, "-t", "html", "-o", html.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let dom = try Self.chromiumDOM(html)
        // TiddlyWiki's order: the label shows, the URL is the link's target.
        XCTAssertTrue(dom.contains(#"<a href="https://example.com/">the docs</a>"#), dom)
        XCTAssertTrue(dom.contains("the other tiddler"), dom)
        XCTAssertFalse(dom.contains(">Other<"), dom)
        // Obsidian's order stays for Markdown notes: [[target|label]].
        let md = try writeTestFile("See [[Other|the other note]].\n", "a.md", in: dir)
        r = try NotepressBinary.run(["convert", md.path, "--wikilinks", "-t", "html", "--fragment"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdoutText.contains(">the other note</span>"), r.stdoutText)
    }

    // Item 18
    func testYAMLAliasInFrontMatterIsResolvedOrWarnedWithItsPosition() throws {
        let dir = try makeTempDir(self)
        let md = try writeTestFile("---\ntitle: Aliases\nauthor: &x Jane Doe\neditor: *x\nlist: &l [a, b]\ncopy: *l\n---\n\nText.\n", "a.md", in: dir)
        let json = try NotepressBinary.run(["convert", md.path, "-t", "json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertTrue(json.stdoutText.contains(#""editor": "Jane Doe""#), json.stdoutText)
        // The alias of a sequence is not expanded: a warning at its line and column.
        XCTAssertTrue(json.stderr.contains("a.md:6:7: warning: front matter: the YAML alias *l is a sequence or mapping"), json.stderr)
        // A template sees the resolved scalar.
        let tpl = try writeTestFile("<html><body><p id=e>{{editor}}</p></body></html>\n", "t.html", in: dir)
        let out = dir.appendingPathComponent("a.html")
        let r = try NotepressBinary.run(["convert", md.path, "--template", tpl.path, "-o", out.path, "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(try Self.chromiumDOM(out).contains("<p id=\"e\">Jane Doe</p>"))
    }

    // Item 19
    func testYearZeroIsRefusedAlikeInEveryFormat() throws {
        let dir = try makeTempDir(self)
        let md = try writeTestFile("---\ncreated: 0000-01-01\n---\n\n# Zero\n", "z.md", in: dir)
        for format in ["html", "man", "json", "ansi", "rtf", "tei"] {
            let r = try NotepressBinary.run(["convert", md.path, "-t", format])
            XCTAssertEqual(r.status, 1, "\(format): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("z.md:2:10: error: `created` is in year 0000"), "\(format): \(r.stderr)")
        }
        // Year 0001 is a date every format writes, and TEI's schema (xmllint) takes it.
        let one = try writeTestFile("---\ncreated: 0001-01-01\n---\n\n# One\n", "one.md", in: dir)
        let xml = dir.appendingPathComponent("one.xml")
        let r = try NotepressBinary.run(["convert", one.path, "-t", "tei", "-o", xml.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let (status, out) = try runTool("xmllint", ["--noout", "--relaxng", TestPaths.root.appendingPathComponent("Templates/tei/notepress-tei.rng").path, xml.path])
        XCTAssertEqual(status, 0, out)
        // A TiddlyWiki date and -M follow the same rule.
        let tid = try writeTestFile("title: T\ncreated: 00000101000000000\n\nText.\n", "t.tid", in: dir)
        XCTAssertEqual(try NotepressBinary.run(["convert", tid.path, "-t", "json"]).status, 1)
        XCTAssertEqual(try NotepressBinary.run(["convert", one.path, "-t", "json", "-M", "created=0000-06-01"]).status, 2)
    }

    // Item 20: the README's validate line finds the TEI of a folder run with the default layout.
    func testReadmeValidateCommandFindsTheTEIOfTheDefaultLayout() throws {
        let readme = try String(contentsOf: TestPaths.root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.components(separatedBy: "\n")
        let convert = try XCTUnwrap(lines.first { $0.hasPrefix("notepress convert notes/ -o out/ -t html,rtf,tei") })
        let validate = try XCTUnwrap(lines.first { $0.contains("notepress validate") && !$0.hasPrefix("notepress validate [") })
        let dir = try makeTempDir(self)
        _ = try writeTestFile("# A\n\nText.\n", "notes/a.md", in: dir)
        _ = try writeTestFile("# C\n\nText.\n", "notes/sub/c.md", in: dir)
        let bin = NotepressBinary.url.deletingLastPathComponent().path
        let script = "cd '\(dir.path)' && export PATH='\(bin)':$PATH && " + convert.components(separatedBy: " #")[0] + " -q && "
            + validate.components(separatedBy: " #")[0]
        let (status, out) = try runTool("sh", ["-c", script])
        XCTAssertEqual(status, 0, "\(validate): \(out)")
        XCTAssertFalse(out.contains("cannot read"), out)
        // It did validate: a broken TEI file makes the same line fail.
        try "<TEI xmlns=\"http://www.tei-c.org/ns/1.0\"><x/></TEI>".write(to: dir.appendingPathComponent("out/sub/c.xml"), atomically: true, encoding: .utf8)
        XCTAssertNotEqual(try runTool("sh", ["-c", "cd '\(dir.path)' && export PATH='\(bin)':$PATH && " + validate.components(separatedBy: " #")[0]]).status, 0)
    }

    // Item 20: the man page's template-variable table names every variable a page gets.
    func testManPageTemplateTableListsEveryPageVariable() throws {
        let source = try String(contentsOf: TestPaths.root.appendingPathComponent("man/notepress.1.md"), encoding: .utf8)
        let rows = source.components(separatedBy: "\n").filter { $0.hasPrefix("| **") }.joined(separator: "\n")
        let dir = try makeTempDir(self)
        _ = try writeTestFile("---\nlang: ar\n---\n\n# A\n\nمرحبا #tag\n", "a.md", in: dir)
        _ = try writeTestFile("# B\n\n[a](a.md)\n", "b.md", in: dir)
        let names = ["dir", "titleInBody", "siteNav", "tagLinks", "hasTagLinks", "backlinks", "hasBacklinks"]
        let tpl = try writeTestFile("<html><body>" + names.map { "<p id=\($0)>{{#\($0)}}set{{/\($0)}}</p>" }.joined() + "</body></html>\n",
                            "t.html", in: dir)
        let r = try NotepressBinary.run(["convert", dir.path, "-o", dir.appendingPathComponent("out").path, "--template", tpl.path,
                                         "--hashtags", "--backlinks", "-q", "--exclude", "t.html", "--exclude", "out"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let dom = try Self.chromiumDOM(dir.appendingPathComponent("out/a.html"))
        for name in names {
            // The binary fills the variable in...
            XCTAssertTrue(dom.contains("<p id=\"\(name)\">set</p>"), "\(name) is not set: \(dom)")
            // ...and the man page's table documents it.
            XCTAssertTrue(rows.contains("**\(name)**"), "\(name) is missing from the template table of man/notepress.1.md")
        }
    }

    // Item 20: the README's package snippet works for a checkout whatever its folder's name.
    func testReadmePackageSnippetWorksForACheckoutNotNamedNotepress() throws {
        let readme = try String(contentsOf: TestPaths.root.appendingPathComponent("README.md"), encoding: .utf8)
        let rule = try XCTUnwrap(readme.range(of: #"a checkout in `\.\./([^`]+)` is `package: "([^"]+)"`"#, options: .regularExpression),
                                 "the README says how to name a checkout in another folder")
        let words = readme[rule].components(separatedBy: "`")
        let folder = String(words[1].dropFirst(3)), identity = words[3].components(separatedBy: "\"")[1]
        let dir = try makeTempDir(self)
        try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent(folder), withDestinationURL: TestPaths.root)
        _ = try writeTestFile("""
            // swift-tools-version:5.9
            import PackageDescription
            let package = Package(name: "consumer", platforms: [.macOS(.v13)],
                dependencies: [.package(path: "../\(folder)")],
                targets: [.executableTarget(name: "c", dependencies: [.product(name: "Notepress", package: "\(identity)")])])

            """, "consumer/Package.swift", in: dir)
        _ = try writeTestFile("import Notepress\n", "consumer/Sources/c/main.swift", in: dir)
        let (status, out) = try runTool("sh", ["-c", "cd '\(dir.path)/consumer' && swift package describe 2>&1"])
        XCTAssertEqual(status, 0, out)
        XCTAssertFalse(out.contains("unknown package"), out)
    }

    // Item 16
    func testRonnPlaceholdersSurviveInEveryFormat() throws {
        let dir = try makeTempDir(self)
        let ronn = try writeTestFile("# hello(1) -- hello world\n\n## SYNOPSIS\n\n`hello` [<options>] <file>...\n\nManpages have a <name>, <section>, and a one-line <description>.\n\nReal HTML: <b>bold</b>.\n", "hello.1.ronn", in: dir)
        let words = ["options", "file", "name", "section", "description"]
        // HTML, through Chromium: each placeholder is emphasised text.
        let html = dir.appendingPathComponent("hello.html")
        var r = try NotepressBinary.run(["convert", ronn.path, "-t", "html", "-o", html.path, "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let dom = try Self.chromiumDOM(html)
        for w in words { XCTAssertTrue(dom.contains("<em>\(w)</em>"), "\(w): \(dom)") }
        XCTAssertTrue(dom.contains("Manpages have a <em>name</em>, <em>section</em>, and a one-line <em>description</em>."), dom)
        // TEI, through xmllint.
        let tei = dir.appendingPathComponent("hello.xml")
        r = try NotepressBinary.run(["convert", ronn.path, "-t", "tei", "-o", tei.path, "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let (_, hi) = try runTool("xmllint", ["--xpath", "//*[local-name()='hi'][@rend='italic']/text()", tei.path])
        XCTAssertEqual(hi.components(separatedBy: "\n").filter { !$0.isEmpty }, words, hi)
        // ANSI and RTF: the words are there.
        r = try NotepressBinary.run(["convert", ronn.path, "-t", "ansi", "--color", "never", "--width", "100"])
        XCTAssertTrue(r.stdoutText.contains("hello [options] file..."), r.stdoutText)
        XCTAssertTrue(r.stdoutText.contains("Manpages have a name, section, and a one-line description."), r.stdoutText)
        r = try NotepressBinary.run(["convert", ronn.path, "-t", "rtf"])
        for w in words { XCTAssertTrue(r.stdoutText.contains("{\\rtlch\\ai\\ltrch\\i \(w)}"), w) }
        // Man as before: italic.
        r = try NotepressBinary.run(["convert", ronn.path, "-t", "man"])
        XCTAssertTrue(r.stdoutText.contains("\\fBhello\\fR [\\fIoptions\\fR] \\fIfile\\fR..."), r.stdoutText)
    }
}
