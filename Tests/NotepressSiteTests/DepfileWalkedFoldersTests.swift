import Foundation
import XCTest
import NotepressTestSupport

/// New-user try-out of issue 30: with the README's make recipe, a note added to a subfolder, or an
/// edited `.notepressignore`, left make "up to date": the depfile named the top folder and the
/// known inputs only. Every folder walked and every ignore file in force is now a prerequisite of
/// the stamp and the notes list.
final class DepfileWalkedFoldersTests: XCTestCase {
    func testNoteAddedToASubfolderAndEditedIgnoreFileRebuild() throws {
        let d = try makeTempDir(self)
        let docs = d.appendingPathComponent("docs")
        try FileManager.default.createDirectory(at: docs.appendingPathComponent("sub"), withIntermediateDirectories: true)
        func put(_ text: String, _ path: String) throws { try Data(text.utf8).write(to: docs.appendingPathComponent(path)) }
        try put("# A\n", "a.md")
        try put("# S\n", "sub/s.md")
        try put("x\n", ".notepressignore")
        let makefile = """
        .DELETE_ON_ERROR:
        site/.notepress-stamp: docs
        \t$(NOTEPRESS) convert docs -o site --depfile site/deps.d -q
        -include site/deps.d

        """
        try Data(makefile.utf8).write(to: d.appendingPathComponent("Makefile"))
        func make() throws -> (status: Int32, output: String) {
            try runTool("make", ["-C", d.path, "NOTEPRESS=" + NotepressBinary.url.path])
        }
        XCTAssertEqual(try make().status, 0)
        XCTAssertTrue(try make().output.contains("is up to date"))
        sleep(1)  // make compares times to the second on some file systems
        try put("# T\n", "sub/t.md")
        let added = try make()
        XCTAssertEqual(added.status, 0, added.output)
        XCTAssertFalse(added.output.contains("is up to date"), "a note added to sub/ was not built: \(added.output)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: d.appendingPathComponent("site/sub/t.html").path))
        sleep(1)
        try put("a.md\n", ".notepressignore")
        let ignored = try make()
        XCTAssertEqual(ignored.status, 0, ignored.output)
        XCTAssertFalse(ignored.output.contains("is up to date"), "an edited .notepressignore did not rebuild: \(ignored.output)")
        let deps = try String(contentsOf: d.appendingPathComponent("site/deps.d"), encoding: .utf8)
        XCTAssertTrue(deps.contains("docs/sub"), deps)
        XCTAssertTrue(deps.contains("docs/.notepressignore"), deps)
    }
}
