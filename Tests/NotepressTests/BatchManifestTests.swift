import Foundation
import XCTest
@testable import Notepress

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
        let m = Manifest(entries: ["b.md": .init(inputSHA256: "11", modified: 5, configSHA256: "22",
                                                 outputs: [.init(path: "b.html", sha256: "33")], title: "B", created: 7),
                                   "a.md": .init(inputSHA256: "44", modified: nil, configSHA256: "22", outputs: [], title: nil, created: nil)])
        try m.save(outputRoot: dir)
        XCTAssertEqual(Manifest.load(outputRoot: dir), m)
        XCTAssertEqual(m.encoded(), m.encoded())
        let text = String(decoding: m.encoded(), as: UTF8.self)
        XCTAssertLessThan(text.range(of: "\"a.md\"")!.lowerBound, text.range(of: "\"b.md\"")!.lowerBound, "keys sorted")
        XCTAssertEqual(Manifest.load(outputRoot: dir + "/missing"), Manifest())
    }
}

final class LinesBox: @unchecked Sendable {
    private let lock = NSLock()
    private var parts: [String] = []
    func append(_ s: String) { lock.lock(); parts.append(s); lock.unlock() }
    var text: String { lock.lock(); defer { lock.unlock() }; return parts.joined() }
}

/// A fresh empty folder under the temporary folder.
func batchTempDir(_ name: String = "notepress-test") throws -> String {
    let dir = NSTemporaryDirectory() + "\(name)-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return InputScanner.realPath(dir)
}
