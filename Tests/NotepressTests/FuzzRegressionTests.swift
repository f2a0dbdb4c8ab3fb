import Foundation
import XCTest
@testable import Notepress

/// Inputs found by the libFuzzer target (.ci/fuzz.sh, Sources/NotepressFuzz) and edge cases of the
/// harness itself, run through the same ``FuzzHarness`` (every reader, every writer). Each input is
/// inline: byte 0 options, byte 1 width, then the text.
final class FuzzRegressionTests: XCTestCase {
    func run(_ flags: UInt8, _ text: String, file: StaticString = #filePath, line: UInt = #line) -> FuzzHarness.Outcome {
        let outcome = FuzzHarness.run([flags, 70] + Array(text.utf8))
        for name in WriterRegistry.all.map(\.name) {
            XCTAssertNotNil(outcome.outputBytes[name] ?? outcome.errors[name].map { _ in 0 }, "\(name) ran", file: file, line: line)
        }
        return outcome
    }

    func testEmptyAndTinyInputs() {
        for bytes: [UInt8] in [[], [0], [1, 0], [3, 255]] {
            let o = FuzzHarness.run(bytes)
            XCTAssertEqual(Set(o.outputBytes.keys), Set(WriterRegistry.all.map(\.name)), "\(bytes)")
            XCTAssertEqual(o.errors, [:], "\(bytes)")
        }
    }

    func testInvalidUTF8IsRepairedNotFatal() {
        let o = FuzzHarness.run([3, 20, 0xFF, 0xFE, 0x2A, 0xC3, 0x28, 0x2A, 0x0A])
        XCTAssertEqual(o.errors, [:])
        XCTAssertGreaterThan(o.outputBytes["html"] ?? 0, 0)
    }

    func testControlCharactersInEveryFormat() {
        // C0 controls, DEL, a lone CR, U+FFFE/U+FFFF and a form feed: TEI must still validate
        // (XML 1.0 §2.2 forbids most C0 controls), roff must not start a request.
        let text = "a\u{01}b\u{08}c\u{0B}d\u{0C}e\u{1B}[31m\u{7F}\r.TH x\n'x\n\u{FFFE}\u{FFFF}\n"
        for flags: UInt8 in [0, 1, 0b1100_1101] {
            let o = run(flags, text)
            XCTAssertEqual(o.errors, [:], "flags \(flags)")
        }
    }

    func testUnbalancedNoteSpansAndAlerts() {
        let o = run(0, "*_-~ URGENT ~-_*\n*a _b -c ~d\n1. 2. 3.\n~~~\n- -\n")
        XCTAssertEqual(o.errors, [:])
    }

    func testMarkdownEdgeShapes() {
        let text = "[^1]\n\n[^1]: > - | a |\n|---|\n\n<div>\n\n```\n\u{0}\n```\n\n* * *\n#\n|a|\n|-|\n|\\|\n"
        let o = run(1, text)
        XCTAssertEqual(o.errors, [:])
    }
}
