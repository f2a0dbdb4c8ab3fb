import Foundation
import XCTest
import NotepressTestSupport
@testable import NotepressAST

/// The span tree of ``Inlines`` ("nesting stored once"): the builder, the transition walk and
/// the per-span attribute table that every writer shares.
final class InlineTreeTests: XCTestCase {
    /// `a *b **c** d* [e](u)`, built as a reader builds it.
    func sample() -> Inlines {
        var b = InlinesBuilder()
        b.append(.text("a "))
        b.push(.emphasis)                  // 0
        b.append(.text("b "))
        b.append(.text("c"), in: .strong)  // 1
        b.append(.text(" d"))
        b.pop()
        b.append(.text(" "))
        b.push(.link(Link(destination: "u")))  // 2
        b.append(.text("e"))
        b.pop()
        return b.take()
    }

    func testBuilderStoresEachSpanOnce() {
        let inl = sample()
        XCTAssertEqual(inl.spans, [InlineSpan(.emphasis), InlineSpan(.strong, parent: 0), InlineSpan(.link(Link(destination: "u")))])
        XCTAssertEqual(inl.runs.map(\.span), [nil, 0, 1, 0, nil, 2])
        XCTAssertEqual(inl.spanChain(ofRun: 2), [0, 1])
        XCTAssertEqual(inl.spanKinds(ofRun: 2), [.emphasis, .strong])
        XCTAssertEqual(inl.plainText, "a b c d e")
        // A deep chain costs one span per level, not depth × runs.
        var b = InlinesBuilder()
        for _ in 0..<10_000 { b.push(.emphasis); b.append(.text("x")) }
        let deep = b.take()
        XCTAssertEqual(deep.spans.count, 10_000)
        XCTAssertEqual(deep.runs.count, 10_000)
        XCTAssertEqual(deep.spans.last?.parent, 9_998)
        XCTAssertEqual(MemoryLayout<InlineRun>.stride, 24)
        XCTAssertEqual(MemoryLayout<InlineSpan>.stride, 16)
    }

    /// Going from one run's span to the next closes up to the common ancestor and opens down
    /// from it; nothing else.
    func testTransitionWalksToTheCommonAncestor() {
        var b = InlinesBuilder()
        b.push(.strong)            // 0
        b.push(.emphasis)          // 1
        b.append(.text("x"), in: .code)  // 2
        b.pop()
        b.push(.strikethrough)     // 3
        b.append(.text("y"), in: .marker)  // 4
        let inl = b.take()
        var t = SpanTransition()
        inl.transition(from: nil, to: 2, into: &t)
        XCTAssertEqual(t.closing, [])
        XCTAssertEqual(t.opening, [0, 1, 2])
        inl.transition(from: 2, to: 4, into: &t)
        XCTAssertEqual(t.closing, [2, 1])
        XCTAssertEqual(t.opening, [3, 4])
        inl.transition(from: 4, to: 3, into: &t)
        XCTAssertEqual(t.closing, [4])
        XCTAssertEqual(t.opening, [])
        inl.transition(from: 4, to: nil, into: &t)
        XCTAssertEqual(t.closing, [4, 3, 0])
        XCTAssertEqual(t.opening, [])
        inl.transition(from: 3, to: 3, into: &t)
        XCTAssertEqual(t.closing + t.opening, [])
    }

    func testAttributeTableFlattensEachSpanOnce() {
        var b = InlinesBuilder()
        b.push(.link(Link(destination: "outer")))   // 0
        b.push(.emphasis)                            // 1
        b.push(.image(Link(destination: "img")))     // 2
        b.append(.text("alt"), in: .strong)          // 3
        b.pop(); b.pop(); b.pop()
        b.append(.text("plain"))
        let inl = b.take()
        let table = InlineAttributeTable(inl)
        let inner = table[run: inl.runs[0]]
        XCTAssertTrue(inner.attributes.emphasis && inner.attributes.strong)
        XCTAssertFalse(inner.attributes.code)
        XCTAssertEqual(inner.attributes.link, Link(destination: "outer"))
        XCTAssertEqual(inner.attributes.image, Link(destination: "img"))
        XCTAssertEqual(inner.innermostLink, 0)
        XCTAssertEqual(inner.innermostImage, 2)
        XCTAssertEqual(inner.innermostTarget, 2)
        XCTAssertEqual(inner.outermostTarget, 0)
        XCTAssertEqual(table[run: inl.runs[1]], InlineAttributeTable.Entry())
        XCTAssertEqual(table[1].outermostTarget, 0)
        XCTAssertNil(table[1].innermostImage)
        XCTAssertEqual(inl.attributes(ofRun: 0), inner.attributes)
    }

    /// Grafting one content into another (terminal record tables: `**header**: cell`) keeps
    /// both trees, the grafted one under the open span.
    func testAppendContentsOfGraftsUnderTheOpenSpan() {
        let cell = sample()
        var b = InlinesBuilder()
        b.push(.strong)
        b.append(contentsOf: cell)
        b.pop()
        b.append(.text(": "))
        b.append(contentsOf: cell)
        let record = b.take()
        XCTAssertEqual(record.spans.count, 1 + 3 + 3)
        XCTAssertEqual(record.spans.map(\.parent), [nil, 0, 1, 0, nil, 4, nil])
        XCTAssertEqual(record.runs.map(\.span), [0, 1, 2, 1, 0, 3, nil, nil, 4, 5, 4, nil, 6])
        XCTAssertEqual(record.spanKinds(ofRun: 2), [.strong, .emphasis, .strong])
        XCTAssertEqual(record.plainText, "a b c d e: a b c d e")
    }

    func testSubrangeKeepsTheSpanTree() {
        let inl = sample()
        let tail = inl.subrange(3..<6)
        XCTAssertEqual(tail.runs.map(\.span), [0, nil, 2])
        XCTAssertEqual(tail.spans, inl.spans)
        XCTAssertEqual(tail.plainText, " d e")
    }

    /// The JSON dump nests spans as nodes with children, each span once.
    func testJSONDumpNestsSpans() {
        let doc = Document(metadata: DocumentMetadata(sourceFormat: .gfm), blocks: [Block(.paragraph(sample()))])
        let json = ASTDump.json(doc)
        let expected = """
          "children": [
            {
              "type": "paragraph",
              "inlines": [
                {"text": "a "},
                {
                  "kind": "emph",
                  "children": [
                    {"text": "b "},
                    {
                      "kind": "strong",
                      "children": [
                        {"text": "c"}
                      ]
                    },
                    {"text": " d"}
                  ]
                },
                {"text": " "},
                {
                  "kind": "link",
                  "destination": "u",
                  "children": [
                    {"text": "e"}
                  ]
                }
              ]
            }
          ]
        }

        """
        XCTAssertTrue(json.hasSuffix(expected), json)
    }
}
