import Foundation
import XCTest
import NotepressTestSupport

/// A fault a new user found, through the real binary: an asset that is a symbolic link to a
/// file outside the input folder was published.
final class AssetSymlinkTests: XCTestCase {
    let env = ["SOURCE_DATE_EPOCH": "1700000000", "NO_COLOR": "1"]

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// Regression: `in/secret.png -> /etc/passwd` and `![s](secret.png)` published /etc/passwd as
    /// `out/secret.png` (with `--copy-all` too). An asset whose real path is outside the input
    /// folder is not followed: one warning naming link and target, not a failure (issue 30); a
    /// link to a file inside the folder is still copied.
    func testAnAssetLinkedToAFileOutsideTheInputFolderIsNotCopied() throws {
        for copyAll in [false, true] {
            let (input, out, _) = try makeSiteFolder(self, ["a.md": "![s](secret.png) ![d](alias.png)\n", "img/d.png": "PNG"])
            try FileManager.default.createSymbolicLink(atPath: input + "/secret.png", withDestinationPath: "/etc/passwd")
            try FileManager.default.createSymbolicLink(atPath: input + "/alias.png", withDestinationPath: "img/d.png")
            let r = try NotepressBinary.run(["convert", input, "-o", out] + (copyAll ? ["--copy-all"] : []), environment: env)
            XCTAssertEqual(r.status, 0, "copyAll \(copyAll): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("secret.png: warning: symbolic link to /etc/passwd, outside the input folder; skipped (--follow-symlinks follows it)\n"),
                          "copyAll \(copyAll): \(r.stderr)")
            XCTAssertFalse(exists(out + "/secret.png"), "copyAll \(copyAll)")
            XCTAssertEqual(try String(contentsOfFile: out + "/alias.png", encoding: .utf8), "PNG", "copyAll \(copyAll)")
            XCTAssertTrue(exists(out + "/a.html"), "copyAll \(copyAll)")
        }
    }
}
