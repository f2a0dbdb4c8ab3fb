/// Superscript and subscript text (raw HTML `<sup>`, `<sub>`: ``InlineSpan/Kind/superscript``)
/// in formats that cannot raise or lower text (terminal text, man pages), so that `2<sup>7</sup>`
/// never reads "27". The one rule, for each run of such text: when every character of the run
/// has a Unicode superscript (subscript) form, the run is written in those characters (`2⁷`,
/// `2⁽ⁿ⁺¹⁾`, `H₂O`, `x₍₁₀₎`); otherwise it is written after `^` (`_`), in parentheses when it is
/// longer than one character (`2^k`, `e^(iπ)`, `a_(max)`). Superscript forms: digits,
/// `+ - = ( )`, `n` and `i`; subscript forms: digits and `+ - = ( )` (the letters Unicode has
/// are too few and too unevenly drawn by terminal fonts to rely on).
package enum ScriptText {
    /// The characters that have a superscript form, and that form.
    static let superscripts: [Character: Character] = [
        "0": "⁰", "1": "¹", "2": "²", "3": "³", "4": "⁴", "5": "⁵", "6": "⁶", "7": "⁷", "8": "⁸", "9": "⁹",
        "+": "⁺", "-": "⁻", "=": "⁼", "(": "⁽", ")": "⁾", "n": "ⁿ", "i": "ⁱ",
    ]
    /// The characters that have a subscript form, and that form.
    static let subscripts: [Character: Character] = [
        "0": "₀", "1": "₁", "2": "₂", "3": "₃", "4": "₄", "5": "₅", "6": "₆", "7": "₇", "8": "₈", "9": "₉",
        "+": "₊", "-": "₋", "=": "₌", "(": "₍", ")": "₎",
    ]

    /// `text` (one run) as plain text shows it raised (`superscript`) or lowered (see the type's rule).
    package static func text(_ text: String, superscript: Bool) -> String {
        let forms = superscript ? superscripts : subscripts
        if !text.isEmpty, text.allSatisfy({ forms[$0] != nil }) {
            return String(text.map { forms[$0]! })
        }
        let mark = superscript ? "^" : "_"
        return text.count == 1 ? mark + text : mark + "(" + text + ")"
    }

    /// `text` as ``text(_:superscript:)`` writes it when `attributes` raise or lower it, else as it is.
    package static func text(_ text: String, _ attributes: InlineAttributes) -> String {
        if attributes.superscript { return Self.text(text, superscript: true) }
        if attributes.subscript { return Self.text(text, superscript: false) }
        return text
    }
}
