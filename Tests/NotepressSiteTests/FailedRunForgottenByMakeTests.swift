import Foundation
import XCTest
import NotepressTestSupport

/// Issue 30, items 1 and 2, with GNU make in a scratch folder: a failed run was forgotten by make
/// (the failing run rewrote the notes list, and its depfile did not name the failed input), and
/// `samples/Makefile` never rebuilt a folder with an `index.md` and could not take `NOTEPRESS`
/// from the PATH.
final class FailedRunForgottenByMakeTests: XCTestCase {
    /// The README's recipe, with the binary taken from the PATH (`NOTEPRESS ?= notepress`).
    static let makefile = """
    NOTEPRESS ?= notepress
    NOTEPRESS_FILE := $(firstword $(wildcard $(NOTEPRESS)) $(shell command -v $(NOTEPRESS) 2>/dev/null))
    .DELETE_ON_ERROR:
    site/.notepress-stamp: docs $(NOTEPRESS_FILE)
    \t$(NOTEPRESS) convert docs -o site --depfile site/deps.d -q -t html,rtf
    -include site/deps.d

    """

    func makePath() throws -> String {
        guard let make = ["/usr/bin/make", "/bin/make"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            XCTFail("make is missing: apt-get install make (listed in .ci/apt-packages)")
            throw CocoaError(.fileNoSuchFile)
        }
        return make
    }

    /// `make ARGS` in `dir` with the debug binary's folder first on the PATH.
    func make(_ dir: String, _ args: [String] = []) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try makePath())
        p.arguments = ["-C", dir] + args
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = NotepressBinary.url.deletingLastPathComponent().path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        p.environment = env
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// make's word for "nothing to do" (GNU make says one or the other).
    func upToDate(_ output: String) -> Bool {
        output.contains("Nothing to be done") || output.contains("is up to date")
    }

    func mtime(_ path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }

    func write(_ path: String, _ bytes: [UInt8]) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// Times of every file below `dir` (path relative to it).
    func times(_ dir: String) -> [String: Date] {
        var out: [String: Date] = [:]
        for url in TestPaths.files(under: URL(fileURLWithPath: dir)) {
            out[String(url.path.dropFirst(dir.count + 1))] = mtime(url.path)
        }
        return out
    }

    /// Edit → fail → (make again: still fails) → fix → build → nothing to do; then an edit with
    /// `make -j2` rewrites that page and the site-wide pages only; a deleted note does not stop make.
    func testAFailedRunStaysOutOfDateUntilTheInputIsFixed() throws {
        let dir = try makeTempDir(self).path
        try FileManager.default.createDirectory(atPath: dir + "/docs", withIntermediateDirectories: true)
        try write(dir + "/Makefile", Array(Self.makefile.utf8))
        try write(dir + "/docs/index.md", Array("# Home\n\nSee [a](a.md).\n".utf8))
        try write(dir + "/docs/a.md", Array("# A\n\nfirst\n".utf8))
        try write(dir + "/docs/b.note", Array("B *note*\n".utf8))
        let stamp = dir + "/site/.notepress-stamp"

        var r = try make(dir)
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertNotNil(mtime(stamp), "a run that succeeds writes the stamp")
        r = try make(dir)
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertTrue(upToDate(r.output), r.output)

        // Edit one note and add one with invalid UTF-8: make fails (rc 2) …
        sleep(1)
        try write(dir + "/docs/a.md", Array("# A\n\nsecond\n".utf8))
        try write(dir + "/docs/bad.md", [0x61, 0xFF, 0x62, 0x0A])
        r = try make(dir)
        XCTAssertEqual(r.status, 2, r.output)
        XCTAssertTrue(r.output.contains("bad.md:1:2: error: invalid UTF-8"), r.output)
        XCTAssertNil(mtime(stamp), "a failed run leaves no stamp")
        XCTAssertTrue(try String(contentsOfFile: dir + "/site/a.html", encoding: .utf8).contains("second"), "the good edit is converted")
        let bad = try XCTUnwrap(mtime(dir + "/docs/bad.md"))
        for page in ["site/notes-index.html"] {
            let t = try XCTUnwrap(mtime(dir + "/" + page), page)
            XCTAssertLessThan(t, bad, "\(page) is not newer than the failed input")
        }
        let deps = try String(contentsOfFile: dir + "/site/deps.d", encoding: .utf8)
        XCTAssertTrue(deps.contains("site/.notepress-stamp: docs docs/a.md docs/b.note docs/bad.md docs/index.md"), deps)
        XCTAssertTrue(deps.contains("\ndocs/bad.md:\n"), "an empty rule per input (gcc -MP): \(deps)")
        // … and the next make runs again (before: "Nothing to be done", rc 0).
        r = try make(dir)
        XCTAssertEqual(r.status, 2, r.output)
        XCTAssertFalse(upToDate(r.output), r.output)

        // Fixed in place: built.
        sleep(1)
        try write(dir + "/docs/bad.md", Array("# Fixed\n".utf8))
        r = try make(dir)
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertTrue(try String(contentsOfFile: dir + "/site/bad.html", encoding: .utf8).contains("Fixed"))
        XCTAssertNotNil(mtime(stamp))
        r = try make(dir)
        XCTAssertTrue(upToDate(r.output), r.output)

        // One edit, make -j2: only that page (both formats) and the site-wide notes list change.
        let before = times(dir + "/site")
        sleep(1)
        try write(dir + "/docs/b.note", Array("B *edited* note\n".utf8))
        r = try make(dir, ["-j2"])
        XCTAssertEqual(r.status, 0, r.output)
        let after = times(dir + "/site")
        let rewritten = Set(after.keys.filter { after[$0] != before[$0] })
        XCTAssertTrue(rewritten.isSuperset(of: ["b.html", "b.rtf"]), "\(rewritten.sorted())")
        // (and the search index's files of the words the edit changed, the link previews' file of
        // the note, the print page that holds it)
        XCTAssertTrue(rewritten.subtracting(["b.html", "b.rtf", "notes-index.html", ".notepress-stamp", "deps.d", "print.html",
                                              ".notepress-manifest", ".notepress-site.jsonl"])
                        .filter { !$0.hasPrefix("_notepress/search/") && !$0.hasPrefix("_notepress/previews/") }.isEmpty,
                      "\(rewritten.sorted())")
        r = try make(dir, ["-j2"])
        XCTAssertTrue(upToDate(r.output), r.output)

        // A deleted note: make does not stop with "No rule to make target".
        sleep(1)
        try FileManager.default.removeItem(atPath: dir + "/docs/b.note")
        r = try make(dir)
        XCTAssertEqual(r.status, 0, r.output)
        r = try make(dir)
        XCTAssertTrue(upToDate(r.output), r.output)
    }

    /// `samples/Makefile` in a copy of the samples with an `index.md` (so `out/index.html` is that
    /// page): editing another note rebuilds; `make NOTEPRESS=notepress` takes the binary on the PATH.
    func testSamplesMakefileRebuildsAFolderWithAnIndexPageAndTakesNotepressFromThePath() throws {
        let dir = try makeTempDir(self).path + "/samples"
        try FileManager.default.copyItem(atPath: TestPaths.samples.path, toPath: dir)
        try? FileManager.default.removeItem(atPath: dir + "/out")
        try write(dir + "/notes/index.md", Array("# Home\n".utf8))
        var r = try make(dir, ["NOTEPRESS=notepress"])
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertFalse(r.output.contains("No rule to make target"), r.output)
        r = try make(dir, ["NOTEPRESS=notepress", "-q"])
        XCTAssertEqual(r.status, 0, "up to date: \(r.output)")
        sleep(1)
        let page = dir + "/out/lentil-soup.html"
        let old = try XCTUnwrap(mtime(page))
        let note = dir + "/notes/lentil-soup.note"
        try write(note, Array(try Data(contentsOf: URL(fileURLWithPath: note))) + Array("\nOne more line.\n".utf8))
        r = try make(dir, ["NOTEPRESS=notepress", "-q"])
        XCTAssertEqual(r.status, 1, "make -q sees the edited note: \(r.output)")
        r = try make(dir, ["NOTEPRESS=notepress"])
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertGreaterThan(try XCTUnwrap(mtime(page)), old)
        XCTAssertTrue(try String(contentsOfFile: page, encoding: .utf8).contains("One more line."))
    }
}
