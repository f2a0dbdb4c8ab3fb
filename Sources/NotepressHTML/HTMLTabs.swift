import NotepressAST

extension HTMLBodyWriter {
    /// The style content tabs need, written once per document before its first set (in the
    /// page, so the site's shared stylesheet stays as it was): radio inputs pick the tab shown,
    /// CSS alone shows it (no script, no server), as MkDocs Material's tabs do.
    static let tabsStyle = """
    <style>.tabbed-set{display:flex;flex-wrap:wrap;margin:1em 0;border:1px solid color-mix(in srgb,currentColor 25%,transparent);border-radius:6px}\
    .tabbed-set>input{position:absolute;opacity:0;pointer-events:none}\
    .tabbed-set>label{order:1;padding:.4em .9em;cursor:pointer;border-bottom:2px solid transparent}\
    .tabbed-set>input:checked+label{border-bottom-color:currentColor;font-weight:bold}\
    .tabbed-set>input:focus-visible+label{outline:2px solid currentColor}\
    .tabbed-set>.tabbed-content{order:2;width:100%;display:none;padding:0 .9em;border-top:1px solid color-mix(in srgb,currentColor 25%,transparent)}\
    .tabbed-set>input:checked+label+.tabbed-content{display:block}</style>

    """

    /// A set of content tabs (``ContentTabs``): `<div class="tabbed-set">`, then per tab a radio
    /// input (`__tabbed_SET_TAB`, the set's name), its `<label>` (the tab's label) and
    /// `<div class="tabbed-content">` (its content). The first tab, or the one written `===+`,
    /// is checked.
    mutating func writeTabs(_ tabs: [Block]) {
        func put(_ s: String) { out.append(contentsOf: s.utf8) }
        cr()
        if tabSets == 0 { put(Self.tabsStyle) }
        tabSets += 1
        let set = "__tabbed_\(tabSets)"
        let selected = tabs.firstIndex { if case .unknown(ContentTabs.selectedTab, _) = $0.kind { return true }; return false } ?? 0
        put("<div class=\"tabbed-set\" data-tabs=\"\(tabSets):\(tabs.count)\">\n")
        for (k, tab) in tabs.enumerated() {
            guard case .unknown(_, let content) = tab.kind else { continue }
            let id = set + "_\(k + 1)"
            put("<input type=\"radio\" name=\"\(set)\" id=\"\(id)\"" + (k == selected ? " checked" : "") + ">")
            put("<label for=\"\(id)\"")
            putDir(); put(">")
            if let first = content.first, case .paragraph(let label) = first.kind { inlines(Self.unwrappingStrong(label)) }
            put("</label>\n<div class=\"tabbed-content\">\n")
            blocks(Array(content.dropFirst()), tight: false)
            cr(); put("</div>\n")
        }
        put("</div>\n")
    }

    /// A tab's label without the strong span the reader wraps it in (the checked tab's label is
    /// bold by the style).
    static func unwrappingStrong(_ label: Inlines) -> Inlines {
        guard let first = label.spans.first, first.kind == .strong, first.parent == nil,
              label.runs.allSatisfy({ $0.span != nil }), label.spans.dropFirst().allSatisfy({ $0.parent != nil }) else { return label }
        let spans = label.spans.dropFirst().map { s -> InlineSpan in
            var s = s
            s.parent = s.parent.flatMap { $0 == 0 ? nil : $0 - 1 }
            return s
        }
        let runs = label.runs.map { r -> InlineRun in
            var r = r
            r.span = r.span.flatMap { $0 == 0 ? nil : $0 - 1 }
            return r
        }
        return Inlines(runs: runs, spans: Array(spans))
    }
}
