/* SPDX-License-Identifier: MIT */
/* test_input_devices.c: semantic names, numpad directions, SOCD cleaning, analog sticks. */
#include "fg_test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define U (1u << FG_IN_UP)
#define D (1u << FG_IN_DOWN)
#define L (1u << FG_IN_LEFT)
#define R (1u << FG_IN_RIGHT)

/* Rule: button ids follow sorted names, whatever order they are declared in. */
static void button_ids_follow_sorted_names(void **state) {
    (void)state;
    const char *a[] = {"LP", "HP", "LK", "HK"}, *b[] = {"HK", "LK", "LP", "HP"};
    fg_action_names na, nb;
    assert_int_equal(fg_action_names_init(&na, a, 4, NULL), FG_OK);
    assert_int_equal(fg_action_names_init(&nb, b, 4, NULL), FG_OK);
    assert_memory_equal(&na, &nb, sizeof na);
    assert_int_equal(fg_action_names_find(&na, "HK"), FG_IN_FIRST_BUTTON);
    assert_int_equal(fg_action_names_find(&na, "LP"), FG_IN_FIRST_BUTTON + 3);
    assert_int_equal(fg_action_names_find(&na, "up"), FG_IN_UP);
    assert_int_equal(fg_action_names_find(&na, "MP"), -1);
    assert_string_equal(fg_action_names_get(&na, FG_IN_FIRST_BUTTON + 1), "HP");
}

/* Rule: bad button lists are refused with the offending name. */
static void bad_button_lists_are_refused(void **state) {
    (void)state;
    fg_action_names n;
    fg_error err;
    const char *dup[] = {"LP", "LP"}, *dir[] = {"left"}, *empty[] = {""},
               *longn[] = {"ABCDEFGHIJKLMNOPQ"};
    assert_int_equal(fg_action_names_init(&n, dup, 2, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "buttons: 'LP' is declared twice");
    assert_int_equal(fg_action_names_init(&n, dir, 1, &err), FG_EINVAL);
    assert_non_null(strstr(fg_error_message(&err), "is a direction"));
    assert_int_equal(fg_action_names_init(&n, empty, 1, &err), FG_EINVAL);
    assert_int_equal(fg_action_names_init(&n, longn, 1, &err), FG_EINVAL);
    const char *many[40];
    char names[40][8];
    for (int i = 0; i < 40; i++) {
        snprintf(names[i], sizeof names[i], "B%d", i);
        many[i] = names[i];
    }
    assert_int_equal(fg_action_names_init(&n, many, 40, &err), FG_EINVAL);
    assert_non_null(strstr(fg_error_message(&err), "at most 28"));
}

/* Rule: numpad notation from direction bits, and its horizontal mirror when facing left. */
static void numpad_from_bits_and_facing(void **state) {
    (void)state;
    const struct { uint32_t bits; int pad; } rows[] = {
        {0, 5}, {U, 8}, {D, 2}, {L, 4}, {R, 6}, {U | R, 9}, {U | L, 7}, {D | R, 3}, {D | L, 1},
        {L | R, 5}, {U | D, 5},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        assert_int_equal(fg_numpad_of_bits(rows[i].bits), rows[i].pad);
        if ((rows[i].bits & (L | R)) != (L | R) && (rows[i].bits & (U | D)) != (U | D))
            assert_int_equal(fg_bits_of_numpad(rows[i].pad), rows[i].bits);
    }
    const int mirrored[10] = {0, 3, 2, 1, 6, 5, 4, 9, 8, 7};
    for (int p = 1; p <= 9; p++) {
        assert_int_equal(fg_numpad_relative(p, FG_FACING_LEFT), mirrored[p]);
        assert_int_equal(fg_numpad_relative(p, FG_FACING_RIGHT), p);
    }
}

static uint32_t feed(fg_socd_state *st, const char *seq, fg_socd h, fg_socd v, fg_facing f) {
    uint32_t out = 0;
    for (const char *c = seq; *c; c += 2) {
        int dir = c[1] == 'L' ? FG_IN_LEFT : c[1] == 'R' ? FG_IN_RIGHT : c[1] == 'U' ? FG_IN_UP
                                                                                     : FG_IN_DOWN;
        out = fg_socd_update(st, dir, c[0] == '+', h, v, f);
    }
    return out;
}

/* Rule: each SOCD mode resolves simultaneous opposites as fighting games define it. */
static void socd_modes_resolve_opposites(void **state) {
    (void)state;
    const struct {
        const char *seq;
        fg_socd h, v;
        fg_facing facing;
        uint32_t expect;
    } rows[] = {
        {"+L+R", FG_SOCD_NEUTRAL, FG_SOCD_UP_WINS, FG_FACING_RIGHT, 0},
        {"+R+L", FG_SOCD_NEUTRAL, FG_SOCD_UP_WINS, FG_FACING_RIGHT, 0},
        {"+L+R-R", FG_SOCD_NEUTRAL, FG_SOCD_UP_WINS, FG_FACING_RIGHT, L},
        {"+L+R", FG_SOCD_LAST_WINS, FG_SOCD_UP_WINS, FG_FACING_RIGHT, R},
        {"+R+L", FG_SOCD_LAST_WINS, FG_SOCD_UP_WINS, FG_FACING_RIGHT, L},
        {"+L+R-R+R", FG_SOCD_LAST_WINS, FG_SOCD_UP_WINS, FG_FACING_RIGHT, R},
        {"+L+R", FG_SOCD_FIRST_WINS, FG_SOCD_UP_WINS, FG_FACING_RIGHT, L},
        {"+L+R", FG_SOCD_FORWARD_WINS, FG_SOCD_UP_WINS, FG_FACING_RIGHT, R},
        {"+L+R", FG_SOCD_FORWARD_WINS, FG_SOCD_UP_WINS, FG_FACING_LEFT, L},
        {"+D+U", FG_SOCD_NEUTRAL, FG_SOCD_UP_WINS, FG_FACING_RIGHT, U},
        {"+U+D", FG_SOCD_NEUTRAL, FG_SOCD_UP_WINS, FG_FACING_RIGHT, U},
        {"+U+D", FG_SOCD_NEUTRAL, FG_SOCD_NEUTRAL, FG_FACING_RIGHT, 0},
        {"+U+D", FG_SOCD_NEUTRAL, FG_SOCD_LAST_WINS, FG_FACING_RIGHT, D},
        {"+D+L+R+U", FG_SOCD_NEUTRAL, FG_SOCD_UP_WINS, FG_FACING_RIGHT, U},
        {"+D+L", FG_SOCD_NEUTRAL, FG_SOCD_UP_WINS, FG_FACING_RIGHT, D | L},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        fg_socd_state st;
        memset(&st, 0, sizeof st);
        uint32_t got = feed(&st, rows[i].seq, rows[i].h, rows[i].v, rows[i].facing);
        if (got != rows[i].expect)
            fail_msg("row %zu (%s, %s/%s): got %x, expected %x", i, rows[i].seq,
                     fg_socd_name(rows[i].h), fg_socd_name(rows[i].v), got, rows[i].expect);
    }
    assert_int_equal(fg_socd_parse("last"), FG_SOCD_LAST_WINS);
    assert_int_equal(fg_socd_parse("sideways"), -1);
}

/* Rule: radial deadzone zeroes small inputs, rescales the rest to [0, 1], applies the curve. */
static void stick_deadzone_rescale_and_curve(void **state) {
    (void)state;
    fg_stick_config c = fg_stick_config_default(); /* deadzone 0.15, outer 0.95 */
    fg_vec2 out;
    fg_vec2 tiny = {0.1f, 0.1f}; /* magnitude 0.141 */
    assert_int_equal(fg_stick_shape(tiny, &c, &out, NULL), FG_OK);
    assert_true(out.x == 0.0f && out.y == 0.0f);
    fg_vec2 full = {1.0f, 0.0f};
    fg_stick_shape(full, &c, &out, NULL);
    assert_float_equal(out.x, 1.0, 1e-6);
    fg_vec2 half = {0.55f, 0.0f}; /* (0.55 - 0.15) / 0.8 = 0.5 */
    fg_stick_shape(half, &c, &out, NULL);
    assert_float_equal(out.x, 0.5, 1e-5);
    c.exponent = 2.0f;
    fg_stick_shape(half, &c, &out, NULL);
    assert_float_equal(out.x, 0.25, 1e-5);
    /* The direction is kept: a diagonal stays diagonal. */
    fg_vec2 diag = {-0.6f, -0.6f};
    fg_stick_shape(diag, &c, &out, NULL);
    assert_float_equal(out.x, out.y, 1e-6);
    assert_true(out.x < 0);
}

/* Rule: NaN and infinite stick values are refused, with the output untouched. */
static void stick_rejects_non_finite_values(void **state) {
    (void)state;
    fg_stick_config c = fg_stick_config_default();
    fg_vec2 out = {0.25f, 0.5f};
    fg_error err;
    fg_vec2 bad[] = {{NAN, 0.0f}, {0.0f, INFINITY}, {-INFINITY, NAN}};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(fg_stick_shape(bad[i], &c, &out, &err), FG_EINVAL);
        assert_non_null(strstr(fg_error_message(&err), "not finite"));
        assert_true(out.x == 0.25f && out.y == 0.5f);
    }
    fg_stick_config badc = c;
    badc.deadzone = 1.5f;
    assert_int_equal(fg_stick_config_check(&badc, &err), FG_EINVAL);
    assert_non_null(strstr(fg_error_message(&err), "stick.deadzone: 1.5"));
}

/* Rule: camera-relative sticks are projected on the camera's horizontal basis. */
static void camera_relative_projection(void **state) {
    (void)state;
    fg_vec2 up = {0.0f, 1.0f}, right = {1.0f, 0.0f}, out;
    /* Camera looking along +x (tilted down): stick up moves along +x, stick right along -y. */
    assert_int_equal(fg_stick_camera_relative(up, 2.0f, 0.0f, -1.0f, &out, NULL), FG_OK);
    assert_float_equal(out.x, 1.0, 1e-6);
    assert_float_equal(out.y, 0.0, 1e-6);
    fg_stick_camera_relative(right, 2.0f, 0.0f, -1.0f, &out, NULL);
    assert_float_equal(out.x, 0.0, 1e-6);
    assert_float_equal(out.y, -1.0, 1e-6);
    /* Default camera (forward +y) leaves the stick as is. */
    fg_stick_camera_relative(right, 0.0f, 1.0f, 0.0f, &out, NULL);
    assert_float_equal(out.x, 1.0, 1e-6);
    fg_error err;
    out.x = 7.0f;
    assert_int_equal(fg_stick_camera_relative(up, 0.0f, 0.0f, -1.0f, &out, &err), FG_EINVAL);
    assert_true(out.x == 7.0f);
}

/* Rule: 8-way quantisation uses 45-degree sectors centred on each numpad direction. */
static void stick_quantises_to_eight_sectors(void **state) {
    (void)state;
    const struct { float deg; int pad; } rows[] = {
        {0, 6}, {22, 6}, {23, 9}, {45, 9}, {67, 9}, {68, 8}, {90, 8}, {135, 7}, {180, 4},
        {-180, 4}, {-135, 1}, {-90, 2}, {-45, 3}, {-23, 3}, {-22, 6}, {337, 3}, {338, 6},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        double a = rows[i].deg * 3.14159265358979323846 / 180.0;
        fg_vec2 v = {(float)cos(a), (float)sin(a)};
        assert_int_equal(fg_numpad_of_vec(v, 0.5f), rows[i].pad);
    }
    fg_vec2 weak = {0.3f, 0.0f};
    assert_int_equal(fg_numpad_of_vec(weak, 0.5f), 5);
    fg_vec2 nan = {NAN, 1.0f};
    assert_int_equal(fg_numpad_of_vec(nan, 0.5f), 5);
}

/* Rule: bindings map controls to actions; rebinding replaces; capacity is bounded. */
static void input_map_binds_controls(void **state) {
    (void)state;
    fg_input_map m;
    fg_input_map_init(&m);
    assert_int_equal(fg_input_map_bind(&m, 32, FG_IN_FIRST_BUTTON, NULL), FG_OK);
    assert_int_equal(fg_input_map_lookup(&m, 32), FG_IN_FIRST_BUTTON);
    assert_int_equal(fg_input_map_bind(&m, 32, FG_IN_FIRST_BUTTON + 1, NULL), FG_OK);
    assert_int_equal(fg_input_map_lookup(&m, 32), FG_IN_FIRST_BUTTON + 1);
    assert_int_equal(fg_input_map_lookup(&m, 33), -1);
    fg_error err;
    assert_int_equal(fg_input_map_bind(&m, 1, 99, &err), FG_EINVAL);
    for (uint32_t c = 100; m.nbindings < FG_MAP_MAX_BINDINGS; c++)
        assert_int_equal(fg_input_map_bind(&m, c, 5, NULL), FG_OK);
    assert_int_equal(fg_input_map_bind(&m, 9999, 5, &err), FG_ENOMEM);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(button_ids_follow_sorted_names),
        cmocka_unit_test(bad_button_lists_are_refused),
        cmocka_unit_test(numpad_from_bits_and_facing),
        cmocka_unit_test(socd_modes_resolve_opposites),
        cmocka_unit_test(stick_deadzone_rescale_and_curve),
        cmocka_unit_test(stick_rejects_non_finite_values),
        cmocka_unit_test(camera_relative_projection),
        cmocka_unit_test(stick_quantises_to_eight_sectors),
        cmocka_unit_test(input_map_binds_controls),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
