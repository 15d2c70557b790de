/* SPDX-License-Identifier: MIT */
/*
** tick.c: the tick pipeline. Each phase runs over every entity before the next phase starts, so
** no entity sees another half-updated and the order of entities never decides a trade:
**
**   1. input     consume the tick's edges, take the ground from the stage (or the host's contact
**                report), run a jump gate that starts no action
**   2. behavior  settle the ground (landings, falls), advance running actions, retry queued
**                requests, run the jump gate that starts the jump action, decide new requests
**                (the request rule is asked here), choose neutral states from held directions
**   3. collide   throws in their tech window; then every live hit and throw box against the hurt
**                boxes of the entities that may fight (collide.c): the tick's contacts
**   4. gate      projectiles that met clash (projectile.c); commit the contacts (hit.c: damage,
**                stun, hitstop, pushback, meter, combo),
**                then collect the tick's event candidates (timeline markers and the host's animation
**                reports), decide each against the entity's dispatch ledger, apply the side
**                effects of accepted ones exactly once (a `range` hit marker: as a contact; a
**                spawn marker: a projectile)
**   5. movement  velocities from the running actions, gravity, pushback, the move through the
**                stage (stage.c; a landing settles at the start of the next tick), projectiles
**                (projectile.c), push boxes (push.c), facing
**   6. meter     record each entity's phase for the frame meter
**
** Nothing here allocates: candidate and event arrays are sized when the world is created.
*/
#include "base_internal.h"
#include "internal.h"
#include "motion_internal.h"

#include <stdio.h>
#include <string.h>
#ifdef FG_HASH_CHECK
#include <stdlib.h>
#endif

/* {====================================================================== transitions */

static void begin_ledger(fg_world *w, fg_entity_state *es, uint32_t layer, int64_t seq) {
    /* Sequences only grow per layer, so begin cannot fail here. */
    fg_dispatcher_begin(fg_world_ledger_at(w, es->id - 1), layer, seq, NULL);
    fg_world_hash_ledger_written(w, es->id - 1);
}

/* Starts `action` of ruleset `version` on a layer: a new action sequence, tick 0. */
static void start_action(fg_world *w, fg_entity_state *es, uint32_t layer, uint32_t action,
                         uint32_t version, fg_transition_reason why, int32_t duration, fg_tick t) {
    fg_instance *inst = &es->layers[layer];
    uint16_t from = inst->action;
    uint16_t from_version = inst->version;
    const fg_ruleset *r = w->versions[version];
    const fg_action_rt *a = &r->rt[action];
    fg_world_hash_touch_layers(w, es); /* the hit log and variables mark their own writes */
    inst->action = (uint16_t)action;
    inst->version = (uint16_t)version;
    inst->contact = 0;
    inst->elapsed = 0;
    inst->duration = duration > 0 ? duration : a->duration;
    inst->cycle = 0;
    inst->seq = ++es->next_seq[layer];
    inst->started = t;
    fg_hit_forget_layer(w, es, layer);
    begin_ledger(w, es, layer, inst->seq);
    fg_world_trace4(w, t, es->id, FG_TRACE_TRANSITION, why, layer,
                    from == FG_NO_ACTION ? -1 : (int64_t)((uint64_t)from_version << 32 | from),
                    action, inst->seq);
    fg_vars_apply(w, es, r, action, FG_VAR_ON_START, t);
    if (a->interrupts)
        for (uint32_t l = 0; l < r->nlayers; l++) {
            if (l == layer || es->layers[l].action == FG_NO_ACTION) continue;
            fg_instance *o = &es->layers[l];
            uint16_t neutral = r->layer_neutral[l];
            if (neutral != FG_NO_ACTION && o->action == neutral) continue;
            if (neutral != FG_NO_ACTION) {
                start_action(w, es, l, neutral, version, FG_TR_INTERRUPTED, 0, t);
            } else {
                fg_world_trace4(w, t, es->id, FG_TRACE_TRANSITION, FG_TR_INTERRUPTED, l,
                                (int64_t)((uint64_t)o->version << 32 | o->action), -1, o->seq);
                fg_world_hash_touch_layers(w, es);
                o->action = FG_NO_ACTION;
            }
        }
}

void fg_world_start_action(fg_world *w, fg_entity_state *es, uint32_t layer, uint32_t action,
                           uint32_t version, fg_transition_reason why, int32_t duration,
                           fg_tick t) {
    start_action(w, es, layer, action, version, why, duration, t);
}

void fg_world_start_neutral(fg_world *w, fg_entity_state *es, fg_tick t,
                            fg_transition_reason why) {
    uint32_t version = w->state->slot_version[es->rules_slot];
    const fg_ruleset *r = w->versions[version];
    for (uint32_t l = 0; l < r->nlayers; l++)
        if (r->layer_neutral[l] != FG_NO_ACTION)
            start_action(w, es, l, r->layer_neutral[l], version, why, 0, t);
}

/* The action that follows one that ended: its `next`, looked up by name in the entity's current
** ruleset (it may have been reloaded meanwhile), else the layer's neutral. */
static void follow_up(fg_world *w, fg_entity_state *es, uint32_t layer, fg_tick t,
                      fg_transition_reason why, bool use_next) {
    fg_instance *inst = &es->layers[layer];
    const fg_ruleset *old = w->versions[inst->version];
    uint32_t version = w->state->slot_version[es->rules_slot];
    const fg_ruleset *r = w->versions[version];
    const fg_action_rt *a = &old->rt[inst->action];
    int next = -1;
    if (use_next && a->next != FG_NO_ACTION)
        next = fg_ruleset_find_action(r, old->defs[a->next].name);
    if (next < 0 && layer < r->nlayers) next = r->layer_neutral[layer] == FG_NO_ACTION
                                                  ? -1
                                                  : r->layer_neutral[layer];
    if (next >= 0) {
        start_action(w, es, layer, (uint32_t)next, version, why, 0, t);
    } else {
        fg_world_trace4(w, t, es->id, FG_TRACE_TRANSITION, why, layer,
                        (int64_t)((uint64_t)inst->version << 32 | inst->action), -1, inst->seq);
        fg_world_hash_touch_layers(w, es);
        inst->action = FG_NO_ACTION;
    }
}

/* }====================================================================== */

/* {====================================================================== phase 1: input */

/* Flags mode: traces every command true this tick (best-ranked first) and keeps, in that order,
** the first FG_COMMANDS_PER_TICK that request an action. */
static uint8_t keep_true_commands(fg_world *w, const fg_entity_state *es, uint32_t n,
                                  fg_motion_command *out, fg_tick t) {
    const fg_ruleset *r = fg_world_rules_of(w, es);
    uint8_t kept = 0;
    for (uint32_t i = 0; i < n; i++) {
        const fg_motion_command *cmd = &w->true_commands[i];
        int action = fg_ruleset_motion_action(r, cmd->motion, -1);
        fg_world_trace4(w, t, es->id, FG_TRACE_TRUE, 0, cmd->motion, cmd->age, action, cmd->tick);
        if (action >= 0 && kept < FG_COMMANDS_PER_TICK) out[kept++] = *cmd;
    }
    return kept;
}

/* The action the jump gate starts for this entity (its ruleset's), or -1. */
static int jump_id(const fg_world *w, const fg_entity_state *es) {
    return w->state->nslots > 0 ? w->jump_ids[w->state->slot_version[es->rules_slot]] : -1;
}

/* Whether two ground states hash the same but for the last grounded tick (a kept fold). */
static bool ground_flags_same(const fg_ground *a, const fg_ground *b) {
    return a->has_history == b->has_history && a->permission_spent == b->permission_spent &&
           a->left_ground == b->left_ground && a->grounded == b->grounded &&
           a->landed_at == b->landed_at;
}

/* Whether two jump decisions hash the same (world_hash.c folds the rest only after a press). */
static bool jump_hashes_same(const fg_jump_decision *a, const fg_jump_decision *b) {
    if (a->result != b->result) return false;
    return a->result == FG_JUMP_NO_PRESS ||
           (a->tick == b->tick && a->press.id == b->press.id && a->press_tick == b->press_tick &&
            a->last_grounded == b->last_grounded && a->window == b->window &&
            a->press_until == b->press_until);
}

/* Keeps the tick's jump decision. A refused press stays buffered and is refused again each
** tick: it is traced once. */
static void note_jump(fg_world *w, fg_entity_state *es, fg_jump_decision d, fg_tick t) {
    fg_jump_decision prev = es->last_jump;
    if (!jump_hashes_same(&prev, &d)) fg_world_hash_touch(w, es);
    es->last_jump = d;
    bool ok = d.result == FG_JUMP_OK || d.result == FG_JUMP_DROP;
    bool repeat = !ok && prev.result == d.result && prev.press.id == d.press.id;
    if (d.result != FG_JUMP_NO_PRESS && !repeat)
        fg_world_trace4(w, t, es->id, FG_TRACE_JUMP, d.result, d.press_tick, d.last_grounded,
                        d.window, d.press_until);
}

/* The matcher's part of the hash after a change of its state: moved by the step's clocks when
** every part held as the tick began and the change was a step that read no edge (`quiet`: most
** ticks of a world hashed every tick), else folded again. */
static inline void hash_motion(fg_world *w, uint32_t slot, const fg_motion_set *set,
                               fg_motion_state *ms, bool quiet) {
    fg_motion_kept_step(&w->hash_keep->parts[slot].motion, set, ms, w->hash_keep->held && quiet);
}

static void input_phase(fg_world *w, fg_entity_state *es, fg_tick t) {
    fg_buffer *b = fg_world_buffer_at(w, es->id - 1);
    fg_buffer_set_facing(b, (fg_facing)es->facing);
    fg_buffer_consume_for_tick(b, t, &es->last_input, NULL);
    for (uint32_t i = 0; i < es->last_input.count; i++) {
        const fg_edge *e = fg_buffer_at(b, es->last_input.first + i);
        es->input_digest = fg_world_fold_edge(es->input_digest, e);
        fg_world_trace4(w, t, es->id, FG_TRACE_INPUT, 0, e->kind, e->action, e->dir,
                        (int64_t)e->id);
    }
    uint32_t slot = es->id - 1;
    w->dirs[slot] = b->dir;
    w->ncommands[slot] = 0;
    if (w->state->nslots > 0) {
        const fg_ruleset *r = fg_world_rules_of(w, es);
        const fg_motion_set *set = r->motion_set;
        fg_motion_ctx ctx = {NULL, fg_entity_frozen(es, t)};
        uint32_t n = 0;
        fg_motion_command *out = &w->commands[(size_t)slot * FG_COMMANDS_PER_TICK];
        fg_motion_state *ms = fg_world_motion_at(w, slot);
        if (r->motion_flags) {
            if (fg_motion_step(set, ms, b, &es->last_input, &ctx, w->true_commands,
                               FG_MOTION_MAX_PATTERNS, &n, NULL) == FG_OK)
                w->ncommands[slot] = keep_true_commands(w, es, n, out, t);
        } else if (fg_motion_step(set, ms, b, &es->last_input, &ctx, out, FG_COMMANDS_PER_TICK, &n,
                                  NULL) == FG_OK) {
            w->ncommands[slot] = (uint8_t)n;
        }
        /* A world hashed every tick folds the matcher's part of the hash while its state is at
        ** hand (a command retired later in the tick folds it again). */
        if (w->hash_keep->folding) hash_motion(w, slot, set, ms, es->last_input.count == 0);
    }
    bool was_grounded = es->ground.grounded;
    fg_tick landed_before = es->ground.landed_at;
    fg_ground before = es->ground;
    /* One ground model: the stage contact the last movement left (or the host's report). */
    fg_ground_report(&es->ground, t, fg_world_stage_grounded(w, es));
    if (!ground_flags_same(&before, &es->ground)) fg_world_hash_touch(w, es);
    if (es->ground.grounded != was_grounded || es->ground.landed_at != landed_before)
        fg_world_trace4(w, t, es->id, FG_TRACE_CONTACT, 0, es->ground.grounded,
                        es->ground.landed_at != landed_before, 0, 0);
    /* A gate that starts an action decides in the behavior phase, after the landing. */
    if (w->jump_action >= 0 && jump_id(w, es) < 0)
        note_jump(w, es, fg_jump_try(&es->ground, b, w->jump_action, t, &w->jump), t);
}

/* }====================================================================== */

/* {====================================================================== phase 2: behavior */

static void record_decision(fg_world *w, fg_entity_state *es, const fg_decision *d) {
    es->last_decision = *d;
    fg_trace_record *r = fg_world_trace_push(w, d->tick, es->id, FG_TRACE_DECISION, d->kind);
    if (r) r->decision = *d;
}

/* Advances each running action one tick (frozen entities stand still), ends finished ones and
** settles whether an attack whiffed. */
static void advance_actions(fg_world *w, fg_entity_state *es, uint32_t nlayers, bool frozen,
                            fg_tick t) {
    if (frozen) return;
    /* Every version of an entity's rules has the same layers (a reload must keep them). */
    for (uint32_t l = 0; l < nlayers; l++) {
        fg_instance *inst = &es->layers[l];
        if (inst->action == FG_NO_ACTION || inst->started >= t) continue;
        const fg_action_rt *a = &w->versions[inst->version]->rt[inst->action];
        inst->elapsed++;
        if (a->hits.last_hit_tick >= 0 && inst->contact == 0 &&
            inst->elapsed > a->hits.last_hit_tick) {
            inst->contact = FG_ON_WHIFF;
            fg_world_hash_touch_layers(w, es);
        }
        if (inst->elapsed < inst->duration) continue;
        if (a->loop) {
            inst->elapsed = 0;
            inst->cycle++;
        } else {
            follow_up(w, es, l, t, FG_TR_ENDED, true);
        }
    }
}

static void accept(fg_world *w, fg_entity_state *es, const fg_decision *d, fg_tick t) {
    uint32_t version = w->state->slot_version[es->rules_slot];
    const fg_ruleset *r = w->versions[version];
    const fg_action_rt *a = &r->rt[d->action];
    /* The cost is spent here, once: this is the gate for resource changes. */
    fg_world_hash_touch_layers(w, es);
    for (uint32_t k = 0; k < r->nresources; k++) es->res[k] -= a->cost[k];
    es->started_tick[a->layer] = t;
    start_action(w, es, a->layer, d->action, version, FG_TR_REQUEST, 0, t);
}

/* {---------------------------------------------------------------------- the queue */

/* A request that waited behind another is decided when it reaches the head: its input came
** before the action it follows even started, so a window of that action that is not open yet
** is waited for, whatever the window's buffer. Kept in the entry's source, bit 7. */
#define QUEUED_BEHIND 0x80u
/* ... and keeps waiting for that window when it is the head (bit 6). */
#define QUEUED_PATIENT 0x40u

/* A patient request meets a window of the action it followed that is not open yet: it waits
** for it instead of being refused. */
static bool patient_wait(fg_decision *d) {
    if (d->kind != FG_DECIDE_REJECTED || d->reason != FG_R_WINDOW_CLOSED ||
        d->elapsed >= d->window_from || !fg_contact_may_match(d->window_on, d->contact))
        return false;
    d->kind = FG_DECIDE_QUEUED;
    d->reason = FG_R_WAIT_WINDOW;
    d->wait = d->window_from - d->elapsed;
    return true;
}

static uint32_t queue_len(const fg_queued *q) {
    uint32_t n = 0;
    while (n < FG_QUEUE_MAX && q[n].action != FG_NO_ACTION) n++;
    return n;
}

/* Removes entry k of a layer's queue; the ones behind it move up. */
static void queue_pop(const fg_world *w, fg_entity_state *es, uint32_t layer, uint32_t k) {
    fg_queued *q = es->queued[layer];
    fg_world_hash_touch_layers(w, es); /* a queue head is a layer's word */
    memmove(q + k, q + k + 1, sizeof *q * (FG_QUEUE_MAX - 1 - k));
    q[FG_QUEUE_MAX - 1].action = FG_NO_ACTION;
    fg_entity_queue_changed(es, layer);
}

/* Puts a queued decision on its layer's queue as the ruleset's policy says, and records it with
** what the queue did: behind whom it waits, or that a full FIFO queue refused it, then the
** requests a "latest" queue replaced. `front` puts it back at the head (a head re-decided). */
static void enqueue(fg_world *w, fg_entity_state *es, fg_decision *d, fg_tick t, fg_tick made,
                    bool front, bool patient) {
    const fg_queue_policy *qp = &fg_world_rules_of(w, es)->queue;
    fg_queued *q = es->queued[d->layer];
    fg_world_hash_touch_layers(w, es);
    uint32_t n = queue_len(q), depth = qp->order == FG_QUEUE_LATEST ? 1 : qp->depth;
    fg_queued item = {.action = d->action, .source = d->source, .why = d->reason,
                      .waited = 0, .limit = d->wait, .made = made};
    if (patient) item.source |= QUEUED_PATIENT;
    /* The same action again refreshes its wait: mashing one button does not fill the queue. */
    for (uint32_t k = 0; k < n; k++)
        if (q[k].action == d->action) {
            item.source |= (uint8_t)(q[k].source & QUEUED_BEHIND);
            item.made = q[k].made;
            q[k] = item;
            fg_entity_queue_changed(es, d->layer);
            d->queue = (uint8_t)k;
            if (k > 0) d->other = q[k - 1].action;
            record_decision(w, es, d);
            return;
        }
    fg_queued gone[FG_QUEUE_MAX];
    uint32_t ngone = 0;
    if (qp->order == FG_QUEUE_LATEST) {
        for (uint32_t k = 0; k < n; k++) gone[ngone++] = q[k];
        for (uint32_t k = 0; k < FG_QUEUE_MAX; k++) q[k].action = FG_NO_ACTION;
        n = 0;
    } else if (n >= depth) {
        d->kind = FG_DECIDE_REJECTED;
        d->reason = FG_R_QUEUE_FULL;
        d->wait = (int32_t)depth;
        d->queue = FG_QUEUE_BY_POLICY;
        record_decision(w, es, d);
        return;
    }
    uint32_t at = front ? 0 : n;
    if (front) memmove(q + 1, q, sizeof *q * (FG_QUEUE_MAX - 1));
    if (at > 0) {
        item.source |= QUEUED_BEHIND;
        d->other = q[at - 1].action;
    }
    q[at] = item;
    fg_entity_queue_changed(es, d->layer);
    d->queue = (uint8_t)at;
    record_decision(w, es, d);
    for (uint32_t k = 0; k < ngone; k++) {
        fg_decision rep = *d;
        rep.action = gone[k].action;
        rep.other = d->action;
        rep.kind = FG_DECIDE_REPLACED;
        rep.reason = FG_R_SUPERSEDED;
        rep.queue = FG_QUEUE_BY_POLICY;
        record_decision(w, es, &rep);
    }
}

/* Decides one new request: the data, then the rule, then one start per layer per tick.
** `patient`: it waited behind another request (see QUEUED_BEHIND); `made` is when it was made,
** `front`: a queued head being re-decided goes back to the head. */
static void decide_request(fg_world *w, fg_entity_state *es, uint32_t action,
                           fg_request_source src, fg_tick t, fg_tick made, bool patient,
                           bool front) {
    fg_decide_ctx c = fg_world_ctx(w, es, t);
    fg_decision d = fg_decide(&c, es, action, src);
    if (patient) patient = patient_wait(&d);
    if (d.kind == FG_DECIDE_ACCEPTED || d.kind == FG_DECIDE_QUEUED || d.reason != FG_R_UNKNOWN_ACTION)
        d = fg_request_merge_rule(w, es, d);
    if (d.kind == FG_DECIDE_ACCEPTED && es->started_tick[d.layer] == t) {
        d.kind = FG_DECIDE_REJECTED;
        d.reason = FG_R_LAYER_TAKEN;
        d.other = es->layers[d.layer].action;
    }
    if (d.kind == FG_DECIDE_QUEUED) {
        enqueue(w, es, &d, t, made, front, patient);
        return;
    }
    record_decision(w, es, &d);
    if (d.kind == FG_DECIDE_ACCEPTED) accept(w, es, &d, t);
}

/* Whether a layer's queue holds the action. */
static bool is_queued(const fg_entity_state *es, uint32_t layer, uint32_t action) {
    for (uint32_t k = 0; k < FG_QUEUE_MAX && es->queued[layer][k].action != FG_NO_ACTION; k++)
        if (es->queued[layer][k].action == action) return true;
    return false;
}

static void handle_request(fg_world *w, fg_entity_state *es, uint32_t action,
                           fg_request_source src, fg_tick t) {
    decide_request(w, es, action, src, t, t, false, false);
}

/* Expires what waited longer than the queue's expiry (counted from when it was made). */
static void expire_queued(fg_world *w, fg_entity_state *es, uint32_t layer, fg_tick t) {
    int32_t expiry = fg_world_rules_of(w, es)->queue.expiry;
    if (expiry <= 0) return;
    fg_queued *q = es->queued[layer];
    for (uint32_t k = 0; k < FG_QUEUE_MAX && q[k].action != FG_NO_ACTION;) {
        if (t - q[k].made <= expiry) {
            k++;
            continue;
        }
        fg_decide_ctx c = fg_world_ctx(w, es, t);
        fg_decision d = fg_decide(&c, es, q[k].action, FG_REQ_QUEUE);
        d.kind = FG_DECIDE_EXPIRED;
        d.reason = FG_R_WAITED_OUT;
        d.wait = (int32_t)(t - q[k].made);
        d.window_to = 0; /* the message is the queue's expiry, not a window */
        d.queue = FG_QUEUE_BY_POLICY;
        record_decision(w, es, &d);
        queue_pop(w, es, layer, k);
    }
}

/* Retries the head of a layer's queue. Frozen ticks do not count against its wait. */
static void retry_queued(fg_world *w, fg_entity_state *es, uint32_t layer, fg_tick t) {
    if (!fg_entity_has_queued(es, layer)) return; /* most ticks: the queue is not read at all */
    expire_queued(w, es, layer, t);
    fg_queued *q = &es->queued[layer][0];
    if (q->action == FG_NO_ACTION) return;
    if (fg_entity_frozen(es, t)) return;
    /* A request made during a freeze was never decided: the state it arrived in may be gone (a
    ** hit replaced it) and the request rule has not seen it. It is decided now, as a new request,
    ** against the state the freeze left: an input during hitstop is neither lost nor able to use
    ** the cancel windows of the state before the hit. A request that waited behind another is
    ** decided the same way when it reaches the head. */
    bool behind = (q->source & QUEUED_BEHIND) != 0;
    if (q->why == FG_R_WAIT_HITSTOP || behind) {
        uint32_t action = q->action;
        fg_tick made = q->made;
        queue_pop(w, es, layer, 0);
        decide_request(w, es, action, FG_REQ_QUEUE, t, made, behind, true);
        return;
    }
    q->waited++;
    fg_decide_ctx c = fg_world_ctx(w, es, t);
    fg_decision d = fg_decide(&c, es, q->action, FG_REQ_QUEUE);
    if (q->source & QUEUED_PATIENT) patient_wait(&d);
    /* A rule's queue lasts its ticks: retried on each of them, expired on the last. */
    bool by_rule = q->why == FG_R_RULE_QUEUE;
    if (by_rule && d.kind != FG_DECIDE_ACCEPTED && q->waited < q->limit) return;
    if (d.kind == FG_DECIDE_ACCEPTED && es->started_tick[layer] != t) {
        queue_pop(w, es, layer, 0);
        record_decision(w, es, &d);
        accept(w, es, &d, t);
        return;
    }
    if (d.kind == FG_DECIDE_QUEUED && q->waited <= q->limit + d.wait) {
        if (d.reason == FG_R_WAIT_WINDOW) q->limit = q->waited + d.wait;
        return;
    }
    int32_t waited = q->waited;
    queue_pop(w, es, layer, 0);
    /* The data refuses for a reason of its own (the state changed under the request, the cost
    ** can no longer be paid): a rejection with that reason. A window whose contact never came,
    ** or a rule's wait that ran out, is an expiry. */
    if (!by_rule && d.kind == FG_DECIDE_REJECTED && d.reason != FG_R_WINDOW_CLOSED) {
        record_decision(w, es, &d);
        return;
    }
    d.kind = FG_DECIDE_EXPIRED;
    d.reason = FG_R_WAITED_OUT;
    d.wait = waited;
    record_decision(w, es, &d);
}

/* }---------------------------------------------------------------------- */

static void settle_neutrals(fg_world *w, fg_entity_state *es, bool frozen, fg_tick t) {
    if (frozen) return;
    uint32_t version = w->state->slot_version[es->rules_slot];
    const fg_ruleset *r = w->versions[version];
    fg_decide_ctx c = {t, r, (const fg_ruleset *const *)w->versions};
    int group = fg_entity_group(&c, es);
    uint32_t held = fg_bits_of_numpad(fg_numpad_relative(w->dirs[es->id - 1], (fg_facing)es->facing));
    for (uint32_t l = 0; l < r->nlayers; l++) {
        fg_instance *inst = &es->layers[l];
        if (inst->action != FG_NO_ACTION) {
            const fg_action_rt *cur = &w->versions[inst->version]->rt[inst->action];
            if (!cur->neutral || inst->started == t) continue;
        }
        uint32_t want = fg_ruleset_neutral(r, l, group, held);
        if (want == FG_NO_ACTION) continue;
        if (inst->action == want && inst->version == version) continue;
        start_action(w, es, l, want, version, FG_TR_HOLD, 0, t);
    }
}

/* Motion commands become requests, best first. A command still asserted by its buffer asks
** again each tick until an action it requested starts; then it is retired. In flags mode the
** first command whose action starts ends the tick's requests, as the first ChangeState whose
** triggers pass ends MUGEN's state -1. */
static void handle_commands(fg_world *w, fg_entity_state *es, fg_tick t) {
    uint32_t slot = es->id - 1;
    const fg_ruleset *r = fg_world_rules_of(w, es);
    fg_decide_ctx c = fg_world_ctx(w, es, t);
    bool flags = r->motion_flags;
    for (uint32_t i = 0; i < w->ncommands[slot]; i++) {
        const fg_motion_command *cmd = &w->commands[(size_t)slot * FG_COMMANDS_PER_TICK + i];
        fg_decision none;
        int action = fg_route_motion(&c, es, cmd->motion, &none);
        if (action < 0) {
            /* Several actions share the input and none fits: said once per completed input. */
            if (cmd->age == 0 && none.reason == FG_R_NOTHING_FITS) {
                none.tick = t;
                record_decision(w, es, &none);
            }
            continue;
        }
        if (cmd->age == 0)
            fg_world_trace4(w, t, es->id, FG_TRACE_COMMAND, cmd->why, cmd->motion, action,
                            (int64_t)cmd->edges[0], cmd->beat);
        /* A buffered press asks again each tick: once its request waits in the queue it has
        ** been heard, and a refusal it already got is not said again. One line per press,
        ** then its outcome. */
        uint32_t layer = r->rt[action].layer;
        if (cmd->age > 0 && is_queued(es, layer, (uint32_t)action)) continue;
        if (cmd->age > 0) {
            fg_decision was = es->last_decision;
            fg_decision now = fg_decide(&c, es, (uint32_t)action, FG_REQ_COMMAND);
            if (was.kind == FG_DECIDE_REJECTED && now.kind == FG_DECIDE_REJECTED &&
                was.action == now.action && was.reason == now.reason)
                continue;
        }
        handle_request(w, es, (uint32_t)action, FG_REQ_COMMAND, t);
        const fg_instance *inst = &es->layers[r->rt[action].layer];
        if (inst->action == action && inst->started == t) {
            fg_motion_retire(r->motion_set, fg_world_motion_at(w, slot), cmd->motion);
            if (w->hash_keep->folding)
                hash_motion(w, slot, r->motion_set, fg_world_motion_at(w, slot), false);
            if (flags) break;
        }
    }
}

/* {---------------------------------------------------------------------- ground */

/* The ground the last movement left, before anything is decided this tick: a fall that ended
** lands (the airborne action goes to its landing action, or the neutral), and a free fighter
** nothing holds up is put in its airborne neutral. A request of this tick is decided after. */
static void settle_ground(fg_world *w, fg_entity_state *es, bool frozen, fg_tick t) {
    if (frozen) return;
    fg_instance *body = &es->layers[0];
    const fg_ruleset *br = body->action != FG_NO_ACTION ? w->versions[body->version] : NULL;
    const fg_action_rt *a = br ? &br->rt[body->action] : NULL;
    if (es->landed) {
        es->landed = 0;
        fg_world_hash_touch(w, es);
        if (a && (int)a->group == br->airborne) {
            uint32_t version = w->state->slot_version[es->rules_slot];
            const fg_ruleset *r = w->versions[version];
            int into = a->landing == FG_NO_ACTION
                           ? -1
                           : fg_ruleset_find_action(r, br->defs[a->landing].name);
            if (into >= 0)
                start_action(w, es, 0, (uint32_t)into, version, FG_TR_LANDED,
                             a->landing_recovery, t);
            else
                follow_up(w, es, 0, t, FG_TR_LANDED, false);
        }
        fg_hit_landed(w, es, t);
        return;
    }
    if (es->support != FG_SUPPORT_NONE || !a || !a->neutral || (int)a->group == br->airborne)
        return;
    uint32_t version = w->state->slot_version[es->rules_slot];
    const fg_ruleset *r = w->versions[version];
    if (r->air_neutral != FG_NO_ACTION)
        start_action(w, es, 0, r->air_neutral, version, FG_TR_FELL, 0, t);
}

/* The jump gate of a world whose jump is an action: the gate checks the press, the coyote
** window and the permission; the request layer then decides the action like any other request.
** Only an accepted jump uses the press and the permission; a refused one stays buffered. Down +
** jump on a one-way platform drops through it instead. */
static void jump_gate(fg_world *w, fg_entity_state *es, fg_tick t) {
    if (w->jump_action < 0) return;
    int action = jump_id(w, es);
    if (action < 0) return;
    fg_buffer *b = fg_world_buffer_at(w, es->id - 1);
    fg_jump_decision d = fg_jump_check(&es->ground, b, w->jump_action, t, &w->jump);
    if (d.result == FG_JUMP_OK && fg_world_stage_can_drop(w, es)) {
        fg_jump_commit(&es->ground, b, &d);
        fg_world_hash_touch(w, es);
        es->drop = (uint8_t)((es->support & FG_SUPPORT_INDEX) + 1);
        es->support = FG_SUPPORT_NONE;
        d.result = FG_JUMP_DROP;
    } else if (d.result == FG_JUMP_OK) {
        fg_decide_ctx c = fg_world_ctx(w, es, t);
        fg_decision dec = fg_decide(&c, es, (uint32_t)action, FG_REQ_COMMAND);
        if (dec.kind == FG_DECIDE_ACCEPTED || dec.kind == FG_DECIDE_QUEUED ||
            dec.reason != FG_R_UNKNOWN_ACTION)
            dec = fg_request_merge_rule(w, es, dec);
        if (dec.kind == FG_DECIDE_ACCEPTED && es->started_tick[dec.layer] == t) {
            dec.kind = FG_DECIDE_REJECTED;
            dec.reason = FG_R_LAYER_TAKEN;
            dec.other = es->layers[dec.layer].action;
        }
        if (dec.kind == FG_DECIDE_ACCEPTED) {
            fg_jump_commit(&es->ground, b, &d);
            record_decision(w, es, &dec);
            accept(w, es, &dec, t);
        } else {
            /* Refused (or not yet allowed): the press waits in the jump buffer, not in a queue,
            ** and the refusal is said once per press. */
            d.result = FG_JUMP_REFUSED;
            if (es->last_jump.result != FG_JUMP_REFUSED || es->last_jump.press.id != d.press.id)
                record_decision(w, es, &dec);
        }
    }
    note_jump(w, es, d, t);
}

/* }---------------------------------------------------------------------- */

/* `r`: the entity's ruleset; `frozen`: whether it is frozen on this tick, which holds until the
** gate (a hit freezes from the next tick on). */
static void behavior_phase(fg_world *w, fg_entity_state *es, const fg_ruleset *r, bool frozen,
                           fg_tick t) {
    settle_ground(w, es, frozen, t);
    advance_actions(w, es, r->nlayers, frozen, t);
    if (es->queued_layers) /* most ticks: no request waits, and no queue is read */
        for (uint32_t l = 0; l < r->nlayers; l++) retry_queued(w, es, l, t);
    if (!frozen) jump_gate(w, es, t);
    if (w->ncommands[es->id - 1]) handle_commands(w, es, t);
    for (uint32_t i = 0; i < es->npending; i++)
        handle_request(w, es, es->pending[i].action, (fg_request_source)es->pending[i].source, t);
    es->npending = 0;
    settle_neutrals(w, es, frozen, t);
}

/* }====================================================================== */

/* {====================================================================== phase 3: the gate */

static void collect_markers(fg_world *w, fg_entity_state *es, uint32_t nlayers, bool frozen,
                            fg_tick t) {
    if (frozen) return;
    for (uint32_t l = 0; l < nlayers; l++) {
        const fg_instance *inst = &es->layers[l];
        if (inst->action == FG_NO_ACTION) continue;
        const fg_action_rt *a = &w->versions[inst->version]->rt[inst->action];
        for (uint32_t m = 0; m < a->nmarkers; m++) {
            if (a->markers[m].tick != inst->elapsed) continue;
            if (inst->cycle > 0 && a->markers[m].once) continue;
            if (w->ncands == w->cap_cands) return;
            fg_candidate *c = &w->cands[w->ncands++];
            c->slot = es->id - 1;
            c->layer = (uint8_t)l;
            c->from_host = 0;
            c->action = inst->action;
            c->marker_index = (uint16_t)m;
            c->stamp.channel = l;
            c->stamp.marker = a->markers[m].marker;
            c->stamp.sequence = inst->seq;
            c->stamp.occurrence = fg_marker_occurrence(&a->markers[m], inst->cycle);
        }
    }
}

static int sign_of(fg_facing f) { return f == FG_FACING_LEFT ? -1 : 1; }

/* Movement stops at +-FG_POSITION_MAX: rule data (a jump with no gravity) or a long flight must
** not overflow. */
static fg_fx clamp_position(int64_t v) {
    return v > FG_POSITION_MAX ? FG_POSITION_MAX : v < -FG_POSITION_MAX ? -FG_POSITION_MAX : (fg_fx)v;
}

static void gate_phase(fg_world *w, fg_tick t) {
    w->nevents = 0;
    /* The contacts the collision phase found, judged and committed before the markers: a
    ** marker's event then reports its action's contact of this tick. */
    fg_projectile_clash(w, t);
    fg_hit_commit(w, t);
    /* Then the variable changes rules proposed while deciding this tick's requests. */
    fg_vars_commit(w, t);
    /* Host reports first (they were made before this tick), then this tick's timelines. */
    fg_candidate all[FG_HOST_EVENTS];
    uint32_t nhost = w->nhost_events;
    memcpy(all, w->host_events, sizeof all[0] * nhost);
    w->nhost_events = 0;
    for (uint32_t pass = 0; pass < 2; pass++) {
        uint32_t n = pass == 0 ? nhost : w->ncands;
        for (uint32_t i = 0; i < n; i++) {
            fg_candidate *c = pass == 0 ? &all[i] : &w->cands[i];
            fg_entity_state *es = &w->entities[c->slot];
            fg_event_candidate ec;
            memset(&ec, 0, sizeof ec);
            ec.stamp = c->stamp;
            fg_dispatch_result res;
            fg_error err;
            fg_error_blank(&err);
            if (fg_dispatcher_dispatch(fg_world_ledger_at(w, c->slot), &ec, &res, &err) != FG_OK) {
                res = FG_DISPATCH_STALE_ACTION; /* a report for an action never begun */
                fg_error_clear(&err);
            }
            fg_world_trace4(w, t, es->id, FG_TRACE_EVENT, res, c->layer, c->stamp.sequence,
                            c->stamp.marker, (int64_t)c->stamp.occurrence);
            if (res != FG_DISPATCH_ACCEPTED) continue;
            fg_world_hash_ledger_written(w, c->slot); /* only a new event writes it */
            fg_instance *inst = &es->layers[c->layer];
            fg_event *ev = w->nevents < w->cap_events ? &w->events[w->nevents++] : NULL;
            uint8_t contact = 0;
            fg_entity target = 0;
            if (inst->seq == c->stamp.sequence && inst->action != FG_NO_ACTION) {
                const fg_action_rt *a = &w->versions[inst->version]->rt[inst->action];
                bool is_hit = false;
                for (uint32_t m = 0; m < a->nmarkers; m++)
                    if (a->markers[m].marker == c->stamp.marker && a->markers[m].is_hit)
                        is_hit = true;
                if (is_hit && a->hits.marker_hit && inst->contact == 0)
                    contact = fg_hit_marker(w, es, c->layer, t, &target);
                fg_projectile_marker(w, es, c->layer, c->stamp.marker, t);
            }
            if (ev) {
                ev->tick = t;
                ev->entity = es->id;
                ev->layer = c->layer;
                ev->seq = c->stamp.sequence;
                ev->marker = c->stamp.marker;
                ev->occurrence = c->stamp.occurrence;
                ev->action = c->action;
                ev->contact = contact;
                ev->from_host = c->from_host;
                ev->target = target;
                ev->kind = FG_EVENT_MARKER;
                ev->hit_box = ev->hurt_box = 0xFF;
                ev->counter = ev->miss = 0;
                ev->x = ev->y = 0;
                ev->damage = 0;
                ev->combo = 0;
                ev->projectile = ev->other = 0;
            }
        }
    }
    w->ncands = 0;
}

/* }====================================================================== */

/* {====================================================================== phase 4: movement */

#ifdef FG_HASH_CHECK
/* Builds that check kept state (cmake -DFG_HASH_CHECK=ON) check the combat mirror where the
** tick relies on it: a write of the combat state without fg_entity_combat_changed would skip a
** slide, a combo's end or a bounce. */
static void check_combat_live(const fg_world *w, const fg_entity_state *es) {
    if (es->combat_live == fg_entity_in_combat(es)) return;
    fprintf(stderr, "framegate: tick %lld: entity %u: combat_live disagrees with its combat state "
                    "(a write without fg_entity_combat_changed)\n",
            (long long)w->state->tick, es->id);
    abort();
}
#endif

/* Velocity from the body's action (its move segment for this tick: set, then accelerate),
** gravity (the action's, else the ruleset's) while nothing holds the body up, then the move
** itself through the stage (stage.c), which stops it at walls, blocks and surfaces. A fall that
** ends is a landing, settled at the start of the next tick (settle_ground). */
static void move_entity(fg_world *w, fg_entity_state *es, fg_tick t) {
#ifdef FG_HASH_CHECK
    check_combat_live(w, es);
#endif
    es->prev_x = es->x;
    es->prev_y = es->y;
    if (fg_entity_frozen(es, t)) return;
    const fg_ruleset *r = fg_world_rules_of(w, es);
    fg_fx gravity = r->physics.gravity;
    const fg_instance *body = &es->layers[0];
    bool airborne = es->support == FG_SUPPORT_NONE || es->vy > 0;
    bool moved = false;
    bool air_action = false;
    if (body->action != FG_NO_ACTION) {
        const fg_ruleset *br = w->versions[body->version];
        const fg_action_rt *a = &br->rt[body->action];
        air_action = (int)a->group == br->airborne;
        if (a->has_gravity) gravity = a->gravity;
        if (a->root_motion != FG_ROOT_PRESENTATION)
            for (uint32_t m = 0; m < a->nmoves; m++) {
                const fg_move_def *mv = &a->moves[m];
                if (body->elapsed < mv->from || body->elapsed > mv->to) continue;
                if (!(mv->flags & FG_MOVE_KEEP_VX)) es->vx = clamp_position(mv->vx);
                if (mv->vy != 0) es->vy = clamp_position(mv->vy);
                es->vx = clamp_position((int64_t)es->vx + mv->ax);
                es->vy = clamp_position((int64_t)es->vy + mv->ay);
                moved = true;
                break;
            }
    }
    if (!moved && !airborne) es->vx = 0;
    airborne = es->support == FG_SUPPORT_NONE || es->vy > 0;
    if (airborne) es->vy = clamp_position((int64_t)es->vy + gravity);
    fg_fx x0 = es->x, y0 = es->y;
    es->x = clamp_position(es->x + (int64_t)sign_of((fg_facing)es->facing) * es->vx);
    es->y = clamp_position((int64_t)es->y + es->vy);
    fg_hit_slide(w, es);
    const fg_stage *stage = &w->state->stage;
    fg_fx want_x = es->x;
    fg_stage_contact c = fg_stage_move(stage, x0, y0, &es->x, &es->y, es->drop);
    if (es->support != c.support) fg_world_hash_touch(w, es);
    es->support = c.support;
    if (c.stopped_y && es->vy > 0) es->vy = 0;
    /* A drop-through ends once the feet are below the platform. */
    if (es->drop && (es->drop > stage->nplatforms || es->y < stage->platforms[es->drop - 1].y)) {
        es->drop = 0;
        fg_world_hash_touch(w, es);
    }
    /* A bounce a hit armed: off the wall that stopped it, or off the surface instead of a
    ** landing (bounce.c). */
    if (es->combat_live && es->combat.launched && es->combat.bounce.armed)
        fg_bounce_move(w, es, want_x, &c, airborne, t);
    if (c.support != FG_SUPPORT_NONE) {
        if (es->vy < 0) es->vy = 0;
        if (airborne) {
            es->landed = 1;
            fg_world_hash_touch(w, es);
            if (air_action || (es->combat_live && es->combat.launched)) es->vx = 0;
        }
    }
}

/* Free fighters on the ground face their opponent (push.c keeps them apart first). */
static void face_opponent(fg_world *w, fg_entity_state *es) {
    fg_entity_state *o = fg_world_entity(w, es->opponent);
    if (!o || o->x == es->x) return;
    const fg_instance *body = &es->layers[0];
    if (body->action != FG_NO_ACTION) {
        const fg_ruleset *r = w->versions[body->version];
        const fg_action_rt *a = &r->rt[body->action];
        if (!a->neutral || (int)a->group == r->airborne) return;
    }
    fg_facing want = o->x > es->x ? FG_FACING_RIGHT : FG_FACING_LEFT;
    if (es->facing != want) {
        fg_world_hash_touch(w, es);
        es->facing = (uint8_t)want;
        fg_buffer_set_facing(fg_world_buffer_at(w, es->id - 1), want);
    }
}

/* }====================================================================== */

/* {====================================================================== the tick */

static void regen(const fg_world *w, const fg_ruleset *r, fg_entity_state *es, fg_tick t) {
    if (!r->regen) return;
    for (uint32_t k = 0; k < r->nresources; k++) {
        const fg_resource_def *d = &r->resources[k];
        if (d->regen > 0 && t % d->regen_every == 0 && es->res[k] < d->max) {
            fg_world_hash_touch_layers(w, es);
            es->res[k] += d->regen;
            if (es->res[k] > d->max) es->res[k] = d->max;
        }
    }
}

static void meter_phase(fg_world *w, fg_entity_state *es, fg_tick t) {
    fg_phase p = FG_PHASE_NEUTRAL;
    uint8_t flags = 0;
    const fg_instance *body = &es->layers[0];
    if (fg_entity_frozen(es, t)) {
        p = FG_PHASE_HITSTOP;
    } else if (body->action != FG_NO_ACTION) {
        /* A waiting request shows as 'b' (fg_instance_phase), but the action under it is still
        ** in startup or active, and the meter's counts need that: the phase is kept, the wait is
        ** a flag. */
        p = fg_action_phase(w->versions[body->version], body, es, t);
        if (p != FG_PHASE_STUN && fg_entity_has_queued(es, 0)) flags |= FG_METER_BUFFERED;
    }
    /* Another flag marks a tick where a request started the body's action: the meter's stats
    ** stop the first action there. Such a start also started the body's instance then, which
    ** is looked at first: started_tick is on a line this pass does not otherwise read. */
    if (body->started == t && es->started_tick[0] == t) flags |= FG_METER_STARTED;
    *fg_world_meter_cell(w, es->id - 1, t) = (uint8_t)(p | flags);
}

/* Entities taken a few at a time while their records are in the cache: paired, moved and pushed
** before their last phases run, finished before their parts of the state hash are folded, their
** input phase run just before their behavior. */
#define FINISH_BLOCK 16

/* The last phases of entities [from, to) whose movement and push are done: facing (the
** opponent's position is final by now), the end of a combo, the frame meter. Each reads and
** writes only its own entity, so they share one pass. */
static void finish_entities(fg_world *w, uint32_t from, uint32_t to, fg_tick t) {
    while (from < to) {
        uint32_t end = to - from > FINISH_BLOCK ? from + FINISH_BLOCK : to;
        for (uint32_t s = from; s < end; s++) {
            fg_entity_state *es = &w->entities[s];
            face_opponent(w, es);
            fg_hit_settle(w, es, t);
            meter_phase(w, es, t);
        }
        /* Nothing changes these entities after this in the tick: their parts of the state
        ** hash, a few at a time, while their records are in the cache. */
        if (w->hash_keep->folding) fg_world_hash_parts(w, from, end);
        from = end;
    }
}

/* Whether every entity fights its neighbour: slots 2k and 2k + 1 are each other's opponents
** (a duel, or many). Then nothing but the pair's own push moves either of them after its
** movement, so movement, push and the last phases can run pair by pair, in one pass, with the
** same result as phase by phase. Looked at again after a spawn or a restore. */
static bool paired(fg_world *w) {
    if (w->pairs == 0) {
        uint32_t n = w->state->nentities;
        bool ok = n % 2 == 0;
        for (uint32_t s = 0; ok && s < n; s++) ok = w->entities[s].opponent == (s ^ 1u) + 1;
        w->pairs = ok ? 1 : 2;
    }
    return w->pairs == 1;
}

/* Whether any entity has a team, looked at again after a spawn, a restore or a team set (then
** `teams` is 0); while none has, placing boxes reads no combat state (collide.c). */
static void teams_known(fg_world *w) {
    if (w->teams != 0) return;
    uint32_t n = w->state->nentities;
    bool any = false;
    for (uint32_t s = 0; !any && s < n; s++) any = w->entities[s].combat.team != 0;
    w->teams = any ? 2 : 1;
}

/* A push can carry a standing fighter off the end of what held it (the floor has no end). */
static void replace_on_stage(fg_world *w, uint32_t from, uint32_t to) {
    if (!w->state->stage.nplatforms && !w->state->stage.nblocks) return;
    for (uint32_t s = from; s < to; s++)
        if (w->entities[s].support != FG_SUPPORT_NONE) fg_world_stage_place(w, &w->entities[s]);
}

/* Movement, projectiles, push and the last phases: phase by phase over every entity, or, when
** the entities fight in neighbouring pairs, pair by pair in one pass (a record is then fetched
** from memory once for all of them). Projectiles never read an entity, so in the pass they
** move first. */
static void move_phase(fg_world *w, fg_tick t) {
    uint32_t n = w->state->nentities, from = 0;
    bool pairs = paired(w);
    if (pairs) fg_projectile_move(w, t);
    for (uint32_t s = 0; s < n; s++) {
        move_entity(w, &w->entities[s], t);
        if (!pairs || (s & 1u) == 0) continue;
        fg_push_separate(w, &w->entities[s - 1], &w->entities[s], t);
        replace_on_stage(w, s - 1, s + 1);
        /* A few pairs at a time: their records are still in the cache. */
        if ((s + 1) % FINISH_BLOCK == 0 || s + 1 == n) {
            finish_entities(w, from, s + 1, t);
            from = s + 1;
        }
    }
    if (pairs) return;
    fg_projectile_move(w, t);
    for (uint32_t s = 0; s < n; s++) {
        fg_entity_state *es = &w->entities[s];
        if (es->opponent > es->id) fg_push_separate(w, es, &w->entities[es->opponent - 1], t);
    }
    replace_on_stage(w, 0, n);
    finish_entities(w, 0, n, t);
}

/* The input phase of entities [from, to). Out of line, so that its one call of input_phase
** inlines it (two calls of input_phase keep it out of line, 30 instructions an entity more). */
FG_NOINLINE
static void input_pass(fg_world *w, uint32_t from, uint32_t to, fg_tick t) {
    for (uint32_t s = from; s < to; s++) input_phase(w, &w->entities[s], t);
}

fg_status fg_world_advance(fg_world *w, fg_error *err) {
    (void)err;
    fg_tick t = w->state->tick;
    uint32_t n = w->state->nentities;
    bool rules = w->state->nslots > 0;
    /* The state hash's parts are folded as the tick goes when a hash was taken since the last
    ** tick (world_hash.c); the last ones no longer hold. */
    fg_hash_keep *keep = w->hash_keep;
    keep->held = keep->ready && keep->next == n;
    keep->ready = false;
    uint64_t changes = keep->changes;
    keep->folding = keep->asked && rules;
    if (keep->folding) fg_world_hash_begin_parts(keep);
    keep->asked = false;
    keep->in_tick = true;
    /* When the entities fight in neighbouring pairs, the input phase runs a few pairs at a time
    ** just before their behavior (below): an entity's input phase changes that entity only, and
    ** its behavior reads no entity but itself and its opponent, whose input is done by then.
    ** Their records are then fetched from memory once for both phases. */
    bool fused = rules && paired(w);
    if (!fused) input_pass(w, 0, n, t);
    if (rules) {
        /* While nobody is held the throw phase between the behavior and collision phases does
        ** nothing (throw.c), and an entity's behavior changes that entity only while placing
        ** its boxes and collecting its markers read it only: one pass does all three, and the
        ** record read for its behavior is still in the cache when its boxes are placed. The
        ** result is the phases' one by one. */
        bool one_pass = w->grabs == 1;
        teams_known(w);
        for (uint32_t s = 0; s < n; s++) {
            if (fused && s % FINISH_BLOCK == 0)
                input_pass(w, s, s + FINISH_BLOCK < n ? s + FINISH_BLOCK : n, t);
            fg_entity_state *es = &w->entities[s];
            const fg_ruleset *r = fg_world_rules_of(w, es);
            bool frozen = fg_entity_frozen(es, t);
            regen(w, r, es, t);
            behavior_phase(w, es, r, frozen, t);
            if (!one_pass) continue;
            fg_collide_place(w, s, t);
            collect_markers(w, es, r->nlayers, frozen, t);
        }
        if (!one_pass) {
            /* Throws in their tech window, then the collision phase: positions of the last
            ** movement, boxes of the ticks the actions just reached. */
            fg_throw_advance(w, t);
            /* Placing an entity's boxes and collecting its markers read the same fields, and
            ** the collision tests change no entity: one pass does both. */
            for (uint32_t s = 0; s < n; s++) {
                fg_entity_state *es = &w->entities[s];
                fg_collide_place(w, s, t);
                collect_markers(w, es, fg_world_rules_of(w, es)->nlayers,
                                fg_entity_frozen(es, t), t);
            }
        }
        fg_collide_pairs(w, t);
        gate_phase(w, t);
        move_phase(w, t);
    }
    w->state->tick = t + 1;
    /* Every part was folded, and nothing but the tick changed the world meanwhile. */
    keep->ready = keep->folding && keep->changes == changes;
    keep->folding = false;
    keep->in_tick = false;
    return FG_OK;
}

/* }====================================================================== */

/* {====================================================================== events and cues */

uint32_t fg_world_event_count(const fg_world *w) { return w->nevents; }

const fg_event *fg_world_event_at(const fg_world *w, uint32_t i) {
    return i < w->nevents ? &w->events[i] : NULL;
}

const char *fg_world_marker_name(const fg_world *w, fg_entity e, uint32_t marker) {
    const fg_ruleset *r = fg_world_rules(w, e);
    return r && marker < r->nmarkers ? r->marker_names[marker] : NULL;
}

fg_status fg_world_report_event(fg_world *w, fg_entity e, uint32_t layer, int64_t seq,
                                const char *marker, uint64_t occurrence, fg_error *err) {
    fg_entity_state *es = fg_world_entity(w, e);
    if (!es) return fg_world_no_entity(w, e, err);
    const fg_ruleset *r = fg_world_rules(w, e);
    if (!r) return fg_error_set(err, FG_ESTATE, "report_event: the world has no rules loaded");
    if (layer >= r->nlayers)
        return fg_error_set(err, FG_EINVAL, "report_event: layer %u does not exist (%u layers)",
                            layer, r->nlayers);
    int m = -1;
    for (uint32_t i = 0; marker && i < r->nmarkers; i++)
        if (strcmp(r->marker_names[i], marker) == 0) m = (int)i;
    if (m < 0)
        return fg_error_set(err, FG_ENOTFOUND, "report_event: marker '%s' is not used by any "
                            "action of '%s'", marker ? marker : "", r->name);
    if (seq < 1)
        return fg_error_set(err, FG_EINVAL, "report_event: action sequence %lld, expected >= 1",
                            (long long)seq);
    if (w->nhost_events == FG_HOST_EVENTS)
        return fg_error_set(err, FG_ENOMEM, "report_event: %d reports already wait for the "
                            "next tick", FG_HOST_EVENTS);
    fg_candidate *c = &w->host_events[w->nhost_events++];
    fg_world_note_side_input(w, "animation report");
    memset(c, 0, sizeof *c);
    c->slot = e - 1;
    c->layer = (uint8_t)layer;
    c->from_host = 1;
    c->action = es->layers[layer].seq == seq ? es->layers[layer].action : FG_NO_ACTION;
    c->stamp.channel = layer;
    c->stamp.marker = (fg_marker)m;
    c->stamp.sequence = seq;
    c->stamp.occurrence = occurrence;
    return FG_OK;
}

fg_status fg_world_push_cue(fg_world *w, fg_entity e, const char *name, int64_t a, int64_t b,
                            fg_error *err) {
    if (!name || !*name || strlen(name) >= sizeof w->cues[0].name)
        return fg_error_set(err, FG_EINVAL, "cue: name must be 1 to %zu characters",
                            sizeof w->cues[0].name - 1);
    if (w->ncues == FG_MAX_CUES) {
        w->cues_dropped++;
        return fg_error_set(err, FG_ENOMEM, "cue: %d cues wait to be drained", FG_MAX_CUES);
    }
    fg_cue *c = &w->cues[w->ncues++];
    c->tick = w->state->tick - 1;
    c->entity = e;
    memcpy(c->name, name, strlen(name) + 1); /* its length was checked above */
    c->a = a;
    c->b = b;
    return FG_OK;
}

uint32_t fg_world_cue_count(const fg_world *w) { return w->ncues; }
const fg_cue *fg_world_cue_at(const fg_world *w, uint32_t i) {
    return i < w->ncues ? &w->cues[i] : NULL;
}
void fg_world_cues_clear(fg_world *w) { w->ncues = 0; }

/* }====================================================================== */
