/* SPDX-License-Identifier: MIT */
/*
** framegate/determinism.h: proving that a world is deterministic. Four tools on top of the world's
** state hash and snapshots (world.h) and the replay format (replay.h):
**
**   diff       a field-level comparison of two snapshots: `e1.layers[0].elapsed: 7 vs 8`
**   sync test  every tick, roll back N ticks (1..8), re-simulate the same input, compare the
**              hashes; a mismatch names the first divergent tick and the fields that differ
**   recorder   writes a replay of a session: consumed input edges and motion commands per tick,
**              periodic hash checkpoints, the final hash, clamped time, hot reloads with their
**              sources, and the setup a player needs to rebuild the starting state
**   player     re-simulates a replay tick by tick, directly or through the host loop (fg_loop)
**              at a display rate with jittered frames, and checks every command and checkpoint
**
** Nothing here allocates per tick: the sync test's snapshot ring and input log, the recorder's
** chunk buffer and the player's record queue are allocated when they are created. See
** docs/determinism.md.
*/
#ifndef FRAMEGATE_DETERMINISM_H
#define FRAMEGATE_DETERMINISM_H

#include "framegate/base.h"
#include "framegate/replay.h"
#include "framegate/world.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The host's tick: runs exactly one fg_world_advance with whatever the host wraps around it (a
** Lua host runs its request rule inside and its presentation hooks after). `again` is true when
** the tick is re-simulated (a sync test's rollback): presentation must not fire twice for the
** same committed event, and a recorder must not record it again. NULL means fg_world_advance. */
typedef fg_status (*fg_advance_fn)(void *ud, fg_world *w, bool again, fg_error *err);

/* {====================================================================== diff */

typedef struct fg_state_diff {
    char path[64]; /* "e1.layers[0].elapsed", "e2.res.meter", "e1.buffer.edges[3].flags" */
    char a[64];    /* the value in the first snapshot, as text */
    char b[64];    /* ... in the second */
    bool hashed;   /* part of the state hash (false: pending input, push-side counters, the
                      last request decision) */
} fg_state_diff;

/* Compares two snapshots of this world (fg_world_save buffers, 8-byte aligned) field by field, in
** a fixed order: the world (tick, RNG, ruleset versions), then each entity's record, input
** buffer, dispatch ledger and matcher state. Writes the first `max` differences to out and the
** total to *count. The matcher state is opaque: it is reported as one field with its hash.
** Errors (FG_EINVAL / FG_EFORMAT / FG_EMISMATCH, nothing written): a buffer that is not a
** snapshot of this world's layout, or is misaligned. */
FG_API fg_status fg_world_diff(const fg_world *w, const void *a, size_t asize, const void *b,
                               size_t bsize, fg_state_diff *out, uint32_t max, uint32_t *count,
                               fg_error *err);
/* "e1.layers[0].elapsed: 7 vs 8", with " (not in the hash)" after a field the hash leaves
** out. Returns what snprintf returns. */
FG_API int fg_state_diff_format(const fg_state_diff *d, char *buf, size_t size);

/* }====================================================================== */

/* {====================================================================== sync test */

#define FG_SYNCTEST_MAX_CHECK 8
#define FG_SYNCTEST_MAX_DIFFS 32

typedef struct fg_synctest_config {
    uint32_t check;       /* ticks rolled back and re-simulated every tick, 1..8; default 2 */
    fg_advance_fn advance; /* the host's tick; NULL: fg_world_advance */
    void *ud;
    fg_allocator allocator; /* default: malloc/free */
} fg_synctest_config;

/* What a failed check found. */
typedef struct fg_synctest_report {
    fg_tick tick;          /* the first tick whose re-simulation differs */
    fg_tick checked_at;    /* the tick being run when the check failed */
    uint32_t distance;     /* ticks rolled back */
    uint64_t expected;     /* the hash after `tick` when it first ran */
    uint64_t got;          /* the hash after re-simulating it */
    uint32_t ndiffs;       /* differing fields (the first FG_SYNCTEST_MAX_DIFFS are listed) */
    fg_state_diff diffs[FG_SYNCTEST_MAX_DIFFS];
} fg_synctest_report;

typedef struct fg_synctest_stats {
    fg_tick ticks;          /* ticks run */
    uint64_t rollbacks;     /* restores */
    uint64_t resimulated;   /* ticks re-simulated */
    uint64_t compared;      /* hash comparisons */
    uint64_t resets;        /* windows restarted after a host edit (restore, spawn, ...) */
} fg_synctest_stats;

typedef struct fg_synctest fg_synctest;

FG_API fg_synctest_config fg_synctest_config_default(void);
/* Starts a sync test on a world: the state now is the first tick boundary. The world keeps its
** own life; the host pushes input as usual and calls fg_synctest_advance instead of advancing. */
FG_API fg_status fg_synctest_create(fg_world *w, const fg_synctest_config *cfg, fg_synctest **out,
                                    fg_error *err);
/* Frees the sync test; the world may already be gone. */
FG_API void fg_synctest_destroy(fg_synctest *st);

/* Runs one tick as a rollback session would check it, like GGRS's SyncTestSession: captures the
** input the host pushed since the last tick (edges, requests, contact reports, animation
** reports), advances, then restores the state of `check` ticks ago, re-pushes each tick's input
** and re-simulates up to now, comparing each tick's hash with the first run's. On a mismatch it
** returns FG_EMISMATCH with "sync test: tick 41 re-simulated differently (rolled back 2 ticks):
** e1.layers[0].action: jab vs idle, ...", fills the report, and leaves the world as the first
** run left it. A host edit between ticks (restore, spawn, position, facing, resource) starts a
** new window: the ticks before it are not rolled back into. Allocates nothing. */
FG_API fg_status fg_synctest_advance(fg_synctest *st, fg_error *err);
/* The last failed check (tick -1 when every check passed). */
FG_API const fg_synctest_report *fg_synctest_last_report(const fg_synctest *st);
FG_API fg_synctest_stats fg_synctest_get_stats(const fg_synctest *st);
/* Writes the report as text: a summary line, then one line per differing field. */
FG_API int fg_synctest_report_format(const fg_synctest_report *r, char *buf, size_t size);

/* }====================================================================== */

/* {====================================================================== random input */

/* Seeded random input for every entity of a world, tick by tick, as a player mashing and rolling
** motions would push it: direction changes, motion shapes (236, 623, 214, 66, 2 + a button),
** button taps and holds, and now and then an edge that arrives after its tick ran. The same seed
** gives the same edges. The state is plain data the caller owns. */
#define FG_FUZZ_PLAN 24
#define FG_FUZZ_ENTITIES 8

typedef struct fg_input_fuzz_step {
    fg_tick tick;
    uint8_t kind;  /* fg_edge_kind */
    uint8_t value; /* button id, or absolute numpad */
} fg_input_fuzz_step;

typedef struct fg_input_fuzz {
    fg_rng rng;
    /* How busy the player is, in percent: 100 (the default) is frantic mashing, about 30 edges a
    ** second per entity at 60 Hz; 25 is about 8 a second, a typical match. */
    uint32_t activity;
    struct {
        uint32_t nplan;
        fg_input_fuzz_step plan[FG_FUZZ_PLAN];
        uint32_t held; /* buttons held (as pushed) */
        uint8_t dir;   /* absolute numpad (as pushed) */
        int64_t last_us;
    } e[FG_FUZZ_ENTITIES];
} fg_input_fuzz;

FG_API void fg_input_fuzz_init(fg_input_fuzz *f, uint64_t seed);
/* Pushes the random input of the world's next tick for its first FG_FUZZ_ENTITIES entities. */
FG_API fg_status fg_input_fuzz_tick(fg_input_fuzz *f, fg_world *w, fg_error *err);

/* }====================================================================== */

/* {====================================================================== recording */

/* Where a rules slot's ruleset came from: the path a player loads it from, and the files it was
** read from (embedded in the replay, so a player can run the recorded rules beside the loaded
** ones and name the fields that differ). */
typedef struct fg_record_rules {
    uint32_t slot;
    const char *path;            /* may be NULL */
    const fg_replay_file *files; /* may be NULL */
    uint32_t nfiles;
} fg_record_rules;

typedef struct fg_record_options {
    const fg_allocator *alloc; /* NULL: the default allocator */
    uint32_t chunk_size;       /* replay chunk payload bytes; 0: FG_REPLAY_CHUNK_DEFAULT */
    uint32_t checkpoint_every; /* ticks between hash checkpoints; 0: 60 */
    const fg_record_rules *rules;
    uint32_t nrules;
    const fg_replay_meta *meta; /* extra metadata; keys must not start with "fg." */
    uint32_t nmeta;
} fg_record_options;

typedef struct fg_recorder fg_recorder;

/* Starts recording a world that has run no tick since its entities were spawned (positions,
** facing and resources may have been set): the header records the tick rate, seed, ruleset
** hashes, the setup (spawns, resources, buffer capacity) and the starting state hash. The
** recorder checks that a fresh world built from that setup has the same hash, and refuses
** otherwise ("recording: the state at tick 0 cannot be rebuilt from its setup: ..."). */
FG_API fg_status fg_recorder_create_sink(fg_world *w, fg_replay_sink_fn sink, void *ud,
                                         const fg_record_options *opt, fg_recorder **out,
                                         fg_error *err);
/* The same, writing the file at path (created or truncated; only once the checks passed). */
FG_API fg_status fg_recorder_create_file(fg_world *w, const char *path,
                                         const fg_record_options *opt, fg_recorder **out,
                                         fg_error *err);

/* Call after each fg_world_advance: writes the edges the tick consumed and the motion commands it
** produced, and a checkpoint every checkpoint_every ticks. Refuses, naming the tick, what a
** replay of input edges cannot carry: an edit between ticks (restore, spawn, position, facing,
** resource), a request, contact report or animation report, a reload not announced with
** fg_world_record_reload, more edges in one tick than the buffer keeps. Allocates nothing. */
FG_API fg_status fg_recorder_tick(fg_recorder *r, fg_error *err);
/* A hot reload: call between ticks, after fg_world_replace_rules(w, slot, ...) succeeded. The
** record carries the tick the new rules take over, the old and new ruleset hashes and the files
** of the new ruleset. */
FG_API fg_status fg_world_record_reload(fg_recorder *r, uint32_t slot, const fg_replay_file *files,
                                        uint32_t nfiles, fg_error *err);
/* Time the host loop clamped off since the last call (fg_loop.clamped_us grew by it). */
FG_API fg_status fg_recorder_clamp(fg_recorder *r, int64_t clamped_us, fg_error *err);
/* Writes the final hash (of the world now) and the end marker. */
FG_API fg_status fg_recorder_finish(fg_recorder *r, fg_error *err);
/* Frees the recorder (a file it created is closed; an unfinished recording is cut short).
** Destroy it before its world. */
FG_API void fg_recorder_destroy(fg_recorder *r);
/* Ticks recorded so far. */
FG_API fg_tick fg_recorder_ticks(const fg_recorder *r);
/* Whether the world changed since the last tick in a way input records cannot carry (edits,
** requests, contact or animation reports): the next fg_recorder_tick will refuse. *what names it. */
FG_API bool fg_recorder_edited(const fg_recorder *r, const char **what);
/* A rules slot reloaded since the last tick without fg_world_record_reload, or -1. */
FG_API int fg_recorder_unrecorded_reload(const fg_recorder *r);

/* }====================================================================== */

/* {====================================================================== playback */

/* Fills the parts of a world configuration a replay fixes: tick rate, seed, entity capacity,
** buffer capacity, the jump gate. The caller adds the rules (and hooks) and creates the world. */
FG_API fg_status fg_replay_world_config(const fg_replay_reader *r, fg_world_config *cfg,
                                        fg_error *err);
/* Spawns the replay's entities with their positions, facing and resources into a fresh world
** (no entity, tick 0) and checks the starting state hash: "replay.fgr: the starting state
** differs from the recording's (hash ... vs ...)". */
FG_API fg_status fg_replay_setup(fg_world *w, const fg_replay_reader *r, fg_error *err);
/* The path recorded for a rules slot, and its embedded files (NULL / 0 when absent). Strings
** belong to the reader. */
FG_API const char *fg_replay_rules_path(const fg_replay_reader *r, uint32_t slot);
FG_API uint32_t fg_replay_rules_files(const fg_replay_reader *r, uint32_t slot,
                                      fg_replay_file *out, uint32_t max);

/* What the player does with a reload record: compile the embedded source and call
** fg_world_replace_rules(w, slot, ...). NULL: a replay with a reload fails with a clear error. */
typedef fg_status (*fg_reload_fn)(void *ud, fg_world *w, uint32_t slot,
                                  const fg_replay_reload *rec, fg_error *err);

typedef struct fg_player_options {
    fg_advance_fn advance; /* the host's tick; NULL: fg_world_advance */
    fg_reload_fn reload;
    void *ud;
    const fg_allocator *alloc;
    /* 0: tick by tick, each tick's input pushed right before it. Otherwise a host loop (fg_loop)
    ** at this display rate: frames of 1/fps s, each jittered by up to +-jitter_pct percent
    ** (seeded by jitter_seed) with an occasional long frame the loop clamps; input is pushed as
    ** soon as a frame's time passes its timestamp. Either way the hashes must be the same. */
    uint32_t fps;
    uint32_t jitter_pct;
    uint64_t jitter_seed;
    /* Feed the recorded input and nothing else: commands, checkpoints and the final hash are read
    ** past unverified and reloads are skipped, so the world may run other rules than the
    ** recorded ones (a what-if: the recorded inputs against edited rules). */
    bool inputs_only;
} fg_player_options;

typedef struct fg_player_status {
    fg_tick tick;            /* the next tick to run */
    fg_tick last_tick;       /* the replay's last tick (its final record), or -1 */
    uint64_t checkpoints;    /* checkpoints verified */
    uint64_t commands;       /* commands verified */
    uint64_t inputs;         /* edges pushed */
    uint64_t reloads;        /* reloads applied */
    uint64_t frames;         /* host frames (with fps) */
    int64_t clamped_us;      /* clamped time recorded in the replay */
    int64_t loop_clamped_us; /* time the player's own loop clamped (with fps) */
    bool done;               /* the final hash was verified (or a partial replay ended) */
    bool diverged;
    fg_tick divergent_tick;  /* the tick whose check failed */
    fg_tick last_good_tick;  /* the last tick verified equal (-1: none) */
    uint64_t expected, got;  /* the hashes that differ (checkpoint / final) */
} fg_player_status;

typedef struct fg_player fg_player;

/* Plays a replay into a world set up with fg_replay_setup. The reader must stay open. */
FG_API fg_status fg_player_create(fg_world *w, fg_replay_reader *r, const fg_player_options *opt,
                                  fg_player **out, fg_error *err);
/* Runs the next tick: pushes its input, applies its reloads, advances (through the host loop with
** fps), then checks its commands and checkpoint. FG_EMISMATCH names the tick and what differs:
** "replay.fgr: tick 60: state hash 0x... differs from the recorded checkpoint 0x..." or "tick 41:
** e1's new commands differ: recorded hadouken, re-simulated none". FG_ESTATE once done. */
FG_API fg_status fg_player_step(fg_player *p, fg_error *err);
/* Runs to the end. */
FG_API fg_status fg_player_run(fg_player *p, fg_error *err);
FG_API const fg_player_status *fg_player_get_status(const fg_player *p);
FG_API void fg_player_destroy(fg_player *p);

/* }====================================================================== */

#ifdef __cplusplus
}
#endif
#endif
