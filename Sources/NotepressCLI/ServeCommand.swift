import Foundation
import Notepress
import NotepressServe
import NotepressSite

/// Builds a command line again on every change (`convert --watch`, `serve`) for a
/// ``WatchSession``: each build parses it afresh (so a changed template or theme file is read
/// again) and runs the incremental site build (``SiteBuild``).
struct WatchBuilder {
    let arguments: [String]
    let spec: CommandSpec

    /// What one build did.
    typealias Summary = WatchBuild

    /// Builds once. A command line that no longer holds (a template that stopped compiling) is a
    /// failed build with its message, not the end of the session. Nothing is left to the exit
    /// (``LeftToExit``): what a build made is freed when it ends, nothing is kept from one build to the next.
    func build() -> (Summary, ConvertPlan?) {
        do {
            let plan = try ConvertPlan(Arguments(arguments, options: spec.options))
            // One book (`-o NAME.epub` or `NAME.pdf` of a folder or several files): rebuilt whole, as without --watch.
            if plan.outputs.book {
                let status = try plan.convertBook(keepForExit: false)
                return (Summary(status: status, failures: status == 0 ? [] : ["\(plan.output ?? ""): error: not written (see above)"],
                                written: 1), plan)
            }
            if plan.single {
                let status = plan.convertSingle(exitsAfter: false)
                return (Summary(status: status, failures: status == 0 ? [] : ["\(plan.inputs[0]): error: not converted (see above)"],
                                written: 1), plan)
            }
            let batch = try plan.runBatch(keepForExit: false)
            return (Summary(status: batch.status, failures: batch.failures, written: batch.written), plan)
        } catch {
            let text = "notepress \(spec.name): \(error)"
            printError(text)
            return (Summary(status: 2, failures: [text], written: 0), nil)
        }
    }

    /// The session of this command line: it builds with ``build()``.
    var session: WatchSession { WatchSession(build: { build().0 }, say: { printError($0) }) }

    /// What `plan` reads: the input folders and files, the template, the theme file, the data folder.
    static func targets(_ plan: ConvertPlan) -> WatchTargets {
        var t = WatchTargets(followSymlinks: plan.selection.followSymlinks)
        // A book (BookFolder): its whole root, book.toml and the files chapters include too.
        if let book = plan.book { t.folders.append(book.root) }
        for i in plan.inputs where i != "-" && plan.book == nil {
            if Platform.status(i)?.kind == .directory { t.folders.append(i) } else { t.files.append(i) }
        }
        if let template = plan.outputs.template {
            t.files.append(template)
            // Partials beside the template: its folder's files of the same extension.
            let folder = folderPart(template)
            let ext = (template as NSString).pathExtension
            for e in Platform.directoryEntries(folder.isEmpty ? "." : folder) ?? [] where (e.name as NSString).pathExtension == ext {
                t.files.append(PathText.join(folder.isEmpty ? "." : folder, e.name))
            }
        }
        if let theme = plan.themeFile { t.files.append(theme) }
        if let data = plan.outputs.dataDirectory { t.folders.append(data) }
        if let list = plan.input.filesFrom, list != "-" { t.files.append(list) }
        if let out = plan.output { t.ignored.append(out) }
        return t
    }
}

/// `notepress convert … --watch`: converts, then again on every change, until Ctrl-C (exit 0).
func runConvertWatch(_ args: [String], _ a: Arguments) -> Int32 {
    let builder = WatchBuilder(arguments: args, spec: Commands.convert)
    // Ctrl-C is how a watching run ends: status 0, whenever it comes (temporaries removed first).
    Platform.onInterrupt { _ in 0 }
    let (_, plan) = builder.build()
    guard let plan else { return 2 }
    let why = builder.session.watch(WatchBuilder.targets(plan), quiet: Verbosity(a) == .quiet) { _ in }
    printError("notepress convert: --watch: \(why)")
    return 1
}

/// `notepress serve` (``Commands/serve``).
func runServeCommand(_ args: [String]) -> Int32 {
    runCommand(Commands.serve, args) { a in
        let port = try a.int("--port", in: 0...65535) ?? Int(Commands.defaultServePort)
        let host = a.value("--host") ?? "127.0.0.1"
        guard a.positionals.count == 1, let input = a.positionals.first, Platform.status(input)?.kind == .directory else {
            throw UsageError("serve needs one input folder (notepress serve NOTES [-o OUT])")
        }
        // A preview shows the folder as it is now: pages of deleted and renamed notes go (--prune),
        // or the server would go on serving them (new-user try-out).
        var buildArgs = args
        if !a.flag("--prune") { buildArgs.append("--prune") }
        var temporary: String?
        if a.value("--output") == nil {
            let folder = PathText.join(NSTemporaryDirectory(), "notepress-serve-" + UUID().uuidString.prefix(8).lowercased())
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            temporary = folder
            buildArgs += ["--output", folder]
        }
        let made = temporary
        // A build in flight may add a file while the folder is being removed (an interrupt comes
        // on its own thread): a few more tries, so that the folder does not outlive the server.
        let removeTemporary: @Sendable () -> Void = {
            guard let made else { return }
            for _ in 0..<20 where FileManager.default.fileExists(atPath: made) { try? FileManager.default.removeItem(atPath: made) }
        }
        // From here on an interrupt stops the server (once it runs), removes the temporary
        // output folder and ends with status 0, whenever it comes: during the first build too.
        let running = RunningServer()
        let quiet = Verbosity(a) == .quiet
        Platform.onInterrupt { _ in
            running.stop()
            removeTemporary()
            if !quiet { printError("notepress serve: stopped") }
            return 0
        }
        let builder = WatchBuilder(arguments: buildArgs, spec: Commands.serve)
        let (first, plan) = builder.build()
        guard let plan, let out = plan.output, first.status != 2 else {
            removeTemporary()
            if first.status == 2 { return 2 }
            throw UsageError("serve needs an output folder")
        }
        let events = BuildEvents()
        events.publish(changed: false, errors: first.failures)
        let server: HTTPServer
        do {
            server = try HTTPServer(root: out, host: host, port: UInt16(port), events: events)
        } catch {
            removeTemporary()
            printError("notepress serve: \(error)")
            return 1
        }
        running.set(server)
        if !HTTPServer.isLoopback(host) {
            printError("notepress serve: warning: listening on \(host), not a loopback address: anyone who can reach this machine can read the site")
        }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        print("serving \(out) at http://\(shownHost):\(server.port)/ (Ctrl-C stops)")
        _ = Platform.flushStandardOutput()
        let why = builder.session.watch(WatchBuilder.targets(plan), quiet: quiet) { summary in
            events.publish(changed: summary.written > 0, errors: summary.failures)
        }
        server.stop()
        removeTemporary()
        printError("notepress serve: \(why)")
        return 1
    }
}

/// The server an interrupt stops (set once it runs).
final class RunningServer: @unchecked Sendable {
    private let lock = NSLock()
    private var server: HTTPServer?
    func set(_ s: HTTPServer) { lock.lock(); server = s; lock.unlock() }
    func stop() {
        lock.lock(); let s = server; lock.unlock()
        s?.stop()
    }
}
