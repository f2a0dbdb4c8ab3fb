import Foundation
import NotepressAST
import NotepressHTML
import NotepressReaders

/// The body of the `notepress-fuzz` libFuzzer target, in the library so that regression tests
/// (Tests/NotepressTests/FuzzRegressionTests.swift) run exactly the same code.
///
/// Input shape: byte 0 selects options (bit 0–1 the reader: 0 note markup, 1 GFM, 2 CommonMark,
/// 3 both note and GFM; bit 2 `fragment`; bit 3 `unsafe`; bit 4 `ascii`; bit 5 `keepMarkers`;
/// bit 6–7 the ANSI colour depth), byte 1 the ANSI width in columns (10 + byte),
/// the rest is the document text (invalid UTF-8 is repaired with U+FFFD as readers would never
/// see it: ``DocumentLoader`` rejects it first). Every writer in ``WriterRegistry/all`` runs on the
/// same AST; TEI is validated against the built-in schema.
public enum FuzzHarness {
    /// What one run produced: output sizes per writer and any writer errors (a TEI output that
    /// does not validate is an emitter bug, reported here rather than crashing).
    public struct Outcome: Sendable {
        public var outputBytes: [String: Int] = [:]
        public var errors: [String: String] = [:]
    }

    /// Runs one fuzz input through the readers and every writer.
    public static func run(_ data: [UInt8]) -> Outcome {
        var outcome = Outcome()
        let flags: UInt8 = data.first ?? 0
        let widthByte: UInt8 = data.count > 1 ? data[1] : 70
        let body = data.count > 2 ? Array(data[2...]) : []
        let text = String(decoding: body, as: UTF8.self)

        var options = ConversionOptions()
        options.fragment = flags & 0b100 != 0
        options.unsafe = flags & 0b1000 != 0
        options.ascii = flags & 0b1_0000 != 0
        options.width = 10 + Int(widthByte)
        options.colorDepth = ColorDepth.allCases[Int(flags >> 6) % ColorDepth.allCases.count]
        options.hyperlinks = options.colorDepth != .none
        let keepMarkers = flags & 0b10_0000 != 0

        var documents: [Document] = []
        let metadata = DocumentMetadata(title: "fuzz", created: Date(timeIntervalSince1970: 0), sourceFormat: .note)
        switch flags & 0b11 {
        case 0:
            documents.append(Document(metadata: metadata, blocks: NoteReader(keepMarkers: keepMarkers).parse(text)))
        case 1:
            documents.append(MarkdownReader(format: .gfm).parse(text, path: "fuzz.md").document)
        case 2:
            documents.append(MarkdownReader(format: .commonmark).parse(text, path: "fuzz.md").document)
        default:
            documents.append(Document(metadata: metadata, blocks: NoteReader(keepMarkers: keepMarkers).parse(text)))
            documents.append(MarkdownReader(format: .gfm).parse(text, path: "fuzz.md").document)
        }
        // Differential checks of the fast paths of single-file runs: cmark's arena allocator
        // builds the same tree; the HTML body written block by block on a second thread (the
        // reader keeping no blocks) is the body written from the whole document.
        if flags & 0b11 == 1 {
            var arena = MarkdownReader(format: .gfm)
            arena.arena = true
            if arena.parse(text, path: "fuzz.md").document != documents[0] { outcome.errors["arena"] = "arena tree differs" }
        }
        for document in documents {
            let options = HTMLOptions(unsafe: options.unsafe, tagfilter: true)
            let stream = HTMLFragmentStream(options: options)
            if document.metadata.sourceFormat == .note {
                _ = NoteReader(keepMarkers: keepMarkers).parse(text, topLevelBlock: { stream.push($0) }, retainBlocks: false)
            } else {
                _ = MarkdownReader(format: document.metadata.sourceFormat).parse(text, path: "fuzz.md", topLevelBlock: { stream.push($0) },
                                                                                  retainBlocks: false)
            }
            if stream.finish() != HTMLEmitter(options: options).fragmentBytes(document) {
                outcome.errors["stream"] = "streamed HTML body differs"
            }
        }
        for var document in documents {
            if document.metadata.created == nil { document.metadata.created = Date(timeIntervalSince1970: 0) }
            for writer in WriterRegistry.all {
                var diagnostics: [Diagnostic] = []
                do {
                    let bytes = try writer.write(document, options: options, diagnostics: &diagnostics)
                    outcome.outputBytes[writer.name, default: 0] += bytes.count
                } catch {
                    outcome.errors[writer.name] = "\(error)"
                }
            }
        }
        return outcome
    }
}
