/* SPDX-License-Identifier: MIT */
/*
** ruleset_hits.c: boxes and hit data in a ruleset: the builder's default boxes and combat rules,
** the validator's findings (each with its path and value), the compiled form the collision
** phase reads, and their part of the content hash.
*/
#include "ruleset_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MAX_TICKS FG_HIT_MAX_TICKS

/* {====================================================================== building */

fg_combat_def fg_combat_def_default(void) {
    fg_combat_def c;
    memset(&c, 0, sizeof c);
    c.soft_wakeup = 20;
    c.hard_wakeup = 40;
    c.wakeup_throw_invuln = 6;
    return c;
}

void fg_ruleset_set_combat(fg_ruleset_builder *b, const fg_combat_def *c) {
    fg_ruleset_builder_hits(b)->combat = *c;
}

fg_status fg_ruleset_add_default_box(fg_ruleset_builder *b, const char *group, fg_box_kind kind,
                                     fg_box box, fg_error *err) {
    fg_builder_hits *bh = fg_ruleset_builder_hits(b);
    const char *where = group && *group ? group : "default";
    if (kind != FG_BOX_HURT && kind != FG_BOX_PUSH) {
        return fg_ruleset_builder_refuse(b, err, FG_EINVAL, "boxes.%s: a default box is a hurt or push box, got %s",
                 where, fg_box_kind_name(kind));
    }
    if (box.w < 0 || box.h < 0) {
        return fg_ruleset_builder_refuse(b, err, FG_EINVAL, "boxes.%s.%s.%s: %g, expected a size >= 0", where,
                 fg_box_kind_name(kind), box.w < 0 ? "w" : "h",
                 (double)(box.w < 0 ? box.w : box.h) / FG_FX_ONE);
    }
    fg_group_boxes *g = &bh->fighter;
    if (group && *group) {
        if (strlen(group) >= FG_HIT_NAME_MAX) {
            return fg_ruleset_builder_refuse(b, err, FG_EINVAL, "boxes: group name '%.40s...' is longer than %d characters",
                     group, FG_HIT_NAME_MAX - 1);
        }
        uint32_t i = 0;
        while (i < bh->ngroups && strcmp(bh->group_names[i], group) != 0) i++;
        if (i == bh->ngroups) {
            if (bh->ngroups == FG_HIT_GROUPS) {
                return fg_ruleset_builder_refuse(b, err, FG_ENOMEM, "boxes.%s: at most %d state groups have default boxes",
                         group, FG_HIT_GROUPS);
            }
            snprintf(bh->group_names[bh->ngroups++], FG_HIT_NAME_MAX, "%s", group);
        }
        g = &bh->groups[i];
    }
    g->has |= (uint8_t)(1u << kind);
    g->box[kind] = box;
    return FG_OK;
}

/* }====================================================================== */

/* {====================================================================== validation */

static void note(fg_findings *f, const char *path, const char *fmt, ...) FG_PRINTF(3, 4);
static void note(fg_findings *f, const char *path, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fg_findings_vaddf(f, false, path, fmt, ap);
    va_end(ap);
}

/* A tick range of an action: inside it, in order. */
static void check_range(fg_findings *f, const char *path, const char *action, int32_t from,
                        int32_t to, int32_t duration) {
    char p[128];
    if (from < 0) {
        snprintf(p, sizeof p, "%s.from", path);
        note(f, p, "%d, expected a tick >= 0", from);
    }
    snprintf(p, sizeof p, "%s.to", path);
    if (to < from) note(f, p, "%d is before from (%d)", to, from);
    else if (duration > 0 && to >= duration)
        note(f, p, "%d is past the end of %s (%d ticks)", to, action, duration);
}

struct bound {
    const char *name;
    int64_t value, lo, hi;
};

static void check_bounds(fg_findings *f, const char *path, const struct bound *b, size_t n) {
    char p[128];
    for (size_t i = 0; i < n; i++) {
        if (b[i].value >= b[i].lo && b[i].value <= b[i].hi) continue;
        snprintf(p, sizeof p, "%s.%s", path, b[i].name);
        note(f, p, "%lld, expected %lld..%lld", (long long)b[i].value, (long long)b[i].lo,
             (long long)b[i].hi);
    }
}

static void check_reaction(const fg_ruleset *r, fg_findings *f, const char *path,
                           const char *field, const char *name) {
    if (!name[0] || fg_ruleset_find_action(r, name) >= 0) return;
    char p[128];
    snprintf(p, sizeof p, "%s.%s", path, field);
    note(f, p, "'%s' is not an action", name);
}

/* Definitions in use: enabled from the first, without a gap (a gap is a finding). */
static uint32_t defs_in_use(const fg_action_def *a, bool throws, fg_findings *f) {
    uint32_t max = throws ? FG_MAX_THROW_DEFS : FG_MAX_HIT_DEFS, n = 0;
    for (uint32_t i = 0; i < max; i++) {
        bool on = throws ? a->throws[i].enabled : a->hits[i].enabled;
        if (!on) continue;
        if (n < i) {
            char path[96];
            snprintf(path, sizeof path, "actions.%s.%s[%u]", a->name, throws ? "throw" : "hit",
                     n + 1);
            note(f, path, "missing: %s[%u] is declared, definitions are numbered from 1 without "
                 "a gap", throws ? "throw" : "hit", i + 1);
        }
        n = i + 1;
    }
    return n;
}

/* The path of definition i: "actions.kick.hit" when it is the only one, else "...hit[2]". */
static void def_path(char *path, size_t size, const fg_action_def *a, const char *what,
                     uint32_t i, uint32_t n) {
    if (n > 1) snprintf(path, size, "actions.%s.%s[%u]", a->name, what, i + 1);
    else snprintf(path, size, "actions.%s.%s", a->name, what);
}

/* A bounce's velocity and stun, in pixels as the designer wrote them: off a wall, vx goes away
** from it (>= 0) and vy either way; off the ground, vy must leave it (> 0) and vx goes either
** way (onward or back). */
static void check_bounce(fg_findings *f, const char *path, const char *name,
                         const fg_bounce_def *b, bool ground) {
    char p[160];
    const fg_fx max = FG_BOUNCE_V_MAX;
    if (!b->enabled) {
        if (!b->vx && !b->vy && !b->stun) return;
        snprintf(p, sizeof p, "%s.%s", path, name);
        note(f, p, "vx, vy or stun set but enabled is false (set enabled = true to declare it)");
        return;
    }
    const char *either = "-4096..4096 (pixels per tick)";
    if (b->vx < (ground ? -max : 0) || b->vx > max) {
        snprintf(p, sizeof p, "%s.%s.vx", path, name);
        note(f, p, "%g, expected %s", (double)b->vx / FG_FX_ONE,
             ground ? either : "0..4096 (pixels per tick away from the wall)");
    }
    if (b->vy < (ground ? 1 : -max) || b->vy > max) {
        snprintf(p, sizeof p, "%s.%s.vy", path, name);
        note(f, p, "%g, expected %s", (double)b->vy / FG_FX_ONE,
             ground ? "more than 0, up to 4096 (pixels per tick up: it leaves the ground)"
                    : either);
    }
    if (b->stun < 0 || b->stun > MAX_TICKS) {
        snprintf(p, sizeof p, "%s.%s.stun", path, name);
        note(f, p, "%d, expected 0..%d ticks (0: the hit's hitstun)", b->stun, MAX_TICKS);
    }
}

/* `boxes`: hit boxes use this definition; `any`: the action has hit boxes. */
void fg_hits_check_def(const fg_ruleset *r, const char *path, const fg_hit_def *h,
                       fg_findings *f) {
    const int64_t px = (int64_t)FG_FX(4096);
    const struct bound b[] = {
        {"range", h->range, 0, px},         {"damage", h->damage, 0, 1000000},
        {"chip", h->chip, 0, 1000000},      {"hitstop", h->hitstop, 0, MAX_TICKS},
        {"hitstop_target", h->hitstop_target, 0, MAX_TICKS},
        {"hitstun", h->hitstun, 0, MAX_TICKS}, {"blockstun", h->blockstun, 0, MAX_TICKS},
        {"meter", h->meter_gain, 0, 1000000},  {"meter_target", h->meter_target, 0, 1000000},
        {"guard", h->guard, 0, 3},
        {"pushback_hit", h->pushback_hit, 0, px}, {"pushback_block", h->pushback_block, 0, px},
        {"counter_damage", h->counter_damage, 0, 1000},
        {"counter_hitstun", h->counter_hitstun, 0, MAX_TICKS},
        {"counter_hitstop", h->counter_hitstop, 0, MAX_TICKS},
        {"hits", h->hits, 0, 255},          {"interval", h->interval, 0, MAX_TICKS},
        {"priority", h->priority, -1000, 1000}, {"juggle", h->juggle, 0, 1000},
        {"launch_vx", h->launch_vx, -px, px}, {"launch_vy", h->launch_vy, -px, px},
        {"knockdown", h->knockdown, 0, 2},
    };
    check_bounds(f, path, b, sizeof b / sizeof b[0]);
    if (h->low && h->overhead) note(f, path, "low and overhead at once: choose one guard");
    check_reaction(r, f, path, "reaction", h->reaction);
    check_reaction(r, f, path, "air_reaction", h->air_reaction);
    check_bounce(f, path, "wall_bounce", &h->wall_bounce, false);
    check_bounce(f, path, "ground_bounce", &h->ground_bounce, true);
    if (h->hits > 1 && h->interval < 1) {
        char p[128];
        snprintf(p, sizeof p, "%s.interval", path);
        note(f, p, "%d, a hit that lands %d times needs an interval >= 1 tick", h->interval,
             h->hits);
    }
}

static void check_hit(const fg_ruleset *r, const fg_action_def *a, uint32_t def, uint32_t ndefs,
                      bool boxes, bool any, fg_findings *f) {
    char path[96];
    def_path(path, sizeof path, a, "hit", def, ndefs);
    fg_hits_check_def(r, path, &a->hits[def], f);
    if (boxes) return;
    if (any) {
        note(f, path, "no hit box uses it (a box's hit = %u)", def + 1);
        return;
    }
    bool marker = false;
    for (uint32_t i = 0; i < a->nmarkers; i++)
        marker |= !strcmp(a->markers[i].name, "hit") || !strcmp(a->markers[i].name, "damage");
    if (!marker)
        note(f, path, "needs a hit box, or a marker named 'hit' (or 'damage') for the tick its "
             "range connects");
}

static void check_throw(const fg_ruleset *r, const fg_action_def *a, uint32_t def, uint32_t ndefs,
                        bool boxes, fg_findings *f) {
    char path[96];
    const fg_throw_def *t = &a->throws[def];
    def_path(path, sizeof path, a, "throw", def, ndefs);
    const int64_t px = (int64_t)FG_FX(4096);
    const struct bound b[] = {
        {"damage", t->damage, 0, 1000000}, {"tech_window", t->tech_window, 0, MAX_TICKS},
        {"stun", t->stun, 0, MAX_TICKS},   {"launch_vx", t->launch_vx, -px, px},
        {"launch_vy", t->launch_vy, -px, px}, {"knockdown", t->knockdown, 0, 2},
    };
    check_bounds(f, path, b, sizeof b / sizeof b[0]);
    check_reaction(r, f, path, "reaction", t->reaction);
    check_reaction(r, f, path, "tech", t->tech_input);
    if (!boxes && ndefs > 1)
        note(f, path, "no throw box uses it (a box's throw = %u)", def + 1);
    else if (!boxes)
        note(f, path, "needs a throw box (boxes = { { kind = \"throw\", ... } })");
}

void fg_hits_check(const fg_ruleset *r, const fg_action_def *a, int32_t duration,
                   fg_findings *f) {
    char path[96];
    bool hit_boxes[FG_MAX_HIT_DEFS] = {false}, throw_boxes[FG_MAX_THROW_DEFS] = {false};
    uint32_t nhit = defs_in_use(a, false, f), nthr = defs_in_use(a, true, f);
    if (a->nboxes > FG_MAX_BOXES || a->ninvuln > FG_MAX_INVULN) {
        snprintf(path, sizeof path, "actions.%s.boxes", a->name);
        note(f, path, "%u boxes and %u invulnerable ranges, expected at most %d and %d",
             a->nboxes, a->ninvuln, FG_MAX_BOXES, FG_MAX_INVULN);
        return;
    }
    for (uint32_t i = 0; i < a->nboxes; i++) {
        const fg_box_def *b = &a->boxes[i];
        snprintf(path, sizeof path, "actions.%s.boxes[%u]", a->name, i + 1);
        if ((unsigned)b->kind >= FG_BOX_KINDS) {
            note(f, path, "kind %d, expected hurt, hit, push or throw", (int)b->kind);
            continue;
        }
        check_range(f, path, a->name, b->from, b->to, duration);
        char p[128];
        if (b->box.w < 0 || b->box.h < 0) {
            snprintf(p, sizeof p, "%s.%s", path, b->box.w < 0 ? "w" : "h");
            note(f, p, "%g, expected a size >= 0",
                 (double)(b->box.w < 0 ? b->box.w : b->box.h) / FG_FX_ONE);
        }
        if (b->kind == FG_BOX_HIT) {
            if (!a->hit.enabled)
                note(f, path, "a hit box needs a hit definition (actions.%s.hit)", a->name);
            else if (b->def >= nhit) {
                snprintf(p, sizeof p, "%s.hit", path);
                note(f, p, "%u, %s has %u hit definition%s (actions.%s.hit)", b->def + 1, a->name,
                     nhit, nhit == 1 ? "" : "s", a->name);
            } else {
                hit_boxes[b->def] = true;
            }
        }
        if (b->kind == FG_BOX_THROW) {
            if (!a->throw_def.enabled)
                note(f, path, "a throw box needs a throw definition (actions.%s.throw)", a->name);
            else if (b->def >= nthr) {
                snprintf(p, sizeof p, "%s.throw", path);
                note(f, p, "%u, %s has %u throw definition%s (actions.%s.throw)", b->def + 1,
                     a->name, nthr, nthr == 1 ? "" : "s", a->name);
            } else {
                throw_boxes[b->def] = true;
            }
        }
        if ((b->kind == FG_BOX_HURT || b->kind == FG_BOX_PUSH) && b->def != 0) {
            snprintf(p, sizeof p, "%s.def", path);
            note(f, p, "%u, a %s box has no definition to pick", b->def + 1,
                 fg_box_kind_name(b->kind));
        }
    }
    for (uint32_t i = 0; i < a->ninvuln; i++) {
        snprintf(path, sizeof path, "actions.%s.invulnerable[%u]", a->name, i + 1);
        check_range(f, path, a->name, a->invuln[i].from, a->invuln[i].to, duration);
    }
    bool any_hit_box = false;
    for (uint32_t i = 0; i < FG_MAX_HIT_DEFS; i++) any_hit_box |= hit_boxes[i];
    for (uint32_t i = 0; i < nhit; i++)
        if (a->hits[i].enabled) check_hit(r, a, i, nhit, hit_boxes[i], any_hit_box, f);
    for (uint32_t i = 0; i < nthr; i++)
        if (a->throws[i].enabled) check_throw(r, a, i, nthr, throw_boxes[i], f);
}

/* }====================================================================== */

/* {====================================================================== compiling */

void fg_hits_compile(fg_ruleset *r, uint32_t id) {
    const fg_action_def *a = &r->defs[id];
    fg_action_rt *rt = &r->rt[id];
    fg_action_hits *h = &rt->hits;
    memset(h, 0, sizeof *h);
    h->nboxes = (uint8_t)a->nboxes;
    h->last_hit_tick = -1;
    bool hit_boxes = false;
    for (uint32_t i = 0; i < a->nboxes; i++) {
        const fg_box_def *b = &a->boxes[i];
        h->boxes[i].from = b->from;
        h->boxes[i].to = b->to;
        h->boxes[i].kind = (uint8_t)b->kind;
        h->boxes[i].def = (uint8_t)b->def;
        h->boxes[i].box = b->box;
        h->own |= (uint8_t)(1u << b->kind);
        if (b->kind == FG_BOX_HIT || b->kind == FG_BOX_THROW) {
            r->attack_boxes = true;
            hit_boxes |= b->kind == FG_BOX_HIT;
            if (b->to > h->last_hit_tick) h->last_hit_tick = b->to;
        }
    }
    h->ninvuln = (uint8_t)a->ninvuln;
    memcpy(h->invuln, a->invuln, sizeof h->invuln[0] * a->ninvuln);
    /* The first is normalised even when the action has no hit (the content hash reads it). */
    for (uint32_t i = 0; i < FG_MAX_HIT_DEFS && (i == 0 || a->hits[i].enabled); i++) {
        fg_hit_def *d = &h->hit[i];
        *d = a->hits[i];
        fg_hits_normalise(d);
        if (d->enabled) h->nhit = (uint8_t)(i + 1);
    }
    for (uint32_t i = 0; i < FG_MAX_THROW_DEFS && a->throws[i].enabled; i++) {
        h->thr[i] = a->throws[i];
        h->nthr = (uint8_t)(i + 1);
    }
    h->spawn = -1; /* resolved by fg_projectiles_finish, once every action is compiled */
    /* The `range` shorthand: its contact is decided on the hit marker's tick; it whiffed once
    ** its last active tick passed. */
    h->marker_hit = a->hit.enabled && !hit_boxes;
    if (h->marker_hit && rt->startup + rt->active - 1 > h->last_hit_tick)
        h->last_hit_tick = rt->startup + rt->active - 1;
}

void fg_hits_normalise(fg_hit_def *h) {
    if (h->hits < 1) h->hits = 1;
    if (h->guard == FG_GUARD_HIGH && h->low) h->guard = FG_GUARD_LOW;
    if (h->guard == FG_GUARD_HIGH && h->overhead) h->guard = FG_GUARD_OVERHEAD;
}

static void mark_reaction(fg_ruleset *r, const char *name) {
    int id = name[0] ? fg_ruleset_find_action(r, name) : -1;
    if (id >= 0) r->rt[id].hits.is_reaction = 1;
}

void fg_hits_finish(fg_ruleset *r, const fg_builder_hits *bh, fg_findings *f) {
    char path[96];
    const fg_combat_def *c = &bh->combat;
    const struct bound b[] = {
        {"juggle_limit", c->juggle_limit, 0, 1000},
        {"soft_wakeup", c->soft_wakeup, 0, MAX_TICKS},
        {"hard_wakeup", c->hard_wakeup, 0, MAX_TICKS},
        {"wakeup_throw_invuln", c->wakeup_throw_invuln, 0, MAX_TICKS},
        {"scaling", c->nscaling, 0, FG_MAX_SCALING},
        {"bounce_limit", c->bounce_limit, 0, FG_BOUNCE_LIMIT_MAX},
    };
    check_bounds(f, "combat", b, sizeof b / sizeof b[0]);
    for (uint32_t i = 0; i < c->nscaling && i < FG_MAX_SCALING; i++)
        if (c->scaling[i] < 0 || c->scaling[i] > 1000) {
            snprintf(path, sizeof path, "combat.scaling[%u]", i + 1);
            note(f, path, "%d, expected a percentage 0..1000", c->scaling[i]);
        }
    r->combat = *c;
    r->fighter_boxes = bh->fighter;
    for (uint32_t i = 0; i < bh->ngroups; i++) {
        int g = -1;
        for (uint32_t k = 0; k < r->ngroups; k++)
            if (!strcmp(r->groups[k], bh->group_names[i])) g = (int)k;
        if (g < 0) {
            snprintf(path, sizeof path, "boxes.%s", bh->group_names[i]);
            note(f, path, "'%s' is not a state group (groups: grounded, airborne, or one an "
                 "action declares)", bh->group_names[i]);
            continue;
        }
        r->group_boxes[g] = bh->groups[i];
    }
    int kd = fg_ruleset_find_action(r, "knockdown");
    r->knockdown = kd < 0 ? FG_NO_ACTION : (uint16_t)kd;
    if (r->hitstun != FG_NO_ACTION) r->rt[r->hitstun].hits.is_reaction = 1;
    for (uint32_t i = 0; i < r->nactions; i++) {
        const fg_action_hits *h = &r->rt[i].hits;
        for (uint32_t k = 0; k < h->nhit; k++) {
            mark_reaction(r, h->hit[k].reaction);
            mark_reaction(r, h->hit[k].air_reaction);
        }
        for (uint32_t k = 0; k < h->nthr; k++) mark_reaction(r, h->thr[k].reaction);
    }
    fg_projectiles_finish(r, bh, f);
}

/* }====================================================================== */

/* {====================================================================== hash and reading */

static void hash_box(fg_hasher *hs, fg_box b) {
    fg_hash_i64(hs, b.x);
    fg_hash_i64(hs, b.y);
    fg_hash_i64(hs, b.w);
    fg_hash_i64(hs, b.h);
}

static void hash_hit(fg_hasher *hs, const fg_hit_def *d, bool whole) {
    if (whole) {
        const int64_t first[] = {d->range, d->damage, d->hitstop, d->hitstun, d->blockstun,
                                 d->meter_gain};
        for (size_t i = 0; i < sizeof first / sizeof first[0]; i++) fg_hash_i64(hs, first[i]);
    }
    const int64_t hv[] = {d->chip, d->hitstop_target, d->meter_target, d->guard,
                          d->pushback_hit, d->pushback_block, d->counter_damage,
                          d->counter_hitstun, d->counter_hitstop, d->hits, d->interval,
                          d->priority, d->juggle, d->launch_vx, d->launch_vy, d->knockdown};
    for (size_t i = 0; i < sizeof hv / sizeof hv[0]; i++) fg_hash_i64(hs, hv[i]);
    fg_hash_str(hs, d->reaction);
    fg_hash_str(hs, d->air_reaction);
    fg_hits_hash_bounces(hs, d);
}

void fg_hits_hash_bounces(fg_hasher *hs, const fg_hit_def *d) {
    /* Only a declared bounce adds to the hash: every other ruleset keeps its hash (replays
    ** record it). */
    const fg_bounce_def *b[2] = {&d->wall_bounce, &d->ground_bounce};
    for (int k = 0; k < 2; k++) {
        if (!b[k]->enabled) continue;
        fg_hash_u64(hs, 0xB0u + (uint64_t)k);
        fg_hash_i64(hs, b[k]->vx);
        fg_hash_i64(hs, b[k]->vy);
        fg_hash_i64(hs, b[k]->stun);
    }
}

static void hash_throw(fg_hasher *hs, const fg_throw_def *t) {
    const int64_t tv[] = {t->damage, t->tech_window, t->stun, t->launch_vx, t->launch_vy,
                          t->knockdown};
    for (size_t i = 0; i < sizeof tv / sizeof tv[0]; i++) fg_hash_i64(hs, tv[i]);
    fg_hash_str(hs, t->reaction);
    fg_hash_str(hs, t->tech_input);
}

void fg_hits_hash_action(fg_hasher *hs, const fg_action_rt *rt) {
    const fg_action_hits *h = &rt->hits;
    fg_hash_u64(hs, (uint64_t)h->nboxes | (uint64_t)h->ninvuln << 8 |
                        (uint64_t)h->is_reaction << 16 | (uint64_t)(h->nthr > 0) << 24);
    for (uint32_t i = 0; i < h->nboxes; i++) {
        fg_hash_u64(hs, h->boxes[i].kind);
        fg_hash_i64(hs, h->boxes[i].from);
        fg_hash_i64(hs, h->boxes[i].to);
        hash_box(hs, h->boxes[i].box);
    }
    for (uint32_t i = 0; i < h->ninvuln; i++) {
        const fg_invuln_def *v = &h->invuln[i];
        fg_hash_i64(hs, v->from);
        fg_hash_i64(hs, v->to);
        fg_hash_u64(hs, (uint64_t)v->strike | (uint64_t)v->thrown << 1);
    }
    hash_hit(hs, &h->hit[0], false);
    hash_throw(hs, &h->thr[0]);
    /* Only an action that spawns adds to the hash: rulesets without projectiles keep theirs
    ** (replays record it). */
    if (h->spawn >= 0) {
        fg_hash_i64(hs, h->spawn);
        fg_hash_u64(hs, h->spawn_marker);
        fg_hash_i64(hs, h->spawn_x);
        fg_hash_i64(hs, h->spawn_y);
    }
    /* Only a move with several definitions hashes the others (and which box uses which): the
    ** hash of every other ruleset stays what it was. */
    if (h->nhit <= 1 && h->nthr <= 1) return;
    fg_hash_u64(hs, (uint64_t)h->nhit | (uint64_t)h->nthr << 8);
    for (uint32_t i = 0; i < h->nboxes; i++) fg_hash_u64(hs, h->boxes[i].def);
    for (uint32_t i = 1; i < h->nhit; i++) hash_hit(hs, &h->hit[i], true);
    for (uint32_t i = 1; i < h->nthr; i++) hash_throw(hs, &h->thr[i]);
}

static void hash_group(fg_hasher *hs, const fg_group_boxes *g) {
    fg_hash_u64(hs, g->has);
    for (int k = 0; k < FG_BOX_KINDS; k++)
        if (g->has & (1u << k)) hash_box(hs, g->box[k]);
}

void fg_hits_hash(fg_hasher *hs, const fg_ruleset *r) {
    const fg_combat_def *c = &r->combat;
    fg_hash_u64(hs, c->trade_priority);
    fg_hash_i64(hs, c->juggle_limit);
    fg_hash_i64(hs, c->soft_wakeup);
    fg_hash_i64(hs, c->hard_wakeup);
    fg_hash_i64(hs, c->wakeup_throw_invuln);
    fg_hash_u64(hs, c->nscaling);
    for (uint32_t i = 0; i < c->nscaling; i++) fg_hash_i64(hs, c->scaling[i]);
    if (c->bounce_limit) fg_hash_i64(hs, c->bounce_limit); /* only when set: hashes stay */
    hash_group(hs, &r->fighter_boxes);
    for (uint32_t g = 0; g < r->ngroups; g++) hash_group(hs, &r->group_boxes[g]);
    fg_projectiles_hash(hs, r);
}

const fg_combat_def *fg_ruleset_combat(const fg_ruleset *r) { return &r->combat; }

bool fg_ruleset_default_box(const fg_ruleset *r, const char *group, fg_box_kind kind,
                            fg_box *out) {
    if ((unsigned)kind >= FG_BOX_KINDS) return false;
    const fg_group_boxes *g = &r->fighter_boxes;
    if (group && *group) {
        g = NULL;
        for (uint32_t k = 0; k < r->ngroups; k++)
            if (!strcmp(r->groups[k], group)) g = &r->group_boxes[k];
        if (!g) return false;
    }
    if (!(g->has & (1u << kind))) return false;
    if (out) *out = g->box[kind];
    return true;
}

/* }====================================================================== */
