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
    static func rawInline(_ h: String, flow: Bool, ronnTags: Set<String>?, warn: (String) -> Void,
                          add: (String, RoffFont, Bool) -> Void, hardBreak: () -> Void, space: () -> Void) {
        let t = h.trimmingHorizontalWhitespace()
        if t.hasPrefix("<!--") { return }
        var name = t.dropFirst().prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }
        let closing = t.hasPrefix("</")
        if closing { name = t.dropFirst(2).prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." } }
        let lower = name.lowercased()
        if lower == "br" {
            if flow { hardBreak() } else { space() }
            return
        }
        if let ronnTags {
            let known = ronnHTMLElements.contains(lower) || ronnTags.contains(lower)
            if !name.isEmpty && !known && t.hasSuffix(">") {
                if closing { return }
                let contents = t.dropFirst().dropLast()
                if !contents.contains(where: { $0 == ":" || $0 == "." || $0 == "/" }) {
                    add(String(contents), .italic, false)
                    return
                }
            }
        } else if !name.isEmpty && !htmlElements.contains(lower) && t.hasSuffix(">") && !t.contains(" ") {
            // ronn-format(7): `<var>` is a placeholder, shown underlined (italic here).
            if !closing { add(String(name), .italic, false) }
            return
        }
        warn("raw HTML '\(t.prefix(40))' dropped")
    }
}
