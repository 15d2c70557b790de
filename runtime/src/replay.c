/* SPDX-License-Identifier: MIT */
/*
** replay.c: the replay file format (docs/replay-format.md): record type names, and the reader,
** which checks a whole file at open and then iterates its records without allocating. The writer
** is in replay_write.c, the layout both share in replay_internal.h.
**
** Every byte the reader looks at is bounds-checked against the chunk or record that holds it;
** counts read from the file are bounded by the bytes that must back them before anything is
** allocated for them. Messages name the replay, the byte offset and the values that disagree.
*/
#include "base_internal.h"
#include "replay_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* {====================================================================== names */

const char *fg_replay_type_name(int type) {
    switch (type) {
    case FG_REPLAY_HEADER: return "header";
    case FG_REPLAY_INPUT: return "input";
    case FG_REPLAY_COMMAND: return "command";
    case FG_REPLAY_CHECKPOINT: return "checkpoint";
    case FG_REPLAY_FINAL: return "final";
    case FG_REPLAY_CLAMP: return "clamp";
    case FG_REPLAY_RELOAD: return "reload";
    case FG_REPLAY_END: return "end";
    }
    return "unknown";
}

fg_replay_str fg_replay_str_of(const char *s) {
    fg_replay_str r = {s ? s : "", s ? (uint32_t)strlen(s) : 0};
    return r;
}

fg_replay_input fg_replay_input_of_edge(uint32_t entity, const fg_edge *e) {
    fg_replay_input in = {entity, e->tick, e->time_us, e->kind, e->action, e->dir, e->source};
    return in;
}

/* }====================================================================== */

/* {====================================================================== reader */

typedef struct table_entry {
    bool declared;
    uint8_t flags;
    uint32_t size;
} table_entry;

/* Where iteration stands. The check at open walks a copy of it over the whole file. */
typedef struct cursor {
    size_t pos;        /* next record */
    size_t chunk_at;   /* current chunk's header */
    size_t chunk_end;  /* end of its payload (its CRC follows) */
    uint32_t chunk_no; /* index of the current chunk; chunks_read counts them */
    uint32_t chunks_read;
    uint32_t left;  /* records its header announced that are not read yet */
    uint64_t index; /* number of the next record */
    fg_tick last_tick;
    bool final_seen;
    bool done;        /* the end marker (or, partial, the end of the data) was reached */
    fg_replay_end end; /* what to return once done */
} cursor;

struct fg_replay_reader {
    fg_allocator alloc;
    const uint8_t *data;
    size_t size;
    uint8_t *owned; /* file contents, when the reader read them */
    size_t owned_size;
    char *name;
    size_t name_size;
    uint32_t flags;
    table_entry table[256];
    fg_replay_header header;
    fg_replay_named_hash *hashes;
    fg_replay_meta *meta;
    fg_replay_file *files; /* scratch for reload records, sized by the largest one */
    uint32_t files_cap;
    fg_replay_stats stats;
    cursor first; /* just after the header */
    cursor cur;
};

static fg_status rfail(const fg_replay_reader *r, fg_error *err, fg_status code, const char *fmt,
                       ...) FG_PRINTF(4, 5);
static fg_status rfail(const fg_replay_reader *r, fg_error *err, fg_status code, const char *fmt,
                       ...) {
    va_list ap;
    va_start(ap, fmt);
    fg_error_setv(err, code, fmt, ap);
    va_end(ap);
    fg_error_prefix(err, "%s", r->name);
    return code;
}

/* rfail for a checker's error: "NAME: where: its message", sub's heap copy handed to err. The
** place is a record number and a byte offset, which always fit. */
static fg_status rfail_sub(const fg_replay_reader *r, fg_error *err, fg_error *sub,
                           const char *fmt, ...) FG_PRINTF(4, 5);
static fg_status rfail_sub(const fg_replay_reader *r, fg_error *err, fg_error *sub,
                           const char *fmt, ...) {
    char where[96];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(where, sizeof where, fmt, ap);
    va_end(ap);
    sub->code = FG_EFORMAT;
    fg_error_prefix(sub, "%s: %s", r->name, where);
    return fg_error_move(err, sub);
}

static size_t hex_of(char *out, size_t cap, const uint8_t *p, size_t n) {
    static const char digits[] = "0123456789abcdef";
    size_t at = 0;
    for (size_t i = 0; i < n && at + 3 < cap; i++) {
        if (i) out[at++] = ' ';
        out[at++] = digits[p[i] >> 4];
        out[at++] = digits[p[i] & 15];
    }
    out[at] = '\0';
    return at;
}

/* File header and record table. */
static fg_status read_preamble(fg_replay_reader *r, size_t *pos, fg_error *err) {
    const uint8_t *d = r->data;
    size_t n = r->size;
    if (n < FG_REPLAY_MAGIC_SIZE || memcmp(d, MAGIC, FG_REPLAY_MAGIC_SIZE) != 0) {
        char got[40], want[40];
        hex_of(got, sizeof got, d, n < FG_REPLAY_MAGIC_SIZE ? n : FG_REPLAY_MAGIC_SIZE);
        hex_of(want, sizeof want, MAGIC, FG_REPLAY_MAGIC_SIZE);
        if (n < FG_REPLAY_MAGIC_SIZE && memcmp(d, MAGIC, n) == 0)
            return rfail(r, err, FG_EFORMAT,
                         "truncated: %zu bytes, the file header alone is %d bytes", n,
                         FILE_HEADER_SIZE);
        return rfail(r, err, FG_EFORMAT,
                     "not a framegate replay (bytes 0..7 are [%s], expected [%s])", got, want);
    }
    if (n < FILE_HEADER_SIZE)
        return rfail(r, err, FG_EFORMAT, "truncated: %zu bytes, the file header alone is %d bytes",
                     n, FILE_HEADER_SIZE);
    uint16_t major = rd16(d + 8), minor = rd16(d + 10), count = rd16(d + 12);
    if (major > FG_REPLAY_VERSION_MAJOR)
        return rfail(r, err, FG_EMISMATCH,
                     "format version %u.%u is newer than this reader (%u.x); read it with a newer "
                     "framegate",
                     major, minor, FG_REPLAY_VERSION_MAJOR);
    if (major < FG_REPLAY_VERSION_MAJOR)
        return rfail(r, err, FG_EMISMATCH,
                     "format version %u.%u is not one this reader knows (expected %u.x)", major,
                     minor, FG_REPLAY_VERSION_MAJOR);
    r->stats.version_major = major;
    r->stats.version_minor = minor;
    if (count == 0 || count > 255)
        return rfail(r, err, FG_EFORMAT,
                     "record table at byte %d declares %u types (expected 1..255)",
                     FILE_HEADER_SIZE, count);
    size_t table_end = FILE_HEADER_SIZE + (size_t)count * TABLE_ENTRY_SIZE;
    if (n < table_end + CRC_SIZE)
        return rfail(r, err, FG_EFORMAT,
                     "truncated: the record table of %u types needs bytes %d..%zu, the file has "
                     "%zu bytes",
                     count, FILE_HEADER_SIZE, table_end + CRC_SIZE, n);
    uint32_t stored = rd32(d + table_end), computed = fg_crc32(0, d, table_end);
    if (stored != computed)
        return rfail(r, err, FG_EFORMAT,
                     "file header and record table (bytes 0..%zu): CRC mismatch "
                     "(stored 0x%08" PRIx32 ", computed 0x%08" PRIx32 ")",
                     table_end, stored, computed);
    for (unsigned i = 0; i < count; i++) {
        const uint8_t *e = d + FILE_HEADER_SIZE + (size_t)i * TABLE_ENTRY_SIZE;
        size_t at = (size_t)(e - d);
        unsigned type = e[0], flags = e[1];
        uint32_t size = rd32(e + 4);
        if (type == 0)
            return rfail(r, err, FG_EFORMAT,
                         "record table entry %u at byte %zu: type 0 (type ids start at 1)", i, at);
        if (r->table[type].declared)
            return rfail(r, err, FG_EFORMAT,
                         "record table entry %u at byte %zu: type %u (%s) is declared twice", i,
                         at, type, fg_replay_type_name((int)type));
        if (flags & ~TABLE_FLAG_VARIABLE)
            return rfail(r, err, FG_EFORMAT,
                         "record table entry %u at byte %zu: type %u has flags 0x%02x, this reader "
                         "knows only 0x01 (variable size)",
                         i, at, type, flags);
        if (is_known(type)) {
            const known_layout *k = &KNOWN[type];
            bool variable = flags & TABLE_FLAG_VARIABLE;
            if (variable != k->variable)
                return rfail(r, err, FG_EFORMAT,
                             "record table entry %u at byte %zu: type %u (%s) is declared %s, "
                             "expected %s",
                             i, at, type, fg_replay_type_name((int)type),
                             variable ? "variable-size" : "fixed-size",
                             k->variable ? "variable-size" : "fixed-size");
            if (size < k->size && size != 0) {
                bool on_boundary = false;
                for (unsigned b = 0; b < k->nbounds; b++) on_boundary |= size == k->bounds[b];
                if (!on_boundary)
                    return rfail(r, err, FG_EFORMAT,
                                 "record table entry %u at byte %zu: type %u (%s) declares %" PRIu32
                                 " bytes, which splits a field",
                                 i, at, type, fg_replay_type_name((int)type), size);
            }
        }
        r->table[type].declared = true;
        r->table[type].flags = (uint8_t)flags;
        r->table[type].size = size;
    }
    if (!r->table[FG_REPLAY_HEADER].declared || !r->table[FG_REPLAY_END].declared)
        return rfail(r, err, FG_EFORMAT,
                     "the record table does not declare the %s record type",
                     r->table[FG_REPLAY_HEADER].declared ? "end" : "header");
    *pos = table_end + CRC_SIZE;
    return FG_OK;
}

/* Moves c into the next chunk. At the end of the data: missing end marker (or, partial, done).
** CRCs are verified by the check at open (verify); iteration afterwards re-checks every bound but
** not the CRCs of bytes it already verified. */
static fg_status next_chunk(fg_replay_reader *r, cursor *c, size_t at, bool verify,
                            fg_error *err) {
    const uint8_t *d = r->data;
    size_t n = r->size;
    uint32_t no = c->chunks_read;
    /* A partial read stops cleanly where the data stops; damage is still an error. */
    bool stop_ok = (r->flags & FG_REPLAY_READ_PARTIAL) && no > 0;
    if (at == n || n - at < CHUNK_HEADER_SIZE) {
        if (stop_ok) goto stop;
        if (at == n)
            return rfail(r, err, FG_EFORMAT,
                         "ends at byte %zu after chunk %" PRIu32
                         " without an end marker (the recording was cut short)",
                         at, no ? no - 1 : 0);
        return rfail(r, err, FG_EFORMAT,
                     "chunk %" PRIu32 " at byte %zu: truncated: %zu bytes left, a chunk header is "
                     "%d",
                     no, at, n - at, CHUNK_HEADER_SIZE);
    }
    uint32_t hstored = rd32(d + at + CHUNK_HEADER_CRC_AT);
    uint32_t hcomputed = verify ? fg_crc32(0, d + at, CHUNK_HEADER_CRC_AT) : hstored;
    if (hstored != hcomputed)
        return rfail(r, err, FG_EFORMAT,
                     "chunk %" PRIu32 " at byte %zu: header CRC mismatch (stored 0x%08" PRIx32
                     ", computed 0x%08" PRIx32 ")",
                     no, at, hstored, hcomputed);
    uint32_t len = rd32(d + at), index = rd32(d + at + 4), count = rd32(d + at + 8);
    if (index != no)
        return rfail(r, err, FG_EFORMAT,
                     "chunk %" PRIu32 " at byte %zu: its index is %" PRIu32 ", expected %" PRIu32
                     " (a chunk is missing, repeated or out of order)",
                     no, at, index, no);
    if (n - at - CHUNK_HEADER_SIZE < (uint64_t)len + CRC_SIZE) {
        if (stop_ok) goto stop;
        return rfail(r, err, FG_EFORMAT,
                     "chunk %" PRIu32 " at byte %zu: truncated: its header announces %" PRIu32
                     " payload bytes and a CRC, %zu bytes remain",
                     no, at, len, n - at - CHUNK_HEADER_SIZE);
    }
    size_t payload = at + CHUNK_HEADER_SIZE, end = payload + len;
    uint32_t stored = rd32(d + end);
    uint32_t computed = verify ? fg_crc32(0, d + payload, len) : stored;
    if (stored != computed)
        return rfail(r, err, FG_EFORMAT,
                     "chunk %" PRIu32 " at byte %zu: CRC mismatch (stored 0x%08" PRIx32
                     ", computed 0x%08" PRIx32 ")",
                     no, at, stored, computed);
    c->chunk_at = at;
    c->chunk_no = no;
    c->chunks_read = no + 1;
    c->chunk_end = end;
    c->pos = payload;
    c->left = count;
    return FG_OK;
stop:
    c->done = true;
    c->pos = at;
    c->end.records = c->index;
    c->end.truncated = true;
    return FG_OK;
}

/* Reads a string of a variable body: u32 length, bytes, '\0'. */
static fg_status read_str(fg_replay_reader *r, const uint8_t *d, size_t *pos, size_t end,
                          fg_replay_str *out, const char *what, fg_error *err) {
    size_t at = *pos;
    if (end - at < 4)
        return rfail(r, err, FG_EFORMAT, "%s at byte %zu: the record ends before its length", what,
                     at);
    uint32_t len = rd32(d + at);
    if (end - at - 4 < (uint64_t)len + 1)
        return rfail(r, err, FG_EFORMAT,
                     "%s at byte %zu: length %" PRIu32
                     " runs past the end of its record (byte %zu)",
                     what, at, len, end);
    if (d[at + 4 + len] != 0)
        return rfail(r, err, FG_EFORMAT, "%s at byte %zu: not terminated by a '\\0' byte", what,
                     at);
    out->s = (const char *)d + at + 4;
    out->len = len;
    *pos = at + 4 + (size_t)len + 1;
    return FG_OK;
}

static fg_status read_count(fg_replay_reader *r, const uint8_t *d, size_t *pos, size_t end,
                            uint32_t min_item, uint32_t *out, const char *what, fg_error *err) {
    size_t at = *pos;
    if (end - at < 4)
        return rfail(r, err, FG_EFORMAT, "%s at byte %zu: the record ends before the count", what,
                     at);
    uint32_t n = rd32(d + at);
    if (n > MAX_ENTRIES || (uint64_t)n * min_item > end - at - 4)
        return rfail(r, err, FG_EFORMAT,
                     "%s at byte %zu: %" PRIu32 " entries do not fit (at most %d, %zu bytes left)",
                     what, at, n, MAX_ENTRIES, end - at - 4);
    *out = n;
    *pos = at + 4;
    return FG_OK;
}

/* The header's tail. Without arrays it only counts (to size them); with them it fills them. */
static fg_status read_header_tail(fg_replay_reader *r, size_t pos, size_t end, fg_replay_header *h,
                                  bool fill, fg_replay_named_hash *hashes, fg_replay_meta *meta,
                                  fg_error *err) {
    const uint8_t *d = r->data;
    fg_status st;
    if ((st = read_str(r, d, &pos, end, &h->runtime_version, "header.runtime_version", err)))
        return st;
    if ((st = read_count(r, d, &pos, end, 13, &h->nhashes, "header.hashes", err))) return st;
    for (uint32_t i = 0; i < h->nhashes; i++) {
        fg_replay_str name;
        if ((st = read_str(r, d, &pos, end, &name, "header.hashes.name", err))) return st;
        if (end - pos < 8)
            return rfail(r, err, FG_EFORMAT, "header.hashes[%" PRIu32 "] at byte %zu: truncated",
                         i, pos);
        if (hashes) {
            hashes[i].name = name;
            hashes[i].hash = rd64(d + pos);
        }
        pos += 8;
    }
    if ((st = read_count(r, d, &pos, end, 10, &h->nmeta, "header.meta", err))) return st;
    for (uint32_t i = 0; i < h->nmeta; i++) {
        fg_replay_meta m;
        if ((st = read_str(r, d, &pos, end, &m.key, "header.meta.key", err)) ||
            (st = read_str(r, d, &pos, end, &m.value, "header.meta.value", err)))
            return st;
        if (meta) meta[i] = m;
    }
    if (fill) r->stats.skipped_bytes += end - pos; /* tail fields appended by a newer writer */
    return FG_OK;
}

/* Steps over a string already checked by read_str. */
static size_t skip_str(const uint8_t *d, size_t pos) {
    return pos + 4 + (size_t)rd32(d + pos) + 1;
}

/* The reload's file list. files NULL: the check at open, which also applies the path rules
** (non-empty, no '\0', distinct) by walking the list again for each path. */
static fg_status read_reload_tail(fg_replay_reader *r, size_t pos, size_t end, fg_replay_reload *rl,
                                  fg_replay_file *files, size_t *tail_end, fg_error *err) {
    const uint8_t *d = r->data;
    fg_status st;
    if ((st = read_count(r, d, &pos, end, 10, &rl->nfiles, "reload.files", err))) return st;
    size_t first = pos;
    for (uint32_t i = 0; i < rl->nfiles; i++) {
        fg_replay_file f;
        size_t at = pos;
        if ((st = read_str(r, d, &pos, end, &f.path, "reload.files.path", err)) ||
            (st = read_str(r, d, &pos, end, &f.text, "reload.files.text", err)))
            return st;
        if (files) {
            files[i] = f;
            continue;
        }
        fg_error sub;
        if (check_name(f.path, "reload.files", i, "path", &sub) != FG_OK)
            return rfail_sub(r, err, &sub, "path at byte %zu", at);
        size_t q = first;
        for (uint32_t j = 0; j < i; j++) {
            fg_replay_str other = {(const char *)d + q + 4, rd32(d + q)};
            if (str_eq(other, f.path))
                return rfail(r, err, FG_EFORMAT,
                             "path at byte %zu: reload.files[%" PRIu32 "].path \"%.*s\" repeats "
                             "files[%" PRIu32 "]",
                             at, i, SHOW(f.path), j);
            q = skip_str(d, skip_str(d, q));
        }
    }
    rl->files = files;
    *tail_end = pos;
    return FG_OK;
}

/* Reads the record at c->pos, whatever its type, into out. Sets *known false for a type this
** reader skips. stats is non-NULL during the check at open. */
static fg_status read_record(fg_replay_reader *r, cursor *c, fg_replay_record *out, bool *known,
                             fg_replay_stats *stats, fg_error *err) {
    const uint8_t *d = r->data;
    size_t at = c->pos, room = c->chunk_end - at;
    uint64_t index = c->index;
    unsigned type = d[at];
    if (c->left == 0)
        return rfail(r, err, FG_EFORMAT,
                     "chunk %" PRIu32 " at byte %zu: its header announces %" PRIu32
                     " record(s), the payload holds more (the next at byte %zu)",
                     c->chunk_no, c->chunk_at, rd32(d + c->chunk_at + 8), at);
    const table_entry *t = &r->table[type];
    if (!t->declared)
        return rfail(r, err, FG_EFORMAT,
                     "record %" PRIu64 " at byte %zu has type %u, which the record table does not "
                     "declare",
                     index, at, type);
    uint64_t total, body;
    if (t->flags & TABLE_FLAG_VARIABLE) {
        if (room < VAR_PREFIX)
            return rfail(r, err, FG_EFORMAT,
                         "record %" PRIu64 " (%s) at byte %zu: its length runs past the end of "
                         "chunk %" PRIu32 " (byte %zu)",
                         index, fg_replay_type_name((int)type), at, c->chunk_no, c->chunk_end);
        body = rd32(d + at + 1);
        total = VAR_PREFIX + body;
        if (body < t->size)
            return rfail(r, err, FG_EFORMAT,
                         "record %" PRIu64 " (%s) at byte %zu: body of %" PRIu64
                         " bytes is shorter than its declared fixed part (%" PRIu32 " bytes)",
                         index, fg_replay_type_name((int)type), at, body, t->size);
    } else {
        body = t->size;
        total = 1 + body;
    }
    if (total > room)
        return rfail(r, err, FG_EFORMAT,
                     "record %" PRIu64 " (%s, %" PRIu64 " bytes) at byte %zu runs %" PRIu64
                     " bytes past the end of chunk %" PRIu32 " (byte %zu)",
                     index, fg_replay_type_name((int)type), total, at, total - room, c->chunk_no,
                     c->chunk_end);
    size_t body_at = at + (t->flags & TABLE_FLAG_VARIABLE ? VAR_PREFIX : 1);
    size_t body_end = at + (size_t)total;
    *known = is_known(type);
    if (!*known) {
        if (stats) {
            stats->unknown++;
            stats->skipped_bytes += total;
        }
    } else {
        /* The prefix this reader knows over the defaults; extra fixed bytes are skipped. */
        uint8_t fixed[FIXED_MAX];
        enc_default(type, fixed);
        uint32_t ksize = KNOWN[type].size;
        memcpy(fixed, d + body_at, t->size < ksize ? t->size : ksize);
        if (stats && t->size > ksize) stats->skipped_bytes += t->size - ksize;
        size_t tail_at = body_at + t->size;
        memset(out, 0, sizeof *out);
        out->type = (fg_replay_type)type;
        out->offset = at;
        out->index = index;
        fg_error sub;
        fg_status st = FG_OK;
        fg_tick tick = c->last_tick;
        switch (type) {
        case FG_REPLAY_HEADER:
            return rfail(r, err, FG_EFORMAT,
                         "record %" PRIu64 " at byte %zu is a second header", index, at);
        case FG_REPLAY_INPUT:
            dec_input(fixed, &out->as.input);
            tick = out->as.input.tick;
            st = check_input(&out->as.input, &sub);
            break;
        case FG_REPLAY_COMMAND:
            dec_command(fixed, &out->as.command);
            tick = out->as.command.tick;
            break;
        case FG_REPLAY_CHECKPOINT:
        case FG_REPLAY_FINAL:
            out->as.checkpoint.tick = tick = i64_of_u64(rd64(fixed));
            out->as.checkpoint.hash = rd64(fixed + 8);
            break;
        case FG_REPLAY_CLAMP:
            out->as.clamp.tick = tick = i64_of_u64(rd64(fixed));
            out->as.clamp.clamped_us = i64_of_u64(rd64(fixed + 8));
            if (out->as.clamp.clamped_us < 0)
                st = fg_error_set(&sub, FG_EINVAL,
                                  "clamp.clamped_us %" PRId64 " is negative (expected >= 0)",
                                  out->as.clamp.clamped_us);
            break;
        case FG_REPLAY_RELOAD: {
            size_t tail_end = body_end;
            dec_reload_fixed(fixed, &out->as.reload);
            tick = out->as.reload.tick;
            st = read_reload_tail(r, tail_at, body_end, &out->as.reload, stats ? NULL : r->files,
                                  &tail_end, err);
            if (st != FG_OK) return st;
            if (stats) stats->skipped_bytes += body_end - tail_end;
            break;
        }
        case FG_REPLAY_END:
            out->as.end.records = rd64(fixed);
            break;
        }
        if (st != FG_OK) return rfail_sub(r, err, &sub, "record %" PRIu64 " at byte %zu", index, at);
        if (type != FG_REPLAY_END) {
            st = check_order(fg_replay_type_name((int)type), tick, r->header.start_tick,
                             c->last_tick, c->final_seen, &sub);
            if (st != FG_OK)
                return rfail_sub(r, err, &sub, "record %" PRIu64 " at byte %zu", index, at);
            c->last_tick = tick;
        }
        if (type == FG_REPLAY_FINAL) c->final_seen = true;
    }
    c->pos = body_end;
    c->left--;
    c->index++;
    return FG_OK;
}

/* The payload ended before the records its chunk header announced. */
static fg_status short_count(const fg_replay_reader *r, const cursor *c, fg_error *err) {
    uint32_t announced = rd32(r->data + c->chunk_at + 8);
    return rfail(r, err, FG_EFORMAT,
                 "chunk %" PRIu32 " at byte %zu: its header announces %" PRIu32
                 " record(s), the payload holds %" PRIu32,
                 c->chunk_no, c->chunk_at, announced, announced - c->left);
}

/* The next known record, or the end. stats non-NULL: the check at open. */
static fg_status step(fg_replay_reader *r, cursor *c, fg_replay_record *out, fg_replay_stats *stats,
                      fg_error *err) {
    for (;;) {
        if (c->done) {
            memset(out, 0, sizeof *out);
            out->type = FG_REPLAY_END;
            out->offset = c->pos;
            out->index = c->index;
            out->as.end = c->end;
            return FG_OK;
        }
        if (c->pos == c->chunk_end) {
            if (c->left != 0) return short_count(r, c, err);
            fg_status st = next_chunk(r, c, c->chunk_end + CRC_SIZE, stats != NULL, err);
            if (st != FG_OK) return st;
            if (stats && !c->done) stats->chunks++;
            continue;
        }
        bool known = false;
        fg_status st = read_record(r, c, out, &known, stats, err);
        if (st != FG_OK) return st;
        if (stats) stats->records++;
        if (!known) continue;
        if (stats) stats->by_type[out->type]++;
        if (out->type == FG_REPLAY_END) {
            size_t after = c->chunk_end + CRC_SIZE;
            if (c->pos == c->chunk_end && c->left != 0) return short_count(r, c, err);
            if (c->pos != c->chunk_end)
                return rfail(r, err, FG_EFORMAT,
                             "end marker at byte %" PRIu64
                             " is not the last record of chunk %" PRIu32,
                             out->offset, c->chunk_no);
            if (after != r->size)
                return rfail(r, err, FG_EFORMAT, "%zu bytes follow the end marker (at byte %" PRIu64
                                                 "); the file should end at byte %zu",
                             r->size - after, out->offset, after);
            if (out->as.end.records != out->index)
                return rfail(r, err, FG_EFORMAT,
                             "end marker at byte %" PRIu64 " counts %" PRIu64
                             " records before it, the file holds %" PRIu64,
                             out->offset, out->as.end.records, out->index);
            c->done = true;
            c->pos = after;
            c->end = out->as.end;
        }
        return FG_OK;
    }
}

static void reader_free(fg_replay_reader *r) {
    fg_allocator a = r->alloc;
    fg_free(&a, r->owned, r->owned_size);
    fg_free(&a, r->name, r->name_size);
    fg_free(&a, r->hashes, sizeof *r->hashes * r->header.nhashes);
    fg_free(&a, r->meta, sizeof *r->meta * r->header.nmeta);
    fg_free(&a, r->files, sizeof *r->files * r->files_cap);
    fg_free(&a, r, sizeof *r);
}

/* Reads the header record: the first record of chunk 0. */
static fg_status read_header(fg_replay_reader *r, cursor *c, fg_error *err) {
    const uint8_t *d = r->data;
    if (c->pos == c->chunk_end || d[c->pos] != FG_REPLAY_HEADER)
        return rfail(r, err, FG_EFORMAT,
                     "record 0 at byte %zu is %s, expected the header",
                     c->pos, c->pos == c->chunk_end ? "missing" : fg_replay_type_name(d[c->pos]));
    const table_entry *t = &r->table[FG_REPLAY_HEADER];
    size_t at = c->pos, room = c->chunk_end - at;
    if (room < VAR_PREFIX || c->left == 0)
        return rfail(r, err, FG_EFORMAT, "header record at byte %zu is cut off by its chunk", at);
    uint64_t body = rd32(d + at + 1);
    if (body < t->size || VAR_PREFIX + body > room)
        return rfail(r, err, FG_EFORMAT,
                     "header record at byte %zu: body of %" PRIu64
                     " bytes does not fit its declared fixed part (%" PRIu32
                     " bytes) and chunk 0 (%zu bytes left)",
                     at, body, t->size, room - VAR_PREFIX);
    size_t body_at = at + VAR_PREFIX, end = body_at + (size_t)body;
    uint8_t fixed[FIXED_MAX];
    enc_default(FG_REPLAY_HEADER, fixed);
    uint32_t ksize = KNOWN[FG_REPLAY_HEADER].size;
    memcpy(fixed, d + body_at, t->size < ksize ? t->size : ksize);
    if (t->size > ksize) r->stats.skipped_bytes += t->size - ksize;
    fg_replay_header h = {0};
    dec_header_fixed(fixed, &h);
    fg_status st = read_header_tail(r, body_at + t->size, end, &h, false, NULL, NULL, err);
    if (st != FG_OK) return st;
    r->hashes = h.nhashes ? fg_alloc(&r->alloc, sizeof *r->hashes * h.nhashes) : NULL;
    r->meta = h.nmeta ? fg_alloc(&r->alloc, sizeof *r->meta * h.nmeta) : NULL;
    r->header.nhashes = h.nhashes; /* so reader_free frees the right sizes */
    r->header.nmeta = h.nmeta;
    if ((h.nhashes && !r->hashes) || (h.nmeta && !r->meta))
        return rfail(r, err, FG_ENOMEM, "cannot allocate the header's lists");
    st = read_header_tail(r, body_at + t->size, end, &h, true, r->hashes, r->meta, err);
    if (st != FG_OK) return st;
    h.hashes = r->hashes;
    h.meta = r->meta;
    fg_error sub;
    if (check_header(&h, &sub) != FG_OK) return rfail_sub(r, err, &sub, "header record at byte %zu", at);
    r->header = h;
    c->pos = end;
    c->left--;
    c->index = 1;
    c->last_tick = h.start_tick;
    return FG_OK;
}

/* Walks every record once: framing, CRCs, sizes, order, ranges; sizes the reload scratch. */
static fg_status check_all(fg_replay_reader *r, fg_error *err) {
    cursor c = r->first;
    fg_replay_stats *s = &r->stats;
    uint32_t max_files = 0;
    fg_replay_record rec;
    for (;;) {
        fg_status st = step(r, &c, &rec, s, err);
        if (st != FG_OK) return st;
        if (rec.type == FG_REPLAY_RELOAD && rec.as.reload.nfiles > max_files)
            max_files = rec.as.reload.nfiles;
        if (rec.type == FG_REPLAY_FINAL) {
            s->has_final = true;
            s->final_tick = rec.as.final.tick;
            s->final_hash = rec.as.final.hash;
        }
        if (c.done) break;
    }
    s->last_tick = c.last_tick;
    s->complete = !c.end.truncated;
    s->valid_bytes = c.pos;
    s->bytes = r->size;
    if (max_files) {
        r->files = fg_alloc(&r->alloc, sizeof *r->files * max_files);
        if (!r->files)
            return rfail(r, err, FG_ENOMEM, "cannot allocate %" PRIu32 " file slots", max_files);
        r->files_cap = max_files;
    }
    return FG_OK;
}

static fg_status reader_open(fg_replay_reader **out, fg_replay_reader *r, fg_error *err) {
    size_t pos = 0;
    fg_status st = read_preamble(r, &pos, err);
    cursor c;
    memset(&c, 0, sizeof c);
    if (st == FG_OK) st = next_chunk(r, &c, pos, true, err);
    if (st == FG_OK && c.done)
        st = rfail(r, err, FG_EFORMAT, "no complete chunk: the header is missing");
    if (st == FG_OK) st = read_header(r, &c, err);
    if (st == FG_OK) {
        r->stats.chunks = 1;
        r->stats.records = 1;
        r->stats.by_type[FG_REPLAY_HEADER] = 1;
        r->first = c;
        st = check_all(r, err);
    }
    if (st != FG_OK) {
        reader_free(r);
        return st;
    }
    r->cur = r->first;
    *out = r;
    return FG_OK;
}

static fg_replay_reader *reader_new(const fg_replay_read_options *opt, const char *name) {
    fg_allocator alloc = opt && opt->alloc ? *opt->alloc : fg_allocator_default();
    fg_replay_reader *r = fg_alloc(&alloc, sizeof *r);
    if (!r) return NULL;
    r->alloc = alloc;
    r->flags = opt ? opt->flags : 0;
    const char *nm = opt && opt->name ? opt->name : name;
    r->name_size = strlen(nm) + 1;
    r->name = fg_alloc(&alloc, r->name_size);
    if (!r->name) {
        fg_free(&alloc, r, sizeof *r);
        return NULL;
    }
    memcpy(r->name, nm, r->name_size);
    return r;
}

fg_status fg_replay_reader_create_memory(const void *data, size_t size,
                                         const fg_replay_read_options *opt, fg_replay_reader **out,
                                         fg_error *err) {
    if (!out) return fg_error_set(err, FG_EINVAL, "replay reader: out is NULL");
    *out = NULL;
    if (!data && size)
        return fg_error_set(err, FG_EINVAL, "replay reader: data is NULL with size %zu", size);
    fg_replay_reader *r = reader_new(opt, "replay");
    if (!r) return fg_error_set(err, FG_ENOMEM, "replay reader: out of memory");
    static const uint8_t empty = 0;
    r->data = data ? data : &empty;
    r->size = size;
    return reader_open(out, r, err);
}

fg_status fg_replay_reader_create_file(const char *path, const fg_replay_read_options *opt,
                                       fg_replay_reader **out, fg_error *err) {
    if (!out || !path) {
        if (out) *out = NULL;
        return fg_error_set(err, FG_EINVAL, "replay reader: out and path are required");
    }
    *out = NULL;
    fg_replay_reader *r = reader_new(opt, path);
    if (!r) return fg_error_set(err, FG_ENOMEM, "%s: out of memory", path);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fg_status st = rfail(r, err, FG_EIO, "cannot open: %s", strerror(errno));
        reader_free(r);
        return st;
    }
    /* Read with a growing buffer rather than trusting a size from fseek/ftell, which is
    ** meaningless for directories and pipes. */
    size_t n = 0, cap = 0;
    int failed = 0;
    for (;;) {
        if (n == cap) {
            size_t grown = cap ? cap * 2 : 65536;
            uint8_t *b = grown > cap ? fg_realloc(&r->alloc, r->owned, cap, grown) : NULL;
            if (!b) {
                fclose(f);
                fg_status st = rfail(r, err, FG_ENOMEM, "cannot allocate %zu bytes to read it",
                                     grown);
                reader_free(r);
                return st;
            }
            r->owned = b;
            r->owned_size = cap = grown;
        }
        size_t got = fread(r->owned + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            failed = ferror(f) ? errno : 0;
            break;
        }
    }
    fclose(f);
    if (failed) {
        fg_status st = rfail(r, err, FG_EIO, "cannot read: %s", strerror(failed));
        reader_free(r);
        return st;
    }
    r->data = r->owned;
    r->size = n;
    return reader_open(out, r, err);
}

void fg_replay_reader_destroy(fg_replay_reader *r) {
    if (r) reader_free(r);
}

const char *fg_replay_reader_name(const fg_replay_reader *r) {
    return r->name;
}
const fg_replay_header *fg_replay_reader_header(const fg_replay_reader *r) {
    return &r->header;
}
const fg_replay_stats *fg_replay_reader_stats(const fg_replay_reader *r) {
    return &r->stats;
}

fg_status fg_replay_next(fg_replay_reader *r, fg_replay_record *out, fg_error *err) {
    /* The file was checked at open, so this only fails if the borrowed bytes changed since. */
    return step(r, &r->cur, out, NULL, err);
}

fg_status fg_replay_peek(fg_replay_reader *r, fg_replay_record *out, fg_error *err) {
    cursor ahead = r->cur;
    return step(r, &ahead, out, NULL, err);
}

void fg_replay_reader_rewind(fg_replay_reader *r) {
    r->cur = r->first;
}

fg_status fg_replay_check_ruleset(const fg_replay_reader *r, uint64_t loaded_hash,
                                  fg_error *err) {
    if (r->header.ruleset_hash == loaded_hash) return FG_OK;
    return rfail(r, err, FG_EMISMATCH,
                 "replay was recorded with ruleset 0x%016" PRIx64
                 ", loaded ruleset is 0x%016" PRIx64,
                 r->header.ruleset_hash, loaded_hash);
}

/* }====================================================================== */
