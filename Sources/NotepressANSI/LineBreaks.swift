import CLineBreak

/// Where lines may end in a paragraph's text: Unicode Standard Annex #14 (the Unicode Line
/// Breaking Algorithm) as ICU's line break iterator implements it for the root locale (CLineBreak,
/// libicuuc). Among its rules: no line starts with closing punctuation (`，` `。` `)` `」`), `!`,
/// `?`, `:` or `;` — not even after a space, so `true ?` stays together — and none ends with an
/// opening bracket (`(` `「`); CJK ideographs and kana may be broken between (not before small
/// kana such as `ょ`, as the default, strict rules say); a break may follow a hyphen (`well-|known`)
/// or a slash (`example.com/|path`); a break after spaces; a mandatory break after a line feed.
enum LineBreaks {
    /// The break opportunities of `utf8` (valid UTF-8): byte offsets, ascending, each > 0, ending
    /// with `utf8.count` (see `notepress_line_breaks`). `nil` when ICU fails; the caller then
    /// breaks after spaces and line feeds only.
    static func opportunities(_ utf8: [UInt8]) -> [Int32]? {
        let n = utf8.count
        guard n > 0 else { return [] }
        guard n < Int(Int32.max) else { return nil }
        var out = [Int32](repeating: 0, count: n)
        let count: Int32 = utf8.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                src.withMemoryRebound(to: CChar.self) { chars in
                    notepress_line_breaks(chars.baseAddress, Int32(n), dst.baseAddress, Int32(n))
                }
            }
        }
        guard count >= 0 else { return nil }
        out.removeLast(n - Int(count))
        return out
    }
}
