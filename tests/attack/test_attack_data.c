/* SPDX-License-Identifier: MIT */
/*
** test_attack_data.c: hostile bytes and numbers handed to the runtime from C: damaged and
** crafted snapshots (class 5), numbers at the edges of ticks, time, positions and replays
** (class 6). Bound: each attack is refused or absorbed in well under a second (the replay
** attack used to run 2^40 ticks); a refused call leaves the world's hash that of a twin world
** that never saw it.
*/
#include "fg_test.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../runtime/src/motion_set.h"
#include "../../runtime/src/snapshot.h"
#include "fg_det_fixture.h"
#include "snapshot_flip.h"

static fg_world *played(fg_ruleset *r, int ticks) {
    fg_world *w = fg_det_world(r, 9, NULL, (fg_world_hooks){0});
    assert_non_null(w);
    int lp = fg_world_action_id(w, "LP");
    for (int t = 0; t < ticks; t++) {
        int64_t us = fg_us_of_tick(t + 1, 60);
        if (t % 10 == 1) fg_world_press(w, 1, lp, us, FG_SOURCE_DEVICE, NULL);
        if (t % 10 == 3) fg_world_release(w, 1, lp, us, FG_SOURCE_DEVICE, NULL);
        assert_int_equal(fg_world_advance(w, NULL), FG_OK);
    }
    return w;
}

static double seconds(void) { return (double)clock() / CLOCKS_PER_SEC; }

/* Class 5: a flipped byte is caught by the checksum; crafted values that pass the checksum (a
** layer's action id past the ruleset's actions, an input ring's head past its ring, a matcher
** state's bitmap naming a node that does not exist, the world's layout) are refused by name.
** Before: heap overflows in the tick and a wild write through the buffer's head. */
static void damaged_and_crafted_snapshots_are_refused_and_change_nothing(void **state) {
    (void)state;
    fg_ruleset *r = fg_det_rules(30);
    fg_world *w = played(r, 60), *twin = played(r, 60);
    size_t size = fg_world_snapshot_size(w);
    unsigned char *snap = malloc(size), *bad = malloc(size);
    assert_int_equal(fg_world_save(w, snap, size, NULL), FG_OK);
    const size_t head = sizeof(fg_snapshot_header);
    const size_t ents = head + fg_world_snapshot_bytes(w, 0);
    const size_t bufs = ents + 2 * sizeof(fg_entity_state);
    fg_error err = {0};
    struct {
        size_t at;
        size_t len;
        unsigned char value;
        bool sealed;
        const char *want;
    } cases[] = {
        {ents + 100, 1, 0x5A, false, "checksum mismatch"},
        {ents + offsetof(fg_entity_state, layers[0].action), 2, 0x70, true, "e1.layers[0].action"},
        {ents + offsetof(fg_entity_state, rules_slot), 1, 9, true, "e1.rules_slot"},
        {ents + offsetof(fg_entity_state, facing), 1, 7, true, "e1.facing"},
        {ents + offsetof(fg_entity_state, ground.grounded), 1, 2, true, "e1.ground flags"},
        {ents + offsetof(fg_entity_state, y), 4, 0x7F, true, "e1.position"},
        {bufs + offsetof(fg_buffer, head), 4, 0x7F, true, "e1.buffer.head"},
        {head + offsetof(fg_world_state, layout), 1, 0x11, true, "world.layout"},
        {head + offsetof(fg_world_state, tick), 8, 0x7F, true, "world.tick"},
        /* A world tick the buffers have not reached (or passed): the next tick would consume
        ** nothing and read the last input's stale positions. */
        {head + offsetof(fg_world_state, tick), 1, 0x01, true, "e1.buffer.current_tick"},
        {ents + offsetof(fg_entity_state, last_input.count), 4, 0x5A, true,
         "e1.last_input.count"},
        {ents + offsetof(fg_entity_state, queued_layers), 1, 0x10, true, "e1.queued_layers"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memcpy(bad, snap, size);
        memset(bad + cases[i].at, cases[i].value, cases[i].len);
        if (cases[i].sealed) fgt_reseal(bad);
        fg_error_clear(&err);
        uint64_t before = fg_world_hash(w);
        assert_int_not_equal(fg_world_restore(w, bad, size, &err), FG_OK);
        if (!strstr(fg_error_message(&err), cases[i].want)) fail_msg("case %zu: %s", i, fg_error_message(&err));
        assert_int_equal(fg_world_hash(w), before);
    }
    /* The record's note of which layers have a request waiting must agree with its queues
    ** (a tick that trusts it skips the queues). */
    memcpy(bad, snap, size);
    bad[ents + offsetof(fg_entity_state, queued_layers)] ^= 1u;
    fgt_reseal(bad);
    assert_int_equal(fg_world_restore(w, bad, size, &err), FG_EFORMAT);
    assert_non_null(strstr(fg_error_message(&err), "e1.queued_layers (bit 0 against its queue)"));
    assert_int_equal(fg_world_hash(w), fg_world_hash(twin));
    /* So must its note of a combat under way (a tick that trusts it skips slides, the end of a
    ** combo and bounces): entity 1, out of combat, said to be in one. */
    assert_int_equal(w->entities[0].combat_live, 0);
    memcpy(bad, snap, size);
    bad[ents + offsetof(fg_entity_state, combat_live)] = 1;
    fgt_reseal(bad);
    assert_int_equal(fg_world_restore(w, bad, size, &err), FG_EFORMAT);
    assert_non_null(strstr(fg_error_message(&err),
                           "e1.combat_live (against push_left, combo and launched)"));
    assert_int_equal(fg_world_hash(w), fg_world_hash(twin));
    /* Entity 1's matcher state: the motion its last command beat, past the set's motions. */
    size_t motions = bufs + 2 * w->buffer_stride + 2 * w->ledger_stride;
    const fg_motion_set *set = fg_world_rules(w, 1)->motion_set;
    memcpy(bad, snap, size);
    uint16_t beat = 0x7777;
    memcpy(bad + motions + set->patterns[0].off + offsetof(mdone, beat), &beat, sizeof beat);
    fgt_reseal(bad);
    assert_int_equal(fg_world_restore(w, bad, size, &err), FG_EFORMAT);
    assert_non_null(strstr(fg_error_message(&err), "e1: matcher state: done.beat is 30583"));
    assert_int_equal(fg_world_hash(w), fg_world_hash(twin));
    /* The honest snapshot still restores, and the world goes on like its twin. */
    assert_int_equal(fg_world_restore(w, snap, size, &err), FG_OK);
    for (int t = 0; t < 30; t++) {
        fg_world_advance(w, NULL);
        fg_world_advance(twin, NULL);
    }
    assert_int_equal(fg_world_hash(w), fg_world_hash(twin));
    free(snap);
    free(bad);
    fg_world_destroy(w);
    fg_world_destroy(twin);
    fg_ruleset_unref(r);
}

/* Class 6: time conversions are exact (or saturate) for every int64, where the products
** overflowed before (UBSan: signed overflow in base.c). */
static void tick_and_time_conversions_hold_at_the_ends_of_int64(void **state) {
    (void)state;
    /* floor((2^63 - 1) * 60 / 10^6) = 553402322211286, by exact integer arithmetic. */
    assert_int_equal(fg_tick_of_us(INT64_MAX, 60), 553402322211286LL);
    assert_int_equal(fg_tick_of_us(INT64_MIN, 60), -553402322211287LL);
    assert_true(fg_tick_of_us(INT64_MAX - 1, 60) <= fg_tick_of_us(INT64_MAX, 60));
    assert_int_equal(fg_us_of_tick(INT64_MAX, 60), INT64_MAX);
    assert_int_equal(fg_us_of_tick(INT64_MIN, 60), INT64_MIN);
    assert_int_equal(fg_tick_of_us(fg_us_of_tick(553402322211285LL, 60), 60),
                     553402322211285LL);
    assert_int_equal(fg_tick_of_us(INT64_MAX, 4000000000u), INT64_MAX);
}

/* Class 6: an edge stamped ten years ahead is refused with a message, and the player's later,
** ordinary edges still go in (before: every later edge was "time going back", for good).
** Positions past +-16384 units are refused; a flight with no gravity stops at the edge. */
static void far_future_input_and_huge_positions_are_refused(void **state) {
    (void)state;
    fg_ruleset *r = fg_det_rules(30);
    fg_world *w = played(r, 10), *twin = played(r, 10);
    int lp = fg_world_action_id(w, "LP");
    fg_error err = {0};
    int64_t ten_years = (int64_t)10 * 365 * 24 * 3600 * FG_US_PER_S;
    assert_int_equal(fg_world_press(w, 1, lp, ten_years, FG_SOURCE_NETWORK, &err), FG_EINVAL);
    assert_non_null(strstr(fg_error_message(&err), "more than 60 s ahead of the world"));
    assert_int_equal(fg_world_set_position(w, 1, INT32_MAX, 0, &err), FG_EINVAL);
    assert_non_null(strstr(fg_error_message(&err), "out of range"));
    fg_spawn sp = {INT32_MIN, 0, FG_FACING_RIGHT, true, 0, 0};
    assert_int_equal(fg_world_spawn(w, &sp, NULL, &err), FG_EINVAL);
    assert_int_equal(fg_world_hash(w), fg_world_hash(twin));
    int64_t us = fg_us_of_tick(fg_world_tick(w) + 1, 60);
    assert_int_equal(fg_world_press(w, 1, lp, us, FG_SOURCE_DEVICE, &err), FG_OK);
    assert_int_equal(fg_world_press(twin, 1, lp, us, FG_SOURCE_DEVICE, &err), FG_OK);
    fg_world_advance(w, NULL);
    fg_world_advance(twin, NULL);
    assert_int_equal(fg_world_hash(w), fg_world_hash(twin));
    fg_world_destroy(w);
    fg_world_destroy(twin);
    fg_ruleset_unref(r);
}

typedef struct sink {
    unsigned char *b;
    size_t n, cap;
} sink;

static fg_status sink_write(void *ud, const void *p, size_t len, fg_error *err) {
    (void)err;
    sink *s = ud;
    if (s->n + len > s->cap) {
        s->cap = (s->n + len) * 2;
        s->b = realloc(s->b, s->cap);
    }
    memcpy(s->b + s->n, p, len);
    s->n += len;
    return FG_OK;
}

static uint32_t rd32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static void wr32(unsigned char *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}

/* docs/replay-format.md: the header table's CRC, then each chunk's header and payload CRCs. */
static void fix_crcs(unsigned char *b, size_t n) {
    size_t at = 16 + (size_t)(b[12] | b[13] << 8) * 8;
    wr32(b + at, fg_crc32(0, b, at));
    at += 4;
    while (n - at >= 16) {
        wr32(b + at + 12, fg_crc32(0, b + at, 12));
        uint32_t len = rd32(b + at);
        if (n - at - 16 < (uint64_t)len + 4) return;
        wr32(b + at + 16 + len, fg_crc32(0, b + at + 16, len));
        at += 16 + (size_t)len + 4;
    }
}

/* Class 6: a replay whose final record says tick 2^40 (CRCs fixed, so only the tick is wrong)
** is refused when it is opened, in well under a second; before, the player ran toward it. */
static void a_replay_ending_at_tick_2_40_is_refused_at_once(void **state) {
    (void)state;
    sink s = {0};
    fg_replay_header h = {0};
    h.tick_rate = 60;
    h.seed = 1;
    fg_replay_writer *wr;
    fg_error err = {0};
    assert_int_equal(fg_replay_writer_create_sink(&h, sink_write, &s, NULL, &wr, &err), FG_OK);
    const fg_tick marker = 0x123456789AL; /* a tick the writer takes, easy to find */
    assert_int_equal(fg_replay_write_final(wr, marker, 0, &err), FG_EINVAL);
    assert_non_null(strstr(fg_error_message(&err), "a replay spans at most 16777216 ticks"));
    assert_int_equal(fg_replay_write_final(wr, 0x654321, 0, &err), FG_OK);
    assert_int_equal(fg_replay_writer_finish(wr, &err), FG_OK);
    fg_replay_writer_destroy(wr);
    unsigned char pattern[8];
    for (int i = 0; i < 8; i++) pattern[i] = (unsigned char)(0x654321ull >> (8 * i));
    unsigned char *at = NULL;
    for (size_t i = 0; i + 8 <= s.n && !at; i++)
        if (memcmp(s.b + i, pattern, 8) == 0) at = s.b + i;
    assert_non_null(at);
    for (int i = 0; i < 8; i++) at[i] = (unsigned char)((uint64_t)1 << 40 >> (8 * i));
    fix_crcs(s.b, s.n);
    double t0 = seconds();
    fg_replay_reader *rd = NULL;
    assert_int_not_equal(fg_replay_reader_create_memory(s.b, s.n, NULL, &rd, &err), FG_OK);
    assert_null(rd);
    assert_non_null(strstr(fg_error_message(&err), "1099511627776"));
    assert_non_null(strstr(fg_error_message(&err), "a replay spans at most"));
    assert_true(seconds() - t0 < 1.0);
    free(s.b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(damaged_and_crafted_snapshots_are_refused_and_change_nothing),
        cmocka_unit_test(tick_and_time_conversions_hold_at_the_ends_of_int64),
        cmocka_unit_test(far_future_input_and_huge_positions_are_refused),
        cmocka_unit_test(a_replay_ending_at_tick_2_40_is_refused_at_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
