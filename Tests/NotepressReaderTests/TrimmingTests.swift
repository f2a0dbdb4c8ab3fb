import Foundation
import XCTest
import NotepressTestSupport
@testable import NotepressAST

/// `trimmingHorizontalWhitespace()` (the man writer's trim, replacing Foundation's for speed)
/// trims exactly what `trimmingCharacters(in: .whitespaces)` trims: tab and Zs, not newlines.
final class TrimmingTests: XCTestCase {
    func testTrimsTabAndSpaceSeparatorsOnly() {
        XCTAssertEqual("  a b\t".trimmingHorizontalWhitespace(), "a b")
        XCTAssertEqual("\u{A0}\u{3000}x\u{2009}\u{202F}".trimmingHorizontalWhitespace(), "x")
        XCTAssertEqual("\na\n".trimmingHorizontalWhitespace(), "\na\n")
        XCTAssertEqual(" \t\u{1680} ".trimmingHorizontalWhitespace(), "")
        XCTAssertEqual("\u{200B}a".trimmingHorizontalWhitespace(), "\u{200B}a")  // ZWSP is Cf, not Zs
        XCTAssertEqual(("  (x)  ".dropFirst()).trimmingHorizontalWhitespace(), "(x)")
    }

    func testAgreesWithFoundationOnEveryBMPSpaceCandidate() {
        let candidates: [Unicode.Scalar] = (0...0x3000).compactMap { Unicode.Scalar($0) }.filter {
            $0.properties.isWhitespace || $0.properties.generalCategory == .spaceSeparator || $0.value < 0x20
        }
        XCTAssertGreaterThan(candidates.count, 25)
        for u in candidates {
            let s = "\(u)a\(u)"
            XCTAssertEqual(s.trimmingHorizontalWhitespace(), s.trimmingCharacters(in: .whitespaces), "U+\(String(u.value, radix: 16))")
        }
    }
}
