import Foundation
import PackagePlugin

/// Embeds the package's `Templates/` folder into the target it is applied to
/// (see Sources/EmbedTemplates/main.swift).
@main
struct EmbedTemplatesPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let templates = context.package.directoryURL.appendingPathComponent("Templates")
        var inputs: [URL] = []
        if let e = FileManager.default.enumerator(at: templates, includingPropertiesForKeys: nil) {
            for case let url as URL in e where !url.hasDirectoryPath { inputs.append(url) }
        }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("EmbeddedTemplates.swift")
        return [.buildCommand(
            displayName: "Embedding Templates/",
            executable: try context.tool(named: "EmbedTemplates").url,
            arguments: [templates.path, output.path],
            inputFiles: inputs.sorted { $0.path < $1.path },
            outputFiles: [output])]
    }
}
