/* SPDX-License-Identifier: MIT */
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

#include "framegate/action.h"
#include "framegate/base.h"
#include "framegate/input.h"
#include "framegate/request.h"

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
    FG_JUMP_COYOTE_EXPIRED,   /* the last grounded tick is older than the coyote window */
    FG_JUMP_DROP,             /* down + jump on a one-way platform: dropped through it */
    FG_JUMP_REFUSED           /* the gate let it through, the request layer refused the jump
                                 action (the request decision says why); the press stays buffered */
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
/* fg_jump_try in two steps, for a gate whose jump must also be allowed by something else (the
** world's jump action): the check changes nothing; the commit consumes the press and spends the
** permission of a check that returned FG_JUMP_OK. */
FG_API fg_jump_decision fg_jump_check(const fg_ground *g, const fg_buffer *buf, int jump_action,
                                      fg_tick now, const fg_jump_config *cfg);
FG_API void fg_jump_commit(fg_ground *g, fg_buffer *buf, const fg_jump_decision *d);
FG_API const char *fg_jump_result_name(fg_jump_result r);
/* "refused: jump permission spent (jumped at tick 31, no landing since)" and so on. */
FG_API int fg_jump_describe(const fg_jump_decision *d, char *buf, size_t size);
FG_API void fg_ground_hash(const fg_ground *g, fg_hasher *hs);

/* }====================================================================== */

/* {====================================================================== action instances */

/* One layer's running action. Plain data in the world's state. `seq` is the action sequence,
** assigned by the world when the action starts (monotonic per entity and layer), never by
** animation playback: it is the identity animation events are stamped with. What every tick
** reads and writes comes first (24 bytes), what a start or a hit writes last: a fighter's
** record keeps its first two layers' first 24 bytes in one cache line. */
typedef struct fg_instance {
    uint16_t action;   /* FG_NO_ACTION: nothing runs */
    uint16_t version;  /* the ruleset version it started with (kept across reloads) */
    int32_t cycle;     /* completed loops */
    int32_t elapsed;   /* ticks advanced since it started (frozen ticks do not count) */
    int32_t duration;  /* its length (hitstun and blockstun take the attacker's value) */
    fg_tick started;
    int64_t seq;
    uint8_t contact;   /* 0 pending, FG_ON_HIT, FG_ON_BLOCK, FG_ON_WHIFF */
    uint8_t reserved[7];
} fg_instance;

/* What a tick of an action is, for the frame meter and the debug view. */
typedef enum fg_phase {
    FG_PHASE_NEUTRAL = 0,  /* free: idle, walk, crouch */
    FG_PHASE_STARTUP = 1,
    FG_PHASE_ACTIVE = 2,
    FG_PHASE_RECOVERY = 3,
    FG_PHASE_CANCEL = 4,   /* a cancel window is open */
    FG_PHASE_STUN = 5,     /* hitstun or blockstun */
    FG_PHASE_HITSTOP = 6,  /* frozen */
    FG_PHASE_BUFFERED = 7, /* a request waits in the queue */
    FG_PHASE_AIRBORNE = 8  /* a neutral airborne state (jump) */
} fg_phase;

/* One character per phase: . s A r c x = b ^ */
FG_API char fg_phase_char(fg_phase p);
FG_API const char *fg_phase_name(fg_phase p);

/* }====================================================================== */

#ifdef __cplusplus
}
#endif
#endif
