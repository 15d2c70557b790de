/*
** internal.h: the compiled form of a ruleset, shared by action.c (which builds it), behavior.c
** and world.c (which run it). Not installed: the public view is framegate/action.h.
**
** The compiled form is flat and id-based: cancel targets become bitsets of action ids, resource
** names become indexes, so the tick path never compares a string.
*/
#ifndef FG_INTERNAL_H
#define FG_INTERNAL_H

#include "framegate/action.h"
#include "framegate/behavior.h"
#include "framegate/gate.h"
#include "framegate/request.h"
#include "framegate/world.h"
#include "hit_internal.h"

#define FG_MAX_ACTIONS 256
#define FG_ACTION_WORDS (FG_MAX_ACTIONS / 64)
#define FG_MAX_GROUPS 8
#define FG_MAX_MOTIONS 128
#define FG_NO_ACTION 0xFFFFu

typedef struct fg_action_set {
    uint64_t w[FG_ACTION_WORDS];
} fg_action_set;

static inline bool fg_action_set_has(const fg_action_set *s, uint32_t id) {
    return id < FG_MAX_ACTIONS && (s->w[id >> 6] >> (id & 63)) & 1u;
}

static inline void fg_action_set_add(fg_action_set *s, uint32_t id) {
    s->w[id >> 6] |= (uint64_t)1 << (id & 63);
}

typedef struct fg_window_rt {
    int32_t from, to, buffer;
    uint8_t on; /* fg_contact */
    fg_action_set into;
} fg_window_rt;

typedef struct fg_marker_rt {
    int32_t tick;
    uint16_t marker; /* id in the ruleset's marker table */
    bool once;
    bool is_hit; /* the marker named "hit" or "damage": an attack connects here */
} fg_marker_rt;

typedef struct fg_action_rt {
    int32_t duration;
    int32_t startup, active; /* active ticks are [startup, startup + active) */
    uint8_t layer;
    uint8_t group;    /* group the action belongs to */
    int8_t requires;  /* group required to start it, -1 = any */
    bool loop, neutral, interrupts;
    int8_t hold_dir;
    int32_t priority;
    uint16_t next;    /* FG_NO_ACTION = the layer's neutral */
    uint16_t motion;  /* motion id that requests it, FG_NO_ACTION = none */
    uint16_t next_held; /* the next neutral action with a hold on its layer, FG_NO_ACTION = end */
    uint8_t hold_bits;  /* direction bits of hold_dir */
    uint8_t nwindows, nmarkers, nmoves;
    uint8_t root_motion;
    fg_window_rt windows[FG_MAX_CANCELS];
    fg_marker_rt markers[FG_MAX_MARKERS];
    fg_move_def moves[FG_MAX_MOVES];
    int32_t cost[FG_MAX_RESOURCES];
    fg_hit_def hit;
    fg_action_hits hits; /* boxes, invulnerability, hit and throw definitions (hit_internal.h) */
    fg_action_set tagged_forbid; /* actions other layers may not start while this runs */
} fg_action_rt;

/* A motion as declared, with its strings owned here. */
typedef struct fg_motion_rt {
    char name[FG_NAME_MAX];
    char notation[FG_MOTION_NOTATION_MAX];
    fg_motion_def def; /* name and notation point into this record once copied */
} fg_motion_rt;

#define FG_ACTIONS_PER_MOTION 4

struct fg_ruleset {
    int refs;
    fg_allocator alloc;
    char name[FG_NAME_MAX];
    uint64_t hash;
    uint64_t source_hash;
    fg_action_names buttons;
    uint32_t nactions, nlayers, nresources, ngroups, nmarkers, nmotions;
    fg_action_def *defs; /* sorted by name; id = index */
    fg_action_rt *rt;
    char layers[FG_MAX_LAYERS][FG_NAME_MAX];
    uint16_t layer_neutral[FG_MAX_LAYERS]; /* default neutral action per layer, or none */
    /* Per layer, the first of the neutral actions chosen by a held direction (chained through
    ** next_held in id order): the tick looks at these, not at every action. */
    uint16_t first_held[FG_MAX_LAYERS];
    fg_resource_def resources[FG_MAX_RESOURCES];
    char groups[FG_MAX_GROUPS][FG_NAME_MAX];
    char (*marker_names)[FG_NAME_MAX];
    fg_motion_rt *motions;
    fg_motion_set *motion_set;
    uint16_t (*motion_actions)[FG_ACTIONS_PER_MOTION]; /* per motion id, FG_NO_ACTION-padded */
    fg_physics_def physics;
    int health, meter;       /* resource ids of "health" and "meter", or -1 */
    int grounded, airborne;  /* group ids, or -1 */
    uint16_t hitstun, blockstun; /* action ids, or FG_NO_ACTION */
    uint16_t knockdown;          /* the action named "knockdown", or FG_NO_ACTION */
    fg_combat_def combat;
    fg_group_boxes fighter_boxes;              /* defaults of the whole fighter */
    fg_group_boxes group_boxes[FG_MAX_GROUPS]; /* defaults per state group, by group id */
};

/* {====================================================================== world state */

#define FG_MAX_VERSIONS 256   /* ruleset versions a world keeps (reloads) */
#define FG_MAX_RULE_SLOTS 8   /* rulesets (characters) side by side */
#define FG_PENDING_REQUESTS 8 /* script/AI requests waiting for the next tick */

typedef struct fg_queued {
    uint16_t action; /* FG_NO_ACTION: empty */
    uint8_t source;
    uint8_t why;     /* fg_reason it was queued for: a window, a contact, a hitstop, a rule */
    int32_t waited;  /* ticks waited so far */
    int32_t limit;   /* ticks it may wait */
    fg_tick made;
} fg_queued;

typedef struct fg_pending_request {
    uint16_t action;
    uint8_t source;
    uint8_t reserved;
} fg_pending_request;

/* One entity. Plain data inside the world's arena. */
typedef struct fg_entity_state {
    fg_entity id;
    uint8_t facing;
    uint8_t contact; /* the host's latest contact report: 1 grounded */
    uint8_t rules_slot;
    uint8_t npending;
    fg_fx x, y, vx, vy;
    fg_fx prev_x, prev_y; /* the previous tick's position, for interpolation */
    fg_ground ground;
    fg_tick_input last_input;
    fg_jump_decision last_jump;
    fg_instance layers[FG_MAX_LAYERS];
    fg_queued queued[FG_MAX_LAYERS];
    int64_t next_seq[FG_MAX_LAYERS];
    int32_t res[FG_MAX_RESOURCES];
    fg_tick frozen_from;  /* frozen (hitstop) for ticks in [frozen_from, frozen_until): the */
    fg_tick frozen_until; /* tick a hit lands still runs; the freeze starts on the next */
    fg_tick started_tick[FG_MAX_LAYERS]; /* tick a request last started an action per layer */
    fg_entity opponent;   /* the entity it fights: hit target, pushbox partner, facing */
    fg_pending_request pending[FG_PENDING_REQUESTS];
    fg_decision last_decision;
    /* Digest of every edge this entity consumed, folded in as each tick consumes it (what an
    ** edge holds then never changes, except its CONSUMED flag, which the hash reads from the
    ** buffer). It lets the state hash cover the stored edges without re-reading them each tick. */
    uint64_t input_digest;
    fg_combat combat; /* teams, combo, juggle, pushback, throws, the hit log (hit_internal.h) */
} fg_entity_state;

/* world.c: folds one consumed edge into an entity's input digest. */
uint64_t fg_world_fold_edge(uint64_t digest, const fg_edge *e);

static inline bool fg_entity_frozen(const fg_entity_state *e, fg_tick t) {
    return t >= e->frozen_from && t < e->frozen_until;
}

/* Runtime view of the ruleset version of an instance. */
static inline const fg_action_rt *fg_rt_of(const fg_ruleset *r, uint32_t action) {
    return action < r->nactions ? &r->rt[action] : NULL;
}

/* behavior.c: the data's default decision for a request, against an entity's state now. */
typedef struct fg_decide_ctx {
    fg_tick tick;
    const fg_ruleset *rules;            /* the entity's current ruleset (for the request) */
    const fg_ruleset *const *versions;  /* version -> ruleset, for running instances */
} fg_decide_ctx;

fg_decision fg_decide(const fg_decide_ctx *c, const fg_entity_state *e, uint32_t action,
                      fg_request_source src);
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
} fg_world_state;

/* A gate candidate of the current tick. */
typedef struct fg_candidate {
    uint32_t slot;  /* entity slot */
    uint8_t layer;
    uint8_t from_host; /* reported by the host's animation system */
    uint16_t action;
    uint16_t marker_index; /* index in the action's markers, for hit data */
    fg_event_stamp stamp;
} fg_candidate;

#define FG_HOST_EVENTS 64 /* animation events a host may report between two ticks */
#define FG_COMMANDS_PER_TICK 4 /* motion commands one entity can act on per tick */

struct fg_world {
    fg_allocator alloc;
    uint32_t tick_rate;
    uint32_t max_entities;
    uint32_t buffer_capacity;
    uint64_t seed;
    fg_action_names names;
    int jump_action;
    fg_jump_config jump;
    fg_world_hooks hooks;

    fg_ruleset *versions[FG_MAX_VERSIONS];
    uint32_t nversions;

    unsigned char *arena;
    size_t arena_size;
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

    uint8_t *meter; /* FG_METER_TICKS phases per entity slot */
    fg_cue cues[FG_MAX_CUES];
    uint32_t ncues;
    uint64_t cues_dropped;

    fg_collide_space coll; /* the collision phase's work space, sized at creation */

    fg_trace_record *trace;
    uint32_t trace_cap, trace_head, trace_count;
    uint64_t trace_dropped;

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

/* Call before a host action changes anything. */
static inline void fg_world_note_change(fg_world *w) {
    if (!w->watch_boundary) return;
    w->watch_boundary = false;
    w->boundary_hash = fg_world_hash(w);
    w->boundary_tick = w->state->tick;
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
void fg_world_trace4(fg_world *w, fg_tick tick, fg_entity e, fg_trace_kind kind, int code,
                     int64_t a, int64_t b, int64_t c, int64_t d);
/* tick.c: starts an action on a layer (a new sequence, tick 0; duration <= 0: its own). */
void fg_world_start_action(fg_world *w, fg_entity_state *es, uint32_t layer, uint32_t action,
                           uint32_t version, fg_transition_reason why, int32_t duration,
                           fg_tick t);
/* action.c: for the builder's other files. */
fg_builder_hits *fg_ruleset_builder_hits(fg_ruleset_builder *b);
fg_status fg_ruleset_builder_refuse(fg_ruleset_builder *b, fg_error *err, fg_status code,
                                    const char *msg);
void fg_findings_push(fg_findings *f, bool warning, const char *path, const char *msg);
/* ruleset_hits.c: boxes and hit data in the validator, the compiler and the content hash.
** `duration` is the action's length, or -1 when its phases are invalid. */
void fg_hits_check(const fg_ruleset *r, const fg_action_def *a, int32_t duration,
                   fg_findings *f);
void fg_hits_compile(fg_ruleset *r, uint32_t id);
void fg_hits_finish(fg_ruleset *r, const fg_builder_hits *bh, fg_findings *f);
void fg_hits_hash_action(fg_hasher *hs, const fg_action_rt *rt);
void fg_hits_hash(fg_hasher *hs, const fg_ruleset *r);
/* world_combat.c: the combat state in the world hash; the collision work space. */
void fg_combat_fold(fg_fold *f, const fg_combat *c);
bool fg_collide_space_init(fg_collide_space *s, fg_allocator *a, uint32_t max_entities);
void fg_collide_space_free(fg_collide_space *s, fg_allocator *a, uint32_t max_entities);
size_t fg_collide_space_bytes(uint32_t max_entities);
/* tick.c: puts each layer in its neutral state (spawn, reload). */
void fg_world_start_neutral(fg_world *w, fg_entity_state *es, fg_tick tick,
                            fg_transition_reason why);

/* }====================================================================== */

#endif
