import COpenSSL

/// SHA-256 (FIPS 180-4) for the incremental-build manifest, through OpenSSL's libcrypto (the EVP
/// digest interface, OpenSSL 3): a maintained implementation that picks the CPU's SHA
/// instructions, AVX2 or SSSE3 itself. No fallback of our own: libcrypto is on every platform
/// the package builds on (Debian `libssl-dev`, Homebrew `openssl@3`). A value type over one
/// `EVP_MD_CTX`, copied before it changes when the value was copied; checked against the
/// FIPS 180-4 / NIST CAVP example vectors and `sha256sum` in BatchManifestTests.
package struct SHA256: Sendable {
    /// libcrypto's SHA-256, fetched once from the default provider (a fetch per hash is slow).
    nonisolated(unsafe) private static let algorithm: OpaquePointer = {
        guard let md = EVP_MD_fetch(nil, "SHA256", nil) else { fatalError("libcrypto: no SHA256 digest") }
        return md
    }()

    /// One digest context, owned by one value at a time (``unique()``).
    private final class Context: @unchecked Sendable {
        let ctx: OpaquePointer

        init() {
            guard let c = EVP_MD_CTX_new() else { fatalError("libcrypto: EVP_MD_CTX_new failed") }
            ctx = c
            guard EVP_DigestInit_ex2(ctx, SHA256.algorithm, nil) == 1 else { fatalError("libcrypto: EVP_DigestInit_ex2 failed") }
        }

        init(copying other: Context) {
            guard let c = EVP_MD_CTX_new() else { fatalError("libcrypto: EVP_MD_CTX_new failed") }
            ctx = c
            guard EVP_MD_CTX_copy_ex(ctx, other.ctx) == 1 else { fatalError("libcrypto: EVP_MD_CTX_copy_ex failed") }
        }

        deinit { EVP_MD_CTX_free(ctx) }
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
        guard EVP_DigestUpdate(unique(), base, p.count) == 1 else { fatalError("libcrypto: EVP_DigestUpdate failed") }
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
        var length: UInt32 = 0
        let ok = out.withUnsafeMutableBufferPointer { EVP_DigestFinal_ex(ctx, $0.baseAddress, &length) }
        guard ok == 1, length == 32 else { fatalError("libcrypto: EVP_DigestFinal_ex failed") }
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
        var length: UInt32 = 0
        let ok = out.withUnsafeMutableBufferPointer {
            EVP_Digest(UnsafeRawPointer(p.baseAddress), p.count, $0.baseAddress, &length, algorithm, nil)
        }
        guard ok == 1, length == 32 else { fatalError("libcrypto: EVP_Digest failed") }
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
    package static var libraryVersion: String { String(cString: OpenSSL_version(OPENSSL_VERSION_STRING)) }
}
