/*
** framegate/behavior.h: the behavior layer: what an entity may do now and how it advances.
**
** The jump gate: a jump needs three things at once. A press inside the jump buffer (input came a
** little early), a grounded tick inside the coyote window (the player ran off a ledge a little
** before pressing), and the jump permission, which a jump spends and only a new landing after
** leaving the ground restores. The buffer alone cannot stop a second press from reusing the same
** ground contact; the permission can. Each refusal names the rule that refused.
*/
#ifndef FRAMEGATE_BEHAVIOR_H
#define FRAMEGATE_BEHAVIOR_H

#include "framegate/base.h"
#include "framegate/input.h"

#ifdef __cplusplus
extern "C" {
#endif

/* {====================================================================== jump gate */

typedef struct fg_jump_config {
    fg_tick buffer_ticks; /* a press this many ticks old still counts (>= 0) */
    fg_tick coyote_ticks; /* a grounded tick this many ticks old still counts (>= 0) */
} fg_jump_config;

/* Grounded history of one entity. Plain data: snapshots and hashes with the world. */
typedef struct fg_ground {
    bool has_history;      /* false for an entity spawned in the air until it first lands */
    bool permission_spent; /* a jump used the current ground contact */
    bool left_ground;      /* an airborne tick was seen since that jump */
    bool grounded;         /* the latest contact report */
    fg_tick last_grounded; /* the latest valid grounded tick */
    fg_tick landed_at;     /* the tick of the landing that last restored the permission */
} fg_ground;

typedef enum fg_jump_result {
    FG_JUMP_OK = 0,
    FG_JUMP_NO_PRESS,         /* no unconsumed press inside the buffer window */
    FG_JUMP_NEVER_GROUNDED,   /* spawned in the air and has not landed yet */
    FG_JUMP_PERMISSION_SPENT, /* already jumped off this contact; needs a new landing */
    FG_JUMP_COYOTE_EXPIRED    /* the last grounded tick is older than the coyote window */
} fg_jump_result;

typedef struct fg_jump_decision {
    fg_jump_result result;
    fg_tick tick;          /* when it was decided */
    fg_edge_ref press;     /* the press used (OK) or found (refusals other than NO_PRESS) */
    fg_tick press_tick;
    fg_tick last_grounded; /* for the messages */
    fg_tick window;        /* the window that applied */
    fg_tick press_until;   /* the last tick the press stays buffered */
} fg_jump_decision;

FG_API fg_status fg_jump_config_check(const fg_jump_config *cfg, fg_error *err);
/* An entity spawned on the ground has a history from its spawn tick; one in the air has none. */
FG_API void fg_ground_init(fg_ground *g, bool grounded, fg_tick tick);
/* The contact report for a tick (from the host's physics). A grounded tick refreshes the last
** grounded tick; it restores the permission only on the first landing, or on a landing after an
** airborne tick that followed the jump (contact right after take-off restores nothing). */
FG_API void fg_ground_report(fg_ground *g, fg_tick tick, bool grounded);
/* Tries to jump at `now`: finds the press, checks history, permission and window in that order,
** and on success consumes exactly that press and spends the permission. */
FG_API fg_jump_decision fg_jump_try(fg_ground *g, fg_buffer *buf, int jump_action, fg_tick now,
                                    const fg_jump_config *cfg);
FG_API const char *fg_jump_result_name(fg_jump_result r);
/* "refused: jump permission spent (jumped at tick 31, no landing since)" and so on. */
FG_API int fg_jump_describe(const fg_jump_decision *d, char *buf, size_t size);
FG_API void fg_ground_hash(const fg_ground *g, fg_hasher *hs);

/* }====================================================================== */

#ifdef __cplusplus
}
#endif
#endif
