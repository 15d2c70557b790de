/* SPDX-License-Identifier: MIT */
/*
** statediff.c: field-level comparison of two world snapshots, for sync test and replay reports.
**
** A snapshot is a header and the arena's sections for the spawned entities (world.c), so the
** walker reads both images in place with the world's strides and names every field it compares
** by its path: `e1.layers[0].elapsed`, `e2.res.meter`, `e1.buffer.edges[3].flags`. The order is
** fixed (world, then entity by entity: record, buffer, ledger, matcher), so two reports of the
** same divergence read the same. Fields the state hash leaves out (pending input, push-side
** counters) are compared too and marked as not hashed.
*/
#include "internal.h"
#include "snapshot.h"
#include "world_access.h"

#include "framegate/determinism.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef fg_snapshot_header image_header;
#define IMAGE_MAGIC FG_SNAPSHOT_MAGIC

typedef struct image {
    uint32_t n;
    const fg_world_state *st;
    const fg_entity_state *ents;
    const unsigned char *buffers, *ledgers, *motions;
} image;

typedef struct walk {
    const fg_world *w;
    fg_state_diff *out;
    uint32_t max, count;
    const image *a, *b;
} walk;

static fg_status open_image(const fg_world *w, const void *buf, size_t size, const char *which,
                            image *im, fg_error *err) {
    image_header h;
    if (!buf || size < sizeof h)
        return fg_error_set(err, FG_EINVAL, "diff: snapshot %s: %zu bytes is too short", which,
                            size);
    if ((uintptr_t)buf % 8 != 0)
        return fg_error_set(err, FG_EINVAL, "diff: snapshot %s is not 8-byte aligned (copy it "
                            "into memory from malloc)", which);
    memcpy(&h, buf, sizeof h);
    if (h.magic != IMAGE_MAGIC)
        return fg_error_set(err, FG_EFORMAT, "diff: snapshot %s: bad magic 0x%08x, not a world "
                            "snapshot", which, h.magic);
    if (h.layout != w->state->layout || h.entities > w->max_entities)
        return fg_error_set(err, FG_EMISMATCH, "diff: snapshot %s was taken from a world with "
                            "another layout", which);
    size_t body = fg_world_snapshot_bytes(w, h.entities);
    if (h.size != body || size < sizeof h + body)
        return fg_error_set(err, FG_EFORMAT, "diff: snapshot %s: %zu bytes for %u entities, "
                            "expected %zu", which, size, h.entities, sizeof h + body);
    const unsigned char *p = (const unsigned char *)buf + sizeof h;
    im->n = h.entities;
    im->st = (const fg_world_state *)p;
    if (im->st->nentities != h.entities || im->st->nslots > FG_MAX_RULE_SLOTS)
        return fg_error_set(err, FG_EFORMAT, "diff: snapshot %s is damaged", which);
    for (uint32_t i = 0; i < im->st->nslots; i++)
        if (im->st->slot_version[i] >= w->nversions)
            return fg_error_set(err, FG_EMISMATCH, "diff: snapshot %s uses ruleset version %u, "
                                "this world has %u", which, im->st->slot_version[i],
                                w->nversions);
    p += fg_world_snapshot_bytes(w, 0);
    im->ents = (const fg_entity_state *)p;
    p += sizeof(fg_entity_state) * h.entities;
    im->buffers = p;
    p += w->buffer_stride * h.entities;
    im->ledgers = p;
    p += w->ledger_stride * h.entities;
    im->motions = p;
    return FG_OK;
}

static const fg_buffer *image_buffer(const walk *k, const image *im, uint32_t slot) {
    return (const fg_buffer *)(im->buffers + (size_t)slot * k->w->buffer_stride);
}
static const fg_dispatcher *image_ledger(const walk *k, const image *im, uint32_t slot) {
    return (const fg_dispatcher *)(im->ledgers + (size_t)slot * k->w->ledger_stride);
}
static const fg_motion_state *image_motion(const walk *k, const image *im, uint32_t slot) {
    return (const fg_motion_state *)(im->motions + (size_t)slot * k->w->motion_stride);
}
static const fg_ruleset *image_rules(const walk *k, const image *im, const fg_entity_state *es) {
    if (im->st->nslots == 0 || es->rules_slot >= im->st->nslots) return NULL;
    return k->w->versions[im->st->slot_version[es->rules_slot]];
}

/* {====================================================================== emitting */

static void emit(walk *k, bool hashed, const char *a, const char *b, const char *fmt, ...)
    FG_PRINTF(5, 6);
static void emit(walk *k, bool hashed, const char *a, const char *b, const char *fmt, ...) {
    if (k->count++ >= k->max || !k->out) return;
    fg_state_diff *d = &k->out[k->count - 1];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->path, sizeof d->path, fmt, ap);
    va_end(ap);
    snprintf(d->a, sizeof d->a, "%s", a);
    snprintf(d->b, sizeof d->b, "%s", b);
    d->hashed = hashed;
}

typedef char val[64];

static void fmt_i(val v, int64_t x) { snprintf(v, sizeof(val), "%lld", (long long)x); }
static void fmt_x(val v, uint64_t x) { snprintf(v, sizeof(val), "0x%llx", (unsigned long long)x); }

/* Positions and velocities are 16.16 fixed point; the text shows pixels, exactly when it can. */
static void fmt_fx(val v, fg_fx x) {
    if (x % FG_FX_ONE == 0) snprintf(v, sizeof(val), "%d", x / FG_FX_ONE);
    else snprintf(v, sizeof(val), "%.5f (fx %d)", (double)x / FG_FX_ONE, x);
}

#define CMP(k, hashed, fmtfn, x, y, ...)                                                         \
    do {                                                                                         \
        if ((x) != (y)) {                                                                        \
            val va_, vb_;                                                                        \
            fmtfn(va_, (x));                                                                     \
            fmtfn(vb_, (y));                                                                     \
            emit((k), (hashed), va_, vb_, __VA_ARGS__);                                          \
        }                                                                                        \
    } while (0)

static void fmt_action(const walk *k, val v, const fg_ruleset *r, uint32_t id) {
    if (id == FG_NO_ACTION) snprintf(v, sizeof(val), "none");
    else if (r && id < r->nactions) snprintf(v, sizeof(val), "%s", r->defs[id].name);
    else snprintf(v, sizeof(val), "#%u", id);
    (void)k;
}

static void cmp_action(walk *k, bool hashed, const fg_ruleset *ra, const fg_ruleset *rb,
                       uint32_t a, uint32_t b, const char *path, ...) FG_PRINTF(7, 8);
static void cmp_action(walk *k, bool hashed, const fg_ruleset *ra, const fg_ruleset *rb,
                       uint32_t a, uint32_t b, const char *path, ...) {
    if (a == b) return;
    val va, vb;
    fmt_action(k, va, ra, a);
    fmt_action(k, vb, rb, b);
    char p[64];
    va_list ap;
    va_start(ap, path);
    vsnprintf(p, sizeof p, path, ap);
    va_end(ap);
    emit(k, hashed, va, vb, "%s", p);
}

static const char *button_name(const walk *k, int id) {
    const char *n = fg_action_names_get(&k->w->names, id);
    return n ? n : "?";
}

/* Action bits as names: "LP+down". */
static void fmt_bits(const walk *k, val v, uint32_t bits) {
    size_t len = 0;
    v[0] = '\0';
    if (!bits) snprintf(v, sizeof(val), "none");
    for (int i = 0; i < FG_INPUT_MAX_ACTIONS && len < sizeof(val); i++)
        if (bits & (1u << i)) {
            int n = snprintf(v + len, sizeof(val) - len, "%s%s", len ? "+" : "", button_name(k, i));
            if (n > 0) len += (size_t)n;
        }
}

static void cmp_bits(walk *k, bool hashed, uint32_t a, uint32_t b, const char *path, ...)
    FG_PRINTF(5, 6);
static void cmp_bits(walk *k, bool hashed, uint32_t a, uint32_t b, const char *path, ...) {
    if (a == b) return;
    val va, vb;
    fmt_bits(k, va, a);
    fmt_bits(k, vb, b);
    char p[64];
    va_list ap;
    va_start(ap, path);
    vsnprintf(p, sizeof p, path, ap);
    va_end(ap);
    emit(k, hashed, va, vb, "%s", p);
}

/* }====================================================================== */

/* {====================================================================== world and entities */

/* The stage: entries past both counts are unused (not hashed). */
static void diff_stage(walk *k, const fg_stage *a, const fg_stage *b) {
    CMP(k, true, fmt_fx, a->floor, b->floor, "stage.floor");
    CMP(k, true, fmt_fx, a->wall_min, b->wall_min, "stage.walls[1]");
    CMP(k, true, fmt_fx, a->wall_max, b->wall_max, "stage.walls[2]");
    CMP(k, true, fmt_i, a->nplatforms, b->nplatforms, "stage.platforms count");
    CMP(k, true, fmt_i, a->nblocks, b->nblocks, "stage.blocks count");
    uint32_t np = a->nplatforms > b->nplatforms ? a->nplatforms : b->nplatforms;
    for (uint32_t i = 0; i < np && i < FG_STAGE_MAX_PLATFORMS; i++) {
        const fg_platform *p = &a->platforms[i], *q = &b->platforms[i];
        CMP(k, true, fmt_fx, p->x, q->x, "stage.platforms[%u].x", i + 1);
        CMP(k, true, fmt_fx, p->y, q->y, "stage.platforms[%u].y", i + 1);
        CMP(k, true, fmt_fx, p->w, q->w, "stage.platforms[%u].w", i + 1);
        CMP(k, true, fmt_i, p->one_way, q->one_way, "stage.platforms[%u].one_way", i + 1);
    }
    uint32_t nb = a->nblocks > b->nblocks ? a->nblocks : b->nblocks;
    for (uint32_t i = 0; i < nb && i < FG_STAGE_MAX_BLOCKS; i++) {
        const fg_block *p = &a->blocks[i], *q = &b->blocks[i];
        CMP(k, true, fmt_fx, p->x, q->x, "stage.blocks[%u].x", i + 1);
        CMP(k, true, fmt_fx, p->y, q->y, "stage.blocks[%u].y", i + 1);
        CMP(k, true, fmt_fx, p->w, q->w, "stage.blocks[%u].w", i + 1);
        CMP(k, true, fmt_fx, p->h, q->h, "stage.blocks[%u].h", i + 1);
    }
}

static void diff_world(walk *k) {
    const fg_world_state *a = k->a->st, *b = k->b->st;
    CMP(k, true, fmt_i, a->tick, b->tick, "tick");
    CMP(k, true, fmt_x, a->rng.s[0], b->rng.s[0], "rng.s[0]");
    CMP(k, true, fmt_x, a->rng.s[1], b->rng.s[1], "rng.s[1]");
    CMP(k, true, fmt_i, a->nentities, b->nentities, "entities");
    CMP(k, true, fmt_i, a->nslots, b->nslots, "rules.slots");
    diff_stage(k, &a->stage, &b->stage);
    uint32_t ns = a->nslots < b->nslots ? a->nslots : b->nslots;
    for (uint32_t s = 0; s < ns; s++) {
        if (a->slot_version[s] == b->slot_version[s]) continue;
        const fg_ruleset *ra = k->w->versions[a->slot_version[s]];
        const fg_ruleset *rb = k->w->versions[b->slot_version[s]];
        val va, vb;
        snprintf(va, sizeof va, "version %u (%.24s %016llx)", a->slot_version[s], ra->name,
                 (unsigned long long)ra->hash);
        snprintf(vb, sizeof vb, "version %u (%.24s %016llx)", b->slot_version[s], rb->name,
                 (unsigned long long)rb->hash);
        emit(k, true, va, vb, "rules[%u]", s);
    }
}

/* The projectile pool, record by record (projectile.c keeps the live ones first, in id order).
** An unused pool (nothing ever spawned) is not hashed: its fields are reported as not hashed. */
static void diff_projectiles(walk *k) {
    size_t at = (sizeof(fg_world_state) + 15) & ~(size_t)15;
    fg_projectile_pool pa, pb;
    memcpy(&pa, (const unsigned char *)k->a->st + at, sizeof pa);
    memcpy(&pb, (const unsigned char *)k->b->st + at, sizeof pb);
    bool used = !(pa.count == 0 && pa.next_id == 1) || !(pb.count == 0 && pb.next_id == 1);
    CMP(k, used, fmt_i, pa.count, pb.count, "projectiles.count");
    CMP(k, used, fmt_i, pa.next_id, pb.next_id, "projectiles.next_id");
    const unsigned char *ra = (const unsigned char *)k->a->st + at + ((sizeof pa + 15) & ~(size_t)15);
    const unsigned char *rb = (const unsigned char *)k->b->st + at + ((sizeof pb + 15) & ~(size_t)15);
    uint32_t n = pa.count > pb.count ? pa.count : pb.count;
    if (n > k->w->pspace.cap) n = k->w->pspace.cap;
    for (uint32_t i = 0; i < n; i++) {
        fg_projectile_state a, b;
        memcpy(&a, ra + sizeof a * i, sizeof a);
        memcpy(&b, rb + sizeof b * i, sizeof b);
        bool h = i < pa.count && i < pb.count; /* a record past a count is not read */
        CMP(k, h, fmt_i, a.id, b.id, "projectiles[%u].id", i);
        CMP(k, h, fmt_i, a.owner, b.owner, "projectiles[%u].owner", i);
        CMP(k, h, fmt_i, a.team, b.team, "projectiles[%u].team", i);
        CMP(k, h, fmt_i, a.def, b.def, "projectiles[%u].def", i);
        CMP(k, h, fmt_i, a.version, b.version, "projectiles[%u].version", i);
        CMP(k, h, fmt_i, a.action, b.action, "projectiles[%u].action", i);
        CMP(k, h, fmt_i, a.layer, b.layer, "projectiles[%u].layer", i);
        CMP(k, h, fmt_i, a.facing, b.facing, "projectiles[%u].facing", i);
        CMP(k, h, fmt_i, a.hits, b.hits, "projectiles[%u].hits", i);
        CMP(k, h, fmt_i, a.durability, b.durability, "projectiles[%u].durability", i);
        CMP(k, h, fmt_fx, a.x, b.x, "projectiles[%u].x", i);
        CMP(k, h, fmt_fx, a.y, b.y, "projectiles[%u].y", i);
        CMP(k, h, fmt_fx, a.vx, b.vx, "projectiles[%u].vx", i);
        CMP(k, h, fmt_fx, a.vy, b.vy, "projectiles[%u].vy", i);
        CMP(k, h, fmt_fx, a.prev_x, b.prev_x, "projectiles[%u].prev_x", i);
        CMP(k, h, fmt_fx, a.prev_y, b.prev_y, "projectiles[%u].prev_y", i);
        CMP(k, h, fmt_i, a.born, b.born, "projectiles[%u].born", i);
        CMP(k, h, fmt_i, a.last_hit, b.last_hit, "projectiles[%u].last_hit", i);
        CMP(k, h, fmt_i, a.seq, b.seq, "projectiles[%u].seq", i);
        CMP(k, h, fmt_i, a.struck_by, b.struck_by, "projectiles[%u].struck_by", i);
        /* Hashed only once struck (a record never struck keeps them 0). */
        bool hs = h && (a.struck_by || b.struck_by);
        CMP(k, hs, fmt_i, a.struck_layer, b.struck_layer, "projectiles[%u].struck_layer", i);
        CMP(k, hs, fmt_i, a.struck_seq, b.struck_seq, "projectiles[%u].struck_seq", i);
    }
}

static const char *facing_name(int f) { return f == FG_FACING_LEFT ? "left" : "right"; }
static void fmt_facing(val v, int64_t f) { snprintf(v, sizeof(val), "%s", facing_name((int)f)); }
static void fmt_bool(val v, int64_t x) { snprintf(v, sizeof(val), "%s", x ? "true" : "false"); }
static void fmt_kind(val v, int64_t x) {
    snprintf(v, sizeof(val), "%s", fg_decision_kind_name((fg_decision_kind)x));
}
static void fmt_reason(val v, int64_t x) {
    snprintf(v, sizeof(val), "%s", fg_reason_name((fg_reason)x));
}
static void fmt_jump(val v, int64_t x) {
    snprintf(v, sizeof(val), "%s", fg_jump_result_name((fg_jump_result)x));
}
static void fmt_contact(val v, int64_t x) {
    snprintf(v, sizeof(val), "%s", x == 0 ? "pending" : fg_contact_name((fg_contact)x));
}

/* The combat state; a hit log entry without a target is empty and not hashed. */
static void diff_combat(walk *k, uint32_t e, const fg_combat *a, const fg_combat *b) {
    CMP(k, true, fmt_i, a->team, b->team, "e%u.combat.team", e);
    CMP(k, true, fmt_i, a->owner, b->owner, "e%u.combat.owner", e);
    CMP(k, true, fmt_fx, a->push_left, b->push_left, "e%u.combat.push_left", e);
    CMP(k, true, fmt_i, a->combo, b->combo, "e%u.combat.combo", e);
    CMP(k, true, fmt_i, a->combo_damage, b->combo_damage, "e%u.combat.combo_damage", e);
    CMP(k, true, fmt_i, a->juggle, b->juggle, "e%u.combat.juggle", e);
    CMP(k, true, fmt_i, a->knockdown, b->knockdown, "e%u.combat.knockdown", e);
    CMP(k, true, fmt_i, a->launched, b->launched, "e%u.combat.launched", e);
    CMP(k, true, fmt_i, a->throw_invuln_until, b->throw_invuln_until,
        "e%u.combat.throw_invuln_until", e);
    CMP(k, true, fmt_i, a->tech_until, b->tech_until, "e%u.combat.tech_until", e);
    CMP(k, true, fmt_i, a->grabbed_by, b->grabbed_by, "e%u.combat.grabbed_by", e);
    CMP(k, true, fmt_i, a->grab_layer, b->grab_layer, "e%u.combat.grab_layer", e);
    CMP(k, true, fmt_i, a->grab_def, b->grab_def, "e%u.combat.grab_def", e);
    CMP(k, true, fmt_i, a->grab_seq, b->grab_seq, "e%u.combat.grab_seq", e);
    for (int i = 0; i < FG_MAX_VARS; i++)
        CMP(k, true, fmt_i, a->vars[i], b->vars[i], "e%u.combat.vars[%d]", e, i);
    for (int i = 0; i < FG_HIT_LOG; i++) {
        const fg_hit_log *la = &a->log[i], *lb = &b->log[i];
        bool used = la->target || lb->target;
        CMP(k, true, fmt_i, la->target, lb->target, "e%u.combat.log[%d].target", e, i);
        CMP(k, used, fmt_i, la->layer, lb->layer, "e%u.combat.log[%d].layer", e, i);
        CMP(k, used, fmt_i, la->count, lb->count, "e%u.combat.log[%d].count", e, i);
        CMP(k, used, fmt_i, la->def, lb->def, "e%u.combat.log[%d].def", e, i);
        CMP(k, used, fmt_i, la->last, lb->last, "e%u.combat.log[%d].last", e, i);
    }
    /* Bounces: folded only while one is armed or the combo has used one. */
    const fg_bounce_state *ba = &a->bounce, *bb = &b->bounce;
    bool armed = ba->armed || bb->armed || ba->used || bb->used;
    CMP(k, true, fmt_i, ba->armed, bb->armed, "e%u.combat.bounce.armed", e);
    CMP(k, true, fmt_i, ba->used, bb->used, "e%u.combat.bounce.used", e);
    CMP(k, armed, fmt_i, ba->side, bb->side, "e%u.combat.bounce.side", e);
    CMP(k, armed, fmt_i, ba->by, bb->by, "e%u.combat.bounce.by", e);
    CMP(k, armed, fmt_fx, ba->wall_vx, bb->wall_vx, "e%u.combat.bounce.wall_vx", e);
    CMP(k, armed, fmt_fx, ba->wall_vy, bb->wall_vy, "e%u.combat.bounce.wall_vy", e);
    CMP(k, armed, fmt_i, ba->wall_stun, bb->wall_stun, "e%u.combat.bounce.wall_stun", e);
    CMP(k, armed, fmt_fx, ba->ground_vx, bb->ground_vx, "e%u.combat.bounce.ground_vx", e);
    CMP(k, armed, fmt_fx, ba->ground_vy, bb->ground_vy, "e%u.combat.bounce.ground_vy", e);
    CMP(k, armed, fmt_i, ba->ground_stun, bb->ground_stun, "e%u.combat.bounce.ground_stun", e);
}

static void diff_record(walk *k, uint32_t e, const fg_entity_state *a, const fg_entity_state *b,
                        const fg_ruleset *ra, const fg_ruleset *rb) {
    CMP(k, true, fmt_i, a->id, b->id, "e%u.id", e);
    CMP(k, true, fmt_facing, a->facing, b->facing, "e%u.facing", e);
    CMP(k, true, fmt_bool, a->contact, b->contact, "e%u.contact", e);
    CMP(k, true, fmt_i, a->rules_slot, b->rules_slot, "e%u.rules_slot", e);
    CMP(k, true, fmt_i, a->opponent, b->opponent, "e%u.opponent", e);
    CMP(k, true, fmt_fx, a->x, b->x, "e%u.x", e);
    CMP(k, true, fmt_fx, a->y, b->y, "e%u.y", e);
    CMP(k, true, fmt_fx, a->vx, b->vx, "e%u.vx", e);
    CMP(k, true, fmt_fx, a->vy, b->vy, "e%u.vy", e);
    CMP(k, true, fmt_fx, a->prev_x, b->prev_x, "e%u.prev_x", e);
    CMP(k, true, fmt_fx, a->prev_y, b->prev_y, "e%u.prev_y", e);
    CMP(k, true, fmt_x, a->support, b->support, "e%u.support", e);
    CMP(k, true, fmt_i, a->drop, b->drop, "e%u.drop", e);
    CMP(k, true, fmt_bool, a->landed, b->landed, "e%u.landed", e);

    const fg_ground *ga = &a->ground, *gb = &b->ground;
    CMP(k, true, fmt_bool, ga->grounded, gb->grounded, "e%u.ground.grounded", e);
    CMP(k, true, fmt_bool, ga->has_history, gb->has_history, "e%u.ground.has_history", e);
    CMP(k, true, fmt_bool, ga->permission_spent, gb->permission_spent,
        "e%u.ground.permission_spent", e);
    CMP(k, true, fmt_bool, ga->left_ground, gb->left_ground, "e%u.ground.left_ground", e);
    CMP(k, true, fmt_i, ga->last_grounded, gb->last_grounded, "e%u.ground.last_grounded", e);
    CMP(k, true, fmt_i, ga->landed_at, gb->landed_at, "e%u.ground.landed_at", e);

    const fg_tick_input *ia = &a->last_input, *ib = &b->last_input;
    CMP(k, true, fmt_i, ia->tick, ib->tick, "e%u.last_input.tick", e);
    CMP(k, true, fmt_i, ia->first, ib->first, "e%u.last_input.first", e);
    CMP(k, true, fmt_i, ia->count, ib->count, "e%u.last_input.count", e);
    cmp_bits(k, true, ia->pressed, ib->pressed, "e%u.last_input.pressed", e);
    cmp_bits(k, true, ia->released, ib->released, "e%u.last_input.released", e);
    cmp_bits(k, true, ia->held, ib->held, "e%u.last_input.held", e);
    CMP(k, true, fmt_i, ia->dir, ib->dir, "e%u.last_input.dir", e);

    const fg_jump_decision *ja = &a->last_jump, *jb = &b->last_jump;
    CMP(k, true, fmt_jump, ja->result, jb->result, "e%u.last_jump.result", e);
    if (ja->result != FG_JUMP_NO_PRESS || jb->result != FG_JUMP_NO_PRESS) {
        CMP(k, true, fmt_i, ja->tick, jb->tick, "e%u.last_jump.tick", e);
        CMP(k, true, fmt_i, (int64_t)ja->press.id, (int64_t)jb->press.id, "e%u.last_jump.press",
            e);
        CMP(k, true, fmt_i, ja->press_tick, jb->press_tick, "e%u.last_jump.press_tick", e);
        CMP(k, true, fmt_i, ja->last_grounded, jb->last_grounded, "e%u.last_jump.last_grounded",
            e);
        CMP(k, true, fmt_i, ja->window, jb->window, "e%u.last_jump.window", e);
        CMP(k, true, fmt_i, ja->press_until, jb->press_until, "e%u.last_jump.press_until", e);
    }

    /* The last request decision is a report, not state: compared, not hashed. */
    const fg_decision *da = &a->last_decision, *db = &b->last_decision;
    cmp_action(k, false, ra, rb, da->action, db->action, "e%u.last_decision.action", e);
    if (da->action != FG_NO_ACTION && db->action != FG_NO_ACTION) {
        CMP(k, false, fmt_i, da->tick, db->tick, "e%u.last_decision.tick", e);
        CMP(k, false, fmt_kind, da->kind, db->kind, "e%u.last_decision.kind", e);
        CMP(k, false, fmt_reason, da->reason, db->reason, "e%u.last_decision.reason", e);
        CMP(k, false, fmt_i, da->source, db->source, "e%u.last_decision.source", e);
        CMP(k, false, fmt_i, da->layer, db->layer, "e%u.last_decision.layer", e);
        cmp_action(k, false, ra, rb, da->current, db->current, "e%u.last_decision.current", e);
        cmp_action(k, false, ra, rb, da->other, db->other, "e%u.last_decision.other", e);
        CMP(k, false, fmt_i, da->window_on, db->window_on, "e%u.last_decision.window_on", e);
        CMP(k, false, fmt_contact, da->contact, db->contact, "e%u.last_decision.contact", e);
        CMP(k, false, fmt_i, da->group_have, db->group_have, "e%u.last_decision.group_have", e);
        CMP(k, false, fmt_i, da->group_need, db->group_need, "e%u.last_decision.group_need", e);
        CMP(k, false, fmt_i, da->resource, db->resource, "e%u.last_decision.resource", e);
        CMP(k, false, fmt_i, da->elapsed, db->elapsed, "e%u.last_decision.elapsed", e);
        CMP(k, false, fmt_i, da->duration, db->duration, "e%u.last_decision.duration", e);
        CMP(k, false, fmt_i, da->startup, db->startup, "e%u.last_decision.startup", e);
        CMP(k, false, fmt_i, da->active, db->active, "e%u.last_decision.active", e);
        CMP(k, false, fmt_i, da->window_from, db->window_from, "e%u.last_decision.window_from", e);
        CMP(k, false, fmt_i, da->window_to, db->window_to, "e%u.last_decision.window_to", e);
        CMP(k, false, fmt_i, da->wait, db->wait, "e%u.last_decision.wait", e);
        CMP(k, false, fmt_i, da->cost, db->cost, "e%u.last_decision.cost", e);
        CMP(k, false, fmt_i, da->have, db->have, "e%u.last_decision.have", e);
        if (strncmp(da->rule_text, db->rule_text, sizeof da->rule_text) != 0) {
            val va, vb;
            snprintf(va, sizeof va, "\"%.*s\"", 56, da->rule_text);
            snprintf(vb, sizeof vb, "\"%.*s\"", 56, db->rule_text);
            emit(k, false, va, vb, "e%u.last_decision.rule_text", e);
        }
    }

    CMP(k, true, fmt_i, a->frozen_from, b->frozen_from, "e%u.frozen_from", e);
    CMP(k, true, fmt_i, a->frozen_until, b->frozen_until, "e%u.frozen_until", e);
    diff_combat(k, e, &a->combat, &b->combat);

    /* Layers the ruleset does not declare are never written, and the hash leaves them out. */
    uint32_t nlayers = ra ? ra->nlayers : 0;
    for (uint32_t l = 0; l < FG_MAX_LAYERS; l++) {
        bool hashed = l < nlayers;
        const fg_instance *la = &a->layers[l], *lb = &b->layers[l];
        const fg_ruleset *va = la->version < k->w->nversions ? k->w->versions[la->version] : NULL;
        const fg_ruleset *vb = lb->version < k->w->nversions ? k->w->versions[lb->version] : NULL;
        cmp_action(k, hashed, va, vb, la->action, lb->action, "e%u.layers[%u].action", e, l);
        CMP(k, hashed, fmt_i, la->version, lb->version, "e%u.layers[%u].version", e, l);
        CMP(k, hashed, fmt_contact, la->contact, lb->contact, "e%u.layers[%u].contact", e, l);
        CMP(k, hashed, fmt_i, la->elapsed, lb->elapsed, "e%u.layers[%u].elapsed", e, l);
        CMP(k, hashed, fmt_i, la->duration, lb->duration, "e%u.layers[%u].duration", e, l);
        CMP(k, hashed, fmt_i, la->cycle, lb->cycle, "e%u.layers[%u].cycle", e, l);
        CMP(k, hashed, fmt_i, la->seq, lb->seq, "e%u.layers[%u].seq", e, l);
        CMP(k, hashed, fmt_i, la->started, lb->started, "e%u.layers[%u].started", e, l);
        CMP(k, hashed, fmt_i, a->next_seq[l], b->next_seq[l], "e%u.next_seq[%u]", e, l);
        CMP(k, hashed, fmt_i, a->started_tick[l], b->started_tick[l], "e%u.started_tick[%u]", e, l);
        /* The head's fields are hashed even when it is empty; the entries behind it only when
        ** they hold a request (the hash of a world that never queues two stays what it was). */
        for (uint32_t j = 0; j < FG_QUEUE_MAX; j++) {
            const fg_queued *qa = &a->queued[l][j], *qb = &b->queued[l][j];
            if (j > 0 && qa->action == FG_NO_ACTION && qb->action == FG_NO_ACTION) continue;
            cmp_action(k, hashed, ra, rb, qa->action, qb->action, "e%u.queued[%u][%u].action", e,
                       l, j);
            CMP(k, hashed, fmt_i, qa->source, qb->source, "e%u.queued[%u][%u].source", e, l, j);
            CMP(k, hashed, fmt_reason, qa->why, qb->why, "e%u.queued[%u][%u].why", e, l, j);
            if (qa->action != FG_NO_ACTION && qb->action != FG_NO_ACTION) {
                CMP(k, hashed, fmt_i, qa->waited, qb->waited, "e%u.queued[%u][%u].waited", e, l, j);
                CMP(k, hashed, fmt_i, qa->limit, qb->limit, "e%u.queued[%u][%u].limit", e, l, j);
                CMP(k, hashed, fmt_i, qa->made, qb->made, "e%u.queued[%u][%u].made", e, l, j);
            }
        }
    }
    for (uint32_t r = 0; r < FG_MAX_RESOURCES; r++) {
        if (a->res[r] == b->res[r]) continue;
        val va, vb;
        fmt_i(va, a->res[r]);
        fmt_i(vb, b->res[r]);
        if (ra && r < ra->nresources) emit(k, true, va, vb, "e%u.res.%s", e, ra->resources[r].name);
        else emit(k, true, va, vb, "e%u.res[%u]", e, r);
    }
    CMP(k, true, fmt_x, a->input_digest, b->input_digest, "e%u.input_digest", e);
    /* Requests made between ticks: input for the next tick, not hashed. */
    CMP(k, false, fmt_i, a->npending, b->npending, "e%u.pending_requests", e);
    uint32_t np = a->npending < b->npending ? a->npending : b->npending;
    for (uint32_t i = 0; i < np && i < FG_PENDING_REQUESTS; i++) {
        cmp_action(k, false, ra, rb, a->pending[i].action, b->pending[i].action,
                   "e%u.pending_requests[%u].action", e, i);
        CMP(k, false, fmt_i, a->pending[i].source, b->pending[i].source,
            "e%u.pending_requests[%u].source", e, i);
    }
}

/* }====================================================================== */

/* {====================================================================== buffers, ledgers */

static const fg_edge *ring_at(const fg_buffer *b, uint32_t i) {
    /* The ring layout of input.c: 2 * capacity slots, stored edges from head, pending after. */
    uint32_t idx = b->head + i, size = 2 * b->capacity;
    if (size == 0) return NULL;
    idx %= size;
    return &b->edges[idx];
}

static void fmt_edge_kind(val v, int64_t x) {
    static const char *const names[] = {"press", "release", "dir"};
    if (x >= 0 && x < 3) snprintf(v, sizeof(val), "%s", names[x]);
    else snprintf(v, sizeof(val), "%lld", (long long)x);
}

static void diff_edge(walk *k, bool hashed, const char *what, uint32_t e, uint32_t i,
                      const fg_edge *a, const fg_edge *b) {
    CMP(k, hashed, fmt_i, (int64_t)a->id, (int64_t)b->id, "e%u.buffer.%s[%u].id", e, what, i);
    CMP(k, hashed, fmt_i, a->time_us, b->time_us, "e%u.buffer.%s[%u].time_us", e, what, i);
    CMP(k, hashed, fmt_i, a->tick, b->tick, "e%u.buffer.%s[%u].tick", e, what, i);
    CMP(k, hashed, fmt_edge_kind, a->kind, b->kind, "e%u.buffer.%s[%u].kind", e, what, i);
    if (a->action != b->action) {
        val va, vb;
        snprintf(va, sizeof va, "%s", button_name(k, a->action));
        snprintf(vb, sizeof vb, "%s", button_name(k, b->action));
        emit(k, hashed, va, vb, "e%u.buffer.%s[%u].action", e, what, i);
    }
    CMP(k, hashed, fmt_i, a->dir, b->dir, "e%u.buffer.%s[%u].dir", e, what, i);
    CMP(k, hashed, fmt_i, a->prev_dir, b->prev_dir, "e%u.buffer.%s[%u].prev_dir", e, what, i);
    CMP(k, hashed, fmt_facing, a->facing, b->facing, "e%u.buffer.%s[%u].facing", e, what, i);
    CMP(k, hashed, fmt_i, a->source, b->source, "e%u.buffer.%s[%u].source", e, what, i);
    CMP(k, hashed, fmt_x, a->flags, b->flags, "e%u.buffer.%s[%u].flags", e, what, i);
}

static void diff_buffer(walk *k, uint32_t e, const fg_buffer *a, const fg_buffer *b) {
    CMP(k, true, fmt_i, a->capacity, b->capacity, "e%u.buffer.capacity", e);
    if (a->capacity != b->capacity) return;
    CMP(k, true, fmt_i, a->count, b->count, "e%u.buffer.count", e);
    cmp_bits(k, true, a->held, b->held, "e%u.buffer.held", e);
    CMP(k, true, fmt_i, a->current_tick, b->current_tick, "e%u.buffer.current_tick", e);
    CMP(k, true, fmt_i, (int64_t)a->dropped, (int64_t)b->dropped, "e%u.buffer.dropped", e);
    CMP(k, true, fmt_i, a->dir, b->dir, "e%u.buffer.dir", e);
    CMP(k, true, fmt_facing, a->facing, b->facing, "e%u.buffer.facing", e);
    for (int i = 0; i < FG_INPUT_MAX_ACTIONS; i++)
        if ((a->held & b->held & (1u << i)) && a->held_since[i] != b->held_since[i]) {
            val va, vb;
            fmt_i(va, a->held_since[i]);
            fmt_i(vb, b->held_since[i]);
            emit(k, true, va, vb, "e%u.buffer.held_since.%s", e, button_name(k, i));
        }
    uint32_t n = a->count < b->count ? a->count : b->count;
    if (n > a->capacity) n = a->capacity;
    /* Align the two lists on the newest edge, so one extra old edge does not shift every line. */
    for (uint32_t i = 0; i < n; i++)
        diff_edge(k, true, "edges", e, i, ring_at(a, a->count - n + i), ring_at(b, b->count - n + i));
    /* The push side: input waiting for its tick, not hashed. */
    CMP(k, false, fmt_i, a->pending_count, b->pending_count, "e%u.buffer.pending_count", e);
    uint32_t np = a->pending_count < b->pending_count ? a->pending_count : b->pending_count;
    if (np > a->capacity) np = a->capacity;
    for (uint32_t i = 0; i < np; i++)
        diff_edge(k, false, "pending", e, i, ring_at(a, a->count + i), ring_at(b, b->count + i));
    CMP(k, false, fmt_i, (int64_t)a->next_id, (int64_t)b->next_id, "e%u.buffer.next_id", e);
    CMP(k, false, fmt_i, a->last_time_us, b->last_time_us, "e%u.buffer.last_time_us", e);
    CMP(k, false, fmt_i, (int64_t)a->late, (int64_t)b->late, "e%u.buffer.late", e);
    CMP(k, false, fmt_i, (int64_t)a->refused, (int64_t)b->refused, "e%u.buffer.refused", e);
    cmp_bits(k, false, a->pushed_held, b->pushed_held, "e%u.buffer.pushed_held", e);
    CMP(k, false, fmt_i, a->pushed_dir, b->pushed_dir, "e%u.buffer.pushed_dir", e);
}

static void diff_ledger(walk *k, uint32_t e, const fg_dispatcher *a, const fg_dispatcher *b) {
    uint32_t nc = fg_dispatcher_channels(a);
    if (nc != fg_dispatcher_channels(b) || fg_dispatcher_capacity(a) != fg_dispatcher_capacity(b)) {
        emit(k, true, "shape", "other shape", "e%u.ledger", e);
        return;
    }
    for (uint32_t c = 0; c < nc; c++) {
        CMP(k, true, fmt_i, fg_dispatcher_live(a, c), fg_dispatcher_live(b, c),
            "e%u.ledger[%u].live", e, c);
        uint32_t ua = fg_dispatcher_ledger_count(a, c), ub = fg_dispatcher_ledger_count(b, c);
        CMP(k, true, fmt_i, ua, ub, "e%u.ledger[%u].entries", e, c);
        uint32_t n = ua < ub ? ua : ub;
        for (uint32_t i = 0; i < n; i++) {
            const fg_ledger_entry *x = fg_dispatcher_ledger_at(a, c, i);
            const fg_ledger_entry *y = fg_dispatcher_ledger_at(b, c, i);
            CMP(k, true, fmt_i, x->marker, y->marker, "e%u.ledger[%u][%u].marker", e, c, i);
            CMP(k, true, fmt_i, (int64_t)x->closed_below, (int64_t)y->closed_below,
                "e%u.ledger[%u][%u].closed_below", e, c, i);
            CMP(k, true, fmt_x, x->window, y->window, "e%u.ledger[%u][%u].window", e, c, i);
        }
    }
}

static uint64_t motion_hash(const fg_ruleset *r, const fg_motion_state *st) {
    fg_hasher hs = fg_hasher_begin(0);
    fg_motion_state_hash(r->motion_set, st, &hs);
    return fg_hasher_end(&hs);
}

/* }====================================================================== */

size_t fg_state_diff_list(char *out, const fg_state_diff *d, uint32_t n) {
    size_t len = 0;
    out[0] = '\0';
    for (uint32_t i = 0; i < n; i++)
        len += (size_t)snprintf(out + len, FG_DIFF_LIST_MAX(n) - len, "%s%s: %s vs %s",
                                i ? ", " : "", d[i].path, d[i].a, d[i].b);
    return len;
}

fg_status fg_world_diff(const fg_world *w, const void *a, size_t asize, const void *b,
                        size_t bsize, fg_state_diff *out, uint32_t max, uint32_t *count,
                        fg_error *err) {
    image ia, ib;
    fg_status st = open_image(w, a, asize, "a", &ia, err);
    if (st == FG_OK) st = open_image(w, b, bsize, "b", &ib, err);
    if (st != FG_OK) return st;
    walk k = {w, out, max, 0, &ia, &ib};
    diff_world(&k);
    diff_projectiles(&k);
    uint32_t n = ia.n < ib.n ? ia.n : ib.n;
    for (uint32_t s = 0; s < n; s++) {
        const fg_entity_state *ea = &ia.ents[s], *eb = &ib.ents[s];
        const fg_ruleset *ra = image_rules(&k, &ia, ea), *rb = image_rules(&k, &ib, eb);
        diff_record(&k, s + 1, ea, eb, ra, rb);
        diff_buffer(&k, s + 1, image_buffer(&k, &ia, s), image_buffer(&k, &ib, s));
        diff_ledger(&k, s + 1, image_ledger(&k, &ia, s), image_ledger(&k, &ib, s));
        if (ra && rb) {
            uint64_t ha = motion_hash(ra, image_motion(&k, &ia, s));
            uint64_t hb = motion_hash(rb, image_motion(&k, &ib, s));
            CMP(&k, true, fmt_x, ha, hb, "e%u.motion (matcher state hash)", s + 1);
        }
    }
    if (count) *count = k.count;
    return FG_OK;
}

int fg_state_diff_format(const fg_state_diff *d, char *buf, size_t size) {
    return snprintf(buf, size, "%s: %s vs %s%s", d->path, d->a, d->b,
                    d->hashed ? "" : " (not in the hash)");
}
