import Foundation
import XCTest

/// Runs the built `notepress` binary (debug build, `.build/debug/notepress`).
enum NotepressBinary {
    static var url: URL { TestPaths.root.appendingPathComponent(".build/debug/notepress") }

    struct Result {
        var status: Int32
        var stdout: Data
        var stderr: String
        var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// Runs `notepress ARGS` with optional stdin bytes and extra environment.
    static func run(_ args: [String], stdin: Data? = nil, environment: [String: String] = [:],
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

final class DataBox: @unchecked Sendable {
    private let lock = NSLock()
    private var _data: Data?
    var data: Data? {
        get { lock.lock(); defer { lock.unlock() }; return _data }
        set { lock.lock(); _data = newValue; lock.unlock() }
    }
}

/// A fresh temporary folder, removed at the end of the test.
func makeTempDir(_ test: XCTestCase) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("notepress-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    return url
}
