import Foundation
import Notepress

/// How far a batch conversion is, reported on standard error: a one-line bar redrawn in place
/// when standard error is a terminal (`[#####-----] 120/2000 files  85.3 files/s  0:22 left`),
/// otherwise one plain line per file (`converted PATH`, `skipped PATH`, `failed PATH`), and
/// nothing when quiet.
package final class ProgressReporter: @unchecked Sendable {
    /// How output looks.
    package enum Style: Sendable, Equatable { case bar, lines, quiet }

    /// What happened to one file.
    package enum Event: String, Sendable { case converted, skipped, failed }

    package let style: Style
    package let total: Int
    private let lock = NSLock()
    private var done = 0
    private let start: Date
    private var lastDraw = Date.distantPast
    private let sink: @Sendable (String) -> Void
    private let width: Int

    /// - Parameters:
    ///   - total: files to convert.
    ///   - width: the terminal's width in columns (bar style).
    ///   - sink: where text goes (standard error by default); receives text without a final newline
    ///     for the bar, with one for lines.
    package init(style: Style, total: Int, width: Int = 80,
                sink: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }) {
        self.style = style
        self.total = total
        self.width = max(10, width)
        self.sink = sink
        self.start = Date()
    }

    /// The style for standard error: a bar on a terminal (unless `TERM=dumb`), lines otherwise.
    package static func style(quiet: Bool, isTerminal: Bool = Platform.isTerminal(STDERR_FILENO),
                             environment: [String: String] = ProcessInfo.processInfo.environment) -> Style {
        if quiet { return .quiet }
        return isTerminal && environment["TERM"] != "dumb" ? .bar : .lines
    }

    /// Records one finished file (from any thread).
    package func record(_ event: Event, path: String) {
        lock.lock(); defer { lock.unlock() }
        done += 1
        switch style {
        case .quiet: return
        case .lines: sink("\(event.rawValue) \(PathText.oneLine(path))\n")
        case .bar:
            let now = Date()
            if done < total && now.timeIntervalSince(lastDraw) < 0.1 { return }
            lastDraw = now
            sink("\r" + Self.bar(done: done, total: total, elapsed: now.timeIntervalSince(start), width: width) + "\u{1B}[K")
        }
    }

    /// Ends the bar line (call once after the last file).
    package func finish() {
        lock.lock(); defer { lock.unlock() }
        if style == .bar && total > 0 { sink("\n") }
    }

    /// The bar text for `done` of `total` files after `elapsed` seconds, shorter than `width`
    /// columns (a line that reached the last column would wrap on some terminals, and each redraw
    /// would then scroll): bar, count, rate in files per second and the time left at that rate
    /// (`m:ss`). On a narrow terminal the rate goes first, then the time left, then the bar (a bar
    /// is at least 10 columns); below that the count alone, cut to fit.
    package static func bar(done: Int, total: Int, elapsed: TimeInterval, width: Int) -> String {
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let left = rate > 0 ? Double(total - done) / rate : 0
        let secs = Int(left.rounded())
        let room = max(1, width - 1)
        let count = String(format: " %d/%d", done, total)
        let infos = [String(format: "%@ files  %.1f files/s  %d:%02d left", count, rate, secs / 60, secs % 60),
                     String(format: "%@  %d:%02d left", count, secs / 60, secs % 60), count]
        for info in infos where room - info.count - 2 >= 10 {
            let barWidth = room - info.count - 2
            let filled = total > 0 ? barWidth * done / total : barWidth
            return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: barWidth - filled) + "]" + info
        }
        return String(count.dropFirst().prefix(room))
    }
}
