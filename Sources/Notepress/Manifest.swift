import Foundation
import NotepressAST
import NotepressResources
import NotepressThemes

/// The incremental-build record kept in the output folder as `.notepress-manifest.json`.
///
/// Shape (JSON, keys sorted, one file per output folder):
/// `{"format": 1, "entries": {RELATIVE: {"inputSHA256": HEX, "modified": SECONDS?,
///   "configSHA256": HEX, "outputs": [{"path": PATH, "sha256": HEX}], "title": S?, "created": SECONDS?}}}`
/// where RELATIVE is the input's path below its input folder (``InputFile/relative``), `PATH` an
/// output path relative to the output folder, hashes SHA-256 (FIPS 180-4) in lower-case hex, and
/// times seconds since 1970-01-01 UTC. A file is skipped on a re-run only when its input bytes,
/// its (clamped) modification time, the configuration hash (options, resolved theme, templates,
/// writers, layout, Notepress version: ``BuildConfiguration``) and every output's bytes still
/// match. `title`/`created` let the HTML index list notes that were skipped.
public struct Manifest: Codable, Sendable, Equatable {
    /// The file name in the output folder.
    public static let fileName = ".notepress-manifest.json"

    /// One output file and the SHA-256 of its bytes, with its size and modification time when
    /// written: a file whose `lstat` still shows the same size and time (nanoseconds) is taken as
    /// unchanged without hashing it again (as git's index does); otherwise its hash decides.
    public struct Output: Codable, Sendable, Equatable {
        /// Path relative to the output folder.
        public var path: String
        public var sha256: String
        /// Size in bytes when written.
        public var size: Int?
        /// Modification time when written, nanoseconds since 1970.
        public var mtimeNanoseconds: Int64?
        public init(path: String, sha256: String, size: Int? = nil, mtimeNanoseconds: Int64? = nil) {
            self.path = path; self.sha256 = sha256; self.size = size; self.mtimeNanoseconds = mtimeNanoseconds
        }
    }

    /// What one input produced last time.
    public struct Entry: Codable, Sendable, Equatable {
        public var inputSHA256: String
        /// Modification time used for the note's date, seconds since 1970 (front matter may not
        /// set one), or `nil`.
        public var modified: Double?
        public var configSHA256: String
        public var outputs: [Output]
        public var title: String?
        /// The note's date, seconds since 1970.
        public var created: Double?
        /// The input's size in bytes and modification time in nanoseconds when it was converted:
        /// when both are unchanged the input is not read or hashed again (as make trusts times).
        public var inputSize: Int?
        public var inputMtimeNanoseconds: Int64?
        public init(inputSHA256: String, modified: Double?, configSHA256: String, outputs: [Output],
                    title: String?, created: Double?) {
            self.inputSHA256 = inputSHA256; self.modified = modified; self.configSHA256 = configSHA256
            self.outputs = outputs; self.title = title; self.created = created
        }
    }

    /// Manifest format version; a different one is ignored (everything is rebuilt).
    public var format = 1
    public var entries: [String: Entry] = [:]

    public init(entries: [String: Entry] = [:]) { self.entries = entries }

    /// Reads the manifest of `outputRoot`; an empty one when missing, unreadable or of another format.
    public static func load(outputRoot: String) -> Manifest {
        let path = (outputRoot as NSString).appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: path),
              let m = try? JSONDecoder().decode(Manifest.self, from: data), m.format == 1 else { return Manifest() }
        return m
    }

    /// The manifest as deterministic JSON bytes (sorted keys).
    public func encoded() -> [UInt8] {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return Array((try? e.encode(self)) ?? Data("{}".utf8)) + [0x0A]
    }

    /// Writes the manifest atomically into `outputRoot`.
    public func save(outputRoot: String) throws {
        try AtomicFile.write(encoded(), to: (outputRoot as NSString).appendingPathComponent(Self.fileName))
    }
}

/// Everything besides the input bytes that decides the output bytes, hashed into
/// ``Manifest/Entry/configSHA256``.
public struct BuildConfiguration: Sendable {
    /// The Notepress version (`notepress --version`).
    public var version: String
    /// Files the outputs depend on besides the inputs (theme file, `--data-dir` templates), by path;
    /// written to depfiles as prerequisites.
    public var dependencyFiles: [String]
    /// The SHA-256 (hex) of the configuration.
    public var sha256: String

    /// Template-store paths the writers read (HTML page and index templates, TEI schema).
    public static let templatePaths = ["html/page.html", "html/index.html", "tei/notepress-tei.rng"]

    /// Hashes the options, the resolved theme (every style and role, colours and fonts), the bytes of
    /// every template in ``templatePaths`` (data folder or embedded), the loader settings, the
    /// writers, the layout and `version`. `themeFile` is the theme's path when it came from a file.
    public init(options: ConversionOptions, loader: DocumentLoader, writers: [String], layout: OutputLayout,
                version: String, themeFile: String? = nil) {
        self.version = version
        var h = SHA256()
        func field(_ name: String, _ value: String) {
            h.update(name); h.update([0x1F]); h.update(value); h.update([0x1E])
        }
        field("version", version)
        field("writers", writers.joined(separator: ","))
        field("layout", layout.rawValue)
        field("fragment", "\(options.fragment)")
        field("unsafe", "\(options.unsafe)")
        field("width", options.width.map(String.init) ?? "auto")
        field("colorDepth", options.colorDepth.rawValue)
        field("hyperlinks", "\(options.hyperlinks)")
        field("ascii", "\(options.ascii)")
        field("validate", "\(options.validate)")
        field("tagfilter", "\(options.tagfilter)")
        field("from", loader.format?.rawValue ?? "auto")
        field("keepMarkers", "\(loader.keepMarkers)")
        field("sourceDateEpoch", loader.sourceDateEpoch.map { "\($0.timeIntervalSince1970)" } ?? "none")
        field("theme", Self.fingerprint(options.theme))
        var deps: [String] = []
        if let themeFile { deps.append(themeFile) }
        for p in Self.templatePaths {
            if let (data, origin) = try? options.templates.data(p) {
                field("template " + p, SHA256.hex([UInt8](data)))
                if !origin.hasPrefix("(built-in)/") { deps.append(origin) }
            } else {
                field("template " + p, "missing")
            }
        }
        dependencyFiles = deps
        sha256 = SHA256.hexString(h.finalize())
    }

    /// A deterministic text form of a resolved theme (no dictionary order involved).
    public static func fingerprint(_ t: ResolvedTheme) -> String {
        var s = "\(t.theme.name)|\(t.category.rawValue)|\(t.boldText)"
        for style in TextStyle.allCases { s += "|\(style):\(t.style(style))" }
        for role in ThemeRole.allCases { s += "|\(role.rawValue)=\(t.textStyle(for: role))" }
        s += "|\(t.theme.codeFont)|\(t.theme.scriptFont)|\(t.theme.light)|\(t.theme.dark)"
        return s
    }
}
