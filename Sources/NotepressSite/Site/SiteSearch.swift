import Foundation
import Notepress
import NotepressAST

/// The search index of a site, written at build time as JavaScript files that `<script>` tags
/// load (browsers refuse `fetch` from `file://`), made from the site table alone (so shards make
/// the same bytes as one process).
///
/// Documents are sections (``SiteSearchSection``): a page's top part carries the page title,
/// each heading's section its heading text; results link to the heading's anchor. Fields and
/// boosts: `title` ×10, `heading` ×5, `body` ×1 (titles and headings rank above body text).
///
/// Split by term prefix (``SearchTerms/shardKey(_:depth:)``; an index of fewer than
/// ``splitThreshold`` term–section pairs is one file, `t-all.js`): `_notepress/search/t-HEX.js` holds every
/// term of one prefix as a serialised lunr 2.3.9 index (`lunr.Index.load`, the format
/// `lunr.Index.prototype.toJSON` writes: `invertedIndex` sorted in JavaScript string order,
/// `fieldVectors` of `[termIndex, weight, …]`), so a query loads one shard per term, never the
/// whole index. lunr's `Builder` cannot make such a split index (its vectors span every term), so
/// the weights are computed here as lunr computes them — BM25 with k1 = 1.2 — but without length
/// normalisation (b = 0), so an edit changes only the shards of the terms it adds or removes; a
/// term keeps its ``postingLimit`` best sections. The browser searches each shard with lunr
/// (`Index.query`, trailing wildcards for prefixes) and adds the scores.
/// `_notepress/search/docs-N.js` holds sections N·``docsPerFile`` … as `[title, href, heading]`
/// (href from the site root), `_notepress/search/text-N.js` their texts' starts
/// (``SiteSearchSection/text``: excerpts and the check of quoted phrases, loaded for the results
/// shown only), `_notepress/search/meta.js` the shard list, counts and the folding table of the
/// page's normalisation (``SearchTerms/foldTable``).
package enum SiteSearch {
    /// The index's folder below the HTML root.
    package static let folder = "_notepress/search"

    /// The file names (below ``folder``) the index whose `meta.js` is at `path` consists of;
    /// `nil` when it cannot be read.
    package static func listedFiles(_ path: String) -> Set<String>? {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8),
              let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")") else { return nil }
        guard let json = try? JSONSerialization.jsonObject(with: Data(text[text.index(after: open)..<close].utf8)) as? [String: Any],
              let docs = json["docs"] as? Int, let per = json["docsPerFile"] as? Int, per > 0,
              let shards = json["shards"] as? [String] else { return nil }
        var names = Set(shards.map { "t-" + $0 + ".js" })
        for k in 0..<max(1, (docs + per - 1) / per) { names.insert("docs-\(k).js"); names.insert("text-\(k).js") }
        names.insert("meta.js")
        return names
    }

    /// Sections per documents file.
    package static let docsPerFile = 1000
    /// Below this many (term, section) pairs the index is one file (`t-all.js`).
    package static let splitThreshold = 20_000
    /// Sections kept per term (the best by weight, then the first).
    package static let postingLimit = 300
    /// The fields and their boosts.
    static let fields: [(name: String, boost: Double)] = [("title", 10), ("heading", 5), ("body", 1)]

    /// The index files (paths below the HTML root) of `table`'s pages, `href` giving each page's
    /// output path (`a/b.html`). `lunrVersion`: the `version` written (the copied lunr's).
    package static func files(_ table: SiteTable, lunrVersion: String) -> [(path: String, bytes: [UInt8])] {
        // Sections, in table order.
        var docs: [(title: String, href: String, heading: String, text: String)] = []
        // term → field → ref → term frequency
        var postings: [String: [[Int: Int]]] = [:]
        func add(_ terms: [String], field: Int, ref: Int) {
            for t in terms {
                if postings[t] == nil { postings[t] = [[:], [:], [:]] }
                postings[t]![field][ref, default: 0] += 1
            }
        }
        // Sections in natural order of title, then path (``NaturalOrder``): results of equal
        // score are listed by `ref`, so in that order.
        var listed: [(i: Int, title: String, key: NaturalOrder.Key)] = []
        for (i, r) in table.records.enumerated() where table.isListed(i) {
            let title = r.title ?? PathText.lastComponent(table.stems[i] ?? PathText.deletingExtension(r.path))
            listed.append((i, title, NaturalOrder.key(title)))
        }
        listed.sort { $0.key != $1.key ? $0.key < $1.key : $0.i < $1.i }
        for (i, title, _) in listed {
            let r = table.records[i]
            let stem = table.stems[i] ?? PathText.deletingExtension(r.path)
            let href = SitePaths.urlPath(stem + ".html")
            let titleTerms = SearchTerms.terms(title)
            let sections = r.search.isEmpty ? [SiteSearchSection(id: "", heading: "", words: "")] : r.search
            for (k, s) in sections.enumerated() {
                let ref = docs.count
                let fragment = s.id.isEmpty ? "" : "#" + SitePaths.urlFragment(s.id)
                docs.append((title, href + (k == 0 && s.id.isEmpty ? "" : fragment), s.heading, s.text))
                // The title counts in every section, so that all of a query's words may match a
                // section by the page's title and the section's own text.
                add(titleTerms, field: 0, ref: ref)
                if !s.heading.isEmpty { add(SearchTerms.terms(s.heading), field: 1, ref: ref) }
                if !s.words.isEmpty { add(s.words.split(separator: " ").map(String.init), field: 2, ref: ref) }
            }
        }
        let n = Double(docs.count)
        // A small index is one file; a larger one is split by two-letter prefix.
        var pairs = 0
        for (_, byField) in postings { for f in byField { pairs += f.count } }
        let depth = pairs < splitThreshold ? 0 : 2
        // Weights, by term: (field, ref, weight), capped.
        var shards: [String: [(term: String, entries: [(field: Int, ref: Int, weight: Double)])]] = [:]
        for (term, byField) in postings {
            var refs = Set<Int>()
            for f in byField { refs.formUnion(f.keys) }
            let df = Double(refs.count)
            let idf = log(1 + abs((n - df + 0.5) / (df + 0.5)))
            var entries: [(field: Int, ref: Int, weight: Double)] = []
            for (f, m) in byField.enumerated() {
                for (ref, tf) in m {
                    let t = Double(tf)
                    let w = (idf * (t * 2.2) / (t + 1.2) * fields[f].boost * 1000).rounded() / 1000
                    entries.append((f, ref, w))
                }
            }
            if refs.count > postingLimit {
                var best: [Int: Double] = [:]
                for e in entries { best[e.ref, default: 0] += e.weight }
                // Sorted as (ref, weight) pairs: comparing by dictionary look-ups was a tenth of a
                // 10 000-note build's CPU (perf).
                let ranked = best.map { (ref: $0.key, weight: $0.value) }.sorted { $0.weight != $1.weight ? $0.weight > $1.weight : $0.ref < $1.ref }
                let kept = Set(ranked.prefix(postingLimit).map(\.ref))
                entries = entries.filter { kept.contains($0.ref) }
            }
            shards[SearchTerms.shardKey(term, depth: depth), default: []].append((term, entries))
        }
        var out: [(path: String, bytes: [UInt8])] = []
        let keys = shards.keys.sorted { jsPrecedes($0, $1) }
        for key in keys {
            let terms = shards[key]!.sorted { jsPrecedes($0.term, $1.term) }
            out.append(("_notepress/search/t-" + SearchTerms.shardName(key) + ".js", shardFile(key, terms, lunrVersion: lunrVersion)))
        }
        out += docsFiles(docs)
        var m = SiteTableCodec.Writer()
        m.out += Array("notepressSearch.meta({\"docs\":\(docs.count),\"docsPerFile\":\(docsPerFile),\"depth\":\(depth),\"textLength\":\(SiteSearchSection.textLength),\"shards\":".utf8)
        m.strings(keys.map(SearchTerms.shardName))
        m.out += Array(",\"fold\":{".utf8)
        for (k, (from, to)) in SearchTerms.foldTable.enumerated() {
            if k > 0 { m.out.append(0x2C) }
            m.string(from); m.out.append(0x3A); m.string(to)
        }
        m.out += Array("}});\n".utf8)
        out.append(("_notepress/search/meta.js", m.out))
        return out
    }

    /// One shard of the inverted index of ``files(_:lunrVersion:)``: the terms of prefix `key`
    /// (in JavaScript's order) as a lunr index, field vectors and inverted index, in a
    /// `notepressSearch.shard(...)` call.
    static func shardFile(_ key: String, _ terms: [(term: String, entries: [(field: Int, ref: Int, weight: Double)])],
                          lunrVersion: String) -> [UInt8] {
        var w = SiteTableCodec.Writer()
        w.out += Array("notepressSearch.shard(".utf8)
        w.string(key)
        w.out += Array(",{\"version\":".utf8)
        w.string(lunrVersion)
        w.out += Array(",\"fields\":[\"title\",\"heading\",\"body\"],\"fieldVectors\":[".utf8)
        // Field vectors: field/ref → [(termIndex, weight)], in field then ref order.
        var vectors: [Int: [Int: [(Int, Double)]]] = [:]
        for (ti, t) in terms.enumerated() {
            for e in t.entries { vectors[e.field, default: [:]][e.ref, default: []].append((ti, e.weight)) }
        }
        var firstVector = true
        for f in vectors.keys.sorted() {
            for ref in vectors[f]!.keys.sorted() {
                if !firstVector { w.out.append(0x2C) }
                firstVector = false
                w.out.append(0x5B)
                w.string(fields[f].name + "/" + String(ref))
                w.out += Array(",[".utf8)
                for (k, (ti, weight)) in vectors[f]![ref]!.enumerated() {
                    if k > 0 { w.out.append(0x2C) }
                    w.out += Array((String(ti) + "," + number(weight)).utf8)
                }
                w.out += Array("]]".utf8)
            }
        }
        w.out += Array("],\"invertedIndex\":[".utf8)
        for (ti, t) in terms.enumerated() {
            if ti > 0 { w.out.append(0x2C) }
            w.out.append(0x5B)
            w.string(t.term)
            w.out += Array((",{\"_index\":" + String(ti)).utf8)
            for (f, field) in fields.enumerated() {
                w.out += Array((",\"" + field.name + "\":{").utf8)
                let refs = t.entries.filter { $0.field == f }.map(\.ref).sorted()
                w.out += Array(refs.map { "\"\($0)\":{}" }.joined(separator: ",").utf8)
                w.out.append(0x7D)
            }
            w.out += Array("}]".utf8)
        }
        w.out += Array("],\"pipeline\":[]});\n".utf8)
        return w.out
    }

    /// The sections' files of ``files(_:lunrVersion:)``, ``docsPerFile`` sections each: titles,
    /// links and headings (`docs-N.js`), and their texts (`text-N.js`).
    static func docsFiles(_ docs: [(title: String, href: String, heading: String, text: String)]) -> [(path: String, bytes: [UInt8])] {
        var out: [(path: String, bytes: [UInt8])] = []
        var chunk = 0
        while chunk * docsPerFile < max(docs.count, 1) {
            var w = SiteTableCodec.Writer()
            w.out += Array("notepressSearch.docs(\(chunk),[".utf8)
            let lo = chunk * docsPerFile, hi = min(docs.count, lo + docsPerFile)
            for i in lo..<hi {
                if i > lo { w.out.append(0x2C) }
                w.out.append(0x5B)
                w.string(docs[i].title); w.out.append(0x2C)
                w.string(docs[i].href); w.out.append(0x2C)
                w.string(docs[i].heading)
                w.out.append(0x5D)
            }
            w.out += Array("]);\n".utf8)
            out.append(("_notepress/search/docs-\(chunk).js", w.out))
            var t = SiteTableCodec.Writer()
            t.out += Array("notepressSearch.text(\(chunk),".utf8)
            t.strings(docs[lo..<hi].map(\.text))
            t.out += Array(");\n".utf8)
            out.append(("_notepress/search/text-\(chunk).js", t.out))
            chunk += 1
        }
        return out
    }

    /// JavaScript's string order (UTF-16 code units), which lunr's token set needs.
    static func jsPrecedes(_ a: String, _ b: String) -> Bool { a.utf16.lexicographicallyPrecedes(b.utf16) }

    /// A weight as JSON: at most three decimals, no trailing zeros.
    static func number(_ v: Double) -> String {
        let scaled = Int((v * 1000).rounded())
        var s = String(scaled / 1000)
        let frac = scaled % 1000
        if frac != 0 {
            var f = String(frac)
            while f.count < 3 { f = "0" + f }
            while f.hasSuffix("0") { f.removeLast() }
            s += "." + f
        }
        return s
    }
}
