/// The parts of one word (at least one), in order: the first kept inline and the others (a
/// word in more than one font, `**a**b`) in an array, so that the usual one-part word costs no
/// allocation (an array per word was 5 % of a man run on the corpus).
struct Word: RandomAccessCollection, ExpressibleByArrayLiteral {
    /// The first part.
    var head: WordPart
    /// The parts after the first; empty (no storage) for most words.
    var tail: [WordPart] = []

    /// A word of one part.
    init(_ head: WordPart) { self.head = head }

    /// A word of `parts`, which must not be empty.
    init(_ parts: [WordPart]) {
        precondition(!parts.isEmpty, "a word has at least one part")
        head = parts[0]
        tail = Array(parts.dropFirst())
    }

    /// A word of the listed parts (at least one).
    init(arrayLiteral parts: WordPart...) { self.init(parts) }

    var startIndex: Int { 0 }
    var endIndex: Int { 1 + tail.count }

    subscript(i: Int) -> WordPart { i == 0 ? head : tail[i - 1] }

    /// Adds a part at the end.
    mutating func append(_ part: WordPart) { tail.append(part) }
}
