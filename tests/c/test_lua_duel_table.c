/* SPDX-License-Identifier: MIT */
/*
** test_lua_duel_table.c: the exhaustive state-by-request table of the sample duelist. Loads
** samples/duel/rules.lua through the real bindings (so the sample's Lua request rule takes part),
** drives p1 into every state listed in tests/data/duel_state_requests.tsv, and checks the answer
** to a request for every requestable action against the table: accepted, queued or rejected, and
** the reason. The table must cover every state times every requestable action, each once.
*/
#include "fg_lua.h"
#include "fg_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TABLE FG_TESTS_DIR "/data/duel_state_requests.tsv"
#define RULES FG_SAMPLES_DIR "/duel/rules.lua"
#define MAX_STATES 96
#define MAX_ROWS 2048
#define MAX_SETUP 8

typedef struct setup_step {
    char what[32]; /* an action name (requested) or a numpad direction (held) */
    fg_tick tick;
} setup_step;

typedef struct table_state {
    char name[48];
    int distance, meter;
    fg_tick tick;
    setup_step p1[MAX_SETUP], p2[MAX_SETUP];
    int np1, np2;
    char body[32];
    int elapsed;
    int contact; /* 0, FG_ON_HIT, FG_ON_BLOCK, FG_ON_WHIFF */
    int line;
} table_state;

typedef struct table_row {
    char state[48], action[32], decision[16], reason[32];
    int line;
} table_row;

typedef struct table {
    table_state states[MAX_STATES];
    int nstates;
    table_row rows[MAX_ROWS];
    int nrows;
} table;

/* {====================================================================== reading the table */

static int split_tabs(char *line, char **cols, int max) {
    int n = 0;
    char *p = line;
    while (n < max) {
        cols[n++] = p;
        char *tab = strchr(p, '\t');
        if (!tab) break;
        *tab = '\0';
        p = tab + 1;
    }
    return n;
}

static void copy_col(char *out, size_t size, const char *col, int line) {
    size_t n = strlen(col);
    if (n >= size) fail_msg("line %d: '%s' is longer than %zu characters", line, col, size - 1);
    memcpy(out, col, n + 1);
}

static int parse_setup(const char *text, setup_step *out, int line) {
    if (strcmp(text, "-") == 0) return 0;
    int n = 0;
    char buf[256];
    if (strlen(text) >= sizeof buf) fail_msg("line %d: setup too long", line);
    memcpy(buf, text, strlen(text) + 1);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        char *at = strchr(tok, '@');
        if (!at || n == MAX_SETUP) fail_msg("line %d: bad setup step '%s'", line, tok);
        *at = '\0';
        copy_col(out[n].what, sizeof out[n].what, tok, line);
        out[n].tick = atoi(at + 1);
        n++;
    }
    return n;
}

static int parse_contact(const char *s, int line) {
    if (!strcmp(s, "0")) return 0;
    if (!strcmp(s, "hit")) return FG_ON_HIT;
    if (!strcmp(s, "block")) return FG_ON_BLOCK;
    if (!strcmp(s, "whiff")) return FG_ON_WHIFF;
    fail_msg("line %d: contact '%s', expected 0, hit, block or whiff", line, s);
    return 0;
}

static void read_table(table *t) {
    FILE *f = fopen(TABLE, "r");
    if (!f) fail_msg("cannot open %s", TABLE);
    char line[512];
    int lineno = 0;
    t->nstates = t->nrows = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0') continue;
        char *cols[12] = {NULL};
        int n = split_tabs(line, cols, 12);
        if (strcmp(cols[0], "state") == 0) {
            if (n != 10) fail_msg("line %d: a state has 10 columns, found %d", lineno, n);
            assert_true(t->nstates < MAX_STATES);
            table_state *s = &t->states[t->nstates++];
            memset(s, 0, sizeof *s);
            copy_col(s->name, sizeof s->name, cols[1], lineno);
            s->distance = atoi(cols[2]);
            s->meter = atoi(cols[3]);
            s->tick = atoi(cols[4]);
            s->np1 = parse_setup(cols[5], s->p1, lineno);
            s->np2 = parse_setup(cols[6], s->p2, lineno);
            copy_col(s->body, sizeof s->body, cols[7], lineno);
            s->elapsed = atoi(cols[8]);
            s->contact = parse_contact(cols[9], lineno);
            s->line = lineno;
        } else {
            if (n != 4) fail_msg("line %d: a row has 4 columns, found %d", lineno, n);
            assert_true(t->nrows < MAX_ROWS);
            table_row *r = &t->rows[t->nrows++];
            copy_col(r->state, sizeof r->state, cols[0], lineno);
            copy_col(r->action, sizeof r->action, cols[1], lineno);
            copy_col(r->decision, sizeof r->decision, cols[2], lineno);
            copy_col(r->reason, sizeof r->reason, cols[3], lineno);
            r->line = lineno;
        }
    }
    fclose(f);
}

/* }====================================================================== */

/* {====================================================================== the duel */

typedef struct duel {
    lua_State *L;
    int world; /* stack index of the World userdata */
    fg_world *w;
    const fg_ruleset *r;
    fg_entity p1, p2;
} duel;

static duel open_duel(void) {
    duel d;
    memset(&d, 0, sizeof d);
    d.L = luaL_newstate();
    assert_non_null(d.L);
    luaL_openlibs(d.L);
    fg_lua_preload(d.L);
    if (luaL_dostring(d.L, "local fg = require 'framegate'\n"
                           "return fg.world { rules = '" RULES "', seed = 7 }") != LUA_OK)
        fail_msg("loading the sample: %s", lua_tostring(d.L, -1));
    d.world = lua_gettop(d.L);
    d.w = fg_lua_check_world(d.L, d.world)->w;
    d.r = fg_world_rules_version(d.w, 0);
    return d;
}

static void close_duel(duel *d) { lua_close(d->L); }

/* Runs one tick through the bindings, so the request rule is asked. */
static void advance(duel *d) {
    lua_getfield(d->L, d->world, "advance");
    lua_pushvalue(d->L, d->world);
    if (lua_pcall(d->L, 1, 0, 0) != LUA_OK) fail_msg("advance: %s", lua_tostring(d->L, -1));
}

static void spawn_pair(duel *d, int distance) {
    fg_spawn s;
    memset(&s, 0, sizeof s);
    s.grounded = true;
    s.x = FG_FX(-35);
    fg_error err;
    if (fg_world_spawn(d->w, &s, &d->p1, &err) != FG_OK) fail_msg("spawn: %s", fg_error_message(&err));
    s.x = FG_FX(-35 + distance);
    s.facing = FG_FACING_LEFT;
    if (fg_world_spawn(d->w, &s, &d->p2, &err) != FG_OK) fail_msg("spawn: %s", fg_error_message(&err));
}

static void apply_steps(duel *d, fg_entity e, const setup_step *steps, int n, fg_tick t) {
    fg_error err;
    for (int i = 0; i < n; i++) {
        if (steps[i].tick != t) continue;
        const char *what = steps[i].what;
        if (what[0] >= '1' && what[0] <= '9' && what[1] == '\0') {
            int numpad = fg_numpad_relative(what[0] - '0', fg_world_facing(d->w, e));
            int64_t us = fg_us_of_tick(t, fg_world_tick_rate(d->w));
            if (fg_world_direction(d->w, e, numpad, us, FG_SOURCE_SCRIPT, &err) != FG_OK)
                fail_msg("hold %s: %s", what, fg_error_message(&err));
        } else {
            int id = fg_ruleset_find_action(d->r, what);
            if (id < 0) fail_msg("setup: '%s' is not an action", what);
            if (fg_world_request(d->w, e, (uint32_t)id, FG_REQ_SCRIPT, &err) != FG_OK)
                fail_msg("request %s: %s", what, fg_error_message(&err));
        }
    }
}

static bool requestable(const fg_ruleset *r, uint32_t id) {
    const fg_action_def *a = fg_ruleset_action(r, id);
    if (a->input[0]) return true;
    const fg_motion_set *m = fg_ruleset_motions(r);
    for (uint32_t i = 0; i < fg_motion_count(m); i++)
        if (strcmp(fg_motion_name(m, i), a->name) == 0) return true;
    return false;
}

/* }====================================================================== */

static const table_state *state_named(const table *t, const char *name) {
    for (int i = 0; i < t->nstates; i++)
        if (strcmp(t->states[i].name, name) == 0) return &t->states[i];
    return NULL;
}

static void table_covers_every_state_and_requestable_action_once(void **state) {
    (void)state;
    table *t = malloc(sizeof *t);
    read_table(t);
    duel d = open_duel();
    uint32_t n = fg_ruleset_action_count(d.r);
    int requestables = 0;
    for (uint32_t a = 0; a < n; a++) {
        if (!requestable(d.r, a)) continue;
        requestables++;
        for (int s = 0; s < t->nstates; s++) {
            int found = 0;
            for (int i = 0; i < t->nrows; i++)
                found += !strcmp(t->rows[i].state, t->states[s].name) &&
                         !strcmp(t->rows[i].action, fg_ruleset_action(d.r, a)->name);
            if (found != 1)
                fail_msg("state %s, action %s: %d rows, expected 1", t->states[s].name,
                         fg_ruleset_action(d.r, a)->name, found);
        }
    }
    assert_int_equal(requestables, 13);
    assert_int_equal(t->nrows, t->nstates * requestables);
    for (int i = 0; i < t->nrows; i++)
        if (!state_named(t, t->rows[i].state))
            fail_msg("line %d: unknown state '%s'", t->rows[i].line, t->rows[i].state);
    for (int i = 0; i < t->nstates; i++)
        for (int j = i + 1; j < t->nstates; j++)
            assert_string_not_equal(t->states[i].name, t->states[j].name);
    close_duel(&d);
    free(t);
}

static void every_request_in_every_state_gets_the_tables_answer_with_a_reason(void **state) {
    (void)state;
    table *t = malloc(sizeof *t);
    read_table(t);
    int checked = 0, mismatches = 0;
    for (int s = 0; s < t->nstates; s++) {
        const table_state *st = &t->states[s];
        duel d = open_duel();
        spawn_pair(&d, st->distance);
        fg_error err;
        int meter = fg_ruleset_find_resource(d.r, "meter");
        if (fg_world_set_resource(d.w, d.p1, (uint32_t)meter, st->meter, &err) != FG_OK)
            fail_msg("%s: %s", st->name, fg_error_message(&err));
        while (fg_world_tick(d.w) < st->tick) {
            fg_tick now = fg_world_tick(d.w);
            apply_steps(&d, d.p1, st->p1, st->np1, now);
            apply_steps(&d, d.p2, st->p2, st->np2, now);
            advance(&d);
        }
        size_t size = fg_world_snapshot_size(d.w);
        void *snap = malloc(size);
        assert_int_equal(fg_world_save(d.w, snap, size, NULL), FG_OK);
        for (int i = 0; i < t->nrows; i++) {
            const table_row *row = &t->rows[i];
            if (strcmp(row->state, st->name) != 0) continue;
            assert_int_equal(fg_world_restore(d.w, snap, size, NULL), FG_OK);
            uint32_t id = (uint32_t)fg_ruleset_find_action(d.r, row->action);
            if (fg_world_request(d.w, d.p1, id, FG_REQ_AI, &err) != FG_OK)
                fail_msg("line %d: %s", row->line, fg_error_message(&err));
            advance(&d);
            const fg_decision *dec = NULL;
            for (uint32_t k = 0; k < fg_world_trace_count(d.w); k++) {
                const fg_trace_record *rec = fg_world_trace_at(d.w, k);
                if (rec->kind == FG_TRACE_DECISION && rec->entity == d.p1 &&
                    rec->tick == st->tick && rec->decision.action == id &&
                    rec->decision.source == FG_REQ_AI)
                    dec = &rec->decision;
            }
            if (!dec) fail_msg("line %d: no decision about %s", row->line, row->action);
            char text[256];
            fg_decision_describe(d.r, dec, text, sizeof text);
            /* The state is the one the table names. */
            if (fg_ruleset_action_layer(d.r, id) == 0) {
                if (dec->current != (uint16_t)fg_ruleset_find_action(d.r, st->body) ||
                    dec->elapsed != st->elapsed || dec->contact != st->contact)
                    fail_msg("line %d: state %s should be %s tick %d (contact %d), is %s tick %d "
                             "(contact %d)", st->line, st->name, st->body, st->elapsed,
                             st->contact, fg_ruleset_action(d.r, dec->current)
                                              ? fg_ruleset_action(d.r, dec->current)->name
                                              : "(none)",
                             dec->elapsed, dec->contact);
            }
            const char *kind = fg_decision_kind_name((fg_decision_kind)dec->kind);
            const char *reason = fg_reason_name((fg_reason)dec->reason);
            if (strcmp(kind, row->decision) != 0 || strcmp(reason, row->reason) != 0) {
                print_error("line %d: %s in %s: expected %s (%s), got %s (%s): %s\n", row->line,
                            row->action, st->name, row->decision, row->reason, kind, reason,
                            text);
                mismatches++;
            }
            /* A refusal always carries a reason: a refusal's code, and words that say it. */
            if (dec->kind == FG_DECIDE_REJECTED) {
                assert_true(dec->reason != FG_R_FROM_NEUTRAL && dec->reason != FG_R_CANCEL &&
                            dec->reason != FG_R_LAYER_FREE && dec->reason != FG_R_RULE_ACCEPT &&
                            dec->reason != FG_R_WAIT_WINDOW && dec->reason != FG_R_WAIT_HITSTOP &&
                            dec->reason != FG_R_WAIT_CONTACT);
                if (strncmp(text, "rejected", 8) != 0 || strlen(text) < 30)
                    fail_msg("line %d: a refusal that does not say why: %s", row->line, text);
            }
            checked++;
        }
        free(snap);
        close_duel(&d);
    }
    assert_int_equal(mismatches, 0);
    assert_int_equal(checked, t->nrows);
    free(t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table_covers_every_state_and_requestable_action_once),
        cmocka_unit_test(every_request_in_every_state_gets_the_tables_answer_with_a_reason),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
