import Foundation
import XCTest
import NotepressTestSupport
import NotepressAST
import NotepressHighlight
import NotepressThemes
@testable import Notepress

/// Code blocks highlighted by KSyntaxHighlighting (issue 33), through the user's door: the real
/// binary's HTML in Chromium (computed colours, light and dark), `notepress view` in tmux, RTF
/// through LibreOffice, TEI through xmllint and jing, man through mandoc and groff, the JSON dump.
final class CodeHighlightTests: XCTestCase {
    /// Swift, Python, Bash, JSON and YAML blocks, each with a keyword (or key), a string and a comment.
    static let page = """
    # Code

    ```swift
    // A comment
    let greeting = "hello"
    func twice(_ a: Int) -> Int { return a * 2 }
    ```

    ```py
    def g(x):
        return "x" * 2  # twice
    ```

    ```{.bash}
    # list
    for f in *.md; do echo "$f"; done
    ```

    ```json
    {"name": "notepress", "count": 3, "ok": true}
    ```

    ```yaml
    # settings
    name: "notepress"
    count: 3
    ```

    """

    func notepress(_ args: [String], environment: [String: String] = [:], file: StaticString = #filePath,
                   line: UInt = #line) throws -> NotepressBinary.Result {
        try NotepressBinary.runExpectingSuccess(args, environment: environment, file: file, line: line)
    }

    // MARK: - HTML in Chromium

    /// The page's computed colours of the first keyword, string and comment of the Swift block and
    /// of its plain text, in light and in dark mode, all different from plain; every language's
    /// block has spans. Screenshots of both modes are kept when NOTEPRESS_SCREENSHOT_DIR is set.
    func testChromiumComputedColoursOfKeywordStringCommentDifferFromPlainCodeInLightAndDark() throws {
        let dir = try makeTempDir(self)
        let md = try writeTestFile(Self.page, "code.md", in: dir)
        let html = dir.appendingPathComponent("code.html")
        _ = try notepress(["convert", md.path, "-o", html.path])
        let page = try String(contentsOf: html, encoding: .utf8)
        for lang in ["swift", "py", "{.bash}", "json", "yaml"] {
            XCTAssertTrue(page.contains("<pre><code class=\"language-\(lang)\"><span class=\"tok-"), "no spans for \(lang)")
        }
        let probe = """
        <script>window.addEventListener('load', () => {
          const c = s => getComputedStyle(document.querySelector(s)).color;
          document.body.setAttribute('data-colors', [c('.language-swift .tok-keyword'), c('.language-swift .tok-string'),
            c('.language-swift .tok-comment'), c('.language-swift')].join('|'));
        });</script></body>
        """
        let probed = dir.appendingPathComponent("probe.html")
        try page.replacingOccurrences(of: "</body>", with: probe).write(to: probed, atomically: true, encoding: .utf8)
        var seen: [String] = []
        for dark in [false, true] {
            let (status, dom) = try runTool("chromium", ["--headless", "--no-sandbox", "--disable-gpu"] + (dark ? ["--force-dark-mode"] : [])
                                                + ["--dump-dom", probed.absoluteString])
            XCTAssertEqual(status, 0)
            guard let r = dom.range(of: "data-colors=\""), let end = dom[r.upperBound...].firstIndex(of: "\"") else {
                return XCTFail("no colours in the DOM: \(dom.prefix(300))")
            }
            let colours = dom[r.upperBound..<end].components(separatedBy: "|")
            XCTAssertEqual(colours.count, 4)
            let (keyword, string, comment, plain) = (colours[0], colours[1], colours[2], colours[3])
            for (name, c) in [("keyword", keyword), ("string", string), ("comment", comment)] {
                XCTAssertNotEqual(c, plain, "\(name) drawn as plain code in \(dark ? "dark" : "light") mode")
            }
            XCTAssertEqual(Set([keyword, string, comment]).count, 3, "\(colours)")
            seen.append(keyword)
            if let shots = ProcessInfo.processInfo.environment["NOTEPRESS_SCREENSHOT_DIR"] {
                _ = try runTool("chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=800,900"]
                                + (dark ? ["--force-dark-mode"] : []) + ["--screenshot=\(shots)/code-\(dark ? "dark" : "light").png", html.absoluteString])
            }
        }
        XCTAssertNotEqual(seen[0], seen[1], "the dark palette is the light one")
    }

    // MARK: - Terminal

    /// `notepress view` in tmux, its screen captured with its escape sequences (`capture-pane -e`):
    /// at least three different SGR colours on the lines of the Swift block.
    func testViewInTmuxShowsThreeDifferentSGRColoursInACodeBlock() throws {
        let dir = try makeTempDir(self)
        let md = try writeTestFile(Self.page, "code.md", in: dir)
        let session = "np-hl-\(getpid())"
        let script = """
        tmux -L \(session) new-session -d -s \(session) -x 100 -y 60 "env -u NO_COLOR TERM=xterm-256color PAGER=cat \(NotepressBinary.url.path) view \(md.path); echo __END__; sleep 30" >/dev/null 2>&1 </dev/null || exit 3
        screen=""
        end=$(( $(date +%s) + 60 ))
        while [ "$(date +%s)" -lt "$end" ]; do
          sleep 0.2
          screen=$(tmux -L \(session) capture-pane -e -p -t \(session) 2>/dev/null)
          case "$screen" in *__END__*) break ;; esac
        done
        tmux -L \(session) kill-server >/dev/null 2>&1 </dev/null
        printf '%s\\n' "$screen"
        """
        let r = try runTool("sh", ["-c", script])
        XCTAssertEqual(r.status, 0, r.output)
        let lines = r.output.split(separator: "\n").filter { $0.contains("greeting") || $0.contains("func") || $0.contains("comment") }
        XCTAssertFalse(lines.isEmpty, r.output)
        var colours = Set<String>()
        for line in lines {
            var rest = Substring(line)
            while let esc = rest.range(of: "\u{1B}[") {
                let params = rest[esc.upperBound...].prefix { $0 != "m" }
                rest = rest[esc.upperBound...].dropFirst(params.count)
                let p = params.split(separator: ";").map(String.init)
                var i = 0
                while i < p.count {
                    if p[i] == "38", i + 1 < p.count {
                        let n = p[i + 1] == "5" ? 3 : 5
                        colours.insert(p[i..<min(i + n, p.count)].joined(separator: ";")); i += n
                    } else {
                        if let v = Int(p[i]), (30...37).contains(v) || (90...97).contains(v) { colours.insert(p[i]) }
                        i += 1
                    }
                }
            }
        }
        XCTAssertGreaterThanOrEqual(colours.count, 3, "SGR colours in the code block: \(colours)\n\(lines.joined(separator: "\n"))")
    }

    /// A terminal that says it is dark (`COLORFGBG=15;0`) gets the dark code palette on standard
    /// output; a file (`-o`) keeps the light one whatever the terminal.
    func testDarkTerminalGetsTheDarkCodePaletteButFilesDoNot() throws {
        let dir = try makeTempDir(self)
        let md = try writeTestFile("```swift\nlet x = 1\n```\n", "a.md", in: dir)
        let env = ["COLORTERM": "truecolor", "COLORFGBG": "15;0", "NO_COLOR": ""]
        let dark = CodePalette.standardDark.styles[.keyword]!.color, light = CodePalette.standardLight.styles[.keyword]!.color
        func sgr(_ c: RGBColor) -> String { "38;2;\(c.red);\(c.green);\(c.blue)mlet" }
        XCTAssertTrue(try notepress(["convert", md.path, "-t", "ansi", "--color", "always"], environment: env).stdoutText.contains(sgr(dark)))
        XCTAssertTrue(try notepress(["convert", md.path, "-t", "ansi", "--color", "always"], environment: ["COLORTERM": "truecolor", "COLORFGBG": "0;15", "NO_COLOR": ""])
            .stdoutText.contains(sgr(light)))
        let file = dir.appendingPathComponent("a.ans")
        _ = try notepress(["convert", md.path, "-o", file.path], environment: env)
        // Files are at 256 colours: the light keyword #9b2393 is cube entry 90, the dark #ff7ab2 211.
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(text.contains("38;5;90mlet"), text)
        XCTAssertFalse(text.contains("38;5;211m"), text)
    }

    /// NO_COLOR: no escape sequence at all, the code's text whole.
    func testNoColorWritesPlainCode() throws {
        let dir = try makeTempDir(self)
        let md = try writeTestFile(Self.page, "code.md", in: dir)
        let r = try notepress(["convert", md.path, "-t", "ansi"], environment: ["NO_COLOR": "1"])
        XCTAssertFalse(r.stdoutText.contains("\u{1B}["))
        XCTAssertTrue(r.stdoutText.contains("let greeting = \"hello\""))
    }

    // MARK: - RTF through LibreOffice

    /// The RTF opened by LibreOffice and saved as .docx: the code's runs carry the palette's
    /// keyword, string and comment colours, and every word of the code comes back.
    func testLibreOfficeReadsColouredCodeRunsWithEveryWord() throws {
        let dir = try makeTempDir(self)
        let md = try writeTestFile(Self.page, "code.md", in: dir)
        let rtf = dir.appendingPathComponent("code.rtf")
        _ = try notepress(["convert", md.path, "-o", rtf.path])
        try LibreOffice.soffice("docx", [rtf], outDir: dir)
        let (status, xml) = try runTool("unzip", ["-p", dir.appendingPathComponent("code.docx").path, "word/document.xml"])
        XCTAssertEqual(status, 0)
        let palette = CodePalette.standardLight
        for role in [CodeRole.keyword, .string, .comment] {
            let hex = palette.styles[role]!.color.hex.dropFirst().uppercased()
            XCTAssertTrue(xml.contains("<w:color w:val=\"\(hex)\"/>"), "no \(role) run (#\(hex)) in the docx")
        }
        let text = xml.replacingOccurrences(of: "</w:p>", with: "\n").replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression)
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&gt;", with: ">")
        let words = Set(text.split(whereSeparator: \.isWhitespace).map(String.init))
        let codeWords = Self.page.components(separatedBy: "```").enumerated().filter { $0.offset % 2 == 1 }
            .flatMap { $0.element.split(separator: "\n").dropFirst() }  // the info line is not code
            .flatMap { $0.split(whereSeparator: \.isWhitespace).map(String.init) }
        for w in codeWords { XCTAssertTrue(text.contains(w), "'\(w)' is missing from the docx (\(words.count) words)") }
    }

    // MARK: - TEI, man, JSON

    /// Highlighted TEI is valid for libxml2 (the writer validates) and for jing, and keeps the text.
    func testTEIWithHighlightedCodeValidatesWithXmllintAndJing() throws {
        let dir = try makeTempDir(self)
        let md = try writeTestFile(Self.page, "code.md", in: dir)
        let xml = dir.appendingPathComponent("code.xml")
        _ = try notepress(["convert", md.path, "-t", "tei", "-o", xml.path])
        let tei = try String(contentsOf: xml, encoding: .utf8)
        XCTAssertTrue(tei.contains("<ab type=\"codeblock\" subtype=\"swift\"><seg type=\"comment\">// A comment</seg>"), tei)
        let (lint, out) = try runTool("xmllint", ["--noout", "--relaxng", TEITestSupport.schemaURL.path, xml.path])
        XCTAssertEqual(lint, 0, out)
        guard let (status, errors) = TEITestSupport.jing([xml]) else { return }
        XCTAssertEqual(status, 0, errors.joined(separator: "\n"))
    }

    /// man pages stay plain (as pandoc's man writer): no font change inside the example, and
    /// the page is lint-clean.
    func testManPageCodeStaysPlainAndLintClean() throws {
        let dir = try makeTempDir(self)
        let md = try writeTestFile("# demo(1) -- code\n\n## NAME\n\ndemo - code\n\n## EXAMPLES\n\n```swift\nlet x = \"y\" // z\n```\n", "demo.1.md", in: dir)
        let r = try notepress(["convert", md.path, "-t", "man"])
        XCTAssertTrue(r.stdoutText.contains("\nlet x = \"y\" // z\n"), r.stdoutText)
        XCTAssertEqual(ManTestSupport.lint(r.stdoutText, name: "demo"), "")
    }

    /// The JSON dump carries the roles as spans whose texts make up the literal.
    func testJSONDumpCarriesRolesAsSpans() throws {
        let dir = try makeTempDir(self)
        let md = try writeTestFile(Self.page, "code.md", in: dir)
        let r = try notepress(["convert", md.path, "-t", "json"])
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
        let blocks = try XCTUnwrap(root["children"] as? [[String: Any]]).filter { $0["type"] as? String == "code_block" }
        XCTAssertEqual(blocks.map { $0["language"] as? String }, ["Swift", "Python", "Bash", "JSON", "YAML"])
        for b in blocks {
            let spans = try XCTUnwrap(b["spans"] as? [[String: String]])
            XCTAssertEqual(spans.map { $0["text"]! }.joined(), b["literal"] as? String)
        }
        let swift = try XCTUnwrap(blocks[0]["spans"] as? [[String: String]])
        XCTAssertEqual(swift.first, ["role": "comment", "text": "// A comment"])
        XCTAssertTrue(swift.contains(["role": "keyword", "text": "let"]))
        XCTAssertTrue(swift.contains(["role": "string", "text": "\"hello\""]))
    }

    // MARK: - Options, fragments, bad input

    /// `--fragment` is cmark-gfm's bytes (no spans) unless `--highlight-style` asks for them;
    /// `--no-highlight` writes pages without spans.
    func testFragmentKeepsCmarkBytesUnlessHighlightStyleIsGiven() throws {
        let dir = try makeTempDir(self)
        let md = try writeTestFile("```swift\nlet x = 1\n```\n", "a.md", in: dir)
        XCTAssertEqual(try notepress(["convert", md.path, "--fragment"]).stdoutText,
                       "<pre><code class=\"language-swift\">let x = 1\n</code></pre>\n")
        XCTAssertEqual(try notepress(["convert", md.path, "--fragment", "--highlight-style", "breeze light"]).stdoutText,
                       "<pre><code class=\"language-swift\"><span class=\"tok-keyword\">let</span> <span class=\"tok-variable\">x</span> "
                       + "<span class=\"tok-operator\">=</span> <span class=\"tok-number\">1</span>\n</code></pre>\n")
        let page = try notepress(["convert", md.path, "--no-highlight"]).stdoutText
        XCTAssertTrue(page.contains("<pre><code class=\"language-swift\">let x = 1\n</code></pre>"))
        let bad = try NotepressBinary.run(["convert", md.path, "--highlight-style", "No Such Style"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("unknown highlight style 'No Such Style'"), bad.stderr)
        XCTAssertTrue(bad.stderr.contains("Breeze Light"), bad.stderr)
    }

    /// `--highlight-style` colours the page with the library theme's colours (Breeze Light's
    /// keyword is bold #1f1c1b, its string #bf0303).
    func testHighlightStyleTakesTheLibraryThemesColours() throws {
        let dir = try makeTempDir(self)
        let md = try writeTestFile("```swift\nlet x = \"s\"\n```\n", "a.md", in: dir)
        let css = try notepress(["convert", md.path, "--highlight-style", "Breeze Light"]).stdoutText
        XCTAssertTrue(css.contains("--np-tok-string: #bf0303;"), css)
        XCTAssertTrue(css.contains("--np-tok-keyword-style: normal; --np-tok-keyword-weight: bold;"))
    }

    /// An unknown language is plain code with no warning; `--verbose` names it with its line.
    func testUnknownLanguageIsPlainWithoutWarningAndVerboseListsIt() throws {
        let dir = try makeTempDir(self)
        let md = try writeTestFile("text\n\n```nosuchlanguage\nlet x = 1\n```\n", "a.md", in: dir)
        let quiet = try notepress(["convert", md.path, "-o", dir.appendingPathComponent("a.html").path])
        XCTAssertEqual(quiet.stderr, "")
        XCTAssertFalse(try String(contentsOf: dir.appendingPathComponent("a.html"), encoding: .utf8).contains("<span class=\"tok-"))
        let loud = try notepress(["convert", md.path, "-o", dir.appendingPathComponent("b.html").path, "--verbose"])
        XCTAssertTrue(loud.stderr.contains("a.md:3:1: warning: code block language 'nosuchlanguage' is not known"), loud.stderr)
    }

    /// Where the library cannot be loaded the binary still runs: code is plain and a folder run
    /// says so once, not once per file.
    func testMissingLibraryGivesPlainCodeAndOneWarningPerRun() throws {
        let (input, output, _) = try makeSiteFolder(self, ["a.md": "```swift\nlet a = 1\n```\n", "b.md": "```py\nx = 1\n```\n"])
        let r = try notepress(["convert", input, "-o", output], environment: ["NOTEPRESS_SYNTAX_SHIM": "/nonexistent/libNotepressSyntaxShim.so"])
        XCTAssertEqual(r.stderr.components(separatedBy: "code is not highlighted").count - 1, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("/nonexistent/libNotepressSyntaxShim.so"), r.stderr)
        let a = try String(contentsOfFile: output + "/a.html", encoding: .utf8)
        XCTAssertTrue(a.contains("<pre><code class=\"language-swift\">let a = 1\n</code></pre>"))
        let version = try notepress(["--version"], environment: ["NOTEPRESS_SYNTAX_SHIM": "/nonexistent/x.so"])
        XCTAssertTrue(version.stdoutText.hasPrefix("notepress "))
    }

    /// Text the language's rules do not expect (an unclosed string, control characters, stray
    /// quotes, a surrogate-pair emoji in an identifier) never breaks the output: the spans still
    /// make up the literal, the page's code text is the literal, TEI validates.
    func testTextThatIsNotValidInTheLanguageKeepsEveryByte() throws {
        let code = "let s = \"unclosed\nfunc 😀x(\u{01}\u{7F}) { ''' \\\n}}}}\n\t# «ünïcode» 𝄞\n"
        let dir = try makeTempDir(self)
        let md = try writeTestFile("```swift\n" + code + "```\n\n```py\n" + code + "```\n", "a.md", in: dir)
        let r = try notepress(["convert", md.path, "-t", "json"])
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
        let blocks = try XCTUnwrap(root["children"] as? [[String: Any]])
        XCTAssertEqual(blocks.count, 2)
        for b in blocks {
            let spans = try XCTUnwrap(b["spans"] as? [[String: String]])
            XCTAssertEqual(spans.map { $0["text"]! }.joined(), code)
        }
        _ = try notepress(["convert", md.path, "-t", "tei", "-o", dir.appendingPathComponent("a.xml").path])
    }

    /// A 10 MB block of many lines and a block of one 1 MB line convert with every line highlighted
    /// (the many lines) or left plain (the one long line, bounded rather than tokenised). Their
    /// time is in `Benchmarks/run --only highlight` (a timed test failed under load: 6.1× for 4×).
    func testHugeCodeBlocksConvertWholeAndTheLongLineStaysPlain() throws {
        let dir = try makeTempDir(self)
        let line = "let value = compute(\"text\", 42) // note\n"
        let count = 10_000_000 / line.utf8.count
        let big = try writeTestFile("```swift\n" + String(repeating: line, count: count) + "```\n", "big.md", in: dir)
        let bigOut = dir.appendingPathComponent("big.html")
        _ = try notepress(["convert", big.path, "-o", bigOut.path])
        let html = try String(contentsOf: bigOut, encoding: .utf8)
        XCTAssertEqual(html.components(separatedBy: "<span class=\"tok-comment\">// note</span>").count - 1, count)
        let long = try writeTestFile("```swift\n" + String(repeating: "x = \"a\" + ", count: 100_000) + "\n```\n", "long.md", in: dir)
        let longOut = dir.appendingPathComponent("long.html")
        _ = try notepress(["convert", long.path, "-o", longOut.path])
        let longHTML = try String(contentsOf: longOut, encoding: .utf8)
        XCTAssertTrue(longHTML.contains(String(repeating: "x = &quot;a&quot; + ", count: 100_000)), "the long line whole and plain")
        XCTAssertFalse(longHTML.contains("<span class=\"tok-string\">"), "the long line is not tokenised")
    }

    // MARK: - Units: info strings, themes

    /// The info string forms: a word, a word with attributes after it, pandoc's `{.lang}`.
    func testInfoStringLanguage() {
        XCTAssertEqual(CodeInfo.language("swift"), "swift")
        XCTAssertEqual(CodeInfo.language("py"), "py")
        XCTAssertEqual(CodeInfo.language("{.python}"), "python")
        XCTAssertEqual(CodeInfo.language("{.python .numberLines startFrom=3}"), "python")
        XCTAssertEqual(CodeInfo.language("{python}"), "python")
        XCTAssertEqual(CodeInfo.language("sh title=x"), "sh")
        XCTAssertEqual(CodeInfo.language("rust,ignore"), "rust")
        XCTAssertNil(CodeInfo.language(""))
        XCTAssertNil(CodeInfo.language("{#id}"))
    }

    /// The library resolves names by its own rules: case ignored, file extensions as aliases.
    func testLibraryAliases() throws {
        guard case .success(let library) = SyntaxLibrary.shared else { return XCTFail("the library does not load") }
        XCTAssertEqual(library.definition(for: "swift"), "Swift")
        XCTAssertEqual(library.definition(for: "PY"), "Python")
        XCTAssertEqual(library.definition(for: "sh"), "Bash")
        XCTAssertEqual(library.definition(for: "yml"), "YAML")
        XCTAssertNil(library.definition(for: "nosuchlanguage"))
        XCTAssertGreaterThan(library.definitionCount, 300)
    }

    /// New-user try-out: a run with a highlighted block crashed about one time in twenty (SIGSEGV
    /// in Qt: a thread started the library while the document was read, and the process exited
    /// under it). The library is now started on the thread that first needs it.
    func testRunsWithHighlightedCodeNeverCrashAtExit() throws {
        let dir = try makeTempDir(self)
        let path = dir.appendingPathComponent("x.md").path
        try Data("```python\nimport os\n```\n\n```rust\nfn main() {}\n```\n".utf8).write(to: URL(fileURLWithPath: path))
        for i in 0..<60 {
            let r = try NotepressBinary.run(["convert", path, "-t", "json"])
            XCTAssertEqual(r.status, 0, "run \(i): \(r.stderr.prefix(400))")
            if r.status != 0 { break }
        }
    }

    /// New-user try-out: ```python, ```rust, ```javascript (the commonest fences, lower case)
    /// came out plain: the library's names are matched with case ignored.
    func testLowerCaseLanguageNamesAreHighlightedThroughTheBinary() throws {
        let dir = try makeTempDir(self)
        for (fence, name) in [("python", "Python"), ("rust", "Rust"), ("javascript", "JavaScript"), ("typescript", "TypeScript"),
                              ("{.python .numberLines}", "Python"), ("MAKEFILE", "Makefile")] {
            let path = dir.appendingPathComponent("x.md").path
            try Data("```\(fence)\nlet x = \"s\" // c\n```\n".utf8).write(to: URL(fileURLWithPath: path))
            let r = try NotepressBinary.run(["convert", path, "-t", "json"])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stdoutText.contains("\"language\": \"\(name)\""), "\(fence): \(r.stdoutText.prefix(600))")
        }
    }

    /// Every shipped theme's code palette meets WCAG AA (4.5:1) against its code background in
    /// both appearances, plain text included (the theme's text colour when the palette has no
    /// plain); the high-contrast theme's meets AAA (7:1), as its description says.
    func testShippedThemesCodePalettesMeetWCAGAA() throws {
        for name in Theme.builtInNames {
            let theme = try Theme.named(name)
            for (palette, colors, mode) in [(theme.codeLight, theme.light, "light"), (theme.codeDark, theme.dark, "dark")] {
                for role in CodeRole.allCases {
                    let c = palette.styles[role]?.color ?? colors.text
                    let ratio = Contrast.ratio(c, palette.background ?? colors.codeBackground)
                    XCTAssertGreaterThanOrEqual(ratio, name == "high-contrast" ? 7 : 4.5, "\(name) \(mode) \(role) \(c.hex) on \(colors.codeBackground.hex): \(ratio)")
                }
            }
        }
    }
}
