/* SPDX-License-Identifier: MIT */
/*
** test_lua_host.c: the installed C API for Lua rules (framegate/lua.h), used as an engine uses
** it: no Lua of its own, only the public header. Rules load from a string and from a file, the Lua
** request rule decides, a bad file is refused with its line and field, a reload swaps the rules or
** leaves the old ones running, a changed file is noticed, the what-if report names what the new
** rules decide differently, and the sandbox's budget stops a runaway rule without stopping the
** tick.
*/
#include "fg_test.h"
#include "framegate/lua.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rules whose request rule refuses the jab (RULE = "reject") or lets the data decide. */
static char *rules_text(int startup, const char *rule) {
    static const char fmt[] =
        "local fg = require \"framegate\"\n"
        "return fg.ruleset \"probe\" {\n"
        "  buttons = { \"LP\" },\n"
        "  actions = {\n"
        "    idle = { neutral = true, loop = true, duration = 1 },\n"
        "    jab = { input = \"LP\", startup = %d, active = 2, recovery = 7 },\n"
        "  },\n"
        "  request = function(me, req)\n"
        "    %s\n"
        "    return fg.default\n"
        "  end,\n"
        "}\n";
    const char *body = strcmp(rule, "reject") == 0
                           ? "if req.action == \"jab\" then return fg.reject(\"no jabs here\") end"
                       : strcmp(rule, "loop") == 0 ? "while true do end"
                                                   : "";
    size_t size = sizeof fmt + strlen(body) + 16;
    char *text = malloc(size);
    snprintf(text, size, fmt, startup, body);
    return text;
}

static fg_lua_host *load(int startup, const char *rule, const fg_lua_options *opt) {
    char *text = rules_text(startup, rule);
    fg_error err;
    fg_lua_host *s = fg_lua_host_load_string("probe.lua", text, strlen(text), opt, &err);
    free(text);
    if (!s) fail_msg("load: %s", fg_error_message(&err));
    return s;
}

static fg_entity spawn(fg_lua_host *s) {
    fg_spawn sp = {0};
    fg_entity e;
    assert_int_equal(fg_world_spawn(fg_lua_host_world(s), &sp, &e, NULL), FG_OK);
    return e;
}

/* Presses LP now and runs n ticks; returns the entity's last decision. */
static const fg_decision *jab(fg_lua_host *s, fg_entity e, int n) {
    fg_world *w = fg_lua_host_world(s);
    int64_t now = fg_us_of_tick(fg_world_tick(w), fg_world_tick_rate(w));
    fg_error err;
    assert_int_equal(fg_world_press(w, e, fg_world_action_id(w, "LP"), now, FG_SOURCE_DEVICE, &err),
                     FG_OK);
    assert_int_equal(fg_world_release(w, e, fg_world_action_id(w, "LP"), now + 1000,
                                      FG_SOURCE_DEVICE, &err), FG_OK);
    for (int i = 0; i < n; i++) assert_int_equal(fg_lua_host_advance(s, &err), FG_OK);
    return fg_world_last_decision(w, e);
}

static void describe(fg_lua_host *s, const fg_decision *d, char *buf, size_t size) {
    fg_decision_describe(fg_lua_host_ruleset(s), d, buf, size);
}

static void test_the_lua_request_rule_decides(void **state) {
    (void)state;
    fg_lua_host *s = load(4, "reject", NULL);
    assert_string_equal(fg_ruleset_name(fg_lua_host_ruleset(s)), "probe");
    fg_entity e = spawn(s);
    const fg_decision *d = jab(s, e, 3);
    assert_non_null(d);
    assert_int_equal(d->kind, FG_DECIDE_REJECTED);
    char text[256];
    describe(s, d, text, sizeof text);
    assert_non_null(strstr(text, "no jabs here"));
    fg_lua_host_destroy(s);
}

static char *temp_file(const char *text) {
    char *path = malloc(64);
    snprintf(path, 64, "/tmp/fg_lua_host_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

static void rewrite(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_a_bad_file_is_refused_with_its_line_and_field(void **state) {
    (void)state;
    char *good = rules_text(4, "");
    /* A typo in a field name, on line 6. */
    char *typo = strstr(good, "startup");
    memcpy(typo, "startpu", 7);
    char *path = temp_file(good);
    fg_error err;
    assert_null(fg_lua_host_load_file(path, NULL, &err));
    assert_int_equal(err.code, FG_ERULE);
    assert_non_null(strstr(fg_error_message(&err), path));
    assert_non_null(strstr(fg_error_message(&err), "actions.jab.startpu"));
    remove(path);
    assert_null(fg_lua_host_load_file(path, NULL, &err));
    assert_non_null(strstr(fg_error_message(&err), path));
    assert_null(fg_lua_host_load_string("x.lua", NULL, 0, NULL, &err));
    assert_int_equal(err.code, FG_EINVAL);
    free(good);
    free(path);
}

static void test_reload_swaps_or_keeps_the_old_rules(void **state) {
    (void)state;
    fg_lua_host *s = load(4, "reject", NULL);
    fg_entity e = spawn(s);
    const fg_ruleset *before = fg_lua_host_ruleset(s);
    char old_hash[17];
    snprintf(old_hash, sizeof old_hash, "%016llx", (unsigned long long)fg_ruleset_hash(before));

    /* A broken reload: the old rules keep running, and the message names the line. */
    static const char broken[] = "local fg = require \"framegate\"\nreturn fg.ruleset \"probe\" {\n"
                                 "  actions = { idle = { neutral = true, loop = 1 } } }\n";
    fg_error err;
    assert_int_equal(fg_lua_host_reload(s, broken, strlen(broken), NULL, &err), FG_ERULE);
    assert_non_null(strstr(fg_error_message(&err), "probe.lua:3"));
    assert_ptr_equal(fg_lua_host_ruleset(s), before);
    assert_int_equal(jab(s, e, 3)->kind, FG_DECIDE_REJECTED);

    /* A good one: the jab is slower and the rule lets it through. */
    char *text = rules_text(6, "");
    fg_lua_reload_info info;
    assert_int_equal(fg_lua_host_reload(s, text, strlen(text), &info, &err), FG_OK);
    free(text);
    assert_string_equal(info.name, "probe");
    assert_int_equal(strlen(info.hash), 16);
    assert_string_not_equal(info.hash, old_hash);
    assert_int_equal(info.changed, 1);
    assert_int_equal(info.added + info.removed, 0);
    assert_int_equal(info.tick, fg_world_tick(fg_lua_host_world(s)));
    for (int i = 0; i < 20; i++) fg_lua_host_advance(s, NULL); /* the jab's recovery */
    assert_int_equal(jab(s, e, 3)->kind, FG_DECIDE_ACCEPTED);
    fg_lua_host_destroy(s);
}

static void test_a_changed_file_is_noticed_and_reloaded(void **state) {
    (void)state;
    char *text = rules_text(4, "reject");
    char *path = temp_file(text);
    free(text);
    fg_error err;
    fg_lua_host *s = fg_lua_host_load_file(path, NULL, &err);
    if (!s) fail_msg("%s", fg_error_message(&err));
    assert_false(fg_lua_host_files_changed(s));
    text = rules_text(12, "reject"); /* another size, whatever the clock's resolution */
    rewrite(path, text);
    free(text);
    assert_true(fg_lua_host_files_changed(s));
    assert_false(fg_lua_host_files_changed(s)); /* once per change */
    fg_lua_reload_info info;
    assert_int_equal(fg_lua_host_reload(s, NULL, 0, &info, &err), FG_OK);
    assert_int_equal(info.changed, 1);
    const fg_ruleset *r = fg_lua_host_ruleset(s);
    uint32_t jab_id = (uint32_t)fg_ruleset_find_action(r, "jab");
    assert_int_equal(fg_ruleset_action(r, jab_id)->startup, 12);
    fg_lua_host_destroy(s);
    remove(path);
    free(path);
}

static void test_what_if_names_the_decisions_that_change(void **state) {
    (void)state;
    fg_lua_options opt = fg_lua_options_default();
    opt.trace_capacity = 4096;
    fg_lua_host *s = load(4, "reject", &opt);
    fg_entity e = spawn(s);
    fg_world *w = fg_lua_host_world(s);
    size_t size = fg_world_snapshot_capacity(w);
    void *snap = malloc(size);
    assert_int_equal(fg_world_save(w, snap, size, NULL), FG_OK);
    size = fg_world_snapshot_size(w);
    assert_int_equal(jab(s, e, 20)->kind, FG_DECIDE_REJECTED);

    char *text = rules_text(4, "");
    fg_error err;
    assert_int_equal(fg_lua_host_reload(s, text, strlen(text), NULL, &err), FG_OK);
    free(text);
    uint64_t live_hash = fg_world_hash(w); /* the reload is in it: the ruleset's version */
    fg_lua_what_if report;
    assert_int_equal(fg_lua_host_what_if(s, snap, size, &report, &err), FG_OK);
    assert_int_equal(report.from, 0);
    assert_int_equal(report.to, 20);
    assert_true(report.complete);
    assert_int_equal(report.differences, 1);
    const char *line = fg_lua_host_what_if_line(s, 0);
    assert_non_null(line);
    assert_non_null(strstr(line, "e1 jab now accepted"));
    assert_non_null(strstr(line, "was rejected"));
    assert_null(fg_lua_host_what_if_line(s, 1));
    assert_int_equal(fg_world_hash(w), live_hash); /* the live world is untouched */

    assert_int_equal(fg_lua_host_what_if(s, "junk", 4, &report, &err), FG_ERULE);
    assert_true(strlen(fg_error_message(&err)) > 0);
    free(snap);
    fg_lua_host_destroy(s);
}

static void test_the_instruction_budget_stops_a_runaway_rule(void **state) {
    (void)state;
    fg_lua_options opt = fg_lua_options_default();
    opt.limits.instructions = 100000;
    fg_lua_host *s = load(4, "loop", &opt);
    fg_entity e = spawn(s);
    const fg_decision *d = jab(s, e, 3); /* returns: the tick went on */
    assert_int_equal(fg_world_tick(fg_lua_host_world(s)), 3);
    (void)d;
    fg_world *w = fg_lua_host_world(s);
    bool found = false;
    for (uint32_t i = 0; i < fg_world_trace_count(w); i++) {
        char line[512];
        fg_world_trace_format(w, fg_world_trace_at(w, i), line, sizeof line);
        if (strstr(line, "budget")) found = true;
    }
    assert_true(found);
    fg_lua_host_destroy(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_lua_request_rule_decides),
        cmocka_unit_test(test_a_bad_file_is_refused_with_its_line_and_field),
        cmocka_unit_test(test_reload_swaps_or_keeps_the_old_rules),
        cmocka_unit_test(test_a_changed_file_is_noticed_and_reloaded),
        cmocka_unit_test(test_what_if_names_the_decisions_that_change),
        cmocka_unit_test(test_the_instruction_budget_stops_a_runaway_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
