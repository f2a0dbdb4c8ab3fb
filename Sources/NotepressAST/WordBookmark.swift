/// The bookmark names word processors accept (RTF `\bkmkstart`, DOCX `w:bookmarkStart`): one
/// rule for both formats, so that a link to `#id` lands on the same name in either.
package enum WordBookmark {
    /// The bookmark name of a block id (a heading's GitHub id, a block anchor `^id`), one to one
    /// within Word's rule for bookmark names (a letter first, then ASCII letters, digits and `_`,
    /// at most 40 characters). An id of lower-case ASCII letters, digits and `-` only is `id_`
    /// then the id with `-` as `_` (`getting-started` → `id_getting_started`); a block anchor
    /// `^x` of those is `bk_` then `x` so written. Any other id, or one too long for that, is
    /// `ix_`, its first 20 characters so written (other characters as `_`), `_` and the 16
    /// hex digits of its FNV-1a 64-bit hash (UTF-8): `a_b` and `a-b` never share a bookmark, so
    /// a reader never renames one and a link never lands on the other. Links to `#id` use the
    /// same name. RTF and DOCX bookmarks share it.
    package static func name(forID id: String) -> String {
        let anchor = id.hasPrefix("^")
        let body = anchor ? id.utf8.dropFirst() : id.utf8[...]
        let plain = body.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x2D }
        if plain && !body.isEmpty && body.count <= 37 {
            return (anchor ? "bk_" : "id_") + String(decoding: body.map { $0 == 0x2D ? UInt8(ascii: "_") : $0 }, as: UTF8.self)
        }
        // Every character written is ASCII: the name's length in bytes is its length.
        var out: [UInt8] = Array("ix_".utf8)
        for u in id.unicodeScalars {
            if out.count == 23 { break }
            let v = u.value
            let keep = (0x30...0x39).contains(v) || (0x41...0x5A).contains(v) || (0x61...0x7A).contains(v)
            out.append(keep ? UInt8(v) : UInt8(ascii: "_"))
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in id.utf8 { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return String(decoding: out, as: UTF8.self) + "_" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
