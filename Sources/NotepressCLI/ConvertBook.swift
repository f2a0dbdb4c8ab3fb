import Foundation
import Notepress
import NotepressSite

extension ConvertPlan {
    /// `convert FOLDER -o BOOK.epub` or `BOOK.pdf` (or several files): them as one book (NotepressSite's
    /// ``EPUBBook``, ``PDFBook``); warnings as a folder run prints them, then one summary line.
    /// - Throws: ``UsageError`` when the request cannot be made.
    /// `keepForExit`: the process ends after this (not a `--watch` build).
    func convertBook(keepForExit: Bool = true) throws -> Int32 {
        let request = try siteBuildRequest(keepForExit: keepForExit)
        let start = Date()
        let report: SiteBook.Report
        do {
            let observer = TerminalBuildObserver(verbosity: verbosity)
            report = outputs.writers.first?.format == .pdf ? try PDFBook.run(request, observer: observer)
                                                            : try EPUBBook.run(request, observer: observer)
        } catch {
            printError(errorText(error, file: request.output))
            return 1
        }
        if !report.failures.isEmpty {
            printError("failed:")
            for f in report.failures { printError("  " + f) }
            return 1
        }
        if verbosity != .quiet {
            let images = outputs.writers.first?.format == .pdf ? "" : String(format: ", %d images", report.images)
            printError(String(format: "wrote %@: %d chapter%@%@ in %.2f s", request.output, report.chapters, report.chapters == 1 ? "" : "s", images,
                              Date().timeIntervalSince(start)))
        }
        return 0
    }
}
