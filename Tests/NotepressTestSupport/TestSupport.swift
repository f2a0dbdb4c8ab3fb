import Foundation
import XCTest

/// Paths and helpers shared by the tests.
package enum TestPaths {
    /// The package root (…/main).
    package static let root: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The peer suites (read-only outside material): `NOTEPRESS_CORPUS` when set (relative to the
    /// package root), else `../shared/corpus` beside the checkout. `make test` stops before
    /// building when they are missing; `make corpus` fetches them.
    package static let corpus: URL = {
        if let dir = ProcessInfo.processInfo.environment["NOTEPRESS_CORPUS"], !dir.isEmpty {
            return URL(fileURLWithPath: dir, relativeTo: root).standardizedFileURL
        }
        return root.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    }()
    /// The emitters' golden files, `Golden/<format>/<case>.*`.
    package static let golden: URL = root.appendingPathComponent("Tests/NotepressEmitterTests/Golden")
    package static let samples: URL = root.appendingPathComponent("samples")

    /// Regular files under `dir` (recursively), sorted by path.
    package static func files(under dir: URL, extensions: Set<String>? = nil) -> [URL] {
        var result: [URL] = []
        if let e = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: [.isRegularFileKey]) {
            for case let url as URL in e {
                guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
                if let ext = extensions, !ext.contains(url.pathExtension) { continue }
                result.append(url)
            }
        }
        return result.sorted { $0.path < $1.path }
    }
}

/// One example of a cmark-gfm spec-format file (see shared/corpus/cmark-gfm-tests/FORMAT.md).
package struct SpecExample {
    package var number: Int
    package var section: String
    package var markdown: String
    package var html: String
    /// Extension names after "example"; contains "disabled" for disabled examples.
    package var extensions: [String]
    package var line: Int
}

/// Reads examples in the CommonMark spec format: a line of 32 backticks + " example [ext…]",
/// input, a "." line, expected output, 32 backticks. "→" stands for a tab.
package func parseSpecExamples(_ text: String) -> [SpecExample] {
    let fence = String(repeating: "`", count: 32)
    var examples: [SpecExample] = []
    var section = ""
    var state = 0  // 0 outside, 1 markdown, 2 html
    var md = "", html = "", exts: [String] = [], startLine = 0
    var lineNo = 0
    // Split on "\n" only, keeping "\r".
    for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
        lineNo += 1
        let line = String(rawLine)
        let stripped = line.trimmingCharacters(in: .whitespaces)
        switch state {
        case 0:
            if stripped.hasPrefix(fence + " example") {
                exts = stripped.dropFirst(fence.count + " example".count).split(separator: " ").map(String.init)
                state = 1; md = ""; html = ""; startLine = lineNo
            } else if line.hasPrefix("#") {
                let hashes = line.prefix { $0 == "#" }
                if line.dropFirst(hashes.count).hasPrefix(" ") {
                    section = String(line.dropFirst(hashes.count + 1))
                }
            }
        case 1:
            if stripped == "." { state = 2 } else { md += line + "\n" }
        default:
            if stripped == fence {
                examples.append(SpecExample(number: examples.count + 1, section: section,
                                            markdown: md.replacingOccurrences(of: "→", with: "\t"),
                                            html: html.replacingOccurrences(of: "→", with: "\t"),
                                            extensions: exts, line: startLine))
                state = 0
            } else {
                html += line + "\n"
            }
        }
    }
    return examples
}
