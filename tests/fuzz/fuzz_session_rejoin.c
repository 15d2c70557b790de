/* SPDX-License-Identifier: MIT */
/*
** fuzz_session_rejoin.c: a node rejoining a match takes the state of the match from the network.
** Setup plays a match of two fighters of the determinism fixture through the in-memory link,
** restarts node 1 and captures the genuine transfer node 0 sends it (the offer and the state).
** Each input damages that state (flip or set a byte, write a word, cut it short), may reseal its
** digest and size in the offer as a forger would, may hold back its last chunk, and a fresh
** rejoining session takes it from a forged node 0.
**
** Beyond "never crashes": a refused state stops the session with a message and leaves the world
** as it was built (tick 0, same hash); an accepted one leaves the world at the tick it names, and
** the session runs on; an incomplete one keeps asking. The genuine state, untouched, is taken.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../c/support/fg_det_fixture.h"
#include "framegate/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FRAME_US 16667
#define OFFER_LEN 37 /* status, match id, rules digest, transfer id, tick, size, digest */
#define CHUNK 1100
#define MAX_STATE (1 << 20)

static void check(bool ok) {
    if (!ok) abort();
}

static void put_le(uint8_t *p, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t rd32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

typedef struct fixture {
    fg_ruleset *rules;
    fg_world *w; /* the rejoiner's world, as built */
    uint64_t built;
    uint8_t offer[OFFER_LEN], *state, *copy;
    size_t size;
} fixture;

/* Records what node 1 receives of a transfer: the offer and the chunks. */
typedef struct tap {
    fg_transport inner;
    fixture *f;
} tap;

static fg_status tap_send(void *ud, uint32_t to, const void *d, size_t len, fg_error *err) {
    tap *t = ud;
    return t->inner.send(t->inner.ud, to, d, len, err);
}

static fg_status tap_recv(void *ud, uint32_t *from, void *buf, size_t cap, size_t *len,
                          fg_error *err) {
    tap *t = ud;
    fg_status st = t->inner.recv(t->inner.ud, from, buf, cap, len, err);
    const uint8_t *d = buf;
    if (st != FG_OK || *len < 9) return st;
    if (d[3] == 6 && d[5] == 0 && *len - 9 == OFFER_LEN) {
        memcpy(t->f->offer, d + 5, OFFER_LEN);
        t->f->size = rd32(d + 5 + 1 + 8 + 8 + 4 + 4);
    } else if (d[3] == 7 && *len >= 17) {
        size_t at = (size_t)rd32(d + 9) * CHUNK;
        if (at + *len - 17 <= MAX_STATE) memcpy(t->f->state + at, d + 13, *len - 17);
    }
    return st;
}

static fg_session_config config(uint32_t local, fg_transport t) {
    fg_session_config c = fg_session_config_default();
    c.local = local;
    c.hash_every = 1; /* the fewest snapshots a session keeps: a run creates one */
    c.max_prediction = 1;
    c.rejoin_us = 10 * (int64_t)FG_US_PER_S;
    c.transport = t;
    return c;
}

/* Each node presses and releases a button, or walks, on its own rhythm. */
static void input(fg_session *s, fg_world *w, uint32_t node, uint64_t frame) {
    int lp = fg_world_action_id(w, "LP");
    if (node == 0 && frame % 20 == 1) fg_session_input(s, FG_EDGE_PRESS, lp, NULL);
    if (node == 0 && frame % 20 == 6) fg_session_input(s, FG_EDGE_RELEASE, lp, NULL);
    if (node == 1 && frame % 16 == 0) fg_session_input(s, FG_EDGE_DIR, 4, NULL);
    if (node == 1 && frame % 16 == 8) fg_session_input(s, FG_EDGE_DIR, 5, NULL);
}

static void capture(fixture *f) {
    fg_link_config lc = fg_link_config_default();
    lc.latency_us = 20000;
    fg_link *l;
    check(fg_link_create(&lc, &l, NULL) == FG_OK);
    fg_world *w[2];
    fg_session *s[2];
    for (uint32_t i = 0; i < 2; i++) {
        w[i] = fg_det_world(f->rules, 9, NULL, (fg_world_hooks){0});
        fg_session_config c = config(i, fg_link_transport(l, i));
        check(fg_session_create(w[i], &c, &s[i], NULL) == FG_OK);
    }
    uint64_t frame = 0;
    for (; frame < 200; frame++) {
        fg_link_set_time(l, (int64_t)frame * FRAME_US);
        for (uint32_t i = 0; i < 2; i++) {
            input(s[i], w[i], i, frame);
            check(fg_session_advance(s[i], (int64_t)frame * FRAME_US, NULL) == FG_OK);
        }
    }
    /* Node 1's process restarts. */
    fg_session_destroy(s[1]);
    fg_world_destroy(w[1]);
    w[1] = fg_det_world(f->rules, 9, NULL, (fg_world_hooks){0});
    tap t = {fg_link_transport(l, 1), f};
    fg_session_config c = config(1, (fg_transport){&t, tap_send, tap_recv});
    c.rejoin = true;
    check(fg_session_create(w[1], &c, &s[1], NULL) == FG_OK);
    for (; fg_session_get_state(s[1]) != FG_SESSION_RUNNING; frame++) {
        check(frame < 400);
        fg_link_set_time(l, (int64_t)frame * FRAME_US);
        input(s[0], w[0], 0, frame);
        for (uint32_t i = 0; i < 2; i++)
            check(fg_session_advance(s[i], (int64_t)frame * FRAME_US, NULL) == FG_OK);
    }
    check(f->size > 100 && fg_world_tick(w[1]) > 100);
    for (uint32_t i = 0; i < 2; i++) {
        fg_session_destroy(s[i]);
        fg_world_destroy(w[i]);
    }
    fg_link_destroy(l);
}

static fixture *setup(void) {
    static fixture f;
    if (f.w) return &f;
    f.rules = fg_det_rules(40);
    check(f.rules != NULL);
    f.state = calloc(1, MAX_STATE);
    f.copy = malloc(MAX_STATE);
    check(f.state && f.copy);
    capture(&f);
    f.w = fg_det_world(f.rules, 9, NULL, (fg_world_hooks){0});
    f.built = fg_world_hash(f.w);
    return &f;
}

static void send_as_node0(fg_link *l, unsigned type, const uint8_t *body, size_t n) {
    uint8_t d[FG_SESSION_DATAGRAM_MAX];
    d[0] = 'F', d[1] = 'G', d[2] = 1, d[3] = (uint8_t)type, d[4] = 0;
    memcpy(d + 5, body, n);
    put_le(d + 5 + n, fg_crc32(0, d, 5 + n), 4);
    fg_transport t = fg_link_transport(l, 0);
    check(t.send(t.ud, 1, d, 5 + n + 4, NULL) == FG_OK);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fixture *f = setup();
    if (size < 1) return 0;
    memcpy(f->copy, f->state, f->size);
    size_t len = f->size;
    uint8_t flags = data[0];
    for (size_t at = 1; at + 5 <= size; at += 5) {
        uint32_t where = rd32(data + at);
        uint8_t v = data[at + 4];
        size_t off = (where & 0x3FFFFFFFu) % f->size;
        switch (where >> 30) {
        case 0: f->copy[off] ^= v ? v : 1; break;
        case 1: f->copy[off] = v; break;
        case 2:
            off &= ~(size_t)3;
            if (off + 4 <= f->size) memset(f->copy + off, v & 1 ? 0xFF : v, 4);
            break;
        default: len = off; break;
        }
    }
    uint8_t offer[OFFER_LEN];
    memcpy(offer, f->offer, OFFER_LEN);
    if (flags & 1) put_le(offer + 1 + 8 + 8 + 4 + 4 + 4, fg_hash64(f->copy, len, 0x4a524746u), 8);
    if (flags & 2) put_le(offer + 1 + 8 + 8 + 4 + 4, len, 4);
    fg_link_config lc = fg_link_config_default();
    lc.capacity = 128; /* a few frames of offers, chunks and joins */
    fg_link *l;
    check(fg_link_create(&lc, &l, NULL) == FG_OK);
    fg_session_config c = config(1, fg_link_transport(l, 1));
    c.rejoin = true;
    fg_session *s;
    check(fg_session_create(f->w, &c, &s, NULL) == FG_OK);
    fg_error err = {0};
    fg_status st = FG_OK;
    size_t nchunks = (len + CHUNK - 1) / CHUNK;
    for (int frame = 0; frame < 3 && st == FG_OK; frame++) {
        fg_link_set_time(l, frame * FRAME_US);
        send_as_node0(l, 6, offer, OFFER_LEN);
        for (size_t i = 0; i < nchunks; i++) {
            if ((flags & 4) && i + 1 == nchunks) continue; /* a transfer that stops short */
            uint8_t chunk[8 + CHUNK];
            size_t n = len - i * CHUNK < CHUNK ? len - i * CHUNK : CHUNK;
            memcpy(chunk, offer + 1 + 8 + 8, 4);
            put_le(chunk + 4, i, 4);
            memcpy(chunk + 8, f->copy + i * CHUNK, n);
            send_as_node0(l, 7, chunk, 8 + n);
        }
        st = fg_session_advance(s, frame * FRAME_US, &err);
    }
    fg_session_state state = fg_session_get_state(s);
    if (size == 1 && flags == 0) check(state == FG_SESSION_RUNNING); /* the genuine state */
    if (st != FG_OK) {
        check(state == FG_SESSION_DISCONNECTED);
        check(fg_error_message(&err)[0] != '\0');
        check(fg_world_tick(f->w) == 0 && fg_world_hash(f->w) == f->built);
        fg_error_clear(&err);
    } else if (state == FG_SESSION_RUNNING) {
        fg_session_stats stats = fg_session_get_stats(s);
        check(stats.rejoined_at >= 0 && fg_world_tick(f->w) >= stats.rejoined_at);
        for (int frame = 3; frame < 30; frame++) /* alone, it predicts and stalls */
            if (fg_session_advance(s, frame * FRAME_US, &err) != FG_OK) fg_error_clear(&err);
        fg_world_hash(f->w);
    } else {
        check(state == FG_SESSION_REJOINING);
        check(fg_world_tick(f->w) == 0 && fg_world_hash(f->w) == f->built);
    }
    fg_session_destroy(s);
    fg_link_destroy(l);
    /* The next input gets the world as built again. */
    if (fg_world_tick(f->w) != 0) {
        fg_world_destroy(f->w);
        f->w = fg_det_world(f->rules, 9, NULL, (fg_world_hooks){0});
        check(fg_world_hash(f->w) == f->built);
    }
    return 0;
}
