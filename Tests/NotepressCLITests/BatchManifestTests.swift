import Foundation
import XCTest
import NotepressTestSupport
@testable import Notepress
@testable import NotepressSite
@testable import NotepressCLI

/// SHA-256, the manifest, depfiles and the progress text.
final class BatchManifestTests: XCTestCase {
    // FIPS 180-4 / NIST CSRC "SHA256.pdf" example vectors.
    func testSHA256FIPSVectors() {
        XCTAssertEqual(SHA256.hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256.hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(SHA256.hex([UInt8](repeating: 0x61, count: 1_000_000)),
                       "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    func testSHA256IncrementalEqualsOneShot() {
        let data = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        for split in [0, 1, 55, 56, 63, 64, 65, 500, 1000] {
            var h = SHA256()
            h.update(data[..<split])
            h.update(data[split...])
            XCTAssertEqual(SHA256.hexString(h.finalize()), SHA256.hex(data), "split at \(split)")
        }
    }

    /// Every length around the block and padding boundaries, and many blocks at once, hash as
    /// coreutils' sha256sum does (issue 19's SHA-instruction path; libcrypto since issue 29).
    func testSHA256InstructionPathMatchesSha256sum() throws {
        let source = (0..<70_000).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 7) }
        for n in [0, 1, 55, 56, 63, 64, 65, 119, 120, 127, 128, 129, 1000, 4096, 65_537] {
            let data = Array(source[..<n])
            let (status, out) = try runTool("sha256sum", ["-"], stdin: Data(data))
            XCTAssertEqual(status, 0)
            XCTAssertEqual(SHA256.hex(data), String(out.prefix(64)), "length \(n)")
        }
    }

    func testDepfileEscapesSpacesDollarsAndHashes() throws {
        XCTAssertEqual(try Depfile.escape("notes/Ideas for the garden.note"), "notes/Ideas\\ for\\ the\\ garden.note")
        XCTAssertEqual(try Depfile.escape("a$b#c"), "a$$b\\#c")
        XCTAssertThrowsError(try Depfile.escape("a\nb"))
        let text = try Depfile.render([Depfile.Rule(targets: ["out/a b.html", "out/a b.rtf"], prerequisites: ["in/a b.md", "theme.json"])])
        XCTAssertEqual(text, "out/a\\ b.html out/a\\ b.rtf: in/a\\ b.md theme.json\n")
    }

    func testProgressBarShowsCountRateAndTimeLeft() {
        let bar = ProgressReporter.bar(done: 50, total: 200, elapsed: 10, width: 80)
        XCTAssertTrue(bar.hasPrefix("["), bar)
        XCTAssertTrue(bar.contains(" 50/200 files  5.0 files/s  0:30 left"), bar)
        XCTAssertLessThanOrEqual(bar.count, 80)
        let filled = bar.filter { $0 == "#" }.count, empty = bar.filter { $0 == "-" }.count
        XCTAssertEqual(filled * 4, filled + empty, "a quarter of the bar is filled: \(bar)")
    }

    func testProgressLinesAndQuiet() {
        let box = LinesBox()
        let lines = ProgressReporter(style: .lines, total: 2, sink: { box.append($0) })
        lines.record(.converted, path: "a.md")
        lines.record(.skipped, path: "b.md")
        lines.finish()
        XCTAssertEqual(box.text, "converted a.md\nskipped b.md\n")
        let quietBox = LinesBox()
        let quiet = ProgressReporter(style: .quiet, total: 1, sink: { quietBox.append($0) })
        quiet.record(.failed, path: "c.md")
        quiet.finish()
        XCTAssertEqual(quietBox.text, "")
        XCTAssertEqual(ProgressReporter.style(quiet: false, isTerminal: false, environment: [:]), .lines)
        XCTAssertEqual(ProgressReporter.style(quiet: false, isTerminal: true, environment: ["TERM": "xterm"]), .bar)
        XCTAssertEqual(ProgressReporter.style(quiet: true, isTerminal: true, environment: [:]), .quiet)
    }

    func testConfigurationHashChangesWithOptionsAndTheme() {
        let loader = DocumentLoader()
        let base = BuildConfiguration(options: ConversionOptions(), loader: loader, writers: ["html"], layout: .mirror, version: "1")
        XCTAssertEqual(base.sha256.count, 64)
        XCTAssertEqual(base.sha256, BuildConfiguration(options: ConversionOptions(), loader: loader, writers: ["html"],
                                                       layout: .mirror, version: "1").sha256, "deterministic")
        var o = ConversionOptions(); o.fragment = true
        XCTAssertNotEqual(base.sha256, BuildConfiguration(options: o, loader: loader, writers: ["html"], layout: .mirror, version: "1").sha256)
        var t = ConversionOptions(); t.theme = t.theme.theme.resolved(category: .accessibilityMedium)
        XCTAssertNotEqual(base.sha256, BuildConfiguration(options: t, loader: loader, writers: ["html"], layout: .mirror, version: "1").sha256)
        XCTAssertNotEqual(base.sha256, BuildConfiguration(options: ConversionOptions(), loader: loader, writers: ["html"], layout: .mirror, version: "2").sha256)
        XCTAssertNotEqual(base.sha256, BuildConfiguration(options: ConversionOptions(), loader: DocumentLoader(keepMarkers: true),
                                                          writers: ["html"], layout: .mirror, version: "1").sha256)
    }

    func testManifestRoundTripsAndIsDeterministic() throws {
        let dir = try batchTempDir()
        let m = Manifest(entries: ["b.md": .init(inputSHA256: "11", modified: 5.25, configSHA256: "22",
                                                 outputs: [.init(path: "b.html", sha256: "33", size: 120, mtimeNanoseconds: 1_700_000_000_123_456_789)],
                                                 title: "B", created: 7, inputSize: 9, inputMtimeNanoseconds: -3),
                                   "a.md": .init(inputSHA256: "44", modified: nil, configSHA256: "22", outputs: [], title: nil, created: nil),
                                   "dir/é x.note": .init(inputSHA256: "55", modified: 1_700_000_000.000_001, configSHA256: "22",
                                                         outputs: [.init(path: "dir/é x.html", sha256: "66"), .init(path: "dir/é x.rtf", sha256: "77")],
                                                         title: "", created: 0.1)])
        try m.save(outputRoot: dir)
        let loaded = Manifest.load(outputRoot: dir)
        XCTAssertEqual(loaded, m)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + Manifest.fileName)), Data(m.encoded()), "the file holds the encoding")
        XCTAssertEqual(loaded.encoded(), m.encoded(), "decoding then encoding gives the same bytes")
        let text = String(decoding: m.encoded(), as: UTF8.self)
        XCTAssertEqual(text, """
            notepress-manifest\t3
            E\ta.md\t44\t-\t22\t-\t-\t-\t-\t-
            E\tb.md\t11\t5.25\t22\t9\t-3\t7.0\t=B\t-
            O\tb.html\t33\t120\t1700000000123456789
            E\tdir/é x.note\t55\t1700000000.000001\t22\t-\t-\t0.1\t=\t-
            O\tdir/é x.html\t66\t-\t-
            O\tdir/é x.rtf\t77\t-\t-

            """, "keys sorted, one line per entry and per output")
        XCTAssertEqual(Manifest.load(outputRoot: dir + "/missing"), Manifest())
    }

    func testManifestRecordsTheIndexPage() throws {
        let m = Manifest(entries: ["a.md": .init(inputSHA256: "1", modified: nil, configSHA256: "2", outputs: [], title: nil, created: nil)],
                         index: .init(path: "index.html", sha256: "ab", size: 10, mtimeNanoseconds: 5))
        let text = String(decoding: m.encoded(), as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("notepress-manifest\t3\nI\tindex.html\tab\t10\t5\nE\ta.md"), text)
        XCTAssertEqual(m.encoded().withUnsafeBufferPointer { Manifest.decode($0) }, m)
        let late = Array("notepress-manifest\t3\nE\ta.md\t1\t-\t2\t-\t-\t-\t-\t-\nI\tindex.html\tab\t10\t5\n".utf8)
        XCTAssertNil(late.withUnsafeBufferPointer { Manifest.decode($0) }, "the index line comes before the entries")
    }

    func testManifestEscapesTabsNewlinesAndBackslashesInTitlesAndPaths() throws {
        let title = "tab\there\nnew line \\ back\rslash"
        let m = Manifest(entries: ["a\tb.md": .init(inputSHA256: "1", modified: nil, configSHA256: "2",
                                                    outputs: [.init(path: "a\tb\\.html", sha256: "3")], title: title, created: nil)])
        let bytes = m.encoded()
        XCTAssertEqual(bytes.filter { $0 == 0x0A }.count, 3, "header, entry, output: no raw newline from the title")
        XCTAssertTrue(String(decoding: bytes, as: UTF8.self).contains("=tab\\there\\nnew line \\\\ back\\rslash"))
        let back = bytes.withUnsafeBufferPointer { Manifest.decode($0) }
        XCTAssertEqual(back, m)
    }

    func testDamagedOrForeignManifestIsIgnored() throws {
        let good = Array("notepress-manifest\t3\nE\ta.md\t1\t-\t2\t-\t-\t-\t-\t-\n".utf8)
        XCTAssertEqual(good.withUnsafeBufferPointer { Manifest.decode($0) }?.entries.count, 1)
        for bad in ["notepress-manifest\t2\nE\ta.md\t1\t-\t2\t-\t-\t-\t-\n", // the format before site digests
                    "{\"format\": 1, \"entries\": {}}\n",                 // the old JSON form
                    "notepress-manifest\t3\nO\ta.html\t1\t-\t-\n",         // an output before any entry
                    "notepress-manifest\t3\nE\ta.md\t1\t-\t2\t-\t-\t-\t-\n", // a field missing
                    "notepress-manifest\t3\nE\ta.md\t1\tx\t2\t-\t-\t-\t-\t-\n", // not a number
                    "notepress-manifest\t3\nE\ta\\q.md\t1\t-\t2\t-\t-\t-\t-\t-\n", // unknown escape
                    "notepress-manifest\t3\nA\tx.png\t1\t-\t-\tx.png\t-\n", // an asset with a field missing
                    ""] {
            XCTAssertNil(Array(bad.utf8).withUnsafeBufferPointer { Manifest.decode($0) }, bad)
        }
        let dir = try batchTempDir()
        try Data("notepress-manifest\t3\nE\t".utf8).write(to: URL(fileURLWithPath: dir + "/" + Manifest.fileName))
        XCTAssertEqual(Manifest.load(outputRoot: dir), Manifest(), "a truncated manifest means a full rebuild")
    }

    func testSavingRemovesTheLegacyJSONManifest() throws {
        let dir = try batchTempDir()
        try Data("{}".utf8).write(to: URL(fileURLWithPath: dir + "/" + Manifest.legacyFileName))
        try Manifest().save(outputRoot: dir)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/" + Manifest.legacyFileName))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + Manifest.fileName)), Data("notepress-manifest\t3\n".utf8))
    }

    func testPathTextMatchesFoundationPathMethods() {
        for p in ["a/b.md", "b.md", "a.b/c", "a/.hidden", ".md", "a/b.tar.gz", "dir/é x.note", "x"] {
            XCTAssertEqual(PathText.deletingExtension(p), (p as NSString).deletingPathExtension, p)
            XCTAssertEqual(PathText.lastComponent(p), (p as NSString).lastPathComponent, p)
        }
        XCTAssertEqual(PathText.deletingLastComponent("a/b/c.md"), "a/b")
        XCTAssertEqual(PathText.deletingLastComponent("c.md"), ".")
        XCTAssertEqual(PathText.deletingLastComponent("/c.md"), "/")
        XCTAssertEqual(PathText.join("out", "a.html"), "out/a.html")
        XCTAssertEqual(PathText.join("out/", "a.html"), "out/a.html")
        XCTAssertEqual(PathText.join("", "a.html"), "a.html")
        for p in ["a/b c.html", "dir/é x.html", "50%/[x]#y?.html", "a-b_c~d!$&'()*+,;=:@.html", "日本/語.html"] {
            XCTAssertEqual(PathText.percentEncodedPath(p),
                           p.split(separator: "/").map { String($0).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)! }.joined(separator: "/"), p)
        }
    }
}

final class LinesBox: @unchecked Sendable {
    private let lock = NSLock()
    private var parts: [String] = []
    func append(_ s: String) { lock.lock(); parts.append(s); lock.unlock() }
    var text: String { lock.lock(); defer { lock.unlock() }; return parts.joined() }
}
