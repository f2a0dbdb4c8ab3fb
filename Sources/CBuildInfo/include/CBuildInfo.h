// What `notepress --version` reports about the build, as a plain C interface (ICU's headers are
// included by buildinfo.c only, never seen by Swift: they would clash with Foundation's ICU).
//
// - `notepress_build_commit`: the git commit the binary was built from. The Makefile passes it
//   (NOTEPRESS_COMMIT in the environment of `swift build`; Package.swift turns it into a define of
//   this target alone, so a new commit recompiles this one file); `swift build` without make says
//   "unknown commit".
// - `notepress_icu_version`: the version of the ICU library loaded at run time (`u_getVersion`).
#ifndef NOTEPRESS_CBUILDINFO_H
#define NOTEPRESS_CBUILDINFO_H

/// The commit (`git rev-parse --short=12 HEAD`, `-dirty` with uncommitted changes), or
/// "unknown commit". A static string.
const char *notepress_build_commit(void);

/// Writes ICU's version ("72.1") into `buffer` (at least 24 bytes), NUL-terminated.
void notepress_icu_version(char *buffer);

#endif
