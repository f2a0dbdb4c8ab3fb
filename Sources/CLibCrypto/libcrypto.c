// See include/CLibCrypto.h. The symbols are looked up once, by name, in the libcrypto of OpenSSL
// 3 (its soname: libcrypto.so.3 on Linux, libcrypto.3.dylib on macOS, where Homebrew's keg-only
// openssl@3 is tried in its two prefixes after the loader's own search path).
// NOTEPRESS_LIBCRYPTO names another file to load instead (a test, an unusual installation).
#include "CLibCrypto.h"

#include <COptionalLibrary.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#if __has_include(<openssl/evp.h>)
// The real prototypes: each function pointer below has the type of the function it is loaded as,
// so a mismatch with the installed headers is a compile error.
#include <openssl/crypto.h>
#include <openssl/evp.h>
#define NP_FN(name) __typeof__(name) *
#else
// No headers at build time (macOS without Homebrew's include path): OpenSSL 3's ABI, by hand.
typedef struct evp_md_st EVP_MD;
typedef struct evp_md_ctx_st EVP_MD_CTX;
typedef struct ossl_lib_ctx_st OSSL_LIB_CTX;
typedef struct engine_st ENGINE;
typedef struct ossl_param_st OSSL_PARAM;
EVP_MD *EVP_MD_fetch(OSSL_LIB_CTX *, const char *, const char *);
EVP_MD_CTX *EVP_MD_CTX_new(void);
void EVP_MD_CTX_free(EVP_MD_CTX *);
int EVP_DigestInit_ex2(EVP_MD_CTX *, const EVP_MD *, const OSSL_PARAM *);
int EVP_MD_CTX_copy_ex(EVP_MD_CTX *, const EVP_MD_CTX *);
int EVP_DigestUpdate(EVP_MD_CTX *, const void *, size_t);
int EVP_DigestFinal_ex(EVP_MD_CTX *, unsigned char *, unsigned int *);
int EVP_Digest(const void *, size_t, unsigned char *, unsigned int *, const EVP_MD *, ENGINE *);
const char *OpenSSL_version(int);
#define OPENSSL_VERSION_STRING 6
#define NP_FN(name) __typeof__(name) *
#endif

static struct {
    NP_FN(EVP_MD_fetch) md_fetch;
    NP_FN(EVP_MD_CTX_new) ctx_new;
    NP_FN(EVP_MD_CTX_free) ctx_free;
    NP_FN(EVP_DigestInit_ex2) init;
    NP_FN(EVP_MD_CTX_copy_ex) copy;
    NP_FN(EVP_DigestUpdate) update;
    NP_FN(EVP_DigestFinal_ex) final;
    NP_FN(EVP_Digest) digest;
    NP_FN(OpenSSL_version) version;
    EVP_MD *sha256;
} lib;

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void fail(const char *what, const char *detail) {
    fprintf(stderr, "notepress: OpenSSL's libcrypto (OpenSSL 3, needed for the manifest's SHA-256): %s%s%s\n",
            what, detail ? ": " : "", detail ? detail : "");
    exit(69);
}

static void *open_library(void) {
#if defined(__APPLE__)
    const char *const candidates[] = {"libcrypto.3.dylib", "/opt/homebrew/opt/openssl@3/lib/libcrypto.3.dylib",
                                "/usr/local/opt/openssl@3/lib/libcrypto.3.dylib"};
#else
    const char *const candidates[] = {"libcrypto.so.3"};
#endif
    return notepress_open_optional_library("NOTEPRESS_LIBCRYPTO", candidates, sizeof candidates / sizeof candidates[0]);
}

static void load(void) {
    void *h = open_library();
    if (!h) fail("cannot load it", dlerror());
#define LOAD(field, symbol) \
    if (!(*(void **)&lib.field = dlsym(h, #symbol))) fail("no symbol " #symbol, dlerror());
    LOAD(md_fetch, EVP_MD_fetch)
    LOAD(ctx_new, EVP_MD_CTX_new)
    LOAD(ctx_free, EVP_MD_CTX_free)
    LOAD(init, EVP_DigestInit_ex2)
    LOAD(copy, EVP_MD_CTX_copy_ex)
    LOAD(update, EVP_DigestUpdate)
    LOAD(final, EVP_DigestFinal_ex)
    LOAD(digest, EVP_Digest)
    LOAD(version, OpenSSL_version)
#undef LOAD
}

static pthread_once_t fetched = PTHREAD_ONCE_INIT;

// Fetched once from the default provider (a fetch per digest is slow; the first one starts the
// provider, most of the cost of loading the library, which `--version` does not pay).
static void fetch(void) {
    pthread_once(&once, load);
    if (!(lib.sha256 = lib.md_fetch(NULL, "SHA256", NULL))) fail("no SHA256 digest", NULL);
}

static inline void ready(void) { pthread_once(&fetched, fetch); }

notepress_sha256_ctx *notepress_sha256_new(void) {
    ready();
    EVP_MD_CTX *c = lib.ctx_new();
    if (!c || lib.init(c, lib.sha256, NULL) != 1) fail("EVP_DigestInit_ex2 failed", NULL);
    return (notepress_sha256_ctx *)c;
}

notepress_sha256_ctx *notepress_sha256_copy(const notepress_sha256_ctx *other) {
    ready();
    EVP_MD_CTX *c = lib.ctx_new();
    if (!c || lib.copy(c, (const EVP_MD_CTX *)other) != 1) fail("EVP_MD_CTX_copy_ex failed", NULL);
    return (notepress_sha256_ctx *)c;
}

void notepress_sha256_free(notepress_sha256_ctx *ctx) {
    if (ctx) lib.ctx_free((EVP_MD_CTX *)ctx);
}

void notepress_sha256_update(notepress_sha256_ctx *ctx, const void *bytes, size_t length) {
    if (length > 0 && lib.update((EVP_MD_CTX *)ctx, bytes, length) != 1) fail("EVP_DigestUpdate failed", NULL);
}

void notepress_sha256_final(notepress_sha256_ctx *ctx, unsigned char out[32]) {
    unsigned int n = 0;
    if (lib.final((EVP_MD_CTX *)ctx, out, &n) != 1 || n != 32) fail("EVP_DigestFinal_ex failed", NULL);
}

void notepress_sha256(const void *bytes, size_t length, unsigned char out[32]) {
    ready();
    unsigned int n = 0;
    if (lib.digest(bytes, length, out, &n, lib.sha256, NULL) != 1 || n != 32) fail("EVP_Digest failed", NULL);
}

const char *notepress_libcrypto_version(void) {
    pthread_once(&once, load);
    return lib.version(OPENSSL_VERSION_STRING);
}
