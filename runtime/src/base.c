/* SPDX-License-Identifier: MIT */
/*
** base.c: status messages, the allocator hook, exact time mapping, hashing, CRC-32 and the RNG.
** Everything here is pure: no globals, no clocks.
*/
#if defined(__linux__)
#define _DEFAULT_SOURCE /* posix_memalign, madvise */
#include <sys/mman.h>
#endif
#include "framegate/base.h"
#include "base_internal.h"
#include "text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FG_VERSION_STRING
#define FG_VERSION_STRING "0.0.0"
#endif

const char *fg_version(void) { return FG_VERSION_STRING; }

/* {====================================================================== errors */

/* Fills err->buf with the head of text (total bytes; at least FG_ERROR_MAX - 1 of them
** readable), cut at a word and never inside a UTF-8 sequence, plus a note of what was dropped.
** It is what a reader gets when the heap copy could not be made. */
static void error_mark_cut(fg_error *err, const char *text, size_t total) {
    char note[80];
    size_t cap = sizeof err->buf - 1, room = cap - (sizeof note - 1), keep = room;
    while (keep > 0 && ((unsigned char)text[keep] & 0xC0) == 0x80) keep--;
    for (size_t k = keep; k > 0 && keep - k < 64; k--)
        if (text[k] == ' ' || text[k] == '\n') {
            keep = k;
            break;
        }
    int n = snprintf(note, sizeof note, " [... %zu more bytes: no memory for the whole message]",
                     total - keep);
    memcpy(err->buf, text, keep);
    memcpy(err->buf + keep, note, (size_t)n + 1);
}

/* Stores a message of total bytes, already assembled in text (NUL-terminated when owned, else at
** least FG_ERROR_MAX - 1 bytes readable): inline when it fits, else text itself becomes the
** heap copy (owned != NULL) or, without one, the marked head. */
static void error_store(fg_error *err, const char *text, size_t total, char *owned) {
    err->spill = NULL;
    if (total < sizeof err->buf) {
        memmove(err->buf, text, total);
        err->buf[total] = '\0';
        return;
    }
    error_mark_cut(err, text, total);
    err->spill = owned;
}

fg_status fg_error_setv(fg_error *err, fg_status code, const char *fmt, va_list ap) {
    if (!err) return code;
    /* Formatted away from err first: an argument may point into err's own message. */
    char head[FG_ERROR_MAX];
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(head, sizeof head, fmt, ap);
    if (n < 0) n = 0, head[0] = '\0';
    char *whole = NULL;
    if ((size_t)n >= sizeof head && (whole = malloc((size_t)n + 1)) != NULL)
        vsnprintf(whole, (size_t)n + 1, fmt, again);
    va_end(again);
    err->code = code;
    error_store(err, whole ? whole : head, (size_t)n, whole);
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
    char head[FG_ERROR_MAX], out[FG_ERROR_MAX];
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    int n = vsnprintf(head, sizeof head, fmt, ap);
    va_end(ap);
    if (n < 0) n = 0, head[0] = '\0';
    const char *old = fg_error_message(err);
    char *old_spill = err->spill;
    size_t p = (size_t)n, m = strlen(old), total = p + 2 + m;
    char *whole = total >= sizeof out ? malloc(total + 1) : NULL;
    char *dst = whole ? whole : out;
    size_t cap = whole ? total : sizeof out - 1, at = 0;
    if (whole) vsnprintf(whole, p + 1, fmt, again);
    else memcpy(out, head, at = p < cap ? p : cap);
    at = whole ? p : at;
    va_end(again);
    /* Assembled piece by piece: old may be err's own inline text. */
    for (const char *sep = ": "; *sep && at < cap; sep++) dst[at++] = *sep;
    size_t take = m < cap - at ? m : cap - at;
    memcpy(dst + at, old, take);
    dst[at + take] = '\0';
    error_store(err, dst, total, whole);
    free(old_spill);
}

const char *fg_error_message(const fg_error *err) {
    if (!err) return "";
    return err->spill ? err->spill : err->buf;
}

fg_status fg_error_copy(fg_error *dst, const fg_error *src) {
    if (!src) return fg_error_set(dst, FG_OK, "%s", "");
    return fg_error_set(dst, src->code, "%s", fg_error_message(src));
}

void fg_error_clear(fg_error *err) {
    if (err) {
        free(err->spill);
        err->spill = NULL;
        err->code = FG_OK;
        err->buf[0] = '\0';
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

#define HUGE_PAGE ((size_t)2 << 20)

/* A world of thousands of fighters touches a few dozen pages per fighter each tick, far more
** than the processor's address translation cache holds: with 4 KiB pages nearly every one costs
** a page walk. A new block of many megabytes is aligned to 2 MiB and, where the system allows
** it (Linux, transparent huge pages in "madvise" or "always" mode), asked to be backed by huge
** pages before anything touches it. */
static void *new_block(size_t size) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (size >= 4 * HUGE_PAGE) {
        void *p = NULL;
        if (posix_memalign(&p, HUGE_PAGE, size) != 0) return NULL;
        (void)madvise(p, size & ~(HUGE_PAGE - 1), MADV_HUGEPAGE); /* a hint: failure is fine */
        return p;
    }
#endif
    return malloc(size);
}

static void *default_realloc(void *ud, void *ptr, size_t old_size, size_t new_size) {
    (void)ud;
    (void)old_size;
    if (new_size == 0) {
        free(ptr);
        return NULL;
    }
    return ptr ? realloc(ptr, new_size) : new_block(new_size);
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

/* The header keeps the block after it aligned for any type. */
typedef union kept_header {
    fg_allocator alloc;
    max_align_t align;
} kept_header;

void *fg_alloc_kept(const fg_allocator *a, size_t size) {
    fg_allocator keep = a ? *a : fg_allocator_default();
    if (size > SIZE_MAX - sizeof(kept_header)) return NULL;
    kept_header *h = fg_alloc(&keep, sizeof *h + size);
    if (!h) return NULL;
    h->alloc = keep;
    return h + 1;
}

void fg_free_kept(void *ptr, size_t size) {
    if (!ptr) return;
    kept_header *h = (kept_header *)ptr - 1;
    fg_allocator keep = h->alloc;
    fg_free(&keep, h, sizeof *h + size);
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

static int64_t floor_mod(int64_t a, int64_t b) { /* b > 0 */
    int64_t r = a % b;
    return r < 0 ? r + b : r;
}

/* Both conversions split their argument into whole seconds (or whole rate periods) and a
** remainder, so no intermediate product leaves int64 for any argument and any rate up to
** FG_TICK_RATE_MAX. */
fg_tick fg_tick_of_us(int64_t us, uint32_t rate_hz) {
    if (rate_hz == 0) return 0;
    int64_t s = floor_div(us, FG_US_PER_S), r = floor_mod(us, FG_US_PER_S); /* 0 <= r < 1e6 */
    int64_t whole;
    if (__builtin_mul_overflow(s, (int64_t)rate_hz, &whole)) return s < 0 ? INT64_MIN : INT64_MAX;
    int64_t part = r * (int64_t)rate_hz / FG_US_PER_S;
    return whole > INT64_MAX - part ? INT64_MAX : whole + part;
}

int64_t fg_us_of_tick(fg_tick tick, uint32_t rate_hz) {
    if (rate_hz == 0) return 0;
    /* ceil(tick * 1e6 / rate): the smallest us whose floor maps to tick. Saturates at the ends
    ** of int64 for ticks no clock reaches. */
    int64_t q = floor_div(tick, (int64_t)rate_hz), r = floor_mod(tick, (int64_t)rate_hz);
    int64_t part = -floor_div(-r * FG_US_PER_S, (int64_t)rate_hz); /* 0 <= part <= 1e6 */
    if (q < INT64_MIN / FG_US_PER_S) return INT64_MIN;
    if (q > INT64_MAX / FG_US_PER_S || q * FG_US_PER_S > INT64_MAX - part) return INT64_MAX;
    return q * FG_US_PER_S + part;
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
void fg_hash_u64(fg_hasher *hs, uint64_t v) { fg_hash_mix(hs, v); }

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

/* The reflected IEEE polynomial 0xEDB88320, one entry per byte value. */
static const uint32_t crc_table[256] = {
    0x00000000u, 0x77073096u, 0xEE0E612Cu, 0x990951BAu, 0x076DC419u, 0x706AF48Fu,
    0xE963A535u, 0x9E6495A3u, 0x0EDB8832u, 0x79DCB8A4u, 0xE0D5E91Eu, 0x97D2D988u,
    0x09B64C2Bu, 0x7EB17CBDu, 0xE7B82D07u, 0x90BF1D91u, 0x1DB71064u, 0x6AB020F2u,
    0xF3B97148u, 0x84BE41DEu, 0x1ADAD47Du, 0x6DDDE4EBu, 0xF4D4B551u, 0x83D385C7u,
    0x136C9856u, 0x646BA8C0u, 0xFD62F97Au, 0x8A65C9ECu, 0x14015C4Fu, 0x63066CD9u,
    0xFA0F3D63u, 0x8D080DF5u, 0x3B6E20C8u, 0x4C69105Eu, 0xD56041E4u, 0xA2677172u,
    0x3C03E4D1u, 0x4B04D447u, 0xD20D85FDu, 0xA50AB56Bu, 0x35B5A8FAu, 0x42B2986Cu,
    0xDBBBC9D6u, 0xACBCF940u, 0x32D86CE3u, 0x45DF5C75u, 0xDCD60DCFu, 0xABD13D59u,
    0x26D930ACu, 0x51DE003Au, 0xC8D75180u, 0xBFD06116u, 0x21B4F4B5u, 0x56B3C423u,
    0xCFBA9599u, 0xB8BDA50Fu, 0x2802B89Eu, 0x5F058808u, 0xC60CD9B2u, 0xB10BE924u,
    0x2F6F7C87u, 0x58684C11u, 0xC1611DABu, 0xB6662D3Du, 0x76DC4190u, 0x01DB7106u,
    0x98D220BCu, 0xEFD5102Au, 0x71B18589u, 0x06B6B51Fu, 0x9FBFE4A5u, 0xE8B8D433u,
    0x7807C9A2u, 0x0F00F934u, 0x9609A88Eu, 0xE10E9818u, 0x7F6A0DBBu, 0x086D3D2Du,
    0x91646C97u, 0xE6635C01u, 0x6B6B51F4u, 0x1C6C6162u, 0x856530D8u, 0xF262004Eu,
    0x6C0695EDu, 0x1B01A57Bu, 0x8208F4C1u, 0xF50FC457u, 0x65B0D9C6u, 0x12B7E950u,
    0x8BBEB8EAu, 0xFCB9887Cu, 0x62DD1DDFu, 0x15DA2D49u, 0x8CD37CF3u, 0xFBD44C65u,
    0x4DB26158u, 0x3AB551CEu, 0xA3BC0074u, 0xD4BB30E2u, 0x4ADFA541u, 0x3DD895D7u,
    0xA4D1C46Du, 0xD3D6F4FBu, 0x4369E96Au, 0x346ED9FCu, 0xAD678846u, 0xDA60B8D0u,
    0x44042D73u, 0x33031DE5u, 0xAA0A4C5Fu, 0xDD0D7CC9u, 0x5005713Cu, 0x270241AAu,
    0xBE0B1010u, 0xC90C2086u, 0x5768B525u, 0x206F85B3u, 0xB966D409u, 0xCE61E49Fu,
    0x5EDEF90Eu, 0x29D9C998u, 0xB0D09822u, 0xC7D7A8B4u, 0x59B33D17u, 0x2EB40D81u,
    0xB7BD5C3Bu, 0xC0BA6CADu, 0xEDB88320u, 0x9ABFB3B6u, 0x03B6E20Cu, 0x74B1D29Au,
    0xEAD54739u, 0x9DD277AFu, 0x04DB2615u, 0x73DC1683u, 0xE3630B12u, 0x94643B84u,
    0x0D6D6A3Eu, 0x7A6A5AA8u, 0xE40ECF0Bu, 0x9309FF9Du, 0x0A00AE27u, 0x7D079EB1u,
    0xF00F9344u, 0x8708A3D2u, 0x1E01F268u, 0x6906C2FEu, 0xF762575Du, 0x806567CBu,
    0x196C3671u, 0x6E6B06E7u, 0xFED41B76u, 0x89D32BE0u, 0x10DA7A5Au, 0x67DD4ACCu,
    0xF9B9DF6Fu, 0x8EBEEFF9u, 0x17B7BE43u, 0x60B08ED5u, 0xD6D6A3E8u, 0xA1D1937Eu,
    0x38D8C2C4u, 0x4FDFF252u, 0xD1BB67F1u, 0xA6BC5767u, 0x3FB506DDu, 0x48B2364Bu,
    0xD80D2BDAu, 0xAF0A1B4Cu, 0x36034AF6u, 0x41047A60u, 0xDF60EFC3u, 0xA867DF55u,
    0x316E8EEFu, 0x4669BE79u, 0xCB61B38Cu, 0xBC66831Au, 0x256FD2A0u, 0x5268E236u,
    0xCC0C7795u, 0xBB0B4703u, 0x220216B9u, 0x5505262Fu, 0xC5BA3BBEu, 0xB2BD0B28u,
    0x2BB45A92u, 0x5CB36A04u, 0xC2D7FFA7u, 0xB5D0CF31u, 0x2CD99E8Bu, 0x5BDEAE1Du,
    0x9B64C2B0u, 0xEC63F226u, 0x756AA39Cu, 0x026D930Au, 0x9C0906A9u, 0xEB0E363Fu,
    0x72076785u, 0x05005713u, 0x95BF4A82u, 0xE2B87A14u, 0x7BB12BAEu, 0x0CB61B38u,
    0x92D28E9Bu, 0xE5D5BE0Du, 0x7CDCEFB7u, 0x0BDBDF21u, 0x86D3D2D4u, 0xF1D4E242u,
    0x68DDB3F8u, 0x1FDA836Eu, 0x81BE16CDu, 0xF6B9265Bu, 0x6FB077E1u, 0x18B74777u,
    0x88085AE6u, 0xFF0F6A70u, 0x66063BCAu, 0x11010B5Cu, 0x8F659EFFu, 0xF862AE69u,
    0x616BFFD3u, 0x166CCF45u, 0xA00AE278u, 0xD70DD2EEu, 0x4E048354u, 0x3903B3C2u,
    0xA7672661u, 0xD06016F7u, 0x4969474Du, 0x3E6E77DBu, 0xAED16A4Au, 0xD9D65ADCu,
    0x40DF0B66u, 0x37D83BF0u, 0xA9BCAE53u, 0xDEBB9EC5u, 0x47B2CF7Fu, 0x30B5FFE9u,
    0xBDBDF21Cu, 0xCABAC28Au, 0x53B39330u, 0x24B4A3A6u, 0xBAD03605u, 0xCDD70693u,
    0x54DE5729u, 0x23D967BFu, 0xB3667A2Eu, 0xC4614AB8u, 0x5D681B02u, 0x2A6F2B94u,
    0xB40BBE37u, 0xC30C8EA1u, 0x5A05DF1Bu, 0x2D02EF8Du,
};

uint32_t fg_crc32(uint32_t crc, const void *data, size_t len) {
    const unsigned char *p = data;
    crc = ~crc;
    while (len--) crc = crc_table[(crc ^ *p++) & 0xFFu] ^ (crc >> 8);
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

void fg_text_append(char *buf, size_t size, size_t *len, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(*len < size ? buf + *len : NULL, *len < size ? size - *len : 0, fmt, ap);
    va_end(ap);
    if (n > 0) *len += (size_t)n;
}
