/* SPDX-License-Identifier: MIT */
/* test_world_flags.c: a ruleset in flags mode from C (fg_ruleset_set_command_mode): the world
** requests every true command best first and stops at the first that starts an action, traces
** the commands that were true on each tick, and allocates nothing per tick. */
#include "fg_test.h"
#include "rules_fixture.h"

#include <string.h>

/* The test fighter plus MUGEN-style commands: dash `F, F` (the fixture's dash), a knee
** `F, F, LP` ranked above the jab. */
static fg_ruleset *flags_fighter(fg_motion_mode mode, const fg_allocator *alloc) {
    fg_ruleset_builder *b = fgt_fighter_builder(alloc);
    fg_ruleset_set_command_mode(b, mode);
    fg_motion_def d;
    memset(&d, 0, sizeof d);
    d.name = "dash";
    d.notation = "F, F";
    d.time = 10;
    assert_int_equal(fg_ruleset_add_motion(b, &d, NULL), FG_OK);
    d.name = "knee";
    d.notation = "F, F, LP";
    d.time = 40; /* long enough to press LP once the dash is over */
    d.has_priority = true;
    d.priority = 20;
    assert_int_equal(fg_ruleset_add_motion(b, &d, NULL), FG_OK);
    fg_action_def a = fgt_action("knee", 3, 2, 10);
    fgt_add(b, &a);
    return fgt_build(b);
}

static void press(fgt_duel *d, const char *button, fg_tick t, bool down) {
    int id = fg_world_action_id(d->w, button);
    int64_t us = fg_us_of_tick(t, 60);
    fg_status s = down ? fg_world_press(d->w, d->p1, id, us, 0, NULL)
                       : fg_world_release(d->w, d->p1, id, us, 0, NULL);
    assert_int_equal(s, FG_OK);
}

/* Runs F, F (a dash: 18 ticks) then LP once it is over; returns p1's body action after it. */
static const char *dash_then_lp(fgt_duel *d) {
    fgt_hold(d, d->p1, 6);
    fgt_run(d, 2);
    fgt_hold(d, d->p1, 5);
    fgt_run(d, 2);
    fgt_hold(d, d->p1, 6);
    fgt_run(d, 22);
    press(d, "LP", fg_world_tick(d->w) + 1, true);
    fgt_run(d, 2);
    return fgt_name(d->r, fg_world_instance(d->w, d->p1, 0)->action);
}

/* Rule: in flags mode the dash leaves the F presses to the knee, and the knee (priority 20) is
** requested before the jab on the tick both are true; in consume mode LP is only the jab. */
static void flags_world_requests_the_knee_after_the_dash(void **state) {
    (void)state;
    fgt_duel f = fgt_duel_new(flags_fighter(FG_MOTION_MODE_FLAGS, NULL), 300, NULL, NULL);
    assert_string_equal(dash_then_lp(&f), "knee");
    fgt_duel_free(&f);
    fgt_duel c = fgt_duel_new(flags_fighter(FG_MOTION_MODE_CONSUME, NULL), 300, NULL, NULL);
    assert_string_equal(dash_then_lp(&c), "jab");
    fgt_duel_free(&c);
}

/* Rule: the trace holds one FG_TRACE_TRUE record per command true on a tick, best first, with
** the action it requests; the knee's tick lists the knee, then the jab. */
static void trace_lists_the_true_commands(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(flags_fighter(FG_MOTION_MODE_FLAGS, NULL), 300, NULL, NULL);
    dash_then_lp(&d);
    const fg_motion_set *set = fg_ruleset_motions(d.r);
    char seen[4][32];
    int n = 0;
    fg_tick knee_tick = -1;
    for (uint32_t i = 0; i < fg_world_trace_count(d.w); i++) {
        const fg_trace_record *r = fg_world_trace_at(d.w, i);
        if (r->kind != FG_TRACE_TRUE || r->entity != d.p1) continue;
        const char *name = fg_motion_name(set, (uint32_t)r->a);
        if (strcmp(name, "knee") == 0) knee_tick = r->tick;
        if (r->tick == knee_tick && n < 4) snprintf(seen[n++], sizeof seen[0], "%s", name);
    }
    assert_true(knee_tick > 0);
    assert_int_equal(n, 2);
    assert_string_equal(seen[0], "knee");
    assert_string_equal(seen[1], "jab");
    char line[256];
    for (uint32_t i = 0; i < fg_world_trace_count(d.w); i++) {
        const fg_trace_record *r = fg_world_trace_at(d.w, i);
        if (r->kind == FG_TRACE_TRUE && r->tick == knee_tick) {
            fg_world_trace_format(d.w, r, line, sizeof line);
            break;
        }
    }
    char want[64];
    snprintf(want, sizeof want, "t=%lld e1 true: knee -> knee", (long long)knee_tick);
    assert_string_equal(line, want);
    fgt_duel_free(&d);
}

/* Rule: stepping a flags-mode world allocates nothing once warm, whatever is pressed. */
static void flags_world_allocates_nothing_per_tick(void **state) {
    (void)state;
    fg_counting_allocator counter;
    fg_allocator a = fg_test_counting_allocator(&counter);
    fgt_duel d = fgt_duel_new(flags_fighter(FG_MOTION_MODE_FLAGS, &a), 300, NULL, &a);
    fgt_run(&d, 10);
    size_t warm = counter.allocations;
    static const int sticks[] = {6, 5, 6, 3, 2, 1, 4, 5};
    for (int t = 0; t < 600; t++) {
        if (t % 3 == 0) fgt_hold(&d, d.p1, sticks[(t / 3) % 8]);
        if (t % 5 == 0) press(&d, "LP", fg_world_tick(d.w) + 1, true);
        if (t % 5 == 2) press(&d, "LP", fg_world_tick(d.w) + 1, false);
        fgt_run(&d, 1);
        (void)fg_world_hash(d.w);
    }
    assert_int_equal(counter.allocations, warm);
    fgt_duel_free(&d);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(flags_world_requests_the_knee_after_the_dash),
        cmocka_unit_test(trace_lists_the_true_commands),
        cmocka_unit_test(flags_world_allocates_nothing_per_tick),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
