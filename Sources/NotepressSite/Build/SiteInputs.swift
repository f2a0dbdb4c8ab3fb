import Foundation
import Notepress

/// Where a sharded run's inputs come from (`--files-from`, `--site-table`, `--shard K/N`, `--root`),
/// checked by the command line: a list or a site table, and which shard of them.
package struct ShardSelection: Sendable {
    /// `--files-from FILE` (`-`: standard input).
    package var filesFrom: String?
    /// `-0`/`--null`: the list's paths end with NUL bytes, not newlines.
    package var nulSeparated = false
    /// `--site-table TABLE`.
    package var siteTable: String?
    /// `--shard K/N`.
    package var shard: SiteShard?
    /// The folder the list's and table's paths are relative to (`nil`: none given, `notepress
    /// index`; a folder run is given one: `--root`, the only INPUT, or `.`).
    package var root: String?

    package init(filesFrom: String?, nulSeparated: Bool, siteTable: String?, shard: SiteShard?, root: String?) {
        self.filesFrom = filesFrom
        self.nulSeparated = nulSeparated
        self.siteTable = siteTable
        self.shard = shard
        self.root = root
    }
}

/// Where a folder run's inputs come from: a folder walk, a list (`--files-from`), a site table
/// (`--site-table`), and which shard of them (`--shard K/N`).
package struct SiteInputs: Sendable {
    /// The inputs of this run.
    package var scan: InputScan
    /// The table pages are rendered against (a shard run), or `nil` (a whole site).
    package var siteTable: SiteTable?
    /// The folder list and table paths are relative to.
    package var root: String?

    /// The bytes of `--files-from` (a file, or `-`: standard input).
    /// - Throws: ``NotepressError`` when it cannot be read.
    package static func readList(_ path: String) throws -> [UInt8] {
        if path == "-" { return [UInt8](FileHandle.standardInput.readDataToEndOfFile()) }
        switch Platform.readFile(path) {
        case .success(let b): return b
        case .failure(let e): throw NotepressError.fileUnreadable(file: path, code: e.code)
        }
    }

    /// The site table at `path`.
    /// - Throws: ``NotepressError`` when it cannot be read or a line is not a record of the schema.
    package static func loadTable(_ path: String) throws -> SiteTable {
        let bytes: [UInt8]
        switch Platform.readFile(path) {
        case .success(let b): bytes = b
        case .failure(let e): throw NotepressError.fileUnreadable(file: path, code: e.code)
        }
        guard let table = SiteTableCodec.decode(bytes) else {
            throw NotepressError.failed(file: path, position: nil, message: "not a site table (JSON Lines written by notepress scan)")
        }
        return table
    }

    /// The inputs of a run: with no ``ShardSelection``, `inputs` walked as always.
    /// - Throws: ``NotepressError`` for a list or table that cannot be read.
    package static func resolve(_ inputs: [String], shard: ShardSelection?, format: SourceFormat?,
                                selection: InputSelection) throws -> SiteInputs {
        guard let shard else {
            return SiteInputs(scan: InputScanner.scan(inputs, format: format, selection: selection))
        }
        let table = try shard.siteTable.map(loadTable)
        var paths: [String]
        if let list = shard.filesFrom {
            paths = InputList.paths(try readList(list), nulSeparated: shard.nulSeparated)
        } else {
            paths = table?.paths ?? []
        }
        if let k = shard.shard { paths = paths.filter(k.contains) }
        let root = shard.root ?? "."
        let scan = InputList.scan(root: root, paths: paths, format: format, selection: selection)
        return SiteInputs(scan: scan, siteTable: table, root: root)
    }
}
