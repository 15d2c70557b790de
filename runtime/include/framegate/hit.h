/* SPDX-License-Identifier: MIT */
/*
** framegate/hit.h: hits as data. Boxes (hurt, hit, push, throw) per action and tick range,
** default boxes per fighter and state group, invulnerability; hit definitions (damage, stun,
** hitstop, guard, pushback, counter hits, meter, multi-hit, juggle, reaction, wall and ground
** bounces); throw
** definitions; and the rectangle arithmetic the collision phase uses, exposed so a host draws
** exactly what gameplay tests.
**
** Coordinates: a box is authored relative to the fighter's origin (its feet) as if it faced right:
** x grows toward the opponent, y grows upward. Facing left mirrors x ([l, r] becomes [-r, -l]).
** Everything is fixed point (fg_fx, 16.16); edges that touch overlap.
*/
#ifndef FRAMEGATE_HIT_H
#define FRAMEGATE_HIT_H

#include "framegate/base.h"
#include "framegate/input.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FG_HIT_NAME_MAX 32
#define FG_MAX_BOXES 8       /* boxes per action */
#define FG_MAX_INVULN 4      /* invulnerability ranges per action */
#define FG_MAX_SCALING 16    /* entries of a damage scaling table */
#define FG_MAX_HIT_DEFS 4    /* hit definitions per action (a multi-part move) */
#define FG_MAX_THROW_DEFS 2  /* throw definitions per action */

typedef enum fg_box_kind {
    FG_BOX_HURT = 0,  /* where the fighter can be hit (and thrown) */
    FG_BOX_HIT = 1,   /* where the action's hit definition strikes */
    FG_BOX_PUSH = 2,  /* the body that keeps fighters apart */
    FG_BOX_THROW = 3, /* where the action's throw definition grabs */
    FG_BOX_KINDS = 4
} fg_box_kind;

/* "hurt", "hit", "push", "throw"; "?" for a value outside the enum. */
FG_API const char *fg_box_kind_name(fg_box_kind k);

/* How a hit may be blocked. */
typedef enum fg_guard {
    FG_GUARD_HIGH = 0,       /* blocked standing or crouching (the default) */
    FG_GUARD_LOW = 1,        /* blocked crouching only */
    FG_GUARD_OVERHEAD = 2,   /* blocked standing only */
    FG_GUARD_UNBLOCKABLE = 3
} fg_guard;
FG_API const char *fg_guard_name(fg_guard g);

typedef enum fg_knockdown {
    FG_KNOCKDOWN_NONE = 0,
    FG_KNOCKDOWN_SOFT = 1, /* the target may get up at once (wake-up `soft_wakeup` ticks) */
    FG_KNOCKDOWN_HARD = 2  /* the target stays down `hard_wakeup` ticks */
} fg_knockdown;
FG_API const char *fg_knockdown_name(fg_knockdown k);

/* Why a contact did nothing (FG_TRACE_MISS records and missed hit events). */
typedef enum fg_miss_reason {
    FG_MISS_NONE = 0,
    FG_MISS_JUGGLE_LIMIT = 1, /* the airborne target's juggle points would pass its limit */
    FG_MISS_LOST_TRADE = 2    /* a same-tick trade under the priority rule, lower priority */
} fg_miss_reason;
FG_API const char *fg_miss_reason_name(fg_miss_reason r);

/* The steps of a throw (FG_TRACE_THROW records). */
typedef enum fg_throw_step {
    FG_THROW_GRABBED = 0, /* a throw box caught a throwable target: the tech window opens */
    FG_THROW_TECHED = 1,  /* the target asked for the tech within the window: both go free */
    FG_THROW_LANDED = 2   /* the window passed: the throw's damage and reaction */
} fg_throw_step;
FG_API const char *fg_throw_step_name(fg_throw_step s);

/* Which surface a launched target bounced off (FG_EVENT_BOUNCE events, FG_TRACE_BOUNCE). */
typedef enum fg_bounce_kind {
    FG_BOUNCE_WALL = 1,  /* a wall of the stage (physics.stage_min, stage_max) */
    FG_BOUNCE_GROUND = 2 /* what it would have landed on: the floor, a platform, a block */
} fg_bounce_kind;
/* "wall", "ground"; "?" for a value outside the enum. */
FG_API const char *fg_bounce_kind_name(fg_bounce_kind k);
#define FG_BOUNCE_REFUSED 16 /* added to the kind in a FG_TRACE_BOUNCE record of a refused one */

/* An axis-aligned rectangle: left-bottom corner and size, relative to the origin, facing right. */
typedef struct fg_box {
    fg_fx x, y, w, h;
} fg_box;

/* A box of an action, live on ticks [from, to] of it. A hit box strikes with one of the action's
** hit definitions, a throw box grabs with one of its throw definitions: `def` picks which
** (0 = the first, `hit` / `throw_def`). */
typedef struct fg_box_def {
    fg_box_kind kind;
    int32_t from, to;
    fg_box box;
    uint32_t def;
} fg_box_def;

/* Ticks [from, to] of an action during which strikes (hit boxes) and/or throws miss. */
typedef struct fg_invuln_def {
    int32_t from, to;
    bool strike, thrown;
} fg_invuln_def;

/* A bounce a hit gives the target it leaves in the air: the first time that target meets a wall
** (wall_bounce) or would land (ground_bounce) while still in the air from a hit, it bounces
** instead, once: its velocity becomes (vx, vy) and its hit reaction starts again for `stun`
** ticks. A later hit that lands replaces what an earlier one armed. */
typedef struct fg_bounce_def {
    bool enabled;
    fg_fx vx;     /* pixels per tick after the bounce: off a wall, away from it (0..4096); off
                     the ground, onward (> 0) or back (< 0) along the way it was last sent */
    fg_fx vy;     /* upward (a ground bounce: > 0) */
    int32_t stun; /* ticks of the target's hit reaction from the bounce (0: the hit's hitstun) */
} fg_bounce_def;

/* What a hit box does to its target. */
typedef struct fg_hit_def {
    bool enabled;
    fg_fx range;          /* shorthand without boxes: reach in front of the attacker, fixed point */
    int32_t damage;       /* taken from the target's health resource on hit */
    int32_t hitstop;      /* ticks the attacker freezes on contact */
    int32_t hitstun;      /* ticks the target stays in its hit reaction */
    int32_t blockstun;    /* ticks the target stays in blockstun */
    int32_t meter_gain;   /* added to the attacker's meter resource on contact */
    bool low;             /* legacy spelling of guard = FG_GUARD_LOW */
    bool overhead;        /* legacy spelling of guard = FG_GUARD_OVERHEAD */
    int32_t chip;         /* taken from health on block */
    int32_t hitstop_target; /* ticks the target freezes (0: the same as hitstop) */
    int32_t meter_target; /* added to the target's meter resource on contact */
    fg_guard guard;
    fg_fx pushback_hit, pushback_block; /* the target slides away this far, in pixels */
    int32_t counter_damage;  /* percent of damage on a counter hit (0 = 100) */
    int32_t counter_hitstun; /* extra hitstun ticks on a counter hit */
    int32_t counter_hitstop; /* extra hitstop ticks on a counter hit */
    int32_t hits;         /* times one action may hit one target (0 = 1) */
    int32_t interval;     /* ticks between two of those hits */
    int32_t priority;     /* a same-tick trade under the "priority" rule: the higher hits */
    int32_t juggle;       /* juggle points the hit costs against an airborne target */
    char reaction[FG_HIT_NAME_MAX]; /* the target's action on hit ("" = "hitstun") */
    char air_reaction[FG_HIT_NAME_MAX]; /* on an airborne target ("" = reaction) */
    fg_fx launch_vx, launch_vy; /* velocity given to the target on hit (vx away from the
                                   attacker); launch_vy > 0 puts it in the air */
    fg_knockdown knockdown;     /* when the target lands from this hit */
    fg_bounce_def wall_bounce;   /* off the first wall it meets in the air from this hit */
    fg_bounce_def ground_bounce; /* instead of its landing from this hit */
} fg_hit_def;

/* What a throw box does. A throw connects against a hurt box of a target on the ground, not in
** a stun, not throw-invulnerable. The target may tech (press the throw itself) within
** `tech_window` ticks of the grab: the throw breaks and both are pushed apart. */
typedef struct fg_throw_def {
    bool enabled;
    int32_t damage;
    int32_t tech_window;  /* ticks after the grab during which a tech breaks it (0 = none) */
    char tech_input[FG_HIT_NAME_MAX]; /* the action whose start is a tech ("" = this throw) */
    char reaction[FG_HIT_NAME_MAX];   /* the target's action when the throw lands ("thrown") */
    int32_t stun;         /* ticks of that reaction */
    fg_fx launch_vx, launch_vy;
    fg_knockdown knockdown;
} fg_throw_def;

/* Rules of a whole ruleset about hits. */
typedef struct fg_combat_def {
    bool trade_priority;  /* same-tick hits: false = both hit, true = the higher priority hits */
    int32_t juggle_limit; /* juggle points an airborne target accepts per combo (0 = no limit) */
    int32_t soft_wakeup, hard_wakeup; /* ticks on the ground after a knockdown */
    int32_t wakeup_throw_invuln;      /* ticks after wake-up during which throws miss */
    uint32_t nscaling;
    int32_t scaling[FG_MAX_SCALING]; /* percent of damage for the combo's 1st, 2nd, ... hit; the
                                        last entry repeats */
    int32_t bounce_limit; /* wall and ground bounces one combo allows its target (0 = no limit);
                             a bounce past it is refused: the target is stopped or lands */
} fg_combat_def;

/* {====================================================================== projectiles */

#define FG_MAX_PROJECTILE_DEFS 8 /* projectile kinds per ruleset */
#define FG_PROJECTILE_BOXES 4    /* hit boxes per projectile kind */

/* A projectile kind: what an action's spawn puts in the world. It moves on its own, strikes
** with its own hit boxes and hit definition, clashes with other projectiles by durability, and is
** gone after its last hit, at the end of its lifetime, or past a wall of the stage. */
typedef struct fg_projectile_def {
    char name[FG_HIT_NAME_MAX];
    fg_fx vx, vy;         /* per tick; vx along the owner's facing at the spawn, vy upward */
    int32_t lifetime;     /* ticks it lives (1..3600) */
    int32_t durability;   /* clash strength against other projectiles (1..255) */
    int32_t limit;        /* live ones of this kind one owner may have (0 = no limit) */
    bool opens_cancels;   /* its hit or block counts as the contact of the action that spawned
                             it (the owner's cancel windows on hit / block), if still running */
    uint32_t nboxes;
    fg_box_def boxes[FG_PROJECTILE_BOXES]; /* hit boxes; from/to count the projectile's ticks */
    fg_hit_def hit;       /* what it does to a target; hit.hits = times it may hit in all,
                             hit.interval = ticks between two of them */
} fg_projectile_def;

/* An action's spawn: when the action's marker is committed by the gate (exactly once, like any
** event), a projectile of the named kind appears at (x, y) from the owner's origin, mirrored by
** its facing. */
typedef struct fg_spawn_def {
    char projectile[FG_HIT_NAME_MAX]; /* "" = the action spawns nothing */
    char marker[FG_HIT_NAME_MAX];     /* "" = "spawn" */
    fg_fx x, y;
} fg_spawn_def;

/* }====================================================================== */

/* A box placed in the world. */
typedef struct fg_rect {
    fg_fx x0, y0, x1, y1; /* x0 <= x1, y0 <= y1 */
} fg_rect;

/* A box of an entity at (x, y) facing `facing`, in world coordinates. */
FG_API fg_rect fg_box_place(fg_box b, fg_fx x, fg_fx y, fg_facing facing);
/* Whether two rectangles overlap (touching edges do); `out` (may be NULL) gets the overlap. */
FG_API bool fg_rect_overlap(fg_rect a, fg_rect b, fg_rect *out);

#ifdef __cplusplus
}
#endif
#endif
