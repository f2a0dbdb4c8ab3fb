import Foundation
import XCTest
import NotepressTestSupport

/// Issue 29: libcrypto linked into the binary cost ~1 ms of start-up in every process, most of a
/// one-file run (single-file conversions 1.13–1.30× slower). It is now loaded on the first hash.
/// NOTEPRESS_LIBCRYPTO pointed at a missing file tells whether a run loads it.
final class LibCryptoOnFirstHashTests: XCTestCase {
    private let missing = ["NOTEPRESS_LIBCRYPTO": "/nonexistent/libcrypto.so.3"]

    func testBinaryDoesNotLinkLibCrypto() throws {
        let r = try runTool("readelf", ["-d", NotepressBinary.url.path])
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertTrue(r.output.contains("(NEEDED)"), r.output)
        XCTAssertFalse(r.output.contains("libcrypto"), r.output)
    }

    func testSingleFileRunNeverLoadsLibCrypto() throws {
        let dir = try makeTempDir(self)
        let note = dir.appendingPathComponent("a.md")
        try Data("# Title\n\nSome *text*.\n".utf8).write(to: note)
        let out = dir.appendingPathComponent("a.html")
        let r = try NotepressBinary.run(["convert", note.path, "-o", out.path], environment: missing)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(try String(contentsOf: out, encoding: .utf8).contains("<h1"))
        let stdout = try NotepressBinary.run(["convert", "-t", "html", "--fragment", note.path], environment: missing)
        XCTAssertEqual(stdout.stdoutText, "<h1>Title</h1>\n<p>Some <em>text</em>.</p>\n")
    }

    /// A folder run needs the manifest's hashes: without the library it says which and why, exit 69,
    /// and writes no manifest that could not be trusted.
    func testFolderRunWithoutLibCryptoSaysSo() throws {
        let dir = try makeTempDir(self)
        let input = dir.appendingPathComponent("notes")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try Data("# A\n".utf8).write(to: input.appendingPathComponent("a.md"))
        let out = dir.appendingPathComponent("site")
        let r = try NotepressBinary.run(["convert", input.path, "-o", out.path], environment: missing)
        XCTAssertEqual(r.status, 69, r.stderr)
        XCTAssertTrue(r.stderr.contains("OpenSSL's libcrypto") && r.stderr.contains("/nonexistent/libcrypto.so.3"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent(".notepress-manifest").path))
        // With the library found, the same run builds the site.
        let ok = try NotepressBinary.run(["convert", input.path, "-o", out.path])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent(".notepress-manifest").path))
    }
}
