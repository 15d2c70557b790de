/* SPDX-License-Identifier: MIT */
/*
** framegate/session.h: playing a match over a network. Three pieces:
**
** - the input record: one player's input for one tick, fixed size, derived from the edges a
**   buffer consumed (held buttons, direction, and the order of the tick's edges), with a compact
**   wire form. Every peer feeds every player's records into its world the same way, so all of
**   them compute the same state hash;
** - the transport: a small interface (send a datagram to a peer, receive the next one) that a host
**   implements over its own network (ENet: framegate/enet.h; Steam; a relay), and an in-memory
**   link that adds latency, jitter, loss, duplication and reordering from a seed, for tests;
** - the rollback session: N players and M spectators, input delay (changeable mid-match),
**   prediction, rollback and re-simulation on late input, time sync, desync detection by hash
**   exchange with a report naming the first divergent tick and the fields, disconnects, and
**   rejoins: a node that lost the match (its network went away for longer than disconnect_us, or
**   its process restarted) gets the state of the match from a peer and plays on.
**
** Everything is allocated when the session is created; a frame allocates nothing.
** docs/netplay.md describes the protocol and how to read a desync report.
*/
#ifndef FRAMEGATE_SESSION_H
#define FRAMEGATE_SESSION_H

#include "framegate/base.h"
#include "framegate/determinism.h"
#include "framegate/input.h"
#include "framegate/world.h"

#ifdef __cplusplus
extern "C" {
#endif

/* {====================================================================== input records */

/* Edges a record keeps in order; a tick with more keeps its end state (held, dir) and folds the
** rest (overflow). At 60 Hz, 12 edges in 16.7 ms is beyond any hand. */
#define FG_INPUT_RECORD_EDGES 12
/* Largest wire form of one record, in bytes. */
#define FG_INPUT_RECORD_WIRE_MAX (1 + 4 + FG_INPUT_RECORD_EDGES)

/* One player's input for one tick. Kept: the buttons held and the direction at the end of the
** tick, and the tick's edges in the order they were consumed (press, release, direction change).
** Lost: the timestamps inside the tick (every edge is stamped with the tick's first microsecond),
** the source (network), and the late flag of an edge that arrived after its tick ran (it belongs
** to the tick that consumed it). None of these reaches gameplay; the buffer fields that keep them
** differ from a run fed the raw edges, everything else is the same (tests/c/test_session_record.c). */
typedef struct fg_input_record {
    uint32_t held;    /* button bits (FG_IN_FIRST_BUTTON and up) held at the end of the tick */
    uint8_t dir;      /* absolute numpad (1..9) at the end of the tick */
    uint8_t nedges;   /* 0..FG_INPUT_RECORD_EDGES */
    uint8_t overflow; /* 1: more edges than kept; the end state is still exact */
    uint8_t reserved;
    uint8_t edges[FG_INPUT_RECORD_EDGES]; /* kind << 6 | value (button id, or numpad) */
} fg_input_record;

/* A record with no edges that continues prev (held and direction unchanged); prev NULL: nothing
** held, direction 5. This is also the prediction of a player's next tick. */
FG_API void fg_input_record_start(fg_input_record *r, const fg_input_record *prev);
/* Appends an edge: FG_EDGE_PRESS / FG_EDGE_RELEASE with a button id, FG_EDGE_DIR with a numpad.
** Refused like the buffer refuses it (a press of a held button, a release of a free one, the
** direction already held, a value out of range), with no change. */
FG_API fg_status fg_input_record_add(fg_input_record *r, fg_edge_kind kind, int value,
                                     fg_error *err);
/* The record of the edges a buffer consumed for one tick (ti from fg_buffer_consume_for_tick or
** fg_world_last_input), continuing prev. */
FG_API fg_status fg_input_record_of_tick(const fg_buffer *b, const fg_tick_input *ti,
                                         const fg_input_record *prev, fg_input_record *out,
                                         fg_error *err);
/* Checks a record against the one before it: edges consistent with prev's end state, buttons
** below FG_IN_FIRST_BUTTON + nbuttons, and (without overflow) the edges ending in (held, dir). */
FG_API fg_status fg_input_record_check(const fg_input_record *r, const fg_input_record *prev,
                                       uint32_t nbuttons, fg_error *err);
/* Pushes the record's edges into the world for `tick`, as entity e's input, continuing from what
** e's buffer holds (an overflowed record adds the releases, presses and direction that reach its
** end state). Every edge is stamped fg_us_of_tick(tick), source FG_SOURCE_NETWORK. */
FG_API fg_status fg_input_record_push(const fg_input_record *r, fg_world *w, fg_entity e,
                                      fg_tick tick, fg_error *err);
FG_API bool fg_input_record_equal(const fg_input_record *a, const fg_input_record *b);
/* Wire form, relative to the previous record: 1 byte for a tick without edges, 1 more per edge,
** 4 more when the end state cannot be derived (overflow). Returns the bytes written. */
FG_API size_t fg_input_record_encode(const fg_input_record *r, uint8_t *out);
/* Reads one record at in (len bytes available) continuing prev, checks it (as
** fg_input_record_check) and sets *used. Adversarial input gets FG_EFORMAT / FG_EINVAL with a
** message, and *out unchanged. */
FG_API fg_status fg_input_record_decode(const uint8_t *in, size_t len, size_t *used,
                                        const fg_input_record *prev, uint32_t nbuttons,
                                        fg_input_record *out, fg_error *err);
/* "6 +LP | held LP, dir 6" with names from the world's table (NULL: ids). */
FG_API int fg_input_record_format(const fg_input_record *r, const fg_action_names *names,
                                  char *buf, size_t size);

/* }====================================================================== */

/* {====================================================================== transport */

/* Unreliable datagrams between the nodes of a match. Nodes are numbered the same way on every
** node: players 0..nplayers-1, then spectators. send delivers at most once, in any order, or
** not at all; the session repeats what matters. recv returns FG_OK with *len 0 when nothing is
** waiting. A datagram larger than FG_SESSION_DATAGRAM_MAX is never sent. */
#define FG_SESSION_DATAGRAM_MAX 1200
typedef struct fg_transport {
    void *ud;
    fg_status (*send)(void *ud, uint32_t node, const void *data, size_t len, fg_error *err);
    fg_status (*recv)(void *ud, uint32_t *node, void *buf, size_t cap, size_t *len,
                      fg_error *err);
} fg_transport;

/* The link: per-datagram latency (one way), jitter, loss, duplication and reordering drawn from a
** seeded RNG, on a clock the caller sets. In memory, one link serves every node of a match in one
** process and fg_link_transport gives each node its end. Over another transport (`inner`), it is
** a shim in front of one node's real network: what the node sends waits in the link, or is lost
** or doubled, and goes out through inner when its time comes; what arrives comes straight from
** inner. Two processes with a shim each see the sum of both delays as their round trip. */
typedef struct fg_link_config {
    uint32_t nodes;         /* 2..FG_SESSION_MAX_NODES */
    int64_t latency_us;     /* one way, 0..10 s */
    int64_t jitter_us;      /* each datagram is late by up to this much more, 0..10 s */
    uint32_t loss_pct;      /* 0..100 */
    uint32_t duplicate_pct; /* 0..100: delivered twice (the copy with its own delay) */
    uint32_t reorder_pct;   /* 0..100: held back by up to latency + jitter more */
    uint32_t capacity;      /* datagrams in flight; default 4096; a send past it is lost */
    uint64_t seed;
    fg_allocator allocator;
    fg_transport inner;     /* zeroed: in memory; set: a shim over this transport */
} fg_link_config;

typedef struct fg_link_stats {
    uint64_t sent, delivered, lost, duplicated, reordered, bytes;
} fg_link_stats;

typedef struct fg_link fg_link;
FG_API fg_link_config fg_link_config_default(void);
FG_API fg_status fg_link_create(const fg_link_config *cfg, fg_link **out, fg_error *err);
FG_API void fg_link_destroy(fg_link *l);
/* The link's clock: datagrams become receivable once it passes their arrival time. */
FG_API void fg_link_set_time(fg_link *l, int64_t now_us);
/* Cuts (or restores) every datagram to and from node: a cable pulled. */
FG_API void fg_link_set_cut(fg_link *l, uint32_t node, bool cut);
FG_API fg_transport fg_link_transport(fg_link *l, uint32_t node);
FG_API fg_link_stats fg_link_get_stats(const fg_link *l);

/* }====================================================================== */

/* {====================================================================== session */

#define FG_SESSION_MAX_PLAYERS 4
#define FG_SESSION_MAX_SPECTATORS 8
#define FG_SESSION_MAX_NODES (FG_SESSION_MAX_PLAYERS + FG_SESSION_MAX_SPECTATORS)
#define FG_SESSION_MAX_DELAY 15
#define FG_SESSION_MAX_PREDICTION 16
#define FG_SESSION_MAX_HASH_EVERY 120
#define FG_SESSION_MAX_DIFFS 32
#define FG_SESSION_SPECTATOR UINT32_MAX
#define FG_SESSION_MAX_REJOIN_US (600 * (int64_t)1000000)

typedef struct fg_session_config {
    uint32_t nplayers;       /* 1..FG_SESSION_MAX_PLAYERS; player i plays entity i + 1 */
    uint32_t nspectators;    /* 0..FG_SESSION_MAX_SPECTATORS */
    uint32_t local;          /* this node: a player index, or nplayers + j for spectator j */
    uint32_t input_delay;    /* ticks, 0..FG_SESSION_MAX_DELAY; default 2 */
    uint32_t max_prediction; /* ticks run ahead of the last confirmed one, 1..16; default 8 */
    uint32_t hash_every;     /* ticks between hash exchanges, 1..120; default 30 */
    int64_t interrupt_us;    /* silence after which a peer counts as interrupted; default 500 ms */
    int64_t disconnect_us;   /* silence after which it is disconnected; default 5 s */
    int64_t rejoin_us;       /* how long past disconnect_us this node keeps the match paused for
                                a lost peer to come back (or a restarted one to ask for the state
                                of the match), 0..FG_SESSION_MAX_REJOIN_US; default 0: the match
                                ends at the disconnect. A node with 0 sends no state either */
    bool rejoin;             /* this node lost the match and joins it in progress: its world is
                                built as at the match's start (tick 0, the same rules and setup),
                                and fg_session_advance asks a peer for the state of the match and
                                runs nothing until it has it (FG_SESSION_REJOINING) */
    fg_tick ticks;           /* the match's length: no tick from this one on is run, and the
                                session is finished once every node holds every record before
                                it; 0: endless */
    fg_transport transport;
    fg_advance_fn advance;   /* the host's tick; `again` is true for a speculative tick (predicted
                                or re-simulated): present and record only when it is false */
    void *ud;
    fg_allocator allocator;
} fg_session_config;

typedef enum fg_session_state {
    FG_SESSION_SYNCING = 0,     /* waiting for every peer's hello */
    FG_SESSION_RUNNING = 1,
    FG_SESSION_DESYNCED = 2,    /* stopped: the hashes differ; the report is being completed */
    FG_SESSION_DISCONNECTED = 3, /* stopped: a peer was silent for disconnect_us */
    FG_SESSION_FINISHED = 4,     /* config.ticks ran and every peer holds this node's records;
                                    advance still answers peers that wait for them */
    FG_SESSION_WAITING = 5,      /* paused at the last confirmed tick (the world shows it): a peer
                                    was silent for disconnect_us, or is rejoining; the match goes
                                    on when it is back, ends after rejoin_us more */
    FG_SESSION_REJOINING = 6     /* config.rejoin: receiving the state of the match */
} fg_session_state;

FG_API const char *fg_session_state_name(fg_session_state s);

typedef struct fg_session_stats {
    fg_tick tick;            /* ticks run (the next tick, predicted or not) */
    fg_tick confirmed;       /* ticks whose input is known for every player */
    uint64_t frames;         /* fg_session_advance calls */
    uint64_t stalls;         /* frames that ran no tick: the prediction window was full */
    uint64_t waits;          /* frames skipped by time sync (this side ran ahead) */
    uint64_t rollbacks;      /* restores */
    uint64_t resimulated;    /* ticks run again after a restore */
    uint32_t deepest;        /* the most ticks re-simulated after one restore */
    int64_t rtt_us;          /* round trip to the slowest peer (smoothed) */
    int32_t advantage;       /* this side's frame advantage over the slowest peer, in ticks */
    uint32_t input_delay;
    uint64_t bytes_sent, bytes_received, datagrams_sent, datagrams_received;
    uint64_t rejected;       /* datagrams refused (malformed, bad records) */
    uint64_t hashes_compared;
    uint32_t interrupted;    /* peers silent for interrupt_us now */
    uint32_t waiting;        /* peers the match is paused for now (FG_SESSION_WAITING) */
    uint32_t rejoins;        /* nodes that rejoined with the state this node sent; 1 on a node
                                that rejoined */
    fg_tick rejoined_at;     /* a node that rejoined: the tick its world was restored at (its
                                first tick), -1 otherwise */
    uint64_t state_bytes;    /* the size of the last state of the match sent or received */
} fg_session_stats;

/* What a desync check found: the first tick whose hash differs between this node and a peer,
** and the fields, from this node's snapshot after that tick against the peer's. */
typedef struct fg_session_report {
    fg_tick detected_at;      /* the checkpoint tick whose hashes differed (-1: no desync) */
    fg_tick tick;             /* the first divergent tick (-1 until the peers' hashes are in) */
    uint32_t peer;            /* the node compared with */
    uint64_t local_hash, peer_hash;
    bool fields_known;        /* the peer's snapshot arrived and was compared */
    uint32_t ndiffs;
    fg_state_diff diffs[FG_SESSION_MAX_DIFFS];
} fg_session_report;

typedef struct fg_session fg_session;

FG_API fg_session_config fg_session_config_default(void);
/* Starts a session on a world whose entities are spawned and which has run no tick since: the
** state now is tick 0 of the match. Every node must build the same world. */
FG_API fg_status fg_session_create(fg_world *w, const fg_session_config *cfg, fg_session **out,
                                   fg_error *err);
FG_API void fg_session_destroy(fg_session *s);

/* Local input for the next tick this node plays (it lands input_delay ticks later): edges in
** order, as fg_input_record_add takes them, or a whole record's edges. A spectator has none. */
FG_API fg_status fg_session_input(fg_session *s, fg_edge_kind kind, int value, fg_error *err);
FG_API fg_status fg_session_input_record(fg_session *s, const fg_input_record *r, fg_error *err);
/* The tick the input given now lands on if the next frame runs a tick: a host that scripts
** input by tick gives each tick's input once, when this reaches it. */
FG_API fg_tick fg_session_input_tick(const fg_session *s);
/* Changes the input delay from the next tick on. Larger: the ticks in between repeat the held
** input. Smaller: the next frames' input is merged into one tick until the delay is reached, so
** no input is lost and no tick gets two records. */
FG_API fg_status fg_session_set_delay(fg_session *s, uint32_t delay, fg_error *err);

/* One host frame at now_us (a monotonic clock of the host's choice): receives, runs at most one
** new tick (none when the prediction window is full or time sync asks this side to wait),
** re-simulates from the last confirmed tick when new input confirmed more, and sends. Returns
** FG_EMISMATCH once a desync is detected (the report fills in over the next frames while the
** peers exchange hashes and snapshots), FG_ESTATE once a peer is disconnected, each with a
** message; FG_OK otherwise. */
FG_API fg_status fg_session_advance(fg_session *s, int64_t now_us, fg_error *err);

FG_API fg_session_state fg_session_get_state(const fg_session *s);
FG_API fg_session_stats fg_session_get_stats(const fg_session *s);
/* The state hash after a confirmed tick still in the session's window; false otherwise. */
FG_API bool fg_session_confirmed_hash(const fg_session *s, fg_tick tick, uint64_t *hash);
/* The input record of a player for a tick still in the window (confirmed or not). */
FG_API bool fg_session_record(const fg_session *s, uint32_t player, fg_tick tick,
                              fg_input_record *out);
FG_API const fg_session_report *fg_session_get_report(const fg_session *s);
/* The report as text: a summary line, then one line per differing field. */
FG_API int fg_session_report_format(const fg_session *s, char *buf, size_t size);
/* Node of the peer that disconnected (the first), or -1. */
FG_API int fg_session_disconnected_peer(const fg_session *s);
/* }====================================================================== */

#ifdef __cplusplus
}
#endif
#endif
