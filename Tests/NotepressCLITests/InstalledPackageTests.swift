import Foundation
import XCTest
import NotepressTestSupport

/// Issue 44 item 6: the installed package works. The .deb's Depends lacked libjs-lunr and
/// libjs-katex, and without lunr every folder run exited 1; `make uninstall` left 7 empty
/// folders. Through the real `.ci/deb.sh` (on the debug build: CONFIG=debug, as the other install
/// tests), the real Makefile and the real binary.
extension InstallTests {
    /// The package that owns `path` (`dpkg -S`, the first, without the architecture).
    func owningPackage(_ path: String) throws -> String {
        let r = try sh("dpkg -S '\(path)' | head -1 | cut -d: -f1")
        let name = r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertFalse(name.isEmpty, "no package owns \(path): \(r.stderr)")
        return name
    }

    /// The first group of each match of `pattern` in `text`.
    static func captures(_ pattern: String, in text: String) -> [String] {
        let re = try! NSRegularExpression(pattern: pattern)
        return re.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    /// Every library the binary loads with dlopen (the Linux candidates in Sources/C*/*.c) and every
    /// /usr/share asset it reads (the paths in Sources/**/*.swift), found in the sources, is a
    /// package in the real .deb's Depends, and so are the highlighting shim's libraries.
    func testTheDebianPackageDependsOnEverythingTheBinaryLoadsAtRunTime() throws {
        let out = try makeTempDir(self).appendingPathComponent("deb")
        let build = try sh("CONFIG=debug DEB_OUT='\(out.path)' bash .ci/deb.sh")
        XCTAssertEqual(build.status, 0, build.stderr)
        let deb = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: out.path).first { $0.hasSuffix(".deb") })
        let debPath = out.appendingPathComponent(deb).path
        let line = try sh("dpkg-deb -f '\(debPath)' Depends").stdout
        let depends = Set(line.split(whereSeparator: { $0 == "," || $0 == "|" }).compactMap {
            $0.split(separator: " ").first.map(String.init)
        })

        // From the sources: dlopen'ed sonames and /usr/share files.
        var sonames: [String] = [], assets: [String] = []
        for file in TestPaths.files(under: TestPaths.root.appendingPathComponent("Sources")) {
            let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            if file.pathExtension == "c", text.contains("candidates[]") {
                sonames += Self.captures(#""(lib[A-Za-z0-9_+-]+\.so\.[0-9]+)""#, in: text)
            }
            if file.pathExtension == "swift" {
                assets += Self.captures(#""(/usr/share/javascript/[^"]+)""#, in: text)
            }
        }
        XCTAssertEqual(Set(sonames), ["libcrypto.so.3", "libmicrohttpd.so.12", "libgumbo.so.1", "libzip.so.4"])
        XCTAssertEqual(Set(assets), ["/usr/share/javascript/lunr/lunr.min.js", "/usr/share/javascript/katex"])
        var needed: [String: String] = [:]
        for soname in sonames {
            let path = try sh("ldconfig -p | awk '$1 == \"\(soname)\" { print $NF; exit }' | xargs readlink -f").stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)
            needed[soname] = try owningPackage(path)
        }
        for asset in assets { needed[asset] = try owningPackage(asset) }
        // The shim's own libraries (dpkg-shlibdeps reads them off the packaged shim).
        let shim = try sh("dpkg-deb --fsys-tarfile '\(debPath)' | tar -t | grep -x './usr/lib/notepress/libNotepressSyntaxShim.so'")
        XCTAssertEqual(shim.status, 0, "the package holds the highlighting shim")
        needed["libKF5SyntaxHighlighting.so.5"] = try owningPackage(try sh("readlink -f /usr/lib/x86_64-linux-gnu/libKF5SyntaxHighlighting.so.5").stdout
            .trimmingCharacters(in: .whitespacesAndNewlines))
        XCTAssertEqual(Set(needed.values).intersection(["libssl3", "libmicrohttpd12", "libgumbo1", "libzip4", "libjs-lunr", "libjs-katex"]).count, 6, "\(needed)")
        for (what, package) in needed.sorted(by: { $0.key < $1.key }) {
            XCTAssertTrue(depends.contains(package), "\(what) is loaded at run time from \(package), which Depends lacks: \(line)")
        }
        XCTAssertTrue(depends.isSuperset(of: ["libcmark-gfm0.29.0.gfm.6", "libqt5core5a", "libkf5syntaxhighlighting5"]), line)
        try aptInstallRunAndRemove(debPath)
    }

    /// Where the machine allows it (root, apt-get, no notepress package installed already: a
    /// user's installed package is never replaced), the built .deb is installed with the real
    /// `apt-get install`, the installed `/usr/bin/notepress` converts a folder with search and
    /// math (lunr.js and KaTeX come from the Depends, no warning), `man` finds its page, and
    /// `apt-get remove` leaves none of its files.
    func aptInstallRunAndRemove(_ debPath: String) throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/apt-get"),
              try sh("dpkg -s notepress 2>/dev/null | grep -q 'Status: install ok installed'").status != 0 else {
            print("InstalledPackageTests: apt install skipped (not root, no apt-get, or notepress installed already)")
            return
        }
        let install = try sh("DEBIAN_FRONTEND=noninteractive apt-get install -y -qq '\(debPath)'")
        XCTAssertEqual(install.status, 0, install.stderr)
        defer { _ = try? sh("DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq notepress") }
        let files = try sh("dpkg -L notepress | while read -r f; do [ -f \"$f\" ] && echo \"$f\"; done").stdout
            .split(separator: "\n").map(String.init)
        XCTAssertTrue(files.contains("/usr/bin/notepress"), "\(files)")
        let tmp = try makeTempDir(self)
        let notes = tmp.appendingPathComponent("notes"), site = tmp.appendingPathComponent("site")
        _ = try writeTestFile("# A\n\nSome $x^2$ math; see [[B]].\n", "a.md", in: notes)
        _ = try writeTestFile("# B\n\nText.\n", "b.md", in: notes)
        let run = try sh("/usr/bin/notepress convert '\(notes.path)' -o '\(site.path)'")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertFalse(run.stderr.contains("warning"), run.stderr)
        for made in ["a.html", "b.html", "search.html", "_notepress/lunr.js", "_notepress/katex"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: site.appendingPathComponent(made).path), made)
        }
        // (A dpkg `path-exclude` for man pages, as in some minimal images, leaves the page out.)
        if files.contains("/usr/share/man/man1/notepress.1.gz") {
            XCTAssertEqual(try sh("man -w notepress").stdout, "/usr/share/man/man1/notepress.1.gz\n")
        }
        let remove = try sh("DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq notepress")
        XCTAssertEqual(remove.status, 0, remove.stderr)
        XCTAssertEqual(files.filter { FileManager.default.fileExists(atPath: $0) }, [], "left after apt-get remove")
    }

    /// Without lunr.js and KaTeX (NOTEPRESS_LUNR and NOTEPRESS_KATEX naming nothing, as on a
    /// system without libjs-lunr and libjs-katex) a folder run succeeds: one warning each, the
    /// site without search and the math as its TeX source. With them, neither warning.
    func testAFolderRunWithoutLunrOrKaTeXWarnsAndLeavesTheFeaturesOut() throws {
        let tmp = try makeTempDir(self)
        let notes = tmp.appendingPathComponent("notes"), site = tmp.appendingPathComponent("site")
        _ = try writeTestFile("# A\n\nSome $x^2$ math.\n", "a.md", in: notes)
        _ = try writeTestFile("# B\n\nText.\n", "b.md", in: notes)
        let r = try NotepressBinary.run(["convert", notes.path, "-o", site.path],
                                        environment: ["NOTEPRESS_LUNR": tmp.path + "/none/lunr.min.js", "NOTEPRESS_KATEX": tmp.path + "/none/katex"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("\(tmp.path)/none/lunr.min.js: warning: lunr.js not found (install libjs-lunr"), r.stderr)
        XCTAssertTrue(r.stderr.contains("\(tmp.path)/none/katex: warning: KaTeX not found (install libjs-katex"), r.stderr)
        XCTAssertTrue(r.stderr.contains("converted 2, ") && r.stderr.contains("failed 0"), r.stderr)
        let made = files(under: site)
        XCTAssertTrue(made.contains("a.html") && made.contains("b.html") && made.contains("search.html"), "\(made)")
        XCTAssertFalse(made.contains { $0.hasPrefix("_notepress/search/") || $0 == "_notepress/lunr.js" || $0.hasPrefix("_notepress/katex/") },
                       "\(made)")
        let page = try String(contentsOf: site.appendingPathComponent("a.html"), encoding: .utf8)
        XCTAssertTrue(page.contains("<span class=\"math math-inline\">x^2</span>"), page)
        XCTAssertFalse(page.contains("katex"), "no link to a KaTeX that is not there")

        // With both installed (Debian's paths): no warning, both features there.
        let again = try NotepressBinary.run(["convert", notes.path, "-o", tmp.appendingPathComponent("site2").path])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertFalse(again.stderr.contains("warning"), again.stderr)
        let full = files(under: tmp.appendingPathComponent("site2"))
        XCTAssertTrue(full.contains("_notepress/lunr.js") && full.contains("_notepress/katex/katex.min.js"), "\(full)")
    }

    /// `make uninstall` left bin, lib/notepress and the man and completion folders behind, empty:
    /// now each folder install made goes when empty, up to PREFIX (or DESTDIR); a folder holding
    /// someone else's file stays, with the file.
    func testUninstallRemovesTheEmptyFoldersInstallMadeAndKeepsTheOthers() throws {
        let prefix = try makeTempDir(self).appendingPathComponent("prefix")
        _ = try writeTestFile("other\n", "bin/other-tool", in: prefix)
        _ = try writeTestFile(".TH OTHER 1\n", "share/man/man1/other.1", in: prefix)
        let r = try sh("make -s install CONFIG=debug NO_BUILD=1 PREFIX='\(prefix.path)'")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(files(under: prefix).count, Self.installed.count + 2)
        let u = try sh("make -s uninstall PREFIX='\(prefix.path)'")
        XCTAssertEqual(u.status, 0, u.stderr)
        let left = try sh("cd '\(prefix.path)' && find . -mindepth 1 | sort").stdout
        XCTAssertEqual(left, "./bin\n./bin/other-tool\n./share\n./share/man\n./share/man/man1\n./share/man/man1/other.1\n")

        // Into a DESTDIR (a staging root): nothing is left in it, and it stays.
        let dest = try makeTempDir(self).appendingPathComponent("stage")
        try FileManager.default.createDirectory(at: dest, withIntermediateDirectories: true)
        XCTAssertEqual(try sh("make -s install CONFIG=debug NO_BUILD=1 DESTDIR='\(dest.path)'").status, 0)
        let u2 = try sh("make -s uninstall DESTDIR='\(dest.path)' && find '\(dest.path)' | sort")
        XCTAssertEqual(u2.status, 0, u2.stderr)
        XCTAssertEqual(u2.stdout, dest.path + "\n")
    }
}
