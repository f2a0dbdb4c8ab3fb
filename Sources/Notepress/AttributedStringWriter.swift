import Foundation
import NotepressAST
import NotepressRawHTML
import NotepressThemes
#if canImport(UIKit)
import UIKit
#elseif canImport(AppKit)
import AppKit
#endif

extension Document {
    /// The document as an `AttributedString` for a text view, as the Text Kit note app shows a
    /// note: one line per paragraph (`\n` ends each block; a hard line break inside a paragraph is
    /// U+2028 LINE SEPARATOR), the title first when the metadata has one, list items after their
    /// marker (`1. `, `• `, `☐ `/`☑ ` for tasks), table rows with their cells separated by tabs,
    /// code blocks verbatim. Raw HTML is left out, dangerous links are not links (one rule for
    /// every format, as without `--unsafe`).
    ///
    /// Every run carries `AttributeScopes.NotepressAttributes`: its inline spans
    /// (strong, emphasis, …, exactly the AST's: a round trip gives them back), its text style and
    /// point size at `sizeCategory` in `theme`, and its block; and Foundation's
    /// `inlinePresentationIntent` (strong → `.stronglyEmphasized`, emphasis → `.emphasized`,
    /// code → `.code`, strikethrough → `.strikethrough`). On Apple platforms each run also gets
    /// the platform font of its text style (UIKit's or AppKit's `preferredFont(forTextStyle:)`,
    /// bold and italic applied), so a `UITextView`, `NSTextView` or SwiftUI `Text` shows it as is.
    /// Linear in the document's size.
    /// - Parameters:
    ///   - theme: maps blocks to text styles and gives point sizes (default ``Theme/default``).
    ///   - sizeCategory: the content size category the sizes are for (default Large).
    public func attributedString(theme: Theme = .default, sizeCategory: SizeCategory = .large) -> AttributedString {
        var builder = AttributedStringBuilder(theme: theme.resolved(category: sizeCategory))
        if let title = metadata.title, !title.isEmpty, metadata.titleSource != .firstHeading {
            var c = builder.container(role: .noteTitle, block: .title)
            c[AttributeScopes.NotepressAttributes.LetterpressAttribute.self] = true
            builder.append(title + "\n", c)
        }
        for block in RawHTMLReading.reading(self).blocks { builder.write(block, context: .init()) }
        return builder.result
    }
}

/// Builds ``Document/attributedString(theme:sizeCategory:)``: blocks in order, each run's
/// attributes from the block context and the paragraph's ``InlineAttributeTable``.
struct AttributedStringBuilder {
    typealias Scope = AttributeScopes.NotepressAttributes
    let theme: ResolvedTheme
    var result = AttributedString()

    init(theme: ResolvedTheme) { self.theme = theme }

    /// What encloses a block: quotes, the innermost list item, an alert, a footnote definition.
    struct Context {
        var quoteDepth = 0
        var listDepth = 0
        var listItem: Scope.ListItem?
        var alert: Alert.Kind?
        var footnote: String?
        var headingLevel: Int?
        var role: ThemeRole = .body
    }

    /// Appends `text` with `attributes`.
    mutating func append(_ text: String, _ attributes: AttributeContainer) {
        result.append(AttributedString(text, attributes: attributes))
    }

    /// The attributes of a run in `role`'s text style inside a `block` of `context`.
    func container(role: ThemeRole, block: Scope.BlockKind?, context: Context = Context(),
                   inline: InlineAttributes = InlineAttributes()) -> AttributeContainer {
        var c = AttributeContainer()
        let style = inline.textStyle ?? theme.textStyle(for: role)
        c[Scope.TextStyleAttribute.self] = style
        c[Scope.PointSizeAttribute.self] = theme.style(style).size
        if let block { c[Scope.BlockKindAttribute.self] = block }
        if context.quoteDepth > 0 { c[Scope.QuoteDepthAttribute.self] = context.quoteDepth }
        c[Scope.ListItemAttribute.self] = context.listItem
        c[Scope.AlertAttribute.self] = context.alert
        c[Scope.FootnoteAttribute.self] = context.footnote
        c[Scope.HeadingLevelAttribute.self] = context.headingLevel
        if inline.strong { c[Scope.StrongAttribute.self] = true }
        if inline.emphasis { c[Scope.EmphasisAttribute.self] = true }
        if inline.strikethrough { c[Scope.StrikethroughAttribute.self] = true }
        if inline.script { c[Scope.ScriptAttribute.self] = true }
        if inline.code { c[Scope.CodeAttribute.self] = true }
        if inline.letterpress { c[Scope.LetterpressAttribute.self] = true }
        if inline.marker { c[Scope.MarkerAttribute.self] = true }
        c[Scope.ColorRoleAttribute.self] = inline.colorRole
        c[Scope.HyperlinkAttribute.self] = inline.link.flatMap { URLSafety.isDangerous($0.destination) ? nil : $0 }
        c[Scope.ImageAttribute.self] = inline.image
        c[Scope.TagAttribute.self] = inline.tag
        Self.applyPlatformAttributes(&c, style: theme.style(style), textStyle: style, category: theme.category, inline: inline)
        return c
    }

    /// Writes one block and what it contains.
    mutating func write(_ block: Block, context: Context) {
        switch block.kind {
        case .paragraph(let inlines):
            write(inlines, role: context.role, block: .paragraph, context: context)
        case .heading(let level, let inlines):
            var c = context
            c.role = .heading(level)
            c.headingLevel = level
            write(inlines, role: c.role, block: .heading, context: c)
        case .blockQuote(let children):
            var c = context
            c.quoteDepth += 1
            c.role = .blockQuote
            for b in children { write(b, context: c) }
        case .list(let list):
            for (i, item) in list.items.enumerated() {
                var c = context
                c.listDepth += 1
                let number = list.type == .ordered ? item.number ?? list.start + i : nil
                c.listItem = Scope.ListItem(type: list.type, number: number, depth: c.listDepth, task: item.task)
                var marker = container(role: .listMarker, block: nil, context: c)
                marker[Scope.ListMarkerAttribute.self] = true
                let box = item.task.map { $0 == .checked ? "\u{2611} " : "\u{2610} " } ?? ""
                append(String(repeating: "\t", count: c.listDepth - 1) + (number.map { "\($0). " } ?? "\u{2022} ") + box, marker)
                if item.blocks.isEmpty { append("\n", container(role: context.role, block: .paragraph, context: c)) }
                for b in item.blocks { write(b, context: c) }
            }
        case .codeBlock(_, let literal):
            var inline = InlineAttributes()
            inline.code = true
            let text = literal.hasSuffix("\n") || literal.isEmpty ? literal : literal + "\n"
            append(text.isEmpty ? "\n" : text, container(role: .code, block: .codeBlock, context: context, inline: inline))
        case .htmlBlock:
            break
        case .thematicBreak:
            append("\u{2014}\u{2014}\u{2014}\n", container(role: context.role, block: .thematicBreak, context: context))
        case .table(let table):
            for (r, row) in ([table.header] + table.rows).enumerated() {
                for (i, cell) in row.enumerated() {
                    if i > 0 { append("\t", container(role: r == 0 ? .tableHeader : .tableCell, block: r == 0 ? .tableHeader : .tableCell, context: context)) }
                    writeRun(cell, role: r == 0 ? .tableHeader : .tableCell, block: r == 0 ? .tableHeader : .tableCell, context: context)
                }
                append("\n", container(role: .tableCell, block: r == 0 ? .tableHeader : .tableCell, context: context))
            }
        case .footnoteDefinition(let label, let children):
            var c = context
            c.footnote = label
            c.role = .footnote
            for b in children { write(b, context: c) }
        case .alert(let alert):
            var c = context
            c.alert = alert.kind
            var inline = InlineAttributes()
            inline.strong = true
            append(alert.displayTitle + "\n", container(role: context.role, block: .alertTitle, context: c, inline: inline))
            for b in alert.blocks { write(b, context: c) }
        case .unknown(_, let children):
            for b in children { write(b, context: context) }
        case .definitionList(let items):
            // Each term a paragraph of its own, then its definitions' blocks.
            for item in items {
                write(item.term, role: context.role, block: .paragraph, context: context)
                for d in item.definitions { for b in d { write(b, context: context) } }
            }
        }
    }

    /// A paragraph-like block: its runs, then `\n`.
    mutating func write(_ inlines: Inlines, role: ThemeRole, block: Scope.BlockKind, context: Context) {
        writeRun(inlines, role: role, block: block, context: context)
        append("\n", container(role: role, block: block, context: context))
    }

    /// The runs of `inlines`, each with its flat attributes (``InlineAttributeTable``, built once).
    mutating func writeRun(_ inlines: Inlines, role: ThemeRole, block: Scope.BlockKind, context: Context) {
        let table = InlineAttributeTable(inlines)
        for run in inlines.runs {
            let attributes = table[run: run].attributes
            switch run.content {
            case .text(let t):
                append(t, container(role: role, block: block, context: context, inline: attributes))
            case .softBreak:
                append(" ", container(role: role, block: block, context: context, inline: attributes))
            case .hardBreak:
                append("\u{2028}", container(role: role, block: block, context: context, inline: attributes))
            case .footnoteReference(_, let number, _):
                var c = container(role: role, block: block, context: context, inline: attributes)
                c[Scope.FootnoteReferenceAttribute.self] = number
                append(String(number), c)
            case .rawHTML:
                break
            }
        }
    }

    /// On Apple platforms, Foundation's `inlinePresentationIntent` (which swift-corelibs-foundation
    /// lacks) and the platform font of `textStyle` at `category` (Dynamic Type's), bold and italic
    /// applied; nothing elsewhere. From the documented APIs: `InlinePresentationIntent`,
    /// `UIFont.preferredFont(forTextStyle:compatibleWith:)`, `NSFont.preferredFont(forTextStyle:)`.
    static func applyPlatformAttributes(_ c: inout AttributeContainer, style: ResolvedStyle, textStyle: NotepressAST.TextStyle,
                                        category: SizeCategory, inline: InlineAttributes) {
        #if canImport(UIKit) || canImport(AppKit)
        var intent: InlinePresentationIntent = []
        if inline.strong { intent.insert(.stronglyEmphasized) }
        if inline.emphasis { intent.insert(.emphasized) }
        if inline.code { intent.insert(.code) }
        if inline.strikethrough { intent.insert(.strikethrough) }
        if !intent.isEmpty { c.inlinePresentationIntent = intent }
        let index = NotepressAST.TextStyle.allCases.firstIndex(of: textStyle)!
        #endif
        #if canImport(UIKit)
        let styles: [UIFont.TextStyle] = [.largeTitle, .title1, .title2, .title3, .headline, .subheadline, .body, .footnote, .caption1, .caption2]
        let categories: [UIContentSizeCategory] = [.extraSmall, .small, .medium, .large, .extraLarge, .extraExtraLarge, .extraExtraExtraLarge,
                                                   .accessibilityMedium, .accessibilityLarge, .accessibilityExtraLarge,
                                                   .accessibilityExtraExtraLarge, .accessibilityExtraExtraExtraLarge]
        var font = UIFont.preferredFont(forTextStyle: styles[index],
                                        compatibleWith: UITraitCollection(preferredContentSizeCategory: categories[category.index]))
        var traits = font.fontDescriptor.symbolicTraits
        if inline.strong { traits.insert(.traitBold) }
        if inline.emphasis { traits.insert(.traitItalic) }
        if let d = font.fontDescriptor.withSymbolicTraits(traits) { font = UIFont(descriptor: d, size: 0) }
        c[AttributeScopes.UIKitAttributes.FontAttribute.self] = font
        #elseif canImport(AppKit)
        let styles: [NSFont.TextStyle] = [.largeTitle, .title1, .title2, .title3, .headline, .subheadline, .body, .footnote, .caption1, .caption2]
        let base = NSFont.preferredFont(forTextStyle: styles[index])
        var traits = base.fontDescriptor.symbolicTraits
        if inline.strong { traits.insert(.bold) }
        if inline.emphasis { traits.insert(.italic) }
        // AppKit has no content size categories: the theme's size for `category` stands in.
        let font = NSFont(descriptor: base.fontDescriptor.withSymbolicTraits(traits), size: style.size) ?? base
        c[AttributeScopes.AppKitAttributes.FontAttribute.self] = font
        #endif
    }
}
