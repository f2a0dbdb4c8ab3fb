import Foundation
import XCTest
import NotepressTestSupport

/// Issue 30, item 4: `passwd.md -> /etc/passwd` was published as a page, and a link to `/etc`
/// converted files from all over `/etc`. A link whose real target is outside the input folder is
/// skipped with one warning (file, target), pages and assets alike, unless `--follow-symlinks`.
final class SymlinkOutOfInputFolderTests: XCTestCase {
    func files(_ dir: String) -> [String] {
        TestPaths.files(under: URL(fileURLWithPath: dir)).map { String($0.path.dropFirst(dir.count + 1)) }.sorted()
    }

    func testConvertOfAFolderWithALinkToEtcPasswdPublishesNothingFromEtc() throws {
        let (input, out, _) = try makeSiteFolder(self, ["a.md": "# A\n\n![p](pw.png) [x](x.md)\n", "sub/inside-target.md": "# T\n"])
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: input + "/x.md", withDestinationPath: "/etc/passwd")
        try fm.createSymbolicLink(atPath: input + "/pw.png", withDestinationPath: "/etc/passwd")
        try fm.createSymbolicLink(atPath: input + "/etc", withDestinationPath: "/etc")
        try fm.createSymbolicLink(atPath: input + "/inside.md", withDestinationPath: "sub/inside-target.md")
        let passwd = try String(contentsOfFile: "/etc/passwd", encoding: .utf8)
        let firstLine = String(passwd.prefix { $0 != "\n" })
        XCTAssertFalse(firstLine.isEmpty)

        let r = try NotepressBinary.run(["convert", input, "-o", out, "--copy-all"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(files(out).filter { !$0.hasPrefix(".") && !$0.hasPrefix("_notepress/") && $0 != "search.html" && $0 != "404.html" },
                       ["a.html", "index.html", "inside.html", "print.html", "sub/inside-target.html"], r.stderr)
        for f in files(out) {
            let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: out + "/" + f)), as: UTF8.self)
            XCTAssertFalse(text.contains(firstLine), "\(f) holds /etc/passwd")
        }
        for (link, target) in [("x.md", "/etc/passwd"), ("pw.png", "/etc/passwd"), ("etc", "/etc")] {
            let line = "\(input)/\(link): warning: symbolic link to \(target), outside the input folder; skipped (--follow-symlinks follows it)\n"
            XCTAssertEqual(r.stderr.components(separatedBy: line).count - 1, 1, "once: \(line)\n\(r.stderr)")
        }
        XCTAssertTrue(r.stderr.contains("failed 0"), r.stderr)

        // --follow-symlinks: followed, as before.
        let followed = out + "-follow"
        let f = try NotepressBinary.run(["convert", input, "-o", followed, "-q", "--follow-symlinks", "--exclude", "etc"])
        XCTAssertEqual(f.status, 0, f.stderr)
        XCTAssertTrue(String(decoding: try Data(contentsOf: URL(fileURLWithPath: followed + "/x.html")), as: UTF8.self).contains(firstLine))
    }

    /// Regression (item 7): a harmless folder loop made every run exit 1. It is one warning, exit 0.
    func testAFolderLoopIsOneWarningAndExitZero() throws {
        let (input, out, _) = try makeSiteFolder(self, ["a.md": "# A\n", "sub/b.md": "# B\n"])
        try FileManager.default.createSymbolicLink(atPath: input + "/sub/loop", withDestinationPath: "..")
        let r = try NotepressBinary.run(["convert", input, "-o", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        let real = URL(fileURLWithPath: input).resolvingSymlinksInPath().path
        XCTAssertEqual(r.stderr.components(separatedBy: "\n").filter { $0.contains("loop") },
                       ["\(input)/sub/loop: warning: folder loop: leads back to \(real); not followed"], r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/sub/b.html"))
    }
}
