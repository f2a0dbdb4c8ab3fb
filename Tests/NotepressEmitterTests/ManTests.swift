import Foundation
import XCTest
import NotepressTestSupport
@testable import Notepress
import NotepressAST
import NotepressMan
import NotepressReaders

final class ManTitleTests: XCTestCase {
    func thLine(_ text: String, path: String, fields: [String: String] = [:], created: Date? = ManTestSupport.created) -> String {
        let (out, _) = ManTestSupport.render(text, path: path, created: created, fields: fields)
        return out.split(separator: "\n").first { $0.hasPrefix(".TH") }.map(String.init) ?? ""
    }

    func testPandocPercentWithVersion() {
        XCTAssertEqual(thLine("% exa(1) v0.9.0\n\nBody.\n", path: "exa.1.md"), #".TH "EXA" "1" "2024-05-06" "v0.9.0""#)
    }

    func testGoMd2manQuotedSection() {
        XCTAssertEqual(thLine("% runc \"8\"\n\nBody.\n", path: "x.md"), #".TH "RUNC" "8" "2024-05-06""#)
        XCTAssertEqual(thLine("% podman 1\n\nBody.\n", path: "x.md"), #".TH "PODMAN" "1" "2024-05-06""#)
    }

    func testPandocThreeLines() {
        let th = thLine("% skopeo-copy(1)\n% Jane Doe\n% March 3, 2021\n\nBody.\n", path: "x.md")
        XCTAssertEqual(th, #".TH "SKOPEO\-COPY" "1" "March 3, 2021""#)
    }

    func testRonnHeadingSynthesisesName() {
        let (out, _) = ManTestSupport.render("ronn(1) -- convert markdown files to manpages\n===\n\n## SYNOPSIS\n\nx\n", path: "ronn.1.ronn")
        XCTAssertTrue(out.contains(".TH \"RONN\" \"1\" \"2024-05-06\"\n.SH NAME\nronn \\- convert markdown files to manpages\n.SH SYNOPSIS\n"), out)
    }

    func testGoMd2manTitleHeading() {
        let th = thLine("go-md2man 1 \"January 2015\" go-md2man \"User Manual\"\n===\n\n# NAME\ngo-md2man - x\n", path: "g.md")
        // Issue 31 item 11: the date as the author wrote it (was 2015-01-01).
        XCTAssertEqual(th, #".TH "GO\-MD2MAN" "1" "January 2015" "go-md2man" "User Manual""#)
    }

    func testFrontMatterFieldsWinAndDefaults() {
        XCTAssertEqual(thLine("Body.\n", path: "tool.md", fields: ["section": "5", "date": "2020-02-03T10:00:00Z", "manual": "File Formats"]),
                       #".TH "TOOL" "5" "2020-02-03" "" "File Formats""#)
        let (_, diags) = ManTestSupport.render("Body.\n", path: "dir/tool.8.md", created: nil)
        XCTAssertEqual(thLine("Body.\n", path: "dir/tool.8.md", created: nil), #".TH "TOOL" "8""#)
        XCTAssertTrue(diags.contains { $0.message.contains("no date") }, "\(diags)")
        XCTAssertTrue(diags.contains { $0.message.contains("taken from the file name") }, "\(diags)")
    }

    func testCorpusTitleLines() throws {
        let expected: [String: String] = [
            "exa.1.md": #".TH "EXA" "1" "2024-05-06" "v0.9.0""#,
            "go-md2man.1.md": #".TH "GO\-MD2MAN" "1" "January 2015" "go-md2man" "User Manual""#,
            "podman.1.md": #".TH "PODMAN" "1" "2024-05-06""#,
            "ronn.1.ronn": #".TH "RONN" "1" "2024-05-06""#,
            "runc.8.md": #".TH "RUNC" "8" "2024-05-06""#,
            "skopeo-copy.1.md": #".TH "SKOPEO\-COPY" "1" "2024-05-06""#,
        ]
        for (name, th) in expected {
            let text = try String(contentsOf: ManTestSupport.manCorpus.appendingPathComponent(name), encoding: .utf8)
            XCTAssertEqual(thLine(text, path: name), th, name)
        }
    }

    func testNameLineUsesEscapedHyphen() throws {
        let checks: [String: String] = [
            "exa.1.md": "exa \\- a modern replacement for ls",
            "runc.8.md": "runc \\- Open Container Initiative runtime",
            // Issue 31 item 15: source lines of at most 80 bytes (the NAME line too).
            "skopeo-copy.1.md": "skopeo\\-copy \\- Copy an image (manifest, filesystem layers, signatures) from one\nlocation to another.",
            "go-md2man.1.md": "go\\-md2man \\- Convert markdown files into manpages",
        ]
        for (name, line) in checks {
            let text = try String(contentsOf: ManTestSupport.manCorpus.appendingPathComponent(name), encoding: .utf8)
            let (out, _) = ManTestSupport.render(text, path: name)
            XCTAssertTrue(out.contains(".SH NAME\n" + line + "\n"), "\(name):\n" + out.prefix(300))
        }
    }
}

final class ManGoldenTests: XCTestCase {
    /// Every `Golden/man/<case>.md` renders to exactly `<case>.man`, and that output is lint-clean.
    func testGoldenFiles() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: ManTestSupport.goldenDir.path)
            .filter { $0.hasSuffix(".md") }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 8)
        for f in files {
            let input = try String(contentsOf: ManTestSupport.goldenDir.appendingPathComponent(f), encoding: .utf8)
            let (out, _) = ManTestSupport.render(input, path: f)
            let goldenURL = ManTestSupport.goldenDir.appendingPathComponent(String(f.dropLast(3)) + ".man")
            let expected = try String(contentsOf: goldenURL, encoding: .utf8)
            XCTAssertEqual(out, expected, "golden \(f) differs")
            XCTAssertEqual(ManTestSupport.lint(out, name: String(f.dropLast(3))), "", "lint of \(f)")
        }
    }

    /// Through the binary, twice (two processes, each with its own hash seed): both runs write
    /// the golden page's bytes, which are ASCII only.
    func testOutputIsASCIIAndTheSameAcrossProcesses() throws {
        let input = ManTestSupport.goldenDir.appendingPathComponent("non-ascii.md")
        let expected = try Data(contentsOf: ManTestSupport.goldenDir.appendingPathComponent("non-ascii.man"))
        // The golden files are rendered with created = 2024-05-06 (ManTestSupport.created).
        let env = ["SOURCE_DATE_EPOCH": "1714953600"]
        for _ in 0..<2 {
            let r = try NotepressBinary.run(["convert", "-t", "man", input.path], environment: env)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(r.stdout, expected)
        }
        XCTAssertTrue(expected.allSatisfy { $0 < 0x80 })
        XCTAssertTrue(String(decoding: expected, as: UTF8.self).contains(#"caf\[u00E9] \- r\[u00E9]sum\[u00E9]"#))
    }
}

final class ManEscapingTests: XCTestCase {
    func testEscaperRules() {
        XCTAssertEqual(RoffEscaper.escape("a\\b", context: .text, minus: false), "a\\eb")
        XCTAssertEqual(RoffEscaper.escape("--x-y", context: .text, minus: true), "\\-\\-x\\-y")
        XCTAssertEqual(RoffEscaper.escape("well-known", context: .text, minus: false), "well-known")
        XCTAssertEqual(RoffEscaper.escape("say \"hi\"", context: .argument, minus: false), "say \\(dqhi\\(dq")
        XCTAssertEqual(RoffEscaper.escape("a@b", context: .cell, minus: false), "a\\[at]b")
        XCTAssertEqual(RoffEscaper.escape("é—😀", context: .text, minus: false), "\\[u00E9]\\(em\\[u1F600]")
        XCTAssertEqual(RoffEscaper.escape("a\u{7}b\tc", context: .text, minus: false), "ab c")
        XCTAssertEqual(RoffEscaper.escape("a\tb", context: .code, minus: true), "a\tb")
    }

    func testWrappedLineNeverStartsWithControlCharacter() {
        // Many words, some starting with '.' or '\'', so that wrapping puts them at line starts.
        let words = (0..<200).map { i in i % 3 == 0 ? ".w\(i)" : (i % 3 == 1 ? "'q\(i)" : "word\(i)") }
        let (out, _) = ManTestSupport.render("% t(1)\n\n" + words.joined(separator: " ") + "\n", path: "t.md")
        let body = out.split(separator: "\n").drop { !$0.hasPrefix(".TH") }.dropFirst()
        var textLines = 0
        for line in body where !line.hasPrefix(".PP") && !line.hasPrefix(".SH") {
            textLines += 1
            XCTAssertFalse(line.hasPrefix("'"), String(line))
            XCTAssertFalse(line.hasPrefix(".") && !line.hasPrefix(".PP"), String(line))
            XCTAssertLessThanOrEqual(line.count, 90, String(line))
        }
        XCTAssertGreaterThan(textLines, 10)
    }

    /// Note-markup features from a hand-made document: alert colour → bold, script → italic,
    /// strikethrough → `[STRIKEOUT:…]` (issue 17), unknown block → warning and its children; a
    /// note is in the "Notes" manual.
    func testNoteFeatures() {
        var runs = InlinesBuilder()
        runs.append(.text("URGENT"), in: .colorRole(.alert))
        runs.append(.text(" and "))
        runs.append(.text("flourish"), in: .script)
        runs.append(.text(" and "))
        runs.append(.text("gone"), in: .strikethrough)
        let doc = Document(
            metadata: DocumentMetadata(title: "note", created: ManTestSupport.created, sourceFormat: .note,
                                       fields: ["section": "7"]),
            blocks: [
                Block(.paragraph(runs.take())),
                Block(.unknown(typeName: "custom", blocks: [Block(.paragraph([InlineRun(.text("inside"))]))])),
            ])
        var diags: [Diagnostic] = []
        let out = ManEmitter().render(doc, diagnostics: &diags)
        XCTAssertEqual(out, """
            .TH "NOTE" "7" "2024-05-06" "" "Notes"
            .PP
            \\fBURGENT\\fR and \\fIflourish\\fR and [STRIKEOUT:gone]
            .PP
            inside

            """)
        XCTAssertTrue(diags.contains { $0.message.contains("unknown block 'custom'") }, "\(diags)")
        XCTAssertTrue(diags.contains { $0.message.contains("no NAME section") }, "\(diags)")
    }

    func testRawHTMLWarning() {
        let (out, diags) = ManTestSupport.render("% h(1)\n\n<div>x</div>\n\ntext <b>b</b>\n", path: "h.md")
        XCTAssertFalse(out.contains("div"), out)
        // Issue 15: the <b> start and end tags are one dropped element, one warning.
        XCTAssertEqual(diags.filter { $0.message.contains("raw HTML") }.map(\.message),
                       ["man: raw HTML block dropped", "man: raw HTML '<b>'…'</b>' dropped"], "\(diags)")
    }

    func testWriterRegistered() {
        let w = WriterRegistry.writer(named: "man")
        XCTAssertEqual(w?.fileExtension, "man")
    }
}

final class ManLintTests: XCTestCase {
    /// Every file of the man-page corpus converts to a page that mandoc and groff accept silently.
    func testManCorpusIsLintClean() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: ManTestSupport.manCorpus.path)
            .filter { $0.hasSuffix(".md") || $0.hasSuffix(".ronn") }.sorted()
        XCTAssertEqual(files.count, 6)
        for f in files {
            let text = try String(contentsOf: ManTestSupport.manCorpus.appendingPathComponent(f), encoding: .utf8)
            let (out, _) = ManTestSupport.render(text, path: f)
            XCTAssertEqual(ManTestSupport.lint(out, name: "page"), "", f)
        }
    }

    /// Every Markdown sample in samples/ converts to a lint-clean page.
    func testSamplesAreLintClean() throws {
        var count = 0
        for sub in ["markdown", "notes"] {
            let dir = ManTestSupport.samplesDir.appendingPathComponent(sub)
            let files = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasSuffix(".md") }.sorted()
            for f in files {
                let text = try String(contentsOf: dir.appendingPathComponent(f), encoding: .utf8)
                let (out, _) = ManTestSupport.render(text, path: f)
                XCTAssertEqual(ManTestSupport.lint(out, name: "sample"), "", "\(sub)/\(f)")
                count += 1
            }
        }
        XCTAssertGreaterThan(count, 0, "no samples found in \(ManTestSupport.samplesDir.path)")
    }

    /// `man -l` shows the NAME line in a real terminal (tmux, 80×40).
    func testManRendersInTerminal() throws {
        let input = try String(contentsOf: ManTestSupport.goldenDir.appendingPathComponent("options-tp.md"), encoding: .utf8)
        let (out, _) = ManTestSupport.render(input, path: "options-tp.md")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("notepress-man-tmux-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("opts.8")
        try out.write(to: page, atomically: true, encoding: .utf8)
        guard ManTestSupport.run("man", ["-w"]) != nil else { return }
        let screen = try tmuxScreen(width: 80, height: 40, command: "env MANPAGER=cat MANWIDTH=80 man -l \(page.path); sleep 30",
                                    waitFor: "opts - options")
        XCTAssertTrue(screen.contains("opts - options the go-md2man and pandoc ways"), screen)
        XCTAssertTrue(screen.contains("OPTS(8)"), screen)
        XCTAssertTrue(screen.contains("--debug"), screen)
    }
}
