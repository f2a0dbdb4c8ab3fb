import Foundation
import XCTest
import NotepressTestSupport
@testable import Notepress
import NotepressANSI
import NotepressAST
import NotepressReaders
import NotepressThemes

/// Unit tests of the terminal emitter: widths, escaping, colour policy, layout rules.
final class ANSITests: XCTestCase {
    // MARK: Widths

    func testWcwidthColumns() {
        XCTAssertEqual(TerminalWidth.columns("abc"), 3)
        XCTAssertEqual(TerminalWidth.columns("日本"), 4)
        XCTAssertEqual(TerminalWidth.columns("e\u{301}"), 1)  // combining acute: zero columns
        XCTAssertEqual(TerminalWidth.columns("😀"), 2)
        XCTAssertEqual(TerminalWidth.columns("\u{1F5BC}"), 1)  // framed picture: text presentation, wcwidth 1
        XCTAssertEqual(TerminalWidth.displayColumns(ofRendered: "\u{1B}[0;1mab\u{1B}[0m\u{1B}]8;;http://x\u{1B}\\c"), 3)
    }

    // MARK: Escaping

    func testVisibleReplacesControls() {
        XCTAssertEqual(TerminalText.visible("a\u{1B}[2Jb"), "a\u{241B}[2Jb")
        XCTAssertEqual(TerminalText.visible("\u{07}\u{7F}\u{9B}\u{9D}"), "\u{2407}\u{2421}\u{FFFD}\u{FFFD}")
        // Non-ASCII text: controls after multi-byte characters are still caught; the rest stays.
        XCTAssertEqual(TerminalText.visible("él’s \u{202E}x\u{85}é\u{2069}"), "él’s <U+202E>x\u{FFFD}é<U+2069>")
        XCTAssertEqual(TerminalText.visible("“Grüße” — 漢字 \u{2028}"), "“Grüße” — 漢字 \u{2028}")
        XCTAssertEqual(TerminalText.visible("a\tb"), "a b")
        XCTAssertEqual(TerminalText.visible("a\tb", tabs: .expand(4)), "a   b")
        XCTAssertEqual(TerminalText.visible("日\tb", tabs: .expand(4)), "日  b")
    }

    func testOSC8URLIsPercentEncoded() {
        XCTAssertEqual(TerminalText.osc8URL("http://x/a b;c\u{1B}\\\u{07}é"), "http://x/a%20b%3Bc%1B\\%07%C3%A9")
    }

    // MARK: Policies

    func testColorPolicy() {
        let tty = ["TERM": "xterm"]
        XCTAssertEqual(ColorPolicy.depth(mode: "auto", isTTY: true, environment: tty), .ansi16)
        XCTAssertEqual(ColorPolicy.depth(mode: "auto", isTTY: false, environment: tty), .none)
        XCTAssertEqual(ColorPolicy.depth(mode: "auto", isTTY: true, environment: ["TERM": "xterm-256color"]), .ansi256)
        XCTAssertEqual(ColorPolicy.depth(mode: "auto", isTTY: true, environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor"]), .truecolor)
        XCTAssertEqual(ColorPolicy.depth(mode: "auto", isTTY: true, environment: ["COLORTERM": "24bit"]), .truecolor)
        XCTAssertEqual(ColorPolicy.depth(mode: "auto", isTTY: true, environment: ["TERM": "xterm", "NO_COLOR": "1"]), .none)
        XCTAssertEqual(ColorPolicy.depth(mode: "auto", isTTY: true, environment: ["TERM": "xterm", "NO_COLOR": ""]), .ansi16)
        XCTAssertEqual(ColorPolicy.depth(mode: "always", isTTY: false, environment: ["NO_COLOR": "1"]), .ansi16)
        XCTAssertEqual(ColorPolicy.depth(mode: "never", isTTY: true, environment: ["CLICOLOR_FORCE": "1"]), .none)
        XCTAssertEqual(ColorPolicy.depth(mode: "auto", isTTY: false, environment: ["CLICOLOR_FORCE": "1"]), .ansi16)
        XCTAssertEqual(ColorPolicy.depth(mode: "auto", isTTY: false, environment: ["FORCE_COLOR": "0"]), .none)
        XCTAssertEqual(ColorPolicy.depth(mode: "auto", isTTY: false, environment: ["FORCE_COLOR": "1", "NO_COLOR": "1"]), .ansi16)
        let kitty = ["TERM": "xterm-kitty"]
        XCTAssertTrue(ColorPolicy.hyperlinks(mode: "auto", colorDepth: .ansi16, isTTY: true, environment: kitty))
        XCTAssertFalse(ColorPolicy.hyperlinks(mode: "auto", colorDepth: .none, isTTY: true, environment: kitty))
        XCTAssertFalse(ColorPolicy.hyperlinks(mode: "auto", colorDepth: .ansi16, isTTY: false, environment: kitty))
        XCTAssertTrue(ColorPolicy.hyperlinks(mode: "always", colorDepth: .none, isTTY: false, environment: [:]))
        XCTAssertFalse(ColorPolicy.hyperlinks(mode: "auto", colorDepth: .ansi16, isTTY: true, environment: tty),
                       "plain xterm is not known to show OSC 8")
    }

    /// Issue 15: links lost inside tmux < 3.4 (it drops OSC 8). The allow-list, case by case.
    func testHyperlinkAllowListTmuxBelow34AndScreenAreNot() {
        let cases: [([String: String], Bool)] = [
            (["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0", "TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "3.3a"], false),
            (["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0", "TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "3.4"], true),
            (["TERM": "screen-256color", "TMUX": "/tmp/t,1,0", "TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "3.5a"], true),
            // tmux older than 3.2 leaves the outer terminal's TERM_PROGRAM: still tmux, still no.
            (["TERM": "screen", "TMUX": "/tmp/t,1,0", "TERM_PROGRAM": "iTerm.app", "TERM_PROGRAM_VERSION": "3.4.19"], false),
            (["TERM": "screen", "STY": "1234.pts-0.host"], false),
            (["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app", "TERM_PROGRAM_VERSION": "3.4.19"], true),
            (["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app", "TERM_PROGRAM_VERSION": "3.0.15"], false),
            (["TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm", "TERM_PROGRAM_VERSION": "20240203-110809-5046fc22"], true),
            (["TERM": "xterm-256color", "TERM_PROGRAM": "vscode", "TERM_PROGRAM_VERSION": "1.71.2"], false),
            (["TERM": "xterm-256color", "TERM_PROGRAM": "vscode", "TERM_PROGRAM_VERSION": "1.85.0"], true),
            (["TERM": "xterm-256color", "VTE_VERSION": "7006"], true),
            (["TERM": "xterm-256color", "VTE_VERSION": "4803"], false),
            (["TERM": "xterm-256color", "WT_SESSION": "b2c4"], true),
            (["TERM": "foot"], true),
            (["TERM": "alacritty"], true),
            (["TERM": "linux"], false),
            (["TERM": "xterm-256color"], false),
            (["TERM": "xterm-256color", "FORCE_HYPERLINK": "1"], true),
            (["TERM": "xterm-kitty", "FORCE_HYPERLINK": "0"], false),
        ]
        for (env, expected) in cases {
            XCTAssertEqual(ColorPolicy.terminalShowsHyperlinks(env), expected, "\(env)")
        }
    }

    /// `convert -t ansi` asked for ANSI: colour into files and pipes unless NO_COLOR; files at a
    /// fixed 256 colours whatever the terminal.
    func testDocumentColourIsOnUnlessNoColor() {
        XCTAssertEqual(ColorPolicy.documentDepth(mode: "auto", output: .file, environment: [:]), .ansi256)
        XCTAssertEqual(ColorPolicy.documentDepth(mode: "auto", output: .file, environment: ["COLORTERM": "truecolor"]), .ansi256)
        XCTAssertEqual(ColorPolicy.documentDepth(mode: "auto", output: .standardOutput, environment: ["COLORTERM": "truecolor"]), .truecolor)
        XCTAssertEqual(ColorPolicy.documentDepth(mode: "auto", output: .standardOutput, environment: ["TERM": "xterm"]), .ansi16)
        XCTAssertEqual(ColorPolicy.documentDepth(mode: "auto", output: .file, environment: ["NO_COLOR": "1"]), .none)
        XCTAssertEqual(ColorPolicy.documentDepth(mode: "auto", output: .terminal, environment: ["TERM": "dumb"]), .none)
        XCTAssertEqual(ColorPolicy.documentDepth(mode: "auto", output: .standardOutput, environment: ["TERM": "dumb"]), .ansi16)
        XCTAssertEqual(ColorPolicy.documentDepth(mode: "never", output: .file, environment: ["CLICOLOR_FORCE": "1"]), .none)
        XCTAssertEqual(ColorPolicy.documentDepth(mode: "always", output: .file, environment: ["NO_COLOR": "1"]), .ansi256)
    }

    func testTerminalSizeFallbacks() {
        // A pipe is not a terminal: COLUMNS, then 80.
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        defer { close(fds[0]); close(fds[1]) }
        XCTAssertEqual(TerminalSize.columns(environment: ["COLUMNS": "123"], fd: fds[1]), 123)
        XCTAssertEqual(TerminalSize.columns(environment: ["COLUMNS": "x"], fd: fds[1]), 80)
        XCTAssertEqual(TerminalSize.columns(environment: [:], fd: fds[1]), 80)
    }

    // MARK: Styles

    func testStyleTableAnd256Colours() throws {
        XCTAssertTrue(TerminalStyleTable.style(.headline).bold)
        XCTAssertTrue(TerminalStyleTable.style(.subheadline).bold)
        XCTAssertTrue(TerminalStyleTable.style(.strikethrough).strikethrough)
        let doc = try ANSITestSupport.readMarkdown("**b** ~~s~~ [l](http://u)\n")
        let out = ANSITestSupport.render(doc, width: 80, depth: .ansi256)
        XCTAssertEqual(out, "\u{1B}[0;1mb\u{1B}[0m \u{1B}[0;9ms\u{1B}[0m \u{1B}[0;4;38;5;26ml\u{1B}[0m \u{1B}[0;2m(http://u)\u{1B}[0m\n")
    }

    func testAlertColourPerDepth() {
        var b = InlinesBuilder()
        b.append(.text("URGENT"), in: .colorRole(.alert))
        let doc = Document(metadata: DocumentMetadata(sourceFormat: .note), blocks: [Block(.paragraph(b.take()))])
        XCTAssertEqual(ANSITestSupport.render(doc, width: 40, depth: .ansi16), "\u{1B}[0;31mURGENT\u{1B}[0m\n")
        XCTAssertEqual(ANSITestSupport.render(doc, width: 40, depth: .truecolor), "\u{1B}[0;38;2;215;0;21mURGENT\u{1B}[0m\n")
        XCTAssertEqual(ANSITestSupport.render(doc, width: 40, depth: .none), "URGENT\n")
    }

    func testBoldTextMakesBodyBold() throws {
        let doc = try ANSITestSupport.readMarkdown("plain words\n")
        XCTAssertEqual(ANSITestSupport.render(doc, width: 40, depth: .ansi16), "plain words\n")
        XCTAssertEqual(ANSITestSupport.render(doc, width: 40, depth: .ansi16, boldText: true), "\u{1B}[0;1mplain words\u{1B}[0m\n")
    }

    func testLetterpressParagraphGetsShadow() {
        var b = InlinesBuilder()
        b.append(.text("Pressed 日本"), in: .letterpress)
        let doc = Document(metadata: DocumentMetadata(sourceFormat: .note), blocks: [Block(.paragraph(b.take()))])
        XCTAssertEqual(ANSITestSupport.render(doc, width: 40), "Pressed 日本\n────────────\n")
        XCTAssertEqual(ANSITestSupport.render(doc, width: 40, ascii: true), "Pressed 日本\n------------\n")
    }

    func testUnknownBlockWarnsAndWritesChildren() {
        let child = Block(.paragraph([InlineRun(.text("inside"))]))
        let doc = Document(metadata: DocumentMetadata(sourceFormat: .gfm), blocks: [Block(.unknown(typeName: "x", blocks: [child]))])
        var d: [Diagnostic] = []
        let out = ANSIEmitter.render(doc, options: ANSIOptions(width: 40), diagnostics: &d)
        XCTAssertEqual(out, "inside\n")
        XCTAssertEqual(d.count, 1)
    }

    func testHyperlinksReopenOnEachWrappedLine() throws {
        let doc = try ANSITestSupport.readMarkdown("[one two three four](http://e.x/)\n")
        let out = ANSITestSupport.render(doc, width: 10, depth: .none, hyperlinks: true)
        let open = "\u{1B}]8;;http://e.x/\u{1B}\\", close = "\u{1B}]8;;\u{1B}\\"
        XCTAssertEqual(out, "\(open)one two\(close)\n\(open)three four\(close)\n")
    }

    func testASCIIOption() throws {
        let doc = try ANSITestSupport.readMarkdown("> q\n\n- [x] done\n- item\n\n| a | b |\n|---|---|\n| 1 | 2 |\n")
        let out = ANSITestSupport.render(doc, width: 40, ascii: true)
        XCTAssertEqual(out, "| q\n\n[x] done\n* item\n\n+---+---+\n| a | b |\n+---+---+\n| 1 | 2 |\n+---+---+\n")
        XCTAssertTrue(out.unicodeScalars.allSatisfy { $0.isASCII })
    }

    func testANSIWriterMapsOptions() throws {
        let doc = try ANSITestSupport.readMarkdown("**x**\n")
        var o = ConversionOptions()
        o.width = 20
        o.colorDepth = .ansi16
        var d: [Diagnostic] = []
        let bytes = try ANSIWriter().write(doc, options: o, diagnostics: &d)
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "\u{1B}[0;1mx\u{1B}[0m\n")
        XCTAssertEqual(WriterRegistry.writer(named: "ansi")?.fileExtension, "ans")
    }

    // MARK: Injection

    /// Every way a document could smuggle a control sequence in: none reaches the output.
    func testInjectionIsNeutralised() throws {
        let evil = "\u{1B}[2J\u{1B}]0;pwned\u{07}\u{1B}]8;;http://evil\u{1B}\\\u{9B}31m\u{9D}x\u{9C}\u{85}"
        let md = """
        ---
        title: "T\\e]0;title\\a"
        ---
        # H \(evil) &#27;[31m &#155;

        Text \(evil) `code \(evil)` <http://a.b/&#27;c>

        [link &#27;[1m text](http://x/&#27;]8;;evil&#7;)

        ```
        code\(evil)
        \tTAB
        ```

        | a\(evil) | b |
        |---|---|
        | \(evil) | &#27;[5m |

        Note[^1]

        [^1]: foot \(evil)
        """
        let doc = try ANSITestSupport.readMarkdown(md)
        XCTAssertTrue(doc.metadata.title?.contains("\u{1B}") == true, "front matter should carry the ESC through")

        // Colour and hyperlinks off: not a single ESC, BEL or C1 byte.
        let plain = ANSITestSupport.render(doc, width: 60)
        let bytes = Array(plain.utf8)
        XCTAssertFalse(bytes.contains(0x1B))
        XCTAssertFalse(bytes.contains(0x07))
        XCTAssertFalse(plain.unicodeScalars.contains { $0.value >= 0x80 && $0.value <= 0x9F })
        XCTAssertTrue(plain.contains("\u{241B}[2J"))

        // Colour and hyperlinks on: after removing the emitter's own SGR and OSC 8 sequences,
        // nothing of the kind is left.
        let rich = ANSITestSupport.render(doc, width: 60, depth: .truecolor, hyperlinks: true)
        let stripped = rich
            .replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
            .replacingOccurrences(of: "\u{1B}\\]8;;[\u{21}-\u{7E}]*\u{1B}\\\\", with: "", options: .regularExpression)
        XCTAssertFalse(stripped.utf8.contains(0x1B), stripped)
        XCTAssertFalse(stripped.utf8.contains(0x07))
        XCTAssertFalse(stripped.unicodeScalars.contains { $0.value >= 0x80 && $0.value <= 0x9F })
        // The emitter's own OSC 8 carries the percent-encoded URL only.
        XCTAssertTrue(rich.contains("\u{1B}]8;;http://x/%1B]8%3B%3Bevil%07\u{1B}\\"))
        // A bare URL in the text is autolinked by GFM with the controls inside: encoded too.
        XCTAssertTrue(rich.contains("\u{1B}]8;;http://evil%1B\\%C2%9B31m%C2%9Dx%C2%9C%C2%85\u{1B}\\"))
        // The SGR sequences used are only ours: ESC [ 0 … m.
        let sgr = try NSRegularExpression(pattern: "\u{1B}\\[([0-9;]*)m")
        for m in sgr.matches(in: rich, range: NSRange(rich.startIndex..., in: rich)) {
            let params = (rich as NSString).substring(with: m.range(at: 1))
            XCTAssertTrue(params.hasPrefix("0"), params)
        }
    }

    // MARK: Corpus

    /// Narrow widths: every golden case stays inside the width (no trailing spaces either).
    func testNarrowWidthsStayInside() throws {
        for file in ANSIGoldenTests.cases {
            let doc = try ANSITestSupport.read(ANSITestSupport.goldenDir.appendingPathComponent(file))
            for width in [8, 12, 20, 33] {
                for ascii in [false, true] {
                    let out = ANSITestSupport.render(doc, width: width, depth: .ansi16, ascii: ascii)
                    XCTAssertEqual(ANSITestSupport.layoutProblems(out, width: width), [], "\(file) at \(width)")
                }
            }
        }
    }

    func testCorpusAtWidth60() throws {
        let dir = TestPaths.corpus.appendingPathComponent("markdown")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".md") }.sorted()
        XCTAssertGreaterThan(files.count, 5)
        for f in files {
            let text = String(decoding: try Data(contentsOf: dir.appendingPathComponent(f)), as: UTF8.self)
            let doc = try ANSITestSupport.readMarkdown(text)
            for depth in [ColorDepth.none, .truecolor] {
                let out = ANSITestSupport.render(doc, width: 60, depth: depth, hyperlinks: depth != .none)
                XCTAssertFalse(out.isEmpty, f)
                XCTAssertEqual(ANSITestSupport.layoutProblems(out, width: 60), [], f)
            }
        }
    }
}
