import Foundation

/// Rendered partials kept for reuse across renders of one template set (a run's page template):
/// a partial rendered with a `.map` on top of the context stack that carries ``key`` (a string
/// that names that map's content, the same string only for the same content and the same
/// surroundings: the site's sidebar entries off a page's way, one per output folder) is rendered
/// once and its bytes copied into every later render. The partial must not read names from outer
/// contexts that differ between the renders sharing a memo key (the sidebar's `nav-item` reads
/// only its entry's). Thread-safe.
package final class MustacheMemo: @unchecked Sendable {
    /// The map key whose string value names a context's content.
    package static let key = "_memo"
    private let lock = NSLock()
    private var items: [String: [UInt8]] = [:]
    /// Rendered bytes at most kept (64 MiB), past which nothing more is kept.
    private var room = 64 << 20

    package init() {}

    func get(_ key: String) -> [UInt8]? { lock.lock(); defer { lock.unlock() }; return items[key] }

    func set(_ key: String, _ bytes: [UInt8]) {
        lock.lock(); defer { lock.unlock() }
        guard room >= bytes.count, items[key] == nil else { return }
        room -= bytes.count
        items[key] = bytes
    }
}
