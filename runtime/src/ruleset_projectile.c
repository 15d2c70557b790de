/* SPDX-License-Identifier: MIT */
/*
** ruleset_projectile.c: projectile kinds in a ruleset and the actions that spawn them: the
** builder's declaration, the validator's findings (each with its path and value), the compiled
** spawn of each action, their part of the content hash, and reading them back. A projectile's
** hit definition goes through the same checks and normal form as an action's (ruleset_hits.c).
*/
#include "ruleset_internal.h"

#include "framegate/projectile.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MAX_LIFETIME 3600 /* a minute at 60 Hz */

fg_status fg_ruleset_add_projectile(fg_ruleset_builder *b, const fg_projectile_def *p,
                                    fg_error *err) {
    fg_builder_hits *bh = fg_ruleset_builder_hits(b);
    if (!p->name[0] || !memchr(p->name, 0, sizeof p->name)) {
        return fg_ruleset_builder_refuse(b, err, FG_EINVAL, "projectiles: a projectile needs a name of 1 to %d characters",
                 FG_HIT_NAME_MAX - 1);
    }
    for (uint32_t i = 0; i < bh->nprojectiles; i++)
        if (!strcmp(bh->projectiles[i].name, p->name)) {
            return fg_ruleset_builder_refuse(b, err, FG_EINVAL, "projectiles.%s: declared twice", p->name);
        }
    if (bh->nprojectiles == FG_MAX_PROJECTILE_DEFS) {
        return fg_ruleset_builder_refuse(b, err, FG_ENOMEM, "projectiles.%s: at most %d projectile kinds per ruleset",
                 p->name, FG_MAX_PROJECTILE_DEFS);
    }
    bh->projectiles[bh->nprojectiles++] = *p;
    return FG_OK;
}

fg_projectile_def fg_projectile_def_default(const char *name) {
    fg_projectile_def p;
    memset(&p, 0, sizeof p);
    snprintf(p.name, sizeof p.name, "%s", name ? name : "");
    p.lifetime = 120;
    p.durability = 1;
    p.hit.enabled = true;
    p.hit.hits = 1;
    p.hit.hitstop = 8;
    p.hit.hitstun = 12;
    p.hit.blockstun = 8;
    return p;
}

/* {====================================================================== validation */

static void note(fg_findings *f, const char *path, const char *fmt, ...) FG_PRINTF(3, 4);
static void note(fg_findings *f, const char *path, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fg_findings_vaddf(f, false, path, fmt, ap);
    va_end(ap);
}

static void check_range(fg_findings *f, const char *path, const char *field, int64_t v,
                        int64_t lo, int64_t hi) {
    if (v >= lo && v <= hi) return;
    char p[128];
    snprintf(p, sizeof p, "%s.%s", path, field);
    note(f, p, "%lld, expected %lld..%lld", (long long)v, (long long)lo, (long long)hi);
}

static void check_def(const fg_ruleset *r, const fg_projectile_def *d, fg_findings *f) {
    char path[96], p[128];
    snprintf(path, sizeof path, "projectiles.%s", d->name);
    const int64_t px = (int64_t)FG_FX(4096);
    check_range(f, path, "vx", d->vx, -px, px);
    check_range(f, path, "vy", d->vy, -px, px);
    check_range(f, path, "lifetime", d->lifetime, 1, MAX_LIFETIME);
    check_range(f, path, "durability", d->durability, 1, 255);
    check_range(f, path, "limit", d->limit, 0, 255);
    if (d->nboxes == 0 || d->nboxes > FG_PROJECTILE_BOXES) {
        snprintf(p, sizeof p, "%s.boxes", path);
        note(f, p, "%u boxes, expected 1..%d boxes", d->nboxes, FG_PROJECTILE_BOXES);
    }
    uint32_t nhit = 0;
    for (uint32_t i = 0; i < d->nboxes && i < FG_PROJECTILE_BOXES; i++) {
        const fg_box_def *b = &d->boxes[i];
        snprintf(p, sizeof p, "%s.boxes[%u]", path, i + 1);
        if (b->kind != FG_BOX_HIT && b->kind != FG_BOX_HURT) {
            note(f, p, "kind %s, a projectile's boxes are hit boxes or hurt boxes",
                 fg_box_kind_name(b->kind));
            continue;
        }
        nhit += b->kind == FG_BOX_HIT;
        if (b->box.w < 0 || b->box.h < 0)
            note(f, p, "%s %g, expected a size >= 0", b->box.w < 0 ? "w" : "h",
                 (double)(b->box.w < 0 ? b->box.w : b->box.h) / FG_FX_ONE);
        if (b->from < 0 || b->to < b->from)
            note(f, p, "ticks %d..%d, expected 0 <= from <= to", b->from, b->to);
        else if (b->from >= d->lifetime)
            note(f, p, "from %d is past the end of its lifetime (%d ticks)", b->from,
                 d->lifetime);
    }
    if (d->nboxes > 0 && nhit == 0) {
        snprintf(p, sizeof p, "%s.boxes", path);
        note(f, p, "only hurt boxes: a projectile needs a hit box to strike with");
    }
    if (!d->hit.enabled) {
        snprintf(p, sizeof p, "%s.hit", path);
        note(f, p, "a projectile needs a hit definition");
        return;
    }
    snprintf(p, sizeof p, "%s.hit", path);
    fg_hits_check_def(r, p, &d->hit, f);
    if (r->hitstun == FG_NO_ACTION || r->blockstun == FG_NO_ACTION)
        note(f, p, "a projectile's hit needs actions named 'hitstun' and 'blockstun' for its "
             "target");
}

/* The list of kinds, for a message about an unknown one. */
static void kinds(const fg_ruleset *r, char *buf, size_t size) {
    size_t n = 0;
    buf[0] = '\0';
    for (uint32_t i = 0; i < r->nprojectiles && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "", r->projectiles[i].name);
    if (!r->nprojectiles) snprintf(buf, size, "none declared");
}

/* An action's spawn: its kind and marker resolved to ids. */
static void compile_spawn(fg_ruleset *r, uint32_t id, fg_findings *f) {
    const fg_action_def *a = &r->defs[id];
    const fg_spawn_def *s = &a->spawn;
    fg_action_hits *h = &r->rt[id].hits;
    h->spawn = -1;
    if (!s->projectile[0]) return;
    char path[96], p[128];
    char list[FG_MAX_PROJECTILE_DEFS * (FG_HIT_NAME_MAX + 2)]; /* every kind's name fits */
    snprintf(path, sizeof path, "actions.%s.spawn", a->name);
    int k = fg_ruleset_find_projectile(r, s->projectile);
    if (k < 0) {
        kinds(r, list, sizeof list);
        snprintf(p, sizeof p, "%s.projectile", path);
        note(f, p, "'%s' is not a projectile (projectiles: %s)", s->projectile, list);
        return;
    }
    const char *marker = s->marker[0] ? s->marker : "spawn";
    int m = -1;
    for (uint32_t i = 0; i < a->nmarkers; i++)
        if (!strcmp(a->markers[i].name, marker)) m = (int)i;
    if (m < 0) {
        snprintf(p, sizeof p, "%s.marker", path);
        note(f, p, "'%s' is not a marker of %s (add markers = { { tick = N, marker = \"%s\" } })",
             marker, a->name, marker);
        return;
    }
    const int64_t px = (int64_t)FG_FX(4096);
    check_range(f, path, "x", s->x, -px, px);
    check_range(f, path, "y", s->y, -px, px);
    h->spawn = (int16_t)k;
    h->spawn_marker = r->rt[id].markers[m].marker;
    h->spawn_x = s->x;
    h->spawn_y = s->y;
}

void fg_projectiles_finish(fg_ruleset *r, const fg_builder_hits *bh, fg_findings *f) {
    r->nprojectiles = bh->nprojectiles;
    r->hurtable_kinds = 0;
    for (uint32_t i = 0; i < bh->nprojectiles; i++) {
        r->projectiles[i] = bh->projectiles[i];
        check_def(r, &r->projectiles[i], f);
        fg_hits_normalise(&r->projectiles[i].hit);
        for (uint32_t b = 0; b < r->projectiles[i].nboxes && b < FG_PROJECTILE_BOXES; b++)
            if (r->projectiles[i].boxes[b].kind == FG_BOX_HURT) r->hurtable_kinds |= 1u << i;
    }
    for (uint32_t i = 0; i < r->nactions; i++) compile_spawn(r, i, f);
}

/* }====================================================================== */

/* {====================================================================== hash and reading */

void fg_projectiles_hash(fg_hasher *hs, const fg_ruleset *r) {
    if (!r->nprojectiles) return; /* as before projectiles existed: replays record the hash */
    fg_hash_u64(hs, r->nprojectiles);
    for (uint32_t i = 0; i < r->nprojectiles; i++) {
        const fg_projectile_def *d = &r->projectiles[i];
        fg_hash_str(hs, d->name);
        const int64_t v[] = {d->vx, d->vy, d->lifetime, d->durability, d->limit,
                             d->opens_cancels, d->nboxes};
        for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) fg_hash_i64(hs, v[k]);
        for (uint32_t b = 0; b < d->nboxes; b++) {
            const fg_box_def *bx = &d->boxes[b];
            const int64_t bv[] = {bx->kind, bx->from, bx->to, bx->box.x, bx->box.y, bx->box.w,
                                  bx->box.h};
            for (size_t k = 0; k < sizeof bv / sizeof bv[0]; k++) fg_hash_i64(hs, bv[k]);
        }
        const fg_hit_def *h = &d->hit;
        const int64_t hv[] = {h->damage, h->chip, h->hitstop, h->hitstop_target, h->hitstun,
                              h->blockstun, h->meter_gain, h->meter_target, h->guard,
                              h->pushback_hit, h->pushback_block, h->counter_damage,
                              h->counter_hitstun, h->counter_hitstop, h->hits, h->interval,
                              h->priority, h->juggle, h->launch_vx, h->launch_vy, h->knockdown};
        for (size_t k = 0; k < sizeof hv / sizeof hv[0]; k++) fg_hash_i64(hs, hv[k]);
        fg_hash_str(hs, h->reaction);
        fg_hash_str(hs, h->air_reaction);
        fg_hits_hash_bounces(hs, h);
    }
}

uint32_t fg_ruleset_projectile_count(const fg_ruleset *r) { return r->nprojectiles; }

const fg_projectile_def *fg_ruleset_projectile(const fg_ruleset *r, uint32_t i) {
    return i < r->nprojectiles ? &r->projectiles[i] : NULL;
}

int fg_ruleset_find_projectile(const fg_ruleset *r, const char *name) {
    for (uint32_t i = 0; name && i < r->nprojectiles; i++)
        if (!strcmp(r->projectiles[i].name, name)) return (int)i;
    return -1;
}

/* }====================================================================== */
