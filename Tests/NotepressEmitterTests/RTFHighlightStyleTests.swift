import Foundation
import XCTest
import NotepressTestSupport

/// RTF code blocks under `--highlight-style`: shaded in the style's own background (the one HTML
/// gives the block, `--np-code-block-background`), with plain text in the style's plain colour.
final class RTFHighlightStyleTests: XCTestCase {
    static let page = "Text.\n\n```swift\nlet x = { a + b }\n```\n"

    /// The colour table's entries (`\redR\greenG\blueB;`), entry 1 first, as `#rrggbb`.
    func colorTable(_ rtf: String) throws -> [String] {
        let start = try XCTUnwrap(rtf.range(of: "{\\colortbl;"))
        let end = try XCTUnwrap(rtf.range(of: "}", range: start.upperBound..<rtf.endIndex))
        return rtf[start.upperBound..<end.lowerBound].split(separator: ";").map { entry in
            let n = entry.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            return n.map { String(format: "%02x", $0) }.joined().lowercased()
        }.map { "#" + $0 }
    }

    /// The colour of the code paragraph's `\cbpat` and the `\cf` set right after its character
    /// properties (the last `\cf` before the first highlighted run's group).
    func codeShading(_ rtf: String) throws -> (background: String, index: Int) {
        let table = try colorTable(rtf)
        let m = try XCTUnwrap(rtf.range(of: "\\\\cbpat[0-9]+", options: .regularExpression))
        let index = try XCTUnwrap(Int(rtf[m].dropFirst("\\cbpat".count)))
        return (table[index - 1], index)
    }

    func convert(_ args: [String]) throws -> (rtf: String, html: String) {
        let dir = try makeTempDir(self)
        let md = dir.appendingPathComponent("code.md")
        try Self.page.write(to: md, atomically: true, encoding: .utf8)
        let rtf = try NotepressBinary.run(["convert", md.path, "-t", "rtf", "-o", dir.appendingPathComponent("c.rtf").path] + args)
        XCTAssertEqual(rtf.status, 0, rtf.stderr)
        let html = try NotepressBinary.run(["convert", md.path] + args)
        XCTAssertEqual(html.status, 0, html.stderr)
        return (try String(contentsOf: dir.appendingPathComponent("c.rtf"), encoding: .utf8), html.stdoutText)
    }

    func htmlBlockBackground(_ html: String) throws -> String {
        let r = try XCTUnwrap(html.range(of: "--np-code-block-background: #[0-9a-f]{6}", options: .regularExpression))
        return String(html[r].suffix(7))
    }

    func luminance(_ hex: String) -> Double {
        let v = Int(hex.dropFirst(), radix: 16)!
        return (0.2126 * Double(v >> 16) + 0.7152 * Double((v >> 8) & 0xff) + 0.0722 * Double(v & 0xff)) / 255
    }

    /// The bug: `-t rtf --highlight-style 'github dark'` kept the theme's light `\cbpat`
    /// (242,242,247) under the style's light text. Now the block's shading is the style's dark
    /// background (the same colour HTML uses) and the plain text its light plain colour.
    func testRTFDarkHighlightStyleShadesCodeBlockInTheStylesBackground() throws {
        let (rtf, html) = try convert(["--highlight-style", "github dark"])
        let expected = try htmlBlockBackground(html)
        XCTAssertLessThan(luminance(expected), 0.3, expected)
        let table = try colorTable(rtf)
        XCTAssertTrue(table.contains(expected), "\(expected) not in \(table)")
        let shading = try codeShading(rtf)
        XCTAssertEqual(shading.background, expected)
        XCTAssertNotEqual(shading.background, "#f2f2f7")
        // The plain text (`let`'s neighbours, braces) is light on that background.
        let after = try XCTUnwrap(rtf.range(of: "\\cbpat\(shading.index)"))
        let props = rtf[after.upperBound...].prefix { $0 != "{" }
        let cf = try XCTUnwrap(props.components(separatedBy: "\\cf").last?.prefix { $0.isNumber })
        let plain = table[try XCTUnwrap(Int(cf)) - 1]
        XCTAssertGreaterThan(luminance(plain), 0.6, plain)
    }

    /// A light style keeps a light block; with no style the theme's code background (242,242,247)
    /// stays.
    func testRTFLightHighlightStyleKeepsALightCodeBackground() throws {
        let (rtf, html) = try convert(["--highlight-style", "Breeze Light"])
        let shading = try codeShading(rtf)
        XCTAssertEqual(shading.background, try htmlBlockBackground(html))
        XCTAssertGreaterThan(luminance(shading.background), 0.9, shading.background)
        let plainRun = try convert([])
        XCTAssertEqual(try codeShading(plainRun.rtf).background, "#f2f2f7")
        XCTAssertEqual(try codeShading(plainRun.rtf).index, 5)
    }
}
