/* SPDX-License-Identifier: MIT */
/*
** framegate/gate.h: the gate primitives. Event stamps and the dispatch ledger decide whether a
** gameplay event candidate is new, so its side effects apply exactly once; cycle tracks unroll the
** markers of a looping clip over intervals of ticks; the playback owner commits sampled batches
** in cursor order and delivers their events.
**
** During a tick, action timelines and cycle tracks only produce candidates. The world asks the
** dispatcher about each one; only an Accepted candidate may reach gameplay effects, and
** presentation sees only what was accepted.
**
** All state here is plain data without pointers: a dispatcher or a playback owner is one block
** whose size is fixed when it is created, saved and restored with memcpy (rollback, sync tests)
** and hashed field by field. Nothing allocates after creation.
**
** Errors name the object, the value and what was expected; positions in a list (markers[2],
** events[1]) count from 1, as in the Lua tables rules are written in. A failed call changes
** nothing.
*/
#ifndef FRAMEGATE_GATE_H
#define FRAMEGATE_GATE_H

#include "framegate/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* {====================================================================== event stamps */

/* Markers (damage, footstep, ...) are small integer ids interned by whoever compiles the rules.
** Names travel beside them for messages only. */
typedef uint32_t fg_marker;

/* Largest occurrence a stamp may carry (Lua integers reach it too). */
#define FG_OCCURRENCE_MAX ((uint64_t)INT64_MAX)

/* The identity of a gameplay event. `sequence` is the action sequence the world assigned when the
** action began on `channel` (never a count of clip plays); `occurrence` is 0 for a one-shot marker
** and 0, 1, 2, ... for a marker that repeats inside one action (a looping footstep). */
typedef struct fg_event_stamp {
    uint32_t channel;
    fg_marker marker;
    int64_t sequence;
    uint64_t occurrence;
} fg_event_stamp;

/* A candidate: a stamp plus where it came from. Clip and normalised time are diagnostics only
** and take no part in identity: a cross-fade evaluates two clips that both report the same hit,
** and retiming or sampling moves the reported time without making a new event. */
typedef struct fg_event_candidate {
    fg_event_stamp stamp;
    const char *marker_name; /* optional: used in messages */
    const char *clip;        /* optional: diagnostics only */
    float time;              /* normalised clip time: diagnostics only */
} fg_event_candidate;

/* What the dispatcher decided. Only ACCEPTED may reach gameplay effects. */
typedef enum fg_dispatch_result {
    FG_DISPATCH_ACCEPTED = 0,    /* first time this stamp is seen for the live sequence */
    FG_DISPATCH_DUPLICATE = 1,   /* already accepted (or closed, see the ledger below) */
    FG_DISPATCH_STALE_ACTION = 2 /* its action is older than the live one of its channel */
} fg_dispatch_result;

/* "Accepted", "Duplicate", "StaleAction"; "?" for a value outside the enum. */
FG_API const char *fg_dispatch_result_name(fg_dispatch_result r);

/* }====================================================================== */

/* {====================================================================== the dispatch ledger */

/* Why the ledger looks like this.
**
** The ledger answers "was this stamp accepted before?" for the live sequence of each channel.
** Keeping a set of every accepted stamp would grow without bound inside one long action (a run
** cycle that loops for a million ticks emits a footstep every few ticks), and a hash set would
** need rehashing or a pointer structure that memcpy cannot save.
**
** Instead each channel keeps, for its live sequence only, one entry per distinct marker:
**   closed_below   every occurrence below it is closed;
**   window         bit i set: occurrence closed_below + i was accepted.
** Bit 0 is always clear (the entry is compacted after every accept), so in the usual in-order case
** the window stays 0 and closed_below is simply the next occurrence expected. Occurrences that
** arrive out of order inside the window (64 ahead of the oldest open one) are each accepted once.
** An occurrence further ahead slides the window forward; the open occurrences it passes are
** closed without being accepted, so a very late one counts as Duplicate: it is never applied
** twice, at the price of never being applied at all. Memory is one entry per marker per channel,
** whatever the number of ticks.
**
** Older sequences need no entries: a candidate whose sequence is older than the live one is
** StaleAction by comparison alone, so beginning a new sequence clears the channel's entries
** (pruning) without reopening anything. `capacity` is the number of distinct markers one action
** may dispatch per channel; a new marker beyond it is refused (FG_ENOMEM), never dropped. */
#define FG_LEDGER_WINDOW 64
#define FG_DISPATCH_MAX_CHANNELS 65536u
#define FG_DISPATCH_MAX_CAPACITY 4096u

typedef struct fg_ledger_entry {
    fg_marker marker;
    uint32_t reserved;
    uint64_t closed_below;
    uint64_t window;
} fg_ledger_entry;

typedef struct fg_dispatch_channel {
    int64_t live;  /* live action sequence; 0 until the first begin */
    uint32_t used; /* entries of the live sequence, in order of first dispatch */
    uint32_t reserved;
    uint64_t reserved2;
} fg_dispatch_channel;

/* A channel's part of the hash (fg_fold_run, base.h), kept up to date by every change to the
** channel, so hashing a ledger reads one cell per channel instead of every entry. Not state: a
** restore recomputes it from the channel. */
typedef struct fg_ledger_fold {
    uint64_t a, b;
    uint64_t reserved;
} fg_ledger_fold;

/* One cell of the block: channel headers first, then `capacity` entries per channel, then one
** fold per channel. */
typedef union fg_ledger_cell {
    fg_dispatch_channel channel;
    fg_ledger_entry entry;
    fg_ledger_fold fold;
} fg_ledger_cell;

/* The dispatcher: one block of fg_dispatcher_size(channels, capacity) bytes, no pointers. Read
** it through the functions below; copy it with memcpy or fg_dispatcher_restore. */
typedef struct fg_dispatcher {
    uint32_t channels;
    uint32_t capacity;
    fg_ledger_cell cells[];
} fg_dispatcher;

/* Bytes of a dispatcher of this shape; 0 when channels is not in 1..FG_DISPATCH_MAX_CHANNELS or
** capacity not in 1..FG_DISPATCH_MAX_CAPACITY. */
FG_API size_t fg_dispatcher_size(uint32_t channels, uint32_t capacity);
/* Initialises a block of fg_dispatcher_size(channels, capacity) bytes: every channel without a
** live action. */
FG_API fg_status fg_dispatcher_init(fg_dispatcher *d, uint32_t channels, uint32_t capacity,
                                    fg_error *err);
/* Allocates (a may be NULL: the default allocator) and initialises. The dispatcher keeps a copy
** of the allocator, so fg_dispatcher_destroy takes it alone (NULL is ignored). */
FG_API fg_status fg_dispatcher_create(uint32_t channels, uint32_t capacity, const fg_allocator *a,
                                      fg_dispatcher **out, fg_error *err);
FG_API void fg_dispatcher_destroy(fg_dispatcher *d);
/* Size of the block, fixed at creation: what a snapshot copies. */
FG_API size_t fg_dispatcher_bytes(const fg_dispatcher *d);
/* Checks a dispatcher snapshot of that shape (the invariants fg_dispatcher_restore relies on)
** without copying it. */
FG_API fg_status fg_dispatcher_check(const void *snapshot, size_t size, uint32_t channels,
                                     uint32_t capacity, fg_error *err);
/* Copies a snapshot (bytes taken from a dispatcher) over d after checking that it has d's shape
** and size and is internally consistent (FG_EMISMATCH / FG_EFORMAT otherwise, d unchanged). The
** hash's per-channel folds are recomputed, never taken from the snapshot. */
FG_API fg_status fg_dispatcher_restore(fg_dispatcher *d, const void *snapshot, size_t size,
                                       fg_error *err);

/* Makes `sequence` the live action of `channel` and prunes the channel's entries. The sequence
** must be newer than the live one (FG_ESTATE otherwise; sequences start at 1). */
FG_API fg_status fg_dispatcher_begin(fg_dispatcher *d, uint32_t channel, int64_t sequence,
                                     fg_error *err);
/* Decides a candidate and records it when Accepted. Duplicate and StaleAction change nothing.
** Errors (nothing changes): unknown channel (FG_EINVAL), occurrence above FG_OCCURRENCE_MAX
** (FG_EINVAL), a sequence newer than the live one or no live action (FG_ESTATE: the world begins
** an action before its timeline runs), a new marker when the channel's ledger is full
** (FG_ENOMEM). */
FG_API fg_status fg_dispatcher_dispatch(fg_dispatcher *d, const fg_event_candidate *c,
                                        fg_dispatch_result *out, fg_error *err);
/* The same decision without recording it (for a gate that checks other conditions first). */
FG_API fg_status fg_dispatcher_classify(const fg_dispatcher *d, const fg_event_candidate *c,
                                        fg_dispatch_result *out, fg_error *err);

FG_API uint32_t fg_dispatcher_channels(const fg_dispatcher *d);
FG_API uint32_t fg_dispatcher_capacity(const fg_dispatcher *d);
/* Live sequence of a channel (0: none yet; -1: no such channel). */
FG_API int64_t fg_dispatcher_live(const fg_dispatcher *d, uint32_t channel);
/* Entries of the live sequence of a channel (0 for no such channel), in order of first dispatch;
** ledger_at returns NULL when channel or i is out of range. */
FG_API uint32_t fg_dispatcher_ledger_count(const fg_dispatcher *d, uint32_t channel);
FG_API const fg_ledger_entry *fg_dispatcher_ledger_at(const fg_dispatcher *d, uint32_t channel,
                                                      uint32_t i);
/* Feeds the state to a hasher: one fold (fg_fold, base.h) seeded with the shape, of per channel
** the live sequence, the entry count and each entry's marker, closed_below and window. Two
** dispatchers that decide every future candidate alike hash alike. It reads the per-channel
** folds the changes keep up to date; fg_dispatcher_hash_fresh folds every entry instead (the
** same value, for tests), and fg_dispatcher_refold recomputes the kept folds after the block's
** bytes were written some other way than by these functions and memcpy from a dispatcher. */
FG_API void fg_dispatcher_hash(const fg_dispatcher *d, fg_hasher *hs);
/* The fold fg_dispatcher_hash mixes into its hasher (fg_hash_fold_end), for a hash that folds the
** ledger at one time and mixes it in later (the world's, at the end of the entity's tick). */
FG_API fg_fold fg_dispatcher_fold(const fg_dispatcher *d);
FG_API void fg_dispatcher_hash_fresh(const fg_dispatcher *d, fg_hasher *hs);
FG_API void fg_dispatcher_refold(fg_dispatcher *d);
/* Writes the state as text, one field per line in a fixed order, so two states compare with a
** line diff. Returns the length it needs (like snprintf); writes at most size bytes. */
FG_API size_t fg_dispatcher_describe(const fg_dispatcher *d, char *buf, size_t size);

/* }====================================================================== */

/* {====================================================================== cycle tracks */

#define FG_TRACK_MAX_MARKERS 32

/* A marker as a track is declared: name is optional and used only in messages. */
typedef struct fg_track_marker_spec {
    fg_tick tick;
    fg_marker marker;
    const char *name;
} fg_track_marker_spec;

typedef struct fg_track_marker {
    fg_tick tick;       /* 0 <= tick < duration */
    fg_marker marker;   /* its id */
    uint32_t rank;      /* how many markers with the same id come earlier in the cycle */
    uint32_t per_cycle; /* how many times this id occurs per cycle */
    uint32_t reserved;
} fg_track_marker;

/* A looping track: definition data (compiled rules), plain and copyable. Markers are kept sorted
** by tick, then id, so sampling yields events in unrolled-tick order. */
typedef struct fg_cycle_track {
    fg_tick duration;
    uint32_t count;
    uint32_t reserved;
    fg_track_marker markers[FG_TRACK_MAX_MARKERS];
} fg_cycle_track;

/* One marker met in unrolled time: tick = cycle * duration + marker tick. `occurrence` counts the
** marker's appearances since tick 0 (cycle * per_cycle + rank): a ready stamp occurrence. */
typedef struct fg_track_event {
    fg_tick tick;
    uint64_t occurrence;
    fg_marker marker;
    uint32_t reserved;
} fg_track_event;

/* Which playback a batch belongs to: a slot (the animated thing) and the generation of the
** playback on it. A new playback on the slot gets a newer generation. */
typedef struct fg_playback_token {
    uint32_t slot;
    uint32_t generation;
} fg_playback_token;

/* The events of one sampled interval (from, to]. events points at the caller's array. */
typedef struct fg_track_batch {
    fg_playback_token token;
    uint32_t count;
    uint32_t reserved;
    fg_tick from, to;
    const fg_track_event *events;
} fg_track_batch;

/* Errors: duration below 1, more than FG_TRACK_MAX_MARKERS markers, a marker tick outside
** 0..duration-1, the same marker twice at one tick. t is unchanged on error. */
FG_API fg_status fg_cycle_track_init(fg_cycle_track *t, fg_tick duration,
                                    const fg_track_marker_spec *markers, uint32_t count,
                                    fg_error *err);
/* Number of events in (from, to] without writing them. Errors: from < 0, to < from. */
FG_API fg_status fg_cycle_track_count(const fg_cycle_track *t, fg_tick from, fg_tick to,
                                     uint64_t *count, fg_error *err);
/* Samples (from, to] into out[0..capacity) and describes it in *batch. A reversed interval or a
** negative from is FG_EINVAL; more events than capacity is FG_ENOMEM (the message says how
** many; fg_cycle_track_count tells ahead). Nothing is written on error. Constant work per event:
** a long interval costs its events, not its cycles. */
FG_API fg_status fg_cycle_track_sample(const fg_cycle_track *t, fg_playback_token token, fg_tick from,
                                      fg_tick to, fg_track_event *out, uint32_t capacity,
                                      fg_track_batch *batch, fg_error *err);

/* }====================================================================== */

/* {====================================================================== the playback owner */

typedef enum fg_commit_result {
    FG_COMMIT_COMMITTED = 0,         /* delivered; the cursor moved to batch.to */
    FG_COMMIT_ALREADY_COMMITTED = 1, /* batch.to <= cursor: a retry; nothing happens */
    FG_COMMIT_STALE_PLAYBACK = 2,    /* the token is not the live one */
    FG_COMMIT_CURSOR_GAP = 3         /* batch.from != cursor: an interval is missing */
} fg_commit_result;

/* "Committed", "AlreadyCommitted", "StalePlayback", "CursorGap"; "?" otherwise. */
FG_API const char *fg_commit_result_name(fg_commit_result r);

#define FG_PLAYBACK_MAX_QUEUE 65536u

/* Owns one live playback: its token, its committed cursor and a bounded queue of delivered
** events that the caller drains. One block of fg_playback_owner_size(queue) bytes, no pointers.
** Generations only grow: `token` keeps the last one begun even after the playback ends. */
typedef struct fg_playback_owner {
    fg_playback_token token; /* the last token begun */
    uint32_t live;           /* 1 while that token is live */
    uint32_t capacity;       /* delivery queue capacity */
    uint32_t head, count;    /* delivery queue (ring) */
    fg_tick cursor;          /* committed cursor of the live playback */
    uint64_t delivered;      /* events delivered since init */
    fg_track_event queue[];
} fg_playback_owner;

/* Bytes of an owner with a delivery queue of `queue` events; 0 when queue is not in
** 1..FG_PLAYBACK_MAX_QUEUE. */
FG_API size_t fg_playback_owner_size(uint32_t queue);
FG_API fg_status fg_playback_owner_init(fg_playback_owner *o, uint32_t queue, fg_error *err);
/* Allocates (a may be NULL: the default allocator) and initialises; the owner keeps a copy of the
** allocator for fg_playback_owner_destroy (NULL is ignored). */
FG_API fg_status fg_playback_owner_create(uint32_t queue, const fg_allocator *a,
                                          fg_playback_owner **out, fg_error *err);
FG_API void fg_playback_owner_destroy(fg_playback_owner *o);
FG_API size_t fg_playback_owner_bytes(const fg_playback_owner *o);
FG_API fg_status fg_playback_owner_restore(fg_playback_owner *o, const void *snapshot, size_t size,
                                           fg_error *err);

/* Makes token live with its cursor at `cursor` (>= 0, usually 0). Its generation must be newer
** than that of the last token begun (FG_ESTATE). Events already delivered stay queued. */
FG_API fg_status fg_playback_owner_begin(fg_playback_owner *o, fg_playback_token token,
                                         fg_tick cursor, fg_error *err);
/* Ends the live playback: every later batch is StalePlayback. */
FG_API void fg_playback_owner_end(fg_playback_owner *o);
/* Decides a batch: StalePlayback, AlreadyCommitted, CursorGap, or Committed, in that order of
** checks; only Committed changes anything (events queued, cursor = to). Empty batches commit.
** Errors (nothing changes): a malformed batch (to < from, events missing, an event outside
** (from, to] or out of order: FG_EINVAL) and a Committed batch that does not fit in the free
** part of the queue (FG_ENOMEM: drain first; the batch stays uncommitted, so it can be retried). */
FG_API fg_status fg_playback_owner_commit(fg_playback_owner *o, const fg_track_batch *batch,
                                          fg_commit_result *out, fg_error *err);

FG_API fg_tick fg_playback_owner_cursor(const fg_playback_owner *o);
/* True while a playback is live; its token goes to *token (may be NULL). */
FG_API bool fg_playback_owner_live(const fg_playback_owner *o, fg_playback_token *token);
/* Delivered events waiting to be drained, oldest first. */
FG_API uint32_t fg_playback_owner_pending(const fg_playback_owner *o);
FG_API const fg_track_event *fg_playback_owner_at(const fg_playback_owner *o, uint32_t i);
/* Moves up to max of the oldest delivered events to out; returns how many. */
FG_API uint32_t fg_playback_owner_drain(fg_playback_owner *o, fg_track_event *out, uint32_t max);
FG_API void fg_playback_owner_hash(const fg_playback_owner *o, fg_hasher *hs);
FG_API size_t fg_playback_owner_describe(const fg_playback_owner *o, char *buf, size_t size);

/* }====================================================================== */

#ifdef __cplusplus
}
#endif
#endif
