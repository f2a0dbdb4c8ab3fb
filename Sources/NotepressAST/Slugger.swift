/// Heading ids as GitHub makes them, following github-slugger (github.com/Flet/github-slugger,
/// `index.js` and `script/generate-regex.mjs`), the library whose fixtures
/// (`../shared/corpus/github-slugger/fixtures.json`) the tests run.
///
/// The slug of a text (``HeadingSlugger/slug(_:)``):
/// 1. The text is lower-cased with Unicode's full, locale-independent mappings (what JavaScript's
///    `String.prototype.toLowerCase` does: `İ` → `i̇`, `ǅ` → `ǆ`, a word-final `Σ` → `ς`).
/// 2. Every scalar github-slugger's regular expression matches is removed: the general categories
///    Other_Number (No), all punctuation except Connector_Punctuation (Ps, Pe, Pi, Pf, Po, Pd),
///    all symbols (Sm, Sc, Sk, So), Control (Cc), Format (Cf), Private_Use (Co), Unassigned (Cn)
///    and all separators (Zs, Zl, Zp) — except scalars with the Alphabetic property (`Ⓐ` stays),
///    the space U+0020 and the hyphen-minus U+002D. Letters, marks, decimal and letter numbers and
///    `_` stay. github-slugger builds its expression from Unicode 13.0; a scalar assigned in a later
///    version (Unicode.Scalar.Properties.age newer than 13.0) is unassigned there, so it is removed
///    here too.
/// 3. Each space U+0020 becomes `-` (spaces are not collapsed or trimmed: `" a "` → `-a-`).
///
/// Uniqueness is per document: a slugger remembers every slug it returned. A slug seen before
/// gets the suffix `-1`, `-2`, … (the lowest count for that base not taken yet, so `echo`, `echo`,
/// `echo 1`, `echo-1`, `echo` give `echo`, `echo-1`, `echo-1-1`, `echo-1-2`, `echo-2`).
///
/// Time and memory are linear in the total length of the texts given: each suffix number tried
/// and rejected for a base is never tried again for it.
package struct HeadingSlugger: Sendable {
    /// For each slug returned so far, the last suffix number tried with it as the base (0 = none).
    private var occurrences: [String: Int] = [:]

    /// A slugger that has returned no slugs yet (one per document).
    package init() {}

    /// The unique slug of `text` in this document: ``slug(of:)`` of `text`, with `-N` appended
    /// when that slug was returned before (see the type's rules). Records the result. A text
    /// with an empty slug (emoji only: github-slugger gives `""`, which is no valid HTML id)
    /// gets ``emptySlugStandIn``, pandoc's rule, counted like any other.
    package mutating func slug(_ text: String) -> String {
        let slugged = Self.slug(of: text)
        let base = slugged.isEmpty ? Self.emptySlugStandIn : slugged
        var result = base
        while occurrences[result] != nil {
            let n = occurrences[base, default: 0] + 1
            occurrences[base] = n
            result = base + "-" + String(n)
        }
        occurrences[result] = 0
        return result
    }

    /// Records `id` as returned (an id a heading already carries), so a later ``slug(_:)`` never
    /// returns it again.
    package mutating func reserve(_ id: String) {
        if occurrences[id] == nil { occurrences[id] = 0 }
    }

    /// The id of a heading whose slug is empty (pandoc's `auto_identifiers`: "section").
    package static let emptySlugStandIn = "section"

    /// Forgets every slug returned so far (a new document).
    package mutating func reset() {
        occurrences.removeAll(keepingCapacity: true)
    }

    /// The slug of `text` without duplicate counting (steps 1–3 of the type's rules).
    package static func slug(of text: String) -> String {
        // ASCII text, byte by byte (the same rules: letters lower-cased, digits, `_` and `-`
        // kept, a space becomes `-`, everything else removed).
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(text.utf8.count)
            for b in text.utf8 {
                switch b {
                case 0x41...0x5A: bytes.append(b + 0x20)
                case 0x61...0x7A, 0x30...0x39, 0x5F, 0x2D: bytes.append(b)
                case 0x20: bytes.append(0x2D)
                default: break
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        var out = String.UnicodeScalarView()
        for u in lowercased(text) {
            if u == " " {
                out.append("-")
            } else if !isRemoved(u) {
                out.append(u)
            }
        }
        return String(out)
    }

    /// Whether github-slugger's expression removes `u` (step 2 of the type's rules).
    static func isRemoved(_ u: Unicode.Scalar) -> Bool {
        if u == "-" || u == " " { return false }
        if u.value < 0x80 {
            // ASCII: letters, digits and `_` stay; controls, punctuation and symbols go.
            let v = u.value
            return !((v >= 0x30 && v <= 0x39) || (v >= 0x61 && v <= 0x7A) || (v >= 0x41 && v <= 0x5A) || v == 0x5F)
        }
        let p = u.properties
        guard let age = p.age, age.major < 13 || (age.major == 13 && age.minor == 0) else { return true }
        switch p.generalCategory {
        case .otherNumber,
             .openPunctuation, .closePunctuation, .initialPunctuation, .finalPunctuation,
             .otherPunctuation, .dashPunctuation,
             .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol,
             .control, .format, .privateUse, .unassigned,
             .spaceSeparator, .lineSeparator, .paragraphSeparator:
            return !p.isAlphabetic
        default:
            return false
        }
    }

    /// `text` lower-cased with Unicode's full mappings (`Unicode.Scalar.Properties.lowercaseMapping`)
    /// and the one context-dependent, language-independent rule of SpecialCasing.txt that
    /// JavaScript applies: U+03A3 `Σ` becomes final `ς` (U+03C2) when a cased letter comes before
    /// it (case-ignorable scalars skipped) and none comes after it (Unicode §3.13, Final_Sigma).
    static func lowercased(_ text: String) -> String.UnicodeScalarView {
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        // Whether the last scalar that is not case-ignorable was cased.
        var afterCased = false
        var i = 0
        while i < scalars.count {
            let u = scalars[i]
            if u.value < 0x80 {
                // ASCII without property look-ups: letters are cased; `'` `.` `:` `^` `` ` `` are
                // the case-ignorable ones (DerivedCoreProperties.txt, Case_Ignorable); nothing
                // else is either.
                let v = u.value
                let letter = (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A)
                out.append(v >= 0x41 && v <= 0x5A ? Unicode.Scalar(v + 0x20)! : u)
                if !(v == 0x27 || v == 0x2E || v == 0x3A || v == 0x5E || v == 0x60) { afterCased = letter }
                i += 1
                continue
            }
            let p = u.properties
            if u.value == 0x3A3 && afterCased && !casedFollows(scalars, after: i) {
                out.append("\u{3C2}")
            } else {
                out.append(contentsOf: p.lowercaseMapping.unicodeScalars)
            }
            if !p.isCaseIgnorable { afterCased = p.isCased }
            i += 1
        }
        return out
    }

    /// Whether a cased scalar follows `scalars[i]`, case-ignorable scalars skipped. The scan stops
    /// at the first scalar that is not case-ignorable, so all scans of one text together are linear
    /// (`Σ` itself is not case-ignorable).
    private static func casedFollows(_ scalars: [Unicode.Scalar], after i: Int) -> Bool {
        var j = i + 1
        while j < scalars.count {
            let p = scalars[j].properties
            if !p.isCaseIgnorable { return p.isCased }
            j += 1
        }
        return false
    }
}

extension HeadingSlugger {
    /// A heading's id: the one its attribute list gives (`## Title { #id }`, MkDocs `attr_list`:
    /// kept as written, so links to `#id` find it, and reserved so no later slug repeats it),
    /// else the unique slug of `content`'s ``Inlines/headingIDText``.
    package mutating func id(for content: Inlines, explicit: String?) -> String {
        if let explicit, !explicit.isEmpty {
            reserve(explicit)
            return explicit
        }
        return slug(content.headingIDText)
    }
}
