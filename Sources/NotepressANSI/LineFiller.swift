import Foundation
import NotepressAST
import NotepressThemes

/// A styled piece of one output line.
struct Seg {
    var text: String
    var style: TerminalStyle
    /// The OSC 8 target (already made safe), if any.
    var link: String?
    var width: Int

    init(_ text: String, _ style: TerminalStyle = TerminalStyle(), link: String? = nil) {
        self.text = text; self.style = style; self.link = link
        self.width = TerminalWidth.columns(text)
    }
}

typealias Line = [Seg]

/// Greedy wrapping, fed one piece at a time: words separated by single spaces (a space takes the
/// style and link of the last space token before the word), a word wider than `width` broken
/// between grapheme clusters. No token list: the current word (its pieces merged by style and
/// link) and the current line are the only state besides the finished lines (one ``Seg`` per
/// style change each), which ``Renderer/document(_:)`` renders block by block. ASCII text is
/// split at space bytes and measured by its byte count. Adjacent pieces of a line with the same
/// style and link share one ``Seg`` (rendering is the same: SGR and OSC 8 are written only where
/// style or link change).
struct LineFiller {
    let width: Int
    var lines: [Line] = []
    var cur: Line = []
    var curW = 0
    var pending: (TerminalStyle, String?)?
    /// The current word's pieces (kept allocated between words).
    var word: [Seg] = []
    var wordW = 0
    /// The width of the widest word placed so far.
    var widestWord = 0

    init(width: Int) { self.width = max(width, 1) }

    /// Appends `text` (no spaces in it) of `width` columns to the current word.
    mutating func appendPiece<S: StringProtocol>(_ text: S, width w: Int, _ style: TerminalStyle, _ link: String?) {
        if !word.isEmpty, word[word.count - 1].style == style, word[word.count - 1].link == link {
            word[word.count - 1].text.append(contentsOf: text)
            word[word.count - 1].width += w
        } else {
            var s = Seg("", style, link: link)
            s.text.append(contentsOf: text); s.width = w
            word.append(s)
        }
        wordW += w
    }

    /// Appends `text` to the current word as `Word.append(_:_:_:)` does: spaces are part of it.
    mutating func appendCharacters(_ text: String, _ style: TerminalStyle, _ link: String?) {
        appendPiece(text, width: TerminalWidth.columns(text), style, link)
    }

    /// Text that is already visible (``TerminalText/visible(_:tabs:)``): words split at space
    /// Characters, each a space token.
    mutating func appendText(_ text: String, _ style: TerminalStyle, _ link: String?) {
        var text = text
        let ascii: Bool? = text.withUTF8 { buf in
            var i = 0
            let n = buf.count
            while i < n {
                if buf[i] >= 0x80 { return false }
                i += 1
            }
            i = 0
            while i < n {
                if buf[i] == 0x20 {
                    endWord(); space(style, link)
                    i += 1
                    continue
                }
                let start = i
                while i < n && buf[i] != 0x20 { i += 1 }
                // After `visible`, every ASCII byte other than the space is printable: 1 column.
                appendPiece(String(decoding: UnsafeBufferPointer(rebasing: buf[start..<i]), as: UTF8.self),
                            width: i - start, style, link)
            }
            return true
        }
        if ascii == true { return }
        // Non-ASCII: split between grapheme clusters, as `Character` iteration does (a space
        // followed by a combining mark is no space).
        var start = text.startIndex
        var i = start
        while i < text.endIndex {
            let next = text.index(after: i)
            if text[i] == " " {
                if start < i { appendPiece(text[start..<i], width: TerminalWidth.columns(text[start..<i]), style, link) }
                endWord(); space(style, link)
                start = next
            }
            i = next
        }
        if start < text.endIndex {
            appendPiece(text[start...], width: TerminalWidth.columns(text[start...]), style, link)
        }
    }

    mutating func space(_ style: TerminalStyle, _ link: String?) {
        if !cur.isEmpty { pending = (style, link) }
    }

    mutating func hardBreak() {
        lines.append(cur); cur = []; curW = 0; pending = nil
    }

    /// Ends the current word (if any) and places it.
    mutating func endWord() {
        guard !word.isEmpty else { return }
        widestWord = max(widestWord, wordW)
        if cur.isEmpty {
            place()
        } else if curW + 1 + wordW <= width {
            let (s, l) = pending ?? (TerminalStyle(), nil)
            add(" ", width: 1, s, l); curW += 1
            place()
        } else {
            lines.append(cur); cur = []; curW = 0
            place()
        }
        pending = nil
        word.removeAll(keepingCapacity: true)
        wordW = 0
    }

    private mutating func add<S: StringProtocol>(_ text: S, width w: Int, _ style: TerminalStyle, _ link: String?) {
        if !cur.isEmpty, cur[cur.count - 1].style == style, cur[cur.count - 1].link == link {
            cur[cur.count - 1].text.append(contentsOf: text); cur[cur.count - 1].width += w
        } else {
            var s = Seg("", style, link: link)
            s.text.append(contentsOf: text); s.width = w
            cur.append(s)
        }
    }

    private mutating func place() {
        if curW + wordW <= width {
            for seg in word { add(seg.text, width: seg.width, seg.style, seg.link) }
            curW += wordW
            return
        }
        for seg in word {
            for c in seg.text {
                let cw = TerminalWidth.columns(c)
                if curW + cw > width && curW > 0 { lines.append(cur); cur = []; curW = 0 }
                if !cur.isEmpty, cur[cur.count - 1].style == seg.style, cur[cur.count - 1].link == seg.link {
                    cur[cur.count - 1].text.append(c); cur[cur.count - 1].width += cw
                } else {
                    var s = Seg("", seg.style, link: seg.link); s.text.append(c); s.width = cw
                    cur.append(s)
                }
                curW += cw
            }
        }
    }

    mutating func finish() -> [Line] {
        if !cur.isEmpty || lines.isEmpty { lines.append(cur) }
        return lines
    }
}

/// The sequences ``SGR/sequence(_:)`` made for one renderer (which runs on one thread).
final class SGRCache {
    private var made: [(TerminalStyle, String)] = []

    func sequence(_ style: TerminalStyle, _ sgr: SGR) -> String {
        for (s, q) in made where s == style { return q }
        let q = sgr.sequence(style)
        made.append((style, q))
        return q
    }
}

/// Runs of spaces up to 128, made once.
let spaceRuns: [String] = (0...128).map { String(repeating: " ", count: $0) }

/// `n` spaces (`n` ≥ 0).
func spaces(_ n: Int) -> String { n <= 128 ? spaceRuns[n] : String(repeating: " ", count: n) }

func lineWidth(_ l: Line) -> Int { l.reduce(0) { $0 + $1.width } }
