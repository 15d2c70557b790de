/* SPDX-License-Identifier: MIT */
/*
** test_lua_session.c: two nodes play the sample duel (Lua rules and hooks) through the in-memory
** link, 3,600 ticks of scripted input, at 0, 60 and 150 ms round trip with 0, 2 and 10% loss (and
** jitter, duplication, reordering). Each node's hash after every confirmed tick must equal the
** other's and those of the same records played locally in one world; the cues the presentation
** hooks emit must come out once per confirmed tick, as many as locally, and never from a
** speculative tick. Also: input delay changed mid-match, a cable pulled for two seconds, a peer
** that never answers, a planted desync whose report names the field.
*/
#include "fg_session_match.h"

#include <stdlib.h>
#include <string.h>

static void play(int64_t rtt_ms, uint32_t loss) {
    fg_link_config lc = link_of(rtt_ms, loss);
    match m;
    open_match(&m, 2, &lc, NULL, NULL);
    run_to_end(&m, the_script);
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

/* Input delay changed by both sides mid-match, up and down: no tick gets two records, no edge is
** lost (when the delay grows, the input of the ticks skipped merges into the next record), and
** the match equals a local run of the records the nodes played. */
static void delay_changes_mid_match(void **state) {
    (void)state;
    fg_link_config lc = link_of(60, 2);
    match m;
    open_match(&m, 2, &lc, NULL, NULL);
    script *used[2] = {calloc(1, sizeof(script)), calloc(1, sizeof(script))};
    m.n[0].used = used[0];
    m.n[1].used = used[1];
    fg_error err;
    while (!done(&m)) {
        if (m.frames == 500) assert_int_equal(fg_session_set_delay(m.n[0].session, 6, &err), FG_OK);
        if (m.frames == 700) assert_int_equal(fg_session_set_delay(m.n[1].session, 8, &err), FG_OK);
        if (m.frames == 1000) assert_int_equal(fg_session_set_delay(m.n[0].session, 0, &err), FG_OK);
        if (m.frames == 1500) assert_int_equal(fg_session_set_delay(m.n[0].session, 3, &err), FG_OK);
        if (m.frames == 2000) assert_int_equal(fg_session_set_delay(m.n[1].session, 1, &err), FG_OK);
        if (frame(&m, the_script, &err, NULL) != FG_OK) fail_msg("%s", fg_error_message(&err));
        assert_true(m.frames < TICKS * 3);
    }
    assert_memory_equal(used[0], used[1], sizeof(script));
    /* Every edge of the script is in some record: count presses. */
    uint64_t pressed_script = 0, pressed_played = 0;
    for (uint32_t p = 0; p < 2; p++)
        for (int t = 0; t < TICKS - 20; t++)
            for (uint32_t i = 0; i < FG_INPUT_RECORD_EDGES; i++) {
                pressed_script += i < the_script->rec[p][t].nedges &&
                                  the_script->rec[p][t].edges[i] >> 6 == FG_EDGE_PRESS;
                pressed_played += i < used[0]->rec[p][t].nedges &&
                                  used[0]->rec[p][t].edges[i] >> 6 == FG_EDGE_PRESS;
            }
    assert_true(pressed_played + 40 >= pressed_script && pressed_played <= pressed_script + 40);
    node ref;
    local_run(used[0], &ref);
    check_same(&m, &ref);
    assert_int_equal(fg_session_get_stats(m.n[0].session).input_delay, 3);
    assert_int_equal(fg_session_set_delay(m.n[0].session, 16, &err), FG_EINVAL);
    assert_non_null(strstr(fg_error_message(&err), "expected 0..15"));
    close_match(&m);
    free(used[0]);
    free(used[1]);
}

/* A spectator runs confirmed ticks only, from both players' records. */
static void spectator_sees_the_same_match(void **state) {
    (void)state;
    fg_link_config lc = link_of(60, 2);
    match m;
    open_match(&m, 3, &lc, NULL, NULL);
    run_to_end(&m, the_script);
    check_same(&m, &the_ref);
    fg_session_stats sp = fg_session_get_stats(m.n[2].session);
    assert_int_equal(sp.rollbacks, 0);
    fg_error err;
    assert_int_equal(fg_session_input(m.n[2].session, FG_EDGE_DIR, 6, &err), FG_ESTATE);
    close_match(&m);
}

/* Node 1 misses one frame in 10: node 0 runs ahead, and time sync makes it wait. */
static void the_side_ahead_waits(void **state) {
    (void)state;
    fg_link_config lc = link_of(60, 0);
    match m;
    open_match(&m, 2, &lc, NULL, NULL);
    m.slow = 10;
    run_to_end(&m, the_script);
    check_same(&m, &the_ref);
    fg_session_stats a = fg_session_get_stats(m.n[0].session);
    fg_session_stats b = fg_session_get_stats(m.n[1].session);
    print_message("slow peer: node 0 waited %llu frames, stalled %llu; node 1 waited %llu\n",
                  (unsigned long long)a.waits, (unsigned long long)a.stalls,
                  (unsigned long long)b.waits);
    assert_true(a.waits > 100);
    assert_true(a.waits > 10 * b.waits);
    close_match(&m);
}

/* The cable is pulled for two seconds: both sides see the peer interrupted, stall once the
** prediction window is full, and carry on when it comes back, with the same hashes. */
static void a_cable_pulled_and_plugged_back(void **state) {
    (void)state;
    fg_link_config lc = link_of(60, 2);
    match m;
    open_match(&m, 2, &lc, NULL, NULL);
    fg_error err;
    uint32_t interrupted = 0;
    while (!done(&m)) {
        if (m.frames == 1000) fg_link_set_cut(m.link, 1, true);
        if (m.frames == 1120) fg_link_set_cut(m.link, 1, false);
        if (frame(&m, the_script, &err, NULL) != FG_OK) fail_msg("%s", fg_error_message(&err));
        uint32_t n = fg_session_get_stats(m.n[0].session).interrupted;
        if (n > interrupted) interrupted = n;
        assert_true(m.frames < TICKS * 3);
    }
    check_same(&m, &the_ref);
    assert_int_equal(interrupted, 1);
    assert_true(fg_session_get_stats(m.n[0].session).stalls > 60);
    assert_int_equal(fg_session_get_stats(m.n[0].session).interrupted, 0);
    close_match(&m);
}

/* Node 1's process dies at frame 1000: node 0 reports the disconnect after disconnect_us and
** leaves its world at the last confirmed tick, whose hash is the local run's. */
static void a_peer_killed_mid_match(void **state) {
    (void)state;
    fg_link_config lc = link_of(60, 2);
    match m;
    open_match(&m, 2, &lc, NULL, NULL);
    fg_error err;
    uint32_t who = 9;
    fg_status st = FG_OK;
    while (st == FG_OK) {
        if (m.frames == 1000) m.running[1] = false;
        st = frame(&m, the_script, &err, &who);
        assert_true(m.frames < 2000);
    }
    assert_int_equal(st, FG_ESTATE);
    assert_int_equal(who, 0);
    assert_non_null(strstr(fg_error_message(&err), "player 2 disconnected: nothing received for 5"));
    assert_true(m.frames >= 1000 + 5 * 60 && m.frames <= 1000 + 5 * 60 + 10);
    fg_session *s = m.n[0].session;
    assert_int_equal(fg_session_get_state(s), FG_SESSION_DISCONNECTED);
    assert_int_equal(fg_session_disconnected_peer(s), 1);
    fg_session_stats stats = fg_session_get_stats(s);
    assert_int_equal(fg_world_tick(m.n[0].s.w), stats.confirmed);
    assert_int_equal(fg_world_hash(m.n[0].s.w), the_ref.hashes[stats.confirmed - 1]);
    /* It stays stopped, with the same message. */
    assert_int_equal(fg_session_advance(s, (int64_t)m.frames * FRAME_US, &err), FG_ESTATE);
    assert_non_null(strstr(fg_error_message(&err), "player 2 disconnected"));
    close_match(&m);
}

/* Both nodes run the same planted rule: it counts its calls in an upvalue (state the hash does
** not see) and refuses every request after the 300th call. The two nodes call it a different
** number of times (their input delays differ, so do their predictions, and speculative ticks ask
** the rule too), so one refuses first and their matches part. Both detect
** it at the next checkpoint and report the same first divergent tick, with fields. */
static void a_planted_desync_is_named(void **state) {
    (void)state;
    char *src = fg_sample_source();
    assert_non_null(src);
    const char *from = "  request = function(me, req)\n";
    char *at = strstr(src, from);
    assert_non_null(at);
    const char *plant = "  request = (function() local calls = 0 return function(me, req)\n"
                        "    calls = calls + 1\n"
                        "    if calls > 300 then return fg.reject('planted') end\n";
    const char *end_from = "    return fg.default\n  end,\n";
    char *end_at = strstr(at, end_from);
    assert_non_null(end_at);
    size_t n = strlen(src) + 512;
    char *planted = malloc(n);
    snprintf(planted, n, "%.*s%s%.*s    return fg.default\n  end end)(),\n%s", (int)(at - src),
             src, plant, (int)(end_at - at - strlen(from)), at + strlen(from),
             end_at + strlen(end_from));
    fg_link_config lc = link_of(60, 0);
    fg_session_config base = fg_session_config_default();
    match m;
    open_match(&m, 2, &lc, planted, &base);
    fg_error err;
    assert_int_equal(fg_session_set_delay(m.n[0].session, 0, &err), FG_OK);
    assert_int_equal(fg_session_set_delay(m.n[1].session, 5, &err), FG_OK);
    fg_status st = FG_OK;
    while (st == FG_OK && m.frames < TICKS) st = frame(&m, the_script, &err, NULL);
    assert_int_equal(st, FG_EMISMATCH);
    assert_non_null(strstr(fg_error_message(&err), "desync with player"));
    /* A few more frames: hashes and snapshots cross. */
    for (int i = 0; i < 30; i++) frame(&m, the_script, &err, NULL);
    const fg_session_report *r0 = fg_session_get_report(m.n[0].session);
    const fg_session_report *r1 = fg_session_get_report(m.n[1].session);
    assert_true(r0->tick >= 0);
    assert_int_equal(r0->tick, r1->tick);
    assert_true(r0->detected_at - r0->tick < (fg_tick)base.hash_every);
    assert_true(r0->fields_known && r1->fields_known);
    assert_true(r0->ndiffs > 0);
    assert_int_equal(r0->ndiffs, r1->ndiffs);
    bool hashed = false;
    for (uint32_t i = 0; i < r0->ndiffs && i < FG_SESSION_MAX_DIFFS; i++) {
        hashed |= r0->diffs[i].hashed;
        /* Here vs there on each side: the values cross. */
        assert_string_equal(r0->diffs[i].path, r1->diffs[i].path);
        assert_string_equal(r0->diffs[i].a, r1->diffs[i].b);
    }
    assert_true(hashed);
    char text[8192];
    fg_session_report_format(m.n[0].session, text, sizeof text);
    print_message("%s", text);
    assert_non_null(strstr(text, "first divergent tick"));
    assert_non_null(strstr(text, r0->diffs[0].path));
    /* Before the divergent tick, both agree with each other. */
    for (fg_tick t = 0; t < r0->tick; t++) assert_int_equal(m.n[0].hashes[t], m.n[1].hashes[t]);
    assert_int_equal(fg_session_get_state(m.n[0].session), FG_SESSION_DESYNCED);
    close_match(&m);
    free(planted);
    free(src);
}

/* The spectator's host plants the desync (it asks for dashes the players' hosts never ask for):
** the spectator compares its hashes with the players', stops at the next checkpoint and reports
** the first divergent tick and the fields against player 1, who reports the same against it. */
static void a_spectator_finds_a_desync(void **state) {
    (void)state;
    fg_link_config lc = link_of(60, 2);
    fg_session_config base = fg_session_config_default();
    match m;
    open_match(&m, 3, &lc, NULL, &base);
    const fg_tick plant = 1000;
    m.n[2].plant_at = plant;
    fg_error err;
    uint32_t who = 9;
    fg_status st = FG_OK;
    while (st == FG_OK && m.frames < TICKS * 2) st = frame(&m, the_script, &err, &who);
    assert_int_equal(st, FG_EMISMATCH);
    print_message("first stop: node %u: %s\n", who, fg_error_message(&err));
    for (int i = 0; i < 30; i++) frame(&m, the_script, &err, NULL);
    fg_session *spec = m.n[2].session, *p1 = m.n[0].session;
    assert_int_equal(fg_session_get_state(spec), FG_SESSION_DESYNCED);
    assert_int_equal(fg_session_get_state(p1), FG_SESSION_DESYNCED);
    const fg_session_report *rs = fg_session_get_report(spec), *rp = fg_session_get_report(p1);
    assert_int_equal(rs->peer, 0);
    assert_int_equal(rp->peer, 2);
    /* A dash is decided in the tick after its request; the first divergent tick is in the
    ** planted stretch, and the checkpoint that caught it the next one. */
    assert_true(rs->tick >= plant && rs->tick <= plant + 60);
    assert_int_equal(rp->tick, rs->tick);
    assert_true(rs->detected_at >= rs->tick && rs->detected_at - rs->tick < (fg_tick)base.hash_every);
    assert_true(rs->fields_known && rp->fields_known);
    assert_true(rs->ndiffs > 0);
    bool e1 = false;
    for (uint32_t i = 0; i < rs->ndiffs && i < FG_SESSION_MAX_DIFFS; i++)
        e1 |= strncmp(rs->diffs[i].path, "e1.", 3) == 0 && rs->diffs[i].hashed;
    assert_true(e1);
    char text[8192];
    fg_session_report_format(spec, text, sizeof text);
    print_message("%s", text);
    assert_non_null(strstr(text, "desync with player 1"));
    assert_non_null(strstr(text, "first divergent tick"));
    fg_session_report_format(p1, text, sizeof text);
    assert_non_null(strstr(text, "desync with spectator 1"));
    /* The spectator saw the players' match up to the plant, and in the checkpoint's window up to
    ** the divergent tick (a request refused earlier may have parted them for a few ticks only). */
    for (fg_tick t = 0; t < plant; t++) assert_int_equal(m.n[2].hashes[t], the_ref.hashes[t]);
    for (fg_tick t = rs->detected_at - (fg_tick)base.hash_every + 1; t < rs->tick; t++)
        assert_int_equal(m.n[2].hashes[t], the_ref.hashes[t]);
    assert_true(m.n[2].hashes[rs->tick] != the_ref.hashes[rs->tick]);
    close_match(&m);
}

/* Nodes that load different rules never start: the hello names both match ids. */
static void different_rules_refuse_to_play(void **state) {
    (void)state;
    char *src = fg_sample_source();
    size_t n = strlen(src) + 64;
    char *other = malloc(n);
    snprintf(other, n, "%s", src);
    char *max = strstr(other, "stage_max = 400");
    assert_non_null(max);
    memcpy(max, "stage_max = 401", 15);
    fg_link_config lc = link_of(0, 0);
    match m;
    memset(&m, 0, sizeof m);
    open_match(&m, 2, &lc, NULL, NULL);
    /* Swap node 1 for one running the changed text. */
    fg_session_destroy(m.n[1].session);
    fg_sample_close(&m.n[1].s);
    m.n[1].s = fg_sample_open_with(other, 7);
    fg_session_config c = fg_session_config_default();
    c.local = 1;
    c.transport = fg_link_transport(m.link, 1);
    c.advance = node_tick;
    c.ud = &m.n[1];
    fg_error err;
    assert_int_equal(fg_session_create(m.n[1].s.w, &c, &m.n[1].session, &err), FG_OK);
    fg_status st = FG_OK;
    while (st == FG_OK && m.frames < 10) st = frame(&m, the_script, &err, NULL);
    assert_int_equal(st, FG_EMISMATCH);
    assert_non_null(strstr(fg_error_message(&err), "plays a different match"));
    assert_int_equal(fg_session_get_stats(m.n[0].session).tick, 0);
    close_match(&m);
    free(other);
    free(src);
}

static void bad_configurations(void **state) {
    (void)state;
    fg_sample s = fg_sample_open(7);
    fg_link *l;
    fg_error err;
    assert_int_equal(fg_link_create(NULL, &l, &err), FG_OK);
    fg_session_config c = fg_session_config_default();
    c.transport = fg_link_transport(l, 0);
    fg_session *se;
    c.max_prediction = 0;
    assert_int_equal(fg_session_create(s.w, &c, &se, &err), FG_EINVAL);
    assert_non_null(strstr(fg_error_message(&err), "max prediction 0 ticks, expected 1..16"));
    c.max_prediction = 8;
    c.nplayers = 3;
    assert_int_equal(fg_session_create(s.w, &c, &se, &err), FG_EINVAL);
    assert_non_null(strstr(fg_error_message(&err), "3 players but the world has 2 entities"));
    c.nplayers = 2;
    c.local = 2;
    assert_int_equal(fg_session_create(s.w, &c, &se, &err), FG_EINVAL);
    c.local = 0;
    c.hash_every = 121;
    assert_int_equal(fg_session_create(s.w, &c, &se, &err), FG_EINVAL);
    c.hash_every = 30;
    c.rejoin_us = -1;
    assert_int_equal(fg_session_create(s.w, &c, &se, &err), FG_EINVAL);
    assert_non_null(strstr(fg_error_message(&err), "rejoin wait -1 us, expected 0..600000000"));
    c.rejoin_us = 0;
    assert_int_equal(fg_sample_step(&s, &err), FG_OK);
    assert_int_equal(fg_session_create(s.w, &c, &se, &err), FG_ESTATE);
    assert_non_null(strstr(fg_error_message(&err), "a match starts at tick 0"));
    fg_link_destroy(l);
    fg_sample_close(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rtt0_loss0),    cmocka_unit_test(rtt0_loss2),
        cmocka_unit_test(rtt0_loss10),   cmocka_unit_test(rtt60_loss0),
        cmocka_unit_test(rtt60_loss2),   cmocka_unit_test(rtt60_loss10),
        cmocka_unit_test(rtt150_loss0),  cmocka_unit_test(rtt150_loss2),
        cmocka_unit_test(rtt150_loss10),
        cmocka_unit_test(delay_changes_mid_match),
        cmocka_unit_test(spectator_sees_the_same_match),
        cmocka_unit_test(the_side_ahead_waits),
        cmocka_unit_test(a_cable_pulled_and_plugged_back),
        cmocka_unit_test(a_peer_killed_mid_match),
        cmocka_unit_test(a_planted_desync_is_named),
        cmocka_unit_test(a_spectator_finds_a_desync),
        cmocka_unit_test(different_rules_refuse_to_play),
        cmocka_unit_test(bad_configurations),
    };
    return cmocka_run_group_tests(tests, match_setup, match_teardown);
}
