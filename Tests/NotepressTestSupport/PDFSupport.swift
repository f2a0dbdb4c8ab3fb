import Foundation
import XCTest

/// Reading PDFs back with poppler's and qpdf's tools (PDFTests, PDFTryOutTests, PDFBookTests).
package enum PDFSupport {
    /// Converts `markdown` (written as `name` in a new folder) to PDF with `args`; the PDF's
    /// path and standard error.
    package static func convert(_ test: XCTestCase, _ markdown: String, _ args: [String] = [], name: String = "doc.md",
                                environment: [String: String] = [:], file: StaticString = #filePath, line: UInt = #line)
        throws -> (url: URL, stderr: String) {
        let dir = try makeTempDir(test)
        let input = try writeTestFile(markdown, name, in: dir)
        let out = dir.appendingPathComponent((name as NSString).deletingPathExtension + ".pdf")
        let r = try NotepressBinary.runExpectingSuccess(["convert", input.path, "-o", out.path] + args, environment: environment,
                                                        file: file, line: line)
        return (out, r.stderr)
    }

    /// A word as `pdftotext -bbox` places it: its page (1-based) and box in points from the
    /// page's top left.
    package struct Word: Equatable {
        package var text: String
        package var page: Int
        package var xMin: Double, yMin: Double, xMax: Double, yMax: Double
    }

    /// Every word of the PDF in reading order.
    package static func words(_ pdf: String) throws -> [Word] {
        var out: [Word] = []
        var page = 0
        for line in try runTool("pdftotext", ["-bbox", pdf, "-"]).output.split(separator: "\n") {
            if line.contains("<page ") { page += 1; continue }
            guard line.contains("<word "), let open = line.range(of: "\">"), let close = line.range(of: "</word>") else { continue }
            func value(_ name: String) -> Double {
                guard let r = line.range(of: name + "=\"") else { return .nan }
                return Double(line[r.upperBound...].prefix { $0 != "\"" }) ?? .nan
            }
            var text = String(line[open.upperBound..<close.lowerBound])
            for (entity, c) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"), ("&amp;", "&")] {
                text = text.replacingOccurrences(of: entity, with: c)
            }
            out.append(Word(text: text, page: page, xMin: value("xMin"), yMin: value("yMin"), xMax: value("xMax"), yMax: value("yMax")))
        }
        return out
    }

    /// The text of each page (`pdftotext`, pages split at form feeds).
    package static func pages(_ pdf: String, layout: Bool = false) throws -> [String] {
        var pages = try runTool("pdftotext", (layout ? ["-layout"] : []) + [pdf, "-"]).output.components(separatedBy: "\u{0C}")
        if pages.last?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty == true { pages.removeLast() }
        return pages
    }

    /// The named destinations and the pages they are on (`pdfinfo -dests`).
    package static func destinations(_ pdf: String) throws -> [String: Int] {
        var out: [String: Int] = [:]
        for line in try runTool("pdfinfo", ["-dests", pdf]).output.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard let page = Int(trimmed.prefix { $0.isNumber }), let q = trimmed.firstIndex(of: "\""), trimmed.hasSuffix("\"") else { continue }
            out[String(trimmed[trimmed.index(after: q)..<trimmed.index(before: trimmed.endIndex)])] = page
        }
        return out
    }

    /// The PDF with its streams uncompressed (`qpdf --qdf`), as text: content streams' operators
    /// and the annotations' dictionaries can be searched.
    package static func uncompressed(_ pdf: String) throws -> String {
        let qdf = pdf + ".qdf"
        _ = try runTool("qpdf", ["--qdf", "--object-streams=disable", pdf, qdf])
        return String(decoding: try Data(contentsOf: URL(fileURLWithPath: qdf)), as: UTF8.self)
    }

    /// The filled rectangles (`x y w h re f`) of the content streams that are `width` wide:
    /// the block quotes' rules are 3 points wide. Their x, y (PDF's, from the page's bottom), height.
    package static func rectangles(_ pdf: String, width: Double) throws -> [(x: Double, y: Double, height: Double)] {
        var out: [(x: Double, y: Double, height: Double)] = []
        for line in try uncompressed(pdf).split(separator: "\n") where line.hasSuffix(" re f") {
            let parts = line.split(separator: " ").map(String.init)
            guard let re = parts.lastIndex(of: "re"), re >= 4, let x = Double(parts[re - 4]), let y = Double(parts[re - 3]),
                  let w = Double(parts[re - 2]), let h = Double(parts[re - 1]), abs(w - width) < 0.01 else { continue }
            out.append((x, y, h))
        }
        return out
    }

    /// `qpdf --check` said the file is clean.
    package static func assertClean(_ pdf: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let check = try runTool("qpdf", ["--check", pdf])
        XCTAssertEqual(check.status, 0, check.output, file: file, line: line)
        XCTAssertTrue(check.output.contains("No syntax or stream encoding errors"), check.output, file: file, line: line)
    }

    /// Every font `pdffonts` lists is embedded (at least one is listed).
    package static func assertFontsEmbedded(_ pdf: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let fonts = try runTool("pdffonts", [pdf]).output.split(separator: "\n").dropFirst(2)
        XCTAssertFalse(fonts.isEmpty, "no fonts", file: file, line: line)
        for f in fonts {
            let columns = f.split(separator: " ", omittingEmptySubsequences: true)
            XCTAssertEqual(columns.count >= 5 ? columns[columns.count - 5] : "", "yes", "font not embedded: \(f)", file: file, line: line)
        }
    }
}
