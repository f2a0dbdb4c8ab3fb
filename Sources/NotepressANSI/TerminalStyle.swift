import NotepressPlatform
import NotepressThemes

/// Where a style's foreground colour comes from.
package enum TerminalColor: Sendable, Equatable, Hashable {
    /// A colour the theme names (``ThemeColors``), with the 16-colour SGR code (30–37, 90–97) used
    /// at ``ColorDepth/ansi16``.
    case theme(ThemeColorName, ansi16: Int)
    /// A fixed colour, with its 16-colour SGR code.
    case fixed(RGBColor, ansi16: Int)
}

/// The theme colours a terminal style can use (fields of ``ThemeColors``).
package enum ThemeColorName: String, Sendable, Equatable, Hashable {
    case alert, link, secondary, letterpressShadow
}

/// SGR attributes plus an optional colour: one entry of ``TerminalStyleTable``.
package struct TerminalStyle: Sendable, Equatable, Hashable {
    /// SGR 1.
    package var bold = false
    /// SGR 2 (faint).
    package var dim = false
    /// SGR 3.
    package var italic = false
    /// SGR 4.
    package var underline = false
    /// SGR 9 (crossed-out).
    package var strikethrough = false
    /// SGR 7 (reverse video): `==highlighted==` text.
    package var reverse = false
    /// Foreground colour (SGR 30–37/90–97, 38;5;N or 38;2;R;G;B by depth); `nil` = default.
    package var color: TerminalColor?

    package init(bold: Bool = false, dim: Bool = false, italic: Bool = false, underline: Bool = false,
                strikethrough: Bool = false, reverse: Bool = false, color: TerminalColor? = nil) {
        self.bold = bold; self.dim = dim; self.italic = italic; self.underline = underline
        self.strikethrough = strikethrough; self.reverse = reverse; self.color = color
    }

    /// Attributes of both; `other`'s colour wins when it has one.
    package func merged(_ other: TerminalStyle) -> TerminalStyle {
        TerminalStyle(bold: bold || other.bold, dim: dim || other.dim, italic: italic || other.italic,
                      underline: underline || other.underline, strikethrough: strikethrough || other.strikethrough,
                      reverse: reverse || other.reverse, color: other.color ?? color)
    }

    /// No attribute and no colour: written without any SGR.
    package var isPlain: Bool { self == TerminalStyle() }
}

/// Every role and inline attribute the terminal emitter styles: block roles (`heading1`,
/// `heading2`, `heading3` for headings 1–3, `headline` for headings 4–6, titles and the
/// `headline` text style, `subheadline`, `body`, `caption` for the date), inline attributes
/// (``InlineAttributes`` flags, `tag` for a hashtag (the link colour, not underlined),
/// `linkURL` for a URL shown after its link text, `letterpressShadow`
/// for the line under letterpress text) and drawing (`quoteBar`, `listMarker` for bullets,
/// `listNumber` for the numbers of ordered lists, `tableBorder`, `tableHeader`, `rule` for
/// thematic breaks and the footnote separator, `headingRule` for the rules under headings 1 and 2).
/// The order of cases is the merge order of inline styles.
///
/// Heading hierarchy (a terminal has one size): heading 1 bold with a heavy rule `━` under it,
/// heading 2 bold with a light rule `─`, heading 3 and below bold; all after their `#` marks.
package enum TerminalRole: String, Sendable, Equatable, Hashable, CaseIterable {
    case heading1, heading2, heading3, headline, subheadline, body, caption
    case strong, emphasis, script, strikethrough, link, tag, linkURL, code, alert, image
    case letterpress, letterpressShadow, marker, footnoteReference, highlight
    case quoteBar, listMarker, listNumber, tableBorder, tableHeader, rule, headingRule

    /// The role of a heading of `level`: `heading1`…`heading3`, `headline` below.
    package static func heading(_ level: Int) -> TerminalRole {
        switch level {
        case ...1: .heading1
        case 2: .heading2
        case 3: .heading3
        default: .headline
        }
    }
}

/// The declarative style table (as lowdown keeps its terminal styles as data): one entry per role
/// or inline attribute → SGR attributes (ECMA-48 §8.3.117: 1 bold, 2 faint, 3 italic,
/// 4 underline, 9 crossed-out) and colour. Inline styles merge over the block's base style in the
/// order of ``TerminalRole/allCases``, so later roles' colours win (alert over code over link).
///
/// `body` is not listed: it is bold exactly when the theme's body weight is bold, which the Bold
/// Text setting (`--bold-text`) turns on (``FontWeight/steppedUp``). `script` is the theme's
/// (``Theme/terminalScript``: italic and a colour by default, so that it differs from
/// `_italic_`); the entry here is what it falls back to (``style(_:theme:)``).
package enum TerminalStyleTable {
    /// Role → style. A role without an entry is plain.
    package static let entries: [TerminalRole: TerminalStyle] = [
        .heading1: TerminalStyle(bold: true),
        .heading2: TerminalStyle(bold: true),
        .heading3: TerminalStyle(bold: true),
        .headline: TerminalStyle(bold: true),
        .subheadline: TerminalStyle(bold: true),
        .caption: TerminalStyle(dim: true),
        .strong: TerminalStyle(bold: true),
        .emphasis: TerminalStyle(italic: true),
        .script: TerminalStyle(italic: true),
        .strikethrough: TerminalStyle(strikethrough: true),
        .code: TerminalStyle(color: .fixed(RGBColor(red: 0x2a, green: 0xa1, blue: 0x98), ansi16: 36)),
        .link: TerminalStyle(underline: true, color: .theme(.link, ansi16: 34)),
        .tag: TerminalStyle(color: .theme(.link, ansi16: 34)),
        .linkURL: TerminalStyle(dim: true),
        .alert: TerminalStyle(color: .theme(.alert, ansi16: 31)),
        .image: TerminalStyle(italic: true),
        .letterpress: TerminalStyle(bold: true),
        .letterpressShadow: TerminalStyle(dim: true, color: .theme(.letterpressShadow, ansi16: 90)),
        .marker: TerminalStyle(dim: true),
        .highlight: TerminalStyle(reverse: true),
        .footnoteReference: TerminalStyle(dim: true),
        .quoteBar: TerminalStyle(dim: true, color: .theme(.secondary, ansi16: 90)),
        .listMarker: TerminalStyle(),
        .listNumber: TerminalStyle(bold: true),
        .tableBorder: TerminalStyle(dim: true),
        .tableHeader: TerminalStyle(bold: true),
        .rule: TerminalStyle(dim: true),
        .headingRule: TerminalStyle(),
    ]

    /// The entry for `role` (plain when absent).
    package static func style(_ role: TerminalRole) -> TerminalStyle { entries[role] ?? TerminalStyle() }

    /// The style of `role` in `theme`: the theme's where it gives one (`script`), else the entry.
    package static func style(_ role: TerminalRole, theme: Theme) -> TerminalStyle {
        guard role == .script else { return style(role) }
        let t = theme.terminalScript
        let color = t.color.map { TerminalColor.fixed($0, ansi16: t.ansi16 ?? 39) }
        return TerminalStyle(bold: t.bold, dim: t.dim, italic: t.italic, underline: t.underline, color: color)
    }
}

/// Turns a ``TerminalStyle`` into an SGR sequence for a depth and theme.
struct SGR {
    var depth: ColorDepth
    var colors: ThemeColors

    /// `ESC [ 0 ; … m` that sets exactly `style` (starting from a reset), or "" for none.
    func sequence(_ style: TerminalStyle) -> String {
        guard depth != .none else { return "" }
        var p = ["0"]
        if style.bold { p.append("1") }
        if style.dim { p.append("2") }
        if style.italic { p.append("3") }
        if style.underline { p.append("4") }
        if style.reverse { p.append("7") }
        if style.strikethrough { p.append("9") }
        if let c = style.color { p.append(color(c)) }
        return "\u{1B}[" + p.joined(separator: ";") + "m"
    }

    var reset: String { depth == .none ? "" : "\u{1B}[0m" }

    func color(_ c: TerminalColor) -> String {
        let rgb: RGBColor, code16: Int
        switch c {
        case .fixed(let r, let a): rgb = r; code16 = a
        case .theme(let name, let a):
            code16 = a
            switch name {
            case .alert: rgb = colors.alert
            case .link: rgb = colors.link
            case .secondary: rgb = colors.secondary
            case .letterpressShadow: rgb = colors.letterpressShadow
            }
        }
        switch depth {
        case .none: return ""
        case .ansi16: return String(code16)
        case .ansi256: return "38;5;\(Self.xterm256(rgb))"
        case .truecolor: return "38;2;\(rgb.red);\(rgb.green);\(rgb.blue)"
        }
    }

    /// The nearest entry of the xterm 6×6×6 colour cube (indices 16–231) or grey ramp (232–255).
    static func xterm256(_ c: RGBColor) -> Int {
        let levels = [0, 95, 135, 175, 215, 255]
        func nearest(_ v: UInt8) -> Int {
            var best = 0
            for i in 1..<6 where abs(levels[i] - Int(v)) < abs(levels[best] - Int(v)) { best = i }
            return best
        }
        let r = nearest(c.red), g = nearest(c.green), b = nearest(c.blue)
        let cube = 16 + 36 * r + 6 * g + b
        let dc = sq(levels[r] - Int(c.red)) + sq(levels[g] - Int(c.green)) + sq(levels[b] - Int(c.blue))
        let avg = (Int(c.red) + Int(c.green) + Int(c.blue)) / 3
        let gi = min(max((avg - 8 + 5) / 10, 0), 23)
        let gv = 8 + 10 * gi
        let dg = sq(gv - Int(c.red)) + sq(gv - Int(c.green)) + sq(gv - Int(c.blue))
        return dg < dc ? 232 + gi : cube
    }

    private static func sq(_ x: Int) -> Int { x * x }
}

/// Whether and how deep to colour, from `--color` and the environment.
///
/// `TERM=dumb` also turns `auto` colour off.
///
/// Sources: NO_COLOR (no-color.org: a non-empty value turns colour off), CLICOLOR_FORCE
/// (bixense.com/clicolors: non-empty and not "0" forces colour), FORCE_COLOR (as Node.js and
/// chalk read it: non-empty and not "0" forces colour), COLORTERM `truecolor`/`24bit` for direct
/// colour, TERM containing `256color` for 256 colours; otherwise 16 colours.
package enum ColorPolicy {
    /// Where ANSI text goes, for ``documentDepth(mode:output:environment:)``.
    package enum Destination: Sendable, Equatable {
        /// Standard output is a terminal.
        case terminal
        /// Standard output is a pipe or a file the shell opened (`| less -R`, `> x.ans`).
        case standardOutput
        /// A file named by `-o` (or written into an output folder).
        case file
    }

    /// The colour of `notepress view`: the terminal rule of ls(1) and grep(1).
    /// - Parameters:
    ///   - mode: `auto`, `always` or `never` (anything else is treated as `auto`).
    ///   - isTTY: whether standard output is a terminal.
    /// - Returns: `.none` when colour is off; else the depth COLORTERM/TERM advertise.
    package static func depth(mode: String, isTTY: Bool, environment: [String: String]) -> ColorDepth {
        switch mode {
        case "never": return .none
        case "always": break
        default:
            if forced(environment) { break }
            if !(environment["NO_COLOR"] ?? "").isEmpty || !isTTY { return .none }
            if environment["TERM"] == "dumb" { return .none }
        }
        return advertisedDepth(environment)
    }

    /// The colour of `notepress convert -t ansi`: ANSI text was asked for, so `auto` colours
    /// wherever it goes, unless NO_COLOR is set (no-color.org; CLICOLOR_FORCE or FORCE_COLOR
    /// still force it) or it goes to a `TERM=dumb` terminal. The depth: on standard output the one
    /// COLORTERM/TERM advertise (the text is shown here: `| less -R`); in files always
    /// ``ColorDepth/ansi256`` (xterm's 256 colours, which every terminal emulator in use
    /// and `less -R` show), so the bytes do not depend on the terminal that ran the conversion.
    package static func documentDepth(mode: String, output: Destination, environment: [String: String]) -> ColorDepth {
        switch mode {
        case "never": return .none
        case "always": break
        default:
            if forced(environment) { break }
            if !(environment["NO_COLOR"] ?? "").isEmpty { return .none }
            if output == .terminal && environment["TERM"] == "dumb" { return .none }
        }
        return output == .file ? .ansi256 : advertisedDepth(environment)
    }

    /// Whether the terminal says it draws on a dark background: `COLORFGBG` (set by rxvt,
    /// Konsole and others: `FG;BG` or `FG;X;BG`) whose last field is a dark colour of the 16
    /// (0–6 or 8). Unset or unreadable: `false` (highlighted code keeps the light palette).
    package static func darkBackground(_ environment: [String: String]) -> Bool {
        guard let v = environment["COLORFGBG"], let last = v.split(separator: ";").last, let bg = Int(last) else { return false }
        return (0...6).contains(bg) || bg == 8
    }

    /// CLICOLOR_FORCE or FORCE_COLOR non-empty and not "0".
    static func forced(_ environment: [String: String]) -> Bool {
        ["CLICOLOR_FORCE", "FORCE_COLOR"].contains { k in !(environment[k] ?? "").isEmpty && environment[k] != "0" }
    }

    /// COLORTERM `truecolor`/`24bit`: direct colour; TERM containing `256color`: 256; else 16.
    static func advertisedDepth(_ environment: [String: String]) -> ColorDepth {
        let colorterm = (environment["COLORTERM"] ?? "").lowercased()
        if colorterm == "truecolor" || colorterm == "24bit" { return .truecolor }
        if (environment["TERM"] ?? "").contains("256color") { return .ansi256 }
        return .ansi16
    }

    /// OSC 8 hyperlinks for `--hyperlinks auto|always|never`: `auto` is on when colour is on,
    /// standard output is a terminal, and that terminal is known to show them
    /// (``terminalShowsHyperlinks(_:)``). Elsewhere a link's URL is printed after its text.
    package static func hyperlinks(mode: String, colorDepth: ColorDepth, isTTY: Bool,
                                  environment: [String: String]) -> Bool {
        switch mode {
        case "always": return true
        case "never": return false
        default: return colorDepth != .none && isTTY && terminalShowsHyperlinks(environment)
        }
    }

    /// Whether the terminal the environment describes shows OSC 8 hyperlinks (the allow-list of
    /// the supports-hyperlinks package, which gh and many Node tools use, plus tmux and foot).
    /// A terminal that does not know OSC 8 drops the sequence and the link target with it, so
    /// only these count:
    /// - `FORCE_HYPERLINK` non-empty and not `0`: yes (`0`: no);
    /// - inside tmux (`TMUX` set, or `TERM_PROGRAM=tmux`): only tmux 3.4 or later
    ///   (`TERM_PROGRAM_VERSION`), which passes OSC 8 on; inside GNU screen (`STY` set, or `TERM`
    ///   `screen…` without tmux): no;
    /// - `TERM_PROGRAM` `iTerm.app` 3.1 or later, `WezTerm` 20200620 or later, `vscode` 1.72 or
    ///   later, `ghostty`; `WT_SESSION` (Windows Terminal); `VTE_VERSION` 5000 or later (GNOME
    ///   Terminal, Tilix and other VTE terminals; 0.50.1); `KONSOLE_VERSION` 201200 or later;
    ///   `TERM` `xterm-kitty`, `alacritty`, `foot` or `foot-…`, `xterm-ghostty`;
    /// - anything else (xterm, the Linux console, `TERM=dumb`, unknown terminals): no.
    package static func terminalShowsHyperlinks(_ environment: [String: String]) -> Bool {
        if let f = environment["FORCE_HYPERLINK"], !f.isEmpty { return f != "0" }
        let term = environment["TERM"] ?? ""
        let program = environment["TERM_PROGRAM"] ?? ""
        let programVersion = versionNumbers(environment["TERM_PROGRAM_VERSION"] ?? "")
        if environment["TMUX"] != nil || program == "tmux" {
            return program == "tmux" && programVersion.lexicographicallyPrecedes([3, 4]) == false
        }
        if environment["STY"] != nil || term.hasPrefix("screen") { return false }
        switch program {
        case "iTerm.app": return !programVersion.lexicographicallyPrecedes([3, 1])
        case "WezTerm": return (programVersion.first ?? 0) >= 20_200_620
        case "vscode": return !programVersion.lexicographicallyPrecedes([1, 72])
        case "ghostty": return true
        default: break
        }
        if environment["WT_SESSION"] != nil { return true }
        if let vte = environment["VTE_VERSION"].flatMap(Int.init) { return vte >= 5000 }
        if let konsole = environment["KONSOLE_VERSION"].flatMap(Int.init) { return konsole >= 201_200 }
        return term == "xterm-kitty" || term == "alacritty" || term == "foot" || term.hasPrefix("foot-")
            || term == "xterm-ghostty"
    }

    /// The numbers of a version string: `3.3a` → [3, 3]; `20230712-072601-f4abf8fd` → [20230712].
    static func versionNumbers(_ s: String) -> [Int] {
        var out: [Int] = []
        for part in s.split(separator: ".") {
            let digits = part.prefix { $0.isASCII && $0.isNumber }
            guard let n = Int(digits) else { break }
            out.append(n)
            if digits.count != part.count { break }
        }
        return out
    }
}

/// The size of the terminal.
package enum TerminalSize {
    /// Width in columns: `TIOCGWINSZ` on `fd` when it is a terminal (tty_ioctl(4)), else the
    /// `COLUMNS` variable when it is a positive integer, else 80.
    package static func columns(environment: [String: String], fd: Int32) -> Int {
        if let ws = Platform.terminalSize(fd), ws.columns > 0 { return ws.columns }
        if let c = environment["COLUMNS"].flatMap(Int.init), c > 0 { return c }
        return 80
    }

    /// Height in lines: `TIOCGWINSZ` rows, else `LINES`, else 24.
    package static func rows(environment: [String: String], fd: Int32) -> Int {
        if let ws = Platform.terminalSize(fd), ws.rows > 0 { return ws.rows }
        if let c = environment["LINES"].flatMap(Int.init), c > 0 { return c }
        return 24
    }
}
