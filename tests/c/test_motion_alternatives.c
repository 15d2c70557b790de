/* SPDX-License-Identifier: MIT */
/* test_motion_alternatives.c: numpad `|` alternatives, the 360 and 720 circles and their
** documented leniency, and names declared without an input (placeholders). */
#include "fg_test.h"
#include "motion_feed.h"

#include <stdlib.h>
#include <string.h>

static fg_motion_set *compile_one(const char *name, const char *notation, int32_t time) {
    fg_motion_buttons b;
    fg_motion_buttons_default(&b, FG_MOTION_NUMPAD);
    fg_motion_def d;
    memset(&d, 0, sizeof d);
    d.name = name;
    d.notation = notation;
    d.time = time;
    fg_motion_set *set = NULL;
    fg_error err;
    if (fg_motion_set_compile(&b, &d, 1, NULL, &set, &err) != FG_OK)
        fail_msg("%s does not compile: %s", notation, fg_error_message(&err));
    return set;
}

/* The first tick a command of that set completed (every pattern shares the one name), or -1. */
static fg_tick fires(const fg_motion_set *set, const char *script) {
    fg_tick first[64];
    fg_error err;
    if (fgt_motion_first_ticks(set, script, first, &err) != FG_OK)
        fail_msg("script %s: %s", script, fg_error_message(&err));
    fg_tick best = -1;
    for (uint32_t i = 0; i < fg_motion_count(set); i++)
        if (first[i] >= 0 && (best < 0 || first[i] < best)) best = first[i];
    return best;
}

/* Rule: `236P|214P` is one command with two patterns; either motion fires it. */
static void bar_separates_alternatives_of_one_command(void **state) {
    (void)state;
    fg_motion_set *set = compile_one("fireball", "236P|214P", 0);
    assert_int_equal(fg_motion_count(set), 2);
    assert_string_equal(fg_motion_name(set, 0), "fireball");
    assert_string_equal(fg_motion_name(set, 1), "fireball");
    assert_int_equal(fires(set, "2@0 3@1 6@2 LP@3"), 3);
    assert_int_equal(fires(set, "2@0 1@1 4@2 LP@3"), 3);
    assert_int_equal(fires(set, "2@0 6@2 LP@3"), -1);
    fg_motion_set_destroy(set);
}

/* Rule: a 360 is the four cardinals in turning order from any of them, either way round, then
** the rest; diagonals may be skipped and the up cardinal may be 7, 8 or 9. Its window defaults
** to 30 ticks. */
static void circle_360_goes_round_once_from_anywhere(void **state) {
    (void)state;
    fg_motion_set *set = compile_one("spd", "360P", 0);
    assert_int_equal(fg_motion_count(set), 8);
    char d[300];
    fg_motion_describe(set, 0, d, sizeof d);
    assert_non_null(strstr(d, "time 30"));
    assert_int_equal(fires(set, "6@0 3@2 2@4 1@6 4@8 7@10 8@12 LP@14"), 14); /* full circle */
    assert_int_equal(fires(set, "6@0 2@3 4@6 8@9 LP@11"), 11);               /* diagonals skipped */
    assert_int_equal(fires(set, "4@0 1@2 2@4 3@6 6@8 9@10 LP@12"), 12);      /* 9 counts as up */
    assert_int_equal(fires(set, "2@0 6@3 8@6 4@9 LP@11"), 11);               /* other way round */
    assert_int_equal(fires(set, "6@0 2@3 4@6 LP@8"), -1);                    /* 270 only */
    assert_int_equal(fires(set, "6@0 4@3 2@6 8@9 LP@11"), -1);               /* out of order */
    assert_int_equal(fires(set, "6@0 2@3 4@20 8@40 LP@42"), -1);             /* 40 > 30 ticks */
    fg_motion_set_destroy(set);
    set = compile_one("spd", "360P", 40);
    assert_int_equal(fires(set, "6@0 2@3 4@20 8@40 LP@42"), 42); /* an explicit time wins */
    fg_motion_set_destroy(set);
}

/* Rule: a 720 goes round twice (8 cardinals, window 60); one turn is not enough. */
static void circle_720_goes_round_twice(void **state) {
    (void)state;
    fg_motion_set *set = compile_one("fab", "720P", 0);
    assert_int_equal(fg_motion_count(set), 8);
    assert_int_equal(fires(set, "6@0 2@3 4@6 8@9 6@12 2@15 4@18 8@21 LP@23"), 23);
    assert_int_equal(fires(set, "6@0 2@3 4@6 8@9 6@12 LP@14"), -1);
    fg_motion_set_destroy(set);
}

/* Rule: bad alternatives are errors naming the column, and nothing is built. */
static void bad_alternatives_name_the_column(void **state) {
    (void)state;
    fg_motion_buttons b;
    fg_motion_buttons_default(&b, FG_MOTION_NUMPAD);
    static const struct {
        const char *notation, *msg;
    } cases[] = {
        {"236P|", "m: \"236P|\": unexpected end at column 6, expected a direction or button"},
        {"|236P", "m: \"|236P\": unexpected '|' at column 1, expected a direction or button"},
        {"360P|720P|236P", "m: \"360P|720P|236P\": too many alternatives (at most 16, and a 360 "
                           "counts 8) at column 11"},
        {"720236236P", "m: \"720236236P\": too many steps once the circle is expanded (at most 12) at "
                    "column 1"},
        {"2360P", "m: \"2360P\": unexpected '0' at column 4, expected a direction or button"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fg_motion_def d;
        memset(&d, 0, sizeof d);
        d.name = "m";
        d.notation = cases[i].notation;
        fg_motion_set *set = NULL;
        fg_error err;
        if (fg_motion_set_compile(&b, &d, 1, NULL, &set, &err) == FG_OK)
            fail_msg("%s compiled", cases[i].notation);
        if (strcmp(fg_error_message(&err), cases[i].msg) != 0)
            fail_msg("%s\n  expected: %s\n  got:      %s", cases[i].notation, cases[i].msg,
                     fg_error_message(&err));
        assert_null(set);
    }
}

/* Rule: a def marked placeholder (IKEMEN's empty `command =`) is a name that never completes,
** whatever its notation says. */
static void placeholder_never_completes(void **state) {
    (void)state;
    fg_motion_buttons b;
    fg_motion_buttons_default(&b, FG_MOTION_NUMPAD);
    fg_motion_def d[2];
    memset(d, 0, sizeof d);
    d[0].name = "declared";
    d[0].notation = "";
    d[0].placeholder = true;
    d[1].name = "jab";
    d[1].notation = "LP";
    fg_motion_set *set = NULL;
    fg_error err;
    assert_int_equal(fg_motion_set_compile(&b, d, 2, NULL, &set, &err), FG_OK);
    assert_int_equal(fg_motion_find(set, "declared"), 0);
    fg_tick first[2];
    assert_int_equal(fgt_motion_first_ticks(set, "LP@0 2@1 6@2 MP@3 LK@3", first, &err), FG_OK);
    assert_int_equal(first[0], -1);
    assert_int_equal(first[1], 0);
    fg_motion_set_destroy(set);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bar_separates_alternatives_of_one_command),
        cmocka_unit_test(circle_360_goes_round_once_from_anywhere),
        cmocka_unit_test(circle_720_goes_round_twice),
        cmocka_unit_test(bad_alternatives_name_the_column),
        cmocka_unit_test(placeholder_never_completes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
