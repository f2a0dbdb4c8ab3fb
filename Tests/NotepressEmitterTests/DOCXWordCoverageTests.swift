import Foundation
import XCTest
import NotepressTestSupport

/// Issue 48's "done when": LibreOffice reads the DOCX back with at least 99 % of the HTML page's
/// words, for a corpus document (the 22 KB Swift Evolution proposal, real Markdown nobody here
/// wrote) and samples (notes with callouts, Hebrew and CJK; Markdown with links, tables, images).
final class DOCXWordCoverageTests: XCTestCase {
    static let inputs = [
        TestPaths.corpus.appendingPathComponent("markdown/swift-evolution__0426-bitwise-copyable.md"),
        TestPaths.corpus.appendingPathComponent("markdown/ripgrep__GUIDE.md"),
        TestPaths.samples.appendingPathComponent("markdown/links-and-languages.md"),
        TestPaths.samples.appendingPathComponent("markdown/project-plan.md"),
        TestPaths.samples.appendingPathComponent("notes/alerts-everywhere.note"),
        TestPaths.samples.appendingPathComponent("notes/haifa-workshop.note"),
        TestPaths.samples.appendingPathComponent("notes/chinese-study.note"),
    ]

    /// The words of an HTML document's content (the page's `article`: not the text-size switcher;
    /// its date badge left out, as the DOCX writes the long date), or of its body: scripts and
    /// styles removed, tags removed (block tags as a space, inline ones as nothing: LibreOffice
    /// puts `<span lang>` inside words), character references decoded, split at everything that
    /// is not a letter or a digit, lower-cased.
    static func words(ofHTML html: String) -> Set<String> {
        var text = html
        if let article = text.range(of: "<article"), let end = text.range(of: "</article>") {
            text = String(text[article.lowerBound..<end.upperBound])
        } else if let body = text.range(of: "<body") {
            text = String(text[body.lowerBound...])
        }
        for element in ["script", "style", "time"] {
            text = text.replacingOccurrences(of: "<\(element)[\\s\\S]*?</\(element)>", with: " ", options: .regularExpression)
        }
        let blocks = "p|div|h[1-6]|li|ul|ol|dl|dt|dd|table|thead|tbody|tr|td|th|br|blockquote|pre|section|article|nav|header|footer|aside|figure|figcaption|hr|img|sup"
        text = text.replacingOccurrences(of: "</?(\(blocks))\\b[^>]*>", with: " ", options: [.regularExpression, .caseInsensitive])
        text = text.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression)
        var decoded = ""
        var rest = text[...]
        while let amp = rest.firstIndex(of: "&") {
            decoded += rest[..<amp]
            let semi = rest[amp...].prefix(12).firstIndex(of: ";")
            guard let semi else { decoded += "&"; rest = rest[rest.index(after: amp)...]; continue }
            let name = rest[rest.index(after: amp)..<semi]
            let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " "]
            if let v = named[String(name)] {
                decoded += v
            } else if name.hasPrefix("#"), let n = name.hasPrefix("#x") ? UInt32(name.dropFirst(2), radix: 16) : UInt32(name.dropFirst()),
                      let u = Unicode.Scalar(n) {
                decoded.unicodeScalars.append(u)
            } else {
                decoded += " "
            }
            rest = rest[rest.index(after: semi)...]
        }
        decoded += rest
        return Set(decoded.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init))
    }

    func testLibreOfficeReadsTheDOCXWithAtLeast99PercentOfTheHTMLPagesWords() throws {
        let dir = try makeTempDir(self)
        var packages: [URL] = []
        for (i, input) in Self.inputs.enumerated() {
            let stem = "\(i)-" + input.deletingPathExtension().lastPathComponent.replacingOccurrences(of: " ", with: "-")
            let docx = dir.appendingPathComponent(stem + ".docx"), page = dir.appendingPathComponent(stem + ".page.html")
            for out in [docx, page] {
                let r = try NotepressBinary.run(["convert", input.path, "-o", out.path, "-q"], environment: ["SOURCE_DATE_EPOCH": "1700000000"])
                XCTAssertEqual(r.status, 0, r.stderr)
            }
            packages.append(docx)
        }
        let back = dir.appendingPathComponent("back")
        try FileManager.default.createDirectory(at: back, withIntermediateDirectories: true)
        try LibreOffice.soffice("html", packages, outDir: back)
        var report: [String] = []
        for docx in packages {
            let stem = docx.deletingPathExtension().lastPathComponent
            let expected = Self.words(ofHTML: try String(contentsOf: dir.appendingPathComponent(stem + ".page.html"), encoding: .utf8))
            let got = Self.words(ofHTML: try String(contentsOf: back.appendingPathComponent(stem + ".html"), encoding: .utf8))
            let missing = expected.subtracting(got)
            let coverage = 100 * Double(expected.count - missing.count) / Double(max(expected.count, 1))
            report.append(String(format: "%@: %.2f %% of %d words", stem, coverage, expected.count) + (missing.isEmpty ? "" : " (missing: \(missing.sorted().prefix(10).joined(separator: " ")))"))
            XCTAssertGreaterThanOrEqual(coverage, 99, "\(stem): missing \(missing.sorted().prefix(40))")
        }
        print("DOCX word coverage:\n" + report.joined(separator: "\n"))
    }
}
