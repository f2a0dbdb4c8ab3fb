import Foundation
import XCTest
import NotepressTestSupport
@testable import Notepress
import NotepressAST
import NotepressReaders

/// Pathological inputs finish in (near) linear time and without deep recursion, through every
/// writer (html, rtf, ansi, tei with validation, man, json). Each case has a generous wall-clock
/// limit for debug builds and, where the size can be scaled, compares the time of the full input
/// with a tenth of it (linear: ≈10×; the bound is 30× to absorb noise and warm-up).
///
/// Sizes are the issue's: 100 000 nested quotes or items, a million `*`/`_`, a 50 MB single line
/// (10 MB for note markup, see `testFiftyMegabyteSingleLine`), 10 000 columns.
final class PathologicalTests: XCTestCase {
    /// Parses `text` as note markup or GFM and runs every writer; returns seconds.
    @discardableResult
    func convertAll(_ text: String, note: Bool, limit: TimeInterval, writers names: Set<String>? = nil,
                    file: StaticString = #filePath, line: UInt = #line) -> TimeInterval {
        let start = processCPUSeconds()
        var options = ConversionOptions()
        options.width = 80
        let document: Document
        if note {
            document = Document(metadata: DocumentMetadata(title: "t", created: Date(timeIntervalSince1970: 0), sourceFormat: .note),
                                blocks: NoteReader().parse(text))
        } else {
            document = MarkdownReader(format: .gfm).parse(text, path: "x.md").document
        }
        for writer in WriterRegistry.all where names?.contains(writer.name) ?? true {
            var diagnostics: [Diagnostic] = []
            do {
                let bytes = try writer.write(document, options: options, diagnostics: &diagnostics)
                XCTAssertGreaterThan(bytes.count, 0, "\(writer.name) wrote nothing", file: file, line: line)
            } catch {
                XCTFail("\(writer.name): \(error)", file: file, line: line)
            }
        }
        let elapsed = processCPUSeconds() - start
        XCTAssertLessThan(elapsed, limit, "took \(elapsed) CPU seconds", file: file, line: line)
        return elapsed
    }

    /// Runs `make(n/10)` and `make(n)` and checks the ratio of times stays near linear.
    func assertLinear(_ n: Int, note: Bool, limit: TimeInterval, writers: Set<String>? = nil, file: StaticString = #filePath,
                      line: UInt = #line, _ make: (Int) -> String) {
        let small = convertAll(make(n / 10), note: note, limit: limit, writers: writers, file: file, line: line)
        let large = convertAll(make(n), note: note, limit: limit, writers: writers, file: file, line: line)
        let ratio = large / max(small, 0.02)
        XCTAssertLessThan(ratio, 30, "size ×10 took ×\(ratio) (\(small) s → \(large) s): worse than linear", file: file, line: line)
    }

    func testHundredThousandNestedBlockQuotes() {
        assertLinear(100_000, note: false, limit: 60) { String(repeating: "> ", count: $0) + "deep\n" }
    }

    func testHundredThousandNestedListItems() {
        assertLinear(100_000, note: false, limit: 60) { String(repeating: "- ", count: $0) + "deep\n" }
    }

    func testHundredThousandNoteListItems() {
        assertLinear(100_000, note: true, limit: 60) { n in (1...n).map { "\($0). item\n" }.joined() }
    }

    func testMillionStarsAndUnderscores() {
        for c in ["*", "_"] {
            assertLinear(1_000_000, note: false, limit: 60) { String(repeating: c, count: $0) + "\n" }
            assertLinear(1_000_000, note: true, limit: 60) { String(repeating: c, count: $0) + "\n" }
        }
    }

    /// A single line of plain words. 50 MB through html, json, rtf and tei (debug build: 6–13 s
    /// each here), and through ansi and man, which wrap it as they go and hold only the current
    /// line (man: the current few thousand words), with the notes at 10 MB.
    func testFiftyMegabyteSingleLine() {
        let words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]
        let line = { (bytes: Int) -> String in
            var s = ""
            s.reserveCapacity(bytes + 16)
            var i = 0
            while s.utf8.count < bytes { s += words[i % words.count]; s += " "; i += 1 }
            return s + "\n"
        }
        assertLinear(50_000_000, note: false, limit: 150, writers: ["html", "json", "rtf", "tei"], line)
        assertLinear(50_000_000, note: false, limit: 150, writers: ["ansi", "man"], line)
        assertLinear(10_000_000, note: true, limit: 150, line)
    }

    /// A line dense with emphasis: 2 million spans (20 MB in the spirit is 4.4 M runs;
    /// 5 MB here keeps the debug-build suite short, and the ratio check shows the growth).
    func testEmphasisDenseLine() {
        assertLinear(500_000, note: false, limit: 120) { String(repeating: "word *em* ", count: $0) + "\n" }
        assertLinear(500_000, note: true, limit: 120) { String(repeating: "word *em* ", count: $0) + "\n" }
    }

    func testTenThousandTableColumns() {
        assertLinear(10_000, note: false, limit: 60) { n in
            String(repeating: "|a", count: n) + "|\n" + String(repeating: "|-", count: n) + "|\n" + String(repeating: "|b", count: n) + "|\n"
        }
    }

    func testDeeplyNestedNoteSpans() {
        assertLinear(25_000, note: true, limit: 60) { n in
            String(repeating: "*_-~", count: n) + "x" + String(repeating: "~-_*", count: n) + "\n"
        }
        assertLinear(25_000, note: true, limit: 60) { n in String(repeating: "*a _b -c ~d ", count: n) + "x\n" }
    }

    /// A hand-made document nested far beyond ``ASTLimits/maxNestingDepth`` (as no reader makes):
    /// documents the emitters' behaviour on the deepest trees readers can produce (128) and checks
    /// they survive it.
    func testDeepestReaderTreeEveryWriter() {
        var block = Block(.paragraph([InlineRun(.text("leaf"))]))
        for _ in 0..<ASTLimits.maxNestingDepth { block = Block(.blockQuote([block])) }
        var options = ConversionOptions()
        options.width = 400
        let doc = Document(metadata: DocumentMetadata(title: "deep", sourceFormat: .gfm), blocks: [block])
        for writer in WriterRegistry.all {
            var d: [Diagnostic] = []
            let bytes: [UInt8]
            do { bytes = try writer.write(doc, options: options, diagnostics: &d) } catch { XCTFail("\(writer.name): \(error)"); continue }
            let text = String(decoding: bytes, as: UTF8.self)
            XCTAssertTrue(writer.format.isBinary || text.contains("leaf"), "\(writer.name) keeps the innermost text")
            if writer.name == "html" {
                XCTAssertEqual(text.components(separatedBy: "<blockquote dir=\"auto\">").count - 1, ASTLimits.maxNestingDepth, "every level a quote")
            }
        }
    }
}
