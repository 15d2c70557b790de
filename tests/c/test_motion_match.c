/* SPDX-License-Identifier: MIT */
/* test_motion_match.c: the matcher's semantics (MUGEN cases from the notes, numpad defaults),
** facing and side switches, negative edge, charge, SOCD, frozen ticks, consumption, chords,
** explanations with numbers, leniency profiles, rollback, hashing and the no-allocation rule. */
#include "fg_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* {====================================================================== harness */

typedef struct sim {
    const fg_motion_set *set;
    fg_allocator alloc;
    fg_buffer *buf;
    fg_motion_state *st;
    size_t bsize;
    const fg_motion_profile *profile;
    fg_motion_script_event ev[256];
    uint32_t nev, next;
    fg_tick tick; /* last stepped */
    fg_motion_command out[64];
    fg_motion_command log[64];
    uint32_t nlog;
} sim;

static fg_motion_def def_of(const char *name, const char *notation) {
    fg_motion_def d;
    memset(&d, 0, sizeof d);
    d.name = name;
    d.notation = notation;
    return d;
}

static fg_motion_set *compile(const fg_motion_def *d, uint32_t n) {
    fg_motion_buttons b;
    fg_motion_buttons_default(&b, FG_MOTION_AUTO);
    fg_motion_set *set = NULL;
    fg_error err;
    if (fg_motion_set_compile(&b, d, n, NULL, &set, &err) != FG_OK) fail_msg("%s", fg_error_message(&err));
    return set;
}

static fg_motion_set *compile1(const char *name, const char *notation) {
    fg_motion_def d = def_of(name, notation);
    return compile(&d, 1);
}

static void sim_init(sim *s, const fg_motion_set *set, const char *script) {
    memset(s, 0, sizeof *s);
    s->set = set;
    s->alloc = fg_allocator_default();
    s->bsize = fg_buffer_size(128);
    s->buf = fg_alloc(&s->alloc, s->bsize);
    s->st = fg_alloc(&s->alloc, fg_motion_state_size(set));
    assert_int_equal(fg_buffer_init(s->buf, 128, -1, NULL), FG_OK);
    fg_motion_state_init(set, s->st, -1);
    s->tick = -1;
    fg_error err;
    if (fg_motion_script_parse(script, fg_motion_set_buttons(set), s->ev, 256, &s->nev, &err) !=
        FG_OK)
        fail_msg("%s", fg_error_message(&err));
}

static void sim_free(sim *s) {
    fg_free(&s->alloc, s->buf, s->bsize);
    fg_free(&s->alloc, s->st, fg_motion_state_size(s->set));
}

static bool frozen_at(const sim *s, fg_tick t) {
    for (uint32_t i = 0; i < s->nev; i++)
        if (s->ev[i].kind == FG_MOTION_SCRIPT_FREEZE && t >= s->ev[i].tick && t <= s->ev[i].until)
            return true;
    return false;
}

/* Steps every tick up to and including `until`. */
static void sim_run(sim *s, fg_tick until) {
    for (fg_tick t = s->tick + 1; t <= until; t++) {
        int k = 0;
        for (; s->next < s->nev && s->ev[s->next].tick == t; s->next++, k++) {
            const fg_motion_script_event *x = &s->ev[s->next];
            int64_t us = fg_us_of_tick(t, 60) + k;
            fg_status st = FG_OK;
            if (x->kind == FG_MOTION_SCRIPT_DIR)
                st = fg_buffer_push(s->buf, FG_EDGE_DIR, 0, x->value, us, t, FG_SOURCE_SCRIPT, NULL,
                                    NULL);
            else if (x->kind == FG_MOTION_SCRIPT_PRESS || x->kind == FG_MOTION_SCRIPT_RELEASE)
                st = fg_buffer_push(s->buf,
                                    x->kind == FG_MOTION_SCRIPT_PRESS ? FG_EDGE_PRESS
                                                                      : FG_EDGE_RELEASE,
                                    x->action, 0, us, t, FG_SOURCE_SCRIPT, NULL, NULL);
            else if (x->kind == FG_MOTION_SCRIPT_FACE)
                fg_buffer_set_facing(s->buf, (fg_facing)x->value);
            assert_int_equal(st, FG_OK);
        }
        fg_tick_input in;
        assert_int_equal(fg_buffer_consume_for_tick(s->buf, t, &in, NULL), FG_OK);
        fg_motion_ctx ctx = {s->profile, frozen_at(s, t)};
        uint32_t n = 0;
        fg_error err;
        if (fg_motion_step(s->set, s->st, s->buf, &in, &ctx, s->out, 64, &n, &err) != FG_OK)
            fail_msg("%s", fg_error_message(&err));
        for (uint32_t i = 0; i < n && s->nlog < 64; i++) s->log[s->nlog++] = s->out[i];
        s->tick = t;
    }
}

/* "name@tick" of every command, "name@tick+age" for buffered ones, space separated. */
static const char *log_text(const sim *s, char *buf, size_t n) {
    size_t o = 0;
    buf[0] = '\0';
    for (uint32_t i = 0; i < s->nlog && o < n; i++) {
        const fg_motion_command *c = &s->log[i];
        int w = c->age ? snprintf(buf + o, n - o, "%s%s@%lld+%u", o ? " " : "",
                                  fg_motion_name(s->set, c->motion), (long long)c->tick, c->age)
                       : snprintf(buf + o, n - o, "%s%s@%lld", o ? " " : "",
                                  fg_motion_name(s->set, c->motion), (long long)c->tick);
        if (w > 0) o += (size_t)w;
    }
    return buf;
}

/* Runs a script to its end plus a margin and returns the command log. */
static const char *run(const fg_motion_set *set, const char *script,
                       const fg_motion_profile *profile, char *buf, size_t n) {
    sim s;
    sim_init(&s, set, script);
    s.profile = profile;
    sim_run(&s, (s.nev ? s.ev[s.nev - 1].tick : 0) + 20);
    log_text(&s, buf, n);
    sim_free(&s);
    return buf;
}

/* Runs a script and explains one motion at the end. */
static const char *explain(const fg_motion_set *set, const char *script, const char *name,
                           const fg_motion_profile *profile, char *buf, size_t n) {
    sim s;
    sim_init(&s, set, script);
    s.profile = profile;
    sim_run(&s, (s.nev ? s.ev[s.nev - 1].tick : 0) + 1);
    fg_motion_miss m;
    fg_motion_explain(set, s.st, profile, (uint32_t)fg_motion_find(set, name), &m);
    fg_motion_miss_format(set, &m, buf, n);
    sim_free(&s);
    return buf;
}

#define EXPECT_RUN(set, script, want)                                                              \
    do {                                                                                           \
        char got_[512];                                                                            \
        run((set), (script), NULL, got_, sizeof got_);                                            \
        if (strcmp(got_, (want)) != 0)                                                             \
            fail_msg("%s\n  expected: '%s'\n  got:      '%s'", (script), (want), got_);           \
    } while (0)

#define EXPECT_EXPLAIN(set, script, name, want)                                                    \
    do {                                                                                           \
        char got_[512];                                                                            \
        explain((set), (script), (name), NULL, got_, sizeof got_);                                \
        if (strcmp(got_, (want)) != 0)                                                             \
            fail_msg("%s\n  expected: '%s'\n  got:      '%s'", (script), (want), got_);           \
    } while (0)

/* }====================================================================== */

/* {====================================================================== MUGEN semantics */

/* Rule (kfm.cmd advice): `~D, DF, F, x` starts its window when D is released, so it works after
** a long crouch; `D, DF, F, x` starts it when D is pressed and times out. */
static void release_start_survives_a_long_crouch_press_start_does_not(void **state) {
    (void)state;
    fg_motion_set *rel = compile1("qcf", "~D, DF, F, x"), *press = compile1("qcf", "D, DF, F, x");
    EXPECT_RUN(rel, "2@0 3@60 6@62 x@63", "qcf@63");
    EXPECT_RUN(press, "2@0 3@60 6@62 x@63", "");
    EXPECT_EXPLAIN(press, "2@0 3@60 6@62 x@63", "qcf",
                   "qcf (D, DF, F, x): step 2 (DF) did not come within 15 ticks of the first step");
    EXPECT_RUN(press, "2@0 3@2 6@4 x@5", "qcf@5");
    fg_motion_set_destroy(rel);
    fg_motion_set_destroy(press);
}

/* Rule: a release step needs a real release edge: `~D` is not satisfied merely because D is up
** (the ghost match of Ikemen #3305). */
static void release_step_needs_a_real_release(void **state) {
    (void)state;
    fg_motion_set *set = compile1("qcf", "~D, DF, F, x");
    EXPECT_RUN(set, "3@0 6@2 x@3", "");
    EXPECT_RUN(set, "2@0 3@1 6@2 x@3", "qcf@3");
    fg_motion_set_destroy(set);
}

/* Rule: `$D` is 4-way: a press of down through DB or DF counts; plain `D` needs exactly 2. */
static void dollar_direction_accepts_diagonals(void **state) {
    (void)state;
    fg_motion_set *lenient = compile1("m", "$D, F, x"), *exact = compile1("m", "D, F, x");
    EXPECT_RUN(lenient, "1@0 3@2 6@3 x@4", "m@4");
    EXPECT_RUN(exact, "1@0 3@2 6@3 x@4", "");
    EXPECT_EXPLAIN(exact, "1@0 3@2 6@3 x@4", "m", "m (D, F, x): nothing matched step 1 (D) yet");
    EXPECT_RUN(exact, "2@0 3@2 6@3 x@4", "m@4");
    fg_motion_set_destroy(lenient);
    fg_motion_set_destroy(exact);
}

/* Rule: `>` allows nothing at all between the previous step and its own. */
static void greater_allows_nothing_in_between(void **state) {
    (void)state;
    fg_motion_set *set = compile1("m", "D, >F");
    EXPECT_RUN(set, "2@0 6@1", "m@1");
    EXPECT_RUN(set, "2@0 x@1 6@2", "");
    EXPECT_EXPLAIN(set, "2@0 x@1 6@2", "m",
                   "m (D, >F): step 2 (>F) must follow D with nothing in between, 1 other input "
                   "came between");
    fg_motion_set_destroy(set);
}

/* Rule: `~30a` fires on the release after a has been down at least 30 ticks, not 29. */
static void charge_release_needs_the_full_hold(void **state) {
    (void)state;
    fg_motion_set *set = compile1("m", "~30a");
    EXPECT_RUN(set, "a@0-29", "");
    EXPECT_EXPLAIN(set, "a@0-29", "m",
                   "m (~30a): step 1 (~30a) was held 29 ticks, charge needs 30");
    EXPECT_RUN(set, "a@0-30", "m@30");
    EXPECT_RUN(set, "a@0-45", "m@45");
    fg_motion_set_destroy(set);
    /* two charges in one command (Ikemen #2530): each is measured on its own */
    fg_motion_set *two = compile1("two", "~10B, ~10F, x");
    EXPECT_RUN(two, "4@0 6@10 5@20 x@21", "two@21");
    EXPECT_RUN(two, "4@0 6@10 5@19 x@21", "");
    EXPECT_EXPLAIN(two, "4@0 6@10 5@19 x@21", "two",
                   "two (~10B, ~10F, x): step 2 (~10F) was held 9 ticks, charge needs 10");
    fg_motion_set_destroy(two);
}

/* Rule: `F, F` is `F, >~F, >F`: the stick leaves F and comes back with nothing else between, so
** 6-5-6 and 6-3-6 both dash and a button between does not. Numpad `66` goes through neutral. */
static void repeated_directions_expand(void **state) {
    (void)state;
    fg_motion_set *mugen = compile1("run", "F, F"), *numpad = compile1("dash", "66");
    EXPECT_RUN(mugen, "6@0 5@2 6@4", "run@4");
    EXPECT_RUN(mugen, "6@0 3@2 6@4", "run@4");
    EXPECT_RUN(mugen, "6@0 x@1 5@2 6@4", "");
    EXPECT_RUN(numpad, "6@0 5@2 6@4", "dash@4");
    EXPECT_RUN(numpad, "6@0 3@2 6@4", "");
    EXPECT_RUN(numpad, "6@0 5@2 LP@3 6@4", "");
    fg_motion_def d = def_of("run", "F, F");
    d.no_autogreater = true;
    fg_motion_set *plain = compile(&d, 1);
    EXPECT_RUN(plain, "6@0 x@1 5@2 6@4", "run@4");
    fg_motion_set_destroy(mugen);
    fg_motion_set_destroy(numpad);
    fg_motion_set_destroy(plain);
}

/* Rule: a hold-only command (`/D`) is asserted on every tick the hold lasts, never buffered
** (buffer forced to 1 as in MUGEN), uses no edge and consumes nothing. */
static void hold_only_command_is_asserted_while_held(void **state) {
    (void)state;
    fg_motion_def d[2] = {def_of("crouch", "/D"), def_of("down", "~D")};
    d[0].buffer = 5;
    fg_motion_set *set = compile(d, 2);
    sim s;
    sim_init(&s, set, "2@3 5@6");
    sim_run(&s, 10);
    char got[256];
    assert_string_equal(log_text(&s, got, sizeof got), "crouch@3 crouch@4 crouch@5 down@6");
    for (int i = 0; i < 3; i++) {
        assert_int_equal(s.log[i].nedges, 0);
        assert_true(s.log[i].flags & FG_MOTION_CMD_LEVEL);
        assert_int_equal(s.log[i].age, 0);
    }
    char desc[200];
    fg_motion_describe(set, 0, desc, sizeof desc);
    assert_string_equal(desc, "/D: held 2 (mugen; time 15, buffer 0)");
    sim_free(&s);
    fg_motion_set_destroy(set);
}

/* Rule: `/30$B` is asserted from the 30th tick the hold lasts. */
static void timed_hold_only_command_waits_for_its_time(void **state) {
    (void)state;
    fg_motion_set *set = compile1("charged", "/30$B");
    sim s;
    sim_init(&s, set, "4@10 1@20 5@45");
    sim_run(&s, 50);
    char got[256];
    /* held from tick 10: the 30th tick held is 39; 4 -> 1 stays in {147} */
    assert_string_equal(log_text(&s, got, sizeof got),
                        "charged@39 charged@40 charged@41 charged@42 charged@43 charged@44");
    sim_free(&s);
    fg_motion_set_destroy(set);
}

/* Rule: `time` counts from the first step: completing 15 ticks after it is in, 16 is out. */
static void time_window_boundary_is_inclusive(void **state) {
    (void)state;
    fg_motion_set *set = compile1("m", "D, F, x");
    EXPECT_RUN(set, "2@0 6@5 x@15", "m@15");
    EXPECT_RUN(set, "2@0 6@5 x@16", "");
    EXPECT_EXPLAIN(set, "2@0 6@5 x@16", "m",
                   "m (D, F, x): step 3 (x) came 16 ticks after the first step, time 15");
    fg_motion_def d = def_of("m", "D, F, x");
    d.time = 20;
    fg_motion_set *longer = compile(&d, 1);
    EXPECT_RUN(longer, "2@0 6@5 x@20", "m@20");
    EXPECT_RUN(longer, "2@0 6@5 x@21", "");
    fg_motion_set_destroy(set);
    fg_motion_set_destroy(longer);
}

/* Rule: `buffer` N asserts the command on its completion tick and the N ticks after, no more
** (a .cmd file's buffer.time N + 1); retiring it stops that early. */
static void buffer_time_boundary(void **state) {
    (void)state;
    fg_motion_def d = def_of("m", "D, F, x");
    d.buffer = 3;
    fg_motion_set *set = compile(&d, 1);
    EXPECT_RUN(set, "2@0 6@1 x@2", "m@2 m@2+1 m@2+2 m@2+3");
    fg_motion_set *one = compile1("m", "D, F, x");
    EXPECT_RUN(one, "2@0 6@1 x@2", "m@2");
    sim s;
    sim_init(&s, set, "2@0 6@1 x@2");
    sim_run(&s, 3);
    fg_motion_retire(set, s.st, 0);
    sim_run(&s, 10);
    char got[128];
    assert_string_equal(log_text(&s, got, sizeof got), "m@2 m@2+1");
    sim_free(&s);
    fg_motion_set_destroy(set);
    fg_motion_set_destroy(one);
}

/* }====================================================================== */

/* {====================================================================== facing */

/* Rule: a facing-relative motion is read in the facing of the edge that completes it. A motion
** done for the new side across a switch fires; one done for the old side does not, and the
** explanation says the sides switched. */
static void side_switch_reads_the_motion_in_the_final_facing(void **state) {
    (void)state;
    fg_motion_set *set = compile1("hadouken", "236P");
    /* physically 2 1 4: a quarter circle toward the left, begun before the switch */
    sim s;
    sim_init(&s, set, "2@0 1@2 face=left@3 4@3 LP@5");
    sim_run(&s, 8);
    assert_int_equal(s.nlog, 1);
    assert_int_equal(s.log[0].facing, FG_FACING_LEFT);
    sim_free(&s);
    EXPECT_RUN(set, "2@0 3@2 face=left@3 6@3 LP@5", "");
    EXPECT_EXPLAIN(set, "2@0 3@2 face=left@3 6@3 LP@5", "hadouken",
                   "hadouken (236P): the motion was done for facing right, but at step 4 (P) the "
                   "entity faced left (sides switched mid-motion)");
    /* the whole motion after the switch, read facing left */
    EXPECT_RUN(set, "face=left@0 2@1 1@2 4@3 LP@4", "hadouken@4");
    fg_motion_set_destroy(set);
}

/* Rule: screen directions (MUGEN L/R) ignore the facing; B/F follow it. */
static void screen_directions_ignore_the_facing(void **state) {
    (void)state;
    fg_motion_def d[2] = {def_of("screen", "L, R, x"), def_of("relative", "B, F, y")};
    fg_motion_set *set = compile(d, 2);
    EXPECT_RUN(set, "face=left@0 4@1 6@2 x@3", "screen@3");
    EXPECT_RUN(set, "face=left@0 6@1 4@2 y@3", "relative@3");
    EXPECT_RUN(set, "face=left@0 4@1 6@2 y@3", "");
    fg_motion_set_destroy(set);
}

/* }====================================================================== */

/* {====================================================================== numpad semantics */

/* Rule: `]P[` fires on the release of P, not on its press. */
static void negative_edge_fires_on_release(void **state) {
    (void)state;
    fg_motion_def d[2] = {def_of("neg", "236]P["), def_of("jab", "LP")};
    fg_motion_set *set = compile(d, 2);
    /* the press does a jab; the release after the motion does the special */
    EXPECT_RUN(set, "LP@0-8 2@3 3@4 6@5", "jab@0 neg@8");
    EXPECT_RUN(set, "2@0 3@1 6@2 LP@3-5", "jab@3 neg@5");
    fg_motion_set_destroy(set);
}

/* Rule: `[4]6P` needs back held `charge` ticks (diagonals included), then forward and P; other
** inputs during the charge do not break it. */
static void numpad_charge_needs_its_time(void **state) {
    (void)state;
    fg_motion_set *set = compile1("sonic", "[4]6P");
    EXPECT_RUN(set, "4@0 6@29 LP@30", "");
    EXPECT_EXPLAIN(set, "4@0 6@29 LP@30", "sonic",
                   "sonic ([4]6P): step 1 ([4]) was held 29 ticks, charge needs 30");
    EXPECT_RUN(set, "4@0 6@30 LP@31", "sonic@31");
    EXPECT_RUN(set, "1@0 4@10 LK@12-14 7@20 6@30 LP@31", "sonic@31");
    fg_motion_def d = def_of("sonic", "[4]6P");
    d.charge = 45;
    fg_motion_set *longer = compile(&d, 1);
    EXPECT_RUN(longer, "4@0 6@44 LP@45", "");
    EXPECT_RUN(longer, "4@0 6@45 LP@46", "sonic@46");
    fg_motion_set_destroy(set);
    fg_motion_set_destroy(longer);
}

/* Rule: a numpad direction step lasts while it is held, so 236P works from a crouch held long
** before, and the gap is measured from the last tick the previous direction was held. */
static void numpad_directions_count_from_their_last_held_tick(void **state) {
    (void)state;
    fg_motion_def d = def_of("236P", "236P");
    d.gap = 8;
    fg_motion_set *set = compile(&d, 1);
    EXPECT_RUN(set, "2@0 3@60 6@62 LP@63", "236P@63");
    EXPECT_RUN(set, "2@0 3@2 5@3 6@11 LP@12", "236P@12");
    EXPECT_RUN(set, "2@0 3@2 5@3 6@12 LP@13", "");
    EXPECT_EXPLAIN(set, "2@0 3@2 5@3 6@12 LP@13", "236P",
                   "236P: step 3 (6) came 9 ticks after 3, max gap 8");
    fg_motion_set_destroy(set);
}

/* }====================================================================== */

/* {====================================================================== SOCD, frozen ticks */

/* Pushes the cleaned direction of a raw digital stick when it changes. */
static void stick(fg_buffer *b, fg_socd_state *sd, const fg_motion_profile *p, int dir_action,
                  bool down, fg_tick t, int *last) {
    uint32_t bits = fg_socd_update(sd, dir_action, down, p->socd_horizontal, p->socd_vertical,
                                   FG_FACING_RIGHT);
    int d = fg_numpad_of_bits(bits);
    if (d != *last) {
        assert_int_equal(fg_buffer_push(b, FG_EDGE_DIR, 0, d, fg_us_of_tick(t, 60) + dir_action, t,
                                        FG_SOURCE_DEVICE, NULL, NULL),
                         FG_OK);
        *last = d;
    }
}

static int dashes_with_socd(const fg_motion_set *set, fg_socd horizontal) {
    fg_motion_profile p = fg_motion_profile_preset(FG_MOTION_PROFILE_STANDARD);
    p.socd_horizontal = horizontal;
    sim s;
    sim_init(&s, set, "");
    fg_socd_state sd;
    memset(&sd, 0, sizeof sd);
    int last = 5, dashes = 0;
    /* A hitbox player holds right and taps left. */
    for (fg_tick t = 0; t < 12; t++) {
        if (t == 0) stick(s.buf, &sd, &p, FG_IN_RIGHT, true, t, &last);
        if (t == 2) stick(s.buf, &sd, &p, FG_IN_LEFT, true, t, &last);
        if (t == 4) stick(s.buf, &sd, &p, FG_IN_LEFT, false, t, &last);
        fg_tick_input in;
        assert_int_equal(fg_buffer_consume_for_tick(s.buf, t, &in, NULL), FG_OK);
        fg_motion_ctx ctx = {&p, false};
        uint32_t n = 0;
        assert_int_equal(fg_motion_step(set, s.st, s.buf, &in, &ctx, s.out, 64, &n, NULL), FG_OK);
        dashes += (int)n;
    }
    sim_free(&s);
    return dashes;
}

/* Rule: SOCD cleaning happens upstream and the matcher reads what it produced: with neutral,
** holding right and tapping left reads 6-5-6, a dash; last-wins reads 6-4-6 and first-wins
** stays at 6, neither a dash. */
static void socd_modes_change_what_the_matcher_reads(void **state) {
    (void)state;
    fg_motion_set *set = compile1("dash", "66");
    assert_int_equal(dashes_with_socd(set, FG_SOCD_NEUTRAL), 1);
    assert_int_equal(dashes_with_socd(set, FG_SOCD_LAST_WINS), 0);
    assert_int_equal(dashes_with_socd(set, FG_SOCD_FIRST_WINS), 0);
    fg_motion_set_destroy(set);
}

/* Rule: frozen ticks (hitstop) stand still for FROZEN_SKIP patterns and count for FROZEN_COUNT. */
static void frozen_ticks_follow_the_pattern_policy(void **state) {
    (void)state;
    fg_motion_def d[2] = {def_of("skip", "236P"), def_of("count", "236K")};
    d[1].frozen = FG_MOTION_FROZEN_COUNT;
    fg_motion_set *set = compile(d, 2);
    /* 17 ticks from 3 to the button, 12 of them frozen */
    EXPECT_RUN(set, "2@0 3@2 freeze@3-14 6@18 LP@19", "skip@19");
    EXPECT_RUN(set, "2@0 3@2 freeze@3-14 6@18 LK@19", "");
    EXPECT_RUN(set, "2@0 3@2 6@5 LK@6", "count@6");
    /* the buffer stands still too */
    fg_motion_def b = def_of("m", "D, F, x");
    b.buffer = 2;
    fg_motion_set *buffered = compile(&b, 1);
    EXPECT_RUN(buffered, "2@0 6@1 x@2 freeze@3-5", "m@2 m@2+1 m@2+2 m@2+3 m@2+4 m@2+5");
    fg_motion_set_destroy(set);
    fg_motion_set_destroy(buffered);
}

/* }====================================================================== */

/* {====================================================================== consumption */

/* Rule: one press fires one command: the motion wins over the plain button and uses the press;
** the loser's explanation names the winner and the reason. */
static void one_press_fires_one_command(void **state) {
    (void)state;
    fg_motion_def d[2] = {def_of("hadouken", "236P"), def_of("jab", "LP")};
    fg_motion_set *set = compile(d, 2);
    EXPECT_RUN(set, "2@0 3@1 6@2 LP@3", "hadouken@3");
    EXPECT_EXPLAIN(set, "2@0 3@1 6@2 LP@3", "jab",
                   "jab (LP): completed on tick 3 but lost to hadouken (236P): more inputs (4 > "
                   "1)");
    fg_motion_set_destroy(set);
}

/* Rule: completing a command consumes its edges, so rolling over the buttons after a motion does
** not fire it again. */
static void piano_input_does_not_refire(void **state) {
    (void)state;
    fg_motion_set *set = compile1("hadouken", "236P");
    sim s;
    sim_init(&s, set, "2@0 3@1 6@2 LP@3 MP@4 HP@5");
    sim_run(&s, 10);
    char got[128];
    assert_string_equal(log_text(&s, got, sizeof got), "hadouken@3");
    /* the edges it reported are the ones it consumed, oldest first */
    const fg_motion_command *c = &s.log[0];
    assert_int_equal(c->nedges, 4);
    static const fg_tick ticks[] = {0, 1, 2, 3};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(c->edges[i], (fg_edge_id)(i + 1));
        assert_int_equal(c->edge_ticks[i], ticks[i]);
        const fg_edge *e = fg_buffer_find(s.buf, c->edges[i]);
        assert_non_null(e);
        assert_true(e->flags & FG_EDGE_CONSUMED);
    }
    assert_false(fg_buffer_find(s.buf, 5)->flags & FG_EDGE_CONSUMED); /* MP */
    sim_free(&s);
    fg_motion_set_destroy(set);
}

/* Rule: a second punch within the chord window turns the fireball into the EX version (it says
** so); a third punch fires nothing. */
static void ex_chord_upgrades_once_then_piano_stops(void **state) {
    (void)state;
    fg_motion_def d[2] = {def_of("ex", "236P+P"), def_of("hadouken", "236P")};
    fg_motion_set *set = compile(d, 2);
    sim s;
    sim_init(&s, set, "2@0 3@1 6@2 LP@3 MP@4 HP@5");
    sim_run(&s, 10);
    char got[128];
    assert_string_equal(log_text(&s, got, sizeof got), "hadouken@3 ex@4");
    assert_int_equal(s.log[1].replaces, fg_motion_find(set, "hadouken"));
    assert_int_equal(s.log[1].nedges, 5);
    sim_free(&s);
    EXPECT_RUN(set, "2@0 3@1 6@2 LP@3 MP@8", "hadouken@3");
    fg_motion_set_destroy(set);
}

/* Rule: an edge another layer consumed first cannot be part of a command. */
static void edges_consumed_elsewhere_are_not_used(void **state) {
    (void)state;
    fg_motion_set *set = compile1("hadouken", "236P");
    sim s;
    sim_init(&s, set, "2@0 3@1 6@2 LP@3");
    sim_run(&s, 2);
    fg_edge_ref ref = {2}; /* the 3 */
    assert_int_equal(fg_buffer_consume(s.buf, ref, NULL), FG_OK);
    sim_run(&s, 6);
    assert_int_equal(s.nlog, 0);
    sim_free(&s);
    fg_motion_set_destroy(set);
}

/* Rule: a chord completed within the chord window of a single press takes that press over and
** says whose command it replaces; later than the window it does not. */
static void chord_takes_over_a_recent_single_press(void **state) {
    (void)state;
    fg_motion_def d[2] = {def_of("throw", "LP+LK"), def_of("jab", "LP")};
    fg_motion_set *set = compile(d, 2);
    sim s;
    sim_init(&s, set, "LP@0 LK@1");
    sim_run(&s, 5);
    char got[128];
    assert_string_equal(log_text(&s, got, sizeof got), "jab@0 throw@1");
    assert_true(s.log[1].flags & FG_MOTION_CMD_UPGRADE);
    assert_int_equal(s.log[1].replaces, fg_motion_find(set, "jab"));
    assert_int_equal(s.log[1].nedges, 2);
    char line[256];
    fg_motion_command_format(set, &s.log[1], line, sizeof line);
    assert_string_equal(line, "throw (LP+LK) on tick 1, replaces jab (LP)");
    sim_free(&s);
    EXPECT_RUN(set, "LP@0 LK@0", "throw@0");
    EXPECT_RUN(set, "LP@0 LK@5", "jab@0");
    EXPECT_EXPLAIN(set, "LP@0 LK@5", "throw",
                   "throw (LP+LK): step 1 (LP+LK) presses came 5 ticks apart, chord window 3");
    fg_motion_set_destroy(set);
}

/* Rule: the command says why it won and over whom. */
static void winner_says_why(void **state) {
    (void)state;
    fg_motion_def d[2] = {def_of("shoryuken", "623P"), def_of("hadouken", "236P")};
    d[0].has_priority = true;
    d[0].priority = 10;
    fg_motion_set *set = compile(d, 2);
    sim s;
    sim_init(&s, set, "6@0 2@3 3@5 6@7 LP@8");
    sim_run(&s, 10);
    assert_int_equal(s.nlog, 1);
    assert_int_equal(s.log[0].why, FG_MOTION_WHY_PRIORITY);
    assert_int_equal(s.log[0].beat, fg_motion_find(set, "hadouken"));
    assert_int_equal(s.log[0].priority, 10);
    char line[256];
    fg_motion_command_format(set, &s.log[0], line, sizeof line);
    assert_string_equal(line,
                        "shoryuken (623P) on tick 8 won over hadouken (236P): priority 10 > 0");
    sim_free(&s);
    EXPECT_EXPLAIN(set, "6@0 2@3 3@5 6@7 LP@8", "hadouken",
                   "hadouken (236P): completed on tick 8 but lost to shoryuken (623P): priority 10 "
                   "> 0");
    fg_motion_set_destroy(set);
}

/* Rule: alternatives (several patterns with one name) give one command per tick. */
static void alternatives_give_one_command(void **state) {
    (void)state;
    fg_motion_def d[2] = {def_of("hadouken", "236P"), def_of("hadouken", "~D, DF, F, LP")};
    fg_motion_set *set = compile(d, 2);
    EXPECT_RUN(set, "2@0 3@1 6@2 LP@3", "hadouken@3");
    EXPECT_RUN(set, "2@0 3@1 6@2 MP@3", "hadouken@3");
    fg_motion_set_destroy(set);
}

/* }====================================================================== */

/* {====================================================================== explanations, profiles */

/* Rule: explanations report the furthest step and the failure with its numbers. */
static void near_miss_reports_the_furthest_step_with_numbers(void **state) {
    (void)state;
    fg_motion_set *set = compile1("hadouken", "236P");
    EXPECT_EXPLAIN(set, "", "hadouken", "hadouken (236P): nothing matched step 1 (2) yet");
    EXPECT_EXPLAIN(set, "2@0 3@2", "hadouken",
                   "hadouken (236P): reached step 2 (3) of 4, waiting for step 3 (6)");
    EXPECT_EXPLAIN(set, "2@0 3@2 5@3 6@20 LP@21", "hadouken",
                   "hadouken (236P): step 3 (6) came 17 ticks after 3, max gap 12");
    EXPECT_EXPLAIN(set, "2@0 3@1 6@2 5@3 LP@12", "hadouken",
                   "hadouken (236P): step 4 (P) came 9 ticks after 6, max gap 8");
    fg_motion_set_destroy(set);
}

/* Rule: leniency profiles are data on the same patterns: lenient skips the diagonal of 236 and
** widens gaps, strict narrows them. */
static void profiles_change_leniency_not_patterns(void **state) {
    (void)state;
    fg_motion_set *set = compile1("hadouken", "236P");
    fg_motion_profile strict = fg_motion_profile_preset(FG_MOTION_PROFILE_STRICT);
    fg_motion_profile lenient = fg_motion_profile_preset(FG_MOTION_PROFILE_LENIENT);
    char got[256];
    assert_string_equal(run(set, "2@0 6@2 LP@3", NULL, got, sizeof got), "");
    assert_string_equal(run(set, "2@0 6@2 LP@3", &lenient, got, sizeof got), "hadouken@3");
    /* a gap of 11 before 6: standard allows 12, strict 10 */
    assert_string_equal(run(set, "2@0 3@1 5@2 6@13 LP@14", NULL, got, sizeof got), "hadouken@14");
    assert_string_equal(run(set, "2@0 3@1 5@2 6@13 LP@14", &strict, got, sizeof got), "");
    assert_string_equal(explain(set, "2@0 3@1 5@2 6@13 LP@14", "hadouken", &strict, got,
                                sizeof got),
                        "hadouken (236P): step 3 (6) came 11 ticks after 3, max gap 10");
    /* a skipped step is reported as no edge */
    sim s;
    sim_init(&s, set, "2@0 6@2 LP@3");
    s.profile = &lenient;
    sim_run(&s, 5);
    assert_int_equal(s.nlog, 1);
    assert_int_equal(s.log[0].nedges, 3);
    sim_free(&s);
    fg_motion_set_destroy(set);
}

/* }====================================================================== */

/* {====================================================================== state, rollback, cost */

/* Rule: a step for a tick that is not after the last one, or with a state of another set, fails
** and changes nothing. */
static void bad_steps_change_nothing(void **state) {
    (void)state;
    fg_motion_set *set = compile1("hadouken", "236P"), *other = compile1("tatsu", "214K");
    sim s;
    sim_init(&s, set, "2@0 3@1");
    sim_run(&s, 3);
    size_t size = fg_motion_state_size(set);
    uint8_t *before = malloc(size);
    memcpy(before, s.st, size);
    fg_tick_input in;
    memset(&in, 0, sizeof in);
    in.tick = 3;
    fg_error err;
    uint32_t n = 9;
    assert_int_equal(fg_motion_step(set, s.st, s.buf, &in, NULL, s.out, 64, &n, &err), FG_ESTATE);
    assert_string_equal(fg_error_message(&err), "motion step: tick 3 is not after the last stepped tick 3");
    assert_int_equal(n, 0);
    assert_memory_equal(before, s.st, size);
    in.tick = 4;
    assert_int_equal(fg_motion_step(other, s.st, s.buf, &in, NULL, s.out, 64, &n, &err),
                     FG_EMISMATCH);
    assert_non_null(strstr(fg_error_message(&err), "the state was initialised for another motion set"));
    assert_memory_equal(before, s.st, size);
    free(before);
    sim_free(&s);
    fg_motion_set_destroy(set);
    fg_motion_set_destroy(other);
}

/* Rule: state and buffer restored with memcpy replay to the same commands and the same hash. */
static void rollback_by_memcpy_replays_identically(void **state) {
    (void)state;
    fg_motion_def d[3] = {def_of("hadouken", "236P"), def_of("shoryuken", "623P"),
                          def_of("sonic", "[4]6K")};
    fg_motion_set *set = compile(d, 3);
    const char *script = "2@0 3@2 6@4 LP@5 4@10 6@45 LK@46 5@48 6@50 2@52 3@54 MP@55";
    sim s;
    sim_init(&s, set, script);
    sim_run(&s, 20);
    size_t ssize = fg_motion_state_size(set);
    uint8_t *snap_st = malloc(ssize), *snap_buf = malloc(s.bsize);
    memcpy(snap_st, s.st, ssize);
    memcpy(snap_buf, s.buf, s.bsize);
    uint32_t snap_next = s.next, snap_nlog = s.nlog;
    sim_run(&s, 70);
    char first[256], second[256];
    log_text(&s, first, sizeof first);
    fg_hasher h1 = fg_hasher_begin(7);
    fg_motion_state_hash(set, s.st, &h1);
    memcpy(s.st, snap_st, ssize);
    memcpy(s.buf, snap_buf, s.bsize);
    s.next = snap_next;
    s.nlog = snap_nlog;
    s.tick = 20;
    sim_run(&s, 70);
    log_text(&s, second, sizeof second);
    fg_hasher h2 = fg_hasher_begin(7);
    fg_motion_state_hash(set, s.st, &h2);
    assert_string_equal(first, "hadouken@5 sonic@46 shoryuken@55");
    assert_string_equal(first, second);
    assert_true(fg_hasher_end(&h1) == fg_hasher_end(&h2));
    free(snap_st);
    free(snap_buf);
    sim_free(&s);
    fg_motion_set_destroy(set);
}

/* Rule: the hash follows the matcher's progress: one more step matched changes it. */
static void hash_follows_match_progress(void **state) {
    (void)state;
    fg_motion_set *set = compile1("hadouken", "236P");
    uint64_t h[3];
    const char *scripts[3] = {"2@0 3@1", "2@0 5@1", "2@0 3@1"};
    for (int i = 0; i < 3; i++) {
        sim s;
        sim_init(&s, set, scripts[i]);
        sim_run(&s, 4);
        fg_hasher hs = fg_hasher_begin(1);
        fg_motion_state_hash(set, s.st, &hs);
        h[i] = fg_hasher_end(&hs);
        sim_free(&s);
    }
    assert_true(h[0] != h[1]);
    assert_true(h[0] == h[2]);
    fg_motion_set_destroy(set);
}

/* Rule: once set, state and buffer exist, stepping never allocates. */
/* Rule: a command reports the whole ids and ticks of its edges, fresh and re-asserted by its
** buffer, when both run past 2^32 in the middle of the motion (the state keeps their low halves
** and recovers the rest); and it consumes those edges. */
static void edge_ids_and_ticks_past_32_bits_come_back_whole(void **state) {
    (void)state;
    fg_motion_def d = def_of("hadouken", "236P");
    d.buffer = 4;
    fg_motion_set *set = compile(&d, 1);
    fg_allocator a = fg_allocator_default();
    size_t bsize = fg_buffer_size(32);
    fg_buffer *buf = fg_alloc(&a, bsize);
    fg_motion_state *st = fg_alloc(&a, fg_motion_state_size(set));
    fg_tick t0 = ((fg_tick)1 << 32) - 3;
    assert_int_equal(fg_buffer_init(buf, 32, t0 - 1, NULL), FG_OK);
    buf->next_id = ((fg_edge_id)1 << 32) - 2;
    fg_motion_state_init(set, st, t0 - 1);
    int lp = fg_action_names_find(&fg_motion_set_buttons(set)->names, "LP");
    assert_true(lp >= FG_IN_FIRST_BUTTON);
    fg_edge_id ids[4];
    fg_motion_command out[4];
    uint32_t n = 0;
    for (int k = 0; k < 5; k++) {
        fg_tick t = t0 + k;
        if (k < 3)
            assert_int_equal(fg_buffer_push(buf, FG_EDGE_DIR, 0, "236"[k] - '0', k * 1000, t, 0,
                                            &ids[k], NULL), FG_OK);
        else if (k == 3)
            assert_int_equal(fg_buffer_push(buf, FG_EDGE_PRESS, lp, 0, k * 1000, t, 0, &ids[k],
                                            NULL), FG_OK);
        fg_tick_input in;
        assert_int_equal(fg_buffer_consume_for_tick(buf, t, &in, NULL), FG_OK);
        fg_motion_ctx ctx = {NULL, false};
        assert_int_equal(fg_motion_step(set, st, buf, &in, &ctx, out, 4, &n, NULL), FG_OK);
        /* Made on the press (age 0), re-asserted by its buffer on the next tick (age 1). */
        assert_int_equal(n, k < 3 ? 0 : 1);
        if (k < 3) continue;
        assert_int_equal(out[0].age, k - 3);
        assert_int_equal(out[0].nedges, 4);
        for (int i = 0; i < 4; i++) {
            assert_true(out[0].edges[i] == ids[i]);
            assert_true(out[0].edge_ticks[i] == t0 + i);
            const fg_edge *e = fg_buffer_find(buf, ids[i]);
            assert_non_null(e);
            assert_true(e->flags & FG_EDGE_CONSUMED);
        }
    }
    assert_true(ids[2] == (fg_edge_id)1 << 32); /* the ids crossed 2^32 */
    fg_free(&a, buf, bsize);
    fg_free(&a, st, fg_motion_state_size(set));
    fg_motion_set_destroy(set);
}

static void stepping_never_allocates(void **state) {
    (void)state;
    fg_counting_allocator counter;
    fg_allocator a = fg_test_counting_allocator(&counter);
    fg_motion_buttons b;
    fg_motion_buttons_default(&b, FG_MOTION_AUTO);
    fg_motion_def d[6] = {def_of("hadouken", "236P"), def_of("shoryuken", "623P"),
                          def_of("super", "236236P"), def_of("sonic", "[4]6P"),
                          def_of("throw", "LP+LK"),   def_of("crouch", "/D")};
    d[2].buffer = 4;
    fg_motion_set *set;
    assert_int_equal(fg_motion_set_compile(&b, d, 6, &a, &set, NULL), FG_OK);
    fg_buffer *buf = fg_alloc(&a, fg_buffer_size(64));
    fg_motion_state *st = fg_alloc(&a, fg_motion_state_size(set));
    fg_buffer_init(buf, 64, -1, NULL);
    fg_motion_state_init(set, st, -1);
    size_t allocations = counter.allocations, live = counter.live_bytes;
    fg_rng rng = fg_rng_seeded(3);
    fg_motion_command out[8];
    uint64_t commands = 0;
    int dir = 5;
    uint32_t held = 0;
    for (fg_tick t = 0; t < 20000; t++) {
        if (fg_rng_range(&rng, 0, 3) == 0) {
            int nd = (int)fg_rng_range(&rng, 1, 9);
            if (nd != dir &&
                fg_buffer_push(buf, FG_EDGE_DIR, 0, nd, fg_us_of_tick(t, 60), t, FG_SOURCE_AI,
                               NULL, NULL) == FG_OK)
                dir = nd;
        }
        if (fg_rng_range(&rng, 0, 5) == 0) {
            int btn = FG_IN_FIRST_BUTTON + (int)fg_rng_range(&rng, 0, 5);
            fg_edge_kind k = (held & (1u << btn)) ? FG_EDGE_RELEASE : FG_EDGE_PRESS;
            if (fg_buffer_push(buf, k, btn, 0, fg_us_of_tick(t, 60) + 1, t, FG_SOURCE_AI, NULL,
                               NULL) == FG_OK)
                held ^= 1u << btn;
        }
        fg_tick_input in;
        fg_buffer_consume_for_tick(buf, t, &in, NULL);
        fg_motion_ctx ctx = {NULL, (t % 50) < 5};
        uint32_t n = 0;
        assert_int_equal(fg_motion_step(set, st, buf, &in, &ctx, out, 8, &n, NULL), FG_OK);
        commands += n;
    }
    assert_true(commands > 100); /* the run exercised completions, not just idle ticks */
    assert_int_equal(counter.allocations, allocations);
    assert_int_equal(counter.live_bytes, live);
    fg_free(&a, buf, fg_buffer_size(64));
    fg_free(&a, st, fg_motion_state_size(set));
    fg_motion_set_destroy(set);
    assert_int_equal(counter.live_bytes, 0);
}

/* Rule: the script runner gives the same commands as stepping by hand, and explains misses. */
static void script_runner_matches_manual_stepping(void **state) {
    (void)state;
    fg_motion_def d[2] = {def_of("hadouken", "236P"), def_of("shoryuken", "623P")};
    fg_motion_set *set = compile(d, 2);
    fg_motion_run r;
    fg_motion_miss misses[2];
    fg_counting_allocator counter;
    fg_allocator a = fg_test_counting_allocator(&counter);
    assert_int_equal(fg_motion_run_script(set, "2@0 3@1 6@2 LP@3 5@8 6@10 2@11", NULL, &a, &r,
                                          misses, NULL),
                     FG_OK);
    assert_int_equal(counter.live_bytes, 0);
    assert_int_equal(r.ncommands, 1);
    assert_string_equal(fg_motion_name(set, r.commands[0].motion), "hadouken");
    char line[200];
    fg_motion_miss_format(set, &misses[1], line, sizeof line);
    assert_string_equal(line, "shoryuken (623P): reached step 2 (2) of 4, waiting for step 3 (3)");
    fg_error err;
    assert_int_equal(fg_motion_run_script(set, "2@0 3@x", NULL, &a, &r, NULL, &err), FG_EFORMAT);
    assert_string_equal(fg_error_message(&err), "script \"2@0 3@x\": unexpected 'x' at column 7, expected a tick");
    assert_int_equal(counter.live_bytes, 0);
    fg_motion_set_destroy(set);
}

/* }====================================================================== */

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(release_start_survives_a_long_crouch_press_start_does_not),
        cmocka_unit_test(release_step_needs_a_real_release),
        cmocka_unit_test(dollar_direction_accepts_diagonals),
        cmocka_unit_test(greater_allows_nothing_in_between),
        cmocka_unit_test(charge_release_needs_the_full_hold),
        cmocka_unit_test(repeated_directions_expand),
        cmocka_unit_test(hold_only_command_is_asserted_while_held),
        cmocka_unit_test(timed_hold_only_command_waits_for_its_time),
        cmocka_unit_test(time_window_boundary_is_inclusive),
        cmocka_unit_test(buffer_time_boundary),
        cmocka_unit_test(side_switch_reads_the_motion_in_the_final_facing),
        cmocka_unit_test(screen_directions_ignore_the_facing),
        cmocka_unit_test(negative_edge_fires_on_release),
        cmocka_unit_test(numpad_charge_needs_its_time),
        cmocka_unit_test(numpad_directions_count_from_their_last_held_tick),
        cmocka_unit_test(socd_modes_change_what_the_matcher_reads),
        cmocka_unit_test(frozen_ticks_follow_the_pattern_policy),
        cmocka_unit_test(one_press_fires_one_command),
        cmocka_unit_test(piano_input_does_not_refire),
        cmocka_unit_test(ex_chord_upgrades_once_then_piano_stops),
        cmocka_unit_test(edges_consumed_elsewhere_are_not_used),
        cmocka_unit_test(chord_takes_over_a_recent_single_press),
        cmocka_unit_test(winner_says_why),
        cmocka_unit_test(alternatives_give_one_command),
        cmocka_unit_test(near_miss_reports_the_furthest_step_with_numbers),
        cmocka_unit_test(profiles_change_leniency_not_patterns),
        cmocka_unit_test(bad_steps_change_nothing),
        cmocka_unit_test(rollback_by_memcpy_replays_identically),
        cmocka_unit_test(hash_follows_match_progress),
        cmocka_unit_test(edge_ids_and_ticks_past_32_bits_come_back_whole),
        cmocka_unit_test(stepping_never_allocates),
        cmocka_unit_test(script_runner_matches_manual_stepping),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
