import Foundation
import XCTest

/// Runs the built `notepress` binary (debug build, `.build/debug/notepress`).
package enum NotepressBinary {
    package static var url: URL { TestPaths.root.appendingPathComponent(".build/debug/notepress") }

    package struct Result {
        package var status: Int32
        package var stdout: Data
        package var stderr: String
        package var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// Runs `notepress ARGS` with optional stdin bytes and extra environment.
    package static func run(_ args: [String], stdin: Data? = nil, environment: [String: String] = [:],
                    currentDirectory: URL? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> Result {
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            XCTFail("notepress binary missing at \(url.path): run `swift build --product notepress` (make test does)", file: file, line: line)
            throw CocoaError(.fileNoSuchFile)
        }
        let p = Process()
        p.executableURL = url
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        p.environment = env
        if let currentDirectory { p.currentDirectoryURL = currentDirectory }
        let out = Pipe(), err = Pipe(), inp = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = inp
        try p.run()
        let box = DataBox()
        let t = Thread { box.data = out.fileHandleForReading.readDataToEndOfFile() }
        t.start()
        let errBox = DataBox()
        let t2 = Thread { errBox.data = err.fileHandleForReading.readDataToEndOfFile() }
        t2.start()
        if let stdin { inp.fileHandleForWriting.write(stdin) }
        try? inp.fileHandleForWriting.close()
        p.waitUntilExit()
        while box.data == nil || errBox.data == nil { usleep(1000) }
        return Result(status: p.terminationStatus, stdout: box.data!, stderr: String(decoding: errBox.data!, as: UTF8.self))
    }
}

extension NotepressBinary {
    /// Runs `notepress ARGS` as ``run(_:stdin:environment:currentDirectory:file:line:)`` does and
    /// fails the test (at the caller's line) unless it exits 0; returns the result either way.
    @discardableResult
    package static func runExpectingSuccess(_ args: [String], stdin: Data? = nil, environment: [String: String] = [:],
                                            currentDirectory: URL? = nil, file: StaticString = #filePath,
                                            line: UInt = #line) throws -> Result {
        let r = try run(args, stdin: stdin, environment: environment, currentDirectory: currentDirectory, file: file, line: line)
        XCTAssertEqual(r.status, 0, "notepress \(args.joined(separator: " ")): \(r.stderr)", file: file, line: line)
        return r
    }
}

/// Bytes one thread fills and another reads (a pipe read in the background).
package final class DataBox: @unchecked Sendable {
    private let lock = NSLock()
    private var _data: Data?
    package init() {}
    package var data: Data? {
        get { lock.lock(); defer { lock.unlock() }; return _data }
        set { lock.lock(); _data = newValue; lock.unlock() }
    }
}

/// Writes `text` to `name` (a relative path, folders made as needed) below `dir`; returns its URL.
@discardableResult
package func writeTestFile(_ text: String, _ name: String, in dir: URL) throws -> URL {
    let u = dir.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: u.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: u, atomically: true, encoding: .utf8)
    return u
}

/// A fresh temporary folder, removed at the end of the test.
package func makeTempDir(_ test: XCTestCase) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("notepress-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    return url
}

/// Runs a program found on `PATH`; fails the test when it is missing.
package func runTool(_ name: String, _ args: [String], stdin: Data? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> (status: Int32, output: String) {
    let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    guard let path else {
        XCTFail("\(name) is not installed (make test installs it: .ci/apt-packages-test, .ci/pip-packages)", file: file, line: line)
        throw CocoaError(.fileNoSuchFile)
    }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = args
    let pipe = Pipe()
    p.standardOutput = pipe
    p.standardError = pipe
    let inPipe = Pipe()
    p.standardInput = inPipe
    try p.run()
    if let stdin { inPipe.fileHandleForWriting.write(stdin) }
    try? inPipe.fileHandleForWriting.close()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// Runs `command` in a detached tmux session of `width`×`height`, captures the screen until it
/// contains `waitFor` (at most 60 s: a loaded machine may be slow) and kills the session; returns the captured screen. One shell
/// script does it all, with tmux's own output sent to /dev/null: a tmux server started from a
/// short-lived child would otherwise die with it, or keep our output pipe open for ever.
package func tmuxScreen(width: Int, height: Int, command: String, waitFor: String) throws -> String {
    let session = "np-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let q = { (s: String) in "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
    let script = """
    tmux new-session -d -s \(session) -x \(width) -y \(height) \(q(command)) >/dev/null 2>&1 </dev/null || exit 3
    screen=""
    end=$(( $(date +%s) + 60 ))
    while [ "$(date +%s)" -lt "$end" ]; do
      sleep 0.2
      screen=$(tmux capture-pane -p -S -200 -t \(session) 2>/dev/null)
      case "$screen" in *\(q(waitFor))*) break ;; esac
    done
    tmux kill-session -t \(session) >/dev/null 2>&1 </dev/null
    printf '%s\\n' "$screen"
    """
    let r = try runTool("sh", ["-c", script])
    XCTAssertEqual(r.status, 0, "tmux failed: \(r.output)")
    return r.output
}

/// A folder `in` holding `files` (relative path → text, folders made as needed) in a new
/// temporary folder of `test`; returns its path, the path of `out` beside it, and the temporary folder.
package func makeSiteFolder(_ test: XCTestCase, _ files: [String: String]) throws -> (input: String, output: String, dir: String) {
    let dir = try makeTempDir(test)
    let input = dir.appendingPathComponent("in").path
    try writeTestFiles(files, into: input)
    return (input, dir.appendingPathComponent("out").path, dir.path)
}

/// Writes `files` (relative path → text, folders made as needed) below the folder `folder`
/// (made when missing): a site's notes, or the ones a test adds to it between runs.
package func writeTestFiles(_ files: [String: String], into folder: String) throws {
    for (name, text) in files {
        let path = folder + "/" + name
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }
}

/// A fresh empty folder under the temporary folder, its path with symbolic links resolved (kept
/// after the test; ``makeTempDir(_:)`` is removed at its end).
package func batchTempDir(_ name: String = "notepress-test") throws -> String {
    let dir = NSTemporaryDirectory() + "\(name)-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    guard let resolved = realpath(dir, nil) else { return dir }
    defer { free(resolved) }
    return String(cString: resolved)
}
