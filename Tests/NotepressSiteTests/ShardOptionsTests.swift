import Foundation
import XCTest
import NotepressTestSupport

/// A fault a new user found, through the real binary: `index` merged manifest parts made with
/// different options.
final class ShardOptionsTests: XCTestCase {
    let env = ["SOURCE_DATE_EPOCH": "1700000000", "NO_COLOR": "1"]

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// Four pages: b.md and c.md are shard 1/2, a.md and d.md shard 2/2 (SHA-256 rule, worked out
    /// with Python's hashlib); their parts are part-3e7a2a4d4e11e8cc and part-a52e89c625ee8208.
    func shardedSite() throws -> (input: String, output: String, table: String) {
        let (input, out, dir) = try makeSiteFolder(self, ["a.md": "# A\n", "b.md": "# B\n", "c.md": "# C\n", "d.md": "# D\n"])
        let table = dir + "/t.jsonl"
        let s = try NotepressBinary.run(["scan", input, "-o", table, "-q"], environment: env)
        XCTAssertEqual(s.status, 0, s.stderr)
        return (input, out, table)
    }

    /// Regression: shard 1 in HTML, shard 2 with `-t rtf`, then `index` exited 0 with half the
    /// pages only in RTF and a notes list linking to missing `.html` files.
    func testIndexRefusesPartsMadeWithDifferentOptions() throws {
        let (input, out, table) = try shardedSite()
        for extra in [[], ["-t", "rtf"]] {
            let shard = extra.isEmpty ? "1/2" : "2/2"
            let r = try NotepressBinary.run(["convert", input, "-o", out, "--site-table", table, "--shard", shard, "-q"] + extra,
                                            environment: env)
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        let r = try NotepressBinary.run(["index", out, "--site-table", table, "-q"], environment: env)
        XCTAssertEqual(r.status, 1)
        let prefix = "notepress index: error: manifest parts were made with different options (options "
        XCTAssertTrue(r.stderr.hasPrefix(prefix), r.stderr)
        XCTAssertTrue(r.stderr.hasSuffix("); run every shard with the same options\n"), r.stderr)
        XCTAssertEqual(r.stderr.filter { $0 == "\n" }.count, 1, "one line: \(r.stderr)")
        XCTAssertTrue(r.stderr.contains("part-3e7a2a4d4e11e8cc: 2 pages, first b.md"), r.stderr)
        XCTAssertTrue(r.stderr.contains("part-a52e89c625ee8208: 2 pages, first a.md"), r.stderr)
        // Nothing written or merged: no notes list, no manifest, the parts still there.
        XCTAssertFalse(exists(out + "/notes-index.html"))
        XCTAssertFalse(exists(out + "/.notepress-manifest"))
        XCTAssertTrue(exists(out + "/.notepress-parts/part-3e7a2a4d4e11e8cc"))
        XCTAssertTrue(exists(out + "/.notepress-parts/part-a52e89c625ee8208"))
    }

    /// Parts that agree with each other but not with the options `index` was given (shards in RTF,
    /// index without `-t`): refused; with the shards' options, index merges them.
    func testIndexRefusesPartsMadeWithOtherOptionsThanItsOwn() throws {
        let (input, out, table) = try shardedSite()
        for k in 1...2 {
            let r = try NotepressBinary.run(["convert", input, "-o", out, "--site-table", table, "--shard", "\(k)/2", "-q", "-t", "rtf"],
                                            environment: env)
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        let wrong = try NotepressBinary.run(["index", out, "--site-table", table, "-q"], environment: env)
        XCTAssertEqual(wrong.status, 1)
        XCTAssertTrue(wrong.stderr.hasPrefix("notepress index: error: manifest parts were made with options other than index's (options "),
                      wrong.stderr)
        XCTAssertTrue(wrong.stderr.contains("part-3e7a2a4d4e11e8cc: 2 pages, first b.md; part-a52e89c625ee8208: 2 pages, first a.md, index "),
                      wrong.stderr)
        XCTAssertTrue(wrong.stderr.hasSuffix("); give index the options the shards had (-t, --layout, --theme, -M...)\n"), wrong.stderr)
        XCTAssertFalse(exists(out + "/.notepress-manifest"))
        let right = try NotepressBinary.run(["index", out, "--site-table", table, "-q", "-t", "rtf"], environment: env)
        XCTAssertEqual(right.status, 0, right.stderr)
        XCTAssertEqual(right.stderr, "")
        XCTAssertTrue(exists(out + "/.notepress-manifest"))
        XCTAssertFalse(exists(out + "/.notepress-parts"))
    }
}
