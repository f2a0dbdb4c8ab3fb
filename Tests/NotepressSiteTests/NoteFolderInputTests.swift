import Foundation
import XCTest
import NotepressTestSupport

/// Issue 21: note folders as people have them, through the real binary. Extension-less cheat
/// sheets with `-f`, `--include`/`--exclude` and `.notepressignore`, TiddlyWiki `.tid` notes,
/// UTF-16 with a byte order mark, `--encoding`, and `--hashtags`. Every test checks what was
/// written, not only the exit status.
final class NoteFolderInputTests: XCTestCase {
    let notes = TestPaths.corpus.appendingPathComponent("notes")

    func write(_ text: String, _ path: String, in dir: URL) throws {
        try writeTestFile(text, path, in: dir)
    }

    func json(_ url: URL) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    /// Output files below `dir` relative to it, without the index page, the manifest and the
    /// site's shared files (`_notepress/`, `search.html`, `404.html`, `print.html`).
    func outputs(_ dir: URL) -> [String] {
        TestPaths.files(under: dir).map { String($0.path.dropFirst(dir.path.count + 1)) }
            .filter { $0 != "index.html" && !$0.hasSuffix("/index.html") && !$0.contains(".notepress") }
            .filter { !$0.hasPrefix("_notepress/") && $0 != "search.html" && $0 != "404.html" && $0 != "print.html" }.sorted()
    }

    // MARK: -f on a folder

    /// The report: a folder of cheat sheets without extensions converted 0 files with
    /// `-f note` ("skipped 279 (unknown kind)"). Now `-f` reads every regular text file; a binary
    /// file (NUL in its first block) is skipped and counted, a UTF-16 file with a BOM is text.
    func testExtensionlessCheatSheetsConvertWithFromNote() throws {
        let dir = try makeTempDir(self)
        let cheats = dir.appendingPathComponent("cheats")
        try FileManager.default.createDirectory(at: cheats, withIntermediateDirectories: true)
        for name in ["git", "tar", "kitty"] {  // as cheat/cheatsheets names them: no extension
            try FileManager.default.copyItem(at: notes.appendingPathComponent("cheat__\(name).txt"),
                                             to: cheats.appendingPathComponent(name))
        }
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D]).write(to: cheats.appendingPathComponent("logo.png"))
        try Data([0xFF, 0xFE] + Array("Saved by Notepad: café\n".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
            .write(to: cheats.appendingPathComponent("notepad"))
        let out = dir.appendingPathComponent("out")

        // Without -f nothing there is a kind we read (the bug's behaviour, still right without -f).
        let before = try NotepressBinary.run(["convert", cheats.path, "-o", out.path, "-t", "html"])
        XCTAssertEqual(before.status, 0, before.stderr)
        XCTAssertTrue(before.stderr.contains("converted 0, skipped 0 (unchanged), skipped 5 (unknown kind), failed 0"), before.stderr)

        let r = try NotepressBinary.run(["convert", cheats.path, "-o", out.path, "-t", "html,json", "-f", "note"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("converted 4, skipped 0 (unchanged), skipped 0 (unknown kind), skipped 1 (binary), failed 0"),
                      r.stderr)
        XCTAssertEqual(outputs(out), ["git.html", "git.json", "kitty.html", "kitty.json", "notepad.html", "notepad.json",
                                      "tags/compression.html", "tags/kitty.html", "tags/vcs.html", "tar.html", "tar.json"])
        // The cheat sheet's YAML front matter is its metadata; its lines are note markup.
        let git = try json(out.appendingPathComponent("git.json"))
        let meta = try XCTUnwrap(git["metadata"] as? [String: Any])
        XCTAssertEqual(meta["title"] as? String, "git")
        XCTAssertEqual(meta["tags"] as? [String], ["vcs"])
        XCTAssertEqual(meta["sourceFormat"] as? String, "note")
        let first = try XCTUnwrap((git["children"] as? [[String: Any]])?.first)
        XCTAssertEqual(first["position"] as? String, "4:1")
        let inlines = try XCTUnwrap(first["inlines"] as? [[String: Any]])
        XCTAssertEqual(inlines.compactMap { $0["text"] as? String },
                       ["# To set your identity:", "git config --global user.name <name>", "git config --global user.email <email>"])
        let tar = try String(contentsOf: out.appendingPathComponent("tar.html"), encoding: .utf8)
        XCTAssertTrue(tar.contains("<p dir=\"auto\"># To extract an uncompressed archive:<br />\ntar -xvf /path/to/foo.tar</p>"), tar)
        let notepad = try String(contentsOf: out.appendingPathComponent("notepad.html"), encoding: .utf8)
        XCTAssertTrue(notepad.contains("<p dir=\"auto\">Saved by Notepad: café</p>"), notepad)

        // --verbose names the binary file.
        let verbose = try NotepressBinary.run(["convert", cheats.path, "-o", out.path, "-f", "note", "--force", "-v"])
        XCTAssertTrue(verbose.stderr.contains("skipped \(cheats.path)/logo.png: binary (a NUL byte in its first 8000 bytes)"),
                      verbose.stderr)
    }

    // MARK: --include, --exclude, .notepressignore

    func makeIgnoreTree(_ dir: URL) throws -> URL {
        let tree = dir.appendingPathComponent("notes")
        try write("# A\n", "a.md", in: tree)
        try write("# B\n", "b.md", in: tree)
        try write("# Draft\n", "drafts/c.md", in: tree)
        try write("# Old\n", "archive/old.md", in: tree)
        try write("# Recent\n", "archive/recent.md", in: tree)
        try write("# Readme\n\nplain *text*\n", "plain/readme", in: tree)
        try write("keep *me*\n", "keep.txt", in: tree)
        try write("scratch\n", "scratch.txt", in: tree)
        try write("# comments and blank lines are skipped\n\ndrafts/\n*.txt\n!keep.txt\n", ".notepressignore", in: tree)
        try write("old.md\n", "archive/.notepressignore", in: tree)
        return tree
    }

    /// The ignore files (one at the top, one below, `!` re-including) leave files out; a file
    /// without an extension is still unknown without -f or --include.
    func testIgnoreFilesLeaveFilesOut() throws {
        let dir = try makeTempDir(self)
        let tree = try makeIgnoreTree(dir)
        let out = dir.appendingPathComponent("out")
        let r = try NotepressBinary.run(["convert", tree.path, "-o", out.path, "-t", "html"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("converted 4, skipped 0 (unchanged), skipped 1 (unknown kind), failed 0"), r.stderr)
        XCTAssertEqual(outputs(out), ["a.html", "archive/recent.html", "b.html", "keep.html"])
        let keep = try String(contentsOf: out.appendingPathComponent("keep.html"), encoding: .utf8)
        XCTAssertTrue(keep.contains("<p dir=\"auto\">keep <strong>me</strong></p>"), keep)
    }

    /// `--include` chooses files whatever their extension and over the ignore files (but not
    /// inside an ignored folder, which is not walked); `--exclude` wins over both.
    func testIncludeAndExcludeChooseFiles() throws {
        let dir = try makeTempDir(self)
        let tree = try makeIgnoreTree(dir)
        let out = dir.appendingPathComponent("out")
        let r = try NotepressBinary.run(["convert", tree.path, "-o", out.path, "-t", "html",
                                         "--include", "*.md", "--include", "plain/*", "--exclude", "b.md", "--exclude=recent.*"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("converted 3, skipped 0 (unchanged), skipped 0 (unknown kind), failed 0"), r.stderr)
        // plain/readme is its folder's index page: plain/index.html (left out of outputs()).
        XCTAssertEqual(outputs(out), ["a.html", "archive/old.html"])
        // Chosen by --include without -f: read as Markdown (GFM), as a file given by name is.
        let readme = try String(contentsOf: out.appendingPathComponent("plain/index.html"), encoding: .utf8)
        XCTAssertTrue(readme.contains("<h1 id=\"readme\" dir=\"auto\">Readme</h1>\n<p dir=\"auto\">plain <em>text</em></p>"), readme)

        // A folder pattern (trailing /) and ** patterns.
        let out2 = dir.appendingPathComponent("out2")
        let r2 = try NotepressBinary.run(["convert", tree.path, "-o", out2.path, "-t", "html", "-f", "note",
                                          "--exclude", "archive/", "--exclude", "**/*.md"])
        XCTAssertEqual(r2.status, 0, r2.stderr)
        XCTAssertEqual(outputs(out2), ["keep.html"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: out2.appendingPathComponent("plain/index.html").path), "plain/readme")

        // An --include that matches a folder takes everything in it, even a folder the ignore
        // file leaves out.
        let out3 = dir.appendingPathComponent("out3")
        let r3 = try NotepressBinary.run(["convert", tree.path, "-o", out3.path, "-t", "html", "--include", "drafts"])
        XCTAssertEqual(r3.status, 0, r3.stderr)
        XCTAssertEqual(outputs(out3), ["drafts/c.html"])

        let bad = try NotepressBinary.run(["convert", tree.path, "-o", out.path, "--include", ""])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--include needs a pattern (gitignore syntax), got ''"), bad.stderr)
    }

    // MARK: TiddlyWiki

    /// `.tid` headers are metadata (title, `[[multi word]]` tags, TiddlyWiki dates in UTC, other
    /// fields); the body is note markup, or Markdown when `type:` says so; a bad date is an error
    /// at its line and column, and the other files still convert.
    func testTiddlyWikiNotesHeaderIsMetadata() throws {
        let dir = try makeTempDir(self)
        let wiki = dir.appendingPathComponent("wiki")
        try FileManager.default.createDirectory(at: wiki, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: notes.appendingPathComponent("tw__Tiddlers.tid"), to: wiki.appendingPathComponent("Tiddlers.tid"))
        try write("""
            created: 20240305080000000
            modified: 20240306091500250
            tags: home [[to buy]] home
            title: Shopping list
            type: text/x-markdown
            color: #ff0000

            # Groceries

            - *milk*
            - [x] bread

            """, "Shopping.tid", in: wiki)
        try write("title: Broken\ncreated: 20240230000000000\n\nbody\n", "Broken.tid", in: wiki)
        let out = dir.appendingPathComponent("out")
        let r = try NotepressBinary.run(["convert", wiki.path, "-o", out.path, "-t", "json,html,tei"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("Broken.tid:2:10: error: 'created' is not a TiddlyWiki date (YYYYMMDDhhmmssSSS, UTC): '20240230000000000'"),
                      r.stderr)
        XCTAssertTrue(r.stderr.contains("converted 2, skipped 0 (unchanged), skipped 0 (unknown kind), failed 1"), r.stderr)

        // The real tiddler from TiddlyWiki5's documentation.
        let tiddlers = try json(out.appendingPathComponent("Tiddlers.json"))
        let meta = try XCTUnwrap(tiddlers["metadata"] as? [String: Any])
        XCTAssertEqual(meta["title"] as? String, "Tiddlers")
        XCTAssertEqual(meta["created"] as? String, "2013-08-25T21:35:00Z")
        XCTAssertEqual(meta["tags"] as? [String], ["Concepts"])
        XCTAssertEqual(meta["sourceFormat"] as? String, "note")
        XCTAssertEqual(meta["fields"] as? [String: String], ["modified": "2014-11-21T11:17:32.959Z", "type": "text/vnd.tiddlywiki"])
        let first = try XCTUnwrap((tiddlers["children"] as? [[String: Any]])?.first)
        XCTAssertEqual(first["position"] as? String, "7:1", "body lines count from the file's first line")
        let text = try XCTUnwrap(((first["inlines"] as? [[String: Any]])?.first)?["text"] as? String)
        XCTAssertTrue(text.hasPrefix("Tiddlers are the fundamental units of information in "), text)

        // type: text/x-markdown: a GFM body.
        let shopping = try json(out.appendingPathComponent("Shopping.json"))
        let smeta = try XCTUnwrap(shopping["metadata"] as? [String: Any])
        XCTAssertEqual(smeta["title"] as? String, "Shopping list")
        XCTAssertEqual(smeta["tags"] as? [String], ["home", "to buy"])
        XCTAssertEqual(smeta["created"] as? String, "2024-03-05T08:00:00Z")
        XCTAssertEqual(smeta["sourceFormat"] as? String, "gfm")
        XCTAssertEqual(smeta["fields"] as? [String: String],
                       ["modified": "2024-03-06T09:15:00.25Z", "type": "text/x-markdown", "color": "#ff0000"])
        let html = try String(contentsOf: out.appendingPathComponent("Shopping.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("<h1 id=\"groceries\" dir=\"auto\">Groceries</h1>\n<ul>\n<li dir=\"auto\"><em>milk</em></li>\n<li dir=\"auto\"><input type=\"checkbox\" checked=\"\" disabled=\"\" /> bread</li>\n</ul>"),
                      html)
        XCTAssertTrue(html.contains("<title>Shopping list</title>"), String(html.prefix(600)))
        let tei = try String(contentsOf: out.appendingPathComponent("Shopping.xml"), encoding: .utf8)
        XCTAssertTrue(tei.contains("<keywords>\n          <term>home</term>\n          <term>to buy</term>\n        </keywords>"), tei)
        XCTAssertTrue(tei.contains("<date when=\"2024-03-05T08:00:00Z\""), tei)
    }

    // MARK: Encodings

    func utf16(_ text: String, bigEndian: Bool) -> Data {
        let units = Array(text.utf16)
        let bom: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
        return Data(bom + units.flatMap { bigEndian ? [UInt8($0 >> 8), UInt8($0 & 0xFF)] : [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
    }

    /// Windows Notepad's "Unicode" (UTF-16 LE with a BOM) and UTF-16 BE with a BOM read without
    /// any option; a lone surrogate is an error at its line and column.
    func testUTF16WithByteOrderMarkIsRead() throws {
        let dir = try makeTempDir(self)
        try utf16("Café ☃ *bold*\r\nline 2 😀\r\n", bigEndian: false).write(to: dir.appendingPathComponent("le.note"))
        try utf16("# Naïve\n\n日本語 text\n", bigEndian: true).write(to: dir.appendingPathComponent("be.md"))
        let le = try NotepressBinary.run(["convert", "--fragment", dir.appendingPathComponent("le.note").path])
        XCTAssertEqual(le.status, 0, le.stderr)
        XCTAssertEqual(le.stdoutText, "<p>Café ☃ <strong>bold</strong><br />\nline 2 😀</p>\n")
        let be = try NotepressBinary.run(["convert", "--fragment", dir.appendingPathComponent("be.md").path])
        XCTAssertEqual(be.status, 0, be.stderr)
        XCTAssertEqual(be.stdoutText, "<h1>Naïve</h1>\n<p>日本語 text</p>\n")
        // Standard input too.
        let piped = try NotepressBinary.run(["convert", "--fragment", "-f", "gfm"], stdin: utf16("*x*\n", bigEndian: false))
        XCTAssertEqual(piped.stdoutText, "<p><em>x</em></p>\n")

        var broken = utf16("ab\n", bigEndian: false)
        broken.append(contentsOf: [0x00, 0xD8, 0x78, 0x00])  // U+D800 alone, then "x"
        let bad = dir.appendingPathComponent("bad.note")
        try broken.write(to: bad)
        let r = try NotepressBinary.run(["convert", "--fragment", bad.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "\(bad.path):2:1: error: invalid UTF-16LE text (code unit 0xD800 at byte offset 8); "
            + "the file starts with a UTF-16LE byte order mark\n")
    }

    /// `--encoding` for legacy files, through iconv: Latin-1, Windows-1252, Shift_JIS; an invalid
    /// byte in the declared encoding is an error naming file, line and column; an unknown name is
    /// a usage error.
    func testLegacyEncodingsWithEncodingOption() throws {
        let dir = try makeTempDir(self)
        let latin1 = dir.appendingPathComponent("l1.note")
        try Data([0x43, 0x61, 0x66, 0xE9, 0x20, 0x63, 0x72, 0xE8, 0x6D, 0x65, 0x20, 0xA3, 0x0A]).write(to: latin1)  // "Café crème £"
        let plain = try NotepressBinary.run(["convert", "--fragment", latin1.path])
        XCTAssertEqual(plain.status, 1)
        XCTAssertTrue(plain.stderr.hasPrefix("\(latin1.path):1:4: error: invalid UTF-8 (byte 0xE9)"), plain.stderr)
        let r = try NotepressBinary.run(["convert", "--fragment", "--encoding", "latin1", latin1.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdoutText, "<p>Café crème £</p>\n")

        // Windows-1252's curly quotes; 0x81 is not a character of it.
        let cp = dir.appendingPathComponent("cp.note")
        try Data(Array("ok\nsecond ".utf8) + [0x93] + Array("quoted".utf8) + [0x94, 0x20, 0x81, 0x0A]).write(to: cp)
        let cpr = try NotepressBinary.run(["convert", "--fragment", "--encoding=windows-1252", cp.path])
        XCTAssertEqual(cpr.status, 1)
        XCTAssertEqual(cpr.stderr, "\(cp.path):2:21: error: invalid windows-1252 text (byte 0x81 at byte offset 19); is --encoding right?\n")

        let sjis = dir.appendingPathComponent("sj.note")
        try Data([0x93, 0xFA, 0x96, 0x7B, 0x8C, 0xEA, 0x0A]).write(to: sjis)  // 日本語
        let sj = try NotepressBinary.run(["convert", "--fragment", "--encoding", "shift_jis", sjis.path])
        XCTAssertEqual(sj.stdoutText, "<p>日本語</p>\n")

        // In a folder run, with the configuration recorded: a second run with another encoding re-converts.
        let out = dir.appendingPathComponent("out")
        let folder = dir.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: latin1, to: folder.appendingPathComponent("l1.note"))
        let f1 = try NotepressBinary.run(["convert", folder.path, "-o", out.path, "-t", "html", "--fragment", "--encoding", "latin1"])
        XCTAssertEqual(f1.status, 0, f1.stderr)
        XCTAssertEqual(try String(contentsOf: out.appendingPathComponent("l1.html"), encoding: .utf8), "<p>Café crème £</p>\n")
        let f2 = try NotepressBinary.run(["convert", folder.path, "-o", out.path, "-t", "html", "--fragment", "--encoding", "cp1252"])
        XCTAssertTrue(f2.stderr.contains("converted 1, skipped 0 (unchanged)"), f2.stderr)

        let unknown = try NotepressBinary.run(["convert", "--encoding", "klingon", latin1.path])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("unknown encoding 'klingon' for --encoding; iconv -l lists the names"), unknown.stderr)
    }

    // MARK: Hashtags

    /// `--hashtags`: `#word` starting a word, outside code, links and URLs, is a tag of the note
    /// (after the front-matter tags, case-insensitively once) and is rendered as a tag in every
    /// format; without the option it is text.
    func testHashtagsBecomeTags() throws {
        let dir = try makeTempDir(self)
        let md = dir.appendingPathComponent("groceries.md")
        try write("""
            ---
            tags: [home, Groceries]
            ---
            # Shopping #weekly

            Buy #milk and #work/projects, not C# or issue #12, `#code`, [#link](#frag) or <https://x.org/#frag>.

                #codeblock

            **#Milk** (#groceries)

            """, "groceries.md", in: dir)
        let fragment = try NotepressBinary.run(["convert", "--fragment", "--hashtags", md.path])
        XCTAssertEqual(fragment.status, 0, fragment.stderr)
        XCTAssertEqual(fragment.stdoutText, """
            <h1>Shopping <span class="tag">#weekly</span></h1>
            <p>Buy <span class="tag">#milk</span> and <span class="tag">#work/projects</span>, not C# or issue #12, <code>#code</code>, <a href="#frag">#link</a> or <a href="https://x.org/#frag">https://x.org/#frag</a>.</p>
            <pre><code>#codeblock
            </code></pre>
            <p><strong><span class="tag">#Milk</span></strong> (<span class="tag">#groceries</span>)</p>

            """)
        let without = try NotepressBinary.run(["convert", "--fragment", md.path])
        XCTAssertFalse(without.stdoutText.contains("class=\"tag\""), without.stdoutText)

        let dump = try NotepressBinary.run(["convert", "-t", "json", "--hashtags", md.path])
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: dump.stdout) as? [String: Any])
        XCTAssertEqual((doc["metadata"] as? [String: Any])?["tags"] as? [String], ["home", "Groceries", "weekly", "milk", "work/projects"])
        XCTAssertTrue(dump.stdoutText.contains("""
                    {"text": "Buy "},
                    {
                      "kind": "tag",
                      "name": "milk",
                      "children": [
                        {"text": "#milk"}
                      ]
                    },
                    {"text": " and "},
            """), dump.stdoutText)

        let tei = try NotepressBinary.run(["convert", "-t", "tei", "--hashtags", md.path])
        XCTAssertEqual(tei.status, 0, tei.stderr)
        XCTAssertTrue(tei.stdoutText.contains("Buy <rs type=\"tag\">#milk</rs> and <rs type=\"tag\">#work/projects</rs>,"), tei.stdoutText)
        XCTAssertTrue(tei.stdoutText.contains("<term>work/projects</term>"), tei.stdoutText)
        // The schema change (rs in phrase content) as jing reads it, not only libxml2.
        let teiFile = dir.appendingPathComponent("groceries.xml")
        try tei.stdout.write(to: teiFile)
        if let (status, errors) = TEITestSupport.jing([teiFile]) {
            XCTAssertEqual(status, 0, errors.joined(separator: "\n"))
            XCTAssertEqual(errors, [])
        }

        let rtf = try NotepressBinary.run(["convert", "-t", "rtf", "--hashtags", md.path])
        XCTAssertTrue(rtf.stdoutText.contains("{\\cf3 #milk}"), rtf.stdoutText)
        let ansi = try NotepressBinary.run(["convert", "-t", "ansi", "--color", "always", "--hashtags", md.path],
                                           environment: ["NO_COLOR": "", "COLORTERM": "", "TERM": "xterm"])
        // The link colour (SGR 34 at 16 colours), not underlined as links are.
        XCTAssertTrue(ansi.stdoutText.contains("Buy \u{1B}[0;34m#milk\u{1B}[0m and \u{1B}[0;34m#work/projects\u{1B}[0m, not C# or issue #12,"),
                      ansi.stdoutText)
        let man = try NotepressBinary.run(["convert", "-t", "man", "--hashtags", md.path])
        XCTAssertTrue(man.stdoutText.contains("Buy #milk and #work/projects"), man.stdoutText)

        // Note markup: the same rule (no code or links there; bare URLs keep their fragments).
        try write("Buy #milk at https://shop.example/#top\n*bold#no* #Milk\n", "list.note", in: dir)
        let note = try NotepressBinary.run(["convert", "--fragment", "--hashtags", dir.appendingPathComponent("list.note").path])
        XCTAssertEqual(note.stdoutText, "<p>Buy <span class=\"tag\">#milk</span> at https://shop.example/#top<br />\n"
            + "<strong>bold#no</strong> <span class=\"tag\">#Milk</span></p>\n")
    }
}
