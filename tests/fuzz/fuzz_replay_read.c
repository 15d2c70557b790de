/* SPDX-License-Identifier: MIT */
/*
** fuzz_replay_read.c: feeds arbitrary bytes to the replay reader, strict and partial. Beyond
** "never crashes": a refused file leaves no reader and a message; an accepted file iterates to its
** end marker without failing, twice (rewind), with ticks in order; and everything the reader
** accepted the writer accepts too: re-encoding it and reading that back gives the same records.
**
** Random bytes almost never carry valid CRCs, which would keep the fuzzer at the framing. So each
** input is also tried as a copy whose CRCs are recomputed wherever its framing allows, which lets
** mutations reach the record parser.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "framegate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct grow_sink {
    uint8_t *b;
    size_t n, cap;
} grow_sink;

static fg_status grow_write(void *ud, const void *p, size_t len, fg_error *err) {
    grow_sink *g = ud;
    if (g->cap - g->n < len) {
        size_t cap = g->cap ? g->cap : 1024;
        while (cap - g->n < len) cap *= 2;
        uint8_t *b = realloc(g->b, cap);
        if (!b) return fg_error_set(err, FG_ENOMEM, "out of memory");
        g->b = b;
        g->cap = cap;
    }
    memcpy(g->b + g->n, p, len);
    g->n += len;
    return FG_OK;
}

static void check(bool ok) {
    if (!ok) abort();
}

static bool str_same(fg_replay_str a, fg_replay_str b) {
    return a.len == b.len && (a.len == 0 || memcmp(a.s, b.s, a.len) == 0);
}

static bool same_record(const fg_replay_record *a, const fg_replay_record *b) {
    if (a->type != b->type) return false;
    switch (a->type) {
    case FG_REPLAY_INPUT:
        return a->as.input.entity == b->as.input.entity && a->as.input.tick == b->as.input.tick &&
               a->as.input.time_us == b->as.input.time_us && a->as.input.kind == b->as.input.kind &&
               a->as.input.action == b->as.input.action && a->as.input.dir == b->as.input.dir &&
               a->as.input.source == b->as.input.source;
    case FG_REPLAY_COMMAND:
        return a->as.command.entity == b->as.command.entity &&
               a->as.command.tick == b->as.command.tick &&
               a->as.command.motion == b->as.command.motion;
    case FG_REPLAY_CHECKPOINT:
    case FG_REPLAY_FINAL:
        return a->as.checkpoint.tick == b->as.checkpoint.tick &&
               a->as.checkpoint.hash == b->as.checkpoint.hash;
    case FG_REPLAY_CLAMP:
        return a->as.clamp.tick == b->as.clamp.tick &&
               a->as.clamp.clamped_us == b->as.clamp.clamped_us;
    case FG_REPLAY_RELOAD: {
        const fg_replay_reload *x = &a->as.reload, *y = &b->as.reload;
        if (x->tick != y->tick || x->old_hash != y->old_hash || x->new_hash != y->new_hash ||
            x->nfiles != y->nfiles)
            return false;
        for (uint32_t i = 0; i < x->nfiles; i++)
            if (!str_same(x->files[i].path, y->files[i].path) ||
                !str_same(x->files[i].text, y->files[i].text))
                return false;
        return true;
    }
    default: return true;
    }
}

static fg_tick tick_of(const fg_replay_record *rec) {
    switch (rec->type) {
    case FG_REPLAY_INPUT: return rec->as.input.tick;
    case FG_REPLAY_COMMAND: return rec->as.command.tick;
    case FG_REPLAY_CLAMP: return rec->as.clamp.tick;
    case FG_REPLAY_RELOAD: return rec->as.reload.tick;
    default: return rec->as.checkpoint.tick; /* CHECKPOINT and FINAL */
    }
}

static fg_status write_record(fg_replay_writer *w, const fg_replay_record *rec, fg_error *err) {
    switch (rec->type) {
    case FG_REPLAY_INPUT: return fg_replay_write_input(w, rec->as.input, err);
    case FG_REPLAY_COMMAND: return fg_replay_write_command(w, rec->as.command, err);
    case FG_REPLAY_CHECKPOINT:
        return fg_replay_write_checkpoint(w, rec->as.checkpoint.tick, rec->as.checkpoint.hash, err);
    case FG_REPLAY_FINAL:
        return fg_replay_write_final(w, rec->as.final.tick, rec->as.final.hash, err);
    case FG_REPLAY_CLAMP:
        return fg_replay_write_clamp(w, rec->as.clamp.tick, rec->as.clamp.clamped_us, err);
    case FG_REPLAY_RELOAD: return fg_replay_write_reload(w, &rec->as.reload, err);
    default: return FG_OK;
    }
}

/* Re-encodes an accepted replay and compares what comes back, record for record. */
static void reencode(fg_replay_reader *r) {
    grow_sink g = {0};
    fg_error err;
    fg_replay_writer *w = NULL;
    const fg_replay_header *h = fg_replay_reader_header(r);
    fg_replay_write_options opt = {NULL, FG_REPLAY_CHUNK_MIN};
    check(fg_replay_writer_create_sink(h, grow_write, &g, &opt, &w, &err) == FG_OK);
    fg_replay_record rec;
    fg_replay_reader_rewind(r);
    do {
        check(fg_replay_next(r, &rec, &err) == FG_OK);
        check(write_record(w, &rec, &err) == FG_OK);
    } while (rec.type != FG_REPLAY_END);
    check(fg_replay_writer_finish(w, &err) == FG_OK);
    fg_replay_writer_destroy(w);

    fg_replay_reader *back = NULL;
    check(fg_replay_reader_create_memory(g.b, g.n, NULL, &back, &err) == FG_OK);
    const fg_replay_header *bh = fg_replay_reader_header(back);
    check(bh->tick_rate == h->tick_rate && bh->seed == h->seed &&
          bh->start_tick == h->start_tick && bh->ruleset_hash == h->ruleset_hash &&
          bh->nhashes == h->nhashes && bh->nmeta == h->nmeta);
    check(h->runtime_version.len == 0 || str_same(bh->runtime_version, h->runtime_version));
    for (uint32_t i = 0; i < h->nmeta; i++)
        check(str_same(bh->meta[i].key, h->meta[i].key) &&
              str_same(bh->meta[i].value, h->meta[i].value));
    for (uint32_t i = 0; i < h->nhashes; i++)
        check(str_same(bh->hashes[i].name, h->hashes[i].name) &&
              bh->hashes[i].hash == h->hashes[i].hash);
    fg_replay_reader_rewind(r);
    fg_replay_record a, b;
    do {
        check(fg_replay_next(r, &a, &err) == FG_OK);
        check(fg_replay_next(back, &b, &err) == FG_OK);
        check(same_record(&a, &b));
    } while (a.type != FG_REPLAY_END);
    check(fg_replay_reader_stats(back)->complete);
    fg_replay_reader_destroy(back);
    free(g.b);
}

static uint32_t rd32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static void wr32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* Rewrites the table CRC and every chunk's header and payload CRC (docs/replay-format.md). */
static void fix_crcs(uint8_t *b, size_t n) {
    if (n < 16) return;
    size_t at = 16 + (size_t)(b[12] | b[13] << 8) * 8;
    if (n < at + 4) return;
    wr32(b + at, fg_crc32(0, b, at));
    at += 4;
    while (n - at >= 16) {
        wr32(b + at + 12, fg_crc32(0, b + at, 12));
        uint32_t len = rd32(b + at);
        if (n - at - 16 < (uint64_t)len + 4) return;
        wr32(b + at + 16 + len, fg_crc32(0, b + at + 16, len));
        at += 16 + (size_t)len + 4;
    }
}

static void run(const uint8_t *data, size_t size) {
    for (int pass = 0; pass < 2; pass++) {
        fg_replay_read_options opt = {NULL, "fuzz", pass ? FG_REPLAY_READ_PARTIAL : 0u};
        fg_replay_reader *r = NULL;
        fg_error err = {0};
        if (fg_replay_reader_create_memory(data, size, &opt, &r, &err) != FG_OK) {
            check(r == NULL && fg_error_message(&err)[0] != '\0');
            continue;
        }
        const fg_replay_stats *s = fg_replay_reader_stats(r);
        check(s->complete || pass == 1);
        for (int round = 0; round < 2; round++) {
            fg_replay_reader_rewind(r);
            fg_replay_record rec;
            uint64_t n = 0;
            fg_tick last = fg_replay_reader_header(r)->start_tick;
            do {
                check(fg_replay_next(r, &rec, &err) == FG_OK);
                check(rec.type > FG_REPLAY_HEADER && rec.type < FG_REPLAY_TYPE_COUNT);
                if (rec.type != FG_REPLAY_END) {
                    check(tick_of(&rec) >= last);
                    last = tick_of(&rec);
                }
                n++;
                check(n <= s->records);
            } while (rec.type != FG_REPLAY_END);
            /* the header, what next() returned, the skipped; a partial end is not a record */
            check(1 + n + s->unknown == s->records + (s->complete ? 0 : 1));
        }
        fg_replay_check_ruleset(r, 0, &err);
        reencode(r);
        fg_replay_reader_destroy(r);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    run(data, size);
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy) return 0;
    memcpy(copy, data, size);
    fix_crcs(copy, size);
    run(copy, size);
    free(copy);
    return 0;
}
