import Foundation
import Notepress
import NotepressResources
import XCTest
import NotepressTestSupport

/// Issue 18: the library's one door (`Notepress.convert`, `parse`, `render`), its errors and
/// options, through `import Notepress` alone (plus NotepressResources for the embedding check).
final class LibraryAPITests: XCTestCase {
    static let note = """
        ---
        title: Notes
        created: 2024-03-01
        ---
        # Shop

        *milk* and _eggs_, [a link](https://example.org).

        """

    func testOneCallGivesCmarkGFMsFragment() throws {
        var options = ConversionOptions()
        options.fragment = true
        let r = try Notepress.convert("# Hi\n\n*a* and ~~b~~\n", from: .gfm, to: .html, options: options)
        XCTAssertEqual(r.text, "<h1>Hi</h1>\n<p><em>a</em> and <del>b</del></p>\n")
        XCTAssertEqual(r.diagnostics, [])
    }

    /// The library writes what `notepress convert -t FORMAT` writes for the same text on standard
    /// input (colour off, 80 columns: the library's defaults), in every format.
    func testEveryFormatMatchesTheCommandLineByteForByte() throws {
        for format in OutputFormat.allCases {
            let library = try Notepress.convert(Self.note, from: .gfm, to: format).bytes
            let cli = try NotepressBinary.run(["convert", "-f", "gfm", "-t", format.rawValue, "--color", "never", "--width", "80"],
                                              stdin: Data(Self.note.utf8))
            XCTAssertEqual(cli.status, 0, cli.stderr)
            XCTAssertEqual(library, Array(cli.stdout), format.rawValue)
            XCTAssertGreaterThan(library.count, 100, format.rawValue)
        }
        XCTAssertEqual(OutputFormat.allCases.map(\.fileExtension), ["html", "rtf", "ans", "xml", "man", "json", "docx", "odt", "epub", "pdf"])
    }

    func testParseThenRenderEqualsConvert() throws {
        let doc = try Notepress.parse(Self.note, from: .gfm)
        XCTAssertEqual(doc.metadata.title, "Notes")
        XCTAssertEqual(doc.metadata.sourcePath, nil)
        XCTAssertEqual(doc.blocks.count, 2)
        guard case .heading(1, let content) = doc.blocks[0].kind else { return XCTFail("\(doc.blocks[0])") }
        XCTAssertEqual(content.plainText, "Shop")
        XCTAssertEqual(try doc.render(as: .man).text, try Notepress.convert(Self.note, from: .gfm, to: .man).text)
        // Warnings come back with their line and column, without a file for a string.
        let man = try doc.render(as: .man)
        XCTAssertEqual(man.diagnostics.map(\.description), [
            "warning: man: no manual section given; using 1",
            "warning: man: no NAME section and no description: whatis(1) and apropos(1) will not index this page",
        ])
    }

    func testTerminalTextIsAPureFunctionOfTheOptions() throws {
        let long = String(repeating: "word ", count: 30)
        var options = ConversionOptions()
        XCTAssertEqual(options.width, 80)
        XCTAssertEqual(options.colorDepth, .none)
        let plain = try Notepress.convert(long, from: .note, to: .ansi, options: options).text
        XCTAssertEqual(plain.split(separator: "\n").map(\.count), [79, 69])
        options.width = 40
        options.colorDepth = .ansi256
        let narrow = try Notepress.convert("*bold* " + long, from: .note, to: .ansi, options: options).text
        XCTAssertTrue(narrow.hasPrefix("\u{1B}[0;1mbold\u{1B}[0m word word"), narrow.debugDescription)
        XCTAssertEqual(narrow.split(separator: "\n").count, 4)
    }

    func testThemesByName() throws {
        XCTAssertEqual(Theme.builtInNames, ["default", "high-contrast", "reading"])
        XCTAssertEqual(try Theme.named("reading").name, "reading")
        XCTAssertEqual(Theme.default.name, "default")
        XCTAssertEqual(ConversionOptions().theme.theme.name, "default")
        var options = ConversionOptions(theme: try Theme.named("reading").resolved(category: .extraLarge))
        options.fragment = false
        let page = try Notepress.convert("x", from: .note, to: .html, options: options).text
        XCTAssertTrue(page.contains("/* Notepress stylesheet: theme reading, size category extraLarge."), String(page.prefix(600)))
        XCTAssertThrowsError(try Theme.named("nope")) { error in
            guard case NotepressError.invalidTheme(let file, _, _)? = error as? NotepressError else { return XCTFail("\(error)") }
            XCTAssertEqual(file, "themes/nope.json")
        }
    }

    // Errors: an enum a caller can switch over, whose description is the command line's line.

    func testBadFrontMatterInANoteIsInvalidFrontMatterWithItsPosition() {
        XCTAssertThrowsError(try Notepress.convert("---\ncreated: 2024-02-30\n---\nx\n", from: .note, to: .html)) { error in
            guard case NotepressError.invalidFrontMatter(let file, let position, let message)? = error as? NotepressError else {
                return XCTFail("\(error)")
            }
            XCTAssertNil(file)
            XCTAssertEqual(position, SourcePosition(line: 2, column: 10))
            let expected = #"`created` is not an ISO 8601 date: "2024-02-30" (expected YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS][Z|±HH:MM] or YYYY-MM-DD HH:MM[:SS])"#
            XCTAssertEqual(message, expected)
            XCTAssertEqual("\(error)", "2:10: error: " + expected)
            XCTAssertEqual(error.localizedDescription, "\(error)")
        }
    }

    func testNULCharacterIsAnError() {
        XCTAssertThrowsError(try Notepress.parse("a\nb\u{0}", from: .gfm)) { error in
            XCTAssertEqual(error as? NotepressError, .nulByte(file: nil, position: SourcePosition(line: 2, column: 2)))
            XCTAssertEqual("\(error)", "2:2: error: contains a NUL byte (binary file?)")
        }
    }

    func testFileErrorsAreCasesWithTheCommandLinesMessages() throws {
        let dir = try makeTempDir(self)
        XCTAssertThrowsError(try DocumentLoader().load(path: dir.appendingPathComponent("missing.md").path)) { error in
            guard case NotepressError.fileUnreadable(_, let code)? = error as? NotepressError else { return XCTFail("\(error)") }
            XCTAssertEqual(code, 2)  // ENOENT
            XCTAssertEqual((error as? NotepressError)?.message, "no such file")
        }
        XCTAssertThrowsError(try DocumentLoader().load(path: dir.path)) { error in
            XCTAssertEqual((error as? NotepressError)?.message, "is a folder, not a file")
        }
        let bad = dir.appendingPathComponent("bad.note")
        try Data([0x61, 0x0A, 0x62, 0xE9, 0x0A]).write(to: bad)
        XCTAssertThrowsError(try DocumentLoader().load(path: bad.path)) { error in
            XCTAssertEqual(error as? NotepressError, .invalidUTF8(file: bad.path, position: SourcePosition(line: 2, column: 2), byte: 0xE9))
            XCTAssertEqual("\(error)", bad.path + ":2:2: error: invalid UTF-8 (byte 0xE9); convert the file to UTF-8 or name its encoding (--encoding)")
        }
        var latin = DocumentLoader()
        latin.encoding = "no-such-encoding"
        XCTAssertThrowsError(try latin.load(path: bad.path)) { error in
            XCTAssertEqual(error as? NotepressError, .unknownEncoding(file: bad.path, encoding: "no-such-encoding"))
        }
    }

    /// Every file of Templates/ is in the binary, byte for byte, under its path there (SwiftPM
    /// embeds them by file name; Sources/NotepressResources/EmbeddedTemplates.swift lists them).
    func testEveryTemplateFileIsEmbedded() throws {
        let root = TestPaths.root.appendingPathComponent("Templates")
        let files = TestPaths.files(under: root).filter { !$0.lastPathComponent.hasPrefix(".") }
        XCTAssertEqual(TemplateStore.embeddedPaths, files.map { String($0.path.dropFirst(root.path.count + 1)) }.sorted(),
                       "a file of Templates/ is missing from Sources/NotepressResources/EmbeddedTemplates.swift")
        for f in files {
            let path = String(f.path.dropFirst(root.path.count + 1))
            XCTAssertEqual(TemplateStore.embedded(path), try Data(contentsOf: f), path)
        }
        XCTAssertEqual(TemplateStore.embeddedPaths.count, 26, "8, 16 of issue 34's site chrome (site-head.html), issue 36's math.js, issue 47's print.html")
    }
}
