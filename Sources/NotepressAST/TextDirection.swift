import Foundation
import CBidi

/// Writing direction: the one place outputs get a text's or a language's direction from (RTF
/// paragraph direction, the HTML page's `dir`). Both answers come from ICU (CBidi), not from a
/// table of our own.
public enum TextDirection: String, Sendable, Equatable, Hashable, CaseIterable {
    /// Left to right (HTML `dir="ltr"`, RTF `\ltrpar`).
    case leftToRight = "ltr"
    /// Right to left (HTML `dir="rtl"`, RTF `\rtlpar`).
    case rightToLeft = "rtl"

    /// The paragraph direction of `text` by Unicode Standard Annex #9 rules P2–P3: that of the
    /// first character whose bidirectional type is L, R or AL (outside isolates), or `nil` when
    /// there is none (digits and punctuation only: the reader's default applies). This is what
    /// HTML's `dir="auto"` and CSS `unicode-bidi: plaintext` do. O(length of the text).
    public static func base(of text: String) -> TextDirection? {
        var t = text
        let d = t.withUTF8 { buf -> Int32 in
            guard let base = buf.baseAddress, buf.count < Int(Int32.max) else { return 0 }
            return base.withMemoryRebound(to: CChar.self, capacity: buf.count) {
                notepress_base_direction($0, Int32(buf.count))
            }
        }
        return d == 1 ? .leftToRight : d == 2 ? .rightToLeft : nil
    }

    /// The direction of the script a language is written in (BCP 47 tag: `he`, `ar-EG`, `fa`,
    /// `az-Arab` right to left; `en`, `zh`, `az` left to right), from ICU's likely-subtags data
    /// (`uloc_isRightToLeft`).
    public static func of(language tag: String) -> TextDirection {
        tag.withCString { notepress_locale_is_rtl($0) } == 1 ? .rightToLeft : .leftToRight
    }
}

extension DocumentMetadata {
    /// The front-matter field `lang` when it is a well-formed language tag (the `xsd:language`
    /// pattern, which BCP 47 tags match: letters, then `-`-separated groups of 1–8 letters and
    /// digits, `en`, `he-IL`, `zh-Hant-TW`), else `nil`. HTML writes it as `lang`, TEI as
    /// `xml:lang`.
    public var language: String? {
        guard let tag = fields["lang"]?.trimmingHorizontalWhitespace(), !tag.isEmpty else { return nil }
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (1...8).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            return nil
        }
        for p in parts.dropFirst() where !(1...8).contains(p.count) || !p.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
            return nil
        }
        return tag
    }

    /// The page direction: the front-matter field `dir` (`ltr` or `rtl`) when given, else the
    /// direction of ``language``'s script, else left to right.
    public var direction: TextDirection {
        if let d = fields["dir"].flatMap({ TextDirection(rawValue: $0.lowercased()) }) { return d }
        return language.map(TextDirection.of(language:)) ?? .leftToRight
    }
}
