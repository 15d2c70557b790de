/* SPDX-License-Identifier: MIT */
/*
** replication.c: the authority, the owning client and observers as nodes of one session, joined by
** an in-memory lossy transport.
**
** Each non-authority node has one link to the authority, with two directions ("up" to the
** authority, "down" from it). A direction carries three kinds of traffic:
**   - reliable messages (requests, answers, events): sequence numbers from 1, selective repeat:
**     the receiver holds messages that arrive after a gap (up to channel_capacity ahead) and hands
**     them over in order once the gap fills; its ack is cumulative plus a bitmap of the 32
**     numbers after the first missing one; the sender resends what is neither acked nor marked
**     in a bitmap once a round trip (2 * latency + 1 ticks) has passed;
**   - property values (down only): the newest version, resent every round trip until acked;
**   - acks (cumulative for reliable messages, per property for values), sent unreliably.
** Every message is subject to the link's loss, drawn from the session's RNG in send order, and
** queues in a fixed-capacity FIFO until its delivery tick. All memory is taken at creation.
*/
#include "framegate/replication.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* {====================================================================== types */

enum { M_REL = 1, M_ACK = 2, M_PROP = 3, M_PROP_ACK = 4 };
enum { R_SET = 1, R_ACTION = 2, R_CONFIRM = 3, R_REJECT = 4, R_EVENT = 5 };

typedef struct msg {
    fg_tick deliver;
    int64_t value;  /* SET, PROP: the value; REJECT: the authority's ready tick; ACK: bitmap */
    uint32_t seq;   /* REL: sequence; ACK: cumulative; PROP, PROP_ACK: version */
    uint32_t aux;   /* SET, PROP: owner request number; ACTION ... EVENT: action seq */
    uint16_t id;    /* property or action id */
    uint8_t kind;   /* M_* */
    uint8_t rel;    /* R_* for M_REL */
    uint8_t reason; /* REJECT: fg_rep_reason */
} msg;

typedef struct pipe {
    msg *ring;
    uint32_t head, count, cap;
} pipe;

typedef struct rel_entry {
    msg m;
    fg_tick last_sent;
    bool sacked; /* the receiver holds it already: do not resend */
} rel_entry;

typedef struct sender {
    rel_entry *ring;
    uint32_t head, count, cap;
    uint32_t next_seq;
} sender;

/* Receiver side of a reliable direction: a window of channel_capacity slots by sequence. */
typedef struct receiver {
    msg *buf;
    uint8_t *have;
    uint32_t next, cap;
    bool ack_due;
} receiver;

typedef struct prop_tx {
    uint32_t acked, sent;
    fg_tick sent_tick;
} prop_tx;

typedef struct prediction {
    uint32_t seq;
    uint32_t action;
} prediction;

typedef struct node {
    fg_rep_node id;
    uint8_t role, used, connected;
    const char *closed; /* why it is no longer connected (static text) */
    fg_rep_link link;
    fg_rep_hooks hooks;
    int64_t value[FG_REP_MAX_PROPERTIES];
    uint32_t version[FG_REP_MAX_PROPERTIES];
    fg_tick ready[FG_REP_MAX_ACTIONS];
    /* The link to the authority (unused on the authority itself). */
    pipe up, down;
    sender up_tx;     /* at the node */
    sender down_tx;   /* at the authority */
    receiver up_rx;   /* at the authority */
    receiver down_rx; /* at the node */
    uint32_t prop_ack_due; /* at the node: properties received this tick */
    prop_tx ptx[FG_REP_MAX_PROPERTIES]; /* at the authority */
    /* The owner's predictions and requests. */
    prediction *pred;
    uint32_t pred_head, pred_count, pred_cap;
    uint32_t set_seq, action_seq;
    uint32_t pending_set[FG_REP_MAX_PROPERTIES];
    fg_rep_stats stats;
} node;

struct fg_rep_session {
    fg_allocator alloc;
    void *block;
    size_t block_size;
    fg_rep_config cfg;
    uint32_t nprops, nactions;
    fg_rep_property_def props[FG_REP_MAX_PROPERTIES];
    char prop_names[FG_REP_MAX_PROPERTIES][FG_REP_NAME_MAX];
    fg_rep_action_def acts[FG_REP_MAX_ACTIONS];
    char act_names[FG_REP_MAX_ACTIONS][FG_REP_NAME_MAX];
    fg_tick tick;
    fg_rng rng;
    uint32_t next_observer_id;
    uint32_t nnodes;
    node *nodes; /* [0] authority, [1] owner, [2..] observer slots */
    uint32_t last_owner_set[FG_REP_MAX_PROPERTIES];
    int in_hook;
};

/* }====================================================================== */

/* {====================================================================== names */

const char *fg_rep_role_name(fg_rep_role role) {
    switch (role) {
    case FG_REP_ROLE_AUTHORITY: return "authority";
    case FG_REP_ROLE_OWNER: return "owner";
    case FG_REP_ROLE_OBSERVER: return "observer";
    }
    return "?";
}

const char *fg_rep_run_name(fg_rep_run run) {
    switch (run) {
    case FG_REP_RUN_PREDICTED: return "predicted";
    case FG_REP_RUN_CONFIRMED: return "confirmed";
    case FG_REP_RUN_AUTHORITY: return "authority";
    case FG_REP_RUN_REPLICATED: return "replicated";
    }
    return "?";
}

const char *fg_rep_reason_name(fg_rep_reason reason) {
    switch (reason) {
    case FG_REP_REASON_NONE: return "none";
    case FG_REP_REASON_COOLDOWN: return "cooldown";
    }
    return "?";
}

/* "owner", "authority" or "observer 7", for messages. */
static const char *node_label(const node *n, char *buf, size_t size) {
    if (n->role == FG_REP_ROLE_OBSERVER)
        snprintf(buf, size, "observer %u", n->id);
    else
        snprintf(buf, size, "%s", fg_rep_role_name((fg_rep_role)n->role));
    return buf;
}

/* }====================================================================== */

/* {====================================================================== creation */

fg_rep_config fg_rep_config_default(void) {
    fg_rep_config c;
    memset(&c, 0, sizeof c);
    c.owner_link.latency_ticks = 3;
    c.owner_link.loss = 0.0;
    c.max_observers = 4;
    c.channel_capacity = 128;
    c.inflight_capacity = 1024;
    c.seed = 1;
    return c;
}

static fg_status check_link(const fg_rep_link *l, const char *what, fg_error *err) {
    if (l->latency_ticks < 1 || l->latency_ticks > 1000)
        return fg_error_set(err, FG_EINVAL, "replication: %s.latency_ticks: %u, expected 1 to 1000",
                            what, l->latency_ticks);
    if (!(l->loss >= 0.0 && l->loss < 1.0))
        return fg_error_set(err, FG_EINVAL, "replication: %s.loss: %g, expected a value in [0, 1)",
                            what, l->loss);
    return FG_OK;
}

static fg_status check_name(const char *kind, uint32_t i, const char *name, fg_error *err) {
    size_t len = name ? strlen(name) : 0;
    if (len == 0 || len >= FG_REP_NAME_MAX)
        return fg_error_set(err, FG_EINVAL, "replication: %s[%u]: name '%s' must be 1 to %d bytes",
                            kind, i + 1, name ? name : "", FG_REP_NAME_MAX - 1);
    return FG_OK;
}

static fg_status check_spec(const fg_rep_spec *spec, fg_error *err) {
    if (spec->nproperties > FG_REP_MAX_PROPERTIES)
        return fg_error_set(err, FG_EINVAL, "replication: %u properties declared, at most %d",
                            spec->nproperties, FG_REP_MAX_PROPERTIES);
    if (spec->nactions > FG_REP_MAX_ACTIONS)
        return fg_error_set(err, FG_EINVAL, "replication: %u actions declared, at most %d",
                            spec->nactions, FG_REP_MAX_ACTIONS);
    if ((spec->nproperties && !spec->properties) || (spec->nactions && !spec->actions))
        return fg_error_set(err, FG_EINVAL, "replication: a count is set but its array is NULL");
    for (uint32_t i = 0; i < spec->nproperties; i++) {
        const fg_rep_property_def *p = &spec->properties[i];
        fg_status st = check_name("properties", i, p->name, err);
        if (st != FG_OK) return st;
        if (p->min > p->max)
            return fg_error_set(err, FG_EINVAL,
                                "replication: property '%s': min %lld is above max %lld", p->name,
                                (long long)p->min, (long long)p->max);
        if (p->initial < p->min || p->initial > p->max)
            return fg_error_set(err, FG_EINVAL,
                                "replication: property '%s': initial %lld is outside [%lld, %lld]",
                                p->name, (long long)p->initial, (long long)p->min,
                                (long long)p->max);
        if (p->condition != FG_REP_COND_SIMULATED_ONLY && p->condition != FG_REP_COND_ALL)
            return fg_error_set(err, FG_EINVAL,
                                "replication: property '%s': condition %d, expected "
                                "FG_REP_COND_SIMULATED_ONLY (0) or FG_REP_COND_ALL (1)",
                                p->name, (int)p->condition);
        for (uint32_t j = 0; j < i; j++)
            if (strcmp(spec->properties[j].name, p->name) == 0)
                return fg_error_set(err, FG_EINVAL, "replication: property '%s' is declared twice",
                                    p->name);
    }
    for (uint32_t i = 0; i < spec->nactions; i++) {
        const fg_rep_action_def *a = &spec->actions[i];
        fg_status st = check_name("actions", i, a->name, err);
        if (st != FG_OK) return st;
        for (uint32_t j = 0; j < i; j++)
            if (strcmp(spec->actions[j].name, a->name) == 0)
                return fg_error_set(err, FG_EINVAL, "replication: action '%s' is declared twice",
                                    a->name);
    }
    return FG_OK;
}

static fg_status check_config(const fg_rep_config *c, fg_error *err) {
    fg_status st = check_link(&c->owner_link, "owner_link", err);
    if (st != FG_OK) return st;
    if (c->max_observers > FG_REP_MAX_OBSERVERS)
        return fg_error_set(err, FG_EINVAL, "replication: max_observers: %u, expected 0 to %d",
                            c->max_observers, FG_REP_MAX_OBSERVERS);
    if (c->channel_capacity < 1 || c->channel_capacity > 65536)
        return fg_error_set(err, FG_EINVAL,
                            "replication: channel_capacity: %u, expected 1 to 65536",
                            c->channel_capacity);
    if (c->inflight_capacity < 1 || c->inflight_capacity > (1u << 20))
        return fg_error_set(err, FG_EINVAL,
                            "replication: inflight_capacity: %u, expected 1 to %u",
                            c->inflight_capacity, 1u << 20);
    return FG_OK;
}

/* Sorts indices by name (bytewise), insertion sort: at most 32 entries. */
static void sort_by_name(uint32_t *idx, uint32_t n, const char *const *names) {
    for (uint32_t i = 0; i < n; i++) idx[i] = i;
    for (uint32_t i = 1; i < n; i++) {
        uint32_t v = idx[i], j = i;
        while (j > 0 && strcmp(names[idx[j - 1]], names[v]) > 0) {
            idx[j] = idx[j - 1];
            j--;
        }
        idx[j] = v;
    }
}

static void reset_link(node *n) {
    n->up.head = n->up.count = 0;
    n->down.head = n->down.count = 0;
    n->up_tx.head = n->up_tx.count = 0;
    n->down_tx.head = n->down_tx.count = 0;
    n->up_tx.next_seq = n->down_tx.next_seq = 1;
    n->up_rx.next = n->down_rx.next = 1;
    n->up_rx.ack_due = n->down_rx.ack_due = false;
    memset(n->up_rx.have, 0, n->up_rx.cap);
    memset(n->down_rx.have, 0, n->down_rx.cap);
    n->prop_ack_due = 0;
    memset(n->ptx, 0, sizeof n->ptx);
    n->pred_head = n->pred_count = 0;
    n->set_seq = n->action_seq = 0;
    memset(n->pending_set, 0, sizeof n->pending_set);
}

/* A node's own world starts from the declared values with every cooldown ready. */
static void reset_world(fg_rep_session *s, node *n) {
    for (uint32_t p = 0; p < s->nprops; p++) {
        n->value[p] = s->props[p].initial;
        n->version[p] = 0;
    }
    for (uint32_t a = 0; a < s->nactions; a++) n->ready[a] = 0;
    memset(&n->stats, 0, sizeof n->stats);
}

fg_status fg_rep_create(const fg_rep_spec *spec, const fg_rep_config *cfg,
                        const fg_allocator *alloc, fg_rep_session **out, fg_error *err) {
    if (!spec || !cfg || !out)
        return fg_error_set(err, FG_EINVAL, "replication: spec, config and out are required");
    fg_status st = check_spec(spec, err);
    if (st == FG_OK) st = check_config(cfg, err);
    if (st != FG_OK) return st;

    fg_allocator a = alloc ? *alloc : fg_allocator_default();
    fg_rep_session *s = fg_alloc(&a, sizeof *s);
    if (!s)
        return fg_error_set(err, FG_ENOMEM, "replication: cannot allocate a session (%zu bytes)",
                            sizeof *s);
    s->alloc = a;
    s->cfg = *cfg;
    s->nnodes = 2 + cfg->max_observers;
    /* One block: the nodes, then per linked node two pipes, two senders and the predictions. */
    size_t per_link = 2 * (size_t)cfg->inflight_capacity * sizeof(msg) +
                      2 * (size_t)cfg->channel_capacity * sizeof(rel_entry) +
                      2 * (size_t)cfg->channel_capacity * sizeof(msg) +
                      (size_t)cfg->channel_capacity * sizeof(prediction) +
                      2 * (size_t)cfg->channel_capacity; /* receiver flags, last: no alignment */
    size_t size = s->nnodes * sizeof(node) + (s->nnodes - 1) * per_link;
    s->block = fg_alloc(&a, size);
    if (!s->block) {
        uint32_t nodes = s->nnodes;
        fg_free(&a, s, sizeof *s);
        return fg_error_set(err, FG_ENOMEM,
                            "replication: cannot allocate %zu bytes for %u nodes", size, nodes);
    }
    s->block_size = size;
    s->nodes = s->block;
    unsigned char *p = (unsigned char *)s->block + s->nnodes * sizeof(node);
    for (uint32_t i = 1; i < s->nnodes; i++) {
        node *n = &s->nodes[i];
        n->up.ring = (msg *)p;
        p += cfg->inflight_capacity * sizeof(msg);
        n->down.ring = (msg *)p;
        p += cfg->inflight_capacity * sizeof(msg);
        n->up.cap = n->down.cap = cfg->inflight_capacity;
        n->up_tx.ring = (rel_entry *)p;
        p += cfg->channel_capacity * sizeof(rel_entry);
        n->down_tx.ring = (rel_entry *)p;
        p += cfg->channel_capacity * sizeof(rel_entry);
        n->up_tx.cap = n->down_tx.cap = cfg->channel_capacity;
        n->up_rx.buf = (msg *)p;
        p += cfg->channel_capacity * sizeof(msg);
        n->down_rx.buf = (msg *)p;
        p += cfg->channel_capacity * sizeof(msg);
        n->up_rx.cap = n->down_rx.cap = cfg->channel_capacity;
        n->pred = (prediction *)p;
        p += cfg->channel_capacity * sizeof(prediction);
        n->pred_cap = cfg->channel_capacity;
    }
    for (uint32_t i = 1; i < s->nnodes; i++) {
        node *n = &s->nodes[i];
        n->up_rx.have = p;
        p += cfg->channel_capacity;
        n->down_rx.have = p;
        p += cfg->channel_capacity;
    }

    /* Declarations, sorted by name so ids do not depend on the caller's order. */
    const char *names[FG_REP_MAX_PROPERTIES];
    uint32_t idx[FG_REP_MAX_PROPERTIES];
    for (uint32_t i = 0; i < spec->nproperties; i++) names[i] = spec->properties[i].name;
    sort_by_name(idx, spec->nproperties, names);
    for (uint32_t i = 0; i < spec->nproperties; i++) {
        s->props[i] = spec->properties[idx[i]];
        snprintf(s->prop_names[i], FG_REP_NAME_MAX, "%s", s->props[i].name);
        s->props[i].name = s->prop_names[i];
    }
    s->nprops = spec->nproperties;
    for (uint32_t i = 0; i < spec->nactions; i++) names[i] = spec->actions[i].name;
    sort_by_name(idx, spec->nactions, names);
    for (uint32_t i = 0; i < spec->nactions; i++) {
        s->acts[i] = spec->actions[idx[i]];
        snprintf(s->act_names[i], FG_REP_NAME_MAX, "%s", s->acts[i].name);
        s->acts[i].name = s->act_names[i];
    }
    s->nactions = spec->nactions;

    s->tick = 0;
    s->rng = fg_rng_seeded(cfg->seed);
    s->next_observer_id = 2;
    node *auth = &s->nodes[0], *own = &s->nodes[1];
    auth->id = FG_REP_NODE_AUTHORITY;
    auth->role = FG_REP_ROLE_AUTHORITY;
    auth->used = auth->connected = 1;
    reset_world(s, auth);
    own->id = FG_REP_NODE_OWNER;
    own->role = FG_REP_ROLE_OWNER;
    own->used = own->connected = 1;
    own->link = cfg->owner_link;
    reset_world(s, own);
    reset_link(own);
    *out = s;
    return FG_OK;
}

void fg_rep_destroy(fg_rep_session *s) {
    if (!s) return;
    fg_allocator a = s->alloc;
    fg_free(&a, s->block, s->block_size);
    fg_free(&a, s, sizeof *s);
}

/* }====================================================================== */

/* {====================================================================== lookups */

static node *find_node(const fg_rep_session *s, fg_rep_node id) {
    if (id == FG_REP_NODE_AUTHORITY || id == FG_REP_NODE_OWNER) return &s->nodes[id];
    for (uint32_t i = 2; i < s->nnodes; i++)
        if (s->nodes[i].used && s->nodes[i].id == id) return &s->nodes[i];
    return NULL;
}

static fg_status no_node(fg_error *err, fg_rep_node id) {
    return fg_error_set(err, FG_ENOTFOUND, "replication: node %u is not joined", id);
}

int fg_rep_property_id(const fg_rep_session *s, const char *name) {
    if (!name) return -1;
    for (uint32_t i = 0; i < s->nprops; i++)
        if (strcmp(s->prop_names[i], name) == 0) return (int)i;
    return -1;
}

int fg_rep_action_id(const fg_rep_session *s, const char *name) {
    if (!name) return -1;
    for (uint32_t i = 0; i < s->nactions; i++)
        if (strcmp(s->act_names[i], name) == 0) return (int)i;
    return -1;
}

uint32_t fg_rep_property_count(const fg_rep_session *s) { return s->nprops; }
uint32_t fg_rep_action_count(const fg_rep_session *s) { return s->nactions; }

const fg_rep_property_def *fg_rep_property(const fg_rep_session *s, uint32_t id) {
    return id < s->nprops ? &s->props[id] : NULL;
}

const fg_rep_action_def *fg_rep_action(const fg_rep_session *s, uint32_t id) {
    return id < s->nactions ? &s->acts[id] : NULL;
}

/* Lists declared names after an unknown one, so a typo is easy to spot. */
static fg_status unknown_name(const fg_rep_session *s, fg_error *err, bool property,
                              const char *name) {
    const char *kind = property ? "property" : "action";
    uint32_t n = property ? s->nprops : s->nactions;
    char list[256];
    size_t at = 0;
    list[0] = '\0';
    for (uint32_t i = 0; i < n && at < sizeof list; i++) {
        int w = snprintf(list + at, sizeof list - at, "%s%s", i ? ", " : "",
                         property ? s->prop_names[i] : s->act_names[i]);
        if (w < 0) break;
        at += (size_t)w;
    }
    return fg_error_set(err, FG_ENOTFOUND, "replication: no %s '%s' (declared: %s)", kind,
                        name ? name : "(null)", n ? list : "none");
}

static fg_status busy(const fg_rep_session *s, const char *fn, fg_error *err) {
    if (s->in_hook)
        return fg_error_set(err, FG_ESTATE,
                            "replication: %s called from inside a hook; hooks may read the "
                            "session but not change it",
                            fn);
    return FG_OK;
}

fg_tick fg_rep_tick(const fg_rep_session *s) { return s->tick; }

/* }====================================================================== */

/* {====================================================================== transport */

#define BUMP(s, n, field)                                                                        \
    do {                                                                                         \
        (n)->stats.field++;                                                                      \
        if ((n) != &(s)->nodes[0]) (s)->nodes[0].stats.field++;                                  \
    } while (0)

/* Hands one message to the link of n, toward the authority (up) or from it. */
static void transmit(fg_rep_session *s, node *n, bool up, msg m) {
    BUMP(s, n, sent);
    double draw = fg_rng_unit(&s->rng); /* one draw per send, lost or not */
    pipe *p = up ? &n->up : &n->down;
    if (draw < n->link.loss || p->count == p->cap) {
        BUMP(s, n, lost);
        return;
    }
    m.deliver = s->tick + (fg_tick)n->link.latency_ticks;
    p->ring[(p->head + p->count) % p->cap] = m;
    p->count++;
}

/* Takes the oldest message off a pipe if its delivery tick has come. The pipe is FIFO because a
** link's latency is constant. */
static bool pipe_pop_due(const fg_rep_session *s, pipe *p, msg *out) {
    if (p->count == 0 || p->ring[p->head].deliver > s->tick) return false;
    *out = p->ring[p->head];
    p->head = (p->head + 1) % p->cap;
    p->count--;
    return true;
}

static fg_tick rto(const node *n) { return 2 * (fg_tick)n->link.latency_ticks + 1; }

static bool sender_full(const sender *tx) { return tx->count >= tx->cap; }

/* Queues a reliable message (the caller checked for room) and transmits it at once. */
static void rel_send(fg_rep_session *s, node *n, bool up, msg m) {
    sender *tx = up ? &n->up_tx : &n->down_tx;
    m.kind = M_REL;
    m.seq = tx->next_seq++;
    rel_entry *e = &tx->ring[(tx->head + tx->count) % tx->cap];
    e->m = m;
    e->last_sent = s->tick;
    e->sacked = false;
    tx->count++;
    transmit(s, n, up, m);
}

/* The reliable channel of a link overflowed: the link is closed, as a server drops a client whose
** reliable buffer overflows. */
static void close_link(node *n, const char *why) {
    n->connected = 0;
    n->closed = why;
    reset_link(n);
}

/* A cumulative ack plus the bitmap of held messages after the first missing one. */
static void rel_acked(sender *tx, uint32_t cum, uint64_t bitmap) {
    while (tx->count > 0 && tx->ring[tx->head].m.seq <= cum) {
        tx->head = (tx->head + 1) % tx->cap;
        tx->count--;
    }
    for (uint32_t i = 0; i < tx->count; i++) {
        rel_entry *e = &tx->ring[(tx->head + i) % tx->cap];
        uint32_t k = e->m.seq - cum - 2; /* bit 0 is cum + 2 */
        if (e->m.seq >= cum + 2 && k < 32 && (bitmap >> k) & 1u) e->sacked = true;
    }
}

static void resend_due(fg_rep_session *s, node *n, bool up) {
    sender *tx = up ? &n->up_tx : &n->down_tx;
    for (uint32_t i = 0; i < tx->count; i++) {
        rel_entry *e = &tx->ring[(tx->head + i) % tx->cap];
        if (!e->sacked && s->tick - e->last_sent >= rto(n)) {
            e->last_sent = s->tick;
            BUMP(s, n, retransmitted);
            transmit(s, n, up, e->m);
        }
    }
}

static msg ack_of(const receiver *rx) {
    msg m;
    memset(&m, 0, sizeof m);
    m.kind = M_ACK;
    m.seq = rx->next - 1;
    uint64_t bits = 0;
    for (uint32_t k = 0; k < 32 && k + 1 < rx->cap; k++) {
        uint32_t seq = rx->next + 1 + k;
        if (rx->have[seq % rx->cap] && rx->buf[seq % rx->cap].seq == seq) bits |= 1ull << k;
    }
    m.value = (int64_t)bits;
    return m;
}

/* }====================================================================== */

/* {====================================================================== hooks */

static void call_replicated(fg_rep_session *s, node *n, uint32_t p) {
    n->stats.applied++;
    if (!n->hooks.on_replicated) return;
    s->in_hook++;
    n->hooks.on_replicated(n->hooks.ud, n->id, p, s->prop_names[p], n->value[p]);
    s->in_hook--;
}

static void call_action(fg_rep_session *s, node *n, uint32_t a, uint32_t seq, fg_rep_run run) {
    if (!n->hooks.on_action) return;
    s->in_hook++;
    n->hooks.on_action(n->hooks.ud, n->id, a, s->act_names[a], seq, run);
    s->in_hook--;
}

static void call_rollback(fg_rep_session *s, node *n, uint32_t a, uint32_t seq,
                          fg_rep_reason reason, const char *text) {
    if (!n->hooks.on_rollback) return;
    s->in_hook++;
    n->hooks.on_rollback(n->hooks.ud, n->id, a, s->act_names[a], seq, reason, text);
    s->in_hook--;
}

/* Applies a value on a node's own copy; the hook runs only when it changes. */
static void apply_value(fg_rep_session *s, node *n, uint32_t p, int64_t v) {
    if (n->value[p] == v) return;
    n->value[p] = v;
    call_replicated(s, n, p);
}

fg_status fg_rep_set_hooks(fg_rep_session *s, fg_rep_node id, const fg_rep_hooks *hooks,
                           fg_error *err) {
    fg_status st = busy(s, "fg_rep_set_hooks", err);
    if (st != FG_OK) return st;
    node *n = find_node(s, id);
    if (!n) return no_node(err, id);
    if (hooks)
        n->hooks = *hooks;
    else
        memset(&n->hooks, 0, sizeof n->hooks);
    return FG_OK;
}

/* }====================================================================== */

/* {====================================================================== nodes */

fg_status fg_rep_join(fg_rep_session *s, fg_rep_link link, const fg_rep_hooks *hooks,
                      fg_rep_node *out, fg_error *err) {
    fg_status st = busy(s, "fg_rep_join", err);
    if (st == FG_OK) st = check_link(&link, "join link", err);
    if (st != FG_OK) return st;
    node *slot = NULL;
    for (uint32_t i = 2; i < s->nnodes && !slot; i++)
        if (!s->nodes[i].used) slot = &s->nodes[i];
    if (!slot)
        return fg_error_set(err, FG_ENOMEM,
                            "replication: cannot join, all %u observer slots are taken "
                            "(max_observers)",
                            s->cfg.max_observers);
    slot->id = s->next_observer_id++;
    slot->role = FG_REP_ROLE_OBSERVER;
    slot->used = slot->connected = 1;
    slot->closed = NULL;
    slot->link = link;
    if (hooks)
        slot->hooks = *hooks;
    else
        memset(&slot->hooks, 0, sizeof slot->hooks);
    reset_world(s, slot);
    reset_link(slot);
    if (out) *out = slot->id;
    return FG_OK;
}

fg_status fg_rep_leave(fg_rep_session *s, fg_rep_node id, fg_error *err) {
    fg_status st = busy(s, "fg_rep_leave", err);
    if (st != FG_OK) return st;
    node *n = find_node(s, id);
    if (!n) return no_node(err, id);
    if (n->role != FG_REP_ROLE_OBSERVER)
        return fg_error_set(err, FG_EINVAL, "replication: node %u is the %s; only observers leave",
                            id, fg_rep_role_name((fg_rep_role)n->role));
    reset_link(n);
    n->used = n->connected = 0;
    return FG_OK;
}

uint32_t fg_rep_observers(const fg_rep_session *s, fg_rep_node *out, uint32_t max) {
    uint32_t n = 0;
    for (uint32_t i = 2; i < s->nnodes; i++) {
        if (!s->nodes[i].used) continue;
        if (out && n < max) out[n] = s->nodes[i].id;
        n++;
    }
    return n;
}

bool fg_rep_connected(const fg_rep_session *s, fg_rep_node id, const char **reason) {
    const node *n = find_node(s, id);
    if (reason) *reason = n ? (n->connected ? NULL : n->closed) : "not joined";
    return n && n->connected;
}

fg_status fg_rep_role_of(const fg_rep_session *s, fg_rep_node id, fg_rep_role *out,
                         fg_error *err) {
    const node *n = find_node(s, id);
    if (!n) return no_node(err, id);
    *out = (fg_rep_role)n->role;
    return FG_OK;
}

fg_status fg_rep_stats_of(const fg_rep_session *s, fg_rep_node id, fg_rep_stats *out,
                          fg_error *err) {
    const node *n = find_node(s, id);
    if (!n) return no_node(err, id);
    *out = n->stats;
    out->pending = n->role == FG_REP_ROLE_OWNER ? n->pred_count : 0;
    return FG_OK;
}

/* }====================================================================== */

/* {====================================================================== state and actions */

fg_status fg_rep_set(fg_rep_session *s, fg_rep_node id, const char *property, int64_t value,
                     fg_error *err) {
    fg_status st = busy(s, "fg_rep_set", err);
    if (st != FG_OK) return st;
    node *n = find_node(s, id);
    if (!n) return no_node(err, id);
    int p = fg_rep_property_id(s, property);
    if (p < 0) return unknown_name(s, err, true, property);
    const fg_rep_property_def *d = &s->props[p];
    if (value < d->min || value > d->max)
        return fg_error_set(err, FG_EINVAL, "replication: %s: %lld is outside [%lld, %lld]",
                            d->name, (long long)value, (long long)d->min, (long long)d->max);
    char label[32];
    switch ((fg_rep_role)n->role) {
    case FG_REP_ROLE_OBSERVER:
        return fg_error_set(err, FG_ESTATE,
                            "replication: %s cannot set '%s': observers only receive replicated "
                            "state",
                            node_label(n, label, sizeof label), d->name);
    case FG_REP_ROLE_OWNER: {
        if (!n->connected)
            return fg_error_set(err, FG_ESTATE, "replication: owner cannot set '%s': %s", d->name,
                                n->closed);
        if (sender_full(&n->up_tx))
            return fg_error_set(err, FG_ENOMEM,
                                "replication: owner cannot set '%s': %u requests await an ack "
                                "(channel_capacity)",
                                d->name, n->up_tx.cap);
        /* Local first (the owner's prediction), then the request. */
        n->pending_set[p] = ++n->set_seq;
        apply_value(s, n, (uint32_t)p, value);
        msg m;
        memset(&m, 0, sizeof m);
        m.rel = R_SET;
        m.id = (uint16_t)p;
        m.value = value;
        m.aux = n->set_seq;
        rel_send(s, n, true, m);
        return FG_OK;
    }
    case FG_REP_ROLE_AUTHORITY:
        n->version[p]++;
        apply_value(s, n, (uint32_t)p, value);
        return FG_OK;
    }
    return FG_OK;
}

fg_status fg_rep_get(const fg_rep_session *s, fg_rep_node id, const char *property,
                     int64_t *value, fg_error *err) {
    const node *n = find_node(s, id);
    if (!n) return no_node(err, id);
    int p = fg_rep_property_id(s, property);
    if (p < 0) return unknown_name(s, err, true, property);
    *value = n->value[p];
    return FG_OK;
}

static fg_status find_action(const fg_rep_session *s, const char *action, int *out,
                             fg_error *err) {
    *out = fg_rep_action_id(s, action);
    if (*out < 0) return unknown_name(s, err, false, action);
    return FG_OK;
}

fg_status fg_rep_try_action(fg_rep_session *s, const char *action, fg_rep_try *out,
                            fg_error *err) {
    fg_status st = busy(s, "fg_rep_try_action", err);
    int a = -1;
    if (st == FG_OK) st = find_action(s, action, &a, err);
    if (st != FG_OK) return st;
    node *n = &s->nodes[FG_REP_NODE_OWNER];
    if (!n->connected)
        return fg_error_set(err, FG_ESTATE, "replication: owner cannot try '%s': %s", action,
                            n->closed);
    if (sender_full(&n->up_tx) || n->pred_count >= n->pred_cap)
        return fg_error_set(err, FG_ENOMEM,
                            "replication: owner cannot try '%s': %u requests await the "
                            "authority (channel_capacity)",
                            action, n->pred_cap);
    fg_rep_try r;
    memset(&r, 0, sizeof r);
    if (s->tick < n->ready[a]) {
        r.ready_tick = n->ready[a];
        if (out) *out = r;
        return FG_OK;
    }
    prediction *pr = &n->pred[(n->pred_head + n->pred_count) % n->pred_cap];
    pr->seq = ++n->action_seq;
    pr->action = (uint32_t)a;
    n->pred_count++;
    n->ready[a] = s->tick + (fg_tick)s->acts[a].cooldown_ticks;
    n->stats.predicted++;
    r.started = true;
    r.seq = pr->seq;
    r.ready_tick = n->ready[a];
    msg m;
    memset(&m, 0, sizeof m);
    m.rel = R_ACTION;
    m.id = (uint16_t)a;
    m.aux = pr->seq;
    rel_send(s, n, true, m);
    if (out) *out = r;
    call_action(s, n, (uint32_t)a, r.seq, FG_REP_RUN_PREDICTED);
    return FG_OK;
}

fg_status fg_rep_set_cooldown(fg_rep_session *s, fg_rep_node id, const char *action,
                              fg_tick ready_tick, fg_error *err) {
    fg_status st = busy(s, "fg_rep_set_cooldown", err);
    int a = -1;
    if (st == FG_OK) st = find_action(s, action, &a, err);
    if (st != FG_OK) return st;
    node *n = find_node(s, id);
    if (!n) return no_node(err, id);
    n->ready[a] = ready_tick;
    return FG_OK;
}

fg_status fg_rep_cooldown(const fg_rep_session *s, fg_rep_node id, const char *action,
                          fg_tick *ready_tick, fg_error *err) {
    int a = -1;
    fg_status st = find_action(s, action, &a, err);
    if (st != FG_OK) return st;
    const node *n = find_node(s, id);
    if (!n) return no_node(err, id);
    *ready_tick = n->ready[a];
    return FG_OK;
}

/* }====================================================================== */

/* {====================================================================== the tick */

/* The authority answers an action request from the owner. */
static void authority_action(fg_rep_session *s, node *own, const msg *m) {
    node *auth = &s->nodes[0];
    uint32_t a = m->id;
    if (a >= s->nactions) return;
    if (sender_full(&own->down_tx)) {
        close_link(own, "disconnected: the reliable channel to the owner overflowed");
        return;
    }
    msg r;
    memset(&r, 0, sizeof r);
    r.id = (uint16_t)a;
    r.aux = m->aux;
    if (s->tick < auth->ready[a]) {
        r.rel = R_REJECT;
        r.reason = FG_REP_REASON_COOLDOWN;
        r.value = auth->ready[a];
        rel_send(s, own, false, r);
        return;
    }
    auth->ready[a] = s->tick + (fg_tick)s->acts[a].cooldown_ticks;
    auth->stats.performed++;
    r.rel = R_CONFIRM;
    rel_send(s, own, false, r);
    /* The broadcast skips the authority (it runs the action here) and the owner (it predicted
    ** it); only observers joined now receive it. */
    for (uint32_t i = 2; i < s->nnodes; i++) {
        node *o = &s->nodes[i];
        if (!o->used || !o->connected) continue;
        if (sender_full(&o->down_tx)) {
            close_link(o, "disconnected: its reliable channel overflowed");
            continue;
        }
        msg e = r;
        e.rel = R_EVENT;
        rel_send(s, o, false, e);
    }
    call_action(s, auth, a, m->aux, FG_REP_RUN_AUTHORITY);
}

/* A reliable message, in order, at the authority. */
static void rel_at_authority(fg_rep_session *s, node *n, const msg *m) {
    node *auth = &s->nodes[0];
    if (n->role != FG_REP_ROLE_OWNER) return; /* only the owner makes requests */
    if (m->rel == R_SET && m->id < s->nprops) {
        const fg_rep_property_def *d = &s->props[m->id];
        if (m->value < d->min || m->value > d->max) return;
        auth->version[m->id]++;
        s->last_owner_set[m->id] = m->aux;
        apply_value(s, auth, m->id, m->value);
    } else if (m->rel == R_ACTION) {
        authority_action(s, n, m);
    }
}

static void owner_answer(fg_rep_session *s, node *n, const msg *m) {
    /* Answers come in request order, but look the prediction up rather than assume it. */
    uint32_t k = 0;
    while (k < n->pred_count && n->pred[(n->pred_head + k) % n->pred_cap].seq != m->aux) k++;
    if (k == n->pred_count) return;
    prediction pr = n->pred[(n->pred_head + k) % n->pred_cap];
    for (uint32_t j = k; j + 1 < n->pred_count; j++)
        n->pred[(n->pred_head + j) % n->pred_cap] = n->pred[(n->pred_head + j + 1) % n->pred_cap];
    n->pred_count--;
    if (m->rel == R_CONFIRM) {
        n->stats.confirmed++;
        call_action(s, n, pr.action, pr.seq, FG_REP_RUN_CONFIRMED);
        return;
    }
    n->stats.rejected++;
    /* Take the authority's cooldown, unless a later prediction of the same action already
    ** moved it on. */
    bool later = false;
    for (uint32_t j = 0; j < n->pred_count; j++)
        later |= n->pred[(n->pred_head + j) % n->pred_cap].action == pr.action;
    if (!later) n->ready[pr.action] = m->value;
    char text[160];
    snprintf(text, sizeof text,
             "%s #%u rejected by the authority: its cooldown runs until tick %lld",
             s->act_names[pr.action], pr.seq, (long long)m->value);
    call_rollback(s, n, pr.action, pr.seq, (fg_rep_reason)m->reason, text);
}

/* A reliable message, in order, at the owner or an observer. */
static void rel_at_node(fg_rep_session *s, node *n, const msg *m) {
    if ((m->rel == R_CONFIRM || m->rel == R_REJECT) && n->role == FG_REP_ROLE_OWNER) {
        owner_answer(s, n, m);
    } else if (m->rel == R_EVENT && n->role == FG_REP_ROLE_OBSERVER && m->id < s->nactions) {
        n->stats.replicated++;
        n->ready[m->id] = s->tick + (fg_tick)s->acts[m->id].cooldown_ticks;
        call_action(s, n, m->id, m->aux, FG_REP_RUN_REPLICATED);
    }
}

static bool live_link(const node *n) { return n->used && n->connected; }

/* Receiver side of selective repeat: hold the message in its window slot, then hand over every
** message that is now in order. Handling one may close the link; then the rest is dropped. */
static void rel_receive(fg_rep_session *s, node *n, bool up, const msg *m) {
    receiver *rx = up ? &n->up_rx : &n->down_rx;
    rx->ack_due = true;
    if (m->seq < rx->next || m->seq - rx->next >= rx->cap) {
        BUMP(s, n, duplicates); /* already handed over (the window never runs ahead of it) */
        return;
    }
    uint32_t slot = m->seq % rx->cap;
    if (rx->have[slot]) {
        BUMP(s, n, duplicates);
        return;
    }
    rx->buf[slot] = *m;
    rx->have[slot] = 1;
    if (m->seq != rx->next) BUMP(s, n, out_of_order);
    while (live_link(n) && rx->have[rx->next % rx->cap]) {
        msg in = rx->buf[rx->next % rx->cap];
        rx->have[rx->next % rx->cap] = 0;
        rx->next++;
        if (up)
            rel_at_authority(s, n, &in);
        else
            rel_at_node(s, n, &in);
    }
}

static void at_authority(fg_rep_session *s, node *n, const msg *m) {
    switch (m->kind) {
    case M_ACK: rel_acked(&n->down_tx, m->seq, (uint64_t)m->value); break;
    case M_PROP_ACK:
        if (m->id < s->nprops && m->seq > n->ptx[m->id].acked) n->ptx[m->id].acked = m->seq;
        break;
    case M_REL: rel_receive(s, n, true, m); break;
    }
}

static void at_node(fg_rep_session *s, node *n, const msg *m) {
    switch (m->kind) {
    case M_ACK: rel_acked(&n->up_tx, m->seq, (uint64_t)m->value); break;
    case M_PROP: {
        uint32_t p = m->id;
        if (p >= s->nprops) break;
        n->prop_ack_due |= 1u << p;
        if (m->seq <= n->version[p]) break;
        n->version[p] = m->seq;
        if (n->role == FG_REP_ROLE_OWNER && n->pending_set[p] != 0) {
            if (m->aux < n->pending_set[p]) break; /* older than our own request: keep ours */
            n->pending_set[p] = 0;
        }
        apply_value(s, n, p, m->value);
        break;
    }
    case M_REL: rel_receive(s, n, false, m); break;
    }
}

static void deliver(fg_rep_session *s, node *n, bool up) {
    msg m;
    while (live_link(n) && pipe_pop_due(s, up ? &n->up : &n->down, &m)) {
        BUMP(s, n, delivered);
        if (up)
            at_authority(s, n, &m);
        else
            at_node(s, n, &m);
    }
}

/* The authority's sends on one link: retransmissions, property values, the cumulative ack. */
static void authority_sends(fg_rep_session *s, node *n) {
    const node *auth = &s->nodes[0];
    resend_due(s, n, false);
    for (uint32_t p = 0; p < s->nprops; p++) {
        if (n->role == FG_REP_ROLE_OWNER && s->props[p].condition != FG_REP_COND_ALL) continue;
        prop_tx *t = &n->ptx[p];
        uint32_t v = auth->version[p];
        if (v <= t->acked) continue;
        bool fresh = t->sent < v;
        if (!fresh && s->tick - t->sent_tick < rto(n)) continue;
        if (!fresh) BUMP(s, n, retransmitted);
        t->sent = v;
        t->sent_tick = s->tick;
        msg m;
        memset(&m, 0, sizeof m);
        m.kind = M_PROP;
        m.id = (uint16_t)p;
        m.seq = v;
        m.value = auth->value[p];
        m.aux = s->last_owner_set[p];
        transmit(s, n, false, m);
    }
    if (n->up_rx.ack_due) {
        n->up_rx.ack_due = false;
        transmit(s, n, false, ack_of(&n->up_rx));
    }
}

/* A node's sends: retransmissions, property acks, the cumulative ack. */
static void node_sends(fg_rep_session *s, node *n) {
    resend_due(s, n, true);
    for (uint32_t p = 0; p < s->nprops; p++) {
        if (!(n->prop_ack_due & (1u << p))) continue;
        msg m;
        memset(&m, 0, sizeof m);
        m.kind = M_PROP_ACK;
        m.id = (uint16_t)p;
        m.seq = n->version[p];
        transmit(s, n, true, m);
    }
    n->prop_ack_due = 0;
    if (n->down_rx.ack_due) {
        n->down_rx.ack_due = false;
        transmit(s, n, true, ack_of(&n->down_rx));
    }
}

fg_status fg_rep_advance(fg_rep_session *s, fg_error *err) {
    fg_status st = busy(s, "fg_rep_advance", err);
    if (st != FG_OK) return st;
    s->tick++;
    for (uint32_t i = 1; i < s->nnodes; i++) deliver(s, &s->nodes[i], true);
    for (uint32_t i = 1; i < s->nnodes; i++) deliver(s, &s->nodes[i], false);
    for (uint32_t i = 1; i < s->nnodes; i++)
        if (live_link(&s->nodes[i])) authority_sends(s, &s->nodes[i]);
    for (uint32_t i = 1; i < s->nnodes; i++)
        if (live_link(&s->nodes[i])) node_sends(s, &s->nodes[i]);
    return FG_OK;
}

/* }====================================================================== */

/* {====================================================================== hashing */

static void hash_msg(fg_hasher *hs, const msg *m) {
    fg_hash_i64(hs, m->deliver);
    fg_hash_i64(hs, m->value);
    fg_hash_u64(hs, m->seq);
    fg_hash_u64(hs, m->aux);
    fg_hash_u64(hs, m->id);
    fg_hash_u64(hs, m->kind);
    fg_hash_u64(hs, m->rel);
    fg_hash_u64(hs, m->reason);
}

static void hash_pipe(fg_hasher *hs, const pipe *p) {
    fg_hash_u64(hs, p->count);
    for (uint32_t i = 0; i < p->count; i++) hash_msg(hs, &p->ring[(p->head + i) % p->cap]);
}

static void hash_sender(fg_hasher *hs, const sender *tx) {
    fg_hash_u64(hs, tx->next_seq);
    fg_hash_u64(hs, tx->count);
    for (uint32_t i = 0; i < tx->count; i++) {
        const rel_entry *e = &tx->ring[(tx->head + i) % tx->cap];
        hash_msg(hs, &e->m);
        fg_hash_i64(hs, e->last_sent);
        fg_hash_u64(hs, e->sacked);
    }
}

static void hash_receiver(fg_hasher *hs, const receiver *rx) {
    fg_hash_u64(hs, rx->next);
    fg_hash_u64(hs, rx->ack_due);
    for (uint32_t i = 0; i < rx->cap; i++) {
        fg_hash_u64(hs, rx->have[i]);
        if (rx->have[i]) hash_msg(hs, &rx->buf[i]);
    }
}

void fg_rep_hash(const fg_rep_session *s, fg_hasher *hs) {
    fg_hash_i64(hs, s->tick);
    fg_hash_u64(hs, s->rng.s[0]);
    fg_hash_u64(hs, s->rng.s[1]);
    fg_hash_u64(hs, s->next_observer_id);
    for (uint32_t p = 0; p < s->nprops; p++) fg_hash_u64(hs, s->last_owner_set[p]);
    for (uint32_t i = 0; i < s->nnodes; i++) {
        const node *n = &s->nodes[i];
        fg_hash_u64(hs, n->used);
        if (!n->used) continue;
        fg_hash_u64(hs, n->id);
        fg_hash_u64(hs, n->role);
        fg_hash_u64(hs, n->connected);
        for (uint32_t p = 0; p < s->nprops; p++) {
            fg_hash_i64(hs, n->value[p]);
            fg_hash_u64(hs, n->version[p]);
        }
        for (uint32_t a = 0; a < s->nactions; a++) fg_hash_i64(hs, n->ready[a]);
        if (i == 0) continue;
        fg_hash_u64(hs, n->link.latency_ticks);
        uint64_t loss_bits;
        memcpy(&loss_bits, &n->link.loss, sizeof loss_bits);
        fg_hash_u64(hs, loss_bits);
        hash_pipe(hs, &n->up);
        hash_pipe(hs, &n->down);
        hash_sender(hs, &n->up_tx);
        hash_sender(hs, &n->down_tx);
        hash_receiver(hs, &n->up_rx);
        hash_receiver(hs, &n->down_rx);
        fg_hash_u64(hs, n->prop_ack_due);
        for (uint32_t p = 0; p < s->nprops; p++) {
            fg_hash_u64(hs, n->ptx[p].acked);
            fg_hash_u64(hs, n->ptx[p].sent);
            fg_hash_i64(hs, n->ptx[p].sent_tick);
            fg_hash_u64(hs, n->pending_set[p]);
        }
        fg_hash_u64(hs, n->pred_count);
        for (uint32_t k = 0; k < n->pred_count; k++) {
            const prediction *pr = &n->pred[(n->pred_head + k) % n->pred_cap];
            fg_hash_u64(hs, pr->seq);
            fg_hash_u64(hs, pr->action);
        }
        fg_hash_u64(hs, n->set_seq);
        fg_hash_u64(hs, n->action_seq);
    }
}

/* }====================================================================== */
