/* SPDX-License-Identifier: MIT */
/* test_gate_playback.c: cycle tracks sampled in unrolled ticks and the playback owner's commit
** rules (seed 001), plus errors, bounded queues, snapshots and hashes. */
#include "fg_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FOOT_LEFT = 0, FOOT_RIGHT = 1, STEP = 5 };

static const char *name_of(fg_marker m) {
    return m == FOOT_LEFT ? "FootLeft" : m == FOOT_RIGHT ? "FootRight" : "Step";
}

/* The seed's run cycle: 1000 ticks, left foot at 50, right foot at 950. */
static fg_cycle_track run_cycle(void) {
    const fg_track_marker_spec m[] = {{950, FOOT_RIGHT, "FootRight"}, {50, FOOT_LEFT, "FootLeft"}};
    fg_cycle_track t;
    fg_error err;
    if (fg_cycle_track_init(&t, 1000, m, 2, &err) != FG_OK) fail_msg("%s", fg_error_message(&err));
    return t;
}

static const fg_playback_token slot2_gen7 = {2, 7};
static const fg_playback_token slot2_gen8 = {2, 8};

typedef struct sampled {
    fg_track_event events[16];
    fg_track_batch batch;
} sampled;

static sampled sample(const fg_cycle_track *t, fg_playback_token tok, fg_tick from, fg_tick to) {
    sampled s;
    fg_error err;
    if (fg_cycle_track_sample(t, tok, from, to, s.events, 16, &s.batch, &err) != FG_OK)
        fail_msg("%s", fg_error_message(&err));
    return s;
}

/* "FootRight@950>FootLeft@1050" */
static void format_events(const fg_track_event *e, uint32_t n, char *buf, size_t size) {
    size_t len = 0;
    buf[0] = '\0';
    for (uint32_t i = 0; i < n && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s@%lld", i ? ">" : "",
                                name_of(e[i].marker), (long long)e[i].tick);
}

static void format_pending(const fg_playback_owner *o, char *buf, size_t size) {
    fg_track_event e[16];
    uint32_t n = fg_playback_owner_pending(o);
    for (uint32_t i = 0; i < n && i < 16; i++) e[i] = *fg_playback_owner_at(o, i);
    format_events(e, n, buf, size);
}

static fg_playback_owner *owner(uint32_t queue, fg_playback_token tok, fg_tick cursor) {
    fg_playback_owner *o = NULL;
    fg_error err;
    assert_int_equal(fg_playback_owner_create(queue, NULL, &o, &err), FG_OK);
    if (fg_playback_owner_begin(o, tok, cursor, &err) != FG_OK) fail_msg("%s", fg_error_message(&err));
    return o;
}

static fg_commit_result commit(fg_playback_owner *o, const sampled *s) {
    fg_commit_result r = (fg_commit_result)-1;
    fg_error err;
    fg_track_batch b = s->batch;
    b.events = s->events; /* the sampled struct was copied: point at this copy's events */
    if (fg_playback_owner_commit(o, &b, &r, &err) != FG_OK) fail_msg("%s", fg_error_message(&err));
    return r;
}

static uint64_t hash_of(const fg_playback_owner *o) {
    fg_hasher hs = fg_hasher_begin(0);
    fg_playback_owner_hash(o, &hs);
    return fg_hasher_end(&hs);
}

static void *snapshot(const fg_playback_owner *o) {
    void *s = malloc(fg_playback_owner_bytes(o));
    assert_non_null(s);
    memcpy(s, o, fg_playback_owner_bytes(o));
    return s;
}

/* Rule (seed 001): sampling (920, 1080] crosses the loop point and finds both feet in tick order;
** the first commit delivers them, the retry is AlreadyCommitted; the cursor ends at 1080. */
static void seed_result_line_across_the_loop_point(void **state) {
    (void)state;
    fg_cycle_track t = run_cycle();
    fg_playback_owner *o = owner(8, slot2_gen7, 920);
    sampled s = sample(&t, slot2_gen7, 920, 1080);
    fg_commit_result first = commit(o, &s);
    fg_commit_result retry = commit(o, &s);
    char events[128], line[256];
    format_pending(o, events, sizeof events);
    snprintf(line, sizeof line, "RESULT range=%lld..%lld events=%s first=%s retry=%s cursor=%lld",
             (long long)s.batch.from, (long long)s.batch.to, events, fg_commit_result_name(first),
             fg_commit_result_name(retry), (long long)fg_playback_owner_cursor(o));
    assert_string_equal(line, "RESULT range=920..1080 events=FootRight@950>FootLeft@1050 "
                              "first=Committed retry=AlreadyCommitted cursor=1080");
    fg_playback_owner_destroy(o);
}

/* Rule: an interval inside one cycle yields exactly the markers inside it. */
static void same_cycle_interval_hits_only_the_marker_inside_it(void **state) {
    (void)state;
    fg_cycle_track t = run_cycle();
    sampled s = sample(&t, slot2_gen7, 0, 100);
    assert_int_equal(s.batch.count, 1);
    assert_int_equal(s.events[0].tick, 50);
    assert_int_equal(s.events[0].marker, FOOT_LEFT);
    assert_int_equal(s.events[0].occurrence, 0);
    s = sample(&t, slot2_gen7, 900, 960);
    assert_int_equal(s.batch.count, 1);
    assert_int_equal(s.events[0].tick, 950);
    assert_int_equal(s.events[0].marker, FOOT_RIGHT);
    s = sample(&t, slot2_gen7, 100, 900);
    assert_int_equal(s.batch.count, 0);
    assert_int_equal(s.batch.from, 100);
    assert_int_equal(s.batch.to, 900);
    assert_int_equal(s.batch.token.generation, 7);
}

/* Rule: the interval is open at from and closed at to, so consecutive intervals never deliver
** their shared end twice nor lose it. */
static void interval_is_open_at_from_and_closed_at_to(void **state) {
    (void)state;
    fg_cycle_track t = run_cycle();
    sampled s = sample(&t, slot2_gen7, 0, 50);
    assert_int_equal(s.batch.count, 1);
    assert_int_equal(s.events[0].tick, 50);
    s = sample(&t, slot2_gen7, 50, 950);
    assert_int_equal(s.batch.count, 1);
    assert_int_equal(s.events[0].tick, 950);
    s = sample(&t, slot2_gen7, 950, 1050);
    assert_int_equal(s.batch.count, 1);
    assert_int_equal(s.events[0].tick, 1050);
}

/* Rule: crossing the loop point yields the markers of both cycles in unrolled-tick order, with
** occurrences counting each marker's appearances (the right foot's first, the left's second). */
static void two_cycle_interval_yields_both_events_in_tick_order(void **state) {
    (void)state;
    fg_cycle_track t = run_cycle();
    sampled s = sample(&t, slot2_gen7, 920, 1080);
    assert_int_equal(s.batch.count, 2);
    assert_int_equal(s.events[0].tick, 950);
    assert_int_equal(s.events[0].marker, FOOT_RIGHT);
    assert_int_equal(s.events[0].occurrence, 0);
    assert_int_equal(s.events[1].tick, 1050);
    assert_int_equal(s.events[1].marker, FOOT_LEFT);
    assert_int_equal(s.events[1].occurrence, 1);
    /* Many cycles at once. */
    s = sample(&t, slot2_gen7, 0, 3000);
    const fg_tick ticks[] = {50, 950, 1050, 1950, 2050, 2950};
    const uint64_t occ[] = {0, 0, 1, 1, 2, 2};
    assert_int_equal(s.batch.count, 6);
    for (int i = 0; i < 6; i++) {
        assert_int_equal(s.events[i].tick, ticks[i]);
        assert_int_equal(s.events[i].occurrence, occ[i]);
    }
    uint64_t n = 0;
    assert_int_equal(fg_cycle_track_count(&t, 0, 3000, &n, NULL), FG_OK);
    assert_int_equal(n, 6);
    assert_int_equal(fg_cycle_track_count(&t, 920, 1000000920, &n, NULL), FG_OK);
    assert_int_equal(n, 2000000);
}

/* Rule: a marker that appears twice per cycle gets distinct, growing occurrences, so each step
** has its own stamp; same-tick markers come out by id. */
static void repeated_marker_in_one_cycle_gets_distinct_occurrences(void **state) {
    (void)state;
    const fg_track_marker_spec m[] = {{600, STEP, NULL}, {100, STEP, NULL}, {100, FOOT_LEFT, NULL}};
    fg_cycle_track t;
    assert_int_equal(fg_cycle_track_init(&t, 1000, m, 3, NULL), FG_OK);
    sampled s = sample(&t, slot2_gen7, 0, 2000);
    assert_int_equal(s.batch.count, 6);
    const fg_tick ticks[] = {100, 100, 600, 1100, 1100, 1600};
    const fg_marker marks[] = {FOOT_LEFT, STEP, STEP, FOOT_LEFT, STEP, STEP};
    const uint64_t occ[] = {0, 0, 1, 1, 2, 3};
    for (int i = 0; i < 6; i++) {
        assert_int_equal(s.events[i].tick, ticks[i]);
        assert_int_equal(s.events[i].marker, marks[i]);
        assert_int_equal(s.events[i].occurrence, occ[i]);
    }
}

/* Rule: intervals at the far end of the tick range are sampled without overflow, and a count too
** large for 64 bits saturates instead of wrapping to a small number. */
static void intervals_near_the_end_of_time_do_not_overflow(void **state) {
    (void)state;
    fg_cycle_track t = run_cycle();
    sampled s = sample(&t, slot2_gen7, INT64_MAX - 2000, INT64_MAX);
    const fg_tick base = INT64_MAX - 807; /* the last cycle starts here */
    assert_int_equal(s.batch.count, 4);
    assert_int_equal(s.events[0].tick, base - 1000 + 950 - 1000);
    assert_int_equal(s.events[1].tick, base - 1000 + 50);
    assert_int_equal(s.events[2].tick, base - 1000 + 950);
    assert_int_equal(s.events[3].tick, base + 50);
    fg_track_marker_spec many[FG_TRACK_MAX_MARKERS];
    for (int i = 0; i < FG_TRACK_MAX_MARKERS; i++)
        many[i] = (fg_track_marker_spec){0, (fg_marker)i, NULL};
    fg_cycle_track dense;
    assert_int_equal(fg_cycle_track_init(&dense, 1, many, FG_TRACK_MAX_MARKERS, NULL), FG_OK);
    uint64_t n = 0;
    assert_int_equal(fg_cycle_track_count(&dense, 0, INT64_MAX, &n, NULL), FG_OK);
    assert_int_equal(n, UINT64_MAX);
    fg_track_event out[4];
    fg_track_batch b;
    fg_error err;
    assert_int_equal(fg_cycle_track_sample(&dense, slot2_gen7, 0, INT64_MAX, out, 4, &b, &err),
                     FG_ENOMEM);
    assert_string_equal(fg_error_message(&err), "cycle track: interval (0, 9223372036854775807] holds "
                                 "18446744073709551615 events, the output array holds 4");
}

/* Rule: a retried batch is AlreadyCommitted and delivers nothing: 2 events, not 4. */
static void retry_is_idempotent(void **state) {
    (void)state;
    fg_cycle_track t = run_cycle();
    fg_playback_owner *o = owner(8, slot2_gen7, 920);
    sampled s = sample(&t, slot2_gen7, 920, 1080);
    assert_int_equal(commit(o, &s), FG_COMMIT_COMMITTED);
    uint64_t h = hash_of(o);
    assert_int_equal(commit(o, &s), FG_COMMIT_ALREADY_COMMITTED);
    assert_int_equal(commit(o, &s), FG_COMMIT_ALREADY_COMMITTED);
    assert_int_equal(fg_playback_owner_pending(o), 2);
    assert_int_equal(o->delivered, 2);
    assert_true(hash_of(o) == h);
    /* An older interval that ends before the cursor is a retry too. */
    sampled older = sample(&t, slot2_gen7, 920, 1000);
    assert_int_equal(commit(o, &older), FG_COMMIT_ALREADY_COMMITTED);
    assert_int_equal(fg_playback_owner_pending(o), 2);
    fg_playback_owner_destroy(o);
}

/* Rule: a batch of a token that is not live (old generation, other slot, ended playback) is
** StalePlayback: nothing delivered, the cursor does not move. */
static void old_generation_is_stale_playback(void **state) {
    (void)state;
    fg_cycle_track t = run_cycle();
    fg_playback_owner *o = owner(8, slot2_gen7, 920);
    sampled old = sample(&t, slot2_gen7, 920, 1080);
    fg_error err;
    assert_int_equal(fg_playback_owner_begin(o, slot2_gen8, 920, &err), FG_OK);
    assert_int_equal(commit(o, &old), FG_COMMIT_STALE_PLAYBACK);
    assert_int_equal(fg_playback_owner_pending(o), 0);
    assert_int_equal(fg_playback_owner_cursor(o), 920);
    const fg_playback_token other_slot = {3, 8};
    sampled other = sample(&t, other_slot, 920, 1080);
    assert_int_equal(commit(o, &other), FG_COMMIT_STALE_PLAYBACK);
    sampled live = sample(&t, slot2_gen8, 920, 1080);
    fg_playback_owner_end(o);
    assert_false(fg_playback_owner_live(o, NULL));
    assert_int_equal(commit(o, &live), FG_COMMIT_STALE_PLAYBACK);
    assert_int_equal(fg_playback_owner_pending(o), 0);
    fg_playback_owner_destroy(o);
}

/* Rule (seed 001): with 920..1000 missing, 1000..1080 arriving first is CursorGap and changes
** nothing; when 920..1000 arrives FootRight@950 is delivered, then 1000..1080 commits. */
static void cursor_gap_is_refused_and_foot_right_is_not_lost(void **state) {
    (void)state;
    fg_cycle_track t = run_cycle();
    fg_playback_owner *o = owner(8, slot2_gen7, 920);
    sampled late = sample(&t, slot2_gen7, 1000, 1080);
    sampled missing = sample(&t, slot2_gen7, 920, 1000);
    void *before = snapshot(o);
    assert_int_equal(commit(o, &late), FG_COMMIT_CURSOR_GAP);
    assert_memory_equal(o, before, fg_playback_owner_bytes(o));
    assert_int_equal(commit(o, &missing), FG_COMMIT_COMMITTED);
    assert_int_equal(commit(o, &late), FG_COMMIT_COMMITTED);
    char events[128];
    format_pending(o, events, sizeof events);
    assert_string_equal(events, "FootRight@950>FootLeft@1050");
    assert_int_equal(fg_playback_owner_cursor(o), 1080);
    /* A batch that starts before the cursor but reaches past it is a gap too, not a partial. */
    sampled overlap = sample(&t, slot2_gen7, 1000, 2000);
    assert_int_equal(commit(o, &overlap), FG_COMMIT_CURSOR_GAP);
    free(before);
    fg_playback_owner_destroy(o);
}

/* Rule: an interval without markers still commits and moves the cursor, so the next batch is not
** mistaken for a gap; a zero-length batch at the cursor is AlreadyCommitted. */
static void empty_interval_commits_and_advances_the_cursor(void **state) {
    (void)state;
    fg_cycle_track t = run_cycle();
    fg_playback_owner *o = owner(8, slot2_gen7, 100);
    sampled empty = sample(&t, slot2_gen7, 100, 200);
    assert_int_equal(empty.batch.count, 0);
    assert_int_equal(commit(o, &empty), FG_COMMIT_COMMITTED);
    assert_int_equal(fg_playback_owner_cursor(o), 200);
    assert_int_equal(fg_playback_owner_pending(o), 0);
    sampled next = sample(&t, slot2_gen7, 200, 960);
    assert_int_equal(commit(o, &next), FG_COMMIT_COMMITTED);
    assert_int_equal(fg_playback_owner_pending(o), 1);
    sampled zero = sample(&t, slot2_gen7, 960, 960);
    assert_int_equal(commit(o, &zero), FG_COMMIT_ALREADY_COMMITTED);
    /* A track without markers is valid: every batch is empty. */
    fg_cycle_track bare;
    assert_int_equal(fg_cycle_track_init(&bare, 30, NULL, 0, NULL), FG_OK);
    sampled none = sample(&bare, slot2_gen7, 960, 5000);
    assert_int_equal(none.batch.count, 0);
    assert_int_equal(commit(o, &none), FG_COMMIT_COMMITTED);
    assert_int_equal(fg_playback_owner_cursor(o), 5000);
    fg_playback_owner_destroy(o);
}

/* Rule (seed 001): a reversed interval is an error naming both ends; a negative from too; nothing
** is written. */
static void reversed_interval_is_refused_with_a_message(void **state) {
    (void)state;
    fg_cycle_track t = run_cycle();
    fg_track_event out[4];
    memset(out, 0xab, sizeof out);
    fg_track_batch batch;
    memset(&batch, 0xcd, sizeof batch);
    fg_track_batch untouched = batch;
    fg_error err;
    assert_int_equal(fg_cycle_track_sample(&t, slot2_gen7, 1080, 920, out, 4, &batch, &err),
                     FG_EINVAL);
    assert_string_equal(fg_error_message(&err),
                        "cycle track: interval (1080, 920] is reversed (expected to >= from)");
    assert_int_equal(fg_cycle_track_sample(&t, slot2_gen7, -5, 920, out, 4, &batch, &err),
                     FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "cycle track: interval (-5, 920]: from -5 is before the start of "
                                 "playback (expected from >= 0)");
    uint64_t n = 77;
    assert_int_equal(fg_cycle_track_count(&t, 10, 9, &n, &err), FG_EINVAL);
    assert_int_equal(n, 77);
    assert_memory_equal(&batch, &untouched, sizeof batch);
    unsigned char pattern[sizeof out];
    memset(pattern, 0xab, sizeof pattern);
    assert_memory_equal(out, pattern, sizeof out);
}

/* Rule (seed 001): a marker outside the duration is an error naming the marker, its tick and the
** valid range; so are a duration below 1, a repeated marker and too many markers. t unchanged. */
static void bad_marker_is_refused_with_a_message(void **state) {
    (void)state;
    fg_cycle_track t = run_cycle(), before = t;
    fg_error err;
    const fg_track_marker_spec late[] = {{50, FOOT_LEFT, "FootLeft"},
                                         {1000, FOOT_RIGHT, "FootRight"}};
    assert_int_equal(fg_cycle_track_init(&t, 1000, late, 2, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err),
                        "cycle track: markers[2] FootRight (marker 1): tick 1000 is outside "
                        "the duration (expected 0 to 999)");
    const fg_track_marker_spec early[] = {{-1, 4, NULL}};
    assert_int_equal(fg_cycle_track_init(&t, 1000, early, 1, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "cycle track: markers[1] marker 4: tick -1 is outside the duration "
                                 "(expected 0 to 999)");
    assert_int_equal(fg_cycle_track_init(&t, 0, NULL, 0, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "cycle track: duration 0, expected at least 1 tick");
    const fg_track_marker_spec twice[] = {{50, FOOT_LEFT, "FootLeft"}, {50, FOOT_LEFT, "FootLeft"}};
    assert_int_equal(fg_cycle_track_init(&t, 1000, twice, 2, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "cycle track: FootLeft (marker 0) appears twice at tick 50, "
                                 "expected each marker once per tick");
    fg_track_marker_spec many[FG_TRACK_MAX_MARKERS + 1];
    for (int i = 0; i <= FG_TRACK_MAX_MARKERS; i++) many[i] = (fg_track_marker_spec){i, 1, NULL};
    assert_int_equal(fg_cycle_track_init(&t, 1000, many, FG_TRACK_MAX_MARKERS + 1, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "cycle track: 33 markers, at most 32 allowed");
    assert_memory_equal(&t, &before, sizeof t);
    assert_int_equal(fg_cycle_track_init(&t, 1000, many, FG_TRACK_MAX_MARKERS, &err), FG_OK);
}

/* Rule: more events than the output array holds is FG_ENOMEM with both numbers; nothing is
** written; the count function tells ahead. */
static void output_overflow_is_reported_and_writes_nothing(void **state) {
    (void)state;
    fg_cycle_track t = run_cycle();
    fg_track_event out[1];
    memset(out, 0xab, sizeof out);
    fg_track_batch batch;
    memset(&batch, 0, sizeof batch);
    fg_error err;
    assert_int_equal(fg_cycle_track_sample(&t, slot2_gen7, 920, 1080, out, 1, &batch, &err),
                     FG_ENOMEM);
    assert_string_equal(fg_error_message(&err), "cycle track: interval (920, 1080] holds 2 events, the output "
                                 "array holds 1");
    assert_int_equal(batch.count, 0);
    assert_null(batch.events);
    unsigned char pattern[sizeof out];
    memset(pattern, 0xab, sizeof pattern);
    assert_memory_equal(out, pattern, sizeof out);
    assert_int_equal(fg_cycle_track_sample(&t, slot2_gen7, 920, 1000, out, 1, &batch, &err), FG_OK);
    assert_int_equal(batch.count, 1);
}

/* Rule: a Committed batch that does not fit the free part of the delivery queue is refused
** (FG_ENOMEM) and changes nothing; after a drain the same batch commits. */
static void full_delivery_queue_refuses_the_commit_and_changes_nothing(void **state) {
    (void)state;
    fg_cycle_track t = run_cycle();
    fg_playback_owner *o = owner(2, slot2_gen7, 0);
    sampled a = sample(&t, slot2_gen7, 0, 900);
    sampled b = sample(&t, slot2_gen7, 900, 1000);
    assert_int_equal(commit(o, &a), FG_COMMIT_COMMITTED);
    assert_int_equal(commit(o, &b), FG_COMMIT_COMMITTED); /* the queue is full: 2 of 2 */
    sampled c = sample(&t, slot2_gen7, 1000, 1960);
    c.batch.events = c.events;
    void *full = snapshot(o);
    fg_commit_result r = FG_COMMIT_STALE_PLAYBACK;
    fg_error err;
    assert_int_equal(fg_playback_owner_commit(o, &c.batch, &r, &err), FG_ENOMEM);
    assert_string_equal(fg_error_message(&err), "commit: batch (1000, 1960] brings 2 events but the delivery "
                                 "queue has 0 free of 2 (drain it first)");
    assert_int_equal(r, FG_COMMIT_STALE_PLAYBACK);
    assert_memory_equal(o, full, fg_playback_owner_bytes(o));
    fg_track_event got[4];
    assert_int_equal(fg_playback_owner_drain(o, got, 1), 1);
    assert_int_equal(got[0].tick, 50);
    /* One free slot is still not enough for two events. */
    assert_int_equal(fg_playback_owner_commit(o, &c.batch, &r, &err), FG_ENOMEM);
    assert_int_equal(fg_playback_owner_drain(o, got, 4), 1);
    assert_int_equal(got[0].tick, 950);
    assert_int_equal(commit(o, &c), FG_COMMIT_COMMITTED);
    assert_int_equal(fg_playback_owner_pending(o), 2);
    assert_int_equal(fg_playback_owner_at(o, 0)->tick, 1050);
    assert_int_equal(fg_playback_owner_at(o, 1)->tick, 1950);
    assert_null(fg_playback_owner_at(o, 2));
    /* The queue is a ring: after a partial drain the next event wraps to the front. */
    assert_int_equal(fg_playback_owner_drain(o, got, 1), 1);
    sampled d = sample(&t, slot2_gen7, 1960, 2100);
    assert_int_equal(commit(o, &d), FG_COMMIT_COMMITTED);
    assert_int_equal(fg_playback_owner_at(o, 0)->tick, 1950);
    assert_int_equal(fg_playback_owner_at(o, 1)->tick, 2050);
    assert_int_equal(fg_playback_owner_drain(o, got, 4), 2);
    assert_int_equal(got[1].tick, 2050);
    free(full);
    fg_playback_owner_destroy(o);
}

/* Rule: begin needs a generation newer than the last one begun (FG_ESTATE) and a cursor >= 0;
** refused begins change nothing. */
static void begin_with_a_generation_that_is_not_newer_is_refused(void **state) {
    (void)state;
    fg_playback_owner *o = owner(4, slot2_gen8, 0);
    void *before = snapshot(o);
    fg_error err;
    assert_int_equal(fg_playback_owner_begin(o, slot2_gen7, 0, &err), FG_ESTATE);
    assert_string_equal(fg_error_message(&err), "playback owner: begin slot 2 generation 7: generation is not "
                                 "newer than 8 (slot 2), the last one begun");
    assert_int_equal(fg_playback_owner_begin(o, slot2_gen8, 0, &err), FG_ESTATE);
    const fg_playback_token gen9 = {2, 9};
    assert_int_equal(fg_playback_owner_begin(o, gen9, -1, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "playback owner: begin slot 2 generation 9: cursor -1, expected "
                                 ">= 0");
    assert_memory_equal(o, before, fg_playback_owner_bytes(o));
    /* Ending does not let an old generation back in. */
    fg_playback_owner_end(o);
    assert_int_equal(fg_playback_owner_begin(o, slot2_gen8, 0, &err), FG_ESTATE);
    assert_int_equal(fg_playback_owner_begin(o, gen9, 0, &err), FG_OK);
    fg_playback_token live;
    assert_true(fg_playback_owner_live(o, &live));
    assert_int_equal(live.generation, 9);
    free(before);
    fg_playback_owner_destroy(o);
}

/* Rule: a malformed batch (reversed, events outside (from, to] or out of order, missing array) is
** FG_EINVAL naming the event, even if it would be stale; nothing changes. */
static void malformed_batch_is_refused(void **state) {
    (void)state;
    fg_playback_owner *o = owner(4, slot2_gen7, 0);
    void *before = snapshot(o);
    fg_track_event ev[2] = {{50, 0, FOOT_LEFT, 0}, {40, 0, FOOT_RIGHT, 0}};
    fg_track_batch b = {slot2_gen7, 2, 0, 0, 100, ev};
    fg_commit_result r;
    fg_error err;
    assert_int_equal(fg_playback_owner_commit(o, &b, &r, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "commit: batch (0, 100] events[2] at tick 40 is out of order "
                                 "(expected ticks inside the interval, in order)");
    ev[1].tick = 150;
    assert_int_equal(fg_playback_owner_commit(o, &b, &r, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "commit: batch (0, 100] events[2] at tick 150 is outside the "
                                 "interval (expected ticks inside the interval, in order)");
    ev[0].tick = 0;
    b.token = slot2_gen8;
    assert_int_equal(fg_playback_owner_commit(o, &b, &r, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "commit: batch (0, 100] events[1] at tick 0 is outside the "
                                 "interval (expected ticks inside the interval, in order)");
    b.events = NULL;
    assert_int_equal(fg_playback_owner_commit(o, &b, &r, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "commit: batch (0, 100] has 2 events but no event array");
    b.from = 200;
    assert_int_equal(fg_playback_owner_commit(o, &b, &r, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "commit: batch (200, 100] is reversed (expected to >= from)");
    assert_memory_equal(o, before, fg_playback_owner_bytes(o));
    free(before);
    fg_playback_owner_destroy(o);
}

/* Rule: the owner is a plain block: snapshot before a commit, commit, restore, commit again: the
** events are delivered once per timeline (2 pending, not 4 and not 0). */
static void snapshot_restore_delivers_once_per_timeline(void **state) {
    (void)state;
    fg_cycle_track t = run_cycle();
    fg_playback_owner *o = owner(8, slot2_gen7, 920);
    sampled s = sample(&t, slot2_gen7, 920, 1080);
    void *before = snapshot(o);
    assert_int_equal(commit(o, &s), FG_COMMIT_COMMITTED);
    void *after = snapshot(o);
    fg_error err;
    assert_int_equal(fg_playback_owner_restore(o, before, fg_playback_owner_bytes(o), &err), FG_OK);
    assert_int_equal(fg_playback_owner_pending(o), 0);
    assert_int_equal(fg_playback_owner_cursor(o), 920);
    assert_int_equal(commit(o, &s), FG_COMMIT_COMMITTED);
    assert_int_equal(commit(o, &s), FG_COMMIT_ALREADY_COMMITTED);
    assert_int_equal(fg_playback_owner_pending(o), 2);
    assert_int_equal(o->delivered, 2);
    assert_memory_equal(o, after, fg_playback_owner_bytes(o));
    /* Restoring the later snapshot: the retry stays AlreadyCommitted. */
    assert_int_equal(fg_playback_owner_restore(o, after, fg_playback_owner_bytes(o), &err), FG_OK);
    assert_int_equal(commit(o, &s), FG_COMMIT_ALREADY_COMMITTED);
    /* A snapshot of another queue size or an impossible one is refused, o unchanged. */
    fg_playback_owner *small = owner(2, slot2_gen7, 0);
    assert_int_equal(fg_playback_owner_restore(o, small, fg_playback_owner_bytes(small), &err),
                     FG_EMISMATCH);
    assert_string_equal(fg_error_message(&err), "playback owner snapshot: 88 bytes, expected 232 (queue 8)");
    fg_playback_owner *bad = malloc(fg_playback_owner_bytes(o));
    memcpy(bad, o, fg_playback_owner_bytes(o));
    bad->count = 9;
    assert_int_equal(fg_playback_owner_restore(o, bad, fg_playback_owner_bytes(o), &err),
                     FG_EFORMAT);
    assert_string_equal(fg_error_message(&err),
                        "playback owner snapshot: queue head 0 count 9 live 1 cursor 1080, "
                        "expected head and count within 8, live 0 or 1, cursor >= 0");
    assert_memory_equal(o, after, fg_playback_owner_bytes(o));
    free(bad);
    free(before);
    free(after);
    fg_playback_owner_destroy(small);
    fg_playback_owner_destroy(o);
}

/* Rule: the hash follows token, cursor and queue, and refused batches leave it alone. */
static void hash_changes_when_state_changes_and_only_then(void **state) {
    (void)state;
    fg_cycle_track t = run_cycle();
    fg_playback_owner *o = owner(8, slot2_gen7, 920);
    uint64_t h0 = hash_of(o);
    sampled gap = sample(&t, slot2_gen7, 1000, 1080);
    sampled stale = sample(&t, slot2_gen8, 920, 1080);
    assert_int_equal(commit(o, &gap), FG_COMMIT_CURSOR_GAP);
    assert_int_equal(commit(o, &stale), FG_COMMIT_STALE_PLAYBACK);
    assert_true(hash_of(o) == h0);
    sampled empty = sample(&t, slot2_gen7, 920, 940);
    assert_int_equal(commit(o, &empty), FG_COMMIT_COMMITTED);
    uint64_t h1 = hash_of(o);
    assert_true(h1 != h0); /* the cursor moved */
    sampled s = sample(&t, slot2_gen7, 940, 1080);
    assert_int_equal(commit(o, &s), FG_COMMIT_COMMITTED);
    uint64_t h2 = hash_of(o);
    assert_true(h2 != h1);
    assert_int_equal(fg_playback_owner_drain(o, NULL, 1), 1);
    uint64_t h3 = hash_of(o);
    assert_true(h3 != h2);
    fg_playback_owner_end(o);
    assert_true(hash_of(o) != h3);
    fg_playback_owner_destroy(o);
}

/* Rule: describe writes one field per line in a fixed order. */
static void describe_writes_one_field_per_line(void **state) {
    (void)state;
    fg_cycle_track t = run_cycle();
    fg_playback_owner *o = owner(4, slot2_gen7, 920);
    sampled s = sample(&t, slot2_gen7, 920, 1080);
    commit(o, &s);
    char buf[512];
    const char *want = "playback.queue 4\n"
                       "playback.token slot 2 generation 7\n"
                       "playback.live 1\n"
                       "playback.cursor 1080\n"
                       "playback.delivered 2\n"
                       "playback.pending[0] tick 950 marker 1 occurrence 0\n"
                       "playback.pending[1] tick 1050 marker 0 occurrence 1\n";
    assert_int_equal(fg_playback_owner_describe(o, buf, sizeof buf), strlen(want));
    assert_string_equal(buf, want);
    fg_playback_owner_destroy(o);
}

/* Rule: sampling, committing and draining a playback for a million ticks allocates nothing and
** keeps the owner's size; each footstep is delivered once. */
static void a_million_ticks_of_playback_do_not_allocate(void **state) {
    (void)state;
    fg_counting_allocator counter;
    fg_allocator a = fg_test_counting_allocator(&counter);
    fg_playback_owner *o = NULL;
    assert_int_equal(fg_playback_owner_create(4, &a, &o, NULL), FG_OK);
    size_t allocs = counter.allocations, bytes = counter.live_bytes;
    fg_cycle_track t = run_cycle();
    assert_int_equal(fg_playback_owner_begin(o, slot2_gen7, 0, NULL), FG_OK);
    fg_track_event ev[4], drained[4];
    fg_track_batch b;
    uint64_t got = 0;
    for (fg_tick tick = 0; tick < 1000000; tick++) {
        assert_int_equal(fg_cycle_track_sample(&t, slot2_gen7, tick, tick + 1, ev, 4, &b, NULL),
                         FG_OK);
        fg_commit_result r;
        assert_int_equal(fg_playback_owner_commit(o, &b, &r, NULL), FG_OK);
        assert_int_equal(r, FG_COMMIT_COMMITTED);
        assert_int_equal(fg_playback_owner_commit(o, &b, &r, NULL), FG_OK); /* retry */
        assert_int_equal(r, FG_COMMIT_ALREADY_COMMITTED);
        got += fg_playback_owner_drain(o, drained, 4);
    }
    assert_int_equal(got, 2000); /* two feet per 1000-tick cycle */
    assert_int_equal(counter.allocations, allocs);
    assert_int_equal(counter.live_bytes, bytes);
    fg_playback_owner_destroy(o);
    assert_int_equal(counter.live_bytes, 0);
}

/* Rule: result names are the seeds' spellings; a bad queue size is refused with its range. */
static void names_and_queue_limits(void **state) {
    (void)state;
    assert_string_equal(fg_commit_result_name(FG_COMMIT_COMMITTED), "Committed");
    assert_string_equal(fg_commit_result_name(FG_COMMIT_ALREADY_COMMITTED), "AlreadyCommitted");
    assert_string_equal(fg_commit_result_name(FG_COMMIT_STALE_PLAYBACK), "StalePlayback");
    assert_string_equal(fg_commit_result_name(FG_COMMIT_CURSOR_GAP), "CursorGap");
    assert_string_equal(fg_commit_result_name((fg_commit_result)4), "?");
    fg_playback_owner *o = NULL;
    fg_error err;
    assert_int_equal(fg_playback_owner_create(0, NULL, &o, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "playback owner queue: 0, expected 1 to 65536 events");
    assert_null(o);
    assert_int_equal(fg_playback_owner_size(FG_PLAYBACK_MAX_QUEUE + 1), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(seed_result_line_across_the_loop_point),
        cmocka_unit_test(same_cycle_interval_hits_only_the_marker_inside_it),
        cmocka_unit_test(interval_is_open_at_from_and_closed_at_to),
        cmocka_unit_test(two_cycle_interval_yields_both_events_in_tick_order),
        cmocka_unit_test(repeated_marker_in_one_cycle_gets_distinct_occurrences),
        cmocka_unit_test(intervals_near_the_end_of_time_do_not_overflow),
        cmocka_unit_test(retry_is_idempotent),
        cmocka_unit_test(old_generation_is_stale_playback),
        cmocka_unit_test(cursor_gap_is_refused_and_foot_right_is_not_lost),
        cmocka_unit_test(empty_interval_commits_and_advances_the_cursor),
        cmocka_unit_test(reversed_interval_is_refused_with_a_message),
        cmocka_unit_test(bad_marker_is_refused_with_a_message),
        cmocka_unit_test(output_overflow_is_reported_and_writes_nothing),
        cmocka_unit_test(full_delivery_queue_refuses_the_commit_and_changes_nothing),
        cmocka_unit_test(begin_with_a_generation_that_is_not_newer_is_refused),
        cmocka_unit_test(malformed_batch_is_refused),
        cmocka_unit_test(snapshot_restore_delivers_once_per_timeline),
        cmocka_unit_test(hash_changes_when_state_changes_and_only_then),
        cmocka_unit_test(describe_writes_one_field_per_line),
        cmocka_unit_test(a_million_ticks_of_playback_do_not_allocate),
        cmocka_unit_test(names_and_queue_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
