import Foundation
import NotepressAST
import NotepressResources

/// A theme file that cannot be used: where (file and JSON path) and what was expected.
///
/// `description` reads `FILE: PATH: MESSAGE`, for example
/// `themes/x.json: styles.body.sizes.ax9: unknown size category 'ax9'; expected one of extraSmall, …`.
/// JSON syntax errors carry a `line:column` computed from the parser's character offset instead of
/// a JSON path.
package struct ThemeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file's display name (a path, or `(built-in)/themes/NAME.json`).
    package var file: String
    /// The JSON path of the offending value (`styles.body.sizes.ax9`), `""` for the whole file,
    /// or `line N, column M` for syntax errors.
    package var path: String
    /// What was wrong and what was expected.
    package var message: String

    package init(file: String, path: String, message: String) {
        self.file = file; self.path = path; self.message = message
    }

    package var description: String {
        path.isEmpty ? "\(file): \(message)" : "\(file): \(path): \(message)"
    }
}

/// Reads theme files (`Templates/themes/NAME.json`, or any `.json` path) into ``Theme`` values.
///
/// File format (every key optional; what is left out is inherited):
/// ```json
/// {
///   "name": "reading",
///   "inherits": "default",                 // a theme name or .json path; "standard" = Theme.standard
///   "scale": 1.1,                          // multiplies inherited sizes and line heights
///   "styles": { "body": { "family": "Charter", "fallbacks": ["Georgia", "Times New Roman"],
///                          "generic": "serif", "weight": "regular", "design": "serif",
///                          "sizes": { "extraSmall": 14, …all 12 SizeCategory raw names… },
///                          "lineHeights": { …all 12… } } },
///   "roles": { "heading3": "title3" },      // ThemeRole raw name → TextStyle raw name
///   "codeFont": { "family": "Menlo", "fallbacks": ["Consolas", "Courier New"], "generic": "monospace" },
///   "scriptFont": { "family": "Snell Roundhand", "fallbacks": ["Zapf Chancery"], "generic": "cursive" },
///   "eastAsianFont": { "family": "PingFang SC", "fallbacks": ["Noto Sans CJK SC"], "generic": "sans-serif" },
///   "terminal": { "script": { "italic": true, "color": "#8944ab", "ansi16": 35 } },
///   "colors": { "light": { "text": "#1c1c1e", … }, "dark": { … } }
/// }
/// ```
/// `fallbacks` lists the families to try when `family` is missing, the most widely installed
/// last (``FontFamily``: RTF names that last one). `terminal.script` is how terminal output shows
/// `~script~` (`bold`, `dim`, `italic`, `underline` booleans, `color` `#RRGGBB` at 256 colours
/// and direct colour, `ansi16` an SGR code 30–37 or 90–97 at 16 colours).
/// Styles are ``TextStyle`` raw names, categories ``SizeCategory`` raw names, weights
/// ``FontWeight`` raw names, designs ``FontDesign`` raw names, generics ``GenericFamily`` raw
/// values (`sans-serif`, `serif`, `monospace`, `cursive`, `system-ui`), colours `#RRGGBB`/`#RGB`,
/// sizes and line heights in points. A `sizes` or `lineHeights` table must list all twelve
/// categories. A theme without `inherits` inherits `default`; `default` itself (and a theme saying
/// `"inherits": "standard"`) inherits ``Theme/standard`` (Apple's Dynamic Type table).
package struct ThemeLoader: Sendable {
    package var store: TemplateStore

    package init(store: TemplateStore) { self.store = store }

    /// Names of the themes in the data folder and built in (`themes/*.json`, without `.json`), sorted.
    package func availableThemes() -> [String] {
        store.list("themes").filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }
    }

    /// Where the theme `name` is read from: a path, or `(built-in)/themes/NAME.json`.
    /// - Throws: ``ThemeError`` when there is no such theme.
    package func origin(of nameOrPath: String) throws -> String {
        try source(nameOrPath).origin
    }

    /// Loads a theme by name (`reading`) or by path to a `.json` file, with everything it inherits.
    /// - Throws: ``ThemeError`` naming the file, the JSON path and what was expected.
    package func load(_ nameOrPath: String) throws -> Theme {
        try load(nameOrPath, chain: [])
    }

    // MARK: - Reading

    private func isPath(_ s: String) -> Bool { s.hasSuffix(".json") || s.contains("/") }

    private func source(_ nameOrPath: String) throws -> (data: Data, origin: String, name: String) {
        if isPath(nameOrPath) {
            guard let d = FileManager.default.contents(atPath: nameOrPath) else {
                throw ThemeError(file: nameOrPath, path: "", message: "cannot read the theme file")
            }
            let stem = URL(fileURLWithPath: nameOrPath).deletingPathExtension().lastPathComponent
            return (d, nameOrPath, stem)
        }
        do {
            let (d, origin) = try store.data("themes/\(nameOrPath).json")
            return (d, origin, nameOrPath)
        } catch {
            let known = availableThemes().joined(separator: ", ")
            throw ThemeError(file: "themes/\(nameOrPath).json", path: "",
                             message: "no theme named '\(nameOrPath)'; expected one of: \(known), or a path to a .json file")
        }
    }

    private func load(_ nameOrPath: String, chain: [String]) throws -> Theme {
        if nameOrPath == "standard" { return Theme.standard }
        let (data, origin, stem) = try source(nameOrPath)
        if chain.contains(origin) {
            throw ThemeError(file: origin, path: "inherits",
                             message: "inheritance cycle: \((chain + [origin]).joined(separator: " → "))")
        }
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw ThemeError(file: origin, path: Self.syntaxLocation(error, data: data),
                             message: "invalid JSON (\(Self.syntaxMessage(error)))")
        }
        let r = Reader(file: origin)
        let obj = try r.object(root, "")
        try r.onlyKeys(obj, ["name", "inherits", "scale", "styles", "roles", "codeFont", "scriptFont", "eastAsianFont",
                             "terminal", "colors", "code", "description"], "")
        let parentName: String
        if let p = obj["inherits"] {
            parentName = try r.string(p, "inherits")
        } else {
            parentName = stem == "default" && !isPath(nameOrPath) ? "standard" : "default"
        }
        var theme = try load(parentName, chain: chain + [origin])
        theme.name = try obj["name"].map { try r.string($0, "name") } ?? stem
        if let s = obj["scale"] {
            let k = try r.number(s, "scale")
            guard k > 0, k <= 4 else { throw r.error("scale", "expected a number greater than 0 and at most 4, got \(k)") }
            for (style, var spec) in theme.styles {
                spec.sizes = spec.sizes.map { ($0 * k).rounded() }
                spec.lineHeights = spec.lineHeights.map { ($0 * k).rounded() }
                theme.styles[style] = spec
            }
        }
        if let s = obj["styles"] {
            let styles = try r.object(s, "styles")
            for key in styles.keys.sorted() {
                let path = "styles.\(key)"
                guard let style = TextStyle(rawValue: key) else {
                    throw r.error(path, "unknown text style '\(key)'; expected one of \(Self.names(TextStyle.self))")
                }
                let spec = theme.styles[style] ?? Theme.standard.styles[style]!
                theme.styles[style] = try r.style(styles[key]!, path, base: spec)
            }
        }
        if let s = obj["roles"] {
            let roles = try r.object(s, "roles")
            for key in roles.keys.sorted() {
                let path = "roles.\(key)"
                guard let role = ThemeRole(rawValue: key) else {
                    throw r.error(path, "unknown role '\(key)'; expected one of \(Self.names(ThemeRole.self))")
                }
                theme.roles[role] = try r.enumValue(roles[key]!, path, TextStyle.self, what: "text style")
            }
        }
        if let f = obj["codeFont"] { theme.codeFont = try r.font(f, "codeFont", base: theme.codeFont) }
        if let f = obj["scriptFont"] { theme.scriptFont = try r.font(f, "scriptFont", base: theme.scriptFont) }
        if let f = obj["eastAsianFont"] { theme.eastAsianFont = try r.font(f, "eastAsianFont", base: theme.eastAsianFont) }
        if let t = obj["terminal"] {
            let terminal = try r.object(t, "terminal")
            try r.onlyKeys(terminal, ["script"], "terminal")
            if let s = terminal["script"] {
                theme.terminalScript = try r.terminalStyle(s, "terminal.script", base: theme.terminalScript)
            }
        }
        if let c = obj["colors"] {
            let colors = try r.object(c, "colors")
            try r.onlyKeys(colors, ["light", "dark"], "colors")
            if let l = colors["light"] { theme.light = try r.colors(l, "colors.light", base: theme.light) }
            if let d = colors["dark"] { theme.dark = try r.colors(d, "colors.dark", base: theme.dark) }
        }
        if let c = obj["code"] {
            let code = try r.object(c, "code")
            try r.onlyKeys(code, ["light", "dark"], "code")
            if let l = code["light"] { theme.codeLight = try r.codePalette(l, "code.light", base: theme.codeLight) }
            if let d = code["dark"] { theme.codeDark = try r.codePalette(d, "code.dark", base: theme.codeDark) }
        }
        return theme
    }

    static func names<E: RawRepresentable & CaseIterable>(_ type: E.Type) -> String where E.RawValue == String {
        E.allCases.map(\.rawValue).joined(separator: ", ")
    }

    /// `line N, column M` from Foundation's "around character N" / "line N, column M" messages.
    static func syntaxLocation(_ error: Error, data: Data) -> String {
        let text = syntaxMessage(error)
        if text.contains("line") { return "" }  // the message already says where
        guard let r = text.range(of: "character "),
              let offset = Int(text[r.upperBound...].prefix(while: \.isNumber)) else { return "" }
        // Foundation counts bytes of the UTF-8 input.
        var line = 1, column = 1
        for (i, b) in data.enumerated() {
            if i >= offset { break }
            if b == 0x0A { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
        }
        return "line \(line), column \(column)"
    }

    static func syntaxMessage(_ error: Error) -> String {
        let ns = error as NSError
        return (ns.userInfo["NSDebugDescription"] as? String) ?? ns.localizedDescription
    }
}

/// Type-checked access to the parsed JSON, producing ``ThemeError``s with JSON paths.
private struct Reader {
    var file: String

    func error(_ path: String, _ message: String) -> ThemeError {
        ThemeError(file: file, path: path, message: message)
    }

    func kind(_ v: Any) -> String {
        if isBool(v) { return "a boolean" }
        if v is NSNumber { return "a number" }
        if v is String { return "a string" }
        if v is [Any] { return "an array" }
        if v is [String: Any] { return "an object" }
        if v is NSNull { return "null" }
        return "an unknown value"
    }

    /// Whether `v` is JSON's `true` or `false`: Foundation gives them as its boolean number class
    /// (`__NSCFBoolean`), which also casts to a number, found once by type identity (comparing
    /// type names cost 2 M instructions per theme load: issue 37).
    func isBool(_ v: Any) -> Bool { ObjectIdentifier(type(of: v)) == Self.booleanType }

    /// The class JSONSerialization gives `true` and `false`.
    static let booleanType: ObjectIdentifier = {
        let values = (try? JSONSerialization.jsonObject(with: Data("[true]".utf8))) as? [Any]
        return ObjectIdentifier(type(of: values?.first ?? true))
    }()

    func object(_ v: Any, _ path: String) throws -> [String: Any] {
        guard let o = v as? [String: Any] else {
            throw error(path, "expected an object, got \(kind(v))")
        }
        return o
    }

    func onlyKeys(_ o: [String: Any], _ allowed: [String], _ path: String) throws {
        for k in o.keys.sorted() where !allowed.contains(k) {
            throw error(path.isEmpty ? k : "\(path).\(k)",
                        "unknown key '\(k)'; expected one of \(allowed.joined(separator: ", "))")
        }
    }

    func string(_ v: Any, _ path: String) throws -> String {
        guard let s = v as? String, !isBool(v) else { throw error(path, "expected a string, got \(kind(v))") }
        return s
    }

    func number(_ v: Any, _ path: String) throws -> Double {
        guard !isBool(v), !(v is String), let n = v as? NSNumber else {
            throw error(path, "expected a number, got \(kind(v))")
        }
        return n.doubleValue
    }

    func enumValue<E: RawRepresentable & CaseIterable>(_ v: Any, _ path: String, _ type: E.Type, what: String) throws -> E
    where E.RawValue == String {
        let s = try string(v, path)
        guard let e = E(rawValue: s) else {
            throw error(path, "unknown \(what) '\(s)'; expected one of \(ThemeLoader.names(E.self))")
        }
        return e
    }

    func color(_ v: Any, _ path: String) throws -> RGBColor {
        let s = try string(v, path)
        guard let c = RGBColor(hex: s) else { throw error(path, "bad colour '\(s)'; expected #RRGGBB or #RGB") }
        return c
    }

    /// A table keyed by all twelve ``SizeCategory`` raw names, values in points.
    func categoryTable(_ v: Any, _ path: String) throws -> [Double] {
        let o = try object(v, path)
        var out = [Double](repeating: 0, count: SizeCategory.allCases.count)
        for key in o.keys.sorted() {
            guard let c = SizeCategory(rawValue: key) else {
                throw error("\(path).\(key)",
                            "unknown size category '\(key)'; expected one of \(ThemeLoader.names(SizeCategory.self))")
            }
            let n = try number(o[key]!, "\(path).\(key)")
            guard n > 0, n <= 1000 else {
                throw error("\(path).\(key)", "expected a size in points greater than 0 and at most 1000, got \(n)")
            }
            out[c.index] = n
        }
        let missing = SizeCategory.allCases.filter { o[$0.rawValue] == nil }
        if let first = missing.first {
            throw error("\(path).\(first.rawValue)",
                        "missing size; a table must give all 12 categories (missing: \(missing.map(\.rawValue).joined(separator: ", ")))")
        }
        return out
    }

    func style(_ v: Any, _ path: String, base: StyleSpec) throws -> StyleSpec {
        let o = try object(v, path)
        try onlyKeys(o, ["family", "fallbacks", "generic", "weight", "design", "sizes", "lineHeights"], path)
        var spec = base
        if let f = o["family"] { spec.family = try nonEmpty(f, "\(path).family") }
        if let f = o["fallbacks"] { spec.fallbacks = try families(f, "\(path).fallbacks") }
        if let g = o["generic"] { spec.generic = try enumValue(g, "\(path).generic", GenericFamily.self, what: "generic family") }
        if let w = o["weight"] { spec.weight = try enumValue(w, "\(path).weight", FontWeight.self, what: "weight") }
        if let d = o["design"] { spec.design = try enumValue(d, "\(path).design", FontDesign.self, what: "design") }
        if let s = o["sizes"] { spec.sizes = try categoryTable(s, "\(path).sizes") }
        if let l = o["lineHeights"] { spec.lineHeights = try categoryTable(l, "\(path).lineHeights") }
        return spec
    }

    func nonEmpty(_ v: Any, _ path: String) throws -> String {
        let s = try string(v, path)
        guard !s.trimmingHorizontalWhitespace().isEmpty else { throw error(path, "expected a font family name, got an empty string") }
        return s
    }

    /// An array of font family names (each non-empty).
    func families(_ v: Any, _ path: String) throws -> [String] {
        guard let a = v as? [Any] else { throw error(path, "expected an array of font family names, got \(kind(v))") }
        return try a.enumerated().map { try nonEmpty($0.element, "\(path).\($0.offset)") }
    }

    func boolean(_ v: Any, _ path: String) throws -> Bool {
        guard isBool(v), let b = v as? Bool else { throw error(path, "expected true or false, got \(kind(v))") }
        return b
    }

    func terminalStyle(_ v: Any, _ path: String, base: TerminalTextStyle) throws -> TerminalTextStyle {
        let o = try object(v, path)
        try onlyKeys(o, ["bold", "dim", "italic", "underline", "color", "ansi16"], path)
        var t = base
        if let x = o["bold"] { t.bold = try boolean(x, "\(path).bold") }
        if let x = o["dim"] { t.dim = try boolean(x, "\(path).dim") }
        if let x = o["italic"] { t.italic = try boolean(x, "\(path).italic") }
        if let x = o["underline"] { t.underline = try boolean(x, "\(path).underline") }
        if let x = o["color"] { t.color = try color(x, "\(path).color") }
        if let x = o["ansi16"] {
            let n = try number(x, "\(path).ansi16")
            guard n == n.rounded(), (30...37).contains(n) || (90...97).contains(n) else {
                throw error("\(path).ansi16", "expected an SGR foreground code 30–37 or 90–97, got \(n)")
            }
            t.ansi16 = Int(n)
        }
        return t
    }

    func font(_ v: Any, _ path: String, base: FontFamily) throws -> FontFamily {
        let o = try object(v, path)
        try onlyKeys(o, ["family", "fallbacks", "generic"], path)
        var f = base
        if let x = o["family"] { f.family = try nonEmpty(x, "\(path).family") }
        if let x = o["fallbacks"] { f.fallbacks = try families(x, "\(path).fallbacks") }
        if let g = o["generic"] { f.generic = try enumValue(g, "\(path).generic", GenericFamily.self, what: "generic family") }
        return f
    }

    /// A code palette: each role (``CodeRole``'s names) as `"#rrggbb"` or
    /// `{ "color": "#rrggbb", "bold": true, "italic": false }`; roles not named keep `base`'s.
    func codePalette(_ v: Any, _ path: String, base: CodePalette) throws -> CodePalette {
        let o = try object(v, path)
        var p = base
        for key in o.keys.sorted() {
            let kp = "\(path).\(key)"
            guard let role = CodeRole(rawValue: key) else {
                throw error(kp, "unknown code role '\(key)'; expected one of \(ThemeLoader.names(CodeRole.self))")
            }
            if o[key] is String {
                p.styles[role] = CodeStyle(color: try color(o[key]!, kp))
                continue
            }
            let s = try object(o[key]!, kp)
            try onlyKeys(s, ["color", "bold", "italic"], kp)
            var style = p.styles[role] ?? CodeStyle(color: RGBColor(red: 0, green: 0, blue: 0))
            if let c = s["color"] { style.color = try color(c, "\(kp).color") }
            if let b = s["bold"] { style.bold = try boolean(b, "\(kp).bold") }
            if let i = s["italic"] { style.italic = try boolean(i, "\(kp).italic") }
            p.styles[role] = style
        }
        return p
    }

    func colors(_ v: Any, _ path: String, base: ThemeColors) throws -> ThemeColors {
        let o = try object(v, path)
        let keys: [(String, WritableKeyPath<ThemeColors, RGBColor>)] = [
            ("text", \.text), ("background", \.background), ("alert", \.alert), ("link", \.link),
            ("codeBackground", \.codeBackground), ("letterpressLight", \.letterpressLight),
            ("letterpressShadow", \.letterpressShadow), ("secondary", \.secondary),
        ]
        try onlyKeys(o, keys.map(\.0), path)
        var c = base
        for (k, kp) in keys {
            if let x = o[k] { c[keyPath: kp] = try color(x, "\(path).\(k)") }
        }
        return c
    }
}

extension Theme {
    /// The theme as a complete JSON theme file (every style with all 12 sizes and line heights,
    /// every role, fonts and both colour sets), keys sorted, two-space indentation, ending with
    /// a newline. Loading the output with ``ThemeLoader`` gives this theme back.
    package func jsonText() -> String {
        func num(_ d: Double) -> Any { d == d.rounded() && abs(d) < 1e9 ? Int(d) as Any : d as Any }
        func table(_ v: [Double]) -> [String: Any] {
            Dictionary(uniqueKeysWithValues: SizeCategory.allCases.map { ($0.rawValue, num(v[$0.index])) })
        }
        var styles: [String: Any] = [:]
        for s in TextStyle.allCases {
            let spec = self.styles[s] ?? Theme.standard.styles[s]!
            styles[s.rawValue] = [
                "family": spec.family, "fallbacks": spec.fallbacks, "generic": spec.generic.rawValue, "weight": spec.weight.rawValue,
                "design": spec.design.rawValue, "sizes": table(spec.sizes), "lineHeights": table(spec.lineHeights),
            ] as [String: Any]
        }
        var roles: [String: Any] = [:]
        for r in ThemeRole.allCases { roles[r.rawValue] = (self.roles[r] ?? Theme.standard.roles[r]!).rawValue }
        func colors(_ c: ThemeColors) -> [String: Any] {
            ["text": c.text.hex, "background": c.background.hex, "alert": c.alert.hex, "link": c.link.hex,
             "codeBackground": c.codeBackground.hex, "letterpressLight": c.letterpressLight.hex,
             "letterpressShadow": c.letterpressShadow.hex, "secondary": c.secondary.hex]
        }
        func font(_ f: FontFamily) -> [String: Any] {
            ["family": f.family, "fallbacks": f.fallbacks, "generic": f.generic.rawValue]
        }
        var script: [String: Any] = ["bold": terminalScript.bold, "dim": terminalScript.dim, "italic": terminalScript.italic,
                                     "underline": terminalScript.underline]
        if let c = terminalScript.color { script["color"] = c.hex }
        if let a = terminalScript.ansi16 { script["ansi16"] = a }
        func code(_ p: CodePalette) -> [String: Any] {
            Dictionary(uniqueKeysWithValues: CodeRole.allCases.compactMap { r in
                p.styles[r].map { (r.rawValue, ["color": $0.color.hex, "bold": $0.bold, "italic": $0.italic] as [String: Any]) }
            })
        }
        let obj: [String: Any] = [
            "code": ["light": code(codeLight), "dark": code(codeDark)],
            "name": name, "inherits": "standard", "styles": styles, "roles": roles,
            "codeFont": font(codeFont), "scriptFont": font(scriptFont), "eastAsianFont": font(eastAsianFont),
            "terminal": ["script": script],
            "colors": ["light": colors(light), "dark": colors(dark)],
        ]
        let data = (try? JSONSerialization.data(withJSONObject: obj, options: [.sortedKeys, .prettyPrinted])) ?? Data()
        // Foundation writes `"key" : value`; normalise to `"key": value`.
        return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\" : ", with: "\": ") + "\n"
    }
}

/// WCAG 2.x contrast arithmetic (Web Content Accessibility Guidelines 2.2, "relative luminance"
/// and "contrast ratio" definitions).
package enum Contrast {
    /// Relative luminance of an sRGB colour, 0 (black) … 1 (white).
    package static func luminance(_ c: RGBColor) -> Double {
        func lin(_ v: UInt8) -> Double {
            let s = Double(v) / 255
            return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * lin(c.red) + 0.7152 * lin(c.green) + 0.0722 * lin(c.blue)
    }

    /// Contrast ratio (L1 + 0.05) / (L2 + 0.05), 1 … 21. AAA asks ≥ 7 for body text (SC 1.4.6).
    package static func ratio(_ a: RGBColor, _ b: RGBColor) -> Double {
        let la = luminance(a), lb = luminance(b)
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }
}
