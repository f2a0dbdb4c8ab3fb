import Foundation
import XCTest
import NotepressTestSupport

/// Issue 30, item 3: Ctrl-C, SIGTERM and SIGKILL during a 5 000-note run left
/// `.NAME.html.tmp-XXXXXX` files in the output tree, and neither a re-run nor `--prune` removed
/// them. Real signals at three moments each (while scanning, early and late in the rendering);
/// afterwards no temporary is left and the tree equals a clean build. Issue 44 item 11: correct
/// at any speed (a signal before the output folder exists, a run that finished first).
final class InterruptedRunLeavesTemporariesTests: XCTestCase {
    /// Files below `dir` by relative path with their bytes (the manifest, which records output
    /// times, left out).
    func tree(_ dir: String) -> [String: Data] {
        var out: [String: Data] = [:]
        for url in TestPaths.files(under: URL(fileURLWithPath: dir)) {
            let rel = String(url.path.dropFirst(dir.count + 1))
            if rel == ".notepress-manifest" { continue }
            out[rel] = try? Data(contentsOf: url)
        }
        return out
    }

    /// The temporaries below `dir`: every path in a folder of Notepress's temporaries
    /// (`.notepress-tmp`, the folder too) and every file named `.*.tmp-*`, relative, sorted; none
    /// when `dir` does not exist (a run stopped before it made its output folder).
    func temporaries(_ dir: String) throws -> [String] {
        ((FileManager.default.enumerator(atPath: dir)?.allObjects as? [String]) ?? []).filter {
            let name = ($0 as NSString).lastPathComponent
            return $0.contains(".notepress-tmp") || name.hasPrefix(".") && name.contains(".tmp-")
        }.sorted()
    }

    func count(_ dir: String) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: dir))?.filter { $0.hasSuffix(".html") }.count ?? 0
    }

    func testSignalsAtThreeMomentsLeaveNoTemporaryAndTheTreeOfACleanBuild() throws {
        let dir = try makeTempDir(self).path
        let input = dir + "/in"
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
        for i in 1...5000 {
            try Data("# Note \(i)\n\nSome *text* for note \(i), a [link](n\((i % 5000) + 1).md) and #tag\(i % 7).\n".utf8)
                .write(to: URL(fileURLWithPath: "\(input)/n\(i).md"))
        }
        let env = ["SOURCE_DATE_EPOCH": "1700000000"]
        let clean = dir + "/clean"
        let c = try NotepressBinary.run(["convert", input, "-o", clean, "-q", "-t", "html"], environment: env)
        XCTAssertEqual(c.status, 0, c.stderr)
        let expected = tree(clean)
        XCTAssertGreaterThan(expected.count, 5_000)

        // The moments: while scanning (no page yet), after 100 pages, after 2 500 pages.
        let moments: [(String, (String) -> Bool)] = [
            ("scanning", { _ in true }), ("early", { self.count($0) >= 100 }), ("late", { self.count($0) >= 2500 }),
        ]
        for (signal, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM"), (SIGKILL, "SIGKILL")] {
            for (moment, reached) in moments {
                let out = "\(dir)/out-\(name)-\(moment)"
                let p = Process()
                p.executableURL = NotepressBinary.url
                p.arguments = ["convert", input, "-o", out, "-q", "-t", "html"]
                var e = ProcessInfo.processInfo.environment
                for (k, v) in env { e[k] = v }
                p.environment = e
                p.standardOutput = FileHandle.nullDevice
                p.standardError = FileHandle.nullDevice
                p.standardInput = FileHandle.nullDevice
                try p.run()
                usleep(moment == "scanning" ? 300_000 : 0)
                while p.isRunning && !reached(out) { usleep(5_000) }
                kill(p.processIdentifier, signal)
                p.waitUntilExit()
                let label = "\(name) \(moment)"
                if p.terminationReason == .uncaughtSignal {
                    XCTAssertEqual(p.terminationStatus, signal, "\(label): ended by the signal (a shell shows 128 + N)")
                } else {
                    // It finished before the signal came (a slow machine): a whole, clean build.
                    XCTAssertEqual(p.terminationStatus, 0, label)
                    XCTAssertEqual(count(out), expected.keys.filter { !$0.contains("/") && $0.hasSuffix(".html") }.count, label)
                }
                if signal != SIGKILL {
                    XCTAssertEqual(try temporaries(out), [], "\(label): the interrupt removed the temporaries in flight and their folder")
                } else {
                    // A killed run may have left some; plant one as a killed write would (a
                    // cut-off page in the output folder's .notepress-tmp) so that the re-run's
                    // cleanup is always exercised, and files that only look alike, which are
                    // not Notepress's and stay.
                    try FileManager.default.createDirectory(atPath: out + "/.notepress-tmp", withIntermediateDirectories: true)
                    try Data(repeating: 0x3C, count: 16 << 10).write(to: URL(fileURLWithPath: out + "/.notepress-tmp/tmp-Ab3xYz"))
                    try Data().write(to: URL(fileURLWithPath: out + "/.n17.html.tmp-Ab3xYz"))
                    try Data().write(to: URL(fileURLWithPath: out + "/.mine.tmp-12"))
                    try Data().write(to: URL(fileURLWithPath: out + "/keep.tmp-ABCDEF"))
                }
                let again = try NotepressBinary.run(["convert", input, "-o", out, "-q", "-t", "html"], environment: env)
                XCTAssertEqual(again.status, 0, "\(label): \(again.stderr)")
                if signal == SIGKILL {
                    XCTAssertEqual(try temporaries(out), [".mine.tmp-12", ".n17.html.tmp-Ab3xYz"], "\(label): only Notepress's own folder is emptied")
                    for f in [".mine.tmp-12", ".n17.html.tmp-Ab3xYz", "keep.tmp-ABCDEF"] { try FileManager.default.removeItem(atPath: out + "/" + f) }
                } else {
                    XCTAssertEqual(try temporaries(out), [], label)
                }
                let got = tree(out)
                XCTAssertEqual(got.count, expected.count, label)
                XCTAssertTrue(got == expected, "\(label): differs from a clean build in \(Set(got.keys).symmetricDifference(expected.keys).sorted().prefix(5)) "
                              + "\(expected.keys.filter { got[$0] != expected[$0] }.sorted().prefix(5))")
                try FileManager.default.removeItem(atPath: out)
            }
        }
    }

    /// `--prune` removes a killed run's temporaries too (those in `.notepress-tmp`; a file beside
    /// an output named like an older version's temporary is not Notepress's to remove).
    func testPruneRemovesAKilledRunsTemporaries() throws {
        let (input, out, _) = try makeSiteFolder(self, ["a.md": "# A\n", "sub/b.md": "# B\n"])
        XCTAssertEqual(try NotepressBinary.run(["convert", input, "-o", out, "-q"]).status, 0)
        try FileManager.default.createDirectory(atPath: out + "/.notepress-tmp", withIntermediateDirectories: true)
        try Data("<html".utf8).write(to: URL(fileURLWithPath: out + "/.notepress-tmp/tmp-q1W2e3"))
        try Data("<html".utf8).write(to: URL(fileURLWithPath: out + "/sub/.b.html.tmp-q1W2e3"))
        let r = try NotepressBinary.run(["convert", input, "-o", out, "--prune", "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try temporaries(out), ["sub/.b.html.tmp-q1W2e3"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/sub/b.html"))
    }
}
