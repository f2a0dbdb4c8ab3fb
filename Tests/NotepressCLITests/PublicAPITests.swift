import Foundation
import XCTest
import NotepressTestSupport

/// Issue 18: the library's public surface, read from the compiler's symbol graphs of the debug
/// build by `.ci/public-api.py` (swift-symbolgraph-extract; about a second).
final class PublicAPITests: XCTestCase {
    /// Runs `.ci/public-api.py ARGS` on this checkout's debug build; returns its output.
    func publicAPI(_ args: [String]) throws -> String {
        let r = try runTool("python3", [TestPaths.root.appendingPathComponent(".ci/public-api.py").path,
                                        "--build-path", TestPaths.root.appendingPathComponent(".build/debug").path] + args)
        XCTAssertEqual(r.status, 0, r.output)
        return r.output
    }

    func testEveryPublicDeclarationHasADocComment() throws {
        let out = try publicAPI(["--list"])
        let line = out.split(separator: "\n").first { $0.hasPrefix("undocumented: ") }
        XCTAssertEqual(line, "undocumented: 0", "public declarations without a doc comment:\n" + out)
    }

    /// Public means the library API: the facade, the document tree and the themes. Everything
    /// else is `package` (the command line, the fuzzer and the tests see it; clients do not): a
    /// new public type is a decision, made here. (Issue 45: the document tree's definition lists,
    /// MkDocs attribute lists and the names of content-tab blocks are part of the tree.)
    func testPublicTypesAreTheLibraryAPI() throws {
        let types = try publicAPI(["--types"]).split(separator: "\n").filter { $0.contains(": ") && !$0.hasPrefix("undocumented") }
        XCTAssertEqual(types.map(String.init), [
            "Notepress: Conversion", "Notepress: ConversionOptions", "Notepress: HighlightStyleError", "Notepress: Notepress",
            "Notepress: NotepressError", "Notepress: OutputFormat", "Notepress: PaperSize",
            "NotepressAST: Alert", "NotepressAST: Block", "NotepressAST: BlockVisitor", "NotepressAST: CodeHighlight",
            "NotepressAST: CodeInfo", "NotepressAST: CodeRole", "NotepressAST: ColorRole", "NotepressAST: ContentTabs", "NotepressAST: DefinitionItem",
            "NotepressAST: Diagnostic", "NotepressAST: Document", "NotepressAST: DocumentMetadata",
            "NotepressAST: InlineAttributeTable", "NotepressAST: InlineAttributes", "NotepressAST: InlineRun",
            "NotepressAST: InlineSpan", "NotepressAST: Inlines", "NotepressAST: Link", "NotepressAST: ListBlock",
            "NotepressAST: ListItem", "NotepressAST: MarkupAttributes", "NotepressAST: MetadataValue", "NotepressAST: RunContent", "NotepressAST: SiteLinkTarget", "NotepressAST: SourceFormat",
            "NotepressAST: SourcePosition", "NotepressAST: Table", "NotepressAST: TextDirection", "NotepressAST: TextStyle",
            "NotepressThemes: CodePalette", "NotepressThemes: CodeStyle", "NotepressThemes: ColorDepth", "NotepressThemes: DynamicTypeTable", "NotepressThemes: FontDesign",
            "NotepressThemes: FontFamily", "NotepressThemes: FontWeight", "NotepressThemes: GenericFamily",
            "NotepressThemes: RGBColor", "NotepressThemes: ResolvedStyle", "NotepressThemes: ResolvedTheme",
            "NotepressThemes: SizeCategory", "NotepressThemes: StyleSpec", "NotepressThemes: TerminalTextStyle",
            "NotepressThemes: Theme", "NotepressThemes: ThemeColors", "NotepressThemes: ThemeRole",
        ])
        // The other modules of the product have no public symbol at all.
        for line in try publicAPI([]).split(separator: "\n") {
            let cols = line.split(separator: " ", omittingEmptySubsequences: true)
            guard cols.count == 4, let name = cols.first, name.hasPrefix("Notepress"),
                  !["Notepress", "NotepressAST", "NotepressThemes"].contains(String(name)) else { continue }
            XCTAssertEqual(cols[2], "0", "\(name) has public symbols")
        }
    }
}
