/* SPDX-License-Identifier: MIT */
/*
** session_internal.h: what the rollback session (session.c) and the state transfer that lets a
** node rejoin a match (session_rejoin.c) share: the session's layout, the wire helpers and the
** few functions each side calls of the other. Not installed.
*/
#ifndef FG_SESSION_INTERNAL_H
#define FG_SESSION_INTERNAL_H

#include "base_internal.h"
#include "internal.h"

#include "framegate/session.h"

#include <stdio.h>

#define RING 256 /* input records kept per player, and confirmed hashes */
#define NCHECKS 16
#define WIRE_VERSION 1
#define CHUNK 1100
#define MAX_BATCH 64 /* records in one input datagram */
#define MAX_SNAPS (2 * FG_SESSION_MAX_HASH_EVERY + FG_SESSION_MAX_PREDICTION + FG_SESSION_MAX_DELAY + 16)

enum {
    MSG_HELLO = 1,
    MSG_INPUT = 2,
    MSG_DETAIL = 3,
    MSG_SNAP = 4,
    MSG_JOIN = 5,  /* a node that lost the match asks for its state (session_rejoin.c) */
    MSG_OFFER = 6, /* the answer: what the state is, or why it is not sent */
    MSG_STATE = 7  /* one chunk of the state */
};

typedef struct check {
    fg_tick tick; /* -1: empty or compared */
    uint64_t hash;
} check;

typedef struct peer {
    bool hello;       /* their hello arrived (or input: they are running) */
    bool seen;        /* any datagram arrived */
    bool interrupted;
    bool rejoining;   /* they asked for the state of the match and run nothing yet */
    uint32_t incarnation; /* the transfer they rejoined with (their input says), 0: none */
    uint32_t stale;   /* rejoining: the incarnation of the self they replace */
    fg_tick acked;    /* they hold our records for ticks < acked */
    fg_tick their_tick;
    int32_t their_ahead;
    int64_t last_recv;
    int64_t echo_stamp, echo_at; /* their last send stamp and our clock when it arrived */
    int64_t rtt;                 /* smoothed, -1 unknown */
    fg_tick latest_check;        /* their newest checkpoint seen, -1 none */
    check checks[NCHECKS];
    /* After a desync: their hashes around the checkpoint, and their snapshot. */
    bool detail;
    fg_tick dfrom;
    uint32_t dn;
    uint64_t dhash[FG_SESSION_MAX_HASH_EVERY];
} peer;

typedef struct player_in {
    fg_tick received; /* records known for ticks < received */
    fg_input_record rec[RING];
} player_in;

/* The state of the match on its way to a node that rejoins: built by the node that sends it,
** assembled by the one that receives it, in chunks of CHUNK bytes. */
typedef struct transfer {
    unsigned char *buf;
    size_t cap, size;
    uint8_t *have;     /* per chunk: acknowledged (sending) or received (receiving) */
    uint32_t max_chunks, nchunks, ngot, cursor;
    uint32_t id;       /* 0: none */
    uint64_t serial;   /* states built here */
    uint64_t digest;
    fg_tick tick;
    int serving;       /* the node it goes to, -1: none (sending side) */
    int64_t since;     /* receiving side: when it started asking */
} transfer;

struct fg_session {
    fg_world *w;
    fg_session_config cfg;
    fg_session_state state;
    uint32_t nnodes, nbuttons;
    bool spectator;
    uint64_t game_id;
    uint64_t rules_digest; /* every ruleset version the world holds (session_rejoin.c) */
    player_in players[FG_SESSION_MAX_PLAYERS];
    peer peers[FG_SESSION_MAX_NODES];
    fg_input_record building; /* the local input not yet given a tick */
    uint32_t delay;
    fg_tick tick;      /* ticks run (the world's tick after the frame) */
    fg_tick confirmed; /* ticks before it are final */
    fg_tick origin;    /* the first tick this node ran: 0, or the tick it rejoined at */
    fg_tick rec_floor; /* the first tick whose records it holds: 0, or what it was sent */
    bool catchup;      /* rejoined: its input fills the ticks it has no record for first */
    uint32_t rejoined_id; /* the transfer it rejoined with, 0: none (its input says it) */
    uint32_t nsnaps;
    size_t snap_cap;
    unsigned char *snaps; /* nsnaps boundaries: slot t % nsnaps holds the state before tick t */
    fg_tick snap_tick[MAX_SNAPS]; /* the tick each slot holds, -1: none */
    uint64_t hashes[RING]; /* hash after confirmed tick t at t % RING */
    uint64_t hash0;        /* the hash of the state before tick 0 */
    int64_t now;
    int32_t ahead_hist[16];
    uint32_t nahead;
    uint64_t since_wait;
    uint64_t edits;
    fg_session_stats stats;
    fg_session_report report;
    int disconnected;
    fg_error failure; /* why the session stopped */
    /* The desync exchange: the peer's snapshot, assembled from chunks. */
    unsigned char *theirs;
    uint8_t *chunk_got;
    uint32_t nchunks_max, nchunks_got;
    size_t theirs_size;
    fg_tick theirs_tick;
    transfer xfer;
    uint8_t out[FG_SESSION_DATAGRAM_MAX];
    uint8_t in[FG_SESSION_DATAGRAM_MAX];
};

/* {====================================================================== wire helpers */

static inline void put8(uint8_t **p, unsigned v) { *(*p)++ = (uint8_t)v; }
static inline void put16(uint8_t **p, unsigned v) {
    put8(p, v & 0xFFu);
    put8(p, (v >> 8) & 0xFFu);
}
static inline void put32(uint8_t **p, uint32_t v) {
    put16(p, v & 0xFFFFu);
    put16(p, v >> 16);
}
static inline void put64(uint8_t **p, uint64_t v) {
    put32(p, (uint32_t)v);
    put32(p, (uint32_t)(v >> 32));
}

typedef struct reader {
    const uint8_t *p, *end;
    bool bad;
} reader;
static inline uint64_t get(reader *r, int bytes) {
    if (r->end - r->p < bytes) {
        r->bad = true;
        return 0;
    }
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++) v |= (uint64_t)*r->p++ << (8 * i);
    return v;
}

static inline uint32_t pack_state(const fg_input_record *r) {
    return (r->held >> FG_IN_FIRST_BUTTON) | (uint32_t)r->dir << 28;
}
static inline void unpack_state(uint32_t v, fg_input_record *r) {
    fg_input_record_start(r, NULL);
    r->held = (v & 0x0FFFFFFFu) << FG_IN_FIRST_BUTTON;
    r->dir = (uint8_t)(v >> 28);
}

static inline fg_input_record *rec_at(fg_session *s, uint32_t p, fg_tick t) {
    return &s->players[p].rec[t & (RING - 1)];
}

static inline unsigned char *snap_at(fg_session *s, fg_tick t) {
    return s->snaps + (size_t)(t % s->nsnaps) * s->snap_cap;
}

static inline bool is_player(const fg_session *s, uint32_t node) {
    return node < s->cfg.nplayers;
}

/* "player 2", "spectator 1": nodes as people count them, like entities (e2). */
typedef struct node_name {
    char s[24];
} node_name;
static inline node_name name_of(const fg_session *s, uint32_t node) {
    node_name n;
    if (node < s->cfg.nplayers) snprintf(n.s, sizeof n.s, "player %u", node + 1);
    else snprintf(n.s, sizeof n.s, "spectator %u", node - s->cfg.nplayers + 1);
    return n;
}

/* }====================================================================== */

/* session.c */
uint8_t *fg_session_header(fg_session *s, unsigned type);
void fg_session_send(fg_session *s, uint32_t node, uint8_t *end); /* adds the CRC, sends */
void fg_session_restore_quiet(fg_session *s, fg_tick t);
fg_status fg_session_stop(fg_session *s, fg_session_state st, fg_status code, fg_error *err,
                          const char *fmt, ...) FG_PRINTF(5, 6);

/* session_rejoin.c */
uint64_t fg_session_rejoin_digest(const fg_world *w);
size_t fg_session_rejoin_capacity(const fg_session *s);
fg_status fg_session_rejoin_alloc(fg_session *s);
void fg_session_rejoin_free(fg_session *s);
bool fg_session_rejoin_on_join(fg_session *s, uint32_t node, reader *r);
void fg_session_rejoin_on_offer(fg_session *s, uint32_t node, reader *r);
void fg_session_rejoin_on_state(fg_session *s, uint32_t node, reader *r);
void fg_session_rejoin_back(fg_session *s, uint32_t node); /* a rejoining node runs again */
void fg_session_rejoin_send(fg_session *s);                /* this frame's transfer datagrams */
fg_status fg_session_rejoin_wait(fg_session *s, fg_error *err); /* a rejoining node's frame */

#endif
