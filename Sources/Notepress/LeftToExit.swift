/// Values a process that ends right after deliberately never frees.
///
/// Freeing a large tree node by node is a visible share of a one-document conversion (callgrind on
/// the 1 MB corpus: a sixth of the HTML run for the document, about a third of the TEI writer for
/// its XML tree). cmark-gfm's own program avoids the same cost with an arena it never frees; the
/// command line, converting one document (or one folder) and exiting, hands its last values to
/// ``leave(_:)``. Nothing is kept anywhere: the values are only never released, so this holds no
/// process-wide state. A long-running process (`--watch`, `serve`) and a library user never call
/// it, and their memory stays bounded per run; writers leave their intermediate trees only when
/// ``ConversionOptions/leavesTreesToExit`` says the process exits after this conversion.
package enum LeftToExit {
    /// A value held by a reference that is never released.
    private final class Held {
        let value: Any
        init(_ value: Any) { self.value = value }
    }

    /// Never frees `value` (nor what it holds): the process exit reclaims the memory at once.
    /// Only for a process that exits right after; each call keeps its value for good.
    package static func leave(_ value: Any) {
        _ = Unmanaged.passRetained(Held(value))
    }
}
