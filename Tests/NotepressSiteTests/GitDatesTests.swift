import Foundation
import XCTest
import NotepressTestSupport

/// Issue 47 item 3 and issue 46 item 6: a folder run in a git work tree dates each page by its
/// history (read with libgit2): `created` the commit that added the file (following a rename),
/// `updated` the last commit that touched it, shown as "Last updated", the sitemap's `lastmod`
/// and the feed's `updated`; front matter wins; an uncommitted edit, an untracked file and a
/// folder outside git use the file's time (capped by SOURCE_DATE_EPOCH). Real repositories, made
/// with `git` in a temporary folder with fixed commit dates and then cloned (so every file time is
/// new, as on a fresh checkout).
final class GitDatesTests: XCTestCase {
    /// Runs `git` in `dir` with a fixed identity and no user configuration; `date` fixes the
    /// author and committer dates.
    @discardableResult
    func git(_ args: [String], in dir: String, date: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let exe = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/git" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let exe else {
            XCTFail("git is not installed (make test installs it: .ci/apt-packages-test)", file: file, line: line)
            throw CocoaError(.fileNoSuchFile)
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = ["-C", dir] + args
        var env = ProcessInfo.processInfo.environment
        env["GIT_CONFIG_GLOBAL"] = "/dev/null"
        env["GIT_CONFIG_NOSYSTEM"] = "1"
        for k in ["GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"] { env[k] = "Tester" }
        for k in ["GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"] { env[k] = "tester@example.org" }
        if let date { env["GIT_AUTHOR_DATE"] = date; env["GIT_COMMITTER_DATE"] = date }
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "git \(args.joined(separator: " ")): \(text)", file: file, line: line)
        return text
    }

    /// A repository with three commits below `docs/`, cloned into `clone` (returned: the clone's
    /// `docs` folder). History: 2021-03-04 adds alpha, beta (front matter `created` and
    /// `updated`), old-name; 2022-07-08 edits alpha and renames old-name → renamed; 2023-01-02
    /// edits alpha again.
    func makeClonedRepository(_ dir: URL) throws -> String {
        let origin = dir.appendingPathComponent("origin").path
        try FileManager.default.createDirectory(atPath: origin + "/docs", withIntermediateDirectories: true)
        try git(["init", "-q", "-b", "main"], in: origin)
        try writeTestFiles([
            "docs/alpha.md": "# Alpha\n\nFirst.\n",
            "docs/beta.md": "---\ncreated: 2019-05-06\nupdated: 2019-08-09\n---\n# Beta\n\nB.\n",
            "docs/old-name.md": "# Moved\n\nM.\n",
            "outside.md": "# Not in docs\n",
        ], into: origin)
        try git(["add", "-A"], in: origin)
        try git(["commit", "-q", "-m", "one"], in: origin, date: "2021-03-04T05:06:07Z")
        try writeTestFiles(["docs/alpha.md": "# Alpha\n\nSecond.\n"], into: origin)
        try git(["mv", "docs/old-name.md", "docs/renamed.md"], in: origin)
        try git(["commit", "-q", "-a", "-m", "two"], in: origin, date: "2022-07-08T09:10:11Z")
        try writeTestFiles(["docs/alpha.md": "# Alpha\n\nThird.\n", "outside.md": "# Changed\n"], into: origin)
        try git(["commit", "-q", "-a", "-m", "three"], in: origin, date: "2023-01-02T03:04:05Z")
        let clone = dir.appendingPathComponent("clone").path
        try git(["clone", "-q", origin, clone], in: dir.path)
        return clone + "/docs"
    }

    func read(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    func testGitDatesDatePagesByTheirFirstAndLastCommit() throws {
        let dir = try makeTempDir(self)
        let docs = try makeClonedRepository(dir)
        // Uncommitted: an edit of renamed.md, a new file; SOURCE_DATE_EPOCH (2024-02-03) caps their times.
        try writeTestFiles(["renamed.md": "# Moved\n\nEdited, not committed.\n", "new.md": "# New\n"], into: docs)
        let out = dir.appendingPathComponent("out").path
        let env = ["SOURCE_DATE_EPOCH": "1706918400"]
        let r = try NotepressBinary.run(["convert", docs, "-o", out, "--base-url", "https://example.org/"], environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(r.stderr.contains("warning"), r.stderr)

        // alpha: added 2021-03-04, last changed 2023-01-02 (a commit outside docs/ does not count).
        let alpha = try read(out + "/alpha.html")
        XCTAssertTrue(alpha.contains("<time class=\"date-badge\" datetime=\"2021-03-04T05:06:07Z\">"), alpha)
        XCTAssertTrue(alpha.contains("<p class=\"note-updated\">Last updated <time datetime=\"2023-01-02T03:04:05Z\">2 Jan 2023</time></p>"), alpha)
        // beta: its front matter wins over history.
        let beta = try read(out + "/beta.html")
        XCTAssertTrue(beta.contains("datetime=\"2019-05-06T00:00:00Z\""), beta)
        XCTAssertTrue(beta.contains("Last updated <time datetime=\"2019-08-09T00:00:00Z\">9 Aug 2019</time>"), beta)
        // renamed: created by the commit that added it under its old name; edited since: the file's time.
        let renamed = try read(out + "/renamed.html")
        XCTAssertTrue(renamed.contains("<time class=\"date-badge\" datetime=\"2021-03-04T05:06:07Z\">"), renamed)
        XCTAssertTrue(renamed.contains("Last updated <time datetime=\"2024-02-03T00:00:00Z\">3 Feb 2024</time>"), renamed)
        // new: not in history: the file's time for both (no "Last updated" of the same day).
        let new = try read(out + "/new.html")
        XCTAssertTrue(new.contains("<time class=\"date-badge\" datetime=\"2024-02-03T00:00:00Z\">"), new)
        XCTAssertFalse(new.contains("Last updated"), new)

        let sitemap = try read(out + "/sitemap.xml")
        for (page, date) in [("alpha", "2023-01-02T03:04:05Z"), ("beta", "2019-08-09T00:00:00Z"), ("renamed", "2024-02-03T00:00:00Z"),
                             ("new", "2024-02-03T00:00:00Z")] {
            XCTAssertTrue(sitemap.contains("<loc>https://example.org/\(page).html</loc><lastmod>\(date)</lastmod>"), "\(page): \(sitemap)")
        }
        let feed = try read(out + "/feed.xml")
        XCTAssertTrue(feed.contains("href=\"https://example.org/alpha.html\"/>\n<updated>2023-01-02T03:04:05Z</updated>"), feed)

        // Deterministic: a second build elsewhere writes the same bytes.
        let again = dir.appendingPathComponent("again").path
        XCTAssertEqual(try NotepressBinary.run(["convert", docs, "-o", again, "-q", "--base-url", "https://example.org/"],
                                               environment: env).status, 0)
        for page in ["alpha.html", "beta.html", "renamed.html", "new.html", "sitemap.xml", "feed.xml"] {
            XCTAssertEqual(try read(out + "/" + page), try read(again + "/" + page), page)
        }

        // --no-git-dates: the clone's file times (capped), as outside git.
        let off = dir.appendingPathComponent("off").path
        XCTAssertEqual(try NotepressBinary.run(["convert", docs, "-o", off, "-q", "--no-git-dates"], environment: env).status, 0)
        let plain = try read(off + "/alpha.html")
        XCTAssertTrue(plain.contains("<time class=\"date-badge\" datetime=\"2024-02-03T00:00:00Z\">"), plain)
        XCTAssertFalse(plain.contains("Last updated"), plain)
    }

    /// Outside a git work tree the file's time is the page's last change: a note whose front
    /// matter dates it before its file was written shows the file's time as "Last updated" and
    /// `lastmod` (issue 46 item 6: "its file is newer").
    func testGitDatesWithoutRepositoryUseTheFileTime() throws {
        let site = try makeSiteFolder(self, ["index.md": "# Home\n", "old.md": "---\ncreated: 2020-01-01\n---\n# Old\n"])
        let r = try NotepressBinary.run(["convert", site.input, "-o", site.output, "-q", "--base-url", "https://example.org/"],
                                        environment: ["SOURCE_DATE_EPOCH": "1706918400"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let old = try read(site.output + "/old.html")
        XCTAssertTrue(old.contains("datetime=\"2020-01-01T00:00:00Z\""), old)
        XCTAssertTrue(old.contains("Last updated <time datetime=\"2024-02-03T00:00:00Z\">3 Feb 2024</time>"), old)
        let sitemap = try read(site.output + "/sitemap.xml")
        XCTAssertTrue(sitemap.contains("<loc>https://example.org/old.html</loc><lastmod>2024-02-03T00:00:00Z</lastmod>"), sitemap)
        XCTAssertTrue(sitemap.contains("<loc>https://example.org/index.html</loc><lastmod>2024-02-03T00:00:00Z</lastmod>"), sitemap)
    }

    /// The manifest records the HEAD the dates were read at: a re-run at the same HEAD skips
    /// every page; committing an edit that was already built (the file's bytes and time as they
    /// were) dates the page again by the new commit.
    func testGitDatesANewCommitRedatesPagesOnAnIncrementalRun() throws {
        let dir = try makeTempDir(self)
        let docs = try makeClonedRepository(dir)
        let out = dir.appendingPathComponent("out").path
        let env = ["SOURCE_DATE_EPOCH": "1706918400"]
        try writeTestFiles(["alpha.md": "# Alpha\n\nFourth.\n"], into: docs)
        XCTAssertEqual(try NotepressBinary.run(["convert", docs, "-o", out, "-q"], environment: env).status, 0)
        XCTAssertTrue(try read(out + "/alpha.html").contains("Last updated <time datetime=\"2024-02-03T00:00:00Z\">"), "uncommitted: the file's time")
        let head = try git(["rev-parse", "HEAD"], in: docs).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(try read(out + "/.notepress-manifest").contains("\nH\t" + head + "\n"))
        let same = try NotepressBinary.run(["convert", docs, "-o", out], environment: env)
        XCTAssertTrue((same.stdoutText + same.stderr).contains("converted 0, skipped 3"), same.stdoutText + same.stderr)

        try git(["commit", "-q", "-a", "-m", "four"], in: docs, date: "2025-10-11T12:13:14Z")
        let next = try NotepressBinary.run(["convert", docs, "-o", out], environment: env)
        XCTAssertTrue((next.stdoutText + next.stderr).contains("converted 1, skipped 2"), next.stdoutText + next.stderr)
        let alpha = try read(out + "/alpha.html")
        XCTAssertTrue(alpha.contains("Last updated <time datetime=\"2025-10-11T12:13:14Z\">11 Oct 2025</time>"), alpha)
        let newHead = try git(["rev-parse", "HEAD"], in: docs).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(try read(out + "/.notepress-manifest").contains("\nH\t" + newHead + "\n"))
    }

    /// A shallow clone (one commit fetched): its commit "adds" every file, so every page is dated
    /// by it, and the run says so once.
    func testGitDatesInAShallowCloneWarnOnce() throws {
        let dir = try makeTempDir(self)
        let docs = try makeClonedRepository(dir)
        let shallow = dir.appendingPathComponent("shallow").path
        try git(["clone", "-q", "--depth", "1", "file://" + (docs as NSString).deletingLastPathComponent, shallow], in: dir.path)
        let out = dir.appendingPathComponent("out").path
        let r = try NotepressBinary.run(["convert", shallow + "/docs", "-o", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr.components(separatedBy: "shallow clone").count - 1, 1, r.stderr)
        let alpha = try read(out + "/alpha.html")
        XCTAssertTrue(alpha.contains("<time class=\"date-badge\" datetime=\"2023-01-02T03:04:05Z\">"), alpha)
    }

    /// Issue 47 leftover: a sharded run (scan, `--shard K/N`, index) read no history, so its
    /// pages, table and sitemap had the clone's file times where one process had the commits'.
    /// Now scan and every shard read it: the output is byte for byte one process's (the manifest
    /// with its output times blanked, as ShardTests compares it), its HEAD line included.
    func testGitDatesInShardsAreThoseOfOneProcess() throws {
        let dir = try makeTempDir(self)
        let docs = try makeClonedRepository(dir)
        let env = ["SOURCE_DATE_EPOCH": "1706918400"]
        let common = ["-q", "--base-url", "https://example.org/", "--edit-url", "https://example.org/edit/{path}"]
        func run(_ args: [String]) throws {
            let r = try NotepressBinary.run(args + common, environment: env)
            XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)")
        }
        let one = dir.appendingPathComponent("one")
        try run(["convert", docs, "-o", one.path])
        let expected = try ShardTests.tree(one)
        XCTAssertTrue(String(decoding: expected["alpha.html"] ?? Data(), as: UTF8.self)
            .contains("Last updated <time datetime=\"2023-01-02T03:04:05Z\">"), "one process: dates from history")
        let table = dir.appendingPathComponent("table.jsonl").path
        try run(["scan", docs, "-o", table])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: table)), expected[".notepress-site.jsonl"], "scan's table")
        let shards = dir.appendingPathComponent("shards")
        for k in 1...2 { try run(["convert", docs, "-o", shards.path, "--site-table", table, "--shard", "\(k)/2"]) }
        try run(["index", shards.path, "--site-table", table])
        let got = try ShardTests.tree(shards)
        XCTAssertEqual(got.keys.sorted(), expected.keys.sorted())
        for (k, v) in expected.sorted(by: { $0.key < $1.key }) where got[k] != v {
            XCTFail("\(k) differs from the one-process run:\n\(String(decoding: got[k] ?? Data(), as: UTF8.self).prefix(3000))")
        }
        let head = try git(["rev-parse", "HEAD"], in: docs).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(String(decoding: got[".notepress-manifest"] ?? Data(), as: UTF8.self).contains("\nH\t" + head + "\n"))
    }

    /// Issue 47 item 3 ("used by the notes list order"): `--list-order updated` sorts the notes
    /// list newest first by each page's last update (front matter, else its last commit) and shows
    /// that date; by default it sorts by the page's date (its first commit).
    func testListOrderUpdatedSortsTheNotesListByLastUpdate() throws {
        let dir = try makeTempDir(self)
        let docs = try makeClonedRepository(dir)
        // renamed.md last changed by a commit of 2024-05-06 (alpha's last is 2023-01-02).
        try writeTestFiles(["renamed.md": "# Moved\n\nM, edited.\n"], into: docs)
        try git(["commit", "-q", "-a", "-m", "four"], in: docs, date: "2024-05-06T07:08:09Z")
        func listed(_ extra: [String]) throws -> [String] {
            let out = dir.appendingPathComponent("out\(extra.count)").path
            let r = try NotepressBinary.run(["convert", docs, "-o", out, "-q"] + extra)
            XCTAssertEqual(r.status, 0, r.stderr)
            let html = try read(out + "/index.html")
            return html.components(separatedBy: "<li class=\"index-entry\"").dropFirst().map { entry in
                let title = entry.components(separatedBy: "\">").dropFirst().first?.prefix { $0 != "<" } ?? ""
                let date = entry.components(separatedBy: "datetime=\"").dropFirst().first?.prefix(10) ?? ""
                return "\(title) \(date)"
            }
        }
        // Dates: alpha and renamed were added on 2021-03-04 (ties by title), beta's front matter says 2019-05-06.
        XCTAssertEqual(try listed([]), ["Alpha 2021-03-04", "Moved 2021-03-04", "Beta 2019-05-06"])
        // Last updates: renamed 2024-05-06, alpha 2023-01-02, beta's front matter `updated` 2019-08-09.
        XCTAssertEqual(try listed(["--list-order", "updated"]), ["Moved 2024-05-06", "Alpha 2023-01-02", "Beta 2019-08-09"])
    }
}
