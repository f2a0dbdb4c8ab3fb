import Foundation
import NotepressAST
import NotepressPlatform

/// One input file and where it sits below the folder it was found in.
public struct InputFile: Sendable, Equatable {
    /// The path as the user gave it or as found walking a folder.
    public var path: String
    /// The path below the input folder (the file name for a file given directly); outputs mirror it.
    public var relative: String
    public init(path: String, relative: String) {
        self.path = path
        self.relative = relative
    }
}

/// The files an input list names, folders walked in sorted order.
public struct InputScan: Sendable {
    public var files: [InputFile] = []
    /// Files of kinds Notepress does not read, found in folders (skipped, not errors).
    public var skipped: [String] = []
    /// The same files with their paths below their input folder, sorted: a site's other files
    /// (assets, copied when pages refer to them).
    public var others: [InputFile] = []
    /// Inputs that could not be walked (missing, unreadable, a folder loop).
    public var errors: [ConversionError] = []
    /// Resolved paths of the input folders given.
    public var folders: [String] = []
}

/// Walks the inputs. Files given directly are converted whatever their extension (stdin is `-`);
/// in folders only known kinds (``DocumentLoader/format(forPath:)``) are, hidden entries are
/// ignored, and symbolic links to folders are followed unless they lead back into a folder being
/// walked (a loop, reported as an error).
public enum InputScanner {
    public static func scan(_ inputs: [String], format: SourceFormat?) -> InputScan {
        var scan = InputScan()
        let fm = FileManager.default
        for input in inputs {
            if input == "-" { scan.files.append(InputFile(path: "-", relative: "stdin")); continue }
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: input, isDirectory: &isDir) else {
                scan.errors.append(ConversionError(file: input, "no such file or folder")); continue
            }
            if !isDir.boolValue {
                scan.files.append(InputFile(path: input, relative: (input as NSString).lastPathComponent)); continue
            }
            let root = realPath(input)
            scan.folders.append(root)
            // Iterative walk: (path, relative, ancestors' real paths)
            var stack: [(String, String, [String])] = [(input, "", [root])]
            var found: [InputFile] = []
            var other: [InputFile] = []
            while let (dir, rel, ancestors) = stack.popLast() {
                guard let entries = directoryEntries(dir) else {
                    scan.errors.append(ConversionError(file: dir, "cannot read folder: \(Platform.errorText())")); continue
                }
                for (name, type) in entries.reversed() where !name.hasPrefix(".") {
                    let path = PathText.join(dir, name)
                    let relPath = rel.isEmpty ? name : rel + "/" + name
                    var isFolder = type == .directory
                    if type == nil {
                        // A symbolic link or an unknown type: follow it.
                        guard let st = Platform.status(path) else {
                            scan.errors.append(ConversionError(file: path, "broken symbolic link")); continue
                        }
                        isFolder = st.kind == .directory
                    }
                    if isFolder {
                        let real = realPath(path)
                        if ancestors.contains(real) {
                            scan.errors.append(ConversionError(file: path, "folder loop: leads back to \(real); not followed"))
                            continue
                        }
                        stack.append((path, relPath, ancestors + [real]))
                    } else if DocumentLoader.format(forPath: name) != nil {
                        found.append(InputFile(path: path, relative: relPath))
                    } else {
                        scan.skipped.append(path)
                        other.append(InputFile(path: path, relative: relPath))
                    }
                }
            }
            scan.files.append(contentsOf: found.sorted { $0.relative < $1.relative })
            scan.others.append(contentsOf: other.sorted { $0.relative < $1.relative })
        }
        return scan
    }

    /// The entries of a folder with their kind (``Platform/directoryEntries(_:)``: `nil` when a
    /// `stat` must tell), sorted by name (code-point order); `nil` when it cannot be read (`errno`
    /// set). One `readdir(3)` pass: no `stat` per regular file or folder.
    static func directoryEntries(_ dir: String) -> [(String, Platform.FileKind?)]? {
        Platform.directoryEntries(dir)?.map { ($0.name, $0.kind) }.sorted { $0.0 < $1.0 }
    }

    /// The canonical absolute path (symbolic links resolved), or the standardised path when it
    /// does not exist yet.
    public static func realPath(_ path: String) -> String {
        if let r = realpath(path, nil) {
            defer { free(r) }
            return String(cString: r)
        }
        // Resolve the deepest existing ancestor, then append the rest.
        let abs = URL(fileURLWithPath: path).standardizedFileURL.path
        let parent = (abs as NSString).deletingLastPathComponent
        if parent == abs { return abs }
        return (realPath(parent) as NSString).appendingPathComponent((abs as NSString).lastPathComponent)
    }
}
