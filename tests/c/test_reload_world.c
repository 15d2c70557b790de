/* SPDX-License-Identifier: MIT */
/*
** test_reload_world.c: swapping a ruleset under a running world (fg_world_replace_rules). Action
** ids are positions in sorted names, so a reload that adds an action shifts them: everything that
** holds an id across the swap must be carried over by name.
*/
#include "rules_fixture.h"

#include <string.h>

/* The test fighter plus an action whose name sorts first, shifting every other id by one. */
static fg_ruleset *shifted_fighter(void) {
    fg_ruleset_builder *b = fgt_fighter_builder(NULL);
    fg_action_def first = fgt_action("aaa_first", 2, 2, 2);
    fgt_add(b, &first);
    return fgt_build(b);
}

/* Rule: a request queued before a reload still asks for the same action afterwards, by name. */
static void queued_request_keeps_its_action_across_a_reload(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(fgt_fighter(), 70, NULL, NULL);
    fgt_request(&d, d.p1, "jab");
    fgt_run(&d, 1);
    fgt_request(&d, d.p1, "fireball"); /* waits for jab's window (on hit): queued */
    fgt_run(&d, 1);
    assert_string_equal(fgt_running(&d, d.p1, 0), "jab");
    fg_ruleset *next = shifted_fighter();
    assert_int_not_equal(fgt_id(next, "fireball"), fgt_id(d.r, "fireball"));
    assert_int_equal(fg_world_replace_rules(d.w, 0, next, NULL), FG_OK);
    fg_ruleset_unref(next);
    fgt_run(&d, 30);
    char buf[256];
    int found = 0;
    for (uint32_t i = 0; i < fg_world_trace_count(d.w); i++) {
        const fg_trace_record *r = fg_world_trace_at(d.w, i);
        if (r->kind != FG_TRACE_DECISION) continue;
        fg_world_trace_format(d.w, r, buf, sizeof buf);
        print_message("%s\n", buf);
        if (strstr(buf, "accepted: fireball cancels jab")) found++;
    }
    assert_int_equal(found, 1);
    fgt_duel_free(&d);
}

/* Rule: records made before a reload keep the names they were made with. */
static void trace_names_survive_a_reload(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(fgt_fighter(), 300, NULL, NULL);
    fgt_request(&d, d.p1, "jab");
    fgt_run(&d, 2);
    fg_ruleset *next = shifted_fighter();
    assert_int_equal(fg_world_replace_rules(d.w, 0, next, NULL), FG_OK);
    fg_ruleset_unref(next);
    char buf[256];
    int jab_lines = 0;
    for (uint32_t i = 0; i < fg_world_trace_count(d.w); i++) {
        fg_world_trace_format(d.w, fg_world_trace_at(d.w, i), buf, sizeof buf);
        if (strstr(buf, "accepted: jab from idle") || strstr(buf, "idle -> jab")) jab_lines++;
        assert_null(strstr(buf, "aaa_first"));
    }
    assert_int_equal(jab_lines, 2);
    /* The jab in flight finishes on the version it started with, then idle from the new rules. */
    fgt_run(&d, 20);
    assert_string_equal(fgt_running(&d, d.p1, 0), "idle");
    fgt_duel_free(&d);
}

/* Rule: a queued request for an action the new rules no longer have is dropped, with a note. */
static void queued_request_for_a_removed_action_is_dropped(void **state) {
    (void)state;
    fgt_duel d = fgt_duel_new(fgt_fighter(), 70, NULL, NULL);
    fgt_request(&d, d.p1, "jab");
    fgt_run(&d, 1);
    fgt_request(&d, d.p1, "fireball");
    fgt_run(&d, 1);
    /* New rules without "fireball": build them from the simple neutral set. */
    fg_ruleset_builder *b = fg_ruleset_builder_create("fgt", NULL);
    const fg_action_names *names = fg_ruleset_buttons(d.r);
    for (uint32_t i = FG_IN_FIRST_BUTTON; i < names->count; i++)
        fg_ruleset_add_button(b, names->names[i], NULL);
    for (uint32_t l = 0; l < fg_ruleset_layer_count(d.r); l++)
        fg_ruleset_add_layer(b, fg_ruleset_layer_name(d.r, l), NULL);
    for (uint32_t a = 0; a < fg_ruleset_action_count(d.r); a++) {
        const fg_action_def *def = fg_ruleset_action(d.r, a);
        if (strcmp(def->name, "fireball") == 0) continue;
        fg_action_def copy = *def;
        for (uint32_t c = 0; c < copy.ncancels; c++)
            for (uint32_t t = 0; t < copy.cancels[c].ntargets; t++)
                if (!strcmp(copy.cancels[c].targets[t], "fireball"))
                    snprintf(copy.cancels[c].targets[t], FG_NAME_MAX, "special");
        fg_ruleset_add_action(b, &copy, NULL);
    }
    for (uint32_t k = 0; k < fg_ruleset_resource_count(d.r); k++)
        fg_ruleset_add_resource(b, fg_ruleset_resource(d.r, k), NULL);
    fg_ruleset *next = fgt_build(b);
    uint64_t before = fg_world_trace_count(d.w);
    assert_int_equal(fg_world_replace_rules(d.w, 0, next, NULL), FG_OK);
    fg_ruleset_unref(next);
    /* The reload itself and the note about the dropped request are traced. */
    assert_true(fg_world_trace_count(d.w) == before + 2);
    const fg_trace_record *reload = fg_world_trace_at(d.w, (uint32_t)before);
    const fg_trace_record *note = fg_world_trace_at(d.w, (uint32_t)before + 1);
    assert_int_equal(reload->kind, FG_TRACE_RELOAD);
    assert_non_null(strstr(fg_world_trace_text(d.w, note), "queued request for 'fireball' was dropped"));
    fgt_run(&d, 30);
    assert_string_equal(fgt_running(&d, d.p1, 0), "idle");
    fgt_duel_free(&d);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(queued_request_keeps_its_action_across_a_reload),
        cmocka_unit_test(trace_names_survive_a_reload),
        cmocka_unit_test(queued_request_for_a_removed_action_is_dropped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
