/* SPDX-License-Identifier: MIT */
/*
** test_gate_world.c: the commit gate inside a running world. Timeline markers and the host's
** animation reports are candidates; the gate applies the side effects of each stamp once: across
** a cross-fade, after the next action began, and across a rollback.
*/
#include "fg_test.h"

#include <stdlib.h>
#include <string.h>

/* A fighter with an attack whose damage lands on tick 4, and a follow-up attack. */
static fg_ruleset *make_rules(void) {
    fg_ruleset_builder *b = fg_ruleset_builder_create("gatefighter", NULL);
    fg_ruleset_add_button(b, "LP", NULL);
    fg_resource_def health = {"health", 1000, 1000, 0, 1};
    fg_ruleset_add_resource(b, &health, NULL);
    fg_action_def idle = fg_action_def_default("idle");
    idle.neutral = true;
    idle.loop = true;
    fg_ruleset_add_action(b, &idle, NULL);
    const char *names[2] = {"attack_a", "attack_b"};
    for (int i = 0; i < 2; i++) {
        fg_action_def a = fg_action_def_default(names[i]);
        a.startup = 4;
        a.active = 2;
        a.recovery = 10;
        a.nmarkers = 1;
        a.markers[0].tick = 4;
        snprintf(a.markers[0].name, sizeof a.markers[0].name, "damage");
        a.hit.enabled = true;
        a.hit.range = FG_FX(100);
        a.hit.damage = 50;
        a.hit.hitstop = 0;
        a.hit.hitstun = 10;
        a.hit.blockstun = 5;
        fg_ruleset_add_action(b, &a, NULL);
    }
    const char *stuns[2] = {"hitstun", "blockstun"};
    for (int i = 0; i < 2; i++) {
        fg_action_def s = fg_action_def_default(stuns[i]);
        s.interrupts = true;
        fg_ruleset_add_action(b, &s, NULL);
    }
    fg_error err;
    fg_ruleset *r = fg_ruleset_build(b, NULL, &err);
    if (!r) fail_msg("rules: %s", fg_error_message(&err));
    fg_ruleset_builder_destroy(b);
    return r;
}

typedef struct duel {
    fg_ruleset *rules;
    fg_world *w;
    fg_entity p1, p2;
    int health;
} duel;

static duel make_duel(void) {
    duel d;
    d.rules = make_rules();
    fg_world_config c = fg_world_config_default();
    c.rules = d.rules;
    d.w = fg_world_create(&c, NULL);
    assert_non_null(d.w);
    fg_spawn s1 = {0}, s2 = {0};
    s1.x = FG_FX(-30);
    s2.x = FG_FX(30);
    s2.facing = FG_FACING_LEFT;
    assert_int_equal(fg_world_spawn(d.w, &s1, &d.p1, NULL), FG_OK);
    assert_int_equal(fg_world_spawn(d.w, &s2, &d.p2, NULL), FG_OK);
    d.health = fg_ruleset_find_resource(d.rules, "health");
    return d;
}

static void free_duel(duel *d) {
    fg_world_destroy(d->w);
    fg_ruleset_unref(d->rules);
}

static int count_events(const fg_world *w, fg_dispatch_result res) {
    int n = 0;
    for (uint32_t i = 0; i < fg_world_trace_count(w); i++) {
        const fg_trace_record *r = fg_world_trace_at(w, i);
        if (r->kind == FG_TRACE_EVENT && r->code == res) n++;
    }
    return n;
}

/* Runs until the attack's damage tick has been decided. */
static int64_t start_attack(duel *d, const char *name) {
    int a = fg_ruleset_find_action(d->rules, name);
    assert_int_equal(fg_world_request(d->w, d->p1, (uint32_t)a, FG_REQ_SCRIPT, NULL), FG_OK);
    assert_int_equal(fg_world_advance(d->w, NULL), FG_OK);
    const fg_instance *inst = fg_world_instance(d->w, d->p1, 0);
    assert_int_equal(inst->action, a);
    return inst->seq;
}

/* A cross-fade: the data timeline reports damage on tick 4, then the animation system reports
** the same marker from both clips (attack-a fading out, attack-b fading in), stamped with the
** action sequence the world gave them. Damage is applied once; the repeats are Duplicate. */
static void crossfade_reports_apply_damage_once(void **state) {
    (void)state;
    duel d = make_duel();
    int64_t seq = start_attack(&d, "attack_a");
    for (int t = 1; t <= 4; t++) fg_world_advance(d.w, NULL);
    assert_int_equal(fg_world_resource(d.w, d.p2, (uint32_t)d.health), 950);
    assert_int_equal(fg_world_report_event(d.w, d.p1, 0, seq, "damage", 0, NULL), FG_OK);
    assert_int_equal(fg_world_report_event(d.w, d.p1, 0, seq, "damage", 0, NULL), FG_OK);
    fg_world_advance(d.w, NULL);
    assert_int_equal(fg_world_resource(d.w, d.p2, (uint32_t)d.health), 950);
    assert_int_equal(count_events(d.w, FG_DISPATCH_ACCEPTED), 1);
    assert_int_equal(count_events(d.w, FG_DISPATCH_DUPLICATE), 2);
    assert_int_equal(fg_world_event_count(d.w), 0); /* nothing new reached presentation */
    free_duel(&d);
}

/* Animation-driven damage: with the report arriving before the timeline's tick, the report is
** the one Accepted and the timeline's own candidate is the Duplicate. Either way, once. */
static void first_report_wins_whoever_sends_it(void **state) {
    (void)state;
    duel d = make_duel();
    int64_t seq = start_attack(&d, "attack_a");
    fg_world_advance(d.w, NULL);
    assert_int_equal(fg_world_report_event(d.w, d.p1, 0, seq, "damage", 0, NULL), FG_OK);
    fg_world_advance(d.w, NULL);
    assert_int_equal(fg_world_resource(d.w, d.p2, (uint32_t)d.health), 950);
    assert_int_equal(fg_world_event_count(d.w), 1);
    assert_true(fg_world_event_at(d.w, 0)->from_host);
    for (int t = 0; t < 3; t++) fg_world_advance(d.w, NULL);
    assert_int_equal(fg_world_resource(d.w, d.p2, (uint32_t)d.health), 950);
    assert_int_equal(count_events(d.w, FG_DISPATCH_ACCEPTED), 1);
    assert_int_equal(count_events(d.w, FG_DISPATCH_DUPLICATE), 1);
    free_duel(&d);
}

/* A late callback: attack_a's clip reports its damage after attack_b began. StaleAction, and
** nothing is applied. */
static void late_callback_after_next_action_is_stale(void **state) {
    (void)state;
    duel d = make_duel();
    int64_t seq_a = start_attack(&d, "attack_a");
    /* attack_a whiffs at range: move p2 away first. */
    fg_world_set_position(d.w, d.p2, FG_FX(300), 0, NULL);
    for (int t = 0; t < 16; t++) fg_world_advance(d.w, NULL);
    int64_t seq_b = start_attack(&d, "attack_b");
    assert_true(seq_b > seq_a);
    fg_world_set_position(d.w, d.p2, FG_FX(30), 0, NULL);
    assert_int_equal(fg_world_report_event(d.w, d.p1, 0, seq_a, "damage", 0, NULL), FG_OK);
    fg_world_advance(d.w, NULL);
    assert_int_equal(fg_world_resource(d.w, d.p2, (uint32_t)d.health), 1000);
    assert_int_equal(count_events(d.w, FG_DISPATCH_STALE_ACTION), 1);
    /* attack_b may use (damage, 0) again: its own damage lands. */
    for (int t = 0; t < 3; t++) fg_world_advance(d.w, NULL);
    assert_int_equal(fg_world_resource(d.w, d.p2, (uint32_t)d.health), 950);
    free_duel(&d);
}

/* Rollback: restore a snapshot taken before a committed event and re-simulate: the event
** commits once in the re-simulated timeline, not twice and not zero times. */
static void rollback_commits_the_event_once(void **state) {
    (void)state;
    duel d = make_duel();
    start_attack(&d, "attack_a");
    size_t size = fg_world_snapshot_size(d.w);
    void *snap = malloc(size);
    assert_int_equal(fg_world_save(d.w, snap, size, NULL), FG_OK);
    uint64_t hashes[8];
    for (int t = 0; t < 8; t++) {
        fg_world_advance(d.w, NULL);
        hashes[t] = fg_world_hash(d.w);
    }
    assert_int_equal(fg_world_resource(d.w, d.p2, (uint32_t)d.health), 950);
    assert_int_equal(fg_world_restore(d.w, snap, size, NULL), FG_OK);
    assert_int_equal(fg_world_resource(d.w, d.p2, (uint32_t)d.health), 1000);
    int committed = 0;
    for (int t = 0; t < 8; t++) {
        fg_world_advance(d.w, NULL);
        committed += (int)fg_world_event_count(d.w);
        assert_int_equal(fg_world_hash(d.w), hashes[t]);
    }
    assert_int_equal(committed, 1);
    assert_int_equal(fg_world_resource(d.w, d.p2, (uint32_t)d.health), 950);
    free(snap);
    free_duel(&d);
}

/* Bad reports are refused with a message and change nothing. */
static void bad_reports_are_refused(void **state) {
    (void)state;
    duel d = make_duel();
    int64_t seq = start_attack(&d, "attack_a");
    uint64_t h = fg_world_hash(d.w);
    fg_error err;
    assert_int_equal(fg_world_report_event(d.w, d.p1, 0, seq, "footstep", 0, &err), FG_ENOTFOUND);
    assert_string_equal(fg_error_message(&err), "report_event: marker 'footstep' is not used by any action of "
                                 "'gatefighter'");
    assert_int_equal(fg_world_report_event(d.w, d.p1, 3, seq, "damage", 0, &err), FG_EINVAL);
    assert_int_equal(fg_world_report_event(d.w, d.p1, 0, 0, "damage", 0, &err), FG_EINVAL);
    assert_int_equal(fg_world_report_event(d.w, 9, 0, seq, "damage", 0, &err), FG_ENOTFOUND);
    assert_int_equal(fg_world_hash(d.w), h);
    /* A report for a sequence that never began is decided, not applied. */
    assert_int_equal(fg_world_report_event(d.w, d.p1, 0, seq + 5, "damage", 0, NULL), FG_OK);
    fg_world_advance(d.w, NULL);
    assert_int_equal(fg_world_resource(d.w, d.p2, (uint32_t)d.health), 1000);
    free_duel(&d);
}

/* Cues queue for the host, bounded, and drain. */
static void cues_queue_and_drain(void **state) {
    (void)state;
    duel d = make_duel();
    fg_error err;
    assert_int_equal(fg_world_push_cue(d.w, d.p1, "hitspark", 1, 2, NULL), FG_OK);
    assert_int_equal(fg_world_cue_count(d.w), 1);
    assert_string_equal(fg_world_cue_at(d.w, 0)->name, "hitspark");
    assert_int_equal(fg_world_push_cue(d.w, d.p1, "", 0, 0, &err), FG_EINVAL);
    for (int i = 1; i < FG_MAX_CUES; i++) fg_world_push_cue(d.w, d.p1, "x", 0, 0, NULL);
    assert_int_equal(fg_world_push_cue(d.w, d.p1, "x", 0, 0, &err), FG_ENOMEM);
    fg_world_cues_clear(d.w);
    assert_int_equal(fg_world_cue_count(d.w), 0);
    free_duel(&d);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(crossfade_reports_apply_damage_once),
        cmocka_unit_test(first_report_wins_whoever_sends_it),
        cmocka_unit_test(late_callback_after_next_action_is_stale),
        cmocka_unit_test(rollback_commits_the_event_once),
        cmocka_unit_test(bad_reports_are_refused),
        cmocka_unit_test(cues_queue_and_drain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
