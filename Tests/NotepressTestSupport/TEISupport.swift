import Foundation
import Notepress
import NotepressAST
import NotepressReaders
import NotepressTEI
import XCTest

/// Shared set-up of the TEI tests.
package enum TEITestSupport {
    package static let schemaURL = TestPaths.root.appendingPathComponent("Templates/tei/notepress-tei.rng")

    package static func validator() throws -> TEIValidator {
        let data = try Data(contentsOf: schemaURL)
        return try TEIValidator(schemaData: data, schemaOrigin: schemaURL.path)
    }

    /// TEI for Markdown `text`, without validation in the writer (tests validate explicitly).
    package static func tei(_ text: String, format: SourceFormat = .gfm, extensions: Set<GFMExtension>? = nil,
                    title: String? = "Test", path: String = "test.md") throws -> String {
        var doc = MarkdownReader(format: format, extensions: extensions).parse(text, path: path).document
        doc.metadata.title = title
        return try tei(doc)
    }

    package static func tei(_ doc: Document) throws -> String {
        var options = ConversionOptions()
        options.validate = false
        var diags: [Diagnostic] = []
        return String(decoding: try TEIWriter().write(doc, options: options, diagnostics: &diags), as: UTF8.self)
    }

    /// Runs jing on `files`; returns (exit status, stdout lines that report errors).
    /// Fails the test when jing is missing (Debian package `jing`).
    package static func jing(_ files: [URL], file: StaticString = #filePath, line: UInt = #line) -> (Int32, [String])? {
        let path = "/usr/bin/jing"
        guard FileManager.default.isExecutableFile(atPath: path) else {
            XCTFail("jing is not installed (Debian package 'jing'); it is needed to cross-check the schema", file: file, line: line)
            return nil
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = [schemaURL.path] + files.map(\.path)
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch { XCTFail("cannot run jing: \(error)", file: file, line: line); return nil }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init).filter { $0.contains(": error:") || $0.contains(": fatal:") }
        return (p.terminationStatus, lines)
    }

    package static func tempDir() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("notepress-tei-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// A small valid TEI document; `body` replaces the body content.
    package static func document(title: String = "<title>T</title>", body: String = "<p>x</p>") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <TEI xmlns="http://www.tei-c.org/ns/1.0">
          <teiHeader>
            <fileDesc>
              <titleStmt>\(title)</titleStmt>
              <publicationStmt><p>Converted by Notepress</p></publicationStmt>
              <sourceDesc><bibl><idno type="format">gfm</idno></bibl></sourceDesc>
            </fileDesc>
          </teiHeader>
          <text>
            <body>
              \(body)
            </body>
          </text>
        </TEI>

        """
    }
}
