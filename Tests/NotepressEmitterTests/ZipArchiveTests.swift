import Foundation
import NotepressContainer
import NotepressTestSupport
import XCTest

/// The zip container of DOCX, ODT and EPUB (NotepressContainer): read back by Python's zipfile,
/// the reader every other tool's behaviour matches.
final class ZipArchiveTests: XCTestCase {
    private let inspect = """
    import sys, zipfile
    z = zipfile.ZipFile(sys.argv[1])
    for i in z.infolist():
        print(i.filename, i.compress_type, i.date_time, len(i.extra), i.header_offset, z.read(i.filename).decode())
    print(z.testzip())
    """

    private func archive(at epoch: Double) throws -> [UInt8] {
        var zip = ZipArchive(modified: Date(timeIntervalSince1970: epoch))
        zip.add("mimetype", text: "application/epub+zip", stored: true)
        zip.add("META-INF/container.xml", text: String(repeating: "<a>é</a>", count: 50))
        zip.add("b.txt", text: "second")
        return try zip.bytes()
    }

    /// Entries in the order added, the first stored at offset 0, the rest deflated, every entry
    /// dated SOURCE_DATE_EPOCH's UTC fields whatever TZ says, no extra fields (epubcheck refuses
    /// one on `mimetype`), and the same bytes on every run.
    func testEntriesInOrderStoredFirstDatedInUTCWithoutExtraFields() throws {
        let dir = try makeTempDir(self)
        let bytes = try archive(at: 1_700_000_000)  // 2023-11-14 22:13:20 UTC
        let file = dir.appendingPathComponent("a.zip")
        try Data(bytes).write(to: file)
        let script = dir.appendingPathComponent("inspect.py")
        try inspect.write(to: script, atomically: true, encoding: .utf8)
        let (status, out) = try runTool("python3", [script.path, file.path])
        XCTAssertEqual(status, 0, out)
        let lines = out.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 4, out)
        XCTAssertEqual(lines[0], "mimetype 0 (2023, 11, 14, 22, 13, 20) 0 0 application/epub+zip")
        XCTAssertTrue(lines[1].hasPrefix("META-INF/container.xml 8 (2023, 11, 14, 22, 13, 20) 0 "), lines[1])
        XCTAssertTrue(lines[1].hasSuffix(String(repeating: "<a>é</a>", count: 50)), lines[1])
        XCTAssertTrue(lines[2].hasPrefix("b.txt 8 "), lines[2])
        XCTAssertEqual(lines[3], "None")
        XCTAssertEqual(try archive(at: 1_700_000_000), bytes)
        setenv("TZ", "Asia/Kolkata", 1); tzset()
        defer { unsetenv("TZ"); tzset() }
        XCTAssertEqual(try archive(at: 1_700_000_000), bytes, "the bytes depend on TZ")
    }

    /// A name added twice is refused, not written as two entries readers disagree about.
    func testDuplicateEntryIsRefused() {
        var zip = ZipArchive()
        zip.add("a", text: "1")
        zip.add("a", text: "2")
        XCTAssertThrowsError(try zip.bytes()) { XCTAssertEqual($0 as? ContainerError, .duplicateEntry("a")) }
    }

    /// libxml2's writer escapes text and attributes and leaves out characters XML cannot hold.
    func testXMLStreamWriterEscapes() {
        let w = XMLStreamWriter(standalone: true)
        w.start("w:p", ["xmlns:w": "urn:x", "a": "<\"&'>"])
        w.text("a<b & c\u{1}d")
        w.element("w:br")
        w.end()
        XCTAssertEqual(String(decoding: w.bytes(), as: UTF8.self),
                       "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<w:p xmlns:w=\"urn:x\" a=\"&lt;&quot;&amp;'&gt;\">a&lt;b &amp; cd<w:br/></w:p>\n")
        let a = XMLStreamWriter()
        a.start("p", ["a": "x\u{1}y\u{FFFE}"])
        a.start("q", attributeList: [("b", "\u{8}\tz")])
        a.attribute("c", "\u{1F}")
        XCTAssertEqual(String(decoding: a.bytes(), as: UTF8.self),
                       "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<p a=\"xy\"><q b=\"&#9;z\" c=\"\"/></p>\n")
    }

    /// Fuzzer find (the package oracles' first run, issue 44 item 12): with `--unsafe` a link
    /// destination keeps its control characters, and libxml2's writer wrote them into attributes
    /// as they are: DOCX's `document.xml.rels` and ODT's `content.xml` were not well-formed XML
    /// (Word and LibreOffice refuse the file). Every part is well-formed now (xmllint).
    func testUnsafeLinkWithControlCharacterKeepsPartsWellFormed() throws {
        let dir = try makeTempDir(self)
        let input = try writeTestFile("[c](java\u{1}script:x) [t](a\u{8}b) [ok](https://a.org/)\n", "c.md", in: dir)
        for (format, parts) in [("docx", ["word/document.xml", "word/_rels/document.xml.rels"]), ("odt", ["content.xml"]),
                                ("epub", ["EPUB/ch001.xhtml", "EPUB/package.opf"])] {
            let out = dir.appendingPathComponent("c." + format)
            try NotepressBinary.runExpectingSuccess(["convert", input.path, "--unsafe", "-t", format, "-o", out.path])
            let entries = try ZipArchive.read([UInt8](Data(contentsOf: out)))
            for part in parts {
                guard let e = entries.first(where: { $0.name == part }) else { XCTFail("\(format): no \(part)"); continue }
                let file = dir.appendingPathComponent(format + "-" + part.replacingOccurrences(of: "/", with: "-"))
                try Data(e.bytes).write(to: file)
                let (status, output) = try runTool("xmllint", ["--noout", file.path])
                XCTAssertEqual(status, 0, "\(format) \(part): \(output)")
            }
            if format != "epub" {  // a book links to the web only (the link is its text, with a warning)
                XCTAssertTrue(entries.contains { String(decoding: $0.bytes, as: UTF8.self).contains("javascript:x") }, format)
            }
        }
    }

    /// ``ZipArchive/read(_:maxEntryBytes:)`` gives back what ``ZipArchive/bytes()`` wrote, and
    /// refuses an archive cut short, one whose deflated data was changed (CRC) and an entry larger
    /// than its limit.
    func testReadBackAndDamagedArchives() throws {
        let bytes = try archive(at: 0)
        let entries = try ZipArchive.read(bytes)
        XCTAssertEqual(entries.map(\.name), ["mimetype", "META-INF/container.xml", "b.txt"])
        XCTAssertEqual(entries.map(\.stored), [true, false, false])
        XCTAssertEqual(String(decoding: entries[1].bytes, as: UTF8.self), String(repeating: "<a>é</a>", count: 50))
        XCTAssertThrowsError(try ZipArchive.read(Array(bytes.dropLast(10))))
        XCTAssertThrowsError(try ZipArchive.read(Array("not a zip archive".utf8)))
        // A byte of container.xml's deflated data (after its local header: 30 bytes and the name).
        let headers = (0..<bytes.count - 4).filter { bytes[$0..<$0 + 4].elementsEqual([0x50, 0x4B, 0x03, 0x04]) }
        var damaged = bytes
        damaged[headers[1] + 30 + "META-INF/container.xml".utf8.count + 4] ^= 0x10
        XCTAssertThrowsError(try ZipArchive.read(damaged))
        XCTAssertThrowsError(try ZipArchive.read(bytes, maxEntryBytes: 100)) { XCTAssertTrue("\($0)".contains("more than 100"), "\($0)") }
    }
}
