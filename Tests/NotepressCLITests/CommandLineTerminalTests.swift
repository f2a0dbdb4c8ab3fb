import Foundation
import XCTest
import NotepressTestSupport

/// Issue 15 in a real terminal: tmux (Debian package `tmux`) runs the binary in a detached pane;
/// keys are sent with `send-keys` and the screen read with `capture-pane`. The pager is the real
/// `less`, the completion the real bash and zsh.
final class CommandLineTerminalTests: XCTestCase {
    static let journal = TestPaths.samples.appendingPathComponent("notes/journal-2023.note").path

    /// `notepress view` hung on any document taller than the screen: the pager ran in its own
    /// process group, was stopped by SIGTTOU, and notepress blocked on the full pipe.
    func testViewPagesALongNoteThroughLessAndQQuits() throws {
        for pager in ["", "PAGER='less -R'"] {
            let session = try TmuxSession(width: 80, height: 24, command:
                "unset PAGER NOTEPRESS_PAGER LESS LV NO_COLOR; \(pager) TERM=xterm-256color '\(NotepressBinary.url.path)' view '\(Self.journal)'; "
                + "echo __END__ status=$?; sleep 60")
            defer { session.kill() }
            let first = try session.waitFor("Journal 2023")
            // less shows the first screen and waits at its prompt (the last line, ':').
            let lines = try session.waitForLines { $0.last?.hasPrefix(":") == true }
            XCTAssertEqual(lines.first, "Journal 2023 — allotment, work and everything else", "\(pager)\n\(first)")
            XCTAssertEqual(lines.count, 24, "one screen: \(lines)")
            XCTAssertFalse(lines.joined().contains("__END__"), "notepress waits for the pager")
            session.send("q")
            let after = try session.waitFor("__END__")
            XCTAssertTrue(after.contains("__END__ status=0"), "\(pager): \(after)")
            // LESS=FRX: X leaves the text on the screen after q.
            XCTAssertTrue(after.contains("1. sow the next batch of salad"), after)
        }
    }

    /// `LESS=FRX` and `LV=-c` are given to the pager only when unset; `PAGER=` or `cat` means none.
    func testPagerEnvironmentAndNoPager() throws {
        let dir = try makeTempDir(self)
        let envFile = dir.appendingPathComponent("env").path
        let binary = NotepressBinary.url.path
        for (preset, expected) in [("unset LESS LV", ["LESS=FRX", "LV=-c"]), ("export LESS=-i LV=-a", ["LESS=-i", "LV=-a"])] {
            let session = try TmuxSession(width: 80, height: 24, command:
                "\(preset); unset NOTEPRESS_PAGER; PAGER=\"env > '\(envFile)'; cat > /dev/null\" '\(binary)' view '\(Self.journal)'; "
                + "echo __END__ status=$?; sleep 60")
            defer { session.kill() }
            let screen = try session.waitFor("__END__")
            XCTAssertTrue(screen.contains("__END__ status=0"), screen)
            let env = try String(contentsOfFile: envFile, encoding: .utf8).split(separator: "\n").map(String.init)
            for e in expected { XCTAssertTrue(env.contains(e), "\(e) in \(env.filter { $0.hasPrefix("L") })") }
        }
        for pager in ["PAGER=", "PAGER=cat", "NOTEPRESS_PAGER=cat PAGER=less"] {
            let session = try TmuxSession(width: 80, height: 24, command:
                "unset NOTEPRESS_PAGER; \(pager) '\(binary)' view --color never '\(Self.journal)'; echo __END__ status=$?; sleep 60")
            defer { session.kill() }
            let screen = try session.waitFor("__END__")
            XCTAssertTrue(screen.contains("__END__ status=0"), "\(pager): no pager, written straight out: \(screen)")
        }
    }

    /// `-t ansi` to a pipe in a terminal is coloured unless NO_COLOR; links inside tmux 3.3 show
    /// their URL (tmux before 3.4 drops OSC 8 and the target with it).
    func testConvertAnsiColourAndLinksInTmux() throws {
        let dir = try makeTempDir(self)
        let file = dir.appendingPathComponent("a.md")
        try "Some **bold** text and a [link](https://example.org/page).\n".write(to: file, atomically: true, encoding: .utf8)
        let binary = NotepressBinary.url.path
        for (noColor, coloured) in [("", true), ("1", false)] {
            let session = try TmuxSession(width: 80, height: 10, command:
                "NO_COLOR=\(noColor) '\(binary)' convert '\(file.path)' -t ansi | cat; "
                + "NO_COLOR=\(noColor) '\(binary)' convert '\(file.path)' -t ansi; echo __END__; sleep 60")
            defer { session.kill() }
            let screen = try session.waitFor("__END__")
            let escaped = session.capture(escapes: true)
            XCTAssertEqual(escaped.contains("\u{1B}["), coloured, "NO_COLOR=\(noColor): \(escaped.debugDescription)")
            let version = try session.tmuxVersion()
            if version.lexicographicallyPrecedes([3, 4]) {
                let shown = screen.components(separatedBy: "\n").filter { $0.contains("Some bold") }
                XCTAssertEqual(shown, ["Some bold text and a link (https://example.org/page).",
                                       "Some bold text and a link (https://example.org/page)."], screen)
            }
        }
    }

    /// `notepress convert` with the terminal as standard input: a usage error, not a hang.
    func testNoInputFromATerminalIsAUsageError() throws {
        let session = try TmuxSession(width: 100, height: 10, command:
            "'\(NotepressBinary.url.path)' convert -t man; echo __END__ status=$?; sleep 60")
        defer { session.kill() }
        let screen = try session.waitFor("__END__")
        XCTAssertTrue(screen.contains("notepress convert: no input given (FILE..., or - for standard input)"), screen)
        XCTAssertTrue(screen.contains("__END__ status=2"), screen)
    }

    /// The bash script, sourced in bash: `notepress conv<TAB>` and `notepress convert -t <TAB><TAB>`.
    func testBashCompletesCommandsAndFormats() throws {
        let dir = try makeTempDir(self)
        let script = dir.appendingPathComponent("notepress.bash").path
        try NotepressBinary.run(["completions", "bash"]).stdout.write(to: URL(fileURLWithPath: script))
        let bin = NotepressBinary.url.deletingLastPathComponent().path
        let session = try TmuxSession(width: 100, height: 20, command:
            "cd '\(dir.path)' && env -i PATH='\(bin)':/usr/bin:/bin TERM=xterm HOME='\(dir.path)' PS1='$ ' bash --norc --noprofile")
        defer { session.kill() }
        _ = try session.waitForLines { $0.last == "$" }
        session.sendLine("source '\(script)'; clear")
        _ = try session.waitForLines { $0 == ["$"] }
        session.send("notepress conv", "Tab")
        XCTAssertEqual(try session.waitForLines { $0.last?.hasPrefix("$ notepress convert") == true }.last, "$ notepress convert")
        session.send("-t ", "Tab", "Tab")
        let lines = try session.waitForLines { $0.count >= 3 }
        XCTAssertEqual(lines[1].split(separator: " ").map(String.init), ["ansi", "docx", "epub", "html", "json", "man", "odt", "pdf", "rtf", "tei"], "\(lines)")
        session.send("rt", "Tab")
        XCTAssertEqual(try session.waitForLines { $0.last?.contains("-t rtf") == true }.last, "$ notepress convert -t rtf")
        session.send("C-u", "notepress themes print ", "Tab", "Tab")
        let themes = try session.waitForLines { $0.contains { $0.contains("high-contrast") } }
        XCTAssertTrue(themes.contains { $0.split(separator: " ").map(String.init) == ["default", "high-contrast", "reading"] }, "\(themes)")
    }

    /// The zsh script, through compinit: `notepress conv<TAB>` and `notepress convert -t <TAB>`.
    func testZshCompletesCommandsAndFormats() throws {
        let dir = try makeTempDir(self)
        try NotepressBinary.run(["completions", "zsh"]).stdout.write(to: dir.appendingPathComponent("_notepress"))
        let bin = NotepressBinary.url.deletingLastPathComponent().path
        let session = try TmuxSession(width: 100, height: 20, command:
            "cd '\(dir.path)' && env -i PATH='\(bin)':/usr/bin:/bin TERM=xterm HOME='\(dir.path)' zsh -f")
        defer { session.kill() }
        session.sendLine("PS1='%% '; fpath=('\(dir.path)' $fpath); autoload -U compinit; compinit -u -D; clear")
        _ = try session.waitForLines { $0 == ["%"] }
        session.send("notepress conv", "Tab")
        _ = try session.waitForLines { $0.last?.hasPrefix("% notepress convert") == true }
        session.send("X")
        XCTAssertEqual(try session.waitForLines { $0.last?.hasSuffix("X") == true }.last, "% notepress convert X", "a space follows the command")
        session.send("BSpace", "-t ", "Tab")
        let lines = try session.waitForLines { $0.count >= 2 }
        XCTAssertEqual(lines[1].split(separator: " ").map(String.init), ["ansi", "docx", "epub", "html", "json", "man", "odt", "pdf", "rtf", "tei"], "\(lines)")
    }
}

