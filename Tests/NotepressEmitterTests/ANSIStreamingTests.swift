import Foundation
import XCTest
import NotepressTestSupport
@testable import Notepress
import NotepressANSI
import NotepressAST
import NotepressReaders
import NotepressThemes

/// The terminal emitter collects a paragraph's text in one pass and fills lines at its UAX #14
/// break opportunities: these pin its output (first written by the token-list wrapper, rewritten
/// where UAX #14 moved breaks).
final class ANSIStreamingTests: XCTestCase {
    /// `Golden/ansi/long-paragraph.md` is one paragraph of about 3.7 kB (emphasis, code, links,
    /// soft breaks, CJK, emoji, a combining accent, a tab, an ESC entity, words wider than the
    /// line). The goldens beside it were written by the emitter before the one-pass wrapper
    /// (`notepress convert - -t ansi`, read by eye): plain at 60 columns, truecolor at 80 columns,
    /// truecolor with OSC 8 hyperlinks at 80 columns; rewritten (`NOTEPRESS_UPDATE_GOLDEN=1`) when
    /// breaks came to follow UAX #14 (after hyphens and slashes, `mu-|nu`, `…/path/|that/…`; the
    /// diff read by eye).
    func testLongParagraphMatchesGolden() throws {
        let input = ANSITestSupport.goldenDir.appendingPathComponent("long-paragraph.md")
        let doc = try ANSITestSupport.read(input)
        XCTAssertEqual(doc.blocks.count, 1, "the case is a single paragraph")
        let cases: [(String, Int, ColorDepth, Bool)] = [
            ("plain-60", 60, .none, false), ("truecolor-80", 80, .truecolor, false), ("truecolor-osc8-80", 80, .truecolor, true),
        ]
        for (name, width, depth, links) in cases {
            let out = ANSITestSupport.render(doc, width: width, depth: depth, hyperlinks: links)
            let url = ANSITestSupport.goldenDir.appendingPathComponent("long-paragraph.\(name).ansi")
            if ProcessInfo.processInfo.environment["NOTEPRESS_UPDATE_GOLDEN"] == "1" {
                try out.write(to: url, atomically: true, encoding: .utf8)
            }
            let golden = try String(contentsOf: url, encoding: .utf8)
            XCTAssertEqual(out, golden, name)
            XCTAssertEqual(ANSITestSupport.layoutProblems(out, width: width), [], name)
        }
    }

    /// A space followed by a combining mark is one grapheme cluster, not a word break (as the
    /// Character-based wrapper had it): "a ́b" is one 3-column word.
    func testSpaceWithCombiningMarkIsNoBreak() throws {
        let doc = try ANSITestSupport.readMarkdown("a \u{301}b c\n")
        XCTAssertEqual(ANSITestSupport.render(doc, width: 3), "a \u{301}b\nc\n")
        XCTAssertEqual(ANSITestSupport.render(doc, width: 80), "a \u{301}b c\n")
        // A space after a Prepend character (U+0600) joins its cluster (UAX #29 GB9b): no break there.
        let prepend = try ANSITestSupport.readMarkdown("aaaaaa\u{600} bbbb cc \u{600}x y\n\nzzzzzzzz \u{301}w q\n")
        XCTAssertEqual(ANSITestSupport.render(prepend, width: 10),
                       "aaaaaa\u{600}\nbbbb cc \u{600}x\ny\n\nzzzzzzzz \u{301}w\nq\n")
    }

    /// Words made of several styled pieces wrap as one word; a word wider than the line breaks
    /// between grapheme clusters, never inside `é` written with a combining accent.
    func testStyledWordsAndWideWords() throws {
        let doc = try ANSITestSupport.readMarkdown("ab**cd**ef gh " + String(repeating: "e\u{301}", count: 9) + "\n")
        XCTAssertEqual(ANSITestSupport.render(doc, width: 6), "abcdef\ngh\n" + "e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}\ne\u{301}e\u{301}e\u{301}\n")
        let colored = ANSITestSupport.render(doc, width: 6, depth: .ansi16)
        XCTAssertEqual(colored.components(separatedBy: "\n").first, "ab\u{1B}[0;1mcd\u{1B}[0mef")
    }

    /// Long single lines: every line full (greedy), the last word alone if need be, the text kept.
    func testLongSingleLineFillsGreedily() throws {
        let words = (0..<3000).map { ["alpha", "beta", "gamma", "delta"][$0 % 4] }
        let doc = try ANSITestSupport.readMarkdown(words.joined(separator: " ") + "\n")
        let out = ANSITestSupport.render(doc, width: 17)
        let lines = out.split(separator: "\n")
        XCTAssertEqual(lines.joined(separator: " "), words.joined(separator: " "))
        for (a, b) in zip(lines, lines.dropFirst()) {
            let next = b.split(separator: " ")[0]
            XCTAssertGreaterThan(a.count + 1 + next.count, 17, "\(a) | \(next) would fit")
        }
    }

    /// The one escaping function: printable ASCII comes back as is (the fast path), controls
    /// become control pictures, tabs a space or a tab stop.
    func testVisibleRules() {
        XCTAssertEqual(TerminalText.visible("plain ASCII ~!"), "plain ASCII ~!")
        XCTAssertEqual(TerminalText.visible("a\tb"), "a b")
        XCTAssertEqual(TerminalText.visible("a\tb", tabs: .expand(4)), "a   b")
        XCTAssertEqual(TerminalText.visible("\u{1B}[31m\u{7F}\u{9B}"), "\u{241B}[31m\u{2421}\u{FFFD}")
        XCTAssertEqual(TerminalText.visible("日本\tx", tabs: .expand(8)), "日本    x")
    }

    /// Widths of the Basic Multilingual Plane come from a table made once from `wcwidth`; the
    /// rules on top of it are unchanged.
    func testScalarWidths() {
        XCTAssertEqual(TerminalWidth.scalarWidth("a"), 1)
        XCTAssertEqual(TerminalWidth.scalarWidth("\u{1}"), 0)
        XCTAssertEqual(TerminalWidth.scalarWidth("\u{301}"), 0)
        XCTAssertEqual(TerminalWidth.scalarWidth("é"), 1)
        XCTAssertEqual(TerminalWidth.scalarWidth("日"), 2)
        XCTAssertEqual(TerminalWidth.scalarWidth("\u{FF21}"), 2)  // fullwidth A
        XCTAssertEqual(TerminalWidth.scalarWidth("\u{85}"), 1)  // C1: wcwidth -1 counts 1
        XCTAssertEqual(TerminalWidth.scalarWidth("\u{1F44D}"), 2)  // emoji rule
        XCTAssertEqual(TerminalWidth.columns("日本 é\u{301}"[...]), 6)
    }
}
