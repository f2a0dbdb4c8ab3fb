// SHA-256 block compression with the x86-64 SHA extensions (see CSHA256.h). The round and
// message-schedule steps follow Intel's "Intel SHA Extensions" white paper (Gulley et al.,
// 2013): two rounds per SHA256RNDS2 on the state held as ABEF/CDGH, four message words per
// SHA256MSG1/SHA256MSG2 step. Other CPUs and targets return 0 and Swift hashes the blocks.
#include "CSHA256.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

/// 1 when CPUID says SHA (leaf 7 EBX bit 29), SSSE3 and SSE4.1 (leaf 1 ECX bits 9 and 19).
static int detect(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    if (!(c & (1u << 9)) || !(c & (1u << 19))) return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (b & (1u << 29)) ? 1 : 0;
}

/// -1 until known; every thread that races writes the same value.
static volatile int has_sha = -1;

__attribute__((target("sha,sse4.1,ssse3")))
static void blocks_sha_ni(uint32_t state[8], const uint8_t *data, size_t blocks) {
    const __m128i MASK = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    __m128i TMP = _mm_loadu_si128((const __m128i *)&state[0]);
    __m128i STATE1 = _mm_loadu_si128((const __m128i *)&state[4]);
    TMP = _mm_shuffle_epi32(TMP, 0xB1);          // CDAB
    STATE1 = _mm_shuffle_epi32(STATE1, 0x1B);    // EFGH
    __m128i STATE0 = _mm_alignr_epi8(TMP, STATE1, 8);  // ABEF
    STATE1 = _mm_blend_epi16(STATE1, TMP, 0xF0);       // CDGH
    for (size_t n = 0; n < blocks; n++, data += 64) {
        const __m128i ABEF_SAVE = STATE0, CDGH_SAVE = STATE1;
        __m128i W[16];
        for (int g = 0; g < 16; g++) {
            if (g < 4) {
                W[g] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * g)), MASK);
            } else {
                __m128i t = _mm_sha256msg1_epu32(W[g - 4], W[g - 3]);
                t = _mm_add_epi32(t, _mm_alignr_epi8(W[g - 1], W[g - 2], 4));
                W[g] = _mm_sha256msg2_epu32(t, W[g - 1]);
            }
            __m128i MSG = _mm_add_epi32(W[g], _mm_loadu_si128((const __m128i *)&K[4 * g]));
            STATE1 = _mm_sha256rnds2_epu32(STATE1, STATE0, MSG);
            MSG = _mm_shuffle_epi32(MSG, 0x0E);
            STATE0 = _mm_sha256rnds2_epu32(STATE0, STATE1, MSG);
        }
        STATE0 = _mm_add_epi32(STATE0, ABEF_SAVE);
        STATE1 = _mm_add_epi32(STATE1, CDGH_SAVE);
    }
    TMP = _mm_shuffle_epi32(STATE0, 0x1B);        // FEBA
    STATE1 = _mm_shuffle_epi32(STATE1, 0xB1);     // DCHG
    STATE0 = _mm_blend_epi16(TMP, STATE1, 0xF0);  // DCBA
    STATE1 = _mm_alignr_epi8(STATE1, TMP, 8);     // HGFE
    _mm_storeu_si128((__m128i *)&state[0], STATE0);
    _mm_storeu_si128((__m128i *)&state[4], STATE1);
}

int notepress_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks) {
    int has = has_sha;
    if (has < 0) { has = detect(); has_sha = has; }
    if (!has) return 0;
    if (blocks > 0) blocks_sha_ni(state, data, blocks);
    return 1;
}

#else

int notepress_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks) {
    (void)state; (void)data; (void)blocks;
    return 0;
}

#endif
