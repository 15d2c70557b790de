/* SPDX-License-Identifier: MIT */
/*
** test_lua_session_rejoin.c: a node that lost the match comes back. The sample duel (Lua rules and
** hooks) through the in-memory link: a player's process dies mid-match and a fresh one, built as
** at the start, rejoins with the state of the match; both then play to the end and every hash
** equals an uninterrupted run's (the sessions' own hash exchange checks it as it goes). A cable
** pulled past the disconnect timeout pauses both sides, which go on when it is back. A state
** from a forged source, damaged, cut, oversized or with bad fields, and a rejoiner with other
** rules, are refused with the reason, and leave the rejoiner's world as it was built.
*/
#include "fg_session_match.h"

#define REJOIN_US (20 * (int64_t)FG_US_PER_S)

static fg_session_config waiting_config(void) {
    fg_session_config c = fg_session_config_default();
    c.rejoin_us = REJOIN_US;
    return c;
}

/* Node i's process is replaced by a fresh one (source: its rules, NULL for the sample's) that
** rejoins; transport: the link's end, or a wrapper over it. */
static void restart(match *m, uint32_t i, const char *source, const fg_transport *transport) {
    node *n = &m->n[i];
    fg_session_destroy(n->session);
    fg_sample_close(&n->s);
    memset(n, 0, sizeof *n);
    n->s = fg_sample_open_with(source, 7);
    assert_non_null(n->s.w);
    fg_session_config c = waiting_config();
    c.local = i;
    c.nspectators = m->nnodes - 2;
    c.rejoin = true;
    c.transport = transport ? *transport : fg_link_transport(m->link, i);
    c.advance = node_tick;
    c.ud = n;
    fg_error err;
    if (fg_session_create(n->s.w, &c, &n->session, &err) != FG_OK)
        fail_msg("%s", fg_error_message(&err));
    n->fed = -1;
    m->running[i] = true;
}

/* One frame; a rejoining node gets no input until it has the match, then its input starts at the
** first tick it has no record for, as a host scripting input by tick gives it. */
static fg_status rejoin_frame(match *m, fg_error *err, uint32_t *who) {
    int64_t now = (int64_t)m->frames * FRAME_US;
    m->frames++;
    fg_link_set_time(m->link, now);
    fg_status first = FG_OK;
    for (uint32_t i = 0; i < m->nnodes; i++) {
        if (!m->running[i]) continue;
        node *n = &m->n[i];
        bool rejoining = fg_session_get_state(n->session) == FG_SESSION_REJOINING;
        if (i < 2 && !rejoining) feed(n, i, the_script);
        fg_error e;
        fg_status st = fg_session_advance(n->session, now, &e);
        if (rejoining && fg_session_get_state(n->session) == FG_SESSION_RUNNING)
            n->fed = fg_session_input_tick(n->session) - 1;
        if (st != FG_OK && first == FG_OK) {
            first = st;
            *err = e;
            if (who) *who = i;
        }
    }
    return first;
}

static void frames_until(match *m, uint64_t frame) {
    fg_error err;
    while (m->frames < frame)
        if (rejoin_frame(m, &err, NULL) != FG_OK) fail_msg("%s", fg_error_message(&err));
}

static void rejoin_to_end(match *m) {
    fg_error err;
    while (!done(m)) {
        if (rejoin_frame(m, &err, NULL) != FG_OK) fail_msg("%s", fg_error_message(&err));
        assert_true(m->frames < TICKS * 4);
    }
}

/* Player `lost + 1`'s process dies at frame 1000; the other pauses at its last confirmed tick once
** the disconnect timeout passes; a fresh process rejoins at frame 1400 and the match plays to the
** end: the other's every hash and cue, and the new process's from the tick it rejoined at, are
** the uninterrupted run's. */
static void restarted_player_rejoins(uint32_t lost, int64_t rtt_ms, uint32_t loss) {
    uint32_t kept = 1 - lost;
    fg_link_config lc = link_of(rtt_ms, loss);
    fg_session_config c = waiting_config();
    match m;
    open_match(&m, 2, &lc, NULL, &c);
    frames_until(&m, 1000);
    m.running[lost] = false;
    frames_until(&m, 1400);
    fg_session *s0 = m.n[kept].session;
    fg_session_stats paused = fg_session_get_stats(s0);
    assert_int_equal(fg_session_get_state(s0), FG_SESSION_WAITING);
    assert_int_equal(paused.waiting, 1);
    assert_int_equal(fg_world_tick(m.n[kept].s.w), paused.confirmed);
    assert_int_equal(fg_world_hash(m.n[kept].s.w), the_ref.hashes[paused.confirmed - 1]);
    restart(&m, lost, NULL, NULL);
    assert_int_equal(fg_session_get_state(m.n[lost].session), FG_SESSION_REJOINING);
    rejoin_to_end(&m);
    fg_session_stats a = fg_session_get_stats(s0), b = fg_session_get_stats(m.n[lost].session);
    print_message("rejoined at tick %lld (player 1 paused at %lld): %llu bytes of state; player 2 "
                  "compared %llu hashes after it, player 1 %llu in all\n",
                  (long long)b.rejoined_at, (long long)paused.confirmed,
                  (unsigned long long)b.state_bytes, (unsigned long long)b.hashes_compared,
                  (unsigned long long)a.hashes_compared);
    assert_int_equal(a.rejoins, 1);
    assert_int_equal(b.rejoins, 1);
    assert_int_equal(b.rejoined_at, paused.confirmed);
    assert_int_equal(a.state_bytes, b.state_bytes);
    assert_true(b.hashes_compared >= (TICKS - (uint64_t)b.rejoined_at) / 30 - 2);
    for (int t = 0; t < TICKS; t++) {
        assert_int_equal(m.n[kept].hashes[t], the_ref.hashes[t]);
        assert_int_equal(m.n[kept].cues[t], the_ref.cues[t]);
        if (t < b.rejoined_at) continue;
        assert_int_equal(m.n[lost].hashes[t], the_ref.hashes[t]);
        assert_int_equal(m.n[lost].cues[t], the_ref.cues[t]);
    }
    assert_int_equal(m.n[0].speculative_cues + m.n[1].speculative_cues, 0);
    /* The new process ran no tick before the one it rejoined at for good. */
    for (int t = 0; t < b.rejoined_at; t++) assert_int_equal(m.n[lost].hashes[t], 0);
    assert_true(m.n[lost].confirmed_ticks >= TICKS - (uint64_t)b.rejoined_at);
    close_match(&m);
}

static void a_restarted_player_rejoins(void **state) {
    (void)state;
    restarted_player_rejoins(1, 60, 2);
}

/* The same at 150 ms round trip with 10% loss, duplication and reordering: chunks are lost and
** come again. */
static void a_rejoin_over_a_bad_link(void **state) {
    (void)state;
    restarted_player_rejoins(1, 150, 10);
}

/* The first player's process restarts: the second sends it the state. */
static void a_restarted_first_player_rejoins(void **state) {
    (void)state;
    restarted_player_rejoins(0, 60, 2);
}

/* The spectator's process restarts: it takes the state from player 1 and sees the rest of the
** match as the players do. */
static void a_restarted_spectator_rejoins(void **state) {
    (void)state;
    fg_link_config lc = link_of(60, 2);
    fg_session_config c = waiting_config();
    match m;
    open_match(&m, 3, &lc, NULL, &c);
    frames_until(&m, 800);
    m.running[2] = false;
    frames_until(&m, 900);
    restart(&m, 2, NULL, NULL);
    rejoin_to_end(&m);
    fg_session_stats sp = fg_session_get_stats(m.n[2].session);
    assert_true(sp.rejoined_at > 600);
    for (int t = 0; t < TICKS; t++) {
        assert_int_equal(m.n[0].hashes[t], the_ref.hashes[t]);
        assert_int_equal(m.n[1].hashes[t], the_ref.hashes[t]);
        if (t >= sp.rejoined_at) assert_int_equal(m.n[2].hashes[t], the_ref.hashes[t]);
    }
    assert_int_equal(fg_session_get_stats(m.n[0].session).rejoins, 1);
    close_match(&m);
}

/* The cable is pulled for 7 s, past the 5 s disconnect timeout: with a rejoin wait, both sides
** pause instead of ending the match, and go on where they were when it is back. */
static void a_long_outage_pauses_and_resumes(void **state) {
    (void)state;
    fg_link_config lc = link_of(60, 2);
    fg_session_config c = waiting_config();
    match m;
    open_match(&m, 2, &lc, NULL, &c);
    fg_error err;
    bool waited[2] = {false, false};
    while (!done(&m)) {
        if (m.frames == 1000) fg_link_set_cut(m.link, 1, true);
        if (m.frames == 1420) fg_link_set_cut(m.link, 1, false);
        if (rejoin_frame(&m, &err, NULL) != FG_OK) fail_msg("%s", fg_error_message(&err));
        for (uint32_t i = 0; i < 2; i++)
            waited[i] |= fg_session_get_state(m.n[i].session) == FG_SESSION_WAITING;
        assert_true(m.frames < TICKS * 4);
    }
    assert_true(waited[0] && waited[1]);
    check_same(&m, &the_ref);
    assert_int_equal(fg_session_get_stats(m.n[0].session).rejoins, 0); /* no state was sent */
    close_match(&m);
}

/* Node 0's end of the link, which can deliver node 1's last input datagram once more, late. */
typedef struct late {
    fg_transport inner;
    uint8_t last[FG_SESSION_DATAGRAM_MAX];
    size_t last_len;
    bool again;
} late;

static fg_status late_send(void *ud, uint32_t to, const void *data, size_t len, fg_error *err) {
    late *l = ud;
    return l->inner.send(l->inner.ud, to, data, len, err);
}

static fg_status late_recv(void *ud, uint32_t *from, void *buf, size_t cap, size_t *len,
                           fg_error *err) {
    late *l = ud;
    if (l->again) {
        l->again = false;
        memcpy(buf, l->last, l->last_len);
        *len = l->last_len;
        *from = 1;
        return FG_OK;
    }
    fg_status st = l->inner.recv(l->inner.ud, from, buf, cap, len, err);
    if (st == FG_OK && *len > 4 && *from == 1 && ((uint8_t *)buf)[3] == 2) {
        memcpy(l->last, buf, *len);
        l->last_len = *len;
    }
    return st;
}

/* Player 2's process restarts at once, and an input datagram of its old self arrives while
** player 1 sends the new one the state: it is the old self's, so the transfer goes on. */
static void late_input_of_the_old_self_is_ignored(void **state) {
    (void)state;
    fg_link_config lc = link_of(60, 0);
    fg_session_config c = waiting_config();
    match m;
    open_match(&m, 2, &lc, NULL, &c);
    late l;
    memset(&l, 0, sizeof l);
    l.inner = fg_link_transport(m.link, 0);
    fg_session_destroy(m.n[0].session);
    c.local = 0;
    c.transport = (fg_transport){&l, late_send, late_recv};
    c.advance = node_tick;
    c.ud = &m.n[0];
    fg_error err;
    assert_int_equal(fg_session_create(m.n[0].s.w, &c, &m.n[0].session, &err), FG_OK);
    frames_until(&m, 1000);
    m.running[1] = false;
    restart(&m, 1, NULL, NULL);
    bool injected = false;
    while (!done(&m)) {
        if (!injected && fg_session_get_state(m.n[0].session) == FG_SESSION_WAITING &&
            fg_session_get_state(m.n[1].session) == FG_SESSION_REJOINING) {
            assert_true(l.last_len > 0);
            l.again = injected = true;
        }
        if (rejoin_frame(&m, &err, NULL) != FG_OK) fail_msg("%s", fg_error_message(&err));
        assert_true(m.frames < TICKS * 4);
    }
    assert_true(injected);
    fg_session_stats b = fg_session_get_stats(m.n[1].session);
    assert_int_equal(fg_session_get_stats(m.n[0].session).rejoins, 1);
    for (int t = 0; t < TICKS; t++) {
        assert_int_equal(m.n[0].hashes[t], the_ref.hashes[t]);
        if (t >= b.rejoined_at) assert_int_equal(m.n[1].hashes[t], the_ref.hashes[t]);
    }
    close_match(&m);
}

/* A rejoin wait ends: the match is over for the node that waited, with the reason. */
static void a_peer_that_never_returns_ends_the_match(void **state) {
    (void)state;
    fg_link_config lc = link_of(60, 0);
    fg_session_config c = waiting_config();
    c.rejoin_us = 2 * (int64_t)FG_US_PER_S;
    match m;
    open_match(&m, 2, &lc, NULL, &c);
    frames_until(&m, 600);
    m.running[1] = false;
    fg_error err;
    fg_status st = FG_OK;
    while (st == FG_OK && m.frames < 2000) st = rejoin_frame(&m, &err, NULL);
    assert_int_equal(st, FG_ESTATE);
    assert_true(m.frames >= 600 + 7 * 60 && m.frames <= 600 + 7 * 60 + 10);
    assert_non_null(strstr(fg_error_message(&err), "player 2 disconnected: nothing received for"));
    assert_non_null(strstr(fg_error_message(&err), "the match waited 2000 ms more for it"));
    close_match(&m);
}

/* A node that does not wait for lost peers says so to one that asks. */
static void a_node_without_a_wait_refuses(void **state) {
    (void)state;
    fg_link_config lc = link_of(0, 0);
    match m;
    open_match(&m, 2, &lc, NULL, NULL);
    frames_until(&m, 200);
    restart(&m, 1, NULL, NULL);
    fg_error err;
    uint32_t who = 9;
    fg_status st = FG_OK;
    while (st == FG_OK && m.frames < 300) st = rejoin_frame(&m, &err, &who);
    assert_int_equal(st, FG_ESTATE);
    assert_int_equal(who, 1);
    assert_non_null(strstr(fg_error_message(&err), "session: rejoin: player 1 does not take lost "
                                                  "nodes back (its rejoin wait is 0)"));
    assert_int_equal(fg_world_tick(m.n[1].s.w), 0);
    close_match(&m);
}

/* A rejoiner whose rules differ only in a hit's damage (the same state at tick 0) is told so by
** the offer, before any chunk; the waiting side is not disturbed. */
static void other_rules_are_refused(void **state) {
    (void)state;
    char *src = fg_sample_source();
    char *other = strdup(src);
    char *dmg = strstr(other, "damage = 30");
    assert_non_null(dmg);
    memcpy(dmg, "damage = 31", 11);
    fg_link_config lc = link_of(0, 0);
    fg_session_config c = waiting_config();
    match m;
    open_match(&m, 2, &lc, NULL, &c);
    frames_until(&m, 300);
    m.running[1] = false;
    frames_until(&m, 620);
    restart(&m, 1, other, NULL);
    uint64_t built = fg_world_hash(m.n[1].s.w);
    fg_error err;
    uint32_t who = 9;
    fg_status st = FG_OK;
    while (st == FG_OK && m.frames < 700) st = rejoin_frame(&m, &err, &who);
    assert_int_equal(st, FG_EMISMATCH);
    assert_int_equal(who, 1);
    print_message("%s\n", fg_error_message(&err));
    assert_non_null(strstr(fg_error_message(&err), "session: rejoin: player 1 runs other rules "
                                                  "(rules digest "));
    assert_non_null(strstr(fg_error_message(&err), "every node must load the same rules files"));
    assert_int_equal(fg_session_get_state(m.n[1].session), FG_SESSION_DISCONNECTED);
    assert_int_equal(fg_world_tick(m.n[1].s.w), 0);
    assert_int_equal(fg_world_hash(m.n[1].s.w), built);
    assert_int_equal(fg_session_get_state(m.n[0].session), FG_SESSION_WAITING);
    close_match(&m);
    free(other);
    free(src);
}

/* {====================================================================== a forged source */

/* What node 1 received of a genuine transfer: the offer's fields and the state's bytes. */
typedef struct tap {
    fg_transport inner;
    uint8_t offer[64];
    size_t offer_len;
    uint8_t *state;
    size_t size;
} tap;

static uint32_t le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_le(uint8_t *p, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static fg_status tap_send(void *ud, uint32_t to, const void *data, size_t len, fg_error *err) {
    tap *t = ud;
    return t->inner.send(t->inner.ud, to, data, len, err);
}

/* Datagrams: 'F' 'G' version type node, body, CRC-32 (docs/netplay.md). */
static fg_status tap_recv(void *ud, uint32_t *from, void *buf, size_t cap, size_t *len,
                          fg_error *err) {
    tap *t = ud;
    fg_status st = t->inner.recv(t->inner.ud, from, buf, cap, len, err);
    const uint8_t *d = buf;
    if (st != FG_OK || *len < 9) return st;
    if (d[3] == 6 && d[5] == 0) { /* an offer that sends */
        t->offer_len = *len - 9;
        memcpy(t->offer, d + 5, t->offer_len);
        t->size = le32(d + 5 + 1 + 8 + 8 + 4 + 4);
    } else if (d[3] == 7) {
        uint32_t i = le32(d + 9);
        memcpy(t->state + (size_t)i * 1100, d + 13, *len - 13 - 4);
    }
    return st;
}

/* A genuine state: player 2 restarts at frame 400 with the tap in front of it. */
static void capture(tap *t) {
    fg_link_config lc = link_of(0, 0);
    fg_session_config c = waiting_config();
    match m;
    open_match(&m, 2, &lc, NULL, &c);
    frames_until(&m, 400);
    t->inner = fg_link_transport(m.link, 1);
    t->state = calloc(1, 1 << 20);
    fg_transport tr = {t, tap_send, tap_recv};
    restart(&m, 1, NULL, &tr);
    frames_until(&m, 420);
    assert_int_equal(fg_session_get_state(m.n[1].session), FG_SESSION_RUNNING);
    assert_true(t->size > 1000 && t->offer_len == 37);
    close_match(&m);
}

static void forged_refusal(node *n, fg_error *err, const char *expect, uint64_t built);

static void send_as_node0(fg_link *l, unsigned type, const uint8_t *body, size_t n) {
    uint8_t d[1200];
    d[0] = 'F', d[1] = 'G', d[2] = 1, d[3] = (uint8_t)type, d[4] = 0;
    memcpy(d + 5, body, n);
    put_le(d + 5 + n, fg_crc32(0, d, 5 + n), 4);
    fg_error err;
    fg_transport t = fg_link_transport(l, 0);
    assert_int_equal(t.send(t.ud, 1, d, 5 + n + 4, &err), FG_OK);
}

/* A fresh player 2 rejoins a forged player 1 that sends `state` (size bytes) under `offer`; the
** message it stops with must hold `expect`, and its world must be as built. expect NULL: the
** state must be taken. */
static void forged(const uint8_t *offer, const uint8_t *state, size_t size, const char *expect) {
    fg_link_config lc = link_of(0, 0);
    fg_link *l;
    lc.nodes = 2;
    fg_error err;
    assert_int_equal(fg_link_create(&lc, &l, &err), FG_OK);
    node *n = calloc(1, sizeof *n);
    n->s = fg_sample_open(7);
    uint64_t built = fg_world_hash(n->s.w);
    fg_session_config c = waiting_config();
    c.local = 1;
    c.rejoin = true;
    c.transport = fg_link_transport(l, 1);
    c.advance = node_tick;
    c.ud = n;
    assert_int_equal(fg_session_create(n->s.w, &c, &n->session, &err), FG_OK);
    fg_status st = FG_OK;
    for (int f = 0; f < 20 && st == FG_OK; f++) {
        fg_link_set_time(l, f * FRAME_US);
        send_as_node0(l, 6, offer, 37);
        for (size_t off = 0; off < size; off += 1100) {
            uint8_t chunk[8 + 1100];
            size_t len = size - off < 1100 ? size - off : 1100;
            memcpy(chunk, offer + 1 + 8 + 8, 4); /* the transfer id */
            put_le(chunk + 4, off / 1100, 4);
            memcpy(chunk + 8, state + off, len);
            send_as_node0(l, 7, chunk, 8 + len);
        }
        st = fg_session_advance(n->session, f * FRAME_US, &err);
    }
    if (!expect) {
        assert_int_equal(st, FG_OK);
        assert_int_equal(fg_session_get_state(n->session), FG_SESSION_RUNNING);
        assert_int_equal(fg_session_get_stats(n->session).rejoined_at, (fg_tick)le32(state + 20));
        assert_true(fg_world_tick(n->s.w) >= (fg_tick)le32(state + 20));
    } else {
        if (st == FG_OK) fail_msg("the forged state was taken (%s)", expect);
        forged_refusal(n, &err, expect, built);
    }
    fg_session_destroy(n->session);
    fg_sample_close(&n->s);
    free(n);
    fg_link_destroy(l);
}

static void forged_refusal(node *n, fg_error *err, const char *expect, uint64_t built) {
    print_message("%s\n", fg_error_message(err));
    assert_non_null(strstr(fg_error_message(err), expect));
    assert_int_equal(fg_session_get_state(n->session), FG_SESSION_DISCONNECTED);
    assert_int_equal(fg_world_tick(n->s.w), 0);
    assert_int_equal(fg_world_hash(n->s.w), built);
    assert_int_equal(fg_session_get_stats(n->session).rejoined_at, -1);
}

/* The offer with a state of `size` bytes whose digest is the state's own (a forger's). */
static void reseal(uint8_t *offer, const uint8_t *state, size_t size) {
    put_le(offer + 1 + 8 + 8 + 4 + 4, size, 4);
    put_le(offer + 1 + 8 + 8 + 4 + 4 + 4, fg_hash64(state, size, 0x4a524746u), 8);
}

static void forged_states_are_refused(void **state) {
    (void)state;
    tap t;
    memset(&t, 0, sizeof t);
    capture(&t);
    uint8_t offer[64], *s = malloc(t.size + 4096);
    /* Damaged in transit, the CRC of each datagram intact: the digest catches it. */
    memcpy(offer, t.offer, 37);
    memcpy(s, t.state, t.size);
    s[t.size / 2] ^= 0x10;
    forged(offer, s, t.size, "the state of the match from player 1 is damaged: its digest is");
    /* Cut short, resealed: the snapshot's size says more than follows. */
    reseal(offer, t.state, t.size - 700);
    forged(offer, t.state, t.size - 700, "its snapshot says");
    /* Cut inside the header. */
    reseal(offer, t.state, 20);
    forged(offer, t.state, 20, "is 20 bytes; this match's is");
    /* Larger than any state of this match. */
    memcpy(offer, t.offer, 37);
    put_le(offer + 1 + 8 + 8 + 4 + 4, 50u << 20, 4);
    forged(offer, t.state, t.size, "is 52428800 bytes; this match's is");
    /* A snapshot byte changed, resealed: the restore's own checks, or the hash it must have. */
    memcpy(s, t.state, t.size);
    s[t.size - 5000] ^= 0x5a;
    reseal(offer, s, t.size);
    forged(offer, s, t.size, "the state of the match from player 1 is refused:");
    /* A player's input range out of bounds: player 1's records claimed to reach 300 ticks on. */
    memcpy(s, t.state, t.size);
    uint32_t tick = le32(s + 4 + 8 + 8);
    put_le(s + 33 + 4, tick + 300, 4);
    reseal(offer, s, t.size);
    forged(offer, s, t.size, "player 1's input covers ticks");
    /* Another magic. */
    memcpy(s, t.state, t.size);
    s[0] ^= 1;
    reseal(offer, s, t.size);
    forged(offer, s, t.size, "not the state's magic");
    /* An offer for another match (its match id changed). */
    memcpy(offer, t.offer, 37);
    offer[1] ^= 1;
    forged(offer, t.state, t.size, "plays a different match (match id");
    /* The genuine one is taken: the forger's harness itself is sound. */
    forged(t.offer, t.state, t.size, NULL);
    free(s);
    free(t.state);
}

/* }====================================================================== */

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_restarted_player_rejoins),
        cmocka_unit_test(a_restarted_first_player_rejoins),
        cmocka_unit_test(a_rejoin_over_a_bad_link),
        cmocka_unit_test(a_restarted_spectator_rejoins),
        cmocka_unit_test(a_long_outage_pauses_and_resumes),
        cmocka_unit_test(late_input_of_the_old_self_is_ignored),
        cmocka_unit_test(a_peer_that_never_returns_ends_the_match),
        cmocka_unit_test(a_node_without_a_wait_refuses),
        cmocka_unit_test(other_rules_are_refused),
        cmocka_unit_test(forged_states_are_refused),
    };
    return cmocka_run_group_tests(tests, match_setup, match_teardown);
}
