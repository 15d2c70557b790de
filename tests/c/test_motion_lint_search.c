/* SPDX-License-Identifier: MIT */
/* test_motion_lint_search.c: lint's "can never fire" verdict agrees with the matcher, in both
** command modes. Every pair of patterns from a small pool is compiled in consume and in flags
** mode; every input string of SEARCH_LEN events over a small alphabet (stick moves to 2, 3, 5, 6;
** press or release a), one event per tick, runs through the matcher. A pattern lint calls
** unreachable must never fire, and every other pattern must fire on some string: the pool's
** patterns all fit in SEARCH_LEN events and their windows, so the search is exhaustive for them. */
#include "fg_test.h"
#include "motion_feed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEARCH_LEN 5

typedef struct pool_item {
    const char *name, *notation;
    int32_t priority; /* 0 = none */
} pool_item;

static const pool_item pool[] = {
    {"walk", "6", 0},          {"dash", "66", 0},         {"qcf", "236a", 0},
    {"jab", "a", 0},           {"fwd_a", "6a", 0},        {"FF", "F, F", 0},
    {"FF_a", "F, F, a", 0},    {"block", "a, $F", 0},     {"hold", "/B, F", 0},
    {"qcf_hi", "236a", 10},    {"rel", "~D, F, a", 0},    {"df_a", "3a", 0},
    {"neg", "~a", 0},          {"held_df", "/DF, a", 0},  {"hold_a", "/a", 0},
    {"df", "D, F", 0},         {"down", "2", 0},          {"fwd4_a", "$F, a", 0},
    {"tap", "a, a", 0},        {"qcf_m", "~D, DF, F, a", 5},  {"down_a", "2a", 0},
    {"neutral", "5", 0},       {"back_to", "~F, D", 0},       {"dp", "623a", 0},
};
#define NPOOL ((int)(sizeof pool / sizeof pool[0]))

typedef struct search {
    char script[256];
    bool fired[2];
} search;

/* Appends every string of n more events to the script and runs the complete ones. */
static void enumerate(const fg_motion_set *set, char *script, size_t len, int n, int dir,
                      bool held, bool *fired);

static void mark(void *ud, const fg_motion_command *c, fg_tick now) {
    (void)now;
    bool *fired = ud;
    if (c->age == 0) fired[c->motion] = true;
}

static long runs; /* strings run so far, to prove the search is as large as claimed */

static void run(const fg_motion_set *set, const char *script, bool *fired) {
    fg_error err;
    runs++;
    if (fgt_motion_feed(set, script, 2, mark, fired, &err) != FG_OK)
        fail_msg("script \"%s\": %s", script, fg_error_message(&err));
}

static void enumerate(const fg_motion_set *set, char *script, size_t len, int n, int dir,
                      bool held, bool *fired) {
    if (n == 0) {
        run(set, script, fired);
        return;
    }
    int tick = SEARCH_LEN - n;
    static const int dirs[] = {2, 3, 5, 6};
    for (int i = 0; i < 4; i++) {
        if (dirs[i] == dir) continue;
        int w = snprintf(script + len, 256 - len, "%s%d@%d", len ? " " : "", dirs[i], tick);
        enumerate(set, script, len + (size_t)w, n - 1, dirs[i], held, fired);
    }
    int w = snprintf(script + len, 256 - len, "%s%sa@%d", len ? " " : "", held ? "~" : "", tick);
    enumerate(set, script, len + (size_t)w, n - 1, dir, !held, fired);
    script[len] = '\0';
}

static int check_pair(int i, int j, fg_motion_mode mode) {
    fg_motion_buttons b;
    fg_motion_buttons_default(&b, FG_MOTION_AUTO);
    fg_motion_def d[2];
    memset(d, 0, sizeof d);
    const pool_item *it[2] = {&pool[i], &pool[j]};
    for (int k = 0; k < 2; k++) {
        d[k].name = it[k]->name;
        d[k].notation = it[k]->notation;
        d[k].has_priority = it[k]->priority != 0;
        d[k].priority = it[k]->priority;
    }
    fg_motion_options opts = {mode, NULL};
    fg_motion_set *set = NULL;
    fg_error err;
    if (fg_motion_set_compile_with(&b, d, 2, &opts, NULL, &set, &err) != FG_OK)
        fail_msg("%s + %s: %s", it[0]->notation, it[1]->notation, fg_error_message(&err));
    bool never[2] = {false, false}, fired[2] = {false, false};
    uint32_t nf;
    const fg_motion_finding *f = fg_motion_lint(set, &nf);
    for (uint32_t k = 0; k < nf; k++)
        if (f[k].kind == FG_MOTION_LINT_NEVER && f[k].a < 2) never[f[k].a] = true;
    char script[256] = "";
    enumerate(set, script, 0, SEARCH_LEN, 5, false, fired);
    int wrong = 0;
    for (uint32_t id = 0; id < 2; id++) {
        if (never[id] != fired[id]) continue; /* agree: unreachable and silent, or fires */
        print_message("%s mode, %s (%s) with %s (%s): lint says %s, the search %s\n",
                      mode == FG_MOTION_MODE_FLAGS ? "flags" : "consume",
                      fg_motion_name(set, id), fg_motion_notation(set, id),
                      fg_motion_name(set, 1 - id), fg_motion_notation(set, 1 - id),
                      never[id] ? "it can never fire" : "it can fire",
                      fired[id] ? "fired it" : "never fired it");
        wrong++;
    }
    fg_motion_set_destroy(set);
    return wrong;
}

static void lint_agrees_with_search(fg_motion_mode mode) {
    int wrong = 0, pairs = 0;
    runs = 0;
    for (int i = 0; i < NPOOL; i++)
        for (int j = i + 1; j < NPOOL; j++) {
            wrong += check_pair(i, j, mode);
            pairs++;
        }
    assert_int_equal(pairs, NPOOL * (NPOOL - 1) / 2);
    assert_int_equal(runs, (long)pairs * 1024); /* 4 choices per tick: 3 other sticks, a */
    assert_int_equal(wrong, 0);
}

/* Rule: in consume mode, lint's "can never fire" holds exactly for the patterns no input string
** fires (a shorter pattern using the inputs first, a higher priority on the same inputs). */
static void consume_lint_agrees_with_exhaustive_search(void **state) {
    (void)state;
    lint_agrees_with_search(FG_MOTION_MODE_CONSUME);
}

/* Rule: in flags mode, lint's "can never fire" holds exactly for the patterns no input string
** fires (only a pattern contradicting its own hold). */
static void flags_lint_agrees_with_exhaustive_search(void **state) {
    (void)state;
    lint_agrees_with_search(FG_MOTION_MODE_FLAGS);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(consume_lint_agrees_with_exhaustive_search),
        cmocka_unit_test(flags_lint_agrees_with_exhaustive_search),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
