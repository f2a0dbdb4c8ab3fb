import Foundation
import NotepressHTML

/// The state of the last build as the browser sees it, and the Server-Sent Events that announce
/// each new one (`GET /__notepress/events`).
///
/// Every build that wrote something (or whose errors changed) gets the next generation number.
/// A page carries the generation it was served at (``inject(into:)``); the script asks for the
/// event stream, whose first event is the current generation, so a page served just before a
/// build still reloads. Each later build sends `event: reload` with its number.
package final class BuildEvents: @unchecked Sendable {
    private let condition = NSCondition()
    private var generation = 1
    private var errors: [String] = []
    private var stopped = false

    package init() {}

    /// The current generation and the errors of the last build (file:line:column: error: …).
    package var state: (generation: Int, errors: [String]) {
        condition.lock(); defer { condition.unlock() }
        return (generation, errors)
    }

    /// Announces a build: a new generation when it `changed` something or its errors differ from
    /// the last build's. Returns the generation now current.
    @discardableResult
    package func publish(changed: Bool, errors: [String]) -> Int {
        condition.lock(); defer { condition.unlock() }
        if changed || errors != self.errors {
            generation += 1
            self.errors = errors
            condition.broadcast()
        }
        return generation
    }

    /// Ends every event stream (the server stops).
    package func stop() {
        condition.lock(); stopped = true; condition.broadcast(); condition.unlock()
    }

    /// Waits until the generation is past `seen` or `seconds` pass; `nil` once stopped.
    func wait(after seen: Int, seconds: Double) -> Int? {
        condition.lock(); defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: seconds)
        while generation <= seen && !stopped {
            if !condition.wait(until: deadline) { break }
        }
        return stopped ? nil : generation
    }

    /// The path of the event stream and of the script.
    package static let eventsPath = "/__notepress/events"
    package static let scriptPath = "/__notepress/live.js"

    /// The script the served pages load: reload on each new build, keeping the scroll position
    /// (kept in sessionStorage for the path, restored once the reloaded page has loaded).
    package static let script = """
    (function () {
      var me = document.currentScript;
      var served = me ? Number(me.getAttribute("data-generation")) : 0;
      var key = "notepress-scroll:" + location.pathname;
      try {
        var y = sessionStorage.getItem(key);
        if (y !== null) {
          sessionStorage.removeItem(key);
          var restore = function () { window.scrollTo(0, Number(y)); };
          if (document.readyState === "complete") restore(); else window.addEventListener("load", restore);
        }
      } catch (e) {}
      var reload = function () {
        try { sessionStorage.setItem(key, String(window.scrollY)); } catch (e) {}
        location.reload();
      };
      var events = new EventSource("\(eventsPath)");
      events.addEventListener("build", function (e) { if (Number(e.data) !== served) reload(); });
      events.addEventListener("reload", function (e) { if (Number(e.data) !== served) reload(); });
    })();

    """

    /// `html` with the script (and, after a failed build, the error overlay) before its last
    /// `</body>`, else at its end. Only served pages get it: the files on disk stay as written.
    package func inject(into html: [UInt8]) -> [UInt8] {
        let (generation, errors) = state
        var tag = "<script src=\"\(Self.scriptPath)\" data-generation=\"\(generation)\"></script>\n"
        if !errors.isEmpty { tag = Self.overlay(errors) + tag }
        let insert = Array(tag.utf8)
        let close = Array("</body".utf8)
        var at = html.count
        if html.count >= close.count {
            var i = html.count - close.count
            while i >= 0 {
                var match = true
                for j in 0..<close.count {
                    let b = html[i + j]
                    if (b >= 0x41 && b <= 0x5A ? b + 0x20 : b) != close[j] { match = false; break }
                }
                if match { at = i; break }
                i -= 1
            }
        }
        return Array(html[..<at]) + insert + Array(html[at...])
    }

    /// The overlay that shows a failed build's errors over the page.
    static func overlay(_ errors: [String]) -> String {
        let items = errors.map { "<li>" + escape($0) + "</li>" }.joined()
        return "<div id=\"notepress-error-overlay\" role=\"alert\" style=\"position:fixed;inset:0;z-index:2147483647;"
            + "overflow:auto;background:rgba(20,20,20,.94);color:#fff;font:15px/1.5 ui-monospace,monospace;padding:2em\">"
            + "<h1 style=\"color:#ff8080;font-size:1.4em;margin:0 0 1em\">notepress: the last build failed</h1>"
            + "<ul style=\"margin:0;padding-left:1.2em\">" + items + "</ul>"
            + "<p style=\"opacity:.7\">Fix the file and save: the page reloads.</p></div>\n"
    }

    /// The page shown for a path that is not in the output (when the site has no 404.html).
    static func notFoundPage(_ path: String) -> [UInt8] {
        Array(("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Not found</title></head>"
            + "<body><h1>Not found</h1><p>" + escape(path) + " is not in the site.</p></body></html>\n").utf8)
    }

    /// HTML escaping is NotepressHTML's policy (``HTMLEscape``).
    static func escape(_ s: String) -> String { HTMLEscape.text(s) }
}
