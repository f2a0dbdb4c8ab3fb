import Foundation
import PackagePlugin

/// Converts the `.md`, `.markdown` and `.note` files of a target into HTML pages at build time,
/// bundled as the target's resources (SwiftPM makes `Bundle.module` for them): help pages shipped
/// with an app, say.
///
/// ```swift
/// .executableTarget(name: "App", plugins: [.plugin(name: "NotepressBuildPlugin", package: "Notepress")])
/// ```
///
/// Each `NAME.md` (or `.markdown`, `.note`) anywhere in the target's folder becomes `NAME.html`:
/// a standalone page, as `notepress convert NAME.md -o NAME.html` writes it, found at run time
/// with `Bundle.module.url(forResource: "NAME", withExtension: "html")`. SwiftPM flattens
/// resources into one folder, so names must differ across subfolders. A file is converted again
/// when it changes; a file that cannot be converted fails the build with its
/// `file:line:column: error:` message.
@main
struct NotepressBuildPlugin: BuildToolPlugin {
    /// The extensions converted (without the dot, lower case).
    static let extensions: Set<String> = ["md", "markdown", "note"]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let tool = try context.tool(named: "NotepressCLI")
        let outputFolder = context.pluginWorkDirectoryURL.appendingPathComponent("Pages")
        // The target's files of those kinds (SwiftPM lists files of types it does not handle too).
        let inputs = target.sourceFiles.map(\.url).filter { Self.extensions.contains($0.pathExtension.lowercased()) }
        var owner: [String: URL] = [:]
        var commands: [Command] = []
        for input in inputs.sorted(by: { $0.path < $1.path }) {
            let name = input.deletingPathExtension().lastPathComponent + ".html"
            if let first = owner[name] {
                Diagnostics.error("\(input.path): \(name) is also the page of \(first.path); resources share one folder, so rename one")
                continue
            }
            owner[name] = input
            let output = outputFolder.appendingPathComponent(name)
            commands.append(.buildCommand(
                displayName: "Notepress: converting \(input.lastPathComponent)",
                executable: tool.url,
                arguments: ["convert", input.path, "-t", "html", "-o", output.path, "--quiet"],
                inputFiles: [input],
                outputFiles: [output]))
        }
        return commands
    }
}
