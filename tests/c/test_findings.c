/* SPDX-License-Identifier: MIT */
/*
** test_findings.c: the validator's findings list has no cap. A ruleset with over a thousand
** faults reports every one, in order; a path and a message of 10 KB come back whole; memory
** running out while findings are recorded refuses the build with FG_ENOMEM instead of
** reporting less, and leaves nothing allocated.
*/
#include "rules_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ACTIONS 160 /* each with FG_MAX_CANCELS windows past its end: 1,280 findings */

/* idle plus ACTIONS actions of 6 ticks whose every window ends on tick 6 + k. */
static fg_ruleset_builder *faulty(const fg_allocator *alloc, int actions) {
    fg_ruleset_builder *b = fg_ruleset_builder_create("faulty", alloc);
    assert_non_null(b);
    fg_ruleset_add_button(b, "LP", NULL);
    fg_action_def a = fgt_neutral("idle", 0);
    fgt_add(b, &a);
    for (int i = 0; i < actions; i++) {
        char name[16];
        snprintf(name, sizeof name, "a%03d", i);
        a = fgt_action(name, 2, 2, 2);
        for (int k = 0; k < FG_MAX_CANCELS; k++) fgt_cancel(&a, 0, 6 + k, FG_ON_ALWAYS, 0, "idle");
        fgt_add(b, &a);
    }
    return b;
}

static void over_a_thousand_findings_are_all_reported_in_order(void **state) {
    (void)state;
    fg_findings *f = fgt_findings();
    fg_error err;
    fg_ruleset_builder *b = faulty(NULL, ACTIONS);
    assert_null(fg_ruleset_build(b, f, &err));
    fg_ruleset_builder_destroy(b);
    assert_int_equal(fg_findings_count(f), ACTIONS * FG_MAX_CANCELS);
    assert_int_equal(fg_findings_errors(f), ACTIONS * FG_MAX_CANCELS);
    assert_int_equal(fg_findings_lost(f), 0);
    for (int i = 0; i < ACTIONS; i++)
        for (int k = 0; k < FG_MAX_CANCELS; k++) {
            fg_finding x = fg_findings_get(f, (uint32_t)(i * FG_MAX_CANCELS + k));
            char path[64], msg[64];
            snprintf(path, sizeof path, "actions.a%03d.cancels[%d].to", i, k + 1);
            snprintf(msg, sizeof msg, "%d is past the end of a%03d (6 ticks)", 6 + k, i);
            assert_int_equal(x.severity, FG_SEVERITY_ERROR);
            assert_int_equal(x.line, 0);
            assert_string_equal(x.path, path);
            assert_string_equal(x.message, msg);
        }
    assert_int_equal(err.code, FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "actions.a000.cancels[1].to: 6 is past the end of a000 (6 ticks)");
    /* A build clears the list it is given: the same list reused reports only its own. */
    b = faulty(NULL, 1);
    assert_null(fg_ruleset_build(b, f, &err));
    fg_ruleset_builder_destroy(b);
    assert_int_equal(fg_findings_count(f), FG_MAX_CANCELS);
    fg_findings_destroy(f);
}

/* A string of n bytes: the letters of the alphabet over and over, "/" every 40. */
static char *long_text(size_t n) {
    char *s = malloc(n + 1);
    assert_non_null(s);
    for (size_t i = 0; i < n; i++) s[i] = i % 40 == 39 ? '/' : (char)('a' + i % 26);
    s[n] = '\0';
    return s;
}

static void a_10_kb_path_and_message_come_back_whole(void **state) {
    (void)state;
    fg_findings *f = fgt_findings();
    char *path = long_text(10240), *msg = long_text(10300);
    fg_error err;
    assert_int_equal(fg_findings_add(f, FG_SEVERITY_WARNING, path, 7, msg, &err), FG_OK);
    assert_int_equal(fg_findings_add(f, FG_SEVERITY_ERROR, "rules", 0, "short", &err), FG_OK);
    fg_finding x = fg_findings_get(f, 0);
    assert_int_equal(strlen(x.path), 10240);
    assert_int_equal(strlen(x.message), 10300);
    assert_string_equal(x.path, path);
    assert_string_equal(x.message, msg);
    assert_int_equal(x.line, 7);
    assert_int_equal(x.severity, FG_SEVERITY_WARNING);
    assert_int_equal(fg_findings_count(f), 2);
    assert_int_equal(fg_findings_errors(f), 1);
    assert_string_equal(fg_findings_get(f, 1).message, "short");
    /* Past the end: an empty error, never a crash. */
    x = fg_findings_get(f, 2);
    assert_string_equal(x.path, "");
    assert_string_equal(x.message, "");
    assert_int_equal(fg_findings_add(f, (fg_severity)7, "p", 0, "m", &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "fg_findings_add: severity 7, expected FG_SEVERITY_ERROR or "
                        "FG_SEVERITY_WARNING");
    assert_int_equal(fg_findings_add(NULL, FG_SEVERITY_ERROR, "p", 0, "m", &err), FG_EINVAL);
    assert_int_equal(fg_findings_count(NULL), 0);
    fg_findings_destroy(f);
    fg_findings_destroy(NULL);
    free(path);
    free(msg);
}

/* A motion's notation is quoted whole in its error: a name of 31 characters and a notation of
** 127 make a message past the 256 bytes a finding once held, and it ends as written. */
static void a_long_message_from_the_builder_is_not_cut(void **state) {
    (void)state;
    fg_ruleset_builder *b = fg_ruleset_builder_create("long", NULL);
    fg_ruleset_add_button(b, "LP", NULL);
    fg_action_def a = fgt_neutral("idle", 0);
    fgt_add(b, &a);
    char notation[FG_MOTION_NOTATION_MAX] = "2,";
    while (strlen(notation) < FG_MOTION_NOTATION_MAX - 1) strcat(notation, "Q");
    fg_motion_def m;
    memset(&m, 0, sizeof m);
    m.name = "rolling_motion_with_a_long_name";
    m.notation = notation;
    fg_error err;
    assert_int_equal(fg_ruleset_add_motion(b, &m, &err), FG_OK);
    fg_findings *f = fgt_findings();
    assert_null(fg_ruleset_build(b, f, &err));
    fg_ruleset_builder_destroy(b);
    assert_int_equal(fg_findings_count(f), 1);
    fg_finding x = fg_findings_get(f, 0);
    assert_string_equal(x.path, "motions.rolling_motion_with_a_long_name");
    assert_true(strlen(x.message) > 256);
    assert_non_null(strstr(x.message, notation));
    const char *end = "or a button";
    assert_string_equal(x.message + strlen(x.message) - strlen(end), end);
    fg_findings_destroy(f);
}

/* The motion lint has no cap either: of 80 motions on one notation, 79 can never fire, each a
** warning (a motion set once kept 64 and dropped the rest without a word). */
static void every_motion_lint_warning_is_reported(void **state) {
    (void)state;
    fg_ruleset_builder *b = fg_ruleset_builder_create("lint", NULL);
    fg_ruleset_add_button(b, "LP", NULL);
    fg_action_def a = fgt_neutral("idle", 0);
    fgt_add(b, &a);
    char names[80][8];
    for (int i = 0; i < 80; i++) {
        snprintf(names[i], sizeof names[i], "m%02d", i);
        fg_motion_def m;
        memset(&m, 0, sizeof m);
        m.name = names[i];
        m.notation = "236LP";
        fg_ruleset_add_motion(b, &m, NULL);
        a = fgt_action(names[i], 5, 5, 30);
        fgt_add(b, &a);
    }
    fg_findings *f = fgt_findings();
    fg_error err;
    fg_ruleset *r = fg_ruleset_build(b, f, &err);
    fg_ruleset_builder_destroy(b);
    if (!r) fail_msg("build: %s", fg_error_message(&err));
    uint32_t n = 0;
    for (uint32_t i = 0; i < fg_findings_count(f); i++) {
        fg_finding x = fg_findings_get(f, i);
        assert_int_equal(x.severity, FG_SEVERITY_WARNING);
        assert_string_equal(x.path, "motions");
        char want[16];
        snprintf(want, sizeof want, "m%02u", n + 1);
        assert_non_null(strstr(x.message, want));
        n++;
    }
    assert_int_equal(n, 79);
    fg_ruleset_unref(r);
    fg_findings_destroy(f);
}

/* Every allocation of the findings list failed in turn: the build is refused (FG_ENOMEM when a
** finding could not be kept), never reports fewer findings as if complete, and frees all. */
static void running_out_of_memory_for_findings_refuses_the_build(void **state) {
    (void)state;
    int enomem = 0, complete = 0;
    for (long k = 0; k < 80; k++) {
        fg_counting_allocator c;
        fg_allocator a = fg_test_counting_allocator(&c);
        c.fail_after = k;
        fg_findings *f = NULL;
        fg_error cerr;
        if (fg_findings_create(&a, &f, &cerr) != FG_OK) {
            assert_int_equal(cerr.code, FG_ENOMEM);
            assert_null(f);
            continue;
        }
        fg_ruleset_builder *b = faulty(NULL, 8);
        fg_error err;
        memset(&err, 0, sizeof err);
        assert_null(fg_ruleset_build(b, f, &err));
        fg_ruleset_builder_destroy(b);
        if (fg_findings_lost(f) > 0) {
            assert_int_equal(err.code, FG_ENOMEM);
            assert_non_null(strstr(fg_error_message(&err), "out of memory recording the validator's findings"));
            assert_true(fg_findings_count(f) < 8 * FG_MAX_CANCELS);
            enomem++;
        } else {
            assert_int_equal(err.code, FG_EINVAL);
            assert_int_equal(fg_findings_count(f), 8 * FG_MAX_CANCELS);
            complete++;
        }
        fg_findings_destroy(f);
        if (c.live_bytes != 0) fail_msg("%zu bytes left with allocation %ld failing", c.live_bytes, k);
    }
    assert_true(enomem > 10);
    assert_true(complete > 0);

    /* A valid ruleset whose lint warning cannot be stored is refused too: nothing goes unsaid. */
    fg_counting_allocator c;
    fg_allocator a = fg_test_counting_allocator(&c);
    c.fail_after = 1; /* the list itself, then nothing */
    fg_findings *f = NULL;
    assert_int_equal(fg_findings_create(&a, &f, NULL), FG_OK);
    fg_ruleset_builder *b = fg_ruleset_builder_create("lint", NULL);
    fg_ruleset_add_button(b, "LP", NULL);
    fg_action_def x = fgt_neutral("idle", 0);
    fgt_add(b, &x);
    x = fgt_action("fireball", 5, 5, 30);
    snprintf(x.input, sizeof x.input, "236LP");
    fgt_add(b, &x);
    x = fgt_action("double", 5, 5, 30);
    snprintf(x.input, sizeof x.input, "236236LP");
    fgt_add(b, &x);
    fg_error err;
    assert_null(fg_ruleset_build(b, f, &err));
    assert_int_equal(err.code, FG_ENOMEM);
    assert_int_equal(fg_findings_lost(f), 1);
    /* With the memory back, the same builder builds and keeps its warning. */
    c.fail_after = -1;
    fg_ruleset *r = fg_ruleset_build(b, f, &err);
    assert_non_null(r);
    assert_int_equal(fg_findings_count(f), 1);
    assert_int_equal(fg_findings_get(f, 0).severity, FG_SEVERITY_WARNING);
    fg_ruleset_unref(r);
    fg_ruleset_builder_destroy(b);
    fg_findings_destroy(f);
    assert_int_equal(c.live_bytes, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(over_a_thousand_findings_are_all_reported_in_order),
        cmocka_unit_test(a_10_kb_path_and_message_come_back_whole),
        cmocka_unit_test(a_long_message_from_the_builder_is_not_cut),
        cmocka_unit_test(every_motion_lint_warning_is_reported),
        cmocka_unit_test(running_out_of_memory_for_findings_refuses_the_build),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
