import Foundation
import NotepressAST
import NotepressPlatform

/// KDE's KSyntaxHighlighting, reached through the C interface of the `NotepressSyntaxShim`
/// shared library (Sources/NotepressSyntaxShim/include/notepress_syntax.h), loaded with `dlopen`
/// the first time ``shared`` is asked for: a run that highlights nothing never loads it (nor Qt),
/// and a machine without the library runs with plain code. One per process; safe to use from
/// several threads (the shim serialises its calls).
package final class SyntaxLibrary: @unchecked Sendable {
    /// The loaded library, or why it could not be loaded (one sentence, for one warning).
    package static let shared: Result<SyntaxLibrary, SyntaxLibraryUnavailable> = load()

    /// The file name of the shim: `libNotepressSyntaxShim.so` (`.dylib` on macOS).
    package static var shimFileName: String { Platform.sharedLibraryFileName("NotepressSyntaxShim") }

    /// Where the shim is looked for (``Platform/shimCandidates(fileName:environment:executable:)``):
    /// `NOTEPRESS_SYNTAX_SHIM` (a file) when set; beside the executable; `../lib/notepress/` of
    /// the executable's folder.
    package static func candidates(environment: String?, executable: String?) -> [String] {
        Platform.shimCandidates(fileName: shimFileName, environment: environment, executable: executable)
    }

    private typealias TokenFn = @convention(c) (UnsafeMutableRawPointer?, Int, Int, Int32) -> Void
    private typealias NameFn = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void
    private let openFn: @convention(c) () -> UnsafeMutableRawPointer?
    private let repositoryLock = NSLock()
    private var builtRepository: UnsafeMutableRawPointer?
    /// The library's repository of definitions and themes, built on first use (the most costly
    /// step of the library's start; `--version` and the manifest's hash need only ``version``).
    private var repository: UnsafeMutableRawPointer? {
        repositoryLock.lock()
        defer { repositoryLock.unlock() }
        if builtRepository == nil { builtRepository = openFn() }
        return builtRepository
    }
    private let resolveFn: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>?, Int) -> Int32
    private let highlightFn: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int, Int,
                                             TokenFn?, UnsafeMutableRawPointer?) -> Int32
    private let themeStyleFn: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<UInt32>?,
                                              UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> Int32
    private let themeNamesFn: @convention(c) (UnsafeMutableRawPointer?, NameFn?, UnsafeMutableRawPointer?) -> Void
    /// The library's version ("5.103.0").
    package let version: String
    /// How many syntax definitions it has (builds the repository).
    package var definitionCount: Int { repository.map { Int(countFn($0)) } ?? 0 }
    private let countFn: @convention(c) (UnsafeMutableRawPointer?) -> Int32
    /// Each TextStyle number's role (``CodeRole/role(ofLibraryStyle:)`` of the library's name).
    private let roles: [CodeRole]
    /// The TextStyle number of each library style name.
    private let styleNumbers: [String: Int32]
    private let cache = LanguageCache()

    private init(handle: UnsafeMutableRawPointer) throws(SyntaxLibraryUnavailable) {
        func fn<T>(_ name: String, _: T.Type) throws(SyntaxLibraryUnavailable) -> T {
            guard let p = Platform.symbol(handle, name) else {
                throw SyntaxLibraryUnavailable(reason: "the highlighting shim has no function \(name)")
            }
            return unsafeBitCast(p, to: T.self)
        }
        openFn = try fn("np_syntax_open", type(of: openFn))
        let versionFn = try fn("np_syntax_library_version", (@convention(c) () -> UnsafePointer<CChar>?).self)
        countFn = try fn("np_syntax_definition_count", type(of: countFn))
        let styleNameFn = try fn("np_syntax_style_name", (@convention(c) (Int32) -> UnsafePointer<CChar>?).self)
        resolveFn = try fn("np_syntax_resolve", type(of: resolveFn))
        highlightFn = try fn("np_syntax_highlight", type(of: highlightFn))
        themeStyleFn = try fn("np_syntax_theme_style", type(of: themeStyleFn))
        themeNamesFn = try fn("np_syntax_theme_names", type(of: themeNamesFn))
        version = versionFn().map { String(cString: $0) } ?? "unknown"
        var roles: [CodeRole] = []
        var numbers: [String: Int32] = [:]
        var i: Int32 = 0
        while let name = styleNameFn(i) {
            let s = String(cString: name)
            roles.append(CodeRole.role(ofLibraryStyle: s))
            numbers[s] = i
            i += 1
        }
        self.roles = roles
        self.styleNumbers = numbers
    }

    private static func load() -> Result<SyntaxLibrary, SyntaxLibraryUnavailable> {
        let paths = candidates(environment: ProcessInfo.processInfo.environment["NOTEPRESS_SYNTAX_SHIM"], executable: Platform.executablePath())
        var reasons: [String] = []
        for path in paths {
            switch Platform.loadLibrary(path) {
            case .success(let handle):
                do { return .success(try SyntaxLibrary(handle: handle)) } catch { return .failure(error) }
            case .failure(let e):
                reasons.append(e.message)
            }
        }
        let why = reasons.last ?? "no executable path to look beside"
        return .failure(SyntaxLibraryUnavailable(reason: "KSyntaxHighlighting could not be loaded (\(why))"))
    }

    /// The library's definition name for a code block's language (`py` → `Python`, `SWIFT` →
    /// `Swift`), by its own rules (name, case ignored, then file extension); `nil` when it knows
    /// none. Cached per language.
    package func definition(for language: String) -> String? {
        if let hit = cache.lookup(language) { return hit }
        guard let repository else { return nil }
        var buffer = [CChar](repeating: 0, count: 256)
        let found = resolveFn(repository, language, &buffer, buffer.count) != 0
        let name: String? = found ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
        cache.store(language, name)
        return name
    }

    /// The runs of `text` in the definition `definition` (from ``definition(for:)``). Lines
    /// longer than `maxLine` bytes stay plain.
    package func highlight(_ text: String, definition: String, maxLine: Int) -> [CodeHighlight.Run] {
        final class Collector {
            var runs: [CodeHighlight.Run] = []
            var at = 0
            let roles: [CodeRole]
            init(roles: [CodeRole]) { self.roles = roles }
        }
        let c = Collector(roles: roles)
        guard let repository else { return [CodeHighlight.Run(role: .plain, length: text.utf8.count)] }
        var text = text
        let total = text.utf8.count
        text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                _ = highlightFn(repository, definition, chars.baseAddress, chars.count, maxLine, { ctx, offset, length, style in
                    let c = Unmanaged<Collector>.fromOpaque(ctx!).takeUnretainedValue()
                    guard offset >= c.at else { return }
                    if offset > c.at { c.runs.append(CodeHighlight.Run(role: .plain, length: offset - c.at)) }
                    let role = style >= 0 && Int(style) < c.roles.count ? c.roles[Int(style)] : .plain
                    c.runs.append(CodeHighlight.Run(role: role, length: length))
                    c.at = offset + length
                }, Unmanaged.passUnretained(c).toOpaque())
            }
        }
        if c.at < total { c.runs.append(CodeHighlight.Run(role: .plain, length: total - c.at)) }
        return c.runs
    }

    /// The names of the library's themes (`Breeze Light`, `GitHub Dark`, …), sorted.
    package var themeNames: [String] {
        final class Names { var all: [String] = [] }
        let n = Names()
        guard let repository else { return [] }
        themeNamesFn(repository, { ctx, name in
            guard let name else { return }
            Unmanaged<Names>.fromOpaque(ctx!).takeUnretainedValue().all.append(String(cString: name))
        }, Unmanaged.passUnretained(n).toOpaque())
        return n.all
    }

    /// A library theme's style for a role: the colour (0xRRGGBB) and bold and italic of the role's
    /// representative library style (``CodeRole/representativeLibraryStyle``); for
    /// ``CodeRole/plain`` the normal text. `nil` when the theme is unknown.
    package func themeStyle(_ theme: String, role: CodeRole) -> (rgb: UInt32, bold: Bool, italic: Bool)? {
        themeStyle(theme, number: styleNumbers[role.representativeLibraryStyle] ?? 0)
    }

    /// A library theme's background colour (0xRRGGBB), or `nil` when the theme is unknown.
    package func themeBackground(_ theme: String) -> UInt32? { themeStyle(theme, number: -1)?.rgb }

    private func themeStyle(_ theme: String, number: Int32) -> (rgb: UInt32, bold: Bool, italic: Bool)? {
        var rgb: UInt32 = 0, bold: Int32 = 0, italic: Int32 = 0
        guard let repository else { return nil }
        guard themeStyleFn(repository, theme, number, &rgb, &bold, &italic) != 0 else { return nil }
        return (rgb, bold != 0, italic != 0)
    }
}

/// Why the highlighting library is not there: code stays plain, with one warning per run.
package struct SyntaxLibraryUnavailable: Error, Sendable, Equatable {
    /// One sentence (it names the file and the loader's reason).
    package var reason: String
}

/// Languages already resolved, behind a lock (site runs convert on several threads).
private final class LanguageCache: @unchecked Sendable {
    private var names: [String: String?] = [:]
    private let lock = NSLock()
    func lookup(_ language: String) -> String?? { lock.withLock { names[language] } }
    func store(_ language: String, _ name: String?) { lock.withLock { names[language] = .some(name) } }
}
