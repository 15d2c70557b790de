/* SPDX-License-Identifier: MIT */
/*
** test_rules.c: the ruleset builder and validator from C. One test per kind of finding, each
** with its exact path and message and no ruleset built; every finding reported, not just the
** first; warnings that do not stop a build; ids and content hash independent of the order of
** declaration; nothing leaked when a build fails or an allocation fails.
*/
#include "rules_fixture.h"

#include <stdio.h>
#include <string.h>

/* A small valid ruleset: idle, a jab with a window into specials, a fireball and a meter. */
static fg_ruleset_builder *base(const fg_allocator *alloc) {
    fg_ruleset_builder *b = fg_ruleset_builder_create("base", alloc);
    assert_non_null(b);
    fg_ruleset_add_button(b, "LP", NULL);
    fgt_resource(b, "meter", 300, 0);
    fg_action_def a = fgt_neutral("idle", 0);
    fgt_add(b, &a);
    a = fgt_action("jab", 4, 2, 7);
    fgt_marker(&a, 4, "spark");
    fgt_cancel(&a, 4, 12, FG_ON_HIT, 4, "special");
    fgt_add(b, &a);
    a = fgt_action("fireball", 13, 2, 31);
    fgt_tag(&a, "special");
    fgt_add(b, &a);
    return b;
}

/* Builds b, which must fail with exactly one error: path and message. */
static void expect_error(fg_ruleset_builder *b, const char *path, const char *msg) {
    fg_findings *f = fgt_findings();
    fg_error err;
    memset(&err, 0, sizeof err);
    fg_ruleset *r = fg_ruleset_build(b, f, &err);
    fg_ruleset_builder_destroy(b);
    if (r) {
        fg_ruleset_unref(r);
        fail_msg("built, expected %s: %s", path, msg);
    }
    if (fg_findings_errors(f) != 1) {
        for (uint32_t i = 0; i < fg_findings_count(f); i++)
            print_error("  %s: %s\n", fg_findings_get(f, i).path, fg_findings_get(f, i).message);
        fail_msg("%u errors, expected 1", fg_findings_errors(f));
    }
    fg_finding x = {FG_SEVERITY_WARNING, 0, NULL, NULL};
    for (uint32_t i = 0; i < fg_findings_count(f); i++)
        if (fg_findings_get(f, i).severity == FG_SEVERITY_ERROR) x = fg_findings_get(f, i);
    assert_non_null(x.path);
    assert_string_equal(x.path, path);
    assert_string_equal(x.message, msg);
    char whole[512];
    snprintf(whole, sizeof whole, "%s: %s", path, msg);
    assert_string_equal(fg_error_message(&err), whole);
    assert_int_equal(err.code, FG_EINVAL);
    fg_findings_destroy(f);
}

static fg_action_def *find(fg_action_def *defs, int n, const char *name) {
    for (int i = 0; i < n; i++)
        if (strcmp(defs[i].name, name) == 0) return &defs[i];
    fail_msg("no %s", name);
    return NULL;
}

/* {====================================================================== findings */

static void window_past_the_end_of_its_action_is_an_error(void **state) {
    (void)state;
    fg_ruleset_builder *b = base(NULL);
    fg_action_def a = fgt_action("strong", 7, 3, 16);
    fgt_cancel(&a, 7, 26, FG_ON_HIT, 0, "special");
    fgt_add(b, &a);
    expect_error(b, "actions.strong.cancels[1].to", "26 is past the end of strong (26 ticks)");

    /* The issue's own example: the jab lasts 13 ticks, so its last tick is 12. */
    b = fg_ruleset_builder_create("base", NULL);
    a = fgt_neutral("idle", 0);
    fgt_add(b, &a);
    a = fgt_action("jab", 4, 2, 7);
    fgt_cancel(&a, 4, 12, FG_ON_HIT, 0, "idle");
    fgt_cancel(&a, 4, 14, FG_ON_HIT, 0, "idle");
    fgt_add(b, &a);
    fg_findings *f = fgt_findings();
    assert_null(fg_ruleset_build(b, f, NULL));
    fg_ruleset_builder_destroy(b);
    assert_int_equal(fg_findings_errors(f), 1);
    assert_string_equal(fg_findings_get(f, 0).path, "actions.jab.cancels[2].to");
    assert_string_equal(fg_findings_get(f, 0).message, "14 is past the end of jab (13 ticks)");
    fg_findings_destroy(f);
}

static void window_ending_before_it_starts_or_before_tick_0_is_an_error(void **state) {
    (void)state;
    fg_ruleset_builder *b = base(NULL);
    fg_action_def a = fgt_action("strong", 7, 3, 16);
    fgt_cancel(&a, 9, 8, FG_ON_HIT, 0, "special");
    fgt_add(b, &a);
    expect_error(b, "actions.strong.cancels[1].to", "8 is before from (9)");

    b = base(NULL);
    a = fgt_action("strong", 7, 3, 16);
    fgt_cancel(&a, -1, 8, FG_ON_HIT, 0, "special");
    fgt_add(b, &a);
    expect_error(b, "actions.strong.cancels[1].from", "-1, expected a tick >= 0");

    b = base(NULL);
    a = fgt_action("strong", 7, 3, 16);
    fgt_cancel(&a, 7, 8, FG_ON_HIT, -2, "special");
    fgt_add(b, &a);
    expect_error(b, "actions.strong.cancels[1].buffer", "-2, expected ticks >= 0");
}

static void window_into_an_unknown_action_or_tag_is_an_error(void **state) {
    (void)state;
    fg_ruleset_builder *b = base(NULL);
    fg_action_def a = fgt_action("strong", 7, 3, 16);
    fgt_cancel(&a, 7, 16, FG_ON_HIT, 0, "fireball hadoken");
    fgt_add(b, &a);
    expect_error(b, "actions.strong.cancels[1].into[2]",
                 "'hadoken' is neither an action nor a tag");

    b = base(NULL);
    a = fgt_action("strong", 7, 3, 16);
    fgt_cancel(&a, 7, 16, FG_ON_HIT, 0, "");
    fgt_add(b, &a);
    expect_error(b, "actions.strong.cancels[1].into", "is empty, expected action names or tags");
}

static void negative_cost_is_an_error(void **state) {
    (void)state;
    fg_ruleset_builder *b = base(NULL);
    fg_action_def a = fgt_action("shoryuken", 3, 10, 28);
    fgt_cost(&a, "meter", -5);
    fgt_add(b, &a);
    expect_error(b, "actions.shoryuken.cost.meter", "-5, expected a cost >= 0");
}

static void cost_of_an_undeclared_resource_is_an_error(void **state) {
    (void)state;
    fg_ruleset_builder *b = base(NULL);
    fg_action_def a = fgt_action("shoryuken", 3, 10, 28);
    fgt_cost(&a, "stamina", 20);
    fgt_add(b, &a);
    expect_error(b, "actions.shoryuken.cost.stamina", "no resource 'stamina' is declared");
}

static void marker_outside_the_duration_is_an_error(void **state) {
    (void)state;
    fg_ruleset_builder *b = base(NULL);
    fg_action_def a = fgt_action("strong", 7, 3, 16);
    fgt_marker(&a, 26, "spark");
    fgt_add(b, &a);
    expect_error(b, "actions.strong.markers[1].tick", "26 is outside strong (ticks 0-25)");

    b = base(NULL);
    a = fgt_action("strong", 7, 3, 16);
    fgt_marker(&a, 7, "spark");
    fgt_marker(&a, -1, "whoosh");
    fgt_add(b, &a);
    expect_error(b, "actions.strong.markers[2].tick", "-1 is outside strong (ticks 0-25)");
}

static void duplicate_action_name_is_an_error(void **state) {
    (void)state;
    fg_ruleset_builder *b = base(NULL);
    fg_action_def a = fgt_action("jab", 3, 2, 6);
    fgt_add(b, &a);
    expect_error(b, "actions.jab", "is declared twice");
}

static void action_on_an_undeclared_layer_is_an_error(void **state) {
    (void)state;
    fg_ruleset_builder *b = base(NULL);
    fg_ruleset_add_layer(b, "body", NULL);
    fg_ruleset_add_layer(b, "upper", NULL);
    fg_action_def a = fgt_action("taunt", 10, 20, 10);
    snprintf(a.layer, sizeof a.layer, "arms");
    fgt_add(b, &a);
    expect_error(b, "actions.taunt.layer", "'arms' is not a declared layer");
}

static void window_open_on_tick_0_into_itself_is_a_cycle(void **state) {
    (void)state;
    fg_ruleset_builder *b = base(NULL);
    fg_action_def a = fgt_action("roll", 2, 4, 6);
    fgt_cancel(&a, 0, 3, FG_ON_ALWAYS, 0, "roll");
    fgt_add(b, &a);
    expect_error(b, "actions.roll.cancels",
                 "a window open on tick 0 leads back to roll on tick 0: it could cancel into "
                 "itself within one tick");

    /* Through another action: both ends are reported. */
    b = base(NULL);
    a = fgt_action("feint_a", 2, 0, 6);
    fgt_cancel(&a, 0, 7, FG_ON_ALWAYS, 0, "feint_b");
    fgt_add(b, &a);
    a = fgt_action("feint_b", 2, 0, 6);
    fgt_cancel(&a, 0, 1, FG_ON_ALWAYS, 0, "feint_a");
    fgt_add(b, &a);
    fg_findings *f = fgt_findings();
    assert_null(fg_ruleset_build(b, f, NULL));
    fg_ruleset_builder_destroy(b);
    assert_int_equal(fg_findings_errors(f), 2);
    assert_string_equal(fg_findings_get(f, 0).path, "actions.feint_a.cancels");
    assert_string_equal(fg_findings_get(f, 1).path, "actions.feint_b.cancels");

    /* A window into itself that opens after tick 0 is a legal loop (a rapid jab). */
    b = base(NULL);
    a = fgt_action("rapid", 2, 1, 4);
    fgt_cancel(&a, 3, 6, FG_ON_ALWAYS, 0, "rapid");
    fgt_add(b, &a);
    fg_ruleset *r = fgt_build(b);
    fg_ruleset_unref(r);
    fg_findings_destroy(f);
}

static void body_layer_without_a_neutral_state_is_an_error(void **state) {
    (void)state;
    fg_ruleset_builder *b = fg_ruleset_builder_create("no_idle", NULL);
    fg_action_def a = fgt_action("jab", 4, 2, 7);
    fgt_add(b, &a);
    a = fgt_neutral("walk_forward", 6); /* a hold direction: not where a fighter returns to */
    fgt_add(b, &a);
    expect_error(b, "layers.body", "has no neutral action without a hold direction (the state "
                 "the fighter returns to, e.g. idle = { neutral = true })");
}

static void attack_without_stun_states_is_an_error(void **state) {
    (void)state;
    fg_ruleset_builder *b = base(NULL);
    fg_action_def a = fgt_action("strong", 7, 3, 16);
    fgt_hit(&a, 7, 90, 80, 9, 20, 15);
    fgt_add(b, &a);
    a = fgt_action("hitstun", 0, 0, 1);
    fgt_add(b, &a);
    expect_error(b, "actions.strong.hit", "an attack needs actions named 'hitstun' and "
                 "'blockstun' for its target");

    /* An attack also needs the tick it connects. */
    b = base(NULL);
    a = fgt_action("strong", 7, 3, 16);
    fgt_hit(&a, 7, 90, 80, 9, 20, 15);
    a.nmarkers = 0;
    fgt_add(b, &a);
    a = fgt_action("hitstun", 0, 0, 1);
    fgt_add(b, &a);
    a = fgt_action("blockstun", 0, 0, 1);
    fgt_add(b, &a);
    expect_error(b, "actions.strong.hit",
                 "needs a hit box, or a marker named 'hit' (or 'damage') for the tick its "
                 "range connects");
}

static void bad_motion_notation_names_its_column(void **state) {
    (void)state;
    fg_ruleset_builder *b = base(NULL);
    fg_motion_def m;
    memset(&m, 0, sizeof m);
    m.name = "fireball";
    m.notation = "23x6LP";
    assert_int_equal(fg_ruleset_add_motion(b, &m, NULL), FG_OK);
    expect_error(b, "motions.fireball", "fireball: \"23x6LP\": unexpected 'x' at column 3, "
                 "expected a direction or button");

    /* An action's own input is checked under its own path. */
    b = base(NULL);
    fg_action_def a = fgt_action("kick", 5, 2, 10);
    snprintf(a.input, sizeof a.input, "2MK");
    fgt_add(b, &a);
    fg_findings *f = fgt_findings();
    fg_error err;
    assert_null(fg_ruleset_build(b, f, &err));
    fg_ruleset_builder_destroy(b);
    assert_int_equal(fg_findings_errors(f), 1);
    assert_string_equal(fg_findings_get(f, 0).path, "actions.kick.input");
    assert_non_null(strstr(fg_findings_get(f, 0).message, "column 2"));
    assert_non_null(strstr(fg_findings_get(f, 0).message, "MK"));
    fg_findings_destroy(f);
}

static void negative_frame_counts_and_empty_actions_are_errors(void **state) {
    (void)state;
    fg_ruleset_builder *b = base(NULL);
    fg_action_def a = fgt_action("strong", -1, 3, 16);
    fgt_add(b, &a);
    expect_error(b, "actions.strong.startup", "-1, expected a count of ticks >= 0");

    b = base(NULL);
    a = fgt_action("nothing", 0, 0, 0);
    fgt_add(b, &a);
    expect_error(b, "actions.nothing", "lasts 0 ticks, expected at least 1");
}

static void other_references_are_checked_too(void **state) {
    (void)state;
    fg_ruleset_builder *b = base(NULL);
    fg_action_def a = fgt_action("strong", 7, 3, 16);
    snprintf(a.next, sizeof a.next, "idel");
    fgt_add(b, &a);
    expect_error(b, "actions.strong.next", "'idel' is not an action");

    b = base(NULL);
    a = fgt_action("taunt", 10, 20, 10);
    a.nforbids = 1;
    snprintf(a.forbids[0], FG_NAME_MAX, "movment");
    fgt_add(b, &a);
    expect_error(b, "actions.taunt.forbids[1]", "'movment' is neither an action nor a tag");

    b = base(NULL);
    a = fgt_action("dive", 3, 3, 3);
    snprintf(a.requires, sizeof a.requires, "air");
    fgt_add(b, &a);
    expect_error(b, "actions.dive.requires", "'air' is not a state group (groups: grounded, "
                 "airborne, or one an action declares)");

    b = base(NULL);
    a = fgt_neutral("walk", 11);
    fgt_add(b, &a);
    expect_error(b, "actions.walk.hold", "11, expected a numpad direction 1..9");

    b = base(NULL);
    fgt_resource(b, "stamina", 100, 120);
    expect_error(b, "resources.stamina", "start 120, expected 0..max (100)");
}

static void every_error_is_reported_not_just_the_first(void **state) {
    (void)state;
    fg_ruleset_builder *b = base(NULL);
    fg_action_def a = fgt_action("strong", 7, 3, 16);
    fgt_cancel(&a, 7, 30, FG_ON_HIT, 0, "special");
    fgt_cost(&a, "stamina", 10);
    fgt_marker(&a, 40, "spark");
    fgt_add(b, &a);
    fg_findings *f = fgt_findings();
    fg_error err;
    assert_null(fg_ruleset_build(b, f, &err));
    fg_ruleset_builder_destroy(b);
    assert_int_equal(fg_findings_errors(f), 3);
    assert_int_equal(fg_findings_count(f), 3);
    assert_string_equal(fg_findings_get(f, 0).path, "actions.strong.cancels[1].to");
    assert_string_equal(fg_findings_get(f, 1).path, "actions.strong.markers[1].tick");
    assert_string_equal(fg_findings_get(f, 2).path, "actions.strong.cost.stamina");
    /* err holds the first. */
    assert_string_equal(fg_error_message(&err), "actions.strong.cancels[1].to: 30 is past the end of strong (26 "
                                 "ticks)");
    fg_findings_destroy(f);
}

static void refused_declaration_fails_the_build_with_its_message(void **state) {
    (void)state;
    fg_ruleset_builder *b = base(NULL);
    fg_error err;
    assert_int_equal(fg_ruleset_add_layer(b, "body", &err), FG_OK);
    assert_int_equal(fg_ruleset_add_layer(b, "body", &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "layers: 'body' is declared twice");
    fg_action_def a = fgt_action("", 1, 1, 1);
    assert_int_equal(fg_ruleset_add_action(b, &a, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "actions: name '' must be 1 to 31 characters");
    fg_findings *f = fgt_findings();
    assert_null(fg_ruleset_build(b, f, &err));
    fg_ruleset_builder_destroy(b);
    /* The first refusal is what the build reports. */
    assert_string_equal(fg_error_message(&err), "layers: 'body' is declared twice");
    assert_int_equal(fg_findings_errors(f), 1);
    fg_findings_destroy(f);
}

static void motion_lint_warns_without_stopping_the_build(void **state) {
    (void)state;
    fg_ruleset_builder *b = base(NULL);
    fg_motion_def m;
    memset(&m, 0, sizeof m);
    m.name = "fireball";
    m.notation = "236LP";
    fg_ruleset_add_motion(b, &m, NULL);
    fg_action_def a = fgt_action("double", 5, 5, 30);
    fgt_tag(&a, "special");
    fgt_add(b, &a);
    m.name = "double";
    m.notation = "236236LP";
    fg_ruleset_add_motion(b, &m, NULL);
    fg_findings *f = fgt_findings();
    fg_ruleset *r = fg_ruleset_build(b, f, NULL);
    fg_ruleset_builder_destroy(b);
    assert_non_null(r);
    assert_int_equal(fg_findings_errors(f), 0);
    assert_true(fg_findings_count(f) >= 1);
    assert_true((fg_findings_get(f, 0).severity == FG_SEVERITY_WARNING));
    assert_string_equal(fg_findings_get(f, 0).path, "motions");
    assert_non_null(strstr(fg_findings_get(f, 0).message, "double"));
    assert_non_null(strstr(fg_findings_get(f, 0).message, "fireball"));
    fg_ruleset_unref(r);
    fg_findings_destroy(f);
}

/* }====================================================================== */

/* {====================================================================== ids and hashes */

static void ids_and_hash_do_not_depend_on_declaration_order(void **state) {
    (void)state;
    fg_ruleset *one = fgt_fighter();
    uint32_t n = fg_ruleset_action_count(one);
    fg_action_def defs[64];
    assert_true(n <= 64);
    for (uint32_t i = 0; i < n; i++) defs[i] = *fg_ruleset_action(one, i);

    /* Everything declared in reverse: buttons, layers, resources and actions. */
    fg_ruleset_builder *b = fg_ruleset_builder_create("tester", NULL);
    fg_ruleset_add_button(b, "HP", NULL);
    fg_ruleset_add_button(b, "LP", NULL);
    fg_ruleset_add_layer(b, "upper", NULL);
    fg_ruleset_add_layer(b, "body", NULL);
    fgt_resource(b, "meter", 300, 0);
    fgt_resource(b, "health", 1000, 1000);
    for (uint32_t i = n; i-- > 0;) fgt_add(b, &defs[i]);
    fg_ruleset *two = fgt_build(b);

    assert_int_equal(fg_ruleset_hash(one), fg_ruleset_hash(two));
    for (uint32_t i = 0; i < n; i++)
        assert_int_equal(fg_ruleset_find_action(two, fg_ruleset_action(one, i)->name), (int)i);
    assert_int_equal(fg_ruleset_find_resource(one, "meter"),
                     fg_ruleset_find_resource(two, "meter"));
    assert_int_equal(fg_ruleset_find_layer(two, "body"), 0);

    /* A changed frame count is a different ruleset. */
    b = fg_ruleset_builder_create("tester", NULL);
    fg_ruleset_add_button(b, "LP", NULL);
    fg_ruleset_add_button(b, "HP", NULL);
    fg_ruleset_add_layer(b, "body", NULL);
    fg_ruleset_add_layer(b, "upper", NULL);
    fgt_resource(b, "health", 1000, 1000);
    fgt_resource(b, "meter", 300, 0);
    find(defs, (int)n, "jab")->recovery = 8;
    for (uint32_t i = 0; i < n; i++) fgt_add(b, &defs[i]);
    fg_ruleset *three = fgt_build(b);
    assert_int_not_equal(fg_ruleset_hash(one), fg_ruleset_hash(three));
    fg_ruleset_unref(one);
    fg_ruleset_unref(two);
    fg_ruleset_unref(three);
}

static void compiled_definition_reports_its_whole_duration(void **state) {
    (void)state;
    fg_ruleset_builder *b = base(NULL);
    fg_action_def a = fg_action_def_default("strong"); /* duration 1, as a fresh default */
    a.startup = 7;
    a.active = 3;
    a.recovery = 16;
    fgt_add(b, &a);
    fg_ruleset *r = fgt_build(b);
    const fg_action_def *s = fg_ruleset_action(r, fgt_id(r, "strong"));
    assert_int_equal(s->duration, 26);
    /* The window check used the same 26 ticks. */
    fg_ruleset_unref(r);
}

/* }====================================================================== */

/* {====================================================================== memory */

static void failed_build_frees_everything(void **state) {
    (void)state;
    fg_counting_allocator c;
    fg_allocator a = fg_test_counting_allocator(&c);
    fg_ruleset_builder *b = base(&a);
    fg_action_def x = fgt_action("strong", 7, 3, 16);
    fgt_cancel(&x, 7, 30, FG_ON_HIT, 0, "nowhere");
    fgt_add(b, &x);
    fg_motion_def m;
    memset(&m, 0, sizeof m);
    m.name = "fireball";
    m.notation = "236LP";
    fg_ruleset_add_motion(b, &m, NULL);
    assert_null(fg_ruleset_build(b, NULL, NULL));
    fg_ruleset_builder_destroy(b);
    assert_int_equal(c.live_bytes, 0);
    assert_true(c.allocations > 0);

    /* A motion that fails to compile after the actions passed. */
    b = base(&a);
    m.notation = "23x6LP";
    fg_ruleset_add_motion(b, &m, NULL);
    assert_null(fg_ruleset_build(b, NULL, NULL));
    fg_ruleset_builder_destroy(b);
    assert_int_equal(c.live_bytes, 0);
}

static void every_failed_allocation_fails_cleanly(void **state) {
    (void)state;
    fg_counting_allocator c;
    fg_allocator a = fg_test_counting_allocator(&c);
    /* Count the allocations of a full build, then fail each one in turn. */
    fg_ruleset *r = fgt_build(fgt_fighter_builder(&a));
    size_t total = c.allocations;
    fg_ruleset_unref(r);
    assert_int_equal(c.live_bytes, 0);
    int failures = 0;
    for (size_t k = 0; k < total; k++) {
        a = fg_test_counting_allocator(&c);
        c.fail_after = (long)k;
        fg_ruleset_builder *b = fg_ruleset_builder_create("tester", &a);
        if (b) {
            fg_ruleset_add_button(b, "LP", NULL);
            fg_action_def idle = fgt_neutral("idle", 0);
            fg_error err;
            for (int i = 0; i < 40; i++) {
                char name[16];
                snprintf(name, sizeof name, "act%02d", i);
                fg_action_def x = fgt_action(name, 2, 2, 2);
                snprintf(x.input, sizeof x.input, "%s", i % 4 == 0 ? "236LP" : "");
                fg_ruleset_add_action(b, &x, &err);
            }
            fg_ruleset_add_action(b, &idle, &err);
            fg_ruleset *got = fg_ruleset_build(b, NULL, &err);
            if (!got) {
                failures++;
                assert_true(fg_error_message(&err)[0] != '\0');
            }
            fg_ruleset_unref(got);
            fg_ruleset_builder_destroy(b);
        } else {
            failures++;
        }
        if (c.live_bytes != 0) fail_msg("%zu bytes left after failing allocation %zu",
                                        c.live_bytes, k);
    }
    assert_true(failures > 0);
}

/* }====================================================================== */

/* {====================================================================== fg_action_diff */

typedef struct paths {
    char text[512];
} paths;

static void collect(void *ud, const char *path) {
    paths *p = ud;
    size_t len = strlen(p->text);
    snprintf(p->text + len, sizeof p->text - len, "%s%s", len ? " " : "", path);
}

static paths diff_paths(const fg_action_def *a, const fg_action_def *b) {
    paths p = {{0}};
    uint32_t n = fg_action_diff(a, b, collect, &p);
    assert_int_equal(n, fg_action_diff(a, b, NULL, NULL)); /* counting alone agrees */
    return p;
}

static void action_diff_names_each_field_as_a_designer_writes_it(void **state) {
    (void)state;
    fg_action_def a = fg_action_def_default("jab"), b = a;
    assert_int_equal(fg_action_diff(&a, &b, NULL, NULL), 0);
    /* Bytes after a string's end are not part of the definition. */
    b.group[strlen(b.group) + 2] = 'x';
    assert_int_equal(fg_action_diff(&a, &b, NULL, NULL), 0);

    a.nboxes = b.nboxes = 2;
    a.boxes[1].box.w = FG_FX(40);
    b.boxes[1].box.w = FG_FX(55);
    b.hit.enabled = a.hit.enabled = true;
    b.hit.launch_vy = FG_FX(9);
    b.startup = 5;
    assert_string_equal(diff_paths(&a, &b).text, "startup hit.launch.vy boxes[2].w");

    /* A second hit definition in use: every definition is numbered. */
    b = a;
    b.hits[1] = a.hits[0];
    b.hits[1].damage = 7;
    assert_string_equal(diff_paths(&a, &b).text, "hit[2].enabled hit[2].damage");

    /* A list of another length is one change; so are cancel conditions and throws. */
    b = a;
    b.nboxes = 3;
    b.ncancels = a.ncancels = 1;
    snprintf(b.cancels[0].when_var, sizeof b.cancels[0].when_var, "stance");
    b.throw_def.enabled = true;
    b.has_gravity = true;
    assert_string_equal(diff_paths(&a, &b).text,
                        "cancels[1].when throw.enabled boxes gravity");

    /* Variable changes, by the moment they happen. */
    b = a;
    b.var_effects[b.nvar_effects++] = (fg_var_effect_def){"charge", FG_VAR_ON_HIT, 1, 2};
    assert_string_equal(diff_paths(&a, &b).text, "on_hit");
}

/* }====================================================================== */

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(window_past_the_end_of_its_action_is_an_error),
        cmocka_unit_test(window_ending_before_it_starts_or_before_tick_0_is_an_error),
        cmocka_unit_test(window_into_an_unknown_action_or_tag_is_an_error),
        cmocka_unit_test(negative_cost_is_an_error),
        cmocka_unit_test(cost_of_an_undeclared_resource_is_an_error),
        cmocka_unit_test(marker_outside_the_duration_is_an_error),
        cmocka_unit_test(duplicate_action_name_is_an_error),
        cmocka_unit_test(action_on_an_undeclared_layer_is_an_error),
        cmocka_unit_test(window_open_on_tick_0_into_itself_is_a_cycle),
        cmocka_unit_test(body_layer_without_a_neutral_state_is_an_error),
        cmocka_unit_test(attack_without_stun_states_is_an_error),
        cmocka_unit_test(bad_motion_notation_names_its_column),
        cmocka_unit_test(negative_frame_counts_and_empty_actions_are_errors),
        cmocka_unit_test(other_references_are_checked_too),
        cmocka_unit_test(every_error_is_reported_not_just_the_first),
        cmocka_unit_test(refused_declaration_fails_the_build_with_its_message),
        cmocka_unit_test(motion_lint_warns_without_stopping_the_build),
        cmocka_unit_test(ids_and_hash_do_not_depend_on_declaration_order),
        cmocka_unit_test(compiled_definition_reports_its_whole_duration),
        cmocka_unit_test(failed_build_frees_everything),
        cmocka_unit_test(every_failed_allocation_fails_cleanly),
        cmocka_unit_test(action_diff_names_each_field_as_a_designer_writes_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
