import Foundation
import XCTest
import NotepressTestSupport

/// Issue 32: installed like the tools beside it. Through the real Makefile of this checkout:
/// `make install`/`uninstall` (into a DESTDIR, then for real into a temporary PREFIX: the binary,
/// `man`, bash completion from a login shell, fish completion), the quiet `make run`, the corpus
/// check that stops `make test` before building, `make corpus` from a file:// mirror, and the two
/// package sets. They reuse the debug build of `make test` (`CONFIG=debug NO_BUILD=1`): no
/// `swift build` runs inside the test.
final class InstallTests: XCTestCase {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// `bash -c SCRIPT` in the package root, without the outer make's MAKEFLAGS.
    func sh(_ script: String, environment: [String: String] = [:], file: StaticString = #filePath, line: UInt = #line) throws -> Run {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = ["-c", script]
        p.currentDirectoryURL = TestPaths.root
        var env = ProcessInfo.processInfo.environment
        for key in ["MAKEFLAGS", "MAKELEVEL", "MFLAGS", "MAKEOVERRIDES"] { env[key] = nil }
        for (k, v) in environment { env[k] = v }
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let outBox = DataBox(), errBox = DataBox()
        let t1 = Thread { outBox.data = out.fileHandleForReading.readDataToEndOfFile() }
        let t2 = Thread { errBox.data = err.fileHandleForReading.readDataToEndOfFile() }
        t1.start(); t2.start()
        p.waitUntilExit()
        while outBox.data == nil || errBox.data == nil { usleep(1000) }
        return Run(status: p.terminationStatus, stdout: String(decoding: outBox.data!, as: UTF8.self),
                   stderr: String(decoding: errBox.data!, as: UTF8.self))
    }

    /// Regular files and symbolic links under `dir`, relative, sorted.
    func files(under dir: URL) -> [String] {
        guard let e = FileManager.default.enumerator(atPath: dir.path) else { return [] }
        var result: [String] = []
        for case let path as String in e {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent(path).path, isDirectory: &isDir), !isDir.boolValue {
                result.append(path)
            }
        }
        return result.sorted()
    }

    static let installed = [
        "bin/notepress", "lib/notepress/libNotepressPDFShim.so", "lib/notepress/libNotepressSyntaxShim.so", "share/bash-completion/completions/notepress", "share/fish/vendor_completions.d/notepress.fish",
        "share/man/man1/notepress.1", "share/man/man7/notepress-markup.7", "share/zsh/site-functions/_notepress",
    ]

    func testInstallIntoDestdirWritesTheFileListAndUninstallRemovesIt() throws {
        let dest = try makeTempDir(self)
        let r = try sh("make -s install CONFIG=debug NO_BUILD=1 DESTDIR='\(dest.path)'")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(files(under: dest), Self.installed.map { "usr/local/" + $0 })
        // The binary is the stripped one: no symbol table, a link to its debug file.
        let sections = try runTool("objdump", ["-h", dest.appendingPathComponent("usr/local/bin/notepress").path]).output
        XCTAssertTrue(sections.contains(".gnu_debuglink"), sections)
        let symbols = try runTool("nm", [dest.appendingPathComponent("usr/local/bin/notepress").path]).output
        XCTAssertTrue(symbols.contains("no symbols"), String(symbols.prefix(300)))
        // Each completion script is the one the binary prints.
        for (shell, path) in [("bash", "share/bash-completion/completions/notepress"), ("zsh", "share/zsh/site-functions/_notepress"),
                              ("fish", "share/fish/vendor_completions.d/notepress.fish")] {
            let script = try NotepressBinary.run(["completions", shell]).stdoutText
            XCTAssertEqual(try String(contentsOf: dest.appendingPathComponent("usr/local/" + path), encoding: .utf8), script, shell)
        }
        let u = try sh("make -s uninstall DESTDIR='\(dest.path)'")
        XCTAssertEqual(u.status, 0, u.stderr)
        XCTAssertEqual(files(under: dest), [])
    }

    /// Installed for real into a PREFIX: it runs, `man` finds both pages, bash completes from a
    /// login shell and fish through XDG_DATA_DIRS; the default PREFIX is where zsh looks; after
    /// uninstall nothing is left.
    func testInstalledNotepressRunsManFindsItShellsCompleteItUninstallLeavesNothing() throws {
        let prefix = try makeTempDir(self).appendingPathComponent("prefix")
        let r = try sh("make -s install CONFIG=debug NO_BUILD=1 PREFIX='\(prefix.path)'")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(files(under: prefix), Self.installed)
        let p = prefix.path
        // Run from elsewhere: templates and themes are in the binary, nothing else is needed.
        let run = try sh("cd /tmp && '\(p)/bin/notepress' --version && printf '# Hi\\n\\n*bold*\\n' | '\(p)/bin/notepress' convert -t html")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.hasPrefix("notepress 0.2.0\n"), run.stdout)
        XCTAssertTrue(run.stdout.contains("libcmark-gfm "), run.stdout)
        XCTAssertTrue(run.stdout.contains("<h1 id=\"hi\" dir=\"auto\">Hi</h1>"), run.stdout)
        // The installed binary finds the highlighting shim in PREFIX/lib/notepress (issue 33).
        let code = try sh("cd /tmp && printf '```swift\\nlet x = 1\\n```\\n' | env -u NOTEPRESS_SYNTAX_SHIM '\(p)/bin/notepress' convert --fragment --highlight-style 'Breeze Light'")
        XCTAssertEqual(code.status, 0, code.stderr)
        XCTAssertTrue(code.stdout.contains("<span class=\"tok-keyword\">let</span>"), code.stdout + code.stderr)
        // ... and the shim needs no Swift toolchain: SwiftPM linked it against libswiftCore.so with
        // /opt/swift/... as RUNPATH, so the installed .deb, where no toolchain is, printed "code is
        // not highlighted: ... libswiftCore.so: cannot open shared object file". Loaded here by a
        // process with no Swift runtime in it (Python), every symbol bound at once.
        let shim = "\(p)/lib/notepress/libNotepressSyntaxShim.so"
        let dynamic = try runTool("readelf", ["-d", shim]).output
        XCTAssertTrue(dynamic.contains("libKF5SyntaxHighlighting.so"), dynamic)
        XCTAssertFalse(dynamic.contains("swift"), "the installed shim names no Swift library or folder:\n" + dynamic)
        let load = try sh("python3 -c 'import ctypes, os; ctypes.CDLL(\"\(shim)\", mode=os.RTLD_NOW | os.RTLD_LOCAL); print(\"loaded\")'")
        XCTAssertEqual(load.stdout, "loaded\n", load.stderr)
        // man, by MANPATH and by -M.
        let man = try sh("MANPATH='\(p)/share/man' man -w notepress; man -M '\(p)/share/man' -w 7 notepress-markup; "
                         + "MANWIDTH=80 MAN_KEEP_FORMATTING= man -M '\(p)/share/man' notepress | col -b | head -5")
        XCTAssertEqual(man.status, 0, man.stderr)
        let lines = man.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.prefix(2), ["\(p)/share/man/man1/notepress.1", "\(p)/share/man/man7/notepress-markup.7"])
        XCTAssertTrue(lines.dropFirst(2).first?.hasPrefix("NOTEPRESS(1)") == true, man.stdout)
        XCTAssertTrue(man.stdout.contains("NAME"), man.stdout)
        // bash: a login shell with PREFIX/bin on the PATH; bash-completion's loader finds the
        // script in PREFIX/share/bash-completion/completions through XDG_DATA_DIRS (whose default,
        // /usr/local/share:/usr/share, holds the default PREFIX).
        let bash = try sh("""
            PATH='\(p)/bin':$PATH XDG_DATA_DIRS='\(p)/share':/usr/share bash -lc '. /usr/share/bash-completion/bash_completion; _completion_loader notepress; \
            complete -p notepress; COMP_WORDS=(notepress conv); COMP_CWORD=1; COMP_LINE="notepress conv"; COMP_POINT=14; \
            $(complete -p notepress | sed -n "s/.*-F \\([^ ]*\\) .*/\\1/p") notepress conv notepress; printf "%s\\n" "${COMPREPLY[@]}"'
            """)
        XCTAssertEqual(bash.status, 0, bash.stderr)
        XCTAssertTrue(bash.stdout.hasPrefix("complete -F "), bash.stdout + bash.stderr)
        XCTAssertTrue(bash.stdout.split(separator: "\n").contains("convert"), bash.stdout + bash.stderr)
        // fish reads PREFIX/share/fish/vendor_completions.d through XDG_DATA_DIRS.
        let fish = try sh("XDG_DATA_DIRS='\(p)/share':/usr/share PATH='\(p)/bin':$PATH fish -c 'complete -C \"notepress conv\"'")
        XCTAssertEqual(fish.status, 0, fish.stderr)
        XCTAssertTrue(fish.stdout.hasPrefix("convert"), fish.stdout + fish.stderr)
        // zsh: the default PREFIX's site-functions is on Debian zsh's fpath; the script parses.
        let zsh = try sh("zsh -fc 'print -l $fpath' | grep -x /usr/local/share/zsh/site-functions && zsh -n '\(p)/share/zsh/site-functions/_notepress'")
        XCTAssertEqual(zsh.status, 0, zsh.stdout + zsh.stderr)

        let u = try sh("make -s uninstall PREFIX='\(p)'")
        XCTAssertEqual(u.status, 0, u.stderr)
        XCTAssertEqual(files(under: prefix), [], "left after make uninstall")
    }

    /// `make run` printed 18 man-page warnings for notes that were never meant as man pages: its
    /// output is now the summary (and where the output is), the man sample is still a man page,
    /// and `-t man` on a note still warns (CommandLineTests.testWarningsAreOneLinePerFile…).
    func testMakeRunPrintsTheSummaryOnlyAndWritesTheManSampleAsAManPage() throws {
        let out = try makeTempDir(self).appendingPathComponent("out")
        let r = try sh("make -s run CONFIG=debug NO_BUILD=1 OUT='\(out.path)'", environment: ["NO_COLOR": ""])
        XCTAssertEqual(r.status, 0, r.stderr)
        let inputs = TestPaths.files(under: TestPaths.samples).filter { ["md", "note"].contains($0.pathExtension) }.count
        let err = r.stderr.split(separator: "\n")
        XCTAssertEqual(err.count, 1, r.stderr)
        XCTAssertTrue(err.first?.hasPrefix("converted \(inputs), skipped 0 (unchanged), skipped 2 (unknown kind), failed 0 in ") == true, r.stderr)
        XCTAssertEqual(r.stdout.split(separator: "\n").count, 1, r.stdout)
        XCTAssertTrue(r.stdout.hasPrefix("Output is in \(out.path) "), r.stdout)
        XCTAssertEqual(files(under: out).filter { $0.hasSuffix(".man") || $0.hasSuffix(".1") }, ["markdown/man-style.1"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("notes/lentil-soup.html").path))
        let man = try runTool("mandoc", ["-T", "lint", "-W", "warning", out.appendingPathComponent("markdown/man-style.1").path])
        XCTAssertEqual(man.status, 0, man.output)
    }

    /// A clone without the corpus ran `make test` into 36 "no such file" failures: it stops now
    /// before installing or building, with one message naming what is missing and how to get it.
    func testMakeTestWithoutTheCorpusStopsBeforeBuildingWithOneMessage() throws {
        let missing = try makeTempDir(self).appendingPathComponent("no-corpus")
        let r = try sh("make test", environment: ["NOTEPRESS_CORPUS": missing.path])
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.stdout, "", "nothing ran: no package check, no build")
        let lines = r.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, r.stderr)  // the message, then make's "*** [corpus-check] Error 1"
        XCTAssertTrue(lines[0].hasPrefix("make test: the peer suites are missing from \(missing.path) (no cmark-gfm-tests "), lines[0])
        XCTAssertTrue(lines[0].contains("'make corpus'") && lines[0].contains("NOTEPRESS_CORPUS"), lines[0])
        XCTAssertTrue(lines[1].contains("corpus-check] Error 1"), lines[1])
    }

    /// `make corpus` against a file:// mirror laid out as the repositories are
    /// ({repo}/{commit}/{path}, made from the corpus here): every file arrives byte for byte; a
    /// file of the wrong size is refused, named, and not written.
    func testMakeCorpusFetchesEveryFileAtItsCommitAndChecksItsSize() throws {
        let tmp = try makeTempDir(self)
        let mirror = tmp.appendingPathComponent("mirror"), dest = tmp.appendingPathComponent("corpus")
        let list = try String(contentsOf: TestPaths.root.appendingPathComponent(".ci/corpus/files.tsv"), encoding: .utf8)
        let rows = list.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: "\t").map(String.init) }
        XCTAssertGreaterThan(rows.count, 150)
        for row in rows {
            let target = mirror.appendingPathComponent("\(row[1])/\(row[3])/\(row[2])")
            let source = TestPaths.corpus.appendingPathComponent(row[0])
            if FileManager.default.fileExists(atPath: target.path) {  // one licence, two copies in the corpus
                XCTAssertEqual(try Data(contentsOf: target), try Data(contentsOf: source), row[0])
                continue
            }
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: source, to: target)
        }
        let template = "file://\(mirror.path)/{repo}/{commit}/{path}"
        let r = try sh("make -s corpus NOTEPRESS_CORPUS='\(dest.path)' CORPUS_URL_TEMPLATE='\(template)'")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("fetched \(rows.count), already there 0, failed 0"), r.stderr)
        for row in rows {
            XCTAssertEqual(try Data(contentsOf: dest.appendingPathComponent(row[0])),
                           try Data(contentsOf: TestPaths.corpus.appendingPathComponent(row[0])), row[0])
        }
        // The manifests come along: make test's corpus check passes on the fetched copy.
        let check = try sh("make -s corpus-check NOTEPRESS_CORPUS='\(dest.path)'")
        XCTAssertEqual(check.status, 0, check.stderr)

        // A truncated file upstream: refused with its size, the copy stays missing.
        let spec = rows.first { $0[0] == "cmark-gfm-tests/spec.txt" }!
        let upstream = mirror.appendingPathComponent("\(spec[1])/\(spec[3])/\(spec[2])")
        try Data(try Data(contentsOf: upstream).prefix(1000)).write(to: upstream)
        try FileManager.default.removeItem(at: dest.appendingPathComponent(spec[0]))
        let bad = try sh("make -s corpus NOTEPRESS_CORPUS='\(dest.path)' CORPUS_URL_TEMPLATE='\(template)'")
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.stderr.contains("make corpus: cmark-gfm-tests/spec.txt: file://\(upstream.path) has 1000 bytes, MANIFEST says \(spec[4])"),
                      bad.stderr)
        XCTAssertTrue(bad.stderr.contains("fetched 0, already there \(rows.count - 1), failed 1"), bad.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dest.appendingPathComponent(spec[0]).path))
    }

    /// `make run` on a fresh machine installed Chromium, LibreOffice, a JVM…: the set that
    /// building and running install holds no test tool, and `make build` installs that set only.
    func testBuildAndRunInstallTheBuildSetOnly() throws {
        let run = try String(contentsOf: TestPaths.root.appendingPathComponent(".ci/apt-packages"), encoding: .utf8)
        let names = run.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
        XCTAssertEqual(names, ["pkg-config", "libcmark-gfm-dev", "libcmark-gfm-extensions-dev", "libxml2-dev", "libyaml-dev",
                               "libgumbo-dev", "libicu-dev", "libssl-dev", "libgit2-dev", "libmicrohttpd-dev", "libzip-dev", "binutils", "patchelf", "libkf5syntaxhighlighting-dev",
                               "qtbase5-dev", "libjs-lunr", "libjs-katex", "libpango1.0-dev", "libcairo2-dev"])
        let dry = try sh("make -n build run")
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertTrue(dry.stdout.contains("bash .ci/install-packages .ci/apt-packages\n"), dry.stdout)
        XCTAssertFalse(dry.stdout.contains("apt-packages-test") || dry.stdout.contains("--pip"), dry.stdout)
        let test = try sh("make -n test")
        XCTAssertTrue(test.stdout.contains("bash .ci/install-packages --pip .ci/apt-packages .ci/apt-packages-test\n"), test.stdout)
    }
}
