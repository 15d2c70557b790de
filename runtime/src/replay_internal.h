/* SPDX-License-Identifier: MIT */
/*
** replay_internal.h: the replay file's layout (magic, sizes, what this version knows of each
** record type), little-endian byte access, the fixed parts of records and the checks a record
** must pass, shared by the writer (replay_write.c) and the reader (replay.c). Not installed.
*/
#ifndef FG_REPLAY_INTERNAL_H
#define FG_REPLAY_INTERNAL_H

#include "framegate/replay.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* {====================================================================== layout */

/* PNG-style magic: the high byte catches 7-bit transfers, CR LF and LF catch line-end
** conversion, 0x1A stops a DOS `type`. */
static const uint8_t MAGIC[FG_REPLAY_MAGIC_SIZE] = {0x89, 'F', 'G', 'R', '\r', '\n', 0x1A, '\n'};

enum {
    FILE_HEADER_SIZE = 16, /* magic, major, minor, table count, reserved */
    TABLE_ENTRY_SIZE = 8,  /* type, flags, reserved, size */
    CRC_SIZE = 4,
    CHUNK_HEADER_SIZE = 16, /* payload length, chunk index, record count, header CRC */
    CHUNK_HEADER_CRC_AT = 12,
    VAR_PREFIX = 5,         /* type byte + u32 body length */
    MAX_ENTRIES = 1024,     /* meta pairs, named hashes, files per reload */
    FIXED_MAX = 32          /* largest fixed part this reader knows */
};

#define TABLE_FLAG_VARIABLE 0x01u
#define RECORD_BODY_MAX 0x7fffffffu

/* What this version knows of each record type: the size of its fixed part, whether a length and
** a variable tail follow, and where its fields end (a shorter declared size must end on one). */
typedef struct known_layout {
    uint32_t size;
    bool variable;
    uint8_t nbounds;
    uint8_t bounds[8];
} known_layout;

static const known_layout KNOWN[FG_REPLAY_TYPE_COUNT] = {
    [FG_REPLAY_HEADER] = {28, true, 4, {4, 12, 20, 28}},
    [FG_REPLAY_INPUT] = {24, false, 7, {4, 12, 20, 21, 22, 23, 24}},
    [FG_REPLAY_COMMAND] = {16, false, 3, {4, 12, 16}},
    [FG_REPLAY_CHECKPOINT] = {16, false, 2, {8, 16}},
    [FG_REPLAY_FINAL] = {16, false, 2, {8, 16}},
    [FG_REPLAY_CLAMP] = {16, false, 2, {8, 16}},
    [FG_REPLAY_RELOAD] = {24, true, 3, {8, 16, 24}},
    [FG_REPLAY_END] = {8, false, 1, {8}},
};

static inline bool is_known(unsigned type) {
    return type > 0 && type < FG_REPLAY_TYPE_COUNT;
}

/* }====================================================================== */

/* {====================================================================== little-endian bytes */

static inline void wr16(uint8_t *p, uint16_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}
static inline void wr32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static inline void wr64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static inline uint16_t rd16(const uint8_t *p) {
    return (uint16_t)(p[0] | (unsigned)p[1] << 8);
}
static inline uint32_t rd32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t rd64(const uint8_t *p) {
    return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}
/* Two's complement both ways, without relying on implementation-defined conversions. */
static inline uint64_t u64_of_i64(int64_t v) {
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}
static inline int64_t i64_of_u64(uint64_t u) {
    int64_t v;
    memcpy(&v, &u, sizeof v);
    return v;
}

/* }====================================================================== */

/* {====================================================================== fixed parts */

/* Each known fixed part has one encoder and one decoder; defaults are the encoding of the
** default struct, so a shorter (older) record read as a prefix gets them field by field. */

static inline void enc_header_fixed(uint8_t *p, const fg_replay_header *h) {
    wr32(p, h->tick_rate);
    wr64(p + 4, h->seed);
    wr64(p + 12, u64_of_i64(h->start_tick));
    wr64(p + 20, h->ruleset_hash);
}
static inline void dec_header_fixed(const uint8_t *p, fg_replay_header *h) {
    h->tick_rate = rd32(p);
    h->seed = rd64(p + 4);
    h->start_tick = i64_of_u64(rd64(p + 12));
    h->ruleset_hash = rd64(p + 20);
}

static inline void enc_input(uint8_t *p, const fg_replay_input *in) {
    wr32(p, in->entity);
    wr64(p + 4, u64_of_i64(in->tick));
    wr64(p + 12, u64_of_i64(in->time_us));
    p[20] = in->kind;
    p[21] = in->action;
    p[22] = in->dir;
    p[23] = in->source;
}
static inline void dec_input(const uint8_t *p, fg_replay_input *in) {
    in->entity = rd32(p);
    in->tick = i64_of_u64(rd64(p + 4));
    in->time_us = i64_of_u64(rd64(p + 12));
    in->kind = p[20];
    in->action = p[21];
    in->dir = p[22];
    in->source = p[23];
}

static inline void enc_command(uint8_t *p, const fg_replay_command *c) {
    wr32(p, c->entity);
    wr64(p + 4, u64_of_i64(c->tick));
    wr32(p + 12, c->motion);
}
static inline void dec_command(const uint8_t *p, fg_replay_command *c) {
    c->entity = rd32(p);
    c->tick = i64_of_u64(rd64(p + 4));
    c->motion = rd32(p + 12);
}

/* CHECKPOINT, FINAL and CLAMP share one shape: a tick and a 64-bit value. */
static inline void enc_tick_u64(uint8_t *p, fg_tick tick, uint64_t v) {
    wr64(p, u64_of_i64(tick));
    wr64(p + 8, v);
}

static inline void enc_reload_fixed(uint8_t *p, const fg_replay_reload *r) {
    wr64(p, u64_of_i64(r->tick));
    wr64(p + 8, r->old_hash);
    wr64(p + 16, r->new_hash);
}
static inline void dec_reload_fixed(const uint8_t *p, fg_replay_reload *r) {
    r->tick = i64_of_u64(rd64(p));
    r->old_hash = rd64(p + 8);
    r->new_hash = rd64(p + 16);
}

/* The default fixed part of a known type (fields a shorter record lacks). */
static inline void enc_default(unsigned type, uint8_t *p) {
    memset(p, 0, FIXED_MAX);
    if (type == FG_REPLAY_HEADER) {
        fg_replay_header h = {0};
        h.tick_rate = FG_TICK_RATE_DEFAULT;
        enc_header_fixed(p, &h);
    } else if (type == FG_REPLAY_INPUT) {
        fg_replay_input in = {0};
        in.dir = 5; /* neutral */
        enc_input(p, &in);
    }
}

/* }====================================================================== */

/* {====================================================================== record checks */

/* Rules shared by writer and reader, so a reader never accepts what the writer would refuse.
** Each writes "<what>: <problem>" into err. */

static inline fg_status check_input(const fg_replay_input *in, fg_error *err) {
    if (in->kind > FG_EDGE_DIR)
        return fg_error_set(err, FG_EINVAL, "input.kind %u is not an edge kind (expected 0..%d)",
                            in->kind, FG_EDGE_DIR);
    if (in->action >= FG_INPUT_MAX_ACTIONS)
        return fg_error_set(err, FG_EINVAL, "input.action %u is out of range (expected 0..%d)",
                            in->action, FG_INPUT_MAX_ACTIONS - 1);
    if (in->dir < 1 || in->dir > 9)
        return fg_error_set(err, FG_EINVAL,
                            "input.dir %u is not a numpad direction (expected 1..9)", in->dir);
    if (in->source > FG_SOURCE_SCRIPT)
        return fg_error_set(err, FG_EINVAL, "input.source %u is not a source (expected 0..%d)",
                            in->source, FG_SOURCE_SCRIPT);
    return FG_OK;
}

static inline bool str_ok(fg_replay_str s) {
    return s.s != NULL || s.len == 0;
}
static inline bool str_has_nul(fg_replay_str s) {
    return s.len && memchr(s.s, 0, s.len) != NULL;
}
static inline bool str_eq(fg_replay_str a, fg_replay_str b) {
    return a.len == b.len && (a.len == 0 || memcmp(a.s, b.s, a.len) == 0);
}

/* Strings in messages are cut to 64 bytes and need no terminator: "%.*s", SHOW(s). */
#define SHOW(str) (int)((str).len < 64 ? (str).len : 64), (str).s

/* A name that keys a map (list[i].field): present, non-empty, no '\0'. */
static inline fg_status check_name(fg_replay_str s, const char *list, uint32_t i, const char *field,
                            fg_error *err) {
    if (!str_ok(s))
        return fg_error_set(err, FG_EINVAL, "%s[%" PRIu32 "].%s is NULL with length %" PRIu32,
                            list, i, field, s.len);
    if (s.len == 0)
        return fg_error_set(err, FG_EINVAL, "%s[%" PRIu32 "].%s is empty", list, i, field);
    if (str_has_nul(s))
        return fg_error_set(err, FG_EINVAL, "%s[%" PRIu32 "].%s \"%.*s\" contains a '\\0' byte",
                            list, i, field, SHOW(s));
    return FG_OK;
}

static inline fg_status check_header(const fg_replay_header *h, fg_error *err) {
    if (h->tick_rate < 1 || h->tick_rate > FG_TICK_RATE_MAX)
        return fg_error_set(err, FG_EINVAL,
                            "header.tick_rate %" PRIu32 " is out of range (expected 1..%u)",
                            h->tick_rate, FG_TICK_RATE_MAX);
    if (h->start_tick < -FG_REPLAY_MAX_START || h->start_tick > FG_REPLAY_MAX_START)
        return fg_error_set(err, FG_EINVAL,
                            "header.start_tick %" PRId64 " is out of range (expected -%lld..%lld)",
                            h->start_tick, (long long)FG_REPLAY_MAX_START,
                            (long long)FG_REPLAY_MAX_START);
    if (!str_ok(h->runtime_version))
        return fg_error_set(err, FG_EINVAL, "header.runtime_version: NULL with length %" PRIu32,
                            h->runtime_version.len);
    if (h->nhashes > MAX_ENTRIES || h->nmeta > MAX_ENTRIES)
        return fg_error_set(err, FG_EINVAL,
                            "header has %" PRIu32 " hashes and %" PRIu32
                            " meta pairs (at most %d of each)",
                            h->nhashes, h->nmeta, MAX_ENTRIES);
    if ((h->nhashes && !h->hashes) || (h->nmeta && !h->meta))
        return fg_error_set(err, FG_EINVAL, "header: a count is set but its array is NULL");
    for (uint32_t i = 0; i < h->nhashes; i++) {
        if (check_name(h->hashes[i].name, "header.hashes", i, "name", err)) return FG_EINVAL;
        for (uint32_t j = 0; j < i; j++)
            if (str_eq(h->hashes[i].name, h->hashes[j].name))
                return fg_error_set(err, FG_EINVAL,
                                    "header.hashes[%" PRIu32
                                    "].name \"%.*s\" repeats hashes[%" PRIu32 "]",
                                    i, SHOW(h->hashes[i].name), j);
    }
    for (uint32_t i = 0; i < h->nmeta; i++) {
        if (check_name(h->meta[i].key, "header.meta", i, "key", err)) return FG_EINVAL;
        if (!str_ok(h->meta[i].value))
            return fg_error_set(err, FG_EINVAL, "header.meta[%" PRIu32 "].value: NULL string", i);
        for (uint32_t j = 0; j < i; j++)
            if (str_eq(h->meta[i].key, h->meta[j].key))
                return fg_error_set(err, FG_EINVAL,
                                    "header.meta[%" PRIu32 "].key \"%.*s\" repeats meta[%" PRIu32
                                    "]",
                                    i, SHOW(h->meta[i].key), j);
    }
    return FG_OK;
}

static inline fg_status check_reload_files(const fg_replay_reload *r, fg_error *err) {
    if (r->nfiles > MAX_ENTRIES)
        return fg_error_set(err, FG_EINVAL, "reload has %" PRIu32 " files (at most %d)",
                            r->nfiles, MAX_ENTRIES);
    if (r->nfiles && !r->files)
        return fg_error_set(err, FG_EINVAL, "reload.nfiles is %" PRIu32 " but files is NULL",
                            r->nfiles);
    for (uint32_t i = 0; i < r->nfiles; i++) {
        if (check_name(r->files[i].path, "reload.files", i, "path", err)) return FG_EINVAL;
        if (!str_ok(r->files[i].text))
            return fg_error_set(err, FG_EINVAL, "reload.files[%" PRIu32 "].text: NULL string", i);
        for (uint32_t j = 0; j < i; j++)
            if (str_eq(r->files[i].path, r->files[j].path))
                return fg_error_set(err, FG_EINVAL,
                                    "reload.files[%" PRIu32 "].path \"%.*s\" repeats files[%" PRIu32
                                    "]",
                                    i, SHOW(r->files[i].path), j);
    }
    return FG_OK;
}

/* Order rules: ticks never go back, never precede the start tick, and after the final record
** only the end marker may come. */
static inline fg_status check_order(const char *what, fg_tick tick, fg_tick start, fg_tick last,
                             bool final_seen, fg_error *err) {
    if (final_seen)
        return fg_error_set(err, FG_ESTATE,
                            "%s after the final record (only the end marker may follow it)",
                            what);
    if (tick < start)
        return fg_error_set(err, FG_EINVAL,
                            "%s.tick %" PRId64 " is before the start tick %" PRId64, what, tick,
                            start);
    if (tick < last)
        return fg_error_set(err, FG_EINVAL,
                            "%s.tick %" PRId64 " is before the previous record's tick %" PRId64
                            " (records go in tick order)",
                            what, tick, last);
    /* Replaying costs a tick's work per tick: a span nobody recorded must not hang a replayer. */
    if ((uint64_t)tick - (uint64_t)start > FG_REPLAY_MAX_SPAN)
        return fg_error_set(err, FG_EINVAL,
                            "%s.tick %" PRId64 " is %" PRIu64 " ticks after the start tick %" PRId64
                            " (a replay spans at most %u ticks)",
                            what, tick, (uint64_t)tick - (uint64_t)start, start,
                            (unsigned)FG_REPLAY_MAX_SPAN);
    return FG_OK;
}

/* }====================================================================== */

#endif
