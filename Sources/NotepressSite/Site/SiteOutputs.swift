import Foundation
import Notepress
import NotepressAST
import NotepressHTML
import NotepressPlatform

/// What copying a site's assets did.
package struct AssetCopy: Sendable {
    /// Asset records for the manifest, by output path relative to the output folder.
    package var assets: [String: Manifest.Asset] = [:]
    /// Output paths written this run.
    package var copied: [String] = []
    /// Assets already in place (source and copy unchanged).
    package var unchanged = 0
    /// Assets that could not be copied (each names its source).
    package var errors: [NotepressError] = []
}

extension BatchConverter {
    /// The folders outputs go to: the output folder (`flat`), or one per writer (`mirror`).
    var treeRoots: [String] { layout == .mirror ? writers.map { root(for: $0) } : [outputRoot] }

    /// The manifest after this run: entries of converted and skipped files, plus (without
    /// `prune`) the entries of inputs not seen this run, so that `--prune` can remove their outputs
    /// later. A failed file keeps an entry without hashes that lists the outputs it has in the
    /// folder (``SiteBatch``'s `failedEntry`): it is converted again, and pruned once it is gone.
    /// Index and assets are the caller's.
    package func manifest(after outcomes: [FileOutcome], previous: Manifest, keepUnseen: Bool) -> Manifest {
        if Self.manifestUnchanged(outcomes, previous: previous) {
            var m = previous
            m.index = nil
            m.assets = [:]
            m.gitHead = gitDates?.head
            return m
        }
        var m = Manifest()
        m.gitHead = gitDates?.head
        if keepUnseen {
            let seen = Set(outcomes.map(\.input.relative))
            for (k, v) in previous.entries where !seen.contains(k) { m.entries[k] = v }
        }
        for o in outcomes { if let e = o.entry { m.entries[o.input.relative] = e } }
        return m
    }

    /// Whether the entries after `outcomes` are `previous`'s as they were: every input was skipped
    /// with its old record and no input of `previous` is missing. Answers without building and
    /// comparing 20 000 entries.
    package static func manifestUnchanged(_ outcomes: [FileOutcome], previous: Manifest) -> Bool {
        outcomes.count == previous.entries.count && outcomes.allSatisfy { $0.entryIsPrevious && $0.status == .skipped }
    }

    /// Writes the site-wide pages (``writeSitePages(_:tableBytes:sourcePaths:previous:previousTableBytes:unchanged:prerendered:)``:
    /// the notes list, tag pages) of `run` and returns the notes list's path and manifest record;
    /// `nil` without HTML pages (no HTML writer, or `--fragment`).
    /// - Throws: the first ``NotepressError`` of the site-wide pages: an input's page has the
    ///   list's path (the list is then not written: a generated file never replaces a converted
    ///   input) or a page cannot be written.
    package func writeIndex(_ run: SiteRun, previous: Manifest = Manifest(), previousTableBytes: [UInt8]? = nil) throws
        -> (path: String, record: Manifest.Output)? {
        let r = writeSitePages(run.table, tableBytes: run.tableBytes, sourcePaths: run.sourcePaths, previous: previous,
                               previousTableBytes: previousTableBytes, unchanged: Self.manifestUnchanged(run.outcomes, previous: previous))
        if let e = r.errors.first { throw e }
        guard let path = r.indexPath, let record = r.indexRecord else { return nil }
        return (path, record)
    }

    /// Whether the regular file at `path` holds exactly `bytes`.
    static func fileHolds(_ path: String, _ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty, Platform.status(path, followLinks: false)?.kind == .regular,
              let existing = FileManager.default.contents(atPath: path), existing.count == bytes.count else { return false }
        return existing.withUnsafeBytes { e in bytes.withUnsafeBytes { memcmp(e.baseAddress!, $0.baseAddress!, bytes.count) == 0 } }
    }

    /// The other files (assets) pages refer to, or with `copyAll` every other file of the table,
    /// as record indices in table order.
    package func referencedAssets(_ run: SiteRun, copyAll: Bool) -> [Int] {
        let table = run.table
        if copyAll { return table.records.indices.filter { table.records[$0].kind == .file } }
        var used = Set<Int>()
        for resolved in run.resolutions {
            for r in resolved.values { if case .file(let i) = r.target { used.insert(i) } }
        }
        return used.sorted()
    }

    /// Copies the assets pages refer to (``referencedAssets(_:copyAll:)``), or the table records
    /// `records` (indices) when given, into every output tree,
    /// relative paths kept; an asset whose source (size and time) and copy (size and time, else
    /// bytes) are unchanged since `previous` is not copied again. Sources are read through
    /// symbolic links, like inputs, but only when the link's real target lies inside a real input
    /// folder (``inputFolders``): one outside it (`secret.png -> /etc/passwd`) is an error of the
    /// run, "outside the input folder; not copied", and nothing is written for it. An asset whose
    /// copy would replace a page's output (`report.pdf` beside `report.md` in a `-t pdf` run, a
    /// `report.html` of the user's in an HTML run) is not copied either, an error of the run: the
    /// converted page is kept (the try-out's silently lost page).
    package func copyAssets(_ run: SiteRun, previous: Manifest, copyAll: Bool, records: [Int]? = nil) -> AssetCopy {
        var result = AssetCopy()
        let guardContext = OutputGuard(root: InputScanner.realPath(outputRoot), inputFolders: inputFolders,
                                       inputFiles: LazyIdentities(Array(run.sourcePaths.values)))
        // The pages' outputs, this run's and (for pages not converted again) the manifest's.
        var pageOutputs: [String: String] = [:]
        for o in run.outcomes {
            for w in o.written { pageOutputs[relativeToRoot(w)] = o.input.path }
            for out in previous.entries[o.input.relative]?.outputs ?? [] where pageOutputs[out.path] == nil { pageOutputs[out.path] = o.input.path }
        }
        for i in records ?? referencedAssets(run, copyAll: copyAll) {
            let rel = run.table.records[i].path
            let source = run.sourcePaths[rel] ?? rel
            // The one rule for assets: a file whose real path (symbolic links resolved) lies
            // outside the real input folder is not published, as a `../` link is not.
            let real = InputScanner.realPath(source)
            if !followSymlinks, !inputFolders.isEmpty, !inputFolders.contains(where: { real == $0 || real.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }) {
                result.errors.append(.failed(file: source, position: nil,
                                             message: "leads through a symbolic link to \(real), outside the input folder; not copied"))
                continue
            }
            let st = Platform.status(source)
            for root in treeRoots {
                let dest = PathText.join(root, rel)
                let key = relativeToRoot(dest)
                if let page = pageOutputs[key] {
                    result.errors.append(.failed(file: source, position: nil, message:
                        "its copy would replace \(PathText.oneLine(dest)), the output of \(PathText.oneLine(page)); not copied "
                        + "(rename one of them)"))
                    continue
                }
                if let old = previous.assets[key], old.source == rel, let size = st?.size, old.sourceSize == size,
                   old.sourceMtimeNanoseconds == st?.modifiedNanoseconds, outputsMatch([old.output]) {
                    result.assets[key] = old
                    result.unchanged += 1
                    continue
                }
                do {
                    try guardContext.check(dest, input: source)
                    let bytes: [UInt8]
                    switch Platform.readFile(source) {
                    case .success(let b): bytes = b
                    case .failure(let e): throw NotepressError.fileUnreadable(file: source, code: e.code)
                    }
                    try AtomicFile.write(bytes, to: dest)
                    let out = Platform.status(dest, followLinks: false)
                    // Hashed: a copy whose size or time changed is trusted (not copied again, and
                    // pruned once no page uses it) only while it holds these bytes.
                    result.assets[key] = Manifest.Asset(
                        output: Manifest.Output(path: key, sha256: SHA256.hex(bytes), size: out?.size, mtimeNanoseconds: out?.modifiedNanoseconds),
                        source: rel, sourceSize: st?.size, sourceMtimeNanoseconds: st?.modifiedNanoseconds)
                    result.copied.append(dest)
                } catch {
                    result.errors.append(NotepressError.wrapping(error, file: source))
                }
            }
        }
        return result
    }

    /// With `--prune`: deletes every output `previous` records (pages' outputs, the notes list, tag
    /// pages, assets) that this run did not produce (`sitePages`: the site-wide pages of this run):
    /// outputs of deleted inputs, of an earlier layout or README/index naming, a notes list that
    /// moved, tag pages of tags no page has any more, assets no longer referenced. Only regular
    /// files below the output folder that still hold their recorded bytes are removed (the
    /// manifest's hash decides when the size or time differs: a copied tree has new times); outputs of
    /// inputs that failed this run are kept. Folders left empty are removed too. Returns the
    /// paths removed, sorted.
    package func prune(previous: Manifest, outcomes: [FileOutcome], index: String?, assets: AssetCopy,
                       sitePages: [String] = []) -> [String] {
        var keep = Set(outcomes.flatMap(\.written).map(relativeToRoot))
        for o in outcomes where o.status == .failed {
            for out in previous.entries[o.input.relative]?.outputs ?? [] { keep.insert(out.path) }
        }
        if let index { keep.insert(relativeToRoot(index)) }
        for p in sitePages { keep.insert(relativeToRoot(p)) }
        for k in assets.assets.keys { keep.insert(k) }
        var candidates: [Manifest.Output] = previous.entries.values.flatMap(\.outputs)
        if let i = previous.index { candidates.append(i) }
        candidates += previous.sitePages
        candidates += previous.assets.values.map(\.output)
        var removed: [String] = []
        let rootReal = InputScanner.realPath(outputRoot)
        for o in candidates where !keep.contains(o.path) {
            let path = PathText.join(outputRoot, o.path)
            guard !o.path.hasPrefix("/"), !o.path.split(separator: "/").contains(".."),
                  InputScanner.realPath(PathText.deletingLastComponent(path)).hasPrefix(rootReal),
                  outputsMatch([o]) else { continue }
            if Platform.removeFile(path) == nil { removed.append(path) }
        }
        // Folders emptied by the removals, deepest first, up to (not including) the output folder.
        var folders = Set<String>()
        for p in removed {
            var f = PathText.deletingLastComponent(p)
            while f != outputRoot, f.hasPrefix(outputRoot.hasSuffix("/") ? outputRoot : outputRoot + "/") {
                folders.insert(f)
                f = PathText.deletingLastComponent(f)
            }
        }
        for f in folders.sorted(by: { $0.utf8.count > $1.utf8.count }) { _ = Platform.removeEmptyFolder(f) }
        return removed.sorted()
    }
}
