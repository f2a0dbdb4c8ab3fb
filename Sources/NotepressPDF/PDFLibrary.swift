import CNotepressPDF
import Foundation
import NotepressPlatform

/// Pango and Cairo, reached through the C interface of the `NotepressPDFShim` shared library
/// (Sources/CNotepressPDF/include/notepress_pdf.h), loaded with `dlopen` the first time
/// ``shared`` is asked for: a run that writes no PDF never maps Pango, Cairo or fontconfig. Found
/// by ``Platform/shimCandidates(fileName:environment:executable:)`` (`NOTEPRESS_PDF_SHIM`, beside
/// the binary, PREFIX/lib/notepress). A document's drawing state lives in its own `np_pdf`, so
/// several documents may be written at once.
package final class PDFLibrary: @unchecked Sendable {
    /// The loaded library, or why it could not be loaded (one sentence).
    package static let shared: Result<PDFLibrary, PDFLibraryUnavailable> = load()

    /// `libNotepressPDFShim.so` (`.dylib` on macOS).
    package static var shimFileName: String { Platform.sharedLibraryFileName("NotepressPDFShim") }

    typealias Handle = OpaquePointer
    let open: @convention(c) (UnsafePointer<np_pdf_setup>?) -> Handle?
    let paragraph: @convention(c) (Handle?, UnsafePointer<CChar>?, Int, UnsafePointer<np_pdf_run>?, Int,
                                   UnsafePointer<np_pdf_paragraph_style>?) -> Int32
    let measure: @convention(c) (Handle?, UnsafePointer<CChar>?, Int, UnsafePointer<np_pdf_run>?, Int,
                                 UnsafeMutablePointer<Double>?, UnsafeMutablePointer<Double>?) -> Void
    let space: @convention(c) (Handle?, Double) -> Void
    let skip: @convention(c) (Handle?, Double) -> Void
    let pageBreak: @convention(c) (Handle?) -> Void
    let anchor: @convention(c) (Handle?, UnsafePointer<CChar>?) -> Void
    let destPage: @convention(c) (Handle?, UnsafePointer<CChar>?) -> Int32
    let rule: @convention(c) (Handle?, Double, Double, UInt32, Double) -> Void
    let tagBegin: @convention(c) (Handle?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Void
    let tagEnd: @convention(c) (Handle?, UnsafePointer<CChar>?) -> Void
    let image: @convention(c) (Handle?, UnsafePointer<CChar>?, Double, Double, Double) -> Int32
    let imageSize: @convention(c) (Handle?, UnsafePointer<CChar>?, UnsafeMutablePointer<Double>?, UnsafeMutablePointer<Double>?) -> Int32
    let tableBegin: @convention(c) (Handle?, Int, UnsafePointer<Double>?, Double, Double, UInt32, UInt32) -> Void
    let tableRow: @convention(c) (Handle?, UnsafePointer<np_pdf_cell>?, Int32) -> Void
    let tableEnd: @convention(c) (Handle?, Double) -> Void
    let footnote: @convention(c) (Handle?, Int32, UnsafePointer<CChar>?, Int, UnsafePointer<np_pdf_run>?, Int) -> Void
    let footnotePlaced: @convention(c) (Handle?, Int32) -> Int32
    let finish: @convention(c) (Handle?, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?, UnsafeMutablePointer<Int>?) -> Int32
    let free: @convention(c) (UnsafeMutableRawPointer?) -> Void
    /// "pango 1.50.12, cairo 1.16.0".
    package let version: String

    private init(handle: UnsafeMutableRawPointer) throws(PDFLibraryUnavailable) {
        func fn<T>(_ name: String, _: T.Type) throws(PDFLibraryUnavailable) -> T {
            guard let p = Platform.symbol(handle, name) else {
                throw PDFLibraryUnavailable(reason: "the PDF shim has no function \(name)")
            }
            return unsafeBitCast(p, to: T.self)
        }
        open = try fn("np_pdf_open", type(of: open))
        paragraph = try fn("np_pdf_paragraph", type(of: paragraph))
        measure = try fn("np_pdf_measure", type(of: measure))
        space = try fn("np_pdf_space", type(of: space))
        skip = try fn("np_pdf_skip", type(of: skip))
        pageBreak = try fn("np_pdf_page_break", type(of: pageBreak))
        anchor = try fn("np_pdf_anchor", type(of: anchor))
        destPage = try fn("np_pdf_dest_page", type(of: destPage))
        rule = try fn("np_pdf_rule", type(of: rule))
        tagBegin = try fn("np_pdf_tag_begin", type(of: tagBegin))
        tagEnd = try fn("np_pdf_tag_end", type(of: tagEnd))
        image = try fn("np_pdf_image", type(of: image))
        imageSize = try fn("np_pdf_image_size", type(of: imageSize))
        tableBegin = try fn("np_pdf_table_begin", type(of: tableBegin))
        tableRow = try fn("np_pdf_table_row", type(of: tableRow))
        tableEnd = try fn("np_pdf_table_end", type(of: tableEnd))
        footnote = try fn("np_pdf_footnote", type(of: footnote))
        footnotePlaced = try fn("np_pdf_footnote_placed", type(of: footnotePlaced))
        finish = try fn("np_pdf_finish", type(of: finish))
        free = try fn("np_pdf_free", type(of: free))
        let versionFn = try fn("np_pdf_library_version", (@convention(c) () -> UnsafePointer<CChar>?).self)
        version = versionFn().map { String(cString: $0) } ?? "unknown"
    }

    private static func load() -> Result<PDFLibrary, PDFLibraryUnavailable> {
        let paths = Platform.shimCandidates(fileName: shimFileName, environment: ProcessInfo.processInfo.environment["NOTEPRESS_PDF_SHIM"],
                                            executable: Platform.executablePath())
        var reasons: [String] = []
        for path in paths {
            switch Platform.loadLibrary(path) {
            case .success(let handle):
                do { return .success(try PDFLibrary(handle: handle)) } catch { return .failure(error) }
            case .failure(let e):
                reasons.append(e.message)
            }
        }
        let why = reasons.last ?? "no executable path to look beside"
        return .failure(PDFLibraryUnavailable(reason: "the PDF library (Pango and Cairo) could not be loaded (\(why))"))
    }
}

/// Why PDF cannot be written here: the shim or Pango/Cairo is not installed.
package struct PDFLibraryUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
    /// One sentence (it names the file and the loader's reason).
    package var reason: String
    /// ``reason``.
    package var description: String { reason }
}
