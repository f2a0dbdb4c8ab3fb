import CLineBreak

/// Where lines may end in a paragraph's text: Unicode Standard Annex #14 (the Unicode Line
/// Breaking Algorithm) as ICU's line break iterator implements it for the root locale (CLineBreak,
/// libicuuc). Among its rules: no line starts with closing punctuation (`，` `。` `)` `」`), `!`,
/// `?`, `:` or `;` — not even after a space, so `true ?` stays together — and none ends with an
/// opening bracket (`(` `「`); CJK ideographs and kana may be broken between (not before small
/// kana such as `ょ`, as the default, strict rules say); a break may follow a hyphen (`well-|known`)
/// or a slash (`example.com/|path`); a break after spaces; a mandatory break after a line feed.
enum LineBreaks {
    /// The break opportunities of `utf8` (valid UTF-8) in order: byte offsets, each > 0, the
    /// last `utf8.count` (see CLineBreak.h); one pass of ICU's iterator over the text, its
    /// results fetched a batch at a time straight into a small stack buffer and copied into the
    /// list a batch at a time, so memory stays proportional to the number of opportunities.
    /// `nil` when ICU fails before giving any (the caller then breaks after spaces and line
    /// feeds only); `[]` for an empty text.
    static func offsets(_ utf8: [UInt8]) -> [Int32]? {
        let n = utf8.count
        guard n > 0 else { return [] }
        guard n < Int(Int32.max) else { return nil }
        return utf8.withUnsafeBufferPointer { src -> [Int32]? in
            let started = src.withMemoryRebound(to: CChar.self) { notepress_line_breaks_begin($0.baseAddress, Int32(n)) }
            guard started == 0 else { return nil }
            defer { notepress_line_breaks_end() }
            // A text of n bytes has at most n break opportunities: a short paragraph needs no
            // 1024-entry batch (the buffer is on the stack and not cleared: ICU fills it).
            let capacity = min(1024, n)
            return withUnsafeTemporaryAllocation(of: Int32.self, capacity: capacity) { batch -> [Int32] in
                var list: [Int32] = []
                // Prose has a break opportunity every few bytes (after each word and its space).
                list.reserveCapacity(min(n, n / 4 + 8))
                while true {
                    let count = Int(notepress_line_breaks_next(batch.baseAddress, Int32(capacity)))
                    if count == 0 { break }
                    list.append(contentsOf: UnsafeBufferPointer(rebasing: batch[0..<count]))
                }
                // ICU always ends with the end of the text; should it stop early, end there.
                if (list.last ?? 0) < Int32(n) { list.append(Int32(n)) }
                return list
            }
        }
    }
}

/// The break opportunities of one paragraph text, as ``LineBreaks`` gives them: kept so that a
/// text laid out at several widths (a table cell) asks ICU once.
enum Breaks {
    /// Byte offsets in order, each > 0, the last the text's length.
    case offsets([Int32])
    /// ICU failed: break after spaces and line feeds only.
    case failed
}
