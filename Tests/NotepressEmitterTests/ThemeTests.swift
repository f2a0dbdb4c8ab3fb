import Foundation
import NotepressAST
import NotepressResources
import NotepressThemes
import XCTest
import NotepressTestSupport

/// Theme files: the size table, roles, inheritance, Bold Text, contrast, JSON round trip.
final class ThemeTests: XCTestCase {
    let loader = ThemeLoader(store: TemplateStore())

    /// Apple HIG, Typography, Specifications: "iOS, iPadOS Dynamic Type sizes" (xSmall …
    /// xxxLarge) and "iOS, iPadOS larger accessibility type sizes" (AX1 … AX5), typed in
    /// literally from the twelve published tables: size and leading per category.
    /// Columns: xSmall, Small, Medium, Large, xLarge, xxLarge, xxxLarge, AX1 … AX5.
    static let appleTable: [(TextStyle, [Double])] = [
        (.largeTitle,  [31, 32, 33, 34, 36, 38, 40, 44, 48, 52, 56, 60]),
        (.title1,      [25, 26, 27, 28, 30, 32, 34, 38, 43, 48, 53, 58]),
        (.title2,      [19, 20, 21, 22, 24, 26, 28, 34, 39, 44, 50, 56]),
        (.title3,      [17, 18, 19, 20, 22, 24, 26, 31, 37, 43, 49, 55]),
        (.headline,    [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53]),
        (.body,        [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53]),
        (.subheadline, [12, 13, 14, 15, 17, 19, 21, 25, 30, 36, 42, 49]),
        (.footnote,    [12, 12, 12, 13, 15, 17, 19, 23, 27, 33, 38, 44]),
        (.caption1,    [11, 11, 11, 12, 14, 16, 18, 22, 26, 32, 37, 43]),
        (.caption2,    [11, 11, 11, 11, 13, 15, 17, 20, 24, 29, 34, 40]),
    ]

    /// The leading column of the same twelve tables.
    static let appleLeading: [(TextStyle, [Double])] = [
        (.largeTitle,  [38, 39, 40, 41, 43, 46, 48, 52, 57, 61, 66, 70]),
        (.title1,      [31, 32, 33, 34, 37, 39, 41, 46, 51, 57, 62, 68]),
        (.title2,      [24, 25, 26, 28, 30, 32, 34, 41, 47, 52, 59, 66]),
        (.title3,      [22, 23, 24, 25, 28, 30, 32, 38, 44, 51, 58, 65]),
        (.headline,    [19, 20, 21, 22, 24, 26, 29, 34, 40, 48, 56, 62]),
        (.body,        [19, 20, 21, 22, 24, 26, 29, 34, 40, 48, 56, 62]),
        (.subheadline, [16, 18, 19, 20, 22, 24, 28, 31, 37, 43, 50, 58]),
        (.footnote,    [16, 16, 16, 18, 20, 22, 24, 29, 33, 40, 46, 52]),
        (.caption1,    [13, 13, 13, 16, 19, 21, 23, 28, 32, 39, 44, 51]),
        (.caption2,    [13, 13, 13, 13, 18, 20, 22, 25, 30, 35, 41, 48]),
    ]

    /// A data folder with `themes/NAME.json` files.
    func dataDir(_ files: [String: String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("np-themes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("themes"), withIntermediateDirectories: true)
        for (name, text) in files {
            try text.write(to: dir.appendingPathComponent("themes/\(name).json"), atomically: true, encoding: .utf8)
        }
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir
    }

    func testDefaultThemeCarriesApplesTableForEveryStyleAndCategory() throws {
        let theme = try loader.load("default")
        XCTAssertEqual(theme.name, "default")
        XCTAssertEqual(Set(Self.appleTable.map(\.0)), Set(TextStyle.allCases))
        for ((style, sizes), (_, leading)) in zip(Self.appleTable, Self.appleLeading) {
            XCTAssertEqual(sizes.count, 12)
            XCTAssertEqual(leading.count, 12)
            for category in SizeCategory.allCases {
                let resolved = theme.resolved(category: category).style(style)
                XCTAssertEqual(resolved.size, sizes[category.index], "\(style) at \(category)")
                XCTAssertEqual(resolved.lineHeight, leading[category.index], "\(style) leading at \(category)")
            }
        }
        // Weights: headline semibold, the rest regular; the default theme draws the heading
        // styles in the table's emphasized weights (title1, title2 bold; title3 semibold).
        XCTAssertEqual(theme.resolved().style(.headline).weight, .semibold)
        XCTAssertEqual(theme.resolved().style(.body).weight, .regular)
        XCTAssertEqual(theme.resolved().style(.title1).weight, .bold)
        XCTAssertEqual(theme.resolved().style(.title3).weight, .semibold)
        XCTAssertEqual(Theme.standard.styles[.title1]?.weight, .regular)
        // Leading is Apple's per category, not Large's scaled: body 19 at xSmall (22 × 14/17 would
        // round to 18), 62 at AX5 (scaling gave 69).
        XCTAssertEqual(theme.resolved(category: .extraSmall).style(.body).lineHeight, 19)
        XCTAssertEqual(theme.resolved().style(.body).lineHeight, 22)
        XCTAssertEqual(theme.resolved(category: .accessibilityExtraExtraExtraLarge).style(.body).lineHeight, 62)
    }

    func testShippedThemes() throws {
        let names = loader.availableThemes()
        for n in ["default", "reading", "high-contrast"] { XCTAssertTrue(names.contains(n), "missing theme \(n) in \(names)") }
        for n in names { XCTAssertNoThrow(try loader.load(n), n) }
        let reading = try loader.load("reading")
        XCTAssertEqual(reading.styles[.body]?.generic, .serif)
        XCTAssertEqual(reading.styles[.body]?.design, .serif)
        XCTAssertEqual(reading.styles[.body]?.family, "Charter")
        // The serif theme keeps Apple's sizes (issue 3: its ax5 pages have the table's sizes).
        XCTAssertEqual(reading.resolved(category: .large).style(.body).size, 17)
        XCTAssertEqual(reading.resolved(category: .accessibilityExtraExtraExtraLarge).style(.body).size, 53)
        XCTAssertEqual(reading.light.background, RGBColor(hex: "#f8f1e3"))
    }

    func testHighContrastThemeMeetsWCAGAAA() throws {
        let theme = try loader.load("high-contrast")
        XCTAssertEqual(theme.light.text, RGBColor(hex: "#000000"))
        XCTAssertEqual(theme.light.background, RGBColor(hex: "#ffffff"))
        for (label, c) in [("light", theme.light), ("dark", theme.dark)] {
            for (what, fg) in [("text", c.text), ("link", c.link), ("alert", c.alert), ("secondary", c.secondary)] {
                let ratio = Contrast.ratio(fg, c.background)
                XCTAssertGreaterThanOrEqual(ratio, 7, "\(label) \(what) \(fg) on \(c.background): \(ratio)")
            }
            XCTAssertGreaterThanOrEqual(Contrast.ratio(c.text, c.codeBackground), 7)
        }
        XCTAssertEqual(Contrast.ratio(RGBColor(hex: "#000")!, RGBColor(hex: "#fff")!), 21, accuracy: 0.001)
        // WCAG's own example threshold: #767676 on white is 4.54:1.
        XCTAssertEqual(Contrast.ratio(RGBColor(hex: "#767676")!, RGBColor(hex: "#ffffff")!), 4.54, accuracy: 0.01)
    }

    /// Issue 16: every font role has a fallback list whose last family is one Windows and macOS
    /// ship and fontconfig maps on Linux; RTF names that one (its `\\falt` the one before).
    func testFontListsEndWithPortableFamilies() throws {
        let d = try loader.load("default")
        XCTAssertEqual(d.styles[.body]?.font.names, ["-apple-system", "Helvetica Neue", "Segoe UI", "Roboto", "Liberation Sans", "Arial"])
        XCTAssertEqual(d.styles[.body]?.font.portableFamily, "Arial")
        XCTAssertEqual(d.styles[.body]?.font.alternativeFamily, "Liberation Sans")
        XCTAssertEqual(d.codeFont.portableFamily, "Courier New")
        XCTAssertEqual(d.codeFont.generic, .monospace)
        XCTAssertEqual(d.scriptFont.portableFamily, "Zapf Chancery")
        XCTAssertEqual(d.scriptFont.alternativeFamily, "Segoe Script")
        XCTAssertEqual(d.eastAsianFont.names, ["PingFang SC", "Hiragino Sans", "Microsoft YaHei", "Noto Sans CJK SC"])
        XCTAssertEqual(d.eastAsianFont.generic, .sansSerif)
        let r = try loader.load("reading")
        XCTAssertEqual(r.styles[.body]?.font.portableFamily, "Times New Roman")
        XCTAssertEqual(r.eastAsianFont.portableFamily, "Noto Serif CJK SC")
        XCTAssertEqual(r.eastAsianFont.generic, .serif)
        // A list of system keywords only has no portable family but its own.
        XCTAssertEqual(FontFamily(family: "-apple-system", fallbacks: ["system-ui"], generic: .sansSerif).portableFamily, "-apple-system")
        XCTAssertTrue(FontFamily.isSystemKeyword("BlinkMacSystemFont"))
        XCTAssertFalse(FontFamily.isSystemKeyword("Arial"))
    }

    /// Issue 16: `~script~` in a terminal is the theme's style (italic and purple by default), not
    /// plain italic; a theme file sets it under `terminal.script`.
    func testTerminalScriptStyleFromTheme() throws {
        let d = try loader.load("default")
        XCTAssertEqual(d.terminalScript, TerminalTextStyle(italic: true, color: RGBColor(hex: "#8944ab"), ansi16: 35))
        let hc = try loader.load("high-contrast")
        XCTAssertGreaterThanOrEqual(Contrast.ratio(hc.terminalScript.color!, hc.light.background), 7)
        let dir = try dataDir(["u": ##"{"terminal": {"script": {"italic": false, "underline": true, "color": "#112233", "ansi16": 96}}}"##])
        let u = try ThemeLoader(store: TemplateStore(dataDirectory: dir)).load("u")
        XCTAssertEqual(u.terminalScript, TerminalTextStyle(underline: true, color: RGBColor(hex: "#112233"), ansi16: 96))
        let printed = try dataDir(["p": u.jsonText()])
        XCTAssertEqual(try ThemeLoader(store: TemplateStore(dataDirectory: printed)).load("p").terminalScript, u.terminalScript)
        let bad = try dataDir(["b": #"{"terminal": {"script": {"ansi16": 12}}}"#, "c": #"{"codeFont": {"fallbacks": "Menlo"}}"#])
        let l = ThemeLoader(store: TemplateStore(dataDirectory: bad))
        XCTAssertThrowsError(try l.load("b")) {
            XCTAssertEqual(($0 as? ThemeError)?.path, "terminal.script.ansi16")
        }
        XCTAssertThrowsError(try l.load("c")) {
            XCTAssertEqual(($0 as? ThemeError)?.message, "expected an array of font family names, got a string")
        }
    }

    func testRoleMapping() throws {
        let d = try loader.load("default").resolved()
        XCTAssertEqual(d.textStyle(for: .noteTitle), .headline)
        // Headings take the larger styles: h1 > h2 > h3 > body; h4–h6 body size, semibold.
        XCTAssertEqual(d.textStyle(for: .heading1), .title1)
        XCTAssertEqual(d.textStyle(for: .heading2), .title2)
        XCTAssertEqual(d.textStyle(for: .heading3), .title3)
        for h in [ThemeRole.heading4, .heading5, .heading6] { XCTAssertEqual(d.textStyle(for: h), .headline) }
        XCTAssertEqual([d.style(for: .heading1).size, d.style(for: .heading2).size, d.style(for: .heading3).size,
                        d.style(for: .body).size], [28, 22, 20, 17])
        XCTAssertTrue(d.style(for: .heading6).weight.isBold)
        XCTAssertEqual(d.textStyle(for: .dateBadge), .caption2)
        XCTAssertEqual(d.textStyle(for: .code), .footnote)
        for role in ThemeRole.allCases { XCTAssertEqual(d.textStyle(for: role), Theme.standard.roles[role], "\(role)") }
        let r = try loader.load("reading").resolved()
        XCTAssertEqual(r.textStyle(for: .blockQuote), .subheadline)
        XCTAssertEqual(r.style(for: .blockQuote).size, 15)  // subheadline at large

        let dir = try dataDir(["roles": #"{"roles": {"heading3": "headline", "dateBadge": "caption1"}}"#])
        let custom = try ThemeLoader(store: TemplateStore(dataDirectory: dir)).load("roles").resolved()
        XCTAssertEqual(custom.textStyle(for: .heading3), .headline)
        XCTAssertEqual(custom.textStyle(for: .dateBadge), .caption1)
        XCTAssertEqual(custom.textStyle(for: .heading4), .headline)  // inherited
    }

    func testInheritance() throws {
        let dir = try dataDir([
            "warm": ##"{"inherits": "reading", "colors": {"light": {"text": "#112233"}}}"##,
            "plain": #"{"styles": {"body": {"weight": "light"}}}"#,
            "chain": #"{"inherits": "warm", "styles": {"caption2": {"family": "Avenir"}}}"#,
        ])
        let l = ThemeLoader(store: TemplateStore(dataDirectory: dir))
        let warm = try l.load("warm")
        let reading = try l.load("reading")
        XCTAssertEqual(warm.name, "warm")
        XCTAssertEqual(warm.light.text, RGBColor(hex: "#112233"))
        XCTAssertEqual(warm.light.background, reading.light.background)
        XCTAssertEqual(warm.dark, reading.dark)
        XCTAssertEqual(warm.styles, reading.styles)
        let plain = try l.load("plain")
        XCTAssertEqual(plain.styles[.body]?.weight, .light)
        XCTAssertEqual(plain.styles[.body]?.family, "-apple-system")  // from default
        XCTAssertEqual(plain.styles[.body]?.sizes, Self.appleTable[5].1)
        XCTAssertEqual(plain.light, Theme.standard.light)
        let chain = try l.load("chain")
        XCTAssertEqual(chain.styles[.caption2]?.family, "Avenir")
        XCTAssertEqual(chain.styles[.caption2]?.generic, .serif)  // from reading
        XCTAssertEqual(chain.light.text, RGBColor(hex: "#112233"))  // from warm
        // A path to a .json file works too, and its stem names the theme.
        let path = dir.appendingPathComponent("themes/warm.json").path
        XCTAssertEqual(try l.load(path).light.text, RGBColor(hex: "#112233"))
        // A data-folder theme overrides the built-in one of the same name.
        let over = try dataDir(["default": ##"{"inherits": "standard", "colors": {"light": {"link": "#ff00ff"}}}"##])
        XCTAssertEqual(try ThemeLoader(store: TemplateStore(dataDirectory: over)).load("default").light.link, RGBColor(hex: "#ff00ff"))
    }

    func testExplicitSizeTable() throws {
        let sizes = SizeCategory.allCases.map { "\"\($0.rawValue)\": \(20 + $0.index)" }.joined(separator: ", ")
        let dir = try dataDir(["big": "{\"styles\": {\"footnote\": {\"sizes\": {\(sizes)}}}}"])
        let t = try ThemeLoader(store: TemplateStore(dataDirectory: dir)).load("big")
        XCTAssertEqual(t.styles[.footnote]?.sizes, (20...31).map(Double.init))
        XCTAssertEqual(t.resolved(category: .accessibilityMedium).style(.footnote).size, 27)
        XCTAssertEqual(t.styles[.footnote]?.lineHeights, Theme.standard.styles[.footnote]?.lineHeights)
    }

    func testBoldTextStepsWeightsUp() throws {
        let t = try loader.load("default")
        let bold = t.resolved(category: .large, boldText: true)
        XCTAssertEqual(bold.style(.body).weight, .semibold)
        XCTAssertEqual(bold.style(.headline).weight, .bold)
        XCTAssertEqual(bold.style(.body).size, 17)  // sizes unchanged
        let hc = try loader.load("high-contrast").resolved(boldText: true)
        XCTAssertEqual(hc.style(.body).weight, .semibold)  // medium → semibold
        XCTAssertEqual(hc.style(.headline).weight, .heavy)  // bold → heavy
    }

    func testPrintedJSONLoadsBackToTheSameTheme() throws {
        for name in ["default", "reading", "high-contrast"] {
            let t = try loader.load(name)
            let text = t.jsonText()
            XCTAssertTrue(text.hasSuffix("}\n"))
            XCTAssertTrue(text.contains("\"accessibilityExtraExtraExtraLarge\": 53") || name == "reading", name)
            let dir = try dataDir(["printed": text])
            let back = try ThemeLoader(store: TemplateStore(dataDirectory: dir)).load("printed")
            XCTAssertEqual(back, t, name)
            XCTAssertEqual(t.jsonText(), text, "deterministic")
        }
    }
}

/// Broken theme files are rejected with the file, the JSON path and what was expected.
final class ThemeErrorTests: XCTestCase {
    func error(_ json: String, file: StaticString = #filePath, line: UInt = #line) throws -> ThemeError {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("np-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("themes"), withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        try json.write(to: dir.appendingPathComponent("themes/bad.json"), atomically: true, encoding: .utf8)
        do {
            _ = try ThemeLoader(store: TemplateStore(dataDirectory: dir)).load("bad")
            XCTFail("theme accepted: \(json)", file: file, line: line)
            return ThemeError(file: "", path: "", message: "")
        } catch let e as ThemeError {
            XCTAssertTrue(e.file.hasSuffix("themes/bad.json"), e.file, file: file, line: line)
            XCTAssertTrue(e.description.hasPrefix(e.file + ": "), e.description, file: file, line: line)
            return e
        }
    }

    func testBadJSONReportsLineAndColumn() throws {
        let e = try error("{\n  \"styles\": {\n    \"body\": {\"weight\": \"bold\",,}\n  }\n}\n")
        XCTAssertEqual(e.path, "line 3, column 31")
        XCTAssertTrue(e.message.hasPrefix("invalid JSON"), e.message)
    }

    func testUnknownStyle() throws {
        let e = try error(#"{"styles": {"title4": {"weight": "bold"}}}"#)
        XCTAssertEqual(e.path, "styles.title4")
        XCTAssertTrue(e.message.contains("unknown text style 'title4'"), e.message)
        XCTAssertTrue(e.message.contains("largeTitle, title1, title2, title3, headline, subheadline, body, footnote, caption1, caption2"),
                      e.message)
    }

    func testUnknownCategory() throws {
        let sizes = SizeCategory.allCases.map { "\"\($0.rawValue)\": 12" }.joined(separator: ", ")
        let e = try error("{\"styles\": {\"body\": {\"sizes\": {\(sizes), \"ax9\": 60}}}}")
        XCTAssertEqual(e.path, "styles.body.sizes.ax9")
        XCTAssertTrue(e.message.contains("unknown size category 'ax9'; expected one of extraSmall, small"), e.message)
        XCTAssertEqual(e.description, "\(e.file): styles.body.sizes.ax9: \(e.message)")
    }

    func testMissingSize() throws {
        let sizes = SizeCategory.allCases.filter { $0 != .accessibilityLarge }.map { "\"\($0.rawValue)\": 12" }
            .joined(separator: ", ")
        let e = try error("{\"styles\": {\"caption1\": {\"lineHeights\": {\(sizes)}}}}")
        XCTAssertEqual(e.path, "styles.caption1.lineHeights.accessibilityLarge")
        XCTAssertTrue(e.message.contains("all 12 categories"), e.message)
    }

    func testUnknownRole() throws {
        let e = try error(#"{"roles": {"sidebar": "body"}}"#)
        XCTAssertEqual(e.path, "roles.sidebar")
        XCTAssertTrue(e.message.contains("unknown role 'sidebar'; expected one of noteTitle, heading1"), e.message)
        let e2 = try error(#"{"roles": {"heading1": "title4"}}"#)
        XCTAssertEqual(e2.path, "roles.heading1")
        XCTAssertTrue(e2.message.contains("unknown text style 'title4'"), e2.message)
    }

    func testBadColour() throws {
        let e = try error(#"{"colors": {"dark": {"alert": "red"}}}"#)
        XCTAssertEqual(e.path, "colors.dark.alert")
        XCTAssertEqual(e.message, "bad colour 'red'; expected #RRGGBB or #RGB")
        let e2 = try error(##"{"colors": {"light": {"glow": "#fff"}}}"##)
        XCTAssertEqual(e2.path, "colors.light.glow")
    }

    func testBadWeight() throws {
        let e = try error(#"{"styles": {"headline": {"weight": "extrabold"}}}"#)
        XCTAssertEqual(e.path, "styles.headline.weight")
        XCTAssertTrue(e.message.contains("unknown weight 'extrabold'; expected one of ultraLight, thin"), e.message)
        let e2 = try error(#"{"styles": {"headline": {"weight": 700}}}"#)
        XCTAssertEqual(e2.message, "expected a string, got a number")
    }

    func testWrongTypesAndBadSizes() throws {
        XCTAssertEqual(try error("[1]").message, "expected an object, got an array")
        let sizes = SizeCategory.allCases.map { "\"\($0.rawValue)\": \($0 == .medium ? "true" : "12")" }.joined(separator: ", ")
        let e = try error("{\"styles\": {\"body\": {\"sizes\": {\(sizes)}}}}")
        XCTAssertEqual(e.path, "styles.body.sizes.medium")
        XCTAssertEqual(e.message, "expected a number, got a boolean")
        XCTAssertEqual(try error(#"{"stiles": {}}"#).path, "stiles")
        XCTAssertEqual(try error(#"{"inherits": "bad"}"#).path, "inherits")  // cycle
    }

    func testUnknownThemeName() {
        XCTAssertThrowsError(try ThemeLoader(store: TemplateStore()).load("nope")) { e in
            let d = String(describing: e)
            XCTAssertTrue(d.contains("no theme named 'nope'"), d)
            XCTAssertTrue(d.contains("default"), d)
        }
    }
}
