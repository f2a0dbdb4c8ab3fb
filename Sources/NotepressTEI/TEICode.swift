import NotepressAST

/// Highlighted code blocks in TEI. TEI's `<code>` holds text only (its content model is
/// `textNode`), so a highlighted block is the `<ab type="codeblock">` itself with the language
/// in `@subtype` and each run of a role other than plain in `<seg type="ROLE">` (``CodeRole``'s
/// names): valid against the shipped schema and TEI's own (`ab` and `seg` take `macro.paraContent`).
enum TEICode {
    /// `<ab type="codeblock" subtype="LANG">` of `literal` in `highlight`'s runs (the info
    /// string's first word is the language, as `<code lang>` has it in plain blocks).
    static func highlighted(info: String, literal: String, _ highlight: CodeHighlight) -> XMLTreeElement {
        var attrs = [("type", "codeblock")]
        if let lang = info.split(whereSeparator: { $0 == " " || $0 == "\t" }).first {
            attrs.append(("subtype", String(lang)))
        }
        var ab = XMLTreeElement("ab", attrs)
        let text = literal.hasSuffix("\n") ? String(literal.dropLast()) : literal
        for (role, piece) in highlight.pieces(of: text) {
            if role == .plain {
                ab.append(text: String(piece))
            } else {
                var seg = XMLTreeElement("seg", [("type", role.kebabName)])
                seg.append(text: String(piece))
                ab.append(seg)
            }
        }
        return ab
    }
}
