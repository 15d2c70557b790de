/* SPDX-License-Identifier: MIT */
/*
** world_combat.c: the world's combat API for hosts and tools: teams and owners (who may hit
** whom), the live boxes of an entity as the collision phase sees them, the combat state (combo,
** juggle, knockdown, throws, bounces armed). The state hash folds the combat state in
** world_hash.c.
*/
#include "internal.h"

#include <string.h>

fg_status fg_world_set_team(fg_world *w, fg_entity e, uint32_t team, fg_error *err) {
    fg_entity_state *es = fg_world_entity(w, e);
    if (!es) return fg_world_no_entity(w, e, err);
    fg_world_note_edit(w, "team");
    es->combat.team = team;
    w->teams = 0; /* tick.c looks again */
    return FG_OK;
}

fg_status fg_world_set_owner(fg_world *w, fg_entity e, fg_entity owner, fg_error *err) {
    fg_entity_state *es = fg_world_entity(w, e);
    if (!es) return fg_world_no_entity(w, e, err);
    if (owner != 0 && !fg_world_entity(w, owner)) return fg_world_no_entity(w, owner, err);
    if (owner == e)
        return fg_error_set(err, FG_EINVAL, "set_owner: entity %u cannot own itself", e);
    fg_world_note_edit(w, "owner");
    es->combat.owner = owner;
    return FG_OK;
}

uint32_t fg_world_boxes(const fg_world *w, fg_entity e, fg_box_kind kind, fg_placed_box *out,
                        uint32_t max) {
    const fg_entity_state *es = fg_world_entity(w, e);
    if (!es || w->state->nslots == 0 || (unsigned)kind >= FG_BOX_KINDS) return 0;
    fg_live_box lb[FG_MAX_BOXES * FG_MAX_LAYERS + 1];
    /* The boxes of the tick that ran last: the state the host draws. */
    fg_tick t = w->state->tick > 0 ? w->state->tick - 1 : 0;
    uint32_t n = fg_collide_boxes(w, es, kind, t, true, lb, FG_MAX_BOXES * FG_MAX_LAYERS + 1);
    for (uint32_t i = 0; i < n && i < max && out; i++) {
        out[i].rect = lb[i].rect;
        out[i].layer = lb[i].layer;
        out[i].index = lb[i].index;
        out[i].kind = (uint8_t)kind;
    }
    return n;
}

fg_status fg_world_combat(const fg_world *w, fg_entity e, fg_combat_view *out, fg_error *err) {
    const fg_entity_state *es = fg_world_entity(w, e);
    if (!es) return fg_world_no_entity(w, e, err);
    const fg_combat *c = &es->combat;
    memset(out, 0, sizeof *out);
    out->team = c->team;
    out->owner = c->owner;
    out->combo = c->combo;
    out->combo_damage = c->combo_damage;
    out->juggle = c->juggle;
    out->juggle_limit = w->state->nslots ? fg_world_rules_of(w, es)->combat.juggle_limit : 0;
    out->launched = c->launched != 0;
    out->knockdown = (fg_knockdown)c->knockdown;
    out->grabbed_by = c->grabbed_by;
    out->tech_until = c->tech_until;
    out->throw_invuln_until = c->throw_invuln_until;
    out->pushback_left = c->push_left;
    out->wall_bounce = (c->bounce.armed & (1u << (FG_BOUNCE_WALL - 1))) != 0;
    out->ground_bounce = (c->bounce.armed & (1u << (FG_BOUNCE_GROUND - 1))) != 0;
    out->bounces = c->bounce.used;
    return FG_OK;
}

/* Contacts one tick may hold: four per entity (a crowd around one fighter is the worst case). */
static uint32_t contact_cap(uint32_t max_entities) { return max_entities * 4 + 8; }

size_t fg_collide_space_bytes(uint32_t max_entities) {
    return (sizeof(fg_collide_item) + sizeof(uint32_t)) * max_entities +
           sizeof(fg_contact_rec) * contact_cap(max_entities);
}

bool fg_collide_space_init(fg_collide_space *s, fg_allocator *a, uint32_t max_entities) {
    memset(s, 0, sizeof *s);
    uint32_t n = max_entities ? max_entities : 1;
    s->cap_contacts = contact_cap(max_entities);
    s->items = fg_alloc(a, sizeof(fg_collide_item) * n);
    s->order = fg_alloc(a, sizeof(uint32_t) * n);
    s->contacts = fg_alloc(a, sizeof(fg_contact_rec) * s->cap_contacts);
    return s->items && s->order && s->contacts;
}

void fg_collide_space_free(fg_collide_space *s, fg_allocator *a, uint32_t max_entities) {
    uint32_t n = max_entities ? max_entities : 1;
    fg_free(a, s->items, sizeof(fg_collide_item) * n);
    fg_free(a, s->order, sizeof(uint32_t) * n);
    fg_free(a, s->contacts, sizeof(fg_contact_rec) * s->cap_contacts);
    memset(s, 0, sizeof *s);
}

uint64_t fg_world_contacts_dropped(const fg_world *w) { return w->coll.dropped; }
