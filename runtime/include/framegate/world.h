/* SPDX-License-Identifier: MIT */
/*
** framegate/world.h: the world, which owns every piece of authoritative state: entities, their
** input buffers, grounded history, action instances per layer, queued requests, resources,
** positions, the tick counter and the RNG; and, beside it, the trace of every decision.
**
** All authoritative state lives in one block allocated when the world is created and holds no
** pointers, so a snapshot is a copy of that block and a restore copies it back. The state hash is
** fed field by field over the same state, in entity-id order. Nothing on the tick path allocates.
**
** Input goes in between ticks, stamped in microseconds since the world's origin (see loop.h for
** mapping a host clock); fg_world_advance runs exactly one tick.
*/
#ifndef FRAMEGATE_WORLD_H
#define FRAMEGATE_WORLD_H

#include "framegate/action.h"
#include "framegate/base.h"
#include "framegate/behavior.h"
#include "framegate/input.h"
#include "framegate/request.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fg_world fg_world;
typedef uint32_t fg_entity; /* 1, 2, ... in spawn order; 0 is "no entity" */

/* Host callbacks. The request rule is asked about each request of an entity whose ruleset has
** one (has_rule); it sees the data's default decision and answers with a verdict. It may read
** the world and propose changes to its own entity's variables (vars.h), which the gate commits;
** it must not change the world otherwise (the tick runs several phases of one entity before the
** next entity's, counting on it). A failure
** (FG_ERULE with a message) drops that rule's candidates for the tick and is traced. The event
** hook sees committed events only, after the gate, and must not change gameplay state. */
typedef struct fg_world_hooks {
    void *ud;
    bool (*has_rule)(void *ud, const fg_world *w, uint32_t rules_slot);
    fg_status (*request)(void *ud, fg_world *w, const fg_decision *dflt, fg_verdict *out,
                         fg_error *err);
} fg_world_hooks;

/* {====================================================================== creation */

typedef struct fg_world_config {
    uint32_t tick_rate;       /* Hz, default 60 */
    uint64_t seed;            /* RNG seed, default 1 */
    uint32_t max_entities;    /* capacity, default 8 */
    uint32_t buffer_capacity; /* edges kept per entity, default 32 */
    uint32_t trace_capacity;  /* trace records kept, default 4096 (0 disables the trace) */
    uint32_t trace_text_bytes; /* bytes of text the trace keeps for rule errors and notes, in a
                                  ring: default 65536, 0 (none) or 256..16 MiB */
    uint32_t max_projectiles; /* the projectile pool, default 64 (0..65536); a spawn into a
                                 full pool is refused (framegate/projectile.h) */
    uint32_t motion_bytes;    /* matcher state per entity; 0 = what the rules need plus a
                                 quarter (at least 1 KiB more), so a reload may add patterns */
    fg_allocator allocator;   /* default: malloc/free */
    /* The ruleset entities use by default. Its buttons become the world's semantic buttons; the
    ** world keeps its own reference. NULL: no actions, buttons from `buttons` below. */
    fg_ruleset *rules;
    fg_world_hooks hooks;
    /* Semantic buttons when there is no ruleset, any order (ids follow sorted names). */
    const char *const *buttons;
    uint32_t nbuttons;
    /* The jump gate, used when jump_button names a button; windows in ticks. */
    const char *jump_button;
    fg_jump_config jump;
    /* The action the gate starts when it lets a jump through (NULL: none, the gate only
    ** decides and reports, for a host that moves the body itself). The request layer still
    ** decides it (cancel windows, costs, the request rule); refused, the press stays buffered. */
    const char *jump_action;
    /* Where grounded/airborne comes from: FG_GROUND_DEFAULT is the stage for a world with
    ** rules and the host's contact reports for a world without (framegate/stage.h). */
    fg_ground_mode ground;
} fg_world_config;

FG_API fg_world_config fg_world_config_default(void);
/* Validates the whole config before allocating; on failure nothing is allocated. */
FG_API fg_world *fg_world_create(const fg_world_config *cfg, fg_error *err);
FG_API void fg_world_destroy(fg_world *w);

/* }====================================================================== */

/* {====================================================================== entities */

/* Positions and speeds stay within +-FG_POSITION_MAX (16384 units): spawn and set_position
** refuse more, and movement stops there, so no sum of two of them overflows. */
#define FG_POSITION_MAX FG_FX(16384)

/* Input may be stamped up to this many seconds after the world's current tick; later is
** refused, since a buffer's time never goes back. */
#define FG_INPUT_AHEAD_MAX_S 60

typedef struct fg_spawn {
    fg_fx x, y;
    fg_facing facing;
    bool grounded; /* false: spawned in the air, with no grounded history */
    uint32_t rules; /* ruleset slot (fg_world_add_rules); 0 = the default */
    fg_entity opponent; /* 0: pair with the previous entity if it has no opponent yet, so
                           entities spawned two by two fight each other */
} fg_spawn;

FG_API fg_status fg_world_spawn(fg_world *w, const fg_spawn *s, fg_entity *out, fg_error *err);
FG_API uint32_t fg_world_entity_count(const fg_world *w);
/* Bytes the world allocated (state, per-tick work space, trace, meter), for memory budgets. */
FG_API size_t fg_world_memory(const fg_world *w);
FG_API bool fg_world_entity_exists(const fg_world *w, fg_entity e);

/* Read-only views of one entity's state (NULL for an unknown entity). */
FG_API const fg_buffer *fg_world_buffer(const fg_world *w, fg_entity e);
FG_API const fg_ground *fg_world_ground(const fg_world *w, fg_entity e);
FG_API const fg_action_names *fg_world_action_names(const fg_world *w);
FG_API fg_facing fg_world_facing(const fg_world *w, fg_entity e);
/* The entity it fights (hit target, pushbox partner, facing), 0 for none. */
FG_API fg_entity fg_world_opponent(const fg_world *w, fg_entity e);
FG_API fg_status fg_world_set_facing(fg_world *w, fg_entity e, fg_facing f, fg_error *err);
/* Position in fixed point. */
FG_API void fg_world_position(const fg_world *w, fg_entity e, fg_fx *x, fg_fx *y);
FG_API fg_status fg_world_set_position(fg_world *w, fg_entity e, fg_fx x, fg_fx y,
                                       fg_error *err);

/* }====================================================================== */

/* {====================================================================== rules and actions */

/* The ruleset an entity runs now (new requests use it), and the one an instance started with. */
FG_API const fg_ruleset *fg_world_rules(const fg_world *w, fg_entity e);
FG_API uint32_t fg_world_rules_slot(const fg_world *w, fg_entity e);
FG_API const fg_ruleset *fg_world_rules_version(const fg_world *w, uint32_t version);
/* Ruleset versions the world holds: one per ruleset added, plus one per reload. A world keeps at
** most FG_WORLD_MAX_VERSIONS (old versions stay, for instances and snapshots that name them);
** past that a reload is refused. */
#define FG_WORLD_MAX_VERSIONS 256
FG_API uint32_t fg_world_version_count(const fg_world *w);
/* Adds another ruleset (another character) with the same buttons; returns its slot. */
FG_API fg_status fg_world_add_rules(fg_world *w, fg_ruleset *r, uint32_t *slot, fg_error *err);
/* Swaps the ruleset of a slot at the next tick boundary (call it between ticks): new requests use
** it; instances in flight finish on the version they started with. The new ruleset must declare
** the same buttons and layers. Nothing changes on failure. */
FG_API fg_status fg_world_replace_rules(fg_world *w, uint32_t slot, fg_ruleset *r, fg_error *err);
/* A new world with the same configuration, ruleset versions and authoritative state as w (the
** trace and the cue queue start empty), calling `hooks` (NULL: none). A shadow for what-if runs:
** snapshots of w restore into it. */
FG_API fg_world *fg_world_clone(const fg_world *w, const fg_world_hooks *hooks, fg_error *err);

/* Asks for an action on the entity now (between ticks: decided at the start of the next tick's
** request phase, in order). Returns FG_OK once queued for decision; the decision itself is in
** the trace and in fg_world_last_decision. */
FG_API fg_status fg_world_request(fg_world *w, fg_entity e, uint32_t action,
                                  fg_request_source src, fg_error *err);
/* Decides a request against the entity's state right now without changing anything: what would
** happen. */
FG_API fg_decision fg_world_evaluate(const fg_world *w, fg_entity e, uint32_t action,
                                     fg_request_source src);
FG_API const fg_instance *fg_world_instance(const fg_world *w, fg_entity e, uint32_t layer);
FG_API fg_phase fg_world_phase(const fg_world *w, fg_entity e, uint32_t layer);
/* "grounded/jab (recovery, tick 9 of 13)". */
FG_API int fg_world_describe_layer(const fg_world *w, fg_entity e, uint32_t layer, char *buf,
                                   size_t size);
FG_API int32_t fg_world_resource(const fg_world *w, fg_entity e, uint32_t resource);

/* Why a motion did (or did not) fire for one fighter, from its own matcher state and buffer. */
typedef struct fg_motion_explanation {
    bool fired;                 /* it completed this tick: `command` */
    fg_motion_command command;
    fg_motion_miss miss;        /* otherwise: the furthest step reached and what went wrong */
} fg_motion_explanation;

/* `name`: a motion's name, or an action requested by an input (its motion). Render it with
** fg_motion_command_format or fg_motion_miss_format over fg_ruleset_motions. */
FG_API fg_status fg_world_explain(const fg_world *w, fg_entity e, const char *name,
                                  fg_motion_explanation *out, fg_error *err);
FG_API fg_status fg_world_set_resource(fg_world *w, fg_entity e, uint32_t resource,
                                       int32_t value, fg_error *err);
/* Ticks left before the entity is no longer frozen (hitstop); 0 when it runs. */
FG_API int32_t fg_world_frozen_for(const fg_world *w, fg_entity e);
/* The most recent decision about a request of this entity (kind EXPIRED/...), if any. */
FG_API const fg_decision *fg_world_last_decision(const fg_world *w, fg_entity e);

/* }====================================================================== */

/* {====================================================================== input */

/* Semantic input, stamped in microseconds since the world's origin. The tick is computed exactly
** (fg_tick_of_us). Refused with a message and no change: unknown entity, unknown action, negative
** time, time going back, press of a held button. */
FG_API fg_status fg_world_press(fg_world *w, fg_entity e, int action, int64_t time_us,
                                fg_source src, fg_error *err);
FG_API fg_status fg_world_release(fg_world *w, fg_entity e, int action, int64_t time_us,
                                  fg_source src, fg_error *err);
/* Sets the held direction (absolute numpad 1..9). Same direction again is a no-op. */
FG_API fg_status fg_world_direction(fg_world *w, fg_entity e, int numpad, int64_t time_us,
                                    fg_source src, fg_error *err);
/* By name: "LP", "jump", or a direction name ("up", "down", "left", "right"). */
FG_API int fg_world_action_id(const fg_world *w, const char *name);

/* Device input through the entity's input map (bindings, SOCD, stick shaping). */
FG_API fg_input_map *fg_world_input_map(fg_world *w, fg_entity e);
FG_API fg_status fg_world_device_control(fg_world *w, fg_entity e, uint32_t control, bool down,
                                         int64_t time_us, fg_error *err);
/* An analog stick sample (raw device values). With camera_relative set in the map, the stick is
** projected with the camera set by fg_world_device_camera. */
FG_API fg_status fg_world_device_stick(fg_world *w, fg_entity e, float x, float y,
                                       int64_t time_us, fg_error *err);
FG_API fg_status fg_world_device_camera(fg_world *w, fg_entity e, float fx, float fy, float fz,
                                        fg_error *err);
/* The shaped (and projected) stick value, for movement and presentation. */
FG_API fg_vec2 fg_world_stick(const fg_world *w, fg_entity e);

/* {---------------------------------------------------------------------- the stage */

/* FG_GROUND_STAGE or FG_GROUND_CONTACTS: what this world's grounded history comes from. */
FG_API fg_ground_mode fg_world_ground_mode(const fg_world *w);
/* The stage bodies move on: the default ruleset's at creation (fg_stage_default without rules). */
FG_API const fg_stage *fg_world_stage(const fg_world *w);
/* Replaces the stage (between ticks; an edit, like set_position). Checked first: a bad stage
** changes nothing. Each entity's support is recomputed where it stands. */
FG_API fg_status fg_world_set_stage(fg_world *w, const fg_stage *s, fg_error *err);
/* What the entity stands on after the last movement (FG_SUPPORT_*), 0 for an unknown entity. */
FG_API uint8_t fg_world_support(const fg_world *w, fg_entity e);

/* }---------------------------------------------------------------------- */

/* Contact report from the host's physics, applied at the start of the next tick. In a world
** whose ground mode is FG_GROUND_STAGE it is refused (the stage says where the ground is). */
FG_API fg_status fg_world_report_contact(fg_world *w, fg_entity e, bool grounded, fg_error *err);

/* }====================================================================== */

/* {====================================================================== simulation */

/* Runs one tick: consumes each entity's input for the tick, applies contact reports, runs the
** jump gate, decides requests, advances actions, applies hits and movement, records decisions in
** the trace. */
FG_API fg_status fg_world_advance(fg_world *w, fg_error *err);
/* The next tick to run (ticks run so far, counting from 0). */
FG_API fg_tick fg_world_tick(const fg_world *w);
FG_API uint32_t fg_world_tick_rate(const fg_world *w);
/* What the last tick consumed for an entity. */
FG_API const fg_tick_input *fg_world_last_input(const fg_world *w, fg_entity e);
/* The jump decision of the last tick for an entity (result NO_PRESS when nothing happened). */
FG_API const fg_jump_decision *fg_world_last_jump(const fg_world *w, fg_entity e);

/* A draw from the world's seeded RNG (part of its state and of the hash): uniform in [lo, hi],
** lo <= hi. For request rules (Lua's math.random inside rules); presentation must not call it. */
FG_API int64_t fg_world_random(fg_world *w, int64_t lo, int64_t hi);

/* 64-bit hash of all authoritative state, fed field by field in entity-id order: the tick, the
** RNG, the ruleset version of each slot, and per entity its record (position, facing, opponent,
** ground, the last tick's input and jump decision, layers and their instances, queued requests,
** resources, hitstop), its input buffer (stored edges, held state), its dispatch ledger and its
** motion matcher state. Input not yet consumed (pending edges, requests, animation reports) and
** reports (the last request decision, the trace) are not hashed. See docs/determinism.md. */
FG_API uint64_t fg_world_hash(const fg_world *w);

/* Snapshot into a caller-provided buffer of fg_world_snapshot_size bytes (no allocation), and
** restore. A restored world continues bit-identically. Restore checks the size and a header
** that identifies the world's layout. A snapshot holds the spawned entities only, so its size
** grows with fg_world_entity_count; fg_world_snapshot_capacity is the size with every slot used.
** Buffers aligned to 8 bytes (as malloc returns them) can also be compared with fg_world_diff
** (framegate/determinism.h). */
FG_API size_t fg_world_snapshot_size(const fg_world *w);
FG_API size_t fg_world_snapshot_capacity(const fg_world *w);
FG_API fg_status fg_world_save(const fg_world *w, void *buf, size_t size, fg_error *err);
FG_API fg_status fg_world_restore(fg_world *w, const void *buf, size_t size, fg_error *err);

/* }====================================================================== */

/* {====================================================================== trace */

typedef enum fg_trace_kind {
    FG_TRACE_INPUT = 0,      /* a = edge kind, b = action, c = dir, d = edge id */
    FG_TRACE_JUMP = 1,       /* code = fg_jump_result, a = press tick, b = last grounded,
                                c = window, d = last tick the press stays buffered */
    FG_TRACE_CONTACT = 2,    /* a = grounded (0/1), b = permission restored (0/1) */
    FG_TRACE_DECISION = 3,   /* decision */
    FG_TRACE_TRANSITION = 4, /* code = fg_transition_reason, a = layer, b = from (its ruleset
                                version in bits 32..47), c = to, d = new action sequence */
    FG_TRACE_HIT = 5,        /* code = fg_contact, a = attacker, b = action (its ruleset
                                version in bits 32..47), c = damage, d = hitstop; entity = the
                                target */
    FG_TRACE_COMMAND = 6,    /* a = motion id, b = action requested, c = first edge id */
    FG_TRACE_RULE_ERROR = 7, /* text = the rule's error */
    FG_TRACE_EVENT = 8,      /* code = fg_dispatch_result, a = layer, b = action sequence,
                                c = marker id, d = occurrence */
    FG_TRACE_CUE = 9,        /* text = cue name, a, b = its parameters */
    FG_TRACE_RELOAD = 10,    /* fg_world_replace_rules: code = slot, a = new content hash,
                                b = new source hash, c = previous content hash, d = version */
    FG_TRACE_MISS = 11,      /* a contact that did nothing: code = fg_miss_reason, a = attacker,
                                b = action (version in bits 32..47), c = the target's juggle
                                points, d = its limit; entity = the target */
    FG_TRACE_THROW = 12,     /* code = fg_throw_step, a = thrower, b = action (version in bits
                                32..47), c = tech window (grabbed) or damage (landed), d = the
                                first tick past the window; entity = the target */
    FG_TRACE_TRUE = 13,      /* flags mode: a command true this tick, one record each, best
                                first: a = motion id, b = age, c = action it requests (-1 for
                                none), d = its completion tick */
    FG_TRACE_VAR = 14,       /* the gate committed a proposed variable change: code = variable
                                id, a = before, b = after, c = fg_var_op, d = the value proposed */
    FG_TRACE_PROJECTILE = 15, /* code = fg_projectile_step, a = projectile id, b = the owner's
                                spawning action (version in bits 32..47), c = x in 1/65536 px,
                                d = the other projectile (clash) or the pool's size (refused);
                                entity = the owner */
    FG_TRACE_BOUNCE = 16     /* a launched entity bounced: code = fg_bounce_kind, a = the entity
                                whose hit armed it, b = the stun ticks (bits 32..63) and the wall's
                                x or the ground's y (low 32 bits, 1/65536 px), c = vx, d = vy
                                (1/65536 px per tick, as declared); entity = the one bouncing.
                                Refused by combat.bounce_limit: code = fg_bounce_kind +
                                FG_BOUNCE_REFUSED, a = the entity whose hit armed it, b = the
                                bounces its combo used, c = the limit */
} fg_trace_kind;

/* What happened to a projectile (FG_TRACE_PROJECTILE records). */
typedef enum fg_projectile_step {
    FG_PROJECTILE_SPAWNED = 0,
    FG_PROJECTILE_POOL_FULL = 1, /* refused: the world's pool is full */
    FG_PROJECTILE_AT_LIMIT = 2,  /* refused: its owner has `limit` of its kind already */
    FG_PROJECTILE_CLASHED = 3,   /* met another one; both lost the smaller durability */
    FG_PROJECTILE_SPENT = 4,     /* gone: no hit or durability left */
    FG_PROJECTILE_EXPIRED = 5,   /* gone: its lifetime ended */
    FG_PROJECTILE_LEFT = 6,      /* gone: past a wall of the stage */
    FG_PROJECTILE_STRUCK = 7     /* a fighter's hit box struck one of its hurt boxes: 1 durability */
} fg_projectile_step;
FG_API const char *fg_projectile_step_name(fg_projectile_step s);

/* Why a layer changed action. */
typedef enum fg_transition_reason {
    FG_TR_REQUEST = 0,  /* a request was accepted */
    FG_TR_ENDED = 1,    /* the action ran its course */
    FG_TR_HOLD = 2,     /* a neutral state chosen by the held direction */
    FG_TR_LANDED = 3,   /* an airborne action ended on the ground */
    FG_TR_HIT = 4,      /* put in hitstun */
    FG_TR_BLOCKED = 5,  /* put in blockstun */
    FG_TR_INTERRUPTED = 6, /* another layer's action interrupted it */
    FG_TR_SPAWN = 7,
    FG_TR_FELL = 8,     /* nothing holds it up: a free state became the airborne neutral */
    FG_TR_BOUNCED = 9   /* a bounce off a wall or the ground started its hit reaction again */
} fg_transition_reason;

FG_API const char *fg_transition_reason_name(fg_transition_reason r);

#define FG_TRACE_TEXT_MAX (16u << 20) /* largest world.trace_text_bytes */

typedef struct fg_trace_record {
    fg_tick tick;
    fg_entity entity;
    uint16_t kind;
    uint16_t code;
    uint16_t version; /* the entity's ruleset version when recorded: names are read in it */
    int64_t a, b, c, d;
    fg_decision decision; /* FG_TRACE_DECISION */
    /* FG_TRACE_RULE_ERROR: the message and the rule's own frames, whole, kept in the world's
    ** text ring (world.trace_text_bytes); read it with fg_world_trace_text. */
    uint64_t text_at;
    uint32_t text_len; /* bytes of text (0: none) */
} fg_trace_record;

/* Records kept (oldest first); older ones are overwritten and counted as dropped. */
FG_API uint32_t fg_world_trace_count(const fg_world *w);
FG_API const fg_trace_record *fg_world_trace_at(const fg_world *w, uint32_t i);
FG_API uint64_t fg_world_trace_dropped(const fg_world *w);
FG_API void fg_world_trace_clear(fg_world *w);
/* The whole text of a record (a rule error's message; "" for records without one). A text the
** ring has since reused for newer records, or one longer than the ring, says so in place of the
** missing part: nothing is cut silently. Valid until the next record with text is written. */
FG_API const char *fg_world_trace_text(const fg_world *w, const fg_trace_record *r);
/* The text the rule error's trace record of a failing request hook carries, handed here before
** the hook returns, instead of its fg_error's message (which is whole too, whatever its length). */
FG_API void fg_world_trace_hook_error(fg_world *w, const char *text);
/* Records a failure of a host-side hook (a presentation hook that raised) in the trace. */
FG_API void fg_world_note_error(fg_world *w, fg_entity e, const char *text);
/* Readable line for a record, e.g. "t=12 e1 rejected: jump ...". */
FG_API int fg_world_trace_format(const fg_world *w, const fg_trace_record *r, char *buf,
                                 size_t size);

/* }====================================================================== */

/* {====================================================================== events and cues */

typedef enum fg_event_kind {
    FG_EVENT_MARKER = 0, /* a timeline marker or a host's animation report */
    FG_EVENT_HIT = 1,    /* a hit box touched a hurt box (hit, block, or a miss with a reason) */
    FG_EVENT_THROW = 2,  /* a throw box grabbed a target */
    FG_EVENT_CLASH = 3,  /* two projectiles met: entity and target are their owners */
    FG_EVENT_STRUCK = 4, /* a hit box struck a projectile's hurt box: entity is the attacker,
                            target the projectile's owner */
    FG_EVENT_BOUNCE = 5  /* a launched entity bounced off a wall or the ground (`bounce`): entity
                            is the one bouncing, target the attacker whose hit armed it */
} fg_event_kind;

#define FG_EVENT_NO_MARKER 0xFFFFFFFFu /* the marker of hit and throw events */

/* A committed gameplay event: a marker of an action's timeline, an animation event the host
** reported, that the gate accepted, or a contact of boxes. For a contact, entity is the attacker
** and the hit fields say which boxes touched where. */
typedef struct fg_event {
    fg_tick tick;
    fg_entity entity;
    uint32_t layer;
    int64_t seq;         /* the action sequence it belongs to */
    uint32_t marker;     /* marker id in the entity's ruleset */
    uint64_t occurrence;
    uint16_t action;
    uint8_t contact;     /* for hit markers: FG_ON_HIT, FG_ON_BLOCK, or 0 (missed) */
    uint8_t from_host;
    fg_entity target;    /* for hit markers that connected, and contacts */
    uint8_t kind;        /* fg_event_kind */
    uint8_t hit_box;     /* contacts: the attacker's box index in its action (0xFF: `range`) */
    uint8_t hurt_box;    /* contacts: the target's hurt box index (0xFF: a default box) */
    uint8_t counter;     /* contacts: 1 on a counter hit */
    uint8_t miss;        /* contacts: fg_miss_reason when it did nothing (contact = whiff) */
    fg_fx x, y;          /* contacts: the contact point, the centre of the boxes' overlap */
    int32_t damage;      /* contacts: damage dealt (after counter hit and combo scaling) */
    int32_t combo;       /* contacts: the target's combo count after it */
    uint32_t projectile; /* contacts and clashes: the projectile's id (0: the entity's own) */
    uint32_t other;      /* clashes: the other projectile's id */
    uint8_t bounce;      /* bounces: fg_bounce_kind (the point is x, y; combo its combo) */
} fg_event;

/* {====================================================================== combat */

/* An entity's team: 0 (the default) fights only its opponent; entities with teams fight every
** entity of another team. An entity never hits its owner (set for projectiles). */
FG_API fg_status fg_world_set_team(fg_world *w, fg_entity e, uint32_t team, fg_error *err);
FG_API fg_status fg_world_set_owner(fg_world *w, fg_entity e, fg_entity owner, fg_error *err);

/* The live boxes of an entity of one kind, placed in the world (what the collision phase tests
** this tick; defaults included). Returns how many there are; fills up to max. */
typedef struct fg_placed_box {
    fg_rect rect;
    uint8_t layer;  /* the layer whose action declares it, 0xFF = a default box */
    uint8_t index;  /* its index in the action's boxes, 0xFF = a default box */
    uint8_t kind;   /* fg_box_kind */
} fg_placed_box;
FG_API uint32_t fg_world_boxes(const fg_world *w, fg_entity e, fg_box_kind kind,
                               fg_placed_box *out, uint32_t max);

/* The combat state of an entity, read-only. */
typedef struct fg_combat_view {
    uint32_t team;
    fg_entity owner;
    int32_t combo;        /* hits taken in the current combo */
    int32_t combo_damage;
    int32_t juggle;       /* juggle points spent */
    int32_t juggle_limit; /* of its ruleset, 0 = none */
    bool launched;
    fg_knockdown knockdown;
    fg_entity grabbed_by; /* held by a throw in its tech window */
    fg_tick tech_until;
    fg_tick throw_invuln_until;
    fg_fx pushback_left;
    bool wall_bounce;     /* a hit armed a wall bounce it has not used yet */
    bool ground_bounce;   /* a hit armed a ground bounce it has not used yet */
    int32_t bounces;      /* bounces in the current combo (against combat.bounce_limit) */
} fg_combat_view;
FG_API fg_status fg_world_combat(const fg_world *w, fg_entity e, fg_combat_view *out,
                                 fg_error *err);
/* Contacts dropped because more than the world's capacity were found in one tick (reported). */
FG_API uint64_t fg_world_contacts_dropped(const fg_world *w);

/* }====================================================================== */

/* Events committed by the last tick, in the order the gate decided them. */
FG_API uint32_t fg_world_event_count(const fg_world *w);
FG_API const fg_event *fg_world_event_at(const fg_world *w, uint32_t i);
FG_API const char *fg_world_marker_name(const fg_world *w, fg_entity e, uint32_t marker);

/* An animation event reported by the host's animation system (a clip reached a marker). It
** carries the action sequence the world gave the animation when the action started; clip and
** normalised time are diagnostics. The gate decides it with the next tick's candidates: the first
** report of a stamp is Accepted, repeats (a cross-fade evaluating two clips) are Duplicate, a
** report from an older action is StaleAction, and only Accepted ones have effects. */
FG_API fg_status fg_world_report_event(fg_world *w, fg_entity e, uint32_t layer, int64_t seq,
                                       const char *marker, uint64_t occurrence, fg_error *err);

/* Cues: presentation requests (a sound, an effect, a camera shake) that hooks emit for the host
** to drain. They never feed back into gameplay. */
#define FG_MAX_CUES 256
typedef struct fg_cue {
    fg_tick tick;
    fg_entity entity;
    char name[32];
    int64_t a, b;
} fg_cue;
FG_API fg_status fg_world_push_cue(fg_world *w, fg_entity e, const char *name, int64_t a,
                                   int64_t b, fg_error *err);
FG_API uint32_t fg_world_cue_count(const fg_world *w);
FG_API const fg_cue *fg_world_cue_at(const fg_world *w, uint32_t i);
FG_API void fg_world_cues_clear(fg_world *w);

/* }====================================================================== */

/* {====================================================================== frame meter */

/* The phase of every entity for the last FG_METER_TICKS ticks, kept beside the trace. */
#define FG_METER_TICKS 240
FG_API fg_phase fg_world_meter_at(const fg_world *w, fg_entity e, fg_tick tick);
/* Renders ticks [from, to] as one row per entity, in the style of Street Fighter 6's frame
** meter: one character per tick (. neutral, s startup, A active, r recovery, c cancel window open,
** x stun, = hitstop, b buffered request, ^ airborne), then startup, total and advantage of the
** first action that started in the range. */
FG_API int fg_world_meter_render(const fg_world *w, fg_tick from, fg_tick to, char *buf,
                                 size_t size);

/* }====================================================================== */

#ifdef __cplusplus
}
#endif
#endif
