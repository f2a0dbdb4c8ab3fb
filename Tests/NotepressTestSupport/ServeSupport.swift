import Foundation
import XCTest

/// `notepress serve` started as a user starts it, on a free port of 127.0.0.1 (`--port 0`, the
/// URL read from what it prints), stopped with a signal; requests go through curl.
package final class ServedSite {
    package let process = Process()
    package let url: String
    /// The output folder it printed ("serving FOLDER at URL").
    package let folder: String?
    private let stderrBox = DataBox()
    private let errPipe = Pipe()

    /// Starts `notepress serve ARGS --port 0` and waits (at most 60 s) for the URL it prints.
    package init(_ args: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        process.executableURL = NotepressBinary.url
        process.arguments = ["serve"] + args + ["--port", "0"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = errPipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let box = stderrBox, pipe = errPipe
        Thread {
            var all = Data()
            while case let d = pipe.fileHandleForReading.availableData, !d.isEmpty {
                all.append(d)
                box.data = all
            }
        }.start()
        var printed = Data()
        let deadline = Date(timeIntervalSinceNow: 60)
        var found: String?
        while found == nil && Date() < deadline {
            let d = out.fileHandleForReading.availableData
            if d.isEmpty { break }
            printed.append(d)
            let text = String(decoding: printed, as: UTF8.self)
            // Requests go to the loopback address whatever --host was.
            if let r = text.range(of: #":[0-9]+/ \(Ctrl-C"#, options: .regularExpression) {
                found = "http://127.0.0.1" + text[r].dropLast(" (Ctrl-C".count)
            }
        }
        guard let found else {
            process.terminate()
            XCTFail("serve printed no URL: \(String(decoding: printed, as: UTF8.self)) \(String(decoding: box.data ?? Data(), as: UTF8.self))", file: file, line: line)
            throw CocoaError(.fileReadUnknown)
        }
        url = found
        let text = String(decoding: printed, as: UTF8.self)
        folder = text.range(of: #"serving (.*) at http"#, options: .regularExpression).map {
            String(text[$0].dropFirst("serving ".count).dropLast(" at http".count))
        }
    }

    /// What it wrote to standard error so far.
    package var stderr: String { String(decoding: stderrBox.data ?? Data(), as: UTF8.self) }

    /// Sends `signal` and waits (at most 120 s: a build under way is finished first, and a loaded
    /// machine may take that long) for the exit; returns the exit status.
    package func stop(_ signal: Int32 = SIGINT) -> Int32 {
        kill(process.processIdentifier, signal)
        let deadline = Date(timeIntervalSinceNow: 120)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { process.terminate(); return -1 }
        return process.terminationStatus
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

    /// A response as curl saw it.
    package struct Response {
        package var status: Int
        package var type: String
        package var body: String
        package var headers: String
    }

    /// `curl` of `path` (appended to the URL without its trailing slash; `--path-as-is`, so `..`
    /// reaches the server as written), with `extra` arguments.
    package func get(_ path: String, _ extra: [String] = []) throws -> Response {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("np-curl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let body = dir.appendingPathComponent("body").path, head = dir.appendingPathComponent("head").path
        let r = try runTool("curl", ["-s", "--path-as-is", "--max-time", "60", "-o", body, "-D", head,
                                     "-w", "%{http_code} %{content_type}"] + extra + [String(url.dropLast()) + path])
        let parts = r.output.split(separator: " ", maxSplits: 1).map(String.init)
        return Response(status: Int(parts.first ?? "") ?? 0, type: parts.count > 1 ? parts[1] : "",
                        body: (try? String(contentsOfFile: body, encoding: .utf8)) ?? "",
                        headers: (try? String(contentsOfFile: head, encoding: .utf8)) ?? "")
    }

    /// Polls `path` until `body` holds for it or `seconds` pass; returns the time it took, or nil.
    package func waitFor(_ path: String, seconds: Double, _ test: (Response) -> Bool) throws -> Double? {
        let start = Date()
        while Date().timeIntervalSince(start) < seconds {
            if test(try get(path)) { return Date().timeIntervalSince(start) }
            usleep(20_000)
        }
        return nil
    }
}

/// A `curl -N` reading the event stream in the background, for `seconds`.
package final class EventStreamReader {
    package let process = Process()
    private let box = DataBox()

    package init(_ url: String, seconds: Int) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-s", "-N", "--max-time", String(seconds), url + "__notepress/events"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let b = box
        Thread {
            var all = Data()
            while case let d = out.fileHandleForReading.availableData, !d.isEmpty { all.append(d); b.data = all }
        }.start()
    }

    package var text: String { String(decoding: box.data ?? Data(), as: UTF8.self) }

    package func waitFor(_ needle: String, seconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while Date() < deadline { if text.contains(needle) { return true }; usleep(10_000) }
        return text.contains(needle)
    }

    deinit { if process.isRunning { process.terminate() } }
}

/// Every file below `root` that is a Notepress temporary (in its folder `.notepress-tmp`, the
/// folder too) or named like one of an older version's (`.NAME.tmp-XXXXXX`).
package func temporaries(below root: String) -> [String] {
    (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).filter {
        let name = ($0 as NSString).lastPathComponent
        return $0.contains(".notepress-tmp")
            || name.hasPrefix(".") && name.range(of: #"\.tmp-[A-Za-z0-9]{6}$"#, options: .regularExpression) != nil
    }
}
