/* SPDX-License-Identifier: MIT */
/*
** framegate/base.h: what every layer shares. Integer ticks and the exact microsecond-to-tick
** mapping, status codes with readable error messages, the allocator hook (so a host or a test can
** count every allocation), the 64-bit state hasher, CRC-32 and the seeded RNG.
**
** Nothing here holds global state: each world carries its own allocator, hasher seed and RNG.
*/
#ifndef FRAMEGATE_BASE_H
#define FRAMEGATE_BASE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define FG_API __attribute__((visibility("default")))
#define FG_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define FG_API
#define FG_PRINTF(f, a)
#endif

/* Authoritative time is an integer logic tick. Device time is integer microseconds. */
typedef int64_t fg_tick;
typedef uint64_t fg_edge_id;

/* 16.16 fixed point for authoritative positions and velocities. */
typedef int32_t fg_fx;
#define FG_FX_ONE 65536
#define FG_FX(n) ((fg_fx)((n) * FG_FX_ONE))

#define FG_TICK_RATE_DEFAULT 60u
#define FG_TICK_RATE_MAX 100000u
#define FG_US_PER_S 1000000

/* Status of a call. Every function that can fail returns one and, when given an fg_error,
** writes a message naming what was wrong, the value and what was expected. */
typedef enum fg_status {
    FG_OK = 0,
    FG_EINVAL,    /* an argument or a data value is outside its documented range */
    FG_ENOMEM,    /* an allocation failed or a fixed capacity is full */
    FG_ESTATE,    /* not valid in the object's current state (stale handle, time went back) */
    FG_ENOTFOUND, /* a name or id that does not exist */
    FG_EFORMAT,   /* malformed text or binary input */
    FG_EIO,       /* a file could not be read or written */
    FG_ERULE,     /* a script rule failed or broke a budget */
    FG_EMISMATCH  /* a replay, snapshot or hash does not match what was expected */
} fg_status;

/* A status and its message. The message has no length limit: up to FG_ERROR_MAX - 1 bytes it
** lives inline (no allocation, the common case); a longer one is copied whole to the heap with
** plain malloc, on the failure path only, so a successful call never allocates for its error.
** Read the message with fg_error_message, never the fields. If that allocation fails, the inline
** text keeps the head, cut at a word (never inside a UTF-8 sequence), ending with
** " [... N more bytes: ...]" so the reader knows how much was dropped.
**
** Ownership: an error that holds a long message owns its heap copy until fg_error_clear. Setting
** functions treat err as write-only (an uninitialised fg_error is fine to pass), so an error that
** failed with a long message and is set again without fg_error_clear leaks that copy: clear an
** error once its message has been read. A plain struct copy shares the heap copy (valid while the
** original is not cleared); fg_error_copy makes an independent one. fg_error_clear needs an error
** that a call wrote or one that starts zeroed (`fg_error err = {0};`). */
#define FG_ERROR_MAX 512
typedef struct fg_error {
    fg_status code;
    char buf[FG_ERROR_MAX]; /* private: the message, or its marked head when spilled */
    char *spill;                   /* private: the whole message when longer, else NULL */
} fg_error;

/* Records code and message in err (which may be NULL) and returns code. */
FG_API fg_status fg_error_set(fg_error *err, fg_status code, const char *fmt, ...) FG_PRINTF(3, 4);
FG_API fg_status fg_error_setv(fg_error *err, fg_status code, const char *fmt, va_list ap);
/* Prepends "prefix: " to an existing message (used to add file and field context). */
FG_API void fg_error_prefix(fg_error *err, const char *fmt, ...) FG_PRINTF(2, 3);
/* The whole message ("" for a NULL or cleared error). Valid until err is set, prefixed or
** cleared. */
FG_API const char *fg_error_message(const fg_error *err);
/* Writes an independent copy of src (code and message) into dst, which is treated as
** write-only; returns src's code. */
FG_API fg_status fg_error_copy(fg_error *dst, const fg_error *src);
/* Releases a long message's heap copy and resets err to FG_OK with an empty message. */
FG_API void fg_error_clear(fg_error *err);
FG_API const char *fg_status_name(fg_status status);
FG_API const char *fg_version(void);

/* ---- allocation ------------------------------------------------------------------------------
** One realloc-style hook, Lua's lua_Alloc contract: new_size 0 frees and returns NULL; the old
** size is always exact. A world calls it only while it is created, loads rules or grows a
** capacity, never from fg_world_advance once warm. */
typedef void *(*fg_realloc_fn)(void *ud, void *ptr, size_t old_size, size_t new_size);
typedef struct fg_allocator {
    fg_realloc_fn realloc;
    void *ud;
} fg_allocator;

FG_API fg_allocator fg_allocator_default(void);
/* Zero-filled allocation; NULL on failure. A NULL allocator means the default one. */
FG_API void *fg_alloc(const fg_allocator *a, size_t size);
FG_API void *fg_realloc(const fg_allocator *a, void *ptr, size_t old_size, size_t new_size);
FG_API void fg_free(const fg_allocator *a, void *ptr, size_t size);

/* ---- time ------------------------------------------------------------------------------------
** The tick of a timestamp is floor(us * rate / 1e6), computed exactly in integers, so no rate
** drifts however long a match runs. us is microseconds since the world's origin. */
FG_API fg_tick fg_tick_of_us(int64_t us, uint32_t rate_hz);
/* The first microsecond that belongs to tick (the inverse: fg_tick_of_us(fg_us_of_tick(t)) == t). */
FG_API int64_t fg_us_of_tick(fg_tick tick, uint32_t rate_hz);
/* Largest timestamp the mapping accepts without overflow for a rate. */
FG_API int64_t fg_us_max(uint32_t rate_hz);

/* ---- hashing ---------------------------------------------------------------------------------
** A streaming 64-bit hash over a canonical sequence of integers. Values are fed field by field,
** never as raw struct bytes, so padding and endianness take no part in a state hash. */
typedef struct fg_hasher {
    uint64_t h;
    uint64_t n;
} fg_hasher;

FG_API fg_hasher fg_hasher_begin(uint64_t seed);
FG_API void fg_hash_u64(fg_hasher *hs, uint64_t v);
/* fg_hash_u64's mixing step as an inline function, for hashes that feed hundreds of words (the
** world's state hash): the same result, without the cost of a call per word. */
static inline void fg_hash_mix(fg_hasher *hs, uint64_t v) {
    uint64_t x = hs->h ^ (v * 0x9E3779B97F4A7C15ull);
    hs->h = ((x << 31) | (x >> 33)) * 0xC2B2AE3D27D4EB4Full;
    hs->n++;
}
/* A fold for long runs of words, where fg_hash_mix's chain of dependent multiplies would be the
** cost: word i is scrambled (an invertible shift-xor) and multiplied by its own odd constant
** k0 + i * D, and the products are summed, so the multiplies run side by side. A changed word
** always changes the sum; two words swapped change it unless they differ by a multiple of 2^32
** (with D = 2 * odd). Mix the sum into a hasher with fg_hash_fold_end. */
typedef struct fg_fold {
    uint64_t sum, k;
} fg_fold;
#define FG_FOLD_STEP 0x632BE59BD9B4E01Aull /* D: how far k moves per word */
static inline uint64_t fg_fold_scramble(uint64_t v) { return v ^ (v >> 29); }
static inline fg_fold fg_fold_begin(uint64_t seed) {
    fg_fold f = {seed, 0x9E3779B97F4A7C15ull};
    return f;
}
static inline void fg_fold_u64(fg_fold *f, uint64_t v) {
    f->sum += fg_fold_scramble(v) * f->k;
    f->k += FG_FOLD_STEP;
}
/* Because the fold is linear, a run of n words placed where k is K adds K * a + b to the sum
** and n * D to k, whatever K is: a is the sum of the scrambled words and b the sum of each
** scrambled word times its offset in the run (i * D). A part of the state that rarely changes
** keeps its (a, b, n) and is added in three operations (fg_fold_add_run); a word that changes
** updates a and b by the difference of its scrambled values (fg_fold_run_change). */
typedef struct fg_fold_run {
    uint64_t a, b, k; /* k: the run's length times D, where the next word of the run goes */
} fg_fold_run;
static inline void fg_fold_run_u64(fg_fold_run *r, uint64_t v) {
    uint64_t s = fg_fold_scramble(v);
    r->a += s;
    r->b += s * r->k;
    r->k += FG_FOLD_STEP;
}
/* A run accumulated without a multiply per word: word i of n adds scramble(w_i) * i * D to the
** run's b, and the sum of i * s_i is (n - 1) * a - c, where a sums the scrambled words and c sums
** a as it was before each word. */
typedef struct fg_fold_acc {
    uint64_t a, c, n;
} fg_fold_acc;
static inline void fg_fold_acc_u64(fg_fold_acc *x, uint64_t v) {
    x->c += x->a;
    x->a += fg_fold_scramble(v);
    x->n++;
}
static inline fg_fold_run fg_fold_acc_run(const fg_fold_acc *x) {
    fg_fold_run r = {x->a, ((x->n - 1) * x->a - x->c) * FG_FOLD_STEP, x->n * FG_FOLD_STEP};
    return r;
}
/* Appends run s to run r: s's words go where r ends. */
static inline void fg_fold_run_append(fg_fold_run *r, const fg_fold_run *s) {
    r->b += s->b + r->k * s->a;
    r->a += s->a;
    r->k += s->k;
}
static inline void fg_fold_add_run(fg_fold *f, const fg_fold_run *r) {
    f->sum += f->k * r->a + r->b;
    f->k += r->k;
}
/* Word `at` (its offset times D) of a run changes from old to v. */
static inline void fg_fold_run_change(fg_fold_run *r, uint64_t at, uint64_t old, uint64_t v) {
    uint64_t d = fg_fold_scramble(v) - fg_fold_scramble(old);
    r->a += d;
    r->b += d * at;
}
static inline void fg_hash_fold_end(fg_hasher *hs, const fg_fold *f) {
    fg_hash_mix(hs, f->sum);
    fg_hash_mix(hs, f->k);
}
FG_API void fg_hash_i64(fg_hasher *hs, int64_t v);
FG_API void fg_hash_bytes(fg_hasher *hs, const void *data, size_t len);
FG_API void fg_hash_str(fg_hasher *hs, const char *s);
FG_API uint64_t fg_hasher_end(const fg_hasher *hs);
/* One-shot hash of a byte string (content hashes of rulesets, names). */
FG_API uint64_t fg_hash64(const void *data, size_t len, uint64_t seed);

/* CRC-32 (IEEE 802.3, reflected), for replay chunks. Pass 0 as crc to start. */
FG_API uint32_t fg_crc32(uint32_t crc, const void *data, size_t len);

/* ---- deterministic RNG -----------------------------------------------------------------------
** A small xorshift-family generator whose whole state is two words, so it snapshots and hashes
** with the world. Same seed, same sequence, on every platform. */
typedef struct fg_rng {
    uint64_t s[2];
} fg_rng;

FG_API fg_rng fg_rng_seeded(uint64_t seed);
FG_API uint64_t fg_rng_next(fg_rng *r);
/* Uniform integer in [lo, hi]; lo <= hi. */
FG_API int64_t fg_rng_range(fg_rng *r, int64_t lo, int64_t hi);
/* Uniform double in [0, 1) built from 53 random bits. */
FG_API double fg_rng_unit(fg_rng *r);

#ifdef __cplusplus
}
#endif
#endif
