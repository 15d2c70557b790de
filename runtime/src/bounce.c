/* SPDX-License-Identifier: MIT */
/*
** bounce.c: wall and ground bounces. A hit that declares them arms them on the target it leaves
** in the air (hit.c, when it lands); the movement phase (tick.c) then hands over each move of a
** launched entity with one armed: the first wall it is stopped at, or the first surface it would
** land on, sends it off again with the declared velocity, once, and starts its hit reaction again
** for the declared stun. Landing for good forgets whatever is left. A combo allows its target
** combat.bounce_limit bounces (its own ruleset's) and refuses the ones past it. Integer
** arithmetic on the entity's own record, in the order of the movement phase; nothing allocates.
*/
#include "internal.h"

#include <string.h>

const char *fg_bounce_kind_name(fg_bounce_kind k) {
    return k == FG_BOUNCE_WALL ? "wall" : k == FG_BOUNCE_GROUND ? "ground" : "?";
}

static uint8_t bit_of(fg_bounce_kind k) { return (uint8_t)(1u << (k - 1)); }
static int side_sign(uint8_t side) { return side == 2 ? -1 : 1; }
static int sign_of(fg_facing f) { return f == FG_FACING_LEFT ? -1 : 1; }

/* Back to nothing armed; the combo's count of bounces stays. */
static void disarm(fg_bounce_state *b) {
    uint8_t used = b->used;
    memset(b, 0, sizeof *b);
    b->used = used;
}

/* Whether the target's combo has used the bounces its ruleset allows (combat.bounce_limit). */
static bool at_limit(const fg_world *w, const fg_entity_state *es) {
    int32_t limit = fg_world_rules_of(w, es)->combat.bounce_limit;
    return limit > 0 && es->combat.bounce.used >= limit;
}

/* Arms what the hit declares, replacing what an earlier hit armed: only on a target the hit left
** in the air (launched), which is the only one that can reach a wall or a landing from it, and
** whose combo may still bounce. `away` is the direction away from the attacker along x (+1 or
** -1). */
void fg_bounce_arm(const fg_world *w, fg_entity_state *tg, const fg_hit_def *h, int away,
                   fg_entity by) {
    fg_bounce_state *b = &tg->combat.bounce;
    bool wall = h->wall_bounce.enabled, ground = h->ground_bounce.enabled;
    if (!b->armed && !wall && !ground) return; /* the common case writes nothing */
    disarm(b);
    if (!tg->combat.launched || (!wall && !ground) || at_limit(w, tg)) return;
    b->by = by;
    /* The way the hit sends it: away from the attacker, or toward it for a negative vx. */
    b->side = (uint8_t)((h->launch_vx < 0 ? -away : away) > 0 ? 1 : 2);
    if (wall) {
        b->armed |= bit_of(FG_BOUNCE_WALL);
        b->wall_vx = h->wall_bounce.vx;
        b->wall_vy = h->wall_bounce.vy;
        b->wall_stun = h->wall_bounce.stun > 0 ? h->wall_bounce.stun : h->hitstun;
    }
    if (ground) {
        b->armed |= bit_of(FG_BOUNCE_GROUND);
        b->ground_vx = h->ground_bounce.vx;
        b->ground_vy = h->ground_bounce.vy;
        b->ground_stun = h->ground_bounce.stun > 0 ? h->ground_bounce.stun : h->hitstun;
    }
}

void fg_bounce_forget(fg_entity_state *es) {
    if (es->combat.bounce.armed) disarm(&es->combat.bounce);
}

void fg_bounce_combo_ended(fg_entity_state *es) {
    if (es->combat.bounce.used) es->combat.bounce.used = 0;
}

/* Its hit reaction again, for `stun` ticks: the reaction it is in (looked up by name in its
** ruleset now, which a reload may have changed), or its ruleset's hitstun once that ended. */
static void restart_reaction(fg_world *w, fg_entity_state *es, int32_t stun, fg_tick t) {
    uint32_t version = w->state->slot_version[es->rules_slot];
    const fg_ruleset *r = w->versions[version];
    const fg_instance *body = &es->layers[0];
    int react = -1;
    if (body->action != FG_NO_ACTION) {
        const fg_ruleset *br = w->versions[body->version];
        if (br->rt[body->action].hits.is_reaction)
            react = fg_ruleset_find_action(r, br->defs[body->action].name);
    }
    if (react < 0) react = r->hitstun == FG_NO_ACTION ? -1 : r->hitstun;
    if (react < 0) return;
    fg_world_start_action(w, es, r->rt[react].layer, (uint32_t)react, version, FG_TR_BOUNCED,
                          stun, t);
}

static void bounce_event(fg_world *w, const fg_entity_state *es, fg_bounce_kind kind, fg_fx x,
                         fg_fx y, fg_tick t) {
    if (w->nevents >= w->cap_events) return;
    fg_event *ev = &w->events[w->nevents++];
    memset(ev, 0, sizeof *ev);
    const fg_instance *body = &es->layers[0];
    ev->tick = t;
    ev->entity = es->id;
    ev->layer = 0;
    ev->seq = body->seq;
    ev->action = body->action;
    ev->marker = FG_EVENT_NO_MARKER;
    ev->kind = FG_EVENT_BOUNCE;
    ev->bounce = (uint8_t)kind;
    ev->target = es->combat.bounce.by;
    ev->hit_box = ev->hurt_box = 0xFF;
    ev->x = x;
    ev->y = y;
    ev->combo = es->combat.combo;
}

/* A kind used (or refused) leaves the armed set: its fields go back to zero with its bit (a
** restore checks that they do). */
static void take(fg_bounce_state *b, fg_bounce_kind kind) {
    b->armed &= (uint8_t)~bit_of(kind);
    if (kind == FG_BOUNCE_WALL) b->wall_vx = b->wall_vy = b->wall_stun = 0;
    else b->ground_vx = b->ground_vy = b->ground_stun = 0;
}

/* One bounce: the velocity (world x, turned into the entity's facing, as movement reads it), the
** trace, the reaction, the event; the kind is used up. */
static void bounce(fg_world *w, fg_entity_state *es, fg_bounce_kind kind, int dir, fg_fx vx,
                   fg_fx vy, int32_t stun, fg_tick t) {
    fg_bounce_state *b = &es->combat.bounce;
    take(b, kind);
    b->side = (uint8_t)(dir > 0 ? 1 : 2);
    es->vx = (fg_fx)(dir * sign_of((fg_facing)es->facing) * vx);
    es->vy = vy;
    fg_fx at = kind == FG_BOUNCE_WALL ? es->x : es->y;
    fg_world_trace4(w, t, es->id, FG_TRACE_BOUNCE, kind, b->by,
                    (int64_t)((uint64_t)(uint32_t)stun << 32 | (uint32_t)at), vx, vy);
    restart_reaction(w, es, stun, t);
    bounce_event(w, es, kind, es->x, es->y, t); /* of the reaction it is in now */
    if (b->used < UINT8_MAX) b->used++;
    if (!b->armed) disarm(b); /* nothing left to use */
}

/* The combo has used its bounces: this one is dropped, traced with the count and the limit, and
** the move goes on as if none had been armed. */
static void refuse(fg_world *w, fg_entity_state *es, fg_bounce_kind kind, fg_tick t) {
    fg_bounce_state *b = &es->combat.bounce;
    fg_world_trace4(w, t, es->id, FG_TRACE_BOUNCE, (int)kind + FG_BOUNCE_REFUSED, b->by, b->used,
                    fg_world_rules_of(w, es)->combat.bounce_limit, 0);
    take(b, kind);
    if (!b->armed) disarm(b);
}

/* After the move of a launched entity with a bounce armed (tick.c): `want_x` is where its
** velocity and slide took it before the stage stopped it, `*c` what the stage says. A wall that
** stopped it while its wall bounce is armed sends it back; a landing while its ground bounce is
** armed (or just after a wall bounce that sends it up) is not a landing: it leaves the surface
** with the declared velocity, and c->support says it stands on nothing. */
void fg_bounce_move(fg_world *w, fg_entity_state *es, fg_fx want_x, fg_stage_contact *c,
                    bool airborne, fg_tick t) {
    const fg_stage *s = &w->state->stage;
    fg_bounce_state *b = &es->combat.bounce;
    fg_world_hash_touch(w, es); /* a bounce or a refusal takes what is armed */
    bool lands = c->support != FG_SUPPORT_NONE && airborne;
    if (b->armed & bit_of(FG_BOUNCE_WALL)) {
        int off = 0; /* the way back into the stage */
        if (want_x < s->wall_min && es->x == s->wall_min) off = 1;
        else if (want_x > s->wall_max && es->x == s->wall_max) off = -1;
        if (off && at_limit(w, es)) {
            refuse(w, es, FG_BOUNCE_WALL, t);
        } else if (off) {
            fg_world_hash_touch(w, es);
            es->combat.push_left = 0; /* the wall took the rest of the slide */
            fg_entity_combat_changed(es);
            bounce(w, es, FG_BOUNCE_WALL, off, b->wall_vx, b->wall_vy, b->wall_stun, t);
            if (lands && es->vy > 0) lands = false, c->support = FG_SUPPORT_NONE;
        }
    }
    if (lands && (b->armed & bit_of(FG_BOUNCE_GROUND)) && at_limit(w, es)) {
        refuse(w, es, FG_BOUNCE_GROUND, t);
    } else if (lands && (b->armed & bit_of(FG_BOUNCE_GROUND))) {
        bounce(w, es, FG_BOUNCE_GROUND, side_sign(b->side), b->ground_vx, b->ground_vy,
               b->ground_stun, t);
        c->support = FG_SUPPORT_NONE;
    }
    es->support = c->support;
}

/* The bounce state's words in the world's fold (world_hash.c folds them after the rest of the
** combat state): none unless one is armed or the combo has used one, so a world without bounces
** hashes as it did before they existed. Returns how many it wrote. */
uint32_t fg_bounce_words(const fg_bounce_state *b, uint64_t out[FG_BOUNCE_WORDS]) {
    if (!b->armed && !b->used) return 0;
    out[0] = (uint64_t)b->armed | (uint64_t)b->side << 8 | (uint64_t)b->used << 16 |
             (uint64_t)b->by << 32;
    out[1] = (uint64_t)(uint32_t)b->wall_vx | (uint64_t)(uint32_t)b->wall_vy << 32;
    out[2] = (uint64_t)(uint32_t)b->ground_vx | (uint64_t)(uint32_t)b->ground_vy << 32;
    out[3] = (uint64_t)(uint32_t)b->wall_stun | (uint64_t)(uint32_t)b->ground_stun << 32;
    return FG_BOUNCE_WORDS;
}
