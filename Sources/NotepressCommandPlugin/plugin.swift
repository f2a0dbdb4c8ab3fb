import Foundation
import PackagePlugin

/// `swift package notepress ARGS…` runs the `notepress` command line (this package's
/// `NotepressCLI` target, built for the host) with ARGS in the folder of the package it is run in,
/// so a Swift package can convert its docs:
/// `swift package --allow-writing-to-package-directory notepress convert docs -o site`.
/// Writing needs the permission (`--allow-writing-to-package-directory`, or SwiftPM asks);
/// `notepress`'s own exit status, standard output and standard error pass through.
@main
struct NotepressCommandPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        // A tool from an executable target is named after the target.
        let tool = try context.tool(named: "NotepressCLI")
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

/// `notepress` ended with a non-zero status (1: some input failed; 2: a usage error).
struct ExitError: Error, CustomStringConvertible {
    var status: Int32
    var description: String { "notepress exited with status \(status)" }
}
