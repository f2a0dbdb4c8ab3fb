/// ronn's placeholders (ronn-format(7) "`<var>`", ronn's angle-quote filter): in ronn input,
/// `<contents>` without `:`, `.` or `/` whose first word is not one of ``htmlElements`` and is
/// not closed anywhere in the document is `<var>contents</var>`, and its end tag is dropped.
/// The one rule for every format: the loader turns them into emphasis for HTML, RTF, ANSI,
/// TEI and JSON, the man writer into italic.
package enum RonnPlaceholder {
    /// ronn's list of HTML elements ("all HTML 4 elements and some that are in common use",
    /// `Ronn::Utils::HTML`): a `<word>` whose name is not in it is a `<var>` placeholder.
    package static let htmlElements: Set<String> = [
        "a", "abbr", "acronym", "address", "applet", "area", "b", "base", "basefont", "bdo", "big", "blockquote",
        "body", "br", "button", "caption", "center", "cite", "code", "col", "colgroup", "dd", "del", "dfn", "dir",
        "div", "dl", "dt", "em", "fieldset", "font", "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6",
        "head", "hr", "html", "i", "iframe", "img", "input", "ins", "isindex", "kbd", "label", "legend", "li", "link",
        "map", "menu", "meta", "noframes", "noscript", "object", "ol", "optgroup", "option", "p", "param", "pre", "q",
        "s", "samp", "script", "select", "small", "span", "strike", "strong", "style", "sub", "sup", "table", "tbody",
        "td", "textarea", "tfoot", "th", "thead", "title", "tr", "tt", "u", "ul", "var",
    ]

    /// What a raw inline HTML tag of ronn input is.
    package enum Reading: Equatable {
        /// A placeholder: `<options>` is `options`.
        case placeholder(String)
        /// A placeholder's end tag (`</options>`): nothing.
        case endTag
        /// Not a placeholder: HTML.
        case html
    }

    /// How ronn reads the raw inline HTML `html`, given the element names the document closes
    /// (`closed`, lower case: ``closedTagNames(in:)``).
    package static func reading(_ html: String, closed: Set<String>) -> Reading {
        let t = html.trimmingHorizontalWhitespace()
        let closing = t.hasPrefix("</")
        let name = t.dropFirst(closing ? 2 : 1).prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }
        let lower = name.lowercased()
        guard !name.isEmpty, t.hasSuffix(">"), !htmlElements.contains(lower), !closed.contains(lower) else { return .html }
        if closing { return .endTag }
        let contents = t.dropFirst().dropLast()
        return contents.contains { $0 == ":" || $0 == "." || $0 == "/" } ? .html : .placeholder(String(contents))
    }

    /// The element names that `text` closes somewhere (`</name`), lower case: ronn keeps `<name>`
    /// as HTML when the document has its end tag. One pass over the text.
    package static func closedTagNames(in text: String) -> Set<String> {
        var names: Set<String> = []
        var rest = Substring(text)
        while let r = rest.range(of: "</") {
            let name = rest[r.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
            if !name.isEmpty { names.insert(name.lowercased()) }
            rest = rest[r.upperBound...]
        }
        return names
    }

    /// `c` with each placeholder run as emphasised text and each placeholder end tag left out;
    /// `nil` when `c` has none. Rebuilt through ``InlinesBuilder`` (span order kept): linear in
    /// the runs times their nesting depth, and only for content that has a placeholder.
    package static func rewrite(_ c: Inlines, closed: Set<String>) -> Inlines? {
        guard c.runs.contains(where: {
            if case .rawHTML(let h) = $0.content { return reading(h, closed: closed) != .html }
            return false
        }) else { return nil }
        var b = InlinesBuilder()
        var open: [Int] = []  // original span indices now open, outermost first
        for (i, run) in c.runs.enumerated() {
            let chain = c.spanChain(ofRun: i)
            var common = 0
            while common < open.count, common < chain.count, open[common] == chain[common] { common += 1 }
            while open.count > common { b.pop(); open.removeLast() }
            for s in chain[common...] { b.push(c.spans[s].kind); open.append(s) }
            if case .rawHTML(let h) = run.content {
                switch reading(h, closed: closed) {
                case .placeholder(let word): b.append(.text(word), in: .emphasis); continue
                case .endTag: continue
                case .html: break
                }
            }
            b.append(run.content)
        }
        while !open.isEmpty { b.pop(); open.removeLast() }
        return b.take()
    }
}
