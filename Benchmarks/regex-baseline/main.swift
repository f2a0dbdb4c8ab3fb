// regex-baseline: the note editor's original highlighting approach, as a benchmark baseline.
//
// The iOS Text Kit note editor this project replaces styled its text the way the Text Kit
// tutorial's `SyntaxHighlightTextStorage` does: a dictionary of six regular expressions, each
// mapped to text attributes; `applyStylesToRange` runs one `NSRegularExpression` per style over
// the whole range, adds that style's attributes to capture group 1 of every match, and resets the
// font of the character after the match to the body font. This program does exactly that on an
// `NSMutableAttributedString` (the text storage's backing store), then writes the attributed
// text as HTML: one `<p>` per blank-line-separated paragraph, `<br />` for other line ends,
// `<strong>`/`<em>`/`<span class="script">` for the font, `<del>` for strikethrough and
// `<span class="alert">` for the red foreground colour; `& < > "` escaped.
//
// It is not a correct note-markup reader (no escapes, no flanking rules, no lists, markers stay
// in the text): it is the cost of the old approach, for `Benchmarks/run` to compare against.
//
// Usage: regex-baseline FILE   (HTML fragment on standard output)
// Build: swiftc -O Benchmarks/regex-baseline/main.swift -o Benchmarks/work/regex-baseline
import Foundation

let fontKey = NSAttributedString.Key("font")            // "body", "bold", "italic", "script"
let strikeKey = NSAttributedString.Key("strikethrough")  // 1
let colorKey = NSAttributedString.Key("foreground")      // "red"

/// The tutorial's replacements, in a fixed order (the tutorial's dictionary order is unspecified).
let replacements: [(pattern: String, attributes: [NSAttributedString.Key: Any])] = [
    (#"(\*\w+(\s\w+)*\*)\s"#, [fontKey: "bold"]),
    (#"(_\w+(\s\w+)*_)\s"#, [fontKey: "italic"]),
    (#"([0-9]+\.)\s"#, [fontKey: "bold"]),
    (#"(-\w+(\s\w+)*-)\s"#, [strikeKey: 1]),
    (#"(~\w+(\s\w+)*~)\s"#, [fontKey: "script"]),
    (#"\s([A-Z]{2,})\s"#, [colorKey: "red"]),
]
let normalAttributes: [NSAttributedString.Key: Any] = [fontKey: "body"]

/// `applyStylesToRange` over the whole text: one regular expression per style.
func applyStyles(_ storage: NSMutableAttributedString) {
    let searchRange = NSRange(location: 0, length: storage.length)
    storage.addAttributes(normalAttributes, range: searchRange)
    let string = storage.string
    for (pattern, attributes) in replacements {
        let regex = try! NSRegularExpression(pattern: pattern)
        regex.enumerateMatches(in: string, options: [], range: searchRange) { match, _, _ in
            guard let matchRange = match?.range(at: 1) else { return }
            storage.addAttributes(attributes, range: matchRange)
            let maxRange = matchRange.location + matchRange.length
            if maxRange + 1 < storage.length {
                storage.addAttributes(normalAttributes, range: NSRange(location: maxRange, length: 1))
            }
        }
    }
}

/// The one escaping function for HTML text: `& < > "`.
func appendEscaped(_ u: Unicode.Scalar, to out: inout String) {
    switch u {
    case "&": out += "&amp;"
    case "<": out += "&lt;"
    case ">": out += "&gt;"
    case "\"": out += "&quot;"
    default: out.unicodeScalars.append(u)
    }
}

/// Writes the attributed text as an HTML fragment, one attribute run at a time. Line ends are
/// held back until the next character, so that a run's tags never enclose a paragraph break.
func writeHTML(_ storage: NSAttributedString) -> String {
    var out = "<p>"
    let ns = storage.string as NSString
    var pendingNewlines = 0
    storage.enumerateAttributes(in: NSRange(location: 0, length: storage.length), options: []) { attrs, range, _ in
        var openTags = "", closeTags = ""
        switch attrs[fontKey] as? String {
        case "bold": openTags += "<strong>"; closeTags = "</strong>" + closeTags
        case "italic": openTags += "<em>"; closeTags = "</em>" + closeTags
        case "script": openTags += "<span class=\"script\">"; closeTags = "</span>" + closeTags
        default: break
        }
        if attrs[strikeKey] != nil { openTags += "<del>"; closeTags = "</del>" + closeTags }
        if attrs[colorKey] != nil { openTags += "<span class=\"alert\">"; closeTags = "</span>" + closeTags }
        var opened = false
        for u in ns.substring(with: range).unicodeScalars {
            if u == "\n" { pendingNewlines += 1; continue }
            if u == "\r" { continue }
            if pendingNewlines > 0 {
                if opened { out += closeTags; opened = false }
                out += pendingNewlines >= 2 ? "</p>\n<p>" : "<br />\n"
                pendingNewlines = 0
            }
            if !opened { out += openTags; opened = true }
            appendEscaped(u, to: &out)
        }
        if opened { out += closeTags }
    }
    out += "</p>\n"
    return out
}

let arguments = CommandLine.arguments
guard arguments.count == 2, let data = FileManager.default.contents(atPath: arguments[1]) else {
    FileHandle.standardError.write("usage: regex-baseline FILE\n".data(using: .utf8)!)
    exit(2)
}
let storage = NSMutableAttributedString(string: String(decoding: data, as: UTF8.self))
applyStyles(storage)
FileHandle.standardOutput.write(writeHTML(storage).data(using: .utf8)!)
