/* SPDX-License-Identifier: MIT */
/*
** projectile.c: projectiles in a world. They live in a fixed pool inside the world's arena (so a
** snapshot copies them and the state hash folds them), packed in id order; nothing here
** allocates once the world exists.
**
** Their part of each tick:
**   gate      an action's spawn marker, once committed, puts one in the pool (refused, with a
**             trace, when the pool is full or the owner has `limit` of that kind)
**   collide   their hit boxes are sorted on x and swept: against each other (a clash) and
**             against the hurt boxes of the entities they may hit (a contact, judged and applied
**             by hit.c like an entity's, with the projectile's hit definition)
**   gate      clashes first: both lose the smaller durability, so equal ones vanish together and
**             a stronger one goes on weakened; then contacts, each costing one of its hits
**   movement  they move (not on their spawn tick), and are removed once spent, at the end of
**             their lifetime, or when their origin passes a wall of the stage
*/
#include "internal.h"

#include "framegate/projectile.h"

#include <string.h>

static size_t align16(size_t n) { return (n + 15) & ~(size_t)15; }

const char *fg_projectile_step_name(fg_projectile_step s) {
    static const char *const names[] = {"spawned", "refused (pool full)", "refused (limit)",
                                        "clashed", "spent", "expired", "left the stage",
                                        "struck"};
    return (unsigned)s < 8 ? names[s] : "?";
}

const fg_projectile_def *fg_projectile_def_of(const fg_world *w, const fg_projectile_state *p) {
    return &w->versions[p->version]->projectiles[p->def];
}

static int sign_of(uint8_t facing) { return facing == FG_FACING_LEFT ? -1 : 1; }

static fg_fx clamp_fx(int64_t v) {
    return v > FG_POSITION_MAX ? FG_POSITION_MAX : v < -FG_POSITION_MAX ? -FG_POSITION_MAX : (fg_fx)v;
}

static void trace(fg_world *w, fg_tick t, const fg_projectile_state *p, fg_projectile_step step,
                  int64_t d) {
    fg_world_trace4(w, t, p->owner, FG_TRACE_PROJECTILE, step, p->id,
                    (int64_t)((uint64_t)p->version << 32 | p->action), p->x, d);
}

/* {====================================================================== the pool */

size_t fg_projectile_pool_bytes(uint32_t cap) {
    return align16(sizeof(fg_projectile_pool)) + align16(sizeof(fg_projectile_state) * cap);
}

void fg_projectile_pool_bind(fg_world *w, unsigned char *at) {
    w->ppool = (fg_projectile_pool *)at;
    w->projs = (fg_projectile_state *)(at + align16(sizeof(fg_projectile_pool)));
}

static size_t space_bytes(uint32_t cap) {
    return (sizeof(uint32_t) * 2 + sizeof(fg_fx) * 4) * cap + sizeof(fg_clash_rec) * 2 * cap +
           sizeof(fg_strike_rec) * cap;
}

size_t fg_projectile_space_bytes(uint32_t cap) { return space_bytes(cap ? cap : 1); }

bool fg_projectile_space_init(fg_projectile_space *s, fg_allocator *a, uint32_t cap) {
    memset(s, 0, sizeof *s);
    s->cap = cap;
    uint32_t n = cap ? cap : 1;
    s->cap_clashes = 2 * n;
    s->order = fg_alloc(a, sizeof(uint32_t) * n);
    s->tmp = fg_alloc(a, sizeof(uint32_t) * n);
    s->x0 = fg_alloc(a, sizeof(fg_fx) * n);
    s->x1 = fg_alloc(a, sizeof(fg_fx) * n);
    s->clashes = fg_alloc(a, sizeof(fg_clash_rec) * s->cap_clashes);
    s->hx0 = fg_alloc(a, sizeof(fg_fx) * n);
    s->hx1 = fg_alloc(a, sizeof(fg_fx) * n);
    s->strikes = fg_alloc(a, sizeof(fg_strike_rec) * n);
    return s->order && s->tmp && s->x0 && s->x1 && s->clashes && s->hx0 && s->hx1 && s->strikes;
}

void fg_projectile_space_free(fg_projectile_space *s, fg_allocator *a) {
    uint32_t n = s->cap ? s->cap : 1;
    fg_free(a, s->order, sizeof(uint32_t) * n);
    fg_free(a, s->tmp, sizeof(uint32_t) * n);
    fg_free(a, s->x0, sizeof(fg_fx) * n);
    fg_free(a, s->x1, sizeof(fg_fx) * n);
    fg_free(a, s->clashes, sizeof(fg_clash_rec) * s->cap_clashes);
    fg_free(a, s->hx0, sizeof(fg_fx) * n);
    fg_free(a, s->hx1, sizeof(fg_fx) * n);
    fg_free(a, s->strikes, sizeof(fg_strike_rec) * n);
    memset(s, 0, sizeof *s);
}

/* How many live ones of kind `def` (of ruleset version `version`) an owner has. */
static int32_t owned(const fg_world *w, fg_entity owner, uint32_t version, uint32_t def) {
    int32_t n = 0;
    for (uint32_t i = 0; i < w->ppool->count; i++) {
        const fg_projectile_state *p = &w->projs[i];
        n += p->owner == owner && p->version == version && p->def == def && p->hits > 0 &&
             p->durability > 0;
    }
    return n;
}

/* Puts one in the pool. Returns its id, or 0 when refused (traced). */
static uint32_t spawn(fg_world *w, fg_entity_state *es, uint32_t version, uint32_t def,
                      fg_fx x, fg_fx y, uint8_t facing, uint32_t layer, uint16_t action,
                      int64_t seq, fg_tick t) {
    const fg_projectile_def *d = &w->versions[version]->projectiles[def];
    fg_projectile_state p;
    memset(&p, 0, sizeof p);
    p.id = w->ppool->next_id;
    p.owner = es->id;
    p.version = (uint16_t)version;
    p.def = (uint16_t)def;
    p.action = action;
    p.x = x;
    if (w->ppool->count == w->pspace.cap) {
        w->pspace.refused++;
        trace(w, t, &p, FG_PROJECTILE_POOL_FULL, w->pspace.cap);
        return 0;
    }
    if (d->limit > 0 && owned(w, es->id, version, def) >= d->limit) {
        trace(w, t, &p, FG_PROJECTILE_AT_LIMIT, d->limit);
        return 0;
    }
    w->ppool->next_id++;
    p.team = es->combat.team;
    p.layer = (uint8_t)layer;
    p.facing = facing;
    p.hits = d->hit.hits;
    p.durability = d->durability;
    p.y = y;
    p.prev_x = x;
    p.prev_y = y;
    p.vx = d->vx;
    p.vy = d->vy;
    p.born = t;
    p.last_hit = -1;
    p.seq = seq;
    w->projs[w->ppool->count++] = p;
    trace(w, t, &p, FG_PROJECTILE_SPAWNED, 0);
    return p.id;
}

/* The gate committed a marker of es's action on `layer`: its spawn, if that is its marker. */
void fg_projectile_marker(fg_world *w, fg_entity_state *es, uint32_t layer, uint32_t marker,
                          fg_tick t) {
    const fg_instance *inst = &es->layers[layer];
    if (inst->action == FG_NO_ACTION) return;
    const fg_action_hits *h = &w->versions[inst->version]->rt[inst->action].hits;
    if (h->spawn < 0 || h->spawn_marker != marker) return;
    fg_box at = {h->spawn_x, h->spawn_y, 0, 0};
    fg_rect r = fg_box_place(at, es->x, es->y, (fg_facing)es->facing);
    spawn(w, es, inst->version, (uint32_t)h->spawn, clamp_fx(r.x0), clamp_fx(r.y0), es->facing,
          layer, inst->action, inst->seq, t);
}

fg_status fg_world_spawn_projectile(fg_world *w, fg_entity owner, const char *name, fg_fx x,
                                    fg_fx y, fg_facing facing, uint32_t *id, fg_error *err) {
    fg_entity_state *es = fg_world_entity(w, owner);
    if (!es) return fg_world_no_entity(w, owner, err);
    if (w->state->nslots == 0)
        return fg_error_set(err, FG_ESTATE, "spawn_projectile: the world has no rules loaded");
    uint32_t version = w->state->slot_version[es->rules_slot];
    const fg_ruleset *r = w->versions[version];
    int def = fg_ruleset_find_projectile(r, name);
    if (def < 0)
        return fg_error_set(err, FG_ENOTFOUND, "spawn_projectile: '%s' is not a projectile of "
                            "'%s'", name ? name : "", r->name);
    if (x < -FG_POSITION_MAX || x > FG_POSITION_MAX || y < -FG_POSITION_MAX ||
        y > FG_POSITION_MAX)
        return fg_error_set(err, FG_EINVAL, "spawn_projectile: (%d, %d) in 1/65536 units is out "
                            "of range (expected -%d..%d each)", x, y, FG_POSITION_MAX,
                            FG_POSITION_MAX);
    if (facing != FG_FACING_RIGHT && facing != FG_FACING_LEFT)
        return fg_error_set(err, FG_EINVAL, "spawn_projectile: facing %d, expected right (0) or "
                            "left (1)", (int)facing);
    if (w->ppool->count == w->pspace.cap)
        return fg_error_set(err, FG_ENOMEM, "spawn_projectile: the pool is full (%u projectiles; "
                            "create the world with a larger max_projectiles)", w->pspace.cap);
    fg_world_note_edit(w, "projectile");
    const fg_instance *body = &es->layers[0];
    uint32_t pid = spawn(w, es, version, (uint32_t)def, x, y, (uint8_t)facing, 0,
                         body->action == FG_NO_ACTION ? 0 : body->action, 0, w->state->tick);
    if (!pid)
        return fg_error_set(err, FG_EINVAL, "spawn_projectile: e%u has %d '%s' already (limit)",
                            owner, r->projectiles[def].limit, name);
    if (id) *id = pid;
    return FG_OK;
}

/* }====================================================================== */

/* {====================================================================== collision */

/* Its live boxes of one kind (FG_BOX_KINDS: every kind) at tick t: hit boxes strike and clash,
** hurt boxes are where a fighter's hit box strikes it. */
static uint32_t live_boxes(const fg_world *w, const fg_projectile_state *p, fg_tick t,
                           fg_box_kind kind, fg_live_box *out, uint32_t max) {
    const fg_projectile_def *d = fg_projectile_def_of(w, p);
    int64_t age = t - p->born;
    uint32_t n = 0;
    for (uint32_t i = 0; i < d->nboxes && n < max; i++) {
        const fg_box_def *b = &d->boxes[i];
        if (age < b->from || age > b->to || (kind != FG_BOX_KINDS && b->kind != kind)) continue;
        out[n].rect = fg_box_place(b->box, p->x, p->y, (fg_facing)p->facing);
        out[n].layer = 0xFF;
        out[n].index = (uint8_t)i;
        n++;
    }
    return n;
}

/* The span on x of n placed boxes (n >= 1): what the sweeps sort and search by. */
static void extent_of(const fg_live_box *b, uint32_t n, fg_fx *x0, fg_fx *x1) {
    *x0 = INT32_MAX;
    *x1 = INT32_MIN;
    for (uint32_t i = 0; i < n; i++) {
        if (b[i].rect.x0 < *x0) *x0 = b[i].rect.x0;
        if (b[i].rect.x1 > *x1) *x1 = b[i].rect.x1;
    }
}

static bool alive(const fg_projectile_state *p) { return p->hits > 0 && p->durability > 0; }



/* Whether a projectile may strike entity e: never its owner or what its owner owns; its owner's
** opponent (or an entity whose opponent is the owner); any entity of another team when both have
** one. */
static bool may_strike(const fg_world *w, const fg_projectile_state *p, const fg_entity_state *e) {
    if (e->id == p->owner || e->combat.owner == p->owner) return false;
    const fg_entity_state *o = fg_world_entity(w, p->owner);
    if ((o && o->opponent == e->id) || e->opponent == p->owner) return true;
    return p->team && e->combat.team && p->team != e->combat.team;
}

/* Whether two projectiles clash: different owners that may fight each other. */
static bool may_clash(const fg_world *w, const fg_projectile_state *a,
                      const fg_projectile_state *b) {
    if (a->owner == b->owner) return false;
    const fg_entity_state *oa = fg_world_entity(w, a->owner), *ob = fg_world_entity(w, b->owner);
    if (!oa || !ob) return false;
    if (oa->opponent == ob->id || ob->opponent == oa->id) return true;
    return a->team && b->team && a->team != b->team;
}

static bool before(const fg_projectile_space *s, const fg_projectile_state *ps, uint32_t a,
                   uint32_t b) {
    return s->x0[a] < s->x0[b] || (s->x0[a] == s->x0[b] && ps[a].id < ps[b].id);
}

/* Pool indexes sorted on (x0, id). Projectiles thrown one after another usually come in order
** already: nearly sorted input takes an insertion sort, anything else a merge sort into the work
** space (no allocation, stable). */
static void sort_order(fg_projectile_space *s, const fg_projectile_state *ps, uint32_t n) {
    uint32_t descents = 0;
    for (uint32_t i = 1; i < n && descents <= 8; i++)
        descents += before(s, ps, s->order[i], s->order[i - 1]);
    if (descents <= 8) {
        for (uint32_t i = 1; i < n; i++) {
            uint32_t v = s->order[i], j = i;
            while (j > 0 && before(s, ps, v, s->order[j - 1])) {
                s->order[j] = s->order[j - 1];
                j--;
            }
            s->order[j] = v;
        }
        return;
    }
    uint32_t *src = s->order, *dst = s->tmp;
    for (uint32_t width = 1; width < n; width *= 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * width) {
            uint32_t mid = lo + width < n ? lo + width : n;
            uint32_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            uint32_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                dst[k++] = before(s, ps, src[j], src[i]) ? src[j++] : src[i++];
            }
            while (i < mid) dst[k++] = src[i++];
            while (j < hi) dst[k++] = src[j++];
        }
        uint32_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != s->order) memcpy(s->order, src, sizeof(uint32_t) * n);
}

static void clash_pair(fg_world *w, uint32_t ia, uint32_t ib, fg_tick t) {
    fg_projectile_space *s = &w->pspace;
    const fg_projectile_state *a = &w->projs[ia], *b = &w->projs[ib];
    if (!may_clash(w, a, b)) return;
    fg_live_box ba[FG_PROJECTILE_BOXES], bb[FG_PROJECTILE_BOXES];
    uint32_t na = live_boxes(w, a, t, FG_BOX_HIT, ba, FG_PROJECTILE_BOXES);
    uint32_t nb = live_boxes(w, b, t, FG_BOX_HIT, bb, FG_PROJECTILE_BOXES);
    for (uint32_t i = 0; i < na; i++)
        for (uint32_t j = 0; j < nb; j++) {
            fg_rect o;
            if (!fg_rect_overlap(ba[i].rect, bb[j].rect, &o)) continue;
            if (s->nclashes == s->cap_clashes) {
                s->clashes_dropped++;
                return;
            }
            fg_clash_rec *c = &s->clashes[s->nclashes++];
            c->a = ia;
            c->b = ib;
            c->px = (fg_fx)(((int64_t)o.x0 + o.x1) / 2);
            c->py = (fg_fx)(((int64_t)o.y0 + o.y1) / 2);
            return;
        }
}

/* The first (hit box, hurt box) pair of a projectile and an entity that touches. */
static void strike_pair(fg_world *w, uint32_t ip, fg_entity_state *e, fg_tick t) {
    const fg_projectile_state *p = &w->projs[ip];
    if (!may_strike(w, p, e) || fg_collide_invulnerable(w, e, FG_BOX_HIT, t)) return;
    const fg_projectile_def *d = fg_projectile_def_of(w, p);
    if (p->last_hit >= 0 && t - p->last_hit < d->hit.interval) return;
    fg_live_box hb[FG_PROJECTILE_BOXES], tb[FG_MAX_BOXES * FG_MAX_LAYERS + 1];
    uint32_t nh = live_boxes(w, p, t, FG_BOX_HIT, hb, FG_PROJECTILE_BOXES);
    uint32_t nt = fg_collide_boxes(w, e, FG_BOX_HURT, t, false, tb,
                                   FG_MAX_BOXES * FG_MAX_LAYERS + 1);
    for (uint32_t i = 0; i < nh; i++)
        for (uint32_t j = 0; j < nt; j++) {
            fg_rect o;
            if (!fg_rect_overlap(hb[i].rect, tb[j].rect, &o)) continue;
            fg_contact_rec c;
            memset(&c, 0, sizeof c);
            c.attacker = p->owner - 1;
            c.target = e->id - 1;
            c.layer = p->layer;
            c.kind = FG_BOX_HIT;
            c.hit_box = hb[i].index;
            c.hurt_box = tb[j].index;
            c.px = (fg_fx)(((int64_t)o.x0 + o.x1) / 2);
            c.py = (fg_fx)(((int64_t)o.y0 + o.y1) / 2);
            c.priority = d->hit.priority;
            c.action = p->action;
            c.version = p->version;
            c.seq = p->seq;
            c.proj = ip + 1;
            fg_collide_push(w, &c);
            return;
        }
}

/* The extents of the live hurt boxes, for the projectiles that have some; returns how many (their
** pool indexes in s->tmp, free once sort_order is done). */
static uint32_t hurtable(fg_world *w, fg_tick t) {
    fg_projectile_space *s = &w->pspace;
    fg_live_box lb[FG_PROJECTILE_BOXES];
    uint32_t k = 0;
    if (!w->hurtable_projectiles) return 0; /* most worlds: no kind with hurt boxes at all */
    for (uint32_t i = 0; i < w->ppool->count; i++) {
        const fg_projectile_state *p = &w->projs[i];
        if (!alive(p) || !(w->versions[p->version]->hurtable_kinds & (1u << p->def))) continue;
        uint32_t nb = live_boxes(w, p, t, FG_BOX_HURT, lb, FG_PROJECTILE_BOXES);
        if (!nb) continue;
        extent_of(lb, nb, &s->hx0[i], &s->hx1[i]);
        s->tmp[k++] = i;
    }
    return k;
}

/* Whether a live hit box of entity es touches a hurt box of projectile ip: records the first
** pair. A swing that struck it already (same entity, layer and sequence) passes through. */
static bool struck_pair(fg_world *w, uint32_t ip, const fg_entity_state *es, uint32_t slot,
                        const fg_live_box *hb, uint32_t nh, fg_tick t) {
    fg_projectile_space *s = &w->pspace;
    const fg_projectile_state *p = &w->projs[ip];
    if (!may_strike(w, p, es)) return false;
    fg_live_box pb[FG_PROJECTILE_BOXES];
    uint32_t np = live_boxes(w, p, t, FG_BOX_HURT, pb, FG_PROJECTILE_BOXES);
    for (uint32_t i = 0; i < nh; i++) {
        const fg_instance *inst = &es->layers[hb[i].layer];
        if (p->struck_by == es->id && p->struck_layer == hb[i].layer && p->struck_seq == inst->seq)
            continue;
        for (uint32_t j = 0; j < np; j++) {
            fg_rect o;
            if (!fg_rect_overlap(hb[i].rect, pb[j].rect, &o)) continue;
            fg_strike_rec *r = &s->strikes[s->nstrikes++];
            r->proj = ip;
            r->slot = slot;
            r->layer = hb[i].layer;
            r->hit_box = hb[i].index;
            r->hurt_box = pb[j].index;
            r->px = (fg_fx)(((int64_t)o.x0 + o.x1) / 2);
            r->py = (fg_fx)(((int64_t)o.y0 + o.y1) / 2);
            return true;
        }
    }
    return false;
}

/* Fighters' hit boxes against the hurt boxes of projectiles that declare some: each projectile is
** struck at most once a tick, by the first entity (in slot order) whose swing touches it. Only
** entities with a live hit box this tick look. */
static void find_strikes(fg_world *w, fg_tick t) {
    fg_projectile_space *s = &w->pspace;
    uint32_t k = hurtable(w, t);
    if (k == 0) return;
    fg_live_box hb[FG_MAX_BOXES * FG_MAX_LAYERS + 1];
    for (uint32_t e = 0; e < w->state->nentities && k > 0; e++) {
        if (!w->coll.items[e].attacks) continue;
        const fg_entity_state *es = &w->entities[e];
        uint32_t nh = fg_collide_boxes(w, es, FG_BOX_HIT, t, false, hb,
                                       FG_MAX_BOXES * FG_MAX_LAYERS + 1);
        if (!nh) continue;
        fg_fx ex0, ex1;
        extent_of(hb, nh, &ex0, &ex1);
        for (uint32_t j = 0; j < k;) {
            uint32_t ip = s->tmp[j];
            if (s->hx1[ip] >= ex0 && s->hx0[ip] <= ex1 && struck_pair(w, ip, es, e, hb, nh, t))
                s->tmp[j] = s->tmp[--k]; /* struck: out of the list for this tick */
            else
                j++;
        }
    }
}

void fg_projectile_collide(fg_world *w, fg_tick t) {
    fg_projectile_space *s = &w->pspace;
    uint32_t n = w->ppool->count;
    s->nclashes = 0;
    s->nstrikes = 0;
    if (n == 0) return;
    fg_live_box lb[FG_PROJECTILE_BOXES];
    fg_fx widest = 0;
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        const fg_projectile_state *p = &w->projs[i];
        uint32_t nb = alive(p) ? live_boxes(w, p, t, FG_BOX_HIT, lb, FG_PROJECTILE_BOXES) : 0;
        if (!nb) continue;
        fg_fx x0, x1;
        extent_of(lb, nb, &x0, &x1);
        s->x0[i] = x0;
        s->x1[i] = x1;
        if ((int64_t)x1 - x0 > widest) widest = (fg_fx)((int64_t)x1 - x0 > INT32_MAX ? INT32_MAX : (int64_t)x1 - x0);
        s->order[k++] = i;
    }
    sort_order(s, w->projs, k);
    /* Against each other: a sweep over the sorted extents. */
    for (uint32_t i = 0; i < k; i++)
        for (uint32_t j = i + 1; j < k && s->x0[s->order[j]] <= s->x1[s->order[i]]; j++)
            clash_pair(w, s->order[i], s->order[j], t);
    /* Against entities: the projectiles whose extent may reach each entity's hurt boxes, found
    ** by a binary search on x0 (no projectile is wider than `widest`). */
    fg_live_box hb[FG_MAX_BOXES * FG_MAX_LAYERS + 1];
    for (uint32_t e = 0; e < w->state->nentities; e++) {
        fg_entity_state *es = &w->entities[e];
        uint32_t nh = fg_collide_boxes(w, es, FG_BOX_HURT, t, false, hb,
                                       FG_MAX_BOXES * FG_MAX_LAYERS + 1);
        if (!nh) continue;
        fg_fx ex0, ex1;
        extent_of(hb, nh, &ex0, &ex1);
        int64_t from = (int64_t)ex0 - widest;
        uint32_t lo = 0, hi = k;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (s->x0[s->order[mid]] < from) lo = mid + 1;
            else hi = mid;
        }
        for (uint32_t j = lo; j < k && s->x0[s->order[j]] <= ex1; j++)
            if (s->x1[s->order[j]] >= ex0) strike_pair(w, s->order[j], es, t);
    }
    find_strikes(w, t);
}

/* }====================================================================== */

/* {====================================================================== the gate */

/* A projectile event in the tick's list (dropped when the list is full, like any event). */
static fg_event *push_event(fg_world *w, fg_tick t, uint8_t kind, const fg_entity_state *es,
                            uint32_t layer, const fg_projectile_state *p, fg_fx x, fg_fx y) {
    if (w->nevents >= w->cap_events) return NULL;
    fg_event *ev = &w->events[w->nevents++];
    memset(ev, 0, sizeof *ev);
    ev->tick = t;
    ev->entity = es ? es->id : p->owner;
    ev->layer = layer;
    ev->seq = es ? es->layers[layer].seq : p->seq;
    ev->action = es ? (uint16_t)es->layers[layer].action : p->action;
    ev->marker = FG_EVENT_NO_MARKER;
    ev->kind = kind;
    ev->x = x;
    ev->y = y;
    ev->projectile = p->id;
    return ev;
}

static void clash_event(fg_world *w, const fg_clash_rec *c, fg_tick t) {
    const fg_projectile_state *a = &w->projs[c->a], *b = &w->projs[c->b];
    fg_event *ev = push_event(w, t, FG_EVENT_CLASH, NULL, a->layer, a, c->px, c->py);
    if (!ev) return;
    ev->target = b->owner;
    ev->hit_box = ev->hurt_box = 0xFF;
    ev->other = b->id;
}

static void struck_event(fg_world *w, const fg_strike_rec *r, fg_tick t) {
    const fg_projectile_state *p = &w->projs[r->proj];
    fg_event *ev = push_event(w, t, FG_EVENT_STRUCK, &w->entities[r->slot], r->layer, p, r->px,
                              r->py);
    if (!ev) return;
    ev->target = p->owner;
    ev->hit_box = r->hit_box;
    ev->hurt_box = r->hurt_box;
}

/* Clashes first (projectile against projectile), then fighters' strikes on hurt boxes: each
** takes one durability, so a projectile struck to 0 is gone before it can hit this tick. A strike
** is not a contact for the attacker: no hitstop, no cancel, no meter. */
void fg_projectile_clash(fg_world *w, fg_tick t) {
    fg_projectile_space *s = &w->pspace;
    for (uint32_t i = 0; i < s->nclashes; i++) {
        const fg_clash_rec *c = &s->clashes[i];
        fg_projectile_state *a = &w->projs[c->a], *b = &w->projs[c->b];
        if (!alive(a) || !alive(b)) continue; /* an earlier clash this tick ended one */
        int32_t d = a->durability < b->durability ? a->durability : b->durability;
        a->durability -= d;
        b->durability -= d;
        clash_event(w, c, t);
        trace(w, t, a, FG_PROJECTILE_CLASHED, b->id);
        trace(w, t, b, FG_PROJECTILE_CLASHED, a->id);
    }
    for (uint32_t i = 0; i < s->nstrikes; i++) {
        const fg_strike_rec *r = &s->strikes[i];
        fg_projectile_state *p = &w->projs[r->proj];
        if (!alive(p)) continue; /* a clash this tick ended it */
        const fg_entity_state *es = &w->entities[r->slot];
        p->durability--;
        p->struck_by = es->id;
        p->struck_layer = r->layer;
        p->struck_seq = es->layers[r->layer].seq;
        struck_event(w, r, t);
        trace(w, t, p, FG_PROJECTILE_STRUCK, es->id);
    }
}

/* A contact of projectile c->proj is about to be judged: it costs one of its hits, or, with none
** left (an earlier contact this tick took the last), does nothing. */
bool fg_projectile_take_hit(fg_world *w, const fg_contact_rec *c, fg_tick t) {
    fg_projectile_state *p = &w->projs[c->proj - 1];
    if (!alive(p)) return false;
    p->hits--;
    p->last_hit = t;
    return true;
}

/* The owner's side of a projectile's contact: its meter, and the spawning action's contact when
** the kind opens the owner's cancel windows and that action still runs. No hitstop: the owner
** is elsewhere. */
void fg_projectile_landed(fg_world *w, const fg_contact_rec *c) {
    const fg_projectile_state *p = &w->projs[c->proj - 1];
    const fg_projectile_def *d = fg_projectile_def_of(w, p);
    fg_entity_state *owner = &w->entities[c->attacker];
    const fg_ruleset *r = fg_world_rules_of(w, owner);
    fg_world_hash_touch(w, owner); /* its meter, the action's contact */
    if (r->meter >= 0 && d->hit.meter_gain) {
        int32_t *m = &owner->res[r->meter];
        int64_t v = (int64_t)*m + d->hit.meter_gain;
        *m = (int32_t)(v > r->resources[r->meter].max ? r->resources[r->meter].max : v < 0 ? 0 : v);
    }
    fg_instance *inst = &owner->layers[p->layer];
    if (d->opens_cancels && inst->seq == p->seq && inst->action != FG_NO_ACTION)
        inst->contact = c->contact;
}

/* }====================================================================== */

/* {====================================================================== movement */

static void remove_at(fg_world *w, uint32_t i) {
    uint32_t n = --w->ppool->count;
    memmove(&w->projs[i], &w->projs[i + 1], sizeof w->projs[0] * (n - i));
    memset(&w->projs[n], 0, sizeof w->projs[n]);
}

void fg_projectile_move(fg_world *w, fg_tick t) {
    uint32_t i = 0;
    while (i < w->ppool->count) {
        fg_projectile_state *p = &w->projs[i];
        fg_projectile_step gone = FG_PROJECTILE_SPAWNED; /* = stays */
        if (!alive(p)) gone = FG_PROJECTILE_SPENT;
        else if (t - p->born >= fg_projectile_def_of(w, p)->lifetime)
            gone = FG_PROJECTILE_EXPIRED;
        if (gone == FG_PROJECTILE_SPAWNED) {
            p->prev_x = p->x;
            p->prev_y = p->y;
            if (p->born != t) {
                p->x = clamp_fx((int64_t)p->x + (int64_t)sign_of(p->facing) * p->vx);
                p->y = clamp_fx((int64_t)p->y + p->vy);
            }
            const fg_stage *s = fg_world_stage(w);
            if (p->x < s->wall_min || p->x > s->wall_max) gone = FG_PROJECTILE_LEFT;
        }
        if (gone == FG_PROJECTILE_SPAWNED) {
            i++;
            continue;
        }
        trace(w, t, p, gone, 0);
        remove_at(w, i);
    }
}

/* }====================================================================== */

/* {====================================================================== reading, hashing */

uint32_t fg_world_projectile_count(const fg_world *w) { return w->ppool->count; }
uint32_t fg_world_projectile_capacity(const fg_world *w) { return w->pspace.cap; }
uint64_t fg_world_projectiles_refused(const fg_world *w) { return w->pspace.refused; }

bool fg_world_projectile_at(const fg_world *w, uint32_t i, fg_projectile_view *out) {
    if (i >= w->ppool->count) return false;
    const fg_projectile_state *p = &w->projs[i];
    const fg_projectile_def *d = fg_projectile_def_of(w, p);
    memset(out, 0, sizeof *out);
    out->id = p->id;
    out->owner = p->owner;
    out->team = p->team;
    out->name = d->name;
    out->facing = (fg_facing)p->facing;
    out->x = p->x;
    out->y = p->y;
    out->vx = p->vx;
    out->vy = p->vy;
    out->prev_x = p->prev_x;
    out->prev_y = p->prev_y;
    out->age = (int32_t)(w->state->tick - 1 - p->born);
    out->lifetime = d->lifetime;
    out->hits = p->hits;
    out->durability = p->durability;
    return true;
}

uint32_t fg_world_projectile_boxes(const fg_world *w, uint32_t i, fg_placed_box *out,
                                   uint32_t max) {
    if (i >= w->ppool->count) return 0;
    fg_live_box lb[FG_PROJECTILE_BOXES];
    /* The boxes the next tick's collision tests: its age then. */
    uint32_t n = live_boxes(w, &w->projs[i], w->state->tick, FG_BOX_KINDS, lb, FG_PROJECTILE_BOXES);
    const fg_projectile_def *d = fg_projectile_def_of(w, &w->projs[i]);
    for (uint32_t k = 0; k < n && k < max && out; k++) {
        out[k].rect = lb[k].rect;
        out[k].layer = lb[k].layer;
        out[k].index = lb[k].index;
        out[k].kind = (uint8_t)d->boxes[lb[k].index].kind;
    }
    return n;
}

void fg_projectile_fold(const fg_world *w, fg_fold *f) {
    const fg_projectile_pool *pool = w->ppool;
    /* A world that never spawned one hashes as it did before projectiles existed (next_id only
    ** grows, so this leaves no two states alike). */
    if (pool->count == 0 && pool->next_id == 1) return;
    fg_fold_u64(f, (uint64_t)pool->count | (uint64_t)pool->next_id << 32);
    for (uint32_t i = 0; i < pool->count; i++) {
        const fg_projectile_state *p = &w->projs[i];
        fg_fold_u64(f, (uint64_t)p->id | (uint64_t)p->owner << 32);
        fg_fold_u64(f, (uint64_t)p->team | (uint64_t)p->def << 32 | (uint64_t)p->version << 48);
        fg_fold_u64(f, (uint64_t)p->action | (uint64_t)p->layer << 16 |
                           (uint64_t)p->facing << 24 | (uint64_t)(uint32_t)p->hits << 32);
        fg_fold_u64(f, (uint64_t)(uint32_t)p->durability | (uint64_t)(uint32_t)p->x << 32);
        fg_fold_u64(f, (uint64_t)(uint32_t)p->y | (uint64_t)(uint32_t)p->vx << 32);
        fg_fold_u64(f, (uint64_t)(uint32_t)p->vy | (uint64_t)(uint32_t)p->prev_x << 32);
        fg_fold_u64(f, (uint64_t)(uint32_t)p->prev_y);
        fg_fold_u64(f, (uint64_t)p->born);
        fg_fold_u64(f, (uint64_t)p->last_hit);
        fg_fold_u64(f, (uint64_t)p->seq);
        /* Only once struck: worlds whose projectiles have no hurt boxes hash as before. */
        if (p->struck_by) {
            fg_fold_u64(f, (uint64_t)p->struck_by | (uint64_t)p->struck_layer << 32);
            fg_fold_u64(f, (uint64_t)p->struck_seq);
        }
    }
}

/* }====================================================================== */

/* {====================================================================== snapshots */

#define TICK_LIMIT ((int64_t)1 << 40)

/* A snapshot's pool (copied out of `bytes`, which need not be aligned), checked before a restore:
** every index a tick follows (owner, ruleset version, kind, action, layer) and every count. */
fg_status fg_projectile_check(const fg_world *w, const unsigned char *bytes, uint32_t nentities,
                              fg_error *err) {
    fg_projectile_pool pool;
    memcpy(&pool, bytes, sizeof pool);
    bytes += align16(sizeof(fg_projectile_pool));
    if (pool.count > w->pspace.cap)
        return fg_error_set(err, FG_EFORMAT, "snapshot: projectiles.count is %u, the pool holds "
                            "%u: the snapshot is damaged or from another build", pool.count,
                            w->pspace.cap);
    if (pool.next_id == 0)
        return fg_error_set(err, FG_EFORMAT, "snapshot: projectiles.next_id is 0: the snapshot "
                            "is damaged");
    uint32_t prev = 0;
    for (uint32_t i = 0; i < pool.count; i++) {
        fg_projectile_state p;
        memcpy(&p, bytes + sizeof p * i, sizeof p);
        const char *field = NULL;
        int64_t v = 0;
        const fg_ruleset *r = p.version < w->nversions ? w->versions[p.version] : NULL;
        if (p.id <= prev || p.id >= pool.next_id) field = "id", v = p.id;
        else if (p.owner == 0 || p.owner > nentities) field = "owner", v = p.owner;
        else if (!r) field = "version", v = p.version;
        else if (p.def >= r->nprojectiles) field = "def", v = p.def;
        else if (p.action >= r->nactions) field = "action", v = p.action;
        else if (p.layer >= FG_MAX_LAYERS) field = "layer", v = p.layer;
        else if (p.facing > FG_FACING_LEFT) field = "facing", v = p.facing;
        else if (p.hits < 0 || p.hits > 255) field = "hits", v = p.hits;
        else if (p.durability < 0 || p.durability > 255) field = "durability", v = p.durability;
        else if (p.x < -FG_POSITION_MAX || p.x > FG_POSITION_MAX || p.y < -FG_POSITION_MAX ||
                 p.y > FG_POSITION_MAX || p.prev_x < -FG_POSITION_MAX ||
                 p.prev_x > FG_POSITION_MAX || p.prev_y < -FG_POSITION_MAX ||
                 p.prev_y > FG_POSITION_MAX)
            field = "position", v = p.x;
        else if (p.vx < -FG_POSITION_MAX || p.vx > FG_POSITION_MAX || p.vy < -FG_POSITION_MAX ||
                 p.vy > FG_POSITION_MAX)
            field = "velocity", v = p.vx;
        else if (p.born <= -TICK_LIMIT || p.born >= TICK_LIMIT || p.last_hit < -1 ||
                 p.last_hit >= TICK_LIMIT)
            field = "ticks", v = p.born;
        else if (p.seq < 0 || p.seq >= TICK_LIMIT) field = "seq", v = p.seq;
        else if (p.struck_by > nentities) field = "struck_by", v = p.struck_by;
        else if (p.struck_layer >= FG_MAX_LAYERS || (!p.struck_by && p.struck_layer))
            field = "struck_layer", v = p.struck_layer;
        else if (p.struck_seq < 0 || p.struck_seq >= TICK_LIMIT || (!p.struck_by && p.struck_seq))
            field = "struck_seq", v = p.struck_seq;
        if (field)
            return fg_error_set(err, FG_EFORMAT, "snapshot: projectiles[%u].%s is %lld, out of "
                                "range: the snapshot is damaged or from another build", i, field,
                                (long long)v);
        prev = p.id;
    }
    return FG_OK;
}

/* }====================================================================== */
