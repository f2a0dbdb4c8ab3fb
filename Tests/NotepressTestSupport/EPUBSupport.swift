import Foundation
import XCTest

/// EPUB checks for tests: epubcheck's verdict and the package read back by Python's zipfile.
package enum EPUBSupport {
    /// epubcheck's counts of fatal errors, errors and warnings for the package at `path`, and
    /// its output. Debian's `epubcheck` is a link to the jar (run through binfmt where the
    /// system has it): the jar is run with `java -jar` here, which works everywhere.
    package static func check(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws
        -> (fatals: Int, errors: Int, warnings: Int, output: String) {
        guard let exe = Tools.which("epubcheck") else {
            XCTFail("epubcheck is not installed (.ci/apt-packages-test)", file: file, line: line)
            throw CocoaError(.fileNoSuchFile)
        }
        let jar = (exe as NSString).resolvingSymlinksInPath
        let (status, out) = try runTool("java", ["-jar", jar, path], file: file, line: line)
        // "Messages: 0 fatals / 0 errors / 0 warnings / 0 infos", or "No errors or warnings detected."
        guard let summary = out.split(separator: "\n").last(where: { $0.hasPrefix("Messages:") }) else {
            XCTFail("epubcheck printed no summary (status \(status)): \(out)", file: file, line: line)
            return (1, 1, 1, out)
        }
        let numbers = summary.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        guard numbers.count >= 3 else { return (1, 1, 1, out) }
        return (numbers[0], numbers[1], numbers[2], out)
    }

    /// The package's spine: the chapter files (`href`s of the itemrefs, in order), read with
    /// Python's zipfile and ElementTree.
    package static func spine(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let script = """
        import sys, zipfile, xml.etree.ElementTree as ET
        z = zipfile.ZipFile(sys.argv[1])
        ns = {'o': 'http://www.idpf.org/2007/opf'}
        opf = ET.fromstring(z.read('EPUB/package.opf'))
        items = {i.get('id'): i.get('href') for i in opf.find('o:manifest', ns)}
        for r in opf.find('o:spine', ns): print(items[r.get('idref')])
        """
        let (status, out) = try runTool("python3", ["-c", script, path], file: file, line: line)
        XCTAssertEqual(status, 0, out, file: file, line: line)
        return out.split(separator: "\n").map(String.init)
    }

    /// One file of the package (`EPUB/ch001.xhtml`) as text.
    package static func entry(_ path: String, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let (status, out) = try runTool("python3", ["-c", "import sys, zipfile; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).decode())",
                                                    path, name], file: file, line: line)
        XCTAssertEqual(status, 0, out, file: file, line: line)
        return out
    }
}
