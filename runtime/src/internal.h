/* SPDX-License-Identifier: MIT */
/*
** internal.h: the world's private state (struct fg_world, its arena header, entities, queues and
** per-tick work space) and the helpers shared by the files that run a world: world.c,
** world_input.c, tick.c, request.c, trace.c, world_access.c. Not installed. The determinism
** tools see the world through world_access.h only.
**
** The compiled ruleset form lives in ruleset_internal.h, which the compiler includes alone.
*/
#ifndef FG_INTERNAL_H
#define FG_INTERNAL_H

#include "motion_internal.h"
#include "ruleset_internal.h"
#include "world_access.h"
#include "framegate/behavior.h"
#include "framegate/gate.h"
#include "framegate/request.h"
#include "framegate/world.h"

/* {====================================================================== world state */

#define FG_MAX_VERSIONS FG_WORLD_MAX_VERSIONS /* ruleset versions a world keeps (reloads) */

typedef struct fg_queued {
    uint16_t action; /* FG_NO_ACTION: empty */
    uint8_t source;
    uint8_t why;     /* fg_reason it was queued for: a window, a contact, a hitstop, a rule */
    int32_t waited;  /* ticks waited so far */
    int32_t limit;   /* ticks it may wait */
    fg_tick made;
} fg_queued;

/* One entity. Plain data inside the world's arena, ordered by how often a tick reads it: the
** tick runs each phase over every entity, so at thousands of fighters a record is fetched from
** memory again in every phase, and each phase should find what it reads in few cache lines.
** The first 64 bytes are what nearly every phase reads (position, facing, opponent, the end of
** the freeze, the notes that say whether the queues and the combat state need reading), then the
** running actions (what a tick reads of two layers in one line) and when requests last started
** them, then the combat state (its first fields are the ones the collision and movement phases
** read), then the input phase's fields in one line, then what only a decision, a queue or a
** report reads. The order is the layout of snapshots; the
** state hash and the field diff name fields, so they do not depend on it. */
typedef struct fg_entity_state {
    fg_entity id;
    uint8_t facing;
    uint8_t contact; /* the host's latest contact report: 1 grounded */
    uint8_t rules_slot;
    uint8_t npending;
    uint8_t support; /* what it stands on after the last movement (FG_SUPPORT_*, stage.h) */
    uint8_t drop;    /* the one-way platform (index + 1) it is dropping through, 0 = none */
    uint8_t landed;  /* the last movement ended a fall: the next tick starts with the landing */
    /* Bit l: layer l's queue holds a request (queued[l][0] is not empty). It mirrors the queues
    ** (fg_entity_queue_changed after every change, checked on restore), so a tick that finds
    ** no request waiting never reads them. */
    uint8_t queued_layers;
    fg_fx x, y, vx, vy;
    fg_fx prev_x, prev_y; /* the previous tick's position, for interpolation */
    fg_entity opponent;   /* the entity it fights: hit target, pushbox partner, facing */
    /* Frozen (hitstop) for ticks in [frozen_from, frozen_until): the tick a hit lands still
    ** runs; the freeze starts on the next. The end is read first (fg_entity_frozen), so the
    ** start, read only during a freeze, fills the input phase's line below. */
    fg_tick frozen_until;
    /* Digest of every edge this entity consumed, folded in as each tick consumes it (what an
    ** edge holds then never changes, except its CONSUMED flag, which the hash reads from the
    ** buffer). It lets the state hash cover the stored edges without re-reading them each tick. */
    uint64_t input_digest;
    /* 1 while the combat state has something a tick moves: a pushback slide, a combo or a launch
    ** (combat.push_left, combo, launched). It mirrors them (fg_entity_combat_changed after every
    ** write, checked on restore), so the tick of a fighter out of combat never reads the combat
    ** state's line. */
    uint8_t combat_live;
    uint8_t reserved_head[7];
    /* The layers start the second line, so two layers' actions, timers and start ticks share
    ** it: a tick reads that one line of them (fg_instance puts those first). */
    fg_instance layers[FG_MAX_LAYERS];
    fg_tick started_tick[FG_MAX_LAYERS]; /* tick a request last started an action per layer */
    fg_combat combat; /* teams, combo, juggle, pushback, throws, the hit log (hit_internal.h) */
    fg_ground ground;         /* these two, the input phase's, share a line */
    fg_tick_input last_input;
    fg_tick frozen_from; /* see frozen_until */
    int64_t next_seq[FG_MAX_LAYERS];
    int32_t res[FG_MAX_RESOURCES];
    fg_queued queued[FG_MAX_LAYERS][FG_QUEUE_MAX]; /* per layer, the head first; packed */
    fg_jump_decision last_jump;
    fg_pending_request pending[FG_PENDING_REQUESTS];
    fg_decision last_decision;
    uint8_t reserved[8]; /* to a whole number of cache lines (checked below) */
} fg_entity_state;

/* Records start on a cache line (the arena and its sections are 64-byte aligned, world.c), so
** the first 64 bytes of every record are one line. A change of the fields above changes the
** padding to keep this true. */
_Static_assert(sizeof(fg_entity_state) % 64 == 0,
               "fg_entity_state: adjust reserved[] to a multiple of 64 bytes");
_Static_assert(offsetof(fg_entity_state, ground) % 64 == 0 &&
                   offsetof(fg_entity_state, frozen_from) + sizeof(fg_tick) <=
                       offsetof(fg_entity_state, ground) + 64,
               "an entity's ground, last input and freeze start share one cache line");
_Static_assert(offsetof(fg_entity_state, combat_live) < 64,
               "the combat mirror sits in the record's first line");
_Static_assert(offsetof(fg_entity_state, layers) == 64 &&
                   offsetof(fg_entity_state, layers[1].started) + sizeof(fg_tick) <= 128,
               "an entity's layers start its second line, with what a tick reads of two in it");

/* Keeps queued_layers true after layer's queue changed. */
static inline void fg_entity_queue_changed(fg_entity_state *es, uint32_t layer) {
    uint8_t bit = (uint8_t)(1u << layer);
    if (es->queued[layer][0].action != FG_NO_ACTION) es->queued_layers |= bit;
    else es->queued_layers &= (uint8_t)~bit;
}

/* Whether a request waits in layer's queue. */
static inline bool fg_entity_has_queued(const fg_entity_state *es, uint32_t layer) {
    return (es->queued_layers >> layer) & 1u;
}

/* world.c: folds one consumed edge into an entity's input digest. */
uint64_t fg_world_fold_edge(uint64_t digest, const fg_edge *e);

static inline bool fg_entity_frozen(const fg_entity_state *e, fg_tick t) {
    return t < e->frozen_until && t >= e->frozen_from; /* the end first: see frozen_until */
}

/* Whether a pushback slide, a combo or a launch is under way: what combat_live mirrors. */
static inline bool fg_entity_in_combat(const fg_entity_state *es) {
    return es->combat.push_left != 0 || es->combat.combo != 0 || es->combat.launched != 0;
}

/* Brings combat_live up to date after a write of combat.push_left, combo or launched. */
static inline void fg_entity_combat_changed(fg_entity_state *es) {
    es->combat_live = fg_entity_in_combat(es);
}

/* request.c: the data's default decision for a request, against an entity's state now. */
typedef struct fg_decide_ctx {
    fg_tick tick;
    const fg_ruleset *rules;            /* the entity's current ruleset (for the request) */
    const fg_ruleset *const *versions;  /* version -> ruleset, for running instances */
} fg_decide_ctx;

fg_decision fg_decide(const fg_decide_ctx *c, const fg_entity_state *e, uint32_t action,
                      fg_request_source src);
/* request.c: asks the host's request rule, when the entity's ruleset has one, and merges its
** verdict with the data's decision d. */
fg_decision fg_request_merge_rule(fg_world *w, fg_entity_state *es, fg_decision d);
/* request.c: the action a completed motion asks for. Several actions may share an input: the
** one a window of the layer's last queued (else running) action leads to wins, then the first
** that is not a follow-up and fits the fighter's group. When several share it and none fits,
** returns -1 and fills `none` with the rejection that says why. */
/* request.c: whether a window's contact condition (fg_contact) can still be met by an attack
** whose contact is `contact` (0 = not decided yet). */
bool fg_contact_may_match(uint8_t on, uint8_t contact);
int fg_route_motion(const fg_decide_ctx *c, const fg_entity_state *e, uint32_t motion,
                    fg_decision *none);
/* Group id the entity is in: the group of the action on its first layer. */
int fg_entity_group(const fg_decide_ctx *c, const fg_entity_state *e);
fg_phase fg_instance_phase(const fg_ruleset *r, const fg_instance *inst, const fg_entity_state *e,
                           fg_tick tick, uint32_t layer);
/* The same without the queue: the phase of the action itself under a waiting request (the frame
** meter shows the wait but counts startup and active from this). */
fg_phase fg_action_phase(const fg_ruleset *r, const fg_instance *inst, const fg_entity_state *e,
                         fg_tick tick);
/* Whether a window of `inst` lets `target` start now, given the contact so far. */
bool fg_window_open_for(const fg_action_rt *a, const fg_instance *inst, uint32_t target,
                        int *window);

/* A frame meter record is one byte per entity and tick: the phase, and two flags. */
#define FG_METER_PHASE 0x3Fu
#define FG_METER_BUFFERED 0x40u /* a request waited in the body's queue (shown as 'b') */
#define FG_METER_STARTED 0x80u  /* a request started the body's action on this tick */

/* The world's header inside the arena. */
typedef struct fg_world_state {
    uint64_t layout; /* identifies capacities and sizes; a snapshot must match it */
    fg_tick tick;
    fg_rng rng;
    uint32_t nentities;
    uint32_t nslots;
    uint16_t slot_version[FG_MAX_RULE_SLOTS]; /* the ruleset version each slot uses now */
    fg_stage stage; /* what the bodies stand on (world_stage.c) */
} fg_world_state;

#define FG_COMMANDS_PER_TICK 4 /* motion commands one entity can act on per tick */

/* world_hash.c: the folds of one entity's dispatch ledger and matcher, taken where the tick
** last writes them (each mixed into the hasher in turn when the entity's part is added to the
** keep's sum). Not authoritative. */
typedef struct fg_hash_part {
    fg_fold ledger;
    fg_motion_kept motion; /* the matcher's fold, moved by each step (motion_internal.h) */
    /* The ledger fold is kept while the ledger is unchanged: it holds while ledger_at equals the
    ** keep's `changes`, and the tick sets it to 0 when it writes the ledger (tick.c). */
    uint64_t ledger_at;
} fg_hash_part;

/* world_hash.c: the folds of an entity's words that rarely change, kept between ticks, each an
** accumulation from where the entity starts (a, c: world_hash.c) of n words. hc: the head of its
** record without position, velocity, last grounded tick and last input (facing, support, ground
** flags, landing) with its last jump decision, then its freeze and combat state (with the hit log
** and bounces). all: those, then its layers' words without elapsed time and cycles, and its
** resources; kept only while no request waits (`layers_ok`). They hold while `at` equals the
** keep's `changes`; a write to any of those words sets it to 0 (fg_world_hash_touch). The input
** memo: what the words that change only on a tick with an edge add. One cache line per entity. */
typedef struct fg_hash_kept {
    _Alignas(64) uint64_t at;
    uint64_t hc_a, hc_c, all_a, all_c;
    uint64_t in_a, in_c; /* the input memo: the record's run on a quiet tick (take_input) */
    uint8_t hc_n, all_n, layers_ok, nlayers; /* nlayers: the layers of the kept fold */
    uint8_t in_bn, in_facing; /* the buffer's words and facing of the memo (0xFF: no memo) */
} fg_hash_kept;
_Static_assert(sizeof(fg_hash_kept) == 64, "an entity's kept folds fill one cache line");

/* The parts, and when they hold. Every change to the world outside a tick (fg_world_note_change,
** a reload, a restore) and the start of every tick sets `ready` false; a tick that folded every
** entity's part with no change in between sets it true. A tick folds the parts only when the
** hash was taken since the last one (`asked`), so a world nobody hashes pays nothing for them. */
typedef struct fg_hash_keep {
    bool ready;
    bool asked;   /* fg_world_hash ran since the last tick began */
    bool folding; /* the tick now running folds the parts */
    bool in_tick; /* a tick is running: a hash taken now (a hook's) keeps no part */
    bool held;    /* every part held as the tick now running began (ready, all added) */
    /* Changes made other than by a tick, counted from 1: a tick sees one made while it ran, and
    ** a kept ledger fold taken before one no longer holds. */
    uint64_t changes;
    /* The entities' share of the hash as the tick folds them, in slot order: their runs (each
    ** placed where the entity starts adds k * a + b to the sum) one after the other, and the
    ** hasher after their ledger and matcher folds. It holds when `ready` and every entity was
    ** added in order (`next` is the count); else fg_world_hash folds them all again. */
    fg_fold_run all;
    fg_hasher all_hs;
    uint32_t next;
    fg_hash_kept *kept; /* per entity slot, after the parts, 64-byte aligned */
    fg_hash_part parts[];
} fg_hash_keep;

/* Call when the world changes other than by its tick: no kept part holds any more. */
static inline void fg_world_hash_forget(fg_hash_keep *k) {
    k->ready = false;
    k->changes++;
}

/* world_hash.c: call when the tick writes entity slot's dispatch ledger. A tick that folds the
** parts takes the ledger's fold there and then, while its lines are in the cache. */
void fg_world_hash_ledger_written(const fg_world *w, uint32_t slot);

/* world_hash.c: starts the entities' share the tick adds up (fg_hash_keep.all). */
void fg_world_hash_begin_parts(fg_hash_keep *keep);
/* world_hash.c: folds the parts of entities [from, to) and adds them to the keep's sum (the tick
** at the end of theirs, when nothing changes them after; the hash for all of them when the tick
** did not). */
void fg_world_hash_parts(const fg_world *w, uint32_t from, uint32_t to);

/* world_hash.c: the state hash from scratch, every memo and kept fold bypassed: equal to
** fg_world_hash whenever they are right (tests compare the two). */
uint64_t fg_world_hash_fresh(const fg_world *w);

struct fg_world {
    fg_allocator alloc;
    uint32_t tick_rate;
    uint32_t max_entities;
    uint32_t buffer_capacity;
    uint64_t seed;
    fg_action_names names;
    int jump_action;
    fg_jump_config jump;
    fg_ground_mode ground_mode; /* FG_GROUND_STAGE or FG_GROUND_CONTACTS, never DEFAULT */
    char jump_action_name[FG_NAME_MAX]; /* the action the jump gate starts ("" = none) */
    int16_t jump_ids[FG_MAX_VERSIONS];  /* that action's id in each ruleset version, or -1 */
    fg_world_hooks hooks;

    fg_ruleset *versions[FG_MAX_VERSIONS];
    uint32_t nversions;
    bool hurtable_projectiles; /* some version declares a projectile kind with hurt boxes */
    bool attack_boxes;         /* some version has an action with a hit or throw box */
    bool push_boxes;           /* some version declares a push box (an action's, a group's...) */

    unsigned char *arena; /* 64-byte aligned: arena_skew bytes into its allocation */
    size_t arena_size, arena_skew;
    fg_world_state *state;
    fg_entity_state *entities;
    unsigned char *buffers;
    size_t buffer_stride;
    unsigned char *ledgers;
    size_t ledger_stride;
    unsigned char *motions; /* one matcher state per entity slot */
    size_t motion_stride;

    fg_input_map *maps;
    fg_device_state *devices;

    /* Per tick work space, sized at creation. */
    fg_candidate *cands;
    uint32_t ncands, cap_cands;
    fg_event *events; /* the last tick's committed events */
    uint32_t nevents, cap_events;
    fg_candidate host_events[FG_HOST_EVENTS];
    uint32_t nhost_events;
    fg_motion_command *commands; /* FG_COMMANDS_PER_TICK per entity slot, this tick's */
    uint8_t *ncommands;
    /* Per entity slot, its buffer's direction as this tick's input phase left it: the behavior
    ** pass reads it here (one line for 64 entities) rather than fetching each buffer again.
    ** Written before it is read in every tick, so it is neither saved nor hashed. */
    uint8_t *dirs;
    fg_motion_command *true_commands; /* flags mode: every command true for the entity being
                                         stepped (FG_MOTION_MAX_PATTERNS), before the world keeps
                                         those that request an action */

    /* FG_METER_TICKS phases per entity slot, tick-major (fg_world_meter_cell): a tick writes one
    ** byte for every entity, and neighbours share a cache line. */
    uint8_t *meter;
    fg_cue cues[FG_MAX_CUES];
    uint32_t ncues;
    uint64_t cues_dropped;

    /* Whether every entity fights its neighbour in a pair of slots (tick.c `paired`): 0 not
    ** known yet, 1 yes, 2 no. Not authoritative: it follows from the records' opponents, which
    ** only a spawn or a restore change, and those set it back to 0. */
    uint8_t pairs;
    /* Whether a throw may hold an entity (throw.c): 0 not known yet, 1 none, 2 maybe. Not
    ** authoritative either: a grab sets 2, the throw phase finds 1 when it held nobody, a spawn
    ** or a restore sets 0; with 1 the throw phase reads no record. */
    uint8_t grabs;
    /* Whether an entity has a team (tick.c `teams_known`): 0 not known yet, 1 none, 2 maybe. Not
    ** authoritative: it follows from the records' teams, which only a spawn, a restore or
    ** fg_world_set_team change, and those set it back to 0; with 1 placing an entity's boxes
    ** does not read its combat state. */
    uint8_t teams;
    fg_collide_space coll; /* the collision phase's work space, sized at creation */
    fg_hash_keep *hash_keep; /* per entity slot, its part of the state hash (world_hash.c) */
    size_t hash_keep_skew;   /* 64-byte aligned: that many bytes into its allocation */
    fg_projectile_pool *ppool;  /* in the arena, after the world header (projectile.c) */
    fg_projectile_state *projs; /* its records */
    fg_projectile_space pspace; /* the projectile phase's work space, sized at creation */
    /* Variable changes request rules proposed this tick, committed by the gate (vars.c). */
    fg_var_proposal *proposals;
    uint32_t nproposals, cap_proposals;
    uint32_t rule_entity;  /* the entity whose request rule runs now, 0 outside a rule */
    uint32_t rule_first;   /* its call's first proposal */

    fg_trace_record *trace;
    uint32_t trace_cap, trace_head, trace_count;
    uint64_t trace_dropped;
    /* The records' text (trace.c): a byte ring of trace_text_cap bytes. trace_text_head counts
    ** every byte ever written, so a record's text is intact while head - text_at <= cap. */
    char *trace_text;
    uint32_t trace_text_cap;
    uint64_t trace_text_head;
    /* A failing request hook's own text (fg_world_trace_hook_error), waiting for the rule
    ** error record request.c makes next. */
    bool hook_text;
    uint64_t hook_text_at;
    uint32_t hook_text_len;

    /* Host actions between ticks that a replay of input edges cannot reproduce, counted so a
    ** recorder or a sync test notices them (determinism.h). Not authoritative, not hashed.
    ** edits: state set directly (restore, spawn, position, facing, resource, rules added);
    ** side_inputs: input that is not an edge (requests, contact reports, animation reports). */
    uint64_t edits, side_inputs;
    const char *edit_what, *side_input_what; /* the latest of each, for messages */
    /* A recorder needs the hash after its last tick; rather than hash every tick, it asks for
    ** the hash to be taken just before the first change after a tick (these notes are called
    ** before the change is made). */
    bool watch_boundary;
    uint64_t boundary_hash;
    fg_tick boundary_tick;
};

/* Call when the tick writes a word of es's kept folds (fg_hash_kept): its facing, support, drop,
** landing, ground flags and landing tick, jump decision; its freeze, combat state, hit log,
** bounces; its layers (action, version, contact, sequence, start), queue heads, sequence
** counters, start ticks; its resources (a write to only the last five may call
** fg_world_hash_touch_layers instead). Position, velocity, timers and input need no call. */
static inline void fg_world_hash_touch(const fg_world *w, const fg_entity_state *es) {
    w->hash_keep->kept[es->id - 1].at = 0;
}

/* fg_world_hash_touch for a write to the layers' words or the resources only (an action's start
** or end, a queue, a cost): the head and combat state keep their fold, the layers are folded
** again from it. */
static inline void fg_world_hash_touch_layers(const fg_world *w, const fg_entity_state *es) {
    w->hash_keep->kept[es->id - 1].layers_ok = 0;
}

/* Call before a host action changes anything. */
static inline void fg_world_note_change(fg_world *w) {
    if (w->watch_boundary) {
        w->watch_boundary = false;
        w->boundary_hash = fg_world_hash(w);
        w->boundary_tick = w->state->tick;
    }
    fg_world_hash_forget(w->hash_keep);
}

static inline void fg_world_note_edit(fg_world *w, const char *what) {
    fg_world_note_change(w);
    w->edits++;
    w->edit_what = what;
}

static inline void fg_world_note_side_input(fg_world *w, const char *what) {
    fg_world_note_change(w);
    w->side_inputs++;
    w->side_input_what = what;
}

/* Bytes of the arena a snapshot of n entities copies: the header section, then n slots of each
** per-entity section. Sections are contiguous per kind, so these are five plain copies. */
size_t fg_world_snapshot_bytes(const fg_world *w, uint32_t n);

static inline fg_entity_state *fg_world_entity(const fg_world *w, fg_entity e) {
    if (e == 0 || e > w->state->nentities) return NULL;
    return &w->entities[e - 1];
}

static inline fg_buffer *fg_world_buffer_at(const fg_world *w, uint32_t slot) {
    return (fg_buffer *)(w->buffers + (size_t)slot * w->buffer_stride);
}

static inline fg_dispatcher *fg_world_ledger_at(const fg_world *w, uint32_t slot) {
    return (fg_dispatcher *)(w->ledgers + (size_t)slot * w->ledger_stride);
}

static inline fg_motion_state *fg_world_motion_at(const fg_world *w, uint32_t slot) {
    return (fg_motion_state *)(w->motions + (size_t)slot * w->motion_stride);
}

/* The frame meter's byte for an entity slot on a tick (kept for the last FG_METER_TICKS). */
static inline uint8_t *fg_world_meter_cell(const fg_world *w, uint32_t slot, fg_tick tick) {
    return w->meter + (size_t)(tick % FG_METER_TICKS) * w->max_entities + slot;
}

static inline const fg_ruleset *fg_world_rules_of(const fg_world *w, const fg_entity_state *es) {
    return w->versions[w->state->slot_version[es->rules_slot]];
}

static inline fg_decide_ctx fg_world_ctx(const fg_world *w, const fg_entity_state *es,
                                         fg_tick tick) {
    fg_decide_ctx c;
    c.tick = tick;
    c.rules = fg_world_rules_of(w, es);
    c.versions = (const fg_ruleset *const *)w->versions;
    return c;
}

fg_status fg_world_no_entity(const fg_world *w, fg_entity e, fg_error *err);
fg_trace_record *fg_world_trace_push(fg_world *w, fg_tick tick, fg_entity e, fg_trace_kind kind,
                                     int code);
/* trace.c: a rule error record for a failed request hook: its whole text when the hook handed
** it over (fg_world_trace_hook_error), else msg. */
void fg_world_trace_rule_error(fg_world *w, fg_tick tick, fg_entity e, const char *msg);
void fg_world_trace4(fg_world *w, fg_tick tick, fg_entity e, fg_trace_kind kind, int code,
                     int64_t a, int64_t b, int64_t c, int64_t d);
/* tick.c: starts an action on a layer (a new sequence, tick 0; duration <= 0: its own). */
void fg_world_start_action(fg_world *w, fg_entity_state *es, uint32_t layer, uint32_t action,
                           uint32_t version, fg_transition_reason why, int32_t duration,
                           fg_tick t);
/* world_combat.c: the collision work space. */
bool fg_collide_space_init(fg_collide_space *s, fg_allocator *a, uint32_t max_entities);
void fg_collide_space_free(fg_collide_space *s, fg_allocator *a, uint32_t max_entities);
size_t fg_collide_space_bytes(uint32_t max_entities);
/* world_stage.c: the jump action's id in a version (jump_ids), set as versions are added; the
** ground an entity reports this tick (from the stage or the host's contact report); its support
** recomputed where it stands (spawn, set_position, a new stage); whether it may drop through the
** platform it stands on now; the stage an edited first ruleset brings on reload. */
void fg_world_stage_note_version(fg_world *w, uint32_t version);
bool fg_world_stage_grounded(const fg_world *w, const fg_entity_state *es);
void fg_world_stage_place(fg_world *w, fg_entity_state *es);
void fg_world_stage_reload(fg_world *w, const fg_ruleset *old, const fg_ruleset *r);
bool fg_world_stage_can_drop(const fg_world *w, const fg_entity_state *es);
/* tick.c: puts each layer in its neutral state (spawn, reload). */
void fg_world_start_neutral(fg_world *w, fg_entity_state *es, fg_tick tick,
                            fg_transition_reason why);

/* }====================================================================== */

/* {====================================================================== functions */

/* A live box placed in the world: which layer's action (0xFF: a default box) and which box. */
typedef struct fg_live_box {
    fg_rect rect;
    uint8_t layer, index;
} fg_live_box;

/* collide.c */
/* The live boxes of one kind, placed; `drawn`: as a host draws them (a frozen attacker's hit
** and throw boxes included, which strike nothing while frozen). */
uint32_t fg_collide_boxes(const fg_world *w, const fg_entity_state *es, fg_box_kind kind,
                          fg_tick t, bool drawn, fg_live_box *out, uint32_t max);
bool fg_collide_invulnerable(const fg_world *w, const fg_entity_state *es, fg_box_kind against,
                             fg_tick t);
/* Whether definition `def` of the action on `layer` may still hit `target` now (one hit per
** target per definition, or `hit->hits` spaced by its interval). */
bool fg_collide_allowed(const fg_entity_state *att, uint32_t layer, uint32_t def,
                        const fg_hit_def *hit, fg_entity target, fg_tick t);
/* The collision phase: fg_collide_place for every entity (what it may touch this tick: it reads
** the entity and writes only the phase's work space), then fg_collide_pairs (the tests and the
** tick's contacts, in their order); fg_collide_find is both. */
void fg_collide_place(fg_world *w, uint32_t slot, fg_tick t);
void fg_collide_pairs(fg_world *w, fg_tick t);
void fg_collide_find(fg_world *w, fg_tick t);
/* hit.c */
void fg_hit_commit(fg_world *w, fg_tick t);
uint8_t fg_hit_marker(fg_world *w, fg_entity_state *es, uint32_t layer, fg_tick t,
                      fg_entity *target);
void fg_hit_log_add(const fg_world *w, fg_entity_state *att, uint32_t layer, uint32_t def, fg_entity target,
                    fg_tick t);
void fg_hit_forget_layer(const fg_world *w, fg_entity_state *es, uint32_t layer);
void fg_hit_slide(const fg_world *w, fg_entity_state *es);
void fg_hit_settle(const fg_world *w, fg_entity_state *es, fg_tick t);
void fg_hit_landed(fg_world *w, fg_entity_state *es, fg_tick t);
/* bounce.c: arms what a landed hit declares on its target (away: +1 or -1 along x, away from the
** attacker); forgets what is left (a landing); forgets the combo's count of bounces (the combo
** ended); the bounce of a launched entity's move; its words in the state hash. */
void fg_bounce_arm(const fg_world *w, fg_entity_state *tg, const fg_hit_def *h, int away,
                   fg_entity by);
void fg_bounce_forget(fg_entity_state *es);
void fg_bounce_combo_ended(fg_entity_state *es);
void fg_bounce_move(fg_world *w, fg_entity_state *es, fg_fx want_x, fg_stage_contact *c,
                    bool airborne, fg_tick t);
#define FG_BOUNCE_WORDS 4
uint32_t fg_bounce_words(const fg_bounce_state *b, uint64_t out[FG_BOUNCE_WORDS]);
void fg_collide_push(fg_world *w, const fg_contact_rec *c);
/* projectile.c */
size_t fg_projectile_pool_bytes(uint32_t cap);
void fg_projectile_pool_bind(fg_world *w, unsigned char *at);
size_t fg_projectile_space_bytes(uint32_t cap);
bool fg_projectile_space_init(fg_projectile_space *s, fg_allocator *a, uint32_t cap);
void fg_projectile_space_free(fg_projectile_space *s, fg_allocator *a);
const fg_projectile_def *fg_projectile_def_of(const fg_world *w, const fg_projectile_state *p);
void fg_projectile_marker(fg_world *w, fg_entity_state *es, uint32_t layer, uint32_t marker,
                          fg_tick t);
void fg_projectile_collide(fg_world *w, fg_tick t);
void fg_projectile_clash(fg_world *w, fg_tick t);
bool fg_projectile_take_hit(fg_world *w, const fg_contact_rec *c, fg_tick t);
void fg_projectile_landed(fg_world *w, const fg_contact_rec *c);
void fg_projectile_move(fg_world *w, fg_tick t);
void fg_projectile_fold(const fg_world *w, fg_fold *f);
fg_status fg_projectile_check(const fg_world *w, const unsigned char *bytes, uint32_t nentities,
                              fg_error *err);
/* push.c */
fg_fx fg_push_room(const fg_world *w, const fg_entity_state *es, int dir);
void fg_push_separate(fg_world *w, fg_entity_state *a, fg_entity_state *b, fg_tick t);
bool fg_push_declared(const fg_ruleset *r);
fg_fx fg_push_corner(const fg_world *w, fg_entity_state *tg, int away, fg_fx push);
/* vars.c */
void fg_vars_spawn(const fg_ruleset *r, fg_entity_state *es);
void fg_vars_reload(const fg_ruleset *old, const fg_ruleset *r, fg_entity_state *es);
void fg_vars_rule_begin(fg_world *w, const fg_entity_state *es);
void fg_vars_rule_end(fg_world *w, bool failed);
void fg_vars_commit(fg_world *w, fg_tick t);
void fg_vars_apply(fg_world *w, fg_entity_state *es, const fg_ruleset *r, uint32_t action,
                   fg_var_when when, fg_tick t);
/* throw.c */
bool fg_throw_throwable(const fg_world *w, const fg_entity_state *tg, fg_tick t);
void fg_throw_judge(const fg_world *w, fg_contact_rec *c, fg_tick t);
void fg_throw_grab(fg_world *w, const fg_contact_rec *c, fg_tick t);
void fg_throw_advance(fg_world *w, fg_tick t);

/* }====================================================================== */

#endif
