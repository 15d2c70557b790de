/* SPDX-License-Identifier: MIT */
/*
** request.c: the request layer: the data's default decision (fg_decide), the merge of the host's
** request rule (a Lua verdict) with it, the one cost check both use, and the words for every
** decision.
**
** fg_decide is a pure function of the ruleset data and one entity's state: it never changes
** anything, so the same function answers "what happens if" (fg_world_evaluate), decides real
** requests in the tick, and retries queued ones. The checks run in a fixed order, and the first
** that fails is the reason: the action exists, the entity is in the right group, no other layer
** forbids it, the running action lets it start now (neutral, or an open cancel window) or soon
** (a window that opens within its buffer: queued), and the resources cover its cost.
*/
#include "internal.h"

#include <stdio.h>
#include <string.h>

/* {====================================================================== names */

const char *fg_decision_kind_name(fg_decision_kind k) {
    static const char *const names[] = {"accepted", "queued", "rejected", "replaced", "expired"};
    return (unsigned)k < 5 ? names[k] : "unknown";
}

const char *fg_reason_name(fg_reason r) {
    static const char *const names[] = {
        "from_neutral", "cancel",      "layer_free",   "rule_accept",   "unknown_action",
        "wrong_group",  "forbidden",   "no_cancel",    "window_closed", "wait_window",
        "wait_hitstop", "cost",        "rule_reject",  "rule_overridden", "rule_error",
        "superseded",   "waited_out",  "lost_priority", "layer_taken",  "rule_queue",
        "wait_contact", "followup_only", "nothing_fits", "queue_full",  "window_needs_var",
    };
    return (unsigned)r < sizeof names / sizeof names[0] ? names[r] : "unknown";
}

const char *fg_request_source_name(fg_request_source s) {
    static const char *const names[] = {"command", "ai", "replay", "script", "queue"};
    return (unsigned)s < 5 ? names[s] : "unknown";
}

char fg_phase_char(fg_phase p) {
    static const char chars[] = ".sArcx=b^";
    return (unsigned)p < sizeof chars - 1 ? chars[p] : '?';
}

const char *fg_phase_name(fg_phase p) {
    static const char *const names[] = {"neutral", "startup", "active",   "recovery", "cancel",
                                        "stun",    "hitstop", "buffered", "airborne"};
    return (unsigned)p < 9 ? names[p] : "unknown";
}

/* }====================================================================== */

/* {====================================================================== state queries */

/* A group id in the request's ruleset: the body's action may come from an older version, whose
** group ids can differ, so the group is carried over by name. */
int fg_entity_group(const fg_decide_ctx *c, const fg_entity_state *e) {
    const fg_instance *body = &e->layers[0];
    if (body->action == FG_NO_ACTION) return c->rules->grounded;
    const fg_ruleset *r = c->versions[body->version];
    int g = r->rt[body->action].group;
    if (r == c->rules) return g;
    for (uint32_t i = 0; i < c->rules->ngroups; i++)
        if (strcmp(c->rules->groups[i], r->groups[g]) == 0) return (int)i;
    return -1;
}

static bool contact_matches(uint8_t on, uint8_t contact) {
    switch (on) {
    case FG_ON_ALWAYS: return true;
    case FG_ON_HIT: return contact == FG_ON_HIT;
    case FG_ON_BLOCK: return contact == FG_ON_BLOCK;
    case FG_ON_WHIFF: return contact == FG_ON_WHIFF;
    case FG_ON_CONTACT: return contact == FG_ON_HIT || contact == FG_ON_BLOCK;
    }
    return false;
}

/* A window whose contact condition is not decided yet (the attack has not resolved) may still
** open: a request may wait for it. */
bool fg_contact_may_match(uint8_t on, uint8_t contact) {
    return contact == 0 || contact_matches(on, contact);
}

bool fg_window_open_for(const fg_action_rt *a, const fg_instance *inst, uint32_t target,
                        int *window) {
    for (uint32_t w = 0; w < a->nwindows; w++) {
        const fg_window_rt *win = &a->windows[w];
        if (inst->elapsed < win->from || inst->elapsed > win->to) continue;
        if (!fg_action_set_has(&win->into, target)) continue;
        if (!contact_matches(win->on, inst->contact)) continue;
        if (window) *window = (int)w;
        return true;
    }
    return false;
}

fg_phase fg_instance_phase(const fg_ruleset *r, const fg_instance *inst, const fg_entity_state *e,
                           fg_tick tick, uint32_t layer) {
    fg_phase p = fg_action_phase(r, inst, e, tick);
    if (inst->action != FG_NO_ACTION && p != FG_PHASE_HITSTOP && p != FG_PHASE_STUN &&
        fg_entity_has_queued(e, layer))
        return FG_PHASE_BUFFERED;
    return p;
}

/* A window's variable condition against the value the fighter has. */
static bool when_in_range(const fg_window_rt *win, int32_t have) {
    return have >= win->when_min && have <= win->when_max;
}

/* Whether a window's variable condition holds, for the phase a meter shows. It reads the
** variable by the id of the action's own version, which is the entity's unless a reload moved
** the variable; the decision (open_window) looks it up by name and stays the authority. */
static bool window_shows_open(const fg_ruleset *r, const fg_window_rt *win,
                              const fg_entity_state *e) {
    if (win->when_var < 0) return true;
    if ((uint32_t)win->when_var >= r->nvars) return false;
    return when_in_range(win, e->combat.vars[win->when_var]);
}

fg_phase fg_action_phase(const fg_ruleset *r, const fg_instance *inst, const fg_entity_state *e,
                         fg_tick tick) {
    if (inst->action == FG_NO_ACTION) return FG_PHASE_NEUTRAL;
    if (fg_entity_frozen(e, tick)) return FG_PHASE_HITSTOP;
    const fg_action_rt *a = &r->rt[inst->action];
    /* Hit reactions (hitstun, blockstun, those a hit names) and lying down after a knockdown. */
    if (inst->action == r->hitstun || inst->action == r->blockstun || a->hits.is_reaction ||
        inst->action == r->knockdown)
        return FG_PHASE_STUN;
    if (a->neutral) return (int)a->group == r->airborne ? FG_PHASE_AIRBORNE : FG_PHASE_NEUTRAL;
    if (inst->elapsed < a->startup) return FG_PHASE_STARTUP;
    if (inst->elapsed < a->startup + a->active) return FG_PHASE_ACTIVE;
    /* In recovery, an open cancel window is what a player needs to see. */
    for (uint32_t w = 0; w < a->nwindows; w++) {
        const fg_window_rt *win = &a->windows[w];
        if (inst->elapsed >= win->from && inst->elapsed <= win->to &&
            contact_matches(win->on, inst->contact) && window_shows_open(r, win, e))
            return FG_PHASE_CANCEL;
    }
    if ((int)a->group == r->airborne && a->active == 0) return FG_PHASE_AIRBORNE;
    return FG_PHASE_RECOVERY;
}

/* }====================================================================== */

/* {====================================================================== the decision */

static fg_decision blank(const fg_decide_ctx *c, const fg_entity_state *e, uint32_t action,
                         fg_request_source src) {
    fg_decision d;
    memset(&d, 0, sizeof d);
    d.tick = c->tick;
    d.entity = e->id;
    d.action = (uint16_t)action;
    d.current = FG_NO_ACTION;
    d.other = FG_NO_ACTION;
    d.source = (uint8_t)src;
    d.resource = -1;
    d.group_have = d.group_need = -1;
    return d;
}

/* An action id of one ruleset version in another: ids are positions in sorted names, so they
** shift when a reload adds or removes actions. FG_NO_ACTION when the other has no such action. */
static uint32_t id_in(const fg_ruleset *from, uint32_t id, const fg_ruleset *to) {
    if (from == to || id == FG_NO_ACTION) return id;
    int found = fg_ruleset_find_action(to, from->defs[id].name);
    return found < 0 ? FG_NO_ACTION : (uint32_t)found;
}

/* The running action goes into the decision as an id of the request's ruleset, so one ruleset
** names everything in the message. */
static void note_current(fg_decision *d, const fg_decide_ctx *c, const fg_instance *inst) {
    if (inst->action == FG_NO_ACTION) return;
    const fg_ruleset *ir = c->versions[inst->version];
    const fg_action_rt *a = &ir->rt[inst->action];
    d->current = (uint16_t)id_in(ir, inst->action, c->rules);
    d->elapsed = inst->elapsed;
    d->duration = inst->duration;
    d->startup = a->startup;
    d->active = a->active;
    d->contact = inst->contact;
}

static fg_decision verdict(fg_decision d, fg_decision_kind kind, fg_reason reason) {
    d.kind = (uint8_t)kind;
    d.reason = (uint8_t)reason;
    return d;
}

/* The one cost check: whether the entity's resources cover every cost of `want`. When one does
** not, the first short resource goes into the decision with its cost and what the entity has. */
static bool paid(fg_decision *d, const fg_ruleset *r, const fg_action_rt *want,
                 const fg_entity_state *e) {
    for (uint32_t k = 0; k < r->nresources; k++)
        if (want->cost[k] > e->res[k]) {
            d->resource = (int8_t)k;
            d->cost = want->cost[k];
            d->have = e->res[k];
            return false;
        }
    return true;
}

/* Whether a window's variable condition holds. The window belongs to ruleset `ir` (the version
** its action started with); the entity's values are by the ids of its current rules, so a
** variable is looked up by name when the two differ (a reload in between). */
static bool when_holds(const fg_decide_ctx *c, const fg_entity_state *e, const fg_ruleset *ir,
                       const fg_window_rt *win, int *var, int32_t *have) {
    *var = -1;
    if (win->when_var < 0) return true;
    int id = ir == c->rules ? win->when_var : fg_ruleset_find_var(c->rules,
                                                                  ir->vars[win->when_var].name);
    if (id < 0) return false;
    *var = id;
    *have = e->combat.vars[id];
    return when_in_range(win, *have);
}

/* fg_window_open_for with the windows' variable conditions. When a window is open for target
** but for its condition, *window names it and the decision gets what the message needs. */
static bool open_window(const fg_decide_ctx *c, const fg_entity_state *e, const fg_ruleset *ir,
                        const fg_action_rt *a, const fg_instance *inst, uint32_t target,
                        int *window, fg_decision *d) {
    int refused = -1, var = -1;
    int32_t have = 0;
    for (uint32_t w = 0; w < a->nwindows; w++) {
        const fg_window_rt *win = &a->windows[w];
        if (inst->elapsed < win->from || inst->elapsed > win->to) continue;
        if (!fg_action_set_has(&win->into, target)) continue;
        if (!contact_matches(win->on, inst->contact)) continue;
        int v;
        int32_t h = 0;
        if (when_holds(c, e, ir, win, &v, &h)) {
            *window = (int)w;
            return true;
        }
        if (refused < 0) {
            refused = (int)w;
            var = v;
            have = h;
        }
    }
    *window = refused;
    if (refused >= 0) {
        const fg_window_rt *win = &a->windows[refused];
        d->window_from = win->from;
        d->window_to = win->to;
        d->window_on = win->on;
        d->resource = (int8_t)var;
        d->cost = win->when_min;
        d->wait = win->when_max;
        d->have = have;
    }
    return false;
}

/* The first action (by id) with a cancel window into `action`, for messages. */
static uint32_t first_leading_to(const fg_ruleset *r, uint32_t action) {
    for (uint32_t k = 0; k < r->nactions; k++)
        for (uint32_t w = 0; w < r->rt[k].nwindows; w++)
            if (k != action && fg_action_set_has(&r->rt[k].windows[w].into, action)) return k;
    return FG_NO_ACTION;
}

fg_decision fg_decide(const fg_decide_ctx *c, const fg_entity_state *e, uint32_t action,
                      fg_request_source src) {
    fg_decision d = blank(c, e, action, src);
    const fg_ruleset *r = c->rules;
    if (action >= r->nactions) return verdict(d, FG_DECIDE_REJECTED, FG_R_UNKNOWN_ACTION);
    const fg_action_rt *want = &r->rt[action];
    uint32_t layer = want->layer;
    d.layer = (uint8_t)layer;
    const fg_instance *inst = &e->layers[layer];
    note_current(&d, c, inst);

    /* Frozen: nothing is decided against a state that is about to change; wait it out. */
    if (fg_entity_frozen(e, c->tick)) {
        d.wait = (int32_t)(e->frozen_until - c->tick);
        return verdict(d, FG_DECIDE_QUEUED, FG_R_WAIT_HITSTOP);
    }
    int group = fg_entity_group(c, e);
    if (want->requires >= 0 && want->requires != group) {
        d.group_have = (int8_t)group;
        d.group_need = want->requires;
        return verdict(d, FG_DECIDE_REJECTED, FG_R_WRONG_GROUP);
    }
    for (uint32_t l = 0; l < r->nlayers; l++) {
        const fg_instance *o = &e->layers[l];
        if (l == layer || o->action == FG_NO_ACTION) continue;
        const fg_ruleset *orr = c->versions[o->version];
        const fg_action_rt *oa = &orr->rt[o->action];
        uint32_t as_there = id_in(r, action, orr); /* the forbid set is in o's version */
        if (as_there != FG_NO_ACTION && fg_action_set_has(&oa->tagged_forbid, as_there)) {
            d.other = (uint16_t)id_in(orr, o->action, r);
            d.window_from = (int32_t)l; /* the layer that forbids, for the message */
            return verdict(d, FG_DECIDE_REJECTED, FG_R_FORBIDDEN);
        }
    }
    fg_reason ok = FG_R_LAYER_FREE;
    if (want->followup && (inst->action == FG_NO_ACTION ||
                           c->versions[inst->version]->rt[inst->action].neutral)) {
        d.other = (uint16_t)first_leading_to(r, action);
        return verdict(d, FG_DECIDE_REJECTED, FG_R_FOLLOWUP_ONLY);
    }
    if (inst->action != FG_NO_ACTION) {
        const fg_ruleset *ir = c->versions[inst->version];
        const fg_action_rt *cur = &ir->rt[inst->action];
        /* An instance in flight keeps the version it started with: its windows name actions of
        ** that version, so the request is looked up there by name. */
        uint32_t target = id_in(r, action, ir);
        int w = -1;
        if (cur->neutral) {
            ok = FG_R_FROM_NEUTRAL;
        } else if (target != FG_NO_ACTION && open_window(c, e, ir, cur, inst, target, &w, &d)) {
            ok = FG_R_CANCEL;
            d.window_from = cur->windows[w].from;
            d.window_to = cur->windows[w].to;
            d.window_on = cur->windows[w].on;
        } else if (w >= 0) {
            return verdict(d, FG_DECIDE_REJECTED, FG_R_WINDOW_NEEDS_VAR);
        } else {
            /* Not now. A window that names it and opens within its buffer: wait for it. The
            ** nearest such window is the one the message talks about. */
            int best = -1;
            for (uint32_t i = 0; i < cur->nwindows; i++) {
                const fg_window_rt *win = &cur->windows[i];
                if (target == FG_NO_ACTION || !fg_action_set_has(&win->into, target)) continue;
                if (best < 0) best = (int)i;
                bool in_time = inst->elapsed >= win->from && inst->elapsed <= win->to;
                if (in_time && inst->contact == 0 && win->on != FG_ON_ALWAYS) {
                    /* Open by time, but whether it opens at all depends on the hit. */
                    d.window_from = win->from;
                    d.window_to = win->to;
                    d.window_on = win->on;
                    int32_t left = cur->startup + cur->active - inst->elapsed;
                    d.wait = left > 1 ? left : 1;
                    return verdict(d, FG_DECIDE_QUEUED, FG_R_WAIT_CONTACT);
                }
                if (inst->elapsed < win->from && win->from - inst->elapsed <= win->buffer &&
                    fg_contact_may_match(win->on, inst->contact)) {
                    d.window_from = win->from;
                    d.window_to = win->to;
                    d.window_on = win->on;
                    d.wait = win->from - inst->elapsed;
                    return verdict(d, FG_DECIDE_QUEUED, FG_R_WAIT_WINDOW);
                }
            }
            if (best < 0) return verdict(d, FG_DECIDE_REJECTED, FG_R_NO_CANCEL);
            d.window_from = cur->windows[best].from;
            d.window_to = cur->windows[best].to;
            d.window_on = cur->windows[best].on;
            return verdict(d, FG_DECIDE_REJECTED, FG_R_WINDOW_CLOSED);
        }
    }
    if (!paid(&d, r, want, e)) return verdict(d, FG_DECIDE_REJECTED, FG_R_COST);
    return verdict(d, FG_DECIDE_ACCEPTED, ok);
}

/* }====================================================================== */

/* {====================================================================== routing an input */

/* Whether a window of the action the layer goes on with leads to `action`: the last request
** waiting on the layer (it starts before anything asked now), else the running action. */
static bool chain_leads_to(const fg_decide_ctx *c, const fg_entity_state *e, uint32_t layer,
                           uint32_t action) {
    const fg_ruleset *r = c->rules;
    const fg_queued *q = e->queued[layer];
    int last = -1;
    for (int k = 0; k < FG_QUEUE_MAX && q[k].action != FG_NO_ACTION; k++) last = k;
    const fg_ruleset *from = r;
    uint32_t id = FG_NO_ACTION;
    if (last >= 0) {
        id = q[last].action; /* queued requests name ids of the current version */
    } else if (e->layers[layer].action != FG_NO_ACTION) {
        from = c->versions[e->layers[layer].version];
        id = e->layers[layer].action;
    }
    if (id == FG_NO_ACTION || id >= from->nactions) return false;
    uint32_t target = id_in(r, action, from);
    if (target == FG_NO_ACTION) return false;
    const fg_action_rt *a = &from->rt[id];
    for (uint32_t w = 0; w < a->nwindows; w++)
        if (fg_action_set_has(&a->windows[w].into, target)) return true;
    return false;
}

int fg_route_motion(const fg_decide_ctx *c, const fg_entity_state *e, uint32_t motion,
                    fg_decision *none) {
    const fg_ruleset *r = c->rules;
    if (!r->motion_set || motion >= fg_motion_count(r->motion_set)) return -1;
    uint16_t key = r->motion_key[motion];
    int group = fg_entity_group(c, e);
    int chained = -1, starter = -1, first = -1, n = 0;
    for (uint32_t a = 0; a < r->nactions; a++) {
        const fg_action_rt *rt = &r->rt[a];
        if (rt->motion != key) continue;
        n++;
        if (first < 0) first = (int)a;
        /* Already waiting: the same press again (a mash) is that request, not the next step. */
        for (int k = 0; k < FG_QUEUE_MAX && e->queued[rt->layer][k].action != FG_NO_ACTION; k++)
            if (e->queued[rt->layer][k].action == a) return (int)a;
        if (chained < 0 && chain_leads_to(c, e, rt->layer, a)) chained = (int)a;
        else if (!rt->followup && starter < 0 && (rt->requires < 0 || rt->requires == group))
            starter = (int)a;
    }
    if (chained >= 0) return chained;
    if (starter >= 0) return starter;
    if (n <= 1) return first; /* one action: its own decision says why not */
    *none = blank(c, e, (uint32_t)first, FG_REQ_COMMAND);
    none->other = key;
    none->group_have = (int8_t)group;
    none->layer = r->rt[first].layer;
    note_current(none, c, &e->layers[r->rt[first].layer]);
    *none = verdict(*none, FG_DECIDE_REJECTED, FG_R_NOTHING_FITS);
    return -1;
}

/* }====================================================================== */

/* {====================================================================== the host's rule */

/* Copies text, cutting it to fit: messages longer than a trace field are truncated on purpose. */
static void copy_text(char *dst, size_t size, const char *src) {
    size_t n = 0;
    while (n + 1 < size && src[n]) {
        dst[n] = src[n];
        n++;
    }
    dst[n] = '\0';
}

/* A rule's error in the few bytes a decision holds: its first line, and when it is still too
** long, cut at a word with "..."; the trace keeps the whole message. Rule files are named relative
** to their ruleset's folder ("chars/ryu.lua:12: ..."), which stays; a file named by an absolute
** or shortened path ("/home/.../host.lua:12", "...ders/host.lua:12": a function the host passed
** in) is named by its last part, so a deep checkout does not push the reason out. */
static void copy_rule_error(char *dst, size_t size, const char *msg) {
    const char *colon = strstr(msg, ": ");
    if (colon && (msg[0] == '/' || strncmp(msg, "...", 3) == 0)) {
        const char *slash = NULL;
        for (const char *p = msg; p < colon; p++)
            if (*p == '/') slash = p;
        if (slash) msg = slash + 1;
    }
    size_t len = strcspn(msg, "\n");
    if (len < size) {
        memcpy(dst, msg, len);
        dst[len] = '\0';
        return;
    }
    size_t cut = size - 4;
    while (cut > 0 && msg[cut] != ' ') cut--;
    if (cut == 0) cut = size - 4;
    while (cut > 0 && ((unsigned char)msg[cut] & 0xC0) == 0x80) cut--; /* whole characters */
    memcpy(dst, msg, cut);
    memcpy(dst + cut, "...", 4);
}

/* Asks the host's request rule, when the entity's ruleset has one, and merges its verdict with
** the data's decision. C keeps the hard limits: an action must exist and be paid for. */
fg_decision fg_request_merge_rule(fg_world *w, fg_entity_state *es, fg_decision d) {
    /* Nothing to ask about an unknown action, nor yet about one that waits out a freeze (it is
    ** decided, rule included, when the freeze ends); checked before asking the host. */
    if (d.reason == FG_R_UNKNOWN_ACTION || d.reason == FG_R_WAIT_HITSTOP) return d;
    if (!w->hooks.request || !w->hooks.has_rule ||
        !w->hooks.has_rule(w->hooks.ud, w, es->rules_slot))
        return d;
    fg_verdict v;
    memset(&v, 0, sizeof v);
    fg_error err; /* set by hand, not zeroed: this runs on every request the rule sees */
    err.buf[0] = '\0';
    err.spill = NULL;
    w->hook_text = false; /* only this call's message may reach the record */
    fg_vars_rule_begin(w, es);
    fg_status st = w->hooks.request(w->hooks.ud, w, &d, &v, &err);
    fg_vars_rule_end(w, st != FG_OK);
    if (st != FG_OK) {
        d.kind = FG_DECIDE_REJECTED;
        d.reason = FG_R_RULE_ERROR;
        copy_rule_error(d.rule_text, sizeof d.rule_text, fg_error_message(&err));
        fg_world_trace_rule_error(w, d.tick, es->id, fg_error_message(&err));
        fg_error_clear(&err);
        return d;
    }
    copy_text(d.rule_text, sizeof d.rule_text, v.text);
    switch (v.kind) {
    case FG_VERDICT_DEFAULT: break;
    case FG_VERDICT_ACCEPT:
        if (d.reason == FG_R_COST) {
            d.reason = FG_R_RULE_OVERRIDDEN;
        } else if (d.kind != FG_DECIDE_ACCEPTED) {
            /* Costs are checked here too: the data's decision may have stopped before them. */
            const fg_ruleset *r = fg_world_rules_of(w, es);
            d.kind = FG_DECIDE_ACCEPTED;
            d.reason = FG_R_RULE_ACCEPT;
            if (!paid(&d, r, &r->rt[d.action], es)) {
                d.kind = FG_DECIDE_REJECTED;
                d.reason = FG_R_RULE_OVERRIDDEN;
            }
        }
        break;
    case FG_VERDICT_QUEUE:
        d.kind = FG_DECIDE_QUEUED;
        d.reason = FG_R_RULE_QUEUE;
        d.wait = v.queue_ticks > 0 ? v.queue_ticks : 1;
        break;
    case FG_VERDICT_REJECT:
        d.kind = FG_DECIDE_REJECTED;
        d.reason = FG_R_RULE_REJECT;
        break;
    }
    return d;
}

/* }====================================================================== */

/* {====================================================================== words */

static const char *action_name(const fg_ruleset *r, uint32_t id) {
    return id < r->nactions ? r->defs[id].name : "(none)";
}

static const char *phase_word(const fg_decision *d) {
    if (d->elapsed < d->startup) return "startup";
    if (d->elapsed < d->startup + d->active) return "active";
    return "recovery";
}

static const char *contact_words(uint8_t contact) {
    switch (contact) {
    case FG_ON_HIT: return "last attack hit";
    case FG_ON_BLOCK: return "last attack was blocked";
    case FG_ON_WHIFF: return "last attack whiffed";
    default: return "the attack has not connected yet";
    }
}

/* "jab is in recovery (tick 9 of 13)"; a stun has no phases: "fighter is in hitstun (tick 3 of
** 13)". */
static int where(const fg_ruleset *r, const fg_decision *d, char *buf, size_t size) {
    if (d->current != FG_NO_ACTION && (d->current == r->hitstun || d->current == r->blockstun))
        return snprintf(buf, size, "fighter is in %s (tick %d of %d)", action_name(r, d->current),
                        d->elapsed, d->duration);
    return snprintf(buf, size, "%s is in %s (tick %d of %d)", action_name(r, d->current),
                    phase_word(d), d->elapsed, d->duration);
}

static const char *group_name(const fg_ruleset *r, int g) {
    return g >= 0 && (uint32_t)g < r->ngroups ? r->groups[g] : "(none)";
}

/* "rejected: input P asks for punch1 or punch2, and none fits: punch1 needs grounded (fighter
** is airborne); punch2 is a follow-up and no window of jump leads to it". */
static int describe_nothing_fits(const fg_ruleset *r, const fg_decision *d, char *buf,
                                 size_t size) {
    size_t n = 0;
#define PUT(...)                                                                                 \
    do {                                                                                         \
        int k_ = snprintf(buf + (n < size ? n : size), n < size ? size - n : 0, __VA_ARGS__);    \
        if (k_ > 0) n += (size_t)k_;                                                             \
    } while (0)
    const char *input = d->action < r->nactions && r->defs[d->action].input[0]
                            ? r->defs[d->action].input
                            : r->motion_set ? fg_motion_name(r->motion_set, d->other) : "?";
    PUT("rejected: input %s asks for ", input);
    uint32_t count = 0, total = 0;
    for (uint32_t a = 0; a < r->nactions; a++) total += r->rt[a].motion == d->other;
    for (uint32_t a = 0; a < r->nactions; a++) {
        if (r->rt[a].motion != d->other) continue;
        count++;
        PUT("%s%s", r->defs[a].name, count == total ? "" : count + 1 == total ? " or " : ", ");
    }
    PUT(", and none fits:");
    count = 0;
    for (uint32_t a = 0; a < r->nactions; a++) {
        const fg_action_rt *rt = &r->rt[a];
        if (rt->motion != d->other) continue;
        PUT("%s %s", count++ ? ";" : "", r->defs[a].name);
        if (rt->followup)
            PUT(" is a follow-up and no window of %s leads to it", action_name(r, d->current));
        else
            PUT(" needs %s (fighter is %s)", group_name(r, rt->requires), group_name(r, d->group_have));
    }
#undef PUT
    return (int)n;
}

static int describe_reason(const fg_ruleset *r, const fg_decision *d, char *buf, size_t size);

/* The decision's words, then what the queue's policy had to do with it. */
int fg_decision_describe(const fg_ruleset *r, const fg_decision *d, char *buf, size_t size) {
    int n = describe_reason(r, d, buf, size);
    if (n < 0) return n;
    size_t at = (size_t)n < size ? (size_t)n : size;
    size_t room = size - at;
    uint32_t pos = d->queue & FG_QUEUE_POS_MASK;
    const char *order = fg_queue_order_name(r->queue.order);
    int k = 0;
    if (d->kind == FG_DECIDE_QUEUED && pos > 0)
        k = snprintf(buf + at, room, ", behind %s (%s queue, %u of %u)", action_name(r, d->other),
                     order, pos + 1, r->queue.depth);
    else if (d->kind == FG_DECIDE_REPLACED && (d->queue & FG_QUEUE_BY_POLICY))
        k = snprintf(buf + at, room, " (queue: %s)", order);
    else if (d->kind == FG_DECIDE_EXPIRED && (d->queue & FG_QUEUE_BY_POLICY))
        k = snprintf(buf + at, room, " (queue expiry %d)", (int)r->queue.expiry);
    return n + (k > 0 ? k : 0);
}

static int describe_reason(const fg_ruleset *r, const fg_decision *d, char *buf, size_t size) {
    const char *want = action_name(r, d->action);
    char at[128];
    switch ((fg_reason)d->reason) {
    case FG_R_FROM_NEUTRAL:
        return snprintf(buf, size, "accepted: %s from %s", want, action_name(r, d->current));
    case FG_R_CANCEL:
        return snprintf(buf, size, "accepted: %s cancels %s at tick %d (window %d-%d on %s)",
                        want, action_name(r, d->current), d->elapsed, d->window_from,
                        d->window_to, fg_contact_name((fg_contact)d->window_on));
    case FG_R_LAYER_FREE: return snprintf(buf, size, "accepted: %s", want);
    case FG_R_RULE_ACCEPT:
        if (d->rule_text[0])
            return snprintf(buf, size, "accepted by rule: %s (%s)", want, d->rule_text);
        return snprintf(buf, size, "accepted by rule: %s", want);
    case FG_R_UNKNOWN_ACTION:
        return snprintf(buf, size, "rejected: action id %u does not exist", d->action);
    case FG_R_WRONG_GROUP:
        return snprintf(buf, size, "rejected: %s needs %s, fighter is %s", want,
                        group_name(r, d->group_need), group_name(r, d->group_have));
    case FG_R_FORBIDDEN:
        return snprintf(buf, size, "rejected: %s is forbidden while %s runs on layer %s", want,
                        action_name(r, d->other),
                        d->window_from >= 0 && (uint32_t)d->window_from < r->nlayers
                            ? r->layers[d->window_from]
                            : "?");
    case FG_R_NO_CANCEL:
        where(r, d, at, sizeof at);
        return snprintf(buf, size, "rejected: %s; it has no cancel into %s", at, want);
    case FG_R_WINDOW_CLOSED:
        where(r, d, at, sizeof at);
        if (d->window_on == FG_ON_ALWAYS || contact_matches(d->window_on, d->contact))
            return snprintf(buf, size, "rejected: %s; cancel window %d-%d %s", at, d->window_from,
                            d->window_to, d->elapsed < d->window_from ? "is not open yet"
                                                                      : "has closed");
        return snprintf(buf, size, "rejected: %s; cancel window %d-%d opens on %s, %s", at,
                        d->window_from, d->window_to, fg_contact_name((fg_contact)d->window_on),
                        contact_words(d->contact));
    case FG_R_WAIT_WINDOW:
        return snprintf(buf, size, "queued: %s waits %d tick%s for %s's window %d-%d", want,
                        d->wait, d->wait == 1 ? "" : "s", action_name(r, d->current),
                        d->window_from, d->window_to);
    case FG_R_WAIT_CONTACT:
        return snprintf(buf, size, "queued: %s waits for %s to connect (window %d-%d on %s)", want,
                        action_name(r, d->current), d->window_from, d->window_to,
                        fg_contact_name((fg_contact)d->window_on));
    case FG_R_WAIT_HITSTOP:
        return snprintf(buf, size, "queued: %s waits %d tick%s of hitstop", want, d->wait,
                        d->wait == 1 ? "" : "s");
    case FG_R_COST:
        return snprintf(buf, size, "rejected: %s costs %d %s, have %d", want, d->cost,
                        d->resource >= 0 ? r->resources[d->resource].name : "?", d->have);
    case FG_R_RULE_REJECT:
        return snprintf(buf, size, "rejected by rule: %s (%s)", want,
                        d->rule_text[0] ? d->rule_text : "no reason given");
    case FG_R_RULE_OVERRIDDEN:
        return snprintf(buf, size, "rejected: the rule accepted %s, but it costs %d %s, have %d",
                        want, d->cost, d->resource >= 0 ? r->resources[d->resource].name : "?",
                        d->have);
    case FG_R_RULE_ERROR:
        return snprintf(buf, size, "dropped: %s, the request rule failed: %s", want,
                        d->rule_text);
    case FG_R_SUPERSEDED:
        return snprintf(buf, size, "replaced: %s by %s", want, action_name(r, d->other));
    case FG_R_WAITED_OUT:
        if (d->current != FG_NO_ACTION && d->window_to > 0)
            return snprintf(buf, size, "expired: %s waited %d ticks; %s's window %d-%d needs %s, "
                            "%s", want, d->wait, action_name(r, d->current), d->window_from,
                            d->window_to, fg_contact_name((fg_contact)d->window_on),
                            contact_words(d->contact));
        return snprintf(buf, size, "expired: %s waited %d ticks", want, d->wait);
    case FG_R_LOST_PRIORITY:
        return snprintf(buf, size, "rejected: %s lost to %s on this tick", want,
                        action_name(r, d->other));
    case FG_R_LAYER_TAKEN:
        return snprintf(buf, size, "rejected: %s, %s already started on layer %s this tick", want,
                        action_name(r, d->other), d->layer < r->nlayers ? r->layers[d->layer] : "?");
    case FG_R_RULE_QUEUE:
        return snprintf(buf, size, "queued by rule: %s waits %d ticks (%s)", want, d->wait,
                        d->rule_text[0] ? d->rule_text : "no reason given");
    case FG_R_FOLLOWUP_ONLY:
        if (d->other != FG_NO_ACTION)
            return snprintf(buf, size, "rejected: %s is a follow-up: it starts only from a cancel "
                            "window (of %s), and %s runs", want, action_name(r, d->other),
                            action_name(r, d->current));
        return snprintf(buf, size, "rejected: %s is a follow-up: it starts only from a cancel "
                        "window", want);
    case FG_R_NOTHING_FITS: return describe_nothing_fits(r, d, buf, size);
    case FG_R_QUEUE_FULL:
        return snprintf(buf, size, "rejected: %s, layer %s's queue is full (%s, depth %d)", want,
                        d->layer < r->nlayers ? r->layers[d->layer] : "?",
                        fg_queue_order_name(r->queue.order), d->wait);
    case FG_R_WINDOW_NEEDS_VAR: {
        const char *var = d->resource >= 0 && (uint32_t)d->resource < r->nvars
                              ? r->vars[d->resource].name
                              : "a variable the rules no longer declare";
        where(r, d, at, sizeof at);
        if (d->resource < 0)
            return snprintf(buf, size, "rejected: %s; cancel window %d-%d needs %s", at,
                            d->window_from, d->window_to, var);
        if (d->cost == d->wait)
            return snprintf(buf, size, "rejected: %s; cancel window %d-%d needs %s = %d (is %d)",
                            at, d->window_from, d->window_to, var, d->cost, d->have);
        return snprintf(buf, size, "rejected: %s; cancel window %d-%d needs %s in %d..%d (is %d)",
                        at, d->window_from, d->window_to, var, d->cost, d->wait, d->have);
    }
    }
    return snprintf(buf, size, "%s: %s", fg_decision_kind_name((fg_decision_kind)d->kind), want);
}

/* }====================================================================== */
