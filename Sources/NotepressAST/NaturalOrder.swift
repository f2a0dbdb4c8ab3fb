import CCollation

/// The one rule for the order in which notes are listed (the sidebar and previous/next, the notes
/// list and tag pages, ties of search results): natural order, in which numbers compare as
/// numbers ("Entry 9" → "Entry 90" → "Entry 8999") and case is ignored ("apple pie" before
/// "Zebra"), by ICU's collation of the root locale (CLDR's root order, never the machine's
/// locale, so output bytes are the same everywhere) with numeric ordering, at secondary strength
/// (accents count, case does not). See `Sources/CCollation`.
///
/// Make a ``Key`` once per name and compare keys (a comparison of two keys copies nothing).
package enum NaturalOrder {
    /// A name's sort key: keys compare (``<``) in the names' natural order; equal keys, equal names.
    package struct Key: Comparable, Hashable, Sendable {
        /// ICU's sort key bytes.
        package let bytes: [UInt8]

        package static func < (a: Key, b: Key) -> Bool { a.bytes.lexicographicallyPrecedes(b.bytes) }
    }

    /// The sort key of `text`.
    package static func key(_ text: String) -> Key {
        var text = text
        return text.withUTF8 { u in
            let base = u.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
            var capacity = max(32, u.count * 2 + 8)
            while true {
                var out = [UInt8](repeating: 0, count: capacity)
                let n = Int(out.withUnsafeMutableBufferPointer {
                    notepress_natural_sort_key(base, Int32(u.count), $0.baseAddress, Int32(capacity))
                })
                if n < capacity { out.removeSubrange(n...); return Key(bytes: out) }
                capacity = n + 1
            }
        }
    }
}
