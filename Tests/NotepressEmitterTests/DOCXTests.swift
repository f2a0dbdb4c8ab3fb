import Foundation
import XCTest
import NotepressTestSupport
import NotepressThemes

/// Issue 48, item 1: `notepress convert x.md -o x.docx` writes a real Word package, read back by
/// LibreOffice (Debian `libreoffice-writer-nogui`, HTML export: the structure, not only the
/// text) and python-docx (PyPI `python-docx`). These tests fail, never skip, when the programs
/// are missing.
final class DOCXTests: XCTestCase {
    /// A page with every construct the emitter maps: styles, lists, footnotes, a table, a
    /// callout, code, math, an image, right-to-left and CJK text.
    static let page = """
    ---
    title: Structure test
    author: Jane Doe
    ---

    # Heading One

    Some *emphasis*, **strong**, ~~strike~~, `code`, and a [link](https://example.com/x) and an [inner link](#heading-two).
    Math $e^{i\\pi}+1=0$ stays TeX.

    A sentence with a footnote[^a] and another[^b].

    [^a]: First footnote text.
    [^b]: Second footnote text.

    ## Heading Two

    - outer one
    - outer two
      1. inner first
      2. inner second
    - [ ] open task
    - [x] done task

    7. seventh
    8. eighth

    | Name | Count |
    |:-----|------:|
    | apples | 3 |
    | pears | 12 |

    > [!TIP]
    > Tip body text.

    ```swift
    let greeting = "hello"
    ```

    ![A red square](red.png) ![A smaller one|100](red.png)

    שלום עולם בעברית

    中文的段落

    ### Heading Three
    #### Heading Four
    ##### Heading Five
    ###### Heading Six
    """

    /// A PNG of `width` × `height` red pixels.
    static func png(_ width: Int, _ height: Int) -> Data {
        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            var crc: UInt32 = 0xFFFF_FFFF
            for b in body {
                crc ^= UInt32(b)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            return be32(data.count) + body + be32(Int(crc ^ 0xFFFF_FFFF))
        }
        // Stored (uncompressed) zlib blocks: rows of filter byte 0 and RGB pixels.
        var raw: [UInt8] = []
        for _ in 0..<height { raw += [0] + Array(repeating: [255, 0, 0], count: width).flatMap { $0 } }
        var z: [UInt8] = [0x78, 0x01]
        var rest = raw[...]
        repeat {
            let n = min(rest.count, 65535)
            z += [rest.count <= 65535 ? 1 : 0, UInt8(n & 255), UInt8(n >> 8), UInt8(~n & 255), UInt8(~n >> 8 & 255)]
            z += rest.prefix(n)
            rest = rest.dropFirst(n)
        } while !rest.isEmpty
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        z += be32(Int(b << 16 | a))
        let header = be32(width) + be32(height) + [8, 2, 0, 0, 0]
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", z) + chunk("IEND", []))
    }

    /// Converts `page` (with red.png beside it) to DOCX through the binary; returns the folder and the package.
    func convert(_ page: String, name: String = "doc", extra: [String] = []) throws -> (URL, URL, NotepressBinary.Result) {
        let dir = try makeTempDir(self)
        try Self.png(40, 20).write(to: dir.appendingPathComponent("red.png"))
        let md = try writeTestFile(page, name + ".md", in: dir)
        let docx = dir.appendingPathComponent(name + ".docx")
        let r = try NotepressBinary.run(["convert", md.path, "-o", docx.path] + extra, environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return (dir, docx, r)
    }

    /// LibreOffice's HTML export of the DOCX shows the structure: headings h1…h6, the nested
    /// ordered list inside the bullet list (and the ordered list starting at 7), footnotes as
    /// LibreOffice's footnotes (anchors `sdfootnoteNsym`), a table with header cells, an image.
    func testLibreOfficeReadsHeadingsListsFootnotesAndTablesAsStructure() throws {
        let (dir, docx, _) = try convert(Self.page)
        try LibreOffice.soffice("html", [docx], outDir: dir)
        let html = try String(contentsOf: dir.appendingPathComponent("doc.html"), encoding: .utf8)
        for level in 1...6 { XCTAssertTrue(html.contains("<h\(level)"), "no <h\(level)> in LibreOffice's HTML") }
        XCTAssertNotNil(html.range(of: #"<ul>\s*<li>[\s\S]*outer two(?:(?!</ul>)[\s\S])*<ol>\s*<li>[\s\S]*inner first"#, options: .regularExpression),
                        "the ordered list is not nested in the bullet list: " + html)
        XCTAssertNotNil(html.range(of: #"<ol start="7""#, options: .regularExpression), "the list starting at 7 lost its start")
        XCTAssertTrue(html.contains("sdfootnote1sym") && html.contains("sdfootnote2sym"), "footnotes are not footnotes")
        XCTAssertNotNil(html.range(of: #"<th[^>]*>[\s\S]*Name"#, options: .regularExpression), "no header cell")
        XCTAssertTrue(html.contains("<img"), "the image is not embedded")
        // Task boxes are the items' bullets: a numbering of ☐ and one of ☒ (WriterFidelityTests reads them in LibreOffice's PDF).
        let numbering = try runTool("unzip", ["-p", docx.path, "word/numbering.xml"]).output
        XCTAssertTrue(numbering.contains("<w:lvlText w:val=\"☐\"/>") && numbering.contains("<w:lvlText w:val=\"☒\"/>"), numbering)
        XCTAssertTrue(html.contains("$e^{i\\pi}+1=0$"), "math is not its TeX source")
    }

    /// python-docx opens the package and finds Word's built-in styles by name, the core
    /// properties, the table's repeated header row and right alignment, the image embedded once
    /// at its pixel size and at its Obsidian width, the callout's box, the keyword colour of the
    /// highlighted code and the right-to-left paragraph's w:bidi.
    func testPythonDocxFindsHeadingStylesAndProperties() throws {
        let (_, docx, _) = try convert(Self.page)
        let script = """
        import docx, sys
        d = docx.Document(sys.argv[1])
        styles = {p.style.name: p.text for p in d.paragraphs}
        for n in ["Title", "Heading 1", "Heading 2", "Heading 3", "Heading 4", "Heading 5", "Heading 6", "Source Code"]:
            assert n in styles, (n, sorted(styles))
        assert styles["Heading 2"] == "Heading Two", styles["Heading 2"]
        assert d.core_properties.title == "Structure test"
        assert d.core_properties.author == "Jane Doe"
        assert d.core_properties.created.year == 2023, d.core_properties.created
        t = d.tables[0]
        assert t.rows[0].cells[0].text == "Name"
        assert t._tbl.tr_lst[0].trPr.xml.find("tblHeader") > 0
        assert t.rows[1].cells[1].paragraphs[0].alignment == 2, t.rows[1].cells[1].paragraphs[0].alignment
        shapes = d.inline_shapes
        assert len(shapes) == 2 and shapes[0].width == 40 * 9525 and shapes[0].height == 20 * 9525, shapes[0].width
        assert shapes[1].width == 100 * 9525 and shapes[1].height == 50 * 9525, (shapes[1].width, shapes[1].height)
        import zipfile
        names = zipfile.ZipFile(sys.argv[1]).namelist()
        assert [n for n in names if n.startswith("word/media/")] == ["word/media/image1.png"], names
        tip = [p for p in d.paragraphs if p.text == "Tip body text."][0]
        assert tip._p.pPr.find(docx.oxml.ns.qn("w:pBdr")) is not None, "the callout has no box"
        doc = zipfile.ZipFile(sys.argv[1]).read("word/document.xml").decode()
        assert '<w:color w:val="%s"/>' % sys.argv[2] in doc, "no keyword colour in the code"
        def numbering(text):
            p = [p for p in d.paragraphs if p.text == text][0]
            return (p._p.pPr.numPr.numId.val, p._p.pPr.numPr.ilvl.val)
        outer, inner = numbering("outer one"), numbering("inner first")
        assert outer[1] == 0 and inner == (outer[0], 1), (outer, inner)
        rtl = [p for p in d.paragraphs if "שלום" in p.text][0]
        assert rtl._p.pPr.find(docx.oxml.ns.qn("w:bidi")) is not None
        print("ok")
        """
        let keyword = String(CodePalette.standardLight.styles[.keyword]!.color.hex.dropFirst()).uppercased()
        let (status, out) = try runTool("python3", ["-c", script, docx.path, keyword])
        XCTAssertEqual(status, 0, out)
        XCTAssertTrue(out.contains("ok"), out)
    }

    /// Same input, same SOURCE_DATE_EPOCH: the same bytes (zip dates, ids, order).
    func testSameInputGivesTheSameBytes() throws {
        let (dir, docx, _) = try convert(Self.page)
        let first = try Data(contentsOf: docx)
        let again = dir.appendingPathComponent("again.docx")
        let r = try NotepressBinary.run(["convert", dir.appendingPathComponent("doc.md").path, "-o", again.path],
                                        environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(first, try Data(contentsOf: again))
    }

    /// A missing image and a file that is no image: a warning at each image's line:column, the
    /// description kept, and a package LibreOffice and python-docx still open.
    func testMissingOrNonImageWarnsAtLineAndColumnAndThePackageStaysValid() throws {
        let page = "# Pictures\n\nBefore ![gone away](nowhere.png) and\nthen ![not a picture](red.txt) end.\n"
        let dir = try makeTempDir(self)
        _ = try writeTestFile("just text", "red.txt", in: dir)
        let md = try writeTestFile(page, "pics.md", in: dir)
        let docx = dir.appendingPathComponent("pics.docx")
        let r = try NotepressBinary.run(["convert", md.path, "-o", docx.path, "--verbose"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("pics.md:3:8: warning: DOCX: image nowhere.png not found"), r.stderr)
        XCTAssertTrue(r.stderr.contains("pics.md:4:6: warning: DOCX: image red.txt is not a PNG, JPEG or GIF image"), r.stderr)
        let (status, out) = try runTool("python3", ["-c", "import docx,sys; print('|'.join(p.text for p in docx.Document(sys.argv[1]).paragraphs))", docx.path])
        XCTAssertEqual(status, 0, out)
        XCTAssertTrue(out.contains("gone away") && out.contains("not a picture"), out)
        try LibreOffice.soffice("html", [docx], outDir: dir)
        let html = try String(contentsOf: dir.appendingPathComponent("pics.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("gone away"), html)
    }

    /// GIF and JPEG files are embedded at the pixel size their headers give (the JPEG's start of
    /// frame after an APP0 segment, height before width), with their own media types; an SVG
    /// is no image Word surely draws: a warning, its description kept.
    func testGIFAndJPEGAreEmbeddedAtTheirHeaderSize() throws {
        let dir = try makeTempDir(self)
        try Data(Array("GIF89a".utf8) + [30, 0, 10, 0, 0, 0, 0, 0x3B]).write(to: dir.appendingPathComponent("a.gif"))
        let app0: [UInt8] = [0xFF, 0xE0, 0, 16] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        let sof0: [UInt8] = [0xFF, 0xC0, 0, 11, 8, 0, 48, 0, 64, 1, 1, 0x11, 0]
        let sos: [UInt8] = [0xFF, 0xDA, 0, 8, 1, 1, 0, 0, 0x3F, 0, 0]
        try Data([0xFF, 0xD8] + app0 + sof0 + sos + [0xFF, 0xD9]).write(to: dir.appendingPathComponent("b.jpg"))
        _ = try writeTestFile("<svg xmlns=\"http://www.w3.org/2000/svg\"/>", "c.svg", in: dir)
        let md = try writeTestFile("# Images\n\n![gif](a.gif) ![jpeg](b.jpg) ![svg drawing](c.svg)\n", "img.md", in: dir)
        let docx = dir.appendingPathComponent("img.docx")
        let r = try NotepressBinary.run(["convert", md.path, "-o", docx.path, "--verbose"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("img.md:3:30: warning: DOCX: image c.svg is not a PNG, JPEG or GIF image"), r.stderr)
        let script = """
        import docx, sys, zipfile
        d = docx.Document(sys.argv[1])
        s = d.inline_shapes
        assert [(x.width // 9525, x.height // 9525) for x in s] == [(30, 10), (64, 48)], [(x.width, x.height) for x in s]
        z = zipfile.ZipFile(sys.argv[1])
        assert [n for n in z.namelist() if "media" in n] == ["word/media/image1.gif", "word/media/image2.jpeg"], z.namelist()
        types = z.read("[Content_Types].xml").decode()
        assert 'Extension="gif" ContentType="image/gif"' in types and 'Extension="jpeg" ContentType="image/jpeg"' in types, types
        assert "svg drawing" in d.paragraphs[-1].text
        print("ok")
        """
        let (status, out) = try runTool("python3", ["-c", script, docx.path])
        XCTAssertEqual(status, 0, out)
        XCTAssertTrue(out.contains("ok"), out)
    }

    /// `--toc`: a TOC field Word updates, whose result already lists the headings, each a link
    /// to a bookmark at its heading.
    func testTableOfContentsIsATOCFieldLinkedToBookmarks() throws {
        let (_, docx, _) = try convert(Self.page, extra: ["--toc"])
        let (status, xml) = try runTool("unzip", ["-p", docx.path, "word/document.xml"])
        XCTAssertEqual(status, 0)
        XCTAssertTrue(xml.contains(#"<w:instrText xml:space="preserve"> TOC \o &quot;1-3&quot; \h \z \u </w:instrText>"#), "no TOC field")
        XCTAssertTrue(xml.contains(#"<w:hyperlink w:anchor="_Toc2" w:history="1">"#), "no link to the second heading")
        XCTAssertNotNil(xml.range(of: #"<w:bookmarkStart w:id="\d+" w:name="_Toc2"/><w:bookmarkEnd w:id="\d+"/>[\s\S]{0,200}Heading Two"#,
                                  options: .regularExpression), "no bookmark at the heading")
    }
}

/// Issue 48, "bad input": huge tables, deep nesting and thousands of footnotes give bounded
/// output, a warning where Word has a limit, and a package python-docx still opens.
final class DOCXBadInputTests: XCTestCase {
    func testWideTableDeepListsAndThousandsOfFootnotesStayBoundedAndValid() throws {
        var page = "# Bad input\n\n"
        page += "|" + (1...100).map { " h\($0) |" }.joined() + "\n|" + String(repeating: "---|", count: 100) + "\n"
        page += "|" + (1...100).map { " c\($0) |" }.joined() + "\n\n"
        for depth in 0..<30 { page += String(repeating: "  ", count: depth) + "- level \(depth)\n" }
        page += "\n" + (1...3000).map { "Note \($0)[^n\($0)]." }.joined(separator: " ") + "\n\n"
        page += (1...3000).map { "[^n\($0)]: Footnote body \($0)." }.joined(separator: "\n") + "\n"
        let dir = try makeTempDir(self)
        let md = try writeTestFile(page, "bad.md", in: dir)
        let docx = dir.appendingPathComponent("bad.docx")
        let r = try NotepressBinary.run(["convert", md.path, "-o", docx.path, "--verbose"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("bad.md:3:1: warning: DOCX: a table of 100 columns"), r.stderr)
        let size = try FileManager.default.attributesOfItem(atPath: docx.path)[.size] as? Int ?? 0
        XCTAssertLessThan(size, 200 * page.utf8.count, "output not bounded by the input")
        let script = """
        import docx, sys
        from docx.oxml.ns import qn
        d = docx.Document(sys.argv[1])
        t = d.tables[0]
        assert len(t.columns) == 63, len(t.columns)
        assert t.rows[1].cells[62].text.startswith("c63 | c64"), t.rows[1].cells[62].text
        assert t.rows[1].cells[62].text.endswith("c100"), t.rows[1].cells[62].text
        levels = [int(p._p.pPr.numPr.ilvl.val) for p in d.paragraphs if p._p.pPr is not None and p._p.pPr.numPr is not None]
        assert len(levels) == 30 and max(levels) == 8, levels
        import zipfile
        xml = zipfile.ZipFile(sys.argv[1]).read("word/footnotes.xml").decode()
        assert xml.count("<w:footnote w:id=") == 3000, xml.count("<w:footnote w:id=")  # the two separators have a w:type
        assert "Footnote body 3000." in xml
        print("ok")
        """
        let (status, out) = try runTool("python3", ["-c", script, docx.path])
        XCTAssertEqual(status, 0, out)
        XCTAssertTrue(out.contains("ok"), out)
    }
}
