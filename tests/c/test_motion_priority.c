/* SPDX-License-Identifier: MIT */
/* test_motion_priority.c: runs the priority table (tests/data/motion_priority.tsv): inputs that
** complete several patterns at once, and the commands that must come out, with why each won. */
#include "fg_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ROWS 128
#define MAX_DEFS 8

static const char *const why_names[] = {"alone", "priority", "length", "specificity", "order"};

static char *trim(char *s) {
    while (*s == ' ') s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\r' || s[n - 1] == '\n')) s[--n] = '\0';
    return s;
}

/* Parses "name=notation#prio ; ..." in place into defs. */
static int parse_patterns(char *text, fg_motion_def *defs) {
    int n = 0;
    for (char *tok = strtok(text, ";"); tok && n < MAX_DEFS; tok = strtok(NULL, ";")) {
        tok = trim(tok);
        char *eq = strchr(tok, '=');
        assert_non_null(eq);
        *eq = '\0';
        memset(&defs[n], 0, sizeof defs[n]);
        defs[n].name = trim(tok);
        char *hash = strchr(eq + 1, '#');
        if (hash) {
            *hash = '\0';
            defs[n].has_priority = true;
            defs[n].priority = atoi(hash + 1);
        }
        defs[n].notation = trim(eq + 1);
        n++;
    }
    return n;
}

/* Rule: the commands each row of the priority table expects come out, in order, with the reason
** each won (explicit priority, then length, then specificity, then name order). */
static void priority_table_rows_produce_their_commands(void **state) {
    (void)state;
    const char *path = FG_TESTS_DIR "/data/motion_priority.tsv";
    FILE *f = fopen(path, "r");
    if (!f) fail_msg("cannot open %s", path);
    char line[1024];
    int rows = 0, failures = 0, lineno = 0;
    fg_motion_buttons buttons;
    fg_motion_buttons_default(&buttons, FG_MOTION_AUTO);
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n') continue;
        char *cols[5] = {0};
        int nc = 0;
        for (char *p = line; nc < 5; nc++) {
            cols[nc] = p;
            char *tab = strchr(p, '\t');
            if (!tab) {
                nc++;
                break;
            }
            *tab = '\0';
            p = tab + 1;
        }
        assert_int_equal(nc, 5);
        char patterns[1024];
        assert_true(strlen(cols[0]) < sizeof patterns);
        memcpy(patterns, cols[0], strlen(cols[0]) + 1);
        fg_motion_def defs[MAX_DEFS];
        int nd = parse_patterns(patterns, defs);
        fg_motion_set *set = NULL;
        fg_error err;
        if (fg_motion_set_compile(&buttons, defs, (uint32_t)nd, NULL, &set, &err) != FG_OK)
            fail_msg("line %d: %s", lineno, fg_error_message(&err));
        fg_motion_profile profile;
        assert_int_equal(fg_motion_profile_named(trim(cols[1]), &profile, NULL), FG_OK);
        static fg_motion_run run;
        if (fg_motion_run_script(set, trim(cols[2]), &profile, NULL, &run, NULL, &err) != FG_OK)
            fail_msg("line %d: %s", lineno, fg_error_message(&err));
        char got[512] = "";
        size_t o = 0;
        for (uint32_t i = 0; i < run.ncommands; i++) {
            const fg_motion_command *c = &run.commands[i];
            if (c->age) continue;
            o += (size_t)snprintf(got + o, sizeof got - o, "%s%s/%s", o ? " " : "",
                                  fg_motion_name(set, c->motion), why_names[c->why]);
            if (c->replaces != FG_MOTION_NONE)
                o += (size_t)snprintf(got + o, sizeof got - o, ">%s",
                                      fg_motion_name(set, c->replaces));
        }
        if (o == 0) snprintf(got, sizeof got, "-");
        const char *want = trim(cols[3]);
        if (strcmp(got, want) != 0) {
            print_error("line %d (%s): %s\n  input %s\n  expected: %s\n  got:      %s\n", lineno,
                        trim(cols[4]), cols[0], cols[2], want, got);
            failures++;
        }
        rows++;
        fg_motion_set_destroy(set);
    }
    fclose(f);
    assert_true(rows >= 25);
    assert_int_equal(failures, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(priority_table_rows_produce_their_commands),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
