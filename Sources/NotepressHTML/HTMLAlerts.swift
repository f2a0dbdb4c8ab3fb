import NotepressAST
import NotepressThemes

extension HTMLBodyWriter {
    /// An alert in GitHub's markup (`<div class="markdown-alert markdown-alert-KIND">` and its
    /// title); a foldable Obsidian callout is a `<details>` (closed for `-`, open for `+`) whose
    /// `<summary>` is the title. Obsidian's kinds beyond GitHub's five carry their colour (light
    /// and dark, ``AlertPalette``) on the element, so the shared stylesheet stays what it was.
    mutating func writeAlert(_ alert: Alert) {
        func put(_ s: String) { out.append(contentsOf: s.utf8) }
        cr()
        let element = alert.fold == nil ? "div" : "details"
        put("<" + element + " class=\"markdown-alert markdown-alert-" + alert.kind.rawValue + "\"")
        if !alert.kind.isGitHubAlert {
            put(" style=\"--np-alert-color: light-dark(" + AlertPalette.color(alert.kind).hex + ", "
                + AlertPalette.color(alert.kind, dark: true).hex + ")\"")
        }
        if alert.fold == .open { put(" open") }
        putDir(); put(">\n")
        // An empty title (MkDocs' `!!! tip ""`): no title bar (a folded one keeps its summary).
        if alert.fold != nil || !alert.displayTitle.isEmpty {
            put(alert.fold == nil ? "<p class=\"markdown-alert-title\"" : "<summary class=\"markdown-alert-title\"")
            putDir(); put(">")
            // A callout's title keeps its markup (`code`, **strong**, $math$, links).
            if let t = alert.markedTitle { inlines(t) } else { HTMLEscape.appendText(alert.displayTitle, to: &out) }
            put(alert.fold == nil ? "</p>\n" : "</summary>\n")
        }
        blocks(alert.blocks, tight: false)
        cr(); put("</" + element + ">\n")
    }
}
