import Foundation
import XCTest
import NotepressTestSupport
import NotepressANSI
import NotepressAST
import Notepress

/// `notepress view` in a real terminal: tmux (Debian package `tmux`) runs the binary in a detached
/// session of a given size, and `capture-pane -p` shows what the screen holds.
final class ANSIViewTests: XCTestCase {
    static let sample = """
    # Viewing notes

    A paragraph of plain words that is long enough to wrap at least once at sixty columns and \
    several times at forty columns, with **bold** and a [link](https://example.com/page) inside.

    日本語の文は一文字が二列を占めるので、四十列の端末では早めに折り返されます。

    - a list item that also needs to wrap when the terminal is only forty columns wide
    - [x] done

    | Name | Value |
    |------|------:|
    | width | 60 |
    | 幅 | 六十 |

    """

    /// What the pane shows (trailing blanks trimmed), written out by hand: each CJK character
    /// takes two columns (wcwidth), so the Japanese line breaks after 30 characters at 60
    /// columns and after 20 at 40, and `幅` / `六十` fill 2 / 4 of a 5-column cell. The title is
    /// the first heading, shown once, where it stands (no title line above the date); the date is SOURCE_DATE_EPOCH 1700000000; tmux 3.3 drops OSC 8, so a link's URL follows its
    /// text in parentheses.
    static let screens: [Int: [String]] = [
        60: [
            "2023-11-14", "",
            "# Viewing notes", "━━━━━━━━━━━━━━━", "",
            "A paragraph of plain words that is long enough to wrap at",
            "least once at sixty columns and several times at forty",
            "columns, with bold and a link (https://example.com/page)",
            "inside.", "",
            "日本語の文は一文字が二列を占めるので、四十列の端末では早めに",
            "折り返されます。", "",
            "• a list item that also needs to wrap when the terminal is",
            "  only forty columns wide",
            "☑ done", "",
            "┌───────┬───────┐", "│ Name  │ Value │", "├───────┼───────┤", "│ width │    60 │", "│ 幅    │  六十 │", "└───────┴───────┘",
        ],
        40: [
            "2023-11-14", "",
            "# Viewing notes", "━━━━━━━━━━━━━━━", "",
            "A paragraph of plain words that is long",
            "enough to wrap at least once at sixty",
            "columns and several times at forty",
            "columns, with bold and a link",
            "(https://example.com/page) inside.", "",
            "日本語の文は一文字が二列を占めるので、四",
            "十列の端末では早めに折り返されます。", "",
            "• a list item that also needs to wrap",
            "  when the terminal is only forty",
            "  columns wide",
            "☑ done", "",
            "┌───────┬───────┐", "│ Name  │ Value │", "├───────┼───────┤", "│ width │    60 │", "│ 幅    │  六十 │", "└───────┴───────┘",
        ],
    ]

    func testViewInsideTmuxAtTwoWidths() throws {
        let tmux = try XCTUnwrap(Tools.which("tmux"), "tmux is not installed (Debian package tmux); this test needs it")
        let binary = NotepressBinary.url.path
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("notepress-view-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("sample.md")
        try Self.sample.write(to: file, atomically: true, encoding: .utf8)

        for width in [60, 40] {
            let command = "unset NO_COLOR CLICOLOR_FORCE FORCE_COLOR COLORTERM; SOURCE_DATE_EPOCH=1700000000 PAGER=cat "
                + "TERM=xterm-256color '\(binary)' view '\(file.path)'; echo __END__; sleep 30"
            let (screen, withEscapes) = try Self.runInTmux(tmux, width: width, height: 40, command: command, dir: dir)
            XCTAssertTrue(screen.contains("__END__"), "the view command did not finish:\n\(screen)")
            let shown = screen.components(separatedBy: "\n").prefix { !$0.hasPrefix("__END__") }
                .map { String($0.reversed().drop { $0 == " " }.reversed()) }
            // The layout at the pane's width (TIOCGWINSZ detected it).
            XCTAssertEqual(Array(shown), Self.screens[width]!, "screen at width \(width)")
            XCTAssertTrue(shown.contains { $0.hasPrefix("A paragraph of plain words") })
            XCTAssertTrue(shown.allSatisfy { TerminalWidth.columns($0) <= width })
            // Colour is on inside a terminal: the pane holds attributes (capture-pane -e shows them).
            XCTAssertTrue(withEscapes.contains("\u{1B}["), "no colour in the terminal")
        }
    }

    /// Output taller than the screen goes through `$PAGER`; output that fits does not.
    func testViewPagesOnlyWhenTallerThanScreen() throws {
        let tmux = try XCTUnwrap(Tools.which("tmux"), "tmux is not installed (Debian package tmux); this test needs it")
        let binary = NotepressBinary.url.path
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("notepress-pager-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("sample.md")
        try Self.sample.write(to: file, atomically: true, encoding: .utf8)
        for height in [10, 40] {
            let paged = dir.appendingPathComponent("paged-\(height).txt").path
            let command = "PAGER=\"cat > '\(paged)'\" '\(binary)' view --color never '\(file.path)'; echo __END__; sleep 30"
            let (screen, _) = try Self.runInTmux(tmux, width: 60, height: height, command: command, dir: dir)
            XCTAssertTrue(screen.contains("__END__"), screen)
            let pagedText = try? String(contentsOfFile: paged, encoding: .utf8)
            if height == 10 {
                XCTAssertEqual(pagedText?.contains("\n# Viewing notes\n"), true, "the pager did not receive the output")
                XCTAssertFalse(screen.contains("Viewing notes"), "output went to the screen instead of the pager")
            } else {
                XCTAssertNil(pagedText, "the pager ran although the output fits")
                XCTAssertTrue(screen.contains("# Viewing notes"))
            }
        }
    }

    /// Runs `command` in a detached tmux session of `width`×`height` on a private socket, waits
    /// until the pane shows `__END__` (at most 60 s: a loaded machine may be slow), and returns the pane's text without and
    /// with attributes (`capture-pane -p`, `-p -e`). One shell does it all: a tmux server started
    /// by a short-lived child process of the test does not outlive that process.
    static func runInTmux(_ tmux: String, width: Int, height: Int, command: String, dir: URL) throws -> (String, String) {
        let socket = "notepress-test-\(getpid())-\(width)x\(height)"
        let plainFile = dir.appendingPathComponent("screen-\(width)x\(height).txt").path
        let escFile = dir.appendingPathComponent("screen-\(width)x\(height)-e.txt").path
        let script = """
        T='\(tmux)'; S='\(socket)'
        "$T" -L "$S" -f /dev/null new-session -d -x \(width) -y \(height) "$1" || exit 3
        end=$(( $(date +%s) + 60 ))
        while [ "$(date +%s)" -lt "$end" ]; do
          "$T" -L "$S" capture-pane -p > '\(plainFile)'
          grep -q __END__ '\(plainFile)' && break
          sleep 0.05
        done
        "$T" -L "$S" capture-pane -p -e > '\(escFile)'
        "$T" -L "$S" kill-server
        """
        let r = Tools.run("/bin/sh", ["-c", script, "sh", command])
        XCTAssertEqual(r.status, 0, "tmux failed: \(r.output)")
        return ((try? String(contentsOfFile: plainFile, encoding: .utf8)) ?? "",
                (try? String(contentsOfFile: escFile, encoding: .utf8)) ?? "")
    }
}
