import Foundation
import XCTest
import NotepressTestSupport
import NotepressServe

/// `notepress serve` through the user's door (issue 35): the real binary on a free port of
/// 127.0.0.1, requests through curl, edits written to the note folder as an editor writes them.
final class ServeTests: XCTestCase {
    static let site: [String: String] = [
        "index.md": "# Home\n\nSee [[other]] and ![a picture](pic.png).\n",
        "other.md": "# Other\n\nFirst text.\n",
        "sub/deep.md": "# Deep\n\nDown below.\n",
        "pic.png": "\u{89}PNG\r\n\u{1A}\n",
        "drawing.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n",
        "photo.jpg": "\u{FF}\u{D8}\u{FF}",
        "face.woff2": "wOF2",
        "style.css": "body { color: red }\n",
        "app.js": "console.log(1)\n",
    ]

    func serve(_ files: [String: String] = site, _ extra: [String] = ["--copy-all"]) throws -> (ServedSite, String, String) {
        let (input, output, _) = try makeSiteFolder(self, files)
        let s = try ServedSite([input, "-o", output, "-q"] + extra)
        addTeardownBlock { _ = s.stop(SIGKILL) }
        return (s, input, output)
    }

    /// Writes `text` to `path` as editors save: a temporary file beside it, renamed over it.
    func save(_ path: String, _ text: String) throws {
        let tmp = (path as NSString).deletingLastPathComponent + "/.\((path as NSString).lastPathComponent).swp"
        try Data(text.utf8).write(to: URL(fileURLWithPath: tmp))
        XCTAssertEqual(rename(tmp, path), 0)
    }

    func testPagesAssetsFoldersAndMissingPathsAnswerWithTheirStatusAndType() throws {
        let (s, _, output) = try serve()
        let expect: [(String, Int, String)] = [
            ("/", 200, "text/html; charset=utf-8"), ("/index.html", 200, "text/html; charset=utf-8"),
            ("/other.html", 200, "text/html; charset=utf-8"), ("/sub/deep.html", 200, "text/html; charset=utf-8"),
            ("/pic.png", 200, "image/png"), ("/drawing.svg", 200, "image/svg+xml"), ("/photo.jpg", 200, "image/jpeg"),
            ("/face.woff2", 200, "font/woff2"), ("/style.css", 200, "text/css; charset=utf-8"),
            ("/app.js", 200, "text/javascript; charset=utf-8"), ("/nothing-here.html", 404, "text/html; charset=utf-8"),
        ]
        for (path, status, type) in expect {
            let r = try s.get(path)
            XCTAssertEqual(r.status, status, path)
            XCTAssertEqual(r.type, type, path)
        }
        XCTAssertTrue(try s.get("/other.html").body.contains("First text."))
        // A folder without its slash is redirected; with it, its index.html; no listing ever.
        XCTAssertEqual(try s.get("/sub").status, 301)
        XCTAssertTrue(try s.get("/sub").headers.contains("Location: /sub/"))
        XCTAssertEqual(try s.get("/sub/").status, 404, "a folder without index.html is not listed")
        XCTAssertFalse(try s.get("/sub/").body.contains("deep.html"))
        try Data("<html><body><p>custom missing page</p></body></html>\n".utf8).write(to: URL(fileURLWithPath: output + "/sub/index.html"))
        XCTAssertTrue(try s.get("/sub/").body.contains("custom missing page"))
        // The site's own 404 page, with status 404.
        try Data("<html><body><p>site 404 page</p></body></html>\n".utf8).write(to: URL(fileURLWithPath: output + "/404.html"))
        let missing = try s.get("/no/such/page.html")
        XCTAssertEqual(missing.status, 404)
        XCTAssertTrue(missing.body.contains("site 404 page"))
        // Methods other than GET and HEAD.
        let post = try s.get("/", ["-X", "POST", "-d", "x=1"])
        XCTAssertEqual(post.status, 405)
        XCTAssertTrue(post.headers.contains("Allow: GET, HEAD"))
    }

    func testHeadAndConditionalGet() throws {
        let (s, _, _) = try serve()
        let get = try s.get("/pic.png")
        let head = try s.get("/pic.png", ["-I"])
        XCTAssertEqual(head.status, 200)
        XCTAssertFalse(head.body.contains("PNG"), "HEAD has no body")
        XCTAssertTrue(head.headers.contains("Content-Length: 9\r\n"), head.headers)
        XCTAssertEqual(get.headers.contains("Content-Length: 9\r\n"), true)
        func header(_ r: ServedSite.Response, _ name: String) -> String? {
            r.headers.split(separator: "\r\n").first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
                .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
        }
        let etag = try XCTUnwrap(header(get, "ETag"))
        let modified = try XCTUnwrap(header(get, "Last-Modified"))
        XCTAssertEqual(try s.get("/pic.png", ["-H", "If-None-Match: \(etag)"]).status, 304)
        XCTAssertEqual(try s.get("/pic.png", ["-H", "If-None-Match: \"other\""]).status, 200)
        XCTAssertEqual(try s.get("/pic.png", ["-H", "If-Modified-Since: \(modified)"]).status, 304)
        let page = try s.get("/other.html")
        let pageTag = try XCTUnwrap(header(page, "ETag"))
        XCTAssertEqual(try s.get("/other.html", ["-H", "If-None-Match: \(pageTag)"]).status, 304)
        XCTAssertFalse(try s.get("/other.html", ["-I"]).body.contains("<html"))
    }

    func testPathTraversalAndHiddenFilesAreRefused() throws {
        let (s, _, output) = try serve()
        try FileManager.default.createSymbolicLink(atPath: output + "/etc", withDestinationPath: "/etc")
        try Data("secret\n".utf8).write(to: URL(fileURLWithPath: (output as NSString).deletingLastPathComponent + "/outside.txt"))
        try FileManager.default.createSymbolicLink(atPath: output + "/outside.txt", withDestinationPath: "../outside.txt")
        let attempts = ["/../etc/passwd", "/../../../../etc/passwd", "/sub/../../outside.txt", "/%2e%2e/outside.txt",
                        "/%2E%2E/%2E%2E/etc/passwd", "/..%2foutside.txt", "/sub%2f..%2f..%2foutside.txt", "/%2e%2e%2foutside.txt",
                        "/etc/passwd", "/outside.txt", "/other.html%00.png", "/%00", "/..%5coutside.txt", "/.notepress-manifest",
                        "/.notepress-site.jsonl", "/%2enotepress-manifest", "/sub/%2e/deep.html", "/%zz", "/%4"]
        for a in attempts {
            let r = try s.get(a)
            XCTAssertTrue([400, 404].contains(r.status), "\(a): \(r.status)")
            XCTAssertFalse(r.body.contains("root:") || r.body.contains("secret") || r.body.contains("\"entries\""), a)
        }
        XCTAssertEqual(try s.get("/other.html%00.png").status, 400)
        XCTAssertEqual(try s.get("/..%2foutside.txt").status, 404)
        // A plain percent-escape of an ordinary name still works.
        XCTAssertEqual(try s.get("/%6fther.html").status, 200)
        // Bounds: a URL or headers past 32 KiB are refused; the server goes on answering.
        let long = try s.get("/" + String(repeating: "a", count: 40_000))
        XCTAssertTrue([400, 414, 431].contains(long.status), "long URL: \(long.status)")
        let big = try s.get("/", ["-H", "X-Big: " + String(repeating: "b", count: 40_000)])
        XCTAssertTrue([400, 413, 431].contains(big.status), "big header: \(big.status)")
        XCTAssertEqual(try s.get("/other.html").status, 200)
    }

    /// The edits are served and announced; every wait is for the event itself, with a bound
    /// (60 s) that only a hung server reaches: a loaded machine may be slow, never wrong.
    func testEditIsServedAndAnnouncedOnTheEventStream() throws {
        let (s, input, _) = try serve()
        let stream = try EventStreamReader(s.url, seconds: 600)
        XCTAssertTrue(stream.waitFor("event: build\ndata: ", seconds: 60), stream.text)
        try save(input + "/other.md", "# Other\n\nSecond text.\n")
        let t = try s.waitFor("/other.html", seconds: 60) { $0.body.contains("Second text.") }
        XCTAssertNotNil(t, "the edit was not served")
        XCTAssertTrue(stream.waitFor("event: reload\ndata: ", seconds: 60), stream.text)
        // A new note, in a new folder; a deleted note; a renamed one.
        try FileManager.default.createDirectory(atPath: input + "/fresh/er", withIntermediateDirectories: true)
        try save(input + "/fresh/er/new.md", "# New\n\nBrand new.\n")
        XCTAssertNotNil(try s.waitFor("/fresh/er/new.html", seconds: 60) { $0.status == 200 && $0.body.contains("Brand new.") })
        try FileManager.default.moveItem(atPath: input + "/fresh/er/new.md", toPath: input + "/fresh/er/renamed.md")
        XCTAssertNotNil(try s.waitFor("/fresh/er/renamed.html", seconds: 60) { $0.status == 200 })
        // The old name is gone, not served from the last build (new-user try-out).
        XCTAssertEqual(try s.get("/fresh/er/new.html").status, 404)
        try FileManager.default.moveItem(atPath: input + "/fresh", toPath: input + "/moved")
        XCTAssertNotNil(try s.waitFor("/moved/er/renamed.html", seconds: 60) { $0.status == 200 })
        try save(input + "/moved/er/renamed.md", "# Renamed\n\nEdited in a moved folder.\n")
        XCTAssertNotNil(try s.waitFor("/moved/er/renamed.html", seconds: 60) { $0.body.contains("Edited in a moved folder.") })
        // The notes list follows (deleted note gone from it).
        XCTAssertTrue(try s.get("/notes-index.html").body.contains("deep.html"))
        try FileManager.default.removeItem(atPath: input + "/sub/deep.md")
        XCTAssertNotNil(try s.waitFor("/notes-index.html", seconds: 60) { !$0.body.contains("deep.html") && $0.body.contains("renamed.html") })
        // A burst of saves: one rebuild. Builds are counted by the generation the served page
        // carries (each build that wrote something takes the next one), read once the last save
        // is served, so no build of the burst is still to come. The watcher ends a burst after
        // SiteWatcher.quietMilliseconds without an event (or maxDelayMilliseconds after its
        // first): a save the machine delayed that long may start a build of its own, so each
        // such pause (measured here, on the monotonic clock) allows one more.
        let before = try generation(of: s.get("/other.html").body)
        var marks: [UInt64] = []
        for i in 0..<20 {
            try save(input + "/other.md", "# Other\n\nBurst \(i).\n")
            marks.append(DispatchTime.now().uptimeNanoseconds)
        }
        let quiet = UInt64(SiteWatcher.quietMilliseconds) * 1_000_000 * 8 / 10
        let pauses = zip(marks, marks.dropFirst()).filter { $1 - $0 >= quiet }.count
            + Int(Double(marks.last! - marks.first!) / 1e6 / SiteWatcher.maxDelayMilliseconds)
        XCTAssertNotNil(try s.waitFor("/other.html", seconds: 60) { $0.body.contains("Burst 19.") })
        let after = try generation(of: s.get("/other.html").body)
        XCTAssertTrue(stream.waitFor("event: reload\ndata: \(after)\n", seconds: 60), stream.text)
        let builds = after - before
        XCTAssertGreaterThanOrEqual(builds, 1)
        XCTAssertLessThanOrEqual(builds, 3 + pauses, "20 saves (\(pauses) pauses longer than a burst's end) took \(builds) rebuilds")
    }

    /// The `data-generation` of the live-reload script a served page carries.
    func generation(of page: String) throws -> Int {
        let r = try XCTUnwrap(page.range(of: #"data-generation="[0-9]+""#, options: .regularExpression), page)
        return try XCTUnwrap(Int(page[r].dropFirst("data-generation=\"".count).dropLast()))
    }

    func testServedPagesCarryTheScriptButFilesOnDiskAreConvertsBytes() throws {
        let (s, input, output) = try serve()
        let fresh = (output as NSString).deletingLastPathComponent + "/fresh"
        let r = try NotepressBinary.run(["convert", input, "-o", fresh, "-q", "--copy-all"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let names = (FileManager.default.enumerator(atPath: fresh)?.allObjects as? [String] ?? [])
            .filter { !$0.hasPrefix(".notepress") && !(($0 as NSString).lastPathComponent.hasPrefix(".")) }
        XCTAssertGreaterThan(names.count, 5)
        for n in names where FileManager.default.contents(atPath: fresh + "/" + n) != nil {
            var isDir: ObjCBool = false
            FileManager.default.fileExists(atPath: fresh + "/" + n, isDirectory: &isDir)
            if isDir.boolValue { continue }
            XCTAssertEqual(FileManager.default.contents(atPath: output + "/" + n), FileManager.default.contents(atPath: fresh + "/" + n), n)
        }
        let disk = try String(contentsOfFile: output + "/other.html", encoding: .utf8)
        let served = try s.get("/other.html").body
        XCTAssertFalse(disk.contains("__notepress"))
        XCTAssertTrue(served.contains("<script src=\"/__notepress/live.js\""))
        let script = try XCTUnwrap(served.range(of: #"<script src="/__notepress/live\.js" data-generation="[0-9]+"></script>\n"#, options: .regularExpression))
        XCTAssertEqual(served.replacingCharacters(in: script, with: ""), disk, "the script is the only difference")
        XCTAssertEqual(try s.get("/pic.png").body.utf8.count, FileManager.default.contents(atPath: output + "/pic.png")?.count)
        let js = try s.get("/__notepress/live.js")
        XCTAssertEqual(js.status, 200)
        XCTAssertTrue(js.body.contains("EventSource"))
    }

    func testBadNoteShowsItsErrorOverThePageUntilFixed() throws {
        let (s, input, _) = try serve()
        var bad = Data("# Bad\n\nab".utf8)
        bad.append(0xFF)
        bad.append(contentsOf: Array("cd\n".utf8))
        try bad.write(to: URL(fileURLWithPath: input + "/bad.md"))
        XCTAssertNotNil(try s.waitFor("/other.html", seconds: 60) { $0.body.contains("notepress-error-overlay") }, s.stderr)
        let page = try s.get("/other.html").body
        XCTAssertTrue(page.contains("bad.md:3:3: error: invalid UTF-8"), page)
        XCTAssertTrue(s.stderr.contains("bad.md:3:3: error: invalid UTF-8"), "and on the terminal: \(s.stderr)")
        // The server goes on; the fix takes the overlay away.
        try save(input + "/bad.md", "# Bad no more\n")
        XCTAssertNotNil(try s.waitFor("/other.html", seconds: 60) { !$0.body.contains("notepress-error-overlay") })
        XCTAssertEqual(try s.get("/bad.html").status, 200)
    }

    func testTemplateGivenOnTheCommandLineIsWatched() throws {
        let (input, output, dir) = try makeSiteFolder(self, ["a.md": "# A\n\nText.\n"])
        let template = dir + "/page.html"
        try Data("<html><body><p>template one</p>{{{body}}}</body></html>\n".utf8).write(to: URL(fileURLWithPath: template))
        let s = try ServedSite([input, "-o", output, "-q", "--template", template])
        addTeardownBlock { _ = s.stop(SIGKILL) }
        XCTAssertTrue(try s.get("/a.html").body.contains("template one"))
        try save(template, "<html><body><p>template two</p>{{{body}}}</body></html>\n")
        XCTAssertNotNil(try s.waitFor("/a.html", seconds: 60) { $0.body.contains("template two") })
        // A template that no longer compiles: its error over the page, file:line:column.
        try save(template, "<html><body>{{#open}}</body></html>\n")
        XCTAssertNotNil(try s.waitFor("/a.html", seconds: 60) { $0.body.contains("notepress-error-overlay") && $0.body.contains("page.html:1:") })
        try save(template, "<html><body><p>template three</p>{{{body}}}</body></html>\n")
        XCTAssertNotNil(try s.waitFor("/a.html", seconds: 60) { $0.body.contains("template three") && !$0.body.contains("notepress-error-overlay") })
    }

    func testInterruptStopsWithStatusZeroAndLeavesNothingBehind() throws {
        // Without -o: a temporary folder, removed on stop.
        let (input, _, _) = try makeSiteFolder(self, Self.site)
        let s = try ServedSite([input])
        let out = try XCTUnwrap(s.folder)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/index.html"), out)
        XCTAssertEqual(s.stop(SIGINT), 0, s.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), "the temporary output folder is left: \(out)")
        // With -o, SIGTERM in the middle of rebuilds: status 0, no temporaries.
        let (input2, output2, _) = try makeSiteFolder(self, Self.site)
        let t = try ServedSite([input2, "-o", output2, "-q"])
        for i in 0..<30 { try save(input2 + "/other.md", "# Other\n\n" + String(repeating: "Text \(i). ", count: 2000) + "\n") }
        XCTAssertEqual(t.stop(SIGTERM), 0, t.stderr)
        XCTAssertEqual(temporaries(below: output2), [])
        XCTAssertTrue(FileManager.default.fileExists(atPath: output2 + "/index.html"))
    }

    func testFiftyParallelClientsWhileSavingAreAllAnswered() throws {
        let (s, input, _) = try serve()
        // Ten open pages (event streams) besides.
        let streams = try (0..<10).map { _ in try EventStreamReader(s.url, seconds: 600) }
        let script = """
        for i in $(seq 1 50); do curl -s --max-time 100 -o /dev/null -w '%{http_code}\\n' '\(s.url)other.html' & done; wait
        """
        let box = DataBox()
        let t = Thread { box.data = Data(((try? runTool("sh", ["-c", script]))?.output ?? "").utf8) }
        t.start()
        for i in 0..<10 { try save(input + "/other.md", "# Other\n\nParallel \(i).\n"); usleep(20_000) }
        XCTAssertNotNil(try s.waitFor("/other.html", seconds: 60) { $0.body.contains("Parallel 9.") }, "the rebuild was stalled")
        let deadline = Date(timeIntervalSinceNow: 120)
        while box.data == nil && Date() < deadline { usleep(20_000) }
        let codes = String(decoding: box.data ?? Data(), as: UTF8.self).split(separator: "\n")
        XCTAssertEqual(codes.count, 50)
        XCTAssertEqual(codes.filter { $0 == "200" }.count, 50, codes.joined(separator: " "))
        // Each open page is told (the event is waited for, not assumed to have arrived).
        XCTAssertTrue(streams.allSatisfy { $0.waitFor("event: reload", seconds: 60) })
    }

    func testPortHostAndUsage() throws {
        let help = try NotepressBinary.run(["serve", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdoutText.contains("port 8470"), help.stdoutText)
        let (input, output, _) = try makeSiteFolder(self, ["a.md": "# A\n"])
        XCTAssertEqual(try NotepressBinary.run(["serve", input, "-o", output, "--port", "70000"]).status, 2)
        XCTAssertEqual(try NotepressBinary.run(["serve", input + "/a.md"]).status, 2)
        let s = try ServedSite([input, "-o", output, "--host", "0.0.0.0"])
        XCTAssertEqual(try s.get("/a.html").status, 200)
        let warned = Date(timeIntervalSinceNow: 60)
        while !s.stderr.contains("warning: listening on 0.0.0.0") && Date() < warned { usleep(20_000) }
        XCTAssertTrue(s.stderr.contains("warning: listening on 0.0.0.0, not a loopback address"), s.stderr)
        XCTAssertEqual(s.stop(), 0)
        // A port in use: exit 1 with a message.
        let first = try ServedSite([input, "-o", output, "-q"])
        let port = try XCTUnwrap(first.url.split(separator: ":").last.map { String($0.dropLast()) })
        let second = try NotepressBinary.run(["serve", input, "-o", output + "2", "-q", "--port", port])
        XCTAssertEqual(second.status, 1, second.stderr)
        XCTAssertTrue(second.stderr.contains("cannot listen"), second.stderr)
        XCTAssertEqual(first.stop(), 0)
    }

    /// libmicrohttpd is loaded by `serve` alone (linked, it and its nine libraries cost every run
    /// ~1.5 ms of start-up): `convert` never maps it, and where it cannot be loaded `serve` says
    /// so in one line and exits 1, nothing served.
    func testServerLibraryIsLoadedByServeAloneAndItsAbsenceIsOneClearError() throws {
        let (input, output, _) = try makeSiteFolder(self, ["a.md": "# A\n"])
        let convert = try NotepressBinary.run(["convert", input, "-o", output, "-q"], environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(convert.status, 0, convert.stderr)
        XCTAssertTrue(convert.stderr.contains("libcmark-gfm"), "LD_DEBUG lists the libraries loaded")
        XCTAssertFalse(convert.stderr.contains("microhttpd"), "convert loaded libmicrohttpd")
        let missing = try NotepressBinary.run(["serve", input, "-o", output + "2", "-q", "--port", "0"],
                                              environment: ["NOTEPRESS_LIBMICROHTTPD": "/nonexistent/libmicrohttpd.so.12"])
        XCTAssertEqual(missing.status, 1, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("GNU libmicrohttpd (libmicrohttpd12), the HTTP server of notepress serve, cannot be loaded: /nonexistent/libmicrohttpd.so.12"),
                      missing.stderr)
        XCTAssertEqual(missing.stderr.split(separator: "\n").filter { $0.contains("libmicrohttpd") }.count, 1, missing.stderr)
    }
}

final class ConvertWatchTests: XCTestCase {
    func testConvertWatchConvertsAgainOnSaveAndStopsWithZero() throws {
        let (input, output, _) = try makeSiteFolder(self, ["a.md": "# A\n\nOne.\n", "b.note": "*bold*\n"])
        let p = Process()
        p.executableURL = NotepressBinary.url
        p.arguments = ["convert", input, "-o", output, "-t", "html,ansi", "-q", "--watch"]
        p.standardError = FileHandle.nullDevice
        try p.run()
        addTeardownBlock { if p.isRunning { kill(p.processIdentifier, SIGKILL) } }
        func waitFor(_ path: String, _ needle: String, seconds: Double) -> Bool {
            let deadline = Date(timeIntervalSinceNow: seconds)
            while Date() < deadline {
                if let d = FileManager.default.contents(atPath: path), String(decoding: d, as: UTF8.self).contains(needle) { return true }
                usleep(20_000)
            }
            return false
        }
        XCTAssertTrue(waitFor(output + "/a.ans", "One.", seconds: 60))
        try Data("# A\n\nTwo.\n".utf8).write(to: URL(fileURLWithPath: input + "/a.md"))
        XCTAssertTrue(waitFor(output + "/a.ans", "Two.", seconds: 60))
        XCTAssertTrue(waitFor(output + "/a.html", "Two.", seconds: 60))
        XCTAssertFalse(String(decoding: FileManager.default.contents(atPath: output + "/a.html") ?? Data(), as: UTF8.self).contains("__notepress"))
        try Data("# C\n".utf8).write(to: URL(fileURLWithPath: input + "/c.md"))
        XCTAssertTrue(waitFor(output + "/c.ans", "C", seconds: 60))
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        XCTAssertEqual(p.terminationReason, .exit)
        XCTAssertEqual(temporaries(below: output), [])
    }
}

/// `convert book/ -o book.epub --watch` (and several files) wrote a site folder named `book.epub`:
/// a watching run of one book rebuilds the book, a file.
final class ConvertWatchBookTests: XCTestCase {
    func testWatchingABookRebuildsTheEPUBFile() throws {
        let (input, _, dir) = try makeSiteFolder(self, ["a.md": "# A\n\nOne.\n", "b.md": "# B\n"])
        let out = dir + "/book.epub"
        let p = Process()
        p.executableURL = NotepressBinary.url
        p.arguments = ["convert", input + "/a.md", input + "/b.md", "-o", out, "-q", "--watch"]
        p.standardError = FileHandle.nullDevice
        try p.run()
        addTeardownBlock { if p.isRunning { kill(p.processIdentifier, SIGKILL) } }
        func waitFor(_ needle: String, seconds: Double) -> Bool {
            let deadline = Date(timeIntervalSinceNow: seconds)
            while Date() < deadline {
                // Written atomically: once there, a whole book.
                if let text = try? EPUBSupport.entry(out, "EPUB/ch001.xhtml"),
                   text.contains(needle) { return true }
                usleep(200_000)
            }
            return false
        }
        let deadline = Date(timeIntervalSinceNow: 60)
        while !FileManager.default.fileExists(atPath: out) && Date() < deadline { usleep(100_000) }
        var isFolder: ObjCBool = false
        XCTAssertTrue(FileManager.default.fileExists(atPath: out, isDirectory: &isFolder))
        guard !isFolder.boolValue else { return XCTFail("\(out) is a folder, not a book") }
        XCTAssertTrue(waitFor("One.", seconds: 60))
        try Data("# A\n\nTwo.\n".utf8).write(to: URL(fileURLWithPath: input + "/a.md"))
        XCTAssertTrue(waitFor("Two.", seconds: 60))
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
    }
}

/// The request-path fuzzer of `make fuzz-serve` (.ci/fuzz-serve.py), a few seconds on fixed seeds
/// against the debug binary: it runs, and finds nothing (nothing outside the output, always an
/// answer, no crash, exit 0 on SIGINT).
final class FuzzServeTests: XCTestCase {
    func testFixedSeedsFindNothing() throws {
        for seed in ["1", "35"] {
            let r = try runTool("python3", [TestPaths.root.appendingPathComponent(".ci/fuzz-serve.py").path, "--seconds", "5",
                                            "--seed", seed, "--binary", NotepressBinary.url.path])
            XCTAssertEqual(r.status, 0, r.output)
            XCTAssertTrue(r.output.contains("0 problem(s)"), r.output)
            let count = r.output.range(of: #"([0-9]+) requests"#, options: .regularExpression).map { Int(r.output[$0].split(separator: " ")[0]) ?? 0 } ?? 0
            XCTAssertGreaterThan(count, 100, r.output)
        }
    }
}
