import Foundation
import NotepressAST
import NotepressReaders
import XCTest
import NotepressTestSupport

/// A compact picture of runs: plain text as is, styled runs as `<kinds:text>` (the kinds of
/// their enclosing spans, outermost first), hard breaks as `⏎`.
func noteSignature(_ inlines: Inlines) -> String {
    var s = ""
    for (i, run) in inlines.runs.enumerated() {
        switch run.content {
        case .hardBreak: s += "⏎"
        case .softBreak: s += " "
        case .text(let t):
            if run.span == nil { s += t; continue }
            let kinds = inlines.spanKinds(ofRun: i).map { kind -> String in
                switch kind {
                case .strong: return "b"
                case .emphasis: return "i"
                case .strikethrough: return "s"
                case .script: return "c"
                case .marker: return "m"
                case .colorRole(.alert): return "A"
                default: return "?"
                }
            }
            s += "<" + kinds.joined(separator: ",") + ":" + t + ">"
        default: s += "?"
        }
    }
    return s
}

/// The content of a note that must be exactly one paragraph (fails the test otherwise).
func noteParagraphRuns(_ text: String, keepMarkers: Bool = false, file: StaticString = #filePath, line: UInt = #line) -> Inlines {
    let blocks = NoteReader(keepMarkers: keepMarkers).parse(text)
    guard blocks.count == 1, case .paragraph(let inl) = blocks[0].kind else {
        XCTFail("expected one paragraph, got \(blocks)", file: file, line: line)
        return []
    }
    return inl
}

final class NoteReaderTests: XCTestCase {
    private func paragraphRuns(_ text: String, keepMarkers: Bool = false, file: StaticString = #filePath, line: UInt = #line) -> Inlines {
        noteParagraphRuns(text, keepMarkers: keepMarkers, file: file, line: line)
    }

    private func sig(_ text: String, keepMarkers: Bool = false) -> String {
        noteSignature(paragraphRuns(text, keepMarkers: keepMarkers))
    }

    func testFourSpanKinds() {
        XCTAssertEqual(sig("a *bold* b"), "a <b:bold> b")
        XCTAssertEqual(sig("a _italic_ b"), "a <i:italic> b")
        XCTAssertEqual(sig("a -struck- b"), "a <s:struck> b")
        XCTAssertEqual(sig("a ~script~ b"), "a <c:script> b")
        XCTAssertEqual(sig("*whole line*"), "<b:whole line>")
        XCTAssertEqual(sig("*x*"), "<b:x>")
        let runs = paragraphRuns("*bold*")
        XCTAssertEqual(runs, Inlines(runs: [InlineRun(.text("bold"), span: 0)], spans: [InlineSpan(.strong)]))
    }

    func testNestingOfDifferentKinds() {
        XCTAssertEqual(sig("*bold _and italic_*"), "<b:bold ><b,i:and italic>")
        XCTAssertEqual(sig("_a -b ~c~ d- e_"), "<i:a ><i,s:b ><i,s,c:c><i,s: d><i: e>")
        // A cluster of delimiters of different kinds opens and closes together.
        XCTAssertEqual(sig("*_both_*"), "<b,i:both>")
        // Crossing spans: the first to close wins, the opener inside it becomes literal.
        XCTAssertEqual(sig("*a _b* c_"), "<b:a _b> c_")
        // Span indices follow source order of openers: outer 0, inner 1 inside it.
        let runs = paragraphRuns("*x _y_*")
        XCTAssertEqual(runs.spanChain(ofRun: 1), [0, 1])
        XCTAssertEqual(runs.spanKinds(ofRun: 1), [.strong, .emphasis])
        XCTAssertEqual(runs.spans, [InlineSpan(.strong), InlineSpan(.emphasis, parent: 0)])
    }

    func testSameKindDoesNotNest() {
        XCTAssertEqual(sig("*a *b* c*"), "*a <b:b> c*")
        XCTAssertEqual(sig("*a _b *c* d_ e*"), "*a <i:b ><i,b:c><i: d> e*")
        // Two separate spans of one kind are two spans (two entries of the span tree).
        let runs = paragraphRuns("*a* *b*")
        XCTAssertEqual(noteSignature(runs), "<b:a> <b:b>")
        XCTAssertEqual(runs.spanChain(ofRun: 0), [0])
        XCTAssertEqual(runs.spanChain(ofRun: 2), [1])
    }

    func testWordInternalDelimitersAreLiteral() {
        for s in ["snake_case_name", "2-3-4", "a*b*c", "well-known", "--option", "-f", "x~y~z", "a_b_ c", "_a_b",
                  "rm -rf /tmp/foo-bar", "use --dry-run -n", "--exclude=\\*.{jpg,gif}", "HEAD~2", "**", "* a *",
                  "- item -", "_ _", "a - b - c", "foo_ bar _baz"] {
            let runs = paragraphRuns(s)
            XCTAssertTrue(runs.spans.allSatisfy { $0.kind == .colorRole(.alert) }, "styled: \(s) → \(noteSignature(runs))")
        }
        XCTAssertEqual(sig("snake_case_name"), "snake_case_name")
        XCTAssertEqual(sig("--option"), "--option")
        XCTAssertEqual(sig("tar -xvf foo.tar -C dir-name"), "tar -xvf foo.tar -C dir-name")
    }

    func testClosingFollowedByPunctuationAndOpeningAfterPunctuation() {
        XCTAssertEqual(sig("*done*, then"), "<b:done>, then")
        XCTAssertEqual(sig("really -gone-."), "really <s:gone>.")
        XCTAssertEqual(sig("(*a*)"), "(<b:a>)")
        XCTAssertEqual(sig("[_b_] {-c-}"), "[<i:b>] {<s:c>}")
        XCTAssertEqual(sig("\"~q~\" '*r*'"), "\"<c:q>\" '<b:r>'")
        XCTAssertEqual(sig("«_fr_» “*en*” ‘-x-’"), "«<i:fr>» “<b:en>” ‘<s:x>’")
        // Content must start and end with a word character.
        XCTAssertEqual(sig("* a*"), "* a*")
        XCTAssertEqual(sig("*a *"), "*a *")
        XCTAssertEqual(sig("*a.*"), "*a.*")
        // A closer must not be followed by a word character.
        XCTAssertEqual(sig("*a*b"), "*a*b")
        // Opening after a letter or a non-opening punctuation mark is literal.
        XCTAssertEqual(sig("x*a*"), "x*a*")
        XCTAssertEqual(sig("/*a*"), "/*a*")
    }

    func testUnicodeWordCharacters() {
        XCTAssertEqual(sig("*été* _über_ -ÿ-"), "<b:été> <i:über> <s:ÿ>")
        XCTAssertEqual(sig("*cafe\u{301}*"), "<b:cafe\u{301}>")
        XCTAssertEqual(sig("*١٢٣*"), "<b:١٢٣>")
    }

    func testCJKLettersBeforeDelimiterPreventOpening() {
        // CJK ideographs are letters: a delimiter right after one is word-internal.
        XCTAssertEqual(sig("中文*粗体*"), "中文*粗体*")
        XCTAssertEqual(sig("中文 *粗体*"), "中文 <b:粗体>")
        XCTAssertEqual(sig("「_强调_」"), "「<i:强调>」")
        XCTAssertEqual(sig("*粗体*中文"), "*粗体*中文")
    }

    func testUnclosedDelimitersAreLiteral() {
        XCTAssertEqual(sig("*open"), "*open")
        XCTAssertEqual(sig("_open and *closed*"), "_open and <b:closed>")
        XCTAssertEqual(sig("close*"), "close*")
        XCTAssertEqual(sig("~a -b~"), "<c:a -b>")
    }

    func testSpansDoNotCrossLines() {
        XCTAssertEqual(sig("*start\nend*"), "*start⏎end*")
        XCTAssertEqual(sig("_a_\n_b_"), "<i:a>⏎<i:b>")
    }

    func testEscapes() {
        XCTAssertEqual(sig("\\*not bold\\*"), "*not bold*")
        XCTAssertEqual(sig("\\_a\\_ \\-b\\- \\~c\\~"), "_a_ -b- ~c~")
        XCTAssertEqual(sig("a \\\\ b"), "a \\ b")
        XCTAssertEqual(sig("C:\\path\\n"), "C:\\path\\n")
        XCTAssertEqual(sig("*a\\*b*"), "<b:a*b>")
        XCTAssertEqual(sig("\\\\*x*"), "\\*x*")
        XCTAssertEqual(sig("trailing \\"), "trailing \\")
    }

    func testKeepMarkers() {
        let runs = paragraphRuns("a *b _c_* \\*", keepMarkers: true)
        XCTAssertEqual(noteSignature(runs), "a <b,m:*><b:b ><b,i,m:_><b,i:c><b,i,m:_><b,m:*> <m:\\>*")
        XCTAssertEqual(runs.plainText, "a *b _c_* \\*")
        // Markers are innermost, and spans are numbered in source order of opening.
        XCTAssertEqual(runs.spanKinds(ofRun: 1), [.strong, .marker])
        var firstSeen: [Int] = []
        for i in runs.runs.indices { for id in runs.spanChain(ofRun: i) where !firstSeen.contains(id) { firstSeen.append(id) } }
        XCTAssertEqual(firstSeen, [0, 1, 2, 3, 4, 5, 6])  // strong, its marker, emphasis, 2 markers, marker, escape marker
        XCTAssertEqual(runs.spans.map(\.parent), [nil, 0, 0, 2, 2, 0, nil])
        // Without markers the same line hides them.
        XCTAssertEqual(sig("a *b _c_* \\*"), "a <b:b ><b,i:c> *")
        // Literal (unmatched) delimiters are not markers.
        XCTAssertEqual(sig("a*b *c", keepMarkers: true), "a*b *c")
    }

    func testAllCapsAlert() {
        XCTAssertEqual(sig("this is IMPORTANT now"), "this is <A:IMPORTANT> now")
        XCTAssertEqual(sig("ÉTÉ ПРИВЕТ ΓΕΙΑ"), "<A:ÉTÉ> <A:ПРИВЕТ> <A:ΓΕΙΑ>")
        XCTAssertEqual(sig("A I OK"), "A I <A:OK>")
        XCTAssertEqual(sig("MP3 Mixed CamelCASE mp3 v2X 3D"), "MP3 Mixed CamelCASE mp3 v2X 3D")
        XCTAssertEqual(sig("GIT_COMMIT"), "<A:GIT>_<A:COMMIT>")
        XCTAssertEqual(sig("(TODO), NB!"), "(<A:TODO>), <A:NB>!")
        XCTAssertEqual(sig("*URGENT*"), "<b,A:URGENT>")
        XCTAssertEqual(sig("中文 ABC"), "中文 <A:ABC>")
        let runs = paragraphRuns("*be CAREFUL*")
        XCTAssertEqual(runs.spanKinds(ofRun: 1), [.strong, .colorRole(.alert)])
        XCTAssertEqual(runs.spanChain(ofRun: 1), [0, 1])
    }

    func testParagraphsAndHardBreaks() {
        let blocks = NoteReader().parse("one\ntwo\n\n\nthree\n  \nfour\r\nfive\n")
        XCTAssertEqual(blocks.count, 3)
        XCTAssertEqual(blocks[0], Block(.paragraph([InlineRun(.text("one")), InlineRun(.hardBreak), InlineRun(.text("two"))]),
                                        position: SourcePosition(line: 1, column: 1)))
        XCTAssertEqual(blocks[1], Block(.paragraph([InlineRun(.text("three"))]), position: SourcePosition(line: 5, column: 1)))
        XCTAssertEqual(blocks[2], Block(.paragraph([InlineRun(.text("four")), InlineRun(.hardBreak), InlineRun(.text("five"))]),
                                        position: SourcePosition(line: 7, column: 1)))
        XCTAssertEqual(NoteReader().parse(""), [])
        XCTAssertEqual(NoteReader().parse("\n\n \t\n"), [])
    }

    /// Audit 2 (issue 52): numbers holding the digits 0 and 9, the ends of the digit range, are
    /// list numbers too: `9.`, `19.`, `90.` and `10.` continue one list, through the binary.
    func testNumbersWithNinesAndZerosStayInOneList() throws {
        let dir = try makeTempDir(self)
        let note = try writeTestFile("1. one\n9. nine\n10. ten\n19. nineteen\n90. ninety\n", "n.note", in: dir)
        let r = try NotepressBinary.run(["convert", "--fragment", note.path, "-o", "-"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdoutText, "<ol>\n<li>one</li>\n<li value=\"9\">nine</li>\n<li>ten</li>\n<li value=\"19\">nineteen</li>\n<li value=\"90\">ninety</li>\n</ol>\n")
    }

    func testOrderedListKeepsNumbers() {
        let blocks = NoteReader().parse("Intro\n3. three *x*\n7. seven\n8.\tEIGHT\nafter\n\n1. one\n2. two\n", lineOffset: 10)
        XCTAssertEqual(blocks.count, 4)
        XCTAssertEqual(blocks[0].position, SourcePosition(line: 11, column: 1))
        guard case .list(let list) = blocks[1].kind else { return XCTFail("no list: \(blocks)") }
        XCTAssertEqual(blocks[1].position, SourcePosition(line: 12, column: 1))
        XCTAssertEqual(list.type, .ordered)
        XCTAssertEqual(list.start, 3)
        XCTAssertEqual(list.delimiter, .period)
        XCTAssertTrue(list.tight)
        XCTAssertEqual(list.items.map(\.number), [3, 7, 8])
        XCTAssertEqual(list.items.map(\.position), [SourcePosition(line: 12, column: 1), SourcePosition(line: 13, column: 1),
                                                    SourcePosition(line: 14, column: 1)])
        guard case .paragraph(let first) = list.items[0].blocks[0].kind else { return XCTFail() }
        XCTAssertEqual(noteSignature(first), "three <b:x>")
        XCTAssertEqual(list.items[0].blocks[0].position, SourcePosition(line: 12, column: 4))
        guard case .paragraph(let third) = list.items[2].blocks[0].kind else { return XCTFail() }
        XCTAssertEqual(noteSignature(third), "<A:EIGHT>")
        guard case .paragraph(let after) = blocks[2].kind else { return XCTFail() }
        XCTAssertEqual(after.plainText, "after")
        guard case .list(let second) = blocks[3].kind else { return XCTFail() }
        XCTAssertEqual(second.start, 1)
        XCTAssertEqual(second.items.map(\.number), [1, 2])
    }

    func testNotListItems() {
        for s in ["1.no space", "1.", " 1. indented", "a. letter", "1) paren", "1234567890. too long", "- dash"] {
            let blocks = NoteReader().parse(s)
            XCTAssertEqual(blocks.count, 1)
            guard case .paragraph(let p) = blocks[0].kind else { XCTFail("\(s) → \(blocks)"); continue }
            XCTAssertEqual(p.plainText, s)
        }
        // An item with nothing after the marker has no blocks.
        guard case .list(let l) = NoteReader().parse("5. ").first?.kind else { return XCTFail() }
        XCTAssertEqual(l.items, [ListItem(number: 5, blocks: [], position: SourcePosition(line: 1, column: 1))])
    }

    /// Each paragraph holds its own span tree, numbered from 0 in source order.
    func testSpanTreePerParagraph() {
        let blocks = NoteReader().parse("*a* _b_\n\n1. -c- OK\n\nzz ~d~")
        var trees: [[InlineSpan]] = []
        func collect(_ b: Block) {
            switch b.kind {
            case .paragraph(let i): trees.append(i.spans)
            case .list(let l): l.items.flatMap(\.blocks).forEach(collect)
            default: break
            }
        }
        blocks.forEach(collect)
        XCTAssertEqual(trees, [[InlineSpan(.strong), InlineSpan(.emphasis)],
                               [InlineSpan(.strikethrough), InlineSpan(.colorRole(.alert))],
                               [InlineSpan(.script)]])
    }

    func testLinearTime() {
        // This thread's CPU time, not the wall clock: other processes on a loaded machine (CI, a
        // mutation run beside it) stretched a wall-clock 4 MB run past 8× its 1 MB run.
        func cpu() -> Double {
            var t = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
            return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
        }
        func time(_ text: String) -> Double {
            let start = cpu()
            let blocks = NoteReader().parse(text)
            XCTAssertEqual(blocks.count, 1)
            return cpu() - start
        }
        let twoMB = String(repeating: "*", count: 2_000_000)
        XCTAssertLessThan(time(twoMB), 30)
        XCTAssertLessThan(time(String(repeating: "_a", count: 1_000_000)), 30)
        for unit in ["*", "_a", " *a", "a* "] {
            let one = String(repeating: unit, count: 1_000_000 / unit.utf8.count)
            let four = String(repeating: unit, count: 4_000_000 / unit.utf8.count)
            _ = time(one)  // warm up
            // The fastest of three: a cache or page-fault hiccup inflates one run, never all.
            let t1 = (0..<3).map { _ in time(one) }.min()!, t4 = (0..<3).map { _ in time(four) }.min()!
            XCTAssertLessThan(t4 / max(t1, 1e-4), 8, "unit \(unit): 1 MB \(t1)s, 4 MB \(t4)s")
        }
        // Many openers that never close, then many closers.
        let opens = String(repeating: "*a ", count: 300_000) + String(repeating: "a* ", count: 300_000)
        XCTAssertLessThan(time(opens), 30)
    }

    func testReadWholeNote() throws {
        let text = "---\ntitle: Groceries\ntags: [home, food]\n---\nBuy *MILK*\n"
        let result = try NoteReader().read(text, path: "notes/list.txt")
        XCTAssertEqual(result.document.metadata.title, "Groceries")
        XCTAssertEqual(result.document.metadata.tags, ["home", "food"])
        XCTAssertEqual(result.document.metadata.sourceFormat, .note)
        XCTAssertEqual(result.document.metadata.sourcePath, "notes/list.txt")
        XCTAssertEqual(result.document.blocks.first?.position, SourcePosition(line: 5, column: 1))
        let noTitle = try NoteReader().read("plain", path: "dir/My Note.txt")
        XCTAssertEqual(noTitle.document.metadata.title, "My Note")
        XCTAssertNil(try NoteReader().read("plain").document.metadata.title)
    }

    /// The real cheat sheets: shell commands full of `--options`, `-x` flags, paths and
    /// snake_case must come out with no strike, emphasis, script or strong spans at all.
    func testCorpusNotesHaveNoSpuriousStyling() throws {
        let dir = TestPaths.corpus.appendingPathComponent("notes")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir.path) else {
            return XCTFail("corpus missing at \(dir.path): the checkout must sit beside shared/corpus")
        }
        let notes = names.filter { $0.hasSuffix(".txt") }.sorted()
        XCTAssertFalse(notes.isEmpty)
        var alertWords: Set<String> = []
        for name in notes {
            let text = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
            let result = try NoteReader().read(text, path: name)
            XCTAssertFalse(result.document.metadata.tags.isEmpty, name)
            var paragraphs = 0
            var styled: [String] = []
            result.document.forEachBlock { block, _ in
                guard case .paragraph(let inl) = block.kind else { return }
                paragraphs += 1
                for (i, run) in inl.runs.enumerated() {
                    guard case .text(let t) = run.content else { continue }
                    for span in inl.spanKinds(ofRun: i).map({ InlineSpan($0) }) {
                        if span.kind == .colorRole(.alert) {
                            alertWords.insert(t)
                            XCTAssertTrue(t.count >= 2 && t.allSatisfy { $0.isUppercase }, "\(name): alert on \(t)")
                        } else {
                            styled.append(t)
                        }
                    }
                }
                // Nothing is hidden: every source character of the paragraph survives.
            }
            XCTAssertGreaterThan(paragraphs, 0, name)
            XCTAssertEqual(styled, [], "\(name): spurious styling on \(styled)")
            // The body text survives unchanged apart from escapes (which these files use once: `\*`).
            let (_, body, _) = try FrontMatter.split(text, path: name)
            let blocksText = result.document.blocks.map { b -> String in
                if case .paragraph(let i) = b.kind { return i.plainText }
                return ""
            }.joined(separator: "\n")
            let bodyLines = body.split(separator: "\n", omittingEmptySubsequences: true).joined(separator: "\n")
            XCTAssertEqual(blocksText.replacingOccurrences(of: "\n", with: ""),
                           bodyLines.replacingOccurrences(of: "\\*", with: "*").replacingOccurrences(of: "\n", with: "")
                               .replacingOccurrences(of: "\\\\", with: "\\"), name)
        }
        XCTAssertTrue(alertWords.contains("HEAD"), "\(alertWords)")
    }
}
