import Foundation
import Notepress
import NotepressAST
import NotepressHTML
import NotepressResources

/// What a site's HTML page shows after its text about its source (issue 47): "Last updated" and
/// an "Edit this page" link, as page-template values of the page's chrome (`lastUpdated`: a map of
/// `text` and `datetime`; `editHref`, escaped for an attribute). Both come from the page's
/// record and the run's options, and are part of its digest (``SitePageExtras/digest(_:record:table:)``).
extension SitePageExtras {
    /// When page `record` last changed (``SiteFeeds/lastModified(_:)``: front matter's
    /// `updated`/`modified`, else git history, else its file's time), when that is another day
    /// than its date; `nil` otherwise (the date badge says it).
    func lastUpdated(_ record: SiteRecord) -> Date? {
        guard let text = SiteFeeds.lastModified(record), let date = CivilDateTime.parse(text) else { return nil }
        if let c = record.created.flatMap(CivilDateTime.parse), CivilDateTime(c).isoDate == CivilDateTime(date).isoDate { return nil }
        return date
    }

    /// The "Edit this page" URL of page `record`: ``editURL`` with `{path}` (each occurrence)
    /// replaced by the record's path below the input folder, percent-encoded, else with the path
    /// appended; `nil` without ``editURL``.
    func editHref(_ record: SiteRecord) -> String? {
        guard let template = editURL, !SitePaths.isNotFoundPage(record.path) else { return nil }
        let path = SitePaths.urlPath(record.path)
        return template.contains("{path}") ? template.replacingOccurrences(of: "{path}", with: path) : template + path
    }

    /// Adds the footer's values of page `record` to its chrome `values`.
    func footerValues(_ record: SiteRecord, into values: inout [String: MustacheValue]) {
        if let date = lastUpdated(record) {
            let t = DateBadge.texts(date)
            values["lastUpdated"] = .map(["text": .string(t.shown), "datetime": .string(t.machineReadable)])
        }
        if let href = editHref(record) { values["editHref"] = .string(HTMLEscape.url(href)) }
    }

    /// The footer's facts of page `record`, for its digest.
    func footerDigest(_ record: SiteRecord) -> String {
        (lastUpdated(record).map { CivilDateTime($0).iso8601 } ?? "-") + "\u{1F}" + (editHref(record) ?? "-")
    }
}
