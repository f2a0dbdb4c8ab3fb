import Notepress

/// `--highlight-style NAME` and `--no-highlight` of `convert` and `view` (``Commands/highlightOptions``).
enum HighlightArguments {
    /// Sets ``ConversionOptions/highlight`` and, for `--highlight-style`, the library theme's
    /// palette in both appearances (the library is loaded now, so a bad name stops the run
    /// before anything is converted).
    /// - Throws: ``UsageError`` for an unknown style, a style with `--no-highlight`, or a style
    ///   when the library cannot be loaded.
    static func apply(_ a: Arguments, to options: inout ConversionOptions) throws {
        options.highlight = !a.flag("--no-highlight")
        guard let name = a.value("--highlight-style") else { return }
        if !options.highlight { throw UsageError("--highlight-style and --no-highlight contradict each other") }
        do {
            let palette = try Notepress.codePalette(libraryTheme: name)
            options.highlightStyle = palette.libraryTheme ?? name
            options.theme.theme.codeLight = palette
            options.theme.theme.codeDark = palette
        } catch {
            throw UsageError("\(error)")
        }
    }
}
