/* SPDX-License-Identifier: MIT */
/*
** session.c: the rollback session. Each node runs the whole match; players exchange their input
** records, each node predicts what it has not received yet (the last input held), and re-runs
** from the last confirmed tick when new input arrives.
**
** Confirmation first, prediction after. A tick is confirmed once every player's record for it is
** here. Each frame that confirms new ticks restores the snapshot at the first unconfirmed tick,
** runs the newly confirmed ticks for good (the host's tick with again = false: presentation and
** recording see each of them exactly once, with the state right after it) and then the predicted
** ticks up to the present as speculation (again = true). So a frame costs its re-simulation depth
** whether or not a prediction was wrong, which is the worst case a frame must fit anyway, and no
** predicted event ever reaches presentation.
**
** A snapshot per confirmed tick is kept for the last few checkpoints: the rollback needs the one
** at the confirmed frontier, a desync report needs the one after the first divergent tick. The
** protocol itself (hello, input, desync details, snapshot chunks) is in docs/netplay.md; the
** state transfer that lets a node rejoin a match it lost is in session_rejoin.c.
*/
#include "session_internal.h"
#include "text.h"

#include <string.h>

/* {====================================================================== helpers */

/* Restores without counting it as a host edit: the session's own rollback. */
void fg_session_restore_quiet(fg_session *s, fg_tick t) {
    fg_world *w = s->w;
    uint64_t edits = w->edits;
    const char *what = w->edit_what;
    fg_world_restore(w, snap_at(s, t), s->snap_cap, NULL);
    w->edits = edits;
    w->edit_what = what;
}

static uint32_t local_player(const fg_session *s) { return s->cfg.local; }

static fg_status host_tick(fg_session *s, bool again, fg_error *err) {
    if (s->cfg.advance) return s->cfg.advance(s->cfg.ud, s->w, again, err);
    return fg_world_advance(s->w, err);
}

fg_status fg_session_stop(fg_session *s, fg_session_state st, fg_status code, fg_error *err,
                          const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fg_error_clear(&s->failure);
    fg_error_setv(&s->failure, code, fmt, ap);
    va_end(ap);
    s->state = st;
    /* The world stays at the last confirmed tick, what a recording holds. */
    if (fg_world_tick(s->w) != s->confirmed && s->snap_tick[s->confirmed % s->nsnaps] ==
                                                   s->confirmed)
        fg_session_restore_quiet(s, s->confirmed);
    fg_error_copy(err, &s->failure);
    return code;
}

/* }====================================================================== */

/* {====================================================================== creation */

fg_session_config fg_session_config_default(void) {
    fg_session_config c;
    memset(&c, 0, sizeof c);
    c.nplayers = 2;
    c.input_delay = 2;
    c.max_prediction = 8;
    c.hash_every = 30;
    c.interrupt_us = 500000;
    c.disconnect_us = 5 * (int64_t)FG_US_PER_S;
    c.allocator = fg_allocator_default();
    return c;
}

const char *fg_session_state_name(fg_session_state s) {
    switch (s) {
    case FG_SESSION_SYNCING: return "syncing";
    case FG_SESSION_RUNNING: return "running";
    case FG_SESSION_DESYNCED: return "desynced";
    case FG_SESSION_DISCONNECTED: return "disconnected";
    case FG_SESSION_FINISHED: return "finished";
    case FG_SESSION_WAITING: return "waiting";
    case FG_SESSION_REJOINING: return "rejoining";
    }
    return "?";
}

static fg_status check_config(const fg_world *w, const fg_session_config *c, fg_error *err) {
    if (c->nplayers < 1 || c->nplayers > FG_SESSION_MAX_PLAYERS)
        return fg_error_set(err, FG_EINVAL, "session: players %u, expected 1..%d", c->nplayers,
                            FG_SESSION_MAX_PLAYERS);
    if (c->nspectators > FG_SESSION_MAX_SPECTATORS)
        return fg_error_set(err, FG_EINVAL, "session: spectators %u, expected 0..%d",
                            c->nspectators, FG_SESSION_MAX_SPECTATORS);
    if (c->nplayers + c->nspectators < 2)
        return fg_error_set(err, FG_EINVAL, "session: one node alone; a match needs a peer");
    if (c->local >= c->nplayers + c->nspectators)
        return fg_error_set(err, FG_EINVAL, "session: local node %u, expected 0..%u", c->local,
                            c->nplayers + c->nspectators - 1);
    if (c->input_delay > FG_SESSION_MAX_DELAY)
        return fg_error_set(err, FG_EINVAL, "session: input delay %u ticks, expected 0..%d",
                            c->input_delay, FG_SESSION_MAX_DELAY);
    if (c->max_prediction < 1 || c->max_prediction > FG_SESSION_MAX_PREDICTION)
        return fg_error_set(err, FG_EINVAL, "session: max prediction %u ticks, expected 1..%d",
                            c->max_prediction, FG_SESSION_MAX_PREDICTION);
    if (c->hash_every < 1 || c->hash_every > FG_SESSION_MAX_HASH_EVERY)
        return fg_error_set(err, FG_EINVAL, "session: hash every %u ticks, expected 1..%d",
                            c->hash_every, FG_SESSION_MAX_HASH_EVERY);
    if (c->interrupt_us < 1000 || c->disconnect_us < c->interrupt_us)
        return fg_error_set(err, FG_EINVAL, "session: interrupt after %lld us, disconnect after "
                            "%lld us: expected at least 1000 us, and the disconnect no sooner",
                            (long long)c->interrupt_us, (long long)c->disconnect_us);
    if (c->rejoin_us < 0 || c->rejoin_us > FG_SESSION_MAX_REJOIN_US)
        return fg_error_set(err, FG_EINVAL, "session: rejoin wait %lld us, expected 0..%lld "
                            "(0: a disconnect ends the match)", (long long)c->rejoin_us,
                            (long long)FG_SESSION_MAX_REJOIN_US);
    if (c->ticks < 0)
        return fg_error_set(err, FG_EINVAL, "session: match length %lld ticks, expected 0 "
                            "(endless) or more", (long long)c->ticks);
    if (!c->transport.send || !c->transport.recv)
        return fg_error_set(err, FG_EINVAL, "session: the transport needs send and recv");
    if (fg_world_entity_count(w) < c->nplayers)
        return fg_error_set(err, FG_EINVAL, "session: %u players but the world has %u entities "
                            "(player i plays entity i + 1)", c->nplayers,
                            fg_world_entity_count(w));
    if (fg_world_tick(w) != 0)
        return fg_error_set(err, FG_ESTATE, "session: the world is at tick %lld; a match starts "
                            "at tick 0", (long long)fg_world_tick(w));
    return FG_OK;
}

void fg_session_destroy(fg_session *s) {
    if (!s) return;
    fg_allocator a = s->cfg.allocator;
    fg_error_clear(&s->failure);
    fg_free(&a, s->snaps, s->snap_cap * s->nsnaps);
    fg_free(&a, s->theirs, s->snap_cap);
    fg_free(&a, s->chunk_got, s->nchunks_max);
    fg_session_rejoin_free(s);
    fg_free(&a, s, sizeof *s);
}

fg_status fg_session_create(fg_world *w, const fg_session_config *cfg, fg_session **out,
                            fg_error *err) {
    fg_session_config c = cfg ? *cfg : fg_session_config_default();
    if (!c.allocator.realloc) c.allocator = fg_allocator_default();
    if (!w || !out) return fg_error_set(err, FG_EINVAL, "session: world and out are required");
    *out = NULL;
    fg_status st = check_config(w, &c, err);
    if (st != FG_OK) return st;
    fg_session *s = fg_alloc(&c.allocator, sizeof *s);
    if (!s) return fg_error_set(err, FG_ENOMEM, "session: out of memory");
    s->w = w;
    s->cfg = c;
    s->nnodes = c.nplayers + c.nspectators;
    s->nbuttons = w->names.count - FG_IN_FIRST_BUTTON;
    s->spectator = c.local >= c.nplayers;
    s->delay = c.input_delay;
    s->snap_cap = fg_world_snapshot_capacity(w);
    /* Room for the confirmed frontier, two checkpoints' worth of ticks and the predictions. */
    s->nsnaps = 2 * c.hash_every + c.max_prediction + FG_SESSION_MAX_DELAY + 16;
    s->nchunks_max = (uint32_t)((s->snap_cap + CHUNK - 1) / CHUNK);
    s->snaps = fg_alloc(&c.allocator, s->snap_cap * s->nsnaps);
    s->theirs = fg_alloc(&c.allocator, s->snap_cap);
    s->chunk_got = fg_alloc(&c.allocator, s->nchunks_max);
    s->xfer.serving = -1;
    bool rejoins = c.rejoin || c.rejoin_us > 0;
    if (!s->snaps || !s->theirs || !s->chunk_got ||
        (rejoins && fg_session_rejoin_alloc(s) != FG_OK)) {
        size_t need = s->snap_cap * s->nsnaps + (rejoins ? fg_session_rejoin_capacity(s) : 0);
        fg_session_destroy(s);
        return fg_error_set(err, FG_ENOMEM, "session: out of memory (%zu bytes of snapshots%s)",
                            need, rejoins ? " and for the state of a rejoin" : "");
    }
    for (uint32_t i = 0; i < MAX_SNAPS; i++) s->snap_tick[i] = -1;
    fg_world_save(w, snap_at(s, 0), s->snap_cap, NULL);
    s->snap_tick[0] = 0;
    for (uint32_t i = 0; i < FG_SESSION_MAX_NODES; i++) {
        peer *p = &s->peers[i];
        p->rtt = -1;
        p->latest_check = -1;
        for (uint32_t k = 0; k < NCHECKS; k++) p->checks[k].tick = -1;
    }
    fg_input_record_start(&s->building, NULL);
    /* Every node builds the same world: the match id says which, rules included (a ruleset that
    ** starts the same state can still play differently). */
    s->hash0 = fg_world_hash(w);
    s->rules_digest = fg_session_rejoin_digest(w);
    fg_hasher h = fg_hasher_begin(0x6e6574706c6179ull);
    fg_hash_u64(&h, s->hash0);
    fg_hash_u64(&h, c.nplayers | (uint64_t)c.nspectators << 8 | (uint64_t)c.hash_every << 16);
    fg_hash_u64(&h, w->tick_rate);
    fg_hash_u64(&h, s->rules_digest);
    s->game_id = h.h;
    s->edits = w->edits;
    s->disconnected = -1;
    s->report.detected_at = -1;
    s->report.tick = -1;
    s->theirs_tick = -1;
    s->stats.input_delay = s->delay;
    s->stats.rtt_us = -1;
    s->stats.rejoined_at = -1;
    if (c.rejoin) {
        s->state = FG_SESSION_REJOINING;
        s->xfer.since = -1; /* from the first frame */
    }
    *out = s;
    return FG_OK;
}

/* }====================================================================== */

/* {====================================================================== local input */

fg_status fg_session_input(fg_session *s, fg_edge_kind kind, int value, fg_error *err) {
    if (s->spectator) return fg_error_set(err, FG_ESTATE, "session: a spectator has no input");
    /* The record takes any button id; the world only its own. */
    if ((kind == FG_EDGE_PRESS || kind == FG_EDGE_RELEASE) &&
        (value < FG_IN_FIRST_BUTTON || (uint32_t)value >= FG_IN_FIRST_BUTTON + s->nbuttons))
        return fg_error_set(err, FG_EINVAL, "session: button id %d is not declared (ids %d..%u)",
                            value, FG_IN_FIRST_BUTTON, FG_IN_FIRST_BUTTON + s->nbuttons - 1);
    return fg_input_record_add(&s->building, kind, value, err);
}

fg_status fg_session_input_record(fg_session *s, const fg_input_record *r, fg_error *err) {
    fg_input_record tmp = s->building;
    for (uint32_t i = 0; i < r->nedges; i++) {
        unsigned k = r->edges[i] >> 6, v = r->edges[i] & 0x3Fu;
        fg_status st = fg_session_input(s, (fg_edge_kind)k, (int)v, err);
        if (st != FG_OK) {
            s->building = tmp;
            return st;
        }
    }
    /* An overflowed record (or one whose edges started elsewhere) ends where it says. */
    if (r->overflow && (s->building.held != r->held || s->building.dir != r->dir)) {
        if (r->held & ~((((uint32_t)1 << s->nbuttons) - 1) << FG_IN_FIRST_BUTTON) || r->dir < 1 ||
            r->dir > 9) {
            s->building = tmp;
            return fg_error_set(err, FG_EINVAL, "session: the record ends in buttons 0x%x, "
                                "direction %u, not this world's", r->held, r->dir);
        }
        s->building.held = r->held;
        s->building.dir = r->dir;
        s->building.overflow = 1;
    }
    return FG_OK;
}

fg_tick fg_session_input_tick(const fg_session *s) {
    if (s->spectator) return -1;
    fg_tick next = s->players[local_player(s)].received, target = s->tick + s->delay;
    if (s->catchup && next < target) return next; /* a rejoined node fills its ticks first */
    return next > target ? next : target;
}

fg_status fg_session_set_delay(fg_session *s, uint32_t delay, fg_error *err) {
    if (delay > FG_SESSION_MAX_DELAY)
        return fg_error_set(err, FG_EINVAL, "session: input delay %u ticks, expected 0..%d",
                            delay, FG_SESSION_MAX_DELAY);
    s->delay = delay;
    s->stats.input_delay = delay;
    return FG_OK;
}

/* Gives the local input its tick: the ticks up to tick + delay get a record. Skipped ticks (the
** delay grew) repeat the held input; when the delay shrank, the input waits for the next tick
** without a record. */
static void assign_local(fg_session *s, fg_tick target) {
    player_in *me = &s->players[local_player(s)];
    while (me->received < target) {
        const fg_input_record *prev = me->received ? rec_at(s, local_player(s), me->received - 1)
                                                   : NULL;
        fg_input_record_start(rec_at(s, local_player(s), me->received), prev);
        me->received++;
    }
    if (me->received == target) {
        fg_input_record *r = rec_at(s, local_player(s), target);
        *r = s->building;
        me->received++;
        fg_input_record_start(&s->building, r);
    }
}

/* }====================================================================== */

/* {====================================================================== sending */

uint8_t *fg_session_header(fg_session *s, unsigned type) {
    uint8_t *p = s->out;
    put8(&p, 'F');
    put8(&p, 'G');
    put8(&p, WIRE_VERSION);
    put8(&p, type);
    put8(&p, s->cfg.local);
    return p;
}

/* Every datagram ends with a CRC-32 of the rest: damage in transit is refused, not decoded. */
void fg_session_send(fg_session *s, uint32_t node, uint8_t *end) {
    uint32_t crc = fg_crc32(0, s->out, (size_t)(end - s->out));
    put32(&end, crc);
    size_t len = (size_t)(end - s->out);
    fg_error e;
    fg_error_blank(&e);
    if (s->cfg.transport.send(s->cfg.transport.ud, node, s->out, len, &e) != FG_OK) {
        fg_error_clear(&e);
        return;
    }
    s->stats.bytes_sent += len;
    s->stats.datagrams_sent++;
}

static void send_hello(fg_session *s, uint32_t node) {
    uint8_t *p = fg_session_header(s, MSG_HELLO);
    put64(&p, s->game_id);
    put8(&p, s->peers[node].hello);
    fg_session_send(s, node, p);
}

/* The first tick whose hash this node knows: a node that rejoined knows the hash after the tick
** before its first one (the state it was sent), and none before. */
static fg_tick hash_floor(const fg_session *s) { return s->origin > 0 ? s->origin - 1 : 0; }

/* The newest checkpoint confirmed here: the tick after which it falls, or -1. */
static fg_tick latest_checkpoint(const fg_session *s) {
    fg_tick n = s->cfg.hash_every;
    fg_tick last = s->confirmed / n * n - 1;
    return last < hash_floor(s) ? -1 : last;
}

static int32_t ahead_of(const fg_session *s, const peer *p) {
    int64_t rtt_ticks = p->rtt > 0 ? p->rtt * s->w->tick_rate / FG_US_PER_S : 0;
    int64_t a = s->tick - (p->their_tick + rtt_ticks / 2);
    return (int32_t)(a < -30000 ? -30000 : a > 30000 ? 30000 : a);
}

static void send_input(fg_session *s, uint32_t node) {
    peer *p = &s->peers[node];
    uint8_t *q = fg_session_header(s, MSG_INPUT);
    put64(&q, (uint64_t)s->now);
    put64(&q, p->echo_at ? (uint64_t)(p->echo_stamp + (s->now - p->echo_at)) : 0);
    put32(&q, (uint32_t)s->tick);
    int32_t ahead = ahead_of(s, p);
    put16(&q, (uint16_t)(int16_t)(ahead < -30000 ? -30000 : ahead > 30000 ? 30000 : ahead));
    put32(&q, is_player(s, node) ? (uint32_t)s->players[node].received : 0);
    fg_tick cp = s->spectator ? -1 : latest_checkpoint(s);
    put32(&q, (uint32_t)(cp + 1));
    put64(&q, cp >= 0 ? s->hashes[cp & (RING - 1)] : 0);
    put32(&q, s->rejoined_id);
    if (s->spectator) {
        put32(&q, 0);
        put8(&q, 0);
        put32(&q, 0);
        fg_session_send(s, node, q);
        return;
    }
    uint32_t me = local_player(s);
    fg_tick have = s->players[me].received;
    fg_tick first = p->acked;
    if (first < have - MAX_BATCH) first = have - MAX_BATCH;
    if (first < s->rec_floor) first = s->rec_floor; /* a rejoined node holds none before */
    put32(&q, (uint32_t)first);
    uint8_t *count_at = q;
    put8(&q, 0);
    fg_input_record base;
    if (first > 0) base = *rec_at(s, me, first - 1);
    else fg_input_record_start(&base, NULL);
    put32(&q, pack_state(&base));
    unsigned n = 0;
    for (fg_tick t = first; t < have; t++) {
        if ((size_t)(q - s->out) + FG_INPUT_RECORD_WIRE_MAX + 4 > FG_SESSION_DATAGRAM_MAX) break;
        q += fg_input_record_encode(rec_at(s, me, t), q);
        n++;
    }
    *count_at = (uint8_t)n;
    fg_session_send(s, node, q);
}

/* }====================================================================== */

/* {====================================================================== desync */

static void begin_desync(fg_session *s, uint32_t node, fg_tick at, uint64_t mine,
                         uint64_t theirs) {
    if (s->state == FG_SESSION_DESYNCED) return;
    s->state = FG_SESSION_DESYNCED;
    fg_session_report *r = &s->report;
    r->detected_at = at;
    r->peer = node;
    r->local_hash = mine;
    r->peer_hash = theirs;
    r->tick = -1;
    fg_error_clear(&s->failure);
    fg_error_set(&s->failure, FG_EMISMATCH, "desync with %s: the state hash after tick %lld "
                 "is %016llx here, %016llx there", name_of(s, node).s, (long long)at, (unsigned long long)mine,
                 (unsigned long long)theirs);
    if (fg_world_tick(s->w) != s->confirmed) fg_session_restore_quiet(s, s->confirmed);
}

/* The checkpoint's window: the ticks whose hashes go with a desync's details. */
static fg_tick window_from(const fg_session *s, fg_tick at) {
    fg_tick from = at - (fg_tick)s->cfg.hash_every + 1;
    return from < hash_floor(s) ? hash_floor(s) : from;
}

static void send_detail(fg_session *s) {
    fg_session_report *r = &s->report;
    fg_tick from = window_from(s, r->detected_at);
    uint8_t *q = fg_session_header(s, MSG_DETAIL);
    put32(&q, (uint32_t)r->detected_at);
    put32(&q, (uint32_t)from);
    put16(&q, (unsigned)(r->detected_at - from + 1));
    for (fg_tick t = from; t <= r->detected_at; t++) put64(&q, s->hashes[t & (RING - 1)]);
    fg_session_send(s, r->peer, q);
}

static void send_snapshot(fg_session *s) {
    fg_session_report *r = &s->report;
    if (r->tick < 0 || s->snap_tick[(r->tick + 1) % s->nsnaps] != r->tick + 1) return;
    const unsigned char *snap = snap_at(s, r->tick + 1);
    size_t size = fg_world_snapshot_size(s->w);
    uint32_t n = (uint32_t)((size + CHUNK - 1) / CHUNK);
    for (uint32_t i = 0; i < n; i++) {
        uint8_t *q = fg_session_header(s, MSG_SNAP);
        put32(&q, (uint32_t)r->tick);
        put32(&q, (uint32_t)size);
        put16(&q, i);
        size_t off = (size_t)i * CHUNK, len = size - off < CHUNK ? size - off : CHUNK;
        memcpy(q, snap + off, len);
        fg_session_send(s, r->peer, q + len);
    }
}

/* Both hash lists are here: the first tick they differ at. */
static void find_first(fg_session *s) {
    fg_session_report *r = &s->report;
    peer *p = &s->peers[r->peer];
    if (r->tick >= 0 || !p->detail) return;
    for (uint32_t i = 0; i < p->dn; i++) {
        fg_tick t = p->dfrom + i;
        if (t > r->detected_at || t >= s->confirmed || t < s->confirmed - RING + 1 ||
            t < hash_floor(s))
            continue;
        if (s->hashes[t & (RING - 1)] != p->dhash[i]) {
            r->tick = t;
            r->local_hash = s->hashes[t & (RING - 1)];
            r->peer_hash = p->dhash[i];
            break;
        }
    }
    if (r->tick < 0) r->tick = r->detected_at;
    memset(s->chunk_got, 0, s->nchunks_max);
    s->nchunks_got = 0;
    s->theirs_tick = r->tick;
}

static void compare_snapshots(fg_session *s) {
    fg_session_report *r = &s->report;
    if (r->fields_known || r->tick < 0 || s->snap_tick[(r->tick + 1) % s->nsnaps] != r->tick + 1)
        return;
    uint32_t n = (uint32_t)((s->theirs_size + CHUNK - 1) / CHUNK);
    if (!s->theirs_size || s->nchunks_got < n) return;
    fg_status st = fg_world_diff(s->w, snap_at(s, r->tick + 1), fg_world_snapshot_size(s->w),
                                 s->theirs, s->theirs_size, r->diffs, FG_SESSION_MAX_DIFFS,
                                 &r->ndiffs, NULL);
    if (st != FG_OK) r->ndiffs = 0;
    r->fields_known = true;
}

/* }====================================================================== */

/* {====================================================================== receiving */

static void on_hello(fg_session *s, uint32_t node, reader *r) {
    uint64_t id = get(r, 8);
    unsigned got_ours = (unsigned)get(r, 1);
    if (r->bad) return;
    if (id != s->game_id) {
        fg_session_stop(s, FG_SESSION_DISCONNECTED, FG_EMISMATCH, NULL,
             "session: %s plays a different match (match id %016llx, ours %016llx): the "
             "ruleset, the seed, the setup, the player count or hash_every differ",
             name_of(s, node).s,
             (unsigned long long)id, (unsigned long long)s->game_id);
        return;
    }
    s->peers[node].hello = true;
    if (!got_ours && s->state == FG_SESSION_RUNNING) send_hello(s, node);
}

static void on_checks(fg_session *s, uint32_t node, fg_tick cp, uint64_t hash) {
    peer *p = &s->peers[node];
    if (cp < 0 || cp <= p->latest_check || (cp + 1) % s->cfg.hash_every) return;
    p->latest_check = cp;
    check *c = &p->checks[(cp / s->cfg.hash_every) % NCHECKS];
    c->tick = cp;
    c->hash = hash;
}

static void on_input(fg_session *s, uint32_t node, reader *r) {
    peer *p = &s->peers[node];
    int64_t stamp = (int64_t)get(r, 8), echo = (int64_t)get(r, 8);
    fg_tick their_tick = (fg_tick)get(r, 4);
    int32_t ahead = (int16_t)get(r, 2);
    fg_tick ack = (fg_tick)get(r, 4);
    fg_tick cp = (fg_tick)get(r, 4) - 1;
    uint64_t hash = get(r, 8);
    uint32_t incarnation = (uint32_t)get(r, 4);
    fg_tick first = (fg_tick)get(r, 4);
    unsigned n = (unsigned)get(r, 1);
    uint32_t base = (uint32_t)get(r, 4);
    if (r->bad) {
        s->stats.rejected++;
        return;
    }
    if (p->rejoining) {
        /* Late input of the self it replaces says nothing (its records are the old ones). */
        if (incarnation == p->stale) return;
        fg_session_rejoin_back(s, node);
    }
    p->incarnation = incarnation;
    p->hello = true; /* it runs: it had our hello */
    if (echo > 0 && echo <= s->now) {
        int64_t sample = s->now - echo;
        if (sample > 60 * (int64_t)FG_US_PER_S) sample = 60 * (int64_t)FG_US_PER_S;
        p->rtt = p->rtt < 0 ? sample : (7 * p->rtt + sample) / 8;
    }
    if (stamp >= p->echo_stamp && stamp < ((int64_t)1 << 62)) {
        p->echo_stamp = stamp;
        p->echo_at = s->now ? s->now : 1;
    }
    /* A peer cannot run further ahead than its prediction window allows past our input. */
    fg_tick plausible = s->tick + FG_SESSION_MAX_PREDICTION + FG_SESSION_MAX_DELAY + 1;
    if (their_tick >= p->their_tick && their_tick <= plausible) {
        p->their_tick = their_tick;
        p->their_ahead = ahead;
    }
    if (!s->spectator && ack > p->acked && ack <= s->players[local_player(s)].received)
        p->acked = ack;
    if (is_player(s, node)) on_checks(s, node, cp, hash);
    if (!is_player(s, node) || n == 0) return;
    player_in *pl = &s->players[node];
    fg_input_record prev;
    unpack_state(base, &prev);
    if (first > 0 && first <= pl->received && first - 1 >= pl->received - RING + 1 &&
        first >= s->rec_floor && pack_state(rec_at(s, node, first - 1)) != base) {
        s->stats.rejected++;
        return;
    }
    for (unsigned i = 0; i < n; i++) {
        fg_tick t = first + i;
        fg_input_record rec;
        size_t used = 0;
        fg_error e;
        fg_error_blank(&e);
        if (fg_input_record_decode(r->p, (size_t)(r->end - r->p), &used, &prev, s->nbuttons,
                                   &rec, &e) != FG_OK) {
            fg_error_clear(&e);
            s->stats.rejected++;
            return;
        }
        r->p += used;
        prev = rec;
        if (t < pl->received) continue;
        if (t > pl->received || t >= s->confirmed + RING / 2) return; /* a gap, or too far */
        *rec_at(s, node, t) = rec;
        pl->received++;
    }
}

static void on_detail(fg_session *s, uint32_t node, reader *r) {
    fg_tick at = (fg_tick)get(r, 4), from = (fg_tick)get(r, 4);
    unsigned n = (unsigned)get(r, 2);
    if (r->bad || n > FG_SESSION_MAX_HASH_EVERY || from > at) return;
    peer *p = &s->peers[node];
    for (unsigned i = 0; i < n; i++) p->dhash[i] = get(r, 8);
    if (r->bad) return;
    p->dfrom = from;
    p->dn = n;
    p->detail = true;
    if (s->state != FG_SESSION_DESYNCED) {
        uint64_t mine = at < s->confirmed ? s->hashes[at & (RING - 1)] : 0;
        uint64_t theirs = at >= from && at - from < n ? p->dhash[at - from] : 0;
        begin_desync(s, node, at, mine, theirs);
    }
    if (node == s->report.peer) find_first(s);
}

static void on_snap(fg_session *s, uint32_t node, reader *r) {
    fg_tick tick = (fg_tick)get(r, 4);
    size_t size = (size_t)get(r, 4);
    uint32_t i = (uint32_t)get(r, 2);
    if (r->bad || node != s->report.peer || tick != s->theirs_tick || size > s->snap_cap)
        return;
    uint32_t n = (uint32_t)((size + CHUNK - 1) / CHUNK);
    size_t off = (size_t)i * CHUNK, len = size - off < CHUNK ? size - off : CHUNK;
    if (i >= n || (size_t)(r->end - r->p) != len) return;
    if (s->theirs_size != size) {
        memset(s->chunk_got, 0, s->nchunks_max);
        s->nchunks_got = 0;
        s->theirs_size = size;
    }
    if (s->chunk_got[i]) return;
    memcpy(s->theirs + off, r->p, len);
    s->chunk_got[i] = 1;
    s->nchunks_got++;
    compare_snapshots(s);
}

static fg_status poll(fg_session *s, fg_error *err) {
    for (;;) {
        size_t len = 0;
        uint32_t node = 0;
        fg_status st = s->cfg.transport.recv(s->cfg.transport.ud, &node, s->in, sizeof s->in,
                                             &len, err);
        if (st != FG_OK) return st;
        if (len == 0) return FG_OK;
        s->stats.datagrams_received++;
        s->stats.bytes_received += len;
        uint32_t crc = 0;
        if (len > 4)
            crc = (uint32_t)s->in[len - 4] | (uint32_t)s->in[len - 3] << 8 |
                  (uint32_t)s->in[len - 2] << 16 | (uint32_t)s->in[len - 1] << 24;
        if (len <= 4 || crc != fg_crc32(0, s->in, len - 4)) {
            s->stats.rejected++;
            continue;
        }
        reader r = {s->in, s->in + len - 4, false};
        unsigned magic = (unsigned)get(&r, 2), version = (unsigned)get(&r, 1);
        unsigned type = (unsigned)get(&r, 1), from = (unsigned)get(&r, 1);
        if (r.bad || magic != ('F' | 'G' << 8) || version != WIRE_VERSION || from != node ||
            node >= s->nnodes || node == s->cfg.local) {
            s->stats.rejected++;
            continue;
        }
        peer *p = &s->peers[node];
        int64_t heard = p->last_recv;
        p->seen = true;
        p->last_recv = s->now;
        if (s->state == FG_SESSION_REJOINING && type != MSG_OFFER && type != MSG_STATE)
            continue; /* the match's messages wait until this node has its state */
        switch (type) {
        case MSG_HELLO: on_hello(s, node, &r); break;
        case MSG_INPUT: on_input(s, node, &r); break;
        case MSG_DETAIL: on_detail(s, node, &r); break;
        case MSG_SNAP: on_snap(s, node, &r); break;
        case MSG_JOIN:
            if (!fg_session_rejoin_on_join(s, node, &r)) p->last_recv = heard;
            break;
        case MSG_OFFER: fg_session_rejoin_on_offer(s, node, &r); break;
        case MSG_STATE: fg_session_rejoin_on_state(s, node, &r); break;
        default: s->stats.rejected++;
        }
        if (s->state == FG_SESSION_DISCONNECTED) return FG_OK;
    }
}

/* }====================================================================== */

/* {====================================================================== simulation */

static fg_status push_inputs(fg_session *s, fg_tick t, fg_error *err) {
    for (uint32_t i = 0; i < s->cfg.nplayers; i++) {
        const player_in *pl = &s->players[i];
        fg_input_record pred;
        const fg_input_record *r;
        if (t < pl->received) {
            r = rec_at(s, i, t);
        } else {
            fg_input_record_start(&pred, pl->received ? rec_at(s, i, pl->received - 1) : NULL);
            r = &pred;
        }
        fg_status st = fg_input_record_push(r, s->w, i + 1, t, err);
        if (st != FG_OK) {
            fg_error_prefix(err, "session: player %u's input for tick %lld", i + 1,
                            (long long)t);
            return st;
        }
    }
    return FG_OK;
}

static void compare_checks(fg_session *s) {
    for (uint32_t n = 0; n < s->cfg.nplayers; n++) {
        if (n == s->cfg.local) continue;
        peer *p = &s->peers[n];
        for (uint32_t k = 0; k < NCHECKS; k++) {
            check *c = &p->checks[k];
            if (c->tick < 0 || c->tick >= s->confirmed) continue;
            fg_tick t = c->tick;
            c->tick = -1;
            if (t < s->confirmed - RING + 1 || t < hash_floor(s)) continue;
            s->stats.hashes_compared++;
            uint64_t mine = s->hashes[t & (RING - 1)];
            if (mine != c->hash) {
                begin_desync(s, n, t, mine, c->hash);
                return;
            }
        }
    }
}

/* How far confirmation may go: the snapshots after the oldest checkpoint a peer has not
** answered yet must stay in the ring until its hash arrives. */
static fg_tick confirm_limit(const fg_session *s) {
    fg_tick limit = s->tick;
    for (uint32_t n = 0; n < s->cfg.nplayers; n++) {
        if (n == s->cfg.local) continue;
        fg_tick l = s->peers[n].latest_check + (fg_tick)s->nsnaps - 2;
        if (l < limit) limit = l;
    }
    return limit;
}

/* The ticks that can be confirmed now: every player's record is here (and the snapshot ring
** has room). */
static fg_tick frontier(const fg_session *s) {
    fg_tick ready = s->tick;
    for (uint32_t i = 0; i < s->cfg.nplayers; i++)
        if (s->players[i].received < ready) ready = s->players[i].received;
    fg_tick limit = confirm_limit(s);
    return ready < limit ? ready : limit;
}

static fg_status simulate(fg_session *s, fg_error *err) {
    fg_world *w = s->w;
    fg_tick ready = frontier(s);
    fg_tick at = fg_world_tick(w);
    compare_checks(s); /* hashes that arrived for ticks confirmed already */
    if (s->state != FG_SESSION_RUNNING) return FG_OK;
    if (ready > s->confirmed) {
        if (at != s->confirmed) {
            fg_session_restore_quiet(s, s->confirmed);
            uint32_t depth = (uint32_t)(at - s->confirmed);
            s->stats.rollbacks++;
            s->stats.resimulated += depth;
            if (depth > s->stats.deepest) s->stats.deepest = depth;
        }
        for (fg_tick t = s->confirmed; t < ready; t++) {
            fg_status st = push_inputs(s, t, err);
            if (st == FG_OK) st = host_tick(s, false, err);
            if (st != FG_OK) return st;
            s->hashes[t & (RING - 1)] = fg_world_hash(w);
            fg_world_save(w, snap_at(s, t + 1), s->snap_cap, NULL);
            s->snap_tick[(t + 1) % s->nsnaps] = t + 1;
            s->confirmed = t + 1;
            /* Compare at each checkpoint, before its window leaves the snapshot ring. */
            if ((t + 1) % s->cfg.hash_every == 0) compare_checks(s);
            if (s->state != FG_SESSION_RUNNING) return FG_OK;
        }
    }
    for (fg_tick t = fg_world_tick(w); t < s->tick; t++) {
        fg_status st = push_inputs(s, t, err);
        if (st == FG_OK) st = host_tick(s, true, err);
        if (st != FG_OK) return st;
    }
    return FG_OK;
}

/* Time sync: the side that runs ahead of its peers waits a frame now and then, so both see the
** other's input at the same distance. The advantage is averaged over the last 16 frames. */
static bool should_wait(fg_session *s) {
    int32_t worst = INT32_MIN;
    for (uint32_t n = 0; n < s->cfg.nplayers; n++) {
        if (n == s->cfg.local) continue;
        const peer *p = &s->peers[n];
        int32_t d = ahead_of(s, p) - p->their_ahead;
        if (d > 1000) d = 1000;
        if (d < -1000) d = -1000;
        if (d > worst) worst = d;
    }
    if (worst == INT32_MIN) return false;
    s->stats.advantage = worst / 2;
    s->ahead_hist[s->nahead++ % 16] = worst;
    s->since_wait++;
    if (s->nahead < 16 || s->since_wait < 16) return false;
    int32_t sum = 0;
    for (int i = 0; i < 16; i++) sum += s->ahead_hist[i];
    if (sum < 2 * 2 * 16) return false; /* ahead by 2 ticks or more: half of that is ours */
    s->since_wait = 0;
    return true;
}

/* A player silent for disconnect_us (for a spectator: anyone) ends the match, unless this node
** waits rejoin_us more for it: the match then pauses at the last confirmed tick until every such
** peer is back, and so it does while a peer that asked for the state of the match has not run
** again (session_rejoin.c). */
static fg_status check_peers(fg_session *s, fg_error *err) {
    s->stats.interrupted = 0;
    s->stats.waiting = 0;
    for (uint32_t n = 0; n < s->nnodes; n++) {
        if (n == s->cfg.local) continue;
        peer *p = &s->peers[n];
        int64_t silent = s->now - p->last_recv;
        p->interrupted = silent >= s->cfg.interrupt_us;
        if (p->interrupted) s->stats.interrupted++;
        if (!p->rejoining && (silent < s->cfg.disconnect_us || !(is_player(s, n) || s->spectator)))
            continue;
        if (silent < s->cfg.disconnect_us + s->cfg.rejoin_us) {
            s->stats.waiting++;
            continue;
        }
        s->disconnected = (int)n;
        char more[80] = "";
        if (s->cfg.rejoin_us > 0)
            snprintf(more, sizeof more, "; the match waited %lld ms more for it to rejoin",
                     (long long)(s->cfg.rejoin_us / 1000));
        return fg_session_stop(s, FG_SESSION_DISCONNECTED, FG_ESTATE, err,
                    "session: %s disconnected: nothing received for %lld ms (at tick "
                    "%lld, %lld confirmed)%s", name_of(s, n).s, (long long)(silent / 1000),
                    (long long)s->tick, (long long)s->confirmed, more);
    }
    if (s->stats.waiting && s->state == FG_SESSION_RUNNING) {
        /* Paused: the world shows the last confirmed tick, not a prediction that may not hold. */
        s->state = FG_SESSION_WAITING;
        if (fg_world_tick(s->w) != s->confirmed) fg_session_restore_quiet(s, s->confirmed);
    } else if (!s->stats.waiting && s->state == FG_SESSION_WAITING) {
        s->state = FG_SESSION_RUNNING;
    }
    return FG_OK;
}

static void update_stats(fg_session *s) {
    int64_t rtt = -1;
    for (uint32_t n = 0; n < s->nnodes; n++)
        if (n != s->cfg.local && s->peers[n].rtt > rtt) rtt = s->peers[n].rtt;
    s->stats.rtt_us = rtt;
    s->stats.tick = s->tick;
    s->stats.confirmed = s->confirmed;
}

static fg_status desynced(fg_session *s, fg_error *err) {
    send_detail(s);
    find_first(s);
    send_snapshot(s);
    compare_snapshots(s);
    if (s->report.tick < 0) fg_error_copy(err, &s->failure);
    else
        fg_error_set(err, FG_EMISMATCH, "desync with %s: first divergent tick %lld (hash "
                     "%016llx here, %016llx there; detected at the checkpoint after tick %lld)%s",
                     name_of(s, s->report.peer).s, (long long)s->report.tick,
                     (unsigned long long)s->report.local_hash,
                     (unsigned long long)s->report.peer_hash, (long long)s->report.detected_at,
                     s->report.fields_known ? "" : "; waiting for the peer's snapshot");
    return FG_EMISMATCH;
}

fg_status fg_session_advance(fg_session *s, int64_t now_us, fg_error *err) {
    if (s->state == FG_SESSION_DISCONNECTED) {
        return fg_error_copy(err, &s->failure);
    }
    if (now_us < s->now)
        return fg_error_set(err, FG_EINVAL, "session: time went back (%lld us after %lld us)",
                            (long long)now_us, (long long)s->now);
    if (s->w->edits != s->edits)
        return fg_session_stop(s, FG_SESSION_DISCONNECTED, FG_ESTATE, err,
                    "session: the world was edited (%s) during the match; a session's world "
                    "changes only through its ticks", s->w->edit_what ? s->w->edit_what : "?");
    s->now = now_us;
    s->stats.frames++;
    bool rejoining = s->state == FG_SESSION_REJOINING;
    fg_status st = poll(s, err);
    if (st != FG_OK) return st;
    if (s->state == FG_SESSION_DISCONNECTED) return fg_session_advance(s, now_us, err);
    if (s->state == FG_SESSION_DESYNCED) return desynced(s, err);
    /* The frame the state arrives in runs nothing more: the host gives input from the next. */
    if (rejoining) return fg_session_rejoin_wait(s, err);
    if (s->state == FG_SESSION_SYNCING) {
        bool all = true;
        for (uint32_t n = 0; n < s->nnodes; n++)
            if (n != s->cfg.local && !s->peers[n].hello) all = false;
        for (uint32_t n = 0; n < s->nnodes; n++)
            if (n != s->cfg.local) send_hello(s, n);
        if (!all) return FG_OK;
        s->state = FG_SESSION_RUNNING;
        for (uint32_t n = 0; n < s->nnodes; n++) s->peers[n].last_recv = now_us;
    }
    if (s->state == FG_SESSION_FINISHED) { /* still acknowledging what peers send */
        for (uint32_t n = 0; n < s->nnodes; n++)
            if (n != s->cfg.local) send_input(s, n);
        return FG_OK;
    }
    st = check_peers(s, err);
    if (st != FG_OK) return st;
    if (s->state == FG_SESSION_WAITING) { /* paused: only the transfer and the peers' acks */
        fg_session_rejoin_send(s);
        for (uint32_t n = 0; n < s->nnodes; n++)
            if (n != s->cfg.local) send_input(s, n);
        update_stats(s);
        return FG_OK;
    }
    bool over = s->cfg.ticks && s->tick >= s->cfg.ticks;
    fg_tick mine = s->spectator ? 0 : s->players[local_player(s)].received;
    if (s->catchup && (mine >= s->tick + s->delay || (s->cfg.ticks && mine >= s->cfg.ticks)))
        s->catchup = false;
    if (over) {
        /* The match is played; waiting for the last records to be confirmed and acknowledged. */
    } else if (s->catchup) {
        /* Rejoined: the local input first fills the ticks the lost node's input never reached,
        ** one a frame, so a host scripting input by tick gives each of them its own. */
        assign_local(s, mine);
        s->stats.waits++;
    } else if (!s->spectator) {
        /* The window counts from what this frame can confirm, input just received included. */
        fg_tick confirmable = frontier(s);
        if (confirmable < s->confirmed) confirmable = s->confirmed;
        if (s->tick - confirmable >= (fg_tick)s->cfg.max_prediction) {
            s->stats.stalls++;
        } else if (should_wait(s)) {
            s->stats.waits++;
        } else {
            fg_tick target = s->tick + s->delay;
            if (s->cfg.ticks && target >= s->cfg.ticks) target = s->cfg.ticks - 1;
            assign_local(s, target);
            s->tick++;
        }
    } else {
        fg_tick ready = INT64_MAX;
        for (uint32_t i = 0; i < s->cfg.nplayers; i++)
            if (s->players[i].received < ready) ready = s->players[i].received;
        if (s->cfg.ticks && ready > s->cfg.ticks) ready = s->cfg.ticks;
        s->tick = ready;
    }
    st = simulate(s, err);
    if (st != FG_OK) return st;
    s->edits = s->w->edits;
    for (uint32_t n = 0; n < s->nnodes; n++)
        if (n != s->cfg.local) send_input(s, n);
    update_stats(s);
    if (s->state == FG_SESSION_DESYNCED) return desynced(s, err);
    if (s->cfg.ticks && s->confirmed >= s->cfg.ticks) {
        bool all = true;
        for (uint32_t n = 0; n < s->nnodes && !s->spectator; n++)
            if (n != s->cfg.local && s->peers[n].acked < s->cfg.ticks) all = false;
        if (all) s->state = FG_SESSION_FINISHED;
    }
    return FG_OK;
}

/* }====================================================================== */

/* {====================================================================== queries */

fg_session_state fg_session_get_state(const fg_session *s) { return s->state; }

fg_session_stats fg_session_get_stats(const fg_session *s) { return s->stats; }

bool fg_session_confirmed_hash(const fg_session *s, fg_tick tick, uint64_t *hash) {
    if (tick < hash_floor(s) || tick >= s->confirmed || tick < s->confirmed - RING + 1)
        return false;
    *hash = s->hashes[tick & (RING - 1)];
    return true;
}

bool fg_session_record(const fg_session *s, uint32_t player, fg_tick tick, fg_input_record *out) {
    if (player >= s->cfg.nplayers || tick < s->rec_floor || tick >= s->players[player].received ||
        tick < s->players[player].received - RING + 1)
        return false;
    *out = s->players[player].rec[tick & (RING - 1)];
    return true;
}

const fg_session_report *fg_session_get_report(const fg_session *s) { return &s->report; }

int fg_session_disconnected_peer(const fg_session *s) { return s->disconnected; }

int fg_session_report_format(const fg_session *s, char *buf, size_t size) {
    const fg_session_report *r = &s->report;
    size_t len = 0;
    if (size) buf[0] = '\0';
    if (r->detected_at < 0) return snprintf(buf, size, "no desync");
    fg_text_append(buf, size, &len, "desync with %s, detected at the checkpoint after tick "
                   "%lld\n", name_of(s, r->peer).s, (long long)r->detected_at);
    if (r->tick < 0) {
        fg_text_append(buf, size, &len, "  the peer's hashes did not arrive: the first "
                       "divergent tick is unknown\n");
        return (int)len;
    }
    fg_text_append(buf, size, &len, "  first divergent tick: %lld (hash %016llx here, %016llx "
                   "there)\n", (long long)r->tick, (unsigned long long)r->local_hash,
                   (unsigned long long)r->peer_hash);
    if (!r->fields_known) {
        fg_text_append(buf, size, &len, "  the peer's snapshot did not arrive: fields unknown\n");
        return (int)len;
    }
    fg_text_append(buf, size, &len, "  fields (here vs there) after tick %lld:\n",
                   (long long)r->tick);
    uint32_t shown = r->ndiffs < FG_SESSION_MAX_DIFFS ? r->ndiffs : FG_SESSION_MAX_DIFFS;
    for (uint32_t i = 0; i < shown; i++) {
        char line[256];
        fg_state_diff_format(&r->diffs[i], line, sizeof line);
        fg_text_append(buf, size, &len, "  %s\n", line);
    }
    if (r->ndiffs > shown)
        fg_text_append(buf, size, &len, "  ... and %u more\n", r->ndiffs - shown);
    if (r->ndiffs == 0)
        fg_text_append(buf, size, &len, "  no field differs in the snapshots: the difference is "
                       "outside the world's state (a value only the hash sees)\n");
    return (int)len;
}

/* }====================================================================== */
