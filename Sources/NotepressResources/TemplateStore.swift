import Foundation

/// The templates, themes and schemas of `Templates/`, embedded in the binary at build time
/// (``embeddedTemplateFiles``), with
/// an optional data folder (`--data-dir DIR`) whose files take precedence, as pandoc's
/// `--data-dir` does. Paths are relative to `Templates/`, for example `html/page.html`,
/// `themes/default.json`, `tei/notepress-tei.rng`.
package struct TemplateStore: Sendable {
    /// A folder whose files override the embedded ones, or `nil`.
    package var dataDirectory: URL?

    package init(dataDirectory: URL? = nil) {
        self.dataDirectory = dataDirectory
    }

    /// Paths of all embedded files, sorted.
    package static var embeddedPaths: [String] { embeddedTemplateFiles.keys.sorted() }

    /// The embedded bytes of `path`, ignoring any data folder; `nil` if there is no such file.
    package static func embedded(_ path: String) -> Data? {
        decoded[path]
    }

    /// The embedded files as `Data`, made once.
    private static let decoded: [String: Data] = embeddedTemplateFiles.mapValues { Data($0) }

    /// Where `path` comes from: the data folder's file when it exists there, else the embedded one.
    /// Returns the file's bytes and a display name for messages (a path, or `(built-in)/path`).
    /// - Throws: ``TemplateError/notFound(_:)`` when neither has it.
    package func data(_ path: String) throws -> (data: Data, origin: String) {
        if let dir = dataDirectory {
            let url = dir.appendingPathComponent(path)
            if let d = FileManager.default.contents(atPath: url.path) { return (d, url.path) }
        }
        if let d = Self.embedded(path) { return (d, "(built-in)/" + path) }
        throw TemplateError.notFound(path)
    }

    /// The file as UTF-8 text. - Throws: ``TemplateError``.
    package func text(_ path: String) throws -> String {
        let (d, origin) = try data(path)
        guard let s = String(data: d, encoding: .utf8) else { throw TemplateError.notUTF8(origin) }
        return s
    }

    /// Names of files directly under `folder` (for example `themes`) from both sources, sorted.
    package func list(_ folder: String) -> [String] {
        var names = Set(Self.embeddedPaths.filter { $0.hasPrefix(folder + "/") }.map { String($0.dropFirst(folder.count + 1)) }
            .filter { !$0.contains("/") })
        if let dir = dataDirectory,
           let items = try? FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent(folder).path) {
            names.formUnion(items.filter { !$0.hasPrefix(".") })
        }
        return names.sorted()
    }
}

/// Errors reading templates.
package enum TemplateError: Error, Equatable, CustomStringConvertible {
    case notFound(String)
    case notUTF8(String)
    package var description: String {
        switch self {
        case .notFound(let p): return "no template '\(p)' in the data folder or built in"
        case .notUTF8(let p): return "\(p): template is not valid UTF-8"
        }
    }
}
