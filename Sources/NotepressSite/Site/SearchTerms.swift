import Foundation

/// The words of a site's search, the one tokenizer of the index (the site script splits a query
/// by the same rule, `Templates/html/site.js`):
/// - a term is a run of letters, marks and digits (Unicode `Alphabetic`, `M*`, `N*`), lower-cased;
/// - in a run, characters of the CJK scripts (Han, Hiragana, Katakana, Hangul), which are written
///   without spaces, are cut into overlapping pairs (bigrams: `日本語` → `日本`, `本語`; a lone
///   character is a term of its own), so any two adjacent characters of a CJK text find it;
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

    static func isWord(_ s: Unicode.Scalar) -> Bool {
        let p = s.properties
        if p.isAlphabetic { return true }
        switch p.generalCategory {
        case .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    /// The terms of `text`, in order (repeats kept).
    package static func terms(_ text: String, into out: inout [String]) {
        var word = String.UnicodeScalarView()
        var cjk: [Unicode.Scalar] = []
        func flushWord() {
            if !word.isEmpty, word.count <= maxLength { out.append(String(word).lowercased()) }
            word = String.UnicodeScalarView()
        }
        func flushCJK() {
            if cjk.count == 1 {
                out.append(String(Character(cjk[0])))
            } else if cjk.count > 1 {
                for i in 0..<(cjk.count - 1) {
                    var v = String.UnicodeScalarView()
                    v.append(cjk[i]); v.append(cjk[i + 1])
                    out.append(String(v))
                }
            }
            cjk.removeAll(keepingCapacity: true)
        }
        for s in text.unicodeScalars {
            if isCJK(s) {
                flushWord()
                cjk.append(s)
            } else if isWord(s) {
                flushCJK()
                word.append(s)
            } else {
                flushWord()
                flushCJK()
            }
        }
        flushWord()
        flushCJK()
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

    /// At most this many body terms are kept per section.
    package static let maxTerms = 5000

    /// A section (see the properties).
    package init(id: String, heading: String, words: String) {
        self.id = id
        self.heading = heading
        self.words = words
    }
}
