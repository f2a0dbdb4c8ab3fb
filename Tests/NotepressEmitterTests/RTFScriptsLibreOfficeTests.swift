import Foundation
import XCTest
import NotepressTestSupport

/// Issue 16 through the door users take: `notepress convert` writes RTF, LibreOffice turns it
/// into PDF, and poppler (`pdffonts`, `pdftotext -bbox`, `pdftohtml -xml`) reports which fonts
/// were used and where each word stands. Page: US Letter (612 × 792 pt), margins 72 pt, so text
/// runs from x = 72 to x = 540. These tests fail, never skip, when the programs are missing.
final class RTFScriptsLibreOfficeTests: XCTestCase {
    /// A word on a PDF page and its box in points (pdftotext -bbox).
    struct Word { var text: String; var xMin, yMin, xMax, yMax: Double }
    /// A run of text in one font (pdftohtml -xml): the font's name and size, and whether it is
    /// bold or italic (pdftohtml drops `-Bold`, `-Oblique` from a name and says `<b>`, `<i>`).
    struct Chunk {
        var text: String; var font: String; var size: Int; var left: Int; var width: Int
        var bold: Bool; var italic: Bool
    }

    /// The inputs, by case name: file name and text.
    static let inputs: [(name: String, file: String, text: String)] = [
        ("fonts", "fonts.md", "---\ntitle: Fonts\ncreated: 2024-05-02\n---\nBody words and `codespan` words.\n\n```\ncodeblock line\n```\n"),
        ("script", "script.note", "---\ntitle: Script\ncreated: 2024-05-02\n---\nPlain words and ~handwritten~ words.\n"),
        ("list", "list.note", "---\ntitle: List\ncreated: 2024-05-02\n---\n1. _slanted item_\n2. plain item\n"),
        ("badge", "badge.note", "---\ntitle: Badge\ncreated: 2024-05-02\n---\n"
            + String(repeating: "Words flow around the round date badge and back to the full width below it. ", count: 8) + "\n"),
        ("table", "table.md", "---\ntitle: Table\ncreated: 2024-05-02\n---\n| Domain | Years | Notes |\n|---|---|---|\n"
            + "| Domain, 2 years | 2 | Renewed automatically every second year in March by the registrar |\n"),
    ]

    /// The PDFs, made once for the class: the inputs above and two samples (right-to-left and CJK).
    nonisolated(unsafe) static var pdfDir: URL?

    override class func setUp() {
        super.setUp()
        let dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("rtf-scripts-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: dir)
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var rtfs: [URL] = []
        var sources = inputs.map { (name: $0.name, url: dir.appendingPathComponent($0.file), text: Optional($0.text)) }
        sources.append(("rtl", TestPaths.samples.appendingPathComponent("notes/haifa-workshop.note"), nil))
        sources.append(("cjk", TestPaths.samples.appendingPathComponent("notes/chinese-study.note"), nil))
        for s in sources {
            if let text = s.text { try? text.write(to: s.url, atomically: true, encoding: .utf8) }
            let out = dir.appendingPathComponent(s.name + ".rtf")
            guard let r = try? NotepressBinary.run(["convert", "-q", s.url.path, "-o", out.path],
                                                    environment: ["SOURCE_DATE_EPOCH": "1700000000"]), r.status == 0 else { continue }
            rtfs.append(out)
        }
        guard let soffice = Tools.which("soffice") else { return }
        let profile = "file:///tmp/lo-profile-scripts-\(ProcessInfo.processInfo.processIdentifier)"
        _ = Tools.run(soffice, ["-env:UserInstallation=\(profile)", "--headless", "--convert-to", "pdf",
                                                   "--outdir", dir.path] + rtfs.map(\.path))
        pdfDir = dir
    }

    /// The PDF of case `name`; fails the test when it was not made.
    func pdf(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        guard Tools.which("soffice") != nil else {
            XCTFail("soffice not found: install the Debian package libreoffice-writer-nogui", file: file, line: line)
            throw CocoaError(.fileNoSuchFile)
        }
        guard let dir = Self.pdfDir, FileManager.default.fileExists(atPath: dir.appendingPathComponent(name + ".pdf").path) else {
            XCTFail("LibreOffice made no PDF for \(name)", file: file, line: line)
            throw CocoaError(.fileNoSuchFile)
        }
        return dir.appendingPathComponent(name + ".pdf").path
    }

    /// `pdffonts`: the embedded font names of page 1 (subset prefixes dropped).
    func fonts(_ name: String) throws -> [String] {
        let r = try runTool("pdffonts", ["-f", "1", "-l", "1", pdf(name)])
        XCTAssertEqual(r.status, 0, r.output)
        return r.output.split(separator: "\n").dropFirst(2).compactMap { line in
            line.split(separator: " ").first.map { String($0.split(separator: "+").last ?? $0) }
        }
    }

    /// `pdftotext -bbox`: the words of page 1 with their boxes.
    func words(_ name: String) throws -> [Word] {
        let r = try runTool("pdftotext", ["-bbox", "-f", "1", "-l", "1", pdf(name), "-"])
        let re = try NSRegularExpression(pattern: #"<word xMin="([0-9.]+)" yMin="([0-9.]+)" xMax="([0-9.]+)" yMax="([0-9.]+)">([^<]*)</word>"#)
        return re.matches(in: r.output, range: NSRange(r.output.startIndex..., in: r.output)).map { m in
            let g = { (i: Int) in String(r.output[Range(m.range(at: i), in: r.output)!]) }
            return Word(text: g(5), xMin: Double(g(1))!, yMin: Double(g(2))!, xMax: Double(g(3))!, yMax: Double(g(4))!)
        }
    }

    /// `pdftohtml -xml`: the text chunks of page 1 with their fonts (names without subset prefix).
    func chunks(_ name: String) throws -> [Chunk] {
        let r = try runTool("pdftohtml", ["-xml", "-i", "-stdout", "-f", "1", "-l", "1", pdf(name)])
        var fonts: [String: (String, Int)] = [:]
        let spec = try NSRegularExpression(pattern: #"<fontspec id="([0-9]+)" size="([0-9]+)" family="([^"]+)""#)
        for m in spec.matches(in: r.output, range: NSRange(r.output.startIndex..., in: r.output)) {
            let g = { (i: Int) in String(r.output[Range(m.range(at: i), in: r.output)!]) }
            fonts[g(1)] = (String(g(3).split(separator: "+").last!), Int(g(2))!)
        }
        let text = try NSRegularExpression(pattern: #"<text top="[0-9]+" left="([0-9]+)" width="([0-9]+)" height="[0-9]+" font="([0-9]+)">(.*?)</text>"#)
        return text.matches(in: r.output, range: NSRange(r.output.startIndex..., in: r.output)).map { m in
            let g = { (i: Int) in String(r.output[Range(m.range(at: i), in: r.output)!]) }
            let marked = g(4)
            let plain = marked.replacingOccurrences(of: #"</?[bi]>"#, with: "", options: .regularExpression)
            let f = fonts[g(3)] ?? ("?", 0)
            return Chunk(text: plain, font: f.0, size: f.1, left: Int(g(1))!, width: Int(g(2))!,
                         bold: marked.contains("<b>") || f.0.contains("Bold"),
                         italic: marked.contains("<i>") || f.0.contains("Italic") || f.0.contains("Oblique"))
        }
    }

    /// Code is in a monospaced face (it was Menlo, which LibreOffice replaced by a proportional
    /// face: the RTF now names Courier New, mapped to URW's Nimbus Mono PS or DejaVu Sans Mono),
    /// `~script~` in a cursive one (Zapf Chancery: URW's Z003, Debian `fonts-urw-base35`).
    func testCodeIsMonospacedAndScriptIsCursive() throws {
        let codeFonts = try fonts("fonts")
        XCTAssertTrue(codeFonts.contains { $0.contains("Mono") }, "no monospaced font: \(codeFonts)")
        let all = try chunks("fonts")
        let code = all.filter { $0.text.contains("codespan") || $0.text.contains("codeblock") }
        XCTAssertEqual(code.count, 2, "\(all)")
        for c in code { XCTAssertTrue(c.font.contains("Mono"), "\(c.text) in \(c.font)") }
        let scriptFonts = try fonts("script")
        XCTAssertTrue(scriptFonts.contains("Z003MediumItalic"), "\(scriptFonts)")
        let script = try chunks("script").first { $0.text.contains("handwritten") }
        XCTAssertEqual(script?.font, "Z003MediumItalic")
    }

    /// Chinese and Japanese take the theme's sans-serif East Asian face (`\dbch\af`), not
    /// LibreOffice's default serif CJK face.
    func testCJKTakesTheSansSerifEastAsianFont() throws {
        let f = try fonts("cjk")
        XCTAssertTrue(f.contains { $0.hasPrefix("NotoSansCJK") }, "\(f)")
        XCTAssertFalse(f.contains { $0.hasPrefix("NotoSerifCJK") }, "\(f)")
    }

    /// Each right-to-left line of the note is right-aligned (`\rtlpar\qr`), a left-to-right line
    /// left-aligned; Hebrew keeps the size of the Latin text (`\afs`) and is bold where the
    /// markup says so (`\ab`).
    func testRightToLeftLinesAlignRightAndKeepSizeAndWeight() throws {
        let w = try words("rtl")
        func line(containing text: String) -> [Word] {
            guard let word = w.first(where: { $0.text == text }) else { XCTFail("no word \(text)"); return [] }
            return w.filter { abs($0.yMin - word.yMin) < 1 }
        }
        // "המפגש הראשון: …" — starts in Hebrew, below the badge: its right edge is the right margin
        // (the lines beside the badge end at the badge instead).
        let hebrew = line(containing: String("המפגש".reversed()))
        XCTAssertEqual(hebrew.map(\.xMax).max() ?? 0, 540, accuracy: 2, "\(hebrew.map(\.text))")
        // "יום ראשון", a short line beside the badge: it ends at the badge and starts far from the
        // left margin.
        let short = line(containing: String("ראשון".reversed()))
        XCTAssertGreaterThan(short.map(\.xMin).min() ?? 0, 300, "\(short.map(\.text))")
        XCTAssertGreaterThan(short.map(\.xMax).max() ?? 0, 440)
        // "Key idea: translate the rhythm first, then the meaning." — left-aligned.
        let latin = line(containing: "Key")
        XCTAssertEqual(latin.map(\.xMin).min() ?? 0, 72, accuracy: 2)
        let c = try chunks("rtl")
        let bodyLatin = try XCTUnwrap(c.first { $0.text.contains("Key idea") })
        let hebrewBody = try XCTUnwrap(c.first { $0.text.contains(String("לחיפה".reversed())) })
        XCTAssertEqual(hebrewBody.size, bodyLatin.size, "Hebrew at the body size (it was about 12 pt against 17)")
        // `*יום ראשון*` (a whole line in bold).
        let bold = try XCTUnwrap(c.first { $0.text == String("יום ראשון".reversed()) }, "\(c.map(\.text))")
        XCTAssertTrue(bold.bold, "\(bold.text) in \(bold.font)")
        XCTAssertEqual(bold.size, bodyLatin.size)
    }

    /// List numbers take the formatting of their list level: bold (note numbers), and upright
    /// even when the item's text is italic (the number of an italic item was italic).
    func testListNumbersTakeTheListLevelsFormatting() throws {
        let c = try chunks("list")
        let numbers = c.filter { $0.text == "1." || $0.text == "2." }
        XCTAssertEqual(numbers.count, 2, "\(c)")
        for n in numbers {
            XCTAssertTrue(n.bold, "\(n.text) in \(n.font)")
            XCTAssertFalse(n.italic, "\(n.text) in \(n.font)")
        }
        XCTAssertTrue(try XCTUnwrap(c.first { $0.text.contains("slanted item") }).italic)
    }

    /// The date badge is drawn at the right edge with the day, month and year inside, and the
    /// text beside it wraps short of it, then returns to the full width below it.
    func testBadgeIsARoundShapeTheTextWrapsAround() throws {
        let w = try words("badge")
        // SOURCE_DATE_EPOCH does not replace a front-matter date: 2 May 2024.
        let day = try XCTUnwrap(w.first { $0.text == "2" && $0.xMin > 400 }, "\(w.map(\.text))")
        let month = try XCTUnwrap(w.first { $0.text == "May" })
        let year = try XCTUnwrap(w.first { $0.text == "2024" })
        // The circle spans x 462…540 (7800…9360 twips of the column) and y from the anchor down
        // 78 pt; its text is centred in it.
        for d in [day, month, year] {
            XCTAssertEqual((d.xMin + d.xMax) / 2, 501, accuracy: 4, "\(d.text) centred in the badge")
        }
        XCTAssertLessThan(day.yMin, month.yMin)
        XCTAssertLessThan(month.yMin, year.yMin)
        let body = w.filter { $0.text != "Badge" && !["2", "May", "2024"].contains($0.text) }
        let beside = body.filter { $0.yMax > day.yMin - 20 && $0.yMin < year.yMax + 10 }
        XCTAssertFalse(beside.isEmpty)
        XCTAssertLessThan(beside.map(\.xMax).max() ?? 999, 462, "text beside the badge stays left of it")
        let below = body.filter { $0.yMin > year.yMax + 30 }
        XCTAssertGreaterThan(below.map(\.xMax).max() ?? 0, 480, "below the badge the text takes the full width")
    }

    /// Columns are sized by their content: "Domain, 2 years" stays on one line while the notes
    /// column (long) wraps; with equal columns the first wrapped.
    func testTableColumnsAreSizedByContent() throws {
        let w = try words("table")
        let domain = try XCTUnwrap(w.first { $0.text == "Domain," })
        let years = try XCTUnwrap(w.first { $0.text == "years" })
        XCTAssertEqual(domain.yMin, years.yMin, accuracy: 1, "\"Domain, 2 years\" on one line")
        let notes = w.filter { ["Renewed", "registrar"].contains($0.text) }
        XCTAssertEqual(notes.count, 2)
        XCTAssertGreaterThan(notes[1].yMin, notes[0].yMin + 5, "the long cell wraps")
    }
}
