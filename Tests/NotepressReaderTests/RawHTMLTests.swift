import Foundation
import XCTest
import NotepressTestSupport

/// Issue #53: raw HTML in Markdown is kept and made safe in pages (``RawHTMLPolicy``), and read
/// into every other format, through the real binary and real readers (Chromium, LibreOffice,
/// xmllint).
final class RawHTMLTests: XCTestCase {
    /// A README-like page: superscript, subscript, kbd, details, an image and an anchor in raw HTML.
    static let readme = """
        # Ranges

        Integers up to 2<sup>7</sup> fit, water is H<sub>2</sub>O, press <kbd>Ctrl</kbd>+<kbd>C</kbd>.

        <a id="old-name"></a>

        <details open>
        <summary>Hidden words</summary>
        <p>Inside <em>details</em> text.</p>
        </details>

        <div align="center"><img src="logo.png" alt="the logo" width="40"></div>

        Back to [the anchor](#old-name).

        """

    /// The page as Chromium's DOM has it after its scripts ran (`--dump-dom`).
    static func chromiumDOM(_ page: URL) throws -> String {
        let (status, out) = try runTool("chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", page.absoluteString])
        XCTAssertEqual(status, 0, out)
        return out
    }

    func testPageKeepsSupSubKbdDetailsImageAndAnchorInsteadOfRawHTMLOmitted() throws {
        let dir = try makeTempDir(self)
        let md = try writeTestFile(Self.readme, "readme.md", in: dir)
        let page = dir.appendingPathComponent("readme.html")
        let r = try NotepressBinary.run(["convert", md.path, "-o", page.path, "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let dom = try Self.chromiumDOM(page)
        for kept in ["2<sup>7</sup>", "H<sub>2</sub>O", "<kbd>Ctrl</kbd>+<kbd>C</kbd>", "<a id=\"old-name\"></a>",
                     "<details open=\"\">", "<summary>Hidden words</summary>", "<em>details</em>",
                     "<div align=\"center\"><img src=\"logo.png\" alt=\"the logo\" width=\"40\"></div>"] {
            XCTAssertTrue(dom.contains(kept), "\(kept) missing from the page: \(dom)")
        }
        XCTAssertFalse(dom.contains("raw HTML omitted"), dom)
        // A fragment without raw HTML is still cmark-gfm's bytes; with it, the kept tags.
        let frag = try NotepressBinary.run(["convert", md.path, "--fragment", "-o", "-"])
        XCTAssertTrue(frag.stdoutText.contains("<p>Integers up to 2<sup>7</sup> fit"), frag.stdoutText)
    }

    /// Classic script-injection inputs: each tries to set the page's title or mark its body.
    static let attacks = """
        # Attacks

        <img src=x OnErRoR="document.title='PWNED'">

        inline <img src=x oNeRrOr="document.title='PWNED'"> and <a href="&#x6A;avascript:document.title='PWNED'">entity</a>
        and <a href="java&#9;script:document.title='PWNED'">tab</a> and <script>document.title='PWNED'</script> done.

        <a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;document.title='PWNED'">decimal</a>

        <svg onload="document.title='PWNED'"><script>document.title='PWNED'</script><a href="javascript:document.title='PWNED'"><text>svg</text></a></svg>

        <math><mtext><table><mglyph><style><img src=x onerror="document.title='PWNED'"></style></mglyph></table></mtext></math>

        <iframe srcdoc="<script>parent.document.title='PWNED'</script>"></iframe>

        <noscript><p title="</noscript><img src=x onerror=document.title='PWNED'>"></noscript>

        <!--><img src=x onerror="document.title='PWNED'">-->

        <!-- --!><img src=x onerror="document.title='PWNED'"> -->

        <base href="javascript:document.title='PWNED'//">

        <meta http-equiv="refresh" content="0;url=javascript:document.title='PWNED'">

        <details open ontoggle="document.title='PWNED'"><summary>toggle</summary></details>

        <div style="background:url(javascript:document.title='PWNED')" onmouseover="document.title='PWNED'">styled</div>

        <form action="javascript:document.title='PWNED'"><button formaction="javascript:document.title='PWNED'">go</button></form>

        <object data="javascript:document.title='PWNED'"></object><embed src="javascript:document.title='PWNED'">

        <a href="data:text/html,<script>document.title='PWNED'</script>">data</a>

        <img src="data:image/svg+xml,<svg onload=document.title='PWNED'>" srcset="javascript:x 1x">

        <style>body { background: url(javascript:document.title='PWNED') }</style>

        <p>Last words stay.</p>

        """

    func testAttackPagesRunNoScriptAndKeepNoDangerousAttributeOrURL() throws {
        let dir = try makeTempDir(self)
        let md = try writeTestFile(Self.attacks, "attacks.md", in: dir)
        let page = dir.appendingPathComponent("attacks.html")
        let r = try NotepressBinary.run(["convert", md.path, "-o", page.path, "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let dom = try Self.chromiumDOM(page)
        XCTAssertFalse(dom.contains("PWNED"), "an attack reached the page: \(dom)")
        XCTAssertTrue(dom.contains("<title>attacks</title>") || dom.contains("<title>Attacks</title>"), dom)
        // The body the document wrote: no event handler, style, srcdoc, javascript: or base.
        let body = try XCTUnwrap(dom.range(of: "<h1").map { String(dom[$0.lowerBound...]) })
        for bad in [" on", "style=", "srcdoc", "javascript:", "<base", "<meta", "<iframe", "<object", "<embed", "<form",
                    "<script", "<svg", "<math", "data:text"] {
            let content = body.components(separatedBy: "Last words stay.")[0]
            XCTAssertFalse(content.lowercased().contains(bad), "\(bad) in the page body: \(content)")
        }
        // The text around the attacks is still there.
        for word in ["inline", "entity", "tab", "decimal", "toggle", "styled", "go", "Last words stay."] {
            XCTAssertTrue(dom.contains(word), "\(word) lost: \(dom)")
        }
    }

    func testEveryOtherFormatKeepsEveryWordAndTheSuperscript() throws {
        let dir = try makeTempDir(self)
        let md = try writeTestFile(Self.readme, "readme.md", in: dir)
        let words = ["Integers", "7", "H", "2", "O", "Ctrl", "Hidden", "words", "Inside", "details", "text", "the logo"]
        // Terminal text and man.
        for format in ["ansi", "man"] {
            let r = try NotepressBinary.run(["convert", md.path, "-t", format, "-o", "-", "-q"])
            XCTAssertEqual(r.status, 0, r.stderr)
            for w in words where !(format == "man" && w == "the logo") {
                // The terminal writes 2<sup>7</sup> as 2⁷ (its date line held a 7 until 2026-12-08,
                // when this test, which looked for a plain 7 anywhere, began to fail).
                let shown = format == "ansi" && w == "7" ? "2⁷" : w
                XCTAssertTrue(r.stdoutText.contains(shown), "\(format) lost \(shown): \(r.stdoutText)")
            }
        }
        let ansi = try NotepressBinary.run(["convert", md.path, "-t", "ansi", "-o", "-", "-q"]).stdoutText
        XCTAssertTrue(ansi.contains("Hidden words") && ansi.contains("Inside details text."), ansi)
        // JSON: the superscript is a span.
        let json = try NotepressBinary.run(["convert", md.path, "-t", "json", "-o", "-"]).stdoutText
        XCTAssertTrue(json.contains(#""kind": "superscript""#), json)
        XCTAssertFalse(json.contains("html_block"), json)
        // TEI: validates against the shipped schema with xmllint, superscript as hi rend="sup".
        let xml = dir.appendingPathComponent("readme.xml")
        var r = try NotepressBinary.run(["convert", md.path, "-t", "tei", "-o", xml.path, "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let tei = try String(contentsOf: xml, encoding: .utf8)
        XCTAssertTrue(tei.contains(#"2<hi rend="sup">7</hi>"#), tei)
        XCTAssertTrue(tei.contains("Hidden words") && tei.contains("Inside"), tei)
        let (status, out) = try runTool("xmllint", ["--noout", "--relaxng", TestPaths.root.appendingPathComponent("Templates/tei/notepress-tei.rng").path, xml.path])
        XCTAssertEqual(status, 0, out)
        // RTF read back by LibreOffice: every word, and 7 in superscript (its HTML export's <sup>).
        let rtf = dir.appendingPathComponent("readme.rtf")
        r = try NotepressBinary.run(["convert", md.path, "-t", "rtf", "-o", rtf.path, "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lo = dir.appendingPathComponent("lo")
        try LibreOffice.soffice("html", [rtf], outDir: lo)
        let html = try String(contentsOf: lo.appendingPathComponent("readme.html"), encoding: .utf8)
        // LibreOffice writes `<sup><font …>7</font></sup>`: the text inside its first <sup> and <sub>.
        func inside(_ tag: String) -> String? {
            html.components(separatedBy: "<\(tag)>").dropFirst().first?.components(separatedBy: "</\(tag)>").first
        }
        XCTAssertTrue(inside("sup")?.contains(">7<") == true, html)
        XCTAssertTrue(inside("sub")?.contains(">2<") == true, html)
        for w in words where w != "the logo" { XCTAssertTrue(html.contains(w), "RTF lost \(w): \(html)") }
    }

    /// Malformed HTML stays inside the block cmark-gfm delimits, and deep nesting is bounded.
    func testMalformedAndDeepHTMLNeverSwallowsTheMarkdownAfterIt() throws {
        let dir = try makeTempDir(self)
        let deep = String(repeating: "<div>", count: 10_000) + "deep"
        let text = "<div><b>unclosed <a href=\"x\">link\n\nAfter *one*.\n\n</div></div></span>\n\nAfter *two*.\n\n"
            + deep + "\n\nAfter *three*.\n\nInline <b>bold <i>never closed\n\nAfter *four*.\n"
        let md = try writeTestFile(text, "bad.md", in: dir)
        let page = try NotepressBinary.run(["convert", md.path, "--fragment", "-o", "-"])
        XCTAssertEqual(page.status, 0, page.stderr)
        let html = page.stdoutText
        for n in ["one", "two", "three", "four"] {
            XCTAssertTrue(html.contains("<p>After <em>\(n)</em>.</p>"), "\(n): \(html.suffix(2000))")
        }
        XCTAssertTrue(html.contains("<b>bold <i>never closed</i></b></p>"), html)
        XCTAssertTrue(html.contains("deep"), String(html.suffix(500)))
        for format in ["json", "ansi", "rtf", "tei"] {
            let r = try NotepressBinary.run(["convert", md.path, "-t", format, "-o", "-", "-q"])
            XCTAssertEqual(r.status, 0, "\(format): \(r.stderr)")
            XCTAssertTrue(r.stdoutText.contains("deep") && r.stdoutText.contains("four"), format)
        }
    }

    /// In a site, raw HTML's `id` anchors are link targets and its `<img src>` and `srcset`
    /// images are copied, or reported when missing (they were neither).
    func testSiteCopiesRawHTMLImagesReportsMissingOnesAndTakesItsAnchors() throws {
        let (input, output, _) = try makeSiteFolder(self, [
            "a.md": "# A\n\n<a id=\"old-name\"></a>\n\n<p align=\"center\"><img src=\"pics/logo.png\" alt=\"logo\"></p>\n\n"
                + "<picture><source srcset=\"pics/wide.png 2x\"><img src=\"pics/logo.png\"></picture>\n\nInline <img src=\"missing.png\"> here.\n",
            "b.md": "# B\n\nSee [old](a.md#old-name) and [gone](a.md#nowhere).\n",
            "pics/logo.png": "png", "pics/wide.png": "png",
        ])
        let r = try NotepressBinary.run(["convert", input, "-o", output])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: output + "/pics/logo.png"), r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: output + "/pics/wide.png"), r.stderr)
        XCTAssertTrue(r.stderr.contains("a.md:9:1: warning: image 'missing.png': no such file"), r.stderr)
        XCTAssertTrue(r.stderr.contains("no heading 'nowhere' in a.md"), r.stderr)
        XCTAssertFalse(r.stderr.contains("old-name"), r.stderr)
        let page = try String(contentsOfFile: output + "/a.html", encoding: .utf8)
        XCTAssertTrue(page.contains("<a id=\"old-name\"></a>"), page)
        XCTAssertTrue(page.contains("<source srcset=\"pics/wide.png 2x\">"), page)
    }

    /// `--unsafe` keeps the raw HTML as written.
    func testUnsafeKeepsRawHTMLAsWritten() throws {
        let dir = try makeTempDir(self)
        let md = try writeTestFile("<div onclick=\"f()\">x</div>\n\na <span style=\"c\">b</span>\n", "u.md", in: dir)
        let r = try NotepressBinary.run(["convert", md.path, "--fragment", "--unsafe", "-o", "-"])
        XCTAssertEqual(r.stdoutText, "<div onclick=\"f()\">x</div>\n<p>a <span style=\"c\">b</span></p>\n")
    }

    /// A fresh-clone run: the Foam vault's all-contributors table wrote `<img width="60px;">`,
    /// which the Nu HTML checker refuses (133 errors on one page, SiteNavigationTests). An
    /// image's width and height are kept as the integers HTML requires; others are left out.
    func testImageSizesAreKeptAsTheIntegersHTMLRequires() throws {
        let dir = try makeTempDir(self)
        let md = try writeTestFile("<img src=\"a.png\" width=\"60px;\" height=\" 40 \"><img src=\"b.png\" width=\"50%\" height=\"auto\">\n\n"
                                   + "<table><tr><td width=\"14%\">c</td></tr></table>\n", "s.md", in: dir)
        let r = try NotepressBinary.run(["convert", md.path, "--fragment", "-o", "-"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdoutText.contains("<img src=\"a.png\" width=\"60\" height=\"40\">"), r.stdoutText)
        XCTAssertTrue(r.stdoutText.contains("<img src=\"b.png\">"), r.stdoutText)
        XCTAssertTrue(r.stdoutText.contains("<td width=\"14%\">c</td>"), r.stdoutText)
    }
}
