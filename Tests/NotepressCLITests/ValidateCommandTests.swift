import Foundation
import XCTest
import NotepressTestSupport

/// `notepress validate` as a program: our own TEI output validates; a wrong element is reported
/// with its line and exit status 1; an external entity is refused without being read.
final class ValidateCommandTests: XCTestCase {
    func testValidateReportsLineAndStatus() throws {
        let dir = try makeTempDir(self)
        let good = dir.appendingPathComponent("good.xml")
        let made = try NotepressBinary.run(["convert", "-t", "tei", "-f", "gfm", "-o", good.path, "-"],
                                           stdin: Data("# Title\n\nSome *text*.\n".utf8))
        XCTAssertEqual(made.status, 0, made.stderr)
        let ok = try NotepressBinary.run(["validate", good.path])
        XCTAssertEqual(ok.status, 0, ok.stderr)

        // Replace the first <p> by an element the schema does not allow.
        var text = try String(contentsOf: good, encoding: .utf8)
        guard let p = text.range(of: "<p>"), let close = text.range(of: "</p>", range: p.upperBound..<text.endIndex) else {
            return XCTFail("no <p> in \(text)")
        }
        let line = text[..<p.lowerBound].filter { $0 == "\n" }.count + 1
        text.replaceSubrange(p.lowerBound..<close.upperBound, with: "<para>x</para>")
        let bad = dir.appendingPathComponent("bad.xml")
        try text.write(to: bad, atomically: true, encoding: .utf8)
        let r = try NotepressBinary.run(["validate", good.path, bad.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("bad.xml:\(line):"), "line \(line) expected: \(r.stderr)")
        XCTAssertFalse(r.stderr.contains("good.xml"), r.stderr)

        let secret = dir.appendingPathComponent("secret.txt")
        try "TOP-SECRET-VALUE".write(to: secret, atomically: true, encoding: .utf8)
        let xxe = dir.appendingPathComponent("xxe.xml")
        try "<?xml version=\"1.0\"?>\n<!DOCTYPE TEI [<!ENTITY s SYSTEM \"file://\(secret.path)\">]>\n<TEI xmlns=\"http://www.tei-c.org/ns/1.0\">&s;</TEI>\n"
            .write(to: xxe, atomically: true, encoding: .utf8)
        let x = try NotepressBinary.run(["validate", xxe.path])
        XCTAssertEqual(x.status, 1)
        XCTAssertFalse(x.stderr.contains("TOP-SECRET-VALUE"), x.stderr)
        XCTAssertEqual(try NotepressBinary.run(["validate"]).status, 2)
    }
}
