import CLibXML2
import Foundation
import Notepress
import NotepressContainer

/// Checks of the package writers' outputs (DOCX, ODT, EPUB) and of PDF that hold for every input
/// (``FuzzHarness``). Each returns a message naming the problem, or `nil`.
///
/// - Size: what a reader unpacks (a package's entries, a PDF's bytes) is at most ``sizeLimit(_:)``
///   of the input's length.
/// - Packages: the zip opens (libzip's consistency checks, every entry inflated, its CRC checked);
///   every XML part (`.xml`, `.rels`, `.opf`, `.xhtml`, `.ncx`) is well-formed as a stock libxml2
///   reader takes it (no `XML_PARSE_HUGE`: elements at most 256 deep); the parts a reader needs
///   are there and what the package's own lists name is in it:
///   - DOCX: `[Content_Types].xml`, `_rels/.rels`, `word/document.xml`; every part has a
///     content type (an `Override` or a `Default` of its extension) and every `Override` names a
///     part; every internal relationship's target is a part.
///   - ODT: `mimetype` first, stored, `application/vnd.oasis.opendocument.text`; `content.xml`,
///     `styles.xml`, `META-INF/manifest.xml`; the manifest lists every file and only files.
///   - EPUB: `mimetype` first, stored, `application/epub+zip`; `META-INF/container.xml` names the
///     package document; its manifest lists every file (but `mimetype` and `META-INF/`) and only
///     files, its ids are unique and the spine's items are in it.
/// - PDF: starts with `%PDF-`, ends with `%%EOF` (and an end of line).
enum FuzzPackages {
    /// The most bytes an output may unpack to for `inputLength` bytes of text: 1 MiB (the
    /// styles, the theme's stylesheet, the fonts' descriptions) and 256 bytes a byte.
    static func sizeLimit(_ inputLength: Int) -> Int { (1 << 20) + 256 * inputLength }

    static func check(_ format: OutputFormat, _ bytes: [UInt8], inputLength: Int) -> String? {
        switch format {
        case .pdf:
            return pdf(bytes, inputLength: inputLength)
        case .docx, .odt, .epub:
            return package(format, bytes, inputLength: inputLength)
        case .html, .json, .ansi, .tei, .rtf, .man:
            return nil
        }
    }

    static func pdf(_ bytes: [UInt8], inputLength: Int) -> String? {
        if bytes.count > sizeLimit(inputLength) { return "pdf: \(bytes.count) bytes for \(inputLength) bytes of text" }
        if !bytes.starts(with: Array("%PDF-".utf8)) { return "pdf: does not start with %PDF-" }
        var end = bytes[...]
        while let last = end.last, last == 0x0A || last == 0x0D { end = end.dropLast() }
        if !end.suffix(5).elementsEqual("%%EOF".utf8) { return "pdf: does not end with %%EOF" }
        return nil
    }

    static func package(_ format: OutputFormat, _ bytes: [UInt8], inputLength: Int) -> String? {
        let entries: [ZipArchive.Entry]
        do {
            entries = try ZipArchive.read(bytes, maxEntryBytes: sizeLimit(inputLength))
        } catch {
            return "\(format): the zip does not open: \(error)"
        }
        let unpacked = entries.reduce(0) { $0 + $1.bytes.count }
        if unpacked > sizeLimit(inputLength) {
            return "\(format): \(unpacked) bytes unpacked for \(inputLength) bytes of text"
        }
        var lists: [String: [XMLElementFound]] = [:]
        for e in entries where isXMLPart(e.name) {
            let (found, problem) = parseXML(e.bytes, collecting: collected)
            if let problem { return "\(format): \(e.name) is not well-formed: \(problem)" }
            lists[e.name] = found
        }
        let names = entries.map(\.name)
        switch format {
        case .docx: return docx(names, lists)
        case .odt: return mimetypeFirst(entries, "application/vnd.oasis.opendocument.text", format) ?? odt(names, lists)
        case .epub: return mimetypeFirst(entries, "application/epub+zip", format) ?? epub(names, lists)
        default: return nil
        }
    }

    /// The parts whose elements ``parseXML(_:collecting:)`` keeps: the packages' lists of parts.
    static let collected: Set<String> = ["Override", "Default", "Relationship", "file-entry", "rootfile", "item", "itemref"]

    static func isXMLPart(_ name: String) -> Bool {
        [".xml", ".rels", ".opf", ".xhtml", ".ncx"].contains { name.hasSuffix($0) }
    }

    static func mimetypeFirst(_ entries: [ZipArchive.Entry], _ type: String, _ format: OutputFormat) -> String? {
        guard let first = entries.first, first.name == "mimetype" else { return "\(format): mimetype is not the first entry" }
        if !first.stored { return "\(format): mimetype is compressed" }
        if first.bytes != Array(type.utf8) { return "\(format): mimetype holds \(String(decoding: first.bytes, as: UTF8.self).debugDescription)" }
        return nil
    }

    static func docx(_ names: [String], _ lists: [String: [XMLElementFound]]) -> String? {
        for required in ["[Content_Types].xml", "_rels/.rels", "word/document.xml"] where !names.contains(required) {
            return "docx: no \(required)"
        }
        let types = lists["[Content_Types].xml"] ?? []
        let overrides = Set(types.filter { $0.name == "Override" }.compactMap { $0.attributes["PartName"] })
        let defaults = Set(types.filter { $0.name == "Default" }.compactMap { $0.attributes["Extension"]?.lowercased() })
        for o in overrides where !names.contains(String(o.drop { $0 == "/" })) { return "docx: content type of \(o), not in the package" }
        for n in names where n != "[Content_Types].xml" && !overrides.contains("/" + n) {
            let ext = n.split(separator: "/").last.flatMap { $0.contains(".") ? $0.split(separator: ".").last : nil }.map { $0.lowercased() }
            if ext.map({ !defaults.contains($0) }) ?? true { return "docx: \(n) has no content type" }
        }
        for (part, found) in lists where part.hasSuffix(".rels") {
            // `word/_rels/document.xml.rels` is about `word/document.xml`: targets start in `word/`.
            let folder = String(part.dropLast(part.split(separator: "/").last.map(\.count) ?? 0)).replacingOccurrences(of: "_rels/", with: "")
            for r in found where r.name == "Relationship" && r.attributes["TargetMode"] != "External" {
                guard let target = r.attributes["Target"] else { return "docx: a relationship of \(part) without a target" }
                let path = target.hasPrefix("/") ? String(target.dropFirst()) : folder + target
                if !names.contains(path) { return "docx: \(part) names \(target), not in the package" }
            }
        }
        return nil
    }

    static func odt(_ names: [String], _ lists: [String: [XMLElementFound]]) -> String? {
        for required in ["content.xml", "styles.xml", "META-INF/manifest.xml"] where !names.contains(required) {
            return "odt: no \(required)"
        }
        let listed = (lists["META-INF/manifest.xml"] ?? []).filter { $0.name == "file-entry" }.compactMap { $0.attributes["full-path"] }
        for path in listed where path != "/" && !path.hasSuffix("/") && !names.contains(path) {
            return "odt: the manifest lists \(path), not in the package"
        }
        for n in names where n != "mimetype" && n != "META-INF/manifest.xml" && !listed.contains(n) {
            return "odt: \(n) is not in the manifest"
        }
        return nil
    }

    static func epub(_ names: [String], _ lists: [String: [XMLElementFound]]) -> String? {
        guard let rootfile = (lists["META-INF/container.xml"] ?? []).first(where: { $0.name == "rootfile" })?.attributes["full-path"] else {
            return "epub: META-INF/container.xml names no package document"
        }
        guard let opf = lists[rootfile] else { return "epub: the package document \(rootfile) is not in the package" }
        let folder = rootfile.contains("/") ? String(rootfile[...rootfile.lastIndex(of: "/")!]) : ""
        let items = opf.filter { $0.name == "item" }
        var ids = Set<String>(), hrefs = Set<String>()
        for item in items {
            guard let id = item.attributes["id"], let href = item.attributes["href"] else { return "epub: an item without id or href" }
            if !ids.insert(id).inserted { return "epub: two items with id \(id)" }
            let path = folder + (href.removingPercentEncoding ?? href)
            if !names.contains(path) { return "epub: the manifest lists \(href), not in the package" }
            hrefs.insert(path)
        }
        for n in names where n != "mimetype" && !n.hasPrefix("META-INF/") && n != rootfile && !hrefs.contains(n) {
            return "epub: \(n) is not in the manifest"
        }
        for ref in opf where ref.name == "itemref" && !ids.contains(ref.attributes["idref"] ?? "") {
            return "epub: the spine names \(ref.attributes["idref"] ?? "nothing"), not in the manifest"
        }
        return nil
    }

    // MARK: XML

    /// An element ``parseXML(_:collecting:)`` kept: its local name and its attributes by local name.
    struct XMLElementFound: Equatable {
        var name: String
        var attributes: [String: String]
    }

    private static let initialized: Bool = {
        xmlInitParser()
        return true
    }()

    /// Parses `bytes` as libxml2 does by default (no network, no DTD loaded, no entity
    /// substitution, elements at most 256 deep); the elements whose local name is in `names`, in
    /// document order, or libxml2's message (with its line) when the document is not well-formed.
    static func parseXML(_ bytes: [UInt8], collecting names: Set<String>) -> (found: [XMLElementFound], problem: String?) {
        _ = initialized
        guard let ctxt = xmlNewParserCtxt() else { return ([], "out of memory") }
        defer { xmlFreeParserCtxt(ctxt) }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        let padded = bytes + [0]  // a valid pointer for an empty part
        let doc = padded.withUnsafeBufferPointer { b in
            b.withMemoryRebound(to: CChar.self) { xmlCtxtReadMemory(ctxt, $0.baseAddress, Int32(bytes.count), "part", nil, options) }
        }
        guard let doc, ctxt.pointee.wellFormed != 0 else {
            if let doc { xmlFreeDoc(doc) }
            guard let e = xmlCtxtGetLastError(UnsafeMutableRawPointer(ctxt)) else { return ([], "not well-formed") }
            let message = e.pointee.message.map { String(cString: $0) }?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
            return ([], "line \(e.pointee.line): \(message)")
        }
        defer { xmlFreeDoc(doc) }
        var found: [XMLElementFound] = []
        var stack: [xmlNodePtr] = xmlDocGetRootElement(doc).map { [$0] } ?? []
        while let node = stack.popLast() {
            if let next = node.pointee.next { stack.append(next) }
            guard node.pointee.type == XML_ELEMENT_NODE else { continue }
            if let child = node.pointee.children { stack.append(child) }
            let name = String(cString: node.pointee.name)
            guard names.contains(name) else { continue }
            var attributes: [String: String] = [:]
            var attr = node.pointee.properties
            while let a = attr {
                var value = ""
                var text = a.pointee.children
                while let t = text {
                    if let c = t.pointee.content { value += String(cString: c) }
                    text = t.pointee.next
                }
                attributes[String(cString: a.pointee.name)] = value
                attr = a.pointee.next
            }
            found.append(XMLElementFound(name: name, attributes: attributes))
        }
        return (found, nil)
    }
}
