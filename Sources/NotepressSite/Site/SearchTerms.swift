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
/// - words are joined as people type them (``wordSpans(_:_:)``: `.net`, `c++`, `c#`,
///   `jo@example.com`), apostrophes left out of a word's term (`O’Reilly` → `oreilly`), and a
///   word's parts indexed too (``parts(_:)``: `reilly`, `example`, `com`, `net`);
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

    /// The terms of `text`, in order (repeats kept): each word's term (``wordTerm(_:)``), then,
    /// for a Han or kana word, its characters, then its parts (``parts(_:)``).
    package static func terms(_ text: String, into out: inout [String]) {
        let units = Array(text.utf16)
        guard !units.isEmpty, let bounds = icu(units, initial: units.count / 2 + 8, { notepress_search_words($0, $1, $2, $3) }) else { return }
        var spans: [(Int, Int)] = []
        var k = 0
        while k + 2 < bounds.count { spans.append((Int(bounds[k]), Int(bounds[k + 1]))); k += 3 }
        for (lo, hi) in wordSpans(units, spans) {
            let form = normalized(String(decoding: units[lo..<hi], as: UTF16.self))
            for piece in form.split(whereSeparator: { $0 == " " }) {
                let t = wordTerm(String(piece))
                guard !t.isEmpty, t.unicodeScalars.count <= maxLength else { continue }
                let scalars = t.unicodeScalars
                if scalars.contains(where: isIdeographic) {
                    if scalars.count > 1 { out.append(t) }
                    for s in scalars { out.append(String(Character(s))) }
                } else {
                    out.append(t)
                }
                out += parts(String(piece)).filter { $0 != t }
            }
        }
    }

    /// The words of a text whose ICU word segments are `spans` (UTF-16 ranges), as people type
    /// them (the page's `words` in site.js does the same). Word break engines differ on dots,
    /// `@` and apostrophes inside words (ICU on Linux keeps `example.com` and `jo@example.com`
    /// whole, Chromium's splits both), so segments are first cut at those (``isConnector(_:)``)
    /// and then joined by these rules, the same everywhere:
    /// - pieces with one connector between them are one word (`O’Reilly`, `example.com`, `e.g`,
    ///   `3.14`, `jo@example.com`);
    /// - a `.` before a word at the text's start or after a space belongs to it (`.net`);
    /// - two `+` right after a word belong to it (`c++`, and `c++` and `17` in `C++17`, so that
    ///   `c++` finds the versions too); one `+` or one `#` right after a word and not followed by
    ///   a word (`c#`, `f#`, not `a+b`); ICU drops them.
    static func wordSpans(_ u: [UInt16], _ spans: [(Int, Int)]) -> [(Int, Int)] {
        var pieces: [(Int, Int)] = []
        for (lo, hi) in spans {
            var s = lo
            for i in lo..<hi where isConnector(u[i]) {
                if i > s { pieces.append((s, i)) }
                s = i + 1
            }
            if hi > s { pieces.append((s, hi)) }
        }
        var out: [(Int, Int)] = []
        var i = 0
        while i < pieces.count {
            var (lo, hi) = pieces[i]
            i += 1
            while i < pieces.count, hi < u.count, isConnector(u[hi]), pieces[i].0 == hi + 1 { hi = pieces[i].1; i += 1 }
            if lo >= 1, u[lo - 1] == 0x2E, lo == 1 || isSpace(u[lo - 2]) { lo -= 1 }
            var e = hi
            if e < u.count, u[e] == 0x23 { e += 1 } else { while e < u.count, e - hi < 2, u[e] == 0x2B { e += 1 } }
            if e > hi, e - hi == 2 && u[hi] == 0x2B || i >= pieces.count || pieces[i].0 != e { hi = e }
            out.append((lo, hi))
        }
        return out
    }

    /// Whether `u` joins the pieces of a word: `.`, `@` or an apostrophe (``isApostrophe(_:)``).
    static func isConnector(_ u: UInt16) -> Bool {
        u == 0x2E || u == 0x40 || u == 0x27 || u == 0x2018 || u == 0x2019 || u == 0x2BC || u == 0xFF07
    }

    /// Whether `u` is a space (ASCII white space or a no-break space).
    static func isSpace(_ u: UInt16) -> Bool { u == 0x20 || u == 0x0A || u == 0x09 || u == 0x0D || u == 0x0C || u == 0xA0 }

    /// Whether `s` is an apostrophe (straight, typographic, modifier letter, fullwidth), which a
    /// word's term leaves out.
    static func isApostrophe(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x27, 0x2018, 0x2019, 0x2BC, 0xFF07: return true
        default: return false
        }
    }

    /// Whether `s` divides a word into its parts (``parts(_:)``): an apostrophe, `.` or `@`.
    static func dividesParts(_ s: Unicode.Scalar) -> Bool { s == "." || s == "@" || isApostrophe(s) }

    /// A word's term: its search form without apostrophes (`o’reilly` and `o'reilly` → `oreilly`,
    /// as Elasticsearch's word delimiter and pagefind join them; `don't` → `dont`).
    static func wordTerm(_ form: String) -> String {
        guard form.unicodeScalars.contains(where: isApostrophe) else { return form }
        var v = String.UnicodeScalarView()
        for s in form.unicodeScalars where !isApostrophe(s) { v.append(s) }
        return String(v)
    }

    /// A word's parts, also indexed: its pieces between apostrophes, dots and `@` of two or more
    /// characters (`o'reilly` → `reilly`, `jo@example.com` → `jo`, `example`, `com`, `.net` →
    /// `net`), so that a part typed alone finds the word (one letter would find too much).
    static func parts(_ form: String) -> [String] {
        guard form.unicodeScalars.contains(where: dividesParts) else { return [] }
        var out: [String] = []
        for p in form.unicodeScalars.split(whereSeparator: dividesParts) where p.count >= 2 {
            let s = String(String.UnicodeScalarView(p))
            if s.unicodeScalars.count <= maxLength, !out.contains(s) { out.append(s) }
        }
        return out
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
