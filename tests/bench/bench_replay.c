/* SPDX-License-Identifier: MIT */
/*
** bench_replay.c: replay write and read throughput, and the size of a typical recording.
**
** The stream is what a match produces: each fighter makes about 8 input edges per second at
** 60 Hz (presses, releases and direction changes), and the world writes a hash checkpoint every
** 60 ticks and a final hash. Writing goes to a preallocated memory sink so the figure is the
** format's cost, not the disk's. Reading is measured twice: open (which checks the whole file:
** framing, CRCs, sizes, order) plus iteration, and iteration alone.
**
** Usage: bench_replay [--smoke]. Prints figures; asserts nothing about time.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "framegate.h"

typedef struct mem_sink {
    uint8_t *b;
    size_t n, cap;
} mem_sink;

static fg_status mem_write(void *ud, const void *data, size_t len, fg_error *err) {
    mem_sink *m = ud;
    if (m->cap - m->n < len) return fg_error_set(err, FG_ENOMEM, "bench sink too small");
    memcpy(m->b + m->n, data, len);
    m->n += len;
    return FG_OK;
}

static double now_s(void) {
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct stream {
    fg_replay_input *edges;
    size_t nedges;
    fg_tick ticks;
    uint32_t fighters;
} stream;

/* ~8 edges per second per fighter at 60 Hz: an edge in a tick with probability 8/60. */
static stream make_stream(uint32_t fighters, fg_tick ticks, uint64_t seed) {
    stream s = {NULL, 0, ticks, fighters};
    size_t cap = (size_t)ticks * fighters / 4 + 16;
    s.edges = malloc(sizeof *s.edges * cap);
    fg_rng rng = fg_rng_seeded(seed);
    uint32_t held[8] = {0};
    uint8_t dir[8] = {5, 5, 5, 5, 5, 5, 5, 5};
    for (fg_tick t = 1; t <= ticks; t++) {
        for (uint32_t f = 0; f < fighters; f++) {
            if (fg_rng_range(&rng, 0, 59) >= 8 || s.nedges == cap) continue;
            fg_replay_input in = {f, t, fg_us_of_tick(t, 60) + fg_rng_range(&rng, 0, 16000), 0, 0,
                                  dir[f % 8], FG_SOURCE_DEVICE};
            int64_t what = fg_rng_range(&rng, 0, 2);
            if (what == 2) {
                in.kind = FG_EDGE_DIR;
                uint8_t d = (uint8_t)fg_rng_range(&rng, 1, 9);
                in.dir = dir[f % 8] = d;
            } else {
                int b = (int)fg_rng_range(&rng, FG_IN_FIRST_BUTTON, FG_IN_FIRST_BUTTON + 5);
                in.action = (uint8_t)b;
                in.kind = (held[f % 8] >> b) & 1u ? FG_EDGE_RELEASE : FG_EDGE_PRESS;
                held[f % 8] ^= 1u << b;
            }
            s.edges[s.nedges++] = in;
        }
    }
    return s;
}

/* Writes the stream; returns the records written (header and end included). */
static uint64_t write_stream(const stream *s, mem_sink *m) {
    fg_replay_named_hash hashes[] = {{fg_replay_str_of("rules/fighter.lua"), 0x1234}};
    fg_replay_meta meta[] = {{fg_replay_str_of("ruleset"), fg_replay_str_of("samples/fighter")}};
    fg_replay_header h;
    memset(&h, 0, sizeof h);
    h.tick_rate = 60;
    h.seed = 42;
    h.ruleset_hash = 0xfeedface;
    h.nhashes = 1;
    h.hashes = hashes;
    h.nmeta = 1;
    h.meta = meta;
    m->n = 0;
    fg_replay_writer *w = NULL;
    fg_error err;
    if (fg_replay_writer_create_sink(&h, mem_write, m, NULL, &w, &err) != FG_OK) goto fail;
    size_t e = 0;
    for (fg_tick t = 1; t <= s->ticks; t++) {
        while (e < s->nedges && s->edges[e].tick == t)
            if (fg_replay_write_input(w, s->edges[e++], &err) != FG_OK) goto fail;
        if (t % 60 == 0 && fg_replay_write_checkpoint(w, t, (uint64_t)t * 0x9e3779b97f4a7c15ull,
                                                      &err) != FG_OK)
            goto fail;
    }
    if (fg_replay_write_final(w, s->ticks, 7, &err) != FG_OK ||
        fg_replay_writer_finish(w, &err) != FG_OK)
        goto fail;
    uint64_t n = fg_replay_writer_records(w);
    fg_replay_writer_destroy(w);
    return n;
fail:
    fprintf(stderr, "bench_replay: %s\n", fg_error_message(&err));
    exit(1);
}

/* Reads every record; returns how many next() returned. With open_each, opens (and so checks)
** the file each time; otherwise rewinds the open reader r. */
static uint64_t read_all(const mem_sink *m, fg_replay_reader *r) {
    fg_error err;
    bool own = r == NULL;
    if (own && fg_replay_reader_create_memory(m->b, m->n, NULL, &r, &err) != FG_OK) {
        fprintf(stderr, "bench_replay: %s\n", fg_error_message(&err));
        exit(1);
    }
    fg_replay_reader_rewind(r);
    fg_replay_record rec;
    uint64_t n = 0, sum = 0;
    do {
        if (fg_replay_next(r, &rec, &err) != FG_OK) {
            fprintf(stderr, "bench_replay: %s\n", fg_error_message(&err));
            exit(1);
        }
        sum += (uint64_t)rec.as.input.tick; /* keep the loop honest */
        n++;
    } while (rec.type != FG_REPLAY_END);
    if (own) fg_replay_reader_destroy(r);
    return n + (sum & 0);
}

int main(int argc, char **argv) {
    bool smoke = argc > 1 && strcmp(argv[1], "--smoke") == 0;
    const uint32_t fighters = 2;
    const fg_tick ticks = smoke ? 600 : 216000; /* smoke: 10 s; full: one hour at 60 Hz */
    const int reps = smoke ? 1 : 20;
    stream s = make_stream(fighters, ticks, 0x5eed);
    mem_sink m = {NULL, 0, (size_t)ticks * fighters * 8 + 65536};
    m.b = malloc(m.cap);

    uint64_t records = 0;
    double best_w = 1e30;
    for (int i = 0; i < reps; i++) {
        double t0 = now_s();
        records = write_stream(&s, &m);
        double dt = now_s() - t0;
        if (dt < best_w) best_w = dt;
    }
    double best_r = 1e30, best_i = 1e30;
    uint64_t read = 0;
    for (int i = 0; i < reps; i++) {
        double t0 = now_s();
        read = read_all(&m, NULL);
        double dt = now_s() - t0;
        if (dt < best_r) best_r = dt;
    }
    fg_replay_reader *r = NULL;
    fg_error err;
    if (fg_replay_reader_create_memory(m.b, m.n, NULL, &r, &err) != FG_OK) {
        fprintf(stderr, "bench_replay: %s\n", fg_error_message(&err));
        return 1;
    }
    for (int i = 0; i < reps; i++) {
        double t0 = now_s();
        read_all(&m, r);
        double dt = now_s() - t0;
        if (dt < best_i) best_i = dt;
    }
    const fg_replay_stats *st = fg_replay_reader_stats(r);
    double fighter_ticks = (double)ticks * fighters;
    double minutes = (double)ticks / 60.0 / 60.0;

    printf("replay stream: %u fighters, %lld ticks at 60 Hz (%.1f min), %zu edges "
           "(%.2f per fighter-second), %llu checkpoints, %llu chunks\n",
           fighters, (long long)ticks, minutes, s.nedges, (double)s.nedges / (fighter_ticks / 60.0),
           (unsigned long long)st->by_type[FG_REPLAY_CHECKPOINT], (unsigned long long)st->chunks);
    printf("file size:          %zu bytes, %.2f bytes per fighter-tick, %.1f KiB per "
           "10-minute 2-fighter match\n",
           m.n, (double)m.n / fighter_ticks, (double)m.n / fighter_ticks * 36000 * 2 / 1024);
    printf("write:              %.2f M records/s, %.1f MB/s (best of %d, memory sink)\n",
           (double)records / best_w / 1e6, (double)m.n / best_w / 1e6, reps);
    printf("read (open+check+iterate): %.2f M records/s, %.1f MB/s\n",
           (double)read / best_r / 1e6, (double)m.n / best_r / 1e6);
    printf("read (iterate only):       %.2f M records/s, %.1f MB/s\n",
           (double)read / best_i / 1e6, (double)m.n / best_i / 1e6);
    printf("re-simulation budget: reading one fighter-tick costs %.1f ns\n",
           best_r / fighter_ticks * 1e9);
    fg_replay_reader_destroy(r);
    free(m.b);
    free(s.edges);
    return 0;
}
