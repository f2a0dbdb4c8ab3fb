import Foundation
import XCTest
import NotepressTestSupport

/// `-t pdf` (issue 49) through the real binary, read back with qpdf and poppler's tools.
final class PDFTests: XCTestCase {
    static let sample = """
        ---
        title: Test document
        author: Ada Lovelace
        ---
        # Heading one

        Some *emphasis*, **strong**, ~~strike~~, `code`, a [link](https://example.com/page) and [inner](#second-heading).
        A footnote[^1]. 日本語のテキスト. עברית כאן. العربية هنا.

        ## Second heading

        - one
        - two

        | Name | Value |
        |------|------:|
        | a    | 1     |

        [^1]: The footnote text.

        """

    /// Converts `markdown` (written as `name`) to PDF with `args`; the PDF's path.
    func pdf(_ markdown: String, _ args: [String] = [], name: String = "doc.md", environment: [String: String] = [:],
             file: StaticString = #filePath, line: UInt = #line) throws -> (url: URL, stderr: String) {
        try PDFSupport.convert(self, markdown, args, name: name, environment: environment, file: file, line: line)
    }

    func testPDFIsCleanForQpdfEmbedsEveryFontAndIsTagged() throws {
        let (url, _) = try pdf(Self.sample)
        let check = try runTool("qpdf", ["--check", url.path])
        XCTAssertEqual(check.status, 0, check.output)
        XCTAssertTrue(check.output.contains("No syntax or stream encoding errors"), check.output)
        let fonts = try runTool("pdffonts", [url.path]).output.split(separator: "\n").dropFirst(2)
        XCTAssertGreaterThanOrEqual(fonts.count, 3, "regular, bold, italic, CJK…")
        for f in fonts {
            let columns = f.split(separator: " ", omittingEmptySubsequences: true)
            XCTAssertEqual(columns.count >= 5 ? columns[columns.count - 5] : "", "yes", "font not embedded: \(f)")
        }
        let info = try runTool("pdfinfo", [url.path]).output
        XCTAssertTrue(info.contains("Title:           Test document"), info)
        XCTAssertTrue(info.contains("Author:          Ada Lovelace"), info)
        XCTAssertTrue(info.contains("Tagged:          yes"), info)
        let tags = try runTool("pdfinfo", ["-struct", url.path]).output
        for tag in ["H1 (block)", "H2 (block)", "P (block)", "L (block)", "LI (block)", "Table (block)", "TH", "TD", "Link"] {
            XCTAssertTrue(tags.contains(tag), "no \(tag) in\n\(tags)")
        }
        // The last page's footnote is inside the Document element (it was a second root).
        XCTAssertTrue(tags.hasPrefix("Document\n"), tags)
        XCTAssertFalse(tags.contains("Syntax Warning"), tags)
    }

    func testEveryScriptExtractsAsText() throws {
        let (url, _) = try pdf(Self.sample)
        let text = try runTool("pdftotext", [url.path, "-"]).output
        for s in ["Heading one", "emphasis", "日本語のテキスト", "עברית", "العربية", "The footnote text."] {
            XCTAssertTrue(text.contains(s), "\(s) not in\n\(text)")
        }
    }

    func testOutlineLinkAnnotationsAndDeterministicDate() throws {
        let env = ["SOURCE_DATE_EPOCH": "1700000000"]
        let (url, _) = try pdf(Self.sample, environment: env)
        let (again, _) = try pdf(Self.sample, environment: env)
        XCTAssertEqual(try Data(contentsOf: url), try Data(contentsOf: again), "two runs differ")
        let qdf = url.deletingPathExtension().appendingPathExtension("qdf")
        _ = try runTool("qpdf", ["--qdf", "--object-streams=disable", url.path, qdf.path])
        let text = String(decoding: try Data(contentsOf: qdf), as: UTF8.self)
        XCTAssertTrue(text.contains("/Outlines"), "no outline")
        XCTAssertTrue(text.contains("/Title (Heading one)"), "no outline entry of the first heading")
        XCTAssertTrue(text.contains("/Title (Second heading)"), "no outline entry of the second heading")
        XCTAssertTrue(text.contains("/URI (https://example.com/page)"), "no URI link annotation")
        XCTAssertTrue(text.contains("/Dest"), "no internal link")
        let info = try runTool("pdfinfo", [url.path]).output
        XCTAssertTrue(info.contains("CreationDate:    Tue Nov 14 22:13:20 2023"), info)
    }

    func testPaperFromLocaleAndOption() throws {
        let letter = try runTool("pdfinfo", [try pdf("text\n", environment: ["LC_ALL": "", "LC_PAPER": "en_US.UTF-8"]).url.path]).output
        XCTAssertTrue(letter.contains("612 x 792 pts (letter)"), letter)
        let a4 = try runTool("pdfinfo", [try pdf("text\n", ["--page-size", "a4"], environment: ["LC_ALL": "", "LC_PAPER": "en_US.UTF-8"]).url.path]).output
        XCTAssertTrue(a4.contains("595.28 x 841.89 pts (A4)"), a4)
        let german = try runTool("pdfinfo", [try pdf("text\n", environment: ["LC_ALL": "", "LC_PAPER": "de_DE.UTF-8"]).url.path]).output
        XCTAssertTrue(german.contains("(A4)"), german)
    }

    /// The height of the word `word`'s box in `pdftotext -bbox` output.
    func wordHeight(_ url: URL, _ word: String) throws -> Double? {
        let html = try runTool("pdftotext", ["-bbox", url.path, "-"]).output
        for line in html.split(separator: "\n") where line.hasSuffix(">\(word)</word>") {
            func value(_ name: String) -> Double? {
                guard let r = line.range(of: name + "=\"") else { return nil }
                return Double(line[r.upperBound...].prefix { $0 != "\"" })
            }
            if let a = value("yMin"), let b = value("yMax") { return b - a }
        }
        return nil
    }

    func testAX5BodyIsAboutThreeTimesTheDefault() throws {
        let text = "Bodytext in a paragraph.\n"
        let normal = try XCTUnwrap(wordHeight(try pdf(text).url, "Bodytext"))
        let large = try XCTUnwrap(wordHeight(try pdf(text, ["--size-category", "ax5"]).url, "Bodytext"))
        XCTAssertEqual(large / normal, 53.0 / 17.0, accuracy: 0.25, "ax5 \(large) vs large \(normal)")
    }

    func testTableHeaderRepeatsOnTheNextPage() throws {
        var md = "| Fruit | Count |\n|---|---|\n"
        for i in 1...90 { md += "| row\(i) | \(i) |\n" }
        let (url, _) = try pdf(md)
        let page2 = try runTool("pdftotext", ["-f", "2", "-l", "2", "-layout", url.path, "-"]).output
        // After the running header (the title, `doc`), the header row comes before the first row.
        let lines = page2.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let header = lines.firstIndex { $0.contains("Fruit") && $0.contains("Count") }
        let row = lines.firstIndex { $0.hasPrefix("row") }
        XCTAssertNotNil(header, "no header row on page 2: \(lines.prefix(3))")
        XCTAssertLessThan(header ?? .max, row ?? -1, "page 2: \(lines.prefix(3))")
        let all = try runTool("pdftotext", [url.path, "-"]).output
        XCTAssertTrue(all.contains("row90"), "the last row is missing")
    }

    func testHeadingsAreKeptWithTheirNextLines() throws {
        var md = ""
        for i in 1...40 {
            md += "## Section \(i)\n\n" + String(repeating: "Words of section \(i) fill this line. ", count: 3 + (i * 7) % 11) + "\n\n"
        }
        let (url, _) = try pdf(md)
        let pages = Int(try runTool("pdfinfo", [url.path]).output.split(separator: "\n")
            .first { $0.hasPrefix("Pages:") }?.split(separator: " ").last ?? "0") ?? 0
        XCTAssertGreaterThan(pages, 3)
        for p in 1...pages {
            let lines = try runTool("pdftotext", ["-f", "\(p)", "-l", "\(p)", url.path, "-"]).output
                .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && Int($0) == nil && $0 != "\u{0C}" }
            XCTAssertFalse(lines.last?.hasPrefix("Section ") ?? false, "page \(p) ends with the heading \(lines.last!)")
        }
    }

    /// Every paragraph split across a page break leaves at least two of its lines on each page.
    func testNoWidowOrOrphanLines() throws {
        var md = ""
        for p in 1...60 {
            // Words `pNwK` tell each line's paragraph; 2 to 9 lines of body text each.
            md += (1...(12 + (p * 13) % 70)).map { "p\(p)w\($0)" }.joined(separator: " ") + "\n\n"
        }
        let (url, _) = try pdf(md)
        let text = try runTool("pdftotext", [url.path, "-"]).output
        var linesOf: [Int: [Int: Int]] = [:]  // paragraph → page → lines
        for (page, pageText) in text.split(separator: "\u{0C}").enumerated() {
            for line in pageText.split(separator: "\n") {
                guard line.hasPrefix("p"), let w = line.firstIndex(of: "w"), let n = Int(line[line.index(after: line.startIndex)..<w]) else { continue }
                linesOf[n, default: [:]][page, default: 0] += 1
            }
        }
        XCTAssertEqual(linesOf.count, 60)
        let split = linesOf.filter { $0.value.count > 1 }
        XCTAssertGreaterThan(split.count, 2, "the test needs paragraphs split across pages")
        for (n, pages) in split {
            XCTAssertTrue(pages.values.allSatisfy { $0 >= 2 }, "paragraph \(n): lines per page \(pages)")
        }
    }

    /// A footnote is drawn at the foot of the page its reference is on, under the page's text;
    /// one referred to from a table only is written after the body.
    func testFootnotesAreAtTheFootOfThePageOfTheirReference() throws {
        var md = ""
        for i in 1...40 {
            md += String(repeating: "Paragraph \(i) text ", count: 8) + (i % 6 == 0 ? "with a note[^n\(i)]." : "") + "\n\n"
        }
        md += "| a | b |\n|---|---|\n| cell[^t] | x |\n\n"
        for i in stride(from: 6, through: 36, by: 6) { md += "[^n\(i)]: Footnote number \(i) explains paragraph \(i).\n\n" }
        md += "[^t]: A note from a table.\n"
        let (url, _) = try pdf(md)
        let pages = try runTool("pdftotext", [url.path, "-"]).output.split(separator: "\u{0C}").map(String.init)
        XCTAssertGreaterThan(pages.count, 3)
        for i in stride(from: 6, through: 36, by: 6) {
            let ref = pages.firstIndex { $0.contains("Paragraph \(i) text with a note") }
            let note = pages.firstIndex { $0.contains("Footnote number \(i) explains") }
            XCTAssertNotNil(ref, "reference \(i)")
            XCTAssertEqual(note, ref, "footnote \(i) is on page \(note.map { $0 + 1 } ?? 0), its reference on \(ref.map { $0 + 1 } ?? 0)")
            if let ref, let a = pages[ref].range(of: "Footnote number \(i)"), let b = pages[ref].range(of: "Paragraph \(i) text with a note") {
                XCTAssertLessThan(b.lowerBound, a.lowerBound, "footnote \(i) above its reference")
            }
        }
        XCTAssertTrue(pages.last?.contains("A note from a table.") ?? false, "the table's note is not at the end")
    }

    func testPNGIsEmbeddedAndOtherImagesAreWarnedAtTheirPosition() throws {
        let dir = try makeTempDir(self)
        let png = dir.appendingPathComponent("red.png")
        let script = """
            import struct, zlib, sys
            w, h = 120, 40
            raw = b"".join(b"\\x00" + b"\\xff\\x00\\x00" * w for _ in range(h))
            def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
            open(sys.argv[1], "wb").write(b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
            """
        XCTAssertEqual(try runTool("python3", ["-c", script, png.path]).status, 0)
        let input = try writeTestFile("Text.\n\n![a red box](red.png)\n\n![a vector](plan.svg)\n\nSee ![inline](red.png) here.\n",
                                      "img.md", in: dir)
        let out = dir.appendingPathComponent("img.pdf")
        let r = try NotepressBinary.runExpectingSuccess(["convert", input.path, "-o", out.path, "--verbose"])
        XCTAssertTrue(r.stderr.contains("img.md:5:1: warning: PDF: image plan.svg"), r.stderr)
        // Try-out (issue 49): an image within text was left out without a word. It is its
        // description, said once at its position; an image that could not be drawn is not said twice.
        XCTAssertTrue(r.stderr.contains("img.md:7:5: warning: PDF: image red.png within text"), r.stderr)
        XCTAssertEqual(r.stderr.components(separatedBy: "within text").count - 1, 1, r.stderr)
        let images = try runTool("pdfimages", ["-list", out.path]).output
        XCTAssertTrue(images.contains(" 120    40 "), images)
        XCTAssertTrue(try runTool("pdftotext", [out.path, "-"]).output.contains("a vector"))
    }

    /// Found while reading the writers' image paths for the fuzzer's seeds (issue 44 item 12): an image that
    /// is `/dev/zero` was read until memory ran out (1 min 41 s, then a warning) and a FIFO
    /// without a writer hung the run, as the shim reads a file that is not a PNG to its end. Only a
    /// regular file of at most 64 MB is read now; anything else is its description, with a warning.
    func testImageThatIsADeviceOrFIFOIsNotRead() throws {
        let dir = try makeTempDir(self)
        XCTAssertEqual(mkfifo(dir.appendingPathComponent("pipe.png").path, 0o600), 0)
        let input = try writeTestFile("![zeros](/dev/zero)\n\n![pipe](pipe.png)\n\n![folder](.)\n\n![none](none.png)\n", "dev.md", in: dir)
        let out = dir.appendingPathComponent("dev.pdf")
        let start = Date()
        let r = try NotepressBinary.runExpectingSuccess(["convert", input.path, "-o", out.path, "--verbose"])
        XCTAssertLessThan(Date().timeIntervalSince(start), 20)
        for (line, what) in [(1, "/dev/zero is not a regular file"), (3, "pipe.png is not a regular file"),
                             (5, ". is not a regular file"), (7, "none.png not found")] {
            XCTAssertTrue(r.stderr.contains("dev.md:\(line):1: warning: PDF: image \(what); its description is written instead"), r.stderr)
        }
        let text = try runTool("pdftotext", [out.path, "-"]).output
        for d in ["zeros", "pipe", "folder", "none"] { XCTAssertTrue(text.contains(d), text) }
    }

    /// Fuzzer find (crash-54466b39…, issue 44 item 12: a NUL in a wiki link cut the link's
    /// attributes short) and its kin through the command line: the shim wrote cairo's tag
    /// attributes into fixed buffers (4 096 bytes for a link, 1 024 for a heading's destination),
    /// so a link longer than about 4 000 bytes or a heading longer than about 1 000 left its quote
    /// open, cairo refused the tag and no PDF was written at all. Both are written whole now.
    func testLongLinkAndLongHeadingDoNotFailThePDF() throws {
        let url = "https://a.org/" + String(repeating: "a", count: 5000)
        let heading = String(repeating: "b", count: 1100)
        let (pdfURL, stderr) = try pdf("# \(heading)\n\n[x](\(url)) and [back](#\(heading)).\n")
        XCTAssertEqual(stderr, "")
        let dir = try makeTempDir(self)
        let expanded = dir.appendingPathComponent("q.pdf")
        XCTAssertEqual(try runTool("qpdf", ["--qdf", "--object-streams=disable", pdfURL.path, expanded.path]).status, 0)
        let text = String(decoding: try Data(contentsOf: expanded), as: UTF8.self)
        XCTAssertTrue(text.contains("/URI (\(url))"), "the link's whole URL")
        XCTAssertEqual(text.components(separatedBy: "/Dest (\(heading))").count - 1, 2, "the outline entry and the link to the heading")
    }

    func testOutputExtensionSelectsPDFAndARunWithoutPDFLoadsNoPango() throws {
        let (url, stderr) = try pdf("Hello.\n")
        XCTAssertEqual(stderr, "")
        XCTAssertEqual(Array(try Data(contentsOf: url).prefix(5)), Array("%PDF-".utf8))
        let version = try NotepressBinary.run(["--version"], environment: ["LD_DEBUG": "files"])
        XCTAssertFalse(version.stderr.contains("libpango"), "--version maps Pango")
        let dir = try makeTempDir(self)
        let input = try writeTestFile("Hello.\n", "h.md", in: dir)
        let html = try NotepressBinary.run(["convert", input.path, "-o", dir.appendingPathComponent("h.html").path], environment: ["LD_DEBUG": "files"])
        XCTAssertFalse(html.stderr.contains("libpango"), "an HTML conversion maps Pango")
        let pdfRun = try NotepressBinary.run(["convert", input.path, "-o", dir.appendingPathComponent("h.pdf").path], environment: ["LD_DEBUG": "files"])
        XCTAssertTrue(pdfRun.stderr.contains("libpango"), "the check itself sees nothing")
    }

    /// PDF to standard output on a terminal is refused (script(1) gives the run a terminal);
    /// into a pipe it is written.
    func testPDFIsNotWrittenToATerminal() throws {
        let dir = try makeTempDir(self)
        let input = try writeTestFile("Hello.\n", "t.md", in: dir)
        let tty = try runTool("script", ["-qec", "'\(NotepressBinary.url.path)' convert '\(input.path)' -t pdf", "/dev/null"])
        XCTAssertNotEqual(tty.status, 0, tty.output)
        XCTAssertTrue(tty.output.contains("pdf is binary and standard output is a terminal"), tty.output)
        XCTAssertFalse(tty.output.contains("%PDF"), "PDF bytes reached the terminal")
        let pipe = try NotepressBinary.runExpectingSuccess(["convert", input.path, "-t", "pdf"])
        XCTAssertEqual(Array(pipe.stdout.prefix(5)), Array("%PDF-".utf8))
    }

    /// The words of `text`, lower case: runs of letters and runs of digits (a footnote number
    /// set close after a word is a word of its own), hyphens taken out (pdftotext joins a word
    /// broken after its hyphen at a line end: `bitwise-` `copyable` → `bitwisecopyable`).
    static func words(_ text: String) -> [String] {
        var out: [String] = [], word = "", digits = false
        for c in text.lowercased() where c != "-" {
            let letter = c.isLetter, number = c.isNumber
            if !word.isEmpty && (!(letter || number) || number != digits) { out.append(word); word = "" }
            if letter || number { word.append(c); digits = number }
        }
        if !word.isEmpty { out.append(word) }
        return out
    }

    /// The length of the longest common subsequence of `a` and `b` (words in order).
    static func commonSubsequenceLength(_ a: [String], _ b: [String]) -> Int {
        var previous = [Int](repeating: 0, count: b.count + 1), row = previous
        for x in a {
            for (j, y) in b.enumerated() { row[j + 1] = x == y ? previous[j] + 1 : max(previous[j + 1], row[j]) }
            swap(&previous, &row)
        }
        return previous[b.count]
    }

    func testCorpusDocumentKeepsTheWordsOfItsHTMLPageInOrder() throws {
        let source = TestPaths.corpus.appendingPathComponent("markdown/swift-evolution__0426-bitwise-copyable.md")
        let dir = try makeTempDir(self)
        let out = dir.appendingPathComponent("c.pdf")
        try NotepressBinary.runExpectingSuccess(["convert", source.path, "-o", out.path])
        let html = try NotepressBinary.runExpectingSuccess(["convert", source.path, "-t", "html", "--fragment"]).stdoutText
        // The footnotes are at the foot of their pages in the PDF, at the end of the HTML: the
        // body's words are compared in order (the notes' place is testFootnotesAreAtTheFoot…).
        let body = html.replacingOccurrences(of: "<section class=\"footnotes\"[\\s\\S]*?</section>", with: " ", options: .regularExpression)
        XCTAssertLessThan(body.count, html.count - 200, "the corpus document has footnotes")
        var plain = body.replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
        for (entity, c) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            plain = plain.replacingOccurrences(of: entity, with: c)
        }
        let expected = Self.words(plain)
        let got = Self.words(try runTool("pdftotext", [out.path, "-"]).output)
        XCTAssertGreaterThan(expected.count, 2000)
        let matched = Self.commonSubsequenceLength(expected, got)
        XCTAssertGreaterThanOrEqual(Double(matched) / Double(expected.count), 0.99, "\(matched) of \(expected.count) words in order")
    }
}
