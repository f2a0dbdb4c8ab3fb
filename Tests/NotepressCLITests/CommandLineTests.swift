import Foundation
import XCTest
import NotepressTestSupport

/// Issue 15: the command line behaves like pandoc, cmark-gfm, git and getopt. Every test runs the
/// real binary (``NotepressBinary``); the terminal cases are in CommandLineTerminalTests.
final class CommandLineTests: XCTestCase {
    func write(_ text: String, _ name: String, in dir: URL) throws -> String {
        try writeTestFile(text, name, in: dir).path
    }

    // MARK: Commands

    /// "notepress conver x" said "converting a folder or several files needs an output folder".
    func testUnknownCommandThatIsNoFileSuggestsTheNearestCommand() throws {
        let dir = try makeTempDir(self)
        let r = try NotepressBinary.run(["conver", "x"], currentDirectory: dir)
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.hasPrefix("notepress: unknown command 'conver'; did you mean 'convert'?\n"), r.stderr)
        XCTAssertEqual(r.stdoutText, "")
        let far = try NotepressBinary.run(["frobnicate"], currentDirectory: dir)
        XCTAssertEqual(far.status, 2)
        XCTAssertTrue(far.stderr.hasPrefix("notepress: unknown command 'frobnicate' (and no file of that name)\n"), far.stderr)
        // A word that is an existing file is an input of convert.
        _ = try write("# Conver\n", "conver", in: dir)
        let file = try NotepressBinary.run(["conver", "--fragment"], currentDirectory: dir)
        XCTAssertEqual(file.status, 0, file.stderr)
        XCTAssertEqual(file.stdoutText, "<h1>Conver</h1>\n")
    }

    /// "notepress version" said "version: error: no such file"; issue 32: `--version` printed
    /// only "notepress 0.2.0", no commit and no library versions (a bug report needs them). The
    /// library versions must be the ones the libraries' own tools report on this machine.
    func testVersionCommandPrintsTheVersion() throws {
        let commit = ProcessInfo.processInfo.environment["NOTEPRESS_COMMIT"].flatMap { $0.isEmpty ? nil : "commit \($0)" }
            ?? "unknown commit"
        let xmllint = try runTool("xmllint", ["--version"]).output  // "xmllint: using libxml version 20914"
        let xmlNumber = Int(xmllint.split(separator: "\n")[0].split(separator: " ").last ?? "") ?? 0
        let cmark = try runTool("cmark-gfm", ["--version"]).output.split(separator: " ")[1]
        let modversion = { (name: String) in
            try runTool("pkg-config", ["--modversion", name]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let expected = [
            "notepress 0.2.0", commit,
            "libcmark-gfm \(cmark)",
            "libxml2 \(xmlNumber / 10000).\(xmlNumber / 100 % 100).\(xmlNumber % 100)",
            "libyaml \(try modversion("yaml-0.1"))",
            "ICU \(try modversion("icu-uc"))",
            "OpenSSL libcrypto \(try modversion("libcrypto"))",
        ].map { $0 + "\n" }.joined()
        for args in [["version"], ["--version"], ["convert", "--version"], ["--version", "--verbose"]] {
            let r = try NotepressBinary.run(args)
            XCTAssertEqual(r.status, 0, "\(args)")
            XCTAssertEqual(r.stdoutText, expected, "\(args)")
            XCTAssertEqual(r.stderr, "", "\(args)")
        }
    }

    /// `help convert` printed the main usage; `view/validate/themes/templates --help` one line.
    func testEveryCommandHasFullHelpAndHelpCommandGivesTheSame() throws {
        let expected: [String: [String]] = [
            "convert": ["usage: notepress convert [options] [INPUT...]", "-t, --to FORMAT[,FORMAT...]", "-o, --output PATH",
                        "--depfile FILE", "-q, --quiet", "-v, --verbose", "--list-formats", "--color, --colour WHEN",
                        "Exit status:"],
            "view": ["usage: notepress view [options] [FILE|-]", "-w, --width N", "--hyperlinks WHEN", "LESS=FRX",
                     "--theme NAME|PATH", "--data-dir DIR", "Exit status:"],
            "validate": ["usage: notepress validate [--schema PATH]", "--schema PATH", "(the element xmllint names)", "Exit status:"],
            "themes": ["usage: notepress themes [list] [--data-dir DIR]", "notepress themes print NAME|PATH", "Exit status:"],
            "templates": ["usage: notepress templates print html|index|PATH", "notepress templates list", "--data-dir DIR"],
            "formats": ["usage: notepress formats", "notepress --list-formats"],
            "completions": ["usage: notepress completions bash|zsh|fish", "bash-completion/completions/notepress"],
            "help": ["usage: notepress help [COMMAND]"],
            "version": ["usage: notepress version"],
        ]
        for (command, pieces) in expected {
            let viaFlag = try NotepressBinary.run([command, "--help"])
            let viaShort = try NotepressBinary.run([command, "-h"])
            let viaHelp = try NotepressBinary.run(["help", command])
            XCTAssertEqual(viaFlag.status, 0, command)
            XCTAssertEqual(viaHelp.status, 0, command)
            XCTAssertEqual(viaFlag.stdoutText, viaHelp.stdoutText, command)
            XCTAssertEqual(viaFlag.stdoutText, viaShort.stdoutText, command)
            for p in pieces { XCTAssertTrue(viaFlag.stdoutText.contains(p), "\(command) --help lacks \(p):\n\(viaFlag.stdoutText)") }
        }
        let main = try NotepressBinary.run(["help"])
        XCTAssertEqual(main.status, 0)
        for command in expected.keys { XCTAssertTrue(main.stdoutText.contains("\n  \(command) "), command) }
        XCTAssertEqual(main.stdoutText, try NotepressBinary.run(["--help"]).stdoutText)
        let wrong = try NotepressBinary.run(["help", "valdate"])
        XCTAssertEqual(wrong.status, 2)
        XCTAssertTrue(wrong.stderr.contains("unknown command 'valdate'; did you mean 'validate'?"), wrong.stderr)
    }

    // MARK: Options

    func testUnknownOptionsSuggestTheNearestOption() throws {
        let cases: [([String], String)] = [
            (["convert", "--colr", "never", "x.md"], "notepress convert: unknown option '--colr'; did you mean '--color'?\n"),
            (["convert", "-color", "never", "x.md"], "notepress convert: unknown option '-c' in '-color'; did you mean '--color'?\n"),
            (["view", "--widht", "40", "x.md"], "notepress view: unknown option '--widht'; did you mean '--width'?\n"),
            (["convert", "--f", "x.md"], "notepress convert: option '--f' is ambiguous: --feed-size, --files-from, --follow-symlinks, --force, --fragment, --from\n"),
            (["convert", "-t", "htm", "x.md"], "notepress convert: unknown output format 'htm'; did you mean 'html'? (expected html, json, ansi, tei, rtf, man, docx, odt, epub or pdf)\n"),
            (["convert", "--color", "sometimes", "x.md"], "notepress convert: option '--color' expects auto, always or never, got 'sometimes'\n"),
            (["convert", "-o"], "notepress convert: option '-o' needs a value (PATH)\n"),
            (["validate", "--schema"], "notepress validate: option '--schema' needs a value (PATH)\n"),
            (["themes", "prnt"], "notepress themes: unknown action 'prnt'; did you mean 'print'? (expected list, print or highlight-styles)\n"),
        ]
        for (args, message) in cases {
            let r = try NotepressBinary.run(args)
            XCTAssertEqual(r.status, 2, "\(args)")
            XCTAssertTrue(r.stderr.hasPrefix(message), "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.hasSuffix("(see 'notepress \(args[0]) --help')\n"), "\(args): \(r.stderr)")
        }
    }

    /// `-thtml`, `--to=man`, clustered `-qj4`, prefixes and `--` as getopt_long users expect.
    func testGetoptFormsGiveTheSameResult() throws {
        let dir = try makeTempDir(self)
        let file = try write("# Hello\n\n*hi*\n", "a.md", in: dir)
        let separate = try NotepressBinary.run(["convert", "-t", "man", file])
        XCTAssertEqual(separate.status, 0, separate.stderr)
        XCTAssertTrue(separate.stdoutText.hasPrefix(".TH "), separate.stdoutText)
        for form in [["-tman"], ["--to=man"], ["--to", "man"], ["-qtman"]] {
            let r = try NotepressBinary.run(["convert"] + form + [file])
            XCTAssertEqual(r.status, 0, "\(form): \(r.stderr)")
            XCTAssertEqual(r.stdout, separate.stdout, "\(form)")
        }
        // -qj4: -q and -j 4 (the attached value is parsed: -qj0 is out of range).
        let notes = dir.appendingPathComponent("notes")
        _ = try write("one\n", "notes/one.note", in: dir)
        _ = try write("two\n", "notes/two.note", in: dir)
        let clustered = try NotepressBinary.run(["convert", notes.path, "-o", dir.appendingPathComponent("out").path, "-qj4"])
        XCTAssertEqual(clustered.status, 0, clustered.stderr)
        XCTAssertEqual(clustered.stderr, "", "-q silences the summary")
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/two.html").path))
        let zero = try NotepressBinary.run(["convert", notes.path, "-o", dir.appendingPathComponent("out").path, "-qj0"])
        XCTAssertEqual(zero.status, 2)
        XCTAssertTrue(zero.stderr.contains("option '--jobs' expects a whole number in 1...1024, got '0'"), zero.stderr)
        // `--` ends the options: a file whose name starts with a dash.
        _ = try write("# Dash\n", "-dash.md", in: dir)
        let dashed = try NotepressBinary.run(["convert", "--fragment", "--", "-dash.md"], currentDirectory: dir)
        XCTAssertEqual(dashed.status, 0, dashed.stderr)
        XCTAssertEqual(dashed.stdoutText, "<h1>Dash</h1>\n")
        // A prefix of a long option (--frag) is that option.
        let prefix = try NotepressBinary.run(["--frag", file])
        XCTAssertEqual(prefix.stdoutText, "<h1>Hello</h1>\n<p><em>hi</em></p>\n")
    }

    // MARK: Formats

    func testFormatsListsInputsAndOutputsWithExtensions() throws {
        let expected = """
        note\tinput\t.note .txt .tid\tnote markup (man notepress-markup); .tid: TiddlyWiki header, then note markup or Markdown
        commonmark\tinput\t-\tCommonMark without extensions
        gfm\tinput\t.md .markdown .mdown .mkd .ronn\tGitHub Flavored Markdown (libcmark-gfm)
        html\toutput\t.html .htm\tHTML5 page (--fragment: the body, as cmark-gfm writes it)
        json\toutput\t.json\tthe document tree as JSON
        ansi\toutput\t.ans\tterminal text with SGR colours
        tei\toutput\t.xml\tTEI P5 XML, validated against the RelaxNG schema
        rtf\toutput\t.rtf\tRTF for LibreOffice, Word and TextEdit
        man\toutput\t.man .1 .2 .3 .4 .5 .6 .7 .8 .9\tman(7) roff page
        docx\toutput\t.docx\tOffice Open XML for Word, with Word's style names
        odt\toutput\t.odt\tOpenDocument text for LibreOffice
        epub\toutput\t.epub\tEPUB 3 e-book (a folder: one book)
        pdf\toutput\t.pdf\tPDF laid out with Pango and Cairo: outline, links, tagged structure (a folder: one book)

        """
        for args in [["formats"], ["--list-formats"], ["convert", "--list-formats"]] {
            let r = try NotepressBinary.run(args)
            XCTAssertEqual(r.status, 0, "\(args)")
            XCTAssertEqual(r.stdoutText, expected, "\(args)")
        }
        // The same shape as `notepress themes`: NAME, a tab, the rest.
        let themes = try NotepressBinary.run(["themes"]).stdoutText
        XCTAssertTrue(themes.hasPrefix("default\t(built-in)/themes/default.json\n"), themes)
        XCTAssertEqual(try NotepressBinary.run(["--list-themes"]).stdoutText, themes)
    }

    /// `convert note.note -o x.rtf` wrote HTML into x.rtf.
    func testOutputExtensionChoosesTheFormatAndExplicitToWinsWithAWarning() throws {
        let dir = try makeTempDir(self)
        let input = try write("---\ntitle: tool\n---\n# NAME\n\ntool - does things\n", "in.md", in: dir)
        let cases: [(String, String)] = [
            ("x.rtf", "{\\rtf1"), ("x.html", "<!DOCTYPE html>"), ("x.HTM", "<!DOCTYPE html>"), ("x.ans", "tool\n"),
            ("x.xml", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"), ("x.json", "{"), ("x.man", ".TH \"TOOL\""),
            ("x.1", ".TH \"TOOL\""), ("x.3p", ".TH \"TOOL\""), ("x.1ssl", ".TH \"TOOL\""), ("x.out", "<!DOCTYPE html>"),
        ]
        for (name, prefix) in cases {
            let out = dir.appendingPathComponent(name).path
            let r = try NotepressBinary.run(["convert", input, "-o", out, "--color", "never"])
            XCTAssertEqual(r.status, 0, "\(name): \(r.stderr)")
            let text = try String(contentsOfFile: out, encoding: .utf8)
            XCTAssertTrue(text.hasPrefix(prefix), "\(name) starts with \(text.prefix(40))")
        }
        let out = dir.appendingPathComponent("y.rtf").path
        let r = try NotepressBinary.run(["convert", input, "-t", "html", "-o", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "notepress convert: warning: writing html (-t) to \(out), whose extension means rtf\n")
        XCTAssertTrue(try String(contentsOfFile: out, encoding: .utf8).hasPrefix("<!DOCTYPE html>"))
        XCTAssertEqual(try NotepressBinary.run(["convert", input, "-t", "html", "-o", out, "-q"]).stderr, "")
    }

    // MARK: Input and output checks

    /// `cat x.md | notepress convert -t man` said "no input given".
    func testStandardInputIsReadWhenNoInputIsGiven() throws {
        let r = try NotepressBinary.run(["convert", "-t", "man"], stdin: Data("---\ntitle: t\n---\n# Hello\n".utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdoutText.hasPrefix(".TH \"T\" \"1\""), r.stdoutText)
        let bare = try NotepressBinary.run(["--fragment"], stdin: Data("*x*\n".utf8))
        XCTAssertEqual(bare.stdoutText, "<p><em>x</em></p>\n")
        let none = try NotepressBinary.run([], stdin: Data("*x*\n".utf8))
        XCTAssertEqual(none.status, 0, none.stderr)
        XCTAssertTrue(none.stdoutText.contains("<em>x</em>"), none.stdoutText)
        let view = try NotepressBinary.run(["view", "--color", "never", "-f", "note"], stdin: Data("URGENT *x*\n".utf8))
        XCTAssertEqual(view.status, 0, view.stderr)
        XCTAssertEqual(view.stdoutText, "URGENT x\n")
    }

    /// `convert notes -o existing-file.txt` printed 16 "cannot create a temporary file" errors.
    func testEveryOptionAndOutputIsCheckedBeforeAnyWork() throws {
        let dir = try makeTempDir(self)
        let notes = dir.appendingPathComponent("notes")
        for i in 0..<5 { _ = try write("note \(i)\n", "notes/n\(i).note", in: dir) }
        let existing = try write("keep\n", "existing-file.txt", in: dir)
        let single = try write("# x\n", "x.md", in: dir)
        let depfile = dir.appendingPathComponent("x.d").path
        let cases: [([String], String)] = [
            (["convert", notes.path, "-o", existing],
             "notepress convert: -o \(existing) exists and is not a folder; converting a folder needs an output folder\n"),
            (["convert", single, notes.appendingPathComponent("n0.note").path, "-o", existing],
             "notepress convert: -o \(existing) exists and is not a folder; converting several files needs an output folder\n"),
            (["convert", notes.path], "notepress convert: converting a folder needs an output folder (-o DIR)\n"),
            (["convert", single, "--depfile", depfile],
             "notepress convert: --depfile needs input and output files (not standard input or output)\n"),
            (["convert", single, "--data-dir", "/nonexistent"], "notepress convert: --data-dir /nonexistent: No such file or directory\n"),
            (["convert", single, "--data-dir", existing], "notepress convert: --data-dir \(existing): not a folder\n"),
            (["view", single, "--data-dir", "/nonexistent"], "notepress view: --data-dir /nonexistent: No such file or directory\n"),
            (["themes", "--data-dir", "/nonexistent"], "notepress themes: --data-dir /nonexistent: No such file or directory\n"),
            (["templates", "list", "--data-dir", "/nonexistent"], "notepress templates: --data-dir /nonexistent: No such file or directory\n"),
            (["validate", single, "--data-dir", "/nonexistent"], "notepress validate: --data-dir /nonexistent: No such file or directory\n"),
            (["validate", single, "--schema", "/nonexistent.rng"], "notepress validate: --schema /nonexistent.rng: No such file or directory\n"),
            (["convert", single, "-o", existing + "/sub/x.html"], "notepress convert: -o \(existing)/sub/x.html: \(existing) is not a folder\n"),
            (["convert", single, "-t", "html,rtf"], "notepress convert: several formats need an output folder (-o DIR)\n"),
        ]
        for (args, message) in cases {
            let r = try NotepressBinary.run(args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            XCTAssertEqual(r.stderr, message + "(see 'notepress \(args[0]) --help')\n", "\(args)")
            XCTAssertEqual(r.stdoutText, "", "\(args): nothing is converted")
        }
        XCTAssertEqual(try String(contentsOfFile: existing, encoding: .utf8), "keep\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: depfile))
    }

    /// Foundation's "The operation could not be completed. The file doesn't exist." reached users.
    func testSystemErrorsAreStrerrorMessagesNamingThePath() throws {
        let dir = try makeTempDir(self)
        let single = try write("# x\n", "x.md", in: dir)
        let r = try NotepressBinary.run(["convert", single, "-o", "/proc/no-such-folder/x.html"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "/proc/no-such-folder/x.html: error: cannot create folder /proc/no-such-folder: No such file or directory\n")
        let v = try NotepressBinary.run(["validate", dir.appendingPathComponent("missing.xml").path])
        XCTAssertEqual(v.status, 1)
        XCTAssertEqual(v.stderr, "\(dir.path)/missing.xml: error: cannot read: No such file or directory\n")
        let folder = try NotepressBinary.run(["validate", dir.path])
        XCTAssertEqual(folder.stderr, "\(dir.path): error: cannot read: Is a directory\n")
        for text in [r.stderr, v.stderr, folder.stderr] {
            XCTAssertFalse(text.contains("could not be completed"), text)
        }
    }

    /// The index and manifest failures of a folder run said "PATH: error: PATH: error: …".
    func testFolderRunFailuresHaveOnePrefix() throws {
        let dir = try makeTempDir(self)
        _ = try write("one\n", "notes/one.note", in: dir)
        let out = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out.appendingPathComponent("index.html/blocker"), withIntermediateDirectories: true)
        let r = try NotepressBinary.run(["convert", dir.appendingPathComponent("notes").path, "-o", out.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("\n  \(out.path)/index.html: error: is a folder, not a file\n"), r.stderr)
        XCTAssertEqual(r.stderr.components(separatedBy: "error:").count, 2, r.stderr)
    }

    // MARK: Warnings

    /// `make run` printed 78 stderr lines for 18 inputs. (`<font>`: an element man does not
    /// read, so dropped with a warning; `<kbd>` is read as bold now.)
    func testWarningsAreOneLinePerFileVerboseListsThemQuietSilences() throws {
        let dir = try makeTempDir(self)
        let a = try write("# A\n\nText <font>x</font>.\n", "in/a.md", in: dir)
        let b = try write("plain note\n", "in/b.note", in: dir)
        let out = dir.appendingPathComponent("out").path
        let normal = try NotepressBinary.run(["convert", dir.appendingPathComponent("in").path, "-o", out, "-t", "man"])
        XCTAssertEqual(normal.status, 0, normal.stderr)
        let lines = normal.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 3, normal.stderr)
        XCTAssertEqual(lines[0], "\(a): 4 warnings (man); --verbose to list")
        // Issue 17: a note goes in section 7 without a warning.
        XCTAssertEqual(lines[1], "\(b): 2 warnings (man); --verbose to list")
        XCTAssertTrue(lines[2].hasPrefix("converted 2, skipped 0 (unchanged), skipped 0 (unknown kind), failed 0 in "), lines[2])

        let verbose = try NotepressBinary.run(["convert", dir.appendingPathComponent("in").path, "-o", out, "-t", "man", "--force", "-v"])
        XCTAssertTrue(verbose.stderr.contains("converted \(a)\n"), verbose.stderr)
        XCTAssertTrue(verbose.stderr.contains("a.md: warning: man: raw HTML '<font>'…'</font>' dropped\n"), verbose.stderr)
        XCTAssertTrue(verbose.stderr.contains("b.note: warning: man: no title line; page name 'b' taken from the file name\n"), verbose.stderr)
        XCTAssertFalse(verbose.stderr.contains("b.note: warning: man: no manual section given"), verbose.stderr)
        XCTAssertEqual(verbose.stderr.components(separatedBy: ": warning: ").count - 1, 6, verbose.stderr)
        XCTAssertFalse(verbose.stderr.contains("raw HTML '</font>' dropped"), "the end tag is not a second warning")

        let quiet = try NotepressBinary.run(["convert", dir.appendingPathComponent("in").path, "-o", out, "-t", "man", "--force", "-q"])
        XCTAssertEqual(quiet.stderr, "")
        // One file to standard output: the same summary.
        let one = try NotepressBinary.run(["convert", a, "-t", "man"])
        XCTAssertEqual(one.stderr, "\(a): 4 warnings (man); --verbose to list\n")
        let single = try NotepressBinary.run(["convert", "-t", "man", "-"], stdin: Data("---\ntitle: t\nsection: 1\ndate: 2024-05-06\n---\nx\n".utf8))
        XCTAssertTrue(single.stderr.hasSuffix("warning: man: no NAME section and no description: whatis(1) and apropos(1) will not index this page\n"),
                      "a single warning is printed in full: \(single.stderr)")
    }

    /// The samples, as `make run` converts them: at most one stderr line per input plus the summary.
    func testSamplesRunPrintsAtMostOneLinePerInputPlusTheSummary() throws {
        let dir = try makeTempDir(self)
        let r = try NotepressBinary.run(["convert", TestPaths.samples.path, "-o", dir.path, "-t", "html,rtf,ansi,tei,man,json"],
                                        environment: ["NO_COLOR": ""])
        XCTAssertEqual(r.status, 0, r.stderr)
        let inputs = TestPaths.files(under: TestPaths.samples).filter { ["md", "note"].contains($0.pathExtension) }.count
        let lines = r.stderr.split(separator: "\n")
        XCTAssertLessThanOrEqual(lines.count, inputs + 1, r.stderr)
        XCTAssertTrue(lines.last?.hasPrefix("converted \(inputs), ") == true, r.stderr)
        XCTAssertTrue(lines.dropLast().allSatisfy { $0.hasSuffix("; --verbose to list") || $0.contains(": warning: ") }, r.stderr)
        // The ANSI files hold colour now (they held none).
        let ans = try String(contentsOf: dir.appendingPathComponent("notes/journal-2023.ans"), encoding: .utf8)
        XCTAssertTrue(ans.contains(";38;5;"), "256-colour SGR in the .ans file")
    }

    func testManFrontMatterDescriptionIsTheNameLine() throws {
        let md = "---\ntitle: tool\nsection: 1\ndate: 2024-01-02\ndescription: does useful things\n---\n# SYNOPSIS\n\n**tool** *file*\n"
        let r = try NotepressBinary.run(["convert", "-t", "man", "-"], stdin: Data(md.utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "", "no NAME warning")
        XCTAssertTrue(r.stdoutText.hasPrefix(".TH \"TOOL\" \"1\" \"2024-01-02\"\n.SH NAME\ntool \\- does useful things\n.SH SYNOPSIS\n"),
                      r.stdoutText)
    }

    // MARK: validate

    /// `validate bad.xml` printed errors twice and without the element name xmllint gives.
    func testValidateNamesTheElementAsXmllintDoesOnce() throws {
        let dir = try makeTempDir(self)
        let good = dir.appendingPathComponent("good.xml").path
        let made = try NotepressBinary.run(["convert", "-o", good, "-"], stdin: Data("# Title\n\nSome *text*.\n\n- a\n- b\n".utf8))
        XCTAssertEqual(made.status, 0, made.stderr)
        let text = try String(contentsOfFile: good, encoding: .utf8)
        let bad = text.replacingOccurrences(of: "<hi rend=\"italic\">text</hi>", with: "<zz>text</zz>")
            .replacingOccurrences(of: "<p>b</p>", with: "<para>b</para>")
        let badPath = try write(bad, "bad.xml", in: dir)
        let line = { (s: String) in bad.components(separatedBy: "\n").firstIndex { $0.contains(s) }! + 1 }
        let r = try NotepressBinary.run(["validate", badPath])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, """
        \(badPath):\(line("<zz>")):1: error: element zz: Did not expect element zz there
        \(badPath):\(line("<para>")):1: error: element para: Did not expect element para there

        """)
        // xmllint names the same elements on the same lines.
        let schema = TestPaths.root.appendingPathComponent("Templates/tei/notepress-tei.rng").path
        let lint = try runTool("xmllint", ["--noout", "--relaxng", schema, badPath])
        XCTAssertTrue(lint.output.contains("\(badPath):\(line("<zz>")): element zz: Relax-NG validity error : Did not expect element zz there"), lint.output)
        XCTAssertTrue(lint.output.contains("\(badPath):\(line("<para>")): element para: Relax-NG validity error"), lint.output)
    }

    // MARK: ANSI

    /// 0 of 18 `.ans` files from `make run` held an escape: `-t ansi` means colour.
    func testExplicitAnsiIsColouredInFilesAndPipesUnlessNoColor() throws {
        let dir = try makeTempDir(self)
        let input = try write("# Title\n\nSome **bold** text and a [link](https://example.org).\n", "a.md", in: dir)
        let env = ["NO_COLOR": "", "CLICOLOR_FORCE": "", "FORCE_COLOR": "", "TERM": "xterm-256color", "COLORTERM": "truecolor"]
        let piped = try NotepressBinary.run(["convert", input, "-t", "ansi"], environment: env)
        XCTAssertTrue(piped.stdoutText.contains("\u{1B}[0;4;38;2;0;102;204mlink"), "truecolor on a pipe, as COLORTERM says: \(piped.stdoutText.debugDescription)")
        let plain = piped.stdoutText.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        XCTAssertTrue(plain.contains("link (https://example.org)"), "no OSC 8 into a pipe: the URL follows the text: \(plain)")
        XCTAssertFalse(piped.stdoutText.contains("\u{1B}]8;"))
        let file = dir.appendingPathComponent("a.ans").path
        XCTAssertEqual(try NotepressBinary.run(["convert", input, "-o", file], environment: env).status, 0)
        let fileText = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertTrue(fileText.contains("\u{1B}[0;4;38;5;26mlink"), "256 colours in a file whatever COLORTERM says: \(fileText.debugDescription)")
        var noColor = env
        noColor["NO_COLOR"] = "1"
        for (args, e) in [(["convert", input, "-t", "ansi"], noColor), (["convert", input, "-t", "ansi", "--color", "never"], env)] {
            let r = try NotepressBinary.run(args, environment: e)
            XCTAssertEqual(r.status, 0)
            XCTAssertFalse(r.stdoutText.contains("\u{1B}"), "\(args) \(e)")
            // The title is the first heading, shown once where it stands: the date comes first.
            XCTAssertNotNil(r.stdoutText.range(of: "^[0-9]{4}-[0-9]{2}-[0-9]{2}\n\n# Title\n", options: .regularExpression), r.stdoutText)
        }
        let always = try NotepressBinary.run(["convert", input, "-t", "ansi", "--color", "always"], environment: noColor)
        XCTAssertTrue(always.stdoutText.contains("\u{1B}["))
    }

    /// Code lines wider than the width were cut with … (content lost).
    func testLongCodeLinesWrapWithAMarkAndKeepEveryCharacter() throws {
        let code = "let s = \"" + (0..<12).map { "word\($0)" }.joined(separator: "-") + "漢字かな🙂 end\" // done"
        let md = "```\n\(code)\n```\n"
        for (ascii, mark) in [(false, "↩"), (true, "\\")] {
            let r = try NotepressBinary.run(["convert", "-t", "ansi", "--width", "30", "--color", "never", "-"] + (ascii ? ["--ascii"] : []),
                                            stdin: Data(md.utf8))
            XCTAssertEqual(r.status, 0, r.stderr)
            let lines = r.stdoutText.split(separator: "\n").map(String.init)
            XCTAssertGreaterThan(lines.count, 3, r.stdoutText)
            XCTAssertTrue(lines.dropLast().allSatisfy { $0.hasSuffix(mark) }, r.stdoutText)
            XCTAssertFalse(lines.last!.hasSuffix(mark))
            XCTAssertFalse(r.stdoutText.contains("…"))
            XCTAssertEqual(lines[0], "  let s = \"word0-word1-word2-" + mark, "27 columns and the mark in a 28-column room")
            let joined = lines.map { l -> String in
                var s = Substring(l.dropFirst(2))
                if s.hasSuffix(mark) { s = s.dropLast() }
                return String(s)
            }.joined()
            XCTAssertEqual(joined, code, "every character of the code line is in the output, in order")
        }
    }

    // MARK: Completion scripts

    func testCompletionScriptsParseAndFishCompletes() throws {
        for (shell, check) in [("bash", ["-n"]), ("zsh", ["-n"]), ("fish", ["--no-execute"])] {
            let r = try NotepressBinary.run(["completions", shell])
            XCTAssertEqual(r.status, 0, shell)
            let dir = try makeTempDir(self)
            let script = try write(r.stdoutText, "script", in: dir)
            let syntax = try runTool(shell, check + [script])
            XCTAssertEqual(syntax.status, 0, "\(shell): \(syntax.output)")
        }
        XCTAssertTrue(try NotepressBinary.run(["completions", "bash"]).stdoutText.contains("complete -F _notepress notepress\n"))
        let wrong = try NotepressBinary.run(["completions", "bsh"])
        XCTAssertEqual(wrong.status, 2)
        XCTAssertTrue(wrong.stderr.contains("unknown shell 'bsh'; did you mean 'bash'?"), wrong.stderr)

        // fish completes without a terminal: complete -C.
        let dir = try makeTempDir(self)
        let script = try write(try NotepressBinary.run(["completions", "fish"]).stdoutText, "notepress.fish", in: dir)
        let binDir = NotepressBinary.url.deletingLastPathComponent().path
        let fish = try runTool("fish", ["-c", "set PATH \(binDir) $PATH; cd \(dir.path); source \(script); complete -C 'notepress conv'; echo ---; complete -C 'notepress convert -t '; echo ---; complete -C 'notepress themes print '"])
        let parts = fish.output.components(separatedBy: "---\n")
        XCTAssertEqual(parts.count, 3, fish.output)
        XCTAssertEqual(parts[0], "convert\tconvert notes and Markdown (the default command)\n")
        XCTAssertEqual(parts[1].split(separator: "\n").map { String($0.split(separator: "\t")[0]) }, ["ansi", "docx", "epub", "html", "json", "man", "odt", "pdf", "rtf", "tei"])
        XCTAssertEqual(parts[2], "default\nhigh-contrast\nreading\n")
    }
}
