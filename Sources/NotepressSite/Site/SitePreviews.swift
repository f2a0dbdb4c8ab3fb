import Foundation
import Notepress
import NotepressAST

/// The data of a site's link previews (Quartz's and Obsidian Publish's popovers: hovering or
/// focusing a link to another page shows its title and first paragraph, or the linked section),
/// written at build time as JavaScript files that the site script loads with a `<script>` tag on
/// the first hover (browsers refuse `fetch` from `file://`), made from the site table alone (so
/// shards make the same bytes as one process).
///
/// `_notepress/previews/meta.js` calls `notepressPreviews.meta({"shards":N})`; each
/// `_notepress/previews/K.js` calls `notepressPreviews.shard(K,{PATH:[TITLE,EXCERPT,SECTIONS]})`
/// for the pages whose output path (below the HTML root, `notes/b.html`, not percent-encoded)
/// hashes to K (``shard(of:count:)``, 32-bit FNV-1a of its UTF-8 modulo N, as the script computes
/// it), where SECTIONS is `[[ID,HEADING,TEXT],…]`. Bounded: the excerpt is the table's
/// (``SiteScanner/excerptLength`` characters), at most ``sectionLimit`` sections of at most
/// ``sectionTextLength`` characters each, ``pagesPerShard`` pages per file on average.
package enum SitePreviews {
    /// The data's folder below the HTML root.
    package static let folder = "_notepress/previews"
    /// Pages per data file, on average: a hover loads one file.
    package static let pagesPerShard = 250
    /// Sections (with an id) kept per page, the first ones.
    package static let sectionLimit = 6
    /// Characters of a section's text kept (`…` marks a cut).
    package static let sectionTextLength = 160

    /// The shard of the page whose output path is `key`, among `count`: FNV-1a (32 bits) of its
    /// UTF-8, modulo `count` (site.js computes the same).
    package static func shard(of key: String, count: Int) -> Int {
        var h: UInt32 = 0x811C_9DC5
        for b in key.utf8 {
            h ^= UInt32(b)
            h = h &* 0x0100_0193
        }
        return Int(h % UInt32(max(1, count)))
    }

    /// `text` cut to `limit` characters, `…` marking a cut.
    static func cut(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)).trimmingCharacters(in: .whitespaces) + "…"
    }

    /// The preview files (paths below the HTML root) of `table`'s listed pages.
    package static func files(_ table: SiteTable) -> [(path: String, bytes: [UInt8])] {
        var entries: [(key: String, title: String, excerpt: String, sections: [[String]])] = []
        for (i, r) in table.records.enumerated() where table.isListed(i) {
            let stem = table.stems[i] ?? PathText.deletingExtension(r.path)
            let title = r.title ?? PathText.lastComponent(stem)
            let excerpt = r.excerpt ?? r.search.first { !$0.text.isEmpty }.map { cut($0.text, SiteScanner.excerptLength) } ?? ""
            // Sections with an id, less the title's own heading (the preview's title already).
            let sections = r.search.filter { !$0.id.isEmpty && $0.heading != title }.prefix(sectionLimit).map { s in
                [s.id, s.heading, cut(s.text, sectionTextLength)]
            }
            entries.append((stem + ".html", title, excerpt, Array(sections)))
        }
        let count = max(1, (entries.count + pagesPerShard - 1) / pagesPerShard)
        var shards = Array(repeating: [Int](), count: count)
        for (k, e) in entries.enumerated() { shards[shard(of: e.key, count: count)].append(k) }
        var out: [(path: String, bytes: [UInt8])] = [(folder + "/meta.js", Array("notepressPreviews.meta({\"shards\":\(count)});\n".utf8))]
        for (n, members) in shards.enumerated() {
            var w = SiteTableCodec.Writer()
            w.out += Array("notepressPreviews.shard(\(n),{".utf8)
            for (j, k) in members.enumerated() {
                let e = entries[k]
                if j > 0 { w.out.append(0x2C) }
                w.out.append(0x0A)
                w.string(e.key); w.out.append(0x3A); w.out.append(0x5B)
                w.string(e.title); w.out.append(0x2C)
                w.string(e.excerpt); w.out.append(0x2C)
                w.out.append(0x5B)
                for (m, s) in e.sections.enumerated() {
                    if m > 0 { w.out.append(0x2C) }
                    w.strings(s)
                }
                w.out.append(0x5D); w.out.append(0x5D)
            }
            w.out += Array("});\n".utf8)
            out.append((folder + "/\(n).js", w.out))
        }
        return out
    }
}
