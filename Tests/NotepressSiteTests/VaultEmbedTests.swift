import Foundation
import XCTest
import NotepressTestSupport

/// Note embeds in a site run, through the real binary: the headings of embedded content sit below
/// the heading that introduces them, and warnings point where the offending `![[…]]` is written.
final class VaultEmbedTests: XCTestCase {
    func run(_ args: [String]) throws -> NotepressBinary.Result { try NotepressBinary.runExpectingSuccess(args) }

    /// The headings of a page, `h2:Beta` per heading, in order.
    func headings(_ html: String) throws -> [String] {
        let re = try NSRegularExpression(pattern: "<h([1-6])[^>]*>([^<]*)")
        return re.matches(in: html, range: NSRange(html.startIndex..., in: html)).map { m in
            "h" + (html as NSString).substring(with: m.range(at: 1)) + ":" + (html as NSString).substring(with: m.range(at: 2))
        }
    }

    static let host = "# Alpha\n\nIntro.\n\n![[beta]]\n\n## After\n\nTail.\n\n### Deep\n\n![[beta#Sub]]\n"
    static let beta = "---\ntitle: Beta\n---\n# Beta\n\nBody.\n\n## Sub\n\nSub text.\n\n### Subsub\n\nx\n"

    /// The bug: `![[beta]]` of a note titled Beta whose first heading is `# Beta` gave
    /// `<h2>Beta</h2><h1>Beta</h1>` in HTML and `.SH BETA` in man (the rest of the host page under
    /// that section). Now the title is one level-2 heading, the note's headings one level down,
    /// and a section embed (`![[beta#Sub]]` under `### Deep`) starts one level below the host's
    /// heading (h4), its subsections below it (h5).
    func testEmbeddedNoteHeadingsAreDemotedBelowTheEmbeddingHeading() throws {
        let (input, output, _) = try makeSiteFolder(self, ["a.md": Self.host, "beta.md": Self.beta])
        _ = try run(["convert", input, "-o", output + "/html"])
        let html = try String(contentsOfFile: output + "/html/a.html", encoding: .utf8)
        XCTAssertEqual(try headings(html), ["h1:Alpha", "h2:Beta", "h3:Sub", "h4:Subsub", "h2:After", "h3:Deep", "h4:Sub", "h5:Subsub"])
        XCTAssertEqual(html.components(separatedBy: "<h1").count - 1, 1, html)
        XCTAssertTrue(html.contains("Body."))

        _ = try run(["convert", input, "-o", output + "/man", "-t", "man"])
        let man = try String(contentsOfFile: output + "/man/a.man", encoding: .utf8)
        let sections = man.split(separator: "\n").filter { $0.hasPrefix(".SH") }
        XCTAssertEqual(sections, [".SH ALPHA"], man)
        let subsections = man.split(separator: "\n").filter { $0.hasPrefix(".SS") }
        XCTAssertEqual(subsections, [".SS Beta", ".SS After"], man)
        XCTAssertTrue(man.contains("Sub text."))
    }

    /// The bugs (site fuzzer seeds 9200773 and 9100588): an edit of only a code block of an
    /// embedded note, or front-matter lines added to it, left the embedding page as it was after
    /// an incremental run. Now the table records the input hash of each note an embed may resolve
    /// to (by file name or alias), and of no other note, so the embedding page is rendered again
    /// and an edit of a note nothing embeds leaves the table's bytes as they were.
    func testAnEditAnywhereInAnEmbeddedNoteRendersTheEmbeddingPageAgain() throws {
        let (input, output, _) = try makeSiteFolder(self, [
            "a.md": "# A\n\n![[beta]]\n\n![[Gamma alias#Part]]\n",
            "beta.md": "# Beta\n\n```\nold code\n```\n",
            "g.md": "---\naliases: [Gamma alias]\n---\n# G\n\n## Part\n\nText.\n",
            "other.md": "# Other\n\nText.\n\n```\nits code\n```\n"])
        XCTAssertEqual(try NotepressBinary.run(["convert", input, "-o", output], environment: ShardTests.epoch).status, 0)
        // The file times stay out of the table (SOURCE_DATE_EPOCH clamps the dates).
        func table() throws -> [String: String] {
            let text = try String(contentsOfFile: output + "/.notepress-site.jsonl", encoding: .utf8)
            var out: [String: String] = [:]
            for line in text.split(separator: "\n") {
                let path = String(line.split(separator: "\"")[3])
                out[path] = String(line)
            }
            return out
        }
        let first = try table()
        XCTAssertTrue(first["beta.md"]!.contains("\"sha256\":\""), first["beta.md"]!)
        XCTAssertTrue(first["g.md"]!.contains("\"sha256\":\""), first["g.md"]!)
        XCTAssertFalse(first["a.md"]!.contains("sha256"), first["a.md"]!)
        XCTAssertFalse(first["other.md"]!.contains("sha256"), first["other.md"]!)

        // Only the code block of the embedded note changes.
        try "# Beta\n\n```\nnew code\n```\n".write(toFile: input + "/beta.md", atomically: true, encoding: .utf8)
        XCTAssertEqual(try NotepressBinary.run(["convert", input, "-o", output], environment: ShardTests.epoch).status, 0)
        let html = try String(contentsOfFile: output + "/a.html", encoding: .utf8)
        XCTAssertTrue(html.contains("new code"), html)
        XCTAssertFalse(html.contains("old code"), html)

        // A note nothing embeds: its code changes (nothing the table holds), the table does not.
        let before = try table()
        try "# Other\n\nText.\n\n```\nits new code\n```\n".write(toFile: input + "/other.md", atomically: true, encoding: .utf8)
        XCTAssertEqual(try NotepressBinary.run(["convert", input, "-o", output], environment: ShardTests.epoch).status, 0)
        XCTAssertEqual(try table(), before)
        XCTAssertTrue(try String(contentsOfFile: output + "/other.html", encoding: .utf8).contains("its new code"))
    }

    /// The bug (new-user try-out): an embedded note's footnotes took the page's numbers and
    /// labels (the page's `[^1]` showed the embedded note's text in every format), and HTML got a
    /// second footnote list in the middle of the page with the page's later text inside its
    /// `<ol>`. Now an embed's labels are its own, every reference is numbered in the page's order
    /// of first reference, a section embed brings the definitions it refers to, and the
    /// definitions are listed once, at the end.
    func testFootnotesOfEmbeddedNotesAreNumberedWithThePagesAndListedAtTheEnd() throws {
        let (input, output, _) = try makeSiteFolder(self, [
            "host.md": "# Host\n\nHost text[^1].\n\n![[n]]\n\nAfter the embed.\n\n> ![[n#Sec]]\n\n[^1]: host note\n",
            "n.md": "# N\n\nEmbedded text[^1].\n\n## Sec\n\nSection text[^s] and again[^s].\n\n[^1]: embedded note\n[^s]: section note\n"])
        _ = try run(["convert", input, "-o", output, "-t", "html,tei,ansi"])
        let html = try String(contentsOfFile: output + "/host.html", encoding: .utf8)
        XCTAssertEqual(html.components(separatedBy: "<section class=\"footnotes\"").count - 1, 1, html)
        let list = html.components(separatedBy: "<section class=\"footnotes\"")[1]
        XCTAssertFalse(list.contains("After the embed."), html)
        let items = try NSRegularExpression(pattern: #"<li id="fn-([^"]+)">\s*<p dir="auto">([a-z ]+) "#)
            .matches(in: list, range: NSRange(list.startIndex..., in: list)).map { (list as NSString).substring(with: $0.range(at: 2)) }
        XCTAssertEqual(items, ["host note", "embedded note", "section note", "section note"], list)
        let refs = try NSRegularExpression(pattern: #"data-footnote-ref>(\d+)</a>"#)
            .matches(in: html, range: NSRange(html.startIndex..., in: html)).map { (html as NSString).substring(with: $0.range(at: 1)) }
        XCTAssertEqual(refs, ["1", "2", "3", "3", "4", "4"])
        let ids = try NSRegularExpression(pattern: #"id="(fn(ref)?-[^"]+)""#)
            .matches(in: html, range: NSRange(html.startIndex..., in: html)).map { (html as NSString).substring(with: $0.range(at: 1)) }
        XCTAssertEqual(Set(ids).count, ids.count, "ids are unique: \(ids)")
        let tei = try String(contentsOfFile: output + "/host.xml", encoding: .utf8)
        XCTAssertTrue(tei.contains(#"<note place="foot" n="1" xml:id="fn-1"><p>host note"#), tei)
        XCTAssertTrue(tei.contains(#"<note place="foot" n="2" xml:id="fn-2"><p>embedded note"#), tei)
        XCTAssertEqual(try NotepressBinary.run(["validate", output + "/host.xml"]).status, 0)
        let ansi = try String(contentsOfFile: output + "/host.ans", encoding: .utf8)
        XCTAssertTrue(ansi.contains("[1] host note") && ansi.contains("[2] embedded note") && ansi.contains("[4] section note"), ansi)
    }

    /// The bugs (new-user try-out): in TEI the headings an embed brought took the page's ids (the
    /// page's own `## Section B` became `section-b-1`, so `host#section-b` landed on the embedded
    /// copy), and `--toc` listed embedded headings that have no id in HTML. Now the page's
    /// headings keep their ids in every format, embedded ones get the next free id in TEI, and
    /// the table of contents lists the page's own headings.
    func testEmbeddedHeadingsLeaveThePagesIDsAndTableOfContentsAlone() throws {
        let (input, output, _) = try makeSiteFolder(self, [
            "host.md": "# Host\n\n![[b]]\n\n## Section B\n\nhost section\n",
            "b.md": "# B\n\n## Section B\n\nb section\n"])
        _ = try run(["convert", input, "-o", output, "-t", "html,tei", "--toc"])
        let tei = try String(contentsOfFile: output + "/host.xml", encoding: .utf8)
        let own = try XCTUnwrap(tei.range(of: #"<div xml:id="section-b">"#), tei)
        let after = tei[own.upperBound...].split(separator: "\n").prefix(2).map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(after, ["<head>Section B</head>", "<p>host section</p>"], tei)
        XCTAssertTrue(tei.contains(#"xml:id="section-b-1""#), tei)
        let html = try String(contentsOfFile: output + "/host.html", encoding: .utf8)
        let tocLinks = try NSRegularExpression(pattern: ##"href="#([^"]+)""##)
            .matches(in: html, range: NSRange(html.startIndex..., in: html)).map { (html as NSString).substring(with: $0.range(at: 1)) }
            .filter { $0 != "content" }
        for id in tocLinks { XCTAssertTrue(html.contains("id=\"\(id)\""), "the table of contents links #\(id), which the page lacks") }
        XCTAssertTrue(tocLinks.contains("section-b"), html)
    }

    /// The bugs (second try-out): RTF's contents bookmarks went to the headings in order, the
    /// embedded note's title included, so every entry after an embed opened the heading before
    /// it; TEI's contents listed the embedded headings, which no other format lists.
    func testContentsOfAPageWithAnEmbedOpenThePagesOwnHeadingsInRTFAndTEI() throws {
        let (input, output, _) = try makeSiteFolder(self, ["a.md": "# Page A\n\n![[b]]\n\n## Own\n\nText.\n",
                                                           "b.md": "# Note B\n\nB text.\n"])
        _ = try run(["convert", input, "-o", output, "-t", "rtf,tei", "--toc"])
        let rtf = try String(contentsOfFile: output + "/a.rtf", encoding: .utf8)
        let mark = try XCTUnwrap(rtf.range(of: #"{\*\bkmkstart _Toc2}"#), rtf)
        let next = rtf[mark.upperBound...]
        XCTAssertLessThan(try XCTUnwrap(next.range(of: "Own")).lowerBound, next.range(of: "Note B")?.lowerBound ?? next.endIndex, rtf)
        let tei = try String(contentsOfFile: output + "/a.xml", encoding: .utf8)
        let targets = try NSRegularExpression(pattern: ##"<ref target="#([^"]+)""##)
            .matches(in: tei, range: NSRange(tei.startIndex..., in: tei)).map { (tei as NSString).substring(with: $0.range(at: 1)) }
        XCTAssertEqual(targets, ["page-a", "own"], tei)
    }

    /// The bug (second try-out): an embedded note's footnote labels were given the prefix
    /// `embed1-`, so a note whose own label was `[^embed1-1]` had its footnote merged with the
    /// embedded one and its text lost. Now an embedded label takes a name no label written in the
    /// page takes.
    func testAnEmbeddedFootnoteNeverTakesALabelThePageWrote() throws {
        let (input, output, _) = try makeSiteFolder(self, [
            "a.md": "# A\n\n![[b]]\n",
            "b.md": "# B\n\nB own[^embed1-1].\n\n![[c]]\n\n[^embed1-1]: B OWN TEXT.\n",
            "c.md": "# C\n\nC[^1].\n\n[^1]: C TEXT.\n"])
        _ = try run(["convert", input, "-o", output, "-t", "html,tei"])
        for page in ["a", "b"] {
            let html = try String(contentsOfFile: output + "/\(page).html", encoding: .utf8)
            XCTAssertTrue(html.contains("B OWN TEXT.") && html.contains("C TEXT."), html)
            let ids = try NSRegularExpression(pattern: #"<li id="(fn-[^"]+)""#)
                .matches(in: html, range: NSRange(html.startIndex..., in: html)).map { (html as NSString).substring(with: $0.range(at: 1)) }
            XCTAssertEqual(Set(ids).count, 2, html)
            let tei = try String(contentsOfFile: output + "/\(page).xml", encoding: .utf8)
            XCTAssertTrue(tei.contains("B OWN TEXT.") && tei.contains("C TEXT."), tei)
        }
    }

    /// The bug (new-user try-out): `![[./f3/]]` (a folder's index page, written with its slash)
    /// left the embedding page stale after an edit of f3/index.md: the folder's name was not among
    /// the names whose notes the table records an input hash for.
    func testAFolderEmbedWithATrailingSlashFollowsEditsOfTheIndexPage() throws {
        let (input, output, _) = try makeSiteFolder(self, ["index.md": "# Host\n\n![[./f3/]]\n", "f3/index.md": "# F3\n\nf3 v1\n"])
        _ = try run(["convert", input, "-o", output])
        XCTAssertTrue(try String(contentsOfFile: output + "/index.html", encoding: .utf8).contains("f3 v1"))
        try "# F3\n\nf3 v2\n".write(toFile: input + "/f3/index.md", atomically: true, encoding: .utf8)
        _ = try run(["convert", input, "-o", output])
        XCTAssertTrue(try String(contentsOfFile: output + "/index.html", encoding: .utf8).contains("f3 v2"))
    }

    /// A note titled otherwise than its first heading keeps both: the title at level 2 and its
    /// own headings one level down (`# Overview` at h2, `## Detail` at h3).
    func testEmbeddedNoteWithADifferentFirstHeadingGetsItsTitleAbove() throws {
        let (input, output, _) = try makeSiteFolder(self, ["a.md": "# A\n\n![[g]]\n",
                                                           "g.md": "---\ntitle: Guest\n---\n# Overview\n\nText.\n\n## Detail\n"])
        _ = try run(["convert", input, "-o", output])
        let html = try String(contentsOfFile: output + "/a.html", encoding: .utf8)
        XCTAssertEqual(try headings(html), ["h1:A", "h2:Guest", "h2:Overview", "h3:Detail"])
    }

    /// The bug: a cycle c1 → c2 → c1 was reported at c1.md:3:1 with c2's text, a missing leaf
    /// embedded by mid.md (embedded by top.md) at top.md:3 with the leaf's text, and
    /// `![[My Note#Part A]]` as "no note named 'My Note#Part A'". Now each warning names the file
    /// and line:column where its `![[…]]` is written, once per run however many pages embed it,
    /// and only the note part of the target.
    func testNestedEmbedWarningsNameTheFileAndLineOfTheEmbedOnce() throws {
        let (input, output, _) = try makeSiteFolder(self, [
            "c1.md": "# C1\n\n![[c2]]\n", "c2.md": "# C2\n\n![[c1]]\n", "x.md": "# X\n\n![[c1]]\n",
            "top.md": "# Top\n\n![[mid]]\n", "mid.md": "# Mid\n\n![[leaf]]\n\n![[My Note#Part A]]\n",
        ])
        let r = try run(["convert", input, "-o", output, "--verbose"])
        let warnings = r.stderr.split(separator: "\n").map(String.init).filter { $0.contains("warning: embed") }
        func count(_ s: String) -> Int { warnings.filter { $0 == s }.count }
        XCTAssertEqual(count(input + "/c2.md:3:1: warning: embed '![[c1]]': embeds itself (c1.md → c2.md → c1.md); written as a link"), 1, r.stderr)
        XCTAssertEqual(count(input + "/c1.md:3:1: warning: embed '![[c2]]': embeds itself (c2.md → c1.md → c2.md); written as a link"), 1, r.stderr)
        XCTAssertEqual(count(input + "/mid.md:3:1: warning: embed '![[leaf]]': no note named 'leaf'; written as a link"), 1, r.stderr)
        XCTAssertEqual(count(input + "/mid.md:5:1: warning: embed '![[My Note#Part A]]': no note named 'My Note'; written as a link"), 1, r.stderr)
        XCTAssertEqual(warnings.count, 4, r.stderr)
        XCTAssertFalse(r.stderr.contains("top.md:3"), r.stderr)
        XCTAssertFalse(r.stderr.contains("x.md:3"), r.stderr)
    }

    /// Issue 45 item 3: `![[#Setup]]` and `![[Same#Setup]]` (another section of the same note)
    /// were called "embeds itself" and written as links. Now the section is embedded; only an
    /// embed written inside the section it embeds (`![[#Loop]]` under `## Loop`) is a cycle, and
    /// `![[#A]]` in B with `![[#B]]` in A is one too (B's embed comes back through A).
    func testEmbedOfAnotherSectionOfTheSameNoteIsEmbedded() throws {
        let same = """
        # Same

        ![[#Setup]]

        ## Setup

        Setup text here.

        ## Use

        ![[Same#Setup]]

        ## Loop

        Loop text.

        ![[#Loop]]

        ## A

        ![[#B]]

        ## B

        ![[#A]]

        """
        let (input, output, _) = try makeSiteFolder(self, [".obsidian/app.json": "{}", "Same.md": same])
        let r = try run(["convert", input, "-o", output, "--verbose"])
        let html = try String(contentsOfFile: output + "/Same.html", encoding: .utf8)
        XCTAssertEqual(html.components(separatedBy: "Setup text here.").count - 1, 3, html)
        XCTAssertFalse(r.stderr.contains("'![[#Setup]]'"), r.stderr)
        XCTAssertFalse(r.stderr.contains("'![[Same#Setup]]'"), r.stderr)
        XCTAssertTrue(r.stderr.contains(input + "/Same.md:17:1: warning: embed '![[#Loop]]': embeds itself (Same.md → Same.md); written as a link"), r.stderr)
        XCTAssertTrue(r.stderr.contains(input + "/Same.md:25:1: warning: embed '![[#A]]': embeds itself"), r.stderr)
        XCTAssertTrue(r.stderr.contains(input + "/Same.md:21:1: warning: embed '![[#B]]': embeds itself"), r.stderr)
        XCTAssertEqual(html.components(separatedBy: "Loop text.").count - 1, 1, html)
    }

    /// Issue 45 item 3: a note embed alone in a table cell (or in a footnote definition) stayed a
    /// link with no word said. A cell holds inline text, not a note's blocks: the embed is still
    /// written as a link, now with a warning at the file:line:column where it is written.
    func testEmbedInATableCellOrFootnoteIsReportedAsKeptAsALink() throws {
        let page = "# T\n\n| a | b |\n|---|---|\n| ![[other]] | x |\n\nText[^1].\n\n[^1]: ![[other#Part]]\n"
        let (input, output, _) = try makeSiteFolder(self, [".obsidian/app.json": "{}", "t.md": page, "other.md": "# Other\n\n## Part\n\nOther text.\n"])
        let r = try run(["convert", input, "-o", output, "--verbose"])
        XCTAssertTrue(r.stderr.contains(input + "/t.md:5:3: warning: embed '![[other]]' in a table cell: written as a link"), r.stderr)
        XCTAssertTrue(r.stderr.contains(input + "/t.md:9:7: warning: embed '![[other#Part]]' in a footnote definition: written as a link"), r.stderr)
        let html = try String(contentsOfFile: output + "/t.html", encoding: .utf8)
        XCTAssertTrue(html.contains("<td dir=\"auto\"><a href=\"other.html\">other</a></td>"), html)
    }
}
