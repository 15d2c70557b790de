/* SPDX-License-Identifier: MIT */
/*
** session_rejoin.c: a node that lost a match (its network was away past disconnect_us, or its
** process restarted) gets the state of the match from a peer and plays on.
**
** The node that rejoins starts a session with config.rejoin on a world built as at the match's
** start, and asks (JOIN, every frame) the first player, or the second when it is the first. That
** node, if it waits for lost peers (rejoin_us > 0), pauses the match and sends the state at its
** last confirmed tick T: the snapshot before T, the hash it must have, and every player's input
** records from T - MAX_BATCH (so the node can repeat them to peers that lag) up to the last one
** it holds, in chunks (STATE) with an OFFER that names the match, the rules and the digest.
** Everything in it is read as hostile: sizes are capped by this world's own, the digest and
** every field are checked, the records are decoded as the input datagrams' are, the snapshot goes
** through the restore's own checks, and the restored world must hash to the sender's hash. A
** failure stops the session with the reason and leaves the world as it was built (tick 0).
** Other nodes pause too until the node runs again (its first input datagram), and forget what
** they knew of its old self (acks, clocks).
*/
#include "session_internal.h"

#include <string.h>

#define STATE_MAGIC 0x4a524746u /* "FGRJ" */
#define CHUNKS_PER_FRAME 16
#define ACK_BYTES 32            /* a JOIN acknowledges the 256 chunks after the first missing */
#define BACK MAX_BATCH          /* records sent before T, for peers that lag behind it */
#define AHEAD (RING / 2)        /* records after T: on_input keeps no more than that */
#define STATE_HEAD (4 + 8 + 8 + 4 + 1 + 8)
#define PLAYER_HEAD (4 + 4 + 4)

enum { OFFER_SENDING = 0, OFFER_OFF = 1, OFFER_NOT_RUNNING = 2, OFFER_BUSY = 3 };

/* {====================================================================== buffers */

uint64_t fg_session_rejoin_digest(const fg_world *w) {
    fg_hasher h = fg_hasher_begin(0x72756c6573ull);
    uint32_t n = fg_world_version_count(w);
    fg_hash_u64(&h, n);
    for (uint32_t v = 0; v < n; v++)
        fg_hash_u64(&h, fg_ruleset_hash(fg_world_rules_version(w, v)));
    return fg_hasher_end(&h);
}

size_t fg_session_rejoin_capacity(const fg_session *s) {
    size_t records = (size_t)(BACK + AHEAD) * FG_INPUT_RECORD_WIRE_MAX;
    return STATE_HEAD + s->cfg.nplayers * (PLAYER_HEAD + records) + 4 + s->snap_cap;
}

fg_status fg_session_rejoin_alloc(fg_session *s) {
    transfer *x = &s->xfer;
    x->cap = fg_session_rejoin_capacity(s);
    x->max_chunks = (uint32_t)((x->cap + CHUNK - 1) / CHUNK);
    x->buf = fg_alloc(&s->cfg.allocator, x->cap);
    x->have = fg_alloc(&s->cfg.allocator, x->max_chunks);
    return x->buf && x->have ? FG_OK : FG_ENOMEM;
}

void fg_session_rejoin_free(fg_session *s) {
    transfer *x = &s->xfer;
    fg_free(&s->cfg.allocator, x->buf, x->cap);
    fg_free(&s->cfg.allocator, x->have, x->max_chunks);
    x->buf = NULL;
    x->have = NULL;
}

/* The node that sends a rejoining node the state: the first player, or the second for it. */
static uint32_t source_of(uint32_t node) { return node == 0 ? 1 : 0; }

/* }====================================================================== */

/* {====================================================================== sending the state */

static void send_offer(fg_session *s, uint32_t node, unsigned status) {
    const transfer *x = &s->xfer;
    bool sending = status == OFFER_SENDING;
    uint8_t *q = fg_session_header(s, MSG_OFFER);
    put8(&q, status);
    put64(&q, s->game_id);
    put64(&q, s->rules_digest);
    put32(&q, sending ? x->id : 0);
    put32(&q, sending ? (uint32_t)x->tick : 0);
    put32(&q, sending ? (uint32_t)x->size : 0);
    put64(&q, sending ? x->digest : 0);
    fg_session_send(s, node, q);
}

/* The state at the last confirmed tick T, for `node`: header, every player's records, the
** snapshot before T. The world may be ahead of T (a prediction): the ring holds T. */
static void build(fg_session *s, uint32_t node) {
    transfer *x = &s->xfer;
    fg_tick t0 = s->confirmed;
    uint8_t *p = x->buf;
    put32(&p, STATE_MAGIC);
    put64(&p, s->game_id);
    put64(&p, s->rules_digest);
    put32(&p, (uint32_t)t0);
    put8(&p, s->cfg.nplayers);
    put64(&p, t0 > 0 ? s->hashes[(t0 - 1) & (RING - 1)] : s->hash0);
    for (uint32_t i = 0; i < s->cfg.nplayers; i++) {
        fg_tick from = t0 - BACK, to = s->players[i].received;
        if (from < s->rec_floor) from = s->rec_floor;
        if (from < 0) from = 0;
        if (to > t0 + AHEAD) to = t0 + AHEAD;
        fg_input_record base;
        if (from > 0) base = *rec_at(s, i, from - 1);
        else fg_input_record_start(&base, NULL);
        put32(&p, (uint32_t)from);
        put32(&p, (uint32_t)to);
        put32(&p, pack_state(&base));
        for (fg_tick t = from; t < to; t++) p += fg_input_record_encode(rec_at(s, i, t), p);
    }
    size_t snap = fg_world_snapshot_size(s->w);
    put32(&p, (uint32_t)snap);
    memcpy(p, snap_at(s, t0), snap);
    p += snap;
    x->size = (size_t)(p - x->buf);
    x->digest = fg_hash64(x->buf, x->size, STATE_MAGIC);
    x->nchunks = (uint32_t)((x->size + CHUNK - 1) / CHUNK);
    x->ngot = 0;
    x->cursor = 0;
    memset(x->have, 0, x->max_chunks);
    /* Distinct from the id of the transfer the node's old self rejoined with, even when this
    ** node restarted since (its counter with it): the digest moves with the match. */
    x->serial++;
    x->id = (uint32_t)fg_hash64(&x->serial, sizeof x->serial, x->digest) | 1u;
    x->tick = t0;
    x->serving = (int)node;
    s->stats.state_bytes = x->size;
}

/* JOIN: a node that lost the match asks for it. Every node pauses for it and forgets what it knew
** of its old self; the source sends the state, or says why not. False: refused (it does not
** count as hearing from that node). */
bool fg_session_rejoin_on_join(fg_session *s, uint32_t node, reader *r) {
    uint64_t id = get(r, 8);
    (void)get(r, 8); /* its rules digest: the OFFER carries ours, the joiner compares */
    uint32_t xid = (uint32_t)get(r, 4), below = (uint32_t)get(r, 4);
    if (r->bad || r->end - r->p != ACK_BYTES) {
        s->stats.rejected++;
        return false;
    }
    bool source = source_of(node) == s->cfg.local;
    unsigned status = OFFER_SENDING;
    if (!s->xfer.buf || s->cfg.rejoin_us == 0) status = OFFER_OFF;
    else if (s->state != FG_SESSION_RUNNING && s->state != FG_SESSION_WAITING)
        status = OFFER_NOT_RUNNING;
    if (status == OFFER_SENDING && id != s->game_id) {
        if (source) send_offer(s, node, OFFER_SENDING); /* names our match; it stops */
        return false;
    }
    if (status != OFFER_SENDING) {
        if (source) send_offer(s, node, status);
        return false;
    }
    transfer *x = &s->xfer;
    /* A JOIN that was on its way while the node finished its rejoin names the transfer done. */
    if (source && x->serving < 0 && xid != 0 && xid == x->id) return true;
    peer *p = &s->peers[node];
    if (!p->rejoining) {
        p->rejoining = true;
        p->stale = p->incarnation;
        p->acked = 0;
        p->their_tick = 0;
        p->their_ahead = 0;
        p->echo_stamp = 0;
        p->echo_at = 0;
        /* Its input past our confirmed tick came from its old self: the new one gives its own
        ** (the source keeps it: it is in the state it sends). */
        if (!source && is_player(s, node) && s->players[node].received > s->confirmed)
            s->players[node].received = s->confirmed;
    }
    if (!source) return true;
    if (x->serving >= 0 && x->serving != (int)node) {
        send_offer(s, node, OFFER_BUSY);
        return true;
    }
    if (x->serving < 0) build(s, node);
    if (xid != x->id) return true;
    for (uint32_t i = 0; i < below && i < x->nchunks; i++) x->have[i] = 1;
    for (uint32_t k = 0; k < ACK_BYTES * 8; k++) {
        uint64_t i = (uint64_t)below + k;
        if (i < x->nchunks && (r->p[k / 8] >> (k % 8) & 1)) x->have[i] = 1;
    }
    return true;
}

/* The node it sent the state to runs again (its input arrived): the pause for it is over. */
void fg_session_rejoin_back(fg_session *s, uint32_t node) {
    s->peers[node].rejoining = false;
    if (s->xfer.serving == (int)node) {
        s->xfer.serving = -1;
        s->stats.rejoins++;
    }
}

/* A paused frame of the source: the offer and the next chunks not acknowledged, round robin. */
void fg_session_rejoin_send(fg_session *s) {
    transfer *x = &s->xfer;
    if (x->serving < 0) return;
    uint32_t node = (uint32_t)x->serving;
    send_offer(s, node, OFFER_SENDING);
    uint32_t sent = 0;
    for (uint32_t k = 0; k < x->nchunks && sent < CHUNKS_PER_FRAME; k++) {
        uint32_t i = (x->cursor + k) % x->nchunks;
        if (x->have[i]) continue;
        size_t off = (size_t)i * CHUNK, len = x->size - off < CHUNK ? x->size - off : CHUNK;
        uint8_t *q = fg_session_header(s, MSG_STATE);
        put32(&q, x->id);
        put32(&q, i);
        memcpy(q, x->buf + off, len);
        fg_session_send(s, node, q + len);
        sent++;
        x->cursor = i + 1;
    }
}

/* }====================================================================== */

/* {====================================================================== receiving it */

static void send_join(fg_session *s, uint32_t node) {
    const transfer *x = &s->xfer;
    bool source = node == source_of(s->cfg.local);
    uint32_t below = 0;
    while (source && below < x->nchunks && x->have[below]) below++;
    uint8_t *q = fg_session_header(s, MSG_JOIN);
    put64(&q, s->game_id);
    put64(&q, s->rules_digest);
    put32(&q, source ? x->id : 0);
    put32(&q, below);
    memset(q, 0, ACK_BYTES);
    for (uint32_t k = 0; source && k < ACK_BYTES * 8; k++) {
        uint64_t i = (uint64_t)below + k;
        if (i < x->nchunks && x->have[i]) q[k / 8] |= (uint8_t)(1u << (k % 8));
    }
    fg_session_send(s, node, q + ACK_BYTES);
}

static fg_status refuse(fg_session *s, fg_status code, const char *fmt, ...) FG_PRINTF(3, 4);
static fg_status refuse(fg_session *s, fg_status code, const char *fmt, ...) {
    char why[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return fg_session_stop(s, FG_SESSION_DISCONNECTED, code, NULL, "session: rejoin: %s", why);
}

/* The offer names the match and the rules before any chunk is kept: a node with other rules is
** told so, whatever the size of the state. */
void fg_session_rejoin_on_offer(fg_session *s, uint32_t node, reader *r) {
    uint32_t src = source_of(s->cfg.local);
    if (s->state != FG_SESSION_REJOINING || node != src) return;
    unsigned status = (unsigned)get(r, 1);
    uint64_t id = get(r, 8), digest = get(r, 8);
    uint32_t xid = (uint32_t)get(r, 4), tick = (uint32_t)get(r, 4), size = (uint32_t)get(r, 4);
    uint64_t sum = get(r, 8);
    if (r->bad || r->p != r->end) {
        s->stats.rejected++;
        return;
    }
    const char *who = name_of(s, src).s;
    transfer *x = &s->xfer;
    if (status == OFFER_BUSY) return; /* it sends another node the state: ask again */
    if (status == OFFER_OFF) {
        refuse(s, FG_ESTATE, "%s does not take lost nodes back (its rejoin wait is 0)", who);
        return;
    }
    if (status == OFFER_NOT_RUNNING) {
        refuse(s, FG_ESTATE, "%s's match is not running (not started, over, or stopped): there "
               "is nothing to rejoin", who);
        return;
    }
    if (digest != s->rules_digest) {
        refuse(s, FG_EMISMATCH, "%s runs other rules (rules digest %016llx there, %016llx here): "
               "every node must load the same rules files", who, (unsigned long long)digest,
               (unsigned long long)s->rules_digest);
        return;
    }
    if (id != s->game_id) {
        refuse(s, FG_EMISMATCH, "%s plays a different match (match id %016llx there, %016llx "
               "here): the seed, the setup, the player count or hash_every differ", who,
               (unsigned long long)id, (unsigned long long)s->game_id);
        return;
    }
    if (status != OFFER_SENDING || xid == 0) {
        s->stats.rejected++;
        return;
    }
    size_t least = STATE_HEAD + s->cfg.nplayers * PLAYER_HEAD + 4;
    if (size < least || size > x->cap) {
        refuse(s, FG_EFORMAT, "the state of the match from %s is %u bytes; this match's is "
               "%zu..%zu bytes", who, size, least, x->cap);
        return;
    }
    if (tick > INT32_MAX) {
        refuse(s, FG_EFORMAT, "the state of the match from %s is at tick %u, out of range", who,
               tick);
        return;
    }
    if (x->id == xid && x->size == size && x->digest == sum && x->tick == (fg_tick)tick) return;
    x->id = xid;
    x->size = size;
    x->digest = sum;
    x->tick = (fg_tick)tick;
    x->nchunks = (uint32_t)((size + CHUNK - 1) / CHUNK);
    x->ngot = 0;
    memset(x->have, 0, x->max_chunks);
}

typedef struct parsed {
    fg_tick tick;
    fg_tick floor; /* the first tick every player's records start at */
    uint64_t hash;
    const uint8_t *snap;
    size_t snap_size;
} parsed;

static fg_status cut(fg_error *err, const reader *r, const uint8_t *start, const char *what) {
    return fg_error_set(err, FG_EFORMAT, "it ends after %td bytes, in %s", r->end - start, what);
}

/* Reads the assembled state, checking every field against this match; with `apply`, writes the
** records into the rings (only once everything passed: the reads are the same). */
static fg_status read_state(fg_session *s, bool apply, parsed *out, fg_error *err) {
    const transfer *x = &s->xfer;
    reader r = {x->buf, x->buf + x->size, false};
    uint32_t magic = (uint32_t)get(&r, 4);
    uint64_t id = get(&r, 8), digest = get(&r, 8);
    uint32_t tick = (uint32_t)get(&r, 4);
    unsigned np = (unsigned)get(&r, 1);
    uint64_t hash = get(&r, 8);
    if (r.bad) return cut(err, &r, x->buf, "its header");
    if (magic != STATE_MAGIC)
        return fg_error_set(err, FG_EFORMAT, "it starts with %08x, not the state's magic", magic);
    if (id != s->game_id || digest != s->rules_digest)
        return fg_error_set(err, FG_EFORMAT, "it names match %016llx with rules %016llx; the "
                            "offer and this node say %016llx and %016llx",
                            (unsigned long long)id, (unsigned long long)digest,
                            (unsigned long long)s->game_id, (unsigned long long)s->rules_digest);
    if (tick != (uint32_t)x->tick)
        return fg_error_set(err, FG_EFORMAT, "it is at tick %u; the offer said %lld", tick,
                            (long long)x->tick);
    if (np != s->cfg.nplayers)
        return fg_error_set(err, FG_EFORMAT, "it has %u players; this match has %u", np,
                            s->cfg.nplayers);
    fg_tick t0 = (fg_tick)tick;
    out->floor = 0;
    for (uint32_t i = 0; i < np; i++) {
        fg_tick from = (fg_tick)get(&r, 4), to = (fg_tick)get(&r, 4);
        uint32_t base = (uint32_t)get(&r, 4);
        if (r.bad) return cut(err, &r, x->buf, "a player's input");
        if (from > t0 || t0 - from > BACK || to < t0 || to - t0 > AHEAD)
            return fg_error_set(err, FG_EFORMAT, "player %u's input covers ticks %lld..%lld; "
                                "expected from %lld..%lld to %lld..%lld", i + 1, (long long)from,
                                (long long)to - 1, (long long)(t0 > BACK ? t0 - BACK : 0),
                                (long long)t0, (long long)t0, (long long)(t0 + AHEAD));
        if (from > out->floor) out->floor = from;
        fg_input_record prev;
        unpack_state(base, &prev);
        uint32_t buttons = ((((uint32_t)1 << s->nbuttons) - 1) << FG_IN_FIRST_BUTTON);
        if ((prev.held & ~buttons) || prev.dir < 1 || prev.dir > 9)
            return fg_error_set(err, FG_EFORMAT, "player %u's input before tick %lld holds "
                                "buttons 0x%x, direction %u: not this world's", i + 1,
                                (long long)from, prev.held, prev.dir);
        if (apply) {
            if (from > 0) *rec_at(s, i, from - 1) = prev;
            s->players[i].received = to;
        }
        for (fg_tick t = from; t < to; t++) {
            fg_input_record rec;
            size_t used = 0;
            fg_status st = fg_input_record_decode(r.p, (size_t)(r.end - r.p), &used, &prev,
                                                  s->nbuttons, &rec, err);
            if (st != FG_OK) {
                fg_error_prefix(err, "player %u's input for tick %lld", i + 1, (long long)t);
                return st;
            }
            r.p += used;
            prev = rec;
            if (apply) *rec_at(s, i, t) = rec;
        }
    }
    size_t snap = (size_t)get(&r, 4);
    if (r.bad) return cut(err, &r, x->buf, "the snapshot's size");
    if (snap > s->snap_cap || (size_t)(r.end - r.p) != snap)
        return fg_error_set(err, FG_EFORMAT, "its snapshot says %zu bytes, %td follow (this "
                            "world's snapshots are at most %zu)", snap, r.end - r.p,
                            s->snap_cap);
    out->tick = t0;
    out->hash = hash;
    out->snap = r.p;
    out->snap_size = snap;
    return FG_OK;
}

/* Every chunk is here: check it all, restore, and play on from T. */
static void finish(fg_session *s) {
    transfer *x = &s->xfer;
    fg_world *w = s->w;
    uint32_t src = source_of(s->cfg.local);
    const char *who = name_of(s, src).s;
    uint64_t sum = fg_hash64(x->buf, x->size, STATE_MAGIC);
    if (sum != x->digest) {
        refuse(s, FG_EFORMAT, "the state of the match from %s is damaged: its digest is "
               "%016llx, the offer said %016llx", who, (unsigned long long)sum,
               (unsigned long long)x->digest);
        return;
    }
    parsed pd;
    fg_error e;
    fg_error_blank(&e);
    fg_status st = read_state(s, false, &pd, &e);
    uint64_t edits = w->edits;
    const char *what = w->edit_what;
    if (st == FG_OK) st = fg_world_restore(w, pd.snap, pd.snap_size, &e);
    if (st == FG_OK && (fg_world_tick(w) != pd.tick || fg_world_hash(w) != pd.hash)) {
        st = fg_error_set(&e, FG_EMISMATCH, "the restored world is at tick %lld with hash "
                          "%016llx; the state says tick %lld, hash %016llx",
                          (long long)fg_world_tick(w), (unsigned long long)fg_world_hash(w),
                          (long long)pd.tick, (unsigned long long)pd.hash);
        fg_session_restore_quiet(s, 0); /* back to the world as it was built */
    }
    if (st != FG_OK) {
        w->edits = edits;
        w->edit_what = what;
        fg_session_stop(s, FG_SESSION_DISCONNECTED, st, NULL, "session: rejoin: the state of "
                        "the match from %s is refused: %s", who, fg_error_message(&e));
        fg_error_clear(&e);
        return;
    }
    read_state(s, true, &pd, NULL);
    fg_tick t0 = pd.tick;
    s->tick = s->confirmed = s->origin = t0;
    s->rec_floor = pd.floor;
    for (uint32_t i = 0; i < MAX_SNAPS; i++) s->snap_tick[i] = -1;
    fg_world_save(w, snap_at(s, t0), s->snap_cap, NULL);
    s->snap_tick[t0 % s->nsnaps] = t0;
    if (t0 > 0) s->hashes[(t0 - 1) & (RING - 1)] = pd.hash;
    for (uint32_t n = 0; n < s->nnodes; n++) {
        peer *p = &s->peers[n];
        p->hello = true;
        p->last_recv = s->now;
        p->acked = 0;
        p->their_tick = t0;
        p->latest_check = t0 - 1;
        for (uint32_t k = 0; k < NCHECKS; k++) p->checks[k].tick = -1;
    }
    if (!s->spectator) {
        const player_in *me = &s->players[s->cfg.local];
        fg_input_record_start(&s->building, rec_at(s, s->cfg.local, me->received - 1));
        s->catchup = true;
    }
    s->edits = w->edits;
    s->state = FG_SESSION_RUNNING;
    s->rejoined_id = x->id;
    s->stats.rejoins = 1;
    s->stats.rejoined_at = t0;
    s->stats.state_bytes = x->size;
    s->stats.tick = s->stats.confirmed = t0;
}

void fg_session_rejoin_on_state(fg_session *s, uint32_t node, reader *r) {
    transfer *x = &s->xfer;
    if (s->state != FG_SESSION_REJOINING || node != source_of(s->cfg.local)) return;
    uint32_t xid = (uint32_t)get(r, 4), i = (uint32_t)get(r, 4);
    if (r->bad) {
        s->stats.rejected++;
        return;
    }
    if (xid == 0 || xid != x->id) return; /* before its offer, or of an older one */
    size_t off = (size_t)i * CHUNK;
    if (i >= x->nchunks || (size_t)(r->end - r->p) != (x->size - off < CHUNK ? x->size - off
                                                                               : CHUNK)) {
        s->stats.rejected++;
        return;
    }
    if (x->have[i]) return;
    memcpy(x->buf + off, r->p, (size_t)(r->end - r->p));
    x->have[i] = 1;
    if (++x->ngot == x->nchunks) finish(s);
}

/* A frame while rejoining: ask every node (the source with what arrived), give up after
** disconnect_us without a word from the source. */
fg_status fg_session_rejoin_wait(fg_session *s, fg_error *err) {
    transfer *x = &s->xfer;
    uint32_t src = source_of(s->cfg.local);
    if (s->state != FG_SESSION_REJOINING) return FG_OK; /* it arrived this frame */
    if (x->since < 0) {
        x->since = s->now;
        s->peers[src].last_recv = s->now;
    }
    int64_t silent = s->now - s->peers[src].last_recv;
    if (silent >= s->cfg.disconnect_us) {
        s->disconnected = (int)src;
        return fg_session_stop(s, FG_SESSION_DISCONNECTED, FG_ESTATE, err, "session: rejoin: "
                               "nothing from %s for %lld ms (%u of %u chunks of the match's "
                               "state received): is it running, and does it wait for lost "
                               "nodes (rejoin wait)?", name_of(s, src).s,
                               (long long)(silent / 1000), x->ngot, x->nchunks);
    }
    for (uint32_t n = 0; n < s->nnodes; n++)
        if (n != s->cfg.local) send_join(s, n);
    return FG_OK;
}

/* }====================================================================== */
