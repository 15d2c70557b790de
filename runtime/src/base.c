/*
** base.c: status messages, the allocator hook, exact time mapping, hashing, CRC-32 and the RNG.
** Everything here is pure: no globals, no clocks.
*/
#include "framegate/base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FG_VERSION_STRING
#define FG_VERSION_STRING "0.0.0"
#endif

const char *fg_version(void) { return FG_VERSION_STRING; }

/* {====================================================================== errors */

fg_status fg_error_setv(fg_error *err, fg_status code, const char *fmt, va_list ap) {
    if (err) {
        err->code = code;
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    }
    return code;
}

fg_status fg_error_set(fg_error *err, fg_status code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fg_error_setv(err, code, fmt, ap);
    va_end(ap);
    return code;
}

void fg_error_prefix(fg_error *err, const char *fmt, ...) {
    if (!err) return;
    char prefix[FG_ERROR_MAX], old[FG_ERROR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    memcpy(old, err->msg, sizeof old);
    /* Assembled by hand: the result is cut at FG_ERROR_MAX, on purpose. */
    size_t n = strlen(prefix), m = 0, cap = sizeof err->msg - 1, at = 0;
    while (m < sizeof old - 1 && old[m]) m++;
    for (size_t i = 0; i < n && at < cap; i++) err->msg[at++] = prefix[i];
    for (const char *sep = ": "; *sep && at < cap; sep++) err->msg[at++] = *sep;
    for (size_t i = 0; i < m && at < cap; i++) err->msg[at++] = old[i];
    err->msg[at] = '\0';
}

void fg_error_clear(fg_error *err) {
    if (err) {
        err->code = FG_OK;
        err->msg[0] = '\0';
    }
}

const char *fg_status_name(fg_status status) {
    switch (status) {
    case FG_OK: return "ok";
    case FG_EINVAL: return "invalid argument";
    case FG_ENOMEM: return "out of memory or capacity";
    case FG_ESTATE: return "invalid state";
    case FG_ENOTFOUND: return "not found";
    case FG_EFORMAT: return "malformed input";
    case FG_EIO: return "i/o error";
    case FG_ERULE: return "rule failed";
    case FG_EMISMATCH: return "mismatch";
    }
    return "unknown status";
}

/* }====================================================================== */

/* {====================================================================== allocation */

static void *default_realloc(void *ud, void *ptr, size_t old_size, size_t new_size) {
    (void)ud;
    (void)old_size;
    if (new_size == 0) {
        free(ptr);
        return NULL;
    }
    return realloc(ptr, new_size);
}

fg_allocator fg_allocator_default(void) {
    fg_allocator a = {default_realloc, NULL};
    return a;
}

void *fg_realloc(const fg_allocator *a, void *ptr, size_t old_size, size_t new_size) {
    if (!a || !a->realloc) return default_realloc(NULL, ptr, old_size, new_size);
    return a->realloc(a->ud, ptr, old_size, new_size);
}

void *fg_alloc(const fg_allocator *a, size_t size) {
    if (size == 0) size = 1;
    void *p = fg_realloc(a, NULL, 0, size);
    if (p) memset(p, 0, size);
    return p;
}

void fg_free(const fg_allocator *a, void *ptr, size_t size) {
    if (ptr) fg_realloc(a, ptr, size, 0);
}

/* }====================================================================== */

/* {====================================================================== time */

/* Overflow bound: us * rate must fit in int64. */
int64_t fg_us_max(uint32_t rate_hz) {
    if (rate_hz == 0) return 0;
    return INT64_MAX / (int64_t)rate_hz;
}

static int64_t floor_div(int64_t a, int64_t b) {
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
    return q;
}

fg_tick fg_tick_of_us(int64_t us, uint32_t rate_hz) {
    if (rate_hz == 0) return 0;
    return floor_div(us * (int64_t)rate_hz, FG_US_PER_S);
}

int64_t fg_us_of_tick(fg_tick tick, uint32_t rate_hz) {
    if (rate_hz == 0) return 0;
    /* ceil(tick * 1e6 / rate): the smallest us whose floor maps to tick. */
    return -floor_div(-tick * FG_US_PER_S, (int64_t)rate_hz);
}

/* }====================================================================== */

/* {====================================================================== hashing */

#define K1 0x9E3779B97F4A7C15ull
#define K2 0xC2B2AE3D27D4EB4Full
#define K3 0x165667B19E3779F9ull

static inline uint64_t rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

fg_hasher fg_hasher_begin(uint64_t seed) {
    fg_hasher hs = {seed ^ K3, 0};
    return hs;
}

/* The multiply of v does not depend on h, so consecutive words overlap in the pipeline. */
void fg_hash_u64(fg_hasher *hs, uint64_t v) {
    hs->h = rotl64(hs->h ^ (v * K1), 31) * K2;
    hs->n++;
}

void fg_hash_i64(fg_hasher *hs, int64_t v) { fg_hash_u64(hs, (uint64_t)v); }

static uint64_t load_le64(const unsigned char *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}

void fg_hash_bytes(fg_hasher *hs, const void *data, size_t len) {
    const unsigned char *p = data;
    fg_hash_u64(hs, (uint64_t)len);
    while (len >= 8) {
        fg_hash_u64(hs, load_le64(p));
        p += 8;
        len -= 8;
    }
    if (len) {
        unsigned char tail[8] = {0};
        memcpy(tail, p, len);
        fg_hash_u64(hs, load_le64(tail));
    }
}

void fg_hash_str(fg_hasher *hs, const char *s) { fg_hash_bytes(hs, s, s ? strlen(s) : 0); }

uint64_t fg_hasher_end(const fg_hasher *hs) {
    uint64_t h = hs->h ^ (hs->n * K3);
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ull;
    h ^= h >> 33;
    return h;
}

uint64_t fg_hash64(const void *data, size_t len, uint64_t seed) {
    fg_hasher hs = fg_hasher_begin(seed);
    fg_hash_bytes(&hs, data, len);
    return fg_hasher_end(&hs);
}

uint32_t fg_crc32(uint32_t crc, const void *data, size_t len) {
    const unsigned char *p = data;
    crc = ~crc;
    while (len--) {
        crc ^= *p++;
        for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

/* }====================================================================== */

/* {====================================================================== rng */

static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += K1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

fg_rng fg_rng_seeded(uint64_t seed) {
    fg_rng r;
    r.s[0] = splitmix64(&seed);
    r.s[1] = splitmix64(&seed);
    if (r.s[0] == 0 && r.s[1] == 0) r.s[1] = 1; /* the all-zero state is a fixed point */
    return r;
}

/* xoroshiro128** */
uint64_t fg_rng_next(fg_rng *r) {
    uint64_t s0 = r->s[0], s1 = r->s[1];
    uint64_t out = rotl64(s0 * 5, 7) * 9;
    s1 ^= s0;
    r->s[0] = rotl64(s0, 24) ^ s1 ^ (s1 << 16);
    r->s[1] = rotl64(s1, 37);
    return out;
}

int64_t fg_rng_range(fg_rng *r, int64_t lo, int64_t hi) {
    if (hi <= lo) return lo;
    uint64_t span = (uint64_t)hi - (uint64_t)lo;
    if (span == UINT64_MAX) return (int64_t)fg_rng_next(r);
    uint64_t n = span + 1;
    /* 2^64 mod n: values below it would make the low residues more likely. */
    uint64_t threshold = (0 - n) % n;
    uint64_t v;
    do v = fg_rng_next(r);
    while (v < threshold);
    return (int64_t)((uint64_t)lo + v % n);
}

double fg_rng_unit(fg_rng *r) { return (double)(fg_rng_next(r) >> 11) * (1.0 / 9007199254740992.0); }

/* }====================================================================== */
