import Foundation
import XCTest

/// A detached tmux session on a private socket (`tmux -L`), with no configuration file. tmux's own
/// standard streams go to /dev/null, so its server never holds a pipe of the test open.
package final class TmuxSession {
    package let tmux: String
    let socket = "np-h-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    /// The shell that starts the server and then waits: a tmux server started by a short-lived
    /// child process of the test does not outlive it (see ``tmuxScreen(width:height:command:waitFor:)``).
    private let keeper = Process()

    package init(width: Int, height: Int, command: String) throws {
        guard let t = Tools.which("tmux") else {
            XCTFail("tmux is not installed (Debian package tmux)")
            throw CocoaError(.fileNoSuchFile)
        }
        tmux = t
        let q = { (s: String) in "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        keeper.executableURL = URL(fileURLWithPath: "/bin/sh")
        keeper.arguments = ["-c", "\(q(tmux)) -L \(socket) -f /dev/null new-session -d -s np -x \(width) -y \(height) \(q(command)) "
            + ">/dev/null 2>&1 </dev/null || exit 3; exec sleep 300"]
        keeper.standardInput = FileHandle.nullDevice
        keeper.standardOutput = FileHandle.nullDevice
        keeper.standardError = FileHandle.nullDevice
        try keeper.run()
        let deadline = Date(timeIntervalSinceNow: 60)
        while Self.quiet(tmux, ["-L", socket, "has-session", "-t", "np"]) != 0 && Date() < deadline {
            usleep(50_000)
        }
    }

    /// Runs a program with its streams on /dev/null (redirected by a shell, as the suite's other
    /// tmux helpers do: a tmux server must not inherit a pipe of the test); returns the exit status.
    @discardableResult
    package static func quiet(_ exe: String, _ args: [String]) -> Int32 {
        Tools.run("/bin/sh", ["-c", "\"$0\" \"$@\" >/dev/null 2>&1 </dev/null", exe] + args).status
    }

    /// The pane's text (`capture-pane -p`, with `-e` its attributes as escape sequences).
    package func capture(escapes: Bool = false) -> String {
        let file = NSTemporaryDirectory() + "\(socket)-capture.txt"
        defer { unlink(file) }
        let q = { (s: String) in "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        Self.quiet("/bin/sh", ["-c", "\(q(tmux)) -L \(socket) capture-pane -p \(escapes ? "-e" : "") > \(q(file))"])
        return (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
    }

    /// The screen's lines without trailing blanks, blank lines at the end dropped.
    package func lines() -> [String] {
        var l = capture().components(separatedBy: "\n").map { String($0.reversed().drop { $0 == " " }.reversed()) }
        while l.last == "" { l.removeLast() }
        return l
    }

    /// Waits (at most 60 s) until the screen contains `text`; returns the screen.
    package func waitFor(_ text: String) throws -> String {
        try waitForLines { $0.joined(separator: "\n").contains(text) }.joined(separator: "\n")
    }

    /// Waits (at most 60 s, a bound only a hung program reaches: a loaded machine may take
    /// seconds) until `condition` holds for ``lines()``; returns them.
    package func waitForLines(_ condition: ([String]) -> Bool) throws -> [String] {
        let deadline = Date(timeIntervalSinceNow: 60)
        while Date() < deadline {
            let l = lines()
            if condition(l) { return l }
            usleep(50_000)
        }
        let l = lines()
        XCTFail("timed out; the screen shows:\n" + l.joined(separator: "\n"))
        throw CocoaError(.featureUnsupported)
    }

    /// `send-keys`: literal text, or key names such as `Tab`, `C-u`, `BSpace`.
    package func send(_ keys: String...) {
        Self.quiet(tmux, ["-L", socket, "send-keys", "--"] + keys)
        usleep(100_000)
    }

    package func sendLine(_ text: String) { send(text, "Enter") }

    /// `tmux -V` as numbers: "tmux 3.3a" → [3, 3].
    package func tmuxVersion() throws -> [Int] { try Tools.tmuxVersion(tmux) }

    package func kill() {
        Self.quiet(tmux, ["-L", socket, "kill-server"])
        keeper.terminate()
        keeper.waitUntilExit()
    }
}
