import Foundation
import Notepress
import NotepressAST
import XCTest
import NotepressTestSupport

/// Every format over every sample: converts without error, writes something that looks like the
/// format, and writes the same bytes twice (deterministic output).
final class SampleSmokeTests: XCTestCase {
    func testEveryWriterOnEverySample() throws {
        let samples = TestPaths.files(under: TestPaths.samples).filter { DocumentLoader.format(forPath: $0.path) != nil }
        XCTAssertGreaterThanOrEqual(samples.filter { $0.pathExtension == "note" }.count, 12, "issue 2 asks for 12+ notes")
        XCTAssertGreaterThanOrEqual(samples.filter { $0.pathExtension == "md" }.count, 3)
        let loader = DocumentLoader(sourceDateEpoch: Date(timeIntervalSince1970: 1_700_000_000))
        let signatures: [String: String] = [
            "html": "<!DOCTYPE html>", "json": "{\n  \"type\": \"document\"", "rtf": "{\\rtf1\\ansi",
            "tei": "<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "man": ".TH ",
            // With colour on, the title line opens with SGR bold (reset, then 1); a Markdown page
            // whose title is its first heading starts with the dimmed date (reset, then 2).
            "ansi": "\u{1B}[0;",
            // Zip packages; `mimetype` first (EPUB, ODF).
            "epub": "PK\u{03}\u{04}", "docx": "PK\u{03}\u{04}", "odt": "PK\u{03}\u{04}",
            "pdf": "%PDF-1.5",
        ]
        XCTAssertEqual(Set(WriterRegistry.all.map(\.name)), Set(signatures.keys), "a new writer needs a smoke signature")
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(TestPaths.root.path))
        for file in samples {
            // Relative, as a user in the package folder would type it.
            let relative = String(file.path.dropFirst(TestPaths.root.path.count + 1))
            let read = try loader.load(path: relative)
            for writer in WriterRegistry.all {
                var d1: [Diagnostic] = [], d2: [Diagnostic] = []
                var options = ConversionOptions()
                options.colorDepth = .ansi16
                let a = try writer.write(read.document, options: options, diagnostics: &d1)
                let b = try writer.write(read.document, options: options, diagnostics: &d2)
                let name = "\(file.lastPathComponent) → \(writer.name)"
                XCTAssertGreaterThan(a.count, 100, name)
                XCTAssertEqual(a, b, "\(name) is not deterministic")
                let text = String(decoding: a, as: UTF8.self)
                XCTAssertTrue(text.hasPrefix(signatures[writer.name]!) || writer.name == "man" && text.hasPrefix("'\\\" t\n.TH "),
                              "\(name) starts with \(text.prefix(40).debugDescription)")
                XCTAssertFalse(text.contains(TestPaths.root.path), "\(name) leaks the absolute input path")
            }
        }
    }
}
