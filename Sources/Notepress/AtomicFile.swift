import Foundation
import NotepressPlatform

/// Writes files atomically: a temporary file in the same folder, then `rename(2)`.
public enum AtomicFile {
    /// - Throws: ``ConversionError`` when the folder cannot be made or the file written.
    public static func write(_ bytes: [UInt8], to path: String) throws {
        let dir = (path as NSString).deletingLastPathComponent
        let base = (path as NSString).lastPathComponent
        var template = Array(((dir.isEmpty ? "." : dir) + "/." + base + ".tmp-XXXXXX").utf8CString)
        var fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if fd < 0 && errno == ENOENT && !dir.isEmpty {
            // Make the folder only when it is missing (one mkdir per folder, not per file).
            if let code = Platform.makeDirectories(dir) {
                throw ConversionError(file: path, "cannot create folder \(dir): \(Platform.errorText(code))")
            }
            template = Array((dir + "/." + base + ".tmp-XXXXXX").utf8CString)
            fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        }
        guard fd >= 0 else { throw ConversionError(file: path, "cannot create a temporary file: \(String(cString: strerror(errno)))") }
        let tmp = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var ok = Platform.writeAll(fd, bytes)
        fchmod(fd, 0o644)
        if close(fd) != 0 { ok = false }
        guard ok, rename(tmp, path) == 0 else {
            let msg = String(cString: strerror(errno))
            unlink(tmp)
            throw ConversionError(file: path, "cannot write: \(msg)")
        }
    }
}
