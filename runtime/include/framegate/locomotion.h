/* SPDX-License-Identifier: MIT */
/*
** framegate/locomotion.h: the signals an animation graph reads from movement. Per entity and per
** tick, velocity, requested acceleration, actor yaw, aim yaw, strafe mode and airborne become a
** locomotion angle, a 4-way cardinal direction with hysteresis, an 8-way direction, the
** orientation-warping angle, start/stop/pivot/wall flags and the predicted stop distance.
**
** The work is split in two so it can leave the simulation thread: a gather step copies what it
** needs into a plain job (fg_loco_batch_gather), and the compute step (fg_loco_batch_compute)
** reads and writes only the batch. What persists from tick to tick is fg_loco_state: plain data,
** hashed field by field.
**
** Angles are degrees. Yaw 0 looks along +y and grows toward +x (clockwise seen from above), so a
** locomotion angle of +90 means moving to the actor's right. Every angle the module returns lies
** in (-180, 180]. Speeds are world units per second, accelerations units per second squared.
** These are presentation signals: they are floats, evaluated in a fixed order.
*/
#ifndef FRAMEGATE_LOCOMOTION_H
#define FRAMEGATE_LOCOMOTION_H

#include "framegate/base.h"
#include "framegate/input.h" /* fg_vec2 */

#ifdef __cplusplus
extern "C" {
#endif

/* {====================================================================== directions */

/* The four directions a strafe graph selects its clips by, numbered clockwise from forward so
** that the base angle of a cardinal c is 90 * c (normalised): F = 0, R = 90, B = 180, L = -90. */
typedef enum fg_cardinal {
    FG_CARDINAL_FORWARD = 0,
    FG_CARDINAL_RIGHT = 1,
    FG_CARDINAL_BACKWARD = 2,
    FG_CARDINAL_LEFT = 3
} fg_cardinal;

/* Eight 45-degree sectors centred on their direction, clockwise from forward. */
typedef enum fg_dir8 {
    FG_DIR8_F = 0,
    FG_DIR8_FR = 1,
    FG_DIR8_R = 2,
    FG_DIR8_BR = 3,
    FG_DIR8_B = 4,
    FG_DIR8_BL = 5,
    FG_DIR8_L = 6,
    FG_DIR8_FL = 7
} fg_dir8;

FG_API const char *fg_cardinal_name(fg_cardinal c); /* "Forward", "Right", "Backward", "Left" */
FG_API int fg_cardinal_parse(const char *name);     /* -1 if unknown; accepts the names above */
FG_API const char *fg_dir8_name(fg_dir8 d);         /* "F", "FR", ... "FL" */
FG_API float fg_cardinal_base_deg(fg_cardinal c);   /* 0, 90, 180, -90 */

/* Normalises an angle to (-180, 180]. Non-finite input gives 0 (it has no direction). The
** reduction is exact (fmod), so huge yaw values keep their true remainder. */
FG_API float fg_loco_normalize_deg(float deg);

/* }====================================================================== */

/* {====================================================================== configuration */

/* Which current sectors the dead zone widens (a Schmitt trigger needs the band on one side of
** each boundary at least). */
typedef enum fg_loco_hysteresis {
    /* Only a current Forward or Backward sector is widened: Forward is left past 75 degrees and
    ** entered again at the base 65, from either side. Each boundary has one band. The default. */
    FG_LOCO_HYSTERESIS_ONE_WAY = 0,
    /* Every current sector is widened, Right and Left too: Forward is left past 75 and, from
    ** Right, entered again only below 55. Each boundary has a band twice as wide. */
    FG_LOCO_HYSTERESIS_BOTH_WAYS = 1
} fg_loco_hysteresis;

FG_API const char *fg_loco_hysteresis_name(fg_loco_hysteresis h); /* "one_way", "both_ways" */
FG_API int fg_loco_hysteresis_parse(const char *name);            /* -1 if unknown */

/* Everything tunable is data. fg_loco_config_default fills the values from the specification
** (65-degree boundaries, 10-degree dead zone, one-way hysteresis, 0.2 s minimum pivot) for a
** tick rate. */
typedef struct fg_loco_config {
    /* Cardinal sectors. Forward is |angle| < forward_limit_deg; Backward is
    ** |angle| > 180 - backward_limit_deg; Right and Left take what lies between. The current
    ** direction's sector is widened by dead_zone_deg on each side when `hysteresis` says so. */
    float forward_limit_deg;  /* 65 */
    float backward_limit_deg; /* 65 */
    float dead_zone_deg;      /* 10 */
    fg_loco_hysteresis hysteresis; /* FG_LOCO_HYSTERESIS_ONE_WAY */

    /* Below move_speed the entity is not moving; below accel_threshold no movement is asked. */
    float move_speed;      /* 0.05 units/s */
    float accel_threshold; /* 0.1 units/s^2 */

    /* Pivot: the time latch (ticks in pivot before it may end) and the space latch (how far, in
    ** degrees, the velocity must have turned away from the latched initial direction; a velocity
    ** that has reversed has turned 180 and counts). */
    uint32_t pivot_min_ticks; /* 0.2 s */
    float pivot_turn_deg;     /* 45: the velocity has left the initial cardinal sector */

    /* Wall: movement is asked (acceleration) but the velocity along it stays below wall_speed,
    ** and the velocity is not simply turning around (that is a pivot), for wall_ticks ticks. */
    uint32_t wall_ticks; /* 0.1 s */
    float wall_speed;    /* 0.5 units/s */

    /* Deceleration with no input, for the predicted stop distance v^2 / (2 * braking). */
    float braking_deceleration; /* 20 units/s^2 */
} fg_loco_config;

/* Defaults for a tick rate (1..FG_TICK_RATE_MAX; other rates are treated as 60). The tick counts
** are rounded to the nearest tick, at least 1. */
FG_API fg_loco_config fg_loco_config_default(uint32_t rate_hz);
/* Checks every field; the message names the field, its value and the accepted range. */
FG_API fg_status fg_loco_config_check(const fg_loco_config *cfg, fg_error *err);

/* }====================================================================== */

/* {====================================================================== per-tick data */

/* What gather copies from the world for one entity and one tick. */
typedef struct fg_loco_input {
    fg_vec2 velocity;     /* ground-plane velocity, units/s */
    fg_vec2 acceleration; /* requested acceleration (the player's or AI's intent), units/s^2 */
    float actor_yaw;      /* where the body faces, degrees */
    float aim_yaw;        /* where the camera or aim looks, degrees */
    bool strafe;          /* strafe mode: the body follows the aim and moves in any direction */
    bool airborne;
} fg_loco_input;

/* Output flags. Some are states (true while it lasts), some are events (true on one tick). */
enum {
    FG_LOCO_MOVING = 1u << 0,          /* state: speed >= move_speed */
    FG_LOCO_ACCELERATING = 1u << 1,    /* state: movement is asked */
    FG_LOCO_AIRBORNE = 1u << 2,        /* state: copied from the input */
    FG_LOCO_STRAFE = 1u << 3,          /* state: copied from the input */
    FG_LOCO_START = 1u << 4,           /* event: on the ground, movement is asked from this tick */
    FG_LOCO_STOPPING = 1u << 5,        /* state: on the ground, moving, nothing asked */
    FG_LOCO_STOP = 1u << 6,            /* event: the first tick of STOPPING */
    FG_LOCO_PIVOT = 1u << 7,           /* state: in a pivot (pivot_id names it) */
    FG_LOCO_PIVOT_ENTER = 1u << 8,     /* event: a pivot began this tick (new pivot_id) */
    FG_LOCO_PIVOT_REENTER = 1u << 9,   /* event: ... and it replaced a running pivot */
    FG_LOCO_PIVOT_EXIT = 1u << 10,     /* event: the pivot ended with both latches released */
    FG_LOCO_PIVOT_CANCEL = 1u << 11,   /* event: the pivot was abandoned (input let go, airborne,
                                       ** wall) */
    FG_LOCO_WALL = 1u << 12,           /* state: running into a wall */
    FG_LOCO_CARDINAL_CHANGED = 1u << 13, /* event: cardinal differs from the previous tick */
    FG_LOCO_BAD_INPUT = 1u << 14       /* an input was NaN, infinite or beyond FG_LOCO_INPUT_MAX
                                       ** and was replaced (non-finite by 0, huge by the limit) */
};

/* Vector components beyond this magnitude are clamped (velocities and accelerations). */
#define FG_LOCO_INPUT_MAX 1.0e6f

typedef struct fg_loco_output {
    float locomotion_angle; /* travel direction relative to actor yaw; 0 with no direction */
    float warp_angle;       /* orientation-warping angle: locomotion angle - cardinal base */
    float aim_offset;       /* aim yaw relative to actor yaw */
    float speed;            /* |velocity| after sanitising */
    float stop_distance;    /* on the ground: v^2 / (2 * braking_deceleration); else 0 */
    uint32_t flags;         /* FG_LOCO_* */
    uint32_t pivot_id;      /* the running pivot, or the last one (0: none yet) */
    uint8_t cardinal;       /* fg_cardinal, with hysteresis (always Forward outside strafe) */
    uint8_t dir8;           /* fg_dir8 of the locomotion angle, no hysteresis */
    uint8_t reserved[2];
} fg_loco_output;

/* What persists from one tick to the next: plain data, no pointers. Start from
** fg_loco_state_init; copy, snapshot and restore it freely. */
typedef struct fg_loco_state {
    uint8_t cardinal;         /* fg_cardinal: the current direction, an input of the trigger */
    uint8_t in_pivot;         /* 0 or 1 */
    uint8_t was_accelerating; /* on the ground and asked to move, last tick (START edge) */
    uint8_t was_stopping;     /* STOPPING last tick (STOP edge) */
    uint16_t pivot_ticks;     /* ticks since the pivot began (time latch), saturating */
    uint16_t wall_ticks;      /* consecutive blocked ticks, saturating at cfg.wall_ticks */
    uint32_t pivot_id;        /* ids given so far; the running pivot is the last one */
    fg_vec2 pivot_dir;        /* latched unit velocity at entry (space latch) */
    fg_vec2 pivot_accel;      /* latched unit acceleration at entry (re-pivot condition) */
} fg_loco_state;

FG_API void fg_loco_state_init(fg_loco_state *st);
/* Feeds the state to a hasher field by field; floats by their bit patterns. */
FG_API void fg_loco_state_hash(const fg_loco_state *st, fg_hasher *hs);

/* }====================================================================== */

/* {====================================================================== the signals */

/* The hysteresis trigger alone: the cardinal for a locomotion angle given the current one. An
** out-of-range `current` is read as Forward; a non-finite angle keeps `current`. */
FG_API fg_cardinal fg_loco_cardinal(float angle_deg, fg_cardinal current,
                                    const fg_loco_config *cfg);
/* normalise(angle - base(cardinal)). */
FG_API float fg_loco_warp_angle(float angle_deg, fg_cardinal cardinal);
/* 8-way sector of an angle. */
FG_API fg_dir8 fg_loco_dir8(float angle_deg);

/* One entity, one tick: reads in and st, writes st and out. The config must have passed
** fg_loco_config_check. Never allocates, never produces NaN. */
FG_API void fg_loco_step(const fg_loco_config *cfg, fg_loco_state *st, const fg_loco_input *in,
                         fg_loco_output *out);

/* }====================================================================== */

/* {====================================================================== gather / compute */

/* One entity's job: everything compute reads and writes. `entity` is the caller's id, carried
** through untouched so results can be written back. */
typedef struct fg_loco_job {
    uint64_t entity;
    fg_loco_input in;
    fg_loco_state state;
    fg_loco_output out;
} fg_loco_job;

/* A fixed-capacity array of jobs plus a copy of the config, allocated once. Between gather and
** the read-back the batch belongs to whichever thread computes it; disjoint ranges may be
** computed on different threads at once. */
typedef struct fg_loco_batch fg_loco_batch;

FG_API fg_status fg_loco_batch_create(const fg_loco_config *cfg, uint32_t capacity,
                                      const fg_allocator *alloc, fg_loco_batch **out,
                                      fg_error *err);
FG_API void fg_loco_batch_destroy(fg_loco_batch *b);
/* Replaces the config (checked first; on error nothing changes). */
FG_API fg_status fg_loco_batch_set_config(fg_loco_batch *b, const fg_loco_config *cfg,
                                          fg_error *err);
FG_API const fg_loco_config *fg_loco_batch_config(const fg_loco_batch *b);
/* Empties the batch for a new tick (keeps the memory). */
FG_API void fg_loco_batch_clear(fg_loco_batch *b);
/* Gather: copies one entity's state and input into the next job; FG_ENOMEM when full. */
FG_API fg_status fg_loco_batch_gather(fg_loco_batch *b, uint64_t entity, const fg_loco_state *st,
                                      const fg_loco_input *in, fg_error *err);
/* Compute: runs fg_loco_step on jobs [begin, end) (clamped to the count). Touches nothing but
** those jobs and reads nothing but them and the batch's config. */
FG_API void fg_loco_batch_compute(fg_loco_batch *b, uint32_t begin, uint32_t end);
FG_API uint32_t fg_loco_batch_count(const fg_loco_batch *b);
FG_API uint32_t fg_loco_batch_capacity(const fg_loco_batch *b);
/* Read-back: the i-th job (state and output updated once computed); NULL past the count. */
FG_API const fg_loco_job *fg_loco_batch_job(const fg_loco_batch *b, uint32_t i);

/* }====================================================================== */

#ifdef __cplusplus
}
#endif
#endif
