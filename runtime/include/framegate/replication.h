/* SPDX-License-Identifier: MIT */
/*
** framegate/replication.h: which state crosses the network and how, modelled in process. One
** replicated character is seen by three kinds of node: the authority (the server), the owning
** client (autonomous: it predicts its own actions) and any number of observers (simulated
** proxies). Each node keeps its own copy of the character's replicated state, as a separate world
** would, and they talk only through an in-memory transport with per-link latency (ticks) and loss
** (drawn from the session's seeded fg_rng, so a run is reproducible).
**
** Three kinds of traffic, as in the seed:
** - Persistent state (target lock, current weapon...) is declared per property and replicates as
**   values: the authority resends the newest value of a property until the receiver acknowledges
**   that version, so a receiver may skip intermediate values but always converges, and an observer
**   that joins late receives the current value. Each end re-applies a value locally through its
**   on_replicated hook; the hook runs when a newer version carries a value that differs from the
**   one the node holds.
** - Transient events (a confirmed dash) are one-shot: they travel on a reliable ordered channel
**   (sequence numbers, selective repeat: the receiver holds what arrives after a gap and hands it
**   over in order, acks are cumulative plus a bitmap, the sender resends what is unacknowledged
**   after a round trip) to the observers joined at the moment of the broadcast. Loss cannot
**   duplicate or drop one; a later joiner never sees it. Requests and answers between the owner
**   and the authority use the same channel.
** - Predicted actions: the owner checks its local cooldown and runs the action at once, then asks
**   the authority (reliably). The authority checks its own cooldown and either confirms (runs it,
**   tells the owner, broadcasts to observers only) or rejects with a reason, and the owner rolls
**   its prediction back.
**
** Ticks: all nodes share the session's tick. A message sent during tick t is processed during the
** advance to tick t + latency (latency >= 1).
*/
#ifndef FRAMEGATE_REPLICATION_H
#define FRAMEGATE_REPLICATION_H

#include "framegate/base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FG_REP_NAME_MAX 32       /* property and action names: 1..31 bytes */
#define FG_REP_MAX_PROPERTIES 32
#define FG_REP_MAX_ACTIONS 8
#define FG_REP_MAX_OBSERVERS 64

typedef uint32_t fg_rep_node;
#define FG_REP_NODE_AUTHORITY 0u
#define FG_REP_NODE_OWNER 1u
/* Observers get ids from 2 upwards in join order; an id is never reused. */

typedef enum fg_rep_role {
    FG_REP_ROLE_AUTHORITY = 0,
    FG_REP_ROLE_OWNER = 1,   /* autonomous proxy */
    FG_REP_ROLE_OBSERVER = 2 /* simulated proxy */
} fg_rep_role;

/* Who receives a property from the authority. */
typedef enum fg_rep_condition {
    /* Observers only (the seed's choice for state the owner sets: it applied the value itself). A
    ** change the authority makes on its own therefore never reaches the owner. */
    FG_REP_COND_SIMULATED_ONLY = 0,
    /* Observers and the owner. The owner ignores values older than its own latest request for
    ** that property, so its prediction is not undone by an update already in flight. */
    FG_REP_COND_ALL = 1
} fg_rep_condition;

typedef struct fg_rep_property_def {
    const char *name;
    int64_t initial, min, max; /* a bool is {0, 0, 1} */
    fg_rep_condition condition;
} fg_rep_property_def;

typedef struct fg_rep_action_def {
    const char *name;
    uint32_t cooldown_ticks; /* ticks after a run before the next run is allowed */
} fg_rep_action_def;

/* What a ruleset declares. Ids are assigned from names sorted bytewise. */
typedef struct fg_rep_spec {
    const fg_rep_property_def *properties;
    uint32_t nproperties;
    const fg_rep_action_def *actions;
    uint32_t nactions;
} fg_rep_spec;

/* One link between a node and the authority; both directions behave alike. */
typedef struct fg_rep_link {
    uint32_t latency_ticks; /* 1..1000 */
    double loss;            /* probability that a message is lost, [0, 1) */
} fg_rep_link;

typedef struct fg_rep_config {
    fg_rep_link owner_link;
    uint32_t max_observers;     /* slots allocated at creation, 0..FG_REP_MAX_OBSERVERS */
    uint32_t channel_capacity;  /* unacknowledged reliable messages per direction (default 128) */
    uint32_t inflight_capacity; /* messages in flight per direction (default 1024); a send that
                                ** finds it full is lost like any other (and counted) */
    uint64_t seed;              /* the loss RNG */
} fg_rep_config;

FG_API fg_rep_config fg_rep_config_default(void);

/* How an action ran on a node, as told to on_action. */
typedef enum fg_rep_run {
    FG_REP_RUN_PREDICTED = 0,  /* owner: started locally before the authority answered */
    FG_REP_RUN_CONFIRMED = 1,  /* owner: the authority accepted the prediction (no second run) */
    FG_REP_RUN_AUTHORITY = 2,  /* authority: ran it for real */
    FG_REP_RUN_REPLICATED = 3  /* observer: replays the authority's broadcast */
} fg_rep_run;

typedef enum fg_rep_reason {
    FG_REP_REASON_NONE = 0,
    FG_REP_REASON_COOLDOWN = 1 /* the authority's cooldown had not run out */
} fg_rep_reason;

FG_API const char *fg_rep_role_name(fg_rep_role role);     /* "authority", "owner", "observer" */
FG_API const char *fg_rep_run_name(fg_rep_run run);        /* "predicted", "confirmed", ... */
FG_API const char *fg_rep_reason_name(fg_rep_reason reason); /* "none", "cooldown" */

/* Per-node hooks: the node's local re-application of what replication delivers. Called from
** fg_rep_set, fg_rep_try_action and fg_rep_advance; a hook may read the session (fg_rep_get,
** fg_rep_tick...) but may not change it (those calls fail with FG_ESTATE). */
typedef struct fg_rep_hooks {
    void (*on_replicated)(void *ud, fg_rep_node node, uint32_t property, const char *name,
                          int64_t value);
    void (*on_action)(void *ud, fg_rep_node node, uint32_t action, const char *name,
                      uint32_t seq, fg_rep_run run);
    void (*on_rollback)(void *ud, fg_rep_node node, uint32_t action, const char *name,
                        uint32_t seq, fg_rep_reason reason, const char *text);
    void *ud;
} fg_rep_hooks;

/* Counters of one node. For the owner and observers the traffic counters cover both directions of
** its link; the authority's are the sums over all links. */
typedef struct fg_rep_stats {
    uint64_t sent;          /* messages handed to the transport, retransmissions included */
    uint64_t lost;          /* dropped by the loss draw or a full in-flight queue */
    uint64_t retransmitted; /* reliable messages and property values sent again */
    uint64_t delivered;     /* messages that arrived */
    uint64_t duplicates;    /* reliable messages that arrived again and were discarded */
    uint64_t out_of_order;  /* reliable messages that arrived after a gap and were held */
    uint32_t predicted, confirmed, rejected; /* owner */
    uint32_t performed;  /* authority: actions run */
    uint32_t replicated; /* observer: broadcast actions run */
    uint32_t applied;    /* on_replicated calls on this node */
    uint32_t pending;    /* owner: predictions not yet answered */
} fg_rep_stats;

/* Result of fg_rep_try_action. */
typedef struct fg_rep_try {
    bool started;       /* predicted and sent to the authority */
    uint32_t seq;       /* the action's sequence number when started */
    fg_tick ready_tick; /* when not started: the tick the local cooldown ends */
} fg_rep_try;

typedef struct fg_rep_session fg_rep_session;

/* Validates the spec and config (names 1..31 bytes and unique, initial within [min, max], counts,
** links, capacities); every message names the field and the value. Allocates everything the
** session will ever need, so nothing after this allocates. Starts at tick 0 with the authority
** and the owner connected. */
FG_API fg_status fg_rep_create(const fg_rep_spec *spec, const fg_rep_config *cfg,
                               const fg_allocator *alloc, fg_rep_session **out, fg_error *err);
FG_API void fg_rep_destroy(fg_rep_session *s);

FG_API fg_tick fg_rep_tick(const fg_rep_session *s);
FG_API fg_status fg_rep_set_hooks(fg_rep_session *s, fg_rep_node node, const fg_rep_hooks *hooks,
                                  fg_error *err);

/* A new observer, from the current tick. It starts from the declared initial values and receives
** the current ones (on_replicated for those that differ) but none of the events broadcast before.
** FG_ENOMEM when all max_observers slots are taken. */
FG_API fg_status fg_rep_join(fg_rep_session *s, fg_rep_link link, const fg_rep_hooks *hooks,
                             fg_rep_node *out, fg_error *err);
/* The observer leaves; messages in flight to or from it vanish. */
FG_API fg_status fg_rep_leave(fg_rep_session *s, fg_rep_node node, fg_error *err);

/* Property ids follow sorted names; -1 for an unknown name. */
FG_API int fg_rep_property_id(const fg_rep_session *s, const char *name);
FG_API int fg_rep_action_id(const fg_rep_session *s, const char *name);
FG_API uint32_t fg_rep_property_count(const fg_rep_session *s);
FG_API const fg_rep_property_def *fg_rep_property(const fg_rep_session *s, uint32_t id);
FG_API uint32_t fg_rep_action_count(const fg_rep_session *s);
FG_API const fg_rep_action_def *fg_rep_action(const fg_rep_session *s, uint32_t id);

/* Sets a persistent property from a node. The owner applies it locally at once and sends the
** request to the authority (reliably); the authority applies it and replicates it. Observers
** cannot set replicated state (FG_ESTATE). Unknown names, values outside [min, max] and a full
** channel are errors, and then nothing changes. */
FG_API fg_status fg_rep_set(fg_rep_session *s, fg_rep_node node, const char *property,
                            int64_t value, fg_error *err);
/* The value a node holds. */
FG_API fg_status fg_rep_get(const fg_rep_session *s, fg_rep_node node, const char *property,
                            int64_t *value, fg_error *err);

/* The owner tries an action: on its local cooldown it is not started (out->started false, a
** result rather than an error); otherwise it runs at once (on_action PREDICTED) and the request
** goes to the authority. Errors (unknown action, owner disconnected, channel full) change
** nothing. */
FG_API fg_status fg_rep_try_action(fg_rep_session *s, const char *action, fg_rep_try *out,
                                   fg_error *err);
/* Sets when a node's cooldown for an action ends (a penalty, a stun, a server-side rule). */
FG_API fg_status fg_rep_set_cooldown(fg_rep_session *s, fg_rep_node node, const char *action,
                                     fg_tick ready_tick, fg_error *err);
FG_API fg_status fg_rep_cooldown(const fg_rep_session *s, fg_rep_node node, const char *action,
                                 fg_tick *ready_tick, fg_error *err);

/* One tick: delivers what is due (to the authority first, then to the owner and the observers in
** slot order), answers and broadcasts, then sends retransmissions, property values and acks.
** Fixed order, so the same calls and seed give the same run. */
FG_API fg_status fg_rep_advance(fg_rep_session *s, fg_error *err);

FG_API fg_status fg_rep_stats_of(const fg_rep_session *s, fg_rep_node node, fg_rep_stats *out,
                                 fg_error *err);
FG_API fg_status fg_rep_role_of(const fg_rep_session *s, fg_rep_node node, fg_rep_role *out,
                                fg_error *err);
/* The joined observers' ids in slot order (at most max written); returns how many are joined. */
FG_API uint32_t fg_rep_observers(const fg_rep_session *s, fg_rep_node *out, uint32_t max);
/* Whether the node is connected: false after leaving, or after its reliable channel overflowed
** (then `reason` says so). Observers only can leave; any link can overflow. */
FG_API bool fg_rep_connected(const fg_rep_session *s, fg_rep_node node, const char **reason);

/* The whole session (every node's copy, links, messages in flight, RNG) field by field. */
FG_API void fg_rep_hash(const fg_rep_session *s, fg_hasher *hs);

#ifdef __cplusplus
}
#endif
#endif
