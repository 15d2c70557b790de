/* SPDX-License-Identifier: MIT */
/*
** hit.c: what a contact does, committed once by the gate. The collision phase (collide.c) found
** which boxes touch; here each contact is judged against the state before any of this tick's
** hits (blocked or not, counter hit, juggle limit, the trade rule), and only then applied, the
** attackers' side first and the targets' second, so that two fighters hitting each other on one
** tick trade the same way whichever is listed first.
**
** Also the slow parts of a hit that outlive its tick: the pushback slide, landing from a launch
** (knockdown and wake-up), and the combo that ends when the target recovers. Bounces are
** bounce.c's: a hit arms them here, the movement phase uses them.
*/
#include "internal.h"

#include <string.h>

static int sign_of(fg_facing f) { return f == FG_FACING_LEFT ? -1 : 1; }

static const fg_action_hits *hits_of(const fg_world *w, const fg_instance *inst) {
    return &w->versions[inst->version]->rt[inst->action].hits;
}

/* The hit definition of a contact: of the attacker's action as it was when the contact was
** found. */
static const fg_hit_def *contact_hit(const fg_world *w, const fg_contact_rec *c) {
    if (c->proj) return &fg_projectile_def_of(w, &w->projs[c->proj - 1])->hit;
    return &w->versions[c->version]->rt[c->action].hits.hit[c->def];
}

/* Where the blow comes from: the attacker, or its projectile. */
static fg_fx source_x(const fg_world *w, const fg_contact_rec *c) {
    return c->proj ? w->projs[c->proj - 1].x : w->entities[c->attacker].x;
}

static fg_facing source_facing(const fg_world *w, const fg_contact_rec *c) {
    return (fg_facing)(c->proj ? w->projs[c->proj - 1].facing : w->entities[c->attacker].facing);
}

/* {====================================================================== judging a contact */

/* Whether the target blocks: on the ground, free (or already blocking), holding away from the
** attacker (not from where it faces: a crossup that lands behind it must be blocked the other
** way), and at the right height for the hit's guard. */
static bool blocks(const fg_world *w, fg_fx ax, const fg_entity_state *tg, fg_guard guard) {
    if (guard == FG_GUARD_UNBLOCKABLE) return false;
    const fg_instance *body = &tg->layers[0];
    if (body->action != FG_NO_ACTION) {
        const fg_ruleset *br = w->versions[body->version]; /* the version it started with */
        const fg_action_rt *cur = &br->rt[body->action];
        bool free = cur->neutral || body->action == br->blockstun;
        if (!free || (int)cur->group == br->airborne) return false;
    }
    if (tg->combat.launched) return false;
    const fg_buffer *b = fg_world_buffer_at(w, tg->id - 1);
    /* "Away" as a facing: the side the attacker is not on (its own facing when level). */
    fg_facing toward = ax > tg->x   ? FG_FACING_RIGHT
                       : ax < tg->x ? FG_FACING_LEFT
                                        : (fg_facing)tg->facing;
    int rel = fg_numpad_relative(b->dir, toward);
    bool back = rel == 4 || rel == 1 || rel == 7;
    bool crouching = rel == 1;
    if (!back) return false;
    if (guard == FG_GUARD_LOW && !crouching) return false;
    if (guard == FG_GUARD_OVERHEAD && crouching) return false;
    return true;
}

/* The target was caught in the startup or active ticks of an attack of its own. */
static bool counter_hit(const fg_world *w, const fg_entity_state *tg) {
    const fg_instance *body = &tg->layers[0];
    if (body->action == FG_NO_ACTION) return false;
    const fg_action_hits *h = hits_of(w, body);
    return h->last_hit_tick >= 0 && body->elapsed <= h->last_hit_tick && body->contact == 0;
}

/* Whether the target is still in the combo that earlier hits started: in a hit reaction or in
** the air from a hit. */
static bool in_combo(const fg_world *w, const fg_entity_state *tg) {
    if (tg->combat.launched) return true;
    const fg_instance *body = &tg->layers[0];
    if (body->action == FG_NO_ACTION) return false;
    return hits_of(w, body)->is_reaction;
}

static int32_t scaled(int32_t damage, int32_t percent) {
    return (int32_t)((int64_t)damage * percent / 100);
}

/* Decides a strike against the state before this tick's hits. */
static void judge_strike(const fg_world *w, fg_contact_rec *c) {
    const fg_entity_state *att = &w->entities[c->attacker], *tg = &w->entities[c->target];
    const fg_hit_def *hit = contact_hit(w, c);
    c->miss = 0;
    c->counter = 0;
    c->juggle_used = tg->combat.juggle;
    c->contact = blocks(w, source_x(w, c), tg, hit->guard) ? FG_ON_BLOCK : FG_ON_HIT;
    if (c->contact == FG_ON_BLOCK) {
        c->damage = hit->chip;
        return;
    }
    const fg_ruleset *tr = fg_world_rules_of(w, tg);
    if (tg->combat.launched && tr->combat.juggle_limit > 0 &&
        tg->combat.juggle + hit->juggle > tr->combat.juggle_limit) {
        c->miss = FG_MISS_JUGGLE_LIMIT;
        return;
    }
    c->counter = counter_hit(w, tg);
    int32_t damage = hit->damage;
    if (c->counter && hit->counter_damage > 0) damage = scaled(damage, hit->counter_damage);
    /* The combo's scaling: the attacker's table, by the hit's place in the combo. */
    const fg_combat_def *cd = &fg_world_rules_of(w, att)->combat;
    int32_t nth = in_combo(w, tg) ? tg->combat.combo : 0; /* hits before this one */
    if (cd->nscaling > 0) {
        uint32_t i = (uint32_t)nth < cd->nscaling ? (uint32_t)nth : cd->nscaling - 1;
        damage = scaled(damage, cd->scaling[i]);
    }
    c->damage = damage;
}

/* Same-tick strikes between two fighters: under the priority rule (both rulesets ask for it)
** the lower priority misses; equal priorities both hit. */
static void settle_trades(fg_world *w) {
    fg_collide_space *s = &w->coll;
    for (uint32_t i = 0; i < s->ncontacts; i++) {
        fg_contact_rec *a = &s->contacts[i];
        if (a->kind != FG_BOX_HIT || a->miss || a->proj) continue;
        for (uint32_t j = i + 1; j < s->ncontacts; j++) {
            fg_contact_rec *b = &s->contacts[j];
            if (b->kind != FG_BOX_HIT || b->miss || b->proj) continue;
            if (b->attacker != a->target || b->target != a->attacker) continue;
            a->trade = b->trade = 1;
            bool prio = fg_world_rules_of(w, &w->entities[a->attacker])->combat.trade_priority &&
                        fg_world_rules_of(w, &w->entities[b->attacker])->combat.trade_priority;
            if (!prio || a->priority == b->priority) continue;
            fg_contact_rec *loser = a->priority < b->priority ? a : b;
            loser->miss = FG_MISS_LOST_TRADE;
        }
    }
}

/* }====================================================================== */

/* {====================================================================== applying */

void fg_hit_log_add(const fg_world *w, fg_entity_state *att, uint32_t layer, uint32_t def,
                    fg_entity target, fg_tick t) {
    fg_world_hash_touch(w, att);
    fg_hit_log *slot = NULL, *oldest = &att->combat.log[0];
    for (uint32_t i = 0; i < FG_HIT_LOG; i++) {
        fg_hit_log *e = &att->combat.log[i];
        if (e->target == target && e->layer == layer && e->def == def) {
            slot = e;
            break;
        }
        if (!slot && e->target == 0) slot = e;
        if (e->last < oldest->last) oldest = e;
    }
    /* Full: the target hit longest ago is forgotten (deterministically). */
    if (!slot) slot = oldest;
    if (slot->target != target || slot->layer != layer || slot->def != def) {
        memset(slot, 0, sizeof *slot);
        slot->target = target;
        slot->layer = (uint8_t)layer;
        slot->def = (uint8_t)def;
        att->combat.log_used |= (uint8_t)(1u << (slot - att->combat.log));
    }
    if (slot->count < UINT8_MAX) slot->count++;
    slot->last = t;
}

void fg_hit_forget_layer(const fg_world *w, fg_entity_state *es, uint32_t layer) {
    fg_combat *c = &es->combat;
    for (uint32_t used = c->log_used; used; used &= used - 1) {
        uint32_t i = (uint32_t)__builtin_ctz(used);
        if (c->log[i].layer != layer) continue;
        fg_world_hash_touch(w, es);
        memset(&c->log[i], 0, sizeof c->log[i]);
        c->log_used &= (uint8_t)~(1u << i);
    }
}

static void freeze(fg_entity_state *es, fg_tick t, int32_t ticks) {
    if (ticks <= 0) return;
    fg_tick until = t + 1 + ticks;
    /* A trade freezes a fighter as attacker and as target: the longer freeze wins. */
    if (es->frozen_until > t + 1 && es->frozen_from == t + 1 && es->frozen_until > until) return;
    es->frozen_from = t + 1;
    es->frozen_until = until;
}

static void gain(fg_entity_state *es, const fg_ruleset *r, int32_t amount) {
    if (r->meter < 0 || amount == 0) return;
    int32_t max = r->resources[r->meter].max;
    es->res[r->meter] += amount;
    if (es->res[r->meter] > max) es->res[r->meter] = max;
    if (es->res[r->meter] < 0) es->res[r->meter] = 0;
}

static int32_t hitstop_of(const fg_hit_def *h, bool target, bool counter) {
    int32_t hs = target && h->hitstop_target > 0 ? h->hitstop_target : h->hitstop;
    return hs + (counter ? h->counter_hitstop : 0);
}

static void attacker_side(fg_world *w, const fg_contact_rec *c, fg_tick t) {
    if (c->proj) {
        fg_projectile_landed(w, c);
        return;
    }
    fg_entity_state *att = &w->entities[c->attacker];
    fg_instance *inst = &att->layers[c->layer];
    const fg_hit_def *h = contact_hit(w, c);
    fg_world_hash_touch(w, att); /* its contact, meter, pushback */
    if (inst->seq == c->seq) {
        inst->contact = c->contact;
        if (c->contact == FG_ON_HIT)
            fg_vars_apply(w, att, w->versions[inst->version], inst->action, FG_VAR_ON_HIT, t);
    }
    fg_hit_log_add(w, att, c->layer, c->def, w->entities[c->target].id, t);
    gain(att, fg_world_rules_of(w, att), h->meter_gain);
    freeze(att, t, hitstop_of(h, false, c->counter));
}

/* The reaction the target's ruleset has for a name in the attacker's data ("" = its hitstun). */
static uint16_t reaction_in(const fg_ruleset *tr, const char *name, uint16_t fallback) {
    if (!name[0]) return fallback;
    int id = fg_ruleset_find_action(tr, name);
    return id < 0 ? fallback : (uint16_t)id;
}

static void target_side(fg_world *w, const fg_contact_rec *c, fg_tick t) {
    fg_entity_state *att = &w->entities[c->attacker], *tg = &w->entities[c->target];
    const fg_hit_def *h = contact_hit(w, c);
    const fg_ruleset *tr = fg_world_rules_of(w, tg);
    uint32_t tversion = w->state->slot_version[tg->rules_slot];
    bool hit = c->contact == FG_ON_HIT;
    fg_world_hash_touch(w, tg);  /* its combo, health, launch, knockdown */
    fg_world_hash_touch(w, att); /* the slide back from a corner */
    if (hit) {
        if (!in_combo(w, tg)) {
            tg->combat.combo = 0;
            tg->combat.combo_damage = 0;
            tg->combat.juggle = 0;
            fg_bounce_combo_ended(tg);
        }
        tg->combat.combo++;
        tg->combat.combo_damage += c->damage;
        if (tg->combat.launched) tg->combat.juggle += h->juggle;
        fg_entity_combat_changed(tg);
    }
    if (tr->health >= 0) {
        tg->res[tr->health] -= c->damage;
        if (tg->res[tr->health] < 0) tg->res[tr->health] = 0;
    }
    gain(tg, tr, h->meter_target);
    bool airborne = tg->combat.launched || tg->support == FG_SUPPORT_NONE;
    uint16_t stun;
    if (!hit) stun = tr->blockstun;
    else if (airborne && h->air_reaction[0]) stun = reaction_in(tr, h->air_reaction, tr->hitstun);
    else stun = reaction_in(tr, h->reaction, tr->hitstun);
    int32_t ticks = hit ? h->hitstun + (c->counter ? h->counter_hitstun : 0) : h->blockstun;
    if (stun != FG_NO_ACTION)
        fg_world_start_action(w, tg, tr->rt[stun].layer, stun, tversion,
                              hit ? FG_TR_HIT : FG_TR_BLOCKED, ticks, t);
    /* Away from the attacker: along its facing when they stand on one spot. */
    fg_fx ax = source_x(w, c);
    int away = tg->x != ax ? (tg->x > ax ? 1 : -1) : sign_of(source_facing(w, c));
    /* In the corner the wall keeps the target from sliding: the attacker slides back instead
    ** (not the owner of a projectile: it is elsewhere). */
    fg_fx rest = fg_push_corner(w, tg, away, hit ? h->pushback_hit : h->pushback_block);
    if (rest && !c->proj) {
        att->combat.push_left = (fg_fx)(-away * rest);
        fg_entity_combat_changed(att);
    }
    if (hit && (h->launch_vx || h->launch_vy)) {
        /* vx is along the target's facing in movement; the launch goes away from the attacker. */
        tg->vx = (fg_fx)(away * sign_of((fg_facing)tg->facing) * h->launch_vx);
        tg->vy = h->launch_vy;
        if (h->launch_vy > 0) tg->combat.launched = 1;
        fg_entity_combat_changed(tg);
    }
    if (hit) fg_bounce_arm(w, tg, h, away, att->id);
    if (hit && h->knockdown > tg->combat.knockdown) tg->combat.knockdown = (uint8_t)h->knockdown;
    freeze(tg, t, hitstop_of(h, true, c->counter));
    fg_world_trace4(w, t, tg->id, FG_TRACE_HIT, c->contact, att->id,
                    (int64_t)((uint64_t)c->version << 32 | c->action), c->damage,
                    hitstop_of(h, true, c->counter));
}

static void emit_event(fg_world *w, const fg_contact_rec *c, fg_tick t) {
    if (w->nevents >= w->cap_events) return;
    const fg_entity_state *att = &w->entities[c->attacker], *tg = &w->entities[c->target];
    fg_event *ev = &w->events[w->nevents++];
    memset(ev, 0, sizeof *ev);
    ev->tick = t;
    ev->entity = att->id;
    ev->layer = c->layer;
    ev->seq = c->seq;
    ev->marker = FG_EVENT_NO_MARKER;
    ev->action = c->action;
    ev->kind = c->kind == FG_BOX_THROW ? FG_EVENT_THROW : FG_EVENT_HIT;
    ev->contact = c->miss ? FG_ON_WHIFF : c->contact;
    ev->target = tg->id;
    ev->hit_box = c->hit_box;
    ev->hurt_box = c->hurt_box;
    ev->counter = c->counter;
    ev->miss = c->miss;
    ev->x = c->px;
    ev->y = c->py;
    ev->damage = c->miss ? 0 : c->damage;
    ev->combo = tg->combat.combo;
    ev->projectile = c->proj ? w->projs[c->proj - 1].id : 0;
}

static void trace_miss(fg_world *w, const fg_contact_rec *c, fg_tick t) {
    const fg_entity_state *att = &w->entities[c->attacker], *tg = &w->entities[c->target];
    fg_world_trace4(w, t, tg->id, FG_TRACE_MISS, c->miss, att->id,
                    (int64_t)((uint64_t)c->version << 32 | c->action), c->juggle_used,
                    fg_world_rules_of(w, tg)->combat.juggle_limit);
}

void fg_hit_commit(fg_world *w, fg_tick t) {
    fg_collide_space *s = &w->coll;
    for (uint32_t i = 0; i < s->ncontacts; i++) {
        fg_contact_rec *c = &s->contacts[i];
        /* A projectile's contact costs one of its hits; with none left it does nothing. */
        if (c->proj && !fg_projectile_take_hit(w, c, t)) c->skip = 1;
        else if (c->kind == FG_BOX_HIT) judge_strike(w, c);
        else fg_throw_judge(w, c, t);
    }
    settle_trades(w);
    for (uint32_t i = 0; i < s->ncontacts; i++) {
        const fg_contact_rec *c = &s->contacts[i];
        if (c->skip) continue;
        if (c->miss && c->proj) {
            trace_miss(w, c, t);
        } else if (c->miss) {
            /* A hit that misses still counts as this action's hit on that target: it does not
            ** come back next tick. */
            fg_hit_log_add(w, &w->entities[c->attacker], c->layer, c->def,
                           w->entities[c->target].id, t);
            trace_miss(w, c, t);
        } else if (c->kind == FG_BOX_HIT) {
            attacker_side(w, c, t);
        }
    }
    for (uint32_t i = 0; i < s->ncontacts; i++) {
        const fg_contact_rec *c = &s->contacts[i];
        if (c->skip) continue;
        if (!c->miss && c->kind == FG_BOX_HIT) target_side(w, c, t);
        else if (!c->miss) fg_throw_grab(w, c, t);
        emit_event(w, c, t);
    }
}

/* The `range` shorthand: on its hit marker's tick, the hit connects with the opponent when the
** box from the attacker's origin to `range` in front of it (at every height) touches a hurt box. */
uint8_t fg_hit_marker(fg_world *w, fg_entity_state *es, uint32_t layer, fg_tick t,
                      fg_entity *target) {
    fg_entity_state *tg = fg_world_entity(w, es->opponent);
    if (!tg) return 0;
    fg_instance *inst = &es->layers[layer];
    const fg_action_hits *h = hits_of(w, inst);
    if (!fg_collide_allowed(es, layer, 0, &h->hit[0], tg->id, t)) return 0;
    if (fg_collide_invulnerable(w, tg, FG_BOX_HIT, t)) return 0;
    fg_box reach = {0, INT32_MIN / 2, h->hit[0].range, INT32_MAX};
    fg_rect rr = fg_box_place(reach, es->x, es->y, (fg_facing)es->facing);
    fg_live_box tb[FG_MAX_BOXES * FG_MAX_LAYERS + 1];
    uint32_t nt =
        fg_collide_boxes(w, tg, FG_BOX_HURT, t, false, tb, FG_MAX_BOXES * FG_MAX_LAYERS + 1);
    fg_contact_rec c;
    memset(&c, 0, sizeof c);
    uint32_t j = 0;
    fg_rect o;
    while (j < nt && !fg_rect_overlap(rr, tb[j].rect, &o)) j++;
    if (j == nt) return 0;
    c.attacker = es->id - 1;
    c.target = tg->id - 1;
    c.layer = (uint8_t)layer;
    c.kind = FG_BOX_HIT;
    c.hit_box = 0xFF;
    c.hurt_box = tb[j].index;
    c.px = (fg_fx)(((int64_t)o.x0 + o.x1) / 2);
    c.py = es->y;
    c.action = inst->action;
    c.version = inst->version;
    c.seq = inst->seq;
    judge_strike(w, &c);
    if (c.miss) {
        fg_hit_log_add(w, es, layer, 0, tg->id, t);
        trace_miss(w, &c, t);
        return 0;
    }
    attacker_side(w, &c, t);
    target_side(w, &c, t);
    *target = tg->id;
    return c.contact;
}

/* }====================================================================== */

/* {====================================================================== after the hit */

/* The pushback slide: a quarter of what is left each tick (at least a pixel), so the whole
** distance is covered exactly, fast at first. */
void fg_hit_slide(const fg_world *w, fg_entity_state *es) {
    if (!es->combat_live) return; /* no slide, and the combat state's line is not read */
    fg_fx left = es->combat.push_left;
    if (!left) return;
    fg_world_hash_touch(w, es);
    fg_fx step = left / 4;
    if (step > -FG_FX_ONE && step < FG_FX_ONE)
        step = left > 0 ? (left < FG_FX_ONE ? left : FG_FX_ONE)
                        : (left > -FG_FX_ONE ? left : -FG_FX_ONE);
    es->x += step;
    es->combat.push_left = left - step;
    fg_entity_combat_changed(es);
}

/* A combo ends when its target is free again: not in a hit reaction, not in the air from a
** hit, not frozen, not held by a throw. */
void fg_hit_settle(const fg_world *w, fg_entity_state *es, fg_tick t) {
    fg_combat *c = &es->combat;
    if (!es->combat_live || !c->combo || c->launched || c->grabbed_by ||
        fg_entity_frozen(es, t + 1))
        return;
    if (in_combo(w, es)) return;
    fg_world_hash_touch(w, es);
    c->combo = 0;
    c->combo_damage = 0;
    c->juggle = 0;
    fg_entity_combat_changed(es);
    fg_bounce_combo_ended(es);
}

/* Landing ends the launch: the juggle is over, and a knockdown keeps the fighter down. */
void fg_hit_landed(fg_world *w, fg_entity_state *es, fg_tick t) {
    if (!es->combat.launched && !es->combat.knockdown) return;
    fg_world_hash_touch(w, es);
    es->combat.launched = 0;
    es->combat.juggle = 0;
    fg_entity_combat_changed(es);
    fg_bounce_forget(es);
    uint8_t kd = es->combat.knockdown;
    es->combat.knockdown = 0;
    if (!kd) return;
    const fg_ruleset *r = fg_world_rules_of(w, es);
    int32_t down = kd == FG_KNOCKDOWN_HARD ? r->combat.hard_wakeup : r->combat.soft_wakeup;
    es->combat.throw_invuln_until = t + 1 + down + r->combat.wakeup_throw_invuln;
    if (r->knockdown == FG_NO_ACTION || down <= 0) return;
    uint32_t version = w->state->slot_version[es->rules_slot];
    fg_world_start_action(w, es, r->rt[r->knockdown].layer, r->knockdown, version,
                          FG_TR_LANDED, down, t);
}

/* }====================================================================== */
