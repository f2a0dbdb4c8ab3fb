import CNotepressPDF
import Foundation
import NotepressAST
import NotepressThemes

/// The title block, the contents with page numbers, a book's title page and chapter starts
/// (see ``PDFEmitter``).
extension PDFEmitter {
    /// pandoc's LaTeX title block (`\maketitle`), centred: the title (unless it is the body's
    /// own first heading, as every writer has it), the authors (``PDFOptions/authors``) and the
    /// front matter's `date` as written. Nothing when there is none of them.
    func writeTitleBlock() {
        let m = document.metadata
        let title = m.titleSource == .firstHeading ? nil : m.title.flatMap { $0.isEmpty ? nil : $0 }
        let date = m.fields["date"].flatMap { $0.isEmpty ? nil : $0 }
        writeTitleLines(title: title, authors: options.authors, date: date)
    }

    /// The title (the theme's large title), authors and date, centred, the title an `H1` (no
    /// outline entry: the headings are the outline).
    private func writeTitleLines(title: String?, authors: [String], date: String?) {
        let body = theme.style(for: .body)
        let byline = authors.isEmpty ? nil : authors.joined(separator: ", ")
        guard title != nil || byline != nil || date != nil else { return }
        if let title {
            let s = theme.style(.largeTitle)
            var t = AttributedText()
            t.append(title, RunStyle(s, color: colors.text))
            paragraph(t, s, BlockContext(), tag: "H1", spaceAfter: s.size * 0.5) { p in
                p.align = 1
                p.keep_with_next = 1
                p.keep_extra = body.lineHeight * 2
            }
        }
        for (line, scale) in [(byline, 1.2), (date, 1.0)] {
            guard let line else { continue }
            var s = body
            s.size *= scale
            var t = AttributedText()
            t.append(line, RunStyle(s, color: colors.text))
            paragraph(t, s, BlockContext(), tag: "P", spaceAfter: body.size * 0.4) { $0.align = 1 }
        }
        library.space(handle, body.size * 1.2)
    }

    /// A book's title page (the title a third down, then the authors), then its contents page.
    func writeTitlePage(_ book: PDFBookContent) {
        library.skip(handle, (options.pageHeight - 2 * Self.margins(options)) / 3)
        writeTitleLines(title: book.title, authors: book.authors, date: nil)
        library.pageBreak(handle)
        writeContents(book.contents.map { ($0.title, $0.chapter, $0.depth) }, title: "Contents", level: 1)
    }

    /// The contents: a heading (`title`, an outline entry of `level`), then one line per entry
    /// indented by its depth, its text a link to `dest` and its page number flush right after
    /// dot leaders (from the first layout: ``pages``). An entry without a destination (a book's
    /// group of chapters) has neither. Tagged `TOC`, each line `TOCI`.
    func writeContents(_ entries: [(text: String, dest: String?, depth: Int)], title: String, level: Int) {
        guard !entries.isEmpty else { return }
        let h = theme.style(for: .heading(level))
        var heading = AttributedText()
        heading.append(title, RunStyle(h, color: colors.text))
        // Not a slug (the slugger drops `:`): no heading's id.
        let anchor = "np:contents"
        paragraph(heading, h, BlockContext(), tag: "H\(level)", spaceBefore: h.size * 0.8, spaceAfter: h.size * 0.35) { p in
            p.keep_with_next = 1
            p.keep_extra = self.theme.style(for: .body).lineHeight * 2
            p.dest = UnsafePointer(self.strings.c(anchor))
            p.outline_level = Int32(level)
        }
        let s = theme.style(for: .body)
        library.tagBegin(handle, "TOC", nil)
        for e in entries {
            var style = RunStyle(s, color: colors.text)
            let target = e.dest.flatMap { destinations.contains($0) ? $0 : nil }
            if let target {
                style.link = "dest=" + PDFFonts.quoted(target)
                contentsDestinations.append(target)
            } else {
                style.weight = 700
            }
            var t = AttributedText()
            t.append(e.text, style)
            var ctx = BlockContext()
            ctx.left = Double(min(e.depth, 6)) * s.size * 1.5
            let page = target.flatMap { pages[$0] }.map(String.init)
            paragraph(t, s, ctx, tag: "TOCI", spaceAfter: s.size * 0.25) { p in
                p.right = s.size * 3
                if let page, let target {
                    p.tail = UnsafePointer(self.strings.c(page))
                    p.tail_link = UnsafePointer(self.strings.c("dest=" + PDFFonts.quoted(target)))
                }
            }
        }
        library.tagEnd(handle, "TOC")
        library.space(handle, s.size)
    }

    /// A chapter's start: a new page, the chapter's destination (its name), and its title unless
    /// the chapter's first heading is its title (as the EPUB book writes it).
    func writeChapterStart(_ chapter: PDFBookContent.Chapter) {
        library.pageBreak(handle)
        guard document.metadata.titleSource != .firstHeading, !chapter.title.isEmpty else {
            library.anchor(handle, strings.c(chapter.name))
            return
        }
        let s = theme.style(for: .heading(1))
        var t = AttributedText()
        t.append(chapter.title, RunStyle(s, color: colors.text))
        paragraph(t, s, BlockContext(), tag: "H1", spaceAfter: s.size * 0.6) { p in
            p.keep_with_next = 1
            p.keep_extra = self.theme.style(for: .body).lineHeight * 2
            p.dest = UnsafePointer(self.strings.c(chapter.name))
            p.outline_level = 1
        }
    }
}
