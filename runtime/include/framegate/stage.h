/* SPDX-License-Identifier: MIT */
/*
** framegate/stage.h: the stage fighters stand on, as data: a floor, two walls, one-way
** platforms and solid blocks, all in fixed point (y grows upwards, x to the right). A ruleset
** may declare one; a world takes its stage from its default ruleset and a host may replace it.
**
** A fighter touches the stage at one point, its feet (its position). Every tick the movement
** phase moves that point along its velocity, first along x then along y, and the stage stops it:
** walls and the sides of blocks stop x; the floor, platform tops and block tops stop a fall
** (a landing); block bottoms and solid platforms stop a rise. What the point stands on after the
** move is the fighter's support, and in a world whose ground mode is FG_GROUND_STAGE it is the
** one source of grounded/airborne: the jump gate, landings and hit reactions all read it.
*/
#ifndef FRAMEGATE_STAGE_H
#define FRAMEGATE_STAGE_H

#include "framegate/base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FG_STAGE_MAX_PLATFORMS 16
#define FG_STAGE_MAX_BLOCKS 16
/* Stage coordinates stay within +-FG_STAGE_LIMIT (16384 units, the world's position limit). */
#define FG_STAGE_LIMIT FG_FX(16384)

/* A horizontal surface from x to x + w at height y. One-way: landed on from above, passed
** through from below and left by a drop-through (down + jump). Otherwise it also stops a rise. */
typedef struct fg_platform {
    fg_fx x, y, w;
    bool one_way;
} fg_platform;

/* A solid rectangle from (x, y) to (x + w, y + h): stood on, and stops movement from any side. */
typedef struct fg_block {
    fg_fx x, y, w, h;
} fg_block;

typedef struct fg_stage {
    fg_fx floor;              /* the ground everywhere between the walls */
    fg_fx wall_min, wall_max; /* x never leaves [wall_min, wall_max]: the corners */
    uint32_t nplatforms, nblocks;
    fg_platform platforms[FG_STAGE_MAX_PLATFORMS];
    fg_block blocks[FG_STAGE_MAX_BLOCKS];
} fg_stage;

/* What a fighter stands on: FG_SUPPORT_NONE (airborne), FG_SUPPORT_FLOOR, or a platform or
** block with its index in the low bits. */
#define FG_SUPPORT_NONE 0x00u
#define FG_SUPPORT_FLOOR 0x01u
#define FG_SUPPORT_PLATFORM 0x40u
#define FG_SUPPORT_BLOCK 0x80u
#define FG_SUPPORT_INDEX 0x3Fu

/* Where grounded/airborne comes from. */
typedef enum fg_ground_mode {
    FG_GROUND_DEFAULT = 0,  /* in a config: FG_GROUND_STAGE with rules, else FG_GROUND_CONTACTS */
    FG_GROUND_STAGE = 1,    /* computed from the stage after every movement */
    FG_GROUND_CONTACTS = 2  /* reported by the host's own physics (fg_world_report_contact) */
} fg_ground_mode;

/* What one move met. */
typedef struct fg_stage_contact {
    uint8_t support;   /* what the point stands on after the move */
    bool landed;       /* a fall was stopped by a surface */
    bool stopped_x;    /* a wall or a block's side stopped x */
    bool stopped_y;    /* a block's bottom or a solid platform stopped a rise */
} fg_stage_contact;

/* Floor 0, walls -400 and 400, nothing else. */
FG_API fg_stage fg_stage_default(void);
/* Every field in range: "stage.platforms[2].w: 0 is out of range, expected > 0". */
FG_API fg_status fg_stage_check(const fg_stage *s, fg_error *err);
/* The same as a path ("stage.platforms[2].w") and a message, for the ruleset's findings;
** false when the stage is valid. */
FG_API bool fg_stage_problem(const fg_stage *s, char *path, size_t path_size, char *msg,
                             size_t msg_size);
/* What the point (x, y) stands on; `drop` (a platform index + 1, 0 = none) is being dropped
** through and does not hold it. */
FG_API uint8_t fg_stage_support(const fg_stage *s, fg_fx x, fg_fx y, uint32_t drop);
/* Moves the point from (x0, y0) to (*x, *y), x first then y, stopping it where the stage
** says. */
FG_API fg_stage_contact fg_stage_move(const fg_stage *s, fg_fx x0, fg_fx y0, fg_fx *x, fg_fx *y,
                                      uint32_t drop);
/* The height of a support's surface (the floor's for FG_SUPPORT_NONE). */
FG_API fg_fx fg_stage_surface_y(const fg_stage *s, uint8_t support);
FG_API bool fg_stage_equal(const fg_stage *a, const fg_stage *b);
FG_API void fg_stage_hash(const fg_stage *s, fg_hasher *hs);
/* "floor", "platform 2", "block 1", "air". */
FG_API int fg_stage_support_name(uint8_t support, char *buf, size_t size);
FG_API const char *fg_ground_mode_name(fg_ground_mode m); /* "stage", "contacts" */

#ifdef __cplusplus
}
#endif
#endif
