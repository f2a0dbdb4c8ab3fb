import NotepressAST

/// The warnings of a converted input, kept in its ``Manifest/Entry`` so that a re-run that skips
/// the unchanged input says them again (a "not converted" report must not vanish because the
/// file was not read this time). One line per warning after the entry's `O` lines:
///
///     W  ORIGIN  SEVERITY  FILE  LINE  COLUMN  MESSAGE
///
/// ORIGIN is the step that gave it (`input`, or a writer's name), SEVERITY `warning`, `error`,
/// or either with `!` after it for a construct not converted (``Diagnostic/notConverted``); FILE
/// and MESSAGE are text fields (`=`, escaped) or `-`, LINE and COLUMN numbers or `-`.
extension Manifest {
    /// One stored warning and the step that gave it.
    package struct Warning: Sendable, Equatable {
        package var origin: String
        package var diagnostic: Diagnostic
        package init(origin: String, diagnostic: Diagnostic) {
            self.origin = origin
            self.diagnostic = diagnostic
        }
    }

    /// Appends the `W` lines of `warnings`.
    static func appendWarnings(_ warnings: [Warning], to out: inout [UInt8]) {
        func text(_ s: String?) {
            out.append(0x09)
            if let s { out.append(0x3D); appendEscaped(s, to: &out) } else { out.append(0x2D) }
        }
        func number(_ v: Int?) { out.append(0x09); if let v { appendDecimal(Int64(v), to: &out) } else { out.append(0x2D) } }
        for w in warnings {
            out.append(0x57)  // W
            out.append(0x09); appendEscaped(w.origin, to: &out)
            out.append(0x09); out.append(contentsOf: w.diagnostic.severity.rawValue.utf8)
            if w.diagnostic.notConverted { out.append(0x21) }
            text(w.diagnostic.file)
            number(w.diagnostic.position?.line)
            number(w.diagnostic.position?.column)
            text(w.diagnostic.message)
            out.append(0x0A)
        }
    }

    /// A `W` line's fields (the tag first), or `nil` when malformed.
    static func decodeWarning(_ bytes: UnsafeBufferPointer<UInt8>, _ fields: [Range<Int>]) -> Warning? {
        guard fields.count == 7, let origin = unescape(bytes, fields[1]),
              case var severity = String(decoding: UnsafeBufferPointer(rebasing: bytes[fields[2]]), as: UTF8.self),
              let file = optionalText(bytes, fields[3]), let line = optionalNumber(bytes, fields[4], Int.init),
              let column = optionalNumber(bytes, fields[5], Int.init), let message = optionalText(bytes, fields[6]) else { return nil }
        let notConverted = severity.hasSuffix("!")
        if notConverted { severity.removeLast() }
        guard let s = Diagnostic.Severity(rawValue: severity) else { return nil }
        var d = Diagnostic(s, message ?? "", file: file, position: line.map { SourcePosition(line: $0, column: column ?? 1) })
        d.notConverted = notConverted
        return Warning(origin: origin, diagnostic: d)
    }
}
