import Foundation
import NotepressAST
import NotepressContainer
import NotepressThemes

/// The package's parts besides the body and footnotes (see ``DOCXEmitter``): content types,
/// relationships, core properties, settings, styles and numbering.
struct DOCXParts {
    let theme: ResolvedTheme
    let document: Document

    static let w = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    static let relationshipsNS = "http://schemas.openxmlformats.org/package/2006/relationships"
    static let officeRelationships = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"

    /// `[Content_Types].xml`: the XML parts by name, images by extension.
    func contentTypes(media: [ImageHeader.Kind]) -> [UInt8] {
        let x = XMLStreamWriter(standalone: true)
        x.start("Types", ["xmlns": "http://schemas.openxmlformats.org/package/2006/content-types"])
        x.element("Default", ["Extension": "rels", "ContentType": "application/vnd.openxmlformats-package.relationships+xml"])
        x.element("Default", ["Extension": "xml", "ContentType": "application/xml"])
        for kind in [ImageHeader.Kind.png, .jpeg, .gif] where media.contains(kind) {
            x.element("Default", ["Extension": kind.fileExtension, "ContentType": kind.mediaType])
        }
        let wml = "application/vnd.openxmlformats-officedocument.wordprocessingml."
        for (part, type) in [("/word/document.xml", wml + "document.main+xml"), ("/word/styles.xml", wml + "styles+xml"),
                             ("/word/numbering.xml", wml + "numbering+xml"), ("/word/footnotes.xml", wml + "footnotes+xml"),
                             ("/word/settings.xml", wml + "settings+xml"),
                             ("/docProps/core.xml", "application/vnd.openxmlformats-package.core-properties+xml")] {
            x.element("Override", ["PartName": part, "ContentType": type])
        }
        x.end()
        return x.bytes()
    }

    /// `_rels/.rels`: the main document and the core properties.
    func packageRelationships() -> [UInt8] {
        let x = XMLStreamWriter(standalone: true)
        x.start("Relationships", ["xmlns": Self.relationshipsNS])
        x.element("Relationship", ["Id": "rId1", "Type": Self.officeRelationships + "/officeDocument", "Target": "word/document.xml"])
        x.element("Relationship", ["Id": "rId2", "Type": "http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties",
                                   "Target": "docProps/core.xml"])
        x.end()
        return x.bytes()
    }

    /// `word/_rels/document.xml.rels`: the fixed parts (rId1–rId4), then hyperlinks and images.
    func documentRelationships(_ more: [DOCXRelationship]) -> [UInt8] {
        let x = XMLStreamWriter(standalone: true)
        x.start("Relationships", ["xmlns": Self.relationshipsNS])
        for (i, name) in ["styles", "numbering", "footnotes", "settings"].enumerated() {
            x.element("Relationship", ["Id": "rId\(i + 1)", "Type": Self.officeRelationships + "/" + name, "Target": name + ".xml"])
        }
        for r in more {
            x.start("Relationship", ["Id": r.id, "Type": Self.officeRelationships + "/" + r.type, "Target": r.target])
            if r.external { x.attribute("TargetMode", "External") }
            x.end()
        }
        x.end()
        return x.bytes()
    }

    /// `docProps/core.xml`: title, author (front matter `author`), keywords (the tags), created
    /// (the document's date) and modified (front matter `modified` or `updated`, else created).
    func coreProperties() -> [UInt8] {
        let m = document.metadata
        let x = XMLStreamWriter(standalone: true)
        x.start("cp:coreProperties", [
            "xmlns:cp": "http://schemas.openxmlformats.org/package/2006/metadata/core-properties",
            "xmlns:dc": "http://purl.org/dc/elements/1.1/", "xmlns:dcterms": "http://purl.org/dc/terms/",
            "xmlns:dcmitype": "http://purl.org/dc/dcmitype/", "xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance",
        ])
        if let t = m.title { x.element("dc:title", text: t) }
        if let a = m.fields["author"] ?? m.fields["authors"] { x.element("dc:creator", text: a) }
        if !m.tags.isEmpty { x.element("cp:keywords", text: m.tags.joined(separator: ", ")) }
        let modified = (m.fields["modified"] ?? m.fields["updated"]).flatMap(CivilDateTime.parse) ?? m.created
        for (name, date) in [("dcterms:created", m.created), ("dcterms:modified", modified)] {
            guard let date else { continue }
            x.element(name, ["xsi:type": "dcterms:W3CDTF"], text: CivilDateTime(date).iso8601)
        }
        x.end()
        return x.bytes()
    }

    /// `word/settings.xml`: the separator footnotes and Word 2013's compatibility mode.
    func settings() -> [UInt8] {
        let x = XMLStreamWriter(standalone: true)
        x.start("w:settings", ["xmlns:w": Self.w])
        x.start("w:footnotePr")
        x.element("w:footnote", ["w:id": "-1"])
        x.element("w:footnote", ["w:id": "0"])
        x.end()
        x.start("w:compat")
        x.element("w:compatSetting", ["w:name": "compatibilityMode", "w:uri": "http://schemas.microsoft.com/office/word", "w:val": "15"])
        x.end()
        x.end()
        return x.bytes()
    }

    /// `word/numbering.xml`: one abstract numbering per top-level list, its nine levels those of
    /// the lists nested in it (bullets •, ◦, ▪ in turn; decimal `1.` or `1)`, numbers bold as
    /// HTML and RTF draw them; unused levels bullets), and one `w:num` per list instance.
    func numbering(_ abstracts: [DOCXAbstractList], _ lists: [DOCXList]) -> [UInt8] {
        let x = XMLStreamWriter(standalone: true)
        x.start("w:numbering", ["xmlns:w": Self.w])
        for (i, abstract) in abstracts.enumerated() {
            x.start("w:abstractNum", ["w:abstractNumId": String(i)])
            x.element("w:multiLevelType", ["w:val": "multilevel"])
            for (level, format) in abstract.levels.enumerated() {
                let kind = format?.kind ?? .bullet
                x.start("w:lvl", ["w:ilvl": String(level)])
                x.element("w:start", ["w:val": String(format?.start ?? 1)])
                x.element("w:numFmt", ["w:val": kind.isBullet ? "bullet" : "decimal"])
                let text: String
                switch kind {
                case .bullet: text = Self.bullet(level)
                case .task(let checked): text = checked ? "\u{2612}" : "\u{2610}"
                case .period, .parenthesis: text = "%\(level + 1)" + (kind == .period ? "." : ")")
                }
                x.element("w:lvlText", ["w:val": text])
                x.element("w:lvlJc", ["w:val": "left"])
                x.start("w:pPr")
                x.element("w:ind", ["w:left": String(min(720 * (level + 1), DOCXEmitter.maxIndent)), "w:hanging": "360"])
                x.end()
                if !kind.isBullet {
                    x.start("w:rPr"); x.element("w:b"); x.element("w:bCs"); x.end()
                }
                x.end()
            }
            x.end()
        }
        for (i, list) in lists.enumerated() {
            x.start("w:num", ["w:numId": String(i + 1)])
            x.element("w:abstractNumId", ["w:val": String(list.abstract)])
            if let r = list.restart {
                x.start("w:lvlOverride", ["w:ilvl": String(r.level)])
                x.element("w:startOverride", ["w:val": String(r.start)])
                x.end()
            }
            x.end()
        }
        x.end()
        return x.bytes()
    }

    /// The bullet of a list level: •, ◦, ▪ in turn (as RTF).
    static func bullet(_ level: Int) -> String {
        ["\u{2022}", "\u{25E6}", "\u{25AA}"][level % 3]
    }
}
