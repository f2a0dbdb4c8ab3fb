import Foundation
import XCTest
import NotepressTestSupport

/// A named pipe (FIFO) inside the input folder, named like a note (`b.md`) or like an asset
/// (`pipe.png`), made a folder run wait forever for a writer that never came (new-user try-out
/// of issue 45: `mkfifo notes/b.md; notepress convert notes -o out` hung). Such a file is now
/// skipped with one warning naming it, and the other notes are converted.
final class SpecialFilesInInputFolderTests: XCTestCase {
    func testAFIFOInTheInputFolderIsSkippedWithAWarningNotWaitedFor() throws {
        let (input, out, _) = try makeSiteFolder(self, ["a.md": "# A\n\nText.\n"])
        for name in ["b.md", "pipe.png"] { XCTAssertEqual(mkfifo(input + "/" + name, 0o644), 0) }
        // Through `timeout`: a hang ends the run (status 124) instead of the test suite.
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        p.arguments = ["120", NotepressBinary.url.path, "convert", input, "-o", out]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/a.html"), "the other notes are converted")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/b.html"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/pipe.png"))
        XCTAssertTrue(stderr.contains("b.md: warning: a named pipe (FIFO), not a regular file; skipped"), stderr)
        XCTAssertTrue(stderr.contains("pipe.png: warning: a named pipe (FIFO), not a regular file; skipped"), stderr)
    }
}
