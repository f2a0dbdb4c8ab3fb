import Foundation
import XCTest
import NotepressTestSupport

/// Issue 44 ("Nothing of the user's is ever deleted, overwritten or half-written"), items 1, 4
/// and 5, and issue 52 item 8: Notepress removes only what it made. Temporaries live in its own
/// folder `.notepress-tmp` (the output folder's in a folder run, the output's own folder's
/// otherwise); files elsewhere are never removed for the shape of their name, and `--prune`
/// decides from the manifest's hashes, not from file times.
final class OnlyWhatItMadeTests: XCTestCase {
    let fm = FileManager.default

    /// Every path below `dir` (relative, sorted), folders included.
    func paths(_ dir: String) -> [String] {
        ((fm.enumerator(atPath: dir)?.allObjects as? [String]) ?? []).sorted()
    }

    func write(_ text: String, _ path: String) throws {
        try fm.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    func contents(_ path: String) -> String? { fm.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } }

    /// Item 1: `convert notes -o .` deleted every `.NAME.tmp-XXXXXX` below the output folder, the
    /// input folder's and other folders' too, with exit 0 and no message. Also a single-file
    /// output, a depfile and the stamp leave such files beside them alone, and no run leaves
    /// its own folder of temporaries behind.
    func testFilesNamedLikeTemporariesAreNeverRemoved() throws {
        let dir = try makeTempDir(self).path
        try write("# A\n", dir + "/notes/a.md")
        let theirs = [dir + "/other/.report.txt.tmp-Ab12Cd", dir + "/notes/.draft.md.tmp-Zz99Yy",
                      dir + "/.a.html.tmp-Qw3rty", dir + "/.notepress-stamp.tmp-Xy12Zz", dir + "/deps/.deps.d.tmp-Ab12Cd",
                      dir + "/single/.x.html.tmp-Ab12Cd"]
        for (i, t) in theirs.enumerated() { try write("data \(i)\n", t) }
        let r = try NotepressBinary.run(["convert", "notes", "-o", ".", "--depfile", "deps/deps.d", "-q"],
                                        currentDirectory: URL(fileURLWithPath: dir))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(fm.fileExists(atPath: dir + "/.notepress-stamp"), "the stamp was written")
        let s = try NotepressBinary.run(["convert", dir + "/notes/a.md", "-o", dir + "/single/x.html"])
        XCTAssertEqual(s.status, 0, s.stderr)
        for (i, t) in theirs.enumerated() { XCTAssertEqual(contents(t), "data \(i)\n", "\(t) is the user's: never removed") }
        let ours = paths(dir).filter { $0.contains(".notepress-tmp") }
        XCTAssertEqual(ours, [], "no folder of temporaries is left")
    }

    /// Item 1 (a killed run's temporaries are still cleaned, only those) and issue 52 item 8 (the
    /// output folder's lock taken shared: two runs removed each other's live temporaries). While
    /// another run holds the output folder (a shared `flock`, as a writing run does), a run leaves
    /// `.notepress-tmp` alone; once it is alone, it empties it. The same for a single-file output.
    func testAKilledRunsTemporariesAreRemovedOnlyWhenNoOtherRunWrites() throws {
        let (input, out, dir) = try makeSiteFolder(self, ["a.md": "# A\n", "sub/b.md": "# B\n"])
        let planted = out + "/.notepress-tmp/tmp-Dead01"
        try write("<html half", planted)
        // Another run writing into `out`: its lock, and `planted` is its live temporary.
        let fd = open(out, O_RDONLY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(flock(fd, LOCK_SH), 0)
        let r = try NotepressBinary.run(["convert", input, "-o", out, "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(fm.fileExists(atPath: out + "/sub/b.html"))
        XCTAssertEqual(contents(planted), "<html half", "another run's live temporary stays")
        close(fd)
        let again = try NotepressBinary.run(["convert", input, "-o", out, "-v"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.contains("removed \(planted) (a temporary file of an interrupted run)"), again.stderr)
        XCTAssertFalse(fm.fileExists(atPath: out + "/.notepress-tmp"), "alone, the run empties and removes the folder")
        // A single-file run: the output's own folder's temporaries.
        let single = dir + "/single"
        try write("{\\rtf half", single + "/.notepress-tmp/tmp-Dead02")
        let s = try NotepressBinary.run(["convert", input + "/a.md", "-o", single + "/a.html"])
        XCTAssertEqual(s.status, 0, s.stderr)
        XCTAssertEqual(paths(single), ["a.html"])
    }

    /// Item 4: re-running `notepress index` after a killed `index` left
    /// `_notepress/search/.t-*.js.tmp-*`. `index` is killed (SIGKILL) while it writes; whatever
    /// it left in `.notepress-tmp` (one is planted as a killed write leaves it, so the cleanup is
    /// always exercised) is gone after the next `index`, and so is every temporary.
    func testIndexAfterAKilledIndexLeavesNoTemporary() throws {
        var files: [String: String] = [:]
        for i in 1...150 { files["n\(i).md"] = "# Note \(i)\n\nText with words\(i % 37) and #tag\(i % 11).\n" }
        let (input, out, dir) = try makeSiteFolder(self, files)
        let table = dir + "/t.jsonl"
        XCTAssertEqual(try NotepressBinary.run(["scan", input, "-o", table, "-q"]).status, 0)
        let shard = try NotepressBinary.run(["convert", input, "-o", out, "--site-table", table, "--shard", "1/1", "-q"])
        XCTAssertEqual(shard.status, 0, shard.stderr)
        let p = Process()
        p.executableURL = NotepressBinary.url
        p.arguments = ["index", out, "--site-table", table, "-q"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        // Killed once it writes (its folder of temporaries exists), or whenever it is seen
        // finished: any moment is a moment a run can be killed.
        while p.isRunning && !fm.fileExists(atPath: out + "/.notepress-tmp") { usleep(1_000) }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        try write("var half", out + "/.notepress-tmp/tmp-Dead03")
        let user = out + "/_notepress/search/.t-notes.js.tmp-Ab12Cd"
        try write("the user's", user)
        let r = try NotepressBinary.run(["index", out, "--site-table", table])
        XCTAssertEqual(r.status, 0, r.stderr)
        let left = paths(out).filter { $0.contains(".notepress-tmp") || ($0 as NSString).lastPathComponent.contains(".tmp-") }
        XCTAssertEqual(left, ["_notepress/search/.t-notes.js.tmp-Ab12Cd"], "only the user's file")
        XCTAssertEqual(contents(user), "the user's")
        XCTAssertTrue(fm.fileExists(atPath: out + "/index.html"))
    }

    /// Item 5: `--prune` after the output was copied without its times (`cp -r`, `rsync` without
    /// `-t`, a git checkout) kept stale notes-list pages, tag pages, search files and assets:
    /// their records had no hash, and a changed time made them untrusted. The pruned copy has
    /// the files of a fresh build, byte for byte; a stale page the user edited stays.
    func testPruneAfterACopyWithoutTimesRemovesWhatAFreshBuildDoesNotHave() throws {
        var files: [String: String] = ["pic.png": "not really a png"]
        for i in 1...25 {
            files["n\(i).md"] = "---\ntags: [t\(i), all]\n---\n# Note \(i)\n\nWords\(i) here." + (i == 3 ? " ![p](pic.png)" : "") + "\n"
        }
        let (input, out, dir) = try makeSiteFolder(self, files)
        let options = ["--list-page-size", "1", "-q"]
        let env = ["SOURCE_DATE_EPOCH": "1700000000"]
        XCTAssertEqual(try NotepressBinary.run(["convert", input, "-o", out] + options, environment: env).status, 0)
        let copy = dir + "/copy"
        XCTAssertEqual(try runTool("cp", ["-r", out, copy]).status, 0)
        for i in 1...15 { try fm.removeItem(atPath: input + "/n\(i).md") }
        try Data("edited by hand".utf8).write(to: URL(fileURLWithPath: copy + "/tags/t14.html"))
        let r = try NotepressBinary.run(["convert", input, "-o", copy, "--prune"] + options, environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        let fresh = dir + "/fresh"
        XCTAssertEqual(try NotepressBinary.run(["convert", input, "-o", fresh] + options, environment: env).status, 0)
        func outputs(_ root: String) -> [String] {
            paths(root).filter { p in
                var d: ObjCBool = false
                return fm.fileExists(atPath: root + "/" + p, isDirectory: &d) && !d.boolValue && p != ".notepress-manifest"
            }
        }
        let expected = outputs(fresh)
        XCTAssertFalse(expected.contains("pic.png"), "no page uses the picture any more")
        XCTAssertEqual(outputs(copy), (expected + ["tags/t14.html"]).sorted(), "the pruned copy has a fresh build's files and the edited page")
        for f in expected { XCTAssertEqual(fm.contents(atPath: copy + "/" + f), fm.contents(atPath: fresh + "/" + f), f) }
        XCTAssertEqual(contents(copy + "/tags/t14.html"), "edited by hand")
    }

    /// New-user try-out: `OUT/.notepress-tmp` a symbolic link to another folder had the files of
    /// that folder removed (every top-level file, in `convert` of a folder or a file, `scan -o` and
    /// `index`). A symbolic link or a file of that name is now an error naming it, for every
    /// output that would use it, and its target is never written into or emptied.
    func testAFolderOfTemporariesThatIsASymbolicLinkIsNeverFollowed() throws {
        let dir = try makeTempDir(self).path
        try write("# A\n", dir + "/in/a.md")
        let victim = dir + "/victim"
        let theirs = [victim + "/precious.txt", victim + "/tmp-Ab12Cd", victim + "/.a.html.tmp-Ab12Cd", victim + "/deep/nested.txt"]
        for t in theirs { try write("keep\n", t) }
        try fm.createDirectory(atPath: dir + "/out", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: dir + "/single", withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: dir + "/out/.notepress-tmp", withDestinationPath: victim)
        try fm.createSymbolicLink(atPath: dir + "/single/.notepress-tmp", withDestinationPath: victim)
        let folder = try NotepressBinary.run(["convert", dir + "/in", "-o", dir + "/out", "-q"])
        XCTAssertEqual(folder.status, 1, folder.stderr)
        XCTAssertTrue(folder.stderr.contains("/out/.notepress-tmp is a symbolic link or a file, not Notepress's folder of temporaries"), folder.stderr)
        let single = try NotepressBinary.run(["convert", dir + "/in/a.md", "-o", dir + "/single/x.html"])
        XCTAssertEqual(single.status, 1, single.stderr)
        XCTAssertTrue(single.stderr.contains("/single/.notepress-tmp is a symbolic link or a file"), single.stderr)
        XCTAssertFalse(fm.fileExists(atPath: dir + "/single/x.html"))
        for t in theirs { XCTAssertEqual(contents(t), "keep\n", "\(t) is the user's: never removed") }
        XCTAssertEqual(paths(victim), ["deep", "deep/nested.txt", ".a.html.tmp-Ab12Cd", "precious.txt", "tmp-Ab12Cd"].sorted(),
                       "nothing was written into the link's target")
    }

    /// New-user try-out: a real `.notepress-tmp` holding the user's own file was removed whole. Only
    /// the files mkstemp names there (`tmp-XXXXXX`, regular files) are a killed run's temporaries;
    /// anything else stays, and so does the folder then.
    func testTheUsersOwnFilesInTheFolderOfTemporariesStay() throws {
        let (input, out, _) = try makeSiteFolder(self, ["a.md": "# A\n"])
        try write("mine\n", out + "/.notepress-tmp/mydata.txt")
        try write("mine too\n", out + "/.notepress-tmp/tmp-notes.txt")
        try write("<html half", out + "/.notepress-tmp/tmp-Dead01")
        let r = try NotepressBinary.run(["convert", input, "-o", out, "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(fm.fileExists(atPath: out + "/a.html"))
        XCTAssertEqual(paths(out + "/.notepress-tmp"), ["mydata.txt", "tmp-notes.txt"], "only the killed run's temporary is removed")
        XCTAssertEqual(contents(out + "/.notepress-tmp/mydata.txt"), "mine\n")
    }
}
