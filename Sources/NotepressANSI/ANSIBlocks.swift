import Foundation
import NotepressAST
import NotepressThemes

/// Blocks: headings, paragraphs, quotes, lists and code (see ``ANSIEmitter``).
extension Renderer {

    mutating func blocks(_ bs: [Block], width: Int, tight: Bool) -> [Line] {
        var out: [Line] = []
        for b in bs {
            let lines = block(b, width: width)
            if lines.isEmpty { continue }
            if !out.isEmpty && !tight { out.append([]) }
            out += lines
        }
        return out
    }

    mutating func block(_ b: Block, width: Int) -> [Line] {
        switch b.kind {
        case .paragraph(let c):
            let lines = inlineLines(c, width: width, base: body)
            return isLetterpress(c) ? withShadow(lines) : lines
        case .heading(let level, let c):
            let role = TerminalRole.heading(level)
            let base = body.merged(TerminalStyleTable.style(role))
            let marker = String(repeating: "#", count: min(max(level, 1), 6)) + " "
            var lines: [Line]
            if width - marker.count >= min(10, width) {
                lines = hang(inlineLines(c, width: width - marker.count, base: base),
                             marker: [Seg(marker, TerminalStyleTable.style(.marker))], width: width)
            } else {
                lines = inlineLines(c, width: width, base: base)
            }
            if isLetterpress(c) { return withShadow(lines) }
            // Headings 1 and 2 are underlined by a rule as wide as their text (heavy, light).
            if let rule = headingRule(level) {
                let w = lines.map(lineWidth).max() ?? 0
                if w > 0 { lines.append([Seg(repeating: rule, count: w, TerminalStyleTable.style(.headingRule))]) }
            }
            return lines
        case .alert(let a):
            return alert(a, width: width)
        case .blockQuote(let children):
            let bar = ascii ? "|" : "│"
            guard width - 2 >= min(10, width) else { return blocks(children, width: width, tight: false) }
            return prefixed(blocks(children, width: width - 2, tight: false), Seg(bar + " ", TerminalStyleTable.style(.quoteBar)))
        case .list(let l):
            return list(l, width: width, depth: 0)
        case .codeBlock(_, let literal):
            return codeBlock(literal, highlight: b.highlight, width: width)
        case .htmlBlock:
            return []
        case .thematicBreak:
            return [[Seg(repeating: ascii ? "-" : "─", count: width, TerminalStyleTable.style(.rule))]]
        case .table(let t):
            return table(t, width: width)
        case .footnoteDefinition(let label, let bs):
            footnotes.append((label, bs))
            return []
        case .unknown(ContentsMarker.typeName, _) where options.markerContents != nil:
            return options.markerContents!.isEmpty ? [] : tableOfContents(options.markerContents!, width: width)
        case .unknown(let name, let bs):
            // Content tabs (ContentTabs): each tab its labelled content, as meant.
            if !ContentTabs.isTabs(name) { diagnostics.append(Diagnostic(.warning, "unknown block '\(name)' written as its content", file: path, position: b.position)) }
            return blocks(bs, width: width, tight: false)
        case .definitionList(let items):
            return definitionList(items, width: width)
        }
    }

    /// A definition list: each term bold on its own lines, its definitions indented four columns
    /// below it (the whole width when the terminal is too narrow).
    mutating func definitionList(_ items: [DefinitionItem], width: Int) -> [Line] {
        var out: [Line] = []
        let indent = width - 4 >= min(10, width) ? 4 : 0
        for item in items {
            if !out.isEmpty { out.append([]) }
            out += inlineLines(item.term, width: width, base: body.merged(TerminalStyle(bold: true)))
            for d in item.definitions {
                let lines = blocks(d, width: width - indent, tight: false)
                out += indent == 0 ? lines : prefixed(lines, Seg(spaces: indent))
            }
        }
        return out
    }

    /// The character of the rule under a heading of `level`: `━` (`=` in ASCII) under level 1,
    /// `─` (`-`) under level 2, none below.
    func headingRule(_ level: Int) -> String? {
        switch level {
        case ...1: ascii ? "=" : "━"
        case 2: ascii ? "-" : "─"
        default: nil
        }
    }

    /// An alert: a bar in the kind's colour (``AlertPalette``) before every line, the kind's
    /// title bold in that colour on the first, then the content.
    mutating func alert(_ a: Alert, width: Int) -> [Line] {
        let color = TerminalColor.fixed(AlertPalette.color(a.kind), ansi16: AlertPalette.ansi16(a.kind))
        let barStyle = TerminalStyle(color: color)
        let bar = ascii ? "|" : "┃"
        let titleStyle = body.merged(TerminalStyle(bold: true, color: color))
        // A callout's title keeps its markup (code, emphasis, math, links), wrapped like a paragraph.
        let title: [Line] = a.markedTitle.map { inlineLines($0, width: max(1, width - 2), base: titleStyle) }
            ?? (a.displayTitle.isEmpty ? [] : [[Seg(TerminalText.visible(a.displayTitle), titleStyle)]])
        guard width - 2 >= min(10, width) else { return title + blocks(a.blocks, width: width, tight: false) }
        return prefixed(title + blocks(a.blocks, width: width - 2, tight: false), Seg(bar + " ", barStyle))
    }

    /// `lines` with `seg` before each line (a quote or alert bar), changed in place.
    func prefixed(_ lines: consuming [Line], _ seg: Seg) -> [Line] {
        for i in lines.indices { lines[i].insert(seg, at: 0) }
        return lines
    }

    func isLetterpress(_ c: Inlines) -> Bool {
        let table = InlineAttributeTable(c)
        return !c.runs.isEmpty && c.runs.allSatisfy { table[run: $0].attributes.letterpress }
    }

    /// `lines` with `marker` before the first and its width of spaces before the others (a hanging
    /// indent). An empty item gives the marker alone.
    func hang(_ lines: consuming [Line], marker: Line, width: Int) -> [Line] {
        let mw = lineWidth(marker)
        guard !lines.isEmpty else { return [marker] }
        let indent = Seg(spaces: mw)
        lines[0].insert(contentsOf: marker, at: 0)
        for i in lines.indices.dropFirst() where !lines[i].isEmpty { lines[i].insert(indent, at: 0) }
        return lines
    }

    mutating func list(_ l: ListBlock, width: Int, depth: Int) -> [Line] {
        let bullets = ascii ? ["*", "-", "+"] : ["•", "◦", "▪"]
        var numbers: [Int] = []
        var prev = l.start - 1
        for item in l.items { let n = item.number ?? (prev + 1); numbers.append(n); prev = n }
        let numberWidth = numbers.map { String($0).count }.max() ?? 1
        var out: [Line] = []
        listDepth += 1
        defer { listDepth -= 1 }
        for (i, item) in l.items.enumerated() {
            var marker: String
            if l.type == .ordered {
                let n = String(numbers[i])
                let d = l.delimiter == .parenthesis ? ")" : "."
                marker = String(repeating: " ", count: numberWidth - n.count) + n + d + " "
            } else {
                marker = item.task == nil ? bullets[(listDepth - 1) % 3] + " " : ""
            }
            if let task = item.task {
                marker += ascii ? (task == .checked ? "[x] " : "[ ] ") : (task == .checked ? "☑ " : "☐ ")
            }
            let mw = TerminalWidth.columns(marker)
            // Numbers bold (note markup's numbered lines, README; the HTML page's numbers), bullets plain.
            let markerRole: TerminalRole = l.type == .ordered ? .listNumber : .listMarker
            let markerLine: Line = [Seg(marker, body.merged(TerminalStyleTable.style(markerRole)))]
            let lines: [Line]
            if width - mw >= min(10, width) {
                lines = hang(blocks(item.blocks, width: width - mw, tight: l.tight), marker: markerLine, width: width)
            } else {
                lines = [markerLine] + blocks(item.blocks, width: width, tight: l.tight)
            }
            if !out.isEmpty && !l.tight { out.append([]) }
            out += lines
        }
        return out
    }
}
