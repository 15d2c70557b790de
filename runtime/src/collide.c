/* SPDX-License-Identifier: MIT */
/*
** collide.c: the collision phase. Once per tick, after the actions advanced and before the gate,
** it places every live box in the world, sorts entities on x (a sweep over an order kept from the
** last tick, so nearly sorted: no allocation, close to linear), tests hit and throw boxes against
** hurt boxes for each pair of entities that may fight, and leaves the contacts, in an order that
** comes from the world state and not from entity ids, for the gate to commit.
**
** It decides nothing about what a contact does (that is hit.c, through the gate): only which
** boxes touch, which hit is still allowed (one per target per action unless the hit definition
** allows more), and where.
*/
#include "base_internal.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* {====================================================================== rectangles */

const char *fg_box_kind_name(fg_box_kind k) {
    static const char *const names[] = {"hurt", "hit", "push", "throw"};
    return (unsigned)k < FG_BOX_KINDS ? names[k] : "?";
}

const char *fg_guard_name(fg_guard g) {
    static const char *const names[] = {"high", "low", "overhead", "unblockable"};
    return (unsigned)g < 4 ? names[g] : "?";
}

const char *fg_miss_reason_name(fg_miss_reason r) {
    static const char *const names[] = {"none", "juggle_limit", "lost_trade"};
    return (unsigned)r < 3 ? names[r] : "?";
}

const char *fg_throw_step_name(fg_throw_step s) {
    static const char *const names[] = {"grabbed", "teched", "landed"};
    return (unsigned)s < 3 ? names[s] : "?";
}

const char *fg_knockdown_name(fg_knockdown k) {
    static const char *const names[] = {"none", "soft", "hard"};
    return (unsigned)k < 3 ? names[k] : "?";
}

/* Saturating: a box far off the stage must not wrap around to the other side. */
static fg_fx sat(int64_t v) {
    return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (fg_fx)v;
}

fg_rect fg_box_place(fg_box b, fg_fx x, fg_fx y, fg_facing facing) {
    fg_rect r;
    int64_t l = b.x, rr = (int64_t)b.x + b.w;
    if (facing == FG_FACING_LEFT) {
        int64_t t = l;
        l = -rr;
        rr = -t;
    }
    r.x0 = sat(x + l);
    r.x1 = sat(x + rr);
    r.y0 = sat((int64_t)y + b.y);
    r.y1 = sat((int64_t)y + b.y + b.h);
    return r;
}

bool fg_rect_overlap(fg_rect a, fg_rect b, fg_rect *out) {
    if (a.x0 > b.x1 || b.x0 > a.x1 || a.y0 > b.y1 || b.y0 > a.y1) return false;
    if (out) {
        out->x0 = a.x0 > b.x0 ? a.x0 : b.x0;
        out->x1 = a.x1 < b.x1 ? a.x1 : b.x1;
        out->y0 = a.y0 > b.y0 ? a.y0 : b.y0;
        out->y1 = a.y1 < b.y1 ? a.y1 : b.y1;
    }
    return true;
}

/* }====================================================================== */

/* {====================================================================== live boxes */

/* The hurt box of an entity whose ruleset declares none: a line through its origin at every
** height. Against the `range` shorthand's box this is exactly "the target's origin is within
** range in front of the attacker". */
static const fg_box legacy_hurt = {0, INT32_MIN / 2, 0, INT32_MAX};

/* Whether a running action makes an entity invulnerable to strikes or throws now. */
bool fg_collide_invulnerable(const fg_world *w, const fg_entity_state *es, fg_box_kind against,
                             fg_tick t) {
    uint32_t nlayers = fg_world_rules_of(w, es)->nlayers;
    if (against == FG_BOX_THROW && t < es->combat.throw_invuln_until) return true;
    for (uint32_t l = 0; l < nlayers; l++) {
        const fg_instance *inst = &es->layers[l];
        if (inst->action == FG_NO_ACTION) continue;
        const fg_action_hits *h = &w->versions[inst->version]->rt[inst->action].hits;
        for (uint32_t i = 0; i < h->ninvuln; i++) {
            const fg_invuln_def *v = &h->invuln[i];
            if (inst->elapsed < v->from || inst->elapsed > v->to) continue;
            if (against == FG_BOX_HIT ? v->strike : v->thrown) return true;
        }
    }
    return false;
}

uint32_t fg_collide_boxes(const fg_world *w, const fg_entity_state *es, fg_box_kind kind,
                          fg_tick t, bool drawn, fg_live_box *out, uint32_t max) {
    const fg_ruleset *r = fg_world_rules_of(w, es);
    uint32_t nlayers = r->nlayers, n = 0;
    fg_facing facing = (fg_facing)es->facing;
    bool attack = kind == FG_BOX_HIT || kind == FG_BOX_THROW;
    /* A frozen attacker's boxes stand still and strike nothing new (a drawing shows them). */
    if (attack && !drawn && fg_entity_frozen(es, t)) return 0;
    uint8_t own = 0; /* the kinds the running actions declare (they replace the defaults) */
    for (uint32_t l = 0; l < nlayers; l++) {
        const fg_instance *inst = &es->layers[l];
        if (inst->action == FG_NO_ACTION) continue;
        const fg_action_hits *h = &w->versions[inst->version]->rt[inst->action].hits;
        own |= h->own;
        for (uint32_t i = 0; i < h->nboxes && n < max; i++) {
            const fg_box_rt *b = &h->boxes[i];
            if (b->kind != kind || inst->elapsed < b->from || inst->elapsed > b->to) continue;
            out[n].rect = fg_box_place(b->box, es->x, es->y, facing);
            out[n].layer = (uint8_t)l;
            out[n].index = (uint8_t)i;
            n++;
        }
    }
    if (kind != FG_BOX_HURT && kind != FG_BOX_PUSH) return n;
    if (own & (1u << kind)) return n;
    /* The defaults: the entity's state group's box, else the fighter's, else (hurt only) the
    ** line through the origin. */
    const fg_group_boxes *g = NULL;
    fg_decide_ctx c = {t, r, (const fg_ruleset *const *)w->versions};
    int group = fg_entity_group(&c, es);
    if (group >= 0 && (r->group_boxes[group].has & (1u << kind))) g = &r->group_boxes[group];
    else if (r->fighter_boxes.has & (1u << kind)) g = &r->fighter_boxes;
    if (n >= max) return n;
    if (g) out[n].rect = fg_box_place(g->box[kind], es->x, es->y, facing);
    else if (kind == FG_BOX_HURT) out[n].rect = fg_box_place(legacy_hurt, es->x, es->y, facing);
    else return n;
    out[n].layer = 0xFF;
    out[n].index = 0xFF;
    return n + 1;
}

/* }====================================================================== */

/* {====================================================================== pairs and contacts */

/* Whether a and b may hit each other: an entity never hits its owner; entities without a team
** fight their opponent; entities with teams fight every other team. */
static bool may_interact(const fg_entity_state *a, const fg_entity_state *b) {
    if (a->combat.owner == b->id || b->combat.owner == a->id) return false;
    if (a->opponent == b->id || b->opponent == a->id) return true;
    return a->combat.team && b->combat.team && a->combat.team != b->combat.team;
}

bool fg_collide_allowed(const fg_entity_state *att, uint32_t layer, uint32_t def,
                        const fg_hit_def *hit, fg_entity target, fg_tick t) {
    for (uint32_t used = att->combat.log_used; used; used &= used - 1) {
        const fg_hit_log *e = &att->combat.log[__builtin_ctz(used)];
        if (e->target != target || e->layer != layer || e->def != def) continue;
        int32_t hits = hit && hit->hits > 1 ? hit->hits : 1;
        if (e->count >= hits) return false;
        return t - e->last >= (hit ? hit->interval : 0);
    }
    return true;
}

/* The first (hit box, hurt box) pair of one kind that touches, in declaration order. */
static bool first_pair(const fg_world *w, fg_entity_state *att, fg_entity_state *tg,
                       fg_box_kind kind, fg_tick t, fg_contact_rec *out) {
    fg_live_box hb[FG_MAX_BOXES * FG_MAX_LAYERS], tb[FG_MAX_BOXES * FG_MAX_LAYERS + 1];
    uint32_t nh = fg_collide_boxes(w, att, kind, t, false, hb, FG_MAX_BOXES * FG_MAX_LAYERS);
    if (!nh) return false;
    if (fg_collide_invulnerable(w, tg, kind, t)) return false;
    if (kind == FG_BOX_THROW && !fg_throw_throwable(w, tg, t)) return false;
    uint32_t nt =
        fg_collide_boxes(w, tg, FG_BOX_HURT, t, false, tb, FG_MAX_BOXES * FG_MAX_LAYERS + 1);
    for (uint32_t i = 0; i < nh; i++) {
        const fg_instance *inst = &att->layers[hb[i].layer];
        const fg_action_hits *h = &w->versions[inst->version]->rt[inst->action].hits;
        uint32_t def = h->boxes[hb[i].index].def;
        const fg_hit_def *hit = kind == FG_BOX_HIT ? &h->hit[def] : NULL;
        if (!fg_collide_allowed(att, hb[i].layer, def, hit, tg->id, t)) continue;
        for (uint32_t j = 0; j < nt; j++) {
            fg_rect o;
            if (!fg_rect_overlap(hb[i].rect, tb[j].rect, &o)) continue;
            out->attacker = att->id - 1;
            out->target = tg->id - 1;
            out->layer = hb[i].layer;
            out->kind = (uint8_t)kind;
            out->hit_box = hb[i].index;
            out->hurt_box = tb[j].index;
            out->def = (uint8_t)def;
            out->px = (fg_fx)(((int64_t)o.x0 + o.x1) / 2);
            out->py = (fg_fx)(((int64_t)o.y0 + o.y1) / 2);
            out->priority = hit ? hit->priority : 0;
            out->action = inst->action;
            out->version = inst->version;
            out->seq = inst->seq;
            out->proj = 0;
            out->skip = 0;
            return true;
        }
    }
    return false;
}

void fg_collide_push(fg_world *w, const fg_contact_rec *c) {
    fg_collide_space *s = &w->coll;
    if (s->ncontacts == s->cap_contacts) {
        s->dropped++;
        return;
    }
    s->contacts[s->ncontacts++] = *c;
}

/* Strikes first: a strike and a throw that both touch the same target on one tick, the strike
** wins. */
static void test_pair(fg_world *w, fg_entity_state *a, fg_entity_state *b, fg_tick t) {
    fg_collide_space *s = &w->coll;
    fg_contact_rec c;
    s->pairs_tested++;
    if (first_pair(w, a, b, FG_BOX_HIT, t, &c) || first_pair(w, a, b, FG_BOX_THROW, t, &c))
        fg_collide_push(w, &c);
    if (first_pair(w, b, a, FG_BOX_HIT, t, &c) || first_pair(w, b, a, FG_BOX_THROW, t, &c))
        fg_collide_push(w, &c);
}

/* The x extent of everything an entity may collide with this tick: its hit and throw boxes
** (`attacks`), and with `hurt` its hurt boxes too (only the sweep over teams needs those). Hit and
** throw boxes are found in one walk over the running actions' boxes, which is what
** fg_collide_boxes would place for either kind: this runs for every entity on every tick, and
** most actions have no box live. */
static void attack_extent(const fg_world *w, const fg_entity_state *es, fg_collide_item *it) {
    uint32_t nlayers = fg_world_rules_of(w, es)->nlayers;
    for (uint32_t l = 0; l < nlayers; l++) {
        const fg_instance *inst = &es->layers[l];
        if (inst->action == FG_NO_ACTION) continue;
        const fg_action_hits *h = &w->versions[inst->version]->rt[inst->action].hits;
        for (uint32_t i = 0; i < h->nboxes; i++) {
            const fg_box_rt *b = &h->boxes[i];
            if ((b->kind != FG_BOX_HIT && b->kind != FG_BOX_THROW) ||
                inst->elapsed < b->from || inst->elapsed > b->to)
                continue;
            fg_rect r = fg_box_place(b->box, es->x, es->y, (fg_facing)es->facing);
            it->attacks = 1;
            if (r.x0 < it->x0) it->x0 = r.x0;
            if (r.x1 > it->x1) it->x1 = r.x1;
        }
    }
}

/* Kept out of line: its box array would weigh on every entity's call, and only entities with a
** team come here. */
FG_NOINLINE
static void hurt_extent(const fg_world *w, const fg_entity_state *es, fg_tick t,
                        fg_collide_item *it) {
    fg_live_box lb[FG_MAX_BOXES * FG_MAX_LAYERS + 1];
    uint32_t n =
        fg_collide_boxes(w, es, FG_BOX_HURT, t, false, lb, FG_MAX_BOXES * FG_MAX_LAYERS + 1);
    if (n) it->hurtable = 1;
    for (uint32_t i = 0; i < n; i++) {
        if (lb[i].rect.x0 < it->x0) it->x0 = lb[i].rect.x0;
        if (lb[i].rect.x1 > it->x1) it->x1 = lb[i].rect.x1;
    }
}

static void extent(const fg_world *w, const fg_entity_state *es, fg_tick t, bool hurt,
                   fg_collide_item *it) {
    it->x0 = INT32_MAX;
    it->x1 = INT32_MIN;
    it->attacks = 0;
    it->hurtable = 0;
    /* A frozen attacker strikes nothing new; without a hit or throw box in any of the world's
    ** rulesets (the `range` shorthand) there is nothing to look for. */
    if (w->attack_boxes && !fg_entity_frozen(es, t)) attack_extent(w, es, it);
    if (hurt) hurt_extent(w, es, t, it);
}

/* Contacts in an order the world state decides: by the attacker's position, then the target's;
** entity ids only break ties between entities at the same place. */
static int contact_cmp(const void *pa, const void *pb, const fg_world *w) {
    const fg_contact_rec *a = pa, *b = pb;
    const fg_entity_state *aa = &w->entities[a->attacker], *ba = &w->entities[b->attacker];
    const fg_entity_state *at = &w->entities[a->target], *bt = &w->entities[b->target];
    int64_t k[6][2] = {{aa->x, ba->x}, {aa->y, ba->y}, {at->x, bt->x}, {at->y, bt->y},
                       {a->attacker, b->attacker}, {a->target, b->target}};
    for (int i = 0; i < 6; i++)
        if (k[i][0] != k[i][1]) return k[i][0] < k[i][1] ? -1 : 1;
    if (a->kind != b->kind) return (int)a->kind - (int)b->kind;
    /* An entity's own contact first, then its projectiles' in id order. */
    uint32_t ia = a->proj ? w->projs[a->proj - 1].id : 0;
    uint32_t ib = b->proj ? w->projs[b->proj - 1].id : 0;
    return ia < ib ? -1 : ia > ib;
}

static void sort_contacts(fg_world *w) {
    fg_collide_space *s = &w->coll;
    /* Insertion sort: a tick has few contacts, and this needs the world for its keys. */
    for (uint32_t i = 1; i < s->ncontacts; i++) {
        fg_contact_rec c = s->contacts[i];
        uint32_t j = i;
        while (j > 0 && contact_cmp(&s->contacts[j - 1], &c, w) > 0) {
            s->contacts[j] = s->contacts[j - 1];
            j--;
        }
        s->contacts[j] = c;
    }
}

/* Entities without a team fight their opponent only: tested pair by pair, each pair once. */
static void opponents(fg_world *w, fg_tick t) {
    fg_collide_space *s = &w->coll;
    uint32_t n = w->state->nentities;
    for (uint32_t i = 0; i < n; i++) {
        /* The placed items carry each side's opponent: most pairs are decided without reading
        ** a record. Ids are slots + 1. */
        fg_entity o = s->items[i].opponent;
        if (o == 0 || o > n || o == i + 1) continue;
        if (s->items[o - 1].opponent == i + 1 && o < i + 1) continue; /* tested from o's side */
        /* Most fighters attack nothing on most ticks: a pair with no hit or throw box live
        ** costs one look at each side's placed extent. */
        if (!s->items[i].attacks && !s->items[o - 1].attacks) continue;
        fg_entity_state *a = &w->entities[i], *b = &w->entities[o - 1];
        if (s->items[i].in_team && s->items[b->id - 1].in_team &&
            a->combat.team != b->combat.team)
            continue; /* the sweep over teams finds them */
        if (may_interact(a, b)) test_pair(w, a, b, t);
    }
}

/* Entities with a team fight every other team: sorted on x0 (insertion sort over last tick's
** order, nearly sorted already) and swept. */
static void teams(fg_world *w, fg_tick t) {
    fg_collide_space *s = &w->coll;
    uint32_t n = w->state->nentities, k = 0;
    /* Keep last tick's order of the entities still in a team, then add the others. */
    for (uint32_t i = 0; i < s->nitems; i++) {
        uint32_t v = s->order[i];
        if (v < n && s->items[v].in_team && !s->items[v].listed) {
            s->items[v].listed = 1;
            s->order[k++] = v;
        }
    }
    for (uint32_t v = 0; v < n; v++)
        if (s->items[v].in_team && !s->items[v].listed) {
            s->items[v].listed = 1;
            s->order[k++] = v;
        }
    s->nitems = k;
    for (uint32_t i = 1; i < k; i++) {
        uint32_t v = s->order[i];
        const fg_collide_item *it = &s->items[v];
        uint32_t j = i;
        while (j > 0) {
            const fg_collide_item *p = &s->items[s->order[j - 1]];
            if (p->x0 < it->x0 || (p->x0 == it->x0 && p->slot < it->slot)) break;
            s->order[j] = s->order[j - 1];
            j--;
        }
        s->order[j] = v;
    }
    for (uint32_t i = 0; i < k; i++) {
        const fg_collide_item *a = &s->items[s->order[i]];
        if (a->x0 > a->x1) break; /* nothing live: everything after it is empty too */
        for (uint32_t j = i + 1; j < k; j++) {
            const fg_collide_item *b = &s->items[s->order[j]];
            if (b->x0 > a->x1) break;
            if (!a->attacks && !b->attacks) continue;
            fg_entity_state *ea = &w->entities[a->slot], *eb = &w->entities[b->slot];
            if (ea->combat.team == eb->combat.team || !may_interact(ea, eb)) continue;
            test_pair(w, ea, eb, t);
        }
    }
}

void fg_collide_place(fg_world *w, uint32_t slot, fg_tick t) {
    fg_collide_item *it = &w->coll.items[slot];
    /* While no entity has a team (tick.c `teams_known`), the combat state is not read here. */
    it->in_team = w->teams != 1 && w->entities[slot].combat.team != 0;
    extent(w, &w->entities[slot], t, it->in_team, it);
    it->slot = slot;
    it->opponent = w->entities[slot].opponent;
    it->listed = 0;
}

void fg_collide_pairs(fg_world *w, fg_tick t) {
    w->coll.ncontacts = 0;
    opponents(w, t);
    if (w->teams != 1) teams(w, t);
    else w->coll.nitems = 0; /* nobody has a team (tick.c): the sweep has no one to order */
    fg_projectile_collide(w, t);
    sort_contacts(w);
}

void fg_collide_find(fg_world *w, fg_tick t) {
    for (uint32_t i = 0; i < w->state->nentities; i++) fg_collide_place(w, i, t);
    fg_collide_pairs(w, t);
}

/* }====================================================================== */
