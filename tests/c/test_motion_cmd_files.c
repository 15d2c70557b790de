/* SPDX-License-Identifier: MIT */
/* test_motion_cmd_files.c: real MUGEN and IKEMEN command files (tests/data/mugen) load, and each
** command fires on its canonical input on the tick MUGEN makes it true, overlapping commands
** included. The expectations are tables beside the files (FILE.tsv); flags mode against consume
** mode; the notes a real file earns. */
#include "fg_test.h"
#include "motion_feed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *name, const char *ext, size_t *len) {
    char path[512];
    snprintf(path, sizeof path, "%s/data/mugen/%s%s", FG_TESTS_DIR, name, ext);
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)n + 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
    text[n] = '\0';
    fclose(f);
    if (len) *len = (size_t)n;
    return text;
}

static fg_motion_set *load(const char *name, fg_motion_mode mode) {
    size_t len;
    char *text = slurp(name, ".cmd", &len);
    fg_motion_buttons b;
    fg_motion_buttons_default(&b, FG_MOTION_MUGEN);
    char source[64];
    snprintf(source, sizeof source, "%s.cmd", name);
    fg_motion_options opts = {mode, source};
    fg_motion_set *set = NULL;
    fg_error err;
    if (fg_motion_set_load_cmd(&b, text, len, &opts, NULL, &set, &err) != FG_OK)
        fail_msg("%s does not load: %s", source, fg_error_message(&err));
    free(text);
    return set;
}

/* The first tick any pattern of that name completed, or -1; -2 when no such name. */
static fg_tick first_of(const fg_motion_set *set, const fg_tick *first, const char *name) {
    fg_tick best = -2;
    for (uint32_t i = 0; i < fg_motion_count(set); i++) {
        if (strcmp(fg_motion_name(set, i), name) != 0) continue;
        if (best == -2) best = -1;
        if (first[i] >= 0 && (best < 0 || first[i] < best)) best = first[i];
    }
    return best;
}

/* Checks one expectation of a table row: `name@tick` or `!name`. */
static int check_one(const fg_motion_set *set, const fg_tick *first, const char *file, int line,
                     const char *script, char *item) {
    while (*item == ' ') item++;
    bool never = item[0] == '!';
    char *name = never ? item + 1 : item;
    long want = -1;
    if (!never) {
        char *at = strrchr(name, '@');
        if (!at) fail_msg("%s.tsv:%d: '%s' is neither name@tick nor !name", file, line, item);
        *at = '\0';
        want = strtol(at + 1, NULL, 10);
    }
    fg_tick got = first_of(set, first, name);
    if (got == -2) fail_msg("%s.tsv:%d: no command named '%s'", file, line, name);
    if (got == want) return 0;
    char expected[32];
    if (never) snprintf(expected, sizeof expected, "never");
    else snprintf(expected, sizeof expected, "tick %ld", want);
    print_message("%s.tsv:%d: \"%s\": %s first completed on tick %lld, expected %s\n", file,
                  line, script, name, (long long)got, expected);
    return 1;
}

/* Runs every row of a table (script<TAB>expectations lines) against set; returns the rows. */
static int run_rows(const fg_motion_set *set, const char *file, char *table, int *failures) {
    fg_tick *first = calloc(fg_motion_count(set), sizeof *first);
    int rows = 0, line = 0;
    char *save = NULL;
    for (char *row = strtok_r(table, "\n", &save); row; row = strtok_r(NULL, "\n", &save)) {
        line++;
        if (row[0] == '#' || row[0] == '\0') continue;
        char *tab = strchr(row, '\t');
        if (!tab) fail_msg("%s.tsv:%d: expected script<TAB>expectations", file, line);
        *tab = '\0';
        fg_error err;
        if (fgt_motion_first_ticks(set, row, first, &err) != FG_OK)
            fail_msg("%s.tsv:%d: %s", file, line, fg_error_message(&err));
        char *isave = NULL;
        for (char *it = strtok_r(tab + 1, ",", &isave); it; it = strtok_r(NULL, ",", &isave))
            *failures += check_one(set, first, file, line, row, it);
        rows++;
    }
    free(first);
    return rows;
}

/* Runs every row of FILE.tsv against FILE.cmd; returns the rows checked. */
static int run_table(const char *file, fg_motion_mode mode, int *failures) {
    fg_motion_set *set = load(file, mode);
    char *table = slurp(file, ".tsv", NULL);
    int rows = run_rows(set, file, table, failures);
    free(table);
    fg_motion_set_destroy(set);
    return rows;
}

/* Every construct of MUGEN's and IKEMEN's command documentation, in one file written the way
** real ones are (comments, odd spacing, any case). */
static const char constructs_cmd[] =
    "; constructs.cmd\n"
    "[Defaults]\n"
    "command.time = 20   ; comment after a value\n"
    "Command.Buffer.Time=2\n"
    "[Command]\n"
    "name = \"charge\"\n"
    "command = ~30$B, F, x\n"
    "[Command]\n"
    "\tname=\"ikemen_or\"\n"
    "\tcommand=D, F|DF, x|y\n"
    "[command]\n"
    "name = \"strict\"\n"
    "command = x, >~x\n"
    "[Command]\n"
    "name = \"timed_hold\"\n"
    "command = /30$D\n"
    "[Command]\n"
    "name = \"hold_press\"\n"
    "command = /DB, a\n"
    "[Command]\n"
    "name = \"both\"\n"
    "command = a+b\n"
    "time = 1\n"
    "buffer.time = 1\n"
    "[Command]\n"
    "name = \"release_both\"\n"
    "command = ~a+~b\n"
    "[Command]\n"
    "name = \"screen\"\n"
    "command = R, L, x\n"
    "[Command]\n"
    "name = \"neutral\"\n"
    "command = ~30N, a\n";

static char constructs_table[] =
    "4@0 6@40 x@41\tcharge@41\n"
    "4@0 6@20 x@21\t!charge\n"
    "2@0 6@2 x@3\tikemen_or@3\n"
    "2@0 3@2 y@3\tikemen_or@3\n"
    "x@0 ~x@2\tstrict@2\n"
    "x@0 a@1 ~x@2\t!strict\n"
    "2@0\ttimed_hold@29\n"
    "1@0 a@2\thold_press@2\n"
    "4@0 a@2\t!hold_press\n"
    "a@0 b@0\tboth@0\n"
    "a@0 b@5 ~a@8 ~b@9\t!both, release_both@9\n"
    "6@0 4@2 x@3\tscreen@3\n"
    "face=left@0 6@0 4@2 x@3\tscreen@3\n"
    "6@40 a@41\tneutral@41\n"
    "6@20 a@21\t!neutral\n";

/* Rule: every construct of the command documentation works in a .cmd file in flags mode: [Defaults]
** (any case), ~30$B charges, IKEMEN's `|`, `>`, /30$D timed holds, /DB holds, `+` chords and
** their releases, screen directions L and R whatever the facing, a charged neutral (~30N), and a
** buffer.time default of 2. */
static void every_construct_works_in_a_cmd_file(void **state) {
    (void)state;
    fg_motion_buttons b;
    fg_motion_buttons_default(&b, FG_MOTION_MUGEN);
    fg_motion_options opts = {FG_MOTION_MODE_DEFAULT, "constructs.cmd"};
    fg_motion_set *set = NULL;
    fg_error err;
    if (fg_motion_set_load_cmd(&b, constructs_cmd, sizeof constructs_cmd - 1, &opts, NULL, &set,
                               &err) != FG_OK)
        fail_msg("%s", fg_error_message(&err));
    uint32_t n;
    fg_motion_lint(set, &n);
    assert_int_equal(n, 0);
    int failures = 0;
    assert_int_equal(run_rows(set, "constructs", constructs_table, &failures), 15);
    assert_int_equal(failures, 0);
    char d[300];
    fg_motion_describe(set, (uint32_t)fg_motion_find(set, "ikemen_or"), d, sizeof d);
    assert_string_equal(d, "D, F|DF, x|y: enter 2 > enter {36} > press x|y (mugen, "
                           "facing-relative; time 20, buffer 1)");
    fg_motion_set_destroy(set);
}

/* Rule: every command of Kung Fu Man's kfm.cmd fires on its canonical input on MUGEN's tick,
** and overlapping commands fire together: the dash F, F and the knee F, F, a; x and the
** blocking x, $F; a quarter circle and its button. */
static void kfm_commands_fire_as_in_mugen(void **state) {
    (void)state;
    int failures = 0;
    assert_true(run_table("kfm", FG_MOTION_MODE_DEFAULT, &failures) >= 40);
    assert_int_equal(failures, 0);
}

/* Rule: the community character aureolus.cmd (tabs, `Time=1`, `buffer.Time=16`, charges,
** negative edges, hold-only buttons) loads and every command fires on MUGEN's tick. */
static void aureolus_commands_fire_as_in_mugen(void **state) {
    (void)state;
    int failures = 0;
    assert_true(run_table("aureolus", FG_MOTION_MODE_DEFAULT, &failures) >= 35);
    assert_int_equal(failures, 0);
}

/* Rule: shiryu3.cmd, whose [Remap] and [Defaults] landed among its [command] blocks, loads
** (their keys are noted and ignored, as MUGEN does) and every command fires on MUGEN's tick. */
static void shiryu3_commands_fire_as_in_mugen(void **state) {
    (void)state;
    int failures = 0;
    assert_true(run_table("shiryu3", FG_MOTION_MODE_DEFAULT, &failures) >= 24);
    assert_int_equal(failures, 0);
}

/* Rule: IKEMEN's shared common.cmd loads; its two real commands fire and its empty ones never
** complete, whatever is pressed. */
static void ikemen_common_cmd_loads_and_empty_names_never_fire(void **state) {
    (void)state;
    int failures = 0;
    assert_int_equal(run_table("common", FG_MOTION_MODE_DEFAULT, &failures), 3);
    assert_int_equal(failures, 0);
}

/* Rule: a .cmd file loads in flags mode; in consume mode the dash uses up the F presses the
** knee needs and x uses up the press the blocking needs, as the issue with consume mode was. */
static void consume_mode_makes_overlapping_commands_unreachable(void **state) {
    (void)state;
    fg_motion_set *flags = load("kfm", FG_MOTION_MODE_DEFAULT);
    fg_motion_set *consume = load("kfm", FG_MOTION_MODE_CONSUME);
    assert_int_equal(fg_motion_set_mode(flags), FG_MOTION_MODE_FLAGS);
    assert_int_equal(fg_motion_set_mode(consume), FG_MOTION_MODE_CONSUME);
    assert_true(fg_motion_set_hash(flags) != fg_motion_set_hash(consume));
    fg_tick *first = calloc(fg_motion_count(flags), sizeof *first);
    fg_error err;
    assert_int_equal(fgt_motion_first_ticks(consume, "6@0 5@2 6@4 a@6", first, &err), FG_OK);
    assert_int_equal(first_of(consume, first, "FF"), 4);
    assert_int_equal(first_of(consume, first, "FF_a"), -1);
    assert_int_equal(fgt_motion_first_ticks(flags, "6@0 5@2 6@4 a@6", first, &err), FG_OK);
    assert_int_equal(first_of(flags, first, "FF_a"), 6);
    assert_int_equal(fgt_motion_first_ticks(consume, "x@0 6@2", first, &err), FG_OK);
    assert_int_equal(first_of(consume, first, "x"), 0);
    assert_int_equal(first_of(consume, first, "blocking"), -1);
    free(first);
    fg_motion_set_destroy(flags);
    fg_motion_set_destroy(consume);
}

typedef struct ages {
    const fg_motion_set *set;
    const char *name;
    int seen[64];
} ages;

static void note_age(void *ud, const fg_motion_command *c, fg_tick now) {
    ages *a = ud;
    if (strcmp(fg_motion_name(a->set, c->motion), a->name) == 0 && now < 64) a->seen[now]++;
}

/* Rule: in flags mode a command stays true for its buffer.time ticks (aureolus' 236_a has 10):
** ticks 6..15 after a completion on tick 6, once per tick, then no more. */
static void flags_command_is_true_for_its_buffer_time(void **state) {
    (void)state;
    fg_motion_set *set = load("aureolus", FG_MOTION_MODE_DEFAULT);
    ages a = {set, "236_a", {0}};
    fg_error err;
    assert_int_equal(fgt_motion_feed(set, "2@0 3@2 6@4 a@6", 30, note_age, &a, &err), FG_OK);
    for (int t = 0; t < 40; t++)
        if (a.seen[t] != (t >= 6 && t <= 15 ? 1 : 0))
            fail_msg("236_a reported %d times on tick %d", a.seen[t], t);
    fg_motion_set_destroy(set);
}

/* Rule: what MUGEN reads and ignores loads with a note naming the file and line: a remap line
** inside a block, a [Defaults] key inside a block, an empty command. */
static void ignored_keys_and_empty_commands_are_noted(void **state) {
    (void)state;
    fg_motion_set *shiryu = load("shiryu3", FG_MOTION_MODE_DEFAULT);
    uint32_t n;
    const fg_motion_finding *f = fg_motion_lint(shiryu, &n);
    assert_int_equal(n, 9);
    assert_int_equal(f[0].kind, FG_MOTION_LINT_NOTE);
    assert_string_equal(f[0].text, "note: shiryu3.cmd:39: unknown key 'x' in [Command] ignored, "
                                   "as MUGEN does (expected name, command, time, buffer.time, "
                                   "steptime, buffer.hitpause, buffer.pauseend, buffer.shared or "
                                   "autogreater)");
    assert_non_null(strstr(f[7].text, "shiryu3.cmd:102: unknown key 'command.time'"));
    fg_motion_set_destroy(shiryu);
    fg_motion_set *common = load("common", FG_MOTION_MODE_DEFAULT);
    f = fg_motion_lint(common, &n);
    assert_int_equal(n, 16);
    assert_string_equal(f[0].text, "note: common.cmd:14: recovery: empty command: the name is "
                                   "declared without an input and never completes");
    int id = fg_motion_find(common, "recovery");
    assert_true(id >= 0);
    char d[200];
    fg_motion_describe(common, (uint32_t)id, d, sizeof d);
    assert_string_equal(d, "(no input): never completes (mugen; time 1, buffer 0)");
    fg_motion_set_destroy(common);
}

/* Rule: a .cmd text in flags mode has no "can never fire" findings from overlaps (nothing is
** used up), while the same file in consume mode reports the commands the dash or a button
** takes the inputs of. */
static void lint_follows_the_mode(void **state) {
    (void)state;
    fg_motion_set *flags = load("kfm", FG_MOTION_MODE_DEFAULT);
    fg_motion_set *consume = load("kfm", FG_MOTION_MODE_CONSUME);
    uint32_t nf, nc;
    fg_motion_lint(flags, &nf);
    const fg_motion_finding *fc = fg_motion_lint(consume, &nc);
    assert_int_equal(nf, 0);
    bool knee = false;
    for (uint32_t i = 0; i < nc; i++)
        if (fc[i].kind == FG_MOTION_LINT_NEVER &&
            strcmp(fg_motion_name(consume, fc[i].a), "FF_a") == 0)
            knee = true;
    assert_true(knee);
    fg_motion_set_destroy(flags);
    fg_motion_set_destroy(consume);
}

/* Rule: loading a .cmd file that runs out of memory at any allocation fails with FG_ENOMEM and
** keeps nothing; with enough memory it loads. */
static void load_out_of_memory_keeps_nothing(void **state) {
    (void)state;
    size_t len;
    char *text = slurp("common", ".cmd", &len);
    fg_motion_buttons b;
    fg_motion_buttons_default(&b, FG_MOTION_MUGEN);
    fg_motion_options opts = {FG_MOTION_MODE_DEFAULT, "common.cmd"};
    int failures = 0;
    bool loaded = false;
    for (long k = 0; k < 24 && !loaded; k++) {
        fg_counting_allocator counter;
        fg_allocator a = fg_test_counting_allocator(&counter);
        counter.fail_after = k;
        fg_motion_set *set = NULL;
        fg_error err;
        fg_status st = fg_motion_set_load_cmd(&b, text, len, &opts, &a, &set, &err);
        if (st == FG_OK) {
            loaded = true;
            fg_motion_set_destroy(set);
        } else {
            assert_int_equal(st, FG_ENOMEM);
            assert_null(set);
            failures++;
        }
        assert_int_equal(counter.live_bytes, 0);
    }
    assert_true(loaded);
    assert_true(failures >= 4);
    free(text);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kfm_commands_fire_as_in_mugen),
        cmocka_unit_test(aureolus_commands_fire_as_in_mugen),
        cmocka_unit_test(shiryu3_commands_fire_as_in_mugen),
        cmocka_unit_test(ikemen_common_cmd_loads_and_empty_names_never_fire),
        cmocka_unit_test(consume_mode_makes_overlapping_commands_unreachable),
        cmocka_unit_test(flags_command_is_true_for_its_buffer_time),
        cmocka_unit_test(ignored_keys_and_empty_commands_are_noted),
        cmocka_unit_test(lint_follows_the_mode),
        cmocka_unit_test(every_construct_works_in_a_cmd_file),
        cmocka_unit_test(load_out_of_memory_keeps_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
