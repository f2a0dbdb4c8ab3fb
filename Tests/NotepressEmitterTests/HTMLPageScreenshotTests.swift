import Foundation
import NotepressAST
import NotepressHTML
import NotepressReaders
import NotepressResources
import NotepressThemes
import XCTest
import NotepressTestSupport

/// Writes every sample's page and the index at three size categories, as `make screenshots`
/// (.ci/screenshots.sh) needs them until `notepress convert` exists: into
/// `$NOTEPRESS_SCREENSHOT_HTML/html-<category>/` when that variable is set, else a temporary
/// folder. Checks what each page must carry at its category.
final class HTMLPageScreenshotTests: XCTestCase {
    func testWriteSamplePagesAtThreeCategories() throws {
        let env = ProcessInfo.processInfo.environment["NOTEPRESS_SCREENSHOT_HTML"]
        let root = env.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("np-shots-\(UUID().uuidString)")
        if env == nil { addTeardownBlock { try? FileManager.default.removeItem(at: root) } }
        let docs = try HTMLPageValidityTests.sampleDocuments()
        XCTAssertFalse(docs.isEmpty)
        let store = TemplateStore()
        let theme = try ThemeLoader(store: store).load("default")
        for category in [SizeCategory.extraSmall, .large, .accessibilityExtraExtraExtraLarge] {
            let dir = root.appendingPathComponent("html-\(category.rawValue)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let resolved = theme.resolved(category: category)
            var entries: [(title: String, created: Date?, href: String)] = []
            for (name, doc) in docs {
                let html = try HTMLPage(theme: resolved, templates: store)
                    .render(document: doc, body: HTMLEmitter(options: HTMLOptions()).fragment(doc))
                XCTAssertTrue(html.contains("data-size-category=\"\(category.rawValue)\""))
                XCTAssertTrue(html.contains("id=\"size-\(category.alias)\" value=\"\(category.rawValue)\" checked>"))
                try html.write(to: dir.appendingPathComponent(name + ".html"), atomically: true, encoding: .utf8)
                entries.append((title: doc.metadata.title ?? name, created: doc.metadata.created, href: name + ".html"))
            }
            let index = try HTMLIndex(theme: resolved, templates: store).render(entries: entries)
            try index.write(to: dir.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
            let letter = try String(contentsOf: dir.appendingPathComponent("letter-to-future-me.html"), encoding: .utf8)
            XCTAssertTrue(letter.contains("<time class=\"date-badge\" datetime=\"2024-01-01T00:15:00Z\"><span class=\"day\">1</span> <span class=\"month\">Jan</span> <span class=\"year\">2024</span></time>"), letter)
        }
    }
}
