// See include/CLibGit2.h. The symbols are looked up once, by name, in libgit2 1.x (its soname
// names its minor version: libgit2.so.1.5 on Debian 12, others tried after it; on macOS
// libgit2.1.N.dylib, Homebrew's prefixes after the loader's own search path).
// NOTEPRESS_LIBGIT2 names another file to load instead (a test, an unusual installation).
// Options structures are initialised by the loaded library's own `*_init` functions in buffers
// larger than this header's structures (a later 1.x may have added fields at their end); only
// their leading fields, the same in every 1.x, are set here.
#include "CLibGit2.h"

#include <COptionalLibrary.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#if __has_include(<git2.h>)
#include <git2.h>
#define NP_FN(name) __typeof__(name) *
#define NP_HAVE_GIT2 1
#endif

#ifdef NP_HAVE_GIT2
static struct {
    NP_FN(git_libgit2_init) init;
    NP_FN(git_error_last) error_last;
    NP_FN(git_repository_open_ext) open_ext;
    NP_FN(git_repository_free) repo_free;
    NP_FN(git_repository_workdir) workdir;
    NP_FN(git_repository_is_shallow) is_shallow;
    NP_FN(git_reference_name_to_id) name_to_id;
    NP_FN(git_oid_tostr) oid_tostr;
    NP_FN(git_revwalk_new) walk_new;
    NP_FN(git_revwalk_push_head) walk_push_head;
    NP_FN(git_revwalk_sorting) walk_sorting;
    NP_FN(git_revwalk_next) walk_next;
    NP_FN(git_revwalk_free) walk_free;
    NP_FN(git_commit_lookup) commit_lookup;
    NP_FN(git_commit_free) commit_free;
    NP_FN(git_commit_author) commit_author;
    NP_FN(git_commit_parentcount) parentcount;
    NP_FN(git_commit_parent) parent;
    NP_FN(git_commit_tree) commit_tree;
    NP_FN(git_tree_free) tree_free;
    NP_FN(git_diff_options_init) diff_options_init;
    NP_FN(git_diff_find_options_init) find_options_init;
    NP_FN(git_diff_tree_to_tree) tree_to_tree;
    NP_FN(git_diff_find_similar) find_similar;
    NP_FN(git_diff_num_deltas) num_deltas;
    NP_FN(git_diff_get_delta) get_delta;
    NP_FN(git_diff_free) diff_free;
    NP_FN(git_status_options_init) status_options_init;
    NP_FN(git_status_list_new) status_new;
    NP_FN(git_status_list_entrycount) status_count;
    NP_FN(git_status_byindex) status_at;
    NP_FN(git_status_list_free) status_free;
} lib;
#endif

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char unavailable[512];

static void *open_library(void) {
#if defined(__APPLE__)
    const char *const candidates[] = {"libgit2.1.5.dylib", "libgit2.1.9.dylib", "libgit2.1.8.dylib", "libgit2.1.7.dylib",
                                      "libgit2.1.6.dylib", "/opt/homebrew/lib/libgit2.dylib", "/usr/local/lib/libgit2.dylib"};
#else
    const char *const candidates[] = {"libgit2.so.1.5", "libgit2.so.1.9", "libgit2.so.1.8", "libgit2.so.1.7",
                                      "libgit2.so.1.6", "libgit2.so.1.4", "libgit2.so.1.3", "libgit2.so.1.1"};
#endif
    return notepress_open_optional_library("NOTEPRESS_LIBGIT2", candidates, sizeof candidates / sizeof candidates[0]);
}

static void load(void) {
#ifdef NP_HAVE_GIT2
    void *h = open_library();
    if (!h) {
        const char *e = dlerror();
        snprintf(unavailable, sizeof unavailable, "cannot load libgit2: %s", e ? e : "not found");
        return;
    }
#define LOAD(field, symbol) \
    if (!(*(void **)&lib.field = dlsym(h, #symbol))) { \
        snprintf(unavailable, sizeof unavailable, "libgit2 has no symbol %s", #symbol); \
        return; \
    }
    LOAD(init, git_libgit2_init)
    LOAD(error_last, git_error_last)
    LOAD(open_ext, git_repository_open_ext)
    LOAD(repo_free, git_repository_free)
    LOAD(workdir, git_repository_workdir)
    LOAD(is_shallow, git_repository_is_shallow)
    LOAD(name_to_id, git_reference_name_to_id)
    LOAD(oid_tostr, git_oid_tostr)
    LOAD(walk_new, git_revwalk_new)
    LOAD(walk_push_head, git_revwalk_push_head)
    LOAD(walk_sorting, git_revwalk_sorting)
    LOAD(walk_next, git_revwalk_next)
    LOAD(walk_free, git_revwalk_free)
    LOAD(commit_lookup, git_commit_lookup)
    LOAD(commit_free, git_commit_free)
    LOAD(commit_author, git_commit_author)
    LOAD(parentcount, git_commit_parentcount)
    LOAD(parent, git_commit_parent)
    LOAD(commit_tree, git_commit_tree)
    LOAD(tree_free, git_tree_free)
    LOAD(diff_options_init, git_diff_options_init)
    LOAD(find_options_init, git_diff_find_options_init)
    LOAD(tree_to_tree, git_diff_tree_to_tree)
    LOAD(find_similar, git_diff_find_similar)
    LOAD(num_deltas, git_diff_num_deltas)
    LOAD(get_delta, git_diff_get_delta)
    LOAD(diff_free, git_diff_free)
    LOAD(status_options_init, git_status_options_init)
    LOAD(status_new, git_status_list_new)
    LOAD(status_count, git_status_list_entrycount)
    LOAD(status_at, git_status_byindex)
    LOAD(status_free, git_status_list_free)
#undef LOAD
    if (lib.init() < 0) snprintf(unavailable, sizeof unavailable, "git_libgit2_init failed");
#else
    snprintf(unavailable, sizeof unavailable, "built without libgit2's header (git2.h)");
#endif
}

const char *notepress_git_unavailable(void) {
    pthread_once(&once, load);
    return unavailable[0] ? unavailable : NULL;
}

const char *notepress_git_error(void) {
#ifdef NP_HAVE_GIT2
    if (notepress_git_unavailable()) return unavailable;
    const git_error *e = lib.error_last();
    return e && e->message ? e->message : "";
#else
    return unavailable;
#endif
}

#ifdef NP_HAVE_GIT2
// Room for a later 1.x's larger options structures (see the file's comment).
typedef union { git_diff_options o; char room[1024]; } diff_options_room;
typedef union { git_diff_find_options o; char room[512]; } find_options_room;
typedef union { git_status_options o; char room[1024]; } status_options_room;

notepress_git_repository *notepress_git_open(const char *path) {
    if (notepress_git_unavailable()) return NULL;
    git_repository *repo = NULL;
    if (lib.open_ext(&repo, path, 0, NULL) != 0) return NULL;
    if (!lib.workdir(repo)) { lib.repo_free(repo); return NULL; }
    return (notepress_git_repository *)repo;
}

void notepress_git_close(notepress_git_repository *repo) {
    if (repo) lib.repo_free((git_repository *)repo);
}

const char *notepress_git_workdir(notepress_git_repository *repo) { return lib.workdir((git_repository *)repo); }

int notepress_git_is_shallow(notepress_git_repository *repo) { return lib.is_shallow((git_repository *)repo) == 1; }

int notepress_git_head(notepress_git_repository *repo, char out[41]) {
    git_oid id;
    if (lib.name_to_id(&id, (git_repository *)repo, "HEAD") != 0) return -1;
    lib.oid_tostr(out, 41, &id);
    return 0;
}

/// The changes of one commit against its first parent (or the empty tree), reported to `each`;
/// 1 when `each` asked to stop, -1 on an error.
static int commit_changes(git_repository *r, git_commit *c, const git_diff_options *options,
                          const git_diff_find_options *find, void *context, notepress_git_change_fn each) {
    git_tree *tree = NULL, *before = NULL;
    git_commit *parent = NULL;
    git_diff *diff = NULL;
    int result = -1;
    if (lib.commit_tree(&tree, c) != 0) goto done;
    // A parent that is not here (the oldest commit of a shallow clone, which libgit2 before 1.7
    // still counts): against the empty tree, as a root commit.
    if (lib.parentcount(c) >= 1 && lib.parent(&parent, c, 0) == 0 && lib.commit_tree(&before, parent) != 0) goto done;
    if (lib.tree_to_tree(&diff, r, before, tree, options) != 0) goto done;
    size_t n = lib.num_deltas(diff);
    int adds = 0, deletes = 0;
    for (size_t i = 0; i < n; i++) {
        git_delta_t s = lib.get_delta(diff, i)->status;
        adds |= s == GIT_DELTA_ADDED;
        deletes |= s == GIT_DELTA_DELETED;
    }
    // Renames only where there can be one (an add and a delete in one commit).
    if (adds && deletes && lib.find_similar(diff, find) != 0) goto done;
    n = lib.num_deltas(diff);
    int64_t time = (int64_t)lib.commit_author(c)->when.time;
    result = 0;
    for (size_t i = 0; i < n && result == 0; i++) {
        const git_diff_delta *d = lib.get_delta(diff, i);
        char s;
        switch (d->status) {
        case GIT_DELTA_ADDED: s = 'A'; break;
        case GIT_DELTA_DELETED: s = 'D'; break;
        case GIT_DELTA_MODIFIED: s = 'M'; break;
        case GIT_DELTA_RENAMED: s = 'R'; break;
        case GIT_DELTA_TYPECHANGE: s = 'T'; break;
        default: continue;
        }
        if (each(context, time, s, d->old_file.path, d->new_file.path)) result = 1;
    }
done:
    if (diff) lib.diff_free(diff);
    if (before) lib.tree_free(before);
    if (parent) lib.commit_free(parent);
    if (tree) lib.tree_free(tree);
    return result;
}

/// A shallow clone's walk: libgit2 before 1.7 cannot sort commits whose parents are missing, so
/// the first parents from HEAD, each commit (a merge too) against its first parent, until one is
/// not here (that commit then against the empty tree).
static int first_parent_walk(git_repository *r, const git_diff_options *options, const git_diff_find_options *find,
                             void *context, notepress_git_change_fn each) {
    git_oid id;
    git_commit *c = NULL;
    if (lib.name_to_id(&id, r, "HEAD") != 0 || lib.commit_lookup(&c, r, &id) != 0) return -1;
    int result = 0;
    while (c && result == 0) {
        result = commit_changes(r, c, options, find, context, each);
        git_commit *parent = NULL;
        if (lib.parentcount(c) == 0 || lib.parent(&parent, c, 0) != 0) parent = NULL;
        lib.commit_free(c);
        c = parent;
    }
    if (c) lib.commit_free(c);
    return result < 0 ? -1 : 0;
}

int notepress_git_walk(notepress_git_repository *repo, const char *prefix, void *context, notepress_git_change_fn each) {
    git_repository *r = (git_repository *)repo;
    diff_options_room options;
    find_options_room find;
    memset(&options, 0, sizeof options);
    memset(&find, 0, sizeof find);
    if (lib.diff_options_init(&options.o, GIT_DIFF_OPTIONS_VERSION) != 0
        || lib.find_options_init(&find.o, GIT_DIFF_FIND_OPTIONS_VERSION) != 0) return -1;
    char *paths[1] = {(char *)prefix};
    if (prefix && *prefix) {
        options.o.flags |= GIT_DIFF_DISABLE_PATHSPEC_MATCH;
        options.o.pathspec.strings = paths;
        options.o.pathspec.count = 1;
    }
    find.o.flags = GIT_DIFF_FIND_RENAMES;
    if (lib.is_shallow(r) == 1) return first_parent_walk(r, &options.o, &find.o, context, each);
    git_revwalk *walk = NULL;
    if (lib.walk_new(&walk, r) != 0) return -1;
    int result = 0;
    if (lib.walk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_TIME) != 0 || lib.walk_push_head(walk) != 0) {
        lib.walk_free(walk);
        return -1;
    }
    git_oid id;
    // The walk ends at its last commit, or where a parent is missing (a shallow clone): what it
    // read until then stands.
    while (result == 0 && lib.walk_next(&id, walk) == 0) {
        git_commit *c = NULL;
        if (lib.commit_lookup(&c, r, &id) != 0) { result = -1; break; }
        // A merge's changes are its parents' (as `git log` shows a file's history).
        if (lib.parentcount(c) <= 1) result = commit_changes(r, c, &options.o, &find.o, context, each);
        lib.commit_free(c);
    }
    lib.walk_free(walk);
    return result < 0 ? -1 : 0;
}

int notepress_git_changed_paths(notepress_git_repository *repo, const char *prefix, void *context, notepress_git_path_fn each) {
    status_options_room options;
    memset(&options, 0, sizeof options);
    if (lib.status_options_init(&options.o, GIT_STATUS_OPTIONS_VERSION) != 0) return -1;
    char *paths[1] = {(char *)prefix};
    options.o.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
    options.o.flags = GIT_STATUS_OPT_EXCLUDE_SUBMODULES | GIT_STATUS_OPT_INCLUDE_UNTRACKED | GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS
        | GIT_STATUS_OPT_INCLUDE_IGNORED | GIT_STATUS_OPT_RECURSE_IGNORED_DIRS;
    if (prefix && *prefix) {
        options.o.flags |= GIT_STATUS_OPT_DISABLE_PATHSPEC_MATCH;
        options.o.pathspec.strings = paths;
        options.o.pathspec.count = 1;
    }
    git_status_list *list = NULL;
    if (lib.status_new(&list, (git_repository *)repo, &options.o) != 0) return -1;
    size_t n = lib.status_count(list);
    for (size_t i = 0; i < n; i++) {
        const git_status_entry *e = lib.status_at(list, i);
        if (!e || e->status == GIT_STATUS_CURRENT) continue;
        int in_head = !(e->status & (GIT_STATUS_INDEX_NEW | GIT_STATUS_WT_NEW | GIT_STATUS_IGNORED));
        const git_diff_delta *d = e->index_to_workdir ? e->index_to_workdir : e->head_to_index;
        if (d && d->new_file.path) each(context, d->new_file.path, in_head);
        if (e->head_to_index && e->index_to_workdir && e->head_to_index->new_file.path
            && strcmp(e->head_to_index->new_file.path, e->index_to_workdir->new_file.path) != 0) {
            each(context, e->head_to_index->new_file.path, in_head);
        }
    }
    lib.status_free(list);
    return 0;
}
#else
notepress_git_repository *notepress_git_open(const char *path) { (void)path; notepress_git_unavailable(); return NULL; }
void notepress_git_close(notepress_git_repository *repo) { (void)repo; }
const char *notepress_git_workdir(notepress_git_repository *repo) { (void)repo; return ""; }
int notepress_git_is_shallow(notepress_git_repository *repo) { (void)repo; return 0; }
int notepress_git_head(notepress_git_repository *repo, char out[41]) { (void)repo; out[0] = 0; return -1; }
int notepress_git_walk(notepress_git_repository *repo, const char *prefix, void *context, notepress_git_change_fn each) {
    (void)repo; (void)prefix; (void)context; (void)each; return -1;
}
int notepress_git_changed_paths(notepress_git_repository *repo, const char *prefix, void *context, notepress_git_path_fn each) {
    (void)repo; (void)prefix; (void)context; (void)each; return -1;
}
#endif
