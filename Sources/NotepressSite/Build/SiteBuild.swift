import Foundation
import Notepress

/// The whole site build as one call: a folder run of `notepress convert` (``run(_:observer:)``)
/// and the last step of a sharded one, `notepress index` (``index(_:observer:)``). The command line,
/// `serve` and `--watch` parse their options into a ``SiteBuildRequest`` and print what the build
/// tells (``SiteBuildObserver``) and returns (``SiteBuildReport``); the rules of a site build (the
/// previous manifest, the input walk, the link report, `--prune`, the manifest, the depfile and
/// the stamp, which runs fail) live here alone.
package enum SiteBuild {
    /// Converts the request's inputs into its output folder: the inputs in parallel, then the
    /// site-wide pages, assets, `--prune`, the manifest (or a shard's manifest part) and the depfile.
    /// - Throws: ``SiteBuildRefusal`` when the output folder lies inside an input folder (nothing
    ///   is converted); ``NotepressError`` when a list or site table cannot be read.
    package static func run(_ request: SiteBuildRequest, observer: (any SiteBuildObserver)? = nil) throws -> SiteBuildReport {
        try SiteBuildRun(request: request, observer: observer).run()
    }

    /// Merges the shards' manifest parts in the request's output folder and writes the site-wide
    /// pages from the site table (`notepress index`), as a one-process run writes them.
    /// - Throws: ``NotepressError`` when the site table cannot be read.
    package static func index(_ request: SiteBuildRequest, observer: (any SiteBuildObserver)? = nil) throws -> SiteBuildReport {
        try SiteIndexRun(request: request, observer: observer).run()
    }
}

/// What a site build is asked to do: the options of the command line, checked.
package struct SiteBuildRequest: Sendable {
    /// The INPUTs as given (folders and files); for a book, its source folder.
    package var inputs: [String]
    /// The mdBook book the only input is (``BookFolder``).
    package var book: BookFolder?
    /// Which files of input folders are inputs.
    package var selection = InputSelection()
    /// Where the inputs come from when not from a walk of ``inputs`` (a list, a site table, a shard).
    package var shard: ShardSelection?
    /// The output folder (`-o DIR`).
    package var output: String
    /// `--depfile FILE`.
    package var depfile: String?
    package var loader: DocumentLoader
    package var writers: [any DocumentWriter]
    package var options: ConversionOptions
    package var layout: OutputLayout = .flat
    package var jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    /// The program's version: in the build configuration and the depfile's stamp.
    package var version: String
    /// The theme file `--theme` names (hashed into the build configuration).
    package var themeFile: String?
    /// The output options as given (``BuildConfiguration``).
    package var commandLine: [GivenOption] = []
    /// `--force`: the previous manifest is not read (everything is converted again).
    package var force = false
    /// `--prune`: outputs of inputs gone are removed.
    package var prune = false
    /// `--copy-all`: every other file of the input folders is copied, used or not.
    package var copyAll = false
    /// `--strict-links`: a broken link fails the run (``SiteBuildReport/failed``).
    package var strictLinks = false
    /// Wiki links in Markdown: on for a site unless `--no-wikilinks`.
    package var wikilinks = true
    /// Pages' dates from the git history of the input folder's work tree (``GitDates``), unless
    /// `--no-git-dates`.
    package var gitDates = true
    /// The process ends after the build: its records are left for the exit to reclaim
    /// (``ProcessLifetime``); a watching process frees them after each build.
    package var keepForExit = true

    package init(inputs: [String], output: String, loader: DocumentLoader, writers: [any DocumentWriter],
                 options: ConversionOptions, version: String) {
        self.inputs = inputs
        self.output = output
        self.loader = loader
        self.writers = writers
        self.options = options
        self.version = version
    }

    /// The build configuration the manifest records (wiki links as the build reads them).
    package var configuration: BuildConfiguration {
        var loader = loader
        loader.wikilinks = wikilinks
        return BuildConfiguration(options: options, loader: loader, writers: writers.map(\.name), layout: layout,
                                  version: version, themeFile: themeFile, commandLine: commandLine)
    }
}

/// What a site build tells while it runs, in order. Messages come on the caller's thread;
/// ``converted(_:path:)`` from any thread.
package protocol SiteBuildObserver: AnyObject, Sendable {
    /// The inputs are known: `total` pages are about to be converted.
    func willConvert(total: Int)
    /// One page is done (converted, unchanged, failed).
    func converted(_ status: FileOutcome.Status, path: String)
    /// The last page is done.
    func didConvert()
    /// A message (``SiteBuildMessage``).
    func tell(_ message: SiteBuildMessage)
}

/// One thing a site build tells, and how much it matters: the command line shows each by its
/// verbosity (`-q`: errors only; `--verbose`: details too).
package enum SiteBuildMessage: Sendable, Equatable {
    /// Shown always (a broken link with `--strict-links`).
    case error(String)
    /// Shown unless quiet: warnings, outputs removed.
    case note(String)
    /// Shown with `--verbose` only: each file written, copied or removed.
    case detail(String)
    /// One input's diagnostics, and which step gave each (`input`, or the writer's name).
    case diagnostics(file: String, diagnostics: [Diagnostic], origins: [String])
}

/// A request that cannot be carried out as given (the output folder inside an input folder):
/// nothing is converted; the command line reports it as a usage error.
package struct SiteBuildRefusal: Error, CustomStringConvertible, Sendable {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

/// What a site build did.
package struct SiteBuildReport: Sendable {
    /// The output folder.
    package var output: String
    /// Each failure, as printed after `failed:` (`file:line:column: error: …`).
    package var failures: [String] = []
    /// The broken links of the link report.
    package var brokenLinks = 0
    /// Each broken link as an error (`--strict-links` fails the run with them).
    package var brokenLinkErrors: [String] = []
    /// `--strict-links` was given.
    package var strictLinks = false
    /// Pages converted, and left as they were (unchanged since the last run).
    package var converted = 0
    package var unchanged = 0
    /// Files of input folders left out: of no known kind, and binary (a NUL byte early on).
    package var skippedUnknown = 0
    package var binary: [String] = []
    /// Assets (files the pages use): copied now, left as they were, and how many there are.
    package var assetsCopied = 0
    package var assetsUnchanged = 0
    package var assets = 0
    /// Constructs read and not converted, each counted once.
    package var notConverted = 0
    /// Files written or removed (0: the outputs are as they were).
    package var written = 0
    /// How long the build took, in seconds.
    package var seconds: Double = 0
    /// `index`: the pages of the site table, the manifest parts merged, the temporaries of
    /// killed runs removed.
    package var pages = 0
    package var parts = 0
    package var strays = 0
    /// `index`: why the parts were refused (made with other options), nothing written.
    package var configurationMismatch: String?

    package init(output: String) { self.output = output }

    /// Whether the run failed: a failure, a refusal, or a broken link with `--strict-links`.
    package var failed: Bool { !failures.isEmpty || configurationMismatch != nil || strictLinks && brokenLinks > 0 }
}
