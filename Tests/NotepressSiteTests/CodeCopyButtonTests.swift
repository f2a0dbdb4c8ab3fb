import Foundation
import XCTest
import NotepressTestSupport

/// Issue 47 item 2: a copy button on every code block of a site page, in real Chromium from
/// `file://`: one button per block, a real `<button>` (keyboard reachable), the code copied
/// without a terminal session's prompts and output, the result said through a live region, and
/// no button in print.
final class CodeCopyButtonTests: XCTestCase {
    func testEveryCodeBlockHasACopyButtonThatCopiesTheCodeWithoutPrompts() throws {
        let (input, out, dir) = try makeSiteFolder(self, ["a.md": """
            # Code

            ```swift
            let x = 1 // hi
            ```

            ```console
            $ ls -l
            total 0
            $ echo "a < b"
            a < b
            ```

                indented code

            ```pwsh-session
            PS C:\\> Get-Date
            Monday
            ```

            Text with `inline code`.

            """])
        let r = try NotepressBinary.run(["convert", input, "-o", out, "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        // The probe: the Clipboard API recorded (headless Chromium has no clipboard to read back),
        // each button clicked in turn once the page's script ran.
        let stub = """
            <script>window.__copied = []; Object.defineProperty(navigator, 'clipboard', { value: {
              writeText: t => { window.__copied.push(t); return Promise.resolve(); } } });</script>
            """
        let probe = """
            <script>window.addEventListener('load', async () => {
              const bs = [...document.querySelectorAll('pre > button.copy-code')];
              for (const b of bs) { b.click(); await new Promise(r => setTimeout(r, 0)); }
              document.body.setAttribute('data-probe', JSON.stringify({
                buttons: bs.length, types: bs.map(b => b.type + ':' + b.tabIndex + ':' + b.getAttribute('aria-label')),
                copied: window.__copied, status: (document.querySelector('.copy-status[role=status][aria-live=polite]') || {}).textContent || null,
                labels: bs.map(b => b.textContent) }));
            });</script></body>
            """
        var page = try String(contentsOfFile: out + "/a.html", encoding: .utf8)
        page = page.replacingOccurrences(of: "<script src=\"_notepress/notepress.js\">", with: stub + "<script src=\"_notepress/notepress.js\">")
            .replacingOccurrences(of: "</body>", with: probe)
        let probed = URL(fileURLWithPath: out + "/probe.html")
        try page.write(to: probed, atomically: true, encoding: .utf8)
        _ = dir
        let (status, dom) = try runTool("chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=5000",
                                                     "--dump-dom", probed.absoluteString])
        XCTAssertEqual(status, 0)
        guard let a = dom.range(of: "data-probe=\""), let end = dom[a.upperBound...].firstIndex(of: "\"") else {
            return XCTFail("the probe did not run: \(dom.suffix(800))")
        }
        let json = String(dom[a.upperBound..<end]).replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        let probeResult = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], json)
        XCTAssertEqual(probeResult["buttons"] as? Int, 4, "one per code block, none for inline code: \(json)")
        XCTAssertEqual(probeResult["types"] as? [String], Array(repeating: "button:0:Copy the code", count: 4), json)
        XCTAssertEqual(probeResult["copied"] as? [String], ["let x = 1 // hi\n", "ls -l\necho \"a < b\"\n", "indented code\n", "Get-Date\n"], json)
        XCTAssertEqual(probeResult["labels"] as? [String], ["Copied", "Copied", "Copied", "Copied"], json)
        XCTAssertEqual(probeResult["status"] as? String, "Code copied", json)
        // Hidden in print (a file:// page may not read its stylesheet's rules: read the file).
        let css = try String(contentsOfFile: out + "/_notepress/notepress.css", encoding: .utf8)
        let prints = css.components(separatedBy: "@media print {").dropFirst().map { $0.prefix { $0 != "}" } }
        XCTAssertTrue(prints.contains { $0.contains(".copy-code") && $0.contains("display: none") }, "\(prints)")
    }
}
