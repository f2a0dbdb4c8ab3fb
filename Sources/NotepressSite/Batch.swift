import Foundation
import Notepress
import NotepressPlatform
import NotepressAST
import NotepressHTML
import NotepressReaders

/// Where outputs go, one rule whatever the number of formats: `flat` (the default) puts every
/// format side by side in one tree (`OUT/a/b.html`, `OUT/a/b.rtf`, assets once: `OUT/a/img.png`);
/// `mirror` gives each format a tree of its own (`OUT/html/a/b.html`, `OUT/rtf/a/b.rtf`), also
/// for one format, with the assets its pages use copied into each tree.
package enum OutputLayout: String, Sendable, CaseIterable {
    case flat, mirror
}

/// The outcome for one input.
package struct FileOutcome: Sendable {
    /// What happened: converted, skipped because nothing changed (``Manifest``), or failed.
    package enum Status: String, Sendable { case converted, skipped, failed }

    package var input: InputFile
    /// Output paths written (or, when skipped, still valid), in writer order.
    package var written: [String] = []
    package var diagnostics: [Diagnostic] = []
    /// Which step gave each of ``diagnostics`` (same count, same order): `input` for the reader,
    /// else the writer's ``DocumentWriter/name``. The command line summarises warnings by it.
    package var diagnosticOrigins: [String] = []
    package var error: NotepressError?
    /// Title and date, for the HTML index.
    package var title: String?
    package var created: Date?
    package var status: Status = .converted
    /// The manifest record for this input (`nil` when it failed).
    package var entry: Manifest.Entry?
    /// `entry` is the previous run's record unchanged (skipped by size and time).
    package var entryIsPrevious = false
    /// Other inputs the outputs are made from (the notes it embeds, ``SiteEmbeds``), as paths.
    package var dependencies: [String] = []
}

/// Converts many files with several writers on `jobs` threads. Output bytes and the order of
/// outcomes do not depend on the job count.
///
/// A run works as a site in two phases (``runSite(_:otherFiles:previous:previousTable:copyAll:progress:)``):
/// a scan of every input into the ``SiteTable``, then the rendering of every page against that
/// table (links rewritten by ``SiteRewriter``), then the site-wide outputs (the notes index, the
/// link report, assets, the manifest) from the table alone.
///
/// Output paths: ``OutputLayout`` (`flat`: `OUT/a/b.html` beside `OUT/a/b.rtf`; `mirror`:
/// `OUT/html/a/b.html`); a folder's `README.*` is written as its `index.*` when it has no
/// `index.*` input (``SitePaths/outputStem(_:folderHasIndex:)``).
///
/// Safety: an output is refused (the file fails, others go on) when it is an input file, when its
/// folder resolves (symbolic links followed) outside the output folder or into an input folder,
/// when the output path itself is a symbolic link (never written through), and when two inputs
/// map to the same output (`a.md` and `a.note`). Writes are atomic (``AtomicFile``).
///
/// Incremental builds: with a ``BuildConfiguration`` and a previous ``Manifest``, a file whose
/// input bytes, modification time and configuration are unchanged and whose outputs still exist
/// with the recorded hashes is skipped (``FileOutcome/Status/skipped``).
package struct BatchConverter: Sendable {
    package var loader: DocumentLoader
    package var writers: [any DocumentWriter]
    package var options: ConversionOptions
    /// The output folder (`-o DIR`).
    package var outputRoot: String
    package var layout: OutputLayout
    package var jobs: Int
    /// Hash of everything besides the input that decides outputs; `nil` turns incremental skipping off.
    package var configuration: BuildConfiguration?
    /// Real paths of the input folders: outputs may not resolve into them.
    package var inputFolders: [String] = []
    /// `--follow-symlinks`: assets may be read through links out of the input folders.
    package var followSymlinks = false
    /// The mdBook book the run converts (``BookFolder``): chapters' directives are carried out.
    package var book: BookFolder?
    /// The history of the git work tree the input folder is in (``GitDates``): pages' dates;
    /// `nil` outside one, with `--no-git-dates`, or without libgit2 (file times then).
    package var gitDates: GitDates?
    /// The HEAD the previous run read its dates at (``Manifest/gitHead``): an input unchanged
    /// since then keeps its record (and dates) only when HEAD is still that commit.
    package var previousGitHead: String?

    package init(loader: DocumentLoader, writers: [any DocumentWriter], options: ConversionOptions,
                outputRoot: String, layout: OutputLayout = .flat, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
                configuration: BuildConfiguration? = nil) {
        self.loader = loader
        self.writers = writers
        self.options = options
        self.outputRoot = outputRoot
        self.layout = layout
        self.jobs = max(1, jobs)
        self.configuration = configuration
    }

    /// The folder a writer's outputs go to.
    package func root(for writer: any DocumentWriter) -> String {
        layout == .mirror ? PathText.join(outputRoot, writer.name) : outputRoot
    }

    /// The output path of `input` for `writer` (a folder's `README` stays `README` here; runs use
    /// ``outputPath(_:_:table:)``).
    package func outputPath(_ input: InputFile, _ writer: any DocumentWriter) -> String {
        PathText.join(root(for: writer), PathText.deletingExtension(input.relative) + "." + writer.fileExtension)
    }

    /// The output path of `input` for `writer` in a site: its output stem (``SiteTable/outputStem(forInput:)``)
    /// with the writer's extension.
    /// Man pages are named as `man` installs them, `NAME.SECTION`, in that stem's folder
    /// (``SiteRecord/manName``); a page without a man title (reported when converted) keeps its
    /// own file's stem, `README.md` → `README.man` (never the folder index's `index.man`).
    package func outputPath(_ input: InputFile, _ writer: any DocumentWriter, table: SiteTable) -> String {
        let stem = table.outputStem(forInput: input.relative)
        if writer.format == .man, let r = table.record(input.relative) {
            let name = r.manName.flatMap { n in r.manSection.map { n + "." + $0 } }
                ?? PathText.deletingExtension(PathText.lastComponent(input.relative)) + "." + writer.fileExtension
            return PathText.join(root(for: writer), PathText.join(SitePaths.folderOf(stem), name))
        }
        return PathText.join(root(for: writer), stem + "." + writer.fileExtension)
    }

    /// Converts every file (``runSite(_:otherFiles:previous:previousTable:copyAll:progress:)``
    /// without other files); calls `progress` (from any thread, serialised) after each one.
    /// `previous` is the manifest of the last run (for skipping unchanged files).
    package func run(_ files: [InputFile], previous: Manifest = Manifest(),
                    progress: (@Sendable (Int, FileOutcome) -> Void)? = nil) -> [FileOutcome] {
        runSite(files, previous: previous, progress: progress).outcomes
    }

    /// Converts one file with every writer (no skipping), as a site of one page.
    package func convert(_ input: InputFile) -> FileOutcome {
        runSite([input]).outcomes[0]
    }

    typealias Entry = Manifest.Entry

    /// `path` relative to the output folder (outputs are always below it).
    func relativeToRoot(_ path: String) -> String {
        let prefix = outputRoot.hasSuffix("/") ? outputRoot : outputRoot + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    /// Whether every recorded output exists (as a regular file) with its recorded SHA-256 (or its
    /// recorded size and modification time, see ``Manifest/Output``).
    func outputsMatch(_ outputs: [Manifest.Output]) -> Bool {
        for o in outputs {
            let path = PathText.join(outputRoot, o.path)
            guard let st = Platform.status(path, followLinks: false), st.kind == .regular else { return false }
            if let size = o.size, let mtime = o.mtimeNanoseconds, size == st.size, mtime == st.modifiedNanoseconds { continue }
            // A record with no hash (`-`, an older version's asset copy or site file): only its
            // size and time can vouch for it.
            if o.sha256 == "-" { return false }
            guard let data = FileManager.default.contents(atPath: path) else { return false }
            let hash = data.withUnsafeBytes { raw in
                var h = SHA256()
                h.update(buffer: raw.bindMemory(to: UInt8.self))
                return SHA256.hexString(h.finalize())
            }
            if hash != o.sha256 { return false }
        }
        return true
    }
}
