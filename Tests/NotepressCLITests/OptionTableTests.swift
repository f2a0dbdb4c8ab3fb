import Foundation
import XCTest
import NotepressTestSupport
@testable import NotepressCLI

/// The manifest's build configuration is made from `convert`'s option table (``OptionSpec/effect``):
/// these tests walk that table through the real binary, so that an option whose value changes what
/// a run writes can never be left out of it (issue 38: `--toc-depth` was, in a planted fault, and a
/// re-run with another depth said "skipped 1 (unchanged)" and kept the old contents).
///
/// For each `output` option: a run with one value, then a run with another into the same folder
/// converts again (no "unchanged"), its bytes differ from the first run's, and every file equals
/// a fresh build with the second value. For each `run` option: a fresh build with either value
/// gives the same bytes, and a re-run that only changes it converts nothing again.
final class OptionTableTests: XCTestCase {
    /// Two command lines that differ in one option, over the fixture (and `files`, relative to the
    /// scratch folder; `$D` in an argument is the scratch folder).
    struct Case {
        var base: [String] = []
        var first: [String]
        var second: [String]
        var files: [String: String] = [:]
        /// Symbolic links to make: path → target (both relative to the scratch folder).
        var links: [String: String] = [:]
    }

    /// The fixture folder `in/`: front matter, headings on four levels, a wiki link, a relative
    /// link, a hashtag, raw HTML, a `javascript:` link, a table, a list, note markup, a file of
    /// another kind.
    static let fixture: [String: String] = [
        "in/a.md": """
        ---
        tags: [x]
        ---
        # One

        Text with a [link](b.note), [[b]], #hashtag, <b>raw</b> and [js](javascript:alert(1)).
        A long sentence that goes on and on so that a narrow terminal must break it into several lines.

        ## Two

        ### Three

        #### Four

        | a | b |
        |---|---|
        | 1 | 2 |

        - item

        """,
        "in/b.note": "*bold* _italic_ ~script~\nTITLE WORDS here\n",
        "in/extra.dat": "a file no page uses\n",
    ]

    /// One case per `output` option of `convert` that is not exempt.
    static let outputCases: [String: Case] = [
        "--to": Case(first: ["-t", "html"], second: ["-t", "html,json"]),
        "--from": Case(first: ["-f", "gfm"], second: ["-f", "note"]),
        "--encoding": Case(first: ["--encoding", "latin1"], second: ["--encoding", "iso-8859-15"]),
        "--hashtags": Case(first: [], second: ["--hashtags"]),
        "--layout": Case(first: ["--layout", "flat"], second: ["--layout", "mirror"]),
        "--no-wikilinks": Case(first: [], second: ["--no-wikilinks"]),
        "--no-math": Case(first: [], second: ["--no-math"], files: ["in/math.md": "Euler: $e^{i\\pi} + 1 = 0$\n"]),
        "--backlinks": Case(first: [], second: ["--backlinks"]),
        "--no-print-page": Case(first: [], second: ["--no-print-page"]),
        "--site-title": Case(first: ["--site-title", "One"], second: ["--site-title", "Two"]),
        "--base-url": Case(first: ["--base-url", "https://one.example/"], second: ["--base-url", "https://two.example/"]),
        "--edit-url": Case(first: ["--edit-url", "https://one.example/{path}"], second: ["--edit-url", "https://two.example/{path}"]),
        "--no-git-dates": Case(first: [], second: ["--no-git-dates"]),
        "--feed-size": Case(base: ["--base-url", "https://one.example/"], first: ["--feed-size", "1"], second: ["--feed-size", "2"]),
        "--list-page-size": Case(first: ["--list-page-size", "1"], second: ["--list-page-size", "2"]),
        "--list-order": Case(first: ["--list-order", "created"], second: ["--list-order", "updated"],
                             files: ["in/dated.md": "---\ncreated: 2020-01-01\nupdated: 2021-02-03\n---\n# Dated\n"]),
        "--copy-all": Case(first: [], second: ["--copy-all"]),
        "--fragment": Case(first: [], second: ["--fragment"]),
        "--heading-ids": Case(base: ["--fragment"], first: [], second: ["--heading-ids"]),
        "--template": Case(first: ["--template", "$D/t1.html"], second: ["--template", "$D/t2.html"],
                           files: ["t1.html": "<p>one {{title}}</p>{{{body}}}\n", "t2.html": "<p>two {{title}}</p>{{{body}}}\n"]),
        "--metadata": Case(first: ["-M", "title=First"], second: ["-M", "title=Second"]),
        "--toc": Case(first: [], second: ["--toc"]),
        "--toc-depth": Case(base: ["--toc"], first: ["--toc-depth", "3"], second: ["--toc-depth", "1"]),
        "--unsafe": Case(first: [], second: ["--unsafe"]),
        "--keep-markers": Case(first: [], second: ["--keep-markers"]),
        "--theme": Case(first: ["--theme", "default"], second: ["--theme", "high-contrast"]),
        "--size-category": Case(first: ["--size-category", "l"], second: ["--size-category", "xxl"]),
        "--bold-text": Case(first: [], second: ["--bold-text"]),
        // A folder counts by the templates it holds, not by its path.
        "--data-dir": Case(first: ["--data-dir", "$D/data1"], second: ["--data-dir", "$D/data2"],
                           files: ["data1/html/page.html": "<p>1 {{title}}</p>{{{body}}}\n",
                                   "data2/html/page.html": "<p>2 {{title}}</p>{{{body}}}\n"]),
        "--width": Case(base: ["-t", "ansi"], first: ["--width", "40"], second: ["--width", "100"]),
        "--color": Case(base: ["-t", "ansi"], first: ["--color", "never"], second: ["--color", "always"]),
        "--hyperlinks": Case(base: ["-t", "ansi", "--color", "never"], first: ["--hyperlinks", "never"], second: ["--hyperlinks", "always"]),
        "--ascii": Case(base: ["-t", "ansi"], first: [], second: ["--ascii"]),
        "--no-validate": Case(base: ["-t", "tei"], first: [], second: ["--no-validate"]),
        "--page-size": Case(base: ["-t", "pdf"], first: ["--page-size", "a4"], second: ["--page-size", "letter"]),
        "--highlight-style": Case(first: ["--highlight-style", "Breeze Light"], second: ["--highlight-style", "GitHub Dark"],
                                  files: ["in/code.md": "```swift\nlet x = \"s\" // c\n```\n"]),
        "--no-highlight": Case(first: [], second: ["--no-highlight"], files: ["in/code.md": "```swift\nlet x = \"s\" // c\n```\n"]),
        "--no-input-limits": Case(first: [], second: ["--no-input-limits"]),
        "--markdown-extension": Case(first: [], second: ["--markdown-extension", "toc"]),
    ]

    /// One case per `selection` option: which files are inputs.
    static let selectionCases: [String: Case] = [
        "--include": Case(first: ["--include", "*.md"], second: ["--include", "*.note"]),
        "--exclude": Case(first: ["--exclude", "b.note"], second: ["--exclude", "a.md"]),
        "--follow-symlinks": Case(first: [], second: ["--follow-symlinks"], files: ["elsewhere/o.md": "# Outside\n"],
                                  links: ["in/o.md": "elsewhere/o.md"]),
    ]

    /// `output` options whose two values give the same bytes on valid input: fingerprinted all the
    /// same (the re-run must convert again), with the reason.
    static let sameBytesOnValidInput: [String: String] = [
        "--no-validate": "valid TEI is the same bytes validated or not; a run that validates again re-checks what was written without",
        "--no-git-dates": "outside a git work tree (this scratch folder) pages are dated by their files either way; GitDatesTests shows the difference in a repository, and a re-run with it must convert again",
        "--no-input-limits": "a document within the bounds reads the same; one past them fails without it (HostileShapeLimitsTests), and a re-run with it must convert again",
    ]

    /// The `--encoding` case's extra input: 0xA4 is ¤ in Latin-1 and € in ISO-8859-15.
    static let encodingFile = ("in/money.txt", [UInt8]("price: ".utf8) + [0xA4] + [0x0A])

    /// One case per `run` option that converts (``runExempt`` aside).
    static let runCases: [String: Case] = [
        "--jobs": Case(first: ["-j", "1"], second: ["-j", "2"]),
        "--force": Case(first: [], second: ["--force"]),
        "--prune": Case(first: [], second: ["--prune"]),
        "--quiet": Case(first: [], second: ["-q"]),
        "--verbose": Case(first: [], second: ["-v"]),
        "--strict-links": Case(first: [], second: ["--strict-links"]),
        "--depfile": Case(first: [], second: ["--depfile", "$D/deps.d"]),
        "--wikilinks": Case(first: [], second: ["--wikilinks"]),
        "--math": Case(first: [], second: ["--math"]),
    ]

    /// `run` options that convert nothing or name the destination.
    static let runExempt: Set<String> = ["--output", "--help", "--version", "--list-formats", "--watch"]
    /// The sharded-run options, not fingerprinted so that every shard of a site has one configuration.
    static let partitionOptions: Set<String> = ["--site-table", "--files-from", "--null", "--root", "--shard"]

    /// Every option of `convert` is one of the three kinds, and each `output` and `run` option has a
    /// case here: a new option is fingerprinted by default and fails this test until it has one.
    func testEveryConvertOptionHasACase() {
        for o in Commands.convert.options {
            switch o.effect {
            case .output:
                XCTAssertNotNil(Self.outputCases[o.key], "\(o.key) changes output (OptionSpec.effect): add an outputCases entry")
            case .run:
                XCTAssertTrue(Self.runCases[o.key] != nil || Self.runExempt.contains(o.key),
                              "\(o.key) is declared not to change output: add a runCases entry")
            case .selection:
                XCTAssertNotNil(Self.selectionCases[o.key], "\(o.key) chooses inputs (OptionSpec.effect): add a selectionCases entry")
            case .partition:
                XCTAssertTrue(Self.partitionOptions.contains(o.key), "\(o.key) is declared a shard option: say so in partitionOptions")
            }
        }
        let keys = Set(Commands.convert.options.map(\.key))
        for k in Set(Self.outputCases.keys).union(Self.runCases.keys).union(Self.selectionCases.keys).union(Self.partitionOptions) {
            XCTAssertTrue(keys.contains(k), "\(k) is no option of convert any more")
        }
        XCTAssertEqual(Set(Commands.convert.options.filter { $0.effect == .partition }.map(\.key)), Self.partitionOptions)
    }

    /// Each `output` option: the re-run with the other value converts again and writes what a fresh
    /// build with that value writes.
    func testEveryOutputOptionRewritesTheOutput() throws {
        for o in Commands.convert.options where o.effect == .output {
            guard let c = Self.outputCases[o.key] else { continue }
            let d = try scratch(c, encoding: o.key == "--encoding")
            let out = d.appendingPathComponent("out"), fresh = d.appendingPathComponent("fresh")
            let first = try convert(d, out, c.base + c.first)
            XCTAssertEqual(first.status, 0, "\(o.key) \(c.first): \(first.stderr)")
            let before = snapshot(out)
            let second = try convert(d, out, c.base + c.second)
            XCTAssertEqual(second.status, 0, "\(o.key) \(c.second): \(second.stderr)")
            XCTAssertTrue(second.stderr.contains("skipped 0 (unchanged)"),
                          "\(o.key): \(c.first) then \(c.second) kept outputs as unchanged: \(second.stderr)")
            let after = snapshot(out)
            if Self.sameBytesOnValidInput[o.key] == nil {
                XCTAssertNotEqual(before, after, "\(o.key): \(c.first) and \(c.second) wrote the same bytes; the case shows nothing")
            }
            let clean = try convert(d, fresh, c.base + c.second)
            XCTAssertEqual(clean.status, 0, clean.stderr)
            for (path, bytes) in snapshot(fresh) {
                XCTAssertEqual(after[path], bytes, "\(o.key): \(path) after \(c.first) then \(c.second) is not what a fresh build writes")
            }
        }
    }

    /// Each `selection` option: the re-run with the other value (and `--prune`) leaves exactly what a
    /// fresh build with that value writes, and the two values choose other inputs.
    func testEverySelectionOptionRebuildsWhatTheSelectionChanges() throws {
        for o in Commands.convert.options where o.effect == .selection {
            guard let c = Self.selectionCases[o.key] else { continue }
            let d = try scratch(c, encoding: false)
            let out = d.appendingPathComponent("out"), fresh = d.appendingPathComponent("fresh")
            let first = try convert(d, out, c.base + c.first)
            XCTAssertEqual(first.status, 0, "\(o.key) \(c.first): \(first.stderr)")
            let before = snapshot(out)
            let second = try convert(d, out, c.base + c.second + ["--prune"])
            XCTAssertEqual(second.status, 0, "\(o.key) \(c.second): \(second.stderr)")
            let after = snapshot(out)
            XCTAssertNotEqual(before, after, "\(o.key): \(c.first) and \(c.second) wrote the same files; the case shows nothing")
            let clean = try convert(d, fresh, c.base + c.second)
            XCTAssertEqual(clean.status, 0, clean.stderr)
            XCTAssertEqual(after, snapshot(fresh), "\(o.key): \(c.first) then \(c.second) is not what a fresh build writes")
        }
    }

    /// Each `run` option: either value gives the same bytes, and changing only it converts nothing
    /// again (`--force` aside, which converts everything by design).
    func testEveryRunOptionLeavesTheBytesAlone() throws {
        for o in Commands.convert.options where o.effect == .run {
            guard let c = Self.runCases[o.key] else { continue }
            let d = try scratch(c, encoding: false)
            let one = d.appendingPathComponent("one"), two = d.appendingPathComponent("two")
            let a = try convert(d, one, c.base + c.first), b = try convert(d, two, c.base + c.second)
            XCTAssertEqual(a.status, 0, a.stderr)
            XCTAssertEqual(b.status, 0, b.stderr)
            XCTAssertEqual(snapshot(one), snapshot(two), "\(o.key) is declared not to change output, but \(c.first) and \(c.second) differ")
            let page = one.appendingPathComponent("a.html").path
            let written = try FileManager.default.attributesOfItem(atPath: page)[.modificationDate] as? Date
            let rerun = try convert(d, one, c.base + c.second)
            XCTAssertEqual(rerun.status, 0, rerun.stderr)
            let rewritten = try FileManager.default.attributesOfItem(atPath: page)[.modificationDate] as? Date
            if o.key != "--force" {
                XCTAssertEqual(written, rewritten, "\(o.key): changing only it converted a.html again: \(rerun.stderr)")
            } else {
                XCTAssertNotEqual(written, rewritten, "--force did not convert a.html again")
            }
        }
    }

    /// manifest-toc-depth-not-fingerprinted (issue 38's surviving fault): `--toc --toc-depth 3`,
    /// then `--toc-depth 1` on the same output converts again and the contents list level 1 only.
    func testTocDepthChangeRewritesTheContents() throws {
        let d = try scratch(Case(first: [], second: []), encoding: false)
        let out = d.appendingPathComponent("out")
        let deep = try convert(d, out, ["--toc", "--toc-depth", "3"])
        XCTAssertEqual(deep.status, 0, deep.stderr)
        let page = out.appendingPathComponent("a.html")
        XCTAssertTrue(try String(contentsOf: page, encoding: .utf8).contains("href=\"#three\""))
        let shallow = try convert(d, out, ["--toc", "--toc-depth", "1"])
        XCTAssertEqual(shallow.status, 0, shallow.stderr)
        XCTAssertTrue(shallow.stderr.hasPrefix("converted 2, skipped 0 (unchanged)"), shallow.stderr)
        // The `--toc` list (`nav.toc`; the page's own contents beside the text, `nav.page-toc`, are another list).
        let html = try String(contentsOf: page, encoding: .utf8)
        let toc = try XCTUnwrap(html.range(of: "<nav class=\"toc\"").map { html[$0.lowerBound...].prefix { $0 != "/" || true } }
            .map { String($0[..<($0.range(of: "</nav>")?.upperBound ?? $0.endIndex)]) }, html)
        XCTAssertTrue(toc.contains("href=\"#one\""), toc)
        XCTAssertFalse(toc.contains("href=\"#two\""), "the depth-3 contents were kept: \(toc)")
    }

    // MARK: - Support

    private func scratch(_ c: Case, encoding: Bool) throws -> URL {
        let d = try makeTempDir(self)
        var files = Self.fixture
        for (k, v) in c.files { files[k] = v }
        for (path, text) in files { try write(Array(text.utf8), d.appendingPathComponent(path)) }
        for (path, target) in c.links {
            try FileManager.default.createSymbolicLink(atPath: d.appendingPathComponent(path).path,
                                                       withDestinationPath: d.appendingPathComponent(target).path)
        }
        if encoding { try write(Self.encodingFile.1, d.appendingPathComponent(Self.encodingFile.0)) }
        return d
    }

    private func write(_ bytes: [UInt8], _ url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    private func convert(_ d: URL, _ out: URL, _ args: [String]) throws -> NotepressBinary.Result {
        let expanded = args.map { $0.replacingOccurrences(of: "$D", with: d.path) }
        return try NotepressBinary.run(["convert", d.appendingPathComponent("in").path, "-o", out.path] + expanded,
                                       environment: ["SOURCE_DATE_EPOCH": "0", "NO_COLOR": ""])
    }

    /// Every file below `root` but the bookkeeping (the manifest; the stamp `--depfile` writes for
    /// make), by relative path.
    private func snapshot(_ root: URL) -> [String: Data] {
        var files: [String: Data] = [:]
        guard let e = FileManager.default.enumerator(atPath: root.path) else { return files }
        while let rel = e.nextObject() as? String {
            if rel == ".notepress-manifest" || rel == ".notepress-stamp" { continue }
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: root.path + "/" + rel, isDirectory: &isFolder), !isFolder.boolValue,
               let data = FileManager.default.contents(atPath: root.path + "/" + rel) {
                files[rel] = data
            }
        }
        return files
    }
}
