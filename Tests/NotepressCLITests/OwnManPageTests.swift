import Foundation
import XCTest
import NotepressTestSupport

/// Issue 7: our own man page is built by Notepress from `man/notepress.1.md`, committed, and kept
/// in step with its source and with `--help`.
final class OwnManPageTests: XCTestCase {
    let source = TestPaths.root.appendingPathComponent("man/notepress.1.md")
    let built = TestPaths.root.appendingPathComponent("man/notepress.1")

    func testCommittedManPageIsUpToDateWithItsSource() throws {
        let r = try NotepressBinary.run(["convert", source.path, "-t", "man"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let committed = try String(contentsOf: built, encoding: .utf8)
        XCTAssertEqual(r.stdoutText, committed, "man/notepress.1 is out of date: run `make man` and commit it")
    }

    /// Every option that a command's `--help` lists is documented in the man page source.
    func testManPageDocumentsEveryOptionOfHelp() throws {
        let page = try String(contentsOf: source, encoding: .utf8)
        var checked = 0
        for command in ["convert", "serve", "scan", "index", "view", "validate", "themes", "templates", "formats", "completions", "help", "version"] {
            let help = try NotepressBinary.run([command, "--help"])
            XCTAssertEqual(help.status, 0, "\(command) --help: \(help.stderr)")
            let text = help.stdoutText + help.stderr
            let options = Set(text.split(whereSeparator: { " ,[]|=\n\t".contains($0) })
                .map(String.init).filter { $0.hasPrefix("--") && $0.count > 3 && $0.dropFirst(2).allSatisfy { $0.isLetter || $0 == "-" } })
            for option in options {
                checked += 1
                XCTAssertTrue(page.contains("**\(option)**"), "\(command): \(option) is in --help but not in man/notepress.1.md")
            }
        }
        XCTAssertGreaterThan(checked, 20)
        // And every command of the main usage is documented.
        let main = try NotepressBinary.run(["--help"]).stdoutText
        for command in ["convert", "serve", "scan", "index", "view", "validate", "themes", "templates", "formats", "completions", "help", "version"] {
            XCTAssertTrue(main.contains(command))
            XCTAssertTrue(page.contains("**\(command)**"), command)
        }
    }

    func testManPageIsLintClean() throws {
        for (tool, args) in [("mandoc", ["-T", "lint", "-W", "warning", built.path]), ("groff", ["-man", "-t", "-ww", "-z", built.path])] {
            let out = try runTool(tool, args)
            XCTAssertEqual(out.status, 0, "\(tool): \(out.output)")
            XCTAssertEqual(out.output, "", "\(tool) printed warnings")
        }
    }

    /// `man -l man/notepress.1` in a real terminal (tmux) shows the NAME line.
    func testManRendersInATerminal() throws {
        let screen = try tmuxScreen(width: 100, height: 40, command: "env MANPAGER=cat MANWIDTH=100 man -l \(built.path) | head -n 30; sleep 30",
                                    waitFor: "SYNOPSIS")
        XCTAssertTrue(screen.contains("NAME"), screen)
        // man justifies lines and may draw \\- as U+2212: "notepress  − convert note markup…".
        XCTAssertNotNil(screen.range(of: #"notepress\s+[-\x{2212}\x{2010}]\s+convert note markup and Markdown"#, options: .regularExpression), screen)
        XCTAssertTrue(screen.contains("NOTEPRESS(1)"), screen)
    }

    /// Issue 15: `man -l man/notepress-markup.7` did not work (the page was not shipped). It is
    /// built by `make man`, committed, up to date with its source, lint-clean for mandoc, and man
    /// shows it.
    func testMarkupManPageIsShippedUpToDateAndRenders() throws {
        let markupSource = TestPaths.root.appendingPathComponent("man/notepress-markup.7.md")
        let markup = TestPaths.root.appendingPathComponent("man/notepress-markup.7")
        let r = try NotepressBinary.run(["convert", markupSource.path, "-t", "man"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdoutText, try String(contentsOf: markup, encoding: .utf8),
                       "man/notepress-markup.7 is out of date: run `make man` and commit it")
        let lint = try runTool("mandoc", ["-T", "lint", "-W", "warning", markup.path])
        XCTAssertEqual(lint.output, "", "mandoc printed warnings")
        let screen = try tmuxScreen(width: 100, height: 40, command: "env MANPAGER=cat MANWIDTH=100 man -l \(markup.path) | head -n 30; sleep 30",
                                    waitFor: "DESCRIPTION")
        XCTAssertTrue(screen.contains("NOTEPRESS-MARKUP(7)"), screen)
        XCTAssertNotNil(screen.range(of: #"notepress-markup\s+[-\x{2212}\x{2010}]\s+the note markup read by notepress"#,
                                     options: .regularExpression), screen)
    }
}
