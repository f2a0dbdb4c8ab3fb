import CSearchText
import Foundation

/// The words of a site's search, the one tokenizer and normalisation of the index (the site
/// script splits and normalises a query by the same rules, `Templates/html/site.js`, with the
/// folding table ``foldTable`` written into the index's `meta.js`):
/// - words are ICU's word break iterator's (UAX #29, with ICU's dictionaries for Thai, Lao, Khmer,
///   Myanmar, Chinese and Japanese; the page uses `Intl.Segmenter`, ICU in the browser): segments
///   of letters, numbers, kana or ideographs;
/// - a term is a word in its search form (``normalized(_:)``): NFKD, full case folding (`ß` →
///   `ss`), marks removed (`café` → `cafe`), NFKC (Korean as syllables, never jamo);
/// - a word of Han or kana is also indexed character by character, so one character finds it;
/// - terms longer than ``maxLength`` characters are dropped.
package enum SearchTerms {
    /// Longest term kept, in Unicode scalars.
    package static let maxLength = 40

    /// Whether `s` is a character of a script written without spaces between words.
    package static func isCJK(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x3040...0x30FF, 0x31F0...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF,
             0xFF66...0xFF9F, 0xAC00...0xD7AF, 0x1100...0x11FF, 0x3130...0x318F, 0x20000...0x3FFFF:
            return true
        default: return false
        }
    }

    /// Whether `s` is Han, Hiragana or Katakana (words of these are also indexed by character).
    static func isIdeographic(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x3040...0x30FF, 0x31F0...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF,
             0xFF66...0xFF9F, 0x20000...0x3FFFF:
            return true
        default: return false
        }
    }

    /// Calls `body` with ICU's answer for `units`, growing the buffer when ICU asks for more.
    static func icu<T: BinaryInteger>(_ units: [UInt16], initial: Int, _ body: (UnsafePointer<UInt16>, Int32, UnsafeMutablePointer<T>, Int32) -> Int32) -> [T]? {
        var room = max(initial, 16)
        while true {
            var out = [T](repeating: 0, count: room)
            let n = units.withUnsafeBufferPointer { src in
                out.withUnsafeMutableBufferPointer { dst in
                    body(src.baseAddress ?? UnsafePointer(bitPattern: 1)!, Int32(src.count), dst.baseAddress!, Int32(room))
                }
            }
            if n < 0 { return nil }
            if Int(n) <= room { return Array(out.prefix(Int(n))) }
            room = Int(n)
        }
    }

    /// The search form of `text` (the index's and the query's): NFKD, full case folding, marks
    /// removed, NFKC (`Straße` → `strasse`, `Diátaxis` → `diataxis`).
    package static func normalized(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        guard let u = icu(Array(text.utf16), initial: text.utf16.count * 2 + 8, { notepress_search_fold($0, $1, $2, $3) }) else {
            return text.lowercased()
        }
        return String(decoding: u, as: UTF16.self)
    }

    /// The folding table of the page script: every character that JavaScript's `toLowerCase`
    /// leaves alone (its root lower-casing leaves it unchanged) but full case folding changes
    /// (`ß` → `ss`, `ς` → `σ`, Cherokee small letters …), with its folded form, by code point.
    package static let foldTable: [(String, String)] = {
        var out: [(String, String)] = []
        for v in UInt32(0x80)...0x1FFFF { // no cased letter lies beyond
            guard let s = Unicode.Scalar(v), s.properties.changesWhenCaseFolded else { continue }
            let u = Array(String(s).utf16)
            guard let lower = icu(u, initial: 8, { notepress_search_lowercase($0, $1, $2, $3) }), lower == u,
                  let folded = icu(u, initial: 8, { notepress_search_casefold($0, $1, $2, $3) }), folded != u else { continue }
            out.append((String(s), String(decoding: folded, as: UTF16.self)))
        }
        return out
    }()

    /// The terms of `text`, in order (repeats kept).
    package static func terms(_ text: String, into out: inout [String]) {
        let units = Array(text.utf16)
        guard !units.isEmpty, let bounds = icu(units, initial: units.count / 2 + 8, { notepress_search_words($0, $1, $2, $3) }) else { return }
        var k = 0
        while k + 2 < bounds.count {
            let word = String(decoding: units[Int(bounds[k])..<Int(bounds[k + 1])], as: UTF16.self)
            k += 3
            let form = normalized(word)
            for t in form.split(whereSeparator: { $0 == " " }) where t.unicodeScalars.count <= maxLength {
                let scalars = t.unicodeScalars
                if scalars.contains(where: isIdeographic) {
                    if scalars.count > 1 { out.append(String(t)) }
                    for s in scalars { out.append(String(Character(s))) }
                } else {
                    out.append(String(t))
                }
            }
        }
    }

    /// The terms of `text`.
    package static func terms(_ text: String) -> [String] {
        var out: [String] = []
        terms(text, into: &out)
        return out
    }

    /// The shard a term is indexed in at split `depth`: its first two scalars (its first for a
    /// CJK term), so that a query term of two or more characters needs one shard, whatever its
    /// ending; at depth 0 every term is in the one shard `""` (a small site).
    package static func shardKey(_ term: String, depth: Int = 2) -> String {
        guard depth > 0 else { return "" }
        let scalars = Array(term.unicodeScalars)
        guard let first = scalars.first else { return "" }
        if isCJK(first) || scalars.count == 1 || depth == 1 { return String(Character(first)) }
        var v = String.UnicodeScalarView()
        v.append(first); v.append(scalars[1])
        return String(v)
    }

    /// The shard's file name stem: its key's UTF-8 bytes in hexadecimal (`ba` → `6261`), `all`
    /// for the one shard of a small site.
    package static func shardName(_ key: String) -> String {
        key.isEmpty ? "all" : key.utf8.map { String(format: "%02x", $0) }.joined()
    }
}

/// One section of a page as the search indexes it (``SiteRecord/search``).
package struct SiteSearchSection: Sendable, Equatable {
    /// The heading's id (the fragment results link to); empty for the part before the first heading.
    package var id: String
    /// The heading's text; empty for the top part.
    package var heading: String
    /// The section's body terms (``SearchTerms``), joined by single spaces, at most
    /// ``SiteSearchSection/maxTerms``.
    package var words: String
    /// The start of the section's body text as written (spaces collapsed), at most
    /// ``SiteSearchSection/textLength`` characters: the excerpts of results and the check of
    /// quoted phrases (loaded only for the results shown).
    package var text: String

    /// At most this many body terms are kept per section.
    package static let maxTerms = 5000
    /// At most this many characters of a section's text are kept.
    package static let textLength = 400

    /// A section (see the properties).
    package init(id: String, heading: String, words: String, text: String = "") {
        self.id = id
        self.heading = heading
        self.words = words
        self.text = text
    }
}
