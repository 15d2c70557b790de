/* SPDX-License-Identifier: MIT */
/*
** framegate/request.h: the request layer. A request (from a motion command, the AI, a replay or a
** script) asks for an action; the answer is accepted, queued, rejected, replaced or expired, always
** with a reason code and the numbers behind it, rendered to text only when someone reads it:
**
**   rejected: jab is in recovery (tick 9 of 13); cancel window 4-12 opens on hit, last attack whiffed
**   rejected: shoryuken costs 100 meter, have 40
**   queued: hadouken waits 3 ticks for jab's window 4-12
*/
#ifndef FRAMEGATE_REQUEST_H
#define FRAMEGATE_REQUEST_H

#include "framegate/action.h"
#include "framegate/base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FG_NO_ACTION 0xFFFFu
#define FG_RULE_TEXT_MAX 96

typedef enum fg_request_source {
    FG_REQ_COMMAND = 0, /* a motion completed */
    FG_REQ_AI = 1,
    FG_REQ_REPLAY = 2,
    FG_REQ_SCRIPT = 3,  /* fg_world_request / w:request from Lua */
    FG_REQ_QUEUE = 4    /* a queued request retried */
} fg_request_source;

typedef enum fg_decision_kind {
    FG_DECIDE_ACCEPTED = 0,
    FG_DECIDE_QUEUED = 1,
    FG_DECIDE_REJECTED = 2,
    FG_DECIDE_REPLACED = 3, /* a queued request superseded by a newer one for its layer */
    FG_DECIDE_EXPIRED = 4   /* a queued request whose wait ran out */
} fg_decision_kind;

typedef enum fg_reason {
    FG_R_FROM_NEUTRAL = 0,   /* accepted: the layer was in a neutral state */
    FG_R_CANCEL,             /* accepted through a cancel window */
    FG_R_LAYER_FREE,         /* accepted: nothing ran on the layer */
    FG_R_RULE_ACCEPT,        /* accepted because a request rule said so */
    FG_R_UNKNOWN_ACTION,
    FG_R_WRONG_GROUP,        /* needs grounded, is airborne (or the reverse) */
    FG_R_FORBIDDEN,          /* an action on another layer forbids it */
    FG_R_NO_CANCEL,          /* the running action has no window into it */
    FG_R_WINDOW_CLOSED,      /* a window names it but is not open now, or its condition fails */
    FG_R_WAIT_WINDOW,        /* queued: the window opens in `wait` ticks */
    FG_R_WAIT_HITSTOP,       /* queued: the entity is frozen for `wait` more ticks */
    FG_R_COST,               /* costs `cost` of a resource, has `have` */
    FG_R_RULE_REJECT,        /* a request rule rejected it (its text in rule_text) */
    FG_R_RULE_OVERRIDDEN,    /* a rule accepted it, the data's hard limit refused */
    FG_R_RULE_ERROR,         /* the rule raised: its candidates were dropped */
    FG_R_SUPERSEDED,         /* replaced by a newer request (other = the newer action) */
    FG_R_WAITED_OUT,         /* expired after waiting `wait` ticks */
    FG_R_LOST_PRIORITY,      /* another command won this tick (other = the winner) */
    FG_R_LAYER_TAKEN,        /* an action already started on this layer this tick */
    FG_R_RULE_QUEUE,         /* queued because a request rule said so */
    FG_R_WAIT_CONTACT,       /* queued: the window is open but needs the attack's contact, which
                                is not decided yet (up to `wait` ticks) */
    FG_R_FOLLOWUP_ONLY,      /* a follow-up asked for with no window leading to it (other = an
                                action whose window does) */
    FG_R_NOTHING_FITS,       /* an input several actions share fits none of them now (other =
                                the motion; group_have = the fighter's group) */
    FG_R_QUEUE_FULL,         /* the layer's FIFO queue already holds `wait` requests */
    FG_R_WINDOW_NEEDS_VAR    /* a window is open but its variable condition fails (resource =
                                the variable's id, cost..wait = the range, have = its value) */
} fg_reason;

/* fg_decision.queue: the position behind other waiting requests (bits 0-2), and whether the
** queue's policy decided (a replacement under "latest", an expiry). */
#define FG_QUEUE_POS_MASK 0x07u
#define FG_QUEUE_BY_POLICY 0x80u

/* A decision with everything its message needs. */
typedef struct fg_decision {
    fg_tick tick;
    uint32_t entity;
    uint16_t action;    /* requested */
    uint16_t current;   /* what ran on the layer, or FG_NO_ACTION */
    uint16_t other;     /* the newer request (replaced) or the winner (lost) */
    uint8_t kind;       /* fg_decision_kind */
    uint8_t reason;     /* fg_reason */
    uint8_t source;     /* fg_request_source */
    uint8_t layer;
    uint8_t window_on;  /* fg_contact of the window the message is about */
    uint8_t contact;    /* last attack's contact: 0 pending, FG_ON_HIT, FG_ON_BLOCK, FG_ON_WHIFF */
    int8_t group_have, group_need; /* group ids for FG_R_WRONG_GROUP */
    int8_t resource;
    uint8_t queue;      /* FG_QUEUE_POS_MASK | FG_QUEUE_BY_POLICY */
    int32_t elapsed, duration;   /* position of the running action: tick `elapsed` of `duration` */
    int32_t startup, active;     /* its phases, for "in recovery" */
    int32_t window_from, window_to;
    int32_t wait;                /* queued for / waited / frozen for, in ticks */
    int32_t cost, have;
    char rule_text[FG_RULE_TEXT_MAX];
} fg_decision;

FG_API const char *fg_decision_kind_name(fg_decision_kind k);
FG_API const char *fg_reason_name(fg_reason r);
FG_API const char *fg_request_source_name(fg_request_source s);
/* Renders a decision against the ruleset that made it: "rejected: shoryuken costs 100 meter,
** have 40". Returns what snprintf returns. */
FG_API int fg_decision_describe(const fg_ruleset *r, const fg_decision *d, char *buf, size_t size);

/* What a request rule (Lua, or any host callback) answers. */
typedef enum fg_verdict_kind {
    FG_VERDICT_DEFAULT = 0, /* let the data decide */
    FG_VERDICT_ACCEPT = 1,
    FG_VERDICT_QUEUE = 2,
    FG_VERDICT_REJECT = 3
} fg_verdict_kind;

typedef struct fg_verdict {
    fg_verdict_kind kind;
    int32_t queue_ticks;            /* FG_VERDICT_QUEUE: how long to wait */
    char text[FG_RULE_TEXT_MAX];    /* the rule's reason, shown in the decision */
} fg_verdict;

#ifdef __cplusplus
}
#endif
#endif
