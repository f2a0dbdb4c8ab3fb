import Foundation
import Notepress
import NotepressAST
import NotepressPlatform

/// `--files-from FILE|-`: inputs named by a list instead of found by walking a folder, as an engine
/// (Spark, GNU parallel, make) hands a task its share of a site.
package enum InputList {
    /// The paths of a list: one per line (a trailing carriage return dropped), or with
    /// `nulSeparated` one per NUL byte (`-0`, for names with line feeds, as `find -print0` and
    /// `xargs -0`); empty entries are skipped. A leading `./` is dropped.
    package static func paths(_ bytes: [UInt8], nulSeparated: Bool) -> [String] {
        let separator: UInt8 = nulSeparated ? 0 : 0x0A
        var out: [String] = []
        for part in bytes.split(separator: separator, omittingEmptySubsequences: true) {
            var p = part[...]
            if !nulSeparated, p.last == 0x0D { p = p.dropLast() }
            var s = String(decoding: p, as: UTF8.self)
            while s.hasPrefix("./") { s.removeFirst(2) }
            if !s.isEmpty { out.append(s) }
        }
        return out
    }

    /// The inputs of a list of paths relative to `root`, sorted by relative path as a folder walk
    /// sorts them (``InputScanner/scan(_:format:selection:)``), classified by the walk's rules
    /// for one file: `--exclude` leaves a file out; a file of a known kind, or chosen by
    /// `--include` or `-f` and not binary, is a page (``InputScan/files``); any other is an
    /// other file (an asset, ``InputScan/others``). The list is taken as it is: hidden names and
    /// ignore files do not leave anything out (`notepress scan --list` applies them when making a
    /// list). A path that leaves `root` (`..`, absolute) or does not name a file is an error.
    package static func scan(root: String, paths: [String], format: SourceFormat?, selection: InputSelection) -> InputScan {
        var selection = selection
        if format != nil { selection.allTextFiles = true }
        var scan = InputScan()
        scan.folders = [InputScanner.realPath(root)]
        var seen = Set<String>()
        var files: [InputFile] = []
        var others: [InputFile] = []
        for rel in paths where seen.insert(rel).inserted {
            let path = PathText.join(root, rel)
            if rel.hasPrefix("/") || rel.split(separator: "/").contains("..") {
                scan.errors.append(.failed(file: path, position: nil, message: "not below the root folder \(root) (--root)"))
                continue
            }
            guard let st = Platform.status(path), st.kind != .directory else {
                scan.errors.append(Platform.status(path) == nil ? .inputNotFound(file: path)
                                   : .fileUnreadable(file: path, code: SystemError.isAFolder.code))
                continue
            }
            let name = PathText.lastComponent(rel)
            // The folders above the file, as the walk matches patterns against them.
            let parts = rel.split(separator: "/")
            let folders = parts.indices.dropLast().map { parts[...$0].joined(separator: "/") }
            func matches(_ patterns: [GlobPattern]) -> Bool {
                patterns.contains { p in p.matches(rel, isFolder: false) || folders.contains { p.matches($0, isFolder: true) } }
            }
            if matches(selection.exclude) { continue }
            let chosen: Bool
            if matches(selection.include) {
                chosen = true
            } else if !selection.include.isEmpty {
                continue
            } else if DocumentLoader.format(forPath: name) != nil {
                files.append(InputFile(path: path, relative: rel))
                continue
            } else {
                chosen = selection.allTextFiles
            }
            guard chosen, st.kind == .regular else { scan.skipped.append(path); others.append(InputFile(path: path, relative: rel)); continue }
            if let prefix = Platform.readPrefix(path, count: InputSelection.sniffLength), selection.isBinary(prefix: prefix) {
                scan.binary.append(path)
                others.append(InputFile(path: path, relative: rel))
                continue
            }
            files.append(InputFile(path: path, relative: rel))
        }
        scan.files = files.sorted { $0.relative < $1.relative }
        scan.others = others.sorted { $0.relative < $1.relative }
        return scan
    }
}
