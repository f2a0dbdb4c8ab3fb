// libgit2 (Debian libgit2-dev), the history of a site's input folder (page dates), loaded with
// dlopen(3) on first use: a run that reads no history (one file, a folder outside a git work
// tree, `--no-git-dates`) never maps the library. Plain C, opaque handles: libgit2's header is
// included by libgit2.c only (for the prototypes the loaded symbols are checked against).
//
// Unlike libcrypto, libgit2 is optional: when it cannot be loaded, ``notepress_git_open`` returns
// NULL and ``notepress_git_unavailable`` says why, and the caller falls back to file times.
// Every function may be called from any thread; one repository handle is used by one thread.
#ifndef NOTEPRESS_CLIBGIT2_H
#define NOTEPRESS_CLIBGIT2_H

#include <stddef.h>
#include <stdint.h>

/// An open repository (a `git_repository`).
typedef struct notepress_git_repository notepress_git_repository;

/// Why libgit2 could not be loaded (what dlopen or dlsym said), or NULL when it loaded. Loads
/// the library when it was not tried yet.
const char *notepress_git_unavailable(void);

/// The repository whose work tree holds the folder `path` (searching its parents), or NULL when
/// there is none, it is bare, or libgit2 is unavailable.
notepress_git_repository *notepress_git_open(const char *path);
/// Closes a repository (NULL is ignored).
void notepress_git_close(notepress_git_repository *repo);
/// The work tree's folder, ending in `/`.
const char *notepress_git_workdir(notepress_git_repository *repo);
/// 1 when the repository is a shallow clone (its oldest commits fetched have no parents here).
int notepress_git_is_shallow(notepress_git_repository *repo);
/// Writes HEAD's commit id (40 hexadecimal digits and a NUL) to `out`; 0, or -1 when HEAD has no
/// commit yet.
int notepress_git_head(notepress_git_repository *repo, char out[41]);

/// One change of one commit: `status` is 'A' (added), 'M' (modified), 'D' (deleted), 'R'
/// (renamed: `old_path` → `new_path`, with or without edits), 'T' (type change), paths relative
/// to the work tree. `time` is the author's time, seconds since 1970. Returns non-zero to stop.
typedef int (*notepress_git_change_fn)(void *context, int64_t time, char status, const char *old_path,
                                       const char *new_path);
/// Walks the commits reachable from HEAD once, newest first (by time, parents after children),
/// and reports each change of each commit that is not a merge against its parent (a root commit,
/// or the oldest commit of a shallow clone, against the empty tree), only of paths below `prefix`
/// (a folder relative to the work tree ending in `/`, or "" for all), with renames found
/// (libgit2's rename detection, default similarity). A shallow clone is walked along first
/// parents (each commit against its first parent) until a parent is missing. 0, or -1 on an
/// error of libgit2.
int notepress_git_walk(notepress_git_repository *repo, const char *prefix, void *context, notepress_git_change_fn each);

/// Reports each path below `prefix` whose index or work tree file differs from HEAD (`git
/// status`), `in_head` 1 for a file of HEAD (modified, deleted, renamed) and 0 for one HEAD does
/// not hold (new in the index, untracked, ignored). 0, or -1 on an error.
typedef void (*notepress_git_path_fn)(void *context, const char *path, int in_head);
int notepress_git_changed_paths(notepress_git_repository *repo, const char *prefix, void *context, notepress_git_path_fn each);

/// The last error libgit2 gave on this thread, or "".
const char *notepress_git_error(void);

#endif
