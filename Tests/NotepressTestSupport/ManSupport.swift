import Foundation
import NotepressAST
import NotepressMan
import NotepressReaders
import XCTest

/// Helpers shared by the man-page tests.
package enum ManTestSupport {
    package static let goldenDir = TestPaths.golden.appendingPathComponent("man")
    package static let manCorpus = TestPaths.corpus.appendingPathComponent("man-md")
    package static let samplesDir = TestPaths.samples
    /// The date the conversion pipeline would take from the file's modification time
    /// (clamped by SOURCE_DATE_EPOCH): fixed here, 2024-05-06.
    package static let created = Date(timeIntervalSince1970: 1_714_953_600)

    /// Reads Markdown (GFM) as the conversion pipeline does — front matter split off, `title` the
    /// front-matter title or the file's stem — and renders it as a man page.
    package static func render(_ text: String, path: String, created: Date? = ManTestSupport.created,
                       fields: [String: String] = [:]) -> (String, [Diagnostic]) {
        let split = try? FrontMatter.split(text, path: path)
        let fm = split?.frontMatter
        var doc = MarkdownReader(format: .gfm).parse(split?.body ?? text, path: path, lineOffset: split?.bodyLineOffset ?? 0).document
        doc.metadata.title = fm?.title ?? ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        doc.metadata.created = fm?.created ?? created
        doc.metadata.fields = (fm?.fields ?? [:]).merging(fields) { $1 }
        var diags: [Diagnostic] = []
        let out = ManEmitter().render(doc, diagnostics: &diags)
        return (out, diags)
    }

    /// Runs `program` with `args`; returns (status, stdout+stderr). Fails the test when missing.
    package static func run(_ program: String, _ args: [String], file: StaticString = #filePath, line: UInt = #line) -> (Int32, String)? {
        guard let r = try? runTool(program, args, file: file, line: line) else { return nil }
        return (r.status, r.output)
    }

    /// Writes `roff` to a temporary file and returns what `mandoc -T lint -W warning`,
    /// `groff -man -t -ww -z -Tutf8` and `groff -man -t -ww -z -Tps` print (empty when clean).
    ///
    /// groff runs with `-Tutf8`, the device man(1) uses on terminals, and with `-Tps`, what
    /// `man -t` prints with (issue 17: tbl's "table will not fit on one page" is an error there
    /// only). With `-Tps` groff also warns about every glyph its fonts lack (emoji, CJK: "can't
    /// find special character"), which is a font matter, not a markup error: those lines are left out.
    package static func lint(_ roff: String, name: String = "page", file: StaticString = #filePath, line: UInt = #line) -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("notepress-man-\(getpid())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        // Name the file after the page's section, as mandoc checks that they agree.
        let th = roff.split(separator: "\n").first { $0.hasPrefix(".TH") }.map(String.init) ?? ""
        let quoted = th.components(separatedBy: "\"")
        let section = quoted.count > 3 ? quoted[3] : "1"
        let url = dir.appendingPathComponent(name + "." + section)
        try? roff.write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        var report = ""
        // A date the author wrote as text (`January 2015`) is kept (issue 31 item 11); mandoc
        // notes that it prints it verbatim, which is what the author asked for.
        if let (_, out) = run("mandoc", ["-T", "lint", "-W", "warning", url.path], file: file, line: line) {
            let date = quoted.count > 5 ? quoted[5] : ""
            let textDate = date.range(of: #"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"#, options: .regularExpression) == nil
            report += out.split(separator: "\n")
                .filter { !(textDate && $0.contains("WARNING: cannot parse date, using it verbatim: TH \(date)")) }
                .map { $0 + "\n" }.joined()
        }
        if let (_, out) = run("groff", ["-man", "-t", "-ww", "-z", "-Tutf8", url.path], file: file, line: line) { report += out }
        if let (_, out) = run("groff", ["-man", "-t", "-ww", "-z", "-Tps", url.path], file: file, line: line) {
            report += out.split(separator: "\n", omittingEmptySubsequences: true)
                .filter { !$0.contains("can't find special character") }.map { $0 + "\n" }.joined()
        }
        return report
    }
}
