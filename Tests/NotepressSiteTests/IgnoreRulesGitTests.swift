import Foundation
import NotepressSite
import XCTest
import NotepressTestSupport

/// Issue 29: ignore patterns (`.notepressignore`, `--exclude`) select the same files as git does,
/// POSIX classes included. Each pattern is given to git (`.git/info/exclude`, `git check-ignore`)
/// and to the real folder scan (``InputScanner``) over one folder of notes.
final class IgnoreRulesGitTests: XCTestCase {
    /// The notes (no hidden names: the scan skips them, git does not).
    static let files = [
        "1a.md", "42.md", "a1.md", "Abc.md", "abc.md", "b.md", "x.md", "[x].md", "a b.md", "café.md",
        "star*.md", "q?.md", "keep.md", "Zeta.md", "tab\tname.md",
        "drafts/one.md", "drafts/deep/two.md", "notes/drafts/three.md", "notes/a/b/c.md",
        "archive/2023/jan.md", "archive/2024/feb.md", "doc/frotz.md", "docs/frotz/nitfol.md",
        "a/b/z.md", "a/x/y/b/z.md", "foo/bar.md", "x/foo/bar.md", "9lives/cat.md",
    ]

    /// gitignore texts: one pattern, or several lines (negation).
    static let patterns = [
        "[[:digit:]]*", "[[:upper:]]*", "[[:alpha:]]1.md", "[[:digit:][:upper:]]*", "*[[:space:]]*",
        "[[:punct:]]*", "[[:lower:]].md", "[![:alpha:]]*", "*.md", "drafts", "drafts/", "/drafts",
        "**/drafts", "notes/**", "a/**/b", "archive/*/jan.md", "archive/202[0-3]", "[!a-c]*.md",
        "[^a-c]*.md", "?.md", "\\[x\\].md", "[x].md", "a\\ b.md", "caf?.md", "caf??.md", "*/frotz",
        "doc/frotz.md", "foo/bar.md", "**/foo/bar.md", "[a-c]?.md", "star\\*.md", "q\\?.md",
        "[[:alnum:]]", "*.md\n!keep.md", "drafts/*\n!drafts/one.md", "*\n!*/\n![[:upper:]]*",
    ]

    func testPatternsSelectWhatGitCheckIgnoreSelects() throws {
        let root = try makeTempDir(self).appendingPathComponent("notes")
        for f in Self.files {
            let url = root.appendingPathComponent(f)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("# \(f)\n".utf8).write(to: url)
        }
        XCTAssertEqual(try runTool("git", ["-C", root.path, "init", "-q"]).status, 0)
        let exclude = root.appendingPathComponent(".git/info/exclude")
        let ignoreFile = root.appendingPathComponent(InputSelection.defaultIgnoreFileName)
        XCTAssertGreaterThanOrEqual(Self.patterns.count, 20)
        for text in Self.patterns {
            try Data((text + "\n").utf8).write(to: exclude)
            let r = try runTool("git", ["-C", root.path, "-c", "core.quotePath=false", "check-ignore", "--no-index", "--stdin", "-z"],
                                stdin: Data(Self.files.joined(separator: "\0").utf8 + [0]))
            XCTAssertTrue(r.status == 0 || r.status == 1, "git check-ignore: \(r.output)")
            let ignored = Set(r.output.split(separator: "\0").map(String.init))
            let expected = Self.files.filter { !ignored.contains($0) }.sorted()

            // The ignore file in the input folder.
            try Data((text + "\n").utf8).write(to: ignoreFile)
            XCTAssertEqual(scanned(root.path, InputSelection()), expected, "\(InputSelection.defaultIgnoreFileName): \(text)")
            try FileManager.default.removeItem(at: ignoreFile)

            // --exclude: one pattern, `!` taken literally.
            guard !text.contains("\n"), let pattern = GlobPattern(text, allowNegation: false) else { continue }
            XCTAssertEqual(scanned(root.path, InputSelection(exclude: [pattern])), expected, "--exclude '\(text)'")
        }
    }

    /// The input folder's notes the scan selects, relative paths sorted.
    func scanned(_ folder: String, _ selection: InputSelection) -> [String] {
        InputScanner.scan([folder], format: nil, selection: selection).files.map(\.relative).sorted()
    }

    /// The example: `--exclude '[[:digit:]]*'` excludes `1a.md` (before: nothing).
    func testPOSIXClassExcludesDigitNames() throws {
        let pattern = try XCTUnwrap(GlobPattern("[[:digit:]]*", allowNegation: false))
        XCTAssertTrue(pattern.matches("1a.md", isFolder: false))
        XCTAssertTrue(pattern.matches("notes/9lives", isFolder: true))
        XCTAssertFalse(pattern.matches("a1.md", isFolder: false))
    }
}
