import Foundation
import Notepress
import NotepressSite

extension ConvertPlan {
    /// `convert FOLDER -o BOOK.epub`: the folder as one EPUB book (NotepressSite's ``EPUBBook``);
    /// warnings as a folder run prints them, then one summary line.
    /// - Throws: ``UsageError`` when the request cannot be made.
    /// `keepForExit`: the process ends after this (not a `--watch` build).
    func convertEPUBBook(keepForExit: Bool = true) throws -> Int32 {
        let request = try siteBuildRequest(keepForExit: keepForExit)
        let start = Date()
        let report: EPUBBook.Report
        do {
            report = try EPUBBook.run(request, observer: TerminalBuildObserver(verbosity: verbosity))
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
            printError(String(format: "wrote %@: %d chapters, %d images in %.2f s", request.output, report.chapters, report.images,
                              Date().timeIntervalSince(start)))
        }
        return 0
    }
}
