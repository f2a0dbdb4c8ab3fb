import Foundation
import Notepress

/// One broken link of a site: where it is written and what is wrong.
package struct LinkProblem: Sendable, Equatable {
    /// The page's path below the input folder.
    package var path: String
    /// 1-based line and byte column (0 when the reader did not know them).
    package var line: Int
    /// See ``line``.
    package var column: Int
    /// `link to 'x.md#y': no heading 'y' in x.md`.
    package var message: String
    /// A broken link (counted, an error with `--strict-links`); false: a notice about a link that
    /// resolved (``LinkResolution/notice``), always a warning.
    package var isBroken = true

    /// A problem of the page at `path` (see the properties).
    package init(path: String, line: Int, column: Int, message: String, isBroken: Bool = true) {
        self.path = path
        self.line = line
        self.column = column
        self.message = message
        self.isBroken = isBroken
    }

    /// `FILE:LINE:COLUMN: warning: MESSAGE` (or `error` with `--strict-links`), with the page's
    /// path as `file` gives it.
    package func description(file: String, severity: String = "warning") -> String {
        var s = file + ":"
        if line > 0 { s += "\(line):" }
        if column > 0 { s += "\(column):" }
        return s + " \(severity): \(message)"
    }
}

/// The link report of a site: every link to a missing page, file, heading or block anchor, and
/// every unresolved wiki link, listed once, computed from the site table alone (so a sharded run
/// reports the same). Order: pages in table order, then line, column and message.
///
/// Messages: `link to 'DEST': no such file PATH`, `link to 'DEST': no heading 'ID' in PAGE`,
/// `link to 'DEST': folder F has no index page (index or README)`, `link to 'DEST': outside the
/// input folder; not copied`, `image 'SRC': …` for images, `wiki link '[[T]]': no note or file
/// named 'T'`. Links inside code are not links and never listed; links with a URL scheme are not
/// checked.
package enum LinkReport {
    /// The problems of every page of `table`, whose links `resolutions` holds resolved (by record
    /// index, ``SiteRewriter/resolutions(of:)``).
    package static func problems(_ table: SiteTable, resolutions: [SiteRewriter.Resolutions]) -> [LinkProblem] {
        var out: [LinkProblem] = []
        for (index, r) in table.records.enumerated() where r.kind == .page {
            var page: [LinkProblem] = []
            for l in r.links {
                guard let res = resolutions[index][SiteRewriter.LinkKey(kind: l.kind, target: l.target)] else { continue }
                if let m = res.problem {
                    page.append(LinkProblem(path: r.path, line: l.line, column: l.column, message: m))
                } else if let m = res.notice {
                    page.append(LinkProblem(path: r.path, line: l.line, column: l.column, message: m, isBroken: false))
                }
            }
            page.sort { a, b in
                if a.line != b.line { return a.line < b.line }
                if a.column != b.column { return a.column < b.column }
                return a.message.utf8.lexicographicallyPrecedes(b.message.utf8)
            }
            var last: LinkProblem?
            for p in page where p != last {
                out.append(p)
                last = p
            }
        }
        return out
    }
}
