import Foundation
import XCTest
import NotepressTestSupport
@testable import Notepress
@testable import NotepressSite

/// Issue 13 item 1: `-o` onto a node that is not a regular file is written into, never replaced;
/// inputs that are pipes are read to their end. Every FIFO and device node is made in a temporary
/// folder of the test (never the real `/dev`); readers and writers of the FIFOs are `cat` and `sh`
/// processes the test starts and, if they hang, ends by their id.
final class HostileOutputTests: XCTestCase {
    let markdown = "Hello *world*\n"
    let fragment = "<p>Hello <em>world</em></p>\n"

    /// A process reading (`cat PATH`) or writing (`sh -c 'cat > PATH'`) a FIFO.
    final class FIFOPeer {
        let process = Process()
        let output = Pipe()
        let input = Pipe()
        let box = DataBox()

        init(reading path: String) throws {
            process.executableURL = URL(fileURLWithPath: "/bin/cat")
            process.arguments = [path]
            try start()
        }

        init(writing text: String, to path: String) throws {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "cat > \"$0\"", path]
            try start()
            input.fileHandleForWriting.write(Data(text.utf8))
            try input.fileHandleForWriting.close()
        }

        private func start() throws {
            process.standardOutput = output
            process.standardInput = input
            try process.run()
            let out = output.fileHandleForReading
            let box = self.box
            Thread { box.data = out.readDataToEndOfFile() }.start()
        }

        /// What the peer read, once it has ended; `nil` when it did not end within `seconds`
        /// (it is then terminated).
        func finish(within seconds: Double = 120) -> Data? {
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning && Date() < deadline { usleep(10_000) }
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
                return nil
            }
            while box.data == nil { usleep(1000) }
            return box.data
        }
    }

    func makeFIFO(_ dir: URL, _ name: String) throws -> String {
        let path = dir.appendingPathComponent(name).path
        let r = try runTool("mkfifo", [path])
        XCTAssertEqual(r.status, 0, r.output)
        return path
    }

    /// Regression (issue 13): `-o FIFO` renamed a regular file over the FIFO: exit 0, and the
    /// reader never got the page.
    func testOutputIntoAFIFOReachesItsReaderAndTheFIFOStays() throws {
        let dir = try makeTempDir(self)
        let input = dir.appendingPathComponent("in.md")
        try Data(markdown.utf8).write(to: input)
        let fifo = try makeFIFO(dir, "f")
        let reader = try FIFOPeer(reading: fifo)
        let r = try NotepressBinary.run(["convert", "-t", "html", "--fragment", input.path, "-o", fifo])
        let got = reader.finish()
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(got.map { String(decoding: $0, as: UTF8.self) }, fragment, "the reader gets the page")
        var st = stat()
        XCTAssertEqual(lstat(fifo, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFIFO)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp-") }
        XCTAssertEqual(leftovers, [], "no temporary file")
    }

    /// Regression (issue 13): `-o /dev/null` (as root) replaced the null device by a regular file.
    /// Here a null device made in the test's folder (`mknod n c 1 3`) stays a character device.
    func testOutputIntoACharacterDeviceKeepsTheDevice() throws {
        let dir = try makeTempDir(self)
        let input = dir.appendingPathComponent("in.md")
        try Data(markdown.utf8).write(to: input)
        let node = dir.appendingPathComponent("n").path
        let made = try runTool("mknod", ["-m", "666", node, "c", "1", "3"])
        try XCTSkipIf(made.status != 0, "mknod needs root (CAP_MKNOD): \(made.output)")
        for format in ["html", "rtf", "tei", "man", "ansi", "json"] {
            let r = try NotepressBinary.run(["convert", "-t", format, input.path, "-o", node])
            XCTAssertEqual(r.status, 0, "\(format): \(r.stderr)")
            var st = stat()
            XCTAssertEqual(lstat(node, &st), 0)
            XCTAssertEqual(st.st_mode & S_IFMT, S_IFCHR, "\(format): still a character device")
            XCTAssertEqual(st.st_rdev, 0x103, "\(format): still device 1,3 (null)")
        }
    }

    /// `--depfile FIFO` writes the rules into the FIFO.
    func testDepfileIntoAFIFO() throws {
        let dir = try makeTempDir(self)
        try Data(markdown.utf8).write(to: dir.appendingPathComponent("in.md"))
        let fifo = try makeFIFO(dir, "deps")
        let reader = try FIFOPeer(reading: fifo)
        let r = try NotepressBinary.run(["convert", "-t", "html", "--fragment", "in.md", "-o", "out.html", "--depfile", "deps"],
                                        currentDirectory: dir)
        let got = reader.finish().map { String(decoding: $0, as: UTF8.self) }
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(got?.hasPrefix("out.html: in.md"), true, got ?? "reader did not end")
        XCTAssertEqual(got?.hasSuffix("\n"), true)
        XCTAssertEqual(String(decoding: try Data(contentsOf: dir.appendingPathComponent("out.html")), as: UTF8.self), fragment)
        var st = stat()
        XCTAssertEqual(lstat(fifo, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFIFO)
    }

    /// `-o /dev/fd/1` writes to the process's own standard output (here a pipe). The test uses
    /// `/dev/fd/1`, not `/dev/stdout`: a binary with the old bug would replace the machine's
    /// `/dev/stdout` (as root), while nothing can be created in `/dev/fd` (`/proc/self/fd`).
    /// `/dev/stdout` and `/dev/stderr` take the same path (``AtomicFile/inheritedDescriptor(_:)``).
    func testOutputToTheProcessesOwnDescriptor() throws {
        let dir = try makeTempDir(self)
        let input = dir.appendingPathComponent("in.md")
        try Data(markdown.utf8).write(to: input)
        let r = try NotepressBinary.run(["convert", "-t", "html", "--fragment", input.path, "-o", "/dev/fd/1"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdoutText, fragment)
        XCTAssertEqual(AtomicFile.inheritedDescriptor("/dev/stdout"), 1)
        XCTAssertEqual(AtomicFile.inheritedDescriptor("/dev/stderr"), 2)
        XCTAssertEqual(AtomicFile.inheritedDescriptor("/dev/fd/7"), 7)
        XCTAssertNil(AtomicFile.inheritedDescriptor("/dev/fd/x"))
        XCTAssertNil(AtomicFile.inheritedDescriptor("/dev/null"))
        XCTAssertNil(AtomicFile.inheritedDescriptor("out/dev/stdout"))
    }

    /// Regression (issue 13): a FIFO input "cannot be read" (FileManager reads by size).
    func testInputFromAFIFO() throws {
        let dir = try makeTempDir(self)
        let fifo = try makeFIFO(dir, "in")
        let writer = try FIFOPeer(writing: markdown, to: fifo)
        let r = try NotepressBinary.run(["convert", "-t", "html", "--fragment", fifo])
        XCTAssertNotNil(writer.finish(), "the writer ended")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdoutText, fragment)
    }

    /// A process substitution (`<(…)`, a `/dev/fd/N` pipe) as input, and a FIFO in a folder run.
    func testInputFromProcessSubstitutionAndFIFOInAFolderRun() throws {
        let dir = try makeTempDir(self)
        let bin = NotepressBinary.url.path
        let r = try runTool("bash", ["-c", "'\(bin)' convert -t html --fragment <(printf '# Piped\\n')"])
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertEqual(r.output, "<h1>Piped</h1>\n")

        let fifo = try makeFIFO(dir, "pipe.md")
        let other = dir.appendingPathComponent("plain.md")
        try Data("plain\n".utf8).write(to: other)
        let writer = try FIFOPeer(writing: markdown, to: fifo)
        let out = dir.appendingPathComponent("out")
        let b = try NotepressBinary.run(["convert", "-t", "html", "--fragment", "-q", fifo, other.path, "-o", out.path])
        XCTAssertNotNil(writer.finish())
        XCTAssertEqual(b.status, 0, b.stderr)
        XCTAssertEqual(String(decoding: try Data(contentsOf: out.appendingPathComponent("pipe.html")), as: UTF8.self), fragment)
        XCTAssertEqual(String(decoding: try Data(contentsOf: out.appendingPathComponent("plain.html")), as: UTF8.self), "<p>plain</p>\n")
    }

    /// A block device is refused, not written over and not replaced.
    func testBlockDeviceOutputIsRefused() throws {
        let dir = try makeTempDir(self)
        let input = dir.appendingPathComponent("in.md")
        try Data(markdown.utf8).write(to: input)
        let node = dir.appendingPathComponent("b").path
        // Device 240,0: a number for local use that no driver has, so even a binary that wrongly
        // opened it could not write anywhere (ENXIO).
        let made = try runTool("mknod", ["-m", "600", node, "b", "240", "0"])
        try XCTSkipIf(made.status != 0, "mknod needs root (CAP_MKNOD): \(made.output)")
        let r = try NotepressBinary.run(["convert", "-t", "html", input.path, "-o", node])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("\(node): error: is a block device; refusing to write to it"), r.stderr)
        var st = stat()
        XCTAssertEqual(lstat(node, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFBLK)
    }
}
