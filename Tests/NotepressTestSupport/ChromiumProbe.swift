import Foundation
import XCTest

/// Runs `script` (the body of an async function whose result is JSON-encodable) in a copy of the
/// page at `page` loaded by headless Chromium from `file://` at `width` × 800 px, after the page's
/// own scripts ran, and returns the result (the DOM dump carries it in `data-probe`).
package func probeInChromium(_ page: String, width: Int, _ script: String,
                             file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
    let probe = "<script>window.addEventListener('load', async () => { const out = await (async () => { \(script) })();"
        + " document.body.setAttribute('data-probe', JSON.stringify(out)); });</script></body>"
    let html = try String(contentsOfFile: page, encoding: .utf8).replacingOccurrences(of: "</body>", with: probe)
    let probed = URL(fileURLWithPath: (page as NSString).deletingLastPathComponent + "/probe-\(UUID().uuidString.prefix(8)).html")
    try html.write(to: probed, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: probed) }
    let (status, dom) = try runTool("chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                                                 "--window-size=\(width),800", "--virtual-time-budget=5000", "--dump-dom", probed.absoluteString])
    XCTAssertEqual(status, 0, file: file, line: line)
    guard let a = dom.range(of: "data-probe=\""), let end = dom[a.upperBound...].firstIndex(of: "\"") else {
        XCTFail("the probe did not run: \(dom.suffix(600))", file: file, line: line)
        return [:]
    }
    let json = String(dom[a.upperBound..<end]).replacingOccurrences(of: "&quot;", with: "\"")
        .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], json, file: file, line: line)
}
