/* SPDX-License-Identifier: MIT */
/*
** test_synctest.c: the rollback sync test. It passes a deterministic world with every kind of
** input a host pushes (edges early, late and on time, requests, contact reports, animation
** reports) at every check distance; it catches a request rule that keeps a hidden counter, and
** names the first divergent tick and the fields; it never rolls back across a host edit; it
** allocates nothing per tick.
*/
#include "fg_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fg_det_fixture.h"

/* A request rule with hidden state: every third call rejects, whatever the world says. */
typedef struct counter_rule {
    int calls;
    int every; /* 0: never rejects (deterministic) */
} counter_rule;

static bool has_rule(void *ud, const fg_world *w, uint32_t slot) {
    (void)ud;
    (void)w;
    (void)slot;
    return true;
}

static fg_status counting_request(void *ud, fg_world *w, const fg_decision *dflt, fg_verdict *out,
                                  fg_error *err) {
    (void)w;
    (void)dflt;
    (void)err;
    counter_rule *c = ud;
    c->calls++;
    out->kind = c->every && c->calls % c->every == 0 ? FG_VERDICT_REJECT : FG_VERDICT_DEFAULT;
    if (out->kind == FG_VERDICT_REJECT) snprintf(out->text, sizeof out->text, "call %d", c->calls);
    return FG_OK;
}

static fg_world *world_with_rule(fg_ruleset *r, counter_rule *c, uint64_t seed,
                                 const fg_allocator *alloc) {
    fg_world_hooks h = {c, has_rule, counting_request};
    return fg_det_world(r, seed, alloc, h);
}

/* Runs `ticks` ticks of random input under a sync test; returns the status of the first failure
** (FG_OK when every check passed). */
static fg_status run(fg_world *w, uint32_t check, uint64_t seed, int ticks, fg_synctest **keep,
                     fg_error *err) {
    fg_synctest_config c = fg_synctest_config_default();
    c.check = check;
    fg_synctest *st = NULL;
    fg_status s = fg_synctest_create(w, &c, &st, err);
    if (s != FG_OK) return s;
    fg_input_fuzz fz;
    fg_input_fuzz_init(&fz, seed);
    for (int t = 0; t < ticks && s == FG_OK; t++) {
        s = fg_input_fuzz_tick(&fz, w, err);
        if (s == FG_OK) s = fg_synctest_advance(st, err);
    }
    if (keep) *keep = st;
    else fg_synctest_destroy(st);
    return s;
}

/* A deterministic world passes at every distance, and the straight run agrees with it. */
static void synctest_passes_a_deterministic_world_at_every_distance(void **state) {
    (void)state;
    fg_ruleset *r = fg_det_rules(20);
    for (uint32_t check = 1; check <= FG_SYNCTEST_MAX_CHECK; check++) {
        counter_rule rule = {0, 0};
        fg_world *w = world_with_rule(r, &rule, 9, NULL);
        fg_synctest *st = NULL;
        fg_error err;
        fg_status s = run(w, check, 9, 500, &st, &err);
        if (s != FG_OK) fail_msg("check %u: %s", check, fg_error_message(&err));
        fg_synctest_stats stats = fg_synctest_get_stats(st);
        assert_int_equal(stats.ticks, 500);
        /* Every tick rolls back min(check, ticks so far) ticks and compares each one again. */
        uint64_t want = 0;
        for (uint32_t t = 1; t <= 500; t++) want += t < check ? t : check;
        assert_int_equal(stats.resimulated, want);
        assert_int_equal(stats.compared, 500 + want);
        assert_int_equal(fg_synctest_last_report(st)->tick, -1);
        /* The same input straight through gives the same state. */
        counter_rule rule2 = {0, 0};
        fg_world *straight = world_with_rule(r, &rule2, 9, NULL);
        fg_input_fuzz fz;
        fg_input_fuzz_init(&fz, 9);
        for (int t = 0; t < 500; t++) {
            fg_input_fuzz_tick(&fz, straight, NULL);
            fg_world_advance(straight, NULL);
        }
        assert_int_equal(fg_world_hash(straight), fg_world_hash(w));
        fg_synctest_destroy(st);
        fg_world_destroy(w);
        fg_world_destroy(straight);
    }
    fg_ruleset_unref(r);
}

/* The planted counter: the re-simulated tick asks the rule again and gets another answer. The
** report names the first divergent tick and the fields, and the world is left as it first ran. */
static void synctest_catches_a_rule_with_hidden_state(void **state) {
    (void)state;
    fg_ruleset *r = fg_det_rules(20);
    counter_rule rule = {0, 3};
    fg_world *w = world_with_rule(r, &rule, 9, NULL);
    fg_synctest *st = NULL;
    fg_error err;
    fg_status s = run(w, 2, 9, 2000, &st, &err);
    assert_int_equal(s, FG_EMISMATCH);
    const fg_synctest_report *rep = fg_synctest_last_report(st);
    assert_true(rep->tick >= 0);
    assert_true(rep->tick <= rep->checked_at && rep->checked_at - rep->tick < 2);
    assert_int_not_equal(rep->expected, rep->got);
    assert_true(rep->ndiffs > 0);
    bool decision = false;
    for (uint32_t i = 0; i < rep->ndiffs && i < FG_SYNCTEST_MAX_DIFFS; i++)
        decision |= strstr(rep->diffs[i].path, ".last_decision.") != NULL;
    assert_true(decision);
    char tick[32];
    snprintf(tick, sizeof tick, "sync test: tick %lld ", (long long)rep->tick);
    assert_non_null(strstr(fg_error_message(&err), tick));
    assert_non_null(strstr(fg_error_message(&err), "re-simulated differently"));
    char text[4096];
    fg_synctest_report_format(rep, text, sizeof text);
    assert_non_null(strstr(text, rep->diffs[0].path));
    /* After the failed check the world is the first run's state at the tick it reached. */
    assert_int_equal(fg_world_tick(w), rep->checked_at + 1);
    fg_synctest_destroy(st);
    fg_world_destroy(w);
    fg_ruleset_unref(r);
}

/* Every input path a host uses is put back exactly once: edges pushed ahead of their tick and
** late ones, requests, contact reports and animation reports. */
static void synctest_reinjects_every_kind_of_input_once(void **state) {
    (void)state;
    fg_ruleset *r = fg_det_rules(20);
    counter_rule rule = {0, 0};
    fg_world *w = world_with_rule(r, &rule, 2, NULL);
    fg_synctest_config c = fg_synctest_config_default();
    c.check = 8;
    fg_synctest *st = NULL;
    assert_int_equal(fg_synctest_create(w, &c, &st, NULL), FG_OK);
    int lp = fg_world_action_id(w, "LP"), hp = fg_world_action_id(w, "HP");
    fg_error err;
    /* A script of presses pushed 20 ticks ahead, before the first tick. */
    for (int k = 0; k < 10; k++) {
        assert_int_equal(fg_world_press(w, 2, lp, fg_us_of_tick(20 + 12 * k, 60) + 7,
                                        FG_SOURCE_SCRIPT, &err), FG_OK);
        assert_int_equal(fg_world_release(w, 2, lp, fg_us_of_tick(22 + 12 * k, 60) + 7,
                                          FG_SOURCE_SCRIPT, &err), FG_OK);
    }
    for (int t = 0; t < 200; t++) {
        int64_t now = fg_us_of_tick(t, 60);
        if (t % 15 == 3) /* late: stamped in the tick before, which already ran */
            assert_int_equal(fg_world_press(w, 1, hp, now - 100, FG_SOURCE_DEVICE, &err), FG_OK);
        if (t % 15 == 5)
            assert_int_equal(fg_world_release(w, 1, hp, now + 10, FG_SOURCE_DEVICE, &err), FG_OK);
        if (t % 40 == 10) assert_int_equal(fg_world_request(w, 1, 3, FG_REQ_AI, &err), FG_OK);
        if (t % 50 == 25) fg_world_report_contact(w, 1, t % 100 != 25, &err);
        if (t % 30 == 12) {
            const fg_instance *in = fg_world_instance(w, 1, 0);
            fg_world_report_event(w, 1, 0, in->seq, "hit", 0, &err);
        }
        if (fg_synctest_advance(st, &err) != FG_OK) fail_msg("tick %d: %s", t, fg_error_message(&err));
    }
    /* Nothing was pushed twice: e2 consumed each scripted press once. */
    const fg_buffer *b = fg_world_buffer(w, 2);
    uint32_t presses = 0;
    for (uint32_t i = 0; i < fg_buffer_count(b); i++)
        presses += fg_buffer_at(b, i)->kind == FG_EDGE_PRESS;
    assert_int_equal(presses, 10);
    fg_synctest_destroy(st);
    fg_world_destroy(w);
    fg_ruleset_unref(r);
}

/* A restore or a direct edit between ticks is the host's decision, not input: the sync test
** starts a new window there instead of rolling back across it. */
static void synctest_restarts_its_window_after_a_host_edit(void **state) {
    (void)state;
    fg_ruleset *r = fg_det_rules(20);
    counter_rule rule = {0, 0};
    fg_world *w = world_with_rule(r, &rule, 2, NULL);
    fg_synctest_config c = fg_synctest_config_default();
    c.check = 4;
    fg_synctest *st = NULL;
    assert_int_equal(fg_synctest_create(w, &c, &st, NULL), FG_OK);
    size_t size = fg_world_snapshot_size(w);
    void *snap = malloc(size);
    fg_world_save(w, snap, size, NULL);
    fg_input_fuzz fz;
    fg_input_fuzz_init(&fz, 5);
    fg_error err;
    for (int t = 0; t < 120; t++) {
        if (t == 40) fg_world_set_position(w, 2, FG_FX(100), 0, NULL);
        if (t == 60) fg_world_set_resource(w, 1, 1, 50, NULL);
        if (t == 80) {
            fg_world_restore(w, snap, size, NULL);
            fg_input_fuzz_init(&fz, 6);
        }
        fg_input_fuzz_tick(&fz, w, NULL);
        if (fg_synctest_advance(st, &err) != FG_OK) fail_msg("tick %d: %s", t, fg_error_message(&err));
    }
    assert_int_equal(fg_synctest_get_stats(st).resets, 3);
    free(snap);
    fg_synctest_destroy(st);
    fg_world_destroy(w);
    fg_ruleset_unref(r);
}

static void synctest_refuses_a_distance_out_of_range(void **state) {
    (void)state;
    fg_ruleset *r = fg_det_rules(20);
    counter_rule rule = {0, 0};
    fg_world *w = world_with_rule(r, &rule, 2, NULL);
    fg_synctest_config c = fg_synctest_config_default();
    fg_synctest *st = (fg_synctest *)&c;
    fg_error err;
    c.check = 0;
    assert_int_equal(fg_synctest_create(w, &c, &st, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "sync test: check distance 0, expected 1..8 ticks");
    assert_null(st);
    c.check = 9;
    assert_int_equal(fg_synctest_create(w, &c, &st, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "sync test: check distance 9, expected 1..8 ticks");
    fg_world_destroy(w);
    fg_ruleset_unref(r);
}

static void synctest_advance_does_not_allocate(void **state) {
    (void)state;
    fg_counting_allocator counter;
    fg_allocator alloc = fg_test_counting_allocator(&counter);
    fg_ruleset *r = fg_det_rules(20);
    counter_rule rule = {0, 0};
    fg_world *w = world_with_rule(r, &rule, 3, &alloc);
    fg_synctest_config c = fg_synctest_config_default();
    c.check = 8;
    c.allocator = alloc;
    fg_synctest *st = NULL;
    assert_int_equal(fg_synctest_create(w, &c, &st, NULL), FG_OK);
    fg_input_fuzz fz;
    fg_input_fuzz_init(&fz, 3);
    size_t warm = counter.allocations;
    for (int t = 0; t < 300; t++) {
        fg_input_fuzz_tick(&fz, w, NULL);
        assert_int_equal(fg_synctest_advance(st, NULL), FG_OK);
    }
    assert_int_equal(counter.allocations, warm);
    fg_synctest_destroy(st);
    fg_world_destroy(w);
    fg_ruleset_unref(r);
    assert_int_equal(counter.live_bytes, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(synctest_passes_a_deterministic_world_at_every_distance),
        cmocka_unit_test(synctest_catches_a_rule_with_hidden_state),
        cmocka_unit_test(synctest_reinjects_every_kind_of_input_once),
        cmocka_unit_test(synctest_restarts_its_window_after_a_host_edit),
        cmocka_unit_test(synctest_refuses_a_distance_out_of_range),
        cmocka_unit_test(synctest_advance_does_not_allocate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
