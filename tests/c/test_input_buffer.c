/* SPDX-License-Identifier: MIT */
/* test_input_buffer.c: the per-entity edge buffer (framegate/input.h; docs/architecture.md). */
#include "fg_test.h"

#include <stdlib.h>
#include <string.h>

enum { LP = FG_IN_FIRST_BUTTON, HP, JUMP };

static fg_buffer *make(uint32_t cap) {
    fg_buffer *b = malloc(fg_buffer_size(cap));
    assert_int_equal(fg_buffer_init(b, cap, -1, NULL), FG_OK);
    return b;
}

static void press(fg_buffer *b, int action, fg_tick tick) {
    assert_int_equal(fg_buffer_push(b, FG_EDGE_PRESS, action, 0, tick * 1000, tick,
                                     FG_SOURCE_DEVICE, NULL, NULL), FG_OK);
}

static void release(fg_buffer *b, int action, fg_tick tick) {
    assert_int_equal(fg_buffer_push(b, FG_EDGE_RELEASE, action, 0, tick * 1000, tick,
                                     FG_SOURCE_DEVICE, NULL, NULL), FG_OK);
}

static void run_to(fg_buffer *b, fg_tick tick) {
    while (b->current_tick < tick)
        assert_int_equal(fg_buffer_consume_for_tick(b, b->current_tick + 1, NULL, NULL), FG_OK);
}

/* Rule: find_press searches the closed interval [from, to]. */
static void find_press_interval_is_closed_on_both_ends(void **state) {
    (void)state;
    fg_buffer *b = make(16);
    press(b, LP, 10);
    run_to(b, 20);
    fg_edge_ref r;
    assert_true(fg_buffer_find_press(b, LP, 10, 10, &r));
    assert_true(fg_buffer_find_press(b, LP, 4, 10, &r));
    assert_true(fg_buffer_find_press(b, LP, 10, 16, &r));
    assert_false(fg_buffer_find_press(b, LP, 11, 16, &r));
    assert_false(fg_buffer_find_press(b, LP, 4, 9, &r));
    assert_false(fg_buffer_find_press(b, HP, 0, 20, &r));
    free(b);
}

/* Rule: the earliest press wins; presses on the same tick are ordered by id. */
static void find_press_returns_earliest_then_lowest_id(void **state) {
    (void)state;
    fg_buffer *b = make(16);
    fg_edge_id first, second;
    assert_int_equal(fg_buffer_push(b, FG_EDGE_PRESS, LP, 0, 5000, 5, 0, &first, NULL), FG_OK);
    assert_int_equal(fg_buffer_push(b, FG_EDGE_RELEASE, LP, 0, 5001, 5, 0, NULL, NULL), FG_OK);
    assert_int_equal(fg_buffer_push(b, FG_EDGE_PRESS, LP, 0, 5002, 5, 0, &second, NULL), FG_OK);
    assert_true(second > first);
    run_to(b, 5);
    fg_edge_ref r;
    assert_true(fg_buffer_find_press(b, LP, 0, 5, &r));
    assert_int_equal(r.id, first);
    assert_int_equal(fg_buffer_consume(b, r, NULL), FG_OK);
    assert_true(fg_buffer_find_press(b, LP, 0, 5, &r));
    assert_int_equal(r.id, second);
    free(b);
}

/* Rule: consume marks exactly the referenced edge; stale and repeated consumes are refused. */
static void consume_takes_one_edge_and_refuses_stale_handles(void **state) {
    (void)state;
    fg_buffer *b = make(4);
    press(b, LP, 1);
    release(b, LP, 2);
    press(b, LP, 3);
    run_to(b, 3);
    fg_edge_ref r;
    assert_true(fg_buffer_find_press(b, LP, 0, 3, &r));
    assert_int_equal(fg_buffer_consume(b, r, NULL), FG_OK);
    fg_error err;
    assert_int_equal(fg_buffer_consume(b, r, &err), FG_ESTATE);
    assert_non_null(strstr(fg_error_message(&err), "already consumed"));
    /* The other press is untouched. */
    fg_edge_ref r2;
    assert_true(fg_buffer_find_press(b, LP, 0, 3, &r2));
    assert_true(r2.id != r.id);
    /* Push past capacity: the consumed edge falls out, and its handle goes stale. */
    release(b, LP, 4);
    press(b, LP, 5);
    run_to(b, 5);
    assert_null(fg_buffer_find(b, r.id));
    assert_int_equal(fg_buffer_consume(b, r, &err), FG_ESTATE);
    assert_non_null(strstr(fg_error_message(&err), "no longer in the buffer"));
    fg_edge_ref never = {999};
    assert_int_equal(fg_buffer_consume(b, never, &err), FG_ESTATE);
    free(b);
}

/* Rule: edges stamped in the future stay invisible until their tick is consumed. */
static void future_edges_wait_for_their_tick(void **state) {
    (void)state;
    fg_buffer *b = make(8);
    press(b, JUMP, 7);
    run_to(b, 6);
    fg_edge_ref r;
    assert_false(fg_buffer_find_press(b, JUMP, 0, 100, &r));
    assert_false(fg_buffer_held(b, JUMP));
    fg_tick_input in;
    assert_int_equal(fg_buffer_consume_for_tick(b, 7, &in, NULL), FG_OK);
    assert_int_equal(in.count, 1);
    assert_true(in.pressed & (1u << JUMP));
    assert_true(fg_buffer_find_press(b, JUMP, 0, 100, &r));
    assert_true(fg_buffer_held(b, JUMP));
    free(b);
}

/* Rule: stored-ring overflow drops the oldest edge, at consume time, and counts it. */
static void overflow_drops_oldest_and_counts(void **state) {
    (void)state;
    fg_buffer *b = make(3);
    for (int t = 0; t < 5; t++) {
        press(b, LP, 2 * t);
        release(b, LP, 2 * t + 1);
        run_to(b, 2 * t + 1);
    }
    assert_int_equal(fg_buffer_count(b), 3);
    assert_int_equal(b->dropped, 7);
    assert_int_equal(fg_buffer_at(b, 0)->id, 8);
    assert_int_equal(fg_buffer_at(b, 2)->id, 10);
    assert_null(fg_buffer_at(b, 3));
    free(b);
}

/* Rule: a full pending queue refuses the push (counted) instead of losing an edge silently. */
static void full_pending_queue_refuses(void **state) {
    (void)state;
    fg_buffer *b = make(2);
    press(b, LP, 5);
    release(b, LP, 6);
    fg_error err;
    assert_int_equal(fg_buffer_push(b, FG_EDGE_PRESS, LP, 0, 7000, 7, 0, NULL, &err), FG_ENOMEM);
    assert_non_null(strstr(fg_error_message(&err), "input queue full"));
    assert_int_equal(b->refused, 1);
    assert_int_equal(fg_buffer_pending_count(b), 2);
    run_to(b, 6);
    assert_int_equal(fg_buffer_pending_count(b), 0);
    assert_int_equal(fg_buffer_push(b, FG_EDGE_PRESS, LP, 0, 7000, 7, 0, NULL, &err), FG_OK);
    free(b);
}

/* Rule: the hash does not depend on how far ahead input was pushed. */
static void hash_ignores_pending_input(void **state) {
    (void)state;
    fg_buffer *a = make(8), *c = make(8);
    press(a, LP, 1);
    press(c, LP, 1);
    release(c, LP, 9); /* pushed early: still pending after tick 2 */
    run_to(a, 2);
    run_to(c, 2);
    fg_hasher ha = fg_hasher_begin(0), hc = fg_hasher_begin(0);
    fg_buffer_hash(a, &ha);
    fg_buffer_hash(c, &hc);
    assert_true(fg_hasher_end(&ha) == fg_hasher_end(&hc));
    free(a);
    free(c);
}

/* Rule: a press and release inside one tick both reach that tick. */
static void short_press_inside_one_tick_is_kept(void **state) {
    (void)state;
    fg_buffer *b = make(8);
    assert_int_equal(fg_buffer_push(b, FG_EDGE_PRESS, LP, 0, 100, 3, 0, NULL, NULL), FG_OK);
    assert_int_equal(fg_buffer_push(b, FG_EDGE_RELEASE, LP, 0, 200, 3, 0, NULL, NULL), FG_OK);
    fg_tick_input in;
    run_to(b, 2);
    assert_int_equal(fg_buffer_consume_for_tick(b, 3, &in, NULL), FG_OK);
    assert_int_equal(in.count, 2);
    assert_true(in.pressed & (1u << LP));
    assert_true(in.released & (1u << LP));
    assert_false(in.held & (1u << LP));
    fg_edge_ref r;
    assert_true(fg_buffer_find_press(b, LP, 3, 3, &r));
    free(b);
}

/* Rule: held state and hold duration are derived from edges, per tick; diagonals keep a
** cardinal held (charging back through down-back does not restart the charge). */
static void held_state_follows_edges_and_diagonals_keep_charge(void **state) {
    (void)state;
    fg_buffer *b = make(16);
    assert_int_equal(fg_buffer_push(b, FG_EDGE_DIR, 0, 4, 0, 0, 0, NULL, NULL), FG_OK);
    assert_int_equal(fg_buffer_push(b, FG_EDGE_DIR, 0, 1, 10000, 10, 0, NULL, NULL), FG_OK);
    run_to(b, 29);
    assert_true(fg_buffer_held(b, FG_IN_LEFT));
    assert_true(fg_buffer_held(b, FG_IN_DOWN));
    assert_int_equal(fg_buffer_held_for(b, FG_IN_LEFT), 30);
    assert_int_equal(fg_buffer_held_for(b, FG_IN_DOWN), 20);
    assert_int_equal(fg_buffer_held_for(b, FG_IN_RIGHT), 0);
    assert_int_equal(b->dir, 1);
    fg_edge_ref r;
    assert_true(fg_buffer_find_press(b, FG_IN_DOWN, 0, 29, &r));
    assert_true(fg_buffer_find_press(b, FG_IN_LEFT, 0, 29, &r));
    assert_false(fg_buffer_find_press(b, FG_IN_UP, 0, 29, &r));
    free(b);
}

/* Rule: an edge whose tick already ran goes to the next tick, flagged late, never lost. */
static void late_edge_moves_to_next_tick(void **state) {
    (void)state;
    fg_buffer *b = make(8);
    run_to(b, 10);
    assert_int_equal(fg_buffer_push(b, FG_EDGE_PRESS, LP, 0, 5000, 5, 0, NULL, NULL), FG_OK);
    assert_int_equal(b->late, 1);
    fg_tick_input in;
    assert_int_equal(fg_buffer_consume_for_tick(b, 11, &in, NULL), FG_OK);
    assert_int_equal(in.count, 1);
    const fg_edge *e = fg_buffer_at(b, in.first);
    assert_int_equal(e->tick, 11);
    assert_true(e->flags & FG_EDGE_LATE);
    free(b);
}

/* Rule: bad input is refused with a message and leaves the buffer byte-for-byte unchanged. */
static void bad_edges_are_refused_and_change_nothing(void **state) {
    (void)state;
    fg_buffer *b = make(8);
    press(b, LP, 4);
    size_t size = fg_buffer_size(8);
    unsigned char *before = malloc(size);
    memcpy(before, b, size);
    fg_error err;
    /* Time going back. */
    assert_int_equal(fg_buffer_push(b, FG_EDGE_RELEASE, LP, 0, 3000, 4, 0, NULL, &err), FG_ESTATE);
    assert_non_null(strstr(fg_error_message(&err), "time may not go back"));
    /* Press of a held button. */
    assert_int_equal(fg_buffer_push(b, FG_EDGE_PRESS, LP, 0, 5000, 5, 0, NULL, &err), FG_ESTATE);
    assert_non_null(strstr(fg_error_message(&err), "already down"));
    /* Release of a free button. */
    assert_int_equal(fg_buffer_push(b, FG_EDGE_RELEASE, HP, 0, 5000, 5, 0, NULL, &err), FG_ESTATE);
    /* Not a button, not a direction, not a kind. */
    assert_int_equal(fg_buffer_push(b, FG_EDGE_PRESS, 2, 0, 5000, 5, 0, NULL, &err), FG_EINVAL);
    assert_int_equal(fg_buffer_push(b, FG_EDGE_DIR, 0, 10, 5000, 5, 0, NULL, &err), FG_EINVAL);
    assert_non_null(strstr(fg_error_message(&err), "numpad value 1..9"));
    assert_int_equal(fg_buffer_push(b, (fg_edge_kind)9, LP, 0, 5000, 5, 0, NULL, &err), FG_EINVAL);
    /* Direction to the one already held. */
    assert_int_equal(fg_buffer_push(b, FG_EDGE_DIR, 0, 5, 5000, 5, 0, NULL, &err), FG_ESTATE);
    /* Tick going back. */
    assert_int_equal(fg_buffer_push(b, FG_EDGE_RELEASE, LP, 0, 9000, 3, 0, NULL, &err), FG_ESTATE);
    assert_memory_equal(before, b, size);
    /* Consuming a tick twice. */
    run_to(b, 4);
    assert_int_equal(fg_buffer_consume_for_tick(b, 4, NULL, &err), FG_ESTATE);
    free(before);
    free(b);
}

/* Rule: a buffer cannot have zero capacity. */
static void zero_capacity_is_an_error(void **state) {
    (void)state;
    fg_buffer b;
    fg_error err;
    assert_int_equal(fg_buffer_init(&b, 0, 0, &err), FG_EINVAL);
    assert_non_null(strstr(fg_error_message(&err), "capacity: 0"));
}

/* Rule: the hash covers live edges and consumption; equal buffers hash equal. */
static void hash_tracks_content_and_consumption(void **state) {
    (void)state;
    fg_buffer *a = make(8), *c = make(8);
    press(a, LP, 1);
    press(c, LP, 1);
    run_to(a, 1);
    run_to(c, 1);
    fg_hasher ha = fg_hasher_begin(0), hc = fg_hasher_begin(0);
    fg_buffer_hash(a, &ha);
    fg_buffer_hash(c, &hc);
    assert_true(fg_hasher_end(&ha) == fg_hasher_end(&hc));
    fg_edge_ref r;
    assert_true(fg_buffer_find_press(a, LP, 0, 1, &r));
    fg_buffer_consume(a, r, NULL);
    ha = fg_hasher_begin(0);
    fg_buffer_hash(a, &ha);
    assert_true(fg_hasher_end(&ha) != fg_hasher_end(&hc));
    free(a);
    free(c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(find_press_interval_is_closed_on_both_ends),
        cmocka_unit_test(find_press_returns_earliest_then_lowest_id),
        cmocka_unit_test(consume_takes_one_edge_and_refuses_stale_handles),
        cmocka_unit_test(future_edges_wait_for_their_tick),
        cmocka_unit_test(overflow_drops_oldest_and_counts),
        cmocka_unit_test(full_pending_queue_refuses),
        cmocka_unit_test(hash_ignores_pending_input),
        cmocka_unit_test(short_press_inside_one_tick_is_kept),
        cmocka_unit_test(held_state_follows_edges_and_diagonals_keep_charge),
        cmocka_unit_test(late_edge_moves_to_next_tick),
        cmocka_unit_test(bad_edges_are_refused_and_change_nothing),
        cmocka_unit_test(zero_capacity_is_an_error),
        cmocka_unit_test(hash_tracks_content_and_consumption),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
