/* SPDX-License-Identifier: MIT */
/*
** framegate/projectile.h: projectiles. A ruleset declares projectile kinds (fg_projectile_def in
** framegate/hit.h) and actions that spawn them on a marker (fg_action_def.spawn); a world keeps
** the live ones in a fixed pool, moves them, tests their hit boxes against hurt boxes and against
** each other (clashes by durability), and removes them after their last hit, at the end of their
** lifetime, or past a wall. They are authoritative state: hashed, snapshotted, diffed, replayed.
**
** A full pool refuses a spawn: nothing appears, the trace says why, and
** fg_world_projectiles_refused counts it. No spawn allocates.
*/
#ifndef FRAMEGATE_PROJECTILE_H
#define FRAMEGATE_PROJECTILE_H

#include "framegate/action.h"
#include "framegate/world.h"

#ifdef __cplusplus
extern "C" {
#endif

/* {====================================================================== rulesets */

/* A projectile kind with defaults: lifetime 120, durability 1, one hit (hitstop 8, hitstun 12,
** blockstun 8), no box yet (it needs at least one hit box). */
FG_API fg_projectile_def fg_projectile_def_default(const char *name);
/* Declares a projectile kind; the name must be new. Validated when the ruleset is built. */
FG_API fg_status fg_ruleset_add_projectile(fg_ruleset_builder *b, const fg_projectile_def *p,
                                           fg_error *err);
FG_API uint32_t fg_ruleset_projectile_count(const fg_ruleset *r);
FG_API const fg_projectile_def *fg_ruleset_projectile(const fg_ruleset *r, uint32_t i);
FG_API int fg_ruleset_find_projectile(const fg_ruleset *r, const char *name); /* -1 if none */

/* }====================================================================== */

/* {====================================================================== worlds */

/* A live projectile, read-only. */
typedef struct fg_projectile_view {
    uint32_t id;          /* 1, 2, ... in spawn order, never reused */
    fg_entity owner;
    uint32_t team;        /* the owner's team when it spawned */
    const char *name;     /* its kind */
    fg_facing facing;
    fg_fx x, y, vx, vy;   /* vx along its facing */
    fg_fx prev_x, prev_y; /* the tick before, for interpolation */
    int32_t age;          /* ticks since the spawn */
    int32_t lifetime;     /* ticks it lives in all */
    int32_t hits;         /* hits left */
    int32_t durability;   /* clash strength left */
} fg_projectile_view;

/* Live projectiles, in id order; fg_world_projectile_at fills `out` for the i-th (false past the
** end). */
FG_API uint32_t fg_world_projectile_count(const fg_world *w);
FG_API bool fg_world_projectile_at(const fg_world *w, uint32_t i, fg_projectile_view *out);
/* The i-th live projectile's hit boxes this tick, placed in the world (as the collision phase
** tests them). Returns how many; fills up to max. */
FG_API uint32_t fg_world_projectile_boxes(const fg_world *w, uint32_t i, fg_placed_box *out,
                                          uint32_t max);
/* The pool's size (fg_world_config.max_projectiles) and the spawns it refused, ever. */
FG_API uint32_t fg_world_projectile_capacity(const fg_world *w);
FG_API uint64_t fg_world_projectiles_refused(const fg_world *w);
/* Spawns a projectile of the owner's ruleset kind `name` at (x, y) in world coordinates, facing
** `facing`, as if an action had (a host's edit: a recorder notes it). Fails with a message for an
** unknown owner or kind, a position out of range, or a full pool. `id` (may be NULL) gets its
** id. */
FG_API fg_status fg_world_spawn_projectile(fg_world *w, fg_entity owner, const char *name,
                                           fg_fx x, fg_fx y, fg_facing facing, uint32_t *id,
                                           fg_error *err);

/* }====================================================================== */

#ifdef __cplusplus
}
#endif
#endif
