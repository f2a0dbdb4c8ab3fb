import Foundation
import XCTest
import NotepressTestSupport
@testable import Notepress
@testable import NotepressSite

/// BatchConverter: job-count independence, incremental skipping, pruning, failures, output safety.
final class BatchTests: XCTestCase {
    let formats = ["html", "rtf", "tei", "man", "ansi", "json"]

    func converter(_ out: String, jobs: Int, layout: OutputLayout = .flat, formats: [String]? = nil) -> BatchConverter {
        var options = ConversionOptions()
        options.width = 80
        let writers = (formats ?? self.formats).map { WriterRegistry.writer(named: $0)! }
        let loader = DocumentLoader(sourceDateEpoch: Date(timeIntervalSince1970: 1_700_000_000))
        return BatchConverter(loader: loader, writers: writers, options: options, outputRoot: out, layout: layout, jobs: jobs,
                              configuration: BuildConfiguration(options: options, loader: loader, writers: formats ?? self.formats,
                                                                layout: layout, version: "test"))
    }

    /// Every regular file below `dir` by relative path → bytes.
    func tree(_ dir: String) -> [String: Data] {
        var out: [String: Data] = [:]
        for url in TestPaths.files(under: URL(fileURLWithPath: dir)) {
            out[String(url.path.dropFirst(dir.count + 1))] = try? Data(contentsOf: url)
        }
        return out
    }

    /// A fresh `in` folder holding `files` (name → text) and an empty `out` folder beside it.
    func inputAndOutputFolders(_ files: [String: String]) throws -> (input: String, output: String) {
        let tmp = try batchTempDir()
        let input = tmp + "/in", out = tmp + "/out"
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: URL(fileURLWithPath: input + "/" + name)) }
        return (input, out)
    }

    func copySamples() throws -> String {
        let dir = try batchTempDir() + "/in"
        try FileManager.default.copyItem(atPath: TestPaths.samples.path, toPath: dir)
        return dir
    }

    func testJobCountDoesNotChangeBytesOrOrder() throws {
        let input = try copySamples()
        let scan = InputScanner.scan([input], format: nil)
        XCTAssertGreaterThan(scan.files.count, 10)
        let tmp = try batchTempDir()
        var trees: [[String: Data]] = []
        var orders: [[String]] = []
        for jobs in [1, 4] {
            let out = tmp + "/out\(jobs)"
            var b = converter(out, jobs: jobs)
            b.inputFolders = scan.folders
            let run = b.runSite(scan.files)
            let outcomes = run.outcomes
            XCTAssertEqual(outcomes.filter { $0.error != nil }.map { "\($0.error!)" }, [])
            _ = try b.writeIndex(run)?.path
            orders.append(outcomes.map(\.input.relative))
            trees.append(tree(out))
        }
        XCTAssertEqual(orders[0], orders[1])
        XCTAssertEqual(trees[0].keys.filter { !$0.hasPrefix("_notepress/") && $0 != "search.html" && $0 != "404.html" && $0 != "print.html" }.count, scan.files.count * formats.count + 1 + 18,
                       "every format for every file, plus index.html and 18 tag pages (and the site files: _notepress/, search.html, 404.html, print.html)")
        XCTAssertNotNil(trees[0]["_notepress/notepress.css"])
        XCTAssertEqual(Set(trees[0].keys), Set(trees[1].keys))
        for (k, v) in trees[0] { XCTAssertEqual(v, trees[1][k], "bytes of \(k) differ between -j1 and -j4") }
    }

    func testLayoutsMirrorAndFlat() throws {
        let input = try copySamples()
        let scan = InputScanner.scan([input + "/notes/lentil-soup.note"], format: nil)
        let tmp = try batchTempDir()
        _ = converter(tmp + "/m", jobs: 1, layout: .mirror, formats: ["html", "rtf"]).run(scan.files)
        _ = converter(tmp + "/f", jobs: 1, layout: .flat, formats: ["html", "rtf"]).run(scan.files)
        XCTAssertEqual(Set(tree(tmp + "/m").keys), ["html/lentil-soup.html", "rtf/lentil-soup.rtf"])
        XCTAssertEqual(Set(tree(tmp + "/f").keys), ["lentil-soup.html", "lentil-soup.rtf"])
    }

    func testIncrementalRerunSkipsUnchangedAndRedoesChanged() throws {
        let input = try copySamples()
        let out = try batchTempDir() + "/out"
        let scan = InputScanner.scan([input], format: nil)
        let b = converter(out, jobs: 2, formats: ["html", "man"])
        let first = b.run(scan.files)
        XCTAssertTrue(first.allSatisfy { $0.status == .converted })
        try b.manifest(after: first, previous: Manifest(), keepUnseen: true).save(outputRoot: out)

        // Unchanged: everything skipped, titles kept for the index.
        let m1 = Manifest.load(outputRoot: out)
        XCTAssertEqual(m1.entries.count, scan.files.count)
        let secondRun = b.runSite(scan.files, previous: m1)
        let second = secondRun.outcomes
        XCTAssertTrue(second.allSatisfy { $0.status == .skipped }, "\(second.map(\.status))")
        XCTAssertEqual(second.map(\.title), first.map(\.title))
        XCTAssertEqual(second.map(\.created), first.map(\.created))
        let index = try XCTUnwrap(try b.writeIndex(secondRun)?.path)
        let page = try String(contentsOfFile: index, encoding: .utf8)
        for o in first { XCTAssertTrue(page.contains((o.title ?? "?").replacingOccurrences(of: "&", with: "&amp;")), "index lists \(o.title ?? "")") }
        // With the index recorded, a run that skips everything leaves it alone, unless it is gone.
        var m1i = m1
        m1i.index = try XCTUnwrap(try b.writeIndex(secondRun, previous: m1)?.record)
        XCTAssertEqual(m1i.index?.sha256, SHA256.hex(Array(page.utf8)))
        try FileManager.default.removeItem(atPath: index)
        _ = try b.writeIndex(secondRun, previous: m1)  // not recorded in m1: written again
        XCTAssertTrue(FileManager.default.fileExists(atPath: index))
        let again = b.runSite(scan.files, previous: m1i)
        try "tampered".write(toFile: index, atomically: false, encoding: .utf8)
        _ = try b.writeIndex(again, previous: m1i)
        XCTAssertEqual(try String(contentsOfFile: index, encoding: .utf8), page, "a changed index is rewritten")
        let mtime = DocumentLoader.modificationDate(index)
        var m1j = m1i
        m1j.index = try XCTUnwrap(try b.writeIndex(again, previous: m1i)?.record)
        _ = try b.writeIndex(again, previous: m1j)
        XCTAssertEqual(DocumentLoader.modificationDate(index), mtime, "an intact recorded index is not touched")

        // One input edited, one output deleted, one output altered: those three are redone.
        let edited = scan.files[0], deleted = scan.files[1], altered = scan.files[2]
        try ("\nmore text\n").data(using: .utf8)!.append(toFile: edited.path)
        try FileManager.default.removeItem(atPath: b.outputPath(deleted, b.writers[1]))
        try Data("tampered".utf8).write(to: URL(fileURLWithPath: b.outputPath(altered, b.writers[0])))
        let third = b.run(scan.files, previous: m1)
        XCTAssertEqual(third.filter { $0.status == .converted }.map(\.input.relative).sorted(),
                       [edited, deleted, altered].map(\.relative).sorted())
        XCTAssertEqual(third.filter { $0.status == .skipped }.count, scan.files.count - 3)
        XCTAssertNotEqual(try Data(contentsOf: URL(fileURLWithPath: b.outputPath(altered, b.writers[0]))), Data("tampered".utf8))

        // Other options: everything redone.
        let other = converter(out, jobs: 2, formats: ["man", "html"])
        XCTAssertTrue(other.run(scan.files, previous: m1).allSatisfy { $0.status == .converted })
    }

    func testPruneRemovesOutputsOfDeletedInputsOnlyWhenAsked() throws {
        let input = try copySamples()
        let out = try batchTempDir() + "/out"
        let b = converter(out, jobs: 1, formats: ["html"])
        let scan = InputScanner.scan([input], format: nil)
        let first = b.run(scan.files)
        let m = b.manifest(after: first, previous: Manifest(), keepUnseen: true)
        let gone = scan.files[3]
        let goneOutput = b.outputPath(gone, b.writers[0])
        try FileManager.default.removeItem(atPath: gone.path)
        let rescan = InputScanner.scan([input], format: nil)
        let second = b.run(rescan.files, previous: m)
        // Without prune: the output stays, the manifest keeps the entry.
        let kept = b.manifest(after: second, previous: m, keepUnseen: true)
        XCTAssertNotNil(kept.entries[gone.relative])
        XCTAssertTrue(FileManager.default.fileExists(atPath: goneOutput))
        // With prune: removed.
        XCTAssertEqual(b.prune(previous: kept, outcomes: second, index: nil, assets: AssetCopy()), [goneOutput])
        XCTAssertFalse(FileManager.default.fileExists(atPath: goneOutput))
        XCTAssertNil(b.manifest(after: second, previous: kept, keepUnseen: false).entries[gone.relative])
        XCTAssertEqual(second.count, scan.files.count - 1)
    }

    func testBadFilesFailAloneAndGoodFilesConvert() throws {
        let dir = try batchTempDir() + "/in"
        let fm = FileManager.default
        try fm.createDirectory(atPath: dir + "/loop", withIntermediateDirectories: true)
        try Data("# Good\n\nfine\n".utf8).write(to: URL(fileURLWithPath: dir + "/good.md"))
        try Data("*also* good\n".utf8).write(to: URL(fileURLWithPath: dir + "/good2.note"))
        try Data([0x61, 0xFF, 0x62, 0x0A]).write(to: URL(fileURLWithPath: dir + "/bad-utf8.md"))
        try Data([0x61, 0x00, 0x62]).write(to: URL(fileURLWithPath: dir + "/nul.note"))
        try fm.createSymbolicLink(atPath: dir + "/dangling.md", withDestinationPath: dir + "/nowhere.md")
        try fm.createSymbolicLink(atPath: dir + "/loop/back", withDestinationPath: dir)
        try fm.createDirectory(atPath: dir + "/x.md", withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(dir + "/fifo.txt", 0o644), 0)
        let scan = InputScanner.scan([dir], format: nil)
        let errorsText = scan.errors.map(\.description).joined(separator: "\n")
        XCTAssertTrue(errorsText.contains("broken symbolic link"), errorsText)
        // A folder loop is harmless (the folder is walked once already): a warning, not an error.
        XCTAssertFalse(errorsText.contains("folder loop"), errorsText)
        // A FIFO is skipped with a warning (reading it would wait for a writer), not taken as an input.
        XCTAssertEqual(Set(scan.warnings.map(\.message)), ["folder loop: leads back to \(InputScanner.realPath(dir)); not followed",
                                                            "a named pipe (FIFO), not a regular file; skipped"])
        XCTAssertFalse(scan.files.contains { $0.path.hasSuffix("fifo.txt") })
        let out = try batchTempDir() + "/out"
        let b = converter(out, jobs: 3, formats: ["html", "json"])
        let outcomes = b.run(scan.files.filter { !$0.path.hasSuffix("fifo.txt") })
        let byName = Dictionary(uniqueKeysWithValues: outcomes.map { ($0.input.relative, $0) })
        XCTAssertEqual(byName["good.md"]?.status, .converted)
        XCTAssertEqual(byName["good2.note"]?.status, .converted)
        XCTAssertTrue(byName["bad-utf8.md"]?.error?.message.contains("invalid UTF-8") ?? false)
        XCTAssertEqual(byName["bad-utf8.md"]?.error?.position, .init(line: 1, column: 2))
        XCTAssertTrue(byName["nul.note"]?.error?.message.contains("NUL") ?? false)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/good.html"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/nul.html"))
        // A folder named x.md is walked as a folder, not read as a file; given directly it fails.
        XCTAssertNil(byName["x.md"])
        let direct = b.convert(InputFile(path: dir + "/x.md", relative: "x.md"))
        XCTAssertEqual(direct.error?.message, "is a folder, not a file")
    }

    func testInputsAreNeverModified() throws {
        let input = try copySamples()
        func hashes() -> [String: String] {
            var h: [String: String] = [:]
            for url in TestPaths.files(under: URL(fileURLWithPath: input)) { h[url.path] = SHA256.hex([UInt8]((try? Data(contentsOf: url)) ?? Data())) }
            return h
        }
        let before = hashes()
        let out = try batchTempDir() + "/out"
        let scan = InputScanner.scan([input], format: nil)
        let b = converter(out, jobs: 2)
        _ = try b.writeIndex(b.runSite(scan.files))?.path
        XCTAssertEqual(hashes(), before)
        XCTAssertFalse(before.isEmpty)
    }

    func testSymlinkInOutputFolderIsNotWrittenThrough() throws {
        let tmp = try batchTempDir()
        let input = try copySamples()
        let elsewhere = tmp + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let victim = elsewhere + "/lentil-soup.html"
        try Data("precious".utf8).write(to: URL(fileURLWithPath: victim))
        let out = tmp + "/out"
        try FileManager.default.createDirectory(atPath: out + "/notes", withIntermediateDirectories: true)
        // A symlinked output file and a symlinked output folder.
        try FileManager.default.createSymbolicLink(atPath: out + "/notes/lentil-soup.html", withDestinationPath: victim)
        try FileManager.default.createSymbolicLink(atPath: out + "/markdown", withDestinationPath: elsewhere)
        var b = converter(out, jobs: 1, formats: ["html"])
        let scan = InputScanner.scan([input], format: nil)
        b.inputFolders = scan.folders
        let outcomes = b.run(scan.files)
        let soup = outcomes.first { $0.input.relative == "notes/lentil-soup.note" }!
        XCTAssertTrue(soup.error?.message.contains("symbolic link") ?? false, "\(String(describing: soup.error))")
        let md = outcomes.filter { $0.input.relative.hasPrefix("markdown/") }
        XCTAssertFalse(md.isEmpty)
        for o in md { XCTAssertTrue(o.error?.message.contains("outside the output folder") ?? false, "\(String(describing: o.error))") }
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "precious")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere), ["lentil-soup.html"])
        // The others still converted.
        XCTAssertEqual(outcomes.filter { $0.status == .converted }.count, scan.files.count - 1 - md.count)
    }

    /// Regression: the guard compared real paths, so an output that is a hard link to an input
    /// file (same inode, another path) was written, and the input with it.
    func testOutputThatIsAHardLinkToAnInputIsRefused() throws {
        let (input, out) = try inputAndOutputFolders(["a.md": "# Keep me\n", "b.md": "# B\n"])
        XCTAssertEqual(link(input + "/a.md", out + "/a.html"), 0)
        var b = converter(out, jobs: 1, formats: ["html"])
        let scan = InputScanner.scan([input], format: nil)
        b.inputFolders = scan.folders
        let outcomes = b.run(scan.files)
        XCTAssertTrue(outcomes[0].error?.message.contains("is an input file") ?? false, "\(String(describing: outcomes[0].error))")
        XCTAssertEqual(outcomes[1].status, .converted)
        XCTAssertEqual(try String(contentsOfFile: input + "/a.md", encoding: .utf8), "# Keep me\n")
    }

    func testOutputIntoInputTreeRefusedAndSameOutputTwiceFails() throws {
        let (input, out) = try inputAndOutputFolders(["a.md": "# A\n", "a.note": "a note\n"])
        try FileManager.default.createSymbolicLink(atPath: out + "/sub", withDestinationPath: input)
        var b = converter(out, jobs: 2, formats: ["html"])
        let scan = InputScanner.scan([input], format: nil)
        b.inputFolders = scan.folders
        let outcomes = b.run(scan.files)
        XCTAssertEqual(outcomes.map(\.input.relative), ["a.md", "a.note"])
        XCTAssertEqual(outcomes[0].status, .converted)
        XCTAssertTrue(outcomes[1].error?.message.contains("is also the output of") ?? false)
        // Writing through out/sub would land in the input folder.
        let guardian = OutputGuard(root: InputScanner.realPath(out), inputFolders: scan.folders, inputFiles: LazyIdentities([]))
        XCTAssertThrowsError(try guardian.check(out + "/sub/a.html", input: "a.md"))
        XCTAssertNoThrow(try guardian.check(out + "/new/a.html", input: "a.md"))
    }
}

extension Data {
    func append(toFile path: String) throws {
        let h = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? h.close() }
        try h.seekToEnd()
        try h.write(contentsOf: self)
    }
}
