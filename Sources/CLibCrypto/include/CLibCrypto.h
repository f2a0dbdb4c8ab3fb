// OpenSSL's libcrypto (OpenSSL 3), SHA-256 through its EVP digest interface, loaded with
// dlopen(3) on first use: a run that hashes nothing (converting one file, `--help`) never maps
// the library, which costs about 1 ms of start-up per process when linked (issue 29: single-file
// runs 1.13-1.30x slower with libcrypto linked). Plain C, opaque handles: OpenSSL's headers are
// included by libcrypto.c only (for the prototypes the loaded symbols are checked against).
//
// Every function may be called from any thread; the library is loaded once (pthread_once).
// When it cannot be loaded, the first call prints one line naming the library and what dlopen
// said to standard error and ends the process with status 69 (EX_UNAVAILABLE): the manifest
// cannot be written or trusted without it.
#ifndef NOTEPRESS_CLIBCRYPTO_H
#define NOTEPRESS_CLIBCRYPTO_H

#include <stddef.h>

/// One SHA-256 digest in progress (an `EVP_MD_CTX`).
typedef struct notepress_sha256_ctx notepress_sha256_ctx;

/// A new context, initialised for SHA-256. Never NULL (out of memory ends the process).
notepress_sha256_ctx *notepress_sha256_new(void);
/// A new context in the state of `other` (`EVP_MD_CTX_copy_ex`).
notepress_sha256_ctx *notepress_sha256_copy(const notepress_sha256_ctx *other);
/// Frees a context (NULL is ignored).
void notepress_sha256_free(notepress_sha256_ctx *ctx);
/// Adds `length` bytes at `bytes` to the message.
void notepress_sha256_update(notepress_sha256_ctx *ctx, const void *bytes, size_t length);
/// Writes the 32-byte digest to `out`; the context is finished (free it, or copy before).
void notepress_sha256_final(notepress_sha256_ctx *ctx, unsigned char out[32]);
/// The 32-byte digest of `length` bytes at `bytes`, in one call (`EVP_Digest`).
void notepress_sha256(const void *bytes, size_t length, unsigned char out[32]);
/// The loaded library's version text (`OpenSSL_version(OPENSSL_VERSION_STRING)`, e.g. "3.0.15").
const char *notepress_libcrypto_version(void);

#endif
