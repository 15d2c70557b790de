/* SPDX-License-Identifier: MIT */
/*
** test_stage.c: the stage from C: its checks and messages, how a move is stopped (walls, block
** sides and bottoms, one-way platforms from above and below, a drop-through), the world's stage
** and ground modes (a contact report refused on a stage, kept in contacts mode), a bad stage
** leaving the world unchanged, and a world on a stage running without allocating.
*/
#include "fg_test.h"

#include <string.h>

#include "fg_det_fixture.h"

static fg_stage level(void) {
    fg_stage s = fg_stage_default();
    s.nplatforms = 2;
    s.platforms[0] = (fg_platform){FG_FX(-100), FG_FX(60), FG_FX(80), true};  /* -100..-20 */
    s.platforms[1] = (fg_platform){FG_FX(100), FG_FX(90), FG_FX(50), false};  /* 100..150 */
    s.nblocks = 1;
    s.blocks[0] = (fg_block){FG_FX(200), 0, FG_FX(40), FG_FX(50)};           /* 200..240 x 0..50 */
    return s;
}

static void check_fails(fg_stage s, const char *message) {
    fg_error err;
    assert_int_equal(fg_stage_check(&s, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), message);
}

static void stage_checks_name_the_field_and_the_value(void **state) {
    (void)state;
    assert_int_equal(fg_stage_check(&(fg_stage){.wall_min = -1, .wall_max = 1}, NULL), FG_OK);
    fg_stage s = level();
    assert_int_equal(fg_stage_check(&s, NULL), FG_OK);
    s.platforms[1].w = 0;
    check_fails(s, "stage.platforms[2].w: 0 is out of range, expected more than 0, with x + w at "
                   "most 16384");
    s = level();
    s.wall_min = FG_FX(400);
    s.wall_max = FG_FX(-400);
    check_fails(s, "stage.walls: { 400, -400 }: the left wall must be left of the right one");
    s = level();
    s.blocks[0].h = FG_FX(-2.5);
    check_fails(s, "stage.blocks[1].h: -2.5 is out of range, expected more than 0, with y + h at "
                   "most 16384");
    s = level();
    s.floor = FG_FX(20000);
    check_fails(s, "stage.floor: 20000 is out of range, expected -16384 to 16384");
    s = level();
    s.nblocks = FG_STAGE_MAX_BLOCKS + 1;
    check_fails(s, "stage.blocks: 17 blocks, at most 16");
}

static fg_stage_contact move(const fg_stage *s, fg_fx x0, fg_fx y0, fg_fx *x, fg_fx *y,
                             uint32_t drop) {
    return fg_stage_move(s, x0, y0, x, y, drop);
}

static void moves_stop_at_walls_sides_and_surfaces(void **state) {
    (void)state;
    fg_stage s = level();
    /* A fall onto the one-way platform from above lands on it. */
    fg_fx x = FG_FX(-50), y = FG_FX(55);
    fg_stage_contact c = move(&s, FG_FX(-50), FG_FX(64), &x, &y, 0);
    assert_true(c.landed);
    assert_int_equal(y, FG_FX(60));
    assert_int_equal(c.support, FG_SUPPORT_PLATFORM | 0);
    /* From below it lets the rise through. */
    x = FG_FX(-50), y = FG_FX(70);
    c = move(&s, FG_FX(-50), FG_FX(50), &x, &y, 0);
    assert_false(c.stopped_y);
    assert_int_equal(y, FG_FX(70));
    assert_int_equal(c.support, FG_SUPPORT_NONE);
    /* Dropping through it: the fall passes it and lands on the floor. */
    x = FG_FX(-50), y = FG_FX(-30);
    c = move(&s, FG_FX(-50), FG_FX(60), &x, &y, 1);
    assert_true(c.landed);
    assert_int_equal(y, 0);
    assert_int_equal(c.support, FG_SUPPORT_FLOOR);
    /* The solid platform stops a rise from below. */
    x = FG_FX(120), y = FG_FX(100);
    c = move(&s, FG_FX(120), FG_FX(80), &x, &y, 0);
    assert_true(c.stopped_y);
    assert_int_equal(y, FG_FX(90));
    /* A block's side stops a walk; its top holds; its bottom stops a rise. */
    x = FG_FX(210), y = 0;
    c = move(&s, FG_FX(190), 0, &x, &y, 0);
    assert_true(c.stopped_x);
    assert_int_equal(x, FG_FX(200));
    x = FG_FX(230), y = FG_FX(45);
    c = move(&s, FG_FX(225), FG_FX(52), &x, &y, 0);
    assert_true(c.landed);
    assert_int_equal(y, FG_FX(50));
    assert_int_equal(c.support, FG_SUPPORT_BLOCK | 0);
    /* Walking along the top and off its end: airborne. */
    x = FG_FX(245), y = FG_FX(50);
    c = move(&s, FG_FX(238), FG_FX(50), &x, &y, 0);
    assert_int_equal(x, FG_FX(245));
    assert_int_equal(c.support, FG_SUPPORT_NONE);
    /* The walls clamp; nothing goes below the floor. */
    x = FG_FX(500), y = FG_FX(-10);
    c = move(&s, FG_FX(390), FG_FX(5), &x, &y, 0);
    assert_true(c.stopped_x && c.landed);
    assert_int_equal(x, FG_FX(400));
    assert_int_equal(y, 0);
}

static void world_takes_the_rules_stage_and_a_host_stage(void **state) {
    (void)state;
    fg_ruleset *r = fg_det_rules(20);
    fg_world *w = fg_det_world(r, 1, NULL, (fg_world_hooks){0});
    assert_int_equal(fg_world_ground_mode(w), FG_GROUND_STAGE);
    const fg_stage *s = fg_world_stage(w);
    assert_int_equal(s->wall_min, fg_ruleset_physics(r)->stage_min);
    assert_int_equal(s->wall_max, fg_ruleset_physics(r)->stage_max);
    assert_int_equal(fg_world_support(w, 1), FG_SUPPORT_FLOOR);

    /* A bad stage is refused and changes nothing. */
    uint64_t before = fg_world_hash(w);
    fg_stage bad = level();
    bad.platforms[0].w = -FG_FX(1);
    fg_error err;
    assert_int_equal(fg_world_set_stage(w, &bad, &err), FG_EINVAL);
    assert_non_null(strstr(fg_error_message(&err), "stage.platforms[1].w"));
    assert_int_equal(fg_world_hash(w), before);

    /* A good one changes the hash, and the support of a fighter moved onto a platform. */
    fg_stage good = level();
    assert_int_equal(fg_world_set_stage(w, &good, &err), FG_OK);
    assert_int_not_equal(fg_world_hash(w), before);
    assert_int_equal(fg_world_set_position(w, 1, FG_FX(-60), FG_FX(60), &err), FG_OK);
    assert_int_equal(fg_world_support(w, 1), FG_SUPPORT_PLATFORM | 0);
    assert_true(fg_stage_equal(fg_world_stage(w), &good));
    fg_world_destroy(w);
    fg_ruleset_unref(r);
}

static void contact_reports_belong_to_the_contacts_mode(void **state) {
    (void)state;
    fg_ruleset *r = fg_det_rules(20);
    fg_world *w = fg_det_world(r, 1, NULL, (fg_world_hooks){0});
    fg_error err;
    assert_int_equal(fg_world_report_contact(w, 1, false, &err), FG_ESTATE);
    assert_non_null(strstr(fg_error_message(&err), "ground comes from its stage"));
    fg_world_destroy(w);

    w = fg_det_world_in(r, 1, NULL, (fg_world_hooks){0}, FG_GROUND_CONTACTS);
    assert_int_equal(fg_world_ground_mode(w), FG_GROUND_CONTACTS);
    assert_int_equal(fg_world_report_contact(w, 1, false, &err), FG_OK);
    assert_int_equal(fg_world_advance(w, &err), FG_OK);
    /* The host said airborne: the ground history says so, though the body stands on the floor. */
    assert_false(fg_world_ground(w, 1)->grounded);
    assert_int_equal(fg_world_support(w, 1), FG_SUPPORT_FLOOR);
    fg_world_destroy(w);

    /* Without rules the default is contacts. */
    fg_world_config c = fg_world_config_default();
    const char *buttons[] = {"jump"};
    c.buttons = buttons;
    c.nbuttons = 1;
    w = fg_world_create(&c, &err);
    assert_non_null(w);
    assert_int_equal(fg_world_ground_mode(w), FG_GROUND_CONTACTS);
    fg_world_destroy(w);
    fg_ruleset_unref(r);
}

static void a_jump_action_the_rules_lack_is_refused(void **state) {
    (void)state;
    fg_ruleset *r = fg_det_rules(20);
    fg_world_config c = fg_world_config_default();
    c.rules = r;
    c.jump_button = "HP";
    c.jump_action = "hop";
    fg_error err;
    assert_null(fg_world_create(&c, &err));
    assert_string_equal(fg_error_message(&err), "world.jump_action: 'hop' is not an action of rules 'boxer'");
    c.jump_button = NULL;
    assert_null(fg_world_create(&c, &err));
    assert_string_equal(fg_error_message(&err), "world.jump_action: 'hop' needs a jump_button");
    fg_ruleset_unref(r);
}

/* Fighters walking, falling off a block and landing on platforms allocate nothing per tick. */
static void a_world_on_a_stage_does_not_allocate_per_tick(void **state) {
    (void)state;
    fg_ruleset *r = fg_det_rules(20);
    fg_counting_allocator counts = {0};
    counts.fail_after = -1;
    fg_allocator a = fg_test_counting_allocator(&counts);
    fg_world *w = fg_det_world(r, 1, &a, (fg_world_hooks){0});
    assert_non_null(w);
    fg_stage s = level();
    assert_int_equal(fg_world_set_stage(w, &s, NULL), FG_OK);
    fg_world_set_position(w, 1, FG_FX(190), FG_FX(120), NULL);
    fg_world_set_position(w, 2, FG_FX(-60), FG_FX(200), NULL);
    fg_world_direction(w, 1, 6, fg_us_of_tick(1, 60), FG_SOURCE_DEVICE, NULL);
    size_t before = counts.allocations;
    for (int t = 0; t < 200; t++) assert_int_equal(fg_world_advance(w, NULL), FG_OK);
    assert_int_equal(counts.allocations, before);
    /* Both came down on something: the block's top or the floor, and the platform. */
    assert_int_not_equal(fg_world_support(w, 1), FG_SUPPORT_NONE);
    assert_int_equal(fg_world_support(w, 2), FG_SUPPORT_PLATFORM | 0);
    fg_world_destroy(w);
    fg_ruleset_unref(r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stage_checks_name_the_field_and_the_value),
        cmocka_unit_test(moves_stop_at_walls_sides_and_surfaces),
        cmocka_unit_test(world_takes_the_rules_stage_and_a_host_stage),
        cmocka_unit_test(contact_reports_belong_to_the_contacts_mode),
        cmocka_unit_test(a_jump_action_the_rules_lack_is_refused),
        cmocka_unit_test(a_world_on_a_stage_does_not_allocate_per_tick),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
