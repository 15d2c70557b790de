/* SPDX-License-Identifier: MIT */
/*
** synctest.c: the rollback sync test. Every tick it does what a rollback session does when a
** late input arrives, and checks that the world cannot tell the difference.
**
** For tick k it keeps P(k-1), the state at the boundary before k with none of k's input in it
** (saved right after tick k-1 ran), the input the host pushed for k (captured just before k runs:
** the edges pushed since P(k-1), requests, contact reports, animation reports), and H(k), the hash
** after k. After running tick t it restores P(t-N), and for k = t-N+1 .. t re-pushes k's input,
** re-runs k and compares the hash with H(k). Restoring the boundary state and re-pushing only what
** came after it means no edge is in the world twice.
**
** The ring holds N + 1 boundary states, so the state saved after tick t never overwrites the one
** the rollback restores. Everything is allocated at creation.
*/
#include "world_access.h"

#include "framegate/determinism.h"

#include <stdio.h>
#include <string.h>

typedef struct captured_edge {
    int64_t time_us;
    fg_tick tick;
    uint8_t kind, action, dir, source;
    uint8_t late; /* pushed after its tick ran: re-pushed the same way */
} captured_edge;

/* The input of one tick, per entity slot: edges, requests, contact. */
typedef struct tick_input {
    uint32_t *nedges;             /* max_entities */
    captured_edge *edges;         /* max_entities * buffer_capacity */
    uint8_t *nrequests;           /* max_entities */
    fg_pending_request *requests; /* max_entities * FG_PENDING_REQUESTS */
    uint8_t *contact;             /* max_entities */
    uint32_t nentities;
    uint32_t nhost;
    fg_candidate host[FG_HOST_EVENTS];
} tick_input;

typedef struct slot {
    fg_tick tick;       /* the tick this slot is about: P(tick-1), input and hash of tick */
    uint64_t hash;      /* H(tick), once it ran */
    unsigned char *snap; /* P(tick-1) */
    tick_input in;
} slot;

struct fg_synctest {
    fg_world *w;
    fg_allocator alloc;
    uint32_t max_entities, buffer_capacity; /* the world's, kept so destroy needs no world */
    uint32_t check;
    fg_advance_fn advance;
    void *ud;
    size_t snap_cap;
    uint32_t nslots;
    slot *slots;
    unsigned char *scratch; /* the re-simulated state, for a report */
    /* The boundary state the next tick starts from: what its input is measured against. */
    fg_edge_id *next_id; /* per entity slot: edges from this id on were pushed after P */
    uint8_t *npending;   /* per entity slot: requests already in P */
    fg_tick first;       /* the first tick of the window: no rollback before it */
    fg_tick next;        /* the tick the world should be at */
    uint64_t edits;
    fg_synctest_report report;
    fg_synctest_stats stats;
};

static slot *slot_of(fg_synctest *st, fg_tick t) { return &st->slots[t % st->nslots]; }

static fg_status advance(fg_synctest *st, bool again, fg_error *err) {
    if (st->advance) return st->advance(st->ud, st->w, again, err);
    return fg_world_advance(st->w, err);
}

fg_synctest_config fg_synctest_config_default(void) {
    fg_synctest_config c;
    memset(&c, 0, sizeof c);
    c.check = 2;
    c.allocator = fg_allocator_default();
    return c;
}

void fg_synctest_destroy(fg_synctest *st) {
    if (!st) return;
    fg_allocator a = st->alloc;
    uint32_t me = st->max_entities, cap = st->buffer_capacity;
    for (uint32_t i = 0; st->slots && i < st->nslots; i++) {
        slot *s = &st->slots[i];
        fg_free(&a, s->snap, st->snap_cap);
        fg_free(&a, s->in.nedges, sizeof(uint32_t) * me);
        fg_free(&a, s->in.edges, sizeof(captured_edge) * me * cap);
        fg_free(&a, s->in.nrequests, me);
        fg_free(&a, s->in.requests, sizeof(fg_pending_request) * me * FG_PENDING_REQUESTS);
        fg_free(&a, s->in.contact, me);
    }
    fg_free(&a, st->slots, sizeof(slot) * st->nslots);
    fg_free(&a, st->scratch, st->snap_cap);
    fg_free(&a, st->next_id, sizeof(fg_edge_id) * me);
    fg_free(&a, st->npending, me);
    fg_free(&a, st, sizeof *st);
}

/* The boundary the next tick starts from is the world as it is now. */
static void mark_boundary(fg_synctest *st) {
    fg_world *w = st->w;
    fg_tick tick = fg_world_tick(w);
    slot *s = slot_of(st, tick);
    s->tick = tick;
    /* Cannot fail: the buffer holds the largest snapshot of this world. */
    fg_world_save_trusted(w, s->snap, st->snap_cap);
    for (uint32_t i = 0, n = fg_world_entity_count(w); i < n; i++) {
        st->next_id[i] = fg_world_input_buffer(w, i)->next_id;
        st->npending[i] = (uint8_t)fg_world_pending_count(w, i);
    }
    st->next = tick;
}

static void reset_window(fg_synctest *st) {
    mark_boundary(st);
    st->first = fg_world_tick(st->w);
    st->edits = fg_world_edits(st->w, NULL);
}

fg_status fg_synctest_create(fg_world *w, const fg_synctest_config *cfg, fg_synctest **out,
                             fg_error *err) {
    fg_synctest_config c = cfg ? *cfg : fg_synctest_config_default();
    if (!c.allocator.realloc) c.allocator = fg_allocator_default();
    if (!w || !out) return fg_error_set(err, FG_EINVAL, "sync test: world and out are required");
    *out = NULL;
    if (c.check < 1 || c.check > FG_SYNCTEST_MAX_CHECK)
        return fg_error_set(err, FG_EINVAL, "sync test: check distance %u, expected 1..%d ticks",
                            c.check, FG_SYNCTEST_MAX_CHECK);
    fg_synctest *st = fg_alloc(&c.allocator, sizeof *st);
    if (!st) return fg_error_set(err, FG_ENOMEM, "sync test: out of memory");
    st->w = w;
    st->alloc = c.allocator;
    st->max_entities = fg_world_max_entities(w);
    st->buffer_capacity = fg_world_buffer_capacity(w);
    st->check = c.check;
    st->advance = c.advance;
    st->ud = c.ud;
    st->snap_cap = fg_world_snapshot_capacity(w);
    st->nslots = c.check + 1;
    uint32_t me = st->max_entities, cap = st->buffer_capacity;
    st->slots = fg_alloc(&c.allocator, sizeof(slot) * st->nslots);
    st->scratch = fg_alloc(&c.allocator, st->snap_cap);
    st->next_id = fg_alloc(&c.allocator, sizeof(fg_edge_id) * me);
    st->npending = fg_alloc(&c.allocator, me);
    bool ok = st->slots && st->scratch && st->next_id && st->npending;
    for (uint32_t i = 0; ok && i < st->nslots; i++) {
        slot *s = &st->slots[i];
        s->snap = fg_alloc(&c.allocator, st->snap_cap);
        s->in.nedges = fg_alloc(&c.allocator, sizeof(uint32_t) * me);
        s->in.edges = fg_alloc(&c.allocator, sizeof(captured_edge) * me * cap);
        s->in.nrequests = fg_alloc(&c.allocator, me);
        s->in.requests = fg_alloc(&c.allocator, sizeof(fg_pending_request) * me *
                                                    FG_PENDING_REQUESTS);
        s->in.contact = fg_alloc(&c.allocator, me);
        ok = s->snap && s->in.nedges && s->in.edges && s->in.nrequests && s->in.requests &&
             s->in.contact;
    }
    if (!ok) {
        fg_synctest_destroy(st);
        return fg_error_set(err, FG_ENOMEM, "sync test: out of memory (%u snapshots of %zu bytes)",
                            c.check + 1, fg_world_snapshot_capacity(w));
    }
    st->report.tick = -1;
    reset_window(st);
    *out = st;
    return FG_OK;
}

/* {====================================================================== input */

/* What the host pushed since the boundary: pending edges newer than the boundary's, requests
** after the boundary's, the contact reports and the animation reports. */
static void capture(fg_synctest *st, tick_input *in) {
    fg_world *w = st->w;
    uint32_t cap = st->buffer_capacity;
    in->nentities = fg_world_entity_count(w);
    for (uint32_t i = 0; i < in->nentities; i++) {
        const fg_buffer *b = fg_world_input_buffer(w, i);
        captured_edge *out = &in->edges[(size_t)i * cap];
        uint32_t n = 0;
        for (uint32_t j = 0; j < b->pending_count; j++) {
            const fg_edge *e = fg_buffer_pending_at(b, j);
            if (e->id < st->next_id[i]) continue;
            captured_edge *c = &out[n++];
            c->time_us = e->time_us;
            c->tick = e->tick;
            c->kind = e->kind;
            c->action = e->action;
            c->dir = e->dir;
            c->source = e->source;
            c->late = (e->flags & FG_EDGE_LATE) != 0;
        }
        in->nedges[i] = n;
        in->nrequests[i] = (uint8_t)fg_world_pending_capture(
            w, i, st->npending[i], &in->requests[(size_t)i * FG_PENDING_REQUESTS]);
        in->contact[i] = fg_world_contact_capture(w, i);
    }
    in->nhost = fg_world_host_events_capture(w, in->host);
}

/* Puts a tick's input back into the world at its boundary, as the host pushed it. */
static fg_status reinject(fg_synctest *st, const tick_input *in, fg_error *err) {
    fg_world *w = st->w;
    uint32_t cap = st->buffer_capacity;
    for (uint32_t i = 0; i < in->nentities && i < fg_world_entity_count(w); i++) {
        fg_buffer *b = fg_world_input_buffer(w, i);
        const captured_edge *edges = &in->edges[(size_t)i * cap];
        for (uint32_t j = 0; j < in->nedges[i]; j++) {
            const captured_edge *c = &edges[j];
            /* A late edge is pushed with a tick that already ran, so it is moved (and flagged)
            ** exactly as it was the first time. */
            fg_tick tick = c->late ? b->current_tick : c->tick;
            fg_status s = fg_buffer_push(b, (fg_edge_kind)c->kind, c->action, c->dir, c->time_us,
                                         tick, (fg_source)c->source, NULL, err);
            if (s != FG_OK) {
                fg_error_prefix(err, "sync test: re-pushing e%u's input for tick %lld", i + 1,
                                (long long)fg_world_tick(w));
                return s;
            }
        }
        fg_world_pending_put(w, i, &in->requests[(size_t)i * FG_PENDING_REQUESTS],
                             in->nrequests[i]);
        fg_world_contact_put(w, i, in->contact[i]);
    }
    fg_world_host_events_put(w, in->host, in->nhost);
    return FG_OK;
}

/* }====================================================================== */

/* {====================================================================== the check */

/* Restores without counting it as a host edit. */
static void restore_quiet(fg_synctest *st, const void *snap) {
    fg_world_restore_quiet(st->w, snap, st->snap_cap);
}

static fg_status mismatch(fg_synctest *st, fg_tick k, fg_tick t, uint32_t distance,
                          uint64_t expected, uint64_t got, fg_error *err) {
    fg_world *w = st->w;
    fg_synctest_report *r = &st->report;
    r->tick = k;
    r->checked_at = t;
    r->distance = distance;
    r->expected = expected;
    r->got = got;
    r->ndiffs = 0;
    /* The first run's state after k is the boundary saved before k + 1. */
    fg_world_save(w, st->scratch, st->snap_cap, NULL);
    slot *after = slot_of(st, k + 1);
    fg_status s = fg_world_diff(w, after->snap, st->snap_cap, st->scratch, st->snap_cap,
                                r->diffs, FG_SYNCTEST_MAX_DIFFS, &r->ndiffs, NULL);
    if (s != FG_OK) r->ndiffs = 0;
    /* The world goes on from the first run's state. */
    restore_quiet(st, slot_of(st, t + 1)->snap);
    char fields[FG_DIFF_LIST_MAX(FG_SYNCTEST_MAX_DIFFS)];
    fg_state_diff_list(fields, r->diffs,
                       r->ndiffs < FG_SYNCTEST_MAX_DIFFS ? r->ndiffs : FG_SYNCTEST_MAX_DIFFS);
    if (r->ndiffs == 0) snprintf(fields, sizeof fields, "no field differs in the snapshots");
    return fg_error_set(err, FG_EMISMATCH,
                        "sync test: tick %lld re-simulated differently (rolled back %u ticks at "
                        "tick %lld; hash %016llx, first run %016llx): %s",
                        (long long)k, distance, (long long)t, (unsigned long long)got,
                        (unsigned long long)expected, fields);
}

fg_status fg_synctest_advance(fg_synctest *st, fg_error *err) {
    fg_world *w = st->w;
    if (fg_world_edits(w, NULL) != st->edits || fg_world_tick(w) != st->next) {
        reset_window(st);
        st->stats.resets++;
    }
    fg_tick t = fg_world_tick(w);
    slot *cur = slot_of(st, t);
    capture(st, &cur->in);
    fg_status s = advance(st, false, err);
    if (s != FG_OK) return s;
    cur->hash = fg_world_hash(w);
    st->stats.ticks++;
    st->stats.compared++;
    /* The boundary after t, saved before the rollback so a failed check can go back to it. */
    mark_boundary(st);
    st->edits = fg_world_edits(w, NULL);

    fg_tick from = t - (fg_tick)st->check + 1;
    if (from < st->first) from = st->first;
    uint32_t distance = (uint32_t)(t - from + 1);
    restore_quiet(st, slot_of(st, from)->snap);
    st->stats.rollbacks++;
    for (fg_tick k = from; k <= t; k++) {
        slot *sk = slot_of(st, k);
        s = reinject(st, &sk->in, err);
        if (s == FG_OK) s = advance(st, true, err);
        if (s != FG_OK) {
            restore_quiet(st, slot_of(st, t + 1)->snap);
            return s;
        }
        st->stats.resimulated++;
        st->stats.compared++;
        uint64_t h = fg_world_hash(w);
        if (h != sk->hash) return mismatch(st, k, t, distance, sk->hash, h, err);
    }
    st->edits = fg_world_edits(w, NULL);
    return FG_OK;
}

/* }====================================================================== */

const fg_synctest_report *fg_synctest_last_report(const fg_synctest *st) { return &st->report; }

fg_synctest_stats fg_synctest_get_stats(const fg_synctest *st) { return st->stats; }

int fg_synctest_report_format(const fg_synctest_report *r, char *buf, size_t size) {
    if (r->tick < 0) return snprintf(buf, size, "sync test: every check passed");
    size_t len = 0;
    int n = snprintf(buf, size,
                     "sync test: tick %lld re-simulated differently (rolled back %u ticks at tick "
                     "%lld)\n  hash after the first run %016llx, after re-simulation %016llx\n",
                     (long long)r->tick, r->distance, (long long)r->checked_at,
                     (unsigned long long)r->expected, (unsigned long long)r->got);
    if (n < 0) return n;
    len = (size_t)n;
    uint32_t shown = r->ndiffs < FG_SYNCTEST_MAX_DIFFS ? r->ndiffs : FG_SYNCTEST_MAX_DIFFS;
    for (uint32_t i = 0; i < shown; i++) {
        char line[256];
        fg_state_diff_format(&r->diffs[i], line, sizeof line);
        n = snprintf(len < size ? buf + len : NULL, len < size ? size - len : 0, "  %s\n", line);
        if (n > 0) len += (size_t)n;
    }
    if (r->ndiffs > shown) {
        n = snprintf(len < size ? buf + len : NULL, len < size ? size - len : 0,
                     "  ... and %u more\n", r->ndiffs - shown);
        if (n > 0) len += (size_t)n;
    }
    if (r->ndiffs == 0) {
        n = snprintf(len < size ? buf + len : NULL, len < size ? size - len : 0,
                     "  no field differs in the snapshots: the difference is outside the world "
                     "(a value only the hash sees)\n");
        if (n > 0) len += (size_t)n;
    }
    return (int)len;
}
