/* SPDX-License-Identifier: MIT */
/*
** test_hits_defs.c: several hit and throw definitions in one action, through the C builder and
** the real tick: a two-part kick whose parts hit on their own tick ranges, each once, with its
** own damage; a grab with a near and a far throw box, each with its definition; rollback at every
** distance over a multi-part move; and the validator's messages, each naming the field's path
** and value.
*/
#include "fg_test.h"

#include <stdio.h>
#include <string.h>

#include "rules_fixture.h"

static fg_box px_box(int x, int y, int w, int h) {
    return (fg_box){FG_FX(x), FG_FX(y), FG_FX(w), FG_FX(h)};
}

static void add_box(fg_action_def *a, fg_box_kind kind, int from, int to, fg_box b, int def) {
    a->boxes[a->nboxes++] = (fg_box_def){kind, from, to, b, (uint32_t)def};
}

static fg_hit_def strike(int damage, int hitstun) {
    fg_hit_def h;
    memset(&h, 0, sizeof h);
    h.enabled = true;
    h.damage = damage;
    h.hitstun = hitstun;
    h.blockstun = 8;
    return h;
}

/* kick2: a low part on ticks 3-4 (30 damage) and a high part on ticks 8-11 (50 damage), live
** four ticks but landing once. grab2: a near box (120 damage) and a far one (60). */
static fg_ruleset_builder *kicker(void) {
    fg_ruleset_builder *b = fg_ruleset_builder_create("kicker", NULL);
    const char *buttons[] = {"LP", "HP", "LK", "HK"};
    for (int i = 0; i < 4; i++) fg_ruleset_add_button(b, buttons[i], NULL);
    fgt_resource(b, "health", 1000, 1000);
    assert_int_equal(fg_ruleset_add_default_box(b, NULL, FG_BOX_HURT, px_box(-20, 0, 40, 100),
                                                NULL), FG_OK);
    fg_action_def a = fgt_neutral("idle", 0);
    fgt_add(b, &a);
    a = fgt_action("hitstun", 0, 0, 1);
    fgt_add(b, &a);
    a = fgt_action("blockstun", 0, 0, 1);
    fgt_add(b, &a);
    a = fgt_action("thrown", 0, 0, 1);
    fgt_add(b, &a);

    a = fgt_action("kick2", 3, 9, 6);
    add_box(&a, FG_BOX_HIT, 3, 4, px_box(20, 0, 40, 30), 0);
    add_box(&a, FG_BOX_HIT, 8, 11, px_box(20, 60, 40, 30), 1);
    a.hits[0] = strike(30, 30);
    a.hits[1] = strike(50, 30);
    a.hits[1].guard = FG_GUARD_OVERHEAD;
    fgt_add(b, &a);

    a = fgt_action("grab2", 3, 2, 20);
    add_box(&a, FG_BOX_THROW, 3, 4, px_box(0, 0, 50, 100), 0);
    add_box(&a, FG_BOX_THROW, 3, 4, px_box(50, 0, 60, 100), 1);
    for (int i = 0; i < 2; i++) {
        a.throws[i].enabled = true;
        a.throws[i].stun = 10;
        snprintf(a.throws[i].reaction, sizeof a.throws[i].reaction, "thrown");
    }
    a.throws[0].damage = 120;
    a.throws[1].damage = 60;
    fgt_add(b, &a);
    return b;
}

static int health(const fgt_duel *d, fg_entity e) {
    return fg_world_resource(d->w, e, (uint32_t)fg_ruleset_find_resource(d->r, "health"));
}

/* {====================================================================== hits */

static void each_part_of_a_two_part_kick_lands_once_on_its_own_ticks(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(fgt_build(kicker()), 60, NULL, NULL);
    fgt_request(&d, d.p1, "kick2");
    struct { fg_tick tick; int damage, box, combo; } seen[4];
    int n = 0;
    fg_tick start = fg_world_tick(d.w);
    for (int t = 0; t < 24; t++) {
        fgt_run(&d, 1);
        for (uint32_t i = 0; i < fg_world_event_count(d.w); i++) {
            const fg_event *ev = fg_world_event_at(d.w, i);
            if (ev->kind != FG_EVENT_HIT) continue;
            assert_true(n < 4);
            seen[n].tick = ev->tick - start;
            seen[n].damage = ev->damage;
            seen[n].box = ev->hit_box;
            seen[n].combo = ev->combo;
            n++;
        }
    }
    assert_int_equal(n, 2); /* the second box is live four ticks, it lands once */
    assert_int_equal(seen[0].tick, 3);
    assert_int_equal(seen[0].damage, 30);
    assert_int_equal(seen[0].box, 0);
    assert_int_equal(seen[1].tick, 8);
    assert_int_equal(seen[1].damage, 50);
    assert_int_equal(seen[1].box, 1);
    assert_int_equal(seen[1].combo, 2); /* the first part's hitstun still runs */
    assert_int_equal(health(&d, d.p2), 920);
    fgt_duel_free(&d);
}

/* Each part's own guard: against a crouching block the first part (high, the default) is
** blocked, the second (an overhead) hits. */
static void each_part_is_judged_with_its_own_definition(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(fgt_build(kicker()), 60, NULL, NULL);
    fgt_hold(&d, d.p2, 1);
    fgt_request(&d, d.p1, "kick2");
    int contacts[2] = {0, 0};
    for (int t = 0; t < 24; t++) {
        fgt_run(&d, 1);
        for (uint32_t i = 0; i < fg_world_event_count(d.w); i++) {
            const fg_event *ev = fg_world_event_at(d.w, i);
            if (ev->kind == FG_EVENT_HIT && ev->hit_box < 2) contacts[ev->hit_box] = ev->contact;
        }
    }
    assert_int_equal(contacts[0], FG_ON_BLOCK);
    assert_int_equal(contacts[1], FG_ON_HIT);
    assert_int_equal(health(&d, d.p2), 950);
    fgt_duel_free(&d);
}

static int grab_at(int distance) {
    fgt_duel d = fgt_duel_new(fgt_build(kicker()), distance, NULL, NULL);
    fgt_request(&d, d.p1, "grab2");
    fgt_run(&d, 30);
    int h = health(&d, d.p2);
    fgt_duel_free(&d);
    return h;
}

static void the_near_and_the_far_throw_box_grab_with_their_own_definitions(void **state) {
    (void)state;
    assert_int_equal(grab_at(50), 1000 - 120); /* both boxes touch: the first in order */
    assert_int_equal(grab_at(100), 1000 - 60); /* only the far box reaches */
    assert_int_equal(grab_at(200), 1000);      /* neither */
}

/* }====================================================================== */

/* {====================================================================== rollback */

static void a_two_part_kick_survives_rollback_at_every_distance(void **state) {
    (void)state;
    for (uint32_t check = 1; check <= FG_SYNCTEST_MAX_CHECK; check++) {
        fgt_duel d = fgt_duel_new(fgt_build(kicker()), 60, NULL, NULL);
        fg_synctest_config cfg = fg_synctest_config_default();
        cfg.check = check;
        fg_synctest *st = NULL;
        fg_error err;
        assert_int_equal(fg_synctest_create(d.w, &cfg, &st, &err), FG_OK);
        int hits = 0;
        for (int t = 0; t < 150; t++) {
            if (t == 0 || t == 100)
                assert_int_equal(fg_world_request(d.w, d.p1, fgt_id(d.r, "kick2"), FG_REQ_SCRIPT,
                                                  &err), FG_OK);
            if (t == 50) /* the kick's stun is over: p2 is throwable again */
                assert_int_equal(fg_world_request(d.w, d.p1, fgt_id(d.r, "grab2"), FG_REQ_SCRIPT,
                                                  &err), FG_OK);
            if (fg_synctest_advance(st, &err) != FG_OK) {
                char line[512];
                fg_synctest_report_format(fg_synctest_last_report(st), line, sizeof line);
                fail_msg("distance %u, tick %d: %s\n%s", check, t, fg_error_message(&err), line);
            }
            for (uint32_t i = 0; i < fg_world_event_count(d.w); i++)
                hits += fg_world_event_at(d.w, i)->kind != FG_EVENT_MARKER;
        }
        assert_int_equal(hits, 5); /* two parts, a grab, two parts */
        fg_synctest_destroy(st);
        fgt_duel_free(&d);
    }
}

/* }====================================================================== */

/* {====================================================================== validation */

static void expect_finding(fg_ruleset_builder *b, const char *path, const char *msg) {
    fg_findings *f = NULL;
    assert_int_equal(fg_findings_create(NULL, &f, NULL), FG_OK);
    fg_ruleset *r = fg_ruleset_build(b, f, NULL);
    fg_ruleset_builder_destroy(b);
    assert_null(r);
    bool found = false;
    for (uint32_t i = 0; i < fg_findings_count(f); i++) {
        fg_finding x = fg_findings_get(f, i);
        found |= !strcmp(x.path, path) && !strcmp(x.message, msg);
    }
    for (uint32_t i = 0; !found && i < fg_findings_count(f); i++)
        print_message("%s: %s\n", fg_findings_get(f, i).path, fg_findings_get(f, i).message);
    fg_findings_destroy(f);
    if (!found) fail_msg("no finding %s: %s", path, msg);
}

static fg_action_def two_parts(void) {
    fg_action_def a = fgt_action("bad", 3, 9, 6);
    add_box(&a, FG_BOX_HIT, 3, 4, px_box(0, 0, 10, 10), 0);
    add_box(&a, FG_BOX_HIT, 8, 9, px_box(0, 0, 10, 10), 1);
    a.hits[0] = strike(10, 10);
    a.hits[1] = strike(20, 10);
    return a;
}

static void definition_mistakes_name_the_path_and_the_value(void **state) {
    (void)state;
    fg_ruleset_builder *b = kicker();
    fg_action_def a = two_parts();
    a.boxes[1].def = 2;
    fgt_add(b, &a);
    expect_finding(b, "actions.bad.boxes[2].hit", "3, bad has 2 hit definitions (actions.bad.hit)");

    b = kicker();
    a = two_parts();
    a.boxes[1].def = 0;
    fgt_add(b, &a);
    expect_finding(b, "actions.bad.hit[2]", "no hit box uses it (a box's hit = 2)");

    b = kicker();
    a = two_parts();
    a.hits[2] = a.hits[1];
    memset(&a.hits[1], 0, sizeof a.hits[1]);
    a.boxes[1].def = 2;
    fgt_add(b, &a);
    expect_finding(b, "actions.bad.hit[2]",
                   "missing: hit[3] is declared, definitions are numbered from 1 without a gap");

    b = kicker();
    a = two_parts();
    a.hits[1].hitstun = 900;
    fgt_add(b, &a);
    expect_finding(b, "actions.bad.hit[2].hitstun", "900, expected 0..600");

    b = kicker();
    a = two_parts();
    add_box(&a, FG_BOX_HURT, 0, 5, px_box(0, 0, 10, 10), 1);
    fgt_add(b, &a);
    expect_finding(b, "actions.bad.boxes[3].def", "2, a hurt box has no definition to pick");

    b = kicker();
    a = fgt_action("bad", 3, 2, 20);
    add_box(&a, FG_BOX_THROW, 3, 4, px_box(0, 0, 50, 100), 1);
    a.throw_def.enabled = true;
    fgt_add(b, &a);
    expect_finding(b, "actions.bad.boxes[1].throw",
                   "2, bad has 1 throw definition (actions.bad.throw)");
}

/* }====================================================================== */

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(each_part_of_a_two_part_kick_lands_once_on_its_own_ticks),
        cmocka_unit_test(each_part_is_judged_with_its_own_definition),
        cmocka_unit_test(the_near_and_the_far_throw_box_grab_with_their_own_definitions),
        cmocka_unit_test(a_two_part_kick_survives_rollback_at_every_distance),
        cmocka_unit_test(definition_mistakes_name_the_path_and_the_value),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
