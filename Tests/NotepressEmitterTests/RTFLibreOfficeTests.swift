import Foundation
import XCTest
import NotepressTestSupport
import NotepressAST
import NotepressReaders
import NotepressThemes
import NotepressRTF
import NotepressRawHTML
@testable import Notepress

/// RTF read back by real readers: LibreOffice (Debian `libreoffice-writer-nogui`) and poppler
/// (`poppler-utils`). These tests fail, never skip, when the programs are missing.
final class RTFLibreOfficeTests: XCTestCase {
    /// The inputs: every file under samples/ (`.md` via MarkdownReader, `.note`/`.txt`
    /// via NoteReader) and every Markdown file of ../shared/corpus/markdown (its MANIFEST.tsv
    /// is not a document).
    static func inputs() throws -> [(name: String, document: Document)] {
        var result: [(String, Document)] = []
        let fm = FileManager.default
        var files: [URL] = []
        let samples = TestPaths.samples
        if let e = fm.enumerator(at: samples, includingPropertiesForKeys: nil) {
            for case let u as URL in e where ["md", "note", "txt"].contains(u.pathExtension) { files.append(u) }
        }
        let corpus = TestPaths.corpus.appendingPathComponent("markdown")
        for n in try fm.contentsOfDirectory(atPath: corpus.path) where n.hasSuffix(".md") {
            files.append(corpus.appendingPathComponent(n))
        }
        files.sort { $0.path < $1.path }
        for (i, u) in files.enumerated() {
            let text = try String(contentsOf: u, encoding: .utf8)
            var doc: Document
            if u.pathExtension == "md" {
                doc = MarkdownReader(format: .gfm).parse(text, path: u.path).document
            } else {
                doc = try NoteReader().read(text, path: u.path).document
            }
            let stem = u.deletingPathExtension().lastPathComponent
            doc.metadata.title = doc.metadata.title ?? stem
            doc.metadata.created = RTFTestSupport.created
            result.append(("\(i)-\(stem)", doc))
        }
        return result
    }

    /// The words a reader must show, in order: title, then every block's plain text (an alert
    /// after its title); the date badge is a shape, whose text LibreOffice's text export leaves
    /// out (``testBadgeIsARoundShapeTheTextWrapsAround`` reads it from the PDF); footnote
    /// definitions are left out (LibreOffice's text export drops footnote bodies; the PDF test
    /// checks them), except definitions never referenced, which the emitter writes at the end
    /// after their label.
    static func expectedText(_ doc: Document) -> String {
        var parts: [String] = []
        if let t = doc.metadata.title { parts.append(t) }
        var referenced: Set<String> = []
        func refs(_ inl: Inlines) {
            for r in inl.runs { if case .footnoteReference(let l, _, _) = r.content { referenced.insert(l) } }
        }
        func walk(_ b: Block, inFootnote: Bool) {
            switch b.kind {
            case .paragraph(let i), .heading(_, let i):
                if !inFootnote { refs(i) }
                parts.append(i.plainText)
            case .codeBlock(_, let lit): parts.append(lit)
            case .table(let t):
                for row in [t.header] + t.rows { for c in row { if !inFootnote { refs(c) }; parts.append(c.plainText) } }
            case .footnoteDefinition: break
            case .htmlBlock, .thematicBreak: break
            case .list(let l):
                for item in l.items { for c in item.blocks { walk(c, inFootnote: inFootnote) } }
            case .blockQuote(let bs), .unknown(_, let bs): for c in bs { walk(c, inFootnote: inFootnote) }
            case .alert(let a):
                parts.append(a.kind.title)
                for c in a.blocks { walk(c, inFootnote: inFootnote) }
            case .definitionList(let items):
                for item in items {
                    if !inFootnote { refs(item.term) }
                    parts.append(item.term.plainText)
                    for d in item.definitions { for c in d { walk(c, inFootnote: inFootnote) } }
                }
            }
        }
        for b in doc.blocks { walk(b, inFootnote: false) }
        for b in doc.blocks {
            if case .footnoteDefinition(let label, let bs) = b.kind, !referenced.contains(label) {
                referenced.insert(label)
                parts.append(label)
                for c in bs { walk(c, inFootnote: true) }
            }
        }
        return parts.joined(separator: "\n")
    }

    /// Whitespace-separated words, without tokens that carry no letter or digit (bullets, check
    /// boxes, punctuation) and without list numbers (`3.`, `3)`), which readers add.
    static func words(_ s: String) -> [String] {
        let cleaned = String(String.UnicodeScalarView(s.unicodeScalars.filter {
            !($0.value < 0x20 && $0 != "\n" && $0 != "\t") && !(0x7F..<0xA0).contains($0.value) && $0.value != 0xFEFF
        }))
        return cleaned.split(whereSeparator: { $0.isWhitespace }).map(String.init).filter { w in
            guard w.unicodeScalars.contains(where: { CharacterSet.alphanumerics.contains($0) }) else { return false }
            if w.count >= 2, w.dropLast().allSatisfy(\.isASCII), w.dropLast().allSatisfy(\.isNumber),
               w.last == "." || w.last == ")" { return false }
            return true
        }
    }

    /// Describes the first difference of two word sequences with context.
    static func firstMismatch(_ expected: [String], _ actual: [String]) -> String? {
        let n = min(expected.count, actual.count)
        for i in 0..<n where expected[i] != actual[i] {
            let e = expected[max(0, i - 5)..<min(expected.count, i + 6)].joined(separator: " ")
            let a = actual[max(0, i - 5)..<min(actual.count, i + 6)].joined(separator: " ")
            return "word \(i): expected '\(expected[i])' got '\(actual[i])'\n  expected …\(e)…\n  actual   …\(a)…"
        }
        if expected.count != actual.count {
            return "lengths differ: expected \(expected.count) words, got \(actual.count); tail expected "
                + "\(expected.suffix(from: n).prefix(10)) actual \(actual.suffix(from: n).prefix(10))"
        }
        return nil
    }

    func testLibreOfficeTextKeepsEveryWord() throws {
        let docs = try Self.inputs()
        XCTAssertGreaterThanOrEqual(docs.count, 10, "expected the corpus and samples")
        let dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("rtf-lo-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var files: [URL] = []
        for (name, doc) in docs {
            let (rtf, _) = RTFTestSupport.rtf(doc)
            let u = dir.appendingPathComponent(name + ".rtf")
            try rtf.write(to: u, atomically: true, encoding: .utf8)
            files.append(u)
        }
        let out = dir.appendingPathComponent("txt")
        try LibreOffice.soffice("txt:Text", files, outDir: out)
        var checkedCJK = false, checkedEmoji = false
        for (name, doc) in docs {
            guard let data = FileManager.default.contents(atPath: out.appendingPathComponent(name + ".txt").path) else {
                XCTFail("\(name): LibreOffice produced no text")
                continue
            }
            let actual = Self.words(String(decoding: data, as: UTF8.self))
            // The words of the document as the writers read it: raw HTML read into the AST (issue 53).
            let expected = Self.words(Self.expectedText(RawHTMLReading.reading(doc)))
            XCTAssertGreaterThan(expected.count, 10, "\(name): suspiciously few words")
            if let m = Self.firstMismatch(expected, actual) { XCTFail("\(name): \(m)") }
            if expected.contains(where: { $0.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) } }) { checkedCJK = true }
            if expected.contains(where: { $0.unicodeScalars.contains { $0.value >= 0x1F300 } }) { checkedEmoji = true }
        }
        XCTAssertTrue(checkedCJK, "no CJK text was compared")
        XCTAssertTrue(checkedEmoji, "no emoji were compared")
    }

    /// Title and body glyph sizes in the PDF LibreOffice makes follow the size category.
    func testPDFFontSizesFollowCategory() throws {
        guard let pdftotext = Tools.which("pdftotext") else {
            return XCTFail("pdftotext not found: install the Debian package poppler-utils")
        }
        let dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("rtf-pdf-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let doc = RTFTestSupport.markdown("Bodyword here[^n].\n\n[^n]: Footnoteword inside.\n", title: "Titleword")
        var files: [URL] = []
        for cat in [SizeCategory.extraSmall, .accessibilityExtraExtraExtraLarge] {
            let (rtf, _) = RTFTestSupport.rtf(doc, theme: Theme.standard.resolved(category: cat))
            let u = dir.appendingPathComponent(cat.alias + ".rtf")
            try rtf.write(to: u, atomically: true, encoding: .utf8)
            files.append(u)
        }
        try LibreOffice.soffice("pdf", files, outDir: dir)
        func heights(_ alias: String) throws -> [String: Double] {
            let (status, html) = try Tools.output(pdftotext, ["-bbox", dir.appendingPathComponent(alias + ".pdf").path, "-"])
            XCTAssertEqual(status, 0)
            var result: [String: Double] = [:]
            // <word xMin="…" yMin="…" xMax="…" yMax="…">Text</word>
            let re = try NSRegularExpression(pattern: #"yMin="([0-9.]+)" xMax="[0-9.]+" yMax="([0-9.]+)">([^<]*)</word>"#)
            for m in re.matches(in: html, range: NSRange(html.startIndex..., in: html)) {
                let r = { (i: Int) in String(html[Range(m.range(at: i), in: html)!]) }
                result[r(3)] = Double(r(2))! - Double(r(1))!
            }
            return result
        }
        let xs = try heights("xs"), ax5 = try heights("ax5")
        for w in ["Titleword", "Bodyword", "Footnoteword"] {
            XCTAssertNotNil(xs[w], "\(w) missing from the xs PDF: \(xs.keys.sorted())")
            XCTAssertNotNil(ax5[w], "\(w) missing from the ax5 PDF")
        }
        guard let t1 = xs["Titleword"], let t2 = ax5["Titleword"], let b1 = xs["Bodyword"], let b2 = ax5["Bodyword"],
              let f1 = xs["Footnoteword"], let f2 = ax5["Footnoteword"] else { return }
        // Headline and body: 14 pt at xSmall, 53 pt at AX5 (ratio 3.79); footnote 12 → 44 (3.67).
        XCTAssertEqual(t2 / t1, 53.0 / 14.0, accuracy: 0.25, "title heights \(t1) → \(t2)")
        XCTAssertEqual(b2 / b1, 53.0 / 14.0, accuracy: 0.25, "body heights \(b1) → \(b2)")
        XCTAssertEqual(f2 / f1, 44.0 / 12.0, accuracy: 0.25, "footnote heights \(f1) → \(f2)")
    }
}
