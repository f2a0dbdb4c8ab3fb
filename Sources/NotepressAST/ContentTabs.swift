/// Content tabs (MkDocs' `pymdownx.tabbed`: `=== "Tab"`), as the Markdown reader gives them:
/// a ``Block/Kind/unknown(typeName:blocks:)`` block named ``set`` holding one such block per tab,
/// named ``tab`` (or ``selectedTab``, shown first), whose first block is a paragraph of the tab's
/// label in strong emphasis and whose other blocks are its content. Writers that know them draw
/// tabs (HTML); the others write each tab as its labelled content, without the warning an
/// unknown block gets.
public enum ContentTabs {
    /// The type name of a set of tabs.
    public static let set = "tabbed-set"
    /// The type name of a tab.
    public static let tab = "tab"
    /// The type name of the tab selected at first (`===+`).
    public static let selectedTab = "tab-selected"

    /// Whether an unknown block named `typeName` is part of content tabs (written without a warning).
    public static func isTabs(_ typeName: String) -> Bool {
        typeName == set || typeName == tab || typeName == selectedTab
    }
}
