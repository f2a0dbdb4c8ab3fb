/// Wiki link syntax as Foam and Obsidian write it, shared by the note-markup and Markdown readers.
///
/// - `[[Note]]`, `[[folder/Note]]`, `[[folder]]`, `[[Note#Heading]]`, `[[Note#^block-id]]`,
///   `[[#Heading]]` (this note), each optionally with a label after the first `|`:
///   `[[Note|label]]`.
/// - `![[image.png]]`, `![[image.png|300]]`: an embed. An embed of an image (``imageExtensions``)
///   is an image; a label that is a size (`300`, `300x200`, `50%`, `300|right`) is not alt text.
///   An embed of a note (Foam transcludes it) is written as a link to the note.
/// - Between `[[` and `]]` no `[`, `]` or line break; the target (before `|`) may be empty only
///   when a `#fragment` follows.
///
/// The readers never look for wiki links inside code or inside another link.
///
/// TiddlyWiki writes the label first, `[[label|target]]` (``Order/labelFirst``): the readers use
/// that order in `.tid` files, Obsidian's and Foam's (``Order/targetFirst``) everywhere else.
package enum WikiLinkSyntax {
    /// Which side of the first `|` is the target.
    package enum Order: Sendable, Equatable {
        /// `[[target|label]]` (Obsidian, Foam).
        case targetFirst
        /// `[[label|target]]` (TiddlyWiki).
        case labelFirst
    }

    /// One wiki link found in text: byte offsets into the text scanned.
    package struct Match: Sendable, Equatable {
        /// From the `[[` (or the `!` of an embed) to just after `]]`.
        package var range: Range<Int>
        /// Between `[[` and `]]`.
        package var inner: Range<Int>
        /// Written `![[…]]`.
        package var isEmbed: Bool
    }

    /// The parts of a wiki link's inner text (`Note#Heading|label`).
    package struct Parts: Sendable, Equatable {
        /// The target with its fragment, as written: `Note#Heading`, `#Heading`, `folder/Note`.
        package var target: String
        /// The text shown: the label, else the target as written.
        package var text: String
        /// Whether the link is an embed of an image file (``imageExtensions``).
        package var isImage: Bool
        /// Whether the target is a URL (``isExternal(_:)``): the readers make it an ordinary link.
        package var isExternal = false
        /// Written `![[…]]`.
        package var isEmbed = false
        /// An image's size from its label (`![[shot.png|400x300]]`: ``size(_:)``).
        package var width: Int?
        /// See ``width``.
        package var height: Int?
    }

    /// URL schemes whose target is a web address, not a note: TiddlyWiki's `isLinkExternal`
    /// (`[[the docs|https://example.com/]]` links out).
    static let externalSchemes: Set<String> = ["file", "http", "https", "mailto", "ftp", "irc", "news", "data", "skype"]

    /// Whether a wiki link's target is a URL: one of ``externalSchemes``, a `:` and no space.
    package static func isExternal(_ target: String) -> Bool {
        guard let colon = target.firstIndex(of: ":"), !target.contains(" "),
              target.index(after: colon) < target.endIndex else { return false }
        return externalSchemes.contains(target[..<colon].lowercased())
    }

    /// File extensions (lower case) an embed shows as an image.
    package static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "svg", "webp", "avif", "bmp", "ico"]

    /// The wiki links in `bytes` (UTF-8), in order, not overlapping. Linear: every byte is looked
    /// at a bounded number of times (a failed `[[` resumes the search where its scan stopped).
    package static func matches(in bytes: UnsafeBufferPointer<UInt8>, order: Order = .targetFirst) -> [Match] {
        var out: [Match] = []
        let n = bytes.count
        var i = 0
        while i + 1 < n {
            guard bytes[i] == 0x5B, bytes[i + 1] == 0x5B else { i += 1; continue }
            var j = i + 2
            while j < n, bytes[j] != 0x5B, bytes[j] != 0x5D, bytes[j] != 0x0A, bytes[j] != 0x0D { j += 1 }
            if j + 1 < n, bytes[j] == 0x5D, bytes[j + 1] == 0x5D, j > i + 2,
               parts(String(decoding: UnsafeBufferPointer(rebasing: bytes[(i + 2)..<j]), as: UTF8.self), order: order) != nil {
                let embed = i > 0 && bytes[i - 1] == 0x21
                out.append(Match(range: (embed ? i - 1 : i)..<(j + 2), inner: (i + 2)..<j, isEmbed: embed))
                i = j + 2
            } else {
                // No wiki link starts at i; the `[` at j (or the one before it: `[[[x]]`) may
                // start the next one.
                i = j < n && bytes[j] == 0x5B ? max(j - 1, i + 1) : max(j, i + 1)
            }
        }
        return out
    }

    /// The wiki links in `text` (``matches(in:)`` of its UTF-8).
    package static func matches(in text: String, order: Order = .targetFirst) -> [Match] {
        var t = text
        return t.withUTF8 { matches(in: $0, order: order) }
    }

    /// Splits a wiki link's inner text; `nil` when it is not a wiki link (blank target without a
    /// fragment, or nothing but spaces). `order` says which side of the first `|` is the target.
    package static func parts(_ inner: String, embed: Bool = false, order: Order = .targetFirst) -> Parts? {
        var target = Substring(inner)
        var label: Substring?
        if let bar = inner.firstIndex(of: "|") {
            let before = inner[..<bar], after = inner[inner.index(after: bar)...]
            (target, label) = order == .targetFirst ? (before, after) : (after, before)
        }
        let trimmed = target.trimmingSpaces()
        if trimmed.isEmpty { return nil }
        if trimmed.hasPrefix("#") && trimmed.count == 1 { return nil }
        let isImage = embed && imageExtensions.contains(Self.fileExtension(String(trimmed.split(separator: "#").first ?? "")))
        var text = String(trimmed)
        if let label {
            let l = label.trimmingSpaces()
            if !l.isEmpty && !(isImage && isSize(l)) { text = String(l) } else if isImage { text = fileName(String(trimmed)) }
        } else if isImage {
            text = fileName(String(trimmed))
        }
        var parts = Parts(target: String(trimmed), text: text, isImage: isImage, isExternal: !isImage && isExternal(String(trimmed)),
                          isEmbed: embed)
        if isImage, let l = label, let size = size(l.trimmingSpaces()) { (parts.width, parts.height) = size }
        return parts
    }

    /// Obsidian's image size (`400`: a width; `400x300`: width and height, in pixels) at the start
    /// of an embed's label or after an image's alt text (`|400`); `nil` for anything else
    /// (`50%`, words), or a number of more than 5 digits.
    package static func size<S: StringProtocol>(_ s: S) -> (width: Int, height: Int?)? {
        let first = s.split(separator: "|", omittingEmptySubsequences: false).first ?? ""
        let sides = first.split(separator: "x", omittingEmptySubsequences: false)
        guard sides.count <= 2, sides.allSatisfy({ !$0.isEmpty && $0.count <= 5 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let w = Int(sides[0]) else { return nil }
        return (w, sides.count == 2 ? Int(sides[1]) : nil)
    }

    /// Whether an embed's label is a size or placement (`300`, `300x200`, `50%`, `300|right`).
    static func isSize(_ s: Substring) -> Bool {
        let first = s.split(separator: "|").first ?? ""
        return !first.isEmpty && first.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "x" || $0 == "%") }
    }

    /// The lower-cased extension of the last path component (`a/b.PNG` → `png`), or `""`.
    package static func fileExtension(_ path: String) -> String {
        let name = fileName(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }

    /// The last path component.
    static func fileName(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    func trimmingSpaces() -> Substring {
        var s = self
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return s
    }
}
