// HTMLBodyWriter's inlines: runs, the tags of their spans, links and images.
import NotepressAST

extension HTMLBodyWriter {
    // MARK: inlines

    /// Writes runs, closing and opening elements between consecutive runs where their spans
    /// differ (``Inlines/transition(from:to:into:)``: each span's tags are written once).
    /// Inside an image only text is written (its `alt`), and spans inside it write no tags.
    mutating func inlines(_ content: Inlines) {
        var t = spanTransition
        spanTransition = SpanTransition()  // `t` holds the storage alone: appends need no copy
        defer { spanTransition = t }
        var current: Int?
        var image: Int?  // the image span being written as alt text
        func apply(_ t: SpanTransition) {
            for s in t.closing {
                if let i = image {
                    if s == i { close(content.spans[s]); image = nil }
                } else {
                    close(content.spans[s])
                }
            }
            for s in t.opening where image == nil {
                if case .link(let l) = content.spans[s].kind, !l.isMissing, !options.unsafe { endRawLink() }
                openTag(content.spans[s])
                if case .image = content.spans[s].kind { image = s }
            }
        }
        for run in content.runs {
            if run.span != current {
                content.transition(from: current, to: run.span, into: &t)
                apply(t)
                current = run.span
            }
            if rawInlineDropping != nil, droppedRawInline(run) { continue }
            if image != nil {
                switch run.content {
                case .text(let t): HTMLEscape.appendText(t, to: &out)
                case .rawHTML(let h): HTMLEscape.appendText(h, to: &out)
                case .softBreak, .hardBreak: out.append(0x20)
                case .footnoteReference: break
                }
            } else {
                writeContent(run)
            }
        }
        if current != nil {
            content.transition(from: current, to: nil, into: &t)
            apply(t)
        }
        if !rawInlineOpen.isEmpty || rawInlineDropping != nil { closeRawInlineElements() }
    }

    mutating func writeContent(_ run: InlineRun) {
        switch run.content {
        case .text(let t): HTMLEscape.appendText(t, to: &out)
        case .softBreak: out.append(0x0A)
        case .hardBreak: out.put("<br />\n")
        case .rawHTML(let h):
            if !options.unsafe {
                sanitizedInlineHTML(h)
            } else if options.tagfilter && HTMLEscape.isFilteredTag(Array(h.utf8)[...]) {
                out += "&lt;" + String(h.dropFirst())
            } else {
                out += h
            }
        case .footnoteReference(let label, let number, let occurrence):
            out.put("<sup class=\"footnote-ref\"><a href=\"#fn-"); HTMLEscape.appendURL(label, to: &out)
            out.put("\" id=\"fnref-"); HTMLEscape.appendURL(label, to: &out)
            if occurrence > 1 { out.put("-"); out.put(decimal: occurrence) }
            out.put("\" data-footnote-ref>"); out.put(decimal: number); out.put("</a></sup>")
        }
    }

    /// `href`/`src` text: ``URLSafety`` (nothing for a dangerous destination), then escaped
    /// (``HTMLEscape/appendURL(_:to:)``), appended to the output.
    mutating func putSafeURL(_ url: String) {
        if options.unsafe || !URLSafety.isDangerous(url) { HTMLEscape.appendURL(url, to: &out) }
    }

    mutating func openTag(_ s: InlineSpan) {
        switch s.kind {
        case .strong: out.put("<strong>")
        case .emphasis: out.put("<em>")
        case .strikethrough: out.put("<del>")
        case .code: out.put("<code>")
        case .script: out.put("<span class=\"script\">")
        case .marker: out.put("<span class=\"marker\">")
        case .letterpress: out.put("<span class=\"letterpress\">")
        case .highlight: out.put("<mark>")
        case .superscript: out.put("<sup>")
        case .subscript: out.put("<sub>")
        case .insert: out.put("<ins>")
        case .keyboard: out.put("<kbd>")
        case .abbreviation(let title):
            out.put("<abbr title=\""); HTMLEscape.appendAttribute(title, to: &out); out.put("\">")
        case .math(let display):
            // The TeX source as text; the page's math script (KaTeX, ``HTMLMath``) draws it.
            out.put(display ? "<span class=\"math math-display\">" : "<span class=\"math math-inline\">")
        case .colorRole(let r): out.put("<span class=\""); out += r.rawValue; out.put("\">")
        case .textStyle(let t): out.put("<span class=\"text-"); out += t.rawValue; out.put("\">")
        case .link(let l) where l.isMissing:
            out.put("<span class=\"wikilink-missing\">")
        case .link(let l):
            out.put("<a href=\""); putSafeURL(l.destination)
            if !l.title.isEmpty { out.put("\" title=\""); HTMLEscape.appendAttribute(l.title, to: &out) }
            out.put("\"")
            if let a = l.attributes { putAttributes(a, id: a.id, skipping: ["title"]) }
            out.put(">")
        case .image(let l):
            out.put("<img src=\""); putSafeURL(l.destination); out.put("\" alt=\"")
        case .tag(let name):
            if let prefix = options.tagPagePrefix {
                out += "<a class=\"tag\" href=\"" + HTMLEscape.url(prefix + Hashtags.pagePath(name) + ".html") + "\">"
            } else {
                out.put("<span class=\"tag\">")
            }
        }
    }

    mutating func close(_ s: InlineSpan) {
        switch s.kind {
        case .strong: out.put("</strong>")
        case .emphasis: out.put("</em>")
        case .strikethrough: out.put("</del>")
        case .code: out.put("</code>")
        case .script, .marker, .letterpress, .colorRole, .textStyle, .math: out.put("</span>")
        case .highlight: out.put("</mark>")
        case .superscript: out.put("</sup>")
        case .subscript: out.put("</sub>")
        case .insert: out.put("</ins>")
        case .keyboard: out.put("</kbd>")
        case .abbreviation: out.put("</abbr>")
        case .link(let l): out.put(l.isMissing ? "</span>" : "</a>")
        case .tag: out.put(options.tagPagePrefix == nil ? "</span>" : "</a>")
        case .image(let l):
            if !l.title.isEmpty { out.put("\" title=\""); HTMLEscape.appendAttribute(l.title, to: &out) }
            // Obsidian's size (`![[shot.png|400x300]]`): numbers only, nothing to escape.
            if let w = l.width { out += "\" width=\"" + String(w) }
            if let h = l.height { out += "\" height=\"" + String(h) }
            out.put("\"")
            if let a = l.attributes { putAttributes(a, id: a.id, skipping: ["title", "width", "height", "alt"]) }
            out.put(" />")
        }
    }
}
