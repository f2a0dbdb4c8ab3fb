import Foundation
import XCTest
import NotepressTestSupport

/// A started `notepress` process whose standard error is collected as it comes.
final class RunningNotepress {
    let process = Process()
    private let box = DataBox()
    private let ended = DataBox()

    /// Starts `notepress ARGS` in `directory`, standard output to /dev/null, standard input from
    /// `stdinPath` (/dev/null when not given).
    init(_ args: [String], in directory: String? = nil, stdinPath: String = "/dev/null") throws {
        process.executableURL = NotepressBinary.url
        process.arguments = args
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle(forReadingAtPath: stdinPath)
        let err = Pipe()
        process.standardError = err
        try process.run()
        let b = box, e = ended
        Thread {
            var all = Data()
            while case let d = err.fileHandleForReading.availableData, !d.isEmpty { all.append(d); b.data = all }
            e.data = Data()
        }.start()
    }

    /// What it wrote to standard error so far.
    var stderr: String { String(decoding: box.data ?? Data(), as: UTF8.self) }

    /// Polls `condition` every 10 ms until it holds or `seconds` pass.
    @discardableResult
    static func poll(seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while Date() < deadline { if condition() { return true }; usleep(10_000) }
        return condition()
    }

    /// Waits (at most `seconds`) for the exit and the end of its standard error; false when it
    /// still runs, and then it is killed (SIGKILL), so that its status can be read.
    func waitForExit(seconds: Double) -> Bool {
        if Self.poll(seconds: seconds, { !process.isRunning && ended.data != nil }) { return true }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return false
    }

    /// A `/proc/PID/status` field in kB (`VmHWM`, `VmRSS`), or nil.
    func statusKilobytes(_ field: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
        return nil
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
}

/// Issue 44, item 2: with no input given, standard input is read only when the user gave it on
/// purpose (a pipe, or a regular file with content). `convert -o x.html < /dev/null` wrote an empty
/// "Untitled" page and exited 0; on a terminal the same command is a usage error.
final class StandardInputNotGivenTests: XCTestCase {
    func run(_ args: [String], stdin: String, in dir: String) throws -> (status: Int32, stderr: String) {
        let p = try RunningNotepress(args, in: dir, stdinPath: stdin)
        XCTAssertTrue(p.waitForExit(seconds: 60), "still running: notepress \(args) < \(stdin)")
        return (p.process.terminationStatus, p.stderr)
    }

    func testNoInputWithStandardInputFromDevNullOrAnEmptyFileIsAUsageErrorAndWritesNothing() throws {
        let dir = try makeTempDir(self).path
        let empty = dir + "/empty.md", note = dir + "/note.md"
        try Data().write(to: URL(fileURLWithPath: empty))
        try Data("# Piped on purpose\n".utf8).write(to: URL(fileURLWithPath: note))
        for stdin in ["/dev/null", empty] {
            let r = try run(["convert", "-o", "x.html"], stdin: stdin, in: dir)
            XCTAssertEqual(r.status, 2, "convert < \(stdin): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("no input given"), r.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/x.html"), "convert < \(stdin) wrote a page")
            let bare = try run([], stdin: stdin, in: dir)
            XCTAssertEqual(bare.status, 2, "notepress < \(stdin): \(bare.stderr)")
            let view = try run(["view"], stdin: stdin, in: dir)
            XCTAssertEqual(view.status, 2, "view < \(stdin): \(view.stderr)")
        }
        // A file with content redirected on purpose, and a pipe, are read.
        let r = try run(["convert", "-o", "x.html"], stdin: note, in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(String(decoding: FileManager.default.contents(atPath: dir + "/x.html") ?? Data(), as: UTF8.self).contains("Piped on purpose"))
        let piped = try NotepressBinary.run(["convert", "-t", "html"], stdin: Data("# Through a pipe\n".utf8))
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertTrue(piped.stdoutText.contains("Through a pipe"))
        // `-` asks for standard input whatever it is.
        let dash = try run(["convert", "-", "-o", "y.html"], stdin: "/dev/null", in: dir)
        XCTAssertEqual(dash.status, 0, dash.stderr)
    }
}

/// Issue 44, item 3: SIGQUIT (Ctrl-\) printed a "Program crashed" backtrace and the run went on
/// (exit 0); `serve` kept serving. It is taken like SIGINT, SIGTERM and SIGHUP now.
final class QuitSignalTests: XCTestCase {
    func testSIGQUITEndsAFolderRunByTheSignalWithoutTemporariesOrABacktrace() throws {
        let dir = try makeTempDir(self).path
        let input = dir + "/in", out = dir + "/out"
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
        for i in 1...2000 {
            try Data("# Note \(i)\n\nSome *text* for note \(i) and a [link](n\(i % 2000 + 1).md).\n".utf8)
                .write(to: URL(fileURLWithPath: "\(input)/n\(i).md"))
        }
        let p = try RunningNotepress(["convert", input, "-o", out, "-q", "-t", "html"], in: dir)
        let pages = { (try? FileManager.default.contentsOfDirectory(atPath: out))?.filter { $0.hasSuffix(".html") }.count ?? 0 }
        XCTAssertTrue(RunningNotepress.poll(seconds: 60) { pages() >= 20 || !p.process.isRunning })
        try XCTSkipUnless(p.process.isRunning, "the run ended before the signal could be sent")
        kill(p.process.processIdentifier, SIGQUIT)
        XCTAssertTrue(p.waitForExit(seconds: 30), "SIGQUIT did not stop the run")
        XCTAssertEqual(p.process.terminationReason, .uncaughtSignal, p.stderr)
        XCTAssertEqual(p.process.terminationStatus, SIGQUIT, "ended by the signal (a shell shows 131)")
        XCTAssertLessThan(pages(), 2000, "the run went on to the end")
        XCTAssertEqual(temporaries(below: out), [])
        XCTAssertFalse(p.stderr.contains("crashed"), p.stderr)
    }

    func testSIGQUITStopsServeAndConvertWatchLikeSIGINT() throws {
        let (input, _, _) = try makeSiteFolder(self, ["a.md": "# A\n"])
        let s = try ServedSite([input])
        let out = try XCTUnwrap(s.folder)
        XCTAssertEqual(try s.get("/a.html").status, 200)
        XCTAssertEqual(s.stop(SIGQUIT), 0, s.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), "the temporary output folder is left: \(out)")
        XCTAssertFalse(s.stderr.contains("crashed"), s.stderr)

        let (input2, output2, _) = try makeSiteFolder(self, ["b.md": "# B\n"])
        let w = try RunningNotepress(["convert", input2, "-o", output2, "--watch"])
        XCTAssertTrue(RunningNotepress.poll(seconds: 60) { w.stderr.contains("watching for changes") }, w.stderr)
        kill(w.process.processIdentifier, SIGQUIT)
        XCTAssertTrue(w.waitForExit(seconds: 20), "SIGQUIT did not stop convert --watch")
        XCTAssertEqual(w.process.terminationReason, .exit)
        XCTAssertEqual(w.process.terminationStatus, 0, w.stderr)
        XCTAssertFalse(w.stderr.contains("crashed"), w.stderr)
    }
}

/// Issue 44, item 7: `convert FILE --watch` kept every rebuilt document until exit
/// (then `ProcessLifetime`; now only a one-shot run leaves values to the exit, ``LeftToExit``): a 2.3 MB
/// note to TEI grew from 256 to 818 MB over 11 rebuilds.
final class WatchKeepsNothingPerRebuildTests: XCTestCase {
    func testPeakMemoryOfConvertWatchDoesNotGrowWithEachRebuild() throws {
        let dir = try makeTempDir(self).path
        let note = dir + "/big.md", out = dir + "/big.xml"
        var text = "# Big\n\n"
        for i in 0..<9000 { text += "Paragraph \(i) with *emphasis*, `code` and a [link](https://example.org/\(i)).\n\n" }
        func write(_ round: Int) throws {
            try Data((text + "Round marker \(round).\n").utf8).write(to: URL(fileURLWithPath: note + ".tmp"))
            XCTAssertEqual(rename(note + ".tmp", note), 0)
        }
        try write(0)
        let p = try RunningNotepress(["convert", note, "-t", "tei", "-o", out, "--watch"], in: dir)
        XCTAssertTrue(RunningNotepress.poll(seconds: 120) { p.stderr.contains("watching for changes") }, p.stderr)
        let rebuilds = { p.stderr.components(separatedBy: "rebuilt in").count - 1 }
        // One rebuild first: the allocator's own pools reach their size.
        try write(1)
        XCTAssertTrue(RunningNotepress.poll(seconds: 120) { rebuilds() >= 1 }, p.stderr)
        let base = try XCTUnwrap(p.statusKilobytes("VmHWM"))
        let perBuild = try XCTUnwrap(p.statusKilobytes("VmRSS"))
        for round in 2...7 {
            try write(round)
            XCTAssertTrue(RunningNotepress.poll(seconds: 120) { rebuilds() >= round }, "rebuild \(round): \(p.stderr)")
        }
        XCTAssertTrue(String(decoding: FileManager.default.contents(atPath: out) ?? Data(), as: UTF8.self).contains("Round marker 7."))
        let peak = try XCTUnwrap(p.statusKilobytes("VmHWM"))
        kill(p.process.processIdentifier, SIGINT)
        XCTAssertTrue(p.waitForExit(seconds: 20))
        // Six more rebuilds may add to the peak a fraction of one build's size, not a build each.
        XCTAssertLessThan(peak - base, perBuild / 2,
                          "peak resident memory grew from \(base) kB to \(peak) kB over 6 rebuilds (\(perBuild) kB after one)")
    }
}

/// Issue 44, item 8: `serve --follow-symlinks` read a symlinked note whose target is outside the
/// folder, but editing the target never rebuilt or reloaded the page (mkdocs#1483).
final class ServeFollowsSymlinkTargetsTests: XCTestCase {
    func testEditingTheOutsideTargetOfASymlinkedNoteOrFolderRebuildsThePage() throws {
        let (input, output, dir) = try makeSiteFolder(self, ["index.md": "# Home\n"])
        let outside = dir + "/elsewhere"
        try FileManager.default.createDirectory(atPath: outside + "/folder", withIntermediateDirectories: true)
        try Data("# Linked\n\nFirst text.\n".utf8).write(to: URL(fileURLWithPath: outside + "/linked.md"))
        try Data("# Deep\n\nFirst deep.\n".utf8).write(to: URL(fileURLWithPath: outside + "/folder/deep.md"))
        try FileManager.default.createSymbolicLink(atPath: input + "/linked.md", withDestinationPath: outside + "/linked.md")
        try FileManager.default.createSymbolicLink(atPath: input + "/folder", withDestinationPath: outside + "/folder")
        let s = try ServedSite([input, "-o", output, "-q", "--follow-symlinks"])
        addTeardownBlock { _ = s.stop(SIGKILL) }
        XCTAssertTrue(try s.get("/linked.html").body.contains("First text."))
        XCTAssertTrue(try s.get("/folder/deep.html").body.contains("First deep."))
        let stream = try EventStreamReader(s.url, seconds: 30)
        XCTAssertTrue(stream.waitFor("event: build\ndata: ", seconds: 10), stream.text)
        // Written in place, through the target's own path.
        try Data("# Linked\n\nSecond text.\n".utf8).write(to: URL(fileURLWithPath: outside + "/linked.md"))
        XCTAssertNotNil(try s.waitFor("/linked.html", seconds: 10) { $0.body.contains("Second text.") }, "the target's edit was not rebuilt")
        XCTAssertTrue(stream.waitFor("event: reload\ndata: ", seconds: 10), stream.text)
        // Saved as editors do: a temporary beside the target, renamed over it.
        try Data("# Deep\n\nSecond deep.\n".utf8).write(to: URL(fileURLWithPath: outside + "/folder/.deep.md.swp"))
        XCTAssertEqual(rename(outside + "/folder/.deep.md.swp", outside + "/folder/deep.md"), 0)
        XCTAssertNotNil(try s.waitFor("/folder/deep.html", seconds: 10) { $0.body.contains("Second deep.") }, "the linked folder's edit was not rebuilt")
        try Data("# Linked\n\nThird text.\n".utf8).write(to: URL(fileURLWithPath: outside + "/.linked.md.swp"))
        XCTAssertEqual(rename(outside + "/.linked.md.swp", outside + "/linked.md"), 0)
        XCTAssertNotNil(try s.waitFor("/linked.html", seconds: 10) { $0.body.contains("Third text.") })
    }
}
