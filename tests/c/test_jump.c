/* SPDX-License-Identifier: MIT */
/*
** test_jump.c: the jump gate (jump buffer + coyote time + jump permission), the eight input
** cases of seed 004 and its millisecond timeline.
*/
#include "fg_test.h"

#include <stdlib.h>
#include <string.h>

enum { JUMP = FG_IN_FIRST_BUTTON };
static const fg_jump_config CFG = {6, 6}; /* 100 ms each at 60 Hz */

typedef struct rig {
    fg_buffer *buf;
    fg_ground ground;
    fg_tick now;
} rig;

static rig make(bool grounded) {
    rig r;
    r.buf = malloc(fg_buffer_size(32));
    assert_int_equal(fg_buffer_init(r.buf, 32, -1, NULL), FG_OK);
    fg_ground_init(&r.ground, grounded, -1);
    r.now = -1;
    return r;
}

static void press_at(rig *r, fg_tick t) {
    assert_int_equal(fg_buffer_push(r->buf, FG_EDGE_PRESS, JUMP, 0, t * 1000, t, 0, NULL, NULL),
                     FG_OK);
    assert_int_equal(fg_buffer_push(r->buf, FG_EDGE_RELEASE, JUMP, 0, t * 1000 + 1, t, 0, NULL,
                                    NULL), FG_OK);
}

/* One tick: consume input, report contact, try to jump. */
static fg_jump_result step(rig *r, bool grounded) {
    r->now++;
    fg_buffer_consume_for_tick(r->buf, r->now, NULL, NULL);
    fg_ground_report(&r->ground, r->now, grounded);
    return fg_jump_try(&r->ground, r->buf, JUMP, r->now, &CFG).result;
}

static void steps(rig *r, int n, bool grounded) {
    for (int i = 0; i < n; i++) assert_int_equal(step(r, grounded), FG_JUMP_NO_PRESS);
}

/* Steps while a refused press may still sit in the buffer: anything but a jump is fine. */
static void steps_no_jump(rig *r, int n, bool grounded) {
    for (int i = 0; i < n; i++) assert_int_not_equal(step(r, grounded), FG_JUMP_OK);
}

/* Case 1: standing still for 2 s keeps refreshing the grounded tick, so a jump then works. */
static void case1_jump_after_standing_two_seconds(void **state) {
    (void)state;
    rig r = make(true);
    steps(&r, 120, true);
    press_at(&r, 120);
    assert_int_equal(step(&r, true), FG_JUMP_OK);
    free(r.buf);
}

/* Case 2: an entity spawned in the air has no grounded history until it lands. */
static void case2_air_spawn_needs_a_real_landing(void **state) {
    (void)state;
    rig r = make(false);
    steps(&r, 3, false);
    press_at(&r, 3);
    assert_int_equal(step(&r, false), FG_JUMP_NEVER_GROUNDED);
    steps_no_jump(&r, 10, false);
    assert_int_equal(step(&r, true), FG_JUMP_NO_PRESS); /* landed; old press is out of buffer */
    press_at(&r, 15);
    assert_int_equal(step(&r, true), FG_JUMP_OK);
    free(r.buf);
}

/* Case 3: a press stamped in the future waits for its tick, and a landing on that same tick
** lets it jump then, not before. */
static void case3_future_press_and_contact_meet_on_their_tick(void **state) {
    (void)state;
    rig r = make(false);
    press_at(&r, 8);
    for (int i = 0; i < 8; i++) assert_int_equal(step(&r, false), FG_JUMP_NO_PRESS);
    assert_int_equal(step(&r, true), FG_JUMP_OK);
    assert_int_equal(r.now, 8);
    free(r.buf);
}

/* Case 4: a second press cannot reuse the same ground contact; a new landing after leaving the
** ground restores the permission. */
static void case4_permission_is_spent_until_a_new_landing(void **state) {
    (void)state;
    rig r = make(true);
    steps(&r, 5, true);
    press_at(&r, 5);
    assert_int_equal(step(&r, true), FG_JUMP_OK);
    assert_int_equal(step(&r, false), FG_JUMP_NO_PRESS);
    press_at(&r, 7);
    assert_int_equal(step(&r, false), FG_JUMP_PERMISSION_SPENT); /* inside coyote, still no */
    steps_no_jump(&r, 10, false);
    assert_int_equal(step(&r, true), FG_JUMP_NO_PRESS);
    press_at(&r, 19);
    assert_int_equal(step(&r, true), FG_JUMP_OK);
    free(r.buf);
}

/* Case 5: contact reports right after take-off do not restore the permission. */
static void case5_contact_after_takeoff_restores_nothing(void **state) {
    (void)state;
    rig r = make(true);
    press_at(&r, 0);
    assert_int_equal(step(&r, true), FG_JUMP_OK);
    assert_int_equal(step(&r, true), FG_JUMP_NO_PRESS); /* residual contact */
    press_at(&r, 2);
    assert_int_equal(step(&r, true), FG_JUMP_PERMISSION_SPENT);
    assert_true(r.ground.permission_spent);
    free(r.buf);
}

/* Case 6: outside either window nothing happens: a press too long after leaving the ledge is
** refused by coyote time; a press too long before landing has expired from the buffer. */
static void case6_outside_the_windows(void **state) {
    (void)state;
    rig r = make(true);
    steps(&r, 10, true); /* last grounded tick 9 */
    steps(&r, 7, false); /* ticks 10..16 */
    press_at(&r, 17);
    assert_int_equal(step(&r, false), FG_JUMP_COYOTE_EXPIRED); /* 17 - 9 = 8 > 6 */
    rig s = make(false);
    steps(&s, 2, false);
    press_at(&s, 2);
    assert_int_equal(step(&s, false), FG_JUMP_NEVER_GROUNDED);
    steps_no_jump(&s, 6, false);                        /* ticks 3..8 */
    assert_int_equal(step(&s, true), FG_JUMP_NO_PRESS); /* tick 9: press at 2 is 7 old */
    free(r.buf);
    free(s.buf);
}

/* Case 7: both sides of each boundary: coyote (last grounded exactly 6 ticks ago works, 7 does
** not) and buffer (a press exactly 6 ticks old works, 7 does not). */
static void case7_both_sides_of_each_boundary(void **state) {
    (void)state;
    for (int late = 6; late <= 7; late++) {
        rig r = make(true);
        steps(&r, 10, true);        /* last grounded 9 */
        steps(&r, late - 1, false); /* up to 9 + late - 1 */
        press_at(&r, 9 + late);
        assert_int_equal(step(&r, false), late == 6 ? FG_JUMP_OK : FG_JUMP_COYOTE_EXPIRED);
        free(r.buf);
    }
    for (int early = 6; early <= 7; early++) {
        rig r = make(true);
        assert_int_equal(step(&r, true), FG_JUMP_NO_PRESS); /* tick 0: last grounded */
        press_at(&r, 20 - early);
        /* Airborne until tick 19: the press is refused (coyote) but never consumed. */
        while (r.now < 19) {
            fg_jump_result res = step(&r, false);
            assert_true(res == FG_JUMP_NO_PRESS || res == FG_JUMP_COYOTE_EXPIRED);
        }
        assert_int_equal(step(&r, true), early == 6 ? FG_JUMP_OK : FG_JUMP_NO_PRESS);
        free(r.buf);
    }
}

/* Case 8: a jump consumes exactly the press it used; a later press stays in the buffer. */
static void case8_jump_consumes_exactly_its_press(void **state) {
    (void)state;
    rig r = make(true);
    /* Two presses on the same tick. */
    for (int i = 0; i < 2; i++) {
        assert_int_equal(fg_buffer_push(r.buf, FG_EDGE_PRESS, JUMP, 0, 10 * i, 0, 0, NULL, NULL),
                         FG_OK);
        assert_int_equal(fg_buffer_push(r.buf, FG_EDGE_RELEASE, JUMP, 0, 10 * i + 5, 0, 0, NULL,
                                        NULL), FG_OK);
    }
    fg_edge_ref first, second;
    r.now = 0;
    fg_buffer_consume_for_tick(r.buf, 0, NULL, NULL);
    fg_ground_report(&r.ground, 0, true);
    assert_true(fg_buffer_find_press(r.buf, JUMP, 0, 0, &first));
    fg_jump_decision d = fg_jump_try(&r.ground, r.buf, JUMP, 0, &CFG);
    assert_int_equal(d.result, FG_JUMP_OK);
    assert_int_equal(d.press.id, first.id);
    assert_true(fg_buffer_find_press(r.buf, JUMP, 0, 0, &second));
    assert_true(second.id > first.id);
    assert_true(fg_buffer_find(r.buf, first.id)->flags & FG_EDGE_CONSUMED);
    assert_false(fg_buffer_find(r.buf, second.id)->flags & FG_EDGE_CONSUMED);
    /* The refusal that follows does not consume it either. */
    d = fg_jump_try(&r.ground, r.buf, JUMP, 0, &CFG);
    assert_int_equal(d.result, FG_JUMP_PERMISSION_SPENT);
    assert_false(fg_buffer_find(r.buf, second.id)->flags & FG_EDGE_CONSUMED);
    free(r.buf);
}

/* The seed's timeline in milliseconds, through a 60 Hz world: leave a ledge at 500 ms; press
** 50 ms later (coyote window 100 ms): jump. Press again 20 ms later: refused. Then, airborne,
** press 50 ms before landing (buffer 100 ms): one jump on landing, and only one. */
static void timeline_in_milliseconds(void **state) {
    (void)state;
    const char *buttons[] = {"jump"};
    fg_world_config c = fg_world_config_default();
    c.buttons = buttons;
    c.nbuttons = 1;
    c.jump_button = "jump";
    c.jump.buffer_ticks = fg_tick_of_us(100000, 60); /* 6 */
    c.jump.coyote_ticks = fg_tick_of_us(100000, 60);
    fg_world *w = fg_world_create(&c, NULL);
    assert_non_null(w);
    fg_spawn sp = {0};
    sp.grounded = true;
    fg_entity e;
    assert_int_equal(fg_world_spawn(w, &sp, &e, NULL), FG_OK);
    int jump = fg_world_action_id(w, "jump");
    const int64_t ms = 1000;
    struct { int64_t at_ms; } presses[] = {{550}, {570}, {1150}};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(fg_world_press(w, e, jump, presses[i].at_ms * ms, 0, NULL), FG_OK);
        assert_int_equal(fg_world_release(w, e, jump, presses[i].at_ms * ms + 8 * ms, 0, NULL),
                         FG_OK);
    }
    int jumps = 0, refusals = 0;
    fg_edge_id refused_press = 0;
    fg_tick jumped_at[4] = {0};
    for (fg_tick t = 0; t < 90; t++) {
        int64_t t_ms = fg_us_of_tick(t, 60) / ms;
        /* The host's physics: on the ledge until 500 ms, in the air until 1200 ms. */
        bool grounded = t_ms < 500 || t_ms >= 1200;
        fg_world_report_contact(w, e, grounded, NULL);
        assert_int_equal(fg_world_advance(w, NULL), FG_OK);
        const fg_jump_decision *d = fg_world_last_jump(w, e);
        if (d->result == FG_JUMP_OK) jumped_at[jumps++] = t;
        if (d->result == FG_JUMP_PERMISSION_SPENT && d->press.id != refused_press) {
            refused_press = d->press.id;
            refusals++;
        }
    }
    assert_int_equal(jumps, 2);
    assert_int_equal(jumped_at[0], fg_tick_of_us(550 * ms, 60)); /* tick 33 */
    assert_int_equal(jumped_at[1], fg_tick_of_us(1200 * ms, 60) ); /* landing tick 72 */
    /* Refused: the press at 570 ms, and the press at 1150 ms while still in the air; the latter
    ** stays buffered and jumps on landing. */
    assert_int_equal(refusals, 2);
    /* The trace tells why the second press was refused. */
    char line[256];
    int found = 0;
    for (uint32_t i = 0; i < fg_world_trace_count(w); i++) {
        const fg_trace_record *r = fg_world_trace_at(w, i);
        if (r->kind == FG_TRACE_JUMP && r->code == FG_JUMP_PERMISSION_SPENT) {
            if (found++ == 0) fg_world_trace_format(w, r, line, sizeof line);
        }
    }
    assert_int_equal(found, 2); /* once per press, not on every tick it stays buffered */
    assert_string_equal(line, "t=34 e1 rejected: jump (press at tick 34): permission already "
                              "used, no landing since; press buffered until tick 40");
    fg_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(case1_jump_after_standing_two_seconds),
        cmocka_unit_test(case2_air_spawn_needs_a_real_landing),
        cmocka_unit_test(case3_future_press_and_contact_meet_on_their_tick),
        cmocka_unit_test(case4_permission_is_spent_until_a_new_landing),
        cmocka_unit_test(case5_contact_after_takeoff_restores_nothing),
        cmocka_unit_test(case6_outside_the_windows),
        cmocka_unit_test(case7_both_sides_of_each_boundary),
        cmocka_unit_test(case8_jump_consumes_exactly_its_press),
        cmocka_unit_test(timeline_in_milliseconds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
