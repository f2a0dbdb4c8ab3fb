import Foundation
import NotepressHighlight
import NotepressTestSupport
import XCTest

/// Issue 50: highlighted code blocks kept between runs (``HighlightCache``), so that a run whose
/// blocks were highlighted before does not load KSyntaxHighlighting and Qt. Each test runs the
/// real binary with its own cache folder and reads the loader's list of libraries (`LD_DEBUG=files`).
final class HighlightCacheTests: XCTestCase {
    private let note = "# Note\n\n```swift\nlet x = 1\nfunc f() -> Int { return x + 2 }\n```\n\n```nosuchlanguage\nplain\n```\n"

    /// The libraries the run loaded (the dynamic loader's own report) and its page.
    private func convert(_ dir: URL, cache: URL, shim: String? = nil) throws -> (page: String, loaded: String) {
        var env = ["NOTEPRESS_CACHE_DIR": cache.path, "LD_DEBUG": "files"]
        if let shim { env["NOTEPRESS_SYNTAX_SHIM"] = shim }
        let out = dir.appendingPathComponent("out.html")
        let r = try NotepressBinary.run(["convert", dir.appendingPathComponent("a.md").path, "-o", out.path], environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        return (try String(contentsOf: out, encoding: .utf8), r.stderr)
    }

    func testSecondRunTakesTheBlocksFromTheCacheWithoutLoadingQt() throws {
        let dir = try makeTempDir(self)
        _ = try writeTestFile(note, "a.md", in: dir)
        let cache = dir.appendingPathComponent("cache")
        let first = try convert(dir, cache: cache)
        XCTAssertTrue(first.loaded.contains("libQt5Core"), "the first run highlights with the library")
        XCTAssertTrue(first.page.contains("<span class=\"tok-keyword\">func</span>"), first.page)
        let second = try convert(dir, cache: cache)
        XCTAssertFalse(second.loaded.contains("libQt5Core"), "a cached run loaded Qt")
        XCTAssertFalse(second.loaded.contains("libNotepressSyntaxShim"), "a cached run loaded the shim")
        XCTAssertEqual(second.page, first.page)
    }

    /// A new build of the shim (or an upgrade of the library: another file, size or time) makes
    /// the cache's blocks stale: the run highlights afresh and keeps the new results.
    func testANewShimFileStartsAfresh() throws {
        let dir = try makeTempDir(self)
        _ = try writeTestFile(note, "a.md", in: dir)
        let cache = dir.appendingPathComponent("cache")
        let shim = dir.appendingPathComponent("libNotepressSyntaxShim.so")
        try FileManager.default.copyItem(at: NotepressBinary.url.deletingLastPathComponent().appendingPathComponent("libNotepressSyntaxShim.so"), to: shim)
        let first = try convert(dir, cache: cache, shim: shim.path)
        XCTAssertFalse(try convert(dir, cache: cache, shim: shim.path).loaded.contains("libQt5Core"))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000_000)], ofItemAtPath: shim.path)
        let stale = try convert(dir, cache: cache, shim: shim.path)
        XCTAssertTrue(stale.loaded.contains("libQt5Core"), "a stale cache was used")
        XCTAssertEqual(stale.page, first.page)
        XCTAssertFalse(try convert(dir, cache: cache, shim: shim.path).loaded.contains("libQt5Core"), "the new stamp was not kept")
    }

    /// An entry that does not hold this block (another text under its name, or cut short) is a
    /// miss, never wrong colours.
    func testAnEntryOfAnotherTextIsAMiss() throws {
        let dir = try makeTempDir(self)
        _ = try writeTestFile(note, "a.md", in: dir)
        let cache = dir.appendingPathComponent("cache")
        let first = try convert(dir, cache: cache)
        let entries = (FileManager.default.enumerator(atPath: cache.path)?.allObjects as? [String] ?? [])
            .filter { $0.split(separator: "/").count == 4 }
        XCTAssertEqual(entries.count, 2, "\(entries)")
        for e in entries {
            let path = cache.appendingPathComponent(e).path
            let text = try String(contentsOfFile: path, encoding: .utf8)
            try text.replacingOccurrences(of: "return x + 2", with: "return x + 3").write(toFile: path, atomically: true, encoding: .utf8)
        }
        let second = try convert(dir, cache: cache)
        XCTAssertTrue(second.loaded.contains("libQt5Core"), "a tampered entry was used")
        XCTAssertEqual(second.page, first.page)
    }

    /// Audit 2 (issue 52): an unknown language taken from the cache is still unknown: `--verbose`
    /// lists it on every run, not only on the one that asked the library.
    func testAnUnknownLanguageStaysUnknownFromTheCache() throws {
        let dir = try makeTempDir(self)
        _ = try writeTestFile("```nosuchlanguage\nplain\n```\n", "a.md", in: dir)
        for run in 1...2 {
            let r = try NotepressBinary.run(["convert", "--verbose", dir.appendingPathComponent("a.md").path, "-o", dir.appendingPathComponent("o.html").path],
                                            environment: ["NOTEPRESS_CACHE_DIR": dir.appendingPathComponent("cache").path])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stderr.contains("nosuchlanguage"), "run \(run): \(r.stderr)")
        }
    }

    /// Try-out (issue 50): a run length too large to add up (a damaged entry) crashed the run
    /// (arithmetic overflow); it is a miss like any other damage.
    func testAnEntryWithAHugeRunLengthIsAMiss() throws {
        let dir = try makeTempDir(self)
        _ = try writeTestFile(note, "a.md", in: dir)
        let cache = dir.appendingPathComponent("cache")
        let first = try convert(dir, cache: cache)
        let entries = (FileManager.default.enumerator(atPath: cache.path)?.allObjects as? [String] ?? [])
            .filter { $0.split(separator: "/").count == 4 }
        for e in entries {
            let path = cache.appendingPathComponent(e).path
            var lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
            if let i = lines.lastIndex(where: { $0.hasPrefix("plain ") }) { lines[i] = "plain 9223372036854775807" }
            try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        }
        let second = try convert(dir, cache: cache)
        XCTAssertEqual(second.page, first.page)
    }

    /// `NOTEPRESS_CACHE_DIR=` (empty) turns the cache off: nothing written, the library loaded.
    func testAnEmptyCacheFolderTurnsItOff() throws {
        let dir = try makeTempDir(self)
        _ = try writeTestFile(note, "a.md", in: dir)
        let home = dir.appendingPathComponent("home")
        for _ in 0..<2 {
            let r = try NotepressBinary.run(["convert", dir.appendingPathComponent("a.md").path, "-o", dir.appendingPathComponent("o.html").path],
                                            environment: ["NOTEPRESS_CACHE_DIR": "", "HOME": home.path, "XDG_CACHE_HOME": "", "LD_DEBUG": "files"])
            XCTAssertTrue(r.stderr.contains("libQt5Core"))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.path))
    }

    /// A folder of the cache keeps at most 64 entries: the oldest half goes, files not named like
    /// an entry stay.
    func testAFullFolderLosesItsOldestEntriesOnly() throws {
        let dir = try makeTempDir(self)
        for i in 0..<64 {
            let name = String(format: "%016x", i)
            _ = try writeTestFile("x", name, in: dir)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: Double(1_000_000 + i))],
                                                  ofItemAtPath: dir.appendingPathComponent(name).path)
        }
        _ = try writeTestFile("mine", "notes.txt", in: dir)
        HighlightCache.trim(dir.path)
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        XCTAssertEqual(left.count, 33, "\(left)")
        XCTAssertTrue(left.contains("notes.txt"))
        XCTAssertFalse(left.contains(String(format: "%016x", 31)))
        XCTAssertTrue(left.contains(String(format: "%016x", 32)))
    }
}
