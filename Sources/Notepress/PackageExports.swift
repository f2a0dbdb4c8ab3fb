import NotepressANSI
import NotepressHTML
import NotepressPlatform
import NotepressReaders
import NotepressResources

// What the command line (and the site engine) use of the modules below the facade, each by name:
// `import Notepress` (and `NotepressSite`) is all `NotepressCLI` imports. Package access only;
// none of these is part of the library's public API. A type not listed here is not for the
// command line: add it here, with a reason, or give the facade an operation for it.

/// The C-library calls, all in the one module NotepressPlatform (files, descriptors, terminals,
/// child processes, signals).
package typealias Platform = NotepressPlatform.Platform
/// A failed system call: `errno` and the step it failed at (``Platform``).
package typealias SystemError = NotepressPlatform.SystemError

/// The terminal rules: colour depth and hyperlinks from `--color`, `--hyperlinks`, `NO_COLOR`,
/// `TERM` and whether the output is a terminal.
package typealias ColorPolicy = NotepressANSI.ColorPolicy
/// The terminal's columns and rows (`COLUMNS`/`LINES`, else the terminal's size).
package typealias TerminalSize = NotepressANSI.TerminalSize

/// The HTML page template (`--template`, `html/page.html`) and its errors.
package typealias PageTemplate = NotepressHTML.PageTemplate
/// A page template that cannot be loaded (a missing file or partial).
package typealias PageTemplateError = NotepressHTML.PageTemplateError
/// HTML fragments written as the reader streams top-level blocks (`--fragment` to a pipe).
package typealias HTMLFragmentStream = NotepressHTML.HTMLFragmentStream
/// The MkDocs Markdown extensions by their `mkdocs.yml` names (`--markdown-extension`).
package typealias MkDocsExtension = NotepressReaders.MkDocsExtension
/// The templates: embedded in the binary, overridden by `--data-dir`.
package typealias TemplateStore = NotepressResources.TemplateStore
/// A Mustache template that does not parse (file, line, column, message).
package typealias MustacheError = NotepressResources.MustacheError

/// `--metadata KEY=VALUE` overrides of front matter, as the loader applies them.
package typealias MetadataOverrides = NotepressReaders.MetadataOverrides
/// What a reader gives: the document and its diagnostics.
package typealias ReadResult = NotepressReaders.ReadResult
