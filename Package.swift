// swift-tools-version:6.0
// Notepress: note markup and CommonMark/GFM → one attributed AST → HTML, RTF, ANSI, TEI, roff.
// SPDX-License-Identifier: MIT
//
// Layout: one room (module) per job. A document flows readers → AST → emitters → facade →
// site engine → CLI; each module below depends only on modules listed above it.
//
//   CCmarkGFM, CLibXML2, CYAML     system libraries (pkg-config, apt providers)
//   COptionalLibrary               how a library loaded with dlopen on first use is found (the three below)
//   CLibCrypto                     OpenSSL's libcrypto, SHA-256 through EVP, loaded on first use (dlopen)
//   CMicroHTTPD                    GNU libmicrohttpd, the HTTP server of `notepress serve`, loaded on first use (dlopen)
//   CGumbo                         Google's gumbo, the HTML5 parser of raw HTML, loaded on first use (dlopen)
//   CLibGit2                       libgit2, a site's page dates from its git history, loaded on first use (dlopen)
//   CICU                           ICU's common library (pkg-config icu-uc; Homebrew icu4c on macOS)
//   CLineBreak                     UAX #14 line breaks from ICU (libicuuc), a plain C interface
//   CBidi                          UAX #9 paragraph direction, right-to-left languages (libicuuc)
//   CCollation                     natural order of note titles: ICU's root collation, numeric (libicui18n, dlopen)
//   CSearchText                    the site search's normalisation and word breaks (libicuuc)
//   CBuildInfo                     the commit built from (NOTEPRESS_COMMIT from the Makefile), ICU's version
//   NotepressSyntaxShim            KDE's KSyntaxHighlighting (C++/Qt5) behind a plain C interface, built
//                                  as a shared library of its own that is dlopen'ed (see below)
//   NotepressHighlight             code block highlighting: loads the shim on first use, roles onto the AST
//   NotepressPlatform              the one module of C-library calls (Glibc, Musl, Darwin)
//   NotepressAST                   the shared attributed AST, visitor, JSON dump
//   NotepressReaders               Markdown (libcmark-gfm), note markup, YAML front matter (libyaml)
//   NotepressResources             Templates/ embedded into the binary (+ --data-dir override)
//   NotepressRawHTML               raw HTML in Markdown: gumbo's parse, the policy pages keep, AST nodes
//   NotepressThemes                text styles × content size categories, theme files
//   CLibZip                        libzip, the zip container of DOCX, ODT and EPUB, loaded on first use (dlopen)
//   NotepressContainer             zip packages of XML parts (libzip + libxml2's xmlTextWriter), deterministic
//   NotepressPDFShim               Pango + Cairo behind a plain C interface, a shared library of its own
//                                  that NotepressPDF dlopens on the first PDF
//   NotepressHTML/RTF/ANSI/TEI/Man one emitter per module (NotepressPDF too)
//   NotepressDOCX/ODT/EPUB         the shared documents' emitters (zip packages through NotepressContainer)
//   Notepress                      the library facade (the product): one document in, any format
//                                  out; writer registry, loader, options, errors, attributed strings
//   NotepressSite                  the site engine: folder scan and ignore rules, site table, link
//                                  resolution and rewriting, pages, tags, backlinks, shards, index,
//                                  manifest and incremental re-runs, depfile, atomic writes
//   NotepressServe                 live preview: the HTTP server (libmicrohttpd), the watcher of inputs,
//                                  Server-Sent Events and the reload script, the error overlay
//   NotepressCLI                   the `notepress` executable: imports Notepress, NotepressSite and
//                                  NotepressServe only
//   NotepressFuzzSupport           the fuzz harness and its oracles (NotepressFuzz and the tests only)
//   NotepressFuzz                  the libFuzzer target
import PackageDescription

let package = Package(
    name: "Notepress",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "Notepress", targets: ["Notepress"]),
        .executable(name: "notepress", targets: ["NotepressCLI"]),
        .plugin(name: "NotepressCommand", targets: ["NotepressCommandPlugin"]),
        // Code highlighting: KSyntaxHighlighting behind a C interface, as libNotepressSyntaxShim.so.
        // A dynamic library product and not a dependency of any Swift target, because it must be
        // loaded with dlopen on the first fenced block with a language (NotepressHighlight):
        // linking it would load Qt5Core/Gui and ~40 libraries into every run (`--version`, notes
        // without code) and stop the binary from starting where the library is not installed.
        // SwiftPM builds it with `swift build` (all products) beside the binary (.build/CONFIG/),
        // where the binary looks first; `make build` names the product, and `make install` puts it
        // in PREFIX/lib/notepress (the binary also looks in ../lib/notepress of its folder;
        // NOTEPRESS_SYNTAX_SHIM overrides). A SwiftPM product rather than a Makefile g++ rule so
        // `swift build` and `swift test` (the tests run the real binary) have it without make.
        .library(name: "NotepressSyntaxShim", type: .dynamic, targets: ["NotepressSyntaxShim"]),
        // PDF output: Pango + Cairo (+ HarfBuzz, fontconfig, glib) behind a C interface, as
        // libNotepressPDFShim.so, dlopen'ed by NotepressPDF on the first PDF written (so a run
        // without PDF output never maps Pango or Cairo); found like the highlighting shim
        // (beside the binary, PREFIX/lib/notepress, NOTEPRESS_PDF_SHIM).
        .library(name: "NotepressPDFShim", type: .dynamic, targets: ["NotepressPDFShim"]),
        .plugin(name: "NotepressBuildPlugin", targets: ["NotepressBuildPlugin"]),
    ],
    targets: [
        .systemLibrary(
            name: "CCmarkGFM", pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"]), .brew(["cmark-gfm"])]),
        .systemLibrary(
            name: "CLibXML2", pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]),
        // Google's gumbo, an HTML5 parser: raw HTML in Markdown (NotepressRawHTML), loaded with
        // dlopen on the first raw HTML (linked, loading and relocating it cost every run ~1 M
        // instructions); its header (Debian libgumbo-dev) gives the types and type-checks the
        // loaded symbols; see include/CGumbo.h.
        .target(name: "CGumbo", dependencies: ["COptionalLibrary"],
                cSettings: [.unsafeFlags(["-I/opt/homebrew/include", "-I/usr/local/include"], .when(platforms: [.macOS]))]),
        .systemLibrary(
            name: "CYAML", pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]),
        // OpenSSL's libcrypto: SHA-256 (EVP) for the manifest, loaded with dlopen on the first hash
        // (linked, it cost ~1 ms of start-up in every process, most of a one-file run). Its
        // headers (Debian libssl-dev) only type-check the loaded symbols; see CLibCrypto.h.
        .target(name: "CLibCrypto", dependencies: ["COptionalLibrary"]),
        // libzip: the zip container of DOCX, ODT and EPUB (NotepressContainer), loaded with dlopen
        // on the first package a run writes; its header (Debian libzip-dev) type-checks the loaded
        // symbols; see include/CLibZip.h.
        .target(name: "CLibZip", dependencies: ["COptionalLibrary"],
                cSettings: [.unsafeFlags(["-I/opt/homebrew/include", "-I/usr/local/include"], .when(platforms: [.macOS]))]),
        // libgit2: a folder run's page dates from the history of its git work tree (NotepressSite's
        // GitDates), loaded with dlopen when a run reads history (a run that does not never maps it
        // nor the libraries it pulls in); its header (Debian libgit2-dev) type-checks the loaded
        // symbols; see include/CLibGit2.h.
        .target(name: "CLibGit2", dependencies: ["COptionalLibrary"],
                cSettings: [.unsafeFlags(["-I/opt/homebrew/include", "-I/usr/local/include"], .when(platforms: [.macOS]))]),
        // The one rule for finding a library loaded with dlopen on first use (an environment
        // variable's file, else the first candidate that loads).
        .target(name: "COptionalLibrary"),
        // GNU libmicrohttpd: the HTTP server of `notepress serve` (NotepressServe), loaded with
        // dlopen when a server starts (linked, it and the nine libraries it pulls in cost ~1.5 ms of
        // start-up in every process); its header (Debian libmicrohttpd-dev) gives the types and
        // type-checks the loaded symbols; see include/CMicroHTTPD.h.
        .target(name: "CMicroHTTPD", dependencies: ["COptionalLibrary"],
                cSettings: [.unsafeFlags(["-I/opt/homebrew/include", "-I/usr/local/include"], .when(platforms: [.macOS]))]),

        // ICU's common library through pkg-config, so its headers and library are found where
        // the platform keeps them (macOS has no public ICU headers: Homebrew's keg-only icu4c,
        // PKG_CONFIG_PATH=$(brew --prefix icu4c)/lib/pkgconfig). Only C targets depend on it.
        .systemLibrary(
            name: "CICU", pkgConfig: "icu-uc",
            providers: [.apt(["libicu-dev"]), .brew(["icu4c"])]),
        // UAX #14 line breaking through ICU's C API; its header exposes plain C only (see its doc).
        .target(name: "CLineBreak", dependencies: ["CICU"]),
        // UAX #9 paragraph direction and right-to-left languages through ICU's C API (plain C header).
        .target(name: "CBidi", dependencies: ["CICU"]),
        // Natural order (numbers as numbers) of titles and paths: ICU's collation, libicui18n loaded
        // with dlopen on the first key (a one-file run never maps it); see include/CCollation.h.
        .target(name: "CCollation", dependencies: ["CICU", "COptionalLibrary"]),
        // The site search's normalisation (NFKC, case folding, marks out) and word breaks (UAX #29
        // with ICU's dictionaries) through ICU's C API (plain C header).
        .target(name: "CSearchText", dependencies: ["CICU"]),
        // `--version`: the commit (the Makefile sets NOTEPRESS_COMMIT; a define of this target only,
        // so a new commit recompiles one file) and the run-time ICU version.
        .target(name: "CBuildInfo", dependencies: ["CICU"],
                cSettings: Context.environment["NOTEPRESS_COMMIT"].flatMap { $0.isEmpty ? nil : $0 }.map { [.define("NOTEPRESS_COMMIT", to: "\"\($0)\"")] } ?? []),
        // KSyntaxHighlighting ships CMake files only, and Qt 5's pkg-config files carry -D flags
        // SwiftPM refuses ("prohibited flag(s)", a warning in every build of a package that
        // depends on this one): the headers are named here, Debian's multiarch paths and
        // Homebrew's; -fPIC because Qt 5 is built with -reduce-relocations.
        .target(name: "NotepressSyntaxShim",
                cxxSettings: [.unsafeFlags(["-I/usr/include/KF5/KSyntaxHighlighting", "-fPIC"]
                                               + ["QtCore", "QtGui", ""].map { "-I/usr/include/\(Context.debianMultiarch)/qt5/\($0)" },
                                           .when(platforms: [.linux])),
                              .unsafeFlags(["-I/opt/homebrew/include/KF5/KSyntaxHighlighting", "-I/usr/local/include/KF5/KSyntaxHighlighting",
                                            "-I/opt/homebrew/opt/qt@5/include", "-I/usr/local/opt/qt@5/include"],
                                           .when(platforms: [.macOS]))],
                linkerSettings: [.linkedLibrary("KF5SyntaxHighlighting"), .linkedLibrary("Qt5Gui"), .linkedLibrary("Qt5Core")]),
        // Pango and Cairo: pkg-config's `pangocairo` include folders named here (a .systemLibrary
        // cannot be linked into this one library only), Debian's multiarch glib path.
        // The PDF shim's interface: types shared by the shim and NotepressPDF, no code.
        .target(name: "CNotepressPDF"),
        .target(name: "NotepressPDFShim", dependencies: ["CNotepressPDF"],
                cSettings: [.unsafeFlags(["pango-1.0", "glib-2.0", "harfbuzz", "freetype2", "libpng16", "fribidi", "cairo", "pixman-1"]
                                             .map { "-I/usr/include/\($0)" } + ["-I/usr/lib/\(Context.debianMultiarch)/glib-2.0/include", "-fPIC"],
                                         .when(platforms: [.linux]))],
                linkerSettings: [.linkedLibrary("pangocairo-1.0"), .linkedLibrary("pango-1.0"), .linkedLibrary("gobject-2.0"),
                                 .linkedLibrary("glib-2.0"), .linkedLibrary("cairo")]),
        // iconv(3) is in the C library on Linux and in libiconv on macOS.
        .target(name: "NotepressPlatform", linkerSettings: [.linkedLibrary("iconv", .when(platforms: [.macOS]))]),
        .target(name: "NotepressAST", dependencies: ["CBidi", "CCollation"]),
        // Code highlighting: loads NotepressSyntaxShim with dlopen on first use (no link to it).
        .target(name: "NotepressHighlight", dependencies: ["NotepressAST", "NotepressPlatform"]),
        .target(name: "NotepressReaders", dependencies: ["NotepressAST", "CCmarkGFM", "CYAML"]),
        // Templates/ (through the symbolic link Sources/NotepressResources/Templates) embedded as
        // byte arrays by SwiftPM itself, not by a build-tool plugin: SwiftPM runs no plugin on the
        // targets of a tool that another plugin uses (NotepressBuildPlugin's `notepress`).
        .target(name: "NotepressResources", resources: [.embedInCode("Templates")]),
        .target(name: "NotepressThemes", dependencies: ["NotepressAST", "NotepressResources"]),
        // Raw HTML in Markdown: parsed with gumbo, the one policy of what a page keeps, and its
        // reading into AST nodes for every other format.
        .target(name: "NotepressRawHTML", dependencies: ["NotepressAST", "CGumbo"]),
        .target(name: "NotepressHTML", dependencies: ["NotepressAST", "NotepressThemes", "NotepressResources", "NotepressRawHTML"]),
        .target(name: "NotepressRTF", dependencies: ["NotepressAST", "NotepressThemes", "NotepressContainer"]),
        .target(name: "NotepressANSI", dependencies: ["NotepressAST", "NotepressThemes", "NotepressPlatform", "CLineBreak"]),
        .target(name: "NotepressTEI", dependencies: ["NotepressAST", "NotepressResources", "CLibXML2"]),
        .target(name: "NotepressMan", dependencies: ["NotepressAST", "NotepressThemes"]),
        // Zip packages of XML parts (DOCX, ODT, EPUB): libzip for the archive, libxml2's writer
        // for the XML, both deterministic.
        .target(name: "NotepressContainer", dependencies: ["CLibZip", "CLibXML2"]),
        // Office Open XML (Word), OpenDocument text and EPUB 3, zip packages of XML parts.
        .target(name: "NotepressDOCX", dependencies: ["NotepressAST", "NotepressThemes", "NotepressContainer"]),
        .target(name: "NotepressODT", dependencies: ["NotepressAST", "NotepressThemes", "NotepressContainer"]),
        .target(name: "NotepressEPUB", dependencies: ["NotepressAST", "NotepressThemes", "NotepressHTML", "NotepressRawHTML", "NotepressContainer", "CLibCrypto"]),
        // PDF: walks the AST and drives NotepressPDFShim, loaded with dlopen on first use (no link to it).
        .target(name: "NotepressPDF", dependencies: ["NotepressAST", "NotepressThemes", "NotepressPlatform", "CNotepressPDF", "NotepressContainer"]),
        .target(name: "Notepress", dependencies: [
            "NotepressAST", "NotepressReaders", "NotepressResources", "NotepressThemes",
            "NotepressHTML", "NotepressRTF", "NotepressANSI", "NotepressTEI", "NotepressMan", "NotepressPlatform",
            "NotepressHighlight", "CBuildInfo", "NotepressRawHTML", "NotepressPDF", "NotepressDOCX", "NotepressODT", "NotepressEPUB",
            "NotepressContainer",
        ]),
        .target(name: "NotepressSite", dependencies: [
            "Notepress", "NotepressAST", "NotepressReaders", "NotepressResources", "NotepressThemes",
            "NotepressHTML", "NotepressTEI", "NotepressMan", "NotepressPlatform", "CLibCrypto", "NotepressRawHTML",
            "CSearchText", "NotepressEPUB", "CLibGit2", "NotepressPDF",
        ]),
        // `notepress serve` and `convert --watch`: on top of the site engine, beside it for the CLI.
        .target(name: "NotepressServe", dependencies: [
            "Notepress", "NotepressSite", "NotepressHTML", "NotepressPlatform", "CMicroHTTPD",
        ]),
        // The fuzz harness and its oracles: linked by NotepressFuzz and the tests, by no product.
        .target(name: "NotepressFuzzSupport", dependencies: [
            "Notepress", "NotepressSite", "NotepressAST", "NotepressReaders", "NotepressHTML", "NotepressContainer", "CLibXML2",
        ]),
        // libFuzzer target; .ci/fuzz.sh sets NOTEPRESS_LIBFUZZER=1 to link libFuzzer into it alone.
        .executableTarget(name: "NotepressFuzz", dependencies: ["NotepressFuzzSupport"],
                          swiftSettings: Context.environment["NOTEPRESS_LIBFUZZER"] == "1"
                              ? [.define("NOTEPRESS_LIBFUZZER"), .unsafeFlags(["-sanitize=fuzzer,address"])] : [],
                          linkerSettings: Context.environment["NOTEPRESS_LIBFUZZER"] == "1"
                              ? [.unsafeFlags(["-sanitize=fuzzer,address"])] : []),
        .executableTarget(name: "NotepressCLI", dependencies: ["Notepress", "NotepressSite", "NotepressServe"]),
        .plugin(
            name: "NotepressCommandPlugin",
            capability: .command(
                intent: .custom(verb: "notepress", description: "Convert documents with Notepress"),
                permissions: [.writeToPackageDirectory(reason: "Notepress writes converted documents")]),
            dependencies: ["NotepressCLI"],
            path: "Sources/NotepressCommandPlugin"),
        // Converts a target's .md/.note files into HTML resources at build time.
        .plugin(name: "NotepressBuildPlugin", capability: .buildTool(), dependencies: ["NotepressCLI"],
                path: "Sources/NotepressBuildPlugin"),

        // The tests, one target per layer (a test goes where the code it checks lives, whether it
        // calls the library or runs the binary; Documentation/Development.md, "Tests"), over one
        // support module: the binary runner, the site-folder builder, paths, the served site, the
        // real readers (tmux, LibreOffice, jing, mandoc). `make test` runs them all; one layer:
        // `swift test --skip-build --disable-swift-testing --filter NotepressEmitterTests`.
        .target(name: "NotepressTestSupport", dependencies: [
            "Notepress", "NotepressAST", "NotepressReaders", "NotepressTEI", "NotepressMan", "CLibXML2",
        ], path: "Tests/NotepressTestSupport"),
        // Readers and the AST: Markdown, note markup, front matter, raw HTML, vault syntax, limits.
        .testTarget(name: "NotepressReaderTests", dependencies: [
            "NotepressTestSupport", "Notepress", "NotepressAST", "NotepressReaders", "NotepressHTML", "NotepressTEI",
            "NotepressMan", "NotepressANSI", "NotepressFuzzSupport", "NotepressContainer", "CCmarkGFM", "CLibXML2",
        ]),
        // The emitters and the facade: HTML pages, RTF, ANSI, TEI, man, themes, templates, goldens.
        .testTarget(name: "NotepressEmitterTests", dependencies: [
            "NotepressTestSupport", "Notepress", "NotepressAST", "NotepressReaders", "NotepressHTML", "NotepressRTF",
            "NotepressANSI", "NotepressTEI", "NotepressMan", "NotepressThemes", "NotepressResources", "NotepressHighlight",
            "NotepressRawHTML", "NotepressSite", "NotepressContainer", "CLibXML2",
        ], exclude: ["Golden"]),
        // The site engine and live preview: folder runs, links, pages, shards, manifest, serve, watch.
        .testTarget(name: "NotepressSiteTests", dependencies: [
            "NotepressTestSupport", "Notepress", "NotepressAST", "NotepressReaders", "NotepressHTML", "NotepressSite",
            "NotepressServe",
        ]),
        // The command line as a program: usage, options, exit codes, completions, install, tooling.
        .testTarget(name: "NotepressCLITests", dependencies: [
            "NotepressTestSupport", "NotepressCLI", "Notepress", "NotepressAST", "NotepressReaders", "NotepressSite",
            "NotepressTEI", "NotepressThemes", "NotepressResources", "CLibXML2",
        ]),
    ]
)

extension Context {
    /// Debian's multiarch folder name of the machine building (`/usr/include/TRIPLE/qt5`).
    static var debianMultiarch: String {
        #if arch(arm64)
        return "aarch64-linux-gnu"
        #else
        return "x86_64-linux-gnu"
        #endif
    }
}
