import Foundation
import XCTest
import NotepressTestSupport
@testable import Notepress
@testable import NotepressSite

/// `notepress convert` as a program: stdin streaming, job counts, incremental runs, depfiles with
/// make, failures and the exit status, reproducibility.
final class CLIBatchTests: XCTestCase {
    let allFormats = "html,rtf,tei,man,ansi,json"

    func copySamples() throws -> String {
        let dir = try batchTempDir() + "/samples"
        try FileManager.default.copyItem(atPath: TestPaths.samples.path, toPath: dir)
        return dir
    }

    func tree(_ dir: String) -> [String: Data] {
        var out: [String: Data] = [:]
        for url in TestPaths.files(under: URL(fileURLWithPath: dir)) {
            out[String(url.path.dropFirst(dir.count + 1))] = try? Data(contentsOf: url)
        }
        return out
    }

    func testStdinToStdoutForEveryFormat() throws {
        let note = Data("Shopping *today*\n\n1. milk\n2. _bread_\n\nURGENT call mum\n".utf8)
        let md = Data("# Title\n\nSome *text* and a [link](https://example.org).\n\n| a | b |\n|---|---|\n| 1 | 2 |\n".utf8)
        // How each output starts, from note and from GFM input. Man: `.TH`, after tbl's preprocessor
        // line when there is a table. ANSI (colour forced on, as standard output is a pipe): the
        // first styled word in SGR.
        let starts: [String: [String: String]] = [
            "html": ["note": "<", "gfm": "<"], "rtf": ["note": "{\\rtf1", "gfm": "{\\rtf1"],
            "tei": ["note": "<?xml", "gfm": "<?xml"], "json": ["note": "{", "gfm": "{"],
            "man": ["note": ".TH ", "gfm": "'\\\" t\n.TH "],
            "ansi": ["note": "Shopping \u{1B}[0;1mtoday\u{1B}[0m\n", "gfm": "\u{1B}[0;2m# \u{1B}[0;1mTitle\u{1B}[0m\n"],
        ]
        for (format, prefixes) in starts.sorted(by: { $0.key < $1.key }) {
            for (from, input, word) in [("note", note, "milk"), ("gfm", md, "link")] {
                let prefix = prefixes[from]!
                let color = format == "ansi" ? "always" : "never"
                let r = try NotepressBinary.run(["convert", "-t", format, "-f", from, "--color", color, "-"], stdin: input)
                XCTAssertEqual(r.status, 0, "\(format) from \(from): \(r.stderr)")
                XCTAssertTrue(r.stdoutText.hasPrefix(prefix), "\(format) from \(from) starts with \(prefix): \(r.stdoutText.prefix(80))")
                XCTAssertTrue(r.stdoutText.contains(word), "\(format) from \(from) contains \(word)")
            }
        }
    }

    func testHelpDocumentsBatchOptions() throws {
        let r = try NotepressBinary.run(["convert", "--help"])
        XCTAssertEqual(r.status, 0)
        for option in ["--layout flat|mirror", "--prune", "--wikilinks", "--strict-links", "--copy-all", "--heading-ids", "--jobs", "--depfile", "--prune", "--force", "--quiet", "SOURCE_DATE_EPOCH"] {
            XCTAssertTrue(r.stdoutText.contains(option), "help mentions \(option)")
        }
    }

    func testJobCountsGiveIdenticalTreesAndRerunSkips() throws {
        let input = try copySamples()
        let tmp = try batchTempDir()
        let env = ["SOURCE_DATE_EPOCH": "1700000000"]
        let r1 = try NotepressBinary.run(["convert", input, "-o", tmp + "/j1", "-t", allFormats, "-j", "1", "--verbose"], environment: env)
        let r4 = try NotepressBinary.run(["convert", input, "-o", tmp + "/j4", "-t", allFormats, "-j", "4"], environment: env)
        XCTAssertEqual(r1.status, 0, r1.stderr)
        XCTAssertEqual(r4.status, 0, r4.stderr)
        let t1 = tree(tmp + "/j1"), t4 = tree(tmp + "/j4")
        let count = TestPaths.files(under: URL(fileURLWithPath: input)).filter { DocumentLoader.format(forPath: $0.path) != nil }.count
        XCTAssertEqual(t1.keys.filter { $0.hasPrefix("tags/") }.count, 18, "one page per tag of the samples")
        XCTAssertEqual(t1.keys.filter { !$0.hasPrefix("_notepress/") && $0 != "search.html" && $0 != "404.html" && $0 != "print.html" }.count, count * 6 + 4 + 18,
                       "six formats per file, index.html, manifest, site table, the image a page shows, tag pages (and the site files)")
        XCTAssertEqual(Set(t1.keys), Set(t4.keys))
        for (k, v) in t1 where k != Manifest.fileName { XCTAssertEqual(v, t4[k], "\(k) differs between -j 1 and -j 4") }
        // Plain progress lines (stderr is a pipe, --verbose) and the summary.
        XCTAssertTrue(r1.stderr.contains("converted \(input)/notes/lentil-soup.note"), r1.stderr)
        XCTAssertTrue(r1.stderr.contains("converted \(count), skipped 0 (unchanged), skipped 2 (unknown kind), failed 0 in "), r1.stderr)

        let again = try NotepressBinary.run(["convert", input, "-o", tmp + "/j1", "-t", allFormats, "-v"], environment: env)
        XCTAssertEqual(again.status, 0)
        XCTAssertTrue(again.stderr.contains("converted 0, skipped \(count) (unchanged)"), again.stderr)
        XCTAssertTrue(again.stderr.contains("skipped \(input)/notes/lentil-soup.note"), again.stderr)
        XCTAssertEqual(tree(tmp + "/j1").filter { $0.key != Manifest.fileName }, t1.filter { $0.key != Manifest.fileName },
                       "the index of a rerun lists every note as before")

        let quiet = try NotepressBinary.run(["convert", input, "-o", tmp + "/j1", "-t", allFormats, "-q", "--force"], environment: env)
        XCTAssertEqual(quiet.status, 0)
        XCTAssertEqual(quiet.stderr, "")
    }

    func testNoAbsolutePathsOrCurrentTimeInOutputs() throws {
        let input = try copySamples()
        let out = try batchTempDir() + "/out"
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyy-MM-dd"
        // Today before and after the run: a run across midnight may have written either.
        let started = f.string(from: Date())
        let r = try NotepressBinary.run(["convert", input, "-o", out, "-t", allFormats, "-q"], environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let ended = f.string(from: Date())
        let t = tree(out)
        XCTAssertGreaterThan(t.count, 50)
        for (path, data) in t where path != Manifest.fileName {
            let text = String(decoding: data, as: UTF8.self)
            XCTAssertFalse(text.contains(input), "\(path) contains the absolute input path")
            XCTAssertFalse(text.contains(NSTemporaryDirectory()), "\(path) contains a temporary path")
            for today in Set([started, ended]) { XCTAssertFalse(text.contains(today), "\(path) contains today's date") }
        }
    }

    func testFailuresAreListedAndExitStatusIsOne() throws {
        let dir = try batchTempDir() + "/in"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data("# fine\n".utf8).write(to: URL(fileURLWithPath: dir + "/good.md"))
        try Data([0xC3, 0x28]).write(to: URL(fileURLWithPath: dir + "/bad.md"))
        try Data([0x00]).write(to: URL(fileURLWithPath: dir + "/nul.note"))
        try FileManager.default.createSymbolicLink(atPath: dir + "/dangling.note", withDestinationPath: dir + "/none")
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/picture.png"))
        let out = try batchTempDir() + "/out"
        let r = try NotepressBinary.run(["convert", dir, "-o", out])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("converted 1, skipped 0 (unchanged), skipped 1 (unknown kind), failed 3"), r.stderr)
        let failed = r.stderr.components(separatedBy: "failed:\n").last ?? ""
        XCTAssertTrue(failed.contains("bad.md:1:1: error: invalid UTF-8"), failed)
        XCTAssertTrue(failed.contains("nul.note:1:1: error: contains a NUL byte"), failed)
        XCTAssertTrue(failed.contains("dangling.note: error: broken symbolic link"), failed)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/good.html"))
    }

    func testDepfileAndSamplesMakefileAreIncremental() throws {
        guard let make = ["/usr/bin/make", "/bin/make"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            XCTFail("make is missing: apt-get install make (listed in .ci/apt-packages-test)")
            return
        }
        let samples = try copySamples()
        func runMake(_ args: [String]) throws -> (Int32, String) {
            let r = try runTool((make as NSString).lastPathComponent, ["-C", samples, "NOTEPRESS=" + NotepressBinary.url.path] + args)
            return (r.status, r.output)
        }
        let (s1, o1) = try runMake([])
        XCTAssertEqual(s1, 0, o1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: samples + "/out/index.html"), o1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: samples + "/out/Ideas for the garden.rtf"))
        let dep = try String(contentsOfFile: samples + "/out/notepress.d", encoding: .utf8)
        XCTAssertTrue(dep.contains("out/Ideas\\ for\\ the\\ garden.html out/Ideas\\ for\\ the\\ garden.rtf out/Ideas\\ for\\ the\\ garden.7: notes/Ideas\\ for\\ the\\ garden.note\n"), dep)
        XCTAssertTrue(dep.contains("out/index.html out/tags/2023.html out/tags/allotment.html "), dep)
        // The site-wide files (tag pages, the shared stylesheet and script, the search index, the
        // search and 404 pages) depend on every input.
        XCTAssertTrue(dep.contains(" out/tags/旅行.html out/tags/日本.html out/_notepress/notepress.css out/_notepress/notepress.js "), dep)
        XCTAssertTrue(dep.contains(" out/search.html out/404.html out/print.html: notes markdown markdown/guide markdown/img notes/Ideas\\ for\\ the\\ garden.note "), dep)
        XCTAssertTrue(dep.contains(" markdown/release-notes.md\n"), dep)
        // Second run: nothing to do.
        let (q, oq) = try runMake(["-q"])
        XCTAssertEqual(q, 0, "make -q after a build: up to date. \(oq)")
        let (s2, o2) = try runMake([])
        XCTAssertEqual(s2, 0)
        XCTAssertTrue(o2.contains("Nothing to be done") || o2.contains("is up to date"), o2)
        // Touch one input (with a space in its name): make reruns, notepress converts only it.
        sleep(1)
        let p = samples + "/notes/Ideas for the garden.note"
        try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: p)
        let (q2, _) = try runMake(["-q"])
        XCTAssertEqual(q2, 1, "make -q sees the touched input")
        let (s3, o3) = try runMake([])
        XCTAssertEqual(s3, 0, o3)
        let (q3, _) = try runMake(["-q"])
        XCTAssertEqual(q3, 0)
    }
}
