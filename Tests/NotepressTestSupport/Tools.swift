import Foundation
import XCTest

/// Programs the tests read outputs with (tmux, soffice, pdftotext, …), found on `PATH` and run
/// directly; ``runTool(_:_:stdin:file:line:)`` is the variant that fails the test when one is missing.
package enum Tools {
    /// The path of `name` on `PATH`, or nil.
    package static func which(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let p = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return nil
    }

    /// Runs the program at `exe`; returns its exit status and standard output and error together
    /// (status -1 and the error when it cannot start).
    @discardableResult
    package static func run(_ exe: String, _ args: [String]) -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        do { try p.run() } catch { return (-1, "\(error)") }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Runs the program at `path`; returns its exit status and standard output (standard error
    /// is discarded).
    @discardableResult
    package static func output(_ path: String, _ args: [String]) throws -> (Int32, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// `tmux -V` as numbers: "tmux 3.3a" → [3, 3].
    package static func tmuxVersion(_ tmux: String) throws -> [Int] {
        let text = run(tmux, ["-V"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        let version = text.split(separator: " ").last.map(String.init) ?? ""
        return version.split(separator: ".").compactMap { Int($0.prefix { $0.isNumber }) }
    }
}

/// LibreOffice (Debian `libreoffice-writer-nogui`), the real reader of RTF.
package enum LibreOffice {
    /// Converts every file in `files` with one soffice invocation into `outDir` (`--convert-to
    /// TARGET`); fails the test when soffice is missing or fails.
    package static func soffice(_ target: String, _ files: [URL], outDir: URL) throws {
        guard let soffice = Tools.which("soffice") else {
            XCTFail("soffice not found: install the Debian package libreoffice-writer-nogui")
            return
        }
        let profile = "file:///tmp/lo-profile-\(ProcessInfo.processInfo.processIdentifier)"
        let (status, _) = Tools.run(soffice, ["-env:UserInstallation=\(profile)", "--headless", "--convert-to", target,
                                               "--outdir", outDir.path] + files.map(\.path))
        XCTAssertEqual(status, 0, "soffice --convert-to \(target) failed")
    }
}
