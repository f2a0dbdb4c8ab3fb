import NotepressContainer

/// Math in EPUB: KaTeX (what HTML pages draw math with) is a script, and most reading systems run
/// no scripts, so a formula is written as MathML (EPUB 3.3 §6.1.4.2) when its TeX uses only what
/// ``EPUBMathML`` knows (letters, numbers, operators, `^`, `_`, `\frac`, `\sqrt`, Greek letters and
/// common symbols, groups), else as its TeX source in `<code class="math …">`, which the
/// stylesheet shows in the code face.
enum EPUBMath {
    /// Writes `tex` as a MathML `math` element and returns `true`, or writes nothing and returns
    /// `false` when the TeX holds something MathML is not made for here.
    static func write(_ tex: String, display: Bool, to w: XMLStreamWriter) -> Bool {
        guard let tree = EPUBMathML.parse(tex) else { return false }
        w.start("math", attributeList: [("xmlns", "http://www.w3.org/1998/Math/MathML")] + (display ? [("display", "block")] : []))
        w.start("semantics")
        EPUBMathML.write(tree, to: w)
        w.start("annotation", ["encoding": "application/x-tex"])
        w.text(tex)
        w.end()
        w.end()
        w.end()
        return true
    }
}
