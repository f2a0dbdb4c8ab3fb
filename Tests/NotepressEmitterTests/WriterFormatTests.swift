import Foundation
import Notepress
import XCTest
import NotepressTestSupport

/// Issue 51, item 3: writers were told apart by comparing their names (`name == "html"`, often
/// with `!options.fragment`, in 12 places of the site engine and the command line). Each writer
/// now has a typed ``OutputFormat``, and "does this run make HTML pages" is one question.
final class WriterFormatTests: XCTestCase {
    /// A library user asks a writer for its format, and a format whether it makes HTML pages:
    /// true exactly for HTML without `fragment`.
    func testEveryWriterHasItsTypedFormatAndOnlyHTMLWithoutFragmentMakesPages() {
        XCTAssertEqual(Set(WriterRegistry.all.map(\.format)), Set(OutputFormat.allCases))
        XCTAssertEqual(WriterRegistry.all.count, OutputFormat.allCases.count)
        for format in OutputFormat.allCases {
            XCTAssertEqual(WriterRegistry.writer(for: format).format, format)
            XCTAssertEqual(WriterRegistry.writer(named: format.rawValue)?.format, format)
            XCTAssertEqual(WriterRegistry.writer(for: format).name, format.rawValue)
        }
        XCTAssertNil(WriterRegistry.writer(named: "tree"), "-t tree is the command line's alias, not a writer")
        let pages = ConversionOptions()
        var fragments = ConversionOptions()
        fragments.fragment = true
        XCTAssertEqual(OutputFormat.allCases.filter { $0.makesHTMLPages(with: pages) }, [.html])
        XCTAssertEqual(OutputFormat.allCases.filter { $0.makesHTMLPages(with: fragments) }, [])
        XCTAssertTrue(pages.makesHTMLPages(WriterRegistry.all))
        XCTAssertFalse(fragments.makesHTMLPages(WriterRegistry.all))
        XCTAssertFalse(pages.makesHTMLPages(WriterRegistry.all.filter { $0.format != .html }))
        XCTAssertEqual(WriterRegistry.writer(forOutputPath: "page.htm")?.format, .html)
        XCTAssertEqual(WriterRegistry.writer(forOutputPath: "tool.3p")?.format, .man)
    }

    /// Through the binary: a folder run whose HTML is fragments writes no site furniture (notes
    /// list, shared assets, chrome), with HTML first or not among the formats; one whose HTML is
    /// pages writes it all, also when HTML is not the first format. Man pages link to no heading.
    func testAFolderRunMakesSitePagesExactlyWhenItsHTMLIsPagesWhateverTheOrderOfFormats() throws {
        let (input, output, _) = try makeSiteFolder(self, ["a.md": "# A\n\nSee [b](b.md#sec).\n", "b.md": "# B\n\n## Sec\n\ntext\n"])
        for (formats, fragment) in [("man,html", true), ("html,man", true), ("man,html", false), ("html,man", false)] {
            let out = output + "-" + formats + (fragment ? "-fragment" : "")
            let r = try NotepressBinary.run(["convert", input, "-o", out, "-t", formats, "-q"] + (fragment ? ["--fragment"] : []))
            XCTAssertEqual(r.status, 0, r.stderr)
            let page = String(decoding: FileManager.default.contents(atPath: out + "/a.html") ?? Data(), as: UTF8.self)
            let label = "-t \(formats)\(fragment ? " --fragment" : "")"
            XCTAssertTrue(page.contains("<a href=\"b.html#sec\">b</a>"), label + ": " + page)
            XCTAssertEqual(FileManager.default.fileExists(atPath: out + "/_notepress/notepress.css"), !fragment, label)
            XCTAssertEqual(FileManager.default.fileExists(atPath: out + "/index.html"), !fragment, label)
            XCTAssertEqual(page.contains("_notepress/notepress.css"), !fragment, label)
            XCTAssertEqual(page.hasPrefix("<h1>A</h1>\n"), fragment, label)
            let man = String(decoding: FileManager.default.contents(atPath: out + "/a.man") ?? Data(), as: UTF8.self)
            XCTAssertFalse(man.isEmpty || man.contains("#sec"), label + ": " + man)
        }
    }
}
