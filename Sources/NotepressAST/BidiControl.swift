/// The Unicode bidirectional formatting characters that open a state lasting until a matching
/// close (Unicode Standard Annex #9, "Unicode Bidirectional Algorithm", §2.1–2.2): the
/// embeddings and overrides U+202A LRE, U+202B RLE, U+202C PDF, U+202D LRO, U+202E RLO and the
/// isolates U+2066 LRI, U+2067 RLI, U+2068 FSI, U+2069 PDI. A terminal or pager that gets an
/// unclosed one reorders everything after it on the line (our own table borders and text:
/// `photo\u{202E}gnp.exe` shows as `photoexe.png`, CVE-2021-42574 "Trojan Source"), so the
/// terminal and roff escapers (``TerminalText`` in NotepressANSI, `RoffEscaper` in NotepressMan)
/// write each as ``visible(_:)`` instead, as they write control characters visibly.
///
/// The marks U+200E LRM, U+200F RLM and U+061C ALM are not in the set: they set no state.
package enum BidiControl {
    /// Whether `u` is one of the nine embedding, override and isolate controls.
    package static func contains(_ u: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(u.value) || (0x2066...0x2069).contains(u.value)
    }

    /// The visible stand-in of a control: its code point as Unicode writes it, in angle
    /// brackets (`<U+202E>`), eight ASCII columns.
    package static func visible(_ u: Unicode.Scalar) -> String {
        "<U+" + String(u.value, radix: 16, uppercase: true) + ">"
    }
}
