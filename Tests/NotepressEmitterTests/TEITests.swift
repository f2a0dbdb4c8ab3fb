import Foundation
import Notepress
import NotepressAST
import NotepressReaders
import NotepressResources
import NotepressTEI
import XCTest
import NotepressTestSupport

final class TEIEmitterTests: XCTestCase {
    func testHeaderAndSections() throws {
        var doc = MarkdownReader(format: .gfm).parse("intro\n\n# One\n\npara\n\n### Deep\n\nd\n\n## Two\n\n# Three\n", path: "notes/a.md").document
        doc.metadata.title = "A & B"
        doc.metadata.created = Date(timeIntervalSince1970: 1_700_000_000)
        doc.metadata.tags = ["x<y", "z"]
        let xml = try TEITestSupport.tei(doc)
        XCTAssertTrue(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<TEI xmlns=\"http://www.tei-c.org/ns/1.0\">"))
        XCTAssertTrue(xml.contains("<title>A &amp; B</title>"))
        XCTAssertTrue(xml.contains("<publicationStmt>\n        <p>Converted by Notepress</p>"))
        XCTAssertTrue(xml.contains("<idno type=\"path\">notes/a.md</idno>"))
        XCTAssertTrue(xml.contains("<idno type=\"format\">gfm</idno>"))
        XCTAssertTrue(xml.contains("<date when=\"2023-11-14T22:13:20Z\">14 November 2023</date>"), xml)
        XCTAssertTrue(xml.contains("<term>x&lt;y</term>"))
        XCTAssertTrue(xml.contains("<term>z</term>"))
        // Nesting: Deep inside One, Two inside One, Three a sibling of One.
        let compact = xml.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined()
        XCTAssertTrue(compact.contains(
            "<body><p>intro</p><div xml:id=\"one\"><head>One</head><p>para</p><div xml:id=\"deep\"><head>Deep</head><p>d</p></div><div xml:id=\"two\"><head>Two</head></div></div><div xml:id=\"three\"><head>Three</head></div></body>"),
            compact)
        XCTAssertEqual(try TEITestSupport.validator().validate(Data(xml.utf8), name: "a.xml"), [])
    }

    func testUniqueIDs() throws {
        let xml = try TEITestSupport.tei("# Intro\n\n# Intro\n\n# intro 2\n\n# Intro\n\n# 1 Start\n\n# 日本\n\n# !!\n")
        // GitHub's ids (the HTML page's), made NCNames: a leading digit gets `h.`; an empty slug
        // is `section`, as on the HTML page (HeadingSlugger.emptySlugStandIn).
        for id in ["intro", "intro-1", "intro-2", "intro-3", "h.1-start", "日本", "section"] {
            XCTAssertTrue(xml.contains("xml:id=\"\(id)\""), id)
        }
        XCTAssertEqual(try TEITestSupport.validator().validate(Data(xml.utf8), name: "x"), [])
    }

    func testInlineMapping() throws {
        let xml = try TEITestSupport.tei("**b *i* ~~s~~** `c<d` [l](http://x.org/a \"t\") ![alt *e*](img.png \"cap\")  \nnext\nsoft")
        XCTAssertTrue(xml.contains("<hi rend=\"bold\">b <hi rend=\"italic\">i</hi> <hi rend=\"strikethrough\">s</hi></hi>"), xml)
        XCTAssertTrue(xml.contains("<code>c&lt;d</code>"))
        // A GFM link (destination without spaces) is a `ref` with its target; the title is not kept.
        XCTAssertTrue(xml.contains("<code>c&lt;d</code> <ref target=\"http://x.org/a\">l</ref> <figure>"), xml)
        XCTAssertFalse(xml.contains("[l]"), xml)
        XCTAssertTrue(xml.contains("<figure><head>cap</head><graphic url=\"img.png\"/><figDesc>alt e</figDesc></figure><lb/>next\nsoft"), xml)
        XCTAssertEqual(try TEITestSupport.validator().validate(Data(xml.utf8), name: "x"), [])
    }

    func testLinkDestinationsAreEscapedURIs() throws {
        let xml = try TEITestSupport.tei("[a](<x y\"z%zz%41>) [e]() [c](foo\\)\\:) [d](http://[::1]/a[b]#c#d)")
        XCTAssertTrue(xml.contains("<ref target=\"x%20y%22z%25zz%41\">a</ref>"), xml)
        XCTAssertTrue(xml.contains("<ref target=\"./foo):\">c</ref>"), xml)
        XCTAssertTrue(xml.contains("<ref target=\"http://[::1]/a%5Bb%5D#c%23d\">d</ref>"), xml)
        XCTAssertTrue(xml.contains("<ref>e</ref>"), xml)
        XCTAssertEqual(try TEITestSupport.validator().validate(Data(xml.utf8), name: "x"), [])
    }

    /// Regression (new-user try-out): a link whose authority held a bracket outside an IP-literal
    /// host, a second `@` or a port that is not digits was written as it was, the schema refused
    /// it, and the whole file failed to convert. Each is now encoded so that the TEI validates.
    func testAuthorityDelimitersThatDoNotDelimitAreEncoded() throws {
        let cases: [(String, String)] = [
            ("http://u[x]@h/", "http://u%5Bx%5D@h/"),
            ("http://h[1]/", "http://h%5B1%5D/"),
            ("http://a]b/", "http://a%5Db/"),
            ("http://[::1", "http://%5B%3A%3A1"),
            ("http://[::1]]/", "http://%5B%3A%3A1%5D%5D/"),
            ("//u[x]@h/", "//u%5Bx%5D@h/"),
            ("http://h:abc/", "http://h%3Aabc/"),
            ("http://h:/", "http://h%3A/"),
            ("http://a@b@c/", "http://a%40b@c/"),
            // Kept: an IP-literal with a port, userinfo with a colon, a numeric port.
            ("http://[::1]:80/p[1]", "http://[::1]:80/p%5B1%5D"),
            ("https://user:pw@[v1.fe]/", "https://user:pw@[v1.fe]/"),
            ("http://h:8080/x", "http://h:8080/x"),
        ]
        let xml = try TEITestSupport.tei(cases.map { "[a](<\($0.0)>)" }.joined(separator: "\n\n"))
        for (input, target) in cases {
            XCTAssertTrue(xml.contains("<ref target=\"\(target)\">a</ref>"), "\(input) → expected \(target)\n\(xml)")
        }
        XCTAssertEqual(try TEITestSupport.validator().validate(Data(xml.utf8), name: "x"), [])
    }

    /// The position of a schema violation is in the generated XML: the command line no longer
    /// prints it as a line of the input (`p.md:26:1:` for a one-line file).
    func testSchemaViolationHasNoInputPosition() {
        let e = NotepressError.schemaViolation(file: "p.md", position: SourcePosition(line: 26, column: 1), message: "m")
        XCTAssertNil(e.position)
        XCTAssertEqual(e.message, "TEI output does not validate (line 26, column 1 of the XML): m")
    }

    func testBlocks() throws {
        let md = """
        > quoted
        >
        > ## inner

        3. a
        4. b

        - [x] done
        - [ ] todo

        ```swift extra
        let x = 1 < 2
        ```

        ---

        | l | c | r | n |
        |:--|:-:|--:|---|
        | *1* | 2 | 3 | 4 |

        <div>raw <script>alert(1)</script></div>

        inline <b>html</b> here
        """
        let xml = try TEITestSupport.tei(md)
        let compact = xml.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined()
        XCTAssertTrue(compact.contains("<quote><p>quoted</p><p rend=\"heading-2\" xml:id=\"inner\">inner</p></quote>"), compact)
        XCTAssertTrue(compact.contains("<list rend=\"numbered\"><item n=\"3\"><p>a</p></item><item n=\"4\"><p>b</p></item></list>"), compact)
        XCTAssertTrue(compact.contains("<list rend=\"bulleted\"><item ana=\"#task-checked\"><p>done</p></item><item ana=\"#task-unchecked\"><p>todo</p></item></list>"), compact)
        XCTAssertTrue(xml.contains("<ab type=\"codeblock\"><code lang=\"swift\">let x = 1 &lt; 2</code></ab>"), xml)
        XCTAssertTrue(xml.contains("<milestone unit=\"section\"/>"))
        XCTAssertTrue(compact.contains("<table><row role=\"label\"><cell rend=\"left\">l</cell><cell rend=\"center\">c</cell><cell rend=\"right\">r</cell><cell>n</cell></row><row><cell rend=\"left\"><hi rend=\"italic\">1</hi></cell>"), compact)
        // Raw HTML is read into the AST (issue 53): a block's text is kept, a script gives nothing,
        // <b> is bold.
        XCTAssertFalse(xml.contains("script"))
        XCTAssertFalse(xml.contains("alert"))
        XCTAssertTrue(xml.contains("<p>raw</p>"), xml)
        XCTAssertTrue(xml.contains("<p>inline <hi rend=\"bold\">html</hi> here</p>"), xml)
        XCTAssertEqual(try TEITestSupport.validator().validate(Data(xml.utf8), name: "x"), [])
    }

    func testFootnotes() throws {
        let xml = try TEITestSupport.tei("A[^n] and again[^n] and[^m].\n\n[^n]: Note *one*.\n[^m]: Two[^m] refers to itself.\n")
        XCTAssertTrue(xml.contains("A<note place=\"foot\" n=\"1\" xml:id=\"fn-1\"><p>Note <hi rend=\"italic\">one</hi>.</p></note> and again<ref type=\"noteref\" target=\"#fn-1\">1</ref>"), xml)
        XCTAssertTrue(xml.contains("<note place=\"foot\" n=\"2\" xml:id=\"fn-2\"><p>Two<ref type=\"noteref\" target=\"#fn-2\">2</ref> refers to itself.</p></note>"), xml)
        XCTAssertEqual(xml.components(separatedBy: "<note ").count - 1, 2)
        XCTAssertEqual(try TEITestSupport.validator().validate(Data(xml.utf8), name: "x"), [])
    }

    func testNoteFeaturesFromHandMadeDocument() throws {
        var b = InlinesBuilder()
        b.append(.text("plain "))
        b.append(.text("cursive"), in: .script)
        b.append(.text(" "))
        b.append(.text("WARNING"), in: .colorRole(.alert))
        b.push(.strong)
        b.append(.text("both"), in: .emphasis)
        b.append(.text("bold only"))
        b.pop()
        b.append(.text("again"), in: .strong)  // a second strong span right after the first
        b.append(.hardBreak)
        b.append(.text("bad\u{0}\u{1}\u{FFFE}chars\r"))
        let runs = b.take()
        let list = ListBlock(type: .ordered, start: 1, tight: true, items: [
            ListItem(number: 7, blocks: [Block(.paragraph([InlineRun(.text("seven"))]))]),
            ListItem(number: 2, blocks: [Block(.paragraph([InlineRun(.text("two"))]))]),
            ListItem(blocks: [Block(.paragraph([InlineRun(.text("three"))]))]),
        ])
        let doc = Document(metadata: DocumentMetadata(title: nil, sourcePath: nil, sourceFormat: .note),
                           blocks: [Block(.paragraph(runs)), Block(.list(list)),
                                    Block(.unknown(typeName: "x-widget", blocks: [Block(.paragraph([InlineRun(.text("inside"))]))]), position: SourcePosition(line: 4, column: 1))])
        var diags: [Diagnostic] = []
        var options = ConversionOptions()
        options.validate = true
        let xml = String(decoding: try TEIWriter().write(doc, options: options, diagnostics: &diags), as: UTF8.self)
        XCTAssertTrue(xml.contains("<p>plain <hi rend=\"script\">cursive</hi> <hi rend=\"alert\">WARNING</hi><hi rend=\"bold\"><hi rend=\"italic\">both</hi>bold only</hi><hi rend=\"bold\">again</hi><lb/>badchars&#xD;</p>"), xml)
        XCTAssertTrue(xml.contains("<item n=\"7\">"))
        XCTAssertTrue(xml.contains("<item n=\"2\">"))
        XCTAssertTrue(xml.contains("<item n=\"3\">"))
        XCTAssertTrue(xml.contains("<title>Untitled</title>"))
        XCTAssertTrue(xml.contains("<idno type=\"format\">note</idno>"))
        XCTAssertFalse(xml.contains("idno type=\"path\""))
        XCTAssertTrue(xml.contains("<p>inside</p>"))
        XCTAssertEqual(diags.count, 1)
        XCTAssertEqual(diags.first?.severity, .warning)
        XCTAssertEqual(diags.first?.position, SourcePosition(line: 4, column: 1))
        XCTAssertTrue(diags.first?.message.contains("x-widget") == true)
    }

    func testEmptyDocumentIsValid() throws {
        let xml = try TEITestSupport.tei("", title: nil)
        XCTAssertTrue(xml.contains("<body>\n      <p/>\n    </body>"), xml)
        XCTAssertEqual(try TEITestSupport.validator().validate(Data(xml.utf8), name: "x"), [])
    }

    /// The same bytes from two runs of the binary: two processes, each with its own hash seed,
    /// so no dictionary or set order can leak into the output; and the header and first section
    /// as written.
    func testSameBytesAcrossProcesses() throws {
        let md = TestPaths.corpus.appendingPathComponent("markdown/ripgrep__GUIDE.md")
        let env = ["SOURCE_DATE_EPOCH": "1700000000"]
        let a = try NotepressBinary.run(["convert", "-t", "tei", md.path], environment: env)
        let b = try NotepressBinary.run(["convert", "-t", "tei", md.path], environment: env)
        XCTAssertEqual(a.status, 0, a.stderr)
        XCTAssertEqual(a.stdout, b.stdout)
        XCTAssertTrue(a.stdoutText.contains("<title>ripgrep__GUIDE</title>"))
        XCTAssertTrue(a.stdoutText.contains("<creation>\n        <date when=\"2023-11-14T22:13:20Z\">14 November 2023</date>\n      </creation>"), a.stdoutText)
        // Regression (issue 16): a single input named by its absolute path was written absolute;
        // outputs hold no absolute paths (README), so it is the file's name.
        XCTAssertTrue(a.stdoutText.contains("<idno type=\"path\">ripgrep__GUIDE.md</idno>"), a.stdoutText)
        XCTAssertFalse(a.stdoutText.contains(TestPaths.corpus.path))
        XCTAssertTrue(a.stdoutText.contains("<div xml:id=\"user-guide\">\n        <head>User Guide</head>\n        "
            + "<p>This guide is intended to give an elementary description of ripgrep and an\n"), a.stdoutText)
    }

    /// Golden/tei/<case>.md → <case>.xml, full output (title = case name, path = <case>.md).
    func testGoldenFiles() throws {
        let dir = TestPaths.golden.appendingPathComponent("tei")
        let cases = TestPaths.files(under: dir, extensions: ["md"])
        XCTAssertGreaterThanOrEqual(cases.count, 3)
        for md in cases {
            let name = md.deletingPathExtension().lastPathComponent
            var doc = MarkdownReader(format: .gfm).parse(try String(contentsOf: md, encoding: .utf8), path: name + ".md").document
            doc.metadata.title = name
            doc.metadata.created = Date(timeIntervalSince1970: 1_600_000_000)
            var diags: [Diagnostic] = []
            let out = String(decoding: try TEIWriter().write(doc, options: ConversionOptions(), diagnostics: &diags), as: UTF8.self)
            let expectedURL = md.deletingPathExtension().appendingPathExtension("xml")
            if ProcessInfo.processInfo.environment["NOTEPRESS_UPDATE_GOLDEN"] == "1" {
                try out.write(to: expectedURL, atomically: true, encoding: .utf8)
            }
            let expected = try String(contentsOf: expectedURL, encoding: .utf8)
            XCTAssertEqual(out, expected, name)
        }
    }
}

final class TEIValidationTests: XCTestCase {
    func testEmbeddedSchemaIsTheTemplate() throws {
        XCTAssertEqual(TemplateStore.embedded("tei/notepress-tei.rng"), try Data(contentsOf: TEITestSupport.schemaURL))
    }

    func testCorpusAndSamplesValidateWithLibxml2AndJing() throws {
        // Markdown (.md) as GFM; every other file except manifests as note markup, plain and
        // with --keep-markers.
        var inputs: [(URL, Bool?)] = []
        for url in TestPaths.files(under: TestPaths.corpus.appendingPathComponent("markdown"))
            + TestPaths.files(under: TestPaths.samples) + TestPaths.files(under: TestPaths.corpus.appendingPathComponent("notes"))
        where url.pathExtension != "tsv" {
            if url.pathExtension == "md" { inputs.append((url, nil)) } else { inputs += [(url, false), (url, true)] }
        }
        XCTAssertGreaterThanOrEqual(inputs.count, 18)
        let dir = try TEITestSupport.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        var outputs: [URL] = []
        for (i, (url, keepMarkers)) in inputs.enumerated() {
            let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
            var doc: Document
            if let keepMarkers {
                doc = Document(metadata: DocumentMetadata(sourcePath: url.lastPathComponent, sourceFormat: .note),
                               blocks: NoteReader(keepMarkers: keepMarkers).parse(text))
            } else {
                doc = MarkdownReader(format: .gfm).parse(text, path: url.lastPathComponent).document
            }
            doc.metadata.title = url.lastPathComponent
            var diags: [Diagnostic] = []
            do {
                // The writer validates with libxml2 and throws on failure.
                let bytes = try TEIWriter().write(doc, options: ConversionOptions(), diagnostics: &diags)
                let out = dir.appendingPathComponent("\(i).xml")
                try Data(bytes).write(to: out)
                outputs.append(out)
            } catch {
                XCTFail("\(url.lastPathComponent): \(error)")
            }
        }
        guard let (status, errors) = TEITestSupport.jing(outputs) else { return }
        XCTAssertEqual(status, 0, errors.prefix(5).joined(separator: "\n"))
        XCTAssertEqual(errors, [])
    }

    func testSpecExamplesValidate() throws {
        let dir = try TEITestSupport.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let validator = try TEITestSupport.validator()
        var outputs: [URL] = []
        var failures: [String] = []
        for (file, format) in [("spec.txt", SourceFormat.commonmark), ("extensions.txt", .gfm)] {
            let text = try String(contentsOf: TestPaths.corpus.appendingPathComponent("cmark-gfm-tests/" + file), encoding: .utf8)
            let examples = parseSpecExamples(text)
            XCTAssertGreaterThan(examples.count, file == "spec.txt" ? 600 : 20, file)
            for ex in examples {
                let exts: Set<GFMExtension>? = format == .gfm ? nil : Set(ex.extensions.compactMap(GFMExtension.init(rawValue:)))
                let xml = try TEITestSupport.tei(ex.markdown, format: format, extensions: exts, title: "\(file) \(ex.number)")
                let diags = validator.validate(Data(xml.utf8), name: "\(file)#\(ex.number)")
                if !diags.isEmpty { failures.append(diags.map(\.description).joined(separator: "; ")) }
                let url = dir.appendingPathComponent("\(file)-\(ex.number).xml")
                try Data(xml.utf8).write(to: url)
                outputs.append(url)
            }
        }
        XCTAssertEqual(failures, [])
        guard let (status, errors) = TEITestSupport.jing(outputs) else { return }
        XCTAssertEqual(status, 0)
        XCTAssertEqual(errors, [])
    }

    func testBrokenDocumentsAreRejectedWithLineNumbers() throws {
        let v = try TEITestSupport.validator()
        // Wrong element: <para> on line 12.
        let wrong = TEITestSupport.document(body: "<para>x</para>")
        let d1 = v.validate(Data(wrong.utf8), name: "wrong.xml")
        XCTAssertFalse(d1.isEmpty)
        XCTAssertEqual(d1.first?.position?.line, 12, d1.description)
        XCTAssertTrue(d1.first?.description.hasPrefix("wrong.xml:12:") == true, d1.description)
        XCTAssertTrue(d1.contains { $0.message.contains("para") }, d1.description)
        // Missing title: titleStmt empty on line 5.
        let untitled = TEITestSupport.document(title: "")
        let d2 = v.validate(Data(untitled.utf8), name: "untitled.xml")
        XCTAssertFalse(d2.isEmpty)
        XCTAssertEqual(d2.first?.position?.line, 5, d2.description)
        // Bad nesting: a div inside a p, line 12.
        let nested = TEITestSupport.document(body: "<p>a <div xml:id=\"x\"><head>h</head></div></p>")
        let d3 = v.validate(Data(nested.utf8), name: "nested.xml")
        XCTAssertFalse(d3.isEmpty)
        XCTAssertEqual(d3.first?.position?.line, 12, d3.description)
        // An attribute we never write.
        let attr = TEITestSupport.document(body: "<p rend=\"fancy\">x</p>")
        XCTAssertFalse(v.validate(Data(attr.utf8), name: "attr.xml").isEmpty)
        // Not well-formed: libxml2's parser message with line and column.
        let broken = "<?xml version=\"1.0\"?>\n<TEI xmlns=\"http://www.tei-c.org/ns/1.0\">\n  <teiHeader>\n</TEI>\n"
        let d4 = v.validate(Data(broken.utf8), name: "broken.xml")
        XCTAssertEqual(d4.first?.position?.line, 4, d4.description)
        XCTAssertGreaterThan(d4.first?.position?.column ?? 0, 1, d4.description)
        XCTAssertTrue(d4.first?.message.contains("mismatch") == true, d4.description)
        // Empty input is an error, not a crash.
        XCTAssertFalse(v.validate(Data(), name: "empty.xml").isEmpty)
        // The good one passes.
        XCTAssertEqual(v.validate(Data(TEITestSupport.document().utf8), name: "good.xml"), [])

        // jing agrees on all of them.
        let dir = try TEITestSupport.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        var urls: [URL] = []
        for (i, text) in [wrong, untitled, nested, attr, broken, TEITestSupport.document()].enumerated() {
            let u = dir.appendingPathComponent("\(i).xml")
            try Data(text.utf8).write(to: u)
            urls.append(u)
        }
        for (i, u) in urls.enumerated() {
            guard let (status, errors) = TEITestSupport.jing([u]) else { return }
            if i == urls.count - 1 {
                XCTAssertEqual(status, 0, errors.joined(separator: "\n"))
            } else {
                XCTAssertNotEqual(status, 0, "jing accepted broken document \(i)")
                XCTAssertFalse(errors.isEmpty)
            }
        }
        // Same line numbers from jing for the wrong element and bad nesting.
        XCTAssertTrue(TEITestSupport.jing([urls[0]])?.1.first?.contains(":12:") == true)
        XCTAssertTrue(TEITestSupport.jing([urls[2]])?.1.first?.contains(":12:") == true)
    }

    func testExternalEntitiesAreRefusedUnread() throws {
        let dir = try TEITestSupport.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let secretURL = dir.appendingPathComponent("secret.txt")
        let secret = "TOP-SECRET-\(UUID().uuidString)"
        try Data(secret.utf8).write(to: secretURL)
        let doc = TEITestSupport.document(title: "<title>&x;</title>")
            .replacingOccurrences(of: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
                                  with: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE TEI [\n<!ENTITY x SYSTEM \"file://\(secretURL.path)\">\n]>\n")
        let v = try TEITestSupport.validator()
        let diags = v.validate(Data(doc.utf8), name: "xxe.xml")
        XCTAssertFalse(diags.isEmpty)
        XCTAssertEqual(diags.first?.position?.line, 2)
        XCTAssertTrue(diags.first?.message.contains("not allowed") == true, diags.description)
        XCTAssertFalse(diags.description.contains(secret))
        // An external DTD is refused as well, and never fetched.
        let dtd = TEITestSupport.document().replacingOccurrences(of: "?>\n", with: "?>\n<!DOCTYPE TEI SYSTEM \"http://127.0.0.1:9/tei.dtd\">\n")
        let d2 = v.validate(Data(dtd.utf8), name: "dtd.xml")
        XCTAssertTrue(d2.first?.message.contains("DTD") == true, d2.description)
        // A FIFO as the entity: libxml2 would block forever opening it if it tried.
        let fifo = dir.appendingPathComponent("fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let fifoDoc = doc.replacingOccurrences(of: secretURL.path, with: fifo)
        XCTAssertFalse(v.validate(Data(fifoDoc.utf8), name: "fifo.xml").isEmpty)
    }

    func testWriterReportsValidationFailureWithPosition() throws {
        // A data folder whose schema wants a different root: every output fails on line 2.
        let dir = try TEITestSupport.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("tei"), withIntermediateDirectories: true)
        let schema = """
        <grammar xmlns="http://relaxng.org/ns/structure/1.0" ns="http://www.tei-c.org/ns/1.0">
          <start><element name="teiCorpus"><empty/></element></start>
        </grammar>
        """
        try Data(schema.utf8).write(to: dir.appendingPathComponent("tei/notepress-tei.rng"))
        var options = ConversionOptions(templates: TemplateStore(dataDirectory: dir))
        let doc = MarkdownReader(format: .gfm).parse("hi", path: "in.md").document
        var diags: [Diagnostic] = []
        XCTAssertThrowsError(try TEIWriter().write(doc, options: options, diagnostics: &diags)) { error in
            guard let e = error as? NotepressError else { return XCTFail("\(error)") }
            // The line is the XML's, in the message; not a position in in.md.
            XCTAssertNil(e.position)
            XCTAssertEqual(e.file, "in.md")
            XCTAssertTrue(e.message.hasPrefix("TEI output does not validate (line 2, column "), e.message)
        }
        options.validate = false
        XCTAssertNoThrow(try TEIWriter().write(doc, options: options, diagnostics: &diags))
        XCTAssertEqual(WriterRegistry.writer(named: "tei")?.fileExtension, "xml")
    }

    func testInvalidSchemaThrows() {
        XCTAssertThrowsError(try TEIValidator(schemaData: Data("<grammar xmlns=\"http://relaxng.org/ns/structure/1.0\"><start><bogus/></start></grammar>".utf8), schemaOrigin: "bad.rng"))
    }

    func testConcurrentValidation() throws {
        let v = try TEITestSupport.validator()
        let good = Data(TEITestSupport.document().utf8)
        let bad = Data(TEITestSupport.document(body: "<para>x</para>").utf8)
        let results = UnsafeMutableBufferPointer<Int>.allocate(capacity: 32)
        defer { results.deallocate() }
        let base = results.baseAddress!
        let address = Int(bitPattern: base)
        DispatchQueue.concurrentPerform(iterations: 32) { i in
            let p = UnsafeMutablePointer<Int>(bitPattern: address)!
            p[i] = v.validate(i % 2 == 0 ? good : bad, name: "t").count
        }
        for i in 0..<32 {
            if i % 2 == 0 { XCTAssertEqual(results[i], 0) } else { XCTAssertGreaterThan(results[i], 0) }
        }
    }
}
