/* SPDX-License-Identifier: MIT */
/*
** ruleset_internal.h: the compiled form of a ruleset, built by ruleset.c and read by the files
** that run it (request.c, tick.c, world.c, trace.c). It knows nothing of a world. Not installed:
** the public view is framegate/action.h.
**
** The compiled form is flat and id-based: cancel targets become bitsets of action ids, resource
** names become indexes, so the tick path never compares a string.
*/
#ifndef FG_RULESET_INTERNAL_H
#define FG_RULESET_INTERNAL_H

#include "framegate/action.h"
#include "framegate/behavior.h"
#include "framegate/request.h"
#include "hit_internal.h"

#include <stdarg.h>

#define FG_MAX_ACTIONS 256
#define FG_ACTION_WORDS (FG_MAX_ACTIONS / 64)
#define FG_MAX_GROUPS 8
#define FG_MAX_MOTIONS 128

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
    int8_t when_var;            /* the variable its condition reads, -1 = none (vars.c) */
    int32_t when_min, when_max;
    uint8_t on; /* fg_contact */
    fg_action_set into;
} fg_window_rt;

typedef struct fg_marker_rt {
    int32_t tick;
    uint16_t marker; /* id in the ruleset's marker table */
    bool once;
    bool is_hit; /* the marker named "hit" or "damage": an attack connects here */
    uint8_t rank; /* appearances of the same marker before this one in a cycle */
    uint8_t same; /* appearances of the same marker in a cycle: occurrence = cycle * same + rank */
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
    uint16_t motion;  /* motion key that requests it, FG_NO_ACTION = none */
    bool followup;    /* requested by its input only where a window of the running (or queued)
                         action leads to it */
    uint16_t next_held; /* the next neutral action with a hold on its layer, FG_NO_ACTION = end */
    uint8_t hold_bits;  /* direction bits of hold_dir */
    uint8_t nwindows, nmarkers, nmoves;
    uint8_t root_motion;
    bool has_gravity;
    uint16_t landing;         /* FG_NO_ACTION = the layer's neutral */
    int32_t landing_recovery; /* 0 = the landing action's own length */
    fg_fx gravity;
    fg_window_rt windows[FG_MAX_CANCELS];
    fg_marker_rt markers[FG_MAX_MARKERS];
    fg_move_def moves[FG_MAX_MOVES];
    int32_t cost[FG_MAX_RESOURCES];
    fg_hit_def hit;
    fg_action_hits hits; /* boxes, invulnerability, hit and throw definitions (hit_internal.h) */
    fg_action_set tagged_forbid; /* actions other layers may not start while this runs */
    uint8_t nvar_effects;        /* its variable changes, resolved (vars.c) */
    struct {
        uint8_t var, when, op;
        int32_t value;
    } var_effects[FG_MAX_VAR_EFFECTS];
} fg_action_rt;

/* A motion as declared, with its strings owned here. */
typedef struct fg_motion_rt {
    char name[FG_NAME_MAX];
    char notation[FG_MOTION_NOTATION_MAX];
    fg_motion_def def; /* name and notation point into this record once copied */
} fg_motion_rt;

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
    /* The neutral a layer wants (fg_ruleset_neutral_scan) per group and held direction bits,
    ** worked out once when the rules are built: the tick asks it of every fighter's layers. */
    uint16_t neutral_for[FG_MAX_LAYERS][FG_MAX_GROUPS][FG_IN_DIRECTION_MASK + 1];
    fg_resource_def resources[FG_MAX_RESOURCES];
    bool regen; /* a resource regenerates: the tick looks at them (tick.c `regen`) */
    char groups[FG_MAX_GROUPS][FG_NAME_MAX];
    char (*marker_names)[FG_NAME_MAX];
    fg_motion_rt *motions;
    fg_motion_set *motion_set;
    bool motion_flags; /* the motion set is in flags mode (fg_motion_set_mode), read each tick */
    bool attack_boxes; /* an action declares a hit or throw box (ruleset_hits.c) */
    /* Per motion id, the first motion id of its name (alternatives are several patterns); an
    ** action's `motion` is such a key, so any number of actions may share a motion. */
    uint16_t *motion_key;
    fg_physics_def physics;
    fg_stage stage;          /* floor and walls agree with physics */
    uint16_t air_neutral;    /* layer 0's neutral of group "airborne" (a fall), or FG_NO_ACTION */
    fg_queue_policy queue;
    int health, meter;       /* resource ids of "health" and "meter", or -1 */
    int grounded, airborne;  /* group ids, or -1 */
    uint16_t hitstun, blockstun; /* action ids, or FG_NO_ACTION */
    uint16_t knockdown;          /* the action named "knockdown", or FG_NO_ACTION */
    fg_combat_def combat;
    fg_group_boxes fighter_boxes;              /* defaults of the whole fighter */
    fg_group_boxes group_boxes[FG_MAX_GROUPS]; /* defaults per state group, by group id */
    uint32_t nprojectiles;
    fg_projectile_def projectiles[FG_MAX_PROJECTILE_DEFS]; /* normalised: hit.hits >= 1 */
    uint8_t hurtable_kinds; /* bit k: projectiles[k] has hurt boxes (a fighter may strike it) */
    uint32_t nvars;
    fg_var_def vars[FG_MAX_VARS]; /* per-entity variables, sorted by name: id = index */
};

/* The stamp's occurrence of a marker's appearance in a cycle of its action. */
static inline uint64_t fg_marker_occurrence(const fg_marker_rt *m, int32_t cycle) {
    return (uint64_t)(cycle < 0 ? 0 : cycle) * m->same + m->rank;
}

/* Runtime view of the ruleset version of an instance. */
static inline const fg_action_rt *fg_rt_of(const fg_ruleset *r, uint32_t action) {
    return action < r->nactions ? &r->rt[action] : NULL;
}

/* The neutral state a layer should be in: the highest-priority neutral action of the group
** whose hold direction is held (`held`: direction bits relative to facing), else the layer's
** default (in the air, the airborne neutral). The tick reads it from r->neutral_for. */
uint32_t fg_ruleset_neutral_scan(const fg_ruleset *r, uint32_t layer, int group, uint32_t held);
static inline uint32_t fg_ruleset_neutral(const fg_ruleset *r, uint32_t layer, int group,
                                          uint32_t held) {
    if (group < 0 || group >= FG_MAX_GROUPS || held > FG_IN_DIRECTION_MASK)
        return fg_ruleset_neutral_scan(r, layer, group, held);
    return r->neutral_for[layer][group][held];
}

/* ruleset.c: for the builder's other files. */
fg_builder_hits *fg_ruleset_builder_hits(fg_ruleset_builder *b);
fg_status fg_ruleset_builder_refuse(fg_ruleset_builder *b, fg_error *err, fg_status code,
                                    const char *fmt, ...) FG_PRINTF(4, 5);
/* findings.c: adding a finding formatted in place, whatever its length (memory running out
** counts it as lost, see fg_findings_lost). */
void fg_findings_vaddf(fg_findings *f, bool warning, const char *path, const char *fmt,
                       va_list ap);
void fg_findings_addf(fg_findings *f, bool warning, const char *path, const char *fmt, ...)
    FG_PRINTF(4, 5);
/* ruleset_hits.c: boxes and hit data in the validator, the compiler and the content hash.
** `duration` is the action's length, or -1 when its phases are invalid. */
void fg_hits_check(const fg_ruleset *r, const fg_action_def *a, int32_t duration,
                   fg_findings *f);
void fg_hits_compile(fg_ruleset *r, uint32_t id);
void fg_hits_finish(fg_ruleset *r, const fg_builder_hits *bh, fg_findings *f);
void fg_hits_hash_action(fg_hasher *hs, const fg_action_rt *rt);
void fg_hits_hash(fg_hasher *hs, const fg_ruleset *r);
/* A hit's wall and ground bounces in the content hash, only the declared ones. */
void fg_hits_hash_bounces(fg_hasher *hs, const fg_hit_def *d);
/* ruleset_hits.c: the checks of a hit definition (at `path`), and its normal form. */
void fg_hits_check_def(const fg_ruleset *r, const char *path, const fg_hit_def *h,
                       fg_findings *f);
void fg_hits_normalise(fg_hit_def *h);
/* ruleset_projectile.c: projectile kinds and spawns in the validator, compiler and hash. */
void fg_projectiles_finish(fg_ruleset *r, const fg_builder_hits *bh, fg_findings *f);
void fg_projectiles_hash(fg_hasher *hs, const fg_ruleset *r);
/* vars.c: the declared variables checked, sorted and hashed with the ruleset. */
void fg_vars_finish(fg_ruleset *r, const fg_builder_hits *bh, fg_findings *f);
void fg_vars_hash(fg_hasher *hs, const fg_ruleset *r);

#endif
