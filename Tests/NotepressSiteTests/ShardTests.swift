import Foundation
import XCTest
import NotepressTestSupport
@testable import Notepress
@testable import NotepressSite

/// Issue 20: scan → N shards → index writes the bytes of one `notepress convert IN -o OUT`, for
/// any N, through the real binary.
final class ShardTests: XCTestCase {
    static let epoch = ["SOURCE_DATE_EPOCH": "1700000000"]

    /// Every file below `dir` (hidden ones too), relative path → bytes. The manifest's output
    /// times (the last field of its `O`, `I`, `A` and `G` lines: when each output was written) are
    /// replaced by `-`: two one-process runs differ there too. That is what "identical" means
    /// for the manifest (README, "Past one machine").
    static func tree(_ dir: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        let base = dir.standardizedFileURL.path
        let e = FileManager.default.enumerator(atPath: base)!
        while let rel = e.nextObject() as? String {
            var isDir: ObjCBool = false
            let path = base + "/" + rel
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue else { continue }
            var data = try Data(contentsOf: URL(fileURLWithPath: path))
            if rel == ".notepress-manifest" { data = Data(normalizedManifest(String(decoding: data, as: UTF8.self)).utf8) }
            out[rel] = data
        }
        return out
    }

    /// The manifest with the output times of `O`, `I`, `A` and `G` (tag page) lines (5th field) as `-`.
    static func normalizedManifest(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            var f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if let tag = f.first, ["O", "I", "A", "G"].contains(tag), f.count >= 5 { f[4] = "-" }
            return f.joined(separator: "\t")
        }.joined(separator: "\n")
    }

    /// `Benchmarks/make-site` (the generator the Spark test and the benchmarks use).
    static func makeSite(_ dir: URL, count: Int) throws {
        let out = try runTool("python3", [TestPaths.root.appendingPathComponent("Benchmarks/make-site").path, dir.path,
                                          "--count", String(count)])
        XCTAssertEqual(out.status, 0, out.output)
    }

    @discardableResult
    func run(_ args: [String], stdin: Data? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> NotepressBinary.Result {
        try NotepressBinary.runExpectingSuccess(args, stdin: stdin, environment: Self.epoch, file: file, line: line)
    }

    /// Compares scan → `--shard K/N` for every K → index with one process, for each N.
    func checkShards(_ input: URL, formats: String, counts: [Int], options: [String] = [],
                     file: StaticString = #filePath, line: UInt = #line) throws {
        let tmp = try makeTempDir(self)
        let one = tmp.appendingPathComponent("one")
        try run(["convert", input.path, "-o", one.path, "-t", formats, "-q"] + options)
        let expected = try Self.tree(one)
        XCTAssertNotNil(expected[".notepress-manifest"], file: file, line: line)
        XCTAssertNotNil(expected[".notepress-site.jsonl"], file: file, line: line)
        let table = tmp.appendingPathComponent("table.jsonl")
        try run(["scan", input.path, "-o", table.path, "-q"] + options)
        // The table scan writes is the one the one-process run keeps.
        XCTAssertEqual(try Data(contentsOf: table), expected[".notepress-site.jsonl"], "scan's table", file: file, line: line)
        for n in counts {
            let out = tmp.appendingPathComponent("shards-\(n)")
            for k in 1...n {
                try run(["convert", input.path, "-o", out.path, "-t", formats, "--site-table", table.path, "--shard", "\(k)/\(n)", "-q"] + options)
            }
            try run(["index", out.path, "--site-table", table.path, "-t", formats, "-q"] + options)
            let got = try Self.tree(out)
            XCTAssertEqual(got.keys.sorted(), expected.keys.sorted(), "N=\(n): the same files", file: file, line: line)
            for (k, v) in expected where got[k] != v {
                XCTFail("N=\(n): \(k) differs from the one-process run", file: file, line: line)
            }
        }
    }

    func testShardsOfAGeneratedSiteAreByteIdenticalToOneProcess() throws {
        let tmp = try makeTempDir(self)
        let site = tmp.appendingPathComponent("site")
        try Self.makeSite(site, count: 300)
        try checkShards(site, formats: "html,json", counts: [1, 2, 3, 8])
    }

    func testShardsOfTheFoamVaultAreByteIdenticalToOneProcess() throws {
        try checkShards(TestPaths.corpus.appendingPathComponent("vault-foam"), formats: "html,man", counts: [1, 2, 3, 8])
    }

    /// Backlinks, hashtags and tag pages come from the table too: shards and index reproduce them.
    func testShardsWithBacklinksAndTagPagesAreByteIdenticalToOneProcess() throws {
        try checkShards(TestPaths.corpus.appendingPathComponent("vault-foam"), formats: "html", counts: [3],
                        options: ["--backlinks", "--hashtags"])
    }

    /// A shard writes its outputs and one manifest part; the notes list, the manifest and the kept
    /// table are `index`'s, which removes the parts.
    func testAShardWritesAManifestPartAndNoSiteWidePage() throws {
        let tmp = try makeTempDir(self)
        let vault = TestPaths.corpus.appendingPathComponent("vault-foam").path
        let table = tmp.appendingPathComponent("t.jsonl").path
        let out = tmp.appendingPathComponent("out")
        try run(["scan", vault, "-o", table, "-q"])
        try run(["convert", vault, "-o", out.path, "--site-table", table, "--shard", "1/2", "-q"])
        let fm = FileManager.default
        for name in ["notes-index.html", ".notepress-manifest", ".notepress-site.jsonl"] {
            XCTAssertFalse(fm.fileExists(atPath: out.appendingPathComponent(name).path), name)
        }
        let parts = try fm.contentsOfDirectory(atPath: out.appendingPathComponent(".notepress-parts").path)
        XCTAssertEqual(parts.count, 1)
        XCTAssertTrue(parts[0].hasPrefix("part-") && parts[0].count == 21, parts[0])
        // Running the same shard again (an engine's retry) writes the same part, not a second.
        try run(["convert", vault, "-o", out.path, "--site-table", table, "--shard", "1/2", "-q"])
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: out.appendingPathComponent(".notepress-parts").path), parts)
        try run(["convert", vault, "-o", out.path, "--site-table", table, "--shard", "2/2", "-q"])
        let r = try run(["index", out.path, "--site-table", table])
        XCTAssertTrue(r.stderr.contains("indexed 86 pages from 2 manifest parts"), r.stderr)
        XCTAssertTrue(r.stderr.contains("broken links: 23"), r.stderr)  // 18, and the five ids the raw HTML table links to (issue 53)
        XCTAssertTrue(r.stderr.contains("user/index.md:69:5: warning: wiki link '[[publishing]]': no note or file named 'publishing'"), r.stderr)
        XCTAssertFalse(fm.fileExists(atPath: out.appendingPathComponent(".notepress-parts").path))
        XCTAssertTrue(fm.fileExists(atPath: out.appendingPathComponent("notes-index.html").path))
    }

    /// Tables of disjoint input sets merge by concatenation and `LC_ALL=C sort`; `--files-from`
    /// takes newline- or NUL-separated lists relative to `--root`.
    func testTablesOfListsMergeByConcatenationAndSort() throws {
        let tmp = try makeTempDir(self)
        let vault = TestPaths.corpus.appendingPathComponent("vault-foam").path
        let whole = try run(["scan", vault, "-q"]).stdout
        let list = try run(["scan", vault, "--list", "-0"]).stdout
        let names = list.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        XCTAssertEqual(names.count, 100)  // 86 pages, 14 other files
        XCTAssertTrue(names.contains("assets/images/foam-features-dark-mode-demo.png") || names.contains { $0.hasPrefix("assets/") }, "\(names)")
        let half = names.count / 2
        let a = try run(["scan", "--files-from", "-", "--root", vault, "-o", "-", "-q"],
                        stdin: Data(names[..<half].joined(separator: "\n").utf8)).stdout
        let b = try run(["scan", "--files-from", "-", "-0", "--root", vault, "-q"],
                        stdin: Data((names[half...].joined(separator: "\0") + "\0").utf8)).stdout
        let joined = tmp.appendingPathComponent("joined.jsonl")
        try (b + a).write(to: joined)
        let sorted = try runTool("sh", ["-c", "LC_ALL=C sort \(joined.path)"])
        XCTAssertEqual(sorted.status, 0)
        XCTAssertEqual(Data(sorted.output.utf8), whole)
        XCTAssertEqual(whole.split(separator: 0x0A).count, 100)
    }

    /// `--shard K/N`: SHA-256 of the relative path, first 8 bytes big-endian, mod N (values
    /// from Python's hashlib, not from the code under test).
    func testShardOfAPathIsSHA256ModN() {
        XCTAssertEqual([2, 3, 8].map { SiteShard.of("a/b.md", count: $0) }, [1, 1, 3])
        XCTAssertEqual([2, 3, 8].map { SiteShard.of("index.md", count: $0) }, [2, 1, 8])
        XCTAssertEqual([2, 3, 8].map { SiteShard.of("f00/note-00000.md", count: $0) }, [2, 2, 2])
        XCTAssertEqual([2, 3, 8].map { SiteShard.of("ünï/çødé.md", count: $0) }, [1, 1, 5])
        XCTAssertNil(SiteShard("0/2"))
        XCTAssertNil(SiteShard("3/2"))
        XCTAssertEqual(SiteShard("2/3"), SiteShard(index: 2, count: 3))
    }

    /// An input changed after the scan fails in its shard (the table is out of date) instead of
    /// being rendered against facts that are no longer true; index then reports it.
    func testAnInputChangedAfterTheScanFailsItsShard() throws {
        let tmp = try makeTempDir(self)
        let site = tmp.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        try "# A\n\nSee [b](b.md#old).\n".write(to: site.appendingPathComponent("a.md"), atomically: true, encoding: .utf8)
        try "# B\n\n## Old\n".write(to: site.appendingPathComponent("b.md"), atomically: true, encoding: .utf8)
        let table = tmp.appendingPathComponent("t.jsonl").path
        let out = tmp.appendingPathComponent("out").path
        try run(["scan", site.path, "-o", table])
        try "# B\n\n## New\n".write(to: site.appendingPathComponent("b.md"), atomically: true, encoding: .utf8)
        let r = try NotepressBinary.run(["convert", site.path, "-o", out, "--site-table", table], environment: Self.epoch)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("b.md: error: the site table's record differs from this input; run notepress scan again"), r.stderr)
        let i = try NotepressBinary.run(["index", out, "--site-table", table], environment: Self.epoch)
        XCTAssertEqual(i.status, 1)
        XCTAssertTrue(i.stderr.contains("1 page of the table has no output (failed, or in no shard): b.md"), i.stderr)
    }

    /// A list naming a path outside `--root` is refused for that path; the others convert.
    func testAListedPathOutsideTheRootIsRefused() throws {
        let tmp = try makeTempDir(self)
        let site = tmp.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        try "# A\n".write(to: site.appendingPathComponent("a.md"), atomically: true, encoding: .utf8)
        let out = tmp.appendingPathComponent("out").path
        let r = try NotepressBinary.run(["convert", "--files-from", "-", "--root", site.path, "-o", out],
                                        stdin: Data("a.md\n../secret.md\n".utf8), environment: Self.epoch)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("../secret.md: error: not below the root folder"), r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/a.html"))
    }

    /// index removes the temporary files a killed shard left (in `OUT/.notepress-tmp`, and
    /// anything but a part in the parts' folder), and nothing else: a file beside an output
    /// named like an older version's temporary is not Notepress's to remove (issue 44).
    func testIndexRemovesTemporariesOfKilledRuns() throws {
        let tmp = try makeTempDir(self)
        let vault = TestPaths.corpus.appendingPathComponent("vault-foam").path
        let table = tmp.appendingPathComponent("t.jsonl").path
        let out = tmp.appendingPathComponent("out")
        try run(["scan", vault, "-o", table, "-q"])
        try run(["convert", vault, "-o", out.path, "--site-table", table, "--shard", "1/1", "-q"])
        let stray = out.appendingPathComponent(".notepress-tmp/tmp-Ab12Cd")
        let lookalike = out.appendingPathComponent("user/.index.html.tmp-Ab12Cd")
        let other = out.appendingPathComponent("user/.mine.tmp-Ab12Cd")
        let part = out.appendingPathComponent(".notepress-parts/.part-0123456789abcdef.tmp-Zz99Yy")
        try FileManager.default.createDirectory(at: stray.deletingLastPathComponent(), withIntermediateDirectories: true)
        for f in [stray, lookalike, other, part] { try Data("partial".utf8).write(to: f) }
        let r = try run(["index", out.path, "--site-table", table])
        XCTAssertTrue(r.stderr.contains("removed 1 temporary file of killed runs"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stray.deletingLastPathComponent().path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: part.path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: lookalike.path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: other.path))
    }

    /// `--layout mirror`, two formats and `--copy-all` (each shard copies the other files of its
    /// share), then a second round of the same shards over the finished site: every page is
    /// skipped (the merged manifest), and the site is still the one-process site.
    func testMirrorLayoutCopyAllAndASecondRoundOfShards() throws {
        let tmp = try makeTempDir(self)
        let vault = TestPaths.corpus.appendingPathComponent("vault-foam").path
        let options = ["-t", "html,rtf", "--layout", "mirror", "--copy-all", "-q"]
        let one = tmp.appendingPathComponent("one")
        try run(["convert", vault, "-o", one.path] + options)
        let expected = try Self.tree(one)
        // --copy-all: the other files in both trees (14 in vault-foam; its MANIFEST.tsv among them).
        XCTAssertNotNil(expected["html/MANIFEST.tsv"])
        XCTAssertNotNil(expected["rtf/MANIFEST.tsv"])
        let table = tmp.appendingPathComponent("t.jsonl").path
        let out = tmp.appendingPathComponent("out")
        try run(["scan", vault, "-o", table] + options)
        for round in 1...2 {
            var skipped = 0
            for k in 1...3 {
                let r = try run(["convert", vault, "-o", out.path, "--site-table", table, "--shard", "\(k)/3"] + options.dropLast())
                if let m = r.stderr.range(of: #"converted 0, skipped (\d+) \(unchanged\)"#, options: .regularExpression) {
                    skipped += Int(r.stderr[m].split(separator: " ")[3])!
                }
            }
            XCTAssertEqual(skipped, round == 1 ? 0 : 86, "round \(round)")
            try run(["index", out.path, "--site-table", table] + options)
            let got = try Self.tree(out)
            XCTAssertEqual(got.keys.sorted(), expected.keys.sorted(), "round \(round)")
            XCTAssertEqual(expected.keys.filter { got[$0] != expected[$0] }.sorted(), [], "round \(round)")
        }
    }
}
