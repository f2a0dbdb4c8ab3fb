import Foundation
import Notepress
import NotepressAST
import NotepressPlatform

/// One input file and where it sits below the folder it was found in.
package struct InputFile: Sendable, Equatable {
    /// The path as the user gave it or as found walking a folder.
    package var path: String
    /// The path below the input folder (the file name for a file given directly); outputs mirror it.
    package var relative: String
    /// Given itself on the command line (not found walking a folder): the files its images name
    /// are read from its own folder (``SiteScanner/besideFiles(_:records:known:)``).
    package var given = false
    package init(path: String, relative: String, given: Bool = false) {
        self.path = path
        self.relative = relative
        self.given = given
    }
}

/// Which files of an input folder are inputs besides those of known kinds (``InputScanner``).
package struct InputSelection: Sendable {
    /// Every regular text file is an input, whatever its extension (`-f FORMAT` given).
    package var allTextFiles = false
    /// `--include` patterns (gitignore syntax, relative to the input folder): matching files are
    /// inputs whatever their extension, even when an ignore file ignores them; when any is given,
    /// other files are not inputs.
    package var include: [GlobPattern] = []
    /// `--exclude` patterns: matching files, and everything in matching folders, are not inputs.
    package var exclude: [GlobPattern] = []
    /// The ignore file read in every folder walked (gitignore syntax); `nil`: none.
    package var ignoreFileName: String? = InputSelection.defaultIgnoreFileName
    /// NUL bytes are text (the `--encoding` is UTF-16 or UTF-32): no file is taken as binary.
    package var nulBytesAreText = false
    /// Symbolic links whose real target lies outside the input folder are followed
    /// (`--follow-symlinks`); by default they are skipped with a warning.
    package var followSymlinks = false
    /// The file extensions (lower case, no dot) of the files that are pages; `nil`: every kind
    /// Notepress reads. A MkDocs project's pages are its Markdown files only: its `robots.txt`,
    /// `CNAME`, stylesheets and scripts are copied as they are, as `mkdocs build` copies them.
    package var pageExtensions: Set<String>?

    /// Whether a file named `name`, of a kind Notepress reads, is a page (``pageExtensions``).
    package func isPage(_ name: String) -> Bool {
        guard let pageExtensions else { return true }
        guard let dot = name.lastIndex(of: ".") else { return false }
        return pageExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    /// `.notepressignore`.
    package static let defaultIgnoreFileName = ".notepressignore"
    /// How much of a file is read to tell text from binary: 8000 bytes, as git's `buffer_is_binary`.
    package static let sniffLength = 8000

    /// A selection; the ignore file is `.notepressignore` and NUL bytes mean binary.
    package init(allTextFiles: Bool = false, include: [GlobPattern] = [], exclude: [GlobPattern] = []) {
        self.allTextFiles = allTextFiles
        self.include = include
        self.exclude = exclude
    }

    /// Whether the first bytes of a file say it is binary: a NUL byte, unless the file starts with
    /// a UTF-16 byte order mark (`FF FE`, `FE FF`) or NUL bytes are text.
    package func isBinary(prefix: [UInt8]) -> Bool {
        if nulBytesAreText { return false }
        if prefix.count >= 2 && ((prefix[0] == 0xFF && prefix[1] == 0xFE) || (prefix[0] == 0xFE && prefix[1] == 0xFF)) {
            return false
        }
        return prefix.contains(0)
    }
}

/// The files an input list names, folders walked in sorted order.
package struct InputScan: Sendable {
    package var files: [InputFile] = []
    /// Files of kinds Notepress does not read, found in folders (skipped, not errors).
    package var skipped: [String] = []
    /// Files chosen by `-f` or `--include` whose first bytes hold a NUL byte (skipped, not errors).
    package var binary: [String] = []
    /// The files of ``skipped`` and ``binary`` with their paths below their input folder, sorted:
    /// a site's other files (assets, copied when pages refer to them). Files an ignore file or
    /// `--exclude` leaves out are not among them.
    package var others: [InputFile] = []
    /// Inputs that could not be walked (missing, unreadable, a folder loop).
    package var errors: [NotepressError] = []
    /// Resolved paths of the input folders given.
    package var folders: [String] = []
    /// Every folder the walk read and every ignore file in force, as the command line reached
    /// them (`docs`, `docs/sub`, `docs/.notepressignore`): what decides which inputs there are,
    /// so a depfile names them (a note added to a subfolder changes the subfolder's time).
    package var walked: [String] = []
    /// Entries skipped with a warning (not failures): a symbolic link out of the input folder, a
    /// folder loop. One per link.
    package var warnings: [InputWarning] = []
}

/// A link the walk did not follow (``InputScan/warnings``).
package struct InputWarning: Sendable, Equatable, CustomStringConvertible {
    /// The link, as found walking the folder.
    package var file: String
    package var message: String
    /// `FILE: warning: MESSAGE`, line breaks in the file name escaped (one line).
    package var description: String { PathText.oneLine(file) + ": warning: " + message }
}

/// Walks the inputs. Files given directly are converted whatever their extension (stdin is `-`).
/// In folders, hidden entries are ignored, symbolic links are followed when their real target lies
/// inside the input folder (others are skipped with a warning, ``InputScan/warnings``, unless
/// ``InputSelection/followSymlinks``) and does not lead back into a folder being walked (a loop,
/// skipped with a warning), and a file is an input when:
///
/// 1. no `--exclude` pattern matches it or a folder above it (such folders are not walked);
/// 2. an `--include` pattern matches it or a folder above it (whatever its kind or the ignore
///    files; `--include drafts` takes everything in `drafts`), or, when no
///    `--include` is given, the ignore files (`.notepressignore` in the input folder and any folder
///    below, gitignore syntax, deeper files winning) do not ignore it or a folder above it, and its
///    kind is known (``DocumentLoader/format(forPath:)``) or `-f` names the syntax of every file
///    (``InputSelection/allTextFiles``); other files are skipped and counted (``InputScan/skipped``);
/// 3. when chosen by `--include` or `-f` rather than by its extension, it is a regular file whose
///    first 8000 bytes hold no NUL byte (git's rule; a UTF-16 byte order mark or a UTF-16/32
///    `--encoding` excepted); binary files are skipped and counted (``InputScan/binary``).
///
/// Files of known kinds are not opened while scanning, so a re-run that converts nothing reads
/// no input.
package enum InputScanner {
    /// The input files of `inputs` (files, folders, `-`) by the rules above; `format` is `-f`
    /// (when given, every text file of a folder is read: ``InputSelection/allTextFiles``).
    package static func scan(_ inputs: [String], format: SourceFormat?, selection: InputSelection = InputSelection()) -> InputScan {
        var selection = selection
        if format != nil { selection.allTextFiles = true }
        var scan = InputScan()
        let fm = FileManager.default
        for input in inputs {
            if input == "-" { scan.files.append(InputFile(path: "-", relative: "stdin")); continue }
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: input, isDirectory: &isDir) else {
                scan.errors.append(.inputNotFound(file: input)); continue
            }
            if !isDir.boolValue {
                scan.files.append(InputFile(path: input, relative: (input as NSString).lastPathComponent, given: true)); continue
            }
            let root = realPath(input)
            scan.folders.append(root)
            // Iterative walk: (path, relative, ancestors' real paths, ignore files in force)
            // (path, relative, ancestors' real paths, ignore files in force, inside a folder --include matched)
            var stack: [(String, String, [String], [IgnoreRules], Bool)] = [(input, "", [root], [], false)]
            var found: [InputFile] = []
            var other: [InputFile] = []
            var templates: String?
            while let (dir, rel, ancestors, inheritedRules, inIncludedFolder) = stack.popLast() {
                guard let entries = directoryEntries(dir) else {
                    scan.errors.append(.folderUnreadable(file: dir, code: Platform.lastError)); continue
                }
                scan.walked.append(dir)
                var rules = inheritedRules
                if let ignoreName = selection.ignoreFileName, entries.contains(where: { $0.0 == ignoreName }),
                   let r = readIgnoreFile(PathText.join(dir, ignoreName), base: rel, into: &scan) {
                    rules.append(r)
                }
                // An Obsidian vault's templates folder (``obsidianTemplatesFolder(_:)``) holds
                // templates, not notes (`created: {{date}}`): not walked, said once.
                if rel.isEmpty && entries.contains(where: { $0.0 == ".obsidian" }) { templates = obsidianTemplatesFolder(dir) }
                for (name, type) in entries.reversed() where !name.hasPrefix(".") {
                    let path = PathText.join(dir, name)
                    let relPath = rel.isEmpty ? name : rel + "/" + name
                    var isFolder = type == .directory
                    if type == nil {
                        guard let folder = followedLink(path, root: root, selection: selection, into: &scan) else { continue }
                        isFolder = folder
                    }
                    if isFolder {
                        if selection.exclude.contains(where: { $0.matches(relPath, isFolder: true) }) { continue }
                        let included = inIncludedFolder || selection.include.contains(where: { $0.matches(relPath, isFolder: true) })
                        if !included && IgnoreRules.isIgnored(relPath, isFolder: true, by: rules) { continue }
                        if !included, relPath == templates {
                            scan.warnings.append(InputWarning(file: path, message:
                                "Obsidian's templates folder (.obsidian/templates.json): not published, as .obsidian/ and .trash/ are not"))
                            continue
                        }
                        let real = realPath(path)
                        if ancestors.contains(real) {
                            // Harmless: the folder is walked once already.
                            scan.warnings.append(InputWarning(file: path, message:
                                "folder loop: leads back to \(PathText.oneLine(real)); not followed"))
                            continue
                        }
                        stack.append((path, relPath, ancestors + [real], rules, included))
                        continue
                    }
                    if selection.exclude.contains(where: { $0.matches(relPath, isFolder: false) }) { continue }
                    let chosen: Bool
                    if inIncludedFolder || selection.include.contains(where: { $0.matches(relPath, isFolder: false) }) {
                        chosen = true
                    } else if !selection.include.isEmpty || IgnoreRules.isIgnored(relPath, isFolder: false, by: rules) {
                        continue
                    } else if DocumentLoader.format(forPath: name) != nil, selection.isPage(name) {
                        found.append(InputFile(path: path, relative: relPath))
                        continue
                    } else {
                        chosen = selection.allTextFiles
                    }
                    guard chosen else { scan.skipped.append(path); other.append(InputFile(path: path, relative: relPath)); continue }
                    // Chosen whatever its kind: a regular file with text in it.
                    if type != .regular, Platform.status(path)?.kind != .regular { scan.skipped.append(path); continue }
                    if let prefix = Platform.readPrefix(path, count: InputSelection.sniffLength), selection.isBinary(prefix: prefix) {
                        scan.binary.append(path)
                        other.append(InputFile(path: path, relative: relPath))
                        continue
                    }
                    found.append(InputFile(path: path, relative: relPath))
                }
            }
            scan.files.append(contentsOf: found.sorted { $0.relative < $1.relative })
            scan.others.append(contentsOf: other.sorted { $0.relative < $1.relative })
        }
        return scan
    }

    /// A symbolic link or an entry of unknown type at `path`, followed when it stays inside the
    /// input folder `root` (or `--follow-symlinks`): whether it is a folder; `nil` (after an error
    /// or warning in `scan`) when it is skipped: broken, leading outside, or a FIFO, socket or
    /// device (never a note nor an asset: reading one would wait for a writer that may never
    /// come, and the run would hang).
    static func followedLink(_ path: String, root: String, selection: InputSelection, into scan: inout InputScan) -> Bool? {
        guard let st = Platform.status(path) else {
            scan.errors.append(.brokenSymbolicLink(file: path))
            return nil
        }
        if !selection.followSymlinks, Platform.status(path, followLinks: false)?.kind == .symbolicLink,
           let real = Platform.realPath(path), real != root, !real.hasPrefix(root == "/" ? "/" : root + "/") {
            scan.warnings.append(InputWarning(file: path, message:
                "symbolic link to \(PathText.oneLine(real)), outside the input folder; skipped (--follow-symlinks follows it)"))
            return nil
        }
        if st.kind != .directory && st.kind != .regular {
            scan.warnings.append(InputWarning(file: path, message: "\(Self.kindName(st.kind)), not a regular file; skipped"))
            return nil
        }
        return st.kind == .directory
    }

    /// How a warning names a file that is neither a regular file nor a folder.
    static func kindName(_ kind: Platform.FileKind) -> String {
        switch kind {
        case .fifo: return "a named pipe (FIFO)"
        case .socket: return "a socket"
        case .characterDevice, .blockDevice: return "a device"
        default: return "a special file"
        }
    }

    /// The ignore file at `path` (`.notepressignore` of the folder `base`) as rules, recorded in
    /// `scan` as walked (the depfile names it); one that cannot be read is reported there, and
    /// a folder of that name is no ignore file (`nil` both).
    static func readIgnoreFile(_ path: String, base: String, into scan: inout InputScan) -> IgnoreRules? {
        scan.walked.append(path)
        switch Platform.readFile(path) {
        case .success(let bytes):
            return IgnoreRules(base: base, text: String(decoding: bytes, as: UTF8.self))
        case .failure(let e) where !e.isFolder:
            scan.errors.append(.failed(file: path, position: nil, message: "cannot be read: \(e.text)"))
            return nil
        case .failure:
            return nil
        }
    }

    /// Whether the walk of the input folder `root` leaves out its folder `relative` (`_site`,
    /// `a/b`): an `--exclude` pattern or an ignore file (`.notepressignore` of `root` or of a
    /// folder on the way) leaves out it or a folder above it, and no `--include` pattern takes it.
    package static func leavesOut(_ relative: String, in root: String, selection: InputSelection) -> Bool {
        let parts = relative.split(separator: "/").map(String.init)
        var rules: [IgnoreRules] = []
        var rel = ""
        let templates = Platform.status(PathText.join(root, ".obsidian")) != nil ? obsidianTemplatesFolder(root) : nil
        for part in parts {
            if let ignoreName = selection.ignoreFileName, case .success(let bytes) = Platform.readFile(PathText.join(PathText.join(root, rel), ignoreName)) {
                rules.append(IgnoreRules(base: rel, text: String(decoding: bytes, as: UTF8.self)))
            }
            rel = rel.isEmpty ? part : rel + "/" + part
            if part.hasPrefix(".") { return true }  // hidden entries are never walked
            if selection.include.contains(where: { $0.matches(rel, isFolder: true) }) { return false }
            if selection.exclude.contains(where: { $0.matches(rel, isFolder: true) }) { return true }
            if IgnoreRules.isIgnored(rel, isFolder: true, by: rules) { return true }
            if rel == templates { return true }
        }
        return false
    }

    /// The templates folder an Obsidian vault at `vault` names (`.obsidian/templates.json`'s
    /// `folder`, relative to the vault, `/`-separated, no leading or trailing `/`); `nil` when
    /// the file is missing, unreadable or names none.
    package static func obsidianTemplatesFolder(_ vault: String) -> String? {
        guard case .success(let bytes) = Platform.readFile(PathText.join(vault, ".obsidian/templates.json")),
              let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
              let folder = object["folder"] as? String else { return nil }
        let parts = folder.split(separator: "/").filter { !$0.isEmpty && $0 != "." }
        return parts.isEmpty || parts.contains("..") ? nil : parts.joined(separator: "/")
    }

    /// The entries of a folder with their kind (``Platform/directoryEntries(_:)``: `nil` when a
    /// `stat` must tell), sorted by name (code-point order); `nil` when it cannot be read (`errno`
    /// set). One `readdir(3)` pass: no `stat` per regular file or folder.
    static func directoryEntries(_ dir: String) -> [(String, Platform.FileKind?)]? {
        Platform.directoryEntries(dir)?.map { ($0.name, $0.kind) }.sorted { $0.0 < $1.0 }
    }

    /// The canonical absolute path (symbolic links resolved), or the standardised path when it
    /// does not exist yet.
    package static func realPath(_ path: String) -> String {
        if let r = Platform.realPath(path) { return r }
        // Resolve the deepest existing ancestor, then append the rest.
        let abs = URL(fileURLWithPath: path).standardizedFileURL.path
        let parent = (abs as NSString).deletingLastPathComponent
        if parent == abs { return abs }
        return (realPath(parent) as NSString).appendingPathComponent((abs as NSString).lastPathComponent)
    }
}
