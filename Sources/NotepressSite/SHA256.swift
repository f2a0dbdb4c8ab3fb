import CLibCrypto

/// SHA-256 (FIPS 180-4) for the incremental-build manifest, through OpenSSL's libcrypto (the EVP
/// digest interface, OpenSSL 3): a maintained implementation that picks the CPU's SHA
/// instructions, AVX2 or SSSE3 itself. No fallback of our own: libcrypto is on every platform
/// the package builds on (Debian `libssl3`, Homebrew `openssl@3`). It is loaded on the first
/// hash (CLibCrypto: dlopen), so a run that hashes nothing does not pay for mapping it. A value
/// type over one `EVP_MD_CTX`, copied before it changes when the value was copied; checked
/// against the FIPS 180-4 / NIST CAVP example vectors and `sha256sum` in BatchManifestTests.
package struct SHA256: Sendable {
    /// One digest context, owned by one value at a time (``unique()``).
    private final class Context: @unchecked Sendable {
        let ctx: OpaquePointer

        init() { ctx = notepress_sha256_new() }

        init(copying other: Context) { ctx = notepress_sha256_copy(other.ctx) }

        deinit { notepress_sha256_free(ctx) }
    }

    private var context = Context()

    /// An empty message.
    package init() {}

    /// The context, copied first when another value shares it (value semantics).
    private mutating func unique() -> OpaquePointer {
        if !isKnownUniquelyReferenced(&context) { context = Context(copying: context) }
        return context.ctx
    }

    /// Adds bytes to the message.
    package mutating func update<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { update(buffer: $0) }
        if handled == nil { Array(bytes).withUnsafeBufferPointer { update(buffer: $0) } }
    }

    /// Adds bytes to the message.
    package mutating func update(buffer p: UnsafeBufferPointer<UInt8>) {
        guard let base = p.baseAddress, p.count > 0 else { return }
        notepress_sha256_update(unique(), base, p.count)
    }

    /// Adds the UTF-8 bytes of a string.
    package mutating func update(_ string: String) {
        var s = string
        s.withUTF8 { update(buffer: $0) }
    }

    /// The 32-byte digest of the message.
    package mutating func finalize() -> [UInt8] {
        let ctx = unique()
        var out = [UInt8](repeating: 0, count: 32)
        out.withUnsafeMutableBufferPointer { notepress_sha256_final(ctx, $0.baseAddress) }
        return out
    }

    /// The digest of `bytes` as 64 lower-case hex digits.
    package static func hex<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        let digest = bytes.withContiguousStorageIfAvailable { digestOf($0) } ?? Array(bytes).withUnsafeBufferPointer { digestOf($0) }
        return hexString(digest)
    }

    /// The digest of a string's UTF-8 bytes as 64 lower-case hex digits.
    package static func hex(_ string: String) -> String {
        var s = string
        return hexString(s.withUTF8 { digestOf($0) })
    }

    /// The digest of a whole message in one call (`EVP_Digest`).
    private static func digestOf(_ p: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        out.withUnsafeMutableBufferPointer { notepress_sha256(UnsafeRawPointer(p.baseAddress), p.count, $0.baseAddress) }
        return out
    }

    /// Lower-case hex of bytes.
    package static func hexString(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(digest.count * 2)
        for b in digest { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }
}

extension SHA256 {
    /// The libcrypto this runs with, from the library at run time (`OpenSSL_version`): "3.0.15".
    package static var libraryVersion: String { String(cString: notepress_libcrypto_version()) }
}
