/// How many colours a terminal shows, which decides the escape sequences terminal output
/// (``OutputFormat/ansi``) writes for the theme's colours and styles. The one colour-depth type of
/// the package: the command line picks it from `--color`, `NO_COLOR`, `COLORTERM` and `TERM`; a
/// library caller sets ``ConversionOptions/colorDepth`` (default ``none``: plain text).
public enum ColorDepth: String, Sendable, Equatable, Hashable, CaseIterable {
    /// No escape sequences at all: plain text.
    case none
    /// The 16 standard colours: SGR 30–37 and 90–97 (ECMA-48 §8.3.117).
    case ansi16
    /// The xterm 256-colour palette: SGR 38;5;N.
    case ansi256
    /// Direct 24-bit colour: SGR 38;2;R;G;B (ITU T.416 as terminals implement it).
    case truecolor
}
