/* SPDX-License-Identifier: MIT */
/*
** fg_session_match.h: a netplay match of the sample duel in one process, for the C suites that
** link the bindings: a scripted match (seeded random input taken as records), nodes whose host
** tick records each confirmed tick's hash and cues, the in-memory link between them, frames of
** every running node, and the comparison with the same records played locally in one world.
*/
#ifndef FG_SESSION_MATCH_H
#define FG_SESSION_MATCH_H

#include "fg_test.h"
#include "fg_sample_world.h"

#include <stdlib.h>
#include <string.h>

#define TICKS 3600
#define FRAME_US 16667

typedef struct script {
    fg_input_record rec[2][TICKS];
} script;

/* A scripted match: seeded random input (motions, taps, holds, late edges) played into a scratch
** world, and each tick's records taken from what its buffers consumed. The first ticks are idle:
** a session's first input_delay ticks have no input. */
static inline script *make_script(uint64_t seed) {
    script *sc = calloc(1, sizeof *sc);
    fg_sample s = fg_sample_open(seed);
    assert_non_null(s.w);
    fg_input_fuzz fz;
    fg_input_fuzz_init(&fz, seed);
    fz.activity = 50;
    fg_error err;
    for (int t = 0; t < TICKS; t++) {
        if (t >= 16) assert_int_equal(fg_input_fuzz_tick(&fz, s.w, &err), FG_OK);
        assert_int_equal(fg_sample_step(&s, &err), FG_OK);
        for (uint32_t p = 0; p < 2; p++) {
            const fg_tick_input *ti = fg_world_last_input(s.w, p + 1);
            assert_int_equal(fg_input_record_of_tick(fg_world_buffer(s.w, p + 1), ti,
                                                     t ? &sc->rec[p][t - 1] : NULL,
                                                     &sc->rec[p][t], &err),
                             FG_OK);
        }
    }
    fg_sample_close(&s);
    return sc;
}

typedef struct node {
    fg_sample s;
    uint64_t hashes[TICKS];
    uint32_t cues[TICKS];
    uint64_t speculative_cues, confirmed_ticks;
    fg_tick fed;
    fg_tick plant_at; /* > 0: after confirming this tick and the 59 after it, the host asks for
                         a dash on e1 (the first it may start moves e1 for good) */
    fg_session *session;
    script *used; /* the records each confirmed tick ran with (when not NULL) */
} node;

/* The host's tick: the Lua world's step, then what presentation emitted. */
static inline fg_status node_tick(void *ud, fg_world *w, bool again, fg_error *err) {
    node *n = ud;
    fg_tick t = fg_world_tick(w);
    fg_status st = fg_lua_world_step(n->s.L, 1, again, err);
    if (st != FG_OK) return st;
    uint32_t cues = fg_world_cue_count(w);
    fg_world_cues_clear(w);
    if (again) {
        n->speculative_cues += cues;
        return FG_OK;
    }
    n->confirmed_ticks++;
    /* A host that decides something its peers do not: the planted desync of a spectator. */
    if (n->plant_at > 0 && t >= n->plant_at && t < n->plant_at + 60) {
        int dash = fg_ruleset_find_action(fg_world_rules(w, 1), "dash");
        assert_true(dash >= 0);
        assert_int_equal(fg_world_request(w, 1, (uint32_t)dash, FG_REQ_SCRIPT, err), FG_OK);
    }
    if (n->used && t < TICKS)
        for (uint32_t p = 0; p < 2; p++)
            assert_true(fg_session_record(n->session, p, t, &n->used->rec[p][t]));
    if (t < TICKS) {
        n->hashes[t] = fg_world_hash(w);
        n->cues[t] = cues;
    }
    return FG_OK;
}

static inline void local_run(const script *sc, node *ref) {
    memset(ref, 0, sizeof *ref);
    ref->s = fg_sample_open(7);
    assert_non_null(ref->s.w);
    fg_error err;
    for (int t = 0; t < TICKS; t++) {
        for (uint32_t p = 0; p < 2; p++)
            assert_int_equal(fg_input_record_push(&sc->rec[p][t], ref->s.w, p + 1, t, &err), FG_OK);
        assert_int_equal(node_tick(ref, ref->s.w, false, &err), FG_OK);
    }
    fg_sample_close(&ref->s);
}

typedef struct match {
    fg_link *link;
    uint32_t nnodes;
    node n[3];
    uint64_t frames;
    bool running[3]; /* false: the node's process is gone (its frames stop) */
    uint32_t slow;   /* node 1 misses one frame in `slow` (0: never) */
} match;

/* Two players, and a spectator when nnodes is 3. Node 1 may run other rules (source_b). */
static inline void open_match(match *m, uint32_t nnodes, const fg_link_config *lc,
                              const char *source_b, const fg_session_config *base) {
    memset(m, 0, sizeof *m);
    m->nnodes = nnodes;
    fg_link_config l = *lc;
    l.nodes = nnodes;
    fg_error err;
    assert_int_equal(fg_link_create(&l, &m->link, &err), FG_OK);
    for (uint32_t i = 0; i < nnodes; i++) {
        node *n = &m->n[i];
        n->s = fg_sample_open_with(source_b, 7);
        assert_non_null(n->s.w);
        fg_session_config c = base ? *base : fg_session_config_default();
        c.nplayers = 2;
        c.nspectators = nnodes - 2;
        c.local = i;
        c.transport = fg_link_transport(m->link, i);
        c.advance = node_tick;
        c.ud = n;
        if (fg_session_create(n->s.w, &c, &n->session, &err) != FG_OK) fail_msg("%s", fg_error_message(&err));
        n->fed = -1;
        m->running[i] = true;
    }
}

static inline void close_match(match *m) {
    for (uint32_t i = 0; i < m->nnodes; i++) {
        fg_session_destroy(m->n[i].session);
        fg_sample_close(&m->n[i].s);
    }
    fg_link_destroy(m->link);
}

/* The host's input: each frame gives what the script holds for the ticks from the last one given
** up to the tick the input lands on (several when the input delay grew: their edges merge). */
static inline void feed(node *n, uint32_t player, const script *sc) {
    fg_tick t = fg_session_input_tick(n->session);
    if (t <= n->fed) return;
    for (fg_tick k = n->fed + 1; k <= t; k++) {
        fg_input_record idle;
        const fg_input_record *r = &idle;
        if (k < TICKS) r = &sc->rec[player][k];
        else fg_input_record_start(&idle, &sc->rec[player][TICKS - 1]);
        fg_error err;
        if (fg_session_input_record(n->session, r, &err) != FG_OK) fail_msg("%s", fg_error_message(&err));
    }
    n->fed = t;
}

/* One frame of every running node; returns the first failure (and its node in *who). */
static inline fg_status frame(match *m, const script *sc, fg_error *err, uint32_t *who) {
    int64_t now = (int64_t)m->frames * FRAME_US;
    m->frames++;
    fg_link_set_time(m->link, now);
    fg_status first = FG_OK;
    for (uint32_t i = 0; i < m->nnodes; i++) {
        if (!m->running[i]) continue;
        if (i == 1 && m->slow && m->frames % m->slow == 0) continue;
        if (i < 2) feed(&m->n[i], i, sc);
        fg_error e;
        fg_status st = fg_session_advance(m->n[i].session, now, &e);
        if (st != FG_OK && first == FG_OK) {
            first = st;
            *err = e;
            if (who) *who = i;
        }
    }
    return first;
}

static inline bool done(const match *m) {
    for (uint32_t i = 0; i < m->nnodes; i++)
        if (fg_session_get_stats(m->n[i].session).confirmed < TICKS) return false;
    return true;
}

static inline void run_to_end(match *m, const script *sc) {
    fg_error err;
    while (!done(m)) {
        if (frame(m, sc, &err, NULL) != FG_OK) fail_msg("%s", fg_error_message(&err));
        assert_true(m->frames < TICKS * 3);
    }
}

static inline void check_same(const match *m, const node *ref) {
    for (uint32_t i = 0; i < m->nnodes; i++) {
        const node *n = &m->n[i];
        for (int t = 0; t < TICKS; t++)
            if (n->hashes[t] != ref->hashes[t])
                fail_msg("node %u: hash after tick %d is %016llx, the local run's %016llx", i, t,
                         (unsigned long long)n->hashes[t], (unsigned long long)ref->hashes[t]);
        uint64_t cues = 0, ref_cues = 0;
        for (int t = 0; t < TICKS; t++) {
            assert_int_equal(n->cues[t], ref->cues[t]);
            cues += n->cues[t];
            ref_cues += ref->cues[t];
        }
        assert_int_equal(cues, ref_cues);
        assert_true(ref_cues > 0); /* the match has hits, so cues to count */
        assert_int_equal(n->speculative_cues, 0);
    }
}

static inline fg_link_config link_of(int64_t rtt_ms, uint32_t loss) {
    fg_link_config lc = fg_link_config_default();
    lc.latency_us = rtt_ms * 1000 / 2;
    lc.jitter_us = rtt_ms ? 8000 : 0;
    lc.loss_pct = loss;
    lc.duplicate_pct = loss ? 2 : 0;
    lc.reorder_pct = loss ? 2 : 0;
    lc.seed = (uint64_t)(rtt_ms * 100 + loss);
    return lc;
}

/* The suites' group fixture: one scripted match (seed 11) and its local run, which every test
** compares its nodes with. */
static script *the_script;
static node the_ref;

static inline int match_setup(void **state) {
    (void)state;
    the_script = make_script(11);
    local_run(the_script, &the_ref);
    return 0;
}

static inline int match_teardown(void **state) {
    (void)state;
    free(the_script);
    return 0;
}

#endif
