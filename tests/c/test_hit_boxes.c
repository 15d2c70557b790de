/* SPDX-License-Identifier: MIT */
/*
** test_hit_boxes.c: the rectangle arithmetic of boxes: placement relative to the origin, the
** mirror of facing left, touching edges, saturation far off the stage, the overlap's centre.
*/
#include "fg_test.h"

static void a_box_facing_right_is_offset_from_the_origin(void **state) {
    (void)state;
    fg_box b = {FG_FX(10), FG_FX(40), FG_FX(50), FG_FX(20)};
    fg_rect r = fg_box_place(b, FG_FX(100), FG_FX(5), FG_FACING_RIGHT);
    assert_int_equal(r.x0, FG_FX(110));
    assert_int_equal(r.x1, FG_FX(160));
    assert_int_equal(r.y0, FG_FX(45));
    assert_int_equal(r.y1, FG_FX(65));
}

static void facing_left_mirrors_x_around_the_origin(void **state) {
    (void)state;
    fg_box b = {FG_FX(10), FG_FX(40), FG_FX(50), FG_FX(20)};
    fg_rect r = fg_box_place(b, FG_FX(100), 0, FG_FACING_LEFT);
    assert_int_equal(r.x0, FG_FX(40));  /* [10, 60] becomes [-60, -10] */
    assert_int_equal(r.x1, FG_FX(90));
    assert_int_equal(r.y0, FG_FX(40)); /* y never mirrors */
}

static void touching_edges_overlap_and_a_gap_of_one_unit_does_not(void **state) {
    (void)state;
    fg_rect a = {0, 0, FG_FX(10), FG_FX(10)};
    fg_rect b = {FG_FX(10), FG_FX(5), FG_FX(20), FG_FX(6)};
    fg_rect o;
    assert_true(fg_rect_overlap(a, b, &o));
    assert_int_equal(o.x0, FG_FX(10));
    assert_int_equal(o.x1, FG_FX(10));
    assert_int_equal(o.y0, FG_FX(5));
    assert_int_equal(o.y1, FG_FX(6));
    b.x0 = FG_FX(10) + 1;
    assert_false(fg_rect_overlap(a, b, NULL));
    /* and on y */
    fg_rect c = {0, FG_FX(10) + 1, FG_FX(10), FG_FX(20)};
    assert_false(fg_rect_overlap(a, c, NULL));
    c.y0 = FG_FX(10);
    assert_true(fg_rect_overlap(a, c, NULL));
}

static void a_box_far_off_the_stage_saturates_instead_of_wrapping(void **state) {
    (void)state;
    fg_box b = {FG_FX(30000), 0, FG_FX(30000), FG_FX(1)};
    fg_rect r = fg_box_place(b, FG_FX(20000), 0, FG_FACING_RIGHT);
    assert_int_equal(r.x1, INT32_MAX);
    assert_true(r.x0 <= r.x1);
    r = fg_box_place(b, FG_FX(-20000), 0, FG_FACING_LEFT);
    assert_int_equal(r.x0, INT32_MIN);
    assert_true(r.x0 <= r.x1);
}

static void names_of_kinds_guards_and_reasons(void **state) {
    (void)state;
    assert_string_equal(fg_box_kind_name(FG_BOX_THROW), "throw");
    assert_string_equal(fg_box_kind_name((fg_box_kind)9), "?");
    assert_string_equal(fg_guard_name(FG_GUARD_OVERHEAD), "overhead");
    assert_string_equal(fg_miss_reason_name(FG_MISS_JUGGLE_LIMIT), "juggle_limit");
    assert_string_equal(fg_throw_step_name(FG_THROW_TECHED), "teched");
    assert_string_equal(fg_knockdown_name(FG_KNOCKDOWN_HARD), "hard");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_box_facing_right_is_offset_from_the_origin),
        cmocka_unit_test(facing_left_mirrors_x_around_the_origin),
        cmocka_unit_test(touching_edges_overlap_and_a_gap_of_one_unit_does_not),
        cmocka_unit_test(a_box_far_off_the_stage_saturates_instead_of_wrapping),
        cmocka_unit_test(names_of_kinds_guards_and_reasons),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
