import Foundation
import NotepressAST
import NotepressContainer

/// The package's bookkeeping parts: `meta.xml` and `META-INF/manifest.xml` (ODF 1.3 part 2,
/// "Packages", and part 3, §4 "Metadata").
enum ODTPackage {
    /// `meta.xml`: the generator, the title, the author (front matter `author`, as
    /// `meta:initial-creator` and `dc:creator`), the tags as keywords, and the document's date
    /// (front matter `created`, else the file time clamped by `SOURCE_DATE_EPOCH`) as creation
    /// and modification date. Nothing from the clock: the same input gives the same bytes.
    static func metaXML(_ metadata: DocumentMetadata) -> [UInt8] {
        let x = XMLStreamWriter()
        x.start("office:document-meta", attributeList: [
            ("xmlns:office", ODFNamespace.office), ("xmlns:meta", ODFNamespace.meta), ("xmlns:dc", ODFNamespace.dc),
            ("xmlns:xlink", ODFNamespace.xlink), ("office:version", "1.3"),
        ])
        x.start("office:meta")
        x.element("meta:generator", text: "Notepress")
        if let title = metadata.title { x.element("dc:title", text: title) }
        if let description = metadata.fields["description"] ?? metadata.fields["summary"] {
            x.element("dc:description", text: description)
        }
        if let author = metadata.fields["author"] {
            x.element("meta:initial-creator", text: author)
        }
        for tag in metadata.tags { x.element("meta:keyword", text: tag) }
        if let language = metadata.fields["lang"] ?? metadata.fields["language"] {
            x.element("dc:language", text: language)
        }
        if let created = metadata.created {
            let stamp = CivilDateTime(created).isoDate + "T" + CivilDateTime(created).isoTime
            x.element("meta:creation-date", text: stamp)
            if let author = metadata.fields["author"] { x.element("dc:creator", text: author) }
            x.element("dc:date", text: stamp)
        } else if let author = metadata.fields["author"] {
            x.element("dc:creator", text: author)
        }
        x.end()
        x.end()
        return x.bytes()
    }

    /// `META-INF/manifest.xml`: the package (`/`, with the media type and version), the three
    /// XML parts and every embedded image with its media type.
    static func manifestXML(images: [ODTImages.Embedded]) -> [UInt8] {
        let x = XMLStreamWriter()
        x.start("manifest:manifest", attributeList: [("xmlns:manifest", ODFNamespace.manifest), ("manifest:version", "1.3")])
        x.start("manifest:file-entry", attributeList: [
            ("manifest:full-path", "/"), ("manifest:version", "1.3"), ("manifest:media-type", ODTEmitter.mediaType),
        ])
        x.end()
        for part in ["content.xml", "styles.xml", "meta.xml"] {
            x.start("manifest:file-entry", attributeList: [("manifest:full-path", part), ("manifest:media-type", "text/xml")])
            x.end()
        }
        for image in images {
            x.start("manifest:file-entry", attributeList: [("manifest:full-path", image.name), ("manifest:media-type", image.mediaType)])
            x.end()
        }
        x.end()
        return x.bytes()
    }
}
