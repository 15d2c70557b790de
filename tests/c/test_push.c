/* SPDX-License-Identifier: MIT */
/*
** test_push.c: push boxes in movement and the corner rule, through the C builder and the real
** tick: overlapping bodies give way by half each, a fighter against the wall does not move and
** the other takes the whole overlap, bodies one above the other do not push, fighters without
** push boxes keep min_gap, and pushback on hit or block moves the attacker when the defender is
** in the corner.
*/
#include "fg_test.h"

#include <string.h>

#include "rules_fixture.h"

static fg_box px_box(int x, int y, int w, int h) {
    return (fg_box){FG_FX(x), FG_FX(y), FG_FX(w), FG_FX(h)};
}

/* Bodies 30 wide (-15..15), hurt boxes 40 wide; a jab whose box reaches 20..60 in front, with
** pushback 20 on hit and 12 on block, no hitstop. Gravity 0, walls at -400 and 400. */
static fg_ruleset *pusher(bool bodies) {
    fg_ruleset_builder *b = fg_ruleset_builder_create("pusher", NULL);
    fg_ruleset_add_button(b, "LP", NULL);
    fgt_resource(b, "health", 1000, 1000);
    fg_physics_def p = fg_physics_def_default();
    p.gravity = 0;
    fg_ruleset_set_physics(b, &p);
    assert_int_equal(fg_ruleset_add_default_box(b, NULL, FG_BOX_HURT, px_box(-20, 0, 40, 100),
                                                NULL), FG_OK);
    if (bodies)
        assert_int_equal(fg_ruleset_add_default_box(b, NULL, FG_BOX_PUSH,
                                                    px_box(-15, 0, 30, 90), NULL), FG_OK);
    fg_action_def a = fgt_neutral("idle", 0);
    fgt_add(b, &a);
    a = fgt_neutral("walk_back", 4);
    fgt_add(b, &a);
    a = fgt_action("hitstun", 0, 0, 1);
    fgt_add(b, &a);
    a = fgt_action("blockstun", 0, 0, 1);
    fgt_add(b, &a);
    a = fgt_action("jab", 3, 2, 6);
    a.boxes[a.nboxes++] = (fg_box_def){FG_BOX_HIT, 3, 4, px_box(20, 50, 40, 20), 0};
    a.hit.enabled = true;
    a.hit.damage = 50;
    a.hit.hitstun = 20;
    a.hit.blockstun = 10;
    a.hit.pushback_hit = FG_FX(20);
    a.hit.pushback_block = FG_FX(12);
    fgt_add(b, &a);
    return fgt_build(b);
}

static double x_of(const fgt_duel *d, fg_entity e) {
    fg_fx x;
    fg_world_position(d->w, e, &x, NULL);
    return (double)x / FG_FX_ONE;
}

static void place(fgt_duel *d, double x1, double x2) {
    assert_int_equal(fg_world_set_position(d->w, d->p1, (fg_fx)(x1 * FG_FX_ONE), 0, NULL), FG_OK);
    assert_int_equal(fg_world_set_position(d->w, d->p2, (fg_fx)(x2 * FG_FX_ONE), 0, NULL), FG_OK);
}

static void overlapping_bodies_give_way_by_half_each(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(pusher(true), 70, NULL, NULL);
    place(&d, 0, 10); /* bodies -15..15 and -5..25: 20 px deep */
    fgt_run(&d, 1);
    assert_true(x_of(&d, d.p1) == -10.0);
    assert_true(x_of(&d, d.p2) == 20.0);
    fgt_run(&d, 5); /* touching edges do not push: they stay */
    assert_true(x_of(&d, d.p1) == -10.0);
    assert_true(x_of(&d, d.p2) == 20.0);
    /* An odd amount: the one on the left gives the smaller half. */
    place(&d, 0, 29.0 - 1.0 / 65536); /* 1/65536 px deeper than 1 px */
    fgt_run(&d, 1);
    assert_true(x_of(&d, d.p2) - x_of(&d, d.p1) == 30.0);
    fgt_duel_free(&d);
}

static void a_fighter_against_the_wall_does_not_move(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(pusher(true), 70, NULL, NULL);
    place(&d, 390, 400); /* p2 at the right wall, 20 px of overlap */
    fgt_run(&d, 1);
    assert_true(x_of(&d, d.p2) == 400.0);
    assert_true(x_of(&d, d.p1) == 370.0);
    /* The same at the left wall: p1 stays, p2 takes all. */
    place(&d, -400, -390);
    fgt_run(&d, 1);
    assert_true(x_of(&d, d.p1) == -400.0);
    assert_true(x_of(&d, d.p2) == -370.0);
    fgt_duel_free(&d);
}

static void bodies_one_above_the_other_do_not_push(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(pusher(true), 70, NULL, NULL);
    assert_int_equal(fg_world_set_position(d.w, d.p1, 0, 0, NULL), FG_OK);
    /* p2 stands on p1's head (90 up): no overlap in y, however close in x. */
    assert_int_equal(fg_world_set_position(d.w, d.p2, FG_FX(5), FG_FX(90), NULL), FG_OK);
    fgt_run(&d, 1);
    assert_true(x_of(&d, d.p1) == 0.0);
    assert_true(x_of(&d, d.p2) == 5.0);
    fgt_duel_free(&d);
}

static void without_bodies_min_gap_keeps_them_apart(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(pusher(false), 70, NULL, NULL);
    place(&d, 0, 10); /* min_gap 40 by default: 30 to share */
    fgt_run(&d, 1);
    assert_true(x_of(&d, d.p1) == -15.0);
    assert_true(x_of(&d, d.p2) == 25.0);
    fgt_duel_free(&d);
}

/* A world whose rules had no bodies looks for them once a reload brings some. */
static void bodies_a_reload_adds_push(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(pusher(false), 70, NULL, NULL);
    fgt_run(&d, 1);
    fg_ruleset *bodies = pusher(true);
    assert_int_equal(fg_world_replace_rules(d.w, fg_world_rules_slot(d.w, d.p1), bodies, NULL),
                     FG_OK);
    fg_ruleset_unref(bodies);
    place(&d, 0, 10);
    fgt_run(&d, 1);
    assert_true(x_of(&d, d.p1) == -10.0); /* by the bodies, not by min_gap (-15 and 25) */
    assert_true(x_of(&d, d.p2) == 20.0);
    fgt_duel_free(&d);
}

/* p1 jabs p2 at `x2` from 60 px away: where each ends once the pushback slide is over. */
static void jab_pushback(double x2, int hold, double *x1_after, double *x2_after) {
    fgt_duel d = fgt_duel_new(pusher(true), 70, NULL, NULL);
    place(&d, x2 - 60, x2);
    if (hold) fgt_hold(&d, d.p2, hold);
    fgt_run(&d, 1);
    fgt_request(&d, d.p1, "jab");
    fgt_run(&d, 40);
    fg_combat_view v;
    assert_int_equal(fg_world_combat(d.w, d.p2, &v, NULL), FG_OK);
    assert_int_equal(v.pushback_left, 0);
    *x1_after = x_of(&d, d.p1);
    *x2_after = x_of(&d, d.p2);
    fgt_duel_free(&d);
}

static void in_the_corner_pushback_moves_the_attacker(void **state) {
    (void)state;
    double x1, x2;
    /* Mid-stage: the defender slides 20 away on hit, the attacker stays. */
    jab_pushback(0, 0, &x1, &x2);
    assert_true(x1 == -60.0);
    assert_true(x2 == 20.0);
    /* The defender against the right wall: it stays, the attacker slides back 20. */
    jab_pushback(400, 0, &x1, &x2);
    assert_true(x2 == 400.0);
    assert_true(x1 == 320.0);
    /* 8 px from the wall: the defender covers 8, the attacker the other 12. */
    jab_pushback(392, 0, &x1, &x2);
    assert_true(x2 == 400.0);
    assert_true(x1 == 320.0);
    /* Blocked in the corner (p2 holds back, away from p1): the block's pushback, 12. */
    jab_pushback(400, 4, &x1, &x2);
    assert_true(x2 == 400.0);
    assert_true(x1 == 328.0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(overlapping_bodies_give_way_by_half_each),
        cmocka_unit_test(a_fighter_against_the_wall_does_not_move),
        cmocka_unit_test(bodies_one_above_the_other_do_not_push),
        cmocka_unit_test(without_bodies_min_gap_keeps_them_apart),
        cmocka_unit_test(bodies_a_reload_adds_push),
        cmocka_unit_test(in_the_corner_pushback_moves_the_attacker),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
