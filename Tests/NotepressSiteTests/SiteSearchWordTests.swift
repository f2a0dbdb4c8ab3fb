import Foundation
@testable import NotepressSite
import XCTest
import NotepressTestSupport

/// Words as a new user typed them (issue 46, the try-out's tokenisation bugs), through the real
/// binary and real Chromium from `file://`:
/// - `O’Reilly` and `O'Reilly` are found by `oreilly`, `o'reilly`, `O’Reilly` and `reilly` (a
///   word's term leaves out apostrophes, as Elasticsearch's word delimiter and pagefind do; its
///   parts are indexed too, so the name after the apostrophe finds it);
/// - `jo@example.com` is found by itself, by `example` and by `example.com` (ICU splits at `@`:
///   the index joins the address and indexes its parts);
/// - `c++`, `c#` and `.net` are found as typed, and `c++` does not list every word starting with c;
/// - `c++` finds `C++17` (issue 46: ICU drops the `++` before a number, and the page's `C++17` was
///   indexed as `c` and `17`).
final class SiteSearchWordTests: XCTestCase {
    static let notes: [String: String] = [
        "index.md": "# Home\n\nWelcome.\n",
        "curly.md": "# Books\n\nPublished by O’Reilly Media in 2004.\n",
        "straight.md": "# More books\n\nAn O'Reilly title on the shelf.\n",
        "riley.md": "# Riley\n\nSomeone called Reilly, no apostrophe.\n",
        "mail.md": "# Contact\n\nWrite to jo@example.com today.\n",
        "cpp.md": "# Languages\n\nI write C++ at work.\n",
        "csharp.md": "# Others\n\nC# and .NET on a server.\n",
        "cat.md": "# Pets\n\nA cat in a net and a comb.\n",
        "cpp17.md": "# Standards\n\nThe build moved to C++17 last year.\n",
    ]

    var site: (input: String, output: String, dir: String)!

    override func setUpWithError() throws {
        site = try makeSiteFolder(self, Self.notes)
        let r = try NotepressBinary.run(["convert", site.input, "-o", site.output, "-q"], environment: SiteSearchLanguageTests.epoch)
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    /// The search page's results for `query` (pages relative to the output) and the list's HTML.
    func results(_ query: String, file: StaticString = #filePath, line: UInt = #line) throws -> (pages: [String], html: String) {
        let q = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let page = try SiteSearchLanguageTests.dom("file://" + site.output + "/search.html?q=" + q, file: file, line: line)
        guard let start = page.range(of: "<ol class=\"search-results\">"),
              let end = page.range(of: "</ol>", range: start.upperBound..<page.endIndex) else {
            XCTFail("no results list", file: file, line: line)
            return ([], page)
        }
        XCTAssertFalse(page.contains("Search is not available"), "index or lunr missing", file: file, line: line)
        let list = String(page[start.upperBound..<end.lowerBound])
        let prefix = "<li><a href=\"file://" + site.output + "/"
        return (list.components(separatedBy: prefix).dropFirst().map { String($0.prefix { $0 != "\"" }) }, list)
    }

    func testApostrophesInNamesAreFoundWithOrWithoutThem() throws {
        for q in ["oreilly", "o'reilly", "O’Reilly", "OReilly"] {
            XCTAssertEqual(Set(try results(q).pages), ["curly.html", "straight.html"], q)
        }
        XCTAssertEqual(Set(try results("reilly").pages), ["curly.html", "straight.html", "riley.html"], "the name after the apostrophe")
        XCTAssertEqual(try results("\"o'reilly media\"").pages, ["curly.html"], "a phrase across the typographic apostrophe")
        XCTAssertTrue(try results("reilly").html.contains("Published by <mark>O’Reilly</mark> Media"), "the word as written, marked")
    }

    func testEmailAddressIsFoundWholeAndByItsParts() throws {
        XCTAssertEqual(try results("jo@example.com").pages, ["mail.html"])
        XCTAssertEqual(try results("example").pages, ["mail.html"])
        XCTAssertEqual(try results("example.com").pages, ["mail.html"])
        XCTAssertEqual(try results("jo@example.org").pages, [], "another address")
        XCTAssertTrue(try results("example").html.contains("Write to <mark>jo@example.com</mark> today."))
    }

    func testCPlusPlusCSharpAndDotNetAreFoundAsTyped() throws {
        XCTAssertEqual(Set(try results("c++").pages), ["cpp.html", "cpp17.html"], "not every word starting with c")
        XCTAssertEqual(try results("C#").pages, ["csharp.html"])
        XCTAssertEqual(try results(".net").pages, ["csharp.html"], "not the plain word net")
        XCTAssertEqual(Set(try results("net").pages), ["csharp.html", "cat.html"])
        XCTAssertTrue(try results("c++").html.contains("I write <mark>C++</mark> at work."))
    }

    func testCPlusPlusFindsCPlusPlus17() throws {
        XCTAssertTrue(try results("c++").pages.contains("cpp17.html"))
        XCTAssertEqual(try results("C++17").pages, ["cpp17.html"])
        XCTAssertEqual(try results("c++ 17").pages, ["cpp17.html"])
        XCTAssertEqual(SearchTerms.terms("C++17 x++ a+1 C#7"), ["c++", "17", "x++", "a", "1", "c", "7"])
    }

    /// The page's terms (site.js `flat`, Intl.Segmenter in Chromium) are the index's
    /// (``SearchTerms/terms(_:)``, ICU) for these words and every ASCII line of the corpus.
    func testPageAndIndexSplitTextIntoTheSameTerms() throws {
        var texts = ["O’Reilly and O'Reilly", "don't stop", "mail jo@example.com or a.b@c.d.", "C++ C# F# .NET x++y a+b", "C++17 and c++20, C#7 a+1",
                     "10+ years", "end. net", "(.net)", "see .gitignore", "e.g. 3.14 v1.2.3", "#tag c#", "user@host",
                     "Ｏ＇Ｒｅｉｌｌｙ", "l'été d’Émile", "rock ’n’ roll", "@handle", "a@b"]
        for url in TestPaths.files(under: TestPaths.corpus, extensions: ["md"]).prefix(40) {
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            texts += text.split(separator: "\n").map(String.init).filter { !$0.isEmpty && $0.utf8.allSatisfy { $0 < 0x80 } }.prefix(100)
        }
        let swift = texts.map { SearchTerms.terms($0) }
        let data = try JSONSerialization.data(withJSONObject: texts)
        try ("window.texts = " + String(decoding: data, as: UTF8.self) + ";\n").write(toFile: site.output + "/texts.js", atomically: true, encoding: .utf8)
        let page = """
        <!DOCTYPE html><html><head><meta charset="utf-8"><script src="_notepress/notepress.js"></script>
        <script src="_notepress/search/meta.js"></script><script src="texts.js"></script></head><body><pre id="out"></pre>
        <script>document.getElementById("out").textContent = JSON.stringify(window.texts.map(window.notepressSearch.flat));</script>
        </body></html>
        """
        try page.write(toFile: site.output + "/terms.html", atomically: true, encoding: .utf8)
        let out = try SiteSearchLanguageTests.dom("file://" + site.output + "/terms.html")
        let start = try XCTUnwrap(out.range(of: "<pre id=\"out\">")).upperBound
        let end = try XCTUnwrap(out.range(of: "</pre>", range: start..<out.endIndex)).lowerBound
        let json = String(out[start..<end]).replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
        let js = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String]])
        XCTAssertEqual(js.count, texts.count)
        var differ: [String] = []
        for (i, t) in texts.enumerated() where i < js.count && js[i] != swift[i] { differ.append("\(t): swift \(swift[i]) js \(js[i])") }
        XCTAssertEqual(differ, [], "\(differ.count) of \(texts.count) texts differ")
        XCTAssertEqual(SearchTerms.terms("O’Reilly jo@example.com C++ c# .NET"),
                       ["oreilly", "reilly", "jo@example.com", "jo", "example", "com", "c++", "c#", ".net", "net"])
    }
}
