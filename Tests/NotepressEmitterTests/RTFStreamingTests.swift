import Foundation
import XCTest
import NotepressTestSupport

/// The RTF writer streams its output (issue 19) instead of building a tree; these pin the
/// decisions that used to look back at the tree: a tight list's space after, a footnote's last
/// `\par`, and the HYPERLINK instructions of the fast path. Expected bytes are those of the tree
/// writer (notepress before the change), through the binary.
final class RTFStreamingTests: XCTestCase {
    /// A tight list gives its last `\sa0` paragraph (at its own level, not inside a footnote) the
    /// space after the list: here item `e` of the innermost list, since `f` already took the
    /// loose item's 120 from its own tight list. The footnote's list keeps `\sa0`; a footnote
    /// ending with a paragraph drops its last `\par`, one ending with a table does not.
    func testTightListSpaceAfterAndFootnoteEndsWhenStreamed() throws {
        let md = "- a[^1]\n- b\n  1. c\n\n  2. d\n     - e\n     - f\n\ntail[^2]\n\n[^1]: note\n\n    - x\n    - y\n\n"
            + "[^2]: cells\n\n    | h |\n    |---|\n    | v |\n"
        let result = try NotepressBinary.run(["convert", "-t", "rtf", "-f", "gfm", "-"], stdin: Data(md.utf8))
        XCTAssertEqual(result.status, 0, result.stderr)
        var text = result.stdoutText
        for size in [26, 30, 34] {
            text = text.replacingOccurrences(of: "\\dbch\\af3\\rtlch\\af0\\afs\(size)\\ltrch\\f0\\fs\(size)\\cf1", with: "@\(size)")
        }
        let body = [
            #"\paperw12240\paperh15840\margl1440\margr1440\margt1440\margb1440\ftnbj\ftnnar "#,
            #"\pard\plain\ltrpar\li680\sa0\sl440\slmult0@34\ls1\ilvl0\fi-680\li680\tx680{\listtext\pard\plain\rtlch\af0\afs34\ltrch\f0\fs34\cf1 \u8226?\tab}a{\super\chftn}{\footnote "#,
            #"\pard\plain\ltrpar\sa0\sl360\slmult0@26{\super\chftn} note\par "#,
            #"\pard\plain\ltrpar\li680\sa0\sl360\slmult0@26\ls2\ilvl0\fi-680\li680\tx680{\listtext\pard\plain\rtlch\af0\afs34\ltrch\f0\fs34\cf1 \u8226?\tab}x\par "#,
            #"\pard\plain\ltrpar\li680\sa0\sl360\slmult0@26\ls2\ilvl0\fi-680\li680\tx680{\listtext\pard\plain\rtlch\af0\afs34\ltrch\f0\fs34\cf1 \u8226?\tab}y}\par "#,
            #"\pard\plain\ltrpar\li680\sa0\sl440\slmult0@34\ls1\ilvl0\fi-680\li680\tx680{\listtext\pard\plain\rtlch\af0\afs34\ltrch\f0\fs34\cf1 \u8226?\tab}b\par "#,
            #"\pard\plain\ltrpar\li1360\sa120\sl440\slmult0@34\ls3\ilvl1\fi-680\li1360\tx1360{\listtext\pard\plain\rtlch\af0\afs34\ab\ltrch\f0\fs34\b\cf1 1.\tab}c\par "#,
            #"\pard\plain\ltrpar\li1360\sa120\sl440\slmult0@34\ls3\ilvl1\fi-680\li1360\tx1360{\listtext\pard\plain\rtlch\af0\afs34\ab\ltrch\f0\fs34\b\cf1 2.\tab}d\par "#,
            #"\pard\plain\ltrpar\li2040\sa120\sl440\slmult0@34\ls4\ilvl2\fi-680\li2040\tx2040{\listtext\pard\plain\rtlch\af0\afs34\ltrch\f0\fs34\cf1 \u9642?\tab}e\par "#,
            #"\pard\plain\ltrpar\li2040\sa120\sl440\slmult0@34\ls4\ilvl2\fi-680\li2040\tx2040{\listtext\pard\plain\rtlch\af0\afs34\ltrch\f0\fs34\cf1 \u9642?\tab}f\par "#,
            #"\pard\plain\ltrpar\sa120\sl440\slmult0@34 tail{\super\chftn}{\footnote "#,
            #"\pard\plain\ltrpar\sa0\sl360\slmult0@26{\super\chftn} cells\par "#,
            #"\trowd\trgaph108\trleft0\trhdr\clbrdrt\brdrs\brdrw10\clbrdrl\brdrs\brdrw10\clbrdrb\brdrs\brdrw10\clbrdrr\brdrs\brdrw10\cellx401 "#,
            #"\pard\plain\intbl\ltrpar\ql\sl400\slmult0@30\rtlch\ab\ltrch\b h\cell\row "#,
            #"\trowd\trgaph108\trleft0\clbrdrt\brdrs\brdrw10\clbrdrl\brdrs\brdrw10\clbrdrb\brdrs\brdrw10\clbrdrr\brdrs\brdrw10\cellx401 "#,
            #"\pard\plain\intbl\ltrpar\ql\sl400\slmult0@30 v\cell\row "#,
            #"\pard}\par "#,
            #"}"#,
            #""#,
        ].joined(separator: "\n")
        XCTAssertTrue(text.hasSuffix(body), text)
    }

    /// HYPERLINK instructions: whole for a URL with a scheme or without `#` (quoted when it has
    /// `\` or `"`), a bookmark (`\l`) for a fragment of a relative file, percent-decoded, non-ASCII
    /// as `\uN?`. A scheme is letters, digits, `+`, `-`, `.` before the first `:`.
    func testHyperlinkInstructions() throws {
        let md = #"[a](https://x.org/p?q=1#frag) [b](page.rtf#Sec%20One) [c](#Intro) [d](<a\b"c.html>) [e](mailto:x@y.z) "#
            + #"[f](<ü.html#über>) [g](1a+b:c#d) [h](<a b:c#d>) [i](dir/f.rtf) [j](:x#y)"#
        let result = try NotepressBinary.run(["convert", "-t", "rtf", "-f", "gfm", "-"], stdin: Data(md.utf8))
        XCTAssertEqual(result.status, 0, result.stderr)
        let expected = [
            #"{\*\fldinst{HYPERLINK "https://x.org/p?q=1#frag"}}"#,
            #"{\*\fldinst{HYPERLINK "page.rtf" \\l "ix_Sec_One_01203516067a7c5e"}}"#,
            #"{\*\fldinst{HYPERLINK \\l "ix_Intro_ba77daf5b55d0cd1"}}"#,
            #"{\*\fldinst{HYPERLINK "a\\\\b\\"c.html"}}"#,
            #"{\*\fldinst{HYPERLINK "mailto:x@y.z"}}"#,
            #"{\*\fldinst{HYPERLINK "\u252?.html" \\l "ix__ber_a720359e11610baf"}}"#,
            #"{\*\fldinst{HYPERLINK "1a+b:c#d"}}"#,
            #"{\*\fldinst{HYPERLINK "a b:c" \\l "id_d"}}"#,
            #"{\*\fldinst{HYPERLINK "dir/f.rtf"}}"#,
            #"{\*\fldinst{HYPERLINK ":x" \\l "id_y"}}"#,
        ]
        var rest = Substring(result.stdoutText)
        for field in expected {
            guard let r = rest.range(of: field) else { return XCTFail("missing or out of order: \(field)\n\(result.stdoutText)") }
            rest = rest[r.upperBound...]
        }
    }
}
