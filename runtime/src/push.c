/* SPDX-License-Identifier: MIT */
/*
** push.c: bodies that keep fighters apart. After movement, two opponents whose push boxes overlap
** are separated along x by exactly the overlap: each gives way by half (the one on the left takes
** the smaller half of an odd amount), and a fighter the wall stops gives way only as far as the
** wall lets it, the other taking the rest. Fighters without push boxes keep the older rule,
** `physics.min_gap` between origins. Also the corner rule of pushback: what the wall keeps a
** target from sliding is given to its attacker instead.
**
** Which side is left is decided by the positions before this tick's movement (where they came
** from), then by this tick's, then by entity id: never by the order entities are stored in.
*/
#include "internal.h"

/* How far an entity can still move toward `dir` (+1 right, -1 left) before the stage's wall
** stops its origin. */
fg_fx fg_push_room(const fg_world *w, const fg_entity_state *es, int dir) {
    /* The walls are the world's stage's (world_stage.c), whoever set it. */
    const fg_stage *s = fg_world_stage(w);
    int64_t room = dir > 0 ? (int64_t)s->wall_max - es->x : (int64_t)es->x - s->wall_min;
    return room < 0 ? 0 : room > INT32_MAX ? INT32_MAX : (fg_fx)room;
}

/* The deepest overlap on x of a's push boxes into b's, with a on the left; 0 when none overlap
** (touching edges do not push). */
static int64_t overlap(const fg_live_box *pa, uint32_t na, const fg_live_box *pb, uint32_t nb) {
    int64_t depth = 0;
    for (uint32_t i = 0; i < na; i++)
        for (uint32_t j = 0; j < nb; j++) {
            const fg_rect *ra = &pa[i].rect, *rb = &pb[j].rect;
            if (ra->y0 >= rb->y1 || rb->y0 >= ra->y1) continue; /* one above the other */
            if (ra->x1 <= rb->x0 || rb->x1 <= ra->x0) continue;
            int64_t d = (int64_t)ra->x1 - rb->x0;
            if (d > depth) depth = d;
        }
    return depth;
}

/* Moves `left` left and `right` right by `depth` in all: half each, the wall's share to the
** other side. */
static void give_way(const fg_world *w, fg_entity_state *left, fg_entity_state *right,
                     int64_t depth) {
    int64_t l = depth / 2, r = depth - l;
    int64_t room_l = fg_push_room(w, left, -1), room_r = fg_push_room(w, right, 1);
    if (l > room_l) {
        r += l - room_l;
        l = room_l;
    }
    if (r > room_r) {
        l += r - room_r;
        r = room_r;
        if (l > room_l) l = room_l; /* a stage narrower than both bodies: both at the walls */
    }
    left->x = (fg_fx)(left->x - l);
    right->x = (fg_fx)(right->x + r);
}

/* Which of the two is on the left: where they came from, then where they are, then ids. */
static bool a_is_left(const fg_entity_state *a, const fg_entity_state *b) {
    if (a->prev_x != b->prev_x) return a->prev_x < b->prev_x;
    if (a->x != b->x) return a->x < b->x;
    return a->id < b->id;
}

/* Whether a ruleset declares a push box anywhere: its fighter's, a state group's or an
** action's. A world none of whose versions does never looks for one (most of a push's cost). */
bool fg_push_declared(const fg_ruleset *r) {
    uint8_t push = (uint8_t)(1u << FG_BOX_PUSH);
    if (r->fighter_boxes.has & push) return true;
    for (uint32_t g = 0; g < r->ngroups; g++)
        if (r->group_boxes[g].has & push) return true;
    for (uint32_t i = 0; i < r->nactions; i++)
        if (r->rt[i].hits.own & push) return true;
    return false;
}

void fg_push_separate(fg_world *w, fg_entity_state *a, fg_entity_state *b, fg_tick t) {
    fg_live_box pa[FG_MAX_BOXES * FG_MAX_LAYERS + 1], pb[FG_MAX_BOXES * FG_MAX_LAYERS + 1];
    uint32_t max = FG_MAX_BOXES * FG_MAX_LAYERS + 1;
    uint32_t na = w->push_boxes ? fg_collide_boxes(w, a, FG_BOX_PUSH, t, true, pa, max) : 0;
    uint32_t nb = na ? fg_collide_boxes(w, b, FG_BOX_PUSH, t, true, pb, max) : 0;
    bool left = a_is_left(a, b);
    fg_entity_state *l = left ? a : b, *r = left ? b : a;
    if (na && nb) {
        int64_t depth = left ? overlap(pa, na, pb, nb) : overlap(pb, nb, pa, na);
        if (depth > 0) give_way(w, l, r, depth);
        return;
    }
    /* No bodies: the older rule, origins at least min_gap apart. */
    const fg_physics_def *p = &fg_world_rules_of(w, a)->physics;
    int64_t gap = (int64_t)r->x - l->x;
    if (gap < p->min_gap) give_way(w, l, r, p->min_gap - gap);
}

/* Pushback on a target at `away` (+1/-1) from its attacker: what the wall leaves it room for it
** slides, the rest the attacker slides the other way (the corner rule). Returns the attacker's
** share. */
fg_fx fg_push_corner(const fg_world *w, fg_entity_state *tg, int away, fg_fx push) {
    fg_fx room = fg_push_room(w, tg, away);
    fg_fx mine = push > room ? room : push;
    fg_world_hash_touch(w, tg);
    tg->combat.push_left = (fg_fx)(away * mine);
    fg_entity_combat_changed(tg);
    return (fg_fx)(push - mine);
}
