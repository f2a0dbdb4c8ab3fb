#ifndef NOTEPRESS_CSHA256_H
#define NOTEPRESS_CSHA256_H

#include <stddef.h>
#include <stdint.h>

/// SHA-256 compression (FIPS 180-4 §6.2.2) of `blocks` consecutive 64-byte blocks of `data`
/// into `state` (the eight working hash words H0..H7, host order), with the CPU's SHA
/// instructions (x86-64 SHA extensions: SHA256RNDS2, SHA256MSG1, SHA256MSG2).
///
/// Returns 1 when it hashed the blocks, 0 when this CPU (or build target) has no such
/// instructions: `state` is then untouched and the caller hashes the blocks itself.
/// Thread-safe; no allocation.
int notepress_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks);

#endif
