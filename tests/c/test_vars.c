/* SPDX-License-Identifier: MIT */
/*
** test_vars.c: per-entity variables through the C API. Declaration and its findings; a request
** hook (the C form of a request rule) that proposes changes, committed by the gate and traced;
** every other way of changing them refused; a failed rule's proposals dropped; the scenario of
** variables surviving a snapshot and restore (and a snapshot with a value out of range refused);
** a reload that keeps values by name; rollback at every distance with proposals on many ticks.
*/
#include "fg_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules_fixture.h"

/* stance 0..2 (start 0), armed (a flag), charge 0..10 (start 3). */
static fg_ruleset_builder *with_vars(fg_ruleset_builder *b) {
    fg_var_def v = fg_var_def_default("stance");
    v.min = 0;
    v.max = 2;
    assert_int_equal(fg_ruleset_add_var(b, &v, NULL), FG_OK);
    v = fg_var_def_default("charge");
    v.min = 0;
    v.max = 10;
    v.start = 3;
    assert_int_equal(fg_ruleset_add_var(b, &v, NULL), FG_OK);
    v = fg_var_def_default("armed");
    v.flag = true;
    assert_int_equal(fg_ruleset_add_var(b, &v, NULL), FG_OK);
    return b;
}

/* Ids follow sorted names: armed 0, charge 1, stance 2. */
enum { ARMED = 0, CHARGE = 1, STANCE = 2 };

typedef struct hook_state {
    const fg_ruleset *r;
    int fail_after_proposing; /* the rule proposes, then fails */
    int calls;
    fg_status refused;        /* what proposing for the other entity returned */
} hook_state;

/* The request rule: asking for the stance action cycles the stance, adds 4 charge, arms. */
static fg_status request_rule(void *ud, fg_world *w, const fg_decision *d, fg_verdict *out,
                              fg_error *err) {
    hook_state *h = ud;
    h->calls++;
    out->kind = FG_VERDICT_DEFAULT;
    if (d->action != fgt_id(h->r, "stance")) return FG_OK;
    int32_t next = (fg_world_var(w, d->entity, STANCE) + 1) % 3;
    fg_status st = fg_world_propose_var(w, d->entity, STANCE, FG_VAR_SET, next, err);
    if (st == FG_OK) st = fg_world_propose_var(w, d->entity, CHARGE, FG_VAR_ADD, 4, err);
    if (st == FG_OK) st = fg_world_propose_var(w, d->entity, ARMED, FG_VAR_SET, 1, err);
    h->refused = fg_world_propose_var(w, d->entity == 1 ? 2 : 1, STANCE, FG_VAR_SET, 1, NULL);
    if (st == FG_OK && h->fail_after_proposing) return fg_error_set(err, FG_ERULE, "rule failed");
    return st;
}

static bool has_rule(void *ud, const fg_world *w, uint32_t slot) {
    (void)ud, (void)w, (void)slot;
    return true;
}

static fgt_duel duel(hook_state *h) {
    fg_ruleset *r = fgt_build(with_vars(fgt_fighter_builder(NULL)));
    h->r = r;
    fg_world_hooks hooks = {h, has_rule, request_rule};
    return fgt_duel_new(r, 300, &hooks, NULL);
}

static void variables_start_at_their_start_values_with_ids_by_name(void **state) {
    (void)state;
    hook_state h = {0};
    fgt_duel d = duel(&h);
    assert_int_equal(fg_ruleset_var_count(d.r), 3);
    assert_int_equal(fg_ruleset_find_var(d.r, "stance"), STANCE);
    assert_string_equal(fg_ruleset_var(d.r, ARMED)->name, "armed");
    assert_int_equal(fg_ruleset_var(d.r, ARMED)->max, 1);
    assert_int_equal(fg_world_var(d.w, d.p1, CHARGE), 3);
    assert_int_equal(fg_world_var(d.w, d.p2, STANCE), 0);
    assert_int_equal(fg_world_var(d.w, d.p1, 7), 0); /* no such variable */
    fgt_duel_free(&d);
}

static void the_gate_commits_what_the_rule_proposed(void **state) {
    (void)state;
    hook_state h = {0};
    fgt_duel d = duel(&h);
    fgt_request(&d, d.p1, "stance");
    fgt_run(&d, 1);
    assert_int_equal(fg_world_var(d.w, d.p1, STANCE), 1);
    assert_int_equal(fg_world_var(d.w, d.p1, CHARGE), 7);
    assert_int_equal(fg_world_var(d.w, d.p1, ARMED), 1);
    assert_int_equal(fg_world_var(d.w, d.p2, STANCE), 0);
    assert_int_equal(h.refused, FG_EINVAL); /* a rule changes its own entity's variables only */
    fgt_run(&d, 30);
    fgt_request(&d, d.p1, "stance");
    fgt_run(&d, 1);
    assert_int_equal(fg_world_var(d.w, d.p1, CHARGE), 10); /* 7 + 4, kept in 0..10 */
    char line[256] = "";
    for (uint32_t i = 0; i < fg_world_trace_count(d.w); i++) {
        const fg_trace_record *r = fg_world_trace_at(d.w, i);
        if (r->kind == FG_TRACE_VAR && r->code == CHARGE)
            fg_world_trace_format(d.w, r, line, sizeof line);
    }
    assert_non_null(strstr(line, "e1 var charge: 7 -> 10 (add 4)"));
    fgt_duel_free(&d);
}

static void nothing_else_changes_a_variable(void **state) {
    (void)state;
    hook_state h = {0};
    fgt_duel d = duel(&h);
    fg_error err;
    assert_int_equal(fg_world_propose_var(d.w, d.p1, STANCE, FG_VAR_SET, 1, &err), FG_ESTATE);
    assert_non_null(strstr(fg_error_message(&err), "variables change only through a request rule"));
    fgt_run(&d, 2);
    assert_int_equal(fg_world_var(d.w, d.p1, STANCE), 0);
    fgt_duel_free(&d);
}

static void a_failed_rule_has_its_proposals_dropped(void **state) {
    (void)state;
    hook_state h = {0};
    h.fail_after_proposing = 1;
    fgt_duel d = duel(&h);
    fgt_request(&d, d.p1, "stance");
    fgt_run(&d, 1);
    assert_true(h.calls > 0);
    assert_int_equal(fg_world_var(d.w, d.p1, STANCE), 0);
    assert_int_equal(fg_world_var(d.w, d.p1, CHARGE), 3);
    fgt_duel_free(&d);
}

static void declaration_mistakes_name_the_path_and_the_value(void **state) {
    (void)state;
    fg_ruleset_builder *b = fgt_fighter_builder(NULL);
    fg_var_def v = fg_var_def_default("stance");
    v.min = 0;
    v.max = 2;
    v.start = 5;
    assert_int_equal(fg_ruleset_add_var(b, &v, NULL), FG_OK);
    v = fg_var_def_default("lo");
    v.min = 3;
    v.max = 1;
    assert_int_equal(fg_ruleset_add_var(b, &v, NULL), FG_OK);
    fg_findings *f = NULL;
    assert_int_equal(fg_findings_create(NULL, &f, NULL), FG_OK);
    assert_null(fg_ruleset_build(b, f, NULL));
    fg_ruleset_builder_destroy(b);
    bool start = false, max = false;
    for (uint32_t i = 0; i < fg_findings_count(f); i++) {
        fg_finding x = fg_findings_get(f, i);
        start |= !strcmp(x.path, "vars.stance.start") &&
                 !strcmp(x.message, "5, expected a value in 0..2");
        max |= !strcmp(x.path, "vars.lo.max") && !strcmp(x.message, "1 is below min (3)");
    }
    fg_findings_destroy(f);
    assert_true(start && max);

    b = fgt_fighter_builder(NULL);
    fg_error err;
    v = fg_var_def_default("stance");
    assert_int_equal(fg_ruleset_add_var(b, &v, &err), FG_OK);
    assert_int_equal(fg_ruleset_add_var(b, &v, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "vars.stance: declared twice");
    for (int i = 1; i < FG_MAX_VARS; i++) {
        snprintf(v.name, sizeof v.name, "v%d", i);
        assert_int_equal(fg_ruleset_add_var(b, &v, NULL), FG_OK);
    }
    snprintf(v.name, sizeof v.name, "one_more");
    assert_int_equal(fg_ruleset_add_var(b, &v, &err), FG_ENOMEM);
    assert_string_equal(fg_error_message(&err), "vars.one_more: at most 8 variables per ruleset");
    fg_ruleset_builder_destroy(b);
}

/* An action's own changes from C: on start, without any rule (no hooks at all), traced; and a
** change naming no variable refused by path. */
static void an_action_changes_variables_when_it_starts(void **state) {
    (void)state;
    fg_ruleset_builder *b = with_vars(fgt_fighter_builder(NULL));
    fg_action_def a = fgt_action("focus", 2, 0, 3);
    a.var_effects[a.nvar_effects++] = (fg_var_effect_def){"charge", FG_VAR_ON_START, FG_VAR_ADD, 2};
    a.var_effects[a.nvar_effects++] = (fg_var_effect_def){"stance", FG_VAR_ON_START, FG_VAR_SET, 1};
    fgt_add(b, &a);
    fgt_duel d = fgt_duel_new(fgt_build(b), 300, NULL, NULL);
    fgt_request(&d, d.p1, "focus");
    fgt_run(&d, 3);
    assert_int_equal(fg_world_var(d.w, d.p1, CHARGE), 5);
    assert_int_equal(fg_world_var(d.w, d.p1, STANCE), 1);
    assert_int_equal(fg_world_var(d.w, d.p2, CHARGE), 3);
    fgt_run(&d, 10);
    fgt_request(&d, d.p1, "focus");
    fgt_run(&d, 3);
    assert_int_equal(fg_world_var(d.w, d.p1, CHARGE), 7);
    fgt_duel_free(&d);

    b = with_vars(fgt_fighter_builder(NULL));
    a = fgt_action("focus", 2, 0, 3);
    a.var_effects[a.nvar_effects++] = (fg_var_effect_def){"stamina", FG_VAR_ON_HIT, FG_VAR_ADD, 1};
    a.var_effects[a.nvar_effects++] = (fg_var_effect_def){"charge", 7, FG_VAR_ADD, 1};
    fgt_add(b, &a);
    fg_findings *f = NULL;
    assert_int_equal(fg_findings_create(NULL, &f, NULL), FG_OK);
    assert_null(fg_ruleset_build(b, f, NULL));
    fg_ruleset_builder_destroy(b);
    bool named = false, when = false;
    for (uint32_t i = 0; i < fg_findings_count(f); i++) {
        fg_finding x = fg_findings_get(f, i);
        named |= !strcmp(x.path, "actions.focus.on_hit.add.stamina") &&
                 strstr(x.message, "'stamina' is not a variable") != NULL;
        when |= !strcmp(x.path, "actions.focus.var_effects[2]") &&
                !strcmp(x.message, "when 7, op 1: expected FG_VAR_ON_START or FG_VAR_ON_HIT, "
                                   "and FG_VAR_SET or FG_VAR_ADD");
    }
    fg_findings_destroy(f);
    assert_true(named && when);
}

/* {====================================================================== snapshots */

static void variables_survive_a_snapshot_and_restore(void **state) {
    (void)state;
    hook_state h = {0};
    fgt_duel d = duel(&h);
    fgt_request(&d, d.p1, "stance");
    fgt_run(&d, 1);
    size_t size = fg_world_snapshot_size(d.w);
    unsigned char *snap = malloc(fg_world_snapshot_capacity(d.w));
    assert_int_equal(fg_world_save(d.w, snap, size, NULL), FG_OK);
    uint64_t hash = fg_world_hash(d.w);
    fgt_run(&d, 30);
    fgt_request(&d, d.p1, "stance");
    fgt_request(&d, d.p2, "stance");
    fgt_run(&d, 1);
    assert_int_equal(fg_world_var(d.w, d.p1, STANCE), 2);
    assert_int_equal(fg_world_var(d.w, d.p2, STANCE), 1);
    assert_true(fg_world_hash(d.w) != hash);
    assert_int_equal(fg_world_restore(d.w, snap, size, NULL), FG_OK);
    assert_int_equal(fg_world_var(d.w, d.p1, STANCE), 1);
    assert_int_equal(fg_world_var(d.w, d.p1, CHARGE), 7);
    assert_int_equal(fg_world_var(d.w, d.p1, ARMED), 1);
    assert_int_equal(fg_world_var(d.w, d.p2, STANCE), 0);
    assert_int_equal(fg_world_hash(d.w), hash);
    free(snap);
    fgt_duel_free(&d);
}

/* {====================================================================== reloads */

static void a_reload_keeps_values_by_name(void **state) {
    (void)state;
    hook_state h = {0};
    fgt_duel d = duel(&h);
    fgt_request(&d, d.p1, "stance");
    fgt_run(&d, 1); /* stance 1, charge 7, armed */
    fg_ruleset_builder *b = fgt_fighter_builder(NULL);
    fg_var_def v = fg_var_def_default("charge"); /* now 0..5: 7 is kept as 5 */
    v.min = 0;
    v.max = 5;
    fg_ruleset_add_var(b, &v, NULL);
    v = fg_var_def_default("stance");
    v.min = 0;
    v.max = 2;
    fg_ruleset_add_var(b, &v, NULL);
    v = fg_var_def_default("guard"); /* new: its start */
    v.start = 40;
    fg_ruleset_add_var(b, &v, NULL);
    fg_ruleset *r2 = fgt_build(b);
    assert_int_equal(fg_world_replace_rules(d.w, 0, r2, NULL), FG_OK);
    h.r = r2;
    assert_int_equal(fg_world_var(d.w, d.p1, 0), 5);  /* charge */
    assert_int_equal(fg_world_var(d.w, d.p1, 1), 40); /* guard */
    assert_int_equal(fg_world_var(d.w, d.p1, 2), 1);  /* stance */
    fg_ruleset_unref(r2);
    fgt_duel_free(&d);
}

/* }====================================================================== */

/* {====================================================================== rollback */

static void proposals_survive_rollback_at_every_distance(void **state) {
    (void)state;
    for (uint32_t check = 1; check <= FG_SYNCTEST_MAX_CHECK; check++) {
        hook_state h = {0};
        fgt_duel d = duel(&h);
        fg_synctest_config cfg = fg_synctest_config_default();
        cfg.check = check;
        fg_synctest *st = NULL;
        fg_error err;
        assert_int_equal(fg_synctest_create(d.w, &cfg, &st, &err), FG_OK);
        uint32_t stance = fgt_id(d.r, "stance");
        for (int t = 0; t < 200; t++) {
            if (t % 23 == 0)
                assert_int_equal(fg_world_request(d.w, d.p1, stance, FG_REQ_SCRIPT, &err), FG_OK);
            if (t % 29 == 3)
                assert_int_equal(fg_world_request(d.w, d.p2, stance, FG_REQ_SCRIPT, &err), FG_OK);
            if (fg_synctest_advance(st, &err) != FG_OK) {
                char line[512];
                fg_synctest_report_format(fg_synctest_last_report(st), line, sizeof line);
                fail_msg("distance %u, tick %d: %s\n%s", check, t, fg_error_message(&err), line);
            }
        }
        assert_true(fg_synctest_get_stats(st).compared > 150);
        assert_int_equal(fg_world_var(d.w, d.p1, CHARGE), 10);
        assert_true(fg_world_var(d.w, d.p1, STANCE) != 0 || fg_world_var(d.w, d.p2, STANCE) != 0);
        fg_synctest_destroy(st);
        fgt_duel_free(&d);
    }
}

/* }====================================================================== */

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(variables_start_at_their_start_values_with_ids_by_name),
        cmocka_unit_test(the_gate_commits_what_the_rule_proposed),
        cmocka_unit_test(nothing_else_changes_a_variable),
        cmocka_unit_test(a_failed_rule_has_its_proposals_dropped),
        cmocka_unit_test(declaration_mistakes_name_the_path_and_the_value),
        cmocka_unit_test(an_action_changes_variables_when_it_starts),
        cmocka_unit_test(variables_survive_a_snapshot_and_restore),
        cmocka_unit_test(a_reload_keeps_values_by_name),
        cmocka_unit_test(proposals_survive_rollback_at_every_distance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
