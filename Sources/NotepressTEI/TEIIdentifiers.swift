import CLibXML2
import NotepressAST

/// `xml:id` values for headings: TEI's `xml:id` is an XML NCName (Namespaces in XML 1.0), which
/// a GitHub heading id (``HeadingIDAssigner``) is not always: it may start with a digit or `-`,
/// be empty, or hold letters that libxml2's name rules (XML 1.0 fourth edition) do not count.
///
/// An id that libxml2 accepts as an NCName (`xmlValidateNCName`) stays as it is; any other
/// becomes `h.` followed by the id with each non-ASCII scalar written `.HEX.` (upper-case hex
/// code point): ASCII letters, digits, `_`, `-` and `.` only, so always an NCName. GitHub ids
/// never contain `.` (the slugger removes punctuation), so no id of the first kind starts with
/// `h.` or holds `.HEX.`: the mapping is one to one, and a link fragment `#1-intro` maps to the
/// TEI target `#h.1-intro` (``Notepress``'s link rewriting uses this function too).
package enum TEIIdentifiers {
    /// The `xml:id` of the heading whose id is `id` (see the type's rules).
    package static func headingID(_ id: String) -> String {
        if !id.isEmpty, isNCName(id) { return id }
        var out = "h."
        for u in id.unicodeScalars {
            if u.isASCII {
                out.unicodeScalars.append(u)
            } else {
                out += "." + String(u.value, radix: 16, uppercase: true) + "."
            }
        }
        return out
    }

    /// The `xml:id` of any block id a link fragment may name: a heading's id
    /// (``headingID(_:)``) or a block anchor `^id` (Foam, Obsidian), which becomes `b.id` (`^` is
    /// no name character; no heading id holds `.`, so `b.` names only anchors). The one rule
    /// single-file and folder runs use for both the `xml:id` and every `#fragment` naming it.
    package static func anchorID(_ id: String) -> String {
        // An anchor's id is ASCII letters, digits, `-` and `_` (``BlockAnchors``): `b.` + it is an NCName.
        if id.hasPrefix("^") { return "b." + id.dropFirst() }
        return headingID(id)
    }

    /// Whether libxml2 accepts `s` as an NCName.
    static func isNCName(_ s: String) -> Bool {
        s.withCString { p in p.withMemoryRebound(to: xmlChar.self, capacity: 1) { xmlValidateNCName($0, 0) == 0 } }
    }
}
