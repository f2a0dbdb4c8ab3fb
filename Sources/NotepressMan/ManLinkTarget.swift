import NotepressAST

/// What a man page shows of a link's target (see ``ManRenderer/linkTarget(_:)``).
enum ManLinkTarget: Equatable {
    /// A URL: `.UR`/`.UE` in text, `text <url>` in headings, tags and table cells.
    case url
    /// Another manual page, `name(section)` (`skopeo.1.md` → `skopeo(1)`): written after the
    /// link's text unless the text already says it.
    case page(String)
    /// Nothing: the link's text alone.
    case none
}

extension ManRenderer {
    /// Extensions of the source files a relative link may point at (the inputs Notepress reads:
    /// Markdown, ronn and note markup). A printed page cannot follow such a link.
    static let sourceExtensions: Set<String> = ["md", "markdown", "mdown", "mkd", "ronn", "note"]

    /// How the target `destination` (already checked by ``URLSafety``) is shown. The one place
    /// that decides it, for text, headings, tags and cells:
    /// - a fragment of this page (`#ENVIRONMENT`): ``ManLinkTarget/none``; the section is on the
    ///   page and a fragment means nothing in man(1);
    /// - a relative link to a source file (`skopeo.1.md`, `../docs/guide.md#setup`, see
    ///   ``sourceExtensions``): ``ManLinkTarget/page(_:)`` when the file's stem is `name.section`
    ///   (`skopeo.1` → `skopeo(1)`, the go-md2man and ronn naming), else ``ManLinkTarget/none``;
    /// - anything else (a URL with a scheme, `//host`, other relative paths): ``ManLinkTarget/url``.
    static func linkTarget(_ destination: String) -> ManLinkTarget {
        if destination.hasPrefix("#") { return .none }
        if destination.hasPrefix("//") { return .url }
        // A scheme: letters, digits, `+`, `-`, `.` before the first `:`, and no `/`, `?`, `#` before it.
        // ASCII (bytes are Characters there, CR LF being neither): the first of `:` `/` `?` `#` is `:`.
        let asciiScheme: Bool? = destination.withUTF8Bytes { bytes in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            return bytes.first(where: { $0 == 0x3A || $0 == 0x2F || $0 == 0x3F || $0 == 0x23 }) == 0x3A
        }
        if let asciiScheme {
            if asciiScheme { return .url }
        } else if let colon = destination.firstIndex(of: ":"),
           !destination[..<colon].contains(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { return .url }
        let path = destination.prefix { $0 != "#" && $0 != "?" }
        let file = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let dot = file.lastIndex(of: "."),
              sourceExtensions.contains(file[file.index(after: dot)...].lowercased()) else { return .url }
        let stem = file[..<dot]
        if let sectionDot = stem.lastIndex(of: "."), sectionDot != stem.startIndex {
            let section = String(stem[stem.index(after: sectionDot)...])
            if ManTitleResolver.isSection(section) {
                return .page(String(stem[..<sectionDot]) + "(" + section + ")")
            }
        }
        return .none
    }
}
