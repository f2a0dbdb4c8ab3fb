import Foundation
import XCTest
import NotepressTestSupport

/// ODT (issue 48 item 2) through the real binary, read back by LibreOffice (Debian
/// `libreoffice-writer-nogui`), xmllint and jing: the words of the HTML page, headings as
/// headings, footnotes as footnotes, lists as lists, tables as tables; valid ODF 1.3 parts;
/// the same bytes twice; missing images reported at their line and column.
final class ODTLibreOfficeTests: XCTestCase {
    /// A document with every construct the emitter writes.
    static let sample = """
    ---
    title: Field Guide
    author: Jane Roe
    tags: [birds, notes]
    ---
    # Heading one

    Some *emphasis*, **strong**, ~~struck~~, `code`, a [link](https://example.com) and
    [a jump](#heading-two). A note here[^1], the same again[^1] and another[^long].

    ## Heading two

    - bullet one
    - bullet two
      - nested alpha
      - nested beta
    - [ ] open task
    - [x] done task

    5. fifth item
    6. sixth item

    > A quote with    four spaces.

    > [!WARNING]
    > Mind the gap.

    | Left | Center | Right |
    |:-----|:------:|------:|
    | apple | banana | cherry |
    | durian | elder | fig |

    ```swift
    let greeting = "hello"   // comment
    ```

    Math $x^2 + y$ inline.

    ### Heading three

    שלום עולם זה טקסט בעברית

    中文文本在这里

    [^1]: The first footnote.
    [^long]: The second footnote with **bold** words.
    """

    func notepress(_ args: [String], environment: [String: String] = [:], file: StaticString = #filePath,
                   line: UInt = #line) throws -> NotepressBinary.Result {
        try NotepressBinary.runExpectingSuccess(args, environment: environment, file: file, line: line)
    }

    /// One part of a package (`unzip -p`).
    func part(_ odt: URL, _ name: String) throws -> String {
        let (status, text) = try runTool("unzip", ["-p", odt.path, name])
        XCTAssertEqual(status, 0, "no \(name) in \(odt.lastPathComponent)")
        return text
    }

    /// The words of an HTML file's text, lower-cased, counted: scripts, styles and the head left
    /// out, inline tags joined without a break (LibreOffice splits runs into spans), other tags
    /// as breaks, entities decoded; a CJK character is a word of its own (readers wrap lines between them).
    static func words(ofHTML html: String) -> [String: Int] {
        var s = html.replacingOccurrences(of: "(?is)<(script|style|head)\\b.*?</\\1>", with: " ", options: .regularExpression)
        s = s.replacingOccurrences(of: "(?i)</?(a|span|b|i|em|strong|code|font|sup|sub|s|strike|u|mark|kbd|abbr|del|ins|small|tt|q|cite|var)\\b[^>]*>",
                                   with: "", options: .regularExpression)
        s = s.replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
        s = decodeEntities(s)
        var out: [String: Int] = [:]
        var word = ""
        func flush() { if !word.isEmpty { out[word.lowercased(), default: 0] += 1; word = "" } }
        for c in s.unicodeScalars {
            let v = c.value
            let cjk = (0x3040...0x30FF).contains(v) || (0x3400...0x9FFF).contains(v) || (0xAC00...0xD7AF).contains(v)
            if cjk { flush(); word.unicodeScalars.append(c); flush() } else if c.properties.isAlphabetic || c.properties.numericType != nil || c == "_" {
                word.unicodeScalars.append(c)
            } else { flush() }
        }
        flush()
        return out
    }

    static func decodeEntities(_ s: String) -> String {
        guard s.contains("&") else { return s }
        var out = ""
        var i = s.startIndex
        let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " "]
        while i < s.endIndex {
            if s[i] == "&", let semi = s[i...].prefix(12).firstIndex(of: ";") {
                let name = String(s[s.index(after: i)..<semi])
                var scalar: Unicode.Scalar?
                if name.hasPrefix("#x") || name.hasPrefix("#X") { scalar = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init) }
                else if name.hasPrefix("#") { scalar = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init) }
                if let scalar { out.unicodeScalars.append(scalar); i = s.index(after: semi); continue }
                if let n = named[name] { out += n; i = s.index(after: semi); continue }
            }
            out.append(s[i])
            i = s.index(after: i)
        }
        return out
    }

    /// The share of `expected`'s words (with their counts) found in `actual`.
    static func coverage(_ expected: [String: Int], in actual: [String: Int]) -> Double {
        let total = expected.values.reduce(0, +)
        let hit = expected.reduce(0) { $0 + min($1.value, actual[$1.key] ?? 0) }
        return total == 0 ? 1 : Double(hit) / Double(total)
    }

    /// The levels of the headings of an HTML file, in order; `withID` keeps only those with an
    /// `id` (the page's content headings, not its title).
    static func headingLevels(_ html: String, withID: Bool) -> [Int] {
        let pattern = withID ? "<h([1-6])[^>]*\\bid=" : "<h([1-6])[\\s>]"
        let re = try! NSRegularExpression(pattern: pattern)
        return re.matches(in: html, range: NSRange(html.startIndex..., in: html)).map {
            Int(html[Range($0.range(at: 1), in: html)!])!
        }
    }

    /// LibreOffice's HTML export with every run of white space as one space (it wraps its lines).
    static func readBack(_ url: URL) throws -> String {
        try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "\\s+", with: " ", options: .regularExpression)
    }

    // MARK: - Words and structure through LibreOffice

    /// Corpus documents (English, Japanese with CJK and tables) and samples: LibreOffice opens
    /// each ODT, and its HTML export holds ≥ 99 % of the words of our HTML page (the page's
    /// text-size menu aside, which is chrome) and the same headings at the same levels.
    func testLibreOfficeReadsTheCorpusWithTheHTMLPagesWordsAndHeadings() throws {
        let dir = try makeTempDir(self)
        let corpus = TestPaths.corpus.appendingPathComponent("markdown")
        let inputs = [corpus.appendingPathComponent("swift-evolution__0426-bitwise-copyable.md"),
                      corpus.appendingPathComponent("ripgrep__GUIDE.md"),
                      corpus.appendingPathComponent("system-design-primer__README-ja.md"),
                      TestPaths.samples.appendingPathComponent("markdown/project-plan.md"),
                      TestPaths.samples.appendingPathComponent("notes/kyoto-osaka-trip.note")]
        var odts: [URL] = []
        for (i, input) in inputs.enumerated() {
            let copy = dir.appendingPathComponent("d\(i).\(input.pathExtension)")
            try FileManager.default.copyItem(at: input, to: copy)
            try notepress(["convert", copy.path, "-o", dir.appendingPathComponent("d\(i).html").path])
            try notepress(["convert", copy.path, "-o", dir.appendingPathComponent("d\(i).odt").path])
            odts.append(dir.appendingPathComponent("d\(i).odt"))
        }
        let lo = dir.appendingPathComponent("lo")
        try LibreOffice.soffice("html", odts, outDir: lo)
        for (i, input) in inputs.enumerated() {
            let page = try String(contentsOf: dir.appendingPathComponent("d\(i).html"), encoding: .utf8)
            let read = try String(contentsOf: lo.appendingPathComponent("d\(i).html"), encoding: .utf8)
            var expected = Self.words(ofHTML: page)
            // The page's text-size menu (XS … AX5) is chrome, not the document.
            for w in ["xs", "s", "m", "l", "xl", "xxl", "xxxl", "ax1", "ax2", "ax3", "ax4", "ax5", "dec", "text", "size"] {
                expected[w] = max((expected[w] ?? 0) - 1, 0)
            }
            let share = Self.coverage(expected, in: Self.words(ofHTML: read))
            XCTAssertGreaterThanOrEqual(share, 0.99, "\(input.lastPathComponent): \(String(format: "%.2f", share * 100)) % of the page's words")
            print("ODT word coverage \(input.lastPathComponent): \(String(format: "%.2f", share * 100)) %")
            XCTAssertEqual(Self.headingLevels(read, withID: false), Self.headingLevels(page, withID: true),
                           "\(input.lastPathComponent): headings differ")
        }
    }

    /// Footnotes are LibreOffice footnotes (a second reference is a reference to the first),
    /// lists are nested lists with their start number, task boxes kept, the table has a header
    /// row and its columns' alignment, the callout keeps its title and bar, right-to-left text is
    /// a right-to-left paragraph, and a link to `#heading-two` lands on its bookmark.
    func testFootnotesListsTablesAndLinksAreStructuresInLibreOffice() throws {
        let dir = try makeTempDir(self)
        let md = try writeTestFile(Self.sample, "guide.md", in: dir)
        let odt = dir.appendingPathComponent("guide.odt")
        try notepress(["convert", md.path, "-o", odt.path])
        try LibreOffice.soffice("html", [odt], outDir: dir.appendingPathComponent("lo"))
        let html = try Self.readBack(dir.appendingPathComponent("lo/guide.html"))
        XCTAssertEqual(Self.headingLevels(html, withID: false), [1, 2, 3])
        // Two notes (sdfootnote1, 2), their bodies at the end; the repeated reference is no third note.
        XCTAssertEqual(html.components(separatedBy: "class=\"sdfootnoteanc\"").count - 1, 2)
        XCTAssertTrue(html.contains("The first footnote."))
        XCTAssertTrue(html.range(of: "id=\"sdfootnote2\".*second footnote with <b>bold</b>", options: .regularExpression) != nil)
        // A bullet list holding a nested bullet list, then an ordered list starting at 5.
        XCTAssertNotNil(html.range(of: "<ul>\\s*<li>.*bullet one.*<ul>\\s*<li>.*nested alpha.*</ul>.*open task.*</ul>",
                                   options: .regularExpression), html)
        XCTAssertNotNil(html.range(of: "<ol[^>]*>\\s*<li value=\"5\">.*fifth item", options: .regularExpression))
        // Task items keep their boxes as their bullets (WriterFidelityTests reads them in LibreOffice's PDF).
        XCTAssertTrue(html.contains("open task") && html.contains("done task"))
        let boxes = try part(odt, "content.xml")
        XCTAssertTrue(boxes.contains("text:bullet-char=\"\u{2610}\"") && boxes.contains("text:bullet-char=\"\u{2612}\""), boxes)
        // The table: a header row of th cells, aligned left, centre, right.
        XCTAssertNotNil(html.range(of: "<thead>.*<th[^>]*><p[^>]*align=\"left\"[^>]*>\\s*Left.*align=\"center\"[^>]*>\\s*Center.*align=\"right\"[^>]*>\\s*Right.*</thead>",
                                   options: .regularExpression))
        XCTAssertTrue(html.contains("durian"))
        XCTAssertNotNil(html.range(of: "border-left: 2.00pt solid #9a6700[^>]*>\\s*(<[^>]*>)*Warning", options: .regularExpression))
        XCTAssertTrue(html.contains("<p dir=\"rtl\""))
        XCTAssertTrue(html.contains("<a name=\"heading-two\">") && html.contains("href=\"#heading-two\""))
        XCTAssertTrue(html.contains("<pre"))
        // Runs of spaces survive (ODF collapses them unless written as text:s).
        let raw = try String(contentsOf: dir.appendingPathComponent("lo/guide.html"), encoding: .utf8)
        XCTAssertTrue(raw.contains("A quote with    four spaces."))
        XCTAssertTrue(raw.contains("&quot;hello&quot;</font>   <font"))
        let content = try part(odt, "content.xml")
        XCTAssertTrue(content.contains("<text:span text:style-name=\"TeX_20_math\">x^2 + y</text:span>"))
        XCTAssertTrue(content.contains("<table:table-header-rows>"))
        XCTAssertTrue(content.contains("text:outline-level=\"3\""))
        let styles = try part(odt, "styles.xml")
        for name in ["Title", "Text_20_body", "Quotations", "Preformatted_20_Text", "Footnote", "Caption"] {
            XCTAssertTrue(styles.contains("style:name=\"\(name)\""), name)
        }
        for level in 1...6 {
            XCTAssertTrue(styles.contains("style:name=\"Heading_20_\(level)\" style:display-name=\"Heading \(level)\""))
            XCTAssertTrue(styles.contains("style:default-outline-level=\"\(level)\""))
        }
        XCTAssertTrue(styles.contains("style:name=\"Internet_20_link\"") && styles.contains("style:name=\"Source_20_Text\""))
        XCTAssertTrue(styles.contains("style:font-name-asian=\"Noto Sans CJK SC\""))
        // Right-to-left and drawn on the right (LibreOffice reads "end" as the right side).
        XCTAssertTrue(content.contains("fo:text-align=\"end\" style:writing-mode=\"rl-tb\""))
    }

    /// `--toc`: a LibreOffice table of contents (`text:table-of-content`) whose entries link to
    /// the headings' bookmarks.
    func testTableOfContentsIsAnIndexLinkingToTheHeadings() throws {
        let dir = try makeTempDir(self)
        let md = try writeTestFile(Self.sample, "guide.md", in: dir)
        let odt = dir.appendingPathComponent("guide.odt")
        try notepress(["convert", md.path, "--toc", "-o", odt.path])
        let content = try part(odt, "content.xml")
        XCTAssertTrue(content.contains("<text:table-of-content "))
        XCTAssertTrue(content.contains("xlink:href=\"#heading-two\""))
        XCTAssertTrue(content.contains("<text:bookmark text:name=\"heading-two\"/>"))
        try LibreOffice.soffice("html", [odt], outDir: dir.appendingPathComponent("lo"))
        let html = try Self.readBack(dir.appendingPathComponent("lo/guide.html"))
        XCTAssertTrue(html.contains("Contents"))
        XCTAssertTrue(html.range(of: "href=\"#heading-two\"[^>]*>Heading two", options: .regularExpression) != nil)
    }

    // MARK: - The package

    /// The package's shape (a stored `mimetype` first, its manifest) and valid parts: every XML
    /// part well-formed (xmllint), and valid against the ODF 1.3 RelaxNG schema (jing) when the
    /// schema is at hand (``odfSchemaFolder()``).
    func testPartsAreWellFormedAndValidODF13() throws {
        let dir = try makeTempDir(self)
        let md = try writeTestFile(Self.sample, "guide.md", in: dir)
        let odt = dir.appendingPathComponent("guide.odt")
        try notepress(["convert", md.path, "--toc", "-o", odt.path])
        let bytes = try [UInt8](Data(contentsOf: odt))
        // Local file header: name length at 26, no extra field, the name at 30, stored (method 0).
        XCTAssertEqual(Array(bytes[0..<4]), [0x50, 0x4B, 0x03, 0x04])
        XCTAssertEqual(bytes[8], 0)
        XCTAssertEqual(bytes[28], 0)
        XCTAssertEqual(String(decoding: bytes[30..<38], as: UTF8.self), "mimetype")
        XCTAssertEqual(String(decoding: bytes[38..<77], as: UTF8.self), "application/vnd.oasis.opendocument.text")
        let unpacked = dir.appendingPathComponent("x")
        XCTAssertEqual(try runTool("unzip", ["-q", odt.path, "-d", unpacked.path]).status, 0)
        let parts = ["content.xml", "styles.xml", "meta.xml", "META-INF/manifest.xml"]
        for p in parts {
            let r = try runTool("xmllint", ["--noout", unpacked.appendingPathComponent(p).path])
            XCTAssertEqual(r.status, 0, "\(p): \(r.output)")
        }
        let manifest = try String(contentsOf: unpacked.appendingPathComponent("META-INF/manifest.xml"), encoding: .utf8)
        XCTAssertTrue(manifest.contains("manifest:full-path=\"/\" manifest:version=\"1.3\" manifest:media-type=\"application/vnd.oasis.opendocument.text\""))
        guard let schema = Self.odfSchemaFolder() else {
            throw XCTSkip("the ODF 1.3 RelaxNG schema could not be downloaded (set ODF_SCHEMA_DIR)")
        }
        for p in parts {
            let rng = p.hasPrefix("META-INF") ? "OpenDocument-v1.3-manifest-schema.rng" : "OpenDocument-v1.3-schema.rng"
            // -i: the schema's ID types are not DTD-compatible (jing's default check).
            let r = try runTool("jing", ["-i", schema.appendingPathComponent(rng).path, unpacked.appendingPathComponent(p).path])
            let errors = r.output.split(separator: "\n").filter { !$0.hasPrefix("[warning]") }
            XCTAssertTrue(r.status == 0 && errors.isEmpty, "\(p) is not valid ODF 1.3: \(errors.prefix(5).joined(separator: "\n"))")
        }
    }

    /// The folder of the ODF 1.3 schemas: `ODF_SCHEMA_DIR`, else a cache in the temporary folder,
    /// filled from OASIS with curl on first use; `nil` when neither has them (no network).
    static func odfSchemaFolder() -> URL? {
        let names = ["OpenDocument-v1.3-schema.rng", "OpenDocument-v1.3-manifest-schema.rng"]
        let fm = FileManager.default
        if let env = ProcessInfo.processInfo.environment["ODF_SCHEMA_DIR"] {
            let u = URL(fileURLWithPath: env)
            if names.allSatisfy({ fm.fileExists(atPath: u.appendingPathComponent($0).path) }) { return u }
        }
        let cache = URL(fileURLWithPath: "/tmp/notepress-odf-1.3-schema")
        try? fm.createDirectory(at: cache, withIntermediateDirectories: true)
        for n in names where !fm.fileExists(atPath: cache.appendingPathComponent(n).path) {
            guard let curl = Tools.which("curl") else { return nil }
            let partial = cache.appendingPathComponent(n + ".part")
            let r = Tools.run(curl, ["-sSfL", "--max-time", "60", "-o", partial.path,
                                     "https://docs.oasis-open.org/office/OpenDocument/v1.3/os/schemas/" + n])
            guard r.status == 0, (try? fm.moveItem(at: partial, to: cache.appendingPathComponent(n))) != nil else {
                try? fm.removeItem(at: partial)
                return nil
            }
        }
        return cache
    }

    /// With SOURCE_DATE_EPOCH, two runs (the file touched in between) give the same bytes;
    /// meta.xml holds the title, the author and the date.
    func testSameBytesWithSourceDateEpoch() throws {
        let dir = try makeTempDir(self)
        let md = try writeTestFile(Self.sample, "guide.md", in: dir)
        let env = ["SOURCE_DATE_EPOCH": "1700000000"]
        let a = dir.appendingPathComponent("a.odt"), b = dir.appendingPathComponent("b.odt")
        try notepress(["convert", md.path, "-o", a.path], environment: env)
        try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: md.path)
        try notepress(["convert", md.path, "-o", b.path], environment: env)
        XCTAssertEqual(try Data(contentsOf: a), try Data(contentsOf: b))
        let meta = try part(a, "meta.xml")
        XCTAssertTrue(meta.contains("<dc:title>Field Guide</dc:title>"))
        XCTAssertTrue(meta.contains("<meta:initial-creator>Jane Roe</meta:initial-creator>"))
        XCTAssertTrue(meta.contains("<meta:creation-date>2023-11-14T22:13:20</meta:creation-date>"))
        XCTAssertTrue(meta.contains("<meta:keyword>birds</meta:keyword>"))
    }

    // MARK: - Images

    /// A PNG of `width`×`height` pixels (one colour), whole (IDAT and IEND: a header alone is a
    /// damaged image, not embedded).
    static func png(width: Int, height: Int) -> Data {
        DOCXTests.png(width, height)
    }

    /// An image is embedded under Pictures/ at its size (200 px → 150 pt; Obsidian's `|100` →
    /// 75 pt wide), once however often it is shown; a missing image and a file that is not an
    /// image each give a warning at their line and column, keep their description as text, and
    /// the package stays one LibreOffice opens.
    func testImagesEmbeddedAndMissingOnesWarnedAtLineAndColumn() throws {
        let dir = try makeTempDir(self)
        try Self.png(width: 200, height: 100).write(to: dir.appendingPathComponent("pic.png"))
        try "not an image".write(to: dir.appendingPathComponent("fake.png"), atomically: true, encoding: .utf8)
        let md = try writeTestFile("""
        # Pictures

        Here ![A heron](pic.png) and ![Small heron|100](pic.png).

        See ![Lost owl](missing.png) and
        ![Fake crow](fake.png) too.
        """, "pics.md", in: dir)
        let odt = dir.appendingPathComponent("pics.odt")
        let r = try notepress(["convert", md.path, "--verbose", "-o", odt.path])
        XCTAssertTrue(r.stderr.contains("pics.md:5:5: warning: ODT: image 'missing.png' not found"), r.stderr)
        XCTAssertTrue(r.stderr.contains("pics.md:6:1: warning: ODT: image 'fake.png' is not a PNG, JPEG or GIF image"), r.stderr)
        let listing = try runTool("unzip", ["-l", odt.path]).output
        XCTAssertTrue(listing.contains("Pictures/1.png"))
        XCTAssertFalse(listing.contains("Pictures/2"))
        let content = try part(odt, "content.xml")
        XCTAssertTrue(content.contains("svg:width=\"150pt\" svg:height=\"75pt\""), content)
        XCTAssertTrue(content.contains("svg:width=\"75pt\" svg:height=\"37.5pt\""))
        XCTAssertTrue(content.contains("<svg:desc>A heron</svg:desc>"))
        XCTAssertTrue(try part(odt, "META-INF/manifest.xml").contains("manifest:full-path=\"Pictures/1.png\" manifest:media-type=\"image/png\""))
        try LibreOffice.soffice("html", [odt], outDir: dir.appendingPathComponent("lo"))
        let html = try Self.readBack(dir.appendingPathComponent("lo/pics.html"))
        XCTAssertTrue(html.contains("Lost owl") && html.contains("Fake crow"))
        XCTAssertEqual(html.components(separatedBy: "<img ").count - 1, 2)
    }

    /// A folder run (`-t odt`): a page's image is read beside its source (the page's path is
    /// below the input folder, not the current one) and embedded, without a warning.
    func testFolderRunEmbedsImagesBesideEachNote() throws {
        let dir = try makeTempDir(self)
        try writeTestFile("# A\n\n![Heron](pic.png)\n", "site/sub/a.md", in: dir)
        try Self.png(width: 40, height: 20).write(to: dir.appendingPathComponent("site/sub/pic.png"))
        let r = try NotepressBinary.runExpectingSuccess(["convert", "site", "-o", "out", "-t", "odt", "--verbose"], currentDirectory: dir)
        XCTAssertFalse(r.stderr.contains("not found"), r.stderr)
        let listing = try runTool("unzip", ["-l", dir.appendingPathComponent("out/sub/a.odt").path]).output
        XCTAssertTrue(listing.contains("Pictures/1.png"), listing)
    }

    // MARK: - Bad input

    /// Lists nested 14 deep, a 3 000-row table and 2 000 footnotes: a valid package, lists at most
    /// ten levels of `text:list` (the deeper items as paragraphs with their marker), and output
    /// linear in the input.
    func testHugeTablesDeepNestingAndThousandsOfFootnotesStayBounded() throws {
        let dir = try makeTempDir(self)
        var text = "# Big\n\n"
        for depth in 0..<14 { text += String(repeating: "  ", count: depth) + "- level \(depth)\n" }
        text += "\n| a | b |\n|---|---|\n"
        for i in 0..<3000 { text += "| row \(i) | cell \(i) |\n" }
        text += "\n"
        for i in 0..<2000 { text += "Claim \(i)[^n\(i)].\n" }
        text += "\n"
        for i in 0..<2000 { text += "[^n\(i)]: Note \(i).\n" }
        let md = try writeTestFile(text, "big.md", in: dir)
        let odt = dir.appendingPathComponent("big.odt")
        try notepress(["convert", md.path, "-o", odt.path])
        let content = try part(odt, "content.xml")
        XCTAssertEqual(content.components(separatedBy: "<text:list ").count - 1, 10)
        XCTAssertTrue(content.contains("\u{2022} level 13"))
        XCTAssertEqual(content.components(separatedBy: "<text:note ").count - 1, 2000)
        XCTAssertEqual(content.components(separatedBy: "<table:table-row>").count - 1, 3001)
        XCTAssertLessThan(content.utf8.count, text.utf8.count * 40)
        let x = dir.appendingPathComponent("content.xml")
        try content.write(to: x, atomically: true, encoding: .utf8)
        XCTAssertEqual(try runTool("xmllint", ["--noout", "--huge", x.path]).status, 0)
    }
}
