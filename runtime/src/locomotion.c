/* SPDX-License-Identifier: MIT */
/*
** locomotion.c: locomotion signals for animation graphs: the cardinal Schmitt trigger, the
** orientation-warping angle, the two-latch pivot with explicit re-entry, the wall heuristic, and
** the batch that lets the compute step run away from the simulation thread.
**
** Every input is sanitised first (non-finite values become 0, huge ones are clamped), so each
** later expression works on finite numbers and no output can be NaN. The order of evaluation is
** fixed and the build forbids contraction, so one platform always gives the same floats.
*/
#include "framegate/locomotion.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define RAD_PER_DEG 0.017453292519943295f

/* {====================================================================== names and angles */

static const char *const cardinal_names[4] = {"Forward", "Right", "Backward", "Left"};
static const char *const dir8_names[8] = {"F", "FR", "R", "BR", "B", "BL", "L", "FL"};
static const float cardinal_base[4] = {0.0f, 90.0f, 180.0f, -90.0f};

const char *fg_cardinal_name(fg_cardinal c) {
    return (unsigned)c < 4 ? cardinal_names[c] : "?";
}

int fg_cardinal_parse(const char *name) {
    if (!name) return -1;
    for (int i = 0; i < 4; i++)
        if (strcmp(name, cardinal_names[i]) == 0) return i;
    return -1;
}

const char *fg_dir8_name(fg_dir8 d) { return (unsigned)d < 8 ? dir8_names[d] : "?"; }

static const char *const hysteresis_names[2] = {"one_way", "both_ways"};

const char *fg_loco_hysteresis_name(fg_loco_hysteresis h) {
    return (unsigned)h < 2 ? hysteresis_names[h] : "?";
}

int fg_loco_hysteresis_parse(const char *name) {
    for (int i = 0; name && i < 2; i++)
        if (strcmp(name, hysteresis_names[i]) == 0) return i;
    return -1;
}

float fg_cardinal_base_deg(fg_cardinal c) { return (unsigned)c < 4 ? cardinal_base[c] : 0.0f; }

static inline float norm_deg(float deg) {
    if (deg <= 180.0f && deg > -180.0f) return deg; /* the common case; false for NaN */
    /* Within one turn of the range one step will do, and it is exact (Sterbenz: x - 360 is
    ** exact for x in [180, 720]). */
    if (deg <= 540.0f && deg > -540.0f) return deg > 0.0f ? deg - 360.0f : deg + 360.0f;
    if (!isfinite(deg)) return 0.0f;
    /* Further out the remainder is still exact: below 2^24 in double arithmetic (deg and 360 k
    ** both fit in 53 bits, and the remainder is a multiple of deg's ulp below 720), beyond that
    ** with fmodf. A quotient rounded across an integer leaves r one turn off, which the single
    ** correction below takes back, so -180 never appears. */
    double r;
    if (fabsf(deg) < 16777216.0f) {
        double d = (double)deg;
        r = d - 360.0 * floor(d / 360.0);
    } else {
        r = (double)fmodf(deg, 360.0f);
    }
    if (r > 180.0)
        r -= 360.0;
    else if (r <= -180.0)
        r += 360.0;
    return (float)r;
}

float fg_loco_normalize_deg(float deg) { return norm_deg(deg); }

/* Heading of (x, y) in degrees: 0 along +y, +90 along +x, in [-180, 180]. After reducing to
** the first octant, atan(t) for t in [0, 1] is an odd polynomial of degree 13 fitted for this
** module (weighted least squares toward minimax; largest error 1.5e-5 degrees). Plain float
** arithmetic in a fixed order: every platform computes the same bits, which libm's atan2f does
** not promise, and it costs a fraction of it. */
static float heading_deg(float x, float y) {
    float ax = fabsf(x), ay = fabsf(y);
    float hi = ax > ay ? ax : ay, lo = ax > ay ? ay : ax;
    if (!(hi > 0.0f)) return 0.0f;
    float t = lo / hi, t2 = t * t;
    float p = 0.39028609f;
    p = p * t2 - 1.92537895f;
    p = p * t2 + 4.56210214f;
    p = p * t2 - 7.58215009f;
    p = p * t2 + 11.34904445f;
    p = p * t2 - 19.08944622f;
    p = p * t2 + 57.29555675f;
    float a = p * t; /* the smaller angle to an axis, [0, 45] */
    if (ax > ay) a = 90.0f - a;
    if (y < 0.0f) a = 180.0f - a;
    return x < 0.0f ? -a : a;
}

/* }====================================================================== */

/* {====================================================================== configuration */

static uint32_t ticks_of_tenths(uint32_t rate_hz, uint32_t tenths) {
    uint64_t t = ((uint64_t)rate_hz * tenths + 5) / 10;
    return t < 1 ? 1 : (uint32_t)t;
}

fg_loco_config fg_loco_config_default(uint32_t rate_hz) {
    if (rate_hz == 0 || rate_hz > FG_TICK_RATE_MAX) rate_hz = FG_TICK_RATE_DEFAULT;
    fg_loco_config c;
    memset(&c, 0, sizeof c);
    c.forward_limit_deg = 65.0f;
    c.backward_limit_deg = 65.0f;
    c.dead_zone_deg = 10.0f;
    c.hysteresis = FG_LOCO_HYSTERESIS_ONE_WAY;
    c.move_speed = 0.05f;
    c.accel_threshold = 0.1f;
    c.pivot_min_ticks = ticks_of_tenths(rate_hz, 2);
    c.pivot_turn_deg = 45.0f;
    c.wall_ticks = ticks_of_tenths(rate_hz, 1);
    c.wall_speed = 0.5f;
    c.braking_deceleration = 20.0f;
    return c;
}

static fg_status bad_range(fg_error *err, const char *field, double v, const char *expected) {
    return fg_error_set(err, FG_EINVAL, "locomotion.%s: %g, expected %s", field, v, expected);
}

fg_status fg_loco_config_check(const fg_loco_config *c, fg_error *err) {
    if (!c) return fg_error_set(err, FG_EINVAL, "locomotion: no config given");
    float fl = c->forward_limit_deg, bl = c->backward_limit_deg, dz = c->dead_zone_deg;
    if (!(isfinite(fl) && fl > 0.0f && fl < 180.0f))
        return bad_range(err, "forward_limit_deg", fl, "a value in (0, 180)");
    if (!(isfinite(bl) && bl > 0.0f && bl < 180.0f))
        return bad_range(err, "backward_limit_deg", bl, "a value in (0, 180)");
    if (fl + bl > 180.0f)
        return fg_error_set(err, FG_EINVAL,
                            "locomotion.backward_limit_deg: %g with forward_limit_deg %g, expected "
                            "the two to add up to at most 180",
                            (double)bl, (double)fl);
    float dz_max = fl < bl ? fl : bl;
    if (!(isfinite(dz) && dz >= 0.0f && dz < dz_max)) {
        char expected[96];
        snprintf(expected, sizeof expected, "a value in [0, %g) (below both sector limits)",
                 (double)dz_max);
        return bad_range(err, "dead_zone_deg", dz, expected);
    }
    if (c->hysteresis != FG_LOCO_HYSTERESIS_ONE_WAY && c->hysteresis != FG_LOCO_HYSTERESIS_BOTH_WAYS)
        return fg_error_set(err, FG_EINVAL,
                            "locomotion.hysteresis: %d, expected one_way (0) or both_ways (1)",
                            (int)c->hysteresis);
    if (!(isfinite(c->move_speed) && c->move_speed > 0.0f))
        return bad_range(err, "move_speed", c->move_speed, "a finite value above 0");
    if (!(isfinite(c->accel_threshold) && c->accel_threshold > 0.0f))
        return bad_range(err, "accel_threshold", c->accel_threshold, "a finite value above 0");
    if (c->pivot_min_ticks > UINT16_MAX)
        return fg_error_set(err, FG_EINVAL, "locomotion.pivot_min_ticks: %u, expected at most %u",
                            c->pivot_min_ticks, (unsigned)UINT16_MAX);
    if (!(isfinite(c->pivot_turn_deg) && c->pivot_turn_deg > 0.0f && c->pivot_turn_deg <= 180.0f))
        return bad_range(err, "pivot_turn_deg", c->pivot_turn_deg, "a value in (0, 180]");
    if (c->wall_ticks < 1 || c->wall_ticks > UINT16_MAX)
        return fg_error_set(err, FG_EINVAL, "locomotion.wall_ticks: %u, expected 1 to %u",
                            c->wall_ticks, (unsigned)UINT16_MAX);
    if (!(isfinite(c->wall_speed) && c->wall_speed >= 0.0f))
        return bad_range(err, "wall_speed", c->wall_speed, "a finite value of at least 0");
    if (!(isfinite(c->braking_deceleration) && c->braking_deceleration > 0.0f))
        return bad_range(err, "braking_deceleration", c->braking_deceleration,
                         "a finite value above 0");
    return FG_OK;
}

/* }====================================================================== */

/* {====================================================================== state */

void fg_loco_state_init(fg_loco_state *st) {
    memset(st, 0, sizeof *st);
    st->cardinal = FG_CARDINAL_FORWARD;
}

static uint32_t float_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

void fg_loco_state_hash(const fg_loco_state *st, fg_hasher *hs) {
    fg_hash_u64(hs, st->cardinal);
    fg_hash_u64(hs, st->in_pivot);
    fg_hash_u64(hs, st->was_accelerating);
    fg_hash_u64(hs, st->was_stopping);
    fg_hash_u64(hs, st->pivot_ticks);
    fg_hash_u64(hs, st->wall_ticks);
    fg_hash_u64(hs, st->pivot_id);
    fg_hash_u64(hs, float_bits(st->pivot_dir.x));
    fg_hash_u64(hs, float_bits(st->pivot_dir.y));
    fg_hash_u64(hs, float_bits(st->pivot_accel.x));
    fg_hash_u64(hs, float_bits(st->pivot_accel.y));
}

/* }====================================================================== */

/* {====================================================================== the signals */

static fg_cardinal base_cardinal(float a, float fwd, float back_edge) {
    float m = fabsf(a);
    if (m < fwd) return FG_CARDINAL_FORWARD;
    if (m > back_edge) return FG_CARDINAL_BACKWARD;
    return a > 0.0f ? FG_CARDINAL_RIGHT : FG_CARDINAL_LEFT;
}

/* The trigger for an angle already in (-180, 180] and a valid current direction. */
static fg_cardinal cardinal_of(float a, fg_cardinal current, const fg_loco_config *cfg) {
    float fwd = cfg->forward_limit_deg, dz = cfg->dead_zone_deg;
    float back_edge = 180.0f - cfg->backward_limit_deg; /* |a| beyond this is Backward */
    float m = fabsf(a);
    /* The current sector, widened by the dead zone on both sides, holds the direction; only
    ** outside it do the base boundaries decide. One-way hysteresis widens only Forward and
    ** Backward, so a boundary is crossed at the base angle when coming back into them. */
    bool sides = cfg->hysteresis == FG_LOCO_HYSTERESIS_BOTH_WAYS;
    switch (current) {
    case FG_CARDINAL_FORWARD:
        if (m < fwd + dz) return current;
        break;
    case FG_CARDINAL_BACKWARD:
        if (m > back_edge - dz) return current;
        break;
    case FG_CARDINAL_RIGHT:
        if (sides && a > fwd - dz && a < back_edge + dz) return current;
        break;
    case FG_CARDINAL_LEFT:
        if (sides && a < -(fwd - dz) && a > -(back_edge + dz)) return current;
        break;
    }
    return base_cardinal(a, fwd, back_edge);
}

fg_cardinal fg_loco_cardinal(float a, fg_cardinal current, const fg_loco_config *cfg) {
    if ((unsigned)current > FG_CARDINAL_LEFT) current = FG_CARDINAL_FORWARD;
    if (!isfinite(a)) return current;
    return cardinal_of(norm_deg(a), current, cfg);
}

float fg_loco_warp_angle(float angle_deg, fg_cardinal cardinal) {
    return norm_deg(norm_deg(angle_deg) - fg_cardinal_base_deg(cardinal));
}

/* For a in (-180, 180]: a + 202.5 is positive, so truncation is floor; sector m (0..8) counts
** from the middle of B, hence the shift by 4. */
static fg_dir8 dir8_of(float a) {
    int m = (int)((a + 202.5f) * (1.0f / 45.0f));
    return (fg_dir8)((m + 4) & 7);
}

fg_dir8 fg_loco_dir8(float angle_deg) { return dir8_of(norm_deg(angle_deg)); }

/* Non-finite becomes 0, huge is clamped; either way the caller learns it was bad. One test on
** the common path: NaN fails both comparisons. */
static inline float clean_component(float v, bool *bad) {
    if (v <= FG_LOCO_INPUT_MAX && v >= -FG_LOCO_INPUT_MAX) return v;
    *bad = true;
    if (!isfinite(v)) return 0.0f;
    return v > 0.0f ? FG_LOCO_INPUT_MAX : -FG_LOCO_INPUT_MAX;
}

static inline float clean_yaw(float v, bool *bad) {
    if (v <= 180.0f && v > -180.0f) return v;
    if (!isfinite(v)) {
        *bad = true;
        return 0.0f;
    }
    return norm_deg(v);
}

static void begin_pivot(fg_loco_state *st, float ux, float uy, float bx, float by) {
    st->in_pivot = 1;
    st->pivot_ticks = 0;
    st->pivot_id = st->pivot_id == UINT32_MAX ? 1u : st->pivot_id + 1u;
    st->pivot_dir.x = ux;
    st->pivot_dir.y = uy;
    st->pivot_accel.x = bx;
    st->pivot_accel.y = by;
}

/* The step, with the cosine of pivot_turn_deg computed by the caller (once per batch). */
static void step(const fg_loco_config *cfg, float cos_turn, fg_loco_state *st,
                 const fg_loco_input *in, fg_loco_output *out) {
    bool bad = false;
    float vx = clean_component(in->velocity.x, &bad);
    float vy = clean_component(in->velocity.y, &bad);
    float ax = clean_component(in->acceleration.x, &bad);
    float ay = clean_component(in->acceleration.y, &bad);
    float yaw = clean_yaw(in->actor_yaw, &bad);
    float aim = clean_yaw(in->aim_yaw, &bad);
    bool strafe = in->strafe, ground = !in->airborne;
    uint32_t flags = 0;

    float speed = sqrtf(vx * vx + vy * vy);
    float amag = sqrtf(ax * ax + ay * ay);
    bool moving = speed >= cfg->move_speed;
    bool accel = amag >= cfg->accel_threshold;
    float ux = 0.0f, uy = 0.0f, bx = 0.0f, by = 0.0f; /* unit velocity, unit acceleration */
    if (moving) {
        float inv = 1.0f / speed;
        ux = vx * inv;
        uy = vy * inv;
    }
    if (accel) {
        float inv = 1.0f / amag;
        bx = ax * inv;
        by = ay * inv;
    }

    /* Direction of travel: the velocity, or, from rest, where movement is asked (the direction
    ** a start animation should face). With neither there is no direction. */
    bool has_dir = moving || accel;
    float loco = 0.0f;
    if (has_dir) {
        float heading = moving ? heading_deg(vx, vy) : heading_deg(ax, ay);
        loco = norm_deg(heading - yaw);
    }

    fg_cardinal prev = (unsigned)st->cardinal <= FG_CARDINAL_LEFT ? (fg_cardinal)st->cardinal
                                                                  : FG_CARDINAL_FORWARD;
    fg_cardinal card = FG_CARDINAL_FORWARD;
    float warp = loco;
    if (strafe) {
        card = has_dir ? cardinal_of(loco, prev, cfg) : prev;
        if (has_dir) warp = norm_deg(loco - cardinal_base[card]);
    }

    /* Start and stop, on the ground only. */
    bool asking = ground && accel;
    bool stopping = ground && moving && !accel;
    if (asking && !st->was_accelerating) flags |= FG_LOCO_START;
    if (stopping) flags |= FG_LOCO_STOPPING;
    if (stopping && !st->was_stopping) flags |= FG_LOCO_STOP;

    /* `against`: velocity and acceleration point against each other: the pivot's entry condition
    ** (and condition A of a re-pivot). */
    bool against = moving && accel && (ux * bx + uy * by) < 0.0f;

    /* Wall: asked to move, the velocity delivers less than wall_speed of it, and it is not
    ** merely turning around against the request (that is a pivot). */
    bool blocked = asking && !against && (vx * bx + vy * by) < cfg->wall_speed;
    bool wall = false;
    if (blocked) {
        if (st->wall_ticks < cfg->wall_ticks) st->wall_ticks++;
        wall = st->wall_ticks >= cfg->wall_ticks;
    } else {
        st->wall_ticks = 0;
    }
    if (wall) flags |= FG_LOCO_WALL;

    /* Pivot. Abandoned when the input lets go, the entity leaves the ground or runs into a wall:
    ** none of these will ever turn it round. */
    if (st->in_pivot) {
        if (st->pivot_ticks < UINT16_MAX) st->pivot_ticks++;
        if (!ground || !accel || wall) {
            st->in_pivot = 0;
            flags |= FG_LOCO_PIVOT_CANCEL;
        } else {
            /* Space latch: the velocity has turned pivot_turn_deg away from where it pointed at
            ** entry. Without a velocity there is no direction yet, so it has not turned. */
            bool turned = moving && (ux * st->pivot_dir.x + uy * st->pivot_dir.y) <= cos_turn;
            bool counter = (bx * st->pivot_accel.x + by * st->pivot_accel.y) < 0.0f;
            if (against && !turned && counter) {
                begin_pivot(st, ux, uy, bx, by);
                flags |= FG_LOCO_PIVOT | FG_LOCO_PIVOT_ENTER | FG_LOCO_PIVOT_REENTER;
            } else if (turned && st->pivot_ticks >= cfg->pivot_min_ticks) {
                st->in_pivot = 0;
                flags |= FG_LOCO_PIVOT_EXIT;
            } else {
                flags |= FG_LOCO_PIVOT;
            }
        }
    } else if (ground && against) {
        begin_pivot(st, ux, uy, bx, by);
        flags |= FG_LOCO_PIVOT | FG_LOCO_PIVOT_ENTER;
    }

    if (card != prev) flags |= FG_LOCO_CARDINAL_CHANGED;
    if (moving) flags |= FG_LOCO_MOVING;
    if (accel) flags |= FG_LOCO_ACCELERATING;
    if (!ground) flags |= FG_LOCO_AIRBORNE;
    if (strafe) flags |= FG_LOCO_STRAFE;
    if (bad) flags |= FG_LOCO_BAD_INPUT;

    st->cardinal = (uint8_t)card;
    st->was_accelerating = asking;
    st->was_stopping = stopping;

    out->locomotion_angle = loco;
    out->warp_angle = warp;
    out->aim_offset = norm_deg(aim - yaw);
    out->speed = speed;
    out->stop_distance =
        ground && moving ? speed * speed / (2.0f * cfg->braking_deceleration) : 0.0f;
    out->flags = flags;
    out->pivot_id = st->pivot_id;
    out->cardinal = (uint8_t)card;
    out->dir8 = has_dir ? (uint8_t)dir8_of(loco) : (uint8_t)FG_DIR8_F;
    out->reserved[0] = out->reserved[1] = 0;
}

static float cos_of_turn(const fg_loco_config *cfg) {
    return cosf(cfg->pivot_turn_deg * RAD_PER_DEG);
}

void fg_loco_step(const fg_loco_config *cfg, fg_loco_state *st, const fg_loco_input *in,
                  fg_loco_output *out) {
    step(cfg, cos_of_turn(cfg), st, in, out);
}

/* }====================================================================== */

/* {====================================================================== the batch */

struct fg_loco_batch {
    fg_loco_config cfg;
    float cos_turn;
    uint32_t count, capacity;
    fg_allocator alloc;
    size_t bytes;
    fg_loco_job jobs[];
};

fg_status fg_loco_batch_create(const fg_loco_config *cfg, uint32_t capacity,
                               const fg_allocator *alloc, fg_loco_batch **out, fg_error *err) {
    fg_status st = fg_loco_config_check(cfg, err);
    if (st != FG_OK) return st;
    if (capacity < 1 || capacity > (UINT32_MAX / 2) / sizeof(fg_loco_job))
        return fg_error_set(err, FG_EINVAL, "locomotion batch capacity: %u, expected 1 to %u",
                            capacity, (unsigned)((UINT32_MAX / 2) / sizeof(fg_loco_job)));
    fg_allocator a = alloc ? *alloc : fg_allocator_default();
    size_t bytes = sizeof(fg_loco_batch) + (size_t)capacity * sizeof(fg_loco_job);
    fg_loco_batch *b = fg_alloc(&a, bytes);
    if (!b)
        return fg_error_set(err, FG_ENOMEM,
                            "locomotion batch: cannot allocate %zu bytes for %u jobs", bytes,
                            capacity);
    b->cfg = *cfg;
    b->cos_turn = cos_of_turn(cfg);
    b->count = 0;
    b->capacity = capacity;
    b->alloc = a;
    b->bytes = bytes;
    *out = b;
    return FG_OK;
}

void fg_loco_batch_destroy(fg_loco_batch *b) {
    if (!b) return;
    fg_allocator a = b->alloc;
    fg_free(&a, b, b->bytes);
}

fg_status fg_loco_batch_set_config(fg_loco_batch *b, const fg_loco_config *cfg, fg_error *err) {
    fg_status st = fg_loco_config_check(cfg, err);
    if (st != FG_OK) return st;
    b->cfg = *cfg;
    b->cos_turn = cos_of_turn(cfg);
    return FG_OK;
}

const fg_loco_config *fg_loco_batch_config(const fg_loco_batch *b) { return &b->cfg; }

void fg_loco_batch_clear(fg_loco_batch *b) { b->count = 0; }

fg_status fg_loco_batch_gather(fg_loco_batch *b, uint64_t entity, const fg_loco_state *st,
                               const fg_loco_input *in, fg_error *err) {
    if (b->count >= b->capacity)
        return fg_error_set(err, FG_ENOMEM,
                            "locomotion batch: entity %llu does not fit, all %u jobs are taken",
                            (unsigned long long)entity, b->capacity);
    fg_loco_job *j = &b->jobs[b->count++];
    j->entity = entity;
    j->in = *in;
    j->state = *st;
    memset(&j->out, 0, sizeof j->out);
    return FG_OK;
}

void fg_loco_batch_compute(fg_loco_batch *b, uint32_t begin, uint32_t end) {
    if (end > b->count) end = b->count;
    const fg_loco_config *cfg = &b->cfg;
    float cos_turn = b->cos_turn;
    for (uint32_t i = begin; i < end; i++) {
        fg_loco_job *j = &b->jobs[i];
        step(cfg, cos_turn, &j->state, &j->in, &j->out);
    }
}

uint32_t fg_loco_batch_count(const fg_loco_batch *b) { return b->count; }
uint32_t fg_loco_batch_capacity(const fg_loco_batch *b) { return b->capacity; }

const fg_loco_job *fg_loco_batch_job(const fg_loco_batch *b, uint32_t i) {
    return i < b->count ? &b->jobs[i] : NULL;
}

/* }====================================================================== */
