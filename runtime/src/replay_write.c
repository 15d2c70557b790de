/* SPDX-License-Identifier: MIT */
/*
** replay_write.c: the replay writer (docs/replay-format.md), which packs records field by field
** into a fixed chunk buffer and hands whole chunks to a sink (a file, a stream or the caller's
** function). Once a write to the sink fails, the writer refuses every further record.
*/
#include "replay_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* {====================================================================== writer */

struct fg_replay_writer {
    fg_allocator alloc;
    fg_replay_sink_fn sink;
    void *ud;
    FILE *owned; /* set when the writer created the file */
    char name[128];
    uint8_t *buf; /* chunk header, payload (cap bytes), CRC */
    uint32_t cap;
    uint32_t used;  /* payload bytes buffered */
    uint32_t nrec;  /* records buffered */
    uint32_t chunk_index;
    uint64_t records;
    uint64_t bytes;
    fg_tick start_tick, last_tick;
    bool final_written, finished, failed;
};

static fg_status wfail(const fg_replay_writer *w, fg_error *err, fg_status code) {
    fg_error_prefix(err, "%s", w->name);
    return code;
}

static fg_status wusable(const fg_replay_writer *w, fg_error *err) {
    if (w->failed)
        return fg_error_set(err, FG_ESTATE,
                            "%s: an earlier write to the sink failed; the recording is incomplete",
                            w->name);
    if (w->finished)
        return fg_error_set(err, FG_ESTATE, "%s: already finished (the end marker is written)",
                            w->name);
    return FG_OK;
}

static fg_status wsink(fg_replay_writer *w, const void *data, size_t len, fg_error *err) {
    fg_error local = {0};
    fg_status st = w->sink(w->ud, data, len, &local);
    if (st != FG_OK) {
        w->failed = true;
        fg_error_set(err, st, "%s: chunk %" PRIu32 ": %s", w->name, w->chunk_index,
                     fg_error_message(&local)[0] ? fg_error_message(&local) : "the sink failed");
        fg_error_clear(&local);
        return st;
    }
    w->bytes += len;
    return FG_OK;
}

/* A chunk header: payload length, index, record count, and the CRC of those 12 bytes, so a
** damaged length reads as damage rather than as a truncated file. */
static void chunk_header(uint8_t *p, uint32_t len, uint32_t index, uint32_t count) {
    wr32(p, len);
    wr32(p + 4, index);
    wr32(p + 8, count);
    wr32(p + CHUNK_HEADER_CRC_AT, fg_crc32(0, p, CHUNK_HEADER_CRC_AT));
}

/* Writes the buffered records as one chunk: header, payload, CRC, in a single sink call. */
static fg_status wflush_chunk(fg_replay_writer *w, fg_error *err) {
    if (w->nrec == 0) return FG_OK;
    if (w->chunk_index == UINT32_MAX)
        return fg_error_set(err, FG_ENOMEM, "%s: more than %" PRIu32 " chunks", w->name,
                            UINT32_MAX);
    chunk_header(w->buf, w->used, w->chunk_index, w->nrec);
    uint32_t crc = fg_crc32(0, w->buf + CHUNK_HEADER_SIZE, w->used);
    wr32(w->buf + CHUNK_HEADER_SIZE + w->used, crc);
    fg_status st = wsink(w, w->buf, CHUNK_HEADER_SIZE + (size_t)w->used + CRC_SIZE, err);
    if (st != FG_OK) return st;
    w->chunk_index++;
    w->used = w->nrec = 0;
    return FG_OK;
}

/* Room for need payload bytes in the buffer, flushing it first when it is too full. */
static fg_status wreserve(fg_replay_writer *w, uint32_t need, uint8_t **at, fg_error *err) {
    if (w->cap - w->used < need) {
        fg_status st = wflush_chunk(w, err);
        if (st != FG_OK) return st;
    }
    *at = w->buf + CHUNK_HEADER_SIZE + w->used;
    return FG_OK;
}

static fg_status wfixed(fg_replay_writer *w, fg_replay_type type, const uint8_t *fixed,
                        fg_tick tick, fg_error *err) {
    uint32_t size = KNOWN[type].size;
    uint8_t *at;
    fg_status st = wreserve(w, 1 + size, &at, err);
    if (st != FG_OK) return st;
    at[0] = (uint8_t)type;
    memcpy(at + 1, fixed, size);
    w->used += 1 + size;
    w->nrec++;
    w->records++;
    w->last_tick = tick;
    return FG_OK;
}

/* A variable record is encoded through an emitter, either into the chunk buffer or, when it is
** larger than the buffer, straight to the sink as a chunk of its own with a running CRC. */
typedef struct emitter {
    fg_replay_writer *w;
    uint8_t *dst; /* buffer mode */
    bool stream;
    uint32_t crc;
    fg_status st;
    fg_error *err;
} emitter;

static void emit(emitter *e, const void *p, size_t n) {
    if (e->st != FG_OK || n == 0) return;
    if (e->stream) {
        e->crc = fg_crc32(e->crc, p, n);
        e->st = wsink(e->w, p, n, e->err);
    } else {
        memcpy(e->dst, p, n);
        e->dst += n;
    }
}
static void emit_u32(emitter *e, uint32_t v) {
    uint8_t b[4];
    wr32(b, v);
    emit(e, b, 4);
}
static void emit_u64(emitter *e, uint64_t v) {
    uint8_t b[8];
    wr64(b, v);
    emit(e, b, 8);
}
static void emit_str(emitter *e, fg_replay_str s) {
    static const uint8_t nul = 0;
    emit_u32(e, s.len);
    emit(e, s.s, s.len);
    emit(e, &nul, 1);
}

static uint64_t str_size(fg_replay_str s) {
    return 4u + (uint64_t)s.len + 1u;
}

static uint64_t header_body_size(const fg_replay_header *h) {
    uint64_t n = KNOWN[FG_REPLAY_HEADER].size + str_size(h->runtime_version) + 4 + 4;
    for (uint32_t i = 0; i < h->nhashes; i++) n += str_size(h->hashes[i].name) + 8;
    for (uint32_t i = 0; i < h->nmeta; i++)
        n += str_size(h->meta[i].key) + str_size(h->meta[i].value);
    return n;
}
static void emit_header_body(emitter *e, const void *arg) {
    const fg_replay_header *h = arg;
    uint8_t fixed[FIXED_MAX];
    enc_header_fixed(fixed, h);
    emit(e, fixed, KNOWN[FG_REPLAY_HEADER].size);
    emit_str(e, h->runtime_version);
    emit_u32(e, h->nhashes);
    for (uint32_t i = 0; i < h->nhashes; i++) {
        emit_str(e, h->hashes[i].name);
        emit_u64(e, h->hashes[i].hash);
    }
    emit_u32(e, h->nmeta);
    for (uint32_t i = 0; i < h->nmeta; i++) {
        emit_str(e, h->meta[i].key);
        emit_str(e, h->meta[i].value);
    }
}

static uint64_t reload_body_size(const fg_replay_reload *r) {
    uint64_t n = KNOWN[FG_REPLAY_RELOAD].size + 4;
    for (uint32_t i = 0; i < r->nfiles; i++)
        n += str_size(r->files[i].path) + str_size(r->files[i].text);
    return n;
}
static void emit_reload_body(emitter *e, const void *arg) {
    const fg_replay_reload *r = arg;
    uint8_t fixed[FIXED_MAX];
    enc_reload_fixed(fixed, r);
    emit(e, fixed, KNOWN[FG_REPLAY_RELOAD].size);
    emit_u32(e, r->nfiles);
    for (uint32_t i = 0; i < r->nfiles; i++) {
        emit_str(e, r->files[i].path);
        emit_str(e, r->files[i].text);
    }
}

static fg_status wvariable(fg_replay_writer *w, fg_replay_type type, uint64_t body,
                           void (*encode)(emitter *, const void *), const void *arg,
                           fg_tick tick, fg_error *err) {
    if (body > RECORD_BODY_MAX)
        return fg_error_set(err, FG_EINVAL,
                            "%s: %s record of %" PRIu64 " bytes exceeds the format's limit (%u)",
                            w->name, fg_replay_type_name(type), body, RECORD_BODY_MAX);
    uint32_t need = VAR_PREFIX + (uint32_t)body;
    uint8_t prefix[VAR_PREFIX];
    prefix[0] = (uint8_t)type;
    wr32(prefix + 1, (uint32_t)body);
    emitter e = {w, NULL, false, 0, FG_OK, err};
    if (need <= w->cap) {
        fg_status st = wreserve(w, need, &e.dst, err);
        if (st != FG_OK) return st;
        emit(&e, prefix, VAR_PREFIX);
        encode(&e, arg);
        w->used += need;
        w->nrec++;
    } else {
        fg_status st = wflush_chunk(w, err);
        if (st != FG_OK) return st;
        if (w->chunk_index == UINT32_MAX)
            return fg_error_set(err, FG_ENOMEM, "%s: more than %" PRIu32 " chunks", w->name,
                                UINT32_MAX);
        uint8_t head[CHUNK_HEADER_SIZE];
        chunk_header(head, need, w->chunk_index, 1);
        st = wsink(w, head, CHUNK_HEADER_SIZE, err);
        if (st != FG_OK) return st;
        e.stream = true;
        emit(&e, prefix, VAR_PREFIX);
        encode(&e, arg);
        if (e.st != FG_OK) return e.st;
        uint8_t crc[CRC_SIZE];
        wr32(crc, e.crc);
        st = wsink(w, crc, CRC_SIZE, err);
        if (st != FG_OK) return st;
        w->chunk_index++;
    }
    w->records++;
    w->last_tick = tick;
    return FG_OK;
}

static fg_status file_sink(void *ud, const void *data, size_t len, fg_error *err) {
    FILE *f = ud;
    if (fwrite(data, 1, len, f) != len)
        return fg_error_set(err, FG_EIO, "write failed: %s", strerror(errno));
    return FG_OK;
}

static fg_status writer_open(fg_replay_writer **out, const char *name, const fg_replay_header *h,
                             fg_replay_sink_fn sink, void *ud, FILE *owned,
                             const fg_replay_write_options *opt, fg_error *err) {
    *out = NULL;
    fg_replay_header hd = *h;
    if (hd.runtime_version.len == 0) hd.runtime_version = fg_replay_str_of(fg_version());
    fg_status st = check_header(&hd, err);
    if (st != FG_OK) {
        fg_error_prefix(err, "%s", name);
        return st;
    }
    uint32_t cap = opt && opt->chunk_size ? opt->chunk_size : FG_REPLAY_CHUNK_DEFAULT;
    if (cap < FG_REPLAY_CHUNK_MIN || cap > FG_REPLAY_CHUNK_MAX)
        return fg_error_set(err, FG_EINVAL,
                            "%s: chunk_size %" PRIu32 " is out of range (expected %u..%u)", name,
                            cap, FG_REPLAY_CHUNK_MIN, FG_REPLAY_CHUNK_MAX);
    const fg_allocator *a = opt && opt->alloc ? opt->alloc : NULL;
    fg_allocator alloc = a ? *a : fg_allocator_default();
    fg_replay_writer *w = fg_alloc(&alloc, sizeof *w);
    uint8_t *buf = w ? fg_alloc(&alloc, CHUNK_HEADER_SIZE + (size_t)cap + CRC_SIZE) : NULL;
    if (!buf) {
        fg_free(&alloc, w, sizeof *w);
        return fg_error_set(err, FG_ENOMEM, "%s: cannot allocate a %" PRIu32 "-byte chunk buffer",
                            name, cap);
    }
    w->alloc = alloc;
    w->sink = sink;
    w->ud = ud;
    w->buf = buf;
    w->cap = cap;
    w->start_tick = w->last_tick = hd.start_tick;
    snprintf(w->name, sizeof w->name, "%s", name);

    /* File header and record table, with their CRC. */
    uint8_t pre[FILE_HEADER_SIZE + (FG_REPLAY_TYPE_COUNT - 1) * TABLE_ENTRY_SIZE + CRC_SIZE];
    memcpy(pre, MAGIC, FG_REPLAY_MAGIC_SIZE);
    wr16(pre + 8, FG_REPLAY_VERSION_MAJOR);
    wr16(pre + 10, FG_REPLAY_VERSION_MINOR);
    wr16(pre + 12, FG_REPLAY_TYPE_COUNT - 1);
    wr16(pre + 14, 0);
    uint8_t *p = pre + FILE_HEADER_SIZE;
    for (unsigned t = 1; t < FG_REPLAY_TYPE_COUNT; t++, p += TABLE_ENTRY_SIZE) {
        p[0] = (uint8_t)t;
        p[1] = KNOWN[t].variable ? TABLE_FLAG_VARIABLE : 0;
        wr16(p + 2, 0);
        wr32(p + 4, KNOWN[t].size);
    }
    wr32(p, fg_crc32(0, pre, (size_t)(p - pre)));
    st = wsink(w, pre, sizeof pre, err);
    if (st == FG_OK)
        st = wvariable(w, FG_REPLAY_HEADER, header_body_size(&hd), emit_header_body, &hd,
                       hd.start_tick, err);
    if (st == FG_OK) st = wflush_chunk(w, err);
    if (st != FG_OK) {
        fg_free(&alloc, buf, CHUNK_HEADER_SIZE + (size_t)cap + CRC_SIZE);
        fg_free(&alloc, w, sizeof *w);
        return st;
    }
    w->owned = owned;
    *out = w;
    return FG_OK;
}

fg_status fg_replay_writer_create_sink(const fg_replay_header *h, fg_replay_sink_fn sink, void *ud,
                                       const fg_replay_write_options *opt, fg_replay_writer **out,
                                       fg_error *err) {
    if (!out || !h || !sink) {
        if (out) *out = NULL;
        return fg_error_set(err, FG_EINVAL, "replay writer: out, header and sink are required");
    }
    return writer_open(out, "replay writer", h, sink, ud, NULL, opt, err);
}

fg_status fg_replay_writer_create_stream(const fg_replay_header *h, FILE *f,
                                         const fg_replay_write_options *opt, fg_replay_writer **out,
                                         fg_error *err) {
    if (!out || !h || !f) {
        if (out) *out = NULL;
        return fg_error_set(err, FG_EINVAL, "replay writer: out, header and stream are required");
    }
    return writer_open(out, "replay writer", h, file_sink, f, NULL, opt, err);
}

fg_status fg_replay_writer_create_file(const char *path, const fg_replay_header *h,
                                       const fg_replay_write_options *opt, fg_replay_writer **out,
                                       fg_error *err) {
    if (!out || !h || !path) {
        if (out) *out = NULL;
        return fg_error_set(err, FG_EINVAL, "replay writer: out, path and header are required");
    }
    *out = NULL;
    fg_replay_header hd = *h;
    if (hd.runtime_version.len == 0) hd.runtime_version = fg_replay_str_of(fg_version());
    /* Check before creating, so a bad header does not truncate an existing file. */
    fg_status st = check_header(&hd, err);
    if (st != FG_OK) {
        fg_error_prefix(err, "%s", path);
        return st;
    }
    FILE *f = fopen(path, "wb");
    if (!f) return fg_error_set(err, FG_EIO, "%s: cannot create: %s", path, strerror(errno));
    st = writer_open(out, path, &hd, file_sink, f, f, opt, err);
    if (st != FG_OK) {
        fclose(f);
        remove(path);
    }
    return st;
}

fg_status fg_replay_write_input(fg_replay_writer *w, fg_replay_input in, fg_error *err) {
    fg_status st = wusable(w, err);
    if (st != FG_OK) return st;
    if ((st = check_input(&in, err)) != FG_OK ||
        (st = check_order("input", in.tick, w->start_tick, w->last_tick, w->final_written, err)))
        return wfail(w, err, st);
    uint8_t fixed[FIXED_MAX];
    enc_input(fixed, &in);
    return wfixed(w, FG_REPLAY_INPUT, fixed, in.tick, err);
}

fg_status fg_replay_write_command(fg_replay_writer *w, fg_replay_command c, fg_error *err) {
    fg_status st = wusable(w, err);
    if (st != FG_OK) return st;
    if ((st = check_order("command", c.tick, w->start_tick, w->last_tick, w->final_written, err)))
        return wfail(w, err, st);
    uint8_t fixed[FIXED_MAX];
    enc_command(fixed, &c);
    return wfixed(w, FG_REPLAY_COMMAND, fixed, c.tick, err);
}

fg_status fg_replay_write_checkpoint(fg_replay_writer *w, fg_tick tick, uint64_t hash,
                                     fg_error *err) {
    fg_status st = wusable(w, err);
    if (st != FG_OK) return st;
    if ((st = check_order("checkpoint", tick, w->start_tick, w->last_tick, w->final_written, err)))
        return wfail(w, err, st);
    uint8_t fixed[FIXED_MAX];
    enc_tick_u64(fixed, tick, hash);
    return wfixed(w, FG_REPLAY_CHECKPOINT, fixed, tick, err);
}

fg_status fg_replay_write_final(fg_replay_writer *w, fg_tick tick, uint64_t hash, fg_error *err) {
    fg_status st = wusable(w, err);
    if (st != FG_OK) return st;
    if ((st = check_order("final", tick, w->start_tick, w->last_tick, w->final_written, err)))
        return wfail(w, err, st);
    uint8_t fixed[FIXED_MAX];
    enc_tick_u64(fixed, tick, hash);
    st = wfixed(w, FG_REPLAY_FINAL, fixed, tick, err);
    if (st == FG_OK) w->final_written = true;
    return st;
}

fg_status fg_replay_write_clamp(fg_replay_writer *w, fg_tick tick, int64_t clamped_us,
                                fg_error *err) {
    fg_status st = wusable(w, err);
    if (st != FG_OK) return st;
    if (clamped_us < 0)
        return fg_error_set(err, FG_EINVAL,
                            "%s: clamp.clamped_us %" PRId64 " is negative (expected >= 0)",
                            w->name, clamped_us);
    if ((st = check_order("clamp", tick, w->start_tick, w->last_tick, w->final_written, err)))
        return wfail(w, err, st);
    uint8_t fixed[FIXED_MAX];
    enc_tick_u64(fixed, tick, u64_of_i64(clamped_us));
    return wfixed(w, FG_REPLAY_CLAMP, fixed, tick, err);
}

fg_status fg_replay_write_reload(fg_replay_writer *w, const fg_replay_reload *r, fg_error *err) {
    fg_status st = wusable(w, err);
    if (st != FG_OK) return st;
    if (!r) return fg_error_set(err, FG_EINVAL, "%s: reload record is NULL", w->name);
    if ((st = check_reload_files(r, err)) != FG_OK ||
        (st = check_order("reload", r->tick, w->start_tick, w->last_tick, w->final_written, err)))
        return wfail(w, err, st);
    return wvariable(w, FG_REPLAY_RELOAD, reload_body_size(r), emit_reload_body, r, r->tick, err);
}

fg_status fg_replay_writer_flush(fg_replay_writer *w, fg_error *err) {
    fg_status st = wusable(w, err);
    if (st == FG_OK) st = wflush_chunk(w, err);
    if (st == FG_OK && w->sink == file_sink && fflush((FILE *)w->ud) != 0) {
        w->failed = true;
        st = fg_error_set(err, FG_EIO, "%s: flush failed: %s", w->name, strerror(errno));
    }
    return st;
}

fg_status fg_replay_writer_finish(fg_replay_writer *w, fg_error *err) {
    fg_status st = wusable(w, err);
    if (st != FG_OK) return st;
    uint8_t fixed[FIXED_MAX];
    wr64(fixed, w->records);
    uint8_t *at;
    if ((st = wreserve(w, 1 + KNOWN[FG_REPLAY_END].size, &at, err)) != FG_OK) return st;
    at[0] = FG_REPLAY_END;
    memcpy(at + 1, fixed, KNOWN[FG_REPLAY_END].size);
    w->used += 1 + KNOWN[FG_REPLAY_END].size;
    w->nrec++;
    w->records++;
    st = wflush_chunk(w, err);
    if (st != FG_OK) {
        /* The end marker stays out of the count; a retry is refused because the sink failed. */
        w->records--;
        return st;
    }
    if (w->sink == file_sink && fflush((FILE *)w->ud) != 0) {
        w->failed = true;
        return fg_error_set(err, FG_EIO, "%s: flush failed: %s", w->name, strerror(errno));
    }
    w->finished = true;
    return FG_OK;
}

void fg_replay_writer_destroy(fg_replay_writer *w) {
    if (!w) return;
    if (w->owned) fclose(w->owned);
    fg_allocator alloc = w->alloc;
    fg_free(&alloc, w->buf, CHUNK_HEADER_SIZE + (size_t)w->cap + CRC_SIZE);
    fg_free(&alloc, w, sizeof *w);
}

uint64_t fg_replay_writer_records(const fg_replay_writer *w) {
    return w->records;
}
uint64_t fg_replay_writer_bytes(const fg_replay_writer *w) {
    return w->bytes;
}

/* }====================================================================== */
