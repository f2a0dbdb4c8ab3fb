import CCmarkGFM
import CYAML

/// The versions of the libraries the readers run with, asked of the libraries themselves at run
/// time (not the headers built against): what `notepress --version` reports.
package enum ReaderLibraries {
    /// libcmark-gfm's `cmark_version_string()`: "0.29.0.gfm.6".
    package static var cmarkGFM: String { String(cString: cmark_version_string()) }

    /// libyaml's `yaml_get_version_string()`: "0.2.5".
    package static var libyaml: String { String(cString: yaml_get_version_string()) }
}
