import Foundation
import NotepressAST
import NotepressRawHTML
import NotepressRTF

/// `-t rtf`: RTF 1.9 for word processors (see ``RTFEmitter``).
package struct RTFWriter: DocumentWriter {
    package init() {}
    package var format: OutputFormat { .rtf }
    package var fileExtension: String { "rtf" }
    package func write(_ document: Document, options: ConversionOptions, diagnostics: inout [Diagnostic]) throws -> [UInt8] {
        let pictures = RTFPictureFiles(sourcePath: document.metadata.sourcePath)
        return RTFEmitter.renderBytes(RawHTMLReading.reading(document), theme: options.theme, unsafe: options.unsafe,
                                      tableOfContents: options.tableOfContents(of: document),
                                      markerContents: options.markerContents(of: document),
                                      picture: pictures.map { p in { p.picture($0) } }, diagnostics: &diagnostics)
    }
}

/// The pictures RTF embeds for a document's images (``RTFPicture``): local PNG and JPEG files
/// named by a relative destination (no scheme, no leading `/`, no `..` component, percent
/// escapes decoded, no query or fragment), found from the document's folder, at most
/// ``RTFPicture/maxBytes`` each and ``maxTotalBytes`` in all; each file read once. Any other
/// destination stays a link.
final class RTFPictureFiles {
    /// The most bytes of pictures one document embeds; later images stay links.
    static let maxTotalBytes = 32 << 20

    let folder: URL
    var cache: [String: RTFPicture?] = [:]
    var total = 0

    /// The pictures of a document read from `sourcePath`; `nil` without one (standard input).
    init?(sourcePath: String?) {
        guard let sourcePath, !sourcePath.isEmpty else { return nil }
        folder = URL(fileURLWithPath: sourcePath).deletingLastPathComponent()
    }

    /// The picture of image destination `destination`, if it is a local PNG or JPEG file within bounds.
    func picture(_ destination: String) -> RTFPicture? {
        if let known = cache[destination] { return known }
        let p = load(destination)
        if let p { total += p.bytes.count }
        cache[destination] = p
        return p
    }

    func load(_ destination: String) -> RTFPicture? {
        guard !destination.isEmpty, !destination.hasPrefix("/"), !destination.contains("?"), !destination.contains("#") else { return nil }
        if let colon = destination.firstIndex(of: ":"), !destination[..<colon].contains("/") { return nil }  // a scheme
        guard let path = destination.removingPercentEncoding,
              !path.split(separator: "/").contains("..") else { return nil }
        let url = folder.appendingPathComponent(path)
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
              attributes[.type] as? FileAttributeType == .typeRegular,
              let size = attributes[.size] as? Int, size <= RTFPicture.maxBytes, total + size <= Self.maxTotalBytes,
              let data = FileManager.default.contents(atPath: url.path) else { return nil }
        return RTFPicture(bytes: [UInt8](data))
    }
}
