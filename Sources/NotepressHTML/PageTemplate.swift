import Foundation
import NotepressResources

/// A page template ready to render: a compiled ``MustacheTemplate`` and every partial it includes,
/// directly or through other partials, loaded once per run (``load(file:store:)``,
/// ``builtIn(_:store:)``).
///
/// Partials (`{{> name}}`) are found as pandoc finds its templates' partials: for a template
/// file, `name` in the template's own folder (with the template's extension added when `name`
/// has none: `{{> header}}` next to `page.html` is `header.html`); then, for every template,
/// `html/name` (same extension rule, `.html`) in the data folder (`--data-dir`), then built in.
/// A partial found nowhere renders as nothing (Mustache's rule) and is listed in
/// ``missingPartials``, so callers can warn once.
package struct PageTemplate: Sendable {
    /// The page template itself.
    package let template: MustacheTemplate
    /// Every partial reachable from it, by the name used in the tags.
    package let partials: [String: MustacheTemplate]
    /// Where each piece came from, in load order: the template first, then partials
    /// (`(built-in)/html/x.html` for embedded files).
    package let origins: [String]
    /// Files read from disk (not built in), in load order: outputs depend on them (depfiles).
    package var files: [String] { origins.filter { !$0.hasPrefix("(built-in)/") } }
    /// Whether the template itself (not counting its partials) is the embedded one.
    package var isBuiltIn: Bool { origins.first?.hasPrefix("(built-in)/") == true }
    /// `{{> name}}` tags whose partial was found nowhere: the name and the template, line and
    /// column of its first tag.
    package let missingPartials: [(name: String, template: String, line: Int, column: Int)]
    /// Every source with its origin, in load order: what decides the rendered bytes besides the
    /// data (for build fingerprints).
    package let fingerprint: String
    /// Partials rendered once per run for contexts that name their content (``MustacheMemo``).
    package let memo = MustacheMemo()

    /// A template read from `path` (`--template FILE`).
    /// - Throws: ``PageTemplateError`` when the file or a partial file cannot be read or is not
    ///   UTF-8; ``MustacheError`` (`file:line:column: message`) when one does not compile.
    package static func load(file path: String, store: TemplateStore) throws -> PageTemplate {
        let text = try readFile(path)
        let folder = (path as NSString).deletingLastPathComponent
        let ext = (path as NSString).pathExtension
        return try build(main: text, name: path, store: store) { name in
            let candidate = (folder.isEmpty ? name : (folder as NSString).appendingPathComponent(name))
            let withExt = (name as NSString).pathExtension.isEmpty && !ext.isEmpty ? candidate + "." + ext : candidate
            guard Self.isFile(withExt) else { return nil }
            return (try readFile(withExt), withExt)
        }
    }

    /// The template at `path` of the template store (`html/page.html`, `html/index.html`): the
    /// data folder's when it has one, else the built-in one.
    /// - Throws: ``TemplateError`` when there is none; ``MustacheError`` when it does not compile.
    package static func builtIn(_ path: String, store: TemplateStore) throws -> PageTemplate {
        let (data, origin) = try store.data(path)
        guard let text = String(data: data, encoding: .utf8) else { throw TemplateError.notUTF8(origin) }
        return try build(main: text, name: origin, store: store) { _ in nil }
    }

    /// Compiles `main` and the partials it reaches (breadth first, each name once). `local`
    /// finds a partial beside a template file (text and path), or `nil`.
    private static func build(main: String, name: String, store: TemplateStore,
                              local: (String) throws -> (String, String)?) throws -> PageTemplate {
        let template = try MustacheTemplate(main, name: name)
        var partials: [String: MustacheTemplate] = [:]
        var origins = [name]
        var missing: [(name: String, template: String, line: Int, column: Int)] = []
        var fingerprint = name + "\u{1F}" + main + "\u{1E}"
        var queue = [template]
        var seen: Set<String> = []
        var next = 0
        while next < queue.count {
            let t = queue[next]
            next += 1
            for ref in t.partialReferences where seen.insert(ref.name).inserted {
                var found = try local(ref.name)
                if found == nil {
                    let storePath = "html/" + ref.name + ((ref.name as NSString).pathExtension.isEmpty ? ".html" : "")
                    if let (data, origin) = try? store.data(storePath) {
                        guard let text = String(data: data, encoding: .utf8) else { throw TemplateError.notUTF8(origin) }
                        found = (text, origin)
                    }
                }
                guard let (text, origin) = found else {
                    missing.append((ref.name, t.name, ref.line, ref.column))
                    continue
                }
                let p = try MustacheTemplate(text, name: origin)
                partials[ref.name] = p
                origins.append(origin)
                fingerprint += ref.name + "\u{1F}" + origin + "\u{1F}" + text + "\u{1E}"
                queue.append(p)
            }
        }
        return PageTemplate(template: template, partials: partials, origins: origins, missingPartials: missing,
                            fingerprint: fingerprint)
    }

    /// Renders `data` with the partials, `{{name}}` escaped by ``HTMLEscape/text(_:)`` (the
    /// project's one HTML text escaper; it escapes `&`, `<`, `>` and `"` as the Mustache spec asks).
    /// `capacity`: an estimate of the output's size in UTF-8 bytes beyond the templates' own
    /// (``MustacheTemplate/render(_:partials:escape:capacity:)``; a hint only).
    /// - Throws: ``MustacheError`` when sections and partials nest too deep.
    package func render(_ data: MustacheValue, capacity: Int = 0) throws -> String {
        try template.render(data, partials: partials, escape: HTMLEscape.text, capacity: capacity, memo: memo)
    }

    /// ``render(_:capacity:)`` as UTF-8 bytes (``MustacheTemplate/renderUTF8(_:partials:escape:capacity:)``).
    /// - Throws: ``MustacheError`` when sections and partials nest too deep.
    package func renderUTF8(_ data: MustacheValue, capacity: Int = 0) throws -> [UInt8] {
        try template.renderUTF8(data, partials: partials, escape: HTMLEscape.text, capacity: capacity, memo: memo)
    }

    static func isFile(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && !isFolder.boolValue
    }

    static func readFile(_ path: String) throws -> String {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw PageTemplateError(path: path, message: "no such file")
        }
        if isFolder.boolValue { throw PageTemplateError(path: path, message: "is a folder, not a file") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PageTemplateError(path: path, message: "cannot be read")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw PageTemplateError(path: path, message: "is not valid UTF-8")
        }
        return text
    }
}

/// A template file that cannot be read.
package struct PageTemplateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file.
    package var path: String
    /// What is wrong (`no such file`, `is a folder, not a file`, `is not valid UTF-8`).
    package var message: String

    package init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `path: message`.
    package var description: String { "\(path): \(message)" }
}
