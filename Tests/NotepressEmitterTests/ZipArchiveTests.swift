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
    }
}
