/* SPDX-License-Identifier: MIT */
/*
** link.c: the in-memory link, a transport for tests and benchmarks. Every node of a match lives
** in one process; a datagram sent gets an arrival time on the link's clock (latency, plus jitter,
** plus a reorder hold now and then) or is lost, maybe duplicated, all drawn from one seeded RNG,
** so a run with the same seed and the same calls delivers the same datagrams at the same times.
** Datagrams wait in a pool allocated at creation.
*/
#include "internal.h"

#include "framegate/session.h"

#include <string.h>

typedef struct datagram {
    uint32_t from, to;
    int64_t arrival;
    uint64_t seq; /* ties in arrival time go in send order */
    uint32_t len;
    uint8_t data[FG_SESSION_DATAGRAM_MAX];
} datagram;

typedef struct link_end {
    fg_link *link;
    uint32_t node;
} link_end;

struct fg_link {
    fg_link_config cfg;
    fg_rng rng;
    int64_t now;
    uint64_t seq;
    uint32_t count;
    datagram *pool;
    link_end ends[FG_SESSION_MAX_NODES];
    bool cut[FG_SESSION_MAX_NODES];
    fg_link_stats stats;
};

fg_link_config fg_link_config_default(void) {
    fg_link_config c;
    memset(&c, 0, sizeof c);
    c.nodes = 2;
    c.capacity = 1024;
    c.seed = 1;
    c.allocator = fg_allocator_default();
    return c;
}

fg_status fg_link_create(const fg_link_config *cfg, fg_link **out, fg_error *err) {
    fg_link_config c = cfg ? *cfg : fg_link_config_default();
    if (!c.allocator.realloc) c.allocator = fg_allocator_default();
    if (!c.capacity) c.capacity = 1024;
    *out = NULL;
    if (c.nodes < 2 || c.nodes > FG_SESSION_MAX_NODES)
        return fg_error_set(err, FG_EINVAL, "link: %u nodes, expected 2..%d", c.nodes,
                            FG_SESSION_MAX_NODES);
    const int64_t max_us = 10 * (int64_t)FG_US_PER_S;
    if (c.latency_us < 0 || c.latency_us > max_us || c.jitter_us < 0 || c.jitter_us > max_us)
        return fg_error_set(err, FG_EINVAL, "link: latency %lld us, jitter %lld us: expected "
                            "0..%lld us each", (long long)c.latency_us, (long long)c.jitter_us,
                            (long long)max_us);
    if (c.loss_pct > 100 || c.duplicate_pct > 100 || c.reorder_pct > 100)
        return fg_error_set(err, FG_EINVAL, "link: loss %u%%, duplicate %u%%, reorder %u%%: "
                            "expected percentages 0..100", c.loss_pct, c.duplicate_pct,
                            c.reorder_pct);
    if ((c.inner.send != NULL) != (c.inner.recv != NULL))
        return fg_error_set(err, FG_EINVAL, "link: the inner transport needs send and recv");
    if (c.capacity > 65536)
        return fg_error_set(err, FG_EINVAL, "link: capacity %u datagrams, at most 65536",
                            c.capacity);
    fg_link *l = fg_alloc(&c.allocator, sizeof *l);
    if (!l) return fg_error_set(err, FG_ENOMEM, "link: out of memory");
    l->pool = fg_alloc(&c.allocator, sizeof(datagram) * c.capacity);
    if (!l->pool) {
        fg_free(&c.allocator, l, sizeof *l);
        return fg_error_set(err, FG_ENOMEM, "link: out of memory (%u datagrams)", c.capacity);
    }
    l->cfg = c;
    l->rng = fg_rng_seeded(c.seed);
    for (uint32_t i = 0; i < FG_SESSION_MAX_NODES; i++) {
        l->ends[i].link = l;
        l->ends[i].node = i;
    }
    *out = l;
    return FG_OK;
}

void fg_link_destroy(fg_link *l) {
    if (!l) return;
    fg_allocator a = l->cfg.allocator;
    fg_free(&a, l->pool, sizeof(datagram) * l->cfg.capacity);
    fg_free(&a, l, sizeof *l);
}

void fg_link_set_time(fg_link *l, int64_t now_us) { l->now = now_us; }

void fg_link_set_cut(fg_link *l, uint32_t node, bool cut) {
    if (node < FG_SESSION_MAX_NODES) l->cut[node] = cut;
}

fg_link_stats fg_link_get_stats(const fg_link *l) { return l->stats; }

static bool chance(fg_link *l, uint32_t pct) {
    return pct && (uint32_t)fg_rng_range(&l->rng, 0, 99) < pct;
}

static void enqueue(fg_link *l, uint32_t from, uint32_t to, const void *data, size_t len) {
    if (l->count == l->cfg.capacity) {
        l->stats.lost++;
        return;
    }
    int64_t delay = l->cfg.latency_us;
    if (l->cfg.jitter_us) delay += fg_rng_range(&l->rng, 0, l->cfg.jitter_us);
    if (chance(l, l->cfg.reorder_pct)) {
        delay += fg_rng_range(&l->rng, 1000, 1000 + l->cfg.latency_us + l->cfg.jitter_us);
        l->stats.reordered++;
    }
    datagram *d = &l->pool[l->count++];
    d->from = from;
    d->to = to;
    d->arrival = l->now + delay;
    d->seq = l->seq++;
    d->len = (uint32_t)len;
    memcpy(d->data, data, len);
}

static fg_status link_send(void *ud, uint32_t node, const void *data, size_t len,
                           fg_error *err) {
    link_end *end = ud;
    fg_link *l = end->link;
    if (node >= l->cfg.nodes || node == end->node)
        return fg_error_set(err, FG_EINVAL, "link: node %u sends to node %u, expected 0..%u "
                            "other than itself", end->node, node, l->cfg.nodes - 1);
    if (len > FG_SESSION_DATAGRAM_MAX)
        return fg_error_set(err, FG_EINVAL, "link: datagram of %zu bytes, at most %d", len,
                            FG_SESSION_DATAGRAM_MAX);
    l->stats.sent++;
    l->stats.bytes += len;
    if (l->cut[end->node] || l->cut[node] || chance(l, l->cfg.loss_pct)) {
        l->stats.lost++;
        return FG_OK;
    }
    enqueue(l, end->node, node, data, len);
    if (chance(l, l->cfg.duplicate_pct)) {
        l->stats.duplicated++;
        enqueue(l, end->node, node, data, len);
    }
    return FG_OK;
}

/* A shim's outgoing datagrams whose time has come go out through the inner transport. */
static fg_status pump(fg_link *l, fg_error *err) {
    for (;;) {
        uint32_t best = UINT32_MAX;
        for (uint32_t i = 0; i < l->count; i++) {
            const datagram *d = &l->pool[i];
            if (d->arrival > l->now) continue;
            if (best == UINT32_MAX || d->arrival < l->pool[best].arrival ||
                (d->arrival == l->pool[best].arrival && d->seq < l->pool[best].seq))
                best = i;
        }
        if (best == UINT32_MAX) return FG_OK;
        datagram d = l->pool[best];
        l->pool[best] = l->pool[--l->count];
        if (l->cut[d.to] || l->cut[d.from]) {
            l->stats.lost++;
            continue;
        }
        fg_status st = l->cfg.inner.send(l->cfg.inner.ud, d.to, d.data, d.len, err);
        if (st != FG_OK) return st;
        l->stats.delivered++;
    }
}

static fg_status link_recv(void *ud, uint32_t *node, void *buf, size_t cap, size_t *len,
                           fg_error *err) {
    link_end *end = ud;
    fg_link *l = end->link;
    *len = 0;
    if (l->cfg.inner.recv) {
        fg_status st = pump(l, err);
        if (st != FG_OK) return st;
        return l->cfg.inner.recv(l->cfg.inner.ud, node, buf, cap, len, err);
    }
    for (;;) {
        uint32_t best = UINT32_MAX;
        for (uint32_t i = 0; i < l->count; i++) {
            const datagram *d = &l->pool[i];
            if (d->to != end->node || d->arrival > l->now) continue;
            if (best == UINT32_MAX || d->arrival < l->pool[best].arrival ||
                (d->arrival == l->pool[best].arrival && d->seq < l->pool[best].seq))
                best = i;
        }
        if (best == UINT32_MAX) return FG_OK;
        datagram *d = &l->pool[best];
        if (d->len > cap)
            return fg_error_set(err, FG_EINVAL, "link: datagram of %u bytes, buffer of %zu",
                                d->len, cap);
        /* A cable pulled while the datagram was on its way loses it too. */
        bool deliver = !l->cut[d->to] && !l->cut[d->from];
        if (deliver) {
            memcpy(buf, d->data, d->len);
            *len = d->len;
            *node = d->from;
            l->stats.delivered++;
        } else {
            l->stats.lost++;
        }
        *d = l->pool[--l->count];
        if (deliver) return FG_OK;
    }
}

fg_transport fg_link_transport(fg_link *l, uint32_t node) {
    fg_transport t;
    memset(&t, 0, sizeof t);
    if (node >= FG_SESSION_MAX_NODES) return t;
    t.ud = &l->ends[node];
    t.send = link_send;
    t.recv = link_recv;
    return t;
}
