/* SPDX-License-Identifier: MIT */
/*
** bench_determinism.c: the cost of proving determinism, for the sample duel (two fighters running
** samples/duel/rules.lua with its Lua request rule and presentation hook):
**
**   tick       one tick with the Lua rules, the reference for the others
**   hash       fg_world_hash taken after every tick, as hosts, recorders and sessions take it:
**              blocks of ticks with it against the blocks without it that alternate with them
**              (a world hashed every tick folds each entity's part during its tick, so the time
**              inside fg_world_hash alone would understate it) (target: <= 20 % of a tick)
**   save       fg_world_save; restore: fg_world_restore (target: save + restore <= 1 us)
**   rollback   1 restore + 8 re-simulated ticks with the Lua rules (target: <= 100 us), and the
**              sync test's full check at distance 8 (save, capture, restore, re-push, 9 ticks,
**              9 hashes)
**   replay     re-simulating a recorded match tick by tick, checkpoints verified (target:
**              >= 500,000 fighter-ticks per second)
**
** The match is warmed up with seeded random input first, so buffers, ledgers and matcher states
** hold what a real match holds. Times are medians of repeated batches.
**
** Usage: bench_determinism [--smoke]. Prints figures; asserts nothing about time.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__has_include)
#if !__has_include("fg_lua.h")
#define FG_BENCH_NO_LUA 1
#endif
#endif

#ifdef FG_BENCH_NO_LUA
/* Built without the Lua bindings (FG_LUA=OFF): the sample duel needs them. */
int main(void) {
    puts("bench_determinism: needs the Lua bindings (configure with FG_LUA=ON)");
    return 0;
}
#else

#include "bench_util.h"
#include "fg_sample_world.h"
#include "framegate.h"


typedef struct mem_sink {
    unsigned char *b;
    size_t n, cap;
} mem_sink;

static fg_status mem_write(void *ud, const void *data, size_t len, fg_error *err) {
    mem_sink *m = ud;
    if (m->cap - m->n < len) return fg_error_set(err, FG_ENOMEM, "bench sink too small");
    memcpy(m->b + m->n, data, len);
    m->n += len;
    return FG_OK;
}

static void die(const char *what, const fg_error *err) {
    fprintf(stderr, "bench_determinism: %s: %s\n", what, err ? fg_error_message(err) : "failed");
    exit(1);
}

/* A Lua state holding [World, reader]: the world built from the replay's setup. */
static fg_sample open_replay_world(const unsigned char *bytes, size_t n) {
    fg_sample p = {luaL_newstate(), NULL};
    luaL_openlibs(p.L);
    fg_lua_preload(p.L);
    const char *code = "local bytes, path = ...\n"
                       "local fg = require 'framegate'\n"
                       "local r = fg.replay.load(bytes)\n"
                       "return fg.replay.world(r, path), r\n";
    if (luaL_loadstring(p.L, code) != LUA_OK) die(lua_tostring(p.L, -1), NULL);
    lua_pushlstring(p.L, (const char *)bytes, n);
    lua_pushstring(p.L, fg_sample_rules_path());
    if (lua_pcall(p.L, 2, 2, 0) != LUA_OK) die(lua_tostring(p.L, -1), NULL);
    return p;
}

/* Per-operation costs along a fuzzed match, in blocks: a block runs 16 ticks with fresh input,
** then hashes, saves and restores the state they left 16 times each. Each figure is the median
** over the blocks of the block's mean, which keeps time stolen by other processes out. */
typedef struct costs {
    double tick, hash, save, restore, rollback, sync;
} costs;

#define BLOCK 16

/* A tick as a host plays it: the world advances, then the presentation layer takes the tick's
** cues. A queue never drained fills up, and every later hook call takes its error path. */
static fg_status step(fg_sample *s, fg_error *err) {
    fg_status st = fg_sample_step(s, err);
    fg_world_cues_clear(s->w);
    return st;
}

static double median_of(double *v, long n) { return fg_bench_median(v, (int)n); }

static costs measure(long blocks, long rollbacks, uint32_t activity) {
    fg_error err;
    fg_sample s = fg_sample_open(7);
    if (!s.w) die("sample world", NULL);
    fg_input_fuzz fz;
    fg_input_fuzz_init(&fz, 42);
    fz.activity = activity;
    for (int t = 0; t < 600; t++)
        if (fg_input_fuzz_tick(&fz, s.w, &err) != FG_OK || step(&s, &err) != FG_OK)
            die("warm-up", &err);
    size_t cap = fg_world_snapshot_capacity(s.w);
    void *snap = malloc(cap);
    double *tick = malloc(sizeof(double) * (size_t)blocks * 4);
    double *hash = tick + blocks, *save = hash + blocks, *restore = save + blocks;
    double *rb = malloc(sizeof(double) * (size_t)rollbacks * 2), *sync = rb + rollbacks;
    if (!snap || !tick || !rb) die("out of memory", NULL);
    volatile uint64_t sink = 0;
    for (long b = 0; b < blocks; b++) {
        double t0 = fg_bench_now_ns();
        for (int k = 0; k < BLOCK; k++) {
            fg_input_fuzz_tick(&fz, s.w, &err);
            if (step(&s, &err) != FG_OK) die("tick", &err);
        }
        double t1 = fg_bench_now_ns();
        for (int k = 0; k < BLOCK; k++) {
            fg_input_fuzz_tick(&fz, s.w, &err);
            if (step(&s, &err) != FG_OK) die("tick", &err);
            sink ^= fg_world_hash(s.w);
        }
        double t2 = fg_bench_now_ns();
        size_t size = fg_world_snapshot_size(s.w);
        for (int k = 0; k < BLOCK; k++) fg_world_save(s.w, snap, size, NULL);
        double t3 = fg_bench_now_ns();
        for (int k = 0; k < BLOCK; k++) fg_world_restore(s.w, snap, size, NULL);
        double t4 = fg_bench_now_ns();
        tick[b] = (t1 - t0) / BLOCK;
        hash[b] = (t2 - t1) / BLOCK; /* a tick and its hash: the hash's cost is the difference */
        save[b] = (t3 - t2) / BLOCK;
        restore[b] = (t4 - t3) / BLOCK;
    }
    /* 8-tick rollback: save, run 8 ticks, then time restoring and running them again with the
    ** same input (the fuzz state is restored with the world). Each time a new stretch. */
    for (long r = 0; r < rollbacks; r++) {
        size_t size = fg_world_snapshot_size(s.w);
        fg_world_save(s.w, snap, size, NULL);
        fg_input_fuzz at = fz;
        for (int k = 0; k < 8; k++) {
            fg_input_fuzz_tick(&fz, s.w, &err);
            step(&s, &err);
        }
        uint64_t first = fg_world_hash(s.w);
        double t0 = fg_bench_now_ns();
        if (fg_world_restore(s.w, snap, size, &err) != FG_OK) die("rollback: restore", &err);
        fz = at;
        for (int k = 0; k < 8; k++) {
            fg_input_fuzz_tick(&fz, s.w, &err);
            if (step(&s, &err) != FG_OK) die("rollback", &err);
        }
        rb[r] = fg_bench_now_ns() - t0;
        if (fg_world_hash(s.w) != first) die("rollback: the re-simulation differs", NULL);
    }
    /* The sync test at distance 8: per checked tick, 1 save, 1 restore, 9 ticks, 9 hashes. */
    fg_synctest_config sc = fg_synctest_config_default();
    sc.check = 8;
    sc.advance = fg_sample_advance;
    sc.ud = &s;
    fg_synctest *st;
    if (fg_synctest_create(s.w, &sc, &st, &err) != FG_OK) die("sync test", &err);
    for (long r = 0; r < rollbacks; r++) {
        double t0 = fg_bench_now_ns();
        fg_input_fuzz_tick(&fz, s.w, &err);
        if (fg_synctest_advance(st, &err) != FG_OK) die("sync test", &err);
        sync[r] = fg_bench_now_ns() - t0;
    }
    fg_synctest_destroy(st);
    double with_hash = median_of(hash, blocks), without = median_of(tick, blocks);
    costs c = {without,                    with_hash > without ? with_hash - without : 0,
               median_of(save, blocks),    median_of(restore, blocks),
               median_of(rb, rollbacks), median_of(sync, rollbacks)};
    free(snap);
    free(tick);
    free(rb);
    fg_sample_close(&s);
    (void)sink;
    return c;
}

int main(int argc, char **argv) {
    bool smoke = fg_bench_smoke(argc, argv);
    fg_tick replay_ticks = smoke ? 120 : 36000;
    fg_input_fuzz fz;
    fg_error err;
    costs c = measure(smoke ? 4 : 2000, smoke ? 3 : 2000, 100);
    costs typical = measure(smoke ? 4 : 2000, smoke ? 3 : 2000, 25);
    size_t size;
    {
        fg_sample s = fg_sample_open(7);
        size = fg_world_snapshot_size(s.w);
        fg_sample_close(&s);
    }

    /* Replay: record a match, then re-simulate it. */
    fg_sample rec_world = fg_sample_open(7);
    mem_sink m = {malloc(64u << 20), 0, 64u << 20};
    fg_recorder *rec;
    fg_record_options ro;
    memset(&ro, 0, sizeof ro);
    if (!m.b || fg_recorder_create_sink(rec_world.w, mem_write, &m, &ro, &rec, &err) != FG_OK)
        die("recorder", &err);
    fg_input_fuzz_init(&fz, 99);
    for (fg_tick t = 0; t < replay_ticks; t++)
        if (fg_input_fuzz_tick(&fz, rec_world.w, &err) != FG_OK ||
            fg_sample_step(&rec_world, &err) != FG_OK || fg_recorder_tick(rec, &err) != FG_OK)
            die("recording", &err);
    if (fg_recorder_finish(rec, &err) != FG_OK) die("recording", &err);
    fg_recorder_destroy(rec);
    fg_sample_close(&rec_world);

    double best = 1e300;
    for (int b = 0; b < (smoke ? 1 : 3); b++) {
        fg_sample p = open_replay_world(m.b, m.n);
        p.w = fg_lua_check_world(p.L, 1)->w;
        fg_player_options po;
        memset(&po, 0, sizeof po);
        po.advance = fg_sample_advance;
        po.ud = &p;
        fg_player *pl;
        if (fg_player_create(p.w, fg_lua_check_replay_reader(p.L, 2), &po, &pl, &err) != FG_OK)
            die("player", &err);
        double t0 = fg_bench_now_ns();
        if (fg_player_run(pl, &err) != FG_OK) die("replay", &err);
        double dt = (fg_bench_now_ns() - t0) * 1e-9;
        if (dt < best) best = dt;
        fg_player_destroy(pl);
        fg_sample_close(&p);
    }

    printf("bench_determinism: the sample duel, 2 fighters, Lua request rule and hook%s\n",
           smoke ? " (smoke run: figures are not meaningful)" : "");
    printf("  snapshot                %8zu bytes\n", size);
    printf("  with frantic random input (about 30 edges a second per fighter):\n");
    printf("  tick (Lua rules)        %8.0f ns   median of 16-tick blocks\n", c.tick);
    printf("  hash                    %8.0f ns   %5.1f %% of a tick (target <= 20 %%)\n", c.hash,
           100.0 * c.hash / c.tick);
    printf("  with typical input (about 8 edges a second per fighter):\n");
    printf("  tick (Lua rules)        %8.0f ns\n", typical.tick);
    printf("  hash                    %8.0f ns   %5.1f %% of a tick\n", typical.hash,
           100.0 * typical.hash / typical.tick);
    printf("  snapshots and rollback, frantic input:\n");
    printf("  save                    %8.0f ns\n", c.save);
    printf("  restore                 %8.0f ns\n", c.restore);
    printf("  save + restore          %8.0f ns   (target <= 1000 ns)\n", c.save + c.restore);
    printf("  8-tick rollback         %8.1f us   1 restore + 8 ticks (target <= 100 us)\n",
           c.rollback / 1000.0);
    printf("  sync test, distance 8   %8.1f us   per checked tick (1 + 8 ticks, 9 hashes)\n",
           c.sync / 1000.0);
    printf("  replay re-simulation    %8.0f fighter-ticks/s (%lld ticks in %.3f s; target >= "
           "500,000)\n", 2.0 * (double)replay_ticks / best, (long long)replay_ticks, best);
    printf("  replay size             %8zu bytes, %.2f bytes per fighter-tick\n", m.n,
           (double)m.n / (2.0 * (double)replay_ticks));
    free(m.b);
    return 0;
}

#endif
