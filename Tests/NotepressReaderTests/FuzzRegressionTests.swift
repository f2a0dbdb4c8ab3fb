import Foundation
import XCTest
import NotepressTestSupport
@testable import Notepress
@testable import NotepressFuzzSupport
import NotepressAST
import NotepressContainer
import NotepressReaders

/// Inputs found by the libFuzzer target (.ci/fuzz.sh, Sources/NotepressFuzz) and edge cases of the
/// harness itself, run through the same ``FuzzHarness`` (every reader, every writer). Each input is
/// inline: byte 0 options, byte 1 width, then the text.
final class FuzzRegressionTests: XCTestCase {
    /// The outcome's errors (every writer must take every input).
    func errors(_ o: FuzzHarness.Outcome) -> [String: String] { o.errors }

    func run(_ flags: UInt8, _ text: String, file: StaticString = #filePath, line: UInt = #line) -> FuzzHarness.Outcome {
        let outcome = FuzzHarness.run([flags, 70] + Array(text.utf8))
        for name in WriterRegistry.all.map(\.name) {
            XCTAssertNotNil(outcome.outputBytes[name] ?? outcome.errors[name].map { _ in 0 }, "\(name) ran", file: file, line: line)
        }
        return outcome
    }

    /// What `format` writes for `text` read as the harness reads it (`gfm`: GFM, else note markup
    /// titled "fuzz", created at 0), 80 columns (the width byte 70 of ``run(_:_:file:line:)``), no colour.
    func write(_ format: String, _ text: String, gfm: Bool, fragment: Bool = false) -> String {
        var options = ConversionOptions()
        options.width = 80
        options.fragment = fragment
        let document = gfm ? MarkdownReader(format: .gfm).parse(text, path: "fuzz.md").document
            : Document(metadata: DocumentMetadata(title: "fuzz", created: Date(timeIntervalSince1970: 0), sourceFormat: .note),
                       blocks: NoteReader().parse(text))
        var diagnostics: [Diagnostic] = []
        let bytes = (try? WriterRegistry.writer(named: format)!.write(document, options: options, diagnostics: &diagnostics)) ?? []
        return String(decoding: bytes, as: UTF8.self)
    }

    func testEmptyAndTinyInputs() {
        for bytes: [UInt8] in [[], [0], [1, 0], [3, 255]] {
            let o = FuzzHarness.run(bytes)
            XCTAssertEqual(Set(o.outputBytes.keys), Set(WriterRegistry.all.map(\.name)), "\(bytes)")
            XCTAssertEqual(errors(o), [:], "\(bytes)")
        }
        // An empty document: no body, and the AST dump says so.
        XCTAssertEqual(write("html", "", gfm: false, fragment: true), "")
        XCTAssertTrue(write("json", "", gfm: true).contains("\"children\": []"), write("json", "", gfm: true))
    }

    func testInvalidUTF8IsRepairedNotFatal() {
        let o = FuzzHarness.run([3, 20, 0xFF, 0xFE, 0x2A, 0xC3, 0x28, 0x2A, 0x0A])
        XCTAssertEqual(errors(o), [:])
        XCTAssertGreaterThan(o.outputBytes["html"] ?? 0, 0)
        // Each bad sequence is one U+FFFD; `*` after a non-space is no opener, so no emphasis.
        XCTAssertEqual(write("html", "\u{FFFD}\u{FFFD}*\u{FFFD}(*\n", gfm: false, fragment: true), "<p>\u{FFFD}\u{FFFD}*\u{FFFD}(*</p>\n")
    }

    func testControlCharactersInEveryFormat() {
        // C0 controls, DEL, a lone CR, U+FFFE/U+FFFF and a form feed: TEI must still validate
        // (XML 1.0 §2.2 forbids most C0 controls), roff must not start a request.
        let text = "a\u{01}b\u{08}c\u{0B}d\u{0C}e\u{1B}[31m\u{7F}\r.TH x\n'x\n\u{FFFE}\u{FFFF}\n"
        for flags: UInt8 in [0, 1, 0b1100_1101] {
            let o = run(flags, text)
            XCTAssertEqual(errors(o), [:], "flags \(flags)")
        }
        // The terminal gets control pictures, never the controls; roff never sees a line that
        // starts with a request character.
        XCTAssertTrue(write("ansi", text, gfm: false).contains("a\u{2401}b\u{2408}c\u{240B}d\u{240C}e\u{241B}[31m\u{2421}"))
        let man = write("man", text, gfm: false)
        XCTAssertTrue(man.contains("\n\\&'x\n"), man)
        XCTAssertFalse(man.contains("\n.TH x"), man)
    }

    func testUnbalancedNoteSpansAndAlerts() {
        let text = "*_-~ URGENT ~-_*\n*a _b -c ~d\n1. 2. 3.\n~~~\n- -\n"
        let o = run(0, text)
        XCTAssertEqual(errors(o), [:])
        // Unclosed delimiters stay text; the alert word is still marked.
        XCTAssertTrue(write("html", text, gfm: false, fragment: true)
            .hasPrefix("<p>*_-~ <span class=\"alert\">URGENT</span> ~-_*<br />\n*a _b -c ~d</p>\n"), write("html", text, gfm: false, fragment: true))
    }

    func testMarkdownEdgeShapes() {
        let text = "[^1]\n\n[^1]: > - | a |\n|---|\n\n<div>\n\n```\n\u{0}\n```\n\n* * *\n#\n|a|\n|-|\n|\\|\n"
        let o = run(1, text)
        XCTAssertEqual(errors(o), [:])
        // The NUL in the code block becomes U+FFFD (CommonMark §2.3); the footnote holds the quote.
        let html = write("html", text, gfm: true, fragment: true)
        XCTAssertTrue(html.contains("<pre><code>\u{FFFD}\n</code></pre>\n<hr />\n"), html)
        XCTAssertTrue(html.contains("<section class=\"footnotes\" data-footnotes>\n<ol>\n<li id=\"fn-1\">\n<blockquote>\n"), html)
    }

    // MARK: Issue 13: the harness's loader, oracles and folder path

    /// Dangerous links and images, bidi controls and front matter through every writer, safe and
    /// unsafe, with OSC 8 links on and off: the output checks find nothing.
    func testHostileTextPassesTheOutputChecks() {
        let text = "---\ntitle: T\ncreated: 1500-03-01T10:20:30.25Z\n---\n[run](file:///C:/calc.exe) [js](java&#9;script:alert(1)) "
            + "![i](JAVASCRIPT:x) [c](java&#1;script:x) <javascript:alert(2)> [ok](https://a.org/)\n\n"
            + "| a |\n|---|\n| photo\u{202E}gnp.exe \u{2067}x\u{2069} |\n"
        for flags: UInt8 in [1, 0b1100_0001, 0b1100_1001, 0b0100_0111, 3] {
            let o = run(flags, text)
            XCTAssertEqual(errors(o), [:], "flags \(flags)")
        }
    }

    /// Fuzzer find (crash-6d8e8cc6…, ASan run of this round): `data:image/pn\u{202D}g` passed the
    /// image exception after the bidi override was skipped, so ANSI wrote a live OSC 8 link (and
    /// HTML an `href`) to a `data:` URL that cmark-gfm empties. Every format must drop it now.
    func testDataURLWithIgnorableInsideImageTypeIsNotLive() {
        let text = "[x](data:image/pn\u{202D}g;base64,AA) ![y](data:image/pn\u{202D}g;base64,AA) ![ok](data:image/png;base64,AA)\n"
        for flags: UInt8 in [1, 0b1100_0001] {
            XCTAssertEqual(errors(run(flags, text)), [:], "flags \(flags)")
        }
        XCTAssertEqual(write("html", text, gfm: true, fragment: true),
                       "<p><a href=\"\">x</a> <img src=\"\" alt=\"y\" /> <img src=\"data:image/png;base64,AA\" alt=\"ok\" /></p>\n")
    }

    /// The checks are not vacuous: planted faults are found, look-alikes in text are not.
    func testOutputChecksFindPlantedFaults() {
        func check(_ w: OutputFormat, _ s: String, unsafe: Bool = false) -> String? { FuzzOracles.check(w, Array(s.utf8), unsafe: unsafe) }
        XCTAssertNotNil(check(.rtf, "{\\field{\\*\\fldinst{HYPERLINK \"java\\\\\\tab script:x\"}}{\\fldrslt x}}"))
        XCTAssertNotNil(check(.rtf, "{\\field{\\*\\fldinst{HYPERLINK \"\\u106?avascript:x\"}}}"))
        XCTAssertNil(check(.rtf, "{\\field{\\*\\fldinst{HYPERLINK \"java\\\\\\\\script:x\"}}}"), "java\\script: is no scheme")
        XCTAssertNil(check(.rtf, "HYPERLINK \"javascript:x\" as text\\par"))
        XCTAssertNil(check(.rtf, "{\\field{\\*\\fldinst{HYPERLINK \"javascript:x\"}}}", unsafe: true))
        XCTAssertNotNil(check(.tei, "<p><ref target=\"&#x6A;avascript:x\">a</ref></p>"))
        XCTAssertNotNil(check(.tei, "<figure><graphic url=\"data:text/html,x\"/></figure>"))
        XCTAssertNil(check(.tei, "<p>url=\"javascript:x\" target=\"file:x\"</p>"), "text content, not attributes")
        XCTAssertNotNil(check(.html, "<p><a href=\"javascript:x\">a</a></p>"))
        XCTAssertNil(check(.html, "<p><a href=\"\">a</a> href=&quot;javascript:x&quot;</p>"))
        XCTAssertNotNil(check(.man, ".UR java\\:script:\\:x\nx\n.UE\n"))
        XCTAssertNotNil(check(.man, "caf\u{E9}\n"), "man output is ASCII")
        XCTAssertNil(check(.man, "\\&.UR javascript:x\n"))
        XCTAssertNotNil(check(.ansi, "\u{1B}]8;;javascript:x\u{1B}\\a\u{1B}]8;;\u{1B}\\\n"))
        XCTAssertNotNil(check(.ansi, "photo\u{202E}gnp.exe\n"))
        XCTAssertNotNil(check(.ansi, "a\u{9B}31m\n"))
        XCTAssertNil(check(.ansi, "\u{1B}[1ma\u{1B}[0m \u{1B}]8;;https://a.org/\u{1B}\\b\u{1B}]8;;\u{1B}\\\n"))
    }

    /// The folder path (width byte bit 7): three inputs cut at U+001E, converted twice; the
    /// second run converts nothing and changes nothing. A bad `created` fails its file both times.
    func testFolderPath() {
        let text = "# A\n[x](javascript:y)\n\u{1E}---\ncreated: 1500-03-01\n---\n*b* NOTE\n\u{1E}---\ncreated: 2024-02-30\n---\nc\n"
        for flags: UInt8 in [0b0100_1101, 1] {  // the last without --fragment: an index
            let o = FuzzHarness.run([flags, 0x80 | 60] + Array(text.utf8))
            XCTAssertEqual(errors(o), [:], "flags \(flags)")
        }
        let files = FuzzFolder.snapshot(FuzzFolder.scratch + "/out").keys.sorted()
        XCTAssertTrue(files.contains("html/index.html"), "\(files)")
        XCTAssertTrue(files.contains("tei/sub/b.xml"), "\(files)")
        XCTAssertFalse(files.contains("json/c.json"), "c.markdown fails: 2024-02-30 is no date")
        try? FileManager.default.removeItem(atPath: FuzzFolder.scratch)
    }

    // MARK: Issue 44 item 12: the package and PDF writers' oracles

    /// A document with what the packages hold parts for (footnotes, a list, a table, a link, a
    /// missing image, code): DOCX, ODT, EPUB and PDF are written, twice alike, and pass the
    /// package checks; a text longer than ``FuzzHarness/pdfAlways`` is written as PDF one time
    /// in ``FuzzHarness/pdfSampling``, and the folder path writes packages too.
    func testPackageAndPDFOutputsPassTheirChecks() {
        let text = "---\ntitle: Ünïcode & <title>\n---\n# H\n\nA[^1] **b** [l](https://a.org/?q=1&r=2) ![m](missing.png)\n\n"
            + "[^1]: Note.\n\n- x\n  - y\n\n| a | b |\n|---|:-:|\n| 1 | `2` |\n\n```swift\nlet x = 1\n```\n"
        for flags: UInt8 in [1, 0b0000_0100, 3] {
            let o = run(flags, text)
            XCTAssertEqual(errors(o), [:], "flags \(flags)")
            for name in ["docx", "odt", "epub", "pdf"] { XCTAssertGreaterThan(o.outputBytes[name] ?? 0, 500, name) }
        }
        let long = (0..<64).map { [0x01, 0x46] + Array("paragraph \($0)\n\n".utf8) + Array(repeating: 0x61, count: 600) }
        let sampled = long.filter(FuzzHarness.writesPDF).count
        XCTAssertTrue((1...24).contains(sampled), "\(sampled) of 64 long inputs write PDF")
        XCTAssertTrue(FuzzHarness.writesPDF([1, 70] + Array(text.utf8)))
        let o = FuzzHarness.run([0b0000_0001, 0x80 | 60] + Array("# A\n\u{1E}b *c*\n\u{1E}[^x]\n\n[^x]: d\n".utf8))
        XCTAssertEqual(errors(o), [:])
        let files = FuzzFolder.snapshot(FuzzFolder.scratch + "/out").keys
        XCTAssertTrue(files.contains("epub/sub/b.epub") && files.contains("pdf/a.pdf"), "\(files.sorted())")
        try? FileManager.default.removeItem(atPath: FuzzFolder.scratch)
    }

    /// Fuzzer find (crash-54466b39…, the first run with PDF): a NUL in a wiki link's target (the
    /// loader refuses NUL bytes, the harness then writes what the reader made) ended the C string
    /// of the link's cairo attributes inside its quote, and cairo refused the whole PDF. The NUL
    /// is `%00` in the link now (``PDFTests/testLongLinkAndLongHeadingDoNotFailThePDF`` has the
    /// same bug through the command line).
    func testNULInWikiLinkTargetWritesThePDF() {
        for (flags, text) in [(UInt8(0), "[[a\u{0}b]]\n"), (0, "{{/dev/zer/}}\n\n![[/dev/z\u{0}ero]]\n&#8;\n![]</dev/urandom)\n"),
                              (0b1000, "[x](a\u{0}'b\\c)\n")] {
            let o = run(flags, text)
            XCTAssertEqual(errors(o), [:], text.debugDescription)
            XCTAssertGreaterThan(o.outputBytes["pdf"] ?? 0, 1000)
        }
    }

    /// The package and PDF checks are not vacuous: real outputs pass, and each planted fault
    /// (a cut archive, a part that is not well-formed or nested past libxml2's limit, a part
    /// missing from its list or a list naming a missing part, mimetype out of place, a PDF cut
    /// short, too many bytes, two runs that differ) is found.
    func testPackageChecksFindPlantedFaults() throws {
        let document = Document(metadata: DocumentMetadata(title: "t", created: Date(timeIntervalSince1970: 0), sourceFormat: .note),
                                blocks: NoteReader().parse("a *b*\n"))
        func written(_ f: OutputFormat) throws -> [UInt8] {
            var d: [Diagnostic] = []
            return try WriterRegistry.writer(for: f).write(document, options: ConversionOptions(), diagnostics: &d)
        }
        func check(_ f: OutputFormat, _ bytes: [UInt8], inputLength: Int = 10) -> String? {
            FuzzPackages.check(f, bytes, inputLength: inputLength)
        }
        /// The package `f` wrote, changed by `change` and zipped again.
        func replanted(_ f: OutputFormat, _ change: (inout [ZipArchive.Entry]) -> Void) throws -> [UInt8] {
            var entries = try ZipArchive.read(try written(f))
            change(&entries)
            var zip = ZipArchive()
            for e in entries { zip.add(e.name, bytes: e.bytes, stored: e.stored) }
            return try zip.bytes()
        }
        for f: OutputFormat in [.docx, .odt, .epub, .pdf] { XCTAssertNil(check(f, try written(f)), "\(f)") }
        XCTAssertNil(check(.docx, try replanted(.docx) { _ in }), "zipped again alike")

        let docx = try written(.docx)
        XCTAssertNotNil(check(.docx, Array(docx.dropLast(30)))?.range(of: "does not open"))
        XCTAssertNotNil(check(.docx, try replanted(.docx) { $0[3].bytes += Array("<x/>".utf8) })?.range(of: "not well-formed"))
        let deep = "<?xml version=\"1.0\"?>" + String(repeating: "<a>", count: 300) + String(repeating: "</a>", count: 300)
        XCTAssertNotNil(check(.docx, try replanted(.docx) { $0[3].bytes = Array(deep.utf8) })?.range(of: "not well-formed"))
        XCTAssertNotNil(check(.docx, try replanted(.docx) { $0.append(.init(name: "word/x.bin", bytes: [1], stored: true)) })?
            .range(of: "has no content type"))
        XCTAssertNotNil(check(.docx, try replanted(.docx) { $0.removeAll { $0.name == "word/styles.xml" } }))
        XCTAssertNotNil(check(.docx, try replanted(.docx) { $0.removeAll { $0.name == "word/document.xml" } }))

        XCTAssertNotNil(check(.odt, try replanted(.odt) { $0.swapAt(0, 1) })?.range(of: "mimetype"))
        XCTAssertNotNil(check(.odt, try replanted(.odt) { $0[0].stored = false })?.range(of: "mimetype is compressed"))
        XCTAssertNotNil(check(.odt, try replanted(.odt) { $0.append(.init(name: "Pictures/1.png", bytes: [1], stored: true)) })?
            .range(of: "not in the manifest"))
        XCTAssertNotNil(check(.odt, try replanted(.odt) { $0.removeAll { $0.name == "meta.xml" } })?.range(of: "lists meta.xml"))

        XCTAssertNotNil(check(.epub, try replanted(.epub) { $0.append(.init(name: "EPUB/x.css", bytes: [], stored: false)) })?
            .range(of: "not in the manifest"))
        XCTAssertNotNil(check(.epub, try replanted(.epub) { e in e.removeAll { $0.name.hasSuffix(".xhtml") && !$0.name.hasSuffix("nav.xhtml") } })?
            .range(of: "not in the package"))

        let pdf = try written(.pdf)
        XCTAssertNotNil(check(.pdf, Array(pdf.dropLast(8))))
        XCTAssertNotNil(check(.pdf, Array(pdf.dropFirst())))
        XCTAssertNotNil(check(.pdf, pdf + Array(repeating: 0x0A, count: FuzzPackages.sizeLimit(10))))
        XCTAssertNotNil(check(.epub, try written(.epub), inputLength: -4090)?.range(of: "unpacked|more than", options: .regularExpression))

        var outcome = FuzzHarness.Outcome()
        FuzzHarness.write(document, CountingWriter(), options: ConversionOptions(), inputLength: 10, into: &outcome)
        XCTAssertEqual(outcome.bugs, ["oracle:pdf": "pdf: two runs wrote different bytes"])
    }
}

/// A writer whose bytes differ run by run (``FuzzRegressionTests/testPackageChecksFindPlantedFaults()``).
private final class CountingWriter: DocumentWriter, @unchecked Sendable {
    var runs = 0
    var format: OutputFormat { .pdf }
    var fileExtension: String { "pdf" }
    func write(_ document: Document, options: ConversionOptions, diagnostics: inout [Diagnostic]) throws -> [UInt8] {
        runs += 1
        return Array("%PDF-1.7\n% run \(runs)\n%%EOF\n".utf8)
    }
}
