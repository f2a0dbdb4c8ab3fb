import Foundation
import PackagePlugin

/// `swift package notepress ARGS…` runs the package's `notepress` tool with ARGS in the package
/// folder, so a Swift package can convert its docs (for example
/// `swift package --allow-writing-to-package-directory notepress convert docs -o site`).
@main
struct NotepressCommandPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "notepress")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = arguments
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            Diagnostics.error("notepress exited with status \(process.terminationStatus)")
            throw ExitError(status: process.terminationStatus)
        }
    }
}

struct ExitError: Error, CustomStringConvertible {
    var status: Int32
    var description: String { "notepress exited with status \(status)" }
}
