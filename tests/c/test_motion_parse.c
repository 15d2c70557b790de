/* SPDX-License-Identifier: MIT */
/* test_motion_parse.c: both notations, .cmd files, button groups, bad-notation messages, lint,
** input scripts and profiles. */
#include "fg_test.h"

#include <stdio.h>
#include <string.h>

static fg_motion_buttons auto_buttons(void) {
    fg_motion_buttons b;
    fg_motion_buttons_default(&b, FG_MOTION_AUTO);
    return b;
}

static fg_motion_def def_of(const char *name, const char *notation) {
    fg_motion_def d;
    memset(&d, 0, sizeof d);
    d.name = name;
    d.notation = notation;
    return d;
}

/* Compiles one notation and returns its description, or the error message. */
static void describe_one(const fg_motion_buttons *b, const char *notation, fg_motion_syntax syn,
                         char *out, size_t n) {
    fg_motion_def d = def_of("m", notation);
    d.syntax = syn;
    fg_motion_set *set = NULL;
    fg_error err;
    if (fg_motion_set_compile(b, &d, 1, NULL, &set, &err) != FG_OK) {
        snprintf(out, n, "error: %.400s", fg_error_message(&err));
        return;
    }
    fg_motion_describe(set, 0, out, n);
    fg_motion_set_destroy(set);
}

typedef struct pair {
    const char *in, *out;
} pair;

static void check_pairs(const fg_motion_buttons *b, const pair *p, size_t n, fg_motion_syntax syn) {
    char got[512];
    for (size_t i = 0; i < n; i++) {
        describe_one(b, p[i].in, syn, got, sizeof got);
        if (strcmp(got, p[i].out) != 0)
            fail_msg("%s\n  expected: %s\n  got:      %s", p[i].in, p[i].out, got);
    }
}

/* Rule: numpad notation compiles to facing-relative held directions, charges that release,
** presses, chords and negative edges; repeated directions become a dash through neutral; the
** diagonal between two cardinals is marked skippable; default gaps are 12/8/8. */
static void numpad_notation_compiles_to_its_steps(void **state) {
    (void)state;
    fg_motion_buttons b = auto_buttons();
    static const pair p[] = {
        {"236P", "236P: 2 > 3? > 6 > press P (numpad, facing-relative; time 15, buffer 0; gaps "
                 "12 12 8)"},
        {"623LP", "623LP: 6 > 2 > 3 > press LP (numpad, facing-relative; time 15, buffer 0; "
                  "gaps 12 12 8)"},
        {"[4]6P", "[4]6P: leave {147} >= 30 > 6 > press P (numpad, facing-relative; time 15, "
                  "buffer 0; gaps 12 8)"},
        {"66", "66: 6 > strict 5 > strict 6 (numpad, facing-relative; time 15, buffer 0; gaps 12 "
               "12)"},
        {"2~8", "2~8: 2 > 8 (numpad; time 15, buffer 0; gaps 12)"},
        {"6~6", "6~6: 6 > 6 (numpad, facing-relative; time 15, buffer 0; gaps 12)"},
        {"P+K", "P+K: press P+K (numpad; time 15, buffer 0)"},
        {"]P[", "]P[: release P (numpad; time 15, buffer 0)"},
        {"[HP]", "[HP]: release HP >= 30 (numpad; time 15, buffer 0)"},
        {"41236HP", "41236HP: 4 > 1? > 2 > 3? > 6 > press HP (numpad, facing-relative; time 15, "
                    "buffer 0; gaps 8 8 8 8 8)"},
        {"236K~K", "236K~K: 2 > 3? > 6 > press K > press K (numpad, facing-relative; time 15, "
                   "buffer 0; gaps 12 12 8 8)"},
        {" 2 3 6 P ", " 2 3 6 P : 2 > 3? > 6 > press P (numpad, facing-relative; time 15, buffer "
                      "0; gaps 12 12 8)"},
    };
    check_pairs(&b, p, sizeof p / sizeof p[0], FG_MOTION_AUTO);
}

/* Rule: MUGEN symbols keep their meaning: X enters exactly X, ~X leaves it, ~N X after N ticks,
** $X is the 4-way set, /X holds for the next element or alone is hold-only, > is strict, F, F
** expands to F, >~F, >F, | is OR within a step, L/R are screen directions. */
static void mugen_notation_compiles_to_its_steps(void **state) {
    (void)state;
    fg_motion_buttons b = auto_buttons();
    static const pair p[] = {
        {"~D, DF, F, x", "~D, DF, F, x: leave 2 > enter 3 > enter 6 > press x (mugen, "
                         "facing-relative; time 15, buffer 0)"},
        {"/DB, a", "/DB, a: press a while 1 (mugen, facing-relative; time 15, buffer 0)"},
        {"~30a", "~30a: release a >= 30 (mugen; time 15, buffer 0)"},
        {"$D, x", "$D, x: enter {123} > press x (mugen; time 15, buffer 0)"},
        {"D, >F", "D, >F: enter 2 > strict enter 6 (mugen, facing-relative; time 15, buffer 0)"},
        {"F, F", "F, F: enter 6 > strict leave 6 > strict enter 6 (mugen, facing-relative; time "
                 "15, buffer 0)"},
        {"a|b, c", "a|b, c: press a|b > press c (mugen; time 15, buffer 0)"},
        {"F|DF, x", "F|DF, x: enter {36} > press x (mugen, facing-relative; time 15, buffer 0)"},
        {"/D", "/D: held 2 (mugen; time 15, buffer 0)"},
        {"/30$B", "/30$B: held {147} >= 30 (mugen, facing-relative; time 15, buffer 0)"},
        {"L, R, x", "L, R, x: enter screen 4 > enter screen 6 > press x (mugen; time 15, buffer "
                    "0)"},
        {"~a+~b", "~a+~b: release a+b (mugen; time 15, buffer 0)"},
        {"~30$B, F, x", "~30$B, F, x: leave {147} >= 30 > enter 6 > press x (mugen, "
                        "facing-relative; time 15, buffer 0)"},
    };
    check_pairs(&b, p, sizeof p / sizeof p[0], FG_MOTION_MUGEN);
}

/* Rule: auto-detection reads commas, a leading ~ / $ > and MUGEN direction names as MUGEN;
** everything else as numpad; a button named like a direction keeps numpad reading. */
static void auto_detection_tells_the_notations_apart(void **state) {
    (void)state;
    assert_int_equal(fg_motion_detect("236P", NULL), FG_MOTION_NUMPAD);
    assert_int_equal(fg_motion_detect("x", NULL), FG_MOTION_NUMPAD);
    assert_int_equal(fg_motion_detect("D, F", NULL), FG_MOTION_MUGEN);
    assert_int_equal(fg_motion_detect("~30a", NULL), FG_MOTION_MUGEN);
    assert_int_equal(fg_motion_detect("/D", NULL), FG_MOTION_MUGEN);
    assert_int_equal(fg_motion_detect("$D", NULL), FG_MOTION_MUGEN);
    assert_int_equal(fg_motion_detect(">F", NULL), FG_MOTION_MUGEN);
    assert_int_equal(fg_motion_detect("DF", NULL), FG_MOTION_MUGEN);
    fg_motion_buttons b;
    const char *const names[] = {"DF"};
    assert_int_equal(fg_motion_buttons_init(&b, names, 1, NULL, 0, NULL), FG_OK);
    assert_int_equal(fg_motion_detect("DF", &b), FG_MOTION_MUGEN); /* same length: direction */
    const char *const longer[] = {"DFX"};
    assert_int_equal(fg_motion_buttons_init(&b, longer, 1, NULL, 0, NULL), FG_OK);
    assert_int_equal(fg_motion_detect("DFX", &b), FG_MOTION_NUMPAD);
}

/* Rule: every malformed notation fails with the position and what was expected, allocates
** nothing that stays, and leaves *out untouched. */
static void malformed_notation_names_the_column_and_the_expectation(void **state) {
    (void)state;
    fg_motion_buttons numpad;
    fg_motion_buttons_default(&numpad, FG_MOTION_NUMPAD);
    fg_motion_buttons mugen;
    fg_motion_buttons_default(&mugen, FG_MOTION_MUGEN);
    static const struct {
        const char *in;
        int syntax;
        const char *msg;
    } cases[] = {
        {"23x6P", FG_MOTION_AUTO,
         "m: \"23x6P\": unexpected 'x' at column 3, expected a direction or button"},
        {"", FG_MOTION_AUTO, "m: \"\": unexpected end at column 1, expected a direction or button"},
        {"[4", FG_MOTION_AUTO, "m: \"[4\": unexpected end at column 3, expected ']'"},
        {"[45]", FG_MOTION_AUTO, "m: \"[45]\": unexpected '5' at column 3, expected ']'"},
        {"[5]6P", FG_MOTION_AUTO,
         "m: \"[5]6P\": unexpected '5' at column 2, expected a direction other than 5 (neutral "
         "cannot be charged)"},
        {"]P", FG_MOTION_AUTO, "m: \"]P\": unexpected end at column 3, expected '['"},
        {"P+", FG_MOTION_AUTO,
         "m: \"P+\": unexpected end at column 3, expected a button ('+' joins buttons)"},
        {"2+P", FG_MOTION_AUTO,
         "m: \"2+P\": unexpected '+' at column 2, expected a direction or button ('+' joins "
         "buttons)"},
        {"0", FG_MOTION_AUTO,
         "m: \"0\": unexpected '0' at column 1, expected a direction or button"},
        {"236~", FG_MOTION_AUTO,
         "m: \"236~\": unexpected end at column 5, expected a direction or button after '~'"},
        {"236PPPPPPPPPPP", FG_MOTION_AUTO,
         "m: \"236PPPPPPPPPPP\": too many steps (at most 12) at column 13"},
        {"[Q]", FG_MOTION_AUTO,
         "m: \"[Q]\": unexpected 'Q' at column 2, expected a direction or button to charge"},
        {"~D,, F", FG_MOTION_MUGEN,
         "m: \"~D,, F\": unexpected ',' at column 4, expected an element"},
        {"~D, DF,", FG_MOTION_MUGEN,
         "m: \"~D, DF,\": unexpected end at column 8, expected an element after ','"},
        {"~D, DF, G, x", FG_MOTION_MUGEN,
         "m: \"~D, DF, G, x\": unexpected 'G' at column 9, expected a direction (B, DB, D, DF, F, "
         "UF, U, UB, L, R, N) or a button"},
        {"a+F", FG_MOTION_MUGEN,
         "m: \"a+F\": unexpected 'F' at column 3, expected a button ('+' joins buttons)"},
        {"F+a", FG_MOTION_MUGEN,
         "m: \"F+a\": unexpected '+' at column 2, expected ',' or '|' ('+' joins buttons, not "
         "directions)"},
        {"a+b|c", FG_MOTION_MUGEN,
         "m: \"a+b|c\": unexpected '|' at column 4, expected ',' or the same joiner ('+' and '|' "
         "cannot be mixed in one element)"},
        {"$a", FG_MOTION_MUGEN,
         "m: \"$a\": unexpected 'a' at column 2, expected a direction other than N after '$'"},
        {"~D, /F", FG_MOTION_MUGEN,
         "m: \"~D, /F\": a '/' hold with nothing after it; a hold-only command must be a single "
         "element at column 5"},
        {"~99999a", FG_MOTION_MUGEN,
         "m: \"~99999a\": tick count too large (at most 3600) at column 2"},
        {"F|a", FG_MOTION_MUGEN,
         "m: \"F|a\": '|' alternatives must all be directions or all be buttons at column 3"},
        {"a+b+c+x+y", FG_MOTION_MUGEN,
         "m: \"a+b+c+x+y\": too many buttons in one chord (at most 4) at column 9"},
        {"D F", FG_MOTION_MUGEN,
         "m: \"D F\": unexpected 'F' at column 3, expected ',' or '+' or '|'"},
        {"/~a", FG_MOTION_MUGEN,
         "m: \"/~a\": unexpected '~' at column 2, expected a direction or button to hold ('/' and "
         "'~' cannot be combined)"},
        {"~D, DF, F, x\x01", FG_MOTION_MUGEN,
         "m: \"~D, DF, F, x\\x01\": unexpected '\\x01' at column 13, expected ',' or '+' or '|'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fg_counting_allocator counter;
        fg_allocator a = fg_test_counting_allocator(&counter);
        fg_motion_def d = def_of("m", cases[i].in);
        d.syntax = (fg_motion_syntax)cases[i].syntax;
        fg_motion_set *sentinel = (fg_motion_set *)&counter, *set = sentinel;
        fg_error err;
        const fg_motion_buttons *b = cases[i].syntax == FG_MOTION_MUGEN ? &mugen : &numpad;
        fg_status s = fg_motion_set_compile(b, &d, 1, &a, &set, &err);
        if (s != FG_EFORMAT || strcmp(fg_error_message(&err), cases[i].msg) != 0)
            fail_msg("%s\n  expected: %s\n  got (%d): %s", cases[i].in, cases[i].msg, (int)s,
                     fg_error_message(&err));
        assert_ptr_equal(set, sentinel);
        assert_int_equal(counter.live_bytes, 0);
    }
}

/* Rule: a bad option names the motion, the field, the value and the range. */
static void bad_options_name_the_field_and_the_range(void **state) {
    (void)state;
    fg_motion_buttons b = auto_buttons();
    fg_motion_def d = def_of("hadouken", "236P");
    d.time = 5000;
    fg_motion_set *set = NULL;
    fg_error err;
    assert_int_equal(fg_motion_set_compile(&b, &d, 1, NULL, &set, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "hadouken.time: 5000, expected 1..3600 ticks (0 = default)");
    assert_null(set);
    d = def_of("", "236P");
    assert_int_equal(fg_motion_set_compile(&b, &d, 1, NULL, &set, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "motions[1]: name '' must be 1 to 31 characters");
    fg_motion_def two[2] = {def_of("a", "236P"), def_of("b", "236Q")};
    assert_int_equal(fg_motion_set_compile(&b, two, 2, NULL, &set, &err), FG_EFORMAT);
    assert_string_equal(fg_error_message(&err),
                        "b: \"236Q\": unexpected 'Q' at column 4, expected a direction or button");
    assert_null(set);
}

/* Rule: per-step gaps replace single compiled steps' gaps, and are checked against the steps. */
static void per_step_gaps_override_and_are_checked(void **state) {
    (void)state;
    fg_motion_buttons b = auto_buttons();
    fg_motion_def d = def_of("hadouken", "236P");
    d.gaps[2] = 3;
    fg_motion_set *set = NULL;
    fg_error err;
    assert_int_equal(fg_motion_set_compile(&b, &d, 1, NULL, &set, &err), FG_OK);
    char text[256];
    fg_motion_describe(set, 0, text, sizeof text);
    assert_non_null(strstr(text, "gaps 12 12 3)"));
    fg_motion_set_destroy(set);
    set = NULL;
    d.gaps[3] = 4;
    assert_int_equal(fg_motion_set_compile(&b, &d, 1, NULL, &set, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "hadouken: \"236P\": gaps[4] = 4, but the motion has 3 step "
                                 "gaps (gaps[1..3])");
    assert_null(set);
    d.gaps[3] = 0;
    d.gaps[0] = -2;
    assert_int_equal(fg_motion_set_compile(&b, &d, 1, NULL, &set, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "hadouken.gaps[1]: -2, expected 1..3600 ticks (0 = default)");
    assert_null(set);
}

/* Rule: ids come from (name, notation) sorted bytewise, whatever the order of definition. */
static void ids_follow_sorted_names_not_definition_order(void **state) {
    (void)state;
    fg_motion_buttons b = auto_buttons();
    fg_motion_def one[3] = {def_of("tatsu", "214K"), def_of("hadouken", "236P"),
                            def_of("hadouken", "~D, DF, F, x")};
    fg_motion_def two[3] = {one[2], one[0], one[1]};
    fg_motion_set *s1, *s2;
    assert_int_equal(fg_motion_set_compile(&b, one, 3, NULL, &s1, NULL), FG_OK);
    assert_int_equal(fg_motion_set_compile(&b, two, 3, NULL, &s2, NULL), FG_OK);
    assert_string_equal(fg_motion_name(s1, 0), "hadouken");
    assert_string_equal(fg_motion_notation(s1, 0), "236P");
    assert_string_equal(fg_motion_notation(s1, 1), "~D, DF, F, x");
    assert_string_equal(fg_motion_name(s1, 2), "tatsu");
    for (uint32_t i = 0; i < 3; i++) {
        assert_string_equal(fg_motion_name(s1, i), fg_motion_name(s2, i));
        assert_string_equal(fg_motion_notation(s1, i), fg_motion_notation(s2, i));
    }
    assert_true(fg_motion_set_hash(s1) == fg_motion_set_hash(s2));
    assert_int_equal(fg_motion_find(s1, "tatsu"), 2);
    assert_int_equal(fg_motion_find(s1, "nope"), -1);
    assert_null(fg_motion_name(s1, 3));
    fg_motion_set_destroy(s1);
    fg_motion_set_destroy(s2);
}

/* Rule: without declared groups, a capital letter ending two or more longer names is a group
** (LP MP HP -> P); declared groups replace the defaults; group errors change nothing. */
static void button_groups_default_to_shared_last_capitals(void **state) {
    (void)state;
    const char *const sf[] = {"HK", "LP", "HP", "LK", "MP", "MK", "jump"};
    fg_motion_buttons b;
    assert_int_equal(fg_motion_buttons_init(&b, sf, 7, NULL, 0, NULL), FG_OK);
    assert_int_equal(b.ngroups, 2);
    assert_string_equal(b.groups[0].name, "K");
    assert_string_equal(b.groups[1].name, "P");
    int lp = fg_action_names_find(&b.names, "LP"), mp = fg_action_names_find(&b.names, "MP"),
        hp = fg_action_names_find(&b.names, "HP");
    assert_int_equal(b.groups[1].mask, (1u << lp) | (1u << mp) | (1u << hp));
    const char *const punches[] = {"LP", "HP"};
    fg_motion_group_def g[1] = {{"Pn", punches, 2}};
    assert_int_equal(fg_motion_buttons_init(&b, sf, 7, g, 1, NULL), FG_OK);
    assert_int_equal(b.ngroups, 1);
    assert_int_equal(fg_motion_buttons_group(&b, "Pn"), 0);
    assert_int_equal(fg_motion_buttons_group(&b, "P"), -1);
    assert_int_equal(b.groups[0].mask, (1u << lp) | (1u << hp));
    /* errors */
    fg_motion_buttons before = b, after = b;
    fg_error err;
    const char *const bad_members[] = {"LP", "XX"};
    fg_motion_group_def bad[1] = {{"Q", bad_members, 2}};
    assert_int_equal(fg_motion_buttons_init(&after, sf, 7, bad, 1, &err), FG_ENOTFOUND);
    assert_string_equal(fg_error_message(&err), "groups.Q[2]: 'XX' is not a declared button");
    assert_memory_equal(&before, &after, sizeof before);
    fg_motion_group_def clash[1] = {{"LP", punches, 2}};
    assert_int_equal(fg_motion_buttons_init(&after, sf, 7, clash, 1, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "groups.LP: the name is already a button or direction; a group "
                                 "needs its own name");
    assert_memory_equal(&before, &after, sizeof before);
    /* a group stands for any member */
    fg_motion_def d = def_of("h", "236Pn");
    fg_motion_set *set;
    assert_int_equal(fg_motion_buttons_init(&b, sf, 7, g, 1, NULL), FG_OK);
    assert_int_equal(fg_motion_set_compile(&b, &d, 1, NULL, &set, NULL), FG_OK);
    char desc[256];
    fg_motion_describe(set, 0, desc, sizeof desc);
    assert_non_null(strstr(desc, "press Pn"));
    fg_motion_set_destroy(set);
}

static const char kfm_cmd[] =
    "; a MUGEN character's commands\n"
    "[Remap]\n"
    "x = x\n"
    "[Defaults]\n"
    "command.time = 20\n"
    "command.buffer.time = 2\n"
    "\n"
    "[Command]\n"
    "name = \"QCF_x\"\n"
    "command = ~D, DF, F, x   ; the classic\n"
    "\n"
    "[Command]\n"
    "name = \"QCF_x\"\n"
    "command = ~D, F, x\n"
    "time = 12\n"
    "\n"
    "[Command]\n"
    "name = \"FF\"\n"
    "command = F, F\n"
    "time = 10\n"
    "buffer.time = 1\n"
    "buffer.hitpause = 0\n"
    "\n"
    "[Command]\n"
    "name = \"holddown\"\n"
    "command = /$D\n"
    "\n"
    "[Statedef -1]\n"
    "[State -1, QCF]\n"
    "type = ChangeState\n"
    "triggerall = command = \"QCF_x\"\n";

/* Rule: [Command] blocks become patterns with their time and buffer.time, [Defaults] apply, blocks
** sharing a name are alternatives, other sections are ignored, hold-only gets buffer 0. */
static void cmd_file_blocks_become_patterns(void **state) {
    (void)state;
    fg_motion_buttons b;
    fg_motion_buttons_default(&b, FG_MOTION_MUGEN);
    fg_motion_set *set;
    fg_error err;
    assert_int_equal(
        fg_motion_set_compile_cmd(&b, kfm_cmd, sizeof kfm_cmd - 1, "kfm.cmd", NULL, &set, &err),
        FG_OK);
    assert_int_equal(fg_motion_count(set), 4);
    char d[300];
    fg_motion_describe(set, 0, d, sizeof d);
    assert_string_equal(d, "F, F: enter 6 > strict leave 6 > strict enter 6 (mugen, "
                           "facing-relative; time 10, buffer 0; counts frozen ticks)");
    fg_motion_describe(set, 1, d, sizeof d);
    assert_string_equal(d, "~D, DF, F, x: leave 2 > enter 3 > enter 6 > press x (mugen, "
                           "facing-relative; time 20, buffer 1)");
    fg_motion_describe(set, 2, d, sizeof d);
    assert_string_equal(d, "~D, F, x: leave 2 > enter 6 > press x (mugen, facing-relative; time "
                           "12, buffer 1)");
    fg_motion_describe(set, 3, d, sizeof d);
    assert_string_equal(d, "/$D: held {123} (mugen; time 20, buffer 0)");
    assert_string_equal(fg_motion_name(set, 3), "holddown");
    fg_motion_set_destroy(set);
}

/* Rule: .cmd errors name the source and the line, and nothing is kept. */
static void cmd_file_errors_name_the_line(void **state) {
    (void)state;
    fg_motion_buttons b;
    fg_motion_buttons_default(&b, FG_MOTION_MUGEN);
    static const struct {
        const char *text, *msg;
    } cases[] = {
        {"[Command]\nname = \"a\"\ncommand = ~D, DF, G, x\n",
         "kfm.cmd:3: a: \"~D, DF, G, x\": unexpected 'G' at column 9, expected a direction (B, "
         "DB, D, DF, F, UF, U, UB, L, R, N) or a button"},
        {"[Command]\nname = \"a\"\n[Command]\nname = \"b\"\ncommand = x\n",
         "kfm.cmd:1: the [Command] block has no command"},
        {"[Command]\nname = \"a\"\ncommand = x\ntime = 0\n",
         "kfm.cmd:4: time = 0, expected an integer 1..3600"},
        {"[Defaults]\ncommand.time = 15\n", "kfm.cmd: no [Command] block found"},
        {"[Command]\nname = \"a\"\ncommand x\n", "kfm.cmd:3: 'command x': expected key = value"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fg_counting_allocator counter;
        fg_allocator a = fg_test_counting_allocator(&counter);
        fg_motion_set *set = NULL;
        fg_error err;
        fg_status s = fg_motion_set_compile_cmd(&b, cases[i].text, strlen(cases[i].text),
                                                "kfm.cmd", &a, &set, &err);
        assert_int_not_equal(s, FG_OK);
        if (strcmp(fg_error_message(&err), cases[i].msg) != 0)
            fail_msg("case %zu\n  expected: %s\n  got:      %s", i, cases[i].msg, fg_error_message(&err));
        assert_null(set);
        assert_int_equal(counter.live_bytes, 0);
    }
}

/* Rule: a compile that runs out of memory at any allocation fails with FG_ENOMEM and frees
** everything. */
static void compile_out_of_memory_frees_everything(void **state) {
    (void)state;
    fg_motion_buttons b = auto_buttons();
    fg_motion_def d[2] = {def_of("a", "236P"), def_of("b", "623P")};
    int failures = 0;
    for (long k = 0; k < 16; k++) {
        fg_counting_allocator counter;
        fg_allocator a = fg_test_counting_allocator(&counter);
        counter.fail_after = k;
        fg_motion_set *set = NULL;
        fg_status s = fg_motion_set_compile(&b, d, 2, &a, &set, NULL);
        if (s == FG_OK) {
            fg_motion_set_destroy(set);
            assert_int_equal(counter.live_bytes, 0);
            break;
        }
        failures++;
        assert_int_equal(s, FG_ENOMEM);
        assert_null(set);
        assert_int_equal(counter.live_bytes, 0);
    }
    assert_true(failures >= 5); /* every scratch allocation and the set itself */
}

static bool has_finding(const fg_motion_set *set, int kind, const char *text) {
    uint32_t n;
    const fg_motion_finding *f = fg_motion_lint(set, &n);
    for (uint32_t i = 0; i < n; i++)
        if ((int)f[i].kind == kind && strcmp(f[i].text, text) == 0) return true;
    return false;
}

static void print_findings(const fg_motion_set *set) {
    uint32_t n;
    const fg_motion_finding *f = fg_motion_lint(set, &n);
    for (uint32_t i = 0; i < n; i++) print_message("  finding %d: %s\n", f[i].kind, f[i].text);
}

/* Rule: lint warns about a pattern contained in another with no priority between them, two
** patterns completing on a short common input with equal priority (and names the input), and
** patterns that can never fire; explicit priorities silence the first two. */
static void lint_names_contained_ambiguous_and_dead_patterns(void **state) {
    (void)state;
    fg_motion_buttons b = auto_buttons();
    fg_motion_def d[3] = {def_of("hadouken", "236P"), def_of("super", "236236P"),
                          def_of("shoryuken", "623P")};
    fg_motion_set *set;
    assert_int_equal(fg_motion_set_compile(&b, d, 3, NULL, &set, NULL), FG_OK);
    print_findings(set);
    assert_true(has_finding(
        set, FG_MOTION_LINT_CONTAINED,
        "warning: hadouken (236P) is contained in super (236236P): every input that completes "
        "super also completes hadouken, both with priority 0; super wins only by having more "
        "inputs. Give them explicit priorities"));
    assert_true(has_finding(
        set, FG_MOTION_LINT_AMBIGUOUS,
        "warning: hadouken (236P) and shoryuken (623P) both complete on 6236P with priority 0; "
        "hadouken wins only by name order. Give the one that should win a higher priority"));
    fg_motion_set_destroy(set);
    /* a pattern completed by an earlier step of another fires first and starves it */
    fg_motion_def w[2] = {def_of("walk", "6"), def_of("dash", "66")};
    assert_int_equal(fg_motion_set_compile(&b, w, 2, NULL, &set, NULL), FG_OK);
    assert_true(has_finding(
        set, FG_MOTION_LINT_NEVER,
        "warning: dash (66) can never fire: its step 1 (6) completes walk (6) first, which uses "
        "the inputs before dash completes. Make walk longer or drop it"));
    fg_motion_set_destroy(set);
    /* explicit priorities: no contained/ambiguous warning; a contained pattern ranked above its
    ** container makes the container dead */
    d[0].has_priority = d[1].has_priority = d[2].has_priority = true;
    d[0].priority = 0;
    d[1].priority = 20;
    d[2].priority = 10;
    assert_int_equal(fg_motion_set_compile(&b, d, 3, NULL, &set, NULL), FG_OK);
    uint32_t n;
    fg_motion_lint(set, &n);
    print_findings(set);
    assert_int_equal(n, 0);
    fg_motion_set_destroy(set);
    d[0].priority = 30;
    assert_int_equal(fg_motion_set_compile(&b, d, 2, NULL, &set, NULL), FG_OK);
    assert_true(has_finding(set, FG_MOTION_LINT_NEVER,
                            "warning: super (236236P) can never fire: every input that completes "
                            "it also completes hadouken (236P), which has higher priority (30 > "
                            "20)"));
    fg_motion_set_destroy(set);
}

/* Rule: lint finds duplicates and steps that contradict their own hold. */
static void lint_finds_duplicates_and_contradictions(void **state) {
    (void)state;
    fg_motion_buttons b = auto_buttons();
    fg_motion_def d[3] = {def_of("fireball", "236P"), def_of("hadouken", "236P"),
                          def_of("odd", "/B, F")};
    fg_motion_set *set;
    assert_int_equal(fg_motion_set_compile(&b, d, 3, NULL, &set, NULL), FG_OK);
    print_findings(set);
    assert_true(has_finding(set, FG_MOTION_LINT_NEVER,
                            "warning: hadouken (236P) can never fire: fireball (236P) accepts the "
                            "same inputs and wins by name order"));
    assert_true(has_finding(set, FG_MOTION_LINT_NEVER,
                            "warning: odd (/B, F) can never fire: step 1 (/B,F) needs a direction "
                            "held that its own input excludes"));
    fg_motion_set_destroy(set);
    /* far-apart motions are not flagged: 214P and 236P only meet on long inputs */
    fg_motion_def e[2] = {def_of("tatsu", "214P"), def_of("hadouken", "236P")};
    assert_int_equal(fg_motion_set_compile(&b, e, 2, NULL, &set, NULL), FG_OK);
    uint32_t n;
    fg_motion_lint(set, &n);
    assert_int_equal(n, 0);
    fg_motion_set_destroy(set);
}

/* Rule: scripts give ordered events; ranges release at their end; a second press releases
** first; errors name the column. */
static void scripts_parse_to_ordered_events(void **state) {
    (void)state;
    fg_motion_buttons b = auto_buttons();
    fg_motion_script_event ev[16];
    uint32_t n = 0;
    assert_int_equal(fg_motion_script_parse("2@0 LP@1-3 3@2 face=left@2 P@4 LP@4 freeze@5-9", &b,
                                            ev, 16, &n, NULL),
                     FG_OK);
    int lp = fg_action_names_find(&b.names, "LP"), hp = fg_action_names_find(&b.names, "HP");
    /* P presses the group's first member in id order: HP sorts before LP and MP */
    struct {
        int kind, tick, action, value;
    } want[] = {{FG_MOTION_SCRIPT_DIR, 0, 0, 2},   {FG_MOTION_SCRIPT_PRESS, 1, lp, 0},
                {FG_MOTION_SCRIPT_DIR, 2, 0, 3},   {FG_MOTION_SCRIPT_FACE, 2, 0, FG_FACING_LEFT},
                {FG_MOTION_SCRIPT_RELEASE, 3, lp, 0}, {FG_MOTION_SCRIPT_PRESS, 4, hp, 0},
                {FG_MOTION_SCRIPT_PRESS, 4, lp, 0}, {FG_MOTION_SCRIPT_FREEZE, 5, 0, 0}};
    assert_int_equal(n, sizeof want / sizeof want[0]);
    for (uint32_t i = 0; i < n; i++) {
        assert_int_equal(ev[i].kind, want[i].kind);
        assert_int_equal(ev[i].tick, want[i].tick);
        if (want[i].action) assert_int_equal(ev[i].action, want[i].action);
        if (ev[i].kind == FG_MOTION_SCRIPT_DIR || ev[i].kind == FG_MOTION_SCRIPT_FACE)
            assert_int_equal(ev[i].value, want[i].value);
    }
    assert_int_equal(ev[7].until, 9);
    assert_int_equal(fg_motion_script_parse("LP@0 LP@2", &b, ev, 16, &n, NULL), FG_OK);
    assert_int_equal(n, 3);
    assert_int_equal(ev[1].kind, FG_MOTION_SCRIPT_RELEASE);
    assert_int_equal(ev[1].tick, 2);
    static const struct {
        const char *in, *msg;
    } bad[] = {
        {"2@0 3@x", "script \"2@0 3@x\": unexpected 'x' at column 7, expected a tick"},
        {"2@5 3@1", "script \"2@5 3@1\": tick 1 is before the previous event's tick 5; list "
                    "events in time order at column 7"},
        {"Q@1", "script \"Q@1\": unexpected 'Q' at column 1, expected a stick direction 1-9, a "
                "button, face=left, face=right or freeze"},
        {"~LP@1", "script \"~LP@1\": ~LP releases a button that is not held at column 1"},
        {"6@1 6@2", "script \"6@1 6@2\": the stick is already at 6 at column 5"},
        {"LP@1-4 LP@2", "script \"LP@1-4 LP@2\": LP is still held until tick 4 by an earlier "
                        "range at column 8"},
        {"6@1-3", "script \"6@1-3\": unexpected '-' at column 4, expected a space before the next "
                  "event"},
        {"6@1000001", "script \"6@1000001\": tick too large (at most 1000000) at column 3"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        fg_error err;
        uint32_t m = 77;
        assert_int_equal(fg_motion_script_parse(bad[i].in, &b, ev, 16, &m, &err), FG_EFORMAT);
        if (strcmp(fg_error_message(&err), bad[i].msg) != 0)
            fail_msg("%s\n  expected: %s\n  got:      %s", bad[i].in, bad[i].msg, fg_error_message(&err));
        assert_int_equal(m, 77);
    }
}

/* Rule: profiles are named presets; bad values are refused with the field and range. */
static void profiles_are_named_and_checked(void **state) {
    (void)state;
    fg_motion_profile p;
    assert_int_equal(fg_motion_profile_named("lenient", &p, NULL), FG_OK);
    assert_true(p.lenient_directions);
    assert_int_equal(p.gap_extra, 3);
    assert_int_equal(fg_motion_profile_named("strict", &p, NULL), FG_OK);
    assert_int_equal(p.gap_extra, -2);
    assert_int_equal(p.chord_window, 1);
    fg_error err;
    fg_motion_profile before = p;
    assert_int_equal(fg_motion_profile_named("easy", &p, &err), FG_ENOTFOUND);
    assert_string_equal(fg_error_message(&err), "profile 'easy': unknown, expected strict, standard or lenient");
    assert_memory_equal(&before, &p, sizeof p);
    p.chord_window = 99;
    assert_int_equal(fg_motion_profile_check(&p, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "strict.chord_window: 99, expected 0..60 ticks");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(numpad_notation_compiles_to_its_steps),
        cmocka_unit_test(mugen_notation_compiles_to_its_steps),
        cmocka_unit_test(auto_detection_tells_the_notations_apart),
        cmocka_unit_test(malformed_notation_names_the_column_and_the_expectation),
        cmocka_unit_test(bad_options_name_the_field_and_the_range),
        cmocka_unit_test(per_step_gaps_override_and_are_checked),
        cmocka_unit_test(ids_follow_sorted_names_not_definition_order),
        cmocka_unit_test(button_groups_default_to_shared_last_capitals),
        cmocka_unit_test(cmd_file_blocks_become_patterns),
        cmocka_unit_test(cmd_file_errors_name_the_line),
        cmocka_unit_test(compile_out_of_memory_frees_everything),
        cmocka_unit_test(lint_names_contained_ambiguous_and_dead_patterns),
        cmocka_unit_test(lint_finds_duplicates_and_contradictions),
        cmocka_unit_test(scripts_parse_to_ordered_events),
        cmocka_unit_test(profiles_are_named_and_checked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
