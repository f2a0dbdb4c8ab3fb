import Foundation
import NotepressAST
import NotepressPlatform

/// Highlighted code blocks kept between runs, so that a run whose blocks were all highlighted
/// before never loads KSyntaxHighlighting and Qt (issue 50: loading them is most of a small
/// note's cost, ~4× a run without code). Keyed by the library that highlighted them: the shim
/// file and the KSyntaxHighlighting library file it loaded (path, size, time, inode), so a new
/// build of the shim or an upgrade of the library's package (new definitions) starts afresh.
///
/// Where: `NOTEPRESS_CACHE_DIR` when set (empty: no cache), else `$XDG_CACHE_HOME/notepress`, else
/// `~/.cache/notepress`; below it `highlight-1/`, which holds only files this type made:
/// - `shim-HASH`: the library stamp of one shim path (HASH of the path): its lines say which
///   files, of which size, time and inode, highlighted the entries of `STAMPHASH/`;
/// - `STAMPHASH/XX/HASH`: one code block (HASH of its language, line limit and text; XX its first
///   two digits): the language, the library's definition name (empty: unknown language), the
///   line limit, the text's length and the text itself (compared on every hit, so a hash collision
///   is a miss), then one `role length` line per run.
/// Bounded: blocks over 1 MiB are not kept; a folder `XX` keeps at most 64 entries, the oldest
/// removed first (16 384 blocks in all, about their own size each). Written atomically (a
/// temporary of `.tmp/`, then `rename`), so runs in parallel share it; an entry that does not
/// read back whole is a miss.
package final class HighlightCache: @unchecked Sendable {
    /// The cache of this process (`nil` when there is no folder for it, or no shim to key it by).
    package static let shared: HighlightCache? = make(environment: ProcessInfo.processInfo.environment)

    /// One cached block: the definition the library resolved the language to (`nil`: unknown),
    /// and the runs.
    package struct Hit: Sendable, Equatable {
        package var definition: String?
        package var runs: [CodeHighlight.Run]
    }

    private let root: String
    private let shimPath: String
    private let pointerPath: String
    /// The entries' folder of a stamp that is still valid, read once; `nil`: every lookup misses.
    private let validFolder: String?
    /// Blocks longer than this are not kept.
    static let maxTextBytes = 1 << 20
    /// Entries per two-digit folder.
    static let maxEntriesPerFolder = 64

    private init(root: String, shimPath: String) {
        self.root = root
        self.shimPath = shimPath
        pointerPath = root + "/shim-" + Self.hex(Self.hash([Array(shimPath.utf8)]))
        validFolder = Self.validStampFolder(pointerPath: pointerPath, root: root)
    }

    static func make(environment: [String: String]) -> HighlightCache? {
        let base: String
        if let dir = environment["NOTEPRESS_CACHE_DIR"] {
            guard !dir.isEmpty else { return nil }
            base = dir
        } else if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            base = xdg + "/notepress"
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            base = home + "/.cache/notepress"
        } else {
            return nil
        }
        let shim = SyntaxLibrary.candidates(environment: environment["NOTEPRESS_SYNTAX_SHIM"], executable: Platform.executablePath())
            .first { Platform.status($0)?.kind == .regular }
        guard let shim, let real = Platform.realPath(shim) else { return nil }
        return HighlightCache(root: base + "/highlight-1", shimPath: real)
    }

    /// The block highlighted before with this language, line limit and text, when the stamp of
    /// the library that did it still holds.
    package func lookup(language: String, text: String, maxLine: Int) -> Hit? {
        guard let folder = validFolder else { return nil }
        let key = Self.key(language: language, text: text, maxLine: maxLine)
        guard case .success(let bytes) = Platform.readFile(folder + "/" + key.prefix(2) + "/" + key) else { return nil }
        return Self.decode(bytes, language: language, text: text, maxLine: maxLine)
    }

    /// Keeps a block the loaded `library` highlighted (or found no definition for:
    /// `definition` `nil`). Failures to write are ignored: the cache only saves time.
    package func store(language: String, text: String, maxLine: Int, definition: String?, runs: [CodeHighlight.Run],
                       library: SyntaxLibrary) {
        guard text.utf8.count <= Self.maxTextBytes, let folder = currentFolder(library: library) else { return }
        let key = Self.key(language: language, text: text, maxLine: maxLine)
        let sub = folder + "/" + key.prefix(2)
        _ = Platform.makeDirectories(sub)
        Self.trim(sub)
        var out = Array("\(language)\n\(definition ?? "")\n\(maxLine)\n\(text.utf8.count)\n".utf8)
        out += Array(text.utf8)
        for r in runs { out += Array("\n\(r.role.rawValue) \(r.length)".utf8) }
        _ = Platform.writeAtomically(sub + "/" + key, temporaryFolder: root + "/.tmp", out)
    }

    // MARK: - The stamp

    private let stampLock = NSLock()
    private var writtenFolder: String??

    /// The entries' folder of the library loaded now, its stamp written when it changed.
    private func currentFolder(library: SyntaxLibrary) -> String? {
        stampLock.withLock {
            if let done = writtenFolder { return done }
            var folder: String?
            if let stamp = Self.stamp(shim: shimPath, library: Platform.loadedLibraryPath(prefix: "libKF5SyntaxHighlighting"),
                                      version: library.version) {
                let f = root + "/" + Self.hex(Self.hash([Array(stamp.utf8)]))
                if f != validFolder {
                    _ = Platform.makeDirectories(root)
                    if Platform.writeAtomically(pointerPath, temporaryFolder: root + "/.tmp", Array(stamp.utf8)) == nil { folder = f }
                } else {
                    folder = f
                }
            }
            writtenFolder = .some(folder)
            return folder
        }
    }

    /// The stamp's text: one `file PATH SIZE MTIME INODE` line per file (the shim, the library)
    /// and the library's version; `nil` when a file cannot be read.
    static func stamp(shim: String, library: String?, version: String) -> String? {
        guard let library else { return nil }
        var text = ""
        for path in [shim, library] {
            guard let s = Platform.status(path) else { return nil }
            text += "file \(path) \(s.size) \(s.modifiedNanoseconds) \(s.inode)\n"
        }
        return text + "version \(version)\n"
    }

    /// The entries' folder the stamp at `pointerPath` names, when each file it lists is still as
    /// it says.
    static func validStampFolder(pointerPath: String, root: String) -> String? {
        guard case .success(let bytes) = Platform.readFile(pointerPath) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        var files = 0
        for line in text.split(separator: "\n") where line.hasPrefix("file ") {
            let parts = line.split(separator: " ")
            guard parts.count >= 5, let s = Platform.status(parts[1...(parts.count - 4)].joined(separator: " ")),
                  "\(s.size)" == parts[parts.count - 3], "\(s.modifiedNanoseconds)" == parts[parts.count - 2],
                  "\(s.inode)" == parts[parts.count - 1] else { return nil }
            files += 1
        }
        return files == 2 ? root + "/" + hex(hash([bytes])) : nil
    }

    // MARK: - Entries

    static func key(language: String, text: String, maxLine: Int) -> String {
        hex(hash([Array(language.utf8), Array("\(maxLine)".utf8), Array(text.utf8)]))
    }

    static func decode(_ bytes: [UInt8], language: String, text: String, maxLine: Int) -> Hit? {
        let head = Array("\(language)\n".utf8)
        guard bytes.starts(with: head) else { return nil }
        var i = head.count
        func line() -> String? {
            guard let nl = bytes[i...].firstIndex(of: 0x0A) else { return nil }
            defer { i = nl + 1 }
            return String(decoding: bytes[i..<nl], as: UTF8.self)
        }
        guard let definition = line(), line() == "\(maxLine)", let count = line().flatMap(Int.init),
              count == text.utf8.count, i + count <= bytes.count, bytes[i..<(i + count)].elementsEqual(text.utf8) else { return nil }
        var runs: [CodeHighlight.Run] = []
        var total = 0
        for entry in bytes[(i + count)...].split(separator: 0x0A) {
            let parts = String(decoding: entry, as: UTF8.self).split(separator: " ")
            guard parts.count == 2, let role = CodeRole(rawValue: String(parts[0])), let n = Int(parts[1]), n > 0, n <= count - total
            else { return nil }
            runs.append(CodeHighlight.Run(role: role, length: n))
            total += n
        }
        guard total == count || (runs.isEmpty && definition.isEmpty) else { return nil }
        return Hit(definition: definition.isEmpty ? nil : definition, runs: runs)
    }

    /// Removes the oldest entries of `folder` when it holds the most it may.
    package static func trim(_ folder: String) {
        guard let entries = Platform.directoryEntries(folder), entries.count >= maxEntriesPerFolder else { return }
        let ours = entries.filter { $0.name.utf8.count == 16 && $0.name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) } }
        let dated = ours.compactMap { e in Platform.status(folder + "/" + e.name).map { (e.name, $0.modifiedNanoseconds) } }
        for (name, _) in dated.sorted(by: { $0.1 < $1.1 }).prefix(max(0, dated.count - maxEntriesPerFolder / 2)) {
            _ = Platform.removeFile(folder + "/" + name)
        }
    }

    /// FNV-1a (64 bits) of the parts, each followed by a zero byte: stable across runs and
    /// machines (Swift's `Hasher` is seeded per process). Not for security: a hit compares the
    /// whole text.
    static func hash(_ parts: [[UInt8]]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in parts {
            for b in part { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
            h = h &* 0x100_0000_01b3  // the zero byte after the part
        }
        return h
    }

    static func hex(_ h: UInt64) -> String {
        let s = String(h, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
