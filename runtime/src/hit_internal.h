/* SPDX-License-Identifier: MIT */
/*
** hit_internal.h: the compiled form of boxes and hit data (built with the ruleset), the per-entity
** combat state (authoritative: hashed, snapshotted, diffed) and the collision phase's work space.
** Not installed: the public side is framegate/hit.h.
*/
#ifndef FG_HIT_INTERNAL_H
#define FG_HIT_INTERNAL_H

#include "framegate/hit.h"
#include "framegate/vars.h"
#include "framegate/world.h" /* fg_entity */

/* A box compiled: live on ticks [from, to] of its action, in fixed point, facing right. */
typedef struct fg_box_rt {
    int32_t from, to;
    uint8_t kind; /* fg_box_kind */
    uint8_t def;  /* its hit or throw definition */
    fg_box box;
} fg_box_rt;

/* Everything about hits of one compiled action. */
typedef struct fg_action_hits {
    uint8_t nboxes, ninvuln;
    uint8_t own;       /* bit per fg_box_kind: the action declares boxes of that kind, which then
                          replace the defaults on all its ticks */
    uint8_t marker_hit; /* the `range` shorthand: the hit connects on the hit marker's tick */
    int32_t last_hit_tick; /* the last tick a hit (or throw) box is live: past it, a whiff */
    uint8_t is_reaction; /* a hit reaction (hitstun, or named by a hit): the target is in a combo */
    uint8_t nhit, nthr;  /* hit and throw definitions in use */
    fg_box_rt boxes[FG_MAX_BOXES];
    fg_invuln_def invuln[FG_MAX_INVULN];
    fg_hit_def hit[FG_MAX_HIT_DEFS]; /* normalised: guard from low/overhead, hits >= 1 */
    fg_throw_def thr[FG_MAX_THROW_DEFS];
    int16_t spawn;          /* projectile kind it spawns, -1 = none */
    uint16_t spawn_marker;  /* on this marker (an id in the ruleset's marker table) */
    fg_fx spawn_x, spawn_y;
} fg_action_hits;

/* Default hurt and push boxes of a state group (or the whole fighter). */
typedef struct fg_group_boxes {
    uint8_t has; /* bit per fg_box_kind */
    fg_box box[FG_BOX_KINDS];
} fg_group_boxes;

/* What a builder collects about hits beside its actions. */
#define FG_HIT_GROUPS 8
typedef struct fg_builder_hits {
    fg_combat_def combat;
    uint32_t nprojectiles;
    fg_projectile_def projectiles[FG_MAX_PROJECTILE_DEFS];
    fg_group_boxes fighter;
    uint32_t ngroups;
    char group_names[FG_HIT_GROUPS][FG_HIT_NAME_MAX];
    fg_group_boxes groups[FG_HIT_GROUPS];
    uint32_t nvars;
    fg_var_def vars[FG_MAX_VARS]; /* as declared; sorted by name when built */
} fg_builder_hits;

/* {====================================================================== entity state */

#define FG_HIT_LOG 8 /* targets one entity's running actions remember having hit */
_Static_assert(FG_HIT_LOG <= 8, "fg_combat.log_used has a bit per hit log entry");

/* One target an action of this entity hit: one hit per target per action unless the hit
** definition allows more, spaced by its interval. */
typedef struct fg_hit_log {
    uint32_t target; /* entity id, 0: empty */
    uint8_t layer;
    uint8_t count;
    uint8_t def;     /* which of the action's hit (or throw) definitions */
    uint8_t reserved;
    fg_tick last;
} fg_hit_log;

/* The bounces a hit armed on its target (bounce.c): all zero when none is armed and the combo has
** used none, and the fields of a kind not armed stay zero (a restore checks it), so the state
** hash folds them only when one is armed or used. */
#define FG_HIT_MAX_TICKS 600 /* a stun, a hitstop, a tech window: ten seconds is already absurd */
#define FG_BOUNCE_V_MAX FG_FX(4096) /* a bounce's speed, pixels per tick, either way */
#define FG_BOUNCE_LIMIT_MAX 100     /* combat.bounce_limit */
#define FG_BOUNCE_ARMED_ALL 3u /* bit (1 << (kind - 1)) per fg_bounce_kind armed */
typedef struct fg_bounce_state {
    uint8_t armed;     /* bit per armed fg_bounce_kind: 1 wall, 2 ground */
    uint8_t side;      /* the way it was last sent along x: 1 toward +x, 2 toward -x */
    uint8_t used;      /* bounces in the current combo (combat.bounce_limit); kept while the
                          combo goes on, zero when it ends */
    uint8_t reserved;
    uint32_t by;       /* the entity whose hit armed them */
    fg_fx wall_vx, wall_vy;
    int32_t wall_stun;
    fg_fx ground_vx, ground_vy;
    int32_t ground_stun;
} fg_bounce_state;

/* The combat state of an entity: plain integers, no bools (the coverage audit flips bytes). */
typedef struct fg_combat {
    uint32_t team;   /* 0: fights only its opponent; otherwise every entity of another team */
    uint32_t owner;  /* never hits its owner (projectiles) */
    fg_fx push_left; /* pushback slide still to cover, world x */
    int32_t combo;   /* hits taken in the current combo */
    int32_t combo_damage;
    int32_t juggle;  /* juggle points spent in the current combo */
    uint8_t knockdown; /* fg_knockdown pending until the entity lands */
    uint8_t launched;  /* 1: airborne from a hit (a juggle is possible) */
    /* Bit i: log[i] holds a target. The hash and the tick read only those entries, so a fighter
    ** that hit nobody lately never fetches the log's lines (a restore checks the bits). */
    uint8_t log_used;
    uint8_t reserved;
    fg_tick throw_invuln_until; /* throws miss until this tick (after a wake-up) */
    fg_tick tech_until;  /* a grabbed entity may tech until this tick (exclusive) */
    uint32_t grabbed_by; /* the thrower holding it, 0 = none */
    uint8_t grab_layer;   /* the thrower's layer running the throw */
    uint8_t grab_def;     /* the throw definition that grabbed */
    uint8_t reserved2[2];
    int64_t grab_seq;     /* that throw's action sequence */
    int32_t vars[FG_MAX_VARS]; /* the ruleset's variables (framegate/vars.h), by id */
    fg_hit_log log[FG_HIT_LOG];
    fg_bounce_state bounce; /* read only while launched */
} fg_combat;

/* }====================================================================== */

/* {====================================================================== projectiles */

/* One projectile in the world's pool: plain integers (the coverage audit flips bytes). */
typedef struct fg_projectile_state {
    uint32_t id;          /* 1, 2, ... in spawn order; never reused */
    uint32_t owner;       /* the entity that spawned it */
    uint32_t team;        /* the owner's team at the spawn */
    uint16_t def;         /* its kind in the ruleset version below */
    uint16_t version;     /* the owner's ruleset version at the spawn */
    uint16_t action;      /* the action that spawned it (its name in traces; its cancels) */
    uint8_t layer;        /* that action's layer */
    uint8_t facing;
    int32_t hits;         /* hits left; 0: gone at the end of the tick */
    int32_t durability;   /* clash strength left; 0: gone at the end of the tick */
    fg_fx x, y, vx, vy;   /* vx along its facing */
    fg_fx prev_x, prev_y;
    fg_tick born;
    fg_tick last_hit;     /* its last hit (the interval between two), -1: none yet */
    int64_t seq;          /* the spawning action's sequence on that layer */
    /* The last action that struck it (a hurt box hit by a fighter): entity id (0 = none yet),
    ** layer and sequence, so one swing takes one durability however many ticks it touches. */
    uint32_t struck_by;
    uint8_t struck_layer;
    int64_t struck_seq;
} fg_projectile_state;

/* The pool: a header and `cap` records, live ones first in id order (packed). */
typedef struct fg_projectile_pool {
    uint32_t count;
    uint32_t next_id;
} fg_projectile_pool;

/* Two projectiles whose hit boxes touched this tick (pool indexes). */
typedef struct fg_clash_rec {
    uint32_t a, b;
    fg_fx px, py;
} fg_clash_rec;

/* A fighter's hit box on a projectile's hurt box this tick (pool index, entity slot). */
typedef struct fg_strike_rec {
    uint32_t proj, slot;
    uint8_t layer, hit_box, hurt_box;
    fg_fx px, py;
} fg_strike_rec;

/* The projectile phase's work space, sized when the world is created. */
typedef struct fg_projectile_space {
    uint32_t cap;            /* records in the pool */
    uint32_t *order;         /* pool indexes sorted on x0 this tick */
    uint32_t *tmp;           /* merge sort scratch */
    fg_fx *x0, *x1;          /* per pool index: the extent of its live hit boxes */
    fg_clash_rec *clashes;
    uint32_t nclashes, cap_clashes;
    fg_fx *hx0, *hx1;        /* per pool index: the extent of its live hurt boxes */
    fg_strike_rec *strikes;  /* at most one per projectile per tick */
    uint32_t nstrikes;
    uint64_t refused;        /* spawns refused because the pool was full, ever (not hashed) */
    uint64_t clashes_dropped;
} fg_projectile_space;

/* }====================================================================== */

/* {====================================================================== collision work space */

/* One entity in the broad phase: its extent on x over every live box. */
typedef struct fg_collide_item {
    fg_fx x0, x1;
    uint32_t slot;
    fg_entity opponent; /* the record's, so pairing reads the records of live pairs only */
    uint8_t attacks; /* it has a live hit or throw box */
    uint8_t hurtable;
    uint8_t listed;  /* in this tick's sweep order already */
    uint8_t in_team; /* it has a team (the sweep over teams reads this, not the record) */
} fg_collide_item;

/* A contact found this tick, committed by the gate. */
typedef struct fg_contact_rec {
    uint32_t attacker, target; /* slots */
    uint8_t layer;             /* the attacker's layer whose action hit */
    uint8_t kind;              /* FG_BOX_HIT or FG_BOX_THROW */
    uint8_t hit_box, hurt_box; /* indexes: in the action's boxes; hurt: 0xFF = a default box */
    uint8_t def;               /* the hit (or throw) definition of the hit box */
    fg_fx px, py;              /* the contact point: the centre of the boxes' overlap */
    int32_t priority;
    uint32_t proj;             /* a projectile's contact: its pool index + 1; 0 = an entity's */
    uint8_t skip;              /* a projectile with no hit left: the contact does nothing */
    /* Judged by the gate against the state before this tick's hits: */
    uint8_t contact;           /* FG_ON_HIT, FG_ON_BLOCK */
    uint8_t miss;              /* fg_miss_reason, 0 = it lands */
    uint8_t counter, trade;
    int32_t damage;
    int32_t juggle_used;       /* the target's juggle points before it */
    /* The attacker's action as it was when the contact was found: a trade replaces it with a
    ** hit reaction before the other side of the trade is applied. */
    uint16_t action, version;
    int64_t seq;
} fg_contact_rec;

typedef struct fg_collide_space {
    fg_collide_item *items;
    uint32_t *order;         /* entities with a team, sorted on x0 (kept across ticks: nearly
                                sorted already) */
    uint32_t nitems;         /* entries of order */
    fg_contact_rec *contacts;
    uint32_t ncontacts, cap_contacts;
    uint64_t dropped;        /* contacts past the capacity, ever (reported, not hashed) */
    uint64_t pairs_tested;   /* narrow-phase pair tests, ever (for the benchmark) */
} fg_collide_space;

/* A change a request rule proposed, committed by the gate (vars.c). */
typedef struct fg_var_proposal {
    uint32_t slot;  /* the entity's */
    uint8_t var, op;
    int32_t value;
} fg_var_proposal;

/* }====================================================================== */

#endif
