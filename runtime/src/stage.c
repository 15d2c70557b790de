/* SPDX-License-Identifier: MIT */
/*
** stage.c: the stage as data (floor, walls, one-way platforms, solid blocks): its checks, what a
** point stands on, and how a move of that point is stopped. Pure functions of the stage and a
** point: the world calls them from its movement phase, so everything here is integer arithmetic
** on fixed point, in a fixed order, and allocates nothing.
*/
#include "framegate/stage.h"

#include <stdio.h>
#include <string.h>

fg_stage fg_stage_default(void) {
    fg_stage s;
    memset(&s, 0, sizeof s);
    s.floor = 0;
    s.wall_min = FG_FX(-400);
    s.wall_max = FG_FX(400);
    return s;
}

const char *fg_ground_mode_name(fg_ground_mode m) {
    switch (m) {
    case FG_GROUND_STAGE: return "stage";
    case FG_GROUND_CONTACTS: return "contacts";
    case FG_GROUND_DEFAULT: return "default";
    }
    return "unknown";
}

/* {====================================================================== checks */

static bool in_limit(fg_fx v) { return v >= -FG_STAGE_LIMIT && v <= FG_STAGE_LIMIT; }

/* Units as a designer wrote them: 12, 12.5. */
static void units(char *buf, size_t size, int64_t v) {
    snprintf(buf, size, "%g", (double)v / FG_FX_ONE);
}

static bool problem(char *path, size_t psize, char *msg, size_t msize, const char *field,
                    int index, const char *sub, int64_t v, const char *expected) {
    char num[32];
    units(num, sizeof num, v);
    if (index > 0)
        snprintf(path, psize, "stage.%s[%d].%s", field, index, sub);
    else
        snprintf(path, psize, "stage.%s", field);
    snprintf(msg, msize, "%s is out of range, expected %s", num, expected);
    return true;
}

#define LIMIT_TEXT "-16384 to 16384"

bool fg_stage_problem(const fg_stage *s, char *path, size_t psize, char *msg, size_t msize) {
    if (!in_limit(s->floor))
        return problem(path, psize, msg, msize, "floor", 0, NULL, s->floor, LIMIT_TEXT);
    if (!in_limit(s->wall_min))
        return problem(path, psize, msg, msize, "walls[1]", 0, NULL, s->wall_min, LIMIT_TEXT);
    if (!in_limit(s->wall_max))
        return problem(path, psize, msg, msize, "walls[2]", 0, NULL, s->wall_max, LIMIT_TEXT);
    if (s->wall_min >= s->wall_max) {
        char a[32], b[32];
        units(a, sizeof a, s->wall_min);
        units(b, sizeof b, s->wall_max);
        snprintf(path, psize, "stage.walls");
        snprintf(msg, msize, "{ %s, %s }: the left wall must be left of the right one", a, b);
        return true;
    }
    if (s->nplatforms > FG_STAGE_MAX_PLATFORMS) {
        snprintf(path, psize, "stage.platforms");
        snprintf(msg, msize, "%u platforms, at most %d", s->nplatforms, FG_STAGE_MAX_PLATFORMS);
        return true;
    }
    if (s->nblocks > FG_STAGE_MAX_BLOCKS) {
        snprintf(path, psize, "stage.blocks");
        snprintf(msg, msize, "%u blocks, at most %d", s->nblocks, FG_STAGE_MAX_BLOCKS);
        return true;
    }
    for (uint32_t i = 0; i < s->nplatforms; i++) {
        const fg_platform *p = &s->platforms[i];
        int k = (int)i + 1;
        if (!in_limit(p->x)) return problem(path, psize, msg, msize, "platforms", k, "x", p->x, LIMIT_TEXT);
        if (!in_limit(p->y)) return problem(path, psize, msg, msize, "platforms", k, "y", p->y, LIMIT_TEXT);
        if (p->w <= 0 || (int64_t)p->x + p->w > FG_STAGE_LIMIT)
            return problem(path, psize, msg, msize, "platforms", k, "w", p->w,
                           "more than 0, with x + w at most 16384");
    }
    for (uint32_t i = 0; i < s->nblocks; i++) {
        const fg_block *b = &s->blocks[i];
        int k = (int)i + 1;
        if (!in_limit(b->x)) return problem(path, psize, msg, msize, "blocks", k, "x", b->x, LIMIT_TEXT);
        if (!in_limit(b->y)) return problem(path, psize, msg, msize, "blocks", k, "y", b->y, LIMIT_TEXT);
        if (b->w <= 0 || (int64_t)b->x + b->w > FG_STAGE_LIMIT)
            return problem(path, psize, msg, msize, "blocks", k, "w", b->w,
                           "more than 0, with x + w at most 16384");
        if (b->h <= 0 || (int64_t)b->y + b->h > FG_STAGE_LIMIT)
            return problem(path, psize, msg, msize, "blocks", k, "h", b->h,
                           "more than 0, with y + h at most 16384");
    }
    return false;
}

fg_status fg_stage_check(const fg_stage *s, fg_error *err) {
    char path[64], msg[160];
    if (!s) return fg_error_set(err, FG_EINVAL, "stage: NULL");
    if (!fg_stage_problem(s, path, sizeof path, msg, sizeof msg)) return FG_OK;
    return fg_error_set(err, FG_EINVAL, "%s: %s", path, msg);
}

/* }====================================================================== */

/* {====================================================================== support and moves */

static bool over(fg_fx x, fg_fx left, fg_fx w) {
    return x >= left && (int64_t)x <= (int64_t)left + w;
}

uint8_t fg_stage_support(const fg_stage *s, fg_fx x, fg_fx y, uint32_t drop) {
    for (uint32_t i = 0; i < s->nplatforms; i++) {
        const fg_platform *p = &s->platforms[i];
        if (drop == i + 1) continue;
        if (y == p->y && over(x, p->x, p->w)) return (uint8_t)(FG_SUPPORT_PLATFORM | i);
    }
    for (uint32_t i = 0; i < s->nblocks; i++) {
        const fg_block *b = &s->blocks[i];
        if ((int64_t)y == (int64_t)b->y + b->h && over(x, b->x, b->w))
            return (uint8_t)(FG_SUPPORT_BLOCK | i);
    }
    return y <= s->floor ? FG_SUPPORT_FLOOR : FG_SUPPORT_NONE;
}

fg_fx fg_stage_surface_y(const fg_stage *s, uint8_t support) {
    uint32_t i = support & FG_SUPPORT_INDEX;
    if ((support & FG_SUPPORT_PLATFORM) && i < s->nplatforms) return s->platforms[i].y;
    if ((support & FG_SUPPORT_BLOCK) && i < s->nblocks)
        return (fg_fx)((int64_t)s->blocks[i].y + s->blocks[i].h);
    return s->floor;
}

/* Along x at height y: a block whose height holds y stops the point at its side; then the walls. */
static fg_fx move_x(const fg_stage *s, fg_fx x0, fg_fx y, fg_fx x, bool *stopped) {
    for (uint32_t i = 0; i < s->nblocks; i++) {
        const fg_block *b = &s->blocks[i];
        if (y < b->y || (int64_t)y >= (int64_t)b->y + b->h) continue;
        fg_fx right = (fg_fx)((int64_t)b->x + b->w);
        if (x > x0 && x0 <= b->x && x > b->x) {
            x = b->x;
            *stopped = true;
        } else if (x < x0 && x0 >= right && x < right) {
            x = right;
            *stopped = true;
        }
    }
    if (x < s->wall_min) {
        x = s->wall_min;
        *stopped = true;
    } else if (x > s->wall_max) {
        x = s->wall_max;
        *stopped = true;
    }
    return x;
}

/* A fall from y0 to y at x: the highest surface in between stops it. */
static fg_fx fall(const fg_stage *s, fg_fx x, fg_fx y0, fg_fx y, uint32_t drop, bool *landed) {
    int64_t best = INT64_MIN;
    for (uint32_t i = 0; i < s->nplatforms; i++) {
        const fg_platform *p = &s->platforms[i];
        if (drop == i + 1 || !over(x, p->x, p->w)) continue;
        if (p->y <= y0 && p->y >= y && p->y > best) best = p->y;
    }
    for (uint32_t i = 0; i < s->nblocks; i++) {
        const fg_block *b = &s->blocks[i];
        int64_t top = (int64_t)b->y + b->h;
        if (!over(x, b->x, b->w)) continue;
        if (top <= y0 && top >= y && top > best) best = top;
    }
    if (best != INT64_MIN) {
        *landed = true;
        return (fg_fx)best;
    }
    return y;
}

/* A rise from y0 to y at x: the lowest block bottom or solid platform in between stops it. */
static fg_fx rise(const fg_stage *s, fg_fx x, fg_fx y0, fg_fx y, bool *stopped) {
    int64_t best = INT64_MAX;
    for (uint32_t i = 0; i < s->nplatforms; i++) {
        const fg_platform *p = &s->platforms[i];
        if (p->one_way || !over(x, p->x, p->w)) continue;
        if (p->y > y0 && p->y < y && p->y < best) best = p->y;
    }
    for (uint32_t i = 0; i < s->nblocks; i++) {
        const fg_block *b = &s->blocks[i];
        if (x <= b->x || (int64_t)x >= (int64_t)b->x + b->w) continue;
        if (b->y >= y0 && b->y < y && b->y < best) best = b->y;
    }
    if (best != INT64_MAX) {
        *stopped = true;
        return (fg_fx)best;
    }
    return y;
}

/* A move on a stage with platforms or blocks. */
static fg_stage_contact move_through(const fg_stage *s, fg_fx x0, fg_fx y0, fg_fx *x, fg_fx *y,
                                     uint32_t drop) {
    fg_stage_contact c;
    memset(&c, 0, sizeof c);
    fg_fx nx = move_x(s, x0, y0, *x, &c.stopped_x);
    fg_fx ny = *y;
    if (ny < y0)
        ny = fall(s, nx, y0, ny, drop, &c.landed);
    else if (ny > y0)
        ny = rise(s, nx, y0, ny, &c.stopped_y);
    /* Nothing goes below the floor; reaching it from above is a landing. */
    if (ny <= s->floor) {
        if (ny < y0 || y0 > s->floor) c.landed = true;
        ny = s->floor;
    }
    *x = nx;
    *y = ny;
    c.support = fg_stage_support(s, nx, ny, drop);
    return c;
}

fg_stage_contact fg_stage_move(const fg_stage *s, fg_fx x0, fg_fx y0, fg_fx *x, fg_fx *y,
                               uint32_t drop) {
    if (s->nplatforms || s->nblocks) return move_through(s, x0, y0, x, y, drop);
    /* Most stages are a floor between two walls: what move_through does with nothing else. */
    fg_stage_contact c = {FG_SUPPORT_NONE, false, false, false};
    if (*x < s->wall_min || *x > s->wall_max) {
        *x = *x < s->wall_min ? s->wall_min : s->wall_max;
        c.stopped_x = true;
    }
    if (*y <= s->floor) {
        if (*y < y0 || y0 > s->floor) c.landed = true;
        *y = s->floor;
        c.support = FG_SUPPORT_FLOOR;
    }
    return c;
}

/* }====================================================================== */

/* {====================================================================== compare, hash, names */

bool fg_stage_equal(const fg_stage *a, const fg_stage *b) {
    if (a->floor != b->floor || a->wall_min != b->wall_min || a->wall_max != b->wall_max ||
        a->nplatforms != b->nplatforms || a->nblocks != b->nblocks)
        return false;
    for (uint32_t i = 0; i < a->nplatforms && i < FG_STAGE_MAX_PLATFORMS; i++) {
        const fg_platform *p = &a->platforms[i], *q = &b->platforms[i];
        if (p->x != q->x || p->y != q->y || p->w != q->w || p->one_way != q->one_way)
            return false;
    }
    for (uint32_t i = 0; i < a->nblocks && i < FG_STAGE_MAX_BLOCKS; i++) {
        const fg_block *p = &a->blocks[i], *q = &b->blocks[i];
        if (p->x != q->x || p->y != q->y || p->w != q->w || p->h != q->h) return false;
    }
    return true;
}

void fg_stage_hash(const fg_stage *s, fg_hasher *hs) {
    fg_hash_i64(hs, s->floor);
    fg_hash_i64(hs, s->wall_min);
    fg_hash_i64(hs, s->wall_max);
    fg_hash_u64(hs, (uint64_t)s->nplatforms | (uint64_t)s->nblocks << 32);
    for (uint32_t i = 0; i < s->nplatforms && i < FG_STAGE_MAX_PLATFORMS; i++) {
        const fg_platform *p = &s->platforms[i];
        fg_hash_i64(hs, p->x);
        fg_hash_i64(hs, p->y);
        fg_hash_i64(hs, p->w);
        fg_hash_u64(hs, p->one_way);
    }
    for (uint32_t i = 0; i < s->nblocks && i < FG_STAGE_MAX_BLOCKS; i++) {
        const fg_block *b = &s->blocks[i];
        fg_hash_i64(hs, b->x);
        fg_hash_i64(hs, b->y);
        fg_hash_i64(hs, b->w);
        fg_hash_i64(hs, b->h);
    }
}

int fg_stage_support_name(uint8_t support, char *buf, size_t size) {
    if (support == FG_SUPPORT_NONE) return snprintf(buf, size, "air");
    if (support == FG_SUPPORT_FLOOR) return snprintf(buf, size, "floor");
    return snprintf(buf, size, "%s %u", support & FG_SUPPORT_PLATFORM ? "platform" : "block",
                    (unsigned)(support & FG_SUPPORT_INDEX) + 1);
}

/* }====================================================================== */
