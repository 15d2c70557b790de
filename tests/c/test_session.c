/* SPDX-License-Identifier: MIT */
/*
** test_session.c: the session without Lua (the runtime alone): a match between two C-built
** boxers through the in-memory link allocates nothing once created, hostile datagrams are
** refused and counted without disturbing the match, and the link itself delivers what its
** configuration says.
*/
#include "fg_test.h"
#include "fg_det_fixture.h"

#include <stdlib.h>
#include <string.h>

#define FRAME_US 16667

typedef struct pair {
    fg_ruleset *rules;
    fg_world *w[2];
    fg_session *s[2];
    fg_link *link;
    fg_input_fuzz fz[2];
    fg_world *scratch[2]; /* where each player's random input is made */
    fg_input_record prev[2];
    fg_tick fed[2];
} pair;

static void open_pair(pair *p, const fg_allocator *alloc, const fg_link_config *lc) {
    memset(p, 0, sizeof *p);
    p->rules = fg_det_rules(20);
    fg_world_hooks none = {0};
    fg_error err;
    assert_int_equal(fg_link_create(lc, &p->link, &err), FG_OK);
    for (uint32_t i = 0; i < 2; i++) {
        p->w[i] = fg_det_world(p->rules, 9, alloc, none);
        p->scratch[i] = fg_det_world(p->rules, 9, NULL, none);
        fg_input_fuzz_init(&p->fz[i], 40 + i);
        fg_session_config c = fg_session_config_default();
        c.local = i;
        c.transport = fg_link_transport(p->link, i);
        if (alloc) c.allocator = *alloc;
        assert_int_equal(fg_session_create(p->w[i], &c, &p->s[i], &err), FG_OK);
        p->fed[i] = -1;
    }
}

static void close_pair(pair *p) {
    for (uint32_t i = 0; i < 2; i++) {
        fg_session_destroy(p->s[i]);
        fg_world_destroy(p->w[i]);
        fg_world_destroy(p->scratch[i]);
    }
    fg_link_destroy(p->link);
    fg_ruleset_unref(p->rules);
}

/* Node i's player mashes: random input into its scratch world, whose consumed edges become the
** record the session gets. */
static void feed(pair *p, uint32_t i) {
    fg_tick t = fg_session_input_tick(p->s[i]);
    if (t <= p->fed[i]) return;
    p->fed[i] = t;
    fg_world *sw = p->scratch[i];
    fg_error err;
    assert_int_equal(fg_input_fuzz_tick(&p->fz[i], sw, &err), FG_OK);
    assert_int_equal(fg_world_advance(sw, &err), FG_OK);
    fg_input_record r;
    assert_int_equal(fg_input_record_of_tick(fg_world_buffer(sw, i + 1),
                                             fg_world_last_input(sw, i + 1), &p->prev[i], &r,
                                             &err),
                     FG_OK);
    /* The scratch world's first tick may start from any state: give the session only edges. */
    if (fg_session_input_record(p->s[i], &r, &err) != FG_OK) fail_msg("%s", fg_error_message(&err));
    p->prev[i] = r;
}

static void frames(pair *p, uint64_t *frame, uint32_t n) {
    fg_error err;
    for (uint32_t k = 0; k < n; k++, (*frame)++) {
        int64_t now = (int64_t)*frame * FRAME_US;
        fg_link_set_time(p->link, now);
        for (uint32_t i = 0; i < 2; i++) {
            feed(p, i);
            if (fg_session_advance(p->s[i], now, &err) != FG_OK) fail_msg("%s", fg_error_message(&err));
        }
    }
}

static void a_frame_allocates_nothing(void **state) {
    (void)state;
    fg_counting_allocator counter;
    fg_allocator alloc = fg_test_counting_allocator(&counter);
    fg_link_config lc = fg_link_config_default();
    lc.latency_us = 60000;
    lc.jitter_us = 10000;
    lc.loss_pct = 5;
    lc.allocator = alloc;
    pair p;
    for (uint32_t i = 0; i < 2; i++) fg_input_record_start(&p.prev[i], NULL);
    open_pair(&p, &alloc, &lc);
    for (uint32_t i = 0; i < 2; i++) fg_input_record_start(&p.prev[i], NULL);
    uint64_t frame = 0;
    frames(&p, &frame, 300); /* warm */
    size_t before = counter.allocations;
    frames(&p, &frame, 2000);
    assert_int_equal(counter.allocations, before);
    fg_session_stats st = fg_session_get_stats(p.s[0]);
    assert_true(st.rollbacks > 100);
    /* A refused edge changes nothing of the input already given for the next tick. */
    fg_error err;
    int d = 3;
    if (fg_session_input(p.s[0], FG_EDGE_DIR, d, &err) != FG_OK) d = 7; /* 3 was held already */
    assert_int_equal(fg_session_input(p.s[0], FG_EDGE_DIR, d, &err), d == 3 ? FG_ESTATE : FG_OK);
    assert_int_equal(fg_session_input(p.s[0], FG_EDGE_PRESS, 9, &err), FG_EINVAL);
    assert_non_null(strstr(fg_error_message(&err), "button id 9 is not declared (ids 4..5)"));
    assert_int_equal(fg_session_input(p.s[0], FG_EDGE_DIR, d, &err), FG_ESTATE); /* still at d */
    assert_true(st.confirmed > 2000);
    uint64_t a, b;
    for (fg_tick t = st.confirmed - 100; t < st.confirmed - 10; t++) {
        assert_true(fg_session_confirmed_hash(p.s[0], t, &a));
        assert_true(fg_session_confirmed_hash(p.s[1], t, &b));
        assert_int_equal(a, b);
    }
    assert_false(fg_session_confirmed_hash(p.s[0], st.confirmed, &a));
    close_pair(&p);
}

/* Damage on the way to node 0: flipped, cut or random bytes, half of it with a valid CRC (as a
** forger would send). Each is refused and counted, or, when it still decodes to valid input, the
** hash exchange finds the divergence it causes; nothing crashes, nothing else changes. */
typedef struct hostile {
    fg_transport inner;
    fg_rng rng;
    uint32_t injected;
    uint8_t last[FG_SESSION_DATAGRAM_MAX];
    size_t last_len;
} hostile;

static fg_status hostile_send(void *ud, uint32_t node, const void *data, size_t len,
                              fg_error *err) {
    hostile *h = ud;
    return h->inner.send(h->inner.ud, node, data, len, err);
}

static fg_status hostile_recv(void *ud, uint32_t *node, void *buf, size_t cap, size_t *len,
                              fg_error *err) {
    hostile *h = ud;
    fg_status st = h->inner.recv(h->inner.ud, node, buf, cap, len, err);
    if (st != FG_OK || *len == 0) return st;
    memcpy(h->last, buf, *len);
    h->last_len = *len;
    if (fg_rng_range(&h->rng, 0, 3) != 0) return FG_OK;
    /* Replace it with damage: flip, cut or randomise bytes after the header. */
    uint8_t *b = buf;
    switch (fg_rng_range(&h->rng, 0, 2)) {
    case 0:
        for (int i = 0; i < 4; i++) b[fg_rng_range(&h->rng, 5, (int64_t)*len - 1)] ^= 0xFF;
        break;
    case 1: *len = (size_t)fg_rng_range(&h->rng, 1, (int64_t)*len); break;
    default:
        for (size_t i = 5; i < *len; i++) b[i] = (uint8_t)fg_rng_next(&h->rng);
    }
    /* Half of them with a valid CRC, as a forger would send: the decoders' turn. */
    if (*len > 4 && fg_rng_range(&h->rng, 0, 1)) {
        uint32_t crc = fg_crc32(0, b, *len - 4);
        for (int i = 0; i < 4; i++) b[*len - 4 + (size_t)i] = (uint8_t)(crc >> (8 * i));
    }
    h->injected++;
    return FG_OK;
}

static void hostile_datagrams_are_refused(void **state) {
    (void)state;
    fg_link_config lc = fg_link_config_default();
    lc.latency_us = 30000;
    pair p;
    open_pair(&p, NULL, &lc);
    for (uint32_t i = 0; i < 2; i++) fg_input_record_start(&p.prev[i], NULL);
    /* Re-create node 0's session behind the hostile transport (no frame has run yet). */
    hostile h;
    memset(&h, 0, sizeof h);
    h.inner = fg_link_transport(p.link, 0);
    h.rng = fg_rng_seeded(3);
    fg_session_destroy(p.s[0]);
    fg_session_config c = fg_session_config_default();
    c.transport.ud = &h;
    c.transport.send = hostile_send;
    c.transport.recv = hostile_recv;
    fg_error err;
    assert_int_equal(fg_session_create(p.w[0], &c, &p.s[0], &err), FG_OK);
    uint64_t frame = 0;
    fg_status st = FG_OK;
    for (; frame < 3000 && st == FG_OK; frame++) {
        int64_t now = (int64_t)frame * FRAME_US;
        fg_link_set_time(p.link, now);
        for (uint32_t i = 0; i < 2 && st == FG_OK; i++) {
            feed(&p, i);
            st = fg_session_advance(p.s[i], now, &err);
        }
    }
    /* Forged data that decodes may be a hello from another match or input the peer never
    ** played: a refusal to play or a desync report is the correct answer to it. */
    if (st != FG_OK) {
        assert_int_equal(st, FG_EMISMATCH);
        print_message("stopped at frame %llu: %s\n", (unsigned long long)frame, fg_error_message(&err));
        assert_true(h.injected > 0);
        close_pair(&p);
        return;
    }
    fg_session_stats s0 = fg_session_get_stats(p.s[0]);
    assert_true(h.injected > 100);
    assert_true(s0.rejected > 0);
    /* The records node 0 holds for player 2 are the ones node 1 made. */
    fg_input_record a, b;
    fg_tick upto = fg_session_get_stats(p.s[0]).confirmed;
    uint32_t compared = 0;
    for (fg_tick t = upto - 200 > 0 ? upto - 200 : 0; t < upto; t++)
        if (fg_session_record(p.s[0], 1, t, &a) && fg_session_record(p.s[1], 1, t, &b)) {
            assert_true(fg_input_record_equal(&a, &b));
            compared++;
        }
    assert_true(compared > 100);
    close_pair(&p);
}

/* A node's process dies and a fresh one rejoins (the C API alone): every frame around it, the
** pause, the transfer and the play after it allocate nothing; only creating the new world and
** session does. Afterwards both nodes confirm the same hashes. */
static void a_rejoin_allocates_nothing_per_frame(void **state) {
    (void)state;
    fg_counting_allocator counter;
    fg_allocator alloc = fg_test_counting_allocator(&counter);
    fg_link_config lc = fg_link_config_default();
    lc.latency_us = 30000;
    lc.loss_pct = 2;
    lc.allocator = alloc;
    pair p;
    open_pair(&p, &alloc, &lc);
    fg_session_config c = fg_session_config_default();
    c.allocator = alloc;
    c.rejoin_us = 10 * (int64_t)FG_US_PER_S;
    fg_error err;
    for (uint32_t i = 0; i < 2; i++) {
        fg_input_record_start(&p.prev[i], NULL);
        fg_session_destroy(p.s[i]);
        c.local = i;
        c.transport = fg_link_transport(p.link, i);
        assert_int_equal(fg_session_create(p.w[i], &c, &p.s[i], &err), FG_OK);
    }
    uint64_t frame = 0;
    frames(&p, &frame, 300); /* warm */
    size_t before = counter.allocations;
    for (; frame < 1000; frame++) { /* node 1 is gone from frame 600 */
        int64_t now = (int64_t)frame * FRAME_US;
        fg_link_set_time(p.link, now);
        feed(&p, 0);
        assert_int_equal(fg_session_advance(p.s[0], now, &err), FG_OK);
        if (frame < 600) {
            feed(&p, 1);
            assert_int_equal(fg_session_advance(p.s[1], now, &err), FG_OK);
        }
    }
    assert_int_equal(fg_session_get_state(p.s[0]), FG_SESSION_WAITING);
    size_t during = counter.allocations - before;
    /* The new process: a world as at the start, a session that rejoins. */
    fg_session_destroy(p.s[1]);
    fg_world_destroy(p.w[1]);
    fg_world_hooks none = {0};
    p.w[1] = fg_det_world(p.rules, 9, &alloc, none);
    c.local = 1;
    c.rejoin = true;
    c.transport = fg_link_transport(p.link, 1);
    assert_int_equal(fg_session_create(p.w[1], &c, &p.s[1], &err), FG_OK);
    before = counter.allocations;
    for (; frame < 2500; frame++) { /* the new node 1 plays idle */
        int64_t now = (int64_t)frame * FRAME_US;
        fg_link_set_time(p.link, now);
        feed(&p, 0);
        for (uint32_t i = 0; i < 2; i++)
            if (fg_session_advance(p.s[i], now, &err) != FG_OK)
                fail_msg("%s", fg_error_message(&err));
    }
    assert_int_equal(during + counter.allocations - before, 0);
    fg_session_stats a = fg_session_get_stats(p.s[0]), b = fg_session_get_stats(p.s[1]);
    assert_int_equal(a.rejoins, 1);
    assert_true(b.rejoined_at > 300 && b.rejoined_at < 700);
    assert_true(b.hashes_compared > 20);
    uint64_t h0, h1;
    for (fg_tick t = b.confirmed - 100; t < b.confirmed - 10; t++) {
        assert_true(fg_session_confirmed_hash(p.s[0], t, &h0));
        assert_true(fg_session_confirmed_hash(p.s[1], t, &h1));
        assert_int_equal(h0, h1);
    }
    close_pair(&p);
}

static void the_link_does_what_it_says(void **state) {
    (void)state;
    fg_link_config lc = fg_link_config_default();
    lc.latency_us = 50000;
    lc.jitter_us = 20000;
    lc.loss_pct = 10;
    lc.duplicate_pct = 5;
    lc.seed = 4;
    fg_link *l;
    fg_error err;
    assert_int_equal(fg_link_create(&lc, &l, &err), FG_OK);
    fg_transport a = fg_link_transport(l, 0), b = fg_link_transport(l, 1);
    uint32_t got = 0, early = 0, out_of_order = 0, last = 0;
    for (uint32_t i = 0; i < 1000; i++) {
        fg_link_set_time(l, (int64_t)i * 1000);
        assert_int_equal(a.send(a.ud, 1, &i, sizeof i, &err), FG_OK);
        for (;;) {
            uint32_t v, node;
            size_t len;
            assert_int_equal(b.recv(b.ud, &node, &v, sizeof v, &len, &err), FG_OK);
            if (!len) break;
            assert_int_equal(node, 0);
            int64_t age = (int64_t)i * 1000 - (int64_t)v * 1000;
            if (age < 50000) early++;
            if (v < last) out_of_order++;
            last = v;
            got++;
        }
    }
    fg_link_stats st = fg_link_get_stats(l);
    assert_int_equal(early, 0);
    assert_true(out_of_order > 10); /* jitter reorders */
    assert_true(st.lost > 50 && st.lost < 160);
    assert_true(st.duplicated > 20);
    assert_true(got > 850);
    assert_int_equal(a.send(a.ud, 0, &got, 4, &err), FG_EINVAL); /* to itself */
    lc.loss_pct = 101;
    fg_link *bad;
    assert_int_equal(fg_link_create(&lc, &bad, &err), FG_EINVAL);
    assert_non_null(strstr(fg_error_message(&err), "loss 101%"));
    fg_link_destroy(l);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_frame_allocates_nothing),
        cmocka_unit_test(hostile_datagrams_are_refused),
        cmocka_unit_test(a_rejoin_allocates_nothing_per_frame),
        cmocka_unit_test(the_link_does_what_it_says),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
