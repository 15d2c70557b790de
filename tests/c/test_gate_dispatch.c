/* SPDX-License-Identifier: MIT */
/* test_gate_dispatch.c: event stamps and the dispatch ledger: exactly-once decisions, channels,
** bounded memory, snapshots and hashes. */
#include "fg_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { DAMAGE = 3, FOOTSTEP = 7, PARRY = 9 };

static fg_event_candidate cand(uint32_t channel, int64_t seq, fg_marker marker, uint64_t occ) {
    fg_event_candidate c = {{channel, marker, seq, occ}, NULL, NULL, 0.0f};
    return c;
}

static fg_event_candidate clip_cand(int64_t seq, fg_marker marker, uint64_t occ, const char *clip,
                                    float time) {
    fg_event_candidate c = {{0, marker, seq, occ}, "damage", clip, time};
    return c;
}

static fg_dispatcher *make(uint32_t channels, uint32_t capacity) {
    fg_dispatcher *d = NULL;
    fg_error err;
    assert_int_equal(fg_dispatcher_create(channels, capacity, NULL, &d, &err), FG_OK);
    return d;
}

static fg_dispatch_result run(fg_dispatcher *d, fg_event_candidate c) {
    fg_dispatch_result r = (fg_dispatch_result)-1;
    fg_error err;
    fg_status st = fg_dispatcher_dispatch(d, &c, &r, &err);
    if (st != FG_OK) fail_msg("dispatch failed: %s", fg_error_message(&err));
    return r;
}

static void begin(fg_dispatcher *d, uint32_t channel, int64_t seq) {
    fg_error err;
    fg_status st = fg_dispatcher_begin(d, channel, seq, &err);
    if (st != FG_OK) fail_msg("begin failed: %s", fg_error_message(&err));
}

static uint64_t hash_of(const fg_dispatcher *d) {
    fg_hasher hs = fg_hasher_begin(0);
    fg_dispatcher_hash(d, &hs);
    return fg_hasher_end(&hs);
}

static void *snapshot(const fg_dispatcher *d) {
    void *s = malloc(fg_dispatcher_bytes(d));
    assert_non_null(s);
    memcpy(s, d, fg_dispatcher_bytes(d));
    return s;
}

static void assert_unchanged(const fg_dispatcher *d, const void *snap) {
    assert_memory_equal(d, snap, fg_dispatcher_bytes(d));
}

/* Rule (seed 000): a cross-fade evaluates attack-a and attack-b, both report the damage marker of
** action 100; they share one stamp, so the damage is applied once. */
static void cross_fade_clips_share_one_stamp_so_damage_applies_once(void **state) {
    (void)state;
    fg_dispatcher *d = make(1, 4);
    begin(d, 0, 100);
    int effects = 0;
    fg_dispatch_result source = run(d, clip_cand(100, DAMAGE, 0, "attack-a", 0.62f));
    if (source == FG_DISPATCH_ACCEPTED) effects++;
    fg_dispatch_result target = run(d, clip_cand(100, DAMAGE, 0, "attack-b", 0.38f));
    if (target == FG_DISPATCH_ACCEPTED) effects++;
    char line[128];
    snprintf(line, sizeof line, "crossfade: action=%d source=%s target=%s effects=%d", 100,
             fg_dispatch_result_name(source), fg_dispatch_result_name(target), effects);
    assert_string_equal(line, "crossfade: action=100 source=Accepted target=Duplicate effects=1");
    fg_dispatcher_destroy(d);
}

/* Rule (seed 000): once action 101 began, a late callback of action 100 is StaleAction and applies
** nothing. */
static void late_callback_after_the_next_action_began_is_stale_and_applies_nothing(void **state) {
    (void)state;
    fg_dispatcher *d = make(1, 4);
    begin(d, 0, 100);
    begin(d, 0, 101);
    int effects = 0;
    fg_dispatch_result r = run(d, clip_cand(100, DAMAGE, 0, "attack-a", 0.62f));
    if (r == FG_DISPATCH_ACCEPTED) effects++;
    char line[128];
    snprintf(line, sizeof line, "stale: active=%lld candidate=%d result=%s effects=%d",
             (long long)fg_dispatcher_live(d, 0), 100, fg_dispatch_result_name(r), effects);
    assert_string_equal(line, "stale: active=101 candidate=100 result=StaleAction effects=0");
    assert_int_equal(fg_dispatcher_ledger_count(d, 0), 0);
    fg_dispatcher_destroy(d);
}

/* Rule (seed 000): a looping marker's occurrences 0 and 1 both dispatch; each only once. */
static void loop_occurrences_0_and_1_both_dispatch_once(void **state) {
    (void)state;
    fg_dispatcher *d = make(1, 4);
    begin(d, 0, 100);
    assert_int_equal(run(d, cand(0, 100, FOOTSTEP, 0)), FG_DISPATCH_ACCEPTED);
    assert_int_equal(run(d, cand(0, 100, FOOTSTEP, 1)), FG_DISPATCH_ACCEPTED);
    assert_int_equal(run(d, cand(0, 100, FOOTSTEP, 0)), FG_DISPATCH_DUPLICATE);
    assert_int_equal(run(d, cand(0, 100, FOOTSTEP, 1)), FG_DISPATCH_DUPLICATE);
    fg_dispatcher_destroy(d);
}

/* Rule (seed 000): deduplication is per action: action 101 may use (damage, 0) again. */
static void a_new_action_may_use_damage_occurrence_0_again(void **state) {
    (void)state;
    fg_dispatcher *d = make(1, 4);
    begin(d, 0, 100);
    assert_int_equal(run(d, cand(0, 100, DAMAGE, 0)), FG_DISPATCH_ACCEPTED);
    begin(d, 0, 101);
    assert_int_equal(run(d, cand(0, 101, DAMAGE, 0)), FG_DISPATCH_ACCEPTED);
    assert_int_equal(run(d, cand(0, 101, DAMAGE, 0)), FG_DISPATCH_DUPLICATE);
    fg_dispatcher_destroy(d);
}

/* Rule: clip name and normalised time take no part in identity; marker and occurrence do. */
static void clip_and_time_take_no_part_in_identity(void **state) {
    (void)state;
    fg_dispatcher *d = make(1, 4);
    begin(d, 0, 7);
    assert_int_equal(run(d, clip_cand(7, DAMAGE, 0, "attack-a", 0.5f)), FG_DISPATCH_ACCEPTED);
    assert_int_equal(run(d, clip_cand(7, DAMAGE, 0, "attack-a-retimed", 0.9f)),
                     FG_DISPATCH_DUPLICATE);
    assert_int_equal(run(d, clip_cand(7, DAMAGE, 0, NULL, 0.0f)), FG_DISPATCH_DUPLICATE);
    assert_int_equal(run(d, clip_cand(7, PARRY, 0, "attack-a", 0.5f)), FG_DISPATCH_ACCEPTED);
    assert_int_equal(run(d, clip_cand(7, DAMAGE, 1, "attack-a", 0.5f)), FG_DISPATCH_ACCEPTED);
    fg_dispatcher_destroy(d);
}

/* Rule: channels (upper body, lower body) have their own live sequence and their own ledger. */
static void channels_keep_independent_live_sequences_and_ledgers(void **state) {
    (void)state;
    fg_dispatcher *d = make(2, 4);
    begin(d, 0, 100);
    begin(d, 1, 5);
    begin(d, 1, 6); /* the legs start a new step cycle: the upper body's action stays live */
    assert_int_equal(run(d, cand(0, 100, DAMAGE, 0)), FG_DISPATCH_ACCEPTED);
    assert_int_equal(run(d, cand(1, 6, FOOTSTEP, 0)), FG_DISPATCH_ACCEPTED);
    /* The same marker and occurrence on the other channel is another event. */
    assert_int_equal(run(d, cand(1, 6, DAMAGE, 0)), FG_DISPATCH_ACCEPTED);
    assert_int_equal(run(d, cand(1, 5, FOOTSTEP, 1)), FG_DISPATCH_STALE_ACTION);
    begin(d, 0, 101);
    assert_int_equal(run(d, cand(0, 100, DAMAGE, 1)), FG_DISPATCH_STALE_ACTION);
    assert_int_equal(run(d, cand(1, 6, FOOTSTEP, 1)), FG_DISPATCH_ACCEPTED);
    assert_int_equal(run(d, cand(1, 6, FOOTSTEP, 0)), FG_DISPATCH_DUPLICATE);
    assert_int_equal(fg_dispatcher_live(d, 0), 101);
    assert_int_equal(fg_dispatcher_live(d, 1), 6);
    assert_int_equal(fg_dispatcher_live(d, 2), -1);
    /* A sequence number used on one channel says nothing about the other. */
    begin(d, 1, 100);
    assert_int_equal(fg_dispatcher_live(d, 0), 101);
    fg_dispatcher_destroy(d);
}

/* Rule: beginning a sequence that is not newer is FG_ESTATE naming channel and both sequences,
** and changes nothing; an unknown channel is FG_EINVAL. */
static void begin_that_is_not_newer_is_refused_and_changes_nothing(void **state) {
    (void)state;
    fg_dispatcher *d = make(2, 4);
    fg_error err;
    assert_int_equal(fg_dispatcher_begin(d, 0, 0, &err), FG_ESTATE);
    assert_string_equal(fg_error_message(&err),
                        "begin: channel 0: action sequence 0 is not valid (sequences start at 1)");
    begin(d, 0, 100);
    assert_int_equal(run(d, cand(0, 100, DAMAGE, 0)), FG_DISPATCH_ACCEPTED);
    void *snap = snapshot(d);
    assert_int_equal(fg_dispatcher_begin(d, 0, 100, &err), FG_ESTATE);
    assert_string_equal(fg_error_message(&err),
                        "begin: channel 0: action sequence 100 is not newer than the live sequence "
                        "100");
    assert_int_equal(fg_dispatcher_begin(d, 0, 99, &err), FG_ESTATE);
    assert_string_equal(fg_error_message(&err),
                        "begin: channel 0: action sequence 99 is not newer than the live sequence "
                        "100");
    assert_int_equal(fg_dispatcher_begin(d, 2, 200, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "begin: channel 2 does not exist (channels 0 to 1)");
    assert_unchanged(d, snap);
    /* The ledger of 100 survived the refused begins. */
    assert_int_equal(run(d, cand(0, 100, DAMAGE, 0)), FG_DISPATCH_DUPLICATE);
    free(snap);
    fg_dispatcher_destroy(d);
}

/* Rule: a candidate of an action that has not begun, of an unknown channel or with an occurrence
** out of range is an error naming the candidate; nothing changes. */
static void candidate_of_an_action_not_begun_is_refused(void **state) {
    (void)state;
    fg_dispatcher *d = make(1, 4);
    fg_error err;
    fg_dispatch_result r = FG_DISPATCH_ACCEPTED;
    fg_event_candidate c = cand(0, 100, DAMAGE, 0);
    c.marker_name = "damage";
    void *snap = snapshot(d);
    assert_int_equal(fg_dispatcher_dispatch(d, &c, &r, &err), FG_ESTATE);
    assert_string_equal(fg_error_message(&err), "dispatch: damage (marker 3) occurrence 0 of action 100: no "
                                 "action has begun on channel 0");
    assert_unchanged(d, snap);
    free(snap);
    begin(d, 0, 100);
    snap = snapshot(d);
    c.stamp.sequence = 101;
    assert_int_equal(fg_dispatcher_dispatch(d, &c, &r, &err), FG_ESTATE);
    assert_string_equal(fg_error_message(&err), "dispatch: damage (marker 3) occurrence 0 of action 101: action "
                                 "101 has not begun on channel 0 (live sequence 100)");
    c = cand(4, 100, DAMAGE, 2);
    assert_int_equal(fg_dispatcher_dispatch(d, &c, &r, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "dispatch: marker 3 occurrence 2 of action 100: channel 4 does "
                                 "not exist (channels 0 to 0)");
    c = cand(0, 100, DAMAGE, FG_OCCURRENCE_MAX + 1);
    assert_int_equal(fg_dispatcher_dispatch(d, &c, &r, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "dispatch: marker 3 occurrence 9223372036854775808 of action 100: "
                                 "occurrence is above 9223372036854775807");
    assert_int_equal(r, FG_DISPATCH_ACCEPTED); /* the result was not written either */
    assert_unchanged(d, snap);
    /* The largest occurrence itself is fine. */
    assert_int_equal(run(d, cand(0, 100, DAMAGE, FG_OCCURRENCE_MAX)), FG_DISPATCH_ACCEPTED);
    assert_int_equal(run(d, cand(0, 100, DAMAGE, FG_OCCURRENCE_MAX)), FG_DISPATCH_DUPLICATE);
    free(snap);
    fg_dispatcher_destroy(d);
}

/* Rule: capacity bounds the distinct markers of one action per channel; one more is refused with
** FG_ENOMEM (never silently dropped or reopened) and the next action gets the room back. */
static void full_ledger_refuses_a_new_marker_and_changes_nothing(void **state) {
    (void)state;
    fg_dispatcher *d = make(1, 2);
    begin(d, 0, 100);
    assert_int_equal(run(d, cand(0, 100, DAMAGE, 0)), FG_DISPATCH_ACCEPTED);
    assert_int_equal(run(d, cand(0, 100, FOOTSTEP, 0)), FG_DISPATCH_ACCEPTED);
    void *snap = snapshot(d);
    fg_error err;
    fg_dispatch_result r;
    fg_event_candidate c = cand(0, 100, PARRY, 0);
    c.marker_name = "parry";
    assert_int_equal(fg_dispatcher_dispatch(d, &c, &r, &err), FG_ENOMEM);
    assert_string_equal(fg_error_message(&err), "dispatch: parry (marker 9) occurrence 0 of action 100: channel 0 "
                                 "already holds 2 distinct markers for this action (capacity 2)");
    assert_unchanged(d, snap);
    /* Markers already known keep deciding. */
    assert_int_equal(run(d, cand(0, 100, DAMAGE, 0)), FG_DISPATCH_DUPLICATE);
    assert_int_equal(run(d, cand(0, 100, FOOTSTEP, 1)), FG_DISPATCH_ACCEPTED);
    begin(d, 0, 101);
    assert_int_equal(run(d, cand(0, 101, PARRY, 0)), FG_DISPATCH_ACCEPTED);
    free(snap);
    fg_dispatcher_destroy(d);
}

/* Rule: occurrences that arrive out of order inside the window each dispatch exactly once, and
** the entry compacts back to a bare watermark. */
static void out_of_order_occurrences_inside_the_window_each_dispatch_once(void **state) {
    (void)state;
    fg_dispatcher *d = make(1, 2);
    begin(d, 0, 1);
    const uint64_t order[] = {3, 1, 0, 2, 10, 5, 4};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        assert_int_equal(run(d, cand(0, 1, FOOTSTEP, order[i])), FG_DISPATCH_ACCEPTED);
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        assert_int_equal(run(d, cand(0, 1, FOOTSTEP, order[i])), FG_DISPATCH_DUPLICATE);
    const fg_ledger_entry *e = fg_dispatcher_ledger_at(d, 0, 0);
    assert_non_null(e);
    assert_int_equal(e->marker, FOOTSTEP);
    assert_int_equal(e->closed_below, 6);        /* 0..5 accepted */
    assert_int_equal(e->window, 1u << (10 - 6)); /* 10 accepted, 6..9 still open */
    for (uint64_t o = 6; o < 10; o++)
        assert_int_equal(run(d, cand(0, 1, FOOTSTEP, o)), FG_DISPATCH_ACCEPTED);
    assert_int_equal(e->closed_below, 11);
    assert_int_equal(e->window, 0);
    fg_dispatcher_destroy(d);
}

/* Rule: an occurrence far ahead slides the window; open occurrences older than the window then
** count as Duplicate (never applied twice, never applied late); those inside still dispatch. */
static void occurrence_older_than_the_window_counts_as_duplicate(void **state) {
    (void)state;
    fg_dispatcher *d = make(1, 2);
    begin(d, 0, 1);
    assert_int_equal(run(d, cand(0, 1, FOOTSTEP, 0)), FG_DISPATCH_ACCEPTED);
    assert_int_equal(run(d, cand(0, 1, FOOTSTEP, 200)), FG_DISPATCH_ACCEPTED);
    const fg_ledger_entry *e = fg_dispatcher_ledger_at(d, 0, 0);
    assert_int_equal(e->closed_below, 200 - (FG_LEDGER_WINDOW - 1));
    assert_int_equal(run(d, cand(0, 1, FOOTSTEP, 1)), FG_DISPATCH_DUPLICATE);
    assert_int_equal(run(d, cand(0, 1, FOOTSTEP, 136)), FG_DISPATCH_DUPLICATE);
    assert_int_equal(run(d, cand(0, 1, FOOTSTEP, 137)), FG_DISPATCH_ACCEPTED);
    assert_int_equal(run(d, cand(0, 1, FOOTSTEP, 150)), FG_DISPATCH_ACCEPTED);
    assert_int_equal(run(d, cand(0, 1, FOOTSTEP, 150)), FG_DISPATCH_DUPLICATE);
    assert_int_equal(run(d, cand(0, 1, FOOTSTEP, 200)), FG_DISPATCH_DUPLICATE);
    assert_int_equal(run(d, cand(0, 1, FOOTSTEP, 201)), FG_DISPATCH_ACCEPTED);
    fg_dispatcher_destroy(d);
}

/* Rule: beginning a sequence prunes the entries of the dead one, and the dead sequence stays
** closed: even a stamp it never dispatched is StaleAction afterwards. */
static void begin_prunes_dead_sequences_without_reopening_them(void **state) {
    (void)state;
    fg_dispatcher *d = make(1, 4);
    begin(d, 0, 100);
    assert_int_equal(run(d, cand(0, 100, DAMAGE, 0)), FG_DISPATCH_ACCEPTED);
    assert_int_equal(run(d, cand(0, 100, FOOTSTEP, 0)), FG_DISPATCH_ACCEPTED);
    assert_int_equal(fg_dispatcher_ledger_count(d, 0), 2);
    begin(d, 0, 101);
    assert_int_equal(fg_dispatcher_ledger_count(d, 0), 0);
    assert_null(fg_dispatcher_ledger_at(d, 0, 0));
    assert_int_equal(run(d, cand(0, 100, DAMAGE, 0)), FG_DISPATCH_STALE_ACTION);
    assert_int_equal(run(d, cand(0, 100, PARRY, 0)), FG_DISPATCH_STALE_ACTION);
    assert_int_equal(run(d, cand(0, 100, FOOTSTEP, 5)), FG_DISPATCH_STALE_ACTION);
    assert_int_equal(fg_dispatcher_ledger_count(d, 0), 0);
    fg_dispatcher_destroy(d);
}

/* Rule: a looping footstep inside ONE action for 1,000,000 ticks (plus a cross-fade duplicate of
** every step) keeps the ledger at one entry: no allocation, no growth, each step accepted once. */
static void looping_footsteps_for_a_million_ticks_keep_memory_flat(void **state) {
    (void)state;
    fg_counting_allocator counter;
    fg_allocator a = fg_test_counting_allocator(&counter);
    fg_dispatcher *d = NULL;
    assert_int_equal(fg_dispatcher_create(2, 8, &a, &d, NULL), FG_OK);
    size_t bytes = fg_dispatcher_bytes(d);
    size_t live = counter.live_bytes, allocs = counter.allocations;
    /* One block: the dispatcher and the copy of its allocator that destroy frees it with. */
    assert_int_equal(allocs, 1);
    assert_true(live >= bytes);
    begin(d, 0, 1);
    uint64_t accepted = 0, duplicates = 0, steps = 0;
    for (int64_t tick = 0; tick < 1000000; tick++) {
        if (tick % 15 != 0) continue; /* a step every 15 ticks */
        uint64_t occ = (uint64_t)(tick / 15);
        steps++;
        fg_dispatch_result r1 = run(d, cand(0, 1, FOOTSTEP, occ));
        fg_dispatch_result r2 = run(d, cand(0, 1, FOOTSTEP, occ));
        accepted += (r1 == FG_DISPATCH_ACCEPTED) + (r2 == FG_DISPATCH_ACCEPTED);
        duplicates += (r1 == FG_DISPATCH_DUPLICATE) + (r2 == FG_DISPATCH_DUPLICATE);
    }
    assert_int_equal(accepted, steps);
    assert_int_equal(duplicates, steps);
    assert_int_equal(counter.allocations, allocs);
    assert_int_equal(counter.live_bytes, live);
    assert_int_equal(counter.peak_bytes, live);
    assert_int_equal(fg_dispatcher_bytes(d), bytes);
    assert_int_equal(fg_dispatcher_ledger_count(d, 0), 1);
    assert_int_equal(fg_dispatcher_ledger_at(d, 0, 0)->closed_below, steps);
    fg_dispatcher_destroy(d);
    assert_int_equal(counter.live_bytes, 0);
}

/* Rule: the state is a plain block: copy it, dispatch, restore the copy, dispatch again: the event
** is Accepted exactly once per timeline; a snapshot taken after the accept keeps it closed. */
static void snapshot_restore_accepts_the_event_once_per_timeline(void **state) {
    (void)state;
    fg_dispatcher *d = make(2, 4);
    begin(d, 0, 100);
    begin(d, 1, 3);
    assert_int_equal(run(d, cand(1, 3, FOOTSTEP, 0)), FG_DISPATCH_ACCEPTED);
    void *before = snapshot(d);
    fg_error err;
    int effects_a = 0, effects_b = 0;
    /* Timeline A: the hit lands, the callback repeats. */
    effects_a += run(d, cand(0, 100, DAMAGE, 0)) == FG_DISPATCH_ACCEPTED;
    effects_a += run(d, cand(0, 100, DAMAGE, 0)) == FG_DISPATCH_ACCEPTED;
    void *after = snapshot(d);
    /* Rollback to before the hit; timeline B re-simulates it. */
    assert_int_equal(fg_dispatcher_restore(d, before, fg_dispatcher_bytes(d), &err), FG_OK);
    effects_b += run(d, cand(0, 100, DAMAGE, 0)) == FG_DISPATCH_ACCEPTED;
    effects_b += run(d, cand(0, 100, DAMAGE, 0)) == FG_DISPATCH_ACCEPTED;
    assert_int_equal(effects_a, 1);
    assert_int_equal(effects_b, 1);
    assert_memory_equal(d, after, fg_dispatcher_bytes(d));
    /* The other channel's ledger came back too. */
    assert_int_equal(run(d, cand(1, 3, FOOTSTEP, 0)), FG_DISPATCH_DUPLICATE);
    /* Restoring the later snapshot keeps the hit closed: not applied a second time. */
    assert_int_equal(fg_dispatcher_restore(d, after, fg_dispatcher_bytes(d), &err), FG_OK);
    assert_int_equal(run(d, cand(0, 100, DAMAGE, 0)), FG_DISPATCH_DUPLICATE);
    /* Plain memcpy is a valid restore as well. */
    memcpy(d, before, fg_dispatcher_bytes(d));
    assert_int_equal(run(d, cand(0, 100, DAMAGE, 0)), FG_DISPATCH_ACCEPTED);
    free(before);
    free(after);
    fg_dispatcher_destroy(d);
}

/* Rule: restore refuses a snapshot of another shape or size, or one whose counts are impossible,
** naming both; the dispatcher is unchanged. */
static void restore_refuses_a_foreign_snapshot_and_changes_nothing(void **state) {
    (void)state;
    fg_dispatcher *d = make(1, 6), *other = make(1, 3);
    begin(d, 0, 9);
    assert_int_equal(run(d, cand(0, 9, DAMAGE, 0)), FG_DISPATCH_ACCEPTED);
    void *snap = snapshot(d);
    fg_error err;
    assert_int_equal(fg_dispatcher_restore(d, other, fg_dispatcher_bytes(other), &err),
                     FG_EMISMATCH);
    assert_string_equal(fg_error_message(&err), "dispatcher snapshot: 128 bytes, expected 200 (channels 1, "
                                 "capacity 6)");
    /* 2 channels of capacity 2 take as many bytes as 1 channel of capacity 6 (a header and a
    ** fold cell per channel, a cell per entry). */
    assert_int_equal(fg_dispatcher_size(2, 2), fg_dispatcher_bytes(d));
    unsigned char *bad = malloc(fg_dispatcher_bytes(d));
    assert_non_null(bad);
    memcpy(bad, d, fg_dispatcher_bytes(d));
    uint32_t shape[2] = {2, 2};
    memcpy(bad, shape, sizeof shape);
    assert_int_equal(fg_dispatcher_restore(d, bad, fg_dispatcher_bytes(d), &err), FG_EMISMATCH);
    assert_string_equal(fg_error_message(&err), "dispatcher snapshot: shape channels 2, capacity 2, expected "
                                 "channels 1, capacity 6");
    memcpy(bad, d, fg_dispatcher_bytes(d));
    fg_dispatch_channel ch = {9, 7, 0, 0}; /* 7 entries in a ledger of 6 */
    memcpy(bad + offsetof(fg_dispatcher, cells), &ch, sizeof ch);
    assert_int_equal(fg_dispatcher_restore(d, bad, fg_dispatcher_bytes(d), &err), FG_EFORMAT);
    assert_string_equal(fg_error_message(&err), "dispatcher snapshot: channel 0 has live sequence 9 with 7 "
                                 "entries, expected at most 6 entries of a begun sequence");
    assert_int_equal(fg_dispatcher_restore(d, NULL, 0, &err), FG_EMISMATCH);
    assert_unchanged(d, snap);
    free(bad);
    free(snap);
    fg_dispatcher_destroy(other);
    fg_dispatcher_destroy(d);
}

static uint64_t fresh_hash_of(const fg_dispatcher *d) {
    fg_hasher hs = fg_hasher_begin(0);
    fg_dispatcher_hash_fresh(d, &hs);
    return fg_hasher_end(&hs);
}

/* Rule: the per-channel folds the hash reads follow every change: after each of thousands of
** random begins and dispatches (new markers, repeats, occurrences out of order and far ahead, so
** the window slides), the hash equals a fold of every entry; a restore recomputes the folds, so
** a snapshot with garbage in them hashes like the dispatcher it was taken from. */
static void kept_folds_follow_every_change(void **state) {
    (void)state;
    fg_dispatcher *d = make(3, 4);
    fg_rng rng = fg_rng_seeded(21);
    int64_t live[3] = {0, 0, 0};
    int accepted = 0;
    for (int op = 0; op < 5000; op++) {
        uint32_t ch = (uint32_t)fg_rng_range(&rng, 0, 2);
        if (live[ch] == 0 || fg_rng_range(&rng, 0, 9) == 0) {
            live[ch] += fg_rng_range(&rng, 1, 3);
            begin(d, ch, live[ch]);
        } else {
            fg_marker m = (fg_marker)fg_rng_range(&rng, 1, 4);
            uint64_t occ = (uint64_t)fg_rng_range(&rng, 0, 200);
            fg_event_candidate c = cand(ch, live[ch], m, occ);
            fg_dispatch_result r;
            fg_error err;
            if (fg_dispatcher_dispatch(d, &c, &r, &err) == FG_OK)
                accepted += r == FG_DISPATCH_ACCEPTED;
        }
        if (hash_of(d) != fresh_hash_of(d)) fail_msg("operation %d: the kept folds are stale", op);
    }
    assert_true(accepted > 1000);
    unsigned char *snap = snapshot(d);
    size_t folds = offsetof(fg_dispatcher, cells) + sizeof(fg_ledger_cell) * (3 + 3 * 4);
    memset(snap + folds, 0x5A, sizeof(fg_ledger_cell) * 3);
    uint64_t h = hash_of(d);
    begin(d, 0, live[0] + 1);
    assert_int_not_equal(hash_of(d), h);
    assert_int_equal(fg_dispatcher_restore(d, snap, fg_dispatcher_bytes(d), NULL), FG_OK);
    assert_int_equal(hash_of(d), h);
    assert_int_equal(fresh_hash_of(d), h);
    free(snap);
    fg_dispatcher_destroy(d);
}

/* Rule: the hash follows every change of state (begin, accept, which channel) and only those:
** Duplicate and StaleAction decisions leave it alone, so a render rate that produces more
** duplicate callbacks cannot change the world's hash. */
static void hash_changes_when_state_changes_and_only_then(void **state) {
    (void)state;
    fg_dispatcher *d = make(2, 4), *twin = make(2, 4), *mirror = make(2, 4);
    uint64_t h0 = hash_of(d);
    begin(d, 0, 100);
    uint64_t h1 = hash_of(d);
    assert_true(h1 != h0);
    assert_int_equal(run(d, cand(0, 100, DAMAGE, 0)), FG_DISPATCH_ACCEPTED);
    uint64_t h2 = hash_of(d);
    assert_true(h2 != h1);
    assert_int_equal(run(d, cand(0, 100, DAMAGE, 0)), FG_DISPATCH_DUPLICATE);
    assert_int_equal(run(d, cand(0, 99, DAMAGE, 4)), FG_DISPATCH_STALE_ACTION);
    assert_true(hash_of(d) == h2);
    assert_int_equal(run(d, cand(0, 100, DAMAGE, 2)), FG_DISPATCH_ACCEPTED); /* out of order */
    uint64_t h3 = hash_of(d);
    assert_true(h3 != h2);
    assert_int_equal(run(d, cand(0, 100, DAMAGE, 1)), FG_DISPATCH_ACCEPTED);
    assert_true(hash_of(d) != h3);
    /* The same history gives the same hash; the same history on another channel does not. */
    begin(twin, 0, 100);
    begin(mirror, 1, 100);
    const uint64_t occ[] = {0, 2, 1};
    for (int i = 0; i < 3; i++) {
        run(twin, cand(0, 100, DAMAGE, occ[i]));
        run(mirror, cand(1, 100, DAMAGE, occ[i]));
    }
    assert_true(hash_of(twin) == hash_of(d));
    assert_true(hash_of(mirror) != hash_of(d));
    /* Pruned state hashes as if it never existed. */
    begin(d, 0, 101);
    begin(twin, 0, 101);
    fg_dispatcher *fresh = make(2, 4);
    begin(fresh, 0, 101);
    assert_true(hash_of(d) == hash_of(fresh));
    assert_memory_equal(d, fresh, fg_dispatcher_bytes(d));
    fg_dispatcher_destroy(fresh);
    fg_dispatcher_destroy(mirror);
    fg_dispatcher_destroy(twin);
    fg_dispatcher_destroy(d);
}

/* Rule: describe writes one field per line in a fixed order, and reports the length it needs. */
static void describe_writes_one_field_per_line(void **state) {
    (void)state;
    fg_dispatcher *d = make(2, 4);
    begin(d, 1, 100);
    run(d, cand(1, 100, FOOTSTEP, 0));
    run(d, cand(1, 100, FOOTSTEP, 2));
    run(d, cand(1, 100, DAMAGE, 0));
    const char *want = "dispatcher.channels 2\n"
                       "dispatcher.capacity 4\n"
                       "channel[0].live 0\n"
                       "channel[1].live 100\n"
                       "channel[1].marker[7] closed_below 1 window 0x0000000000000002\n"
                       "channel[1].marker[3] closed_below 1 window 0x0000000000000000\n";
    char buf[512];
    size_t n = fg_dispatcher_describe(d, buf, sizeof buf);
    assert_string_equal(buf, want);
    assert_int_equal(n, strlen(want));
    char tiny[10];
    assert_int_equal(fg_dispatcher_describe(d, tiny, sizeof tiny), strlen(want));
    assert_string_equal(tiny, "dispatche");
    assert_int_equal(fg_dispatcher_describe(d, NULL, 0), strlen(want));
    fg_dispatcher_destroy(d);
}

/* Rule: classify gives the decision dispatch would give, without recording it. */
static void classify_decides_without_recording(void **state) {
    (void)state;
    fg_dispatcher *d = make(1, 4);
    begin(d, 0, 5);
    fg_event_candidate c = cand(0, 5, DAMAGE, 0);
    fg_dispatch_result r;
    void *snap = snapshot(d);
    assert_int_equal(fg_dispatcher_classify(d, &c, &r, NULL), FG_OK);
    assert_int_equal(r, FG_DISPATCH_ACCEPTED);
    assert_int_equal(fg_dispatcher_classify(d, &c, &r, NULL), FG_OK);
    assert_int_equal(r, FG_DISPATCH_ACCEPTED);
    assert_unchanged(d, snap);
    assert_int_equal(run(d, c), FG_DISPATCH_ACCEPTED);
    assert_int_equal(fg_dispatcher_classify(d, &c, &r, NULL), FG_OK);
    assert_int_equal(r, FG_DISPATCH_DUPLICATE);
    c.stamp.sequence = 4;
    assert_int_equal(fg_dispatcher_classify(d, &c, &r, NULL), FG_OK);
    assert_int_equal(r, FG_DISPATCH_STALE_ACTION);
    free(snap);
    fg_dispatcher_destroy(d);
}

/* Rule: results print with the seeds' spellings. */
static void result_names_are_the_seed_spellings(void **state) {
    (void)state;
    assert_string_equal(fg_dispatch_result_name(FG_DISPATCH_ACCEPTED), "Accepted");
    assert_string_equal(fg_dispatch_result_name(FG_DISPATCH_DUPLICATE), "Duplicate");
    assert_string_equal(fg_dispatch_result_name(FG_DISPATCH_STALE_ACTION), "StaleAction");
    assert_string_equal(fg_dispatch_result_name((fg_dispatch_result)3), "?");
}

/* Rule: shapes outside the limits are refused with the value and the range; a failed allocation
** is FG_ENOMEM and leaves nothing allocated. */
static void creation_refuses_bad_shapes_and_failed_allocations(void **state) {
    (void)state;
    fg_dispatcher *d = NULL;
    fg_error err;
    assert_int_equal(fg_dispatcher_create(0, 4, NULL, &d, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "dispatcher channels: 0, expected 1 to 65536");
    assert_int_equal(fg_dispatcher_create(1, 0, NULL, &d, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "dispatcher capacity: 0, expected 1 to 4096 markers per action");
    assert_int_equal(fg_dispatcher_create(1, 5000, NULL, &d, &err), FG_EINVAL);
    assert_null(d);
    assert_int_equal(fg_dispatcher_size(0, 1), 0);
    assert_int_equal(fg_dispatcher_size(1, 4097), 0);
    fg_counting_allocator counter;
    fg_allocator a = fg_test_counting_allocator(&counter);
    counter.fail_after = 0;
    assert_int_equal(fg_dispatcher_create(1, 4, &a, &d, &err), FG_ENOMEM);
    assert_string_equal(fg_error_message(&err), "dispatcher: cannot allocate 152 bytes");
    assert_null(d);
    assert_int_equal(counter.live_bytes, 0);
    /* A caller-owned block works without any allocator. */
    union {
        fg_dispatcher d;
        unsigned char bytes[256];
    } block;
    assert_true(fg_dispatcher_size(1, 4) <= sizeof block);
    assert_int_equal(fg_dispatcher_init(&block.d, 1, 4, &err), FG_OK);
    begin(&block.d, 0, 1);
    assert_int_equal(run(&block.d, cand(0, 1, DAMAGE, 0)), FG_DISPATCH_ACCEPTED);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cross_fade_clips_share_one_stamp_so_damage_applies_once),
        cmocka_unit_test(late_callback_after_the_next_action_began_is_stale_and_applies_nothing),
        cmocka_unit_test(loop_occurrences_0_and_1_both_dispatch_once),
        cmocka_unit_test(a_new_action_may_use_damage_occurrence_0_again),
        cmocka_unit_test(clip_and_time_take_no_part_in_identity),
        cmocka_unit_test(channels_keep_independent_live_sequences_and_ledgers),
        cmocka_unit_test(begin_that_is_not_newer_is_refused_and_changes_nothing),
        cmocka_unit_test(candidate_of_an_action_not_begun_is_refused),
        cmocka_unit_test(full_ledger_refuses_a_new_marker_and_changes_nothing),
        cmocka_unit_test(out_of_order_occurrences_inside_the_window_each_dispatch_once),
        cmocka_unit_test(occurrence_older_than_the_window_counts_as_duplicate),
        cmocka_unit_test(begin_prunes_dead_sequences_without_reopening_them),
        cmocka_unit_test(looping_footsteps_for_a_million_ticks_keep_memory_flat),
        cmocka_unit_test(snapshot_restore_accepts_the_event_once_per_timeline),
        cmocka_unit_test(restore_refuses_a_foreign_snapshot_and_changes_nothing),
        cmocka_unit_test(hash_changes_when_state_changes_and_only_then),
        cmocka_unit_test(kept_folds_follow_every_change),
        cmocka_unit_test(describe_writes_one_field_per_line),
        cmocka_unit_test(classify_decides_without_recording),
        cmocka_unit_test(result_names_are_the_seed_spellings),
        cmocka_unit_test(creation_refuses_bad_shapes_and_failed_allocations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
