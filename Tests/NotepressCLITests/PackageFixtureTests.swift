import Foundation
import XCTest
import NotepressTestSupport

/// Issue 18: Notepress as a Swift developer adopts it. Each test copies a fixture package of
/// Tests/Fixtures to a temporary folder, points its dependency at this checkout (by absolute path)
/// and runs the toolchain's `swift build` / `swift package` on it, as a user would:
///
/// - PluginUser: the `notepress` command plugin converts `docs/` into `site/`; the
///   `NotepressBuildPlugin` build-tool plugin turns `Help/*.md`, `*.note` into bundled HTML pages;
/// - LibraryUser: the README's first library example, copied from README.md, compiled and run.
///
/// SLOW: from a cold start the three tests compile this package twice (once as the host tool the
/// plugins run, once as the library), about 3–5 minutes on 2 cores. They share one scratch folder
/// that stays between runs (`.build/fixture-scratch`), so a re-run only recompiles what changed
/// (seconds). `NOTEPRESS_SKIP_FIXTURES=1` skips them while iterating on something else.
final class PackageFixtureTests: XCTestCase {
    /// The build folder the fixture builds share (`--scratch-path`).
    static let scratch = TestPaths.root.appendingPathComponent(".build/fixture-scratch")

    override func setUpWithError() throws {
        if ProcessInfo.processInfo.environment["NOTEPRESS_SKIP_FIXTURES"] == "1" {
            throw XCTSkip("NOTEPRESS_SKIP_FIXTURES=1")
        }
    }

    /// A copy of `Tests/Fixtures/NAME` in a temporary folder, depending on this checkout.
    func fixture(_ name: String) throws -> URL {
        let dir = try makeTempDir(self).appendingPathComponent(name)
        try FileManager.default.copyItem(at: TestPaths.root.appendingPathComponent("Tests/Fixtures/\(name)"), to: dir)
        let manifest = dir.appendingPathComponent("Package.swift")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        XCTAssertTrue(text.contains("@NOTEPRESS_CHECKOUT@"))
        try text.replacingOccurrences(of: "@NOTEPRESS_CHECKOUT@", with: TestPaths.root.path)
            .write(to: manifest, atomically: true, encoding: .utf8)
        return dir
    }

    /// Runs the toolchain's `swift ARGS` in `dir` with the shared scratch folder; returns the exit
    /// status and standard output and error together.
    func swift(_ args: [String], in dir: URL) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let command = args[0]
        p.arguments = ["swift", command, "--scratch-path", Self.scratch.path] + args.dropFirst()
        p.currentDirectoryURL = dir
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Runs a built product of the fixture with `args`; returns its standard output.
    func runProduct(_ name: String, _ args: [String] = []) throws -> String {
        let p = Process()
        p.executableURL = Self.scratch.appendingPathComponent("debug/\(name)")
        p.arguments = args
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "\(name) \(args)")
        return String(decoding: data, as: UTF8.self)
    }

    /// The `<article>` of a page, from its opening tag to its closing one.
    /// The page's article, its "Last updated" line (the fixture's file time: the copy's) left out.
    func article(_ page: String) -> String {
        guard let start = page.range(of: "<article class=\"note\">"), let end = page.range(of: "</article>") else { return page }
        return String(page[start.lowerBound..<end.upperBound]).split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("<p class=\"note-updated\">Last updated <time datetime=\"") }.joined(separator: "\n")
    }

    // Was: "Plugin does not have access to a tool named 'notepress'" (the plugin asked for a tool
    // its dependency, the target NotepressCLI, does not provide).
    func testCommandPluginConvertsTheDocsFolderIntoASite() throws {
        let dir = try fixture("PluginUser")
        let r = try swift(["package", "--allow-writing-to-package-directory", "notepress", "convert", "docs", "-o", "site"], in: dir)
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertTrue(r.output.contains("converted 2, skipped 0 (unchanged)"), r.output)
        let site = dir.appendingPathComponent("site")
        XCTAssertEqual(TestPaths.files(under: site).map { String($0.path.dropFirst(site.path.count + 1)) },
                       [".notepress-manifest", ".notepress-site.jsonl", "404.html", "_notepress/lunr.js", "_notepress/notepress.css",
                        "_notepress/notepress.js", "_notepress/previews/0.js", "_notepress/previews/meta.js", "_notepress/search/docs-0.js", "_notepress/search/meta.js", "_notepress/search/t-all.js",
                        "_notepress/search/text-0.js",
                        "guide.html", "index.html", "notes/todo.html", "print.html", "search.html"])
        XCTAssertEqual(article(try String(contentsOf: site.appendingPathComponent("guide.html"), encoding: .utf8)), """
            <article class="note">
            <h1 class="note-title letterpress" dir="auto">User guide</h1>
            <time class="date-badge" datetime="2024-05-01T00:00:00Z"><span class="day">1</span> <span class="month">May</span> <span class="year">2024</span></time>
            <h1 id="getting-started" dir="auto">Getting started</h1>
            <p dir="auto">Press <strong>Start</strong>, then <a href="notes/todo.html">read the notes</a>.</p>

            </article>
            """)
        XCTAssertEqual(article(try String(contentsOf: site.appendingPathComponent("notes/todo.html"), encoding: .utf8)), """
            <article class="note">
            <h1 class="note-title letterpress" dir="auto">To do</h1>
            <time class="date-badge" datetime="2024-05-02T00:00:00Z"><span class="day">2</span> <span class="month">May</span> <span class="year">2024</span></time>
            <p dir="auto">Things to do</p>
            <ol>
            <li dir="auto">Buy <strong>milk</strong></li>
            <li dir="auto">Call <em>Alice</em></li>
            </ol>

            </article>
            """)
        let index = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(index.contains(#"href="notes/todo.html">To do</a>"#), index)
        XCTAssertTrue(index.contains(#"href="guide.html">User guide</a>"#), index)

        // A failing run passes notepress's status on: an input that does not exist is exit 1.
        let bad = try swift(["package", "--allow-writing-to-package-directory", "notepress", "convert", "missing.md", "-o", "x.html"], in: dir)
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.output.contains("missing.md: error: no such file"), bad.output)
    }

    func testBuildPluginBundlesTheHelpPagesAsResources() throws {
        let dir = try fixture("PluginUser")
        let r = try swift(["build"], in: dir)
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertFalse(r.output.contains("warning:"), r.output)
        let pages = try runProduct("HelpViewer", ["welcome", "shortcuts"])
        XCTAssertTrue(pages.hasPrefix("== welcome.html\n<!DOCTYPE html>\n"), String(pages.prefix(200)))
        XCTAssertTrue(pages.contains("<title>Welcome</title>"))
        XCTAssertTrue(pages.contains("""
            <h1 id="welcome-to-the-app" dir="auto">Welcome to the app</h1>
            <p dir="auto">Tap <strong>New note</strong> to begin.</p>
            """), pages)
        XCTAssertTrue(pages.contains("== shortcuts.html\n<!DOCTYPE html>\n"))
        XCTAssertTrue(pages.contains("""
            <p dir="auto">Keyboard shortcuts</p>
            <ol>
            <li dir="auto"><strong>Cmd-N</strong> new note</li>
            </ol>
            """), pages)

        // An edited help file is converted again by the next build.
        let welcome = dir.appendingPathComponent("Sources/HelpViewer/Help/welcome.md")
        try (try String(contentsOf: welcome, encoding: .utf8)).replacingOccurrences(of: "to begin", with: "to start")
            .write(to: welcome, atomically: true, encoding: .utf8)
        let again = try swift(["build"], in: dir)
        XCTAssertEqual(again.status, 0, again.output)
        XCTAssertTrue(try runProduct("HelpViewer", ["welcome"]).contains("Tap <strong>New note</strong> to start.</p>"))
    }

    /// The heading of the README's library section; its first Swift block is the example.
    static let libraryHeading = "## The Swift library"

    func testReadmeLibraryExampleCompilesAndRuns() throws {
        let readme = try String(contentsOf: TestPaths.root.appendingPathComponent("README.md"), encoding: .utf8)
        guard let section = readme.range(of: "\n" + Self.libraryHeading + "\n") else {
            return XCTFail("README.md has no '\(Self.libraryHeading)' section")
        }
        let rest = readme[section.upperBound...]
        // The section opens with the example: only blank lines before its code block.
        guard let open = rest.range(of: "```swift\n"), rest[..<open.lowerBound].allSatisfy(\.isWhitespace),
              let close = rest[open.upperBound...].range(of: "\n```\n") else {
            return XCTFail("the library section does not open with a ```swift block")
        }
        let example = String(rest[open.upperBound..<close.lowerBound]) + "\n"
        XCTAssertTrue(example.contains("Notepress.convert("), example)

        let dir = try fixture("LibraryUser")
        try example.write(to: dir.appendingPathComponent("Sources/ReadmeExample/main.swift"), atomically: true, encoding: .utf8)
        let r = try swift(["build"], in: dir)
        XCTAssertEqual(r.status, 0, r.output)
        let output = try runProduct("ReadmeExample")
        XCTAssertTrue(output.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\" dir=\"ltr\" data-size-category=\"large\">\n"), String(output.prefix(200)))
        XCTAssertTrue(output.contains("""
            <h1 id="groceries" dir="auto">Groceries</h1>
            <ul>
            <li dir="auto"><em>milk</em></li>
            <li dir="auto">bread</li>
            </ul>
            """), output)
    }
}
