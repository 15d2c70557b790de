/* SPDX-License-Identifier: MIT */
/*
** framegate/action.h: rulesets: what a fighter can do, as data. Actions with frame data, cancel
** windows, costs, markers, tags, layers and hit properties; resources; groups of states; the
** validator. A ruleset is built once (from C with the builder, or from a Lua table by the
** bindings), validated, and then immutable: every entity that uses it shares it, and a hot reload
** builds a new one beside it.
**
** Ticks inside an action count from 0: an action with startup 4, active 2, recovery 7 lasts 13
** ticks; ticks 0-3 are startup, 4-5 active, 6-12 recovery.
*/
#ifndef FRAMEGATE_ACTION_H
#define FRAMEGATE_ACTION_H

#include "framegate/base.h"
#include "framegate/hit.h"
#include "framegate/input.h"
#include "framegate/motion.h"
#include "framegate/stage.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FG_NAME_MAX 32
#define FG_MAX_LAYERS 4
#define FG_MAX_RESOURCES 8
#define FG_MAX_CANCELS 8       /* cancel windows per action */
#define FG_MAX_MARKERS 8       /* timeline markers per action */
#define FG_MAX_TAGS 8          /* tags per action */
#define FG_MAX_TARGETS 16      /* names or tags per cancel window */
#define FG_MAX_MOVES 4         /* movement segments per action */
#define FG_MAX_VAR_EFFECTS 4   /* variable changes per action (on start and on hit together) */

typedef struct fg_ruleset fg_ruleset;

/* What a cancel window (or a queued request) needs from the last attack. */
typedef enum fg_contact {
    FG_ON_ALWAYS = 0,
    FG_ON_HIT = 1,
    FG_ON_BLOCK = 2,
    FG_ON_WHIFF = 3,
    FG_ON_CONTACT = 4 /* hit or block */
} fg_contact;

/* How an action's authored root motion is used. */
typedef enum fg_root_motion {
    FG_ROOT_AUTHORITATIVE = 0, /* the action's movement data moves the entity */
    FG_ROOT_SUGGESTED = 1,     /* movement may scale or refuse it (walls, pushboxes) */
    FG_ROOT_PRESENTATION = 2   /* animation only; gameplay position does not move */
} fg_root_motion;

/* A cancel window: while the current action's tick is in [from, to] and the last attack's contact
** matches `on`, a request for one of `into` (action names or tags) may start at once. A request
** made up to `buffer` ticks before `from` waits in the queue for the window. */
typedef struct fg_cancel_def {
    int32_t from, to;
    fg_contact on;
    int32_t buffer;
    uint32_t ntargets;
    char targets[FG_MAX_TARGETS][FG_NAME_MAX];
    /* A condition on one of the entity's variables (framegate/vars.h): the window opens only
    ** while `when_var` holds a value in [when_min, when_max] ("" = no condition). */
    char when_var[FG_NAME_MAX];
    int32_t when_min, when_max;
} fg_cancel_def;

typedef struct fg_marker_def {
    int32_t tick;
    char name[FG_NAME_MAX];
    bool once; /* with a looping action: fire on the first cycle only (by default a marker
                  fires on every cycle, with occurrence 0, 1, 2, ...) */
} fg_marker_def;

/* A target velocity for ticks [from, to] of the action, in fixed point per tick; x is along the
** entity's facing. Movement moves the entity; actions never set a position. Each tick of the
** range sets vx (unless FG_MOVE_KEEP_VX), sets vy when it is not 0, then adds ax and ay. */
#define FG_MOVE_KEEP_VX 0x01u /* leave vx as it is: the segment only accelerates */
typedef struct fg_move_def {
    int32_t from, to;
    fg_fx vx, vy;
    fg_fx ax, ay; /* acceleration per tick, added after vx and vy are set */
    uint8_t flags;
} fg_move_def;


/* A change an action makes to one of its entity's variables (framegate/vars.h): when it starts
** (every start, however it started: a request, a cancel, `next`, a reaction) or each time one of
** its hits lands (not on block). The change applies at once, kept in the variable's range, and is
** traced like a rule's (`var charge: 7 -> 8 (add 1)`). */
typedef enum fg_var_when { FG_VAR_ON_START = 0, FG_VAR_ON_HIT = 1 } fg_var_when;
typedef struct fg_var_effect_def {
    char var[FG_NAME_MAX];
    uint8_t when;  /* fg_var_when */
    uint8_t op;    /* fg_var_op (framegate/vars.h): 0 set, 1 add */
    int32_t value;
} fg_var_effect_def;

typedef struct fg_action_def {
    char name[FG_NAME_MAX];
    int32_t startup, active, recovery; /* counts of ticks; duration is their sum */
    int32_t duration;
    bool loop;          /* restarts at tick 0 after its last tick until interrupted */
    bool neutral;       /* a free state (idle, walk, crouch): any action may start from it */
    int32_t hold_dir;   /* neutral states: chosen while this facing-relative direction is held
                           (numpad, 0 = none) */
    int32_t priority;   /* among neutral states whose hold matches, the highest wins */
    char group[FG_NAME_MAX];   /* state group this action belongs to: "grounded", "airborne" */
    char requires[FG_NAME_MAX]; /* the group the entity must be in to start it ("" = any) */
    char layer[FG_NAME_MAX];    /* "" = the first layer */
    char input[64];             /* motion notation or motion name that requests it ("" = none) */
    char next[FG_NAME_MAX];     /* action that follows when it ends ("" = the layer's neutral) */
    uint32_t ntags;
    char tags[FG_MAX_TAGS][FG_NAME_MAX];
    uint32_t ncancels;
    fg_cancel_def cancels[FG_MAX_CANCELS];
    uint32_t nmarkers;
    fg_marker_def markers[FG_MAX_MARKERS];
    uint32_t nmoves;
    fg_move_def moves[FG_MAX_MOVES];
    fg_root_motion root_motion;
    int32_t cost[FG_MAX_RESOURCES]; /* indexed like the ruleset's resources */
    char cost_names[FG_MAX_RESOURCES][FG_NAME_MAX]; /* as declared, before ids exist */
    uint32_t ncosts;
    /* What its hit boxes (or its `hit` marker with `range`) do. A move whose hits differ (a
    ** two-part kick) has several definitions, hits[0] (= hit), hits[1], ..., each box naming
    ** its own (fg_box_def.def); the ones in use are enabled, from the first, without a gap.
    ** Each definition lands once per target per action (or `hits` times). */
    union {
        fg_hit_def hit;
        fg_hit_def hits[FG_MAX_HIT_DEFS];
    };
    /* What its throw boxes do: throws[0] (= throw_def), throws[1], as for hits. */
    union {
        fg_throw_def throw_def;
        fg_throw_def throws[FG_MAX_THROW_DEFS];
    };
    uint32_t nboxes;
    fg_box_def boxes[FG_MAX_BOXES]; /* hurt, hit, push and throw boxes per tick range */
    uint32_t ninvuln;
    fg_invuln_def invuln[FG_MAX_INVULN];
    bool interrupts;    /* starting it ends the actions of every other layer (hit states) */
    uint32_t nforbids;  /* while it runs, other layers may not start actions with these tags */
    char forbids[FG_MAX_TAGS][FG_NAME_MAX];
    char landing[FG_NAME_MAX]; /* an airborne action that lands goes to this action ("" = the
                                  layer's neutral) ... */
    int32_t landing_recovery;  /* ... for this many ticks (0 = the landing action's length) */
    bool has_gravity;          /* while it runs, `gravity` replaces the ruleset's */
    fg_fx gravity;
    fg_spawn_def spawn; /* a projectile it spawns on a marker (framegate/hit.h) */
    bool followup;      /* a chain's next step (target combo, rekka): it starts only through a
                           cancel window, and its input asks for it only where the running (or
                           last queued) action has a window into it, so several actions may
                           share one input ("P", "236P") */
    uint32_t nvar_effects;
    fg_var_effect_def var_effects[FG_MAX_VAR_EFFECTS];
} fg_action_def;

/* How each layer's request queue keeps requests that wait (for hitstop, a window, a contact). */
typedef enum fg_queue_order {
    FG_QUEUE_FIFO = 0,  /* in arrival order, up to `depth`: P, P, K mashed in hitstop stays a chain */
    FG_QUEUE_LATEST = 1 /* the newest replaces whatever waits (depth 1) */
} fg_queue_order;

#define FG_QUEUE_MAX 4 /* the deepest queue a ruleset may ask for */

typedef struct fg_queue_policy {
    uint32_t depth;       /* 1..FG_QUEUE_MAX requests per layer (FIFO); default 3 */
    fg_queue_order order; /* default FG_QUEUE_FIFO */
    int32_t expiry;       /* 0..600: the most ticks (unfrozen) any request waits; 0 = only the
                             limit of what it waits for (a window's buffer, a rule's ticks) */
} fg_queue_policy;

typedef struct fg_resource_def {
    char name[FG_NAME_MAX];
    int32_t max, start;
    int32_t regen;       /* added every `regen_every` ticks, up to max */
    int32_t regen_every; /* ticks, >= 1 */
} fg_resource_def;

/* Physics the movement layer applies. */
typedef struct fg_physics_def {
    fg_fx gravity;   /* added to vy every airborne tick (negative = down) */
    fg_fx ground_y;  /* the floor */
    fg_fx min_gap;   /* two entities never come closer than this on x */
    fg_fx stage_min, stage_max;
} fg_physics_def;

/* {====================================================================== building */

typedef struct fg_ruleset_builder fg_ruleset_builder;

FG_API fg_ruleset_builder *fg_ruleset_builder_create(const char *name, const fg_allocator *alloc);
FG_API void fg_ruleset_builder_destroy(fg_ruleset_builder *b);
/* Declarations. Each copies what it is given; order never matters (ids follow sorted names). */
FG_API fg_status fg_ruleset_add_button(fg_ruleset_builder *b, const char *name, fg_error *err);
FG_API fg_status fg_ruleset_add_layer(fg_ruleset_builder *b, const char *name, fg_error *err);
FG_API fg_status fg_ruleset_add_resource(fg_ruleset_builder *b, const fg_resource_def *r,
                                         fg_error *err);
FG_API fg_status fg_ruleset_add_action(fg_ruleset_builder *b, const fg_action_def *a,
                                       fg_error *err);
/* A named motion pattern ("236P") that actions may name in `input`; an action whose name is a
** motion's name is requested by it. The def's strings are copied. */
FG_API fg_status fg_ruleset_add_motion(fg_ruleset_builder *b, const fg_motion_def *def,
                                       fg_error *err);
/* A button group for notation ("P" = any of LP, MP, HP). */
FG_API fg_status fg_ruleset_add_group(fg_ruleset_builder *b, const char *name,
                                      const char *const *buttons, uint32_t n, fg_error *err);
FG_API void fg_ruleset_set_physics(fg_ruleset_builder *b, const fg_physics_def *p);
/* The stage a world using this ruleset as its default starts with (framegate/stage.h). Its floor
** and walls are the physics' ground_y, stage_min and stage_max: a declared stage sets them. */
FG_API void fg_ruleset_set_stage(fg_ruleset_builder *b, const fg_stage *s);
/* How the ruleset's motion commands relate to their inputs: FG_MOTION_MODE_CONSUME (the
** default: a command uses its inputs up) or FG_MOTION_MODE_FLAGS (MUGEN: every completed command
** is true, the request layer tries them best first). See docs/motion.md. */
FG_API void fg_ruleset_set_command_mode(fg_ruleset_builder *b, fg_motion_mode mode);
/* Rules about hits for the whole ruleset: the trade rule, juggle limit, wake-up, damage scaling. */
FG_API void fg_ruleset_set_combat(fg_ruleset_builder *b, const fg_combat_def *c);
/* A default hurt or push box: of the whole fighter (group NULL or ""), or of a state group
** ("airborne", "crouching"). An action that declares boxes of a kind replaces the defaults of
** that kind on all its ticks. */
FG_API fg_status fg_ruleset_add_default_box(fg_ruleset_builder *b, const char *group,
                                            fg_box_kind kind, fg_box box, fg_error *err);
FG_API void fg_ruleset_set_source_hash(fg_ruleset_builder *b, uint64_t hash);
/* The request queue's policy (checked when the ruleset is built). */
FG_API void fg_ruleset_set_queue(fg_ruleset_builder *b, const fg_queue_policy *q);
FG_API fg_queue_policy fg_queue_policy_default(void); /* depth 3, FIFO, no expiry */
FG_API const char *fg_queue_order_name(fg_queue_order o); /* "fifo", "latest" */
/* A fresh action definition with defaults (one tick long, no windows). */
FG_API fg_action_def fg_action_def_default(const char *name);
/* What differs between two definitions of an action: calls fn(ud, path) for each declared field
** that differs, in declaration order, with the path a designer writes ("hit.damage",
** "cancels[2].to", "boxes[1].w"; a list of another length is one change, "boxes"), and returns
** how many differ (0: the same action). fn may be NULL to count only. A reload reports these. */
typedef void (*fg_action_diff_fn)(void *ud, const char *path);
FG_API uint32_t fg_action_diff(const fg_action_def *was, const fg_action_def *now,
                               fg_action_diff_fn fn, void *ud);
FG_API fg_physics_def fg_physics_def_default(void);
FG_API fg_combat_def fg_combat_def_default(void);

/* A finding's weight: an error refuses the ruleset, a warning (lint) is kept beside it. */
typedef enum fg_severity { FG_SEVERITY_ERROR, FG_SEVERITY_WARNING } fg_severity;

/* One validator finding, read back by value. `path` names the field ("actions.jab.cancels[1].to"),
** `message` says what is wrong with the value and what was expected; both are whole, whatever
** their length, and belong to the list (valid until it is cleared or destroyed). `line` is the
** source line a reader attached (0: unknown; the C builder knows no lines). */
typedef struct fg_finding {
    fg_severity severity;
    uint32_t line;
    const char *path;
    const char *message;
} fg_finding;

/* A growing list of findings: no cap on their number or their length. Allocated through the
** allocator it is created with (NULL: the default), normally the builder's. */
typedef struct fg_findings fg_findings;

/* FG_ENOMEM (and *out NULL) when out of memory. */
FG_API fg_status fg_findings_create(const fg_allocator *alloc, fg_findings **out, fg_error *err);
FG_API void fg_findings_destroy(fg_findings *f); /* NULL is ignored */
FG_API void fg_findings_clear(fg_findings *f);
FG_API uint32_t fg_findings_count(const fg_findings *f);
FG_API uint32_t fg_findings_errors(const fg_findings *f); /* findings of FG_SEVERITY_ERROR */
/* Finding i (0-based); past the end, an error with empty path and message. */
FG_API fg_finding fg_findings_get(const fg_findings *f, uint32_t i);
/* Adds a finding (copies path and message). FG_ENOMEM when it cannot be stored: the list then
** counts it as lost (fg_findings_lost) and fg_ruleset_build refuses rather than report less. */
FG_API fg_status fg_findings_add(fg_findings *f, fg_severity severity, const char *path,
                                 uint32_t line, const char *message, fg_error *err);
FG_API uint32_t fg_findings_lost(const fg_findings *f); /* findings memory ran out for */
FG_API const char *fg_severity_name(fg_severity s);      /* "error", "warning" */

/* Validates everything and compiles the ruleset. On any error returns NULL, fills `findings`
** (cleared first: every problem, not just the first; may be NULL) and err (the first one, which
** its fixed buffer may shorten: read the findings for the whole text); the builder may be freed
** either way. Warnings (lint) do not stop the build. Memory running out while findings are
** recorded refuses the ruleset with FG_ENOMEM. */
FG_API fg_ruleset *fg_ruleset_build(fg_ruleset_builder *b, fg_findings *findings, fg_error *err);

/* }====================================================================== */

/* {====================================================================== reading */

/* Rulesets are reference counted: a world holds one reference per use, and in-flight actions
** keep the ruleset they started with alive across a reload. */
FG_API void fg_ruleset_ref(fg_ruleset *r);
FG_API void fg_ruleset_unref(fg_ruleset *r);

FG_API const char *fg_ruleset_name(const fg_ruleset *r);
FG_API uint64_t fg_ruleset_hash(const fg_ruleset *r); /* content hash of the compiled data */
FG_API const fg_action_names *fg_ruleset_buttons(const fg_ruleset *r);
FG_API uint32_t fg_ruleset_action_count(const fg_ruleset *r);
FG_API const fg_action_def *fg_ruleset_action(const fg_ruleset *r, uint32_t id);
FG_API int fg_ruleset_find_action(const fg_ruleset *r, const char *name); /* -1 if unknown */
FG_API uint32_t fg_ruleset_layer_count(const fg_ruleset *r);
FG_API const char *fg_ruleset_layer_name(const fg_ruleset *r, uint32_t id);
FG_API int fg_ruleset_find_layer(const fg_ruleset *r, const char *name);
FG_API uint32_t fg_ruleset_resource_count(const fg_ruleset *r);
FG_API const fg_resource_def *fg_ruleset_resource(const fg_ruleset *r, uint32_t id);
FG_API int fg_ruleset_find_resource(const fg_ruleset *r, const char *name);
FG_API const fg_physics_def *fg_ruleset_physics(const fg_ruleset *r);
/* The declared stage, or one made of the physics' floor and walls. */
FG_API const fg_stage *fg_ruleset_stage(const fg_ruleset *r);
FG_API const fg_queue_policy *fg_ruleset_queue(const fg_ruleset *r);
FG_API const fg_combat_def *fg_ruleset_combat(const fg_ruleset *r);
/* A default box (group NULL or "" = the fighter's); false when none is declared. */
FG_API bool fg_ruleset_default_box(const fg_ruleset *r, const char *group, fg_box_kind kind,
                                   fg_box *out);
/* The compiled motion patterns (never NULL for a built ruleset; may hold no pattern). */
FG_API const fg_motion_set *fg_ruleset_motions(const fg_ruleset *r);
/* The action a motion requests for an entity in `group` (a group id as in decisions), or -1. */
FG_API int fg_ruleset_motion_action(const fg_ruleset *r, uint32_t motion, int group);
/* Layer id an action runs in, and whether `target` is named (or tagged) by a cancel window. */
FG_API uint32_t fg_ruleset_action_layer(const fg_ruleset *r, uint32_t action);
FG_API bool fg_ruleset_window_allows(const fg_ruleset *r, uint32_t action, uint32_t window,
                                     uint32_t target);
FG_API bool fg_action_has_tag(const fg_action_def *a, const char *tag);
FG_API const char *fg_contact_name(fg_contact c);

/* }====================================================================== */

#ifdef __cplusplus
}
#endif
#endif
