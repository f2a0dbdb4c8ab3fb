import NotepressAST

/// Every output format by the name `-t` takes, as pandoc keeps its writers. Each writer lives in
/// `Writers/<Name>Writer.swift` and adds itself here with one line.
public enum WriterRegistry {
    public static let all: [any DocumentWriter] = [
        HTMLWriter(),
        JSONDumpWriter(),
        ANSIWriter(),
        TEIWriter(),
        RTFWriter(),
        ManWriter(),
    ]

    /// The writer called `name`, or `nil`.
    public static func writer(named name: String) -> (any DocumentWriter)? {
        all.first { $0.name == name }
    }
}
