import Foundation

extension AttributeScopes {
    /// The attributes of ``Document/attributedString(theme:sizeCategory:)``:
    /// `attributed.runs[i].notepress.strong`, `run.textStyle`, … (after `import Notepress`, through
    /// `AttributeDynamicLookup`).
    public var notepress: NotepressAttributes.Type { NotepressAttributes.self }

    /// What a run of a note is, for apps that draw notes themselves (a Text Kit view, a SwiftUI
    /// `Text`): the document's inline spans flattened onto each run (``strong`` … ``tag``, the
    /// values of ``InlineAttributes``), the theme's text style and size, and the
    /// block the run belongs to (``blockKind``, ``headingLevel``, ``listItem``, ``quoteDepth``,
    /// ``alert``). Attributes that do not apply are absent (`nil`), never `false`. Foundation's
    /// attributes are included (``foundation``): runs also carry `inlinePresentationIntent`.
    public struct NotepressAttributes: AttributeScope {
        /// The Dynamic Type text style: an inline text-style span's, else the block's
        /// (``ThemeRole``: body, heading 1 → title1, code → footnote, …).
        public let textStyle: TextStyleAttribute
        /// The font size in points of ``textStyle`` at the size category asked for.
        public let pointSize: PointSizeAttribute
        /// Inside a strong span (`**bold**`, note markup `*bold*`).
        public let strong: StrongAttribute
        /// Inside an emphasis span (`*italic*`, note markup `_italic_`).
        public let emphasis: EmphasisAttribute
        /// Inside a strikethrough span (`~~struck~~`, note markup `-struck-`).
        public let strikethrough: StrikethroughAttribute
        /// Inside note markup's `~script~` span (the theme's script font).
        public let script: ScriptAttribute
        /// Code: an inline code span or a code block (literal text, monospaced).
        public let code: CodeAttribute
        /// Text pressed into the page (Text Kit's letterpress effect): the note's title.
        public let letterpress: LetterpressAttribute
        /// A note-markup delimiter kept visible (the editor's view of `*`, `_`, …).
        public let marker: MarkerAttribute
        /// A semantic colour the theme gives (note markup's ALL-CAPS words: ``ColorRole/alert``).
        public let colorRole: ColorRoleAttribute
        /// The innermost link around the run: destination and title. Links whose scheme is
        /// dangerous (`javascript:`, `vbscript:`, `file:`, non-image `data:`) are left out.
        public let hyperlink: HyperlinkAttribute
        /// The image whose description (alt text) the run is: source and title.
        public let image: ImageAttribute
        /// The hashtag the run is part of, its name without `#` (`--hashtags`).
        public let tag: TagAttribute
        /// A footnote reference: the run is the note's number.
        public let footnoteReference: FootnoteReferenceAttribute
        /// The kind of block the run belongs to (its innermost leaf block).
        public let blockKind: BlockKindAttribute
        /// The level (1…6) of the heading the run belongs to.
        public let headingLevel: HeadingLevelAttribute
        /// The innermost list item the run belongs to.
        public let listItem: ListItemAttribute
        /// The run is a list item's marker (`1. `, `• `, `☐ `), not its content.
        public let listMarker: ListMarkerAttribute
        /// How many block quotes enclose the run (absent outside quotes).
        public let quoteDepth: QuoteDepthAttribute
        /// The GitHub alert (note, tip, important, warning, caution) the run belongs to.
        public let alert: AlertAttribute
        /// The label of the footnote definition the run belongs to.
        public let footnote: FootnoteAttribute
        /// Foundation's attributes (`inlinePresentationIntent`, `link`, …).
        public let foundation: FoundationAttributes

        /// A block kind: ``NotepressAttributes/blockKind``.
        public enum BlockKind: String, Sendable, Hashable, CaseIterable {
            /// The note's title line (front matter `title`), when the title is written.
            case title
            /// A paragraph (of a list item, quote, alert or footnote too).
            case paragraph
            /// A heading (``NotepressAttributes/headingLevel`` says which).
            case heading
            /// A code block's literal text.
            case codeBlock
            /// A header cell of a table.
            case tableHeader
            /// A body cell of a table.
            case tableCell
            /// A thematic break, written as a line of three em dashes.
            case thematicBreak
            /// An alert's title line (`Note`, `Warning`, …).
            case alertTitle
        }

        /// A list item: ``NotepressAttributes/listItem``.
        public struct ListItem: Sendable, Hashable {
            /// Ordered (numbered) or bullet.
            public var type: ListBlock.ListType
            /// The item's number in an ordered list; `nil` in a bullet list.
            public var number: Int?
            /// 1 for an item of a top-level list, 2 for a list inside it, …
            public var depth: Int
            /// A task list item's box, if any.
            public var task: NotepressAST.ListItem.TaskState?

            /// An item of a list of `type`, numbered `number`, at `depth`, with an optional task box.
            public init(type: ListBlock.ListType, number: Int?, depth: Int, task: NotepressAST.ListItem.TaskState? = nil) {
                self.type = type
                self.number = number
                self.depth = depth
                self.task = task
            }
        }

        /// ``textStyle``'s key.
        public enum TextStyleAttribute: AttributedStringKey {
            /// A Dynamic Type style.
            public typealias Value = NotepressAST.TextStyle
            /// `Notepress.textStyle`.
            public static let name = "Notepress.textStyle"
        }
        /// ``pointSize``'s key.
        public enum PointSizeAttribute: AttributedStringKey {
            /// Points (1/72 inch).
            public typealias Value = Double
            /// `Notepress.pointSize`.
            public static let name = "Notepress.pointSize"
        }
        /// ``strong``'s key.
        public enum StrongAttribute: AttributedStringKey {
            /// Always `true` when present.
            public typealias Value = Bool
            /// `Notepress.strong`.
            public static let name = "Notepress.strong"
        }
        /// ``emphasis``'s key.
        public enum EmphasisAttribute: AttributedStringKey {
            /// Always `true` when present.
            public typealias Value = Bool
            /// `Notepress.emphasis`.
            public static let name = "Notepress.emphasis"
        }
        /// ``strikethrough``'s key.
        public enum StrikethroughAttribute: AttributedStringKey {
            /// Always `true` when present.
            public typealias Value = Bool
            /// `Notepress.strikethrough`.
            public static let name = "Notepress.strikethrough"
        }
        /// ``script``'s key.
        public enum ScriptAttribute: AttributedStringKey {
            /// Always `true` when present.
            public typealias Value = Bool
            /// `Notepress.script`.
            public static let name = "Notepress.script"
        }
        /// ``code``'s key.
        public enum CodeAttribute: AttributedStringKey {
            /// Always `true` when present.
            public typealias Value = Bool
            /// `Notepress.code`.
            public static let name = "Notepress.code"
        }
        /// ``letterpress``'s key.
        public enum LetterpressAttribute: AttributedStringKey {
            /// Always `true` when present.
            public typealias Value = Bool
            /// `Notepress.letterpress`.
            public static let name = "Notepress.letterpress"
        }
        /// ``marker``'s key.
        public enum MarkerAttribute: AttributedStringKey {
            /// Always `true` when present.
            public typealias Value = Bool
            /// `Notepress.marker`.
            public static let name = "Notepress.marker"
        }
        /// ``colorRole``'s key.
        public enum ColorRoleAttribute: AttributedStringKey {
            /// The role; the theme's ``ThemeColors`` give its colour.
            public typealias Value = NotepressAST.ColorRole
            /// `Notepress.colorRole`.
            public static let name = "Notepress.colorRole"
        }
        /// ``hyperlink``'s key.
        public enum HyperlinkAttribute: AttributedStringKey {
            /// Destination and title as written.
            public typealias Value = NotepressAST.Link
            /// `Notepress.hyperlink`.
            public static let name = "Notepress.hyperlink"
        }
        /// ``image``'s key.
        public enum ImageAttribute: AttributedStringKey {
            /// Source and title as written.
            public typealias Value = NotepressAST.Link
            /// `Notepress.image`.
            public static let name = "Notepress.image"
        }
        /// ``tag``'s key.
        public enum TagAttribute: AttributedStringKey {
            /// The hashtag's name without `#`.
            public typealias Value = String
            /// `Notepress.tag`.
            public static let name = "Notepress.tag"
        }
        /// ``footnoteReference``'s key.
        public enum FootnoteReferenceAttribute: AttributedStringKey {
            /// The note's number (1-based, in order of first reference).
            public typealias Value = Int
            /// `Notepress.footnoteReference`.
            public static let name = "Notepress.footnoteReference"
        }
        /// ``blockKind``'s key.
        public enum BlockKindAttribute: AttributedStringKey {
            /// The kind.
            public typealias Value = BlockKind
            /// `Notepress.blockKind`.
            public static let name = "Notepress.blockKind"
        }
        /// ``headingLevel``'s key.
        public enum HeadingLevelAttribute: AttributedStringKey {
            /// 1…6.
            public typealias Value = Int
            /// `Notepress.headingLevel`.
            public static let name = "Notepress.headingLevel"
        }
        /// ``listItem``'s key.
        public enum ListItemAttribute: AttributedStringKey {
            /// The item.
            public typealias Value = ListItem
            /// `Notepress.listItem`.
            public static let name = "Notepress.listItem"
        }
        /// ``listMarker``'s key.
        public enum ListMarkerAttribute: AttributedStringKey {
            /// Always `true` when present.
            public typealias Value = Bool
            /// `Notepress.listMarker`.
            public static let name = "Notepress.listMarker"
        }
        /// ``quoteDepth``'s key.
        public enum QuoteDepthAttribute: AttributedStringKey {
            /// 1 or more.
            public typealias Value = Int
            /// `Notepress.quoteDepth`.
            public static let name = "Notepress.quoteDepth"
        }
        /// ``alert``'s key.
        public enum AlertAttribute: AttributedStringKey {
            /// The alert's kind.
            public typealias Value = Alert.Kind
            /// `Notepress.alert`.
            public static let name = "Notepress.alert"
        }
        /// ``footnote``'s key.
        public enum FootnoteAttribute: AttributedStringKey {
            /// The definition's label as written between `[^` and `]`.
            public typealias Value = String
            /// `Notepress.footnote`.
            public static let name = "Notepress.footnote"
        }
    }
}

extension AttributeDynamicLookup {
    /// `run.strong`, `container.textStyle`, …: the `AttributeScopes.NotepressAttributes`
    /// by name.
    public subscript<T: AttributedStringKey>(dynamicMember keyPath: KeyPath<AttributeScopes.NotepressAttributes, T>) -> T {
        self[T.self]
    }
}
