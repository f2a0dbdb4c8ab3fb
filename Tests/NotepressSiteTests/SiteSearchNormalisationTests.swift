import Foundation
@testable import NotepressSite
import XCTest
import NotepressTestSupport

/// Issue 46, item 1: the index's normalisation (``SearchTerms/normalized(_:)``, ICU) and the
/// page's (site.js, with the folding table the index's `meta.js` carries) agree on every word
/// of the corpus, run in Chromium from `file://`.
final class SiteSearchNormalisationTests: XCTestCase {
    /// The page's normaliser (site.js with the index's folding table, in Chromium) gives every
    /// word of the corpus the same search form as the index's (``SearchTerms/normalized(_:)``).
    func testPageScriptNormalisesEveryCorpusWordAsTheIndexDoes() throws {
        let site = try makeSiteFolder(self, ["index.md": "# Home\n\nWelcome.\n"])
        let r = try NotepressBinary.run(["convert", site.input, "-o", site.output, "-q"], environment: SiteSearchLanguageTests.epoch)
        XCTAssertEqual(r.status, 0, r.stderr)
        var words = Set<String>(["Straße", "STRASSE", "ẞ", "ΟΔΟΣ", "Σίσυφος", "İstanbul", "ﬁle", "Ꭰ", "ꭰ", "ǅ", "Ⅻ",
                                 "Zoe\u{0308}", "\u{1112}\u{1161}\u{11AB}", "がっこう", "ｶﾀｶﾅ", "Ǆemal", "ŉ", "ﬀ", "µ", "Å"])
        for url in TestPaths.files(under: TestPaths.corpus, extensions: ["md", "txt", "json", "html"]) {
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            for w in text.split(whereSeparator: { !$0.isLetter && !$0.isNumber }) { words.insert(String(w)) }
        }
        let list = words.sorted()
        XCTAssertGreaterThan(list.count, 5000)
        let swift = list.map(SearchTerms.normalized)
        let data = try JSONSerialization.data(withJSONObject: list)
        try ("window.words = " + String(decoding: data, as: UTF8.self) + ";\n").write(toFile: site.output + "/words.js", atomically: true, encoding: .utf8)
        let page = """
        <!DOCTYPE html><html><head><meta charset="utf-8"><script src="_notepress/notepress.js"></script>
        <script src="_notepress/search/meta.js"></script><script src="words.js"></script></head><body><pre id="out"></pre>
        <script>document.getElementById("out").textContent = JSON.stringify(window.words.map(window.notepressSearch.normalize));</script>
        </body></html>
        """
        try page.write(toFile: site.output + "/norm.html", atomically: true, encoding: .utf8)
        let out = try SiteSearchLanguageTests.dom("file://" + site.output + "/norm.html")
        let start = try XCTUnwrap(out.range(of: "<pre id=\"out\">")).upperBound
        let end = try XCTUnwrap(out.range(of: "</pre>", range: start..<out.endIndex)).lowerBound
        let json = String(out[start..<end]).replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">")
        let js = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String])
        XCTAssertEqual(js.count, list.count)
        var differ: [String] = []
        for (i, w) in list.enumerated() where i < js.count && js[i] != swift[i] { differ.append("\(w): swift \(swift[i]) js \(js[i])") }
        XCTAssertEqual(differ, [], "\(differ.count) of \(list.count) words differ")
        XCTAssertEqual(SearchTerms.normalized("Straße"), "strasse")
        XCTAssertEqual(SearchTerms.normalized("Diátaxis"), "diataxis")
    }
}
