import Foundation
import Notepress
import NotepressSite
import NotepressAST
import NotepressHTML
import NotepressReaders

/// The body of the `notepress-fuzz` libFuzzer target, in the library so that regression tests
/// (Tests/NotepressReaderTests/FuzzRegressionTests.swift) run exactly the same code.
///
/// Input shape: byte 0 selects options (bit 0–1 the reader: 0 note markup, 1 GFM, 2 CommonMark,
/// 3 both note and GFM; bit 2 `fragment`; bit 3 `unsafe`; bit 4 `ascii`; bit 5 `keepMarkers`;
/// bit 6–7 the ANSI colour depth), byte 1 the ANSI width in columns (10 + its low seven bits)
/// and, in bit 7, the folder path (``FuzzFolder``); the rest is the document text (invalid
/// UTF-8 is repaired with U+FFFD as readers would never see it: ``DocumentLoader`` rejects it).
///
/// What runs:
/// - the readers on the text, with two differential checks of the single-file fast paths (cmark's
///   arena allocator builds the same tree; the HTML body streamed block by block is the whole
///   document's body);
/// - the ``DocumentLoader`` on the text (front matter, `created` dates; a loader error such as a
///   bad date or a NUL byte falls back to the reader's document), then every writer in
///   ``WriterRegistry/all`` on the result (packages and PDF twice: the same bytes), TEI validated
///   against the built-in schema; PDF for texts of at most ``pdfAlways`` bytes and one longer
///   text in ``pdfSampling`` (``writesPDF(_:)``);
/// - the output checks of ``FuzzOracles`` (no live dangerous URL without `unsafe`, no bidi
///   control in terminal or man output, ASCII man pages) and ``FuzzPackages`` (DOCX, ODT and
///   EPUB packages open and hold well-formed parts that their lists name, PDF is framed, sizes
///   are bounded by the input's);
/// - with the folder bit, ``FuzzFolder``: a ``BatchConverter`` run over a temporary folder of
///   inputs cut from the text, the same writers, index and manifest, then a re-run that must
///   convert nothing.
package enum FuzzHarness {
    /// What one run produced: output sizes per writer and any errors. Writer errors (a TEI output
    /// that does not validate) are keyed by writer name; the keys in ``bugKeys`` (and those that
    /// start with `oracle:`) are always bugs.
    package struct Outcome: Sendable {
        package var outputBytes: [String: Int] = [:]
        package var errors: [String: String] = [:]

        /// The errors that are bugs whatever the input: fast paths that disagree with the plain
        /// ones, a folder run that differs from itself, an output check that failed.
        package var bugs: [String: String] { errors.filter { FuzzHarness.bugKeys.contains($0.key) || $0.key.hasPrefix("oracle:") } }
    }

    /// Error keys that are bugs for any input (see ``Outcome/bugs``).
    package static let bugKeys: Set<String> = ["arena", "stream", "batch"]

    /// Runs one fuzz input through the readers, the loader and every writer (and the folder path).
    /// Builds the tables a process computes once (the search script's folding table: 130 000
    /// code points looked up), before libFuzzer times its first input: under ASan on a loaded
    /// machine that one-time cost alone passed the per-input timeout.
    /// Also loads what the package and PDF writers load on first use (libzip, the PDF shim) by
    /// writing a one-line document with every writer: `nil`, or why one cannot write here (the PDF
    /// shim is not beside the binary), which the fuzzer must not run without.
    package static func warmUp() -> String? {
        _ = SearchTerms.foldTable.count
        let document = Document(metadata: DocumentMetadata(title: "warm-up", created: Date(timeIntervalSince1970: 0), sourceFormat: .note),
                                blocks: NoteReader().parse("warm *up*\n"))
        var outcome = Outcome()
        for writer in WriterRegistry.all {
            write(document, writer, options: ConversionOptions(), inputLength: 10, into: &outcome)
        }
        return outcome.errors.sorted { $0.key < $1.key }.first.map { "\($0.key): \($0.value)" }
    }

    package static func run(_ data: [UInt8]) -> Outcome {
        var outcome = Outcome()
        let flags: UInt8 = data.first ?? 0
        let widthByte: UInt8 = data.count > 1 ? data[1] : 70
        let body = data.count > 2 ? Array(data[2...]) : []
        let text = String(decoding: body, as: UTF8.self)

        var options = ConversionOptions()
        options.fragment = flags & 0b100 != 0
        options.unsafe = flags & 0b1000 != 0
        options.ascii = flags & 0b1_0000 != 0
        options.width = 10 + Int(widthByte & 0x7F)
        options.colorDepth = ColorDepth.allCases[Int(flags >> 6) % ColorDepth.allCases.count]
        options.hyperlinks = options.colorDepth != .none
        let keepMarkers = flags & 0b10_0000 != 0
        let formats: [SourceFormat] = switch flags & 0b11 {
        case 0: [.note]
        case 1: [.gfm]
        case 2: [.commonmark]
        default: [.note, .gfm]
        }

        // Readers alone, and the differential checks of the fast paths of single-file runs.
        let withPDF = writesPDF(data)
        let metadata = DocumentMetadata(title: "fuzz", created: Date(timeIntervalSince1970: 0), sourceFormat: .note)
        for format in formats {
            let plain = format == .note
                ? Document(metadata: metadata, blocks: NoteReader(keepMarkers: keepMarkers).parse(text))
                : MarkdownReader(format: format).parse(text, path: "fuzz.md").document
            if format == .gfm && formats.count == 1 {
                var arena = MarkdownReader(format: .gfm)
                arena.arena = true
                if arena.parse(text, path: "fuzz.md").document != plain { outcome.errors["arena"] = "arena tree differs" }
            }
            let html = HTMLOptions(unsafe: options.unsafe, tagfilter: true)
            let stream = HTMLFragmentStream(options: html)
            if format == .note {
                _ = NoteReader(keepMarkers: keepMarkers).parse(text, topLevelBlock: { stream.push($0) }, retainBlocks: false)
            } else {
                _ = MarkdownReader(format: format).parse(text, path: "fuzz.md", topLevelBlock: { stream.push($0) }, retainBlocks: false)
            }
            if stream.finish() != HTMLEmitter(options: html).fragmentBytes(plain) {
                outcome.errors["stream"] = "streamed HTML body differs"
            }

            // The loader (front matter, dates), then every writer and the output checks.
            var document: Document
            do {
                var loader = DocumentLoader(format: format, keepMarkers: keepMarkers)
                // Math, comments, highlights, callouts as the command line reads them (not in fragments).
                loader.vaultSyntax = !options.fragment
                document = try loader.load(data: Data(body), path: format == .note ? "fuzz.note" : "fuzz.md", modified: nil).document
            } catch {
                document = plain
            }
            if document.metadata.created == nil { document.metadata.created = Date(timeIntervalSince1970: 0) }
            for writer in writers(pdf: withPDF) {
                write(document, writer, options: options, inputLength: body.count, into: &outcome)
            }
        }

        if widthByte & 0x80 != 0,
           let problem = FuzzFolder.run(body, options: options, keepMarkers: keepMarkers, writers: writers(pdf: withPDF)) {
            outcome.errors["batch"] = problem
        }
        return outcome
    }

    /// The longest text written as PDF every time; longer ones are written as PDF one time in
    /// ``pdfSampling`` (Pango's layout of a page costs more than all other writers together).
    package static let pdfAlways = 512
    /// One longer input in this many is written as PDF, chosen by a hash of the input's bytes (so
    /// that a crash file replays the same way).
    package static let pdfSampling: UInt64 = 8

    /// Whether the run of `data` writes PDF (``pdfAlways``, ``pdfSampling``).
    package static func writesPDF(_ data: [UInt8]) -> Bool {
        if data.count <= pdfAlways + 2 { return true }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        for b in data { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        return (hash >> 40) % pdfSampling == 0  // FNV's low bits mix poorly
    }

    /// Every writer, PDF only when `pdf`.
    static func writers(pdf: Bool) -> [any DocumentWriter] {
        WriterRegistry.all.filter { pdf || $0.format != .pdf }
    }

    /// The writers run twice to compare their bytes: the packages and PDF (dates, zip headers,
    /// Cairo's objects). The text writers are not (a third of the harness's time for nothing new:
    /// their golden files and the folder path's re-runs hold their bytes).
    static let writtenTwice: Set<OutputFormat> = [.docx, .odt, .epub, .pdf]

    /// Writes `document` with `writer` (twice: ``writtenTwice``) and checks the output
    /// (``FuzzOracles``, ``FuzzPackages``). Bugs, keyed `oracle:NAME`: a failed check, two runs
    /// that differ, and a failure of a writer that takes every document (all but TEI, whose output
    /// may not validate).
    static func write(_ document: Document, _ writer: any DocumentWriter, options: ConversionOptions, inputLength: Int,
                      into outcome: inout Outcome) {
        var diagnostics: [Diagnostic] = []
        do {
            let bytes = try writer.write(document, options: options, diagnostics: &diagnostics)
            outcome.outputBytes[writer.name, default: 0] += bytes.count
            if let problem = FuzzOracles.check(writer.format, bytes, unsafe: options.unsafe)
                ?? FuzzPackages.check(writer.format, bytes, inputLength: inputLength) {
                outcome.errors["oracle:" + writer.name] = problem
            } else if writtenTwice.contains(writer.format), try writer.write(document, options: options, diagnostics: &diagnostics) != bytes {
                outcome.errors["oracle:" + writer.name] = "\(writer.name): two runs wrote different bytes"
            }
        } catch {
            outcome.errors[(writer.format == .tei ? "" : "oracle:") + writer.name] = "\(error)"
        }
    }
}
