/* SPDX-License-Identifier: MIT */
/*
** playback.c: cycle tracks and the playback owner (framegate/gate.h).
**
** A cycle track is sampled in unrolled ticks (cycle * duration + marker tick), so crossing the loop
** point needs no special case and an interval means one thing. The playback owner turns sampled
** batches, which may arrive late, twice or out of order, into one in-order stream of delivered
** events: only the live token's batch that starts exactly at the committed cursor is delivered.
*/
#include "framegate/gate.h"
#include "base_internal.h"
#include "text.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* {====================================================================== cycle tracks */

static int cmp_marker(const void *pa, const void *pb) {
    const fg_track_marker *a = pa, *b = pb;
    if (a->tick != b->tick) return a->tick < b->tick ? -1 : 1;
    if (a->marker != b->marker) return a->marker < b->marker ? -1 : 1;
    return 0;
}

static void marker_label(const fg_track_marker_spec *m, char *buf, size_t size) {
    if (m->name)
        snprintf(buf, size, "%s (marker %" PRIu32 ")", m->name, m->marker);
    else
        snprintf(buf, size, "marker %" PRIu32, m->marker);
}

fg_status fg_cycle_track_init(fg_cycle_track *t, fg_tick duration,
                             const fg_track_marker_spec *markers, uint32_t count, fg_error *err) {
    char label[160];
    if (duration < 1)
        return fg_error_set(err, FG_EINVAL,
                            "cycle track: duration %" PRId64 ", expected at least 1 tick", duration);
    if (count > FG_TRACK_MAX_MARKERS)
        return fg_error_set(err, FG_EINVAL, "cycle track: %" PRIu32 " markers, at most %d allowed",
                            count, FG_TRACK_MAX_MARKERS);
    if (count > 0 && !markers)
        return fg_error_set(err, FG_EINVAL, "cycle track: %" PRIu32 " markers but no marker array",
                            count);
    fg_cycle_track nt;
    memset(&nt, 0, sizeof nt);
    nt.duration = duration;
    nt.count = count;
    for (uint32_t i = 0; i < count; i++) {
        const fg_track_marker_spec *m = &markers[i];
        if (m->tick < 0 || m->tick >= duration) {
            marker_label(m, label, sizeof label);
            return fg_error_set(err, FG_EINVAL,
                                "cycle track: markers[%" PRIu32 "] %s: tick %" PRId64
                                " is outside the duration (expected 0 to %" PRId64 ")",
                                i + 1, label, m->tick, duration - 1);
        }
        nt.markers[i].tick = m->tick;
        nt.markers[i].marker = m->marker;
    }
    qsort(nt.markers, count, sizeof nt.markers[0], cmp_marker);
    for (uint32_t i = 1; i < count; i++)
        if (cmp_marker(&nt.markers[i - 1], &nt.markers[i]) == 0) {
            const fg_track_marker_spec *dup = NULL;
            for (uint32_t j = 0; j < count && !dup; j++)
                if (markers[j].marker == nt.markers[i].marker &&
                    markers[j].tick == nt.markers[i].tick)
                    dup = &markers[j];
            marker_label(dup, label, sizeof label);
            return fg_error_set(err, FG_EINVAL,
                                "cycle track: %s appears twice at tick %" PRId64
                                ", expected each marker once per tick",
                                label, nt.markers[i].tick);
        }
    /* Ranks give each appearance of a repeated marker its own occurrence within a cycle. */
    for (uint32_t i = 0; i < count; i++) {
        uint32_t rank = 0, per = 0;
        for (uint32_t j = 0; j < count; j++)
            if (nt.markers[j].marker == nt.markers[i].marker) {
                per++;
                if (j < i) rank++;
            }
        nt.markers[i].rank = rank;
        nt.markers[i].per_cycle = per;
    }
    *t = nt;
    return FG_OK;
}

static int64_t floor_div(int64_t a, int64_t b) { /* b > 0 */
    int64_t q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

static fg_status check_interval(fg_tick from, fg_tick to, fg_error *err) {
    if (from < 0)
        return fg_error_set(err, FG_EINVAL,
                            "cycle track: interval (%" PRId64 ", %" PRId64 "]: from %" PRId64
                            " is before the start of playback (expected from >= 0)",
                            from, to, from);
    if (to < from)
        return fg_error_set(err, FG_EINVAL,
                            "cycle track: interval (%" PRId64 ", %" PRId64
                            "] is reversed (expected to >= from)",
                            from, to);
    return FG_OK;
}

/* Events of marker m in (from, to]: ticks k * duration + m.tick. from >= 0, m.tick >= 0. */
static uint64_t marker_hits(const fg_cycle_track *t, const fg_track_marker *m, fg_tick from,
                            fg_tick to) {
    return (uint64_t)(floor_div(to - m->tick, t->duration) -
                      floor_div(from - m->tick, t->duration));
}

fg_status fg_cycle_track_count(const fg_cycle_track *t, fg_tick from, fg_tick to, uint64_t *count,
                              fg_error *err) {
    fg_status st = check_interval(from, to, err);
    if (st != FG_OK) return st;
    uint64_t n = 0;
    for (uint32_t i = 0; i < t->count; i++) {
        uint64_t k = marker_hits(t, &t->markers[i], from, to);
        n = k > UINT64_MAX - n ? UINT64_MAX : n + k; /* saturate: only "too many" matters then */
    }
    *count = n;
    return FG_OK;
}

fg_status fg_cycle_track_sample(const fg_cycle_track *t, fg_playback_token token, fg_tick from,
                               fg_tick to, fg_track_event *out, uint32_t capacity,
                               fg_track_batch *batch, fg_error *err) {
    uint64_t n;
    fg_status st = fg_cycle_track_count(t, from, to, &n, err);
    if (st != FG_OK) return st;
    if (n > capacity)
        return fg_error_set(err, FG_ENOMEM,
                            "cycle track: interval (%" PRId64 ", %" PRId64 "] holds %" PRIu64
                            " events, the output array holds %" PRIu32,
                            from, to, n, capacity);
    if (n > 0 && !out)
        return fg_error_set(err, FG_EINVAL,
                            "cycle track: interval (%" PRId64 ", %" PRId64 "] holds %" PRIu64
                            " events but no output array was given",
                            from, to, n);
    uint32_t k = 0;
    if (n > 0) {
        /* Only cycles that overlap (from, to] are visited, and each one but the first and last
        ** holds every marker, so the work is proportional to the events. */
        for (int64_t cycle = from / t->duration; k < n; cycle++) {
            fg_tick base = cycle * t->duration;
            for (uint32_t i = 0; i < t->count; i++) {
                const fg_track_marker *m = &t->markers[i];
                if (m->tick > to - base) break; /* past the end; base + tick could overflow */
                fg_tick at = base + m->tick;
                if (at <= from) continue;
                out[k].tick = at;
                out[k].occurrence = (uint64_t)cycle * m->per_cycle + m->rank;
                out[k].marker = m->marker;
                out[k].reserved = 0;
                k++;
            }
        }
    }
    batch->token = token;
    batch->count = k;
    batch->reserved = 0;
    batch->from = from;
    batch->to = to;
    batch->events = out;
    return FG_OK;
}

/* }====================================================================== */

/* {====================================================================== the playback owner */

const char *fg_commit_result_name(fg_commit_result r) {
    switch (r) {
    case FG_COMMIT_COMMITTED: return "Committed";
    case FG_COMMIT_ALREADY_COMMITTED: return "AlreadyCommitted";
    case FG_COMMIT_STALE_PLAYBACK: return "StalePlayback";
    case FG_COMMIT_CURSOR_GAP: return "CursorGap";
    }
    return "?";
}

size_t fg_playback_owner_size(uint32_t queue) {
    if (queue < 1 || queue > FG_PLAYBACK_MAX_QUEUE) return 0;
    return sizeof(fg_playback_owner) + (size_t)queue * sizeof(fg_track_event);
}

static fg_status check_queue(uint32_t queue, fg_error *err) {
    if (queue < 1 || queue > FG_PLAYBACK_MAX_QUEUE)
        return fg_error_set(err, FG_EINVAL,
                            "playback owner queue: %" PRIu32 ", expected 1 to %u events", queue,
                            FG_PLAYBACK_MAX_QUEUE);
    return FG_OK;
}

fg_status fg_playback_owner_init(fg_playback_owner *o, uint32_t queue, fg_error *err) {
    fg_status st = check_queue(queue, err);
    if (st != FG_OK) return st;
    memset(o, 0, fg_playback_owner_size(queue));
    o->capacity = queue;
    return FG_OK;
}

fg_status fg_playback_owner_create(uint32_t queue, const fg_allocator *a, fg_playback_owner **out,
                                   fg_error *err) {
    fg_status st = check_queue(queue, err);
    if (st != FG_OK) return st;
    size_t size = fg_playback_owner_size(queue);
    fg_playback_owner *o = fg_alloc_kept(a, size);
    if (!o) return fg_error_set(err, FG_ENOMEM, "playback owner: cannot allocate %zu bytes", size);
    fg_playback_owner_init(o, queue, NULL);
    *out = o;
    return FG_OK;
}

void fg_playback_owner_destroy(fg_playback_owner *o) {
    if (o) fg_free_kept(o, fg_playback_owner_bytes(o));
}

size_t fg_playback_owner_bytes(const fg_playback_owner *o) {
    return fg_playback_owner_size(o->capacity);
}

fg_status fg_playback_owner_restore(fg_playback_owner *o, const void *snapshot, size_t size,
                                    fg_error *err) {
    size_t want = fg_playback_owner_bytes(o);
    if (!snapshot || size != want)
        return fg_error_set(err, FG_EMISMATCH,
                            "playback owner snapshot: %zu bytes, expected %zu (queue %" PRIu32 ")",
                            snapshot ? size : 0, want, o->capacity);
    fg_playback_owner head;
    memcpy(&head, snapshot, sizeof head);
    if (head.capacity != o->capacity)
        return fg_error_set(err, FG_EMISMATCH,
                            "playback owner snapshot: queue %" PRIu32 ", expected %" PRIu32,
                            head.capacity, o->capacity);
    if (head.head >= head.capacity || head.count > head.capacity || head.live > 1 ||
        head.cursor < 0)
        return fg_error_set(err, FG_EFORMAT,
                            "playback owner snapshot: queue head %" PRIu32 " count %" PRIu32
                            " live %" PRIu32 " cursor %" PRId64
                            ", expected head and count within %" PRIu32
                            ", live 0 or 1, cursor >= 0",
                            head.head, head.count, head.live, head.cursor, head.capacity);
    memcpy(o, snapshot, want);
    return FG_OK;
}

fg_status fg_playback_owner_begin(fg_playback_owner *o, fg_playback_token token, fg_tick cursor,
                                  fg_error *err) {
    if (token.generation <= o->token.generation)
        return fg_error_set(err, FG_ESTATE,
                            "playback owner: begin slot %" PRIu32 " generation %" PRIu32
                            ": generation is not newer than %" PRIu32 " (slot %" PRIu32
                            "), the last one begun",
                            token.slot, token.generation, o->token.generation, o->token.slot);
    if (cursor < 0)
        return fg_error_set(err, FG_EINVAL,
                            "playback owner: begin slot %" PRIu32 " generation %" PRIu32
                            ": cursor %" PRId64 ", expected >= 0",
                            token.slot, token.generation, cursor);
    o->token = token;
    o->live = 1;
    o->cursor = cursor;
    return FG_OK;
}

void fg_playback_owner_end(fg_playback_owner *o) { o->live = 0; }

static fg_status check_batch(const fg_track_batch *b, fg_error *err) {
    if (b->to < b->from)
        return fg_error_set(err, FG_EINVAL,
                            "commit: batch (%" PRId64 ", %" PRId64
                            "] is reversed (expected to >= from)",
                            b->from, b->to);
    if (b->count > 0 && !b->events)
        return fg_error_set(err, FG_EINVAL,
                            "commit: batch (%" PRId64 ", %" PRId64 "] has %" PRIu32
                            " events but no event array",
                            b->from, b->to, b->count);
    fg_tick prev = b->from;
    for (uint32_t i = 0; i < b->count; i++) {
        fg_tick at = b->events[i].tick;
        if (at <= b->from || at > b->to || at < prev)
            return fg_error_set(
                err, FG_EINVAL,
                "commit: batch (%" PRId64 ", %" PRId64 "] events[%" PRIu32 "] at tick %" PRId64
                " is %s (expected ticks inside the interval, in order)",
                b->from, b->to, i + 1, at,
                (at <= b->from || at > b->to) ? "outside the interval" : "out of order");
        prev = at;
    }
    return FG_OK;
}

fg_status fg_playback_owner_commit(fg_playback_owner *o, const fg_track_batch *batch,
                                   fg_commit_result *out, fg_error *err) {
    fg_status st = check_batch(batch, err);
    if (st != FG_OK) return st;
    if (!o->live || batch->token.slot != o->token.slot ||
        batch->token.generation != o->token.generation) {
        *out = FG_COMMIT_STALE_PLAYBACK;
        return FG_OK;
    }
    if (batch->to <= o->cursor) {
        *out = FG_COMMIT_ALREADY_COMMITTED;
        return FG_OK;
    }
    if (batch->from != o->cursor) {
        *out = FG_COMMIT_CURSOR_GAP;
        return FG_OK;
    }
    uint32_t free_slots = o->capacity - o->count;
    if (batch->count > free_slots)
        return fg_error_set(err, FG_ENOMEM,
                            "commit: batch (%" PRId64 ", %" PRId64 "] brings %" PRIu32
                            " events but the delivery queue has %" PRIu32 " free of %" PRIu32
                            " (drain it first)",
                            batch->from, batch->to, batch->count, free_slots, o->capacity);
    for (uint32_t i = 0; i < batch->count; i++) {
        fg_track_event *dst = &o->queue[(o->head + o->count) % o->capacity];
        *dst = batch->events[i];
        dst->reserved = 0;
        o->count++;
    }
    o->delivered += batch->count;
    o->cursor = batch->to;
    *out = FG_COMMIT_COMMITTED;
    return FG_OK;
}

fg_tick fg_playback_owner_cursor(const fg_playback_owner *o) { return o->cursor; }

bool fg_playback_owner_live(const fg_playback_owner *o, fg_playback_token *token) {
    if (o->live && token) *token = o->token;
    return o->live != 0;
}

uint32_t fg_playback_owner_pending(const fg_playback_owner *o) { return o->count; }

const fg_track_event *fg_playback_owner_at(const fg_playback_owner *o, uint32_t i) {
    return i < o->count ? &o->queue[(o->head + i) % o->capacity] : NULL;
}

uint32_t fg_playback_owner_drain(fg_playback_owner *o, fg_track_event *out, uint32_t max) {
    uint32_t n = o->count < max ? o->count : max;
    for (uint32_t i = 0; i < n; i++) {
        fg_track_event *src = &o->queue[o->head];
        if (out) out[i] = *src;
        memset(src, 0, sizeof *src); /* keep the bytes canonical: unused slots are zero */
        o->head = (o->head + 1) % o->capacity;
    }
    o->count -= n;
    if (o->count == 0) o->head = 0;
    return n;
}

void fg_playback_owner_hash(const fg_playback_owner *o, fg_hasher *hs) {
    fg_hash_u64(hs, o->capacity);
    fg_hash_u64(hs, o->token.slot);
    fg_hash_u64(hs, o->token.generation);
    fg_hash_u64(hs, o->live);
    fg_hash_i64(hs, o->cursor);
    fg_hash_u64(hs, o->delivered);
    fg_hash_u64(hs, o->count);
    for (uint32_t i = 0; i < o->count; i++) {
        const fg_track_event *e = fg_playback_owner_at(o, i);
        fg_hash_i64(hs, e->tick);
        fg_hash_u64(hs, e->occurrence);
        fg_hash_u64(hs, e->marker);
    }
}

size_t fg_playback_owner_describe(const fg_playback_owner *o, char *buf, size_t size) {
    size_t len = 0;
    if (buf && size) buf[0] = '\0';
    if (!buf) size = 0;
    fg_text_append(buf, size, &len, "playback.queue %" PRIu32 "\n", o->capacity);
    fg_text_append(buf, size, &len, "playback.token slot %" PRIu32 " generation %" PRIu32 "\n", o->token.slot,
        o->token.generation);
    fg_text_append(buf, size, &len, "playback.live %" PRIu32 "\n", o->live);
    fg_text_append(buf, size, &len, "playback.cursor %" PRId64 "\n", o->cursor);
    fg_text_append(buf, size, &len, "playback.delivered %" PRIu64 "\n", o->delivered);
    for (uint32_t i = 0; i < o->count; i++) {
        const fg_track_event *e = fg_playback_owner_at(o, i);
        fg_text_append(buf, size, &len,
            "playback.pending[%" PRIu32 "] tick %" PRId64 " marker %" PRIu32 " occurrence %" PRIu64
            "\n",
            i, e->tick, e->marker, e->occurrence);
    }
    return len;
}

/* }====================================================================== */
