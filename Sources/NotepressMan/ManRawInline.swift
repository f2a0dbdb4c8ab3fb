import NotepressAST

/// Raw inline HTML in man output (see ``ManEmitter``).
extension ManRenderer {
    /// Raw inline HTML: `<br>` is a line break, a comment nothing, a placeholder (below) an
    /// italic word; anything else is dropped with a warning.
    ///
    /// Placeholders: in ronn input (`ronnTags` not nil), ronn's own rule (ronn-format(7), ronn's
    /// angle-quote filter): `<contents>` without `:`, `.` or `/` whose first word is not one of
    /// ``ronnHTMLElements`` and is not closed anywhere in the document (`ronnTags`) is
    /// `<var>contents</var>`; its end tag is dropped silently. In other Markdown a one-word tag
    /// that is no HTML element (``htmlElements``) is a placeholder.
    ///
    /// Returns what the tag is in the text (``RawInlineAction``) rather than calling back: the
    /// caller's word state then stays out of closures (whose captures Swift checks for
    /// exclusive access at run time, 4 % of a man run).
    static func rawInline(_ h: String, flow: Bool, ronnTags: Set<String>?, warn: (String) -> Void) -> RawInlineAction {
        let t = h.trimmingHorizontalWhitespace()
        if t.hasPrefix("<!--") { return .nothing }
        var name = t.dropFirst().prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }
        let closing = t.hasPrefix("</")
        if closing { name = t.dropFirst(2).prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." } }
        let lower = name.lowercased()
        if lower == "br" {
            return flow ? .hardBreak : .space
        }
        if let ronnTags {
            switch RonnPlaceholder.reading(t, closed: ronnTags) {
            case .placeholder(let contents): return .placeholder(contents)
            case .endTag: return .nothing
            case .html: break
            }
        } else if !name.isEmpty && !htmlElements.contains(lower) && t.hasSuffix(">") && !t.contains(" ") {
            // ronn-format(7): `<var>` is a placeholder, shown underlined (italic here).
            return closing ? .nothing : .placeholder(String(name))
        }
        warn("raw HTML '\(t.prefix(40))' dropped")
        return .nothing
    }
}

/// What a raw inline HTML tag is in man output (``ManRenderer/rawInline(_:flow:ronnTags:warn:)``).
enum RawInlineAction {
    /// Nothing (a comment, a dropped tag, a placeholder's end tag).
    case nothing
    /// A line break (`<br>` in flowed text).
    case hardBreak
    /// A space (`<br>` in a heading, tag or cell).
    case space
    /// A placeholder, written as this italic word.
    case placeholder(String)
}
