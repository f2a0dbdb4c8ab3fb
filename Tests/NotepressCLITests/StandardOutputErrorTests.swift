import Foundation
import XCTest
import NotepressTestSupport

/// Regression (new-user report): a failed write to standard output (a full disk: `> /dev/full`)
/// was ignored, exit 0 and no message, and `templates print` crashed (`try!` in FileHandle.write,
/// SIGILL). Now every command says so once and exits 1; a reader that closes the pipe early
/// (`| head`) is still no error.
final class StandardOutputErrorTests: XCTestCase {
    /// `notepress ARGS > /dev/full` through the shell: exit status and standard error.
    func runIntoFullDisk(_ args: [String]) throws -> (status: Int32, output: String) {
        let quoted = ([NotepressBinary.url.path] + args).map { "'" + $0 + "'" }.joined(separator: " ")
        return try runTool("sh", ["-c", quoted + " > /dev/full"])
    }

    func testWritesToAFullDiskAreAnErrorForEveryCommand() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: "/dev/full"), "no /dev/full")
        let note = TestPaths.root.appendingPathComponent("samples/markdown/guide/index.md").path
        // Command help longer than stdio's buffer (`help convert`, `convert --help`) exited 0.
        for args in [[note], [note, "-t", "ansi"], [note, "-t", "man"], ["--help"], ["formats"], ["completions", "bash"],
                     ["templates", "print", "html"], ["themes"], ["version"], ["help", "convert"], ["convert", "--help"],
                     ["help", "scan"], ["index", "--help"], ["convert", "-h"]] {
            let r = try runIntoFullDisk(args)
            XCTAssertEqual(r.status, 1, "\(args): \(r.output)")
            XCTAssertTrue(r.output.hasSuffix("\nnotepress: standard output: cannot write: No space left on device\n")
                          || r.output == "notepress: standard output: cannot write: No space left on device\n", "\(args): \(r.output)")
        }
    }

    func testAReaderThatStopsEarlyIsNoError() throws {
        let pipe = try runTool("bash", ["-c", "'\(NotepressBinary.url.path)' templates print html | head -c 10 >/dev/null; echo \"status ${PIPESTATUS[0]}\""])
        XCTAssertEqual(pipe.output, "status 0\n")
        // Command help was written with print: `| head -1` killed it with SIGPIPE (141).
        for command in ["help convert", "convert --help", "help"] {
            let help = try runTool("bash", ["-c", "'\(NotepressBinary.url.path)' \(command) | head -1 >/dev/null; echo \"status ${PIPESTATUS[0]}\""])
            XCTAssertEqual(help.output, "status 0\n", command)
        }
    }
}
