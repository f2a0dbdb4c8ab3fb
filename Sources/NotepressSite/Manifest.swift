import Foundation
import Notepress
import NotepressPlatform
import NotepressAST
import NotepressResources
import NotepressThemes

/// The incremental-build record kept in the output folder as `.notepress-manifest`.
///
/// Shape: UTF-8 text, one record per line, fields separated by a tab (U+0009), entries sorted by
/// key (byte order), so the same manifest is always the same bytes. Line 1 is the header
/// `notepress-manifest<TAB>3`. Then, per input:
///
///     E  RELATIVE  INPUT-SHA256  MODIFIED  CONFIG-SHA256  INPUT-SIZE  INPUT-MTIME-NS  CREATED  TITLE  SITE-SHA256
///     O  PATH  SHA256  SIZE  MTIME-NS                     (one line per output of that input)
///     W  ORIGIN  SEVERITY  FILE  LINE  COLUMN  MESSAGE     (one line per warning it gave: ``Warning``)
///
/// before the entries, at most one `H  COMMIT` line (the git HEAD the pages' dates were read at,
/// ``gitHead``), at most one `I  PATH  SHA256  SIZE  MTIME-NS` line for the HTML
/// index page (``index``) and one `G  PATH  -  SIZE  MTIME-NS` line per other generated
/// site-wide page (tag pages, ``sitePages``, sorted by path; no hash, as for assets), and after them one line per copied asset (``assets``, sorted by
/// output path):
///
///     A  PATH  SHA256  SIZE  MTIME-NS  SOURCE  SOURCE-SIZE  SOURCE-MTIME-NS
///
/// SITE-SHA256 is what the page read from the site table (``SiteRewriter/digest(of:resolutions:)``),
/// `-` when there was none. An asset's SHA256 is `-`: a copy is trusted by its size and time
/// alone (hashing every image of a vault on each first run cost more than converting its notes).
///
/// where RELATIVE is the input's path below its input folder (``InputFile/relative``), PATH an
/// output path relative to the output folder, hashes SHA-256 (FIPS 180-4) in lower-case hex,
/// MODIFIED and CREATED seconds since 1970-01-01 UTC (Swift's shortest round-trip decimal form),
/// sizes in bytes and times in nanoseconds since 1970. An absent optional field is `-`; a present
/// text field is `=` followed by the text with `\`, tab, line feed and carriage return written
/// `\\`, `\t`, `\n`, `\r`. A line-based file is read with one pass over its bytes: a re-run of 20 000
/// notes spent a fifth of its time decoding the earlier JSON form with Foundation's `JSONDecoder`.
///
/// A file is skipped on a re-run only when its input (size and nanosecond time, else its bytes),
/// its (clamped) modification time, the configuration hash (options, resolved theme, templates,
/// writers, layout, Notepress version: ``BuildConfiguration``) and every output (size and time,
/// else its bytes) still match. `title`/`created` let the HTML index list notes that were skipped.
package struct Manifest: Sendable, Equatable {
    /// The file name in the output folder.
    package static let fileName = ".notepress-manifest"
    /// The name of the JSON manifest of Notepress 0.1's first releases; removed when a manifest is saved.
    package static let legacyFileName = ".notepress-manifest.json"
    /// The header line's format number; a file with another one is ignored (everything is rebuilt).
    package static let formatVersion = 3

    /// One output file and the SHA-256 of its bytes, with its size and modification time when
    /// written: a file whose `lstat` still shows the same size and time (nanoseconds) is taken as
    /// unchanged without hashing it again (as git's index does); otherwise its hash decides.
    package struct Output: Sendable, Equatable {
        /// Path relative to the output folder.
        package var path: String
        package var sha256: String
        /// Size in bytes when written.
        package var size: Int?
        /// Modification time when written, nanoseconds since 1970.
        package var mtimeNanoseconds: Int64?
        package init(path: String, sha256: String, size: Int? = nil, mtimeNanoseconds: Int64? = nil) {
            self.path = path; self.sha256 = sha256; self.size = size; self.mtimeNanoseconds = mtimeNanoseconds
        }
    }

    /// What one input produced last time.
    package struct Entry: Sendable, Equatable {
        /// The input and configuration hash of an input that failed (no SHA-256 is ever `-`): it
        /// never matches, so the input is converted again; its outputs are still recorded.
        package static let failedMark = "-"
        package var inputSHA256: String
        /// Modification time used for the note's date, seconds since 1970 (front matter may not
        /// set one), or `nil`.
        package var modified: Double?
        package var configSHA256: String
        package var outputs: [Output]
        package var title: String?
        /// The note's date, seconds since 1970.
        package var created: Double?
        /// The input's size in bytes and modification time in nanoseconds when it was converted:
        /// when both are unchanged the input is not read or hashed again (as make trusts times).
        package var inputSize: Int?
        package var inputMtimeNanoseconds: Int64?
        /// What the page read from the site table (``SiteRewriter/digest(of:resolutions:)``): the
        /// page is rendered again when it differs, even with the same input.
        package var siteSHA256: String?
        /// Its warnings when it was converted (``Manifest/Warning``), said again when it is skipped.
        package var warnings: [Warning] = []
        package init(inputSHA256: String, modified: Double?, configSHA256: String, outputs: [Output],
                    title: String?, created: Double?, inputSize: Int? = nil, inputMtimeNanoseconds: Int64? = nil,
                    siteSHA256: String? = nil) {
            self.inputSHA256 = inputSHA256; self.modified = modified; self.configSHA256 = configSHA256
            self.outputs = outputs; self.title = title; self.created = created
            self.inputSize = inputSize; self.inputMtimeNanoseconds = inputMtimeNanoseconds
            self.siteSHA256 = siteSHA256
        }
    }

    /// A copied asset: the output file (``Output``) and the input file it was copied from, with
    /// that file's size and modification time then (an asset whose source and copy are unchanged
    /// is not copied again).
    package struct Asset: Sendable, Equatable {
        package var output: Output
        /// The source's path below the input folder.
        package var source: String
        package var sourceSize: Int?
        package var sourceMtimeNanoseconds: Int64?
        package init(output: Output, source: String, sourceSize: Int?, sourceMtimeNanoseconds: Int64?) {
            self.output = output; self.source = source
            self.sourceSize = sourceSize; self.sourceMtimeNanoseconds = sourceMtimeNanoseconds
        }
    }

    package var entries: [String: Entry] = [:]
    /// The HTML index page written last time (`index.html`), when there was one: a run that skips
    /// every input leaves it alone when it is still intact.
    package var index: Output?
    /// The other site-wide pages written last time (tag pages, ``SitePages``), sorted by path.
    package var sitePages: [Output] = []
    /// Assets copied into the output folder, by output path (relative to the output folder).
    package var assets: [String: Asset] = [:]
    /// The commit id of the git HEAD the pages' dates were read at (``GitDates``); `nil` when
    /// they were not read from history. A re-run at another HEAD dates every page again.
    package var gitHead: String?

    package init(entries: [String: Entry] = [:], index: Output? = nil, assets: [String: Asset] = [:]) {
        self.entries = entries
        self.index = index
        self.assets = assets
    }

    /// Reads the manifest of `outputRoot`; an empty one when it is missing, unreadable, of another
    /// format version or malformed anywhere (a damaged manifest only costs a full rebuild).
    package static func load(outputRoot: String) -> Manifest {
        let path = (outputRoot as NSString).appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: path) else { return Manifest() }
        return data.withUnsafeBytes { decode(UnsafeRawBufferPointer($0).bindMemory(to: UInt8.self)) } ?? Manifest()
    }

    /// Parses manifest bytes (the shape above); `nil` when they are not a well-formed manifest of
    /// this ``formatVersion``.
    package static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> Manifest? {
        var m = Manifest()
        var current: (String, Entry)?
        var lineNumber = 0
        var start = 0
        let n = bytes.count
        var fields: [Range<Int>] = []
        fields.reserveCapacity(10)
        while start < n {
            var end = start
            while end < n, bytes[end] != 0x0A { end += 1 }
            fields.removeAll(keepingCapacity: true)
            var f = start
            for i in start..<end where bytes[i] == 0x09 {
                fields.append(f..<i)
                f = i + 1
            }
            fields.append(f..<end)
            lineNumber += 1
            start = end + 1
            func text(_ r: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[r]), as: UTF8.self) }
            /// An `I` or `O` line: TAG PATH SHA256 SIZE MTIME-NS.
            func output() -> Output? {
                guard fields.count == 5, let path = unescape(bytes, fields[1]),
                      let size = optionalNumber(bytes, fields[3], Int.init),
                      let mtime = optionalNumber(bytes, fields[4], Int64.init) else { return nil }
                return Output(path: path, sha256: text(fields[2]), size: size, mtimeNanoseconds: mtime)
            }
            if lineNumber == 1 {
                guard fields.count == 2, text(fields[0]) == "notepress-manifest", text(fields[1]) == String(formatVersion) else { return nil }
                continue
            }
            guard let tag = fields.first.map(text) else { return nil }
            switch tag {
            case "E":
                guard fields.count == 10, let key = unescape(bytes, fields[1]),
                      let modified = optionalNumber(bytes, fields[3], Double.init),
                      let size = optionalNumber(bytes, fields[5], Int.init),
                      let mtime = optionalNumber(bytes, fields[6], Int64.init),
                      let created = optionalNumber(bytes, fields[7], Double.init),
                      let title = optionalText(bytes, fields[8]) else { return nil }
                if let (k, e) = current { m.entries[k] = e }
                let site = text(fields[9])
                current = (key, Entry(inputSHA256: text(fields[2]), modified: modified, configSHA256: text(fields[4]),
                                      outputs: [], title: title, created: created, inputSize: size,
                                      inputMtimeNanoseconds: mtime, siteSHA256: site == "-" ? nil : site))
            case "H":
                guard current == nil, m.gitHead == nil, fields.count == 2 else { return nil }
                m.gitHead = text(fields[1])
            case "I":
                guard current == nil, m.index == nil, let o = output() else { return nil }
                m.index = o
            case "G":
                guard current == nil, let o = output() else { return nil }
                m.sitePages.append(o)
            case "O":
                guard current != nil, let o = output() else { return nil }
                current!.1.outputs.append(o)
            case "W":
                guard current != nil, let w = decodeWarning(bytes, fields) else { return nil }
                current!.1.warnings.append(w)
            case "A":
                guard fields.count == 8, let path = unescape(bytes, fields[1]),
                      let size = optionalNumber(bytes, fields[3], Int.init),
                      let mtime = optionalNumber(bytes, fields[4], Int64.init),
                      let source = unescape(bytes, fields[5]),
                      let sourceSize = optionalNumber(bytes, fields[6], Int.init),
                      let sourceMtime = optionalNumber(bytes, fields[7], Int64.init) else { return nil }
                if let (k, e) = current { m.entries[k] = e; current = nil }
                m.assets[path] = Asset(output: Output(path: path, sha256: text(fields[2]), size: size, mtimeNanoseconds: mtime),
                                       source: source, sourceSize: sourceSize, sourceMtimeNanoseconds: sourceMtime)
            default:
                return nil
            }
        }
        guard lineNumber >= 1 else { return nil }
        if let (k, e) = current { m.entries[k] = e }
        return m
    }

    /// The manifest as deterministic bytes (entries sorted by key, byte order).
    package func encoded() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 + entries.count * 320)
        func put(_ s: String) { out.append(contentsOf: s.utf8) }
        func field(_ s: String) { out.append(0x09); Self.appendEscaped(s, to: &out) }
        func number(_ v: Int?) { out.append(0x09); if let v { Self.appendDecimal(Int64(v), to: &out) } else { out.append(0x2D) } }
        func number(_ v: Int64?) { out.append(0x09); if let v { Self.appendDecimal(v, to: &out) } else { out.append(0x2D) } }
        func number(_ v: Double?) { out.append(0x09); if let v { put(v.description) } else { out.append(0x2D) } }
        func output(_ tag: UInt8, _ o: Output) {
            out.append(tag)
            field(o.path)
            out.append(0x09); put(o.sha256)
            number(o.size)
            number(o.mtimeNanoseconds)
            out.append(0x0A)
        }
        put("notepress-manifest\t\(Self.formatVersion)\n")
        if let h = gitHead { put("H\t" + h + "\n") }
        if let o = index { output(0x49, o) }  // I
        for o in sitePages { output(0x47, o) }  // G
        for key in Self.byteSorted(entries.keys) {
            let e = entries[key]!
            out.append(0x45)  // E
            field(key)
            out.append(0x09); put(e.inputSHA256)
            number(e.modified)
            out.append(0x09); put(e.configSHA256)
            number(e.inputSize)
            number(e.inputMtimeNanoseconds)
            number(e.created)
            if let t = e.title { out.append(0x09); out.append(0x3D); Self.appendEscaped(t, to: &out) } else { put("\t-") }
            out.append(0x09); put(e.siteSHA256 ?? "-")
            out.append(0x0A)
            for o in e.outputs { output(0x4F, o) }  // O
            Self.appendWarnings(e.warnings, to: &out)  // W
        }
        for key in assets.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let a = assets[key]!
            out.append(0x41)  // A
            field(a.output.path)
            out.append(0x09); put(a.output.sha256)
            number(a.output.size)
            number(a.output.mtimeNanoseconds)
            field(a.source)
            number(a.sourceSize)
            number(a.sourceMtimeNanoseconds)
            out.append(0x0A)
        }
        return out
    }

    /// `keys` in byte order of their UTF-8 (`memcmp`, then the shorter first), as
    /// `utf8.lexicographicallyPrecedes` orders them, comparing each key's bytes made once.
    static func byteSorted(_ keys: Dictionary<String, Entry>.Keys) -> [String] {
        let list = Array(keys)
        let bytes = list.map { Array($0.utf8) }
        return list.indices.sorted { SiteTable.bytesPrecede(bytes[$0], bytes[$1]) }.map { list[$0] }
    }

    /// Appends `v` in decimal, as `"\(v)"` spells it (`-` before a negative number).
    static func appendDecimal(_ v: Int64, to out: inout [UInt8]) {
        if v < 0 { out.append(0x2D) }
        var m = v.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = 0
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                d[n] = 0x30 + UInt8(m % 10)
                m /= 10
                n += 1
            } while m > 0
            while n > 0 { n -= 1; out.append(d[n]) }
        }
    }

    /// Writes the manifest atomically into `outputRoot` and removes a legacy JSON manifest there.
    /// - Throws: ``NotepressError`` when it cannot be written.
    package func save(outputRoot: String) throws {
        try AtomicFile.write(encoded(), to: (outputRoot as NSString).appendingPathComponent(Self.fileName))
        let legacy = (outputRoot as NSString).appendingPathComponent(Self.legacyFileName)
        if Platform.status(legacy, followLinks: false)?.kind == .regular { Platform.removeFile(legacy) }
    }

    /// Appends `s` with `\` → `\\`, tab → `\t`, line feed → `\n`, carriage return → `\r`.
    static func appendEscaped(_ s: String, to out: inout [UInt8]) {
        // Most fields (paths, titles) have nothing to escape: copied whole.
        if !s.utf8.contains(where: { $0 == 0x5C || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            out.append(contentsOf: s.utf8)
            return
        }
        for b in s.utf8 {
            switch b {
            case 0x5C: out.append(0x5C); out.append(0x5C)
            case 0x09: out.append(0x5C); out.append(0x74)
            case 0x0A: out.append(0x5C); out.append(0x6E)
            case 0x0D: out.append(0x5C); out.append(0x72)
            default: out.append(b)
            }
        }
    }

    /// The text of an escaped field; `nil` for a malformed escape.
    static func unescape(_ bytes: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> String? {
        var plain = true
        for i in r where bytes[i] == 0x5C { plain = false; break }
        if plain { return String(decoding: UnsafeBufferPointer(rebasing: bytes[r]), as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(r.count)
        var i = r.lowerBound
        while i < r.upperBound {
            let b = bytes[i]
            if b != 0x5C { out.append(b); i += 1; continue }
            guard i + 1 < r.upperBound else { return nil }
            switch bytes[i + 1] {
            case 0x5C: out.append(0x5C)
            case 0x74: out.append(0x09)
            case 0x6E: out.append(0x0A)
            case 0x72: out.append(0x0D)
            default: return nil
            }
            i += 2
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `-` → `.some(nil)`; `=TEXT` → the unescaped text; anything else → `nil` (malformed).
    static func optionalText(_ bytes: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> String?? {
        if r.count == 1 && bytes[r.lowerBound] == 0x2D { return .some(nil) }
        guard r.count >= 1, bytes[r.lowerBound] == 0x3D, let t = unescape(bytes, (r.lowerBound + 1)..<r.upperBound) else { return nil }
        return .some(t)
    }

    /// `-` → `.some(nil)`; a number `parse` accepts → it; anything else → `nil` (malformed).
    static func optionalNumber<T>(_ bytes: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, _ parse: (String) -> T?) -> T?? {
        if r.count == 1 && bytes[r.lowerBound] == 0x2D { return .some(nil) }
        guard let v = parse(String(decoding: UnsafeBufferPointer(rebasing: bytes[r]), as: UTF8.self)) else { return nil }
        return .some(v)
    }
}

/// One option of a command line as given, for ``BuildConfiguration``: its name and values.
package struct GivenOption: Sendable {
    /// The option's name (`--toc-depth`).
    package var name: String
    /// Each value as given, in order; a flag: `["1"]` when given, `[]` when not.
    package var values: [String]
    /// Whether a value may name a file or folder (`--template FILE`, `--theme NAME|PATH`): a value
    /// naming a regular file then stands for the file's bytes (their SHA-256) and one naming a
    /// folder for "folder" (its templates are hashed by ``BuildConfiguration`` itself), not for the
    /// path, so the shards of one site agree wherever their files are.
    package var namesPaths: Bool

    package init(name: String, values: [String], namesPaths: Bool) {
        self.name = name; self.values = values; self.namesPaths = namesPaths
    }

    /// The values as one deterministic text: each `LENGTH:VALUE`, a file `file SHA256`.
    var fingerprint: String {
        values.map { v -> String in
            var isFolder: ObjCBool = false
            guard namesPaths, FileManager.default.fileExists(atPath: v, isDirectory: &isFolder) else {
                return "\(v.utf8.count):" + v
            }
            if isFolder.boolValue { return "folder" }
            return FileManager.default.contents(atPath: v).map { "file " + SHA256.hex([UInt8]($0)) } ?? "unreadable"
        }.joined(separator: ",")
    }
}

/// Everything besides the input bytes that decides the output bytes, hashed into
/// ``Manifest/Entry/configSHA256``.
package struct BuildConfiguration: Sendable {
    /// The Notepress version (`notepress --version`).
    package var version: String
    /// Files the outputs depend on besides the inputs (theme file, `--data-dir` templates), by path;
    /// written to depfiles as prerequisites.
    package var dependencyFiles: [String]
    /// The SHA-256 (hex) of the configuration.
    package var sha256: String

    /// Template-store paths the writers read (HTML page and index templates, TEI schema).
    package static let templatePaths = ["html/page.html", "html/index.html", "html/tag.html", "html/note-entry.html",
                                        "tei/notepress-tei.rng"]

    /// Hashes the options (`--toc`, `-M` included), the resolved theme (every style and role,
    /// colours and fonts), the bytes of every template in ``templatePaths`` (data folder or
    /// embedded) and of the loaded page template with its partials (``ConversionOptions/pageTemplate``),
    /// the loader settings, the writers, the layout and `version`. `themeFile` is the theme's path
    /// when it came from a file; template files read from disk are dependencies too.
    /// `commandLine`: the command line's output options as given (the command line's option table
    /// decides which: every option that changes output bytes), hashed in order besides the
    /// resolved values above (``GivenOption``).
    package init(options: ConversionOptions, loader: DocumentLoader, writers: [String], layout: OutputLayout,
                version: String, themeFile: String? = nil, commandLine: [GivenOption] = []) {
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
        field("width", String(options.width))
        field("colorDepth", options.colorDepth.rawValue)
        field("hyperlinks", "\(options.hyperlinks)")
        field("ascii", "\(options.ascii)")
        field("validate", "\(options.validate)")
        field("tagfilter", "\(options.tagfilter)")
        field("from", loader.format?.rawValue ?? "auto")
        field("keepMarkers", "\(loader.keepMarkers)")
        field("wikilinks", "\(loader.wikilinks)")
        field("math", "\(loader.vaultSyntax)")
        // MkDocs' extensions (mkdocs.yml): only when some are on, so other runs' fingerprints stay.
        if !loader.mkdocs.isEmpty { field("mkdocs", loader.mkdocs.map(\.rawValue).sorted().joined(separator: ",")) }
        if let mark = options.headingPermalink { field("permalink", mark) }
        // Edit links (`--edit-url`, mkdocs.yml, book.toml): only when given, so other runs' fingerprints stay.
        if let edit = options.editURL { field("editURL", edit) }
        field("headingIDs", "\(options.headingIDs)")
        field("encoding", loader.encoding ?? "UTF-8")
        field("hashtags", "\(loader.hashtags)")
        field("tagPagesFolder", options.tagPagesFolder ?? "none")
        field("backlinks", "\(options.backlinks)")
        field("sourceDateEpoch", loader.sourceDateEpoch.map { "\($0.timeIntervalSince1970)" } ?? "none")
        field("theme", Self.fingerprint(options.theme))
        field("toc", options.tableOfContents ? String(options.tableOfContentsMaxLevel) : "none")
        field("metadata", loader.metadataOverrides.fingerprint)
        // Code highlighting: on or off, the library theme, and the library with its version
        // (another KSyntaxHighlighting tokenises differently), when a writer highlights.
        field("highlight", !loader.highlightCode ? "off" : options.highlightStyle ?? "theme")
        if loader.highlightCode { field("highlighter", Notepress.highlightingLibrary ?? "unavailable") }
        for option in commandLine { field("option " + option.name, option.fingerprint) }
        var deps: [String] = []
        if let themeFile { deps.append(themeFile) }
        if let page = options.pageTemplate {
            // `--template FILE` and its partials (or the data folder's page and partials).
            field("page template", SHA256.hex(Array(page.fingerprint.utf8)))
            for f in page.files where !deps.contains(f) { deps.append(f) }
        }
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
    package static func fingerprint(_ t: ResolvedTheme) -> String {
        var s = "\(t.theme.name)|\(t.category.rawValue)|\(t.boldText)"
        for style in TextStyle.allCases { s += "|\(style):\(t.style(style))" }
        for role in ThemeRole.allCases { s += "|\(role.rawValue)=\(t.textStyle(for: role))" }
        s += "|\(t.theme.codeFont)|\(t.theme.scriptFont)|\(t.theme.eastAsianFont)|\(t.theme.terminalScript)|\(t.theme.light)|\(t.theme.dark)"
        for (name, palette) in [("codeLight", t.theme.codeLight), ("codeDark", t.theme.codeDark)] {
            s += "|\(name):\(palette.libraryTheme ?? "")/\(palette.background?.hex ?? "")"
            for role in CodeRole.allCases { s += ",\(role.rawValue)=\(palette.styles[role].map { "\($0)" } ?? "-")" }
        }
        return s
    }
}
