#ifndef NOTEPRESS_COPENSSL_SHIM_H
#define NOTEPRESS_COPENSSL_SHIM_H
// OpenSSL's libcrypto, EVP digests only (SHA-256 for the manifest; NotepressSite/SHA256.swift).
#include <openssl/evp.h>
#endif
