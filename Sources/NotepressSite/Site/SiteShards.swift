import Foundation
import Notepress
import NotepressPlatform

/// `--shard K/N`: the stable partition of a site's inputs that a run converts when an engine hands
/// out only an index (GNU parallel's `{}`, a Kubernetes Indexed Job's `JOB_COMPLETION_INDEX`).
///
/// An input belongs to shard `K` (1-based) of `N` when `h mod N = K - 1`, where `h` is the first
/// 8 bytes, read big-endian as an unsigned 64-bit number, of the SHA-256 (FIPS 180-4) of its
/// path below the input folder (``InputFile/relative``, `/`-separated, UTF-8). The rule depends on
/// nothing but the path: not on the machine, the process, the order of inputs or Swift's
/// per-process randomised `Hasher`. In Python: `int.from_bytes(hashlib.sha256(path.encode()).digest()[:8], "big") % N`.
package struct SiteShard: Sendable, Equatable {
    /// The shard, 1-based.
    package var index: Int
    /// How many shards.
    package var count: Int

    /// Shard `index` (1...`count`) of `count`.
    package init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Parses `K/N` (1 ≤ K ≤ N ≤ 1 000 000); `nil` for anything else.
    package init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 1_000_000, k >= 1, k <= n else { return nil }
        self.init(index: k, count: n)
    }

    /// The shard (1-based) of `count` that `relative` belongs to (the rule above).
    package static func of(_ relative: String, count: Int) -> Int {
        var h = SHA256()
        h.update(Array(relative.utf8))
        let d = h.finalize()
        var v: UInt64 = 0
        for b in d.prefix(8) { v = v << 8 | UInt64(b) }
        return Int(v % UInt64(count)) + 1
    }

    /// Whether `relative` belongs to this shard.
    package func contains(_ relative: String) -> Bool { Self.of(relative, count: count) == index }
}

/// The manifest part a shard run (`notepress convert --site-table`) writes instead of the
/// manifest: the entries and asset copies of its own inputs, and which inputs it covered (a
/// covered input without an entry failed and loses its old entry, as in a one-process run).
/// `notepress index` merges every part into the manifest (``merge(_:into:)``) and removes them.
///
/// Kept in `OUT/.notepress-parts/part-HASH` (``folderName``), where HASH is the first 16 hex digits
/// of the SHA-256 of the covered paths (sorted, each followed by a line feed): a task that an
/// engine retries over the same inputs writes the same part again, atomically, never a second one.
///
/// Shape: the line `notepress-manifest-part<TAB>1`, one `S<TAB>PATH` line per covered input
/// (sorted, byte order; PATH escaped as in ``Manifest``), then a whole ``Manifest`` (its header
/// line included) holding the part's entries and assets.
package struct ManifestPart: Sendable, Equatable {
    /// The folder of parts in the output folder.
    package static let folderName = ".notepress-parts"
    /// The header line's first field.
    static let header = "notepress-manifest-part\t1\n"

    /// Every input the run covered (converted, skipped or failed), by relative path.
    package var covered: [String]
    /// The entries of the inputs converted or skipped, and the assets copied.
    package var manifest: Manifest

    /// A part (see the properties).
    package init(covered: [String], manifest: Manifest) {
        self.covered = covered.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        self.manifest = manifest
    }

    /// The part's file name (`part-` and 16 hex digits; see the type's documentation).
    package var fileName: String {
        var h = SHA256()
        for p in covered { h.update(Array(p.utf8)); h.update([0x0A]) }
        return "part-" + String(SHA256.hexString(h.finalize()).prefix(16))
    }

    /// The part as bytes (the shape above).
    package func encoded() -> [UInt8] {
        var out = Array(Self.header.utf8)
        for p in covered {
            out += [0x53, 0x09]  // S, tab
            Manifest.appendEscaped(p, to: &out)
            out.append(0x0A)
        }
        return out + manifest.encoded()
    }

    /// Parses a part; `nil` when the bytes are not one.
    package static func decode(_ bytes: [UInt8]) -> ManifestPart? {
        let head = Array(header.utf8)
        guard bytes.starts(with: head) else { return nil }
        var covered: [String] = []
        var i = head.count
        while i + 1 < bytes.count, bytes[i] == 0x53, bytes[i + 1] == 0x09 {
            var end = i + 2
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            guard let p = bytes.withUnsafeBufferPointer({ Manifest.unescape($0, (i + 2)..<end) }) else { return nil }
            covered.append(p)
            i = end + 1
        }
        guard i <= bytes.count, let m = bytes[i...].withUnsafeBufferPointer({ Manifest.decode($0) }) else { return nil }
        return ManifestPart(covered: covered, manifest: m)
    }

    /// Writes the part atomically into `OUT/.notepress-parts` (made when missing); returns its path.
    /// - Throws: ``NotepressError`` when it cannot be written.
    @discardableResult
    package func save(outputRoot: String) throws -> String {
        let path = PathText.join(PathText.join(outputRoot, Self.folderName), fileName)
        try AtomicFile.write(encoded(), to: path)
        return path
    }

    /// The parts in `OUT/.notepress-parts`, by file name (sorted); files that are not parts
    /// (a temporary file an older version's killed run left there) are not returned but listed in `other`.
    package static func loadAll(outputRoot: String) -> (parts: [(path: String, part: ManifestPart)], other: [String], unreadable: [String]) {
        let folder = PathText.join(outputRoot, folderName)
        var parts: [(String, ManifestPart)] = []
        var other: [String] = []
        var unreadable: [String] = []
        for e in (Platform.directoryEntries(folder) ?? []).sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }) {
            let path = PathText.join(folder, e.name)
            guard e.name.hasPrefix("part-"), !e.name.contains(".tmp-") else { other.append(path); continue }
            guard case .success(let bytes) = Platform.readFile(path), let p = decode(bytes) else { unreadable.append(path); continue }
            parts.append((path, p))
        }
        return (parts, other, unreadable)
    }

    /// Why `parts` cannot be merged into one site, or `nil`: their entries were made with more than
    /// one configuration (``Manifest/Entry/configSHA256``: `-t`, `--layout`, `--theme`, `-M`… differed
    /// between shards), or with one other than `expected` (the ``BuildConfiguration/sha256`` of the
    /// options `notepress index` was given). A message of one line, naming each part (file name,
    /// page count, its first page) by configuration (first 8 hex digits), sorted.
    package static func configurationMismatch(_ parts: [(path: String, part: ManifestPart)], expected: String) -> String? {
        var groups: [String: [String]] = [:]
        for (path, part) in parts {
            var counts: [String: (count: Int, first: String)] = [:]
            for (page, e) in part.manifest.entries where e.configSHA256 != Manifest.Entry.failedMark {
                let old = counts[e.configSHA256]
                let first = old.map { $0.first.utf8.lexicographicallyPrecedes(page.utf8) ? $0.first : page } ?? page
                counts[e.configSHA256] = ((old?.count ?? 0) + 1, first)
            }
            for (config, c) in counts {
                groups[config, default: []].append("\(PathText.lastComponent(path)): \(c.count) page\(c.count == 1 ? "" : "s"), first \(c.first)")
            }
        }
        func described(_ configs: [String]) -> String {
            configs.sorted().map { "options \($0.prefix(8)): " + groups[$0]!.sorted().joined(separator: "; ") }.joined(separator: " | ")
        }
        if groups.count > 1 {
            return "manifest parts were made with different options (\(described(Array(groups.keys)))); run every shard with the same options"
        }
        if let only = groups.keys.first, only != expected {
            return "manifest parts were made with options other than index's (\(described([only])), index \(expected.prefix(8))); "
                + "give index the options the shards had (-t, --layout, --theme, -M...)"
        }
        return nil
    }

    /// `previous` with `parts` laid over it in order, as a one-process run without `--prune` makes
    /// its manifest: each covered input's old entry is replaced by the part's (or dropped when the
    /// input failed), other entries are kept; assets are laid over the old ones. The index record
    /// is left to the caller.
    package static func merge(_ parts: [ManifestPart], into previous: Manifest) -> Manifest {
        var m = previous
        m.index = nil
        // The HEAD the shards read their pages' dates at (``GitDates``), when they agree: else
        // none, and the next run reads the history again.
        if let first = parts.first { m.gitHead = parts.allSatisfy { $0.manifest.gitHead == first.manifest.gitHead } ? first.manifest.gitHead : nil }
        for p in parts {
            for c in p.covered { m.entries[c] = nil }
            for (k, e) in p.manifest.entries { m.entries[k] = e }
            for (k, a) in p.manifest.assets { m.assets[k] = a }
        }
        return m
    }
}

extension BatchConverter {
    /// What `notepress index` renders the site-wide outputs from: every page of `table` resolved
    /// against it (in parallel, on ``jobs`` threads) and the link report, with no page converted.
    /// `root` (the input folder, when known) prefixes paths in messages.
    package func indexRun(_ table: SiteTable, root: String?) -> SiteRun {
        let rewriter = SiteRewriter(resolver: SiteResolver(table: table))
        let count = table.records.count
        let slots = Slots<SiteRewriter.Resolutions>(count: count)
        let pool = jobs > 1 && count > 1 ? WorkerPool(threads: min(jobs, count)) : nil
        defer { pool?.finish() }
        parallel(count, pool: pool) { i in
            let r = table.records[i]
            if r.kind == .page { slots.set(i, rewriter.resolutions(of: r)) }
        }
        let resolutions = (0..<count).map { slots.get($0) ?? [:] }
        var sources: [String: String] = [:]
        if let root { for p in table.paths { sources[p] = PathText.join(root, p) } }
        return SiteRun(outcomes: [], table: table, tableBytes: SiteTableCodec.encode(table),
                       problems: LinkReport.problems(table, resolutions: resolutions), resolutions: resolutions,
                       sourcePaths: sources)
    }
}
