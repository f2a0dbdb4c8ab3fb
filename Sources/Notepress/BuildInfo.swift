import CBuildInfo
import NotepressReaders
import NotepressTEI

extension Notepress {
    /// The git commit this binary was built from ("1121010abcde", "…-dirty"), or `nil` for a
    /// build without the Makefile (which passes it: NOTEPRESS_COMMIT).
    package static var buildCommit: String? {
        let commit = String(cString: notepress_build_commit())
        return commit == "unknown commit" ? nil : commit
    }

    /// The libraries documents go through and the versions loaded at run time, in the order
    /// `notepress --version` prints them: libcmark-gfm, libxml2, libyaml, ICU.
    package static func libraryVersions() -> [(name: String, version: String)] {
        let icu = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 32) { buffer in
            notepress_icu_version(buffer.baseAddress!)
            return String(cString: buffer.baseAddress!)
        }
        return [
            ("libcmark-gfm", ReaderLibraries.cmarkGFM),
            ("libxml2", XMLLibrary.version),
            ("libyaml", ReaderLibraries.libyaml),
            ("ICU", icu),
        ]
    }
}
