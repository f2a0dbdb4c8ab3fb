import Foundation
import Notepress

/// A book's landing page: mdBook writes the first chapter as `index.html` when the book has no
/// index page, so the site opens on it (not on a generated list of notes). The site table
/// (``SiteTable``) makes the first chapter of the root's `SUMMARY.md` the root's index page
/// when the root has no `index.*` or `README.*`: its output is `index.html`, links to it lead
/// there, and the notes list is `notes-index.html`.
enum BookLanding {
    /// The record index of the first chapter of `entries` (``SiteSummaryEntry``, in order) that is
    /// a page of the table: prefix chapters count, drafts do not.
    static func firstChapter(_ entries: [SiteSummaryEntry], byPath: [String: Int], kinds: [SiteRecord.Kind]) -> Int? {
        for e in entries where e.kind == .chapter && !e.target.isEmpty && !SitePaths.isExternal(e.target) {
            let path = SitePaths.percentDecoded(SitePaths.split(e.target).path)
            guard let resolved = SitePaths.resolve(path, inFolder: ""), let i = byPath[resolved], kinds[i] == .page,
                  resolved != SiteSummary.path else { continue }
            return i
        }
        return nil
    }
}
