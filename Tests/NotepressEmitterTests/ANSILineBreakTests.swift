import Foundation
import XCTest
import NotepressTestSupport
@testable import Notepress
@testable import NotepressANSI
import NotepressAST
import NotepressReaders
import NotepressThemes

/// Line breaking by UAX #14 (ICU) and widths per grapheme cluster in terminal output.
final class ANSILineBreakTests: XCTestCase {

    /// Markdown on standard input through the real binary, plain terminal text.
    private func ansi(_ markdown: String, width: Int) throws -> String {
        let r = try NotepressBinary.run(["convert", "-", "-f", "gfm", "-t", "ansi", "--width", String(width), "--color", "never",
                                         "--hyperlinks", "never"], stdin: Data(markdown.utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.stdoutText
    }

    private func render(_ markdown: String, width: Int) throws -> String {
        ANSITestSupport.render(try ANSITestSupport.readMarkdown(markdown), width: width)
    }

    // MARK: Regressions from the speed work (issue 19)

    /// A plain space before a space that carries a combining mark (or ZWJ), or after U+0600
    /// (a Prepend character), is a separating space of its own: the byte scan that finds them
    /// once dropped it (`Cafe  \u{301}` came out with one space).
    func testSpaceNextToAnExtendedSpaceIsKept() throws {
        XCTAssertEqual(try ansi("Cafe  \u{301} ok and x  \u{200D} y\n\nword \u{600}  b end\n", width: 80),
                       "Cafe  \u{301} ok and x  \u{200D} y\n\nword \u{600}  b end\n")
    }

    /// A grapheme cluster wider than its table column (a space carrying seven skin-tone
    /// modifiers) overflows the column; the row used to trap on a negative padding (exit 132).
    func testClusterWiderThanTableColumnDoesNotTrap() throws {
        let skin = String(repeating: "\u{1F3FB}", count: 7)
        XCTAssertEqual(try ansi("| a |\n|---|\n| x \(skin) |\n", width: 12),
                       "┌──────────┐\n│ a        │\n├──────────┤\n│ x        │\n│  \(skin) │\n└──────────┘\n")
    }

    // MARK: UAX #14

    /// The case: at 12 columns (six ideographs) the second line started with `，`.
    func testCJKCommaNeverStartsALine() throws {
        XCTAssertEqual(try ansi("一二三四五六，七八九。\n", width: 12), "一二三四五\n六，七八九。\n")
    }

    func testOpeningBracketNeverEndsALine() throws {
        XCTAssertEqual(try ansi("漢字漢字「引用」です\n", width: 10), "漢字漢字\n「引用」で\nす\n")
    }

    /// ICU's default (strict) rules: no break before a small kana (`ょ` stays with `き`).
    func testSmallKanaStaysWithItsSyllable() throws {
        XCTAssertEqual(try render("あいうえきょう\n", width: 10), "あいうえ\nきょう\n")
    }

    /// CJK text fills the line it starts on (breaks between ideographs), where it used to start
    /// a new line as one long word.
    func testCJKBreaksBetweenIdeographsNotOnlyAtSpaces() throws {
        XCTAssertEqual(try render("Tokyo 東京都の天気です\n", width: 12), "Tokyo 東京都\nの天気です\n")
    }

    /// LB13: no break before `!`, `?`, `:`, `;`, `)` even after a space.
    func testNoBreakBeforeExclamationAfterASpace() throws {
        XCTAssertEqual(try render("aaaa bbbb !\n", width: 10), "aaaa\nbbbb !\n")
        XCTAssertEqual(try render("see (x )\n", width: 6), "see\n(x )\n")
    }

    func testBreakAfterHyphenAndSlash() throws {
        XCTAssertEqual(try render("Hyphenated well-known\n", width: 16), "Hyphenated well-\nknown\n")
        XCTAssertEqual(try render("at example.com/path/to/page\n", width: 20), "at example.com/path/\nto/page\n")
    }

    /// Our tailoring of UAX #14: a URL or an option that fits on a line is never split after
    /// `/`, `:` or `-` (it stays clickable and copyable); one wider than the line still breaks at
    /// UAX #14's opportunities; ordinary hyphenated words still break after the hyphen.
    func testURLsAndOptionsThatFitStayWhole() throws {
        XCTAssertEqual(try render("see https://example.com/page now\n", width: 26),
                       "see\nhttps://example.com/page\nnow\n")
        XCTAssertEqual(try render("run it with --dry-run please\n", width: 18), "run it with\n--dry-run please\n")
        XCTAssertEqual(try render("a `(www.example.org/x)` b\n", width: 20), "a\n(www.example.org/x)\nb\n")
        XCTAssertEqual(try render("https://example.com/a/very/long/path\n", width: 20),
                       "https://example.com/\na/very/long/path\n")
        XCTAssertEqual(try render("Hyphenated well-known\n", width: 16), "Hyphenated well-\nknown\n")
    }

    /// Plain Latin prose breaks at spaces exactly as before; soft breaks are spaces; runs of
    /// spaces collapse; styled words do not split.
    func testLatinProseStillBreaksAtSpaces() throws {
        XCTAssertEqual(try render("the quick brown fox\njumps  over *the* la**zy** dog\n", width: 10),
                       "the quick\nbrown fox\njumps over\nthe lazy\ndog\n")
    }

    /// The filler's collecting rules, fed directly: runs of spaces collapse into one that takes
    /// the style of the last; spaces at the start of a line and before a hard break vanish.
    func testSpacesCollapseAndVanishAroundHardBreaks() {
        let bold = TerminalStyle(bold: true)
        var f = LineFiller(width: 20)
        f.space(bold, nil)
        f.appendText("one  ", TerminalStyle(), nil)
        f.space(bold, nil)
        f.appendText("two ", TerminalStyle(), nil)
        f.hardBreak()
        f.appendText("  three", TerminalStyle(), nil)
        let lines = f.finish()
        XCTAssertEqual(lines.map { $0.map(\.text) }, [["one", " ", "two"], ["three"]])
        XCTAssertEqual(lines[0][1].style, bold)
        XCTAssertEqual(lines.map(lineWidth), [7, 5])
    }

    /// A piece without any break opportunity that is wider than the line is cut between grapheme
    /// clusters, as before.
    func testUnbreakablePieceIsCutBetweenClusters() throws {
        XCTAssertEqual(try render("x abcdefghij\n", width: 4), "x\nabcd\nefgh\nij\n")
        XCTAssertEqual(try render("x e\u{301}e\u{301}e\u{301}e\u{301}\n", width: 3), "x\ne\u{301}e\u{301}e\u{301}\ne\u{301}\n")
        XCTAssertEqual(try render("x 一二三四五六七\n", width: 5), "x 一\n二三\n四五\n六七\n")
    }

    /// The URL shown after a link text is one piece: its spaces are no break opportunities.
    func testSpacesInsideAShownURLDoNotBreak() throws {
        XCTAssertEqual(try render("[a](<b c>) d\n", width: 5), "a\n(b c)\nd\n")
    }

    /// ICU is asked for break opportunities 1024 at a time: paragraphs with many more come out
    /// as one pass over the whole text would give.
    func testParagraphsWithThousandsOfBreaks() throws {
        XCTAssertEqual(try render(String(repeating: "ab ", count: 3000) + "\n", width: 8),
                       String(repeating: "ab ab ab\n", count: 1000))
        XCTAssertEqual(try render(String(repeating: "一", count: 3000) + "。\n", width: 10),
                       String(repeating: "一一一一一\n", count: 599) + "一一一一\n一。\n")  // `。` takes its ideograph along
    }

    // MARK: Widths per grapheme cluster

    func testClusterWidths() {
        XCTAssertEqual(TerminalWidth.columns("🇳🇱"), 2)                      // flag: two Regional Indicators
        XCTAssertEqual(TerminalWidth.columns("👩\u{200D}👩\u{200D}👧"), 2)   // ZWJ sequence
        XCTAssertEqual(TerminalWidth.columns("❤\u{FE0F}"), 2)               // VS16: emoji presentation
        XCTAssertEqual(TerminalWidth.columns("❤"), 1)
        XCTAssertEqual(TerminalWidth.columns("👍\u{1F3FD}"), 2)              // skin-tone modifier
        XCTAssertEqual(TerminalWidth.columns("☝\u{1F3FD}"), 2)              // text-default base + modifier
        XCTAssertEqual(TerminalWidth.columns("1\u{FE0F}\u{20E3}"), 2)        // keycap
        XCTAssertEqual(TerminalWidth.columns("⌚\u{FE0E}"), 2)               // VS15 adds nothing
        XCTAssertEqual(TerminalWidth.columns("e\u{301}"), 1)
        XCTAssertEqual(TerminalWidth.columns("\u{1100}\u{1161}\u{11A8}"), 2) // Hangul jamo L V T
        XCTAssertEqual(TerminalWidth.columns("a🇳🇱b👩\u{200D}👧c"), 7)
        XCTAssertEqual(TerminalWidth.displayColumns(ofRendered: "\u{1B}[1m🇳🇱\u{1B}[0m ❤\u{FE0F}"), 5)
    }

    /// The table: the flag row was drawn 2 columns short; ZWJ, VS16 and skin-tone rows too.
    func testTableWithFlagsZWJVS16AndSkinTones() throws {
        let md = "| a | n |\n|---|---|\n| 🇳🇱 | 1 |\n| 👩‍👩‍👧 | 2 |\n| ❤️ | 3 |\n| 👍🏽 | 4 |\n| ab | 5 |\n"
        XCTAssertEqual(try ansi(md, width: 40), """
            ┌────┬───┐
            │ a  │ n │
            ├────┼───┤
            │ 🇳🇱 │ 1 │
            │ 👩‍👩‍👧 │ 2 │
            │ ❤️ │ 3 │
            │ 👍🏽 │ 4 │
            │ ab │ 5 │
            └────┴───┘

            """)
    }

    /// Wrapping counts a flag as 2 columns (three flags fill 6), the title shadow is as wide as
    /// the title's clusters, and a tab in code after a flag stops at column 4.
    func testWrappingTitleShadowAndTabsUseClusterWidths() throws {
        XCTAssertEqual(try render("🇳🇱🇯🇵🇫🇷 x\n", width: 6), "🇳🇱🇯🇵🇫🇷\nx\n")
        XCTAssertEqual(try render("x 🇳🇱🇳🇱🇳🇱\n", width: 4), "x 🇳🇱\n🇳🇱🇳🇱\n")
        XCTAssertEqual(try render("---\ntitle: 🇳🇱 👩‍👧 ❤️\n---\n", width: 40), "🇳🇱 👩‍👧 ❤️\n────────\n")
        XCTAssertEqual(try render("```\n🇳🇱\tx\n```\n", width: 40), "  🇳🇱  x\n")
    }

    /// What users see in tmux 3.3 (bookworm): rows with a flag or a ZWJ sequence end in the same
    /// column as the others (tmux joins both into one 2-column cell). tmux 3.3 adds up `❤️` as 1
    /// and `👍🏽` as 4 columns, unlike the terminals whose rule we follow, so those rows are not
    /// checked here.
    func testTableRowsWithFlagsAndZWJLineUpInTmux() throws {
        let md = "| a | n |\n|---|---|\n| 🇳🇱 | 1 |\n| 👩‍👩‍👧 | 2 |\n| ab | 3 |\n"
        let dir = try makeTempDir(self)
        let rows = try ansi(md, width: 40).split(separator: "\n").map(String.init)
        XCTAssertEqual(rows.count, 7)
        try (rows.joined(separator: "\n") + "\n").write(to: dir.appendingPathComponent("rows"), atomically: true, encoding: .utf8)
        // Print each row alone on a cleared screen and note the column the cursor ends in. The
        // row is followed by a pane title naming it (OSC 2, which moves no cursor): once tmux
        // shows that title it has drawn the row, whatever the machine's speed.
        try """
            i=0
            while IFS= read -r l; do
              i=$((i+1))
              printf '\\033[H\\033[2J%s\\033]2;row%s\\033\\\\' "$l" "$i"
              n=0
              until [ "$(tmux display -p '#{pane_title}')" = "row$i" ] || [ $n -ge 1200 ]; do sleep 0.05; n=$((n+1)); done
              tmux display -p 'x=#{cursor_x}' >> "\(dir.path)/columns"
            done < "\(dir.path)/rows"
            echo; echo DONE; sleep 60
            """.write(to: dir.appendingPathComponent("show.sh"), atomically: true, encoding: .utf8)
        _ = try tmuxScreen(width: 40, height: 5, command: "sh \(dir.path)/show.sh", waitFor: "DONE")
        let columns = try String(contentsOf: dir.appendingPathComponent("columns"), encoding: .utf8)
        XCTAssertEqual(columns, String(repeating: "x=10\n", count: 7), "the cursor column after each row")
    }
}
