import Foundation
import XCTest
import NotepressTestSupport

/// Issue 14 item 8: the page template is Mustache, every front-matter field is a variable,
/// `--template FILE`, `-M key=value`, `<meta>` and `<html lang>` — through the real binary.
final class PageTemplateTests: XCTestCase {
    /// A Markdown note whose front matter has a scalar, a list, a map, a list of maps and a boolean.
    static let note = """
        ---
        title: Fish & <Chips>
        author: Ann "A" Example
        tags: [food, uk]
        draft: false
        site:
          name: The Notes
        links:
          - {url: "https://a.org/?x=1&y=2", label: A}
          - {url: /b, label: B}
        ---
        Body *text*.

        """

    /// A template using a comment, a partial, `{{author}}`, a map section, `{{#tags}}`, an
    /// inverted section, a list of maps, a set-delimiter tag and `{{{body}}}`.
    static let template = """
        {{! A site template: every Mustache feature once }}
        <html lang="{{lang}}">
        {{> header}}
        <p>By {{author}}{{#site}} for {{name}}{{/site}}</p>
        <ul>
        {{#tags}}
          <li>{{.}}</li>
        {{/tags}}
        </ul>
        {{^draft}}
        <p>published</p>
        {{/draft}}
        {{#links}}
        <a href="{{url}}">{{label}}</a>
        {{/links}}
        {{=<% %>=}}
        <p>literal {{braces}} and <%title%></p>
        <%={{ }}=%>
        {{{body}}}</html>

        """

    /// A folder with `in.md`, `page.html` and its partial `header.html` (found beside it, `.html` added).
    func site() throws -> URL {
        let dir = try makeTempDir(self)
        try Self.note.write(to: dir.appendingPathComponent("in.md"), atomically: true, encoding: .utf8)
        try Self.template.write(to: dir.appendingPathComponent("page.html"), atomically: true, encoding: .utf8)
        try "<title>{{title}} &amp; {{missing}}</title>\n".write(to: dir.appendingPathComponent("header.html"),
                                                                  atomically: true, encoding: .utf8)
        return dir
    }

    func testTemplateWithEveryMustacheFeatureAndFrontMatterFields() throws {
        let dir = try site()
        let r = try NotepressBinary.run(["convert", dir.appendingPathComponent("in.md").path,
                                         "--template", dir.appendingPathComponent("page.html").path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        XCTAssertEqual(r.stdoutText, """
            <html lang="en">
            <title>Fish &amp; &lt;Chips&gt; &amp; </title>
            <p>By Ann &quot;A&quot; Example for The Notes</p>
            <ul>
              <li>food</li>
              <li>uk</li>
            </ul>
            <p>published</p>
            <a href="https://a.org/?x=1&amp;y=2">A</a>
            <a href="/b">B</a>
            <p>literal {{braces}} and Fish &amp; &lt;Chips&gt;</p>
            <p dir="auto">Body <em>text</em>.</p>
            </html>

            """)
    }

    /// `-M` wins over the front matter (pandoc's precedence): a value replaces the field, `-M KEY`
    /// alone is true (the inverted section disappears), a repeated key makes a list, a scalar
    /// over a map hides the map's names.
    func testMetadataOptionOverridesFrontMatter() throws {
        let dir = try site()
        let r = try NotepressBinary.run(["convert", dir.appendingPathComponent("in.md").path,
                                         "--template", dir.appendingPathComponent("page.html").path,
                                         "-M", "draft", "--metadata=author=Bo", "-Mtags=x, y", "-M", "lang=fr",
                                         "-M", "site=plain", "-M", "title=New & title"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdoutText, """
            <html lang="fr">
            <title>New &amp; title &amp; </title>
            <p>By Bo for </p>
            <ul>
              <li>x</li>
              <li>y</li>
            </ul>
            <a href="https://a.org/?x=1&amp;y=2">A</a>
            <a href="/b">B</a>
            <p>literal {{braces}} and New &amp; title</p>
            <p dir="auto">Body <em>text</em>.</p>
            </html>

            """)
        // The same key twice is a list; the built-in page writes one author meta per item.
        let twice = try NotepressBinary.run(["convert", "-f", "gfm", "-", "-M", "author=A", "-M", "author=B <b>"],
                                            stdin: Data("# x\n".utf8))
        XCTAssertEqual(twice.status, 0, twice.stderr)
        XCTAssertTrue(twice.stdoutText.contains("<meta name=\"generator\" content=\"Notepress\">\n"
            + "<meta name=\"author\" content=\"A\">\n<meta name=\"author\" content=\"B &lt;b&gt;\">\n<title>x</title>\n"),
                      twice.stdoutText)
    }

    /// `-M` applies in every format, not only to page templates: the man page's title line and
    /// TEI's title and keywords take it, and `created` sets the date.
    func testMetadataOptionReachesEveryFormat() throws {
        let input = Data("---\ntitle: old\nsection: 1\n---\n# NAME\n\nx - y\n".utf8)
        let man = try NotepressBinary.run(["convert", "-", "-t", "man", "-M", "title=tool", "-M", "section=8",
                                           "-M", "created=2024-02-29", "-M", "date=2024-03-01"], stdin: input)
        XCTAssertEqual(man.status, 0, man.stderr)
        XCTAssertTrue(man.stdoutText.contains(".TH \"TOOL\" \"8\" \"2024-03-01\""), man.stdoutText)
        let tei = try NotepressBinary.run(["convert", "-", "-t", "tei", "-M", "title=T2", "-M", "tags=a,b",
                                           "-M", "created=2024-02-29T10:00:00Z"], stdin: input)
        XCTAssertEqual(tei.status, 0, tei.stderr)
        XCTAssertTrue(tei.stdoutText.contains("<title>T2</title>"), tei.stdoutText)
        XCTAssertTrue(tei.stdoutText.contains("<date when=\"2024-02-29T10:00:00Z\">29 February 2024</date>"), tei.stdoutText)
        XCTAssertTrue(tei.stdoutText.contains("<term>a</term>\n          <term>b</term>"), tei.stdoutText)
    }

    /// The three layers: defaults (`date` from `created`, `lang`) lose to front-matter fields,
    /// which lose to `-M`; generated values (`body`, `generator`, `created`, `title`) win over both.
    func testDefaultsFrontMatterMetadataAndGeneratedValuesPrecedence() throws {
        let dir = try makeTempDir(self)
        let tpl = dir.appendingPathComponent("t.html")
        try "{{date}}|{{lang}}|{{created}}|{{{body}}}|{{generator}}|{{title}}|{{theme}}|{{#flag}}on{{/flag}}{{^flag}}off{{/flag}}\n"
            .write(to: tpl, atomically: true, encoding: .utf8)
        let note = "---\ncreated: 2026-11-29T08:00:00+02:00\ndate: yesterday\nbody: evil\ngenerator: me\nflag: TRUE\n---\nx\n"
        let r = try NotepressBinary.run(["convert", "-", "--template", tpl.path], stdin: Data(note.utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdoutText, "yesterday|en|2026-11-29T06:00:00Z|<p dir=\"auto\">x</p>\n|Notepress|Untitled|default|on\n")
        let defaults = try NotepressBinary.run(["convert", "-", "--template", tpl.path, "-M", "flag=false", "-M", "title=Set"],
                                               stdin: Data("---\ncreated: 2026-11-29T08:00:00+02:00\nflag: true\n---\nx\n".utf8))
        XCTAssertEqual(defaults.stdoutText, "2026-11-29|en|2026-11-29T06:00:00Z|<p dir=\"auto\">x</p>\n|Notepress|Set|default|off\n")
    }

    /// A bad `-M` is a usage error (exit 2) before anything is read or written.
    func testBadMetadataOptionIsAUsageError() throws {
        let dir = try makeTempDir(self)
        let out = dir.appendingPathComponent("out.html")
        for (args, message) in [(["-M", "=x"], "-M '=x': the key is empty (expected KEY=VALUE)"),
                                (["-M", "created=2024-02-30"], "-M 'created=2024-02-30': created is not an ISO 8601 date"),
                                (["-M", "title"], "-M 'title': 'title' needs a value (title=…)")] {
            let r = try NotepressBinary.run(["convert", "-", "-o", out.path] + args, stdin: Data("x\n".utf8))
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.hasPrefix("notepress convert: " + message), "\(args): \(r.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: out.path))
        }
    }

    /// `--template` that is missing, a folder, or does not compile (in itself or in a partial) is
    /// a usage error naming the file (and line:column): exit 2, nothing written.
    func testTemplateMissingOrInvalidIsAUsageErrorWithItsPosition() throws {
        let dir = try site()
        let input = dir.appendingPathComponent("in.md").path
        let out = dir.appendingPathComponent("out.html")
        let bad = dir.appendingPathComponent("bad.html")
        try "<p>\n{{#a}}\n  {{/b}}\n".write(to: bad, atomically: true, encoding: .utf8)
        let unclosed = dir.appendingPathComponent("unclosed.html")
        try "<p>é {{title\n".write(to: unclosed, atomically: true, encoding: .utf8)
        let usesBadPartial = dir.appendingPathComponent("outer.html")
        try "{{>broken}}\n".write(to: usesBadPartial, atomically: true, encoding: .utf8)
        try "ok\n  {{#x}}\n".write(to: dir.appendingPathComponent("broken.html"), atomically: true, encoding: .utf8)
        let missing = dir.appendingPathComponent("missing.html").path
        let cases: [(String, String)] = [
            (missing, "notepress convert: --template \(missing): no such file\n"),
            (dir.path, "notepress convert: --template \(dir.path): is a folder, not a file\n"),
            (bad.path, "notepress convert: \(bad.path):3:3: error: end tag 'b' does not match the open section 'a' (2:1)\n"),
            (unclosed.path, "notepress convert: \(unclosed.path):1:6: error: tag is not closed: no '}}' after it\n"),
            (usesBadPartial.path, "notepress convert: \(dir.path)/broken.html:2:3: error: section 'x' is not closed\n"),
        ]
        for (template, message) in cases {
            let r = try NotepressBinary.run(["convert", input, "-o", out.path, "--template", template])
            XCTAssertEqual(r.status, 2, "\(template): \(r.stderr)")
            XCTAssertTrue(r.stderr.hasPrefix(message), "\(template): \(r.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), template)
        }
    }

    /// A partial found nowhere renders as nothing (Mustache's rule), with one warning naming the
    /// tag's place; a partial from the data folder is used when there is none beside the template.
    func testPartialsFromTheDataFolderAndMissingOnes() throws {
        let dir = try site()
        let data = dir.appendingPathComponent("data/html")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try "<footer>{{generator}}</footer>\n".write(to: data.appendingPathComponent("footer.html"), atomically: true, encoding: .utf8)
        let tpl = dir.appendingPathComponent("t/p.htm")
        try FileManager.default.createDirectory(at: tpl.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "[{{title}}]\n  {{> nav}}\n{{>footer.html}}".write(to: tpl, atomically: true, encoding: .utf8)
        let r = try NotepressBinary.run(["convert", dir.appendingPathComponent("in.md").path, "--template", tpl.path,
                                         "--data-dir", dir.appendingPathComponent("data").path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdoutText, "[Fish &amp; &lt;Chips&gt;]\n<footer>Notepress</footer>\n")
        XCTAssertEqual(r.stderr, "notepress convert: \(tpl.path):2:3: warning: partial 'nav' not found (beside the template, "
            + "or html/nav.html in the data folder or built in); it renders as nothing\n")
    }

    /// The built-in page: `<html lang>` from front matter (default `en`), `<meta>` for author (one
    /// per author of a list), description and keywords (front matter, else the tags), and
    /// nothing more when none is given.
    func testBuiltInPageMetaElementsAndLanguage() throws {
        let full = """
            ---
            title: T
            lang: nl
            author: [Ann, "Bo & Co"]
            description: A "short" note
            tags: [x, y]
            ---
            Hi

            """
        let r = try NotepressBinary.run(["convert", "-"], stdin: Data(full.utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdoutText.hasPrefix("""
            <!DOCTYPE html>
            <html lang="nl" dir="ltr" data-size-category="large">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <meta name="generator" content="Notepress">
            <meta name="author" content="Ann">
            <meta name="author" content="Bo &amp; Co">
            <meta name="description" content="A &quot;short&quot; note">
            <meta name="keywords" content="x, y">
            <title>T</title>
            <style>

            """), r.stdoutText)
        let keywords = try NotepressBinary.run(["convert", "-"], stdin: Data("---\ntags: [x]\nkeywords: [k1, k2]\n---\nHi\n".utf8))
        XCTAssertTrue(keywords.stdoutText.contains("<meta name=\"generator\" content=\"Notepress\">\n"
            + "<meta name=\"keywords\" content=\"k1, k2\">\n<title>Untitled</title>\n"), keywords.stdoutText)
        let bare = try NotepressBinary.run(["convert", "-"], stdin: Data("Hi\n".utf8))
        XCTAssertTrue(bare.stdoutText.hasPrefix("""
            <!DOCTYPE html>
            <html lang="en" dir="ltr" data-size-category="large">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <meta name="generator" content="Notepress">
            <title>Untitled</title>
            <style>

            """), bare.stdoutText)
        let lang = try NotepressBinary.run(["convert", "-", "-M", "lang=ja"], stdin: Data("---\nlang: nl\n---\nHi\n".utf8))
        XCTAssertTrue(lang.stdoutText.contains("<html lang=\"ja\" dir=\"ltr\" data-size-category=\"large\">"), lang.stdoutText)
    }

    /// `notepress templates print html` prints the Mustache page template, byte for byte the
    /// shipped file.
    func testTemplatesPrintHTMLIsTheMustachePage() throws {
        let r = try NotepressBinary.run(["templates", "print", "html"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, try Data(contentsOf: TestPaths.root.appendingPathComponent("Templates/html/page.html")))
        XCTAssertTrue(r.stdoutText.contains("<head>\n{{> site-head}}\n</head>\n"))
        let head = try NotepressBinary.run(["templates", "print", "html/site-head.html"])
        XCTAssertTrue(head.stdoutText.contains("{{#author}}\n<meta name=\"author\" content=\"{{.}}\">\n{{/author}}\n"))
        XCTAssertTrue(r.stdoutText.contains("{{#toc}}\n{{{toc}}}\n{{/toc}}\n{{{body}}}\n"))
    }

    /// Folder runs: a second run skips every file; a changed `-M`, a changed template file or
    /// partial converts again; the depfile lists the template and its partial.
    func testTemplateAndMetadataChangesInvalidateTheManifest() throws {
        let dir = try site()
        let notes = dir.appendingPathComponent("notes")
        try FileManager.default.createDirectory(at: notes, withIntermediateDirectories: true)
        try Self.note.write(to: notes.appendingPathComponent("a.md"), atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out").path
        let dep = dir.appendingPathComponent("deps.d").path
        let tpl = dir.appendingPathComponent("page.html").path
        func run(_ extra: [String]) throws -> String {
            let r = try NotepressBinary.run(["convert", notes.path, "-o", out, "--template", tpl, "--depfile", dep] + extra)
            XCTAssertEqual(r.status, 0, r.stderr)
            return r.stderr
        }
        XCTAssertTrue(try run(["-M", "author=A"]).hasPrefix("converted 1, skipped 0 (unchanged)"))
        // The template's page has no <article class="note"> the print page could take: no print.html.
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/print.html"))
        XCTAssertTrue(try run(["-M", "author=A"]).hasPrefix("converted 0, skipped 1 (unchanged)"))
        XCTAssertTrue(try run(["-M", "author=B"]).hasPrefix("converted 1, skipped 0 (unchanged)"))
        XCTAssertTrue(try String(contentsOfFile: out + "/a.html", encoding: .utf8).contains("<p>By B for The Notes</p>"))
        try "<title>changed</title>\n".write(to: dir.appendingPathComponent("header.html"), atomically: true, encoding: .utf8)
        XCTAssertTrue(try run(["-M", "author=B"]).hasPrefix("converted 1, skipped 0 (unchanged)"))
        XCTAssertTrue(try String(contentsOfFile: out + "/a.html", encoding: .utf8).contains("<title>changed</title>"))
        let deps = try String(contentsOfFile: dep, encoding: .utf8)
        XCTAssertTrue(deps.contains(tpl) && deps.contains(dir.appendingPathComponent("header.html").path), deps)
    }
}
