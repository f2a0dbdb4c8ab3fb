import Foundation
import NotepressSite
import XCTest
import NotepressTestSupport
@testable import NotepressHTML
import NotepressResources

/// ``MustacheTemplate`` against the official spec (`../shared/corpus/mustache-spec`, see its
/// TESTING.md) and the errors and limits the spec leaves to implementations.
final class MustacheTests: XCTestCase {

    /// A JSON value of the spec files as template data (numbers as their JSON text: `1.21`, `85`).
    private enum JSONValue: Decodable {
        case value(MustacheValue)
        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() { self = .value(.null); return }
            if let b = try? c.decode(Bool.self) { self = .value(.bool(b)); return }
            if let i = try? c.decode(Int.self) { self = .value(.string(String(i))); return }
            if let d = try? c.decode(Double.self) { self = .value(.string(String(d))); return }
            if let s = try? c.decode(String.self) { self = .value(.string(s)); return }
            if let l = try? c.decode([JSONValue].self) { self = .value(.list(l.map(\.mustache))); return }
            let m = try c.decode([String: JSONValue].self)
            self = .value(.map(m.mapValues(\.mustache)))
        }
        var mustache: MustacheValue { if case .value(let v) = self { return v }; return .null }
    }

    private struct SpecFile: Decodable {
        struct Case: Decodable {
            var name: String
            var data: JSONValue
            var template: String
            var partials: [String: String]?
            var expected: String
        }
        var tests: [Case]
    }

    /// Every case of comments, delimiters, interpolation, inverted, partials and sections renders
    /// its `expected` text, with HTMLEscape.text (the project's one HTML escaper) as the escaper.
    func testMustacheSpecAllPass() throws {
        let dir = TestPaths.corpus.appendingPathComponent("mustache-spec")
        var total = 0
        var passed = 0
        var report: [String] = []
        for module in ["comments", "delimiters", "interpolation", "inverted", "partials", "sections"] {
            let spec = try JSONDecoder().decode(SpecFile.self, from: Data(contentsOf: dir.appendingPathComponent(module + ".json")))
            var ok = 0
            for c in spec.tests {
                do {
                    let partials = try MustacheTemplate.compile(c.partials ?? [:])
                    let got = try MustacheTemplate(c.template, name: c.name).render(c.data.mustache, partials: partials, escape: HTMLEscape.text)
                    // The bytes output (page bodies) renders every case to the same text.
                    let bytes = try MustacheTemplate(c.template, name: c.name).renderUTF8(c.data.mustache, partials: partials, escape: HTMLEscape.text)
                    XCTAssertEqual(String(decoding: bytes, as: UTF8.self), c.expected, "\(module) / \(c.name) as UTF-8")
                    if got == c.expected { ok += 1 } else {
                        XCTFail("\(module) / \(c.name): got \(got.debugDescription), expected \(c.expected.debugDescription)")
                    }
                } catch {
                    XCTFail("\(module) / \(c.name): \(error)")
                }
            }
            report.append("\(module) \(ok)/\(spec.tests.count)")
            total += spec.tests.count
            passed += ok
        }
        print("mustache spec: " + report.joined(separator: ", ") + "; \(passed) passed, \(total - passed) failed of \(total)")
        XCTAssertEqual(total, 136, "the spec files changed")
        XCTAssertEqual(passed, 136)
    }

    private func compileError(_ source: String) -> String {
        do {
            _ = try MustacheTemplate(source, name: "page.html")
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    func testCompileErrorsNameTheTagLineAndColumn() {
        XCTAssertEqual(compileError("<p>\n  {{#items}}\n  {{name}}\n"),
                       "page.html:2:3: section 'items' is not closed")
        XCTAssertEqual(compileError("{{#a}}\n {{#b}}x{{/a}}\n{{/b}}"),
                       "page.html:2:9: end tag 'a' does not match the open section 'b' (2:2)")
        XCTAssertEqual(compileError("x\n{{/a}}"), "page.html:2:1: end tag 'a' closes no section")
        XCTAssertEqual(compileError("é {{title"), "page.html:1:3: tag is not closed: no '}}' after it")
        XCTAssertEqual(compileError("{{{body}}"), "page.html:1:1: tag is not closed: no '}}}' after it")
        XCTAssertEqual(compileError("a\n\t{{=<% %> x=}}"),
                       "page.html:2:2: bad delimiter tag: expected two delimiters without whitespace or '=', as in {{=<% %>=}}")
        XCTAssertEqual(compileError("{{=<%%>=}}"),
                       "page.html:1:1: bad delimiter tag: expected two delimiters without whitespace or '=', as in {{=<% %>=}}")
        XCTAssertEqual(compileError("{{ }}"), "page.html:1:1: tag has no name")
        XCTAssertEqual(compileError("{{a b}}"), "page.html:1:1: name 'a b' contains whitespace")
        XCTAssertEqual(compileError("{{a..b}}"), "page.html:1:1: name 'a..b' has an empty part")
        XCTAssertEqual(compileError("{{<base}}"), "page.html:1:1: '{{<…}}' (template inheritance) is not supported")
    }

    func testSectionsNestedTooDeepAreACompileError() {
        let deep = String(repeating: "{{#a}}", count: 101) + String(repeating: "{{/a}}", count: 101)
        XCTAssertEqual(compileError(deep), "page.html:1:601: sections nest deeper than 100 levels")
        let ok = String(repeating: "{{#a}}", count: 100) + "x" + String(repeating: "{{/a}}", count: 100)
        XCTAssertEqual(try MustacheTemplate(ok).render(["a": true], escape: { $0 }), "x")
    }

    /// A partial that includes itself with data that never runs out stops with an error at the tag.
    func testRecursivePartialWithoutEndIsAnErrorNotACrash() throws {
        let partials = try MustacheTemplate.compile(["loop": "x\n  {{>loop}}"])
        XCTAssertThrowsError(try MustacheTemplate("{{>loop}}").render([:], partials: partials, escape: { $0 })) { e in
            XCTAssertEqual("\(e)", "loop:2:3: sections and partials nest deeper than 100 levels (a partial that includes itself?)")
        }
    }

    /// The page data the site work will give: front-matter fields, a tag list, raw body HTML.
    func testPageTemplateWithFieldsListsAndRawBody() throws {
        let page = try MustacheTemplate("""
            <html lang="{{lang}}">
            <title>{{title}}</title>
            {{#author}}
            <meta name="author" content="{{author}}">
            {{/author}}
            {{^tags}}
            <p>no tags</p>
            {{/tags}}
            <ul>
              {{#tags}}
              <li>{{.}}</li>
              {{/tags}}
            </ul>
            {{> footer}}
            {{{body}}}
            """, name: "page.html")
        let partials = try MustacheTemplate.compile(["footer": "<footer>{{site.name}}</footer>\n"])
        let data: MustacheValue = ["lang": "en", "title": "Fish & <Chips>", "author": "",
                                   "tags": ["a\"b", "c"], "site": ["name": "Notes"], "body": "<p>x</p>"]
        XCTAssertEqual(try page.render(data, partials: partials, escape: HTMLEscape.text), """
            <html lang="en">
            <title>Fish &amp; &lt;Chips&gt;</title>
            <ul>
              <li>a&quot;b</li>
              <li>c</li>
            </ul>
            <footer>Notes</footer>
            <p>x</p>
            """)
    }

    /// The built-in page templates render, for the values the old `{{name}}` substitution had,
    /// exactly the page it made (written out here by hand from the old templates): the Mustache
    /// templates add only the optional `<meta>` lines and the table of contents, which are absent
    /// when their values are.
    func testBuiltInTemplatesRenderAsBeforeWithoutTheNewValues() throws {
        let data: MustacheValue = ["lang": "he", "dir": "rtl", "title": "A<B & \"C\"", "category": "l", "theme": "default",
                                   "generator": "Notepress", "stylesheet": ":root { --x: 1; }\n", "sizeSwitcher": "<nav>s</nav>",
                                   "dateBadge": "<div>d</div>", "body": "<p>b &amp; {{x}}</p>\n", "entries": "<li>e</li>\n",
                                   "toc": "", "author": [], "keywords": ""]
        let head = """
            <!DOCTYPE html>
            <html lang="he" dir="rtl" data-size-category="l">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <meta name="generator" content="Notepress">
            <title>A&lt;B &amp; &quot;C&quot;</title>
            <style>
            :root { --x: 1; }
            </style>
            </head>
            <body>
            <nav>s</nav>

            """
        let expected = [
            "html/page.html": head + """
                <article class="note">
                <h1 class="note-title letterpress" dir="auto">A&lt;B &amp; &quot;C&quot;</h1>
                <div>d</div>
                <p>b &amp; {{x}}</p>

                </article>
                </body>
                </html>

                """,
            "html/index.html": head.replacingOccurrences(of: " dir=\"rtl\"", with: "") + """
                <main class="index">
                <h1 class="note-title letterpress" dir="auto">A&lt;B &amp; &quot;C&quot;</h1>
                <ol class="index-list" reversed>
                <li>e</li>
                </ol>
                </main>
                </body>
                </html>

                """,
        ]
        // With their partials (the site's parts are partials since issue 34; without `inSite` they
        // write the page's own stylesheet and nothing of the site).
        for (path, page) in expected {
            XCTAssertEqual(try PageTemplate.builtIn(path, store: TemplateStore()).render(data), page, path)
        }
    }

    /// A `.utf8` value (a page body kept as bytes) is text: raw by `{{{name}}}`, escaped by
    /// `{{name}}`, truthy unless empty, in both the `String` and the bytes output.
    func testUTF8ValueIsTextInBothOutputs() throws {
        let t = try MustacheTemplate("{{{body}}}|{{body}}|{{#body}}T{{/body}}{{^empty}}F{{/empty}}")
        let data: MustacheValue = ["body": .utf8(Array("a<b>é".utf8)), "empty": .utf8([])]
        XCTAssertEqual(try t.render(data, escape: HTMLEscape.text), "a<b>é|a&lt;b&gt;é|TF")
        XCTAssertEqual(try t.renderUTF8(data, escape: HTMLEscape.text), Array("a<b>é|a&lt;b&gt;é|TF".utf8))
    }

    /// Regression (new-user try-out 2026-12-01): a standalone partial's indentation went only
    /// before its first line when the partial's lines ended in CR LF (one Swift `Character`).
    func testIndentedPartialWithCRLFLinesIndentsEveryLine() throws {
        let partials = try MustacheTemplate.compile(["p": "L1\r\nL2\r\n"])
        let t = try MustacheTemplate("a\n  {{>p}}\nz\n")
        XCTAssertEqual(try t.render([:], partials: partials, escape: { $0 }), "a\n  L1\r\n  L2\r\nz\n")
        XCTAssertEqual(try t.renderUTF8([:], partials: partials, escape: { $0 }), Array("a\n  L1\r\n  L2\r\nz\n".utf8))
    }

    /// A long template of many tags compiles and renders in linear time.
    func testLongTemplateIsLinear() throws {
        let source = String(repeating: "{{#s}}<b>{{x}}</b>{{/s}}{{! c }}\n", count: 50_000)
        let start = processCPUSeconds()
        let out = try MustacheTemplate(source).render(["s": true, "x": "y"], escape: { $0 })
        XCTAssertEqual(out.count, 50_000 * 9)
        XCTAssertLessThan(processCPUSeconds() - start, 5, "CPU seconds")
        let delimiters = "{{=" + String(repeating: "<", count: 2000) + " >=}}" + String(repeating: "<", count: 1999) + "x"
        XCTAssertEqual(try MustacheTemplate(delimiters + String(repeating: "<", count: 2000) + "x>").render(["x": "1"], escape: { $0 }),
                       String(repeating: "<", count: 1999) + "x1")
    }
}
