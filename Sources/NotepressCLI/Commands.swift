import Foundation
import Notepress
import NotepressSite

/// The version `--version` and `notepress version` print.
let notepressVersion = "0.2.0"

/// What `--version` and `notepress version` print, one item per line: the version, the commit the
/// binary was built from, then each library with the version loaded at run time (what a bug
/// report needs). The first line stays `notepress VERSION` for scripts that read it.
func versionText() -> String {
    let libraries = Notepress.libraryVersions() + [("OpenSSL libcrypto", SHA256.libraryVersion)]
    return (["notepress \(notepressVersion)", Notepress.buildCommit.map { "commit \($0)" } ?? "unknown commit"]
        + libraries.map { "\($0.name) \($0.version)" }).map { $0 + "\n" }.joined()
}

/// One subcommand: its name, synopsis, description and options. `notepress help COMMAND`,
/// `COMMAND --help` and the shell completion scripts are all made from these, so every option a
/// command accepts is documented and completed.
struct CommandSpec: Sendable {
    /// `convert`, `view`, …
    var name: String
    /// One line for the command list of `notepress help`.
    var summary: String
    /// Synopsis lines without the leading `usage: ` (`notepress convert [options] [INPUT...]`).
    var synopsis: [String]
    /// Paragraphs shown between the synopsis and the options.
    var description: String
    var options: [OptionSpec]
    /// Words completed as the first positional (`print`, `list`; `bash zsh fish`).
    var actions: [String] = []
    /// What the positionals are, for completion: files, or nothing beyond ``actions``.
    var completesFiles = true
    /// Text after the options (exit status, environment).
    var epilogue = ""

    /// The full help: synopsis, description, options, epilogue.
    var help: String {
        var text = "usage: " + synopsis.joined(separator: "\n       ") + "\n"
        if !description.isEmpty { text += "\n" + description + "\n" }
        let shown = options.filter { !$0.hidden }
        if !shown.isEmpty {
            text += "\nOptions:\n"
            for o in shown { text += Self.format(o) }
        }
        if !epilogue.isEmpty { text += "\n" + epilogue + "\n" }
        return text
    }

    /// `  -t, --to FORMAT[,FORMAT...]  help` with the help in a second column from column 32.
    static func format(_ o: OptionSpec) -> String {
        let shorts = o.names.filter { !$0.hasPrefix("--") }
        let longs = o.names.filter { $0.hasPrefix("--") }
        var left = shorts.isEmpty ? "      " : "  " + shorts.joined(separator: ", ") + ", "
        left += longs.joined(separator: ", ")
        if let v = o.value { left += " " + v }
        let lines = o.help.components(separatedBy: "\n")
        let column = 31
        var out = ""
        if left.count < column {
            out += left + String(repeating: " ", count: column - left.count) + lines[0] + "\n"
        } else {
            out += left + "\n" + String(repeating: " ", count: column) + lines[0] + "\n"
        }
        for l in lines.dropFirst() { out += String(repeating: " ", count: column) + l + "\n" }
        return out
    }
}

/// The help option every command has.
let helpOption = OptionSpec(["--help", "-h"], effect: .run, "show this help")
/// `-q`: errors only.
let quietOption = OptionSpec(["--quiet", "-q"], effect: .run, "print errors only: no progress, summary or warnings")
/// `-v`: every warning and every file.
let verboseOption = OptionSpec(["--verbose", "-v"], effect: .run, "list every warning (default: one line per file\nthat has several), and each file as it is done")
/// `--data-dir DIR`.
let dataDirOption = OptionSpec(["--data-dir"], value: "DIR", completes: .folder,
                               "templates, themes and schemas in DIR override\nthe built-in ones")
let colorModes = ["auto", "always", "never"]
/// `--toc`.
let tocOption = OptionSpec(["--toc"], "a table of contents of the headings, linked (html,\nrtf, ansi, tei, docx, odt, epub, pdf; not man or json)")
/// `--toc-depth N`.
let tocDepthOption = OptionSpec(["--toc-depth"], value: "N", choices: ["1", "2", "3", "4", "5", "6"],
                                "heading levels 1..N in the table of contents\n(default: 3)")
/// `--encoding NAME`.
let encodingOption = OptionSpec(["--encoding"], value: "NAME",
                                "character encoding of inputs without a byte order\nmark (iconv names: latin1, windows-1252,\nshift_jis; iconv -l lists them; default: UTF-8;\nUTF-16 with a BOM is always read)")

let noInputLimitsOption = OptionSpec(["--no-input-limits"],
                                     "Markdown: read documents past the bounds that keep\nlibcmark-gfm 0.29 linear (table columns, empty\ncells filled in, e-mail addresses per paragraph,\nlink reference expansion; README, Limits)")

/// Every command, in the order `notepress help` lists them.
enum Commands {
    static let outputFormats = WriterRegistry.all.map(\.name)
    static let inputFormats = ["note", "commonmark", "gfm"]
    static let sizeCategories = SizeCategory.allCases.map(\.alias)

    static let themeOptions: [OptionSpec] = [
        OptionSpec(["--theme"], value: "NAME|PATH", completes: .theme,
                   "theme name from the data folder or built in\n(notepress themes), or a .json file"),
        OptionSpec(["--size-category"], value: "NAME", choices: sizeCategories,
                   "xs s m l xl xxl xxxl ax1..ax5 or extraSmall..\naccessibilityExtraExtraExtraLarge (default: large)"),
        OptionSpec(["--bold-text"], "the accessibility Bold Text setting: weights step up"),
        dataDirOption,
    ]

    /// Code highlighting (`convert` and `view`; ``HighlightArguments``).
    static let highlightOptions: [OptionSpec] = [
        OptionSpec(["--highlight-style"], value: "NAME",
                   "colour code with the highlighting library's theme\nNAME (\"Breeze Light\", \"GitHub Dark\"; notepress\nthemes highlight-styles lists them) instead of the theme's palette;\nalso highlights --fragment"),
        OptionSpec(["--no-highlight"], "code blocks in one colour (no syntax highlighting)"),
    ]

    /// The options of sharded runs (`convert`, `scan`, `index`; README "Past one machine").
    static let shardOptions: [OptionSpec] = [
        OptionSpec(["--site-table"], value: "TABLE", completes: .file,
                   effect: .partition, "render against the site table notepress scan wrote\n(a shard: writes a manifest part, never the\nsite-wide pages; notepress index writes them)"),
        OptionSpec(["--files-from"], value: "FILE|-", completes: .file,
                   effect: .partition, "convert exactly the inputs FILE lists (- standard\ninput), one per line, relative to --root"),
        OptionSpec(["--null", "-0"], effect: .partition, "--files-from: names end with a NUL byte, not a\nline feed (find -print0)"),
        OptionSpec(["--root"], value: "DIR", completes: .folder,
                   effect: .partition, "--files-from, --site-table: the input folder the\npaths are relative to (default: the INPUT folder,\nelse .)"),
        OptionSpec(["--shard"], value: "K/N",
                   effect: .partition, "--site-table: convert shard K of N only (inputs\nwhose path's SHA-256, first 8 bytes, mod N is K-1)"),
    ]

    static let scan = CommandSpec(
        name: "scan", summary: "write a folder's site table (JSON Lines) for sharded runs",
        synopsis: ["notepress scan [options] INPUT -o TABLE", "notepress scan [options] --files-from FILE|- --root DIR -o TABLE",
                   "notepress scan [options] INPUT --list [-0]"],
        description: """
        Reads every input once (front matter, titles, heading ids, links, assets) and writes the
        site table: one JSON object per line, sorted (schema: README, "Past one machine"). Tables of
        disjoint inputs merge by concatenation and LC_ALL=C sort. -o - (or no -o) writes standard
        output. --list prints the inputs (pages and other files) below INPUT instead, one per line
        (-0: NUL-terminated), for --files-from. Give scan, convert and index the same options.
        """,
        options: convert.options.filter { !["--version", "--list-formats", "--watch"].contains($0.key) }
            + [OptionSpec(["--list"], effect: .run, "print the inputs' paths below INPUT, not the table")],
        epilogue: "Exit status: 0 ok, 1 an input could not be read (its record is still written), 2 usage error.")

    static let index = CommandSpec(
        name: "index", summary: "write a sharded site's site-wide pages and manifest",
        synopsis: ["notepress index [options] OUT --site-table TABLE"],
        description: """
        After notepress convert --site-table TABLE has run over every shard into OUT: writes the
        site-wide pages (the notes list), prints the link report, merges the shards' manifest parts
        (OUT/.notepress-parts) into OUT/.notepress-manifest and keeps the table as
        OUT/.notepress-site.jsonl, so that OUT holds the bytes notepress convert INPUT -o OUT
        writes. Give it the options the shards had (-t, --layout, --theme, --template...).
        """,
        options: convert.options.filter { !["--version", "--list-formats", "--watch"].contains($0.key) },
        epilogue: "Exit status: 0 ok, 1 a page has no output (failed or in no shard) or a part is unreadable, 2 usage error.")

    static let convert = CommandSpec(
        name: "convert", summary: "convert notes and Markdown (the default command)",
        synopsis: ["notepress convert [options] [INPUT...]", "notepress [options] INPUT..."],
        description: """
        Converts note markup (.note, .txt), TiddlyWiki (.tid) and Markdown (.md, .markdown) files,
        folders of them, or standard input (- or no INPUT when standard input is a pipe or a file) to
        other formats. In a folder, files of other kinds are skipped unless -f or --include chooses
        them; .notepressignore files (gitignore syntax) leave files out.
        The format follows -t, else the extension of -o (.html .rtf .ans .xml .json .man .1-.9
        .docx .odt .epub .pdf), else HTML.
        """,
        options: [
            OptionSpec(["--to", "-t"], value: "FORMAT[,FORMAT...]", choices: outputFormats,
                       "html (default), rtf, ansi, tei, man, json, docx, odt, epub, pdf;\nnotepress formats lists them"),
            OptionSpec(["--from", "-f"], value: "FORMAT", choices: inputFormats,
                       "note, commonmark, gfm (default: from the file\nextension; markdown means gfm); in a folder,\nevery text file is then read, whatever its\nextension (binary files are skipped)"),
            OptionSpec(["--page-size"], value: "a4|letter", choices: ["a4", "letter"],
                       "PDF: the paper (default: letter in a US or Canadian\nlocale, LC_PAPER, else a4)"),
            OptionSpec(["--include"], value: "GLOB",
                       effect: .selection, "folders: convert the files GLOB matches (gitignore\nsyntax, relative to the input folder; repeatable),\nwhatever their extension, and no others"),
            OptionSpec(["--exclude"], value: "GLOB",
                       effect: .selection, "folders: leave out files and folders GLOB matches\n(gitignore syntax; repeatable)"),
            encodingOption,
            OptionSpec(["--hashtags"], "#word in text is a tag of the note (merged with\nfront-matter tags), shown as a tag"),
            OptionSpec(["--output", "-o"], value: "PATH", completes: .file,
                       effect: .run, "output file, or folder when converting a folder or\nseveral files (- or no -o: standard output)"),
            OptionSpec(["--layout"], value: "flat|mirror", choices: ["flat", "mirror"],
                       "folders: every format side by side in one tree\n(flat, default: OUT/a/b.html, OUT/a/b.rtf), or one\ntree per format (mirror: OUT/html/a/b.html), for\nany number of formats"),
            OptionSpec(["--jobs", "-j"], value: "N",
                       effect: .run, "files converted in parallel (default: the number of\ncores); outputs are the same bytes whatever N is"),
            OptionSpec(["--force"], effect: .run, "convert every file, even those unchanged since the\nlast run (the output folder's .notepress-manifest\nrecords SHA-256 hashes of inputs, options, theme\nand outputs)"),
            OptionSpec(["--prune"], effect: .run, "delete outputs the last run wrote and this one does\nnot: of deleted inputs, of an earlier --layout, a\nmoved notes list, assets no page uses any more"),
            OptionSpec(["--wikilinks"], effect: .run, "Markdown: read [[wiki links]] (default: on when\nconverting a folder or several files, off for one)"),
            OptionSpec(["--no-wikilinks"], "Markdown in folders: leave [[...]] as cmark-gfm\nreads it"),
            OptionSpec(["--math"], effect: .run, "Markdown --fragment: read $math$, $$math$$,\n%%comments%% and ==highlights== (pages and other\nformats always do)"),
            OptionSpec(["--no-math"], "Markdown: leave $, %% and == as cmark-gfm reads them"),
            OptionSpec(["--markdown-extension"], value: "NAME", choices: MkDocsExtension.allCases.map(\.rawValue),
                       "Markdown: read a MkDocs extension, named as in\nmkdocs.yml (repeatable): attr_list, def_list,\nabbr, pymdownx.keys, pymdownx.caret,\npymdownx.mark, pymdownx.tilde, toc (a ¶ link\nafter each heading), …"),
            OptionSpec(["--strict-links"], effect: .run, "folders: broken links are errors (exit 1), not\nwarnings"),
            OptionSpec(["--backlinks"], "folders: each HTML page lists the pages that link\nto it (\"Linked from\")"),
            OptionSpec(["--no-print-page"], "folders: no print.html (every page on one page, in\nthe sidebar's order) and no Print link"),
            OptionSpec(["--site-title"], value: "TEXT", "folders: the site title in every page's header\n(default: the root index page's title, else Notes)"),
            OptionSpec(["--base-url"], value: "URL", "folders: the URL the site is published at; writes\nsitemap.xml and feed.xml (Atom), and 404.html\nlinks absolutely under it"),
            OptionSpec(["--no-git-dates"], "folders: date pages by their files' times, not by\nthe git history of the work tree they are in (the\ncommits that added and last changed each file)"),
            OptionSpec(["--edit-url"], value: "URL",
                       "folders: an \"Edit this page\" link on each HTML page:\nURL with {path} (the input's path below the input\nfolder) replaced, else with the path appended\n(default: mkdocs.yml's repo_url + edit_uri, book.toml's\n[output.html] edit-url-template)"),
            OptionSpec(["--feed-size"], value: "N", "folders, with --base-url: notes in feed.xml, newest\nfirst (default 20)"),
            OptionSpec(["--list-page-size"], value: "N", "folders: entries per page of the notes list and of\ntag pages (default 200; 0: one page)"),
            OptionSpec(["--list-order"], value: "created|updated", choices: ["created", "updated"],
                       "folders: sort the notes list and tag pages by each\npage's date (created, the default) or by its last\nupdate (updated: front matter, git, file time),\nnewest first"),
            OptionSpec(["--copy-all"], "folders: copy every file of other kinds into the\noutput, not only the images and files pages use"),
            OptionSpec(["--follow-symlinks"], effect: .selection, "folders: follow symbolic links that lead out of\nthe input folder (default: warn and skip them)"),
            OptionSpec(["--depfile"], value: "FILE", completes: .file,
                       effect: .run, "write a Makefile-syntax dependency file (make,\nninja): outputs depend on their input, the theme\nfile and templates; the HTML index and\nOUT/.notepress-stamp (written when the run\nsucceeds) on every input"),
            OptionSpec(["--fragment"], "HTML: body content only, no page template"),
            OptionSpec(["--heading-ids"], "--fragment: give headings their ids (GitHub's\nalgorithm), as pages always do"),
            OptionSpec(["--template"], value: "FILE", completes: .file,
                       "HTML: a Mustache page template instead of the\nbuilt-in one (notepress templates print html);\n{{> name}} partials beside it or in the data folder"),
            OptionSpec(["--metadata", "-M"], value: "KEY[=VALUE]",
                       "set a metadata field, over the front matter's\n(repeatable; VALUE true/false is a boolean, no\nVALUE is true): -M author='A. Writer' -M lang=de"),
            tocOption,
            tocDepthOption,
            OptionSpec(["--unsafe"], "keep raw HTML and javascript:/vbscript:/file:/data: links"),
            noInputLimitsOption,
            OptionSpec(["--keep-markers"], "notes: show the *, _, -, ~ delimiters, styled"),
        ] + shardOptions + themeOptions + highlightOptions + [
            OptionSpec(["--width"], value: "N", "ansi: wrap at N columns (default: the terminal's,\nelse COLUMNS, else 80)"),
            OptionSpec(["--color", "--colour"], value: "WHEN", choices: colorModes,
                       "ansi: auto (default: colour unless NO_COLOR is set\nor standard output is a TERM=dumb terminal),\nalways, never"),
            OptionSpec(["--hyperlinks"], value: "WHEN", choices: colorModes,
                       "ansi: OSC 8 links: auto (default: on a terminal\nknown to show them), always, never; without them\nthe URL follows the link text"),
            OptionSpec(["--ascii"], "ansi: ASCII borders, bullets and marks"),
            OptionSpec(["--no-validate"], "tei: do not validate against the RelaxNG schema"),
            quietOption,
            verboseOption,
            OptionSpec(["--watch"], effect: .run, "keep running: convert again (only what changed)\neach time an input, the template or the theme\nchanges; Ctrl-C stops (exit 0)"),
            OptionSpec(["--list-formats"], effect: .run, "list the input and output formats (notepress formats)"),
            helpOption,
            OptionSpec(["--version"], effect: .run, "show the version"),
        ],
        epilogue: """
        Outputs are byte-for-byte reproducible: SOURCE_DATE_EPOCH (seconds since 1970) caps the
        dates taken from file times.

        Exit status: 0 all converted, 1 an input failed (the others are still converted; the
        failures are listed at the end), 2 usage error (nothing is converted).
        """)

    /// The port `notepress serve` listens on unless `--port` says otherwise.
    static let defaultServePort: UInt16 = 8470

    static let serve = CommandSpec(
        name: "serve", summary: "build a folder as a site, serve it, rebuild and reload on save",
        synopsis: ["notepress serve [options] INPUT [-o OUT]"],
        description: """
        Builds INPUT as convert does, serves the output over HTTP (127.0.0.1, port \(defaultServePort)
        unless --host and --port say otherwise; --port 0 picks a free port) and prints the URL. Then,
        each time a note, a folder, the template or the theme changes, converts again what changed
        (and what depends on it) and open pages reload, keeping their scroll position. A note that
        fails to convert shows its error over the page and on the terminal until it is fixed. The
        files written are those convert writes; only served pages get the reload script. Without
        -o the site goes to a temporary folder, removed when the server stops. Ctrl-C or SIGTERM
        stops it (exit 0).
        """,
        options: convert.options.filter { o in
            !["--version", "--list-formats", "--watch", "--depfile", "--output"].contains(o.key) && o.effect != .partition
        } + [
            OptionSpec(["--output", "-o"], value: "DIR", completes: .folder,
                       effect: .run, "the output folder (default: a temporary folder,\nremoved when the server stops)"),
            OptionSpec(["--port", "-p"], value: "N", effect: .run, "the TCP port (default: \(defaultServePort); 0: a free port,\nprinted)"),
            OptionSpec(["--host"], value: "ADDRESS", effect: .run,
                       "the address to listen on (default: 127.0.0.1; any\nother than a loopback address is warned about:\nthe site is then open to the network)"),
        ],
        epilogue: "Exit status: 0 stopped by Ctrl-C or SIGTERM, 1 the server cannot start, 2 usage error.")

    static let view = CommandSpec(
        name: "view", summary: "show a document in the terminal, paged",
        synopsis: ["notepress view [options] [FILE|-]"],
        description: """
        Renders one document for the terminal. When standard output is a terminal and the text is
        taller than the screen it goes through NOTEPRESS_PAGER, else PAGER, else less -R (run with
        LESS=FRX and LV=-c when those are unset, as git does; PAGER= or PAGER=cat means no pager).
        Without FILE, standard input is read when it is a pipe or a file with content.
        """,
        options: [
            OptionSpec(["--from", "-f"], value: "FORMAT", choices: inputFormats,
                       "note, commonmark, gfm (default: from the file\nextension; standard input is gfm)"),
            encodingOption,
            OptionSpec(["--hashtags"], "#word in text is shown as a tag"),
            OptionSpec(["--width", "-w"], value: "N", "wrap at N columns (default: the terminal's)"),
            OptionSpec(["--color", "--colour"], value: "WHEN", choices: colorModes,
                       "auto (default: on a terminal, unless NO_COLOR or\nTERM=dumb), always, never"),
            OptionSpec(["--hyperlinks"], value: "WHEN", choices: colorModes,
                       "OSC 8 links: auto (default: on a terminal known to\nshow them), always, never"),
            OptionSpec(["--ascii"], "ASCII borders, bullets and marks"),
            OptionSpec(["--toc"], "a table of contents of the headings first"),
            tocDepthOption,
            noInputLimitsOption,
        ] + themeOptions + highlightOptions + [quietOption, verboseOption, helpOption],
        epilogue: "Exit status: 0 ok, 1 the input cannot be read, 2 usage error.")

    static let validate = CommandSpec(
        name: "validate", summary: "validate TEI XML against the shipped RelaxNG schema",
        synopsis: ["notepress validate [--schema PATH] [--data-dir DIR] FILE.xml..."],
        description: """
        Checks XML files against the TEI schema (default: tei/notepress-tei.rng from --data-dir or
        built in) with libxml2. Each error is printed once, as FILE:LINE:COLUMN: error: element
        NAME: message (the element xmllint names). DOCTYPEs and entities are refused, never loaded.
        - reads standard input.
        """,
        options: [
            OptionSpec(["--schema"], value: "PATH", completes: .file, "a RelaxNG schema (XML syntax) to use instead"),
            dataDirOption, quietOption, helpOption,
        ],
        epilogue: "Exit status: 0 all valid, 1 a file is invalid or unreadable, 2 usage error or unusable schema.")

    static let themes = CommandSpec(
        name: "themes", summary: "list the themes, or print one resolved",
        synopsis: ["notepress themes [list] [--data-dir DIR]", "notepress themes print NAME|PATH [--data-dir DIR]",
                   "notepress themes highlight-styles"],
        description: """
        list (the default) prints one line per theme: NAME, a tab, and where it comes from (a path
        in the data folder, or (built-in)/themes/NAME.json). print writes the theme with everything
        it inherits filled in, as a complete JSON theme file; its "code" part is the palette of
        highlighted code, light and dark, one colour (bold, italic) per role. highlight-styles
        lists the highlighting library's themes, the names --highlight-style takes.
        """,
        options: [dataDirOption, helpOption], actions: ["list", "print", "highlight-styles"], completesFiles: false,
        epilogue: "Exit status: 0 ok, 1 the theme cannot be loaded, 2 usage error.")

    static let templates = CommandSpec(
        name: "templates", summary: "print or list the built-in templates",
        synopsis: ["notepress templates print html|index|PATH [--data-dir DIR]", "notepress templates list"],
        description: """
        print writes a template (html: the page, index: the folder index, or a path below the
        templates folder such as tei/notepress-tei.rng) so it can be copied into a data folder and
        changed; list prints the paths of every built-in template, theme and schema.
        """,
        options: [dataDirOption, helpOption], actions: ["print", "list"], completesFiles: false,
        epilogue: "Exit status: 0 ok, 2 usage error or no such template.")

    static let formats = CommandSpec(
        name: "formats", summary: "list the input and output formats with their extensions",
        synopsis: ["notepress formats", "notepress --list-formats"],
        description: """
        One line per format: NAME, a tab, input or output, a tab, the file extensions that select
        it (separated by spaces; - when only -f/-t does), a tab, and what it is.
        """,
        options: [helpOption], completesFiles: false)

    static let completions = CommandSpec(
        name: "completions", summary: "print a shell completion script (bash, zsh, fish)",
        synopsis: ["notepress completions bash|zsh|fish"],
        description: """
        Prints a script that completes commands, options, formats, themes and files. Install it:
          bash: notepress completions bash > ~/.local/share/bash-completion/completions/notepress
          zsh:  notepress completions zsh > ~/.zfunc/_notepress   (with fpath+=(~/.zfunc))
          fish: notepress completions fish > ~/.config/fish/completions/notepress.fish
        """,
        options: [helpOption], actions: ["bash", "zsh", "fish"], completesFiles: false)

    static let help = CommandSpec(
        name: "help", summary: "show the help of a command",
        synopsis: ["notepress help [COMMAND]"], description: "", options: [helpOption],
        actions: ["convert", "serve", "scan", "index", "view", "validate", "themes", "templates", "formats", "completions", "help", "version"],
        completesFiles: false)

    static let version = CommandSpec(
        name: "version", summary: "show the version", synopsis: ["notepress version", "notepress --version"],
        description: "", options: [helpOption], completesFiles: false)

    static let all: [CommandSpec] = [convert, serve, scan, index, view, validate, themes, templates, formats, completions, help, version]

    static func named(_ name: String) -> CommandSpec? { all.first { $0.name == name } }

    /// `notepress help` and `notepress --help`.
    static var mainHelp: String {
        var text = """
        usage: notepress COMMAND [options] [ARGS...]
               notepress [convert options] INPUT...

        Notepress converts note markup and CommonMark/GFM to HTML, RTF, terminal text (ANSI),
        TEI XML, man pages, DOCX, ODT, EPUB, PDF and a JSON dump of its document tree.

        Commands:

        """
        for c in all {
            let left = "  " + c.name
            text += left + String(repeating: " ", count: max(1, 16 - left.count)) + c.summary + "\n"
        }
        text += """

        Run 'notepress help COMMAND' or 'notepress COMMAND --help' for a command's options;
        man notepress for the manual. Exit status: 0 ok, 1 an input failed, 2 usage error.
        """
        return text + "\n"
    }
}
