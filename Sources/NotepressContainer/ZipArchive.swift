import CLibZip
import Foundation

/// A zip archive written in one go, the container of DOCX, ODT and EPUB: entries in the order
/// added, each stored or deflated, all dated alike and without extra fields, so that the same
/// entries give the same bytes (reproducible builds). Written by libzip (``CLibZip``), loaded on
/// the first archive a run writes.
package struct ZipArchive: Sendable {
    /// One file of the archive.
    package struct Entry: Sendable, Equatable {
        /// The path inside the archive (`/`-separated, no leading `/`).
        package var name: String
        /// The file's bytes.
        package var bytes: [UInt8]
        /// Stored without compression (EPUB's and ODF's `mimetype`, which must come first and
        /// be readable at a fixed offset); else deflated.
        package var stored: Bool

        package init(name: String, bytes: [UInt8], stored: Bool) {
            self.name = name
            self.bytes = bytes
            self.stored = stored
        }
    }

    /// The entries, in archive order.
    package private(set) var entries: [Entry] = []
    /// The date every entry carries: `SOURCE_DATE_EPOCH` when the caller has one, else
    /// 1980-01-01 (zip's earliest), never the clock.
    package var modified: Date

    /// An empty archive whose entries carry `modified` (default 1980-01-01 00:00 UTC).
    package init(modified: Date = Date(timeIntervalSince1970: 315_532_800)) {
        self.modified = modified
    }

    /// Adds a file; a second entry of the same name is refused by ``bytes()``.
    package mutating func add(_ name: String, bytes: [UInt8], stored: Bool = false) {
        entries.append(Entry(name: name, bytes: bytes, stored: stored))
    }

    /// Adds a UTF-8 text file.
    package mutating func add(_ name: String, text: String, stored: Bool = false) {
        add(name, bytes: Array(text.utf8), stored: stored)
    }

    /// The archive's bytes.
    /// - Throws: ``ContainerError/library(_:)`` when libzip cannot be loaded or fails, and
    ///   ``ContainerError/duplicateEntry(_:)`` for a name added twice.
    package func bytes() throws -> [UInt8] {
        if let why = notepress_zip_load_error() { throw ContainerError.library(String(cString: why)) }
        var seen = Set<String>()
        for e in entries where !seen.insert(e.name).inserted { throw ContainerError.duplicateEntry(e.name) }
        let names = entries.map { strdup($0.name) }
        defer { names.forEach { free($0) } }
        let buffers: [UnsafeMutablePointer<UInt8>] = entries.map { e in
            let p = UnsafeMutablePointer<UInt8>.allocate(capacity: max(e.bytes.count, 1))
            p.initialize(from: e.bytes, count: e.bytes.count)
            return p
        }
        defer { buffers.forEach { $0.deallocate() } }
        let lengths = entries.map(\.bytes.count)
        let stored = entries.map { Int32($0.stored ? 1 : 0) }
        var out: UnsafeMutablePointer<UInt8>?
        var length = 0
        var message = [CChar](repeating: 0, count: 512)
        let constNames = names.map { UnsafePointer<CChar>($0) }
        let constBuffers = buffers.map { Optional(UnsafePointer<UInt8>($0)) }
        let status = constNames.withUnsafeBufferPointer { n in
            constBuffers.withUnsafeBufferPointer { b in
                notepress_zip_write(entries.count, n.baseAddress, b.baseAddress, lengths, stored,
                                    Int64(modified.timeIntervalSince1970), &out, &length, &message, message.count)
            }
        }
        guard status == 0, let out else {
            throw ContainerError.library(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { free(out) }
        return Array(UnsafeBufferPointer(start: out, count: length))
    }

    /// The entries of the zip archive `bytes`, in archive order, as libzip reads them back: the
    /// central directory checked against the local headers (`ZIP_CHECKCONS`), each entry inflated
    /// and its CRC checked. What ``bytes()`` wrote reads back as its ``entries``. For checks of
    /// written packages (the fuzz harness's oracles, tests); an entry larger than `maxEntryBytes`
    /// is refused rather than inflated.
    /// - Throws: ``ContainerError/library(_:)`` when libzip cannot be loaded, or with its message
    ///   when `bytes` is no archive it can read whole.
    package static func read(_ bytes: [UInt8], maxEntryBytes: Int = 1 << 28) throws -> [Entry] {
        if let why = notepress_zip_load_error() { throw ContainerError.library(String(cString: why)) }
        final class Collected { var entries: [Entry] = [] }
        let collected = Collected()
        var message = [CChar](repeating: 0, count: 512)
        let status = bytes.withUnsafeBufferPointer { b in
            withExtendedLifetime(collected) {
                notepress_zip_read(b.baseAddress, b.count, maxEntryBytes, Unmanaged.passUnretained(collected).toOpaque(),
                                   { context, name, data, length, stored in
                    guard let context, let name else { return 1 }
                    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: length)) } ?? []
                    Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue().entries
                        .append(Entry(name: String(cString: name), bytes: bytes, stored: stored != 0))
                    return 0
                }, &message, message.count)
            }
        }
        guard status == 0 else {
            throw ContainerError.library(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return collected.entries
    }
}

/// Why a container (zip package of XML parts) could not be written.
package enum ContainerError: Error, Equatable, CustomStringConvertible {
    /// libzip or libxml2 could not be loaded or failed; the library's message.
    case library(String)
    /// Two entries of the archive have this name.
    case duplicateEntry(String)

    package var description: String {
        switch self {
        case .library(let m): return m
        case .duplicateEntry(let n): return "two entries of the archive are named \(n)"
        }
    }
}
