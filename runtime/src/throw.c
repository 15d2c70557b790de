/* SPDX-License-Identifier: MIT */
/*
** throw.c: throws. A throw box that touches a hurt box of a throwable target (on the ground, not
** in a stun, not frozen, not throw-invulnerable after a wake-up) grabs it: the target is put in
** its thrown reaction and the throw waits out its tech window. If the target's own input asks for
** the tech action on one of the window's ticks, the throw breaks and both fighters go free, pushed
** apart; otherwise it lands on the first tick past the window (damage, launch, knockdown).
*/
#include "internal.h"

#include <string.h>

#define TECH_PUSH FG_FX(24) /* how far a tech pushes each fighter back */

bool fg_throw_throwable(const fg_world *w, const fg_entity_state *tg, fg_tick t) {
    if (tg->combat.launched || tg->combat.grabbed_by || tg->support == FG_SUPPORT_NONE) return false;
    if (fg_entity_frozen(tg, t)) return false;
    const fg_instance *body = &tg->layers[0];
    if (body->action == FG_NO_ACTION) return true;
    const fg_ruleset *br = w->versions[body->version];
    if (body->action == br->blockstun || (int)br->rt[body->action].group == br->airborne)
        return false;
    return !br->rt[body->action].hits.is_reaction;
}

void fg_throw_judge(const fg_world *w, fg_contact_rec *c, fg_tick t) {
    (void)t;
    c->miss = 0;
    c->counter = 0;
    c->contact = FG_ON_HIT;
    c->damage = w->versions[c->version]->rt[c->action].hits.thr[c->def].damage;
}

/* The grab: the attacker's throw has connected, the target waits in its thrown reaction. */
void fg_throw_grab(fg_world *w, const fg_contact_rec *c, fg_tick t) {
    fg_entity_state *att = &w->entities[c->attacker], *tg = &w->entities[c->target];
    fg_instance *inst = &att->layers[c->layer];
    const fg_throw_def *th = &w->versions[c->version]->rt[c->action].hits.thr[c->def];
    fg_world_hash_touch(w, att);
    fg_world_hash_touch(w, tg);
    if (inst->seq == c->seq) inst->contact = FG_ON_HIT;
    /* One grab per target per throw definition. */
    fg_hit_log_add(w, att, c->layer, c->def, tg->id, t);
    const fg_ruleset *tr = fg_world_rules_of(w, tg);
    uint32_t tversion = w->state->slot_version[tg->rules_slot];
    int id = th->reaction[0] ? fg_ruleset_find_action(tr, th->reaction) : -1;
    uint16_t react = id >= 0 ? (uint16_t)id : tr->hitstun;
    tg->combat.grabbed_by = att->id;
    w->grabs = 2;
    tg->combat.grab_layer = c->layer;
    tg->combat.grab_def = c->def;
    tg->combat.grab_seq = c->seq;
    tg->combat.tech_until = t + 1 + th->tech_window;
    if (react != FG_NO_ACTION)
        fg_world_start_action(w, tg, tr->rt[react].layer, react, tversion, FG_TR_HIT,
                              th->tech_window + 1 + th->stun, t);
    fg_world_trace4(w, t, tg->id, FG_TRACE_THROW, FG_THROW_GRABBED, att->id,
                    (int64_t)((uint64_t)c->version << 32 | c->action), th->tech_window,
                    tg->combat.tech_until);
}

/* Whether the grabbed entity asked for its tech this tick: a motion command for the tech action
** (by default the throw itself, looked up by name in the target's own ruleset), or a request for
** it (a script's, an AI's) that the thrown state refused this tick. */
static bool teched(const fg_world *w, const fg_entity_state *tg, const fg_throw_def *th,
                   const char *throw_name, fg_tick t) {
    const fg_ruleset *tr = fg_world_rules_of(w, tg);
    int tech = fg_ruleset_find_action(tr, th->tech_input[0] ? th->tech_input : throw_name);
    if (tech < 0) return false;
    if (tg->last_decision.tick == t && tg->last_decision.action == (uint16_t)tech) return true;
    uint32_t slot = tg->id - 1;
    for (uint32_t i = 0; i < w->ncommands[slot]; i++) {
        const fg_motion_command *cmd = &w->commands[(size_t)slot * FG_COMMANDS_PER_TICK + i];
        for (int g = -1; g < (int)tr->ngroups; g++)
            if (fg_ruleset_motion_action(tr, cmd->motion, g) == tech) return true;
    }
    return false;
}

static void release(fg_world *w, fg_entity_state *es, fg_tick t) {
    fg_world_hash_touch(w, es);
    es->combat.grabbed_by = 0;
    es->combat.tech_until = 0;
    es->combat.grab_seq = 0;
    es->combat.grab_layer = 0;
    es->combat.grab_def = 0;
    (void)t;
}

static void tech(fg_world *w, fg_entity_state *att, fg_entity_state *tg, fg_tick t) {
    int away = tg->x >= att->x ? 1 : -1;
    fg_world_hash_touch(w, att);
    fg_world_hash_touch(w, tg);
    tg->combat.push_left = away * TECH_PUSH;
    att->combat.push_left = -away * TECH_PUSH;
    fg_entity_combat_changed(tg);
    fg_entity_combat_changed(att);
    const fg_instance *inst = &att->layers[tg->combat.grab_layer];
    fg_world_trace4(w, t, tg->id, FG_TRACE_THROW, FG_THROW_TECHED, att->id,
                    (int64_t)((uint64_t)inst->version << 32 | inst->action), 0, 0);
    release(w, tg, t);
    fg_world_start_neutral(w, tg, t, FG_TR_INTERRUPTED);
    fg_world_start_neutral(w, att, t, FG_TR_INTERRUPTED);
}

static void land(fg_world *w, fg_entity_state *att, fg_entity_state *tg, const fg_throw_def *th,
                 const fg_instance *inst, fg_tick t) {
    const fg_ruleset *tr = fg_world_rules_of(w, tg);
    fg_world_hash_touch(w, tg);
    if (tr->health >= 0) {
        tg->res[tr->health] -= th->damage;
        if (tg->res[tr->health] < 0) tg->res[tr->health] = 0;
    }
    int away = tg->x != att->x ? (tg->x > att->x ? 1 : -1) : (att->facing ? -1 : 1);
    if (th->launch_vx || th->launch_vy) {
        tg->vx = (fg_fx)(away * (tg->facing ? -1 : 1) * th->launch_vx);
        tg->vy = th->launch_vy;
        if (th->launch_vy > 0) tg->combat.launched = 1;
        fg_entity_combat_changed(tg);
    }
    if (th->knockdown > tg->combat.knockdown) tg->combat.knockdown = (uint8_t)th->knockdown;
    fg_world_trace4(w, t, tg->id, FG_TRACE_THROW, FG_THROW_LANDED, att->id,
                    (int64_t)((uint64_t)inst->version << 32 | inst->action), th->damage, 0);
    release(w, tg, t);
}

/* Each tick before the collision phase: a tech on a window tick, or the throw lands past it. */
void fg_throw_advance(fg_world *w, fg_tick t) {
    /* Most ticks nobody is held: then this reads no record (internal.h, grabs). */
    if (w->grabs == 1) return;
    bool held = false;
    for (uint32_t s = 0; s < w->state->nentities; s++) {
        fg_entity_state *tg = &w->entities[s];
        if (!tg->combat.grabbed_by) continue;
        held = true;
        fg_entity_state *att = fg_world_entity(w, tg->combat.grabbed_by);
        const fg_instance *inst = att ? &att->layers[tg->combat.grab_layer] : NULL;
        /* The thrower lost its throw (a hit from elsewhere): the target goes free. */
        if (!inst || inst->seq != tg->combat.grab_seq || inst->action == FG_NO_ACTION) {
            release(w, tg, t);
            continue;
        }
        const fg_ruleset *ar = w->versions[inst->version];
        const fg_throw_def *th = &ar->rt[inst->action].hits.thr[tg->combat.grab_def];
        if (t < tg->combat.tech_until) {
            if (teched(w, tg, th, ar->defs[inst->action].name, t)) tech(w, att, tg, t);
        } else {
            land(w, att, tg, th, inst, t);
        }
    }
    w->grabs = held ? 2 : 1; /* a hold ended here is found gone on the next tick */
}
