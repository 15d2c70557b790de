/* SPDX-License-Identifier: MIT */
/*
** input.c: semantic action names, numpad directions, SOCD cleaning, analog stick shaping and the
** per-entity edge buffer.
**
** The buffer keeps edges in arrival order, which is also time order: pushes with a timestamp or
** tick older than the newest edge are refused, so edge ids, times and ticks all grow together.
** Edge id k therefore sits at offset (k - id of the oldest) from the head of the stored ring, and
** a reference is resolved in constant time.
*/
#include "framegate/input.h"

#include <stddef.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* {====================================================================== action names */

static const char *const direction_names[4] = {"up", "down", "left", "right"};

static int cmp_names(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

fg_status fg_action_names_init(fg_action_names *out, const char *const *buttons, uint32_t nbuttons,
                               fg_error *err) {
    if (nbuttons > FG_INPUT_MAX_ACTIONS - FG_IN_FIRST_BUTTON)
        return fg_error_set(err, FG_EINVAL, "buttons: %u declared, at most %d are supported",
                            nbuttons, FG_INPUT_MAX_ACTIONS - FG_IN_FIRST_BUTTON);
    const char *sorted[FG_INPUT_MAX_ACTIONS];
    for (uint32_t i = 0; i < nbuttons; i++) {
        const char *n = buttons[i];
        size_t len = n ? strlen(n) : 0;
        if (len == 0 || len >= FG_IN_NAME_MAX)
            return fg_error_set(err, FG_EINVAL,
                                "buttons[%u]: name '%s' must be 1 to %d characters", i + 1,
                                n ? n : "", FG_IN_NAME_MAX - 1);
        for (int d = 0; d < 4; d++)
            if (strcmp(n, direction_names[d]) == 0)
                return fg_error_set(err, FG_EINVAL,
                                    "buttons[%u]: '%s' is a direction, not a button", i + 1, n);
        sorted[i] = n;
    }
    qsort(sorted, nbuttons, sizeof sorted[0], cmp_names);
    for (uint32_t i = 1; i < nbuttons; i++)
        if (strcmp(sorted[i - 1], sorted[i]) == 0)
            return fg_error_set(err, FG_EINVAL, "buttons: '%s' is declared twice", sorted[i]);
    memset(out, 0, sizeof *out);
    for (int d = 0; d < 4; d++) snprintf(out->names[d], FG_IN_NAME_MAX, "%s", direction_names[d]);
    for (uint32_t i = 0; i < nbuttons; i++)
        snprintf(out->names[FG_IN_FIRST_BUTTON + i], FG_IN_NAME_MAX, "%s", sorted[i]);
    out->count = FG_IN_FIRST_BUTTON + nbuttons;
    return FG_OK;
}

int fg_action_names_find(const fg_action_names *names, const char *name) {
    if (!name) return -1;
    for (uint32_t i = 0; i < names->count; i++)
        if (strcmp(names->names[i], name) == 0) return (int)i;
    return -1;
}

const char *fg_action_names_get(const fg_action_names *names, int id) {
    if (id < 0 || (uint32_t)id >= names->count) return NULL;
    return names->names[id];
}

/* }====================================================================== */

/* {====================================================================== directions */

#define BIT(a) (1u << (a))

int fg_numpad_of_bits(uint32_t bits) {
    int x = ((bits & BIT(FG_IN_RIGHT)) ? 1 : 0) - ((bits & BIT(FG_IN_LEFT)) ? 1 : 0);
    int y = ((bits & BIT(FG_IN_UP)) ? 1 : 0) - ((bits & BIT(FG_IN_DOWN)) ? 1 : 0);
    return 5 + x + 3 * y;
}

/* Indexed by numpad 0..9 (0 = not a direction): called several times per fighter per tick. */
static const uint8_t numpad_bits[10] = {
    0,
    BIT(FG_IN_DOWN) | BIT(FG_IN_LEFT), BIT(FG_IN_DOWN), BIT(FG_IN_DOWN) | BIT(FG_IN_RIGHT),
    BIT(FG_IN_LEFT), 0, BIT(FG_IN_RIGHT),
    BIT(FG_IN_UP) | BIT(FG_IN_LEFT), BIT(FG_IN_UP), BIT(FG_IN_UP) | BIT(FG_IN_RIGHT),
};

uint32_t fg_bits_of_numpad(int numpad) {
    return numpad >= 1 && numpad <= 9 ? numpad_bits[numpad] : 0;
}

int fg_numpad_relative(int numpad, fg_facing facing) {
    static const int8_t mirrored[10] = {0, 3, 2, 1, 6, 5, 4, 9, 8, 7}; /* 1<->3, 4<->6, 7<->9 */
    if (facing != FG_FACING_LEFT || numpad < 1 || numpad > 9) return numpad;
    return mirrored[numpad];
}

/* Resolves one axis: a and b are the two opposite directions. */
static uint32_t resolve_axis(const fg_socd_state *st, int a, int b, fg_socd mode, int preferred) {
    uint32_t ba = BIT(a), bb = BIT(b);
    bool ha = st->raw & ba, hb = st->raw & bb;
    if (!(ha && hb)) return st->raw & (ba | bb);
    switch (mode) {
    case FG_SOCD_LAST_WINS: return st->order[a] > st->order[b] ? ba : bb;
    case FG_SOCD_FIRST_WINS: return st->order[a] < st->order[b] ? ba : bb;
    case FG_SOCD_UP_WINS:
    case FG_SOCD_FORWARD_WINS: return preferred >= 0 ? BIT(preferred) : 0;
    case FG_SOCD_NEUTRAL:
    default: return 0;
    }
}

uint32_t fg_socd_resolve(const fg_socd_state *st, fg_socd horizontal, fg_socd vertical,
                         fg_facing facing) {
    int forward = facing == FG_FACING_LEFT ? FG_IN_LEFT : FG_IN_RIGHT;
    int hpref = horizontal == FG_SOCD_FORWARD_WINS ? forward : -1;
    int vpref = vertical == FG_SOCD_UP_WINS ? FG_IN_UP : -1;
    return resolve_axis(st, FG_IN_LEFT, FG_IN_RIGHT, horizontal, hpref) |
           resolve_axis(st, FG_IN_UP, FG_IN_DOWN, vertical, vpref);
}

uint32_t fg_socd_update(fg_socd_state *st, int dir_action, bool down, fg_socd horizontal,
                        fg_socd vertical, fg_facing facing) {
    if (dir_action >= FG_IN_UP && dir_action <= FG_IN_RIGHT) {
        if (down) {
            if (!(st->raw & BIT(dir_action))) st->order[dir_action] = ++st->presses;
            st->raw |= BIT(dir_action);
        } else {
            st->raw &= ~BIT(dir_action);
        }
    }
    return fg_socd_resolve(st, horizontal, vertical, facing);
}

static const char *const socd_names[] = {"neutral", "last", "first", "up", "forward"};

const char *fg_socd_name(fg_socd mode) {
    return (unsigned)mode < 5 ? socd_names[mode] : "unknown";
}

int fg_socd_parse(const char *name) {
    for (int i = 0; name && i < 5; i++)
        if (strcmp(name, socd_names[i]) == 0) return i;
    return -1;
}

/* }====================================================================== */

/* {====================================================================== analog sticks */

fg_stick_config fg_stick_config_default(void) {
    fg_stick_config c = {0.15f, 0.95f, 1.0f, 0.5f};
    return c;
}

fg_status fg_stick_config_check(const fg_stick_config *c, fg_error *err) {
    if (!(c->deadzone >= 0.0f && c->deadzone < 1.0f))
        return fg_error_set(err, FG_EINVAL, "stick.deadzone: %g, expected a value in [0, 1)",
                            (double)c->deadzone);
    if (!(c->outer > c->deadzone && c->outer <= 1.0f))
        return fg_error_set(err, FG_EINVAL, "stick.outer: %g, expected a value in (deadzone, 1]",
                            (double)c->outer);
    if (!(c->exponent >= 0.1f && c->exponent <= 10.0f))
        return fg_error_set(err, FG_EINVAL, "stick.exponent: %g, expected a value in [0.1, 10]",
                            (double)c->exponent);
    if (!(c->direction_threshold > 0.0f && c->direction_threshold <= 1.0f))
        return fg_error_set(err, FG_EINVAL,
                            "stick.direction_threshold: %g, expected a value in (0, 1]",
                            (double)c->direction_threshold);
    return FG_OK;
}

fg_status fg_stick_shape(fg_vec2 raw, const fg_stick_config *c, fg_vec2 *out, fg_error *err) {
    if (!isfinite(raw.x) || !isfinite(raw.y))
        return fg_error_set(err, FG_EINVAL, "stick: (%g, %g) is not finite, expected numbers in "
                            "[-1, 1]; sample ignored", (double)raw.x, (double)raw.y);
    double mag = sqrt((double)raw.x * raw.x + (double)raw.y * raw.y);
    if (mag <= c->deadzone || mag == 0.0) {
        out->x = out->y = 0.0f;
        return FG_OK;
    }
    double t = (mag - c->deadzone) / (c->outer - c->deadzone);
    if (t > 1.0) t = 1.0;
    double shaped = pow(t, c->exponent);
    out->x = (float)(raw.x / mag * shaped);
    out->y = (float)(raw.y / mag * shaped);
    return FG_OK;
}

fg_status fg_stick_camera_relative(fg_vec2 stick, float fx, float fy, float fz, fg_vec2 *out,
                                   fg_error *err) {
    (void)fz; /* only the horizontal part of the forward vector defines the basis */
    if (!isfinite(fx) || !isfinite(fy) || !isfinite(stick.x) || !isfinite(stick.y))
        return fg_error_set(err, FG_EINVAL, "camera: forward (%g, %g) or stick is not finite",
                            (double)fx, (double)fy);
    double len = sqrt((double)fx * fx + (double)fy * fy);
    if (len < 1e-6)
        return fg_error_set(err, FG_EINVAL, "camera: forward vector has no horizontal part "
                            "(looking straight up or down); previous basis kept");
    double ux = fx / len, uy = fy / len; /* forward on the ground */
    double rx = uy, ry = -ux;            /* right = forward rotated -90 degrees */
    out->x = (float)(rx * stick.x + ux * stick.y);
    out->y = (float)(ry * stick.x + uy * stick.y);
    return FG_OK;
}

int fg_numpad_of_vec(fg_vec2 v, float threshold) {
    if (!isfinite(v.x) || !isfinite(v.y)) return 5;
    double mag = sqrt((double)v.x * v.x + (double)v.y * v.y);
    if (mag < threshold || mag == 0.0) return 5;
    /* Sector index 0..7 counter-clockwise from +x, each 45 degrees wide and centred. */
    double a = atan2(v.y, v.x);
    int sector = (int)floor(a / (3.14159265358979323846 / 4.0) + 0.5);
    sector = ((sector % 8) + 8) % 8;
    static const int numpad[8] = {6, 9, 8, 7, 4, 1, 2, 3};
    return numpad[sector];
}

/* }====================================================================== */

/* {====================================================================== edge buffer */

_Static_assert(offsetof(fg_buffer, next_id) + sizeof(fg_edge_id) == 64,
               "fg_buffer: what a tick reads and a push checks first fills the first 64 bytes");

size_t fg_buffer_size(uint32_t capacity) {
    return sizeof(fg_buffer) + 2 * (size_t)capacity * sizeof(fg_edge);
}

fg_status fg_buffer_init(fg_buffer *b, uint32_t capacity, fg_tick start_tick, fg_error *err) {
    if (capacity == 0)
        return fg_error_set(err, FG_EINVAL, "buffer capacity: 0, expected at least 1 edge");
    memset(b, 0, fg_buffer_size(capacity));
    b->capacity = capacity;
    b->next_id = 1;
    b->current_tick = start_tick;
    b->last_time_us = INT64_MIN;
    b->dir = b->pushed_dir = 5;
    return FG_OK;
}

/* One ring of 2 * capacity slots: stored edges from head, pending edges right after them. At most
** capacity of each exist, so a push never overwrites, and consuming a tick only moves the
** boundary between the two: the edge stays where it was written. */
static inline uint32_t ring_index(const fg_buffer *b, uint32_t i) {
    uint32_t idx = b->head + i, size = 2 * b->capacity;
    return idx >= size ? idx - size : idx;
}

static inline fg_edge *slot(fg_buffer *b, uint32_t i) { return &b->edges[ring_index(b, i)]; }

static inline const fg_edge *cslot(const fg_buffer *b, uint32_t i) {
    return &b->edges[ring_index(b, i)];
}

static inline fg_edge *pslot(fg_buffer *b, uint32_t i) { return slot(b, b->count + i); }

uint32_t fg_buffer_count(const fg_buffer *b) { return b->count; }

const fg_edge *fg_buffer_at(const fg_buffer *b, uint32_t i) {
    return i < b->count ? cslot(b, i) : NULL;
}

uint32_t fg_buffer_pending_count(const fg_buffer *b) { return b->pending_count; }

const fg_edge *fg_buffer_pending_at(const fg_buffer *b, uint32_t i) {
    return i < b->pending_count ? pslot((fg_buffer *)b, i) : NULL;
}

const fg_edge *fg_buffer_find(const fg_buffer *b, fg_edge_id id) {
    if (b->count == 0) return NULL;
    fg_edge_id oldest = cslot(b, 0)->id;
    if (id < oldest || id - oldest >= b->count) return NULL;
    return cslot(b, (uint32_t)(id - oldest));
}

fg_status fg_buffer_push(fg_buffer *b, fg_edge_kind kind, int action, int dir, int64_t time_us,
                         fg_tick tick, fg_source source, fg_edge_id *id_out, fg_error *err) {
    if (time_us < b->last_time_us)
        return fg_error_set(err, FG_ESTATE,
                            "input timestamp %lld us is before the previous edge (%lld us); "
                            "time may not go back, edge refused",
                            (long long)time_us, (long long)b->last_time_us);
    uint32_t newest_held = b->pushed_held;
    uint8_t newest_dir = b->pushed_dir;
    fg_tick newest_tick = b->pending_count ? pslot(b, b->pending_count - 1)->tick
                                           : b->current_tick;
    uint8_t flags = 0;
    if (tick <= b->current_tick) { /* its tick already ran: deliver it on the next one */
        tick = b->current_tick + 1;
        flags |= FG_EDGE_LATE;
    }
    if (tick < newest_tick)
        return fg_error_set(err, FG_ESTATE,
                            "input tick %lld is before the previous edge's tick %lld; edge refused",
                            (long long)tick, (long long)newest_tick);
    switch (kind) {
    case FG_EDGE_PRESS:
    case FG_EDGE_RELEASE:
        if (action < FG_IN_FIRST_BUTTON || action >= FG_INPUT_MAX_ACTIONS)
            return fg_error_set(err, FG_EINVAL,
                                "input action id %d is not a button (expected %d..%d)", action,
                                FG_IN_FIRST_BUTTON, FG_INPUT_MAX_ACTIONS - 1);
        if (kind == FG_EDGE_PRESS && (newest_held & BIT(action)))
            return fg_error_set(err, FG_ESTATE, "button %d is already down; press refused",
                                action);
        if (kind == FG_EDGE_RELEASE && !(newest_held & BIT(action)))
            return fg_error_set(err, FG_ESTATE, "button %d is not down; release refused", action);
        break;
    case FG_EDGE_DIR:
        if (dir < 1 || dir > 9)
            return fg_error_set(err, FG_EINVAL, "direction %d: expected a numpad value 1..9", dir);
        if (dir == newest_dir)
            return fg_error_set(err, FG_ESTATE, "direction %d is already held; edge refused", dir);
        action = 0;
        break;
    default:
        return fg_error_set(err, FG_EINVAL, "edge kind %d: expected press, release or dir",
                            (int)kind);
    }
    if (b->pending_count == b->capacity) {
        b->refused++;
        return fg_error_set(err, FG_ENOMEM,
                            "input queue full: %u edges wait for future ticks; edge refused",
                            b->capacity);
    }
    fg_edge *e = pslot(b, b->pending_count++);
    *e = (fg_edge){.id = b->next_id++, .time_us = time_us, .tick = tick, .kind = (uint8_t)kind,
                   .action = (uint8_t)action, .source = (uint8_t)source, .flags = flags};
    if (kind == FG_EDGE_DIR) {
        e->dir = (uint8_t)dir;
        e->prev_dir = newest_dir;
        b->pushed_dir = (uint8_t)dir;
    } else {
        e->dir = e->prev_dir = newest_dir;
        if (kind == FG_EDGE_PRESS) b->pushed_held |= BIT(action);
        else b->pushed_held &= ~BIT(action);
    }
    if (flags & FG_EDGE_LATE) b->late++;
    b->last_time_us = time_us;
    if (id_out) *id_out = e->id;
    return FG_OK;
}

fg_status fg_buffer_consume_for_tick(fg_buffer *b, fg_tick tick, fg_tick_input *out,
                                     fg_error *err) {
    if (tick <= b->current_tick)
        return fg_error_set(err, FG_ESTATE, "tick %lld was already consumed (current %lld)",
                            (long long)tick, (long long)b->current_tick);
    if (b->pending_count == 0 && b->count <= b->capacity) {
        /* Most ticks: nothing arrived, so nothing moves and nothing is evicted. */
        b->current_tick = tick;
        if (out) {
            fg_tick_input in;
            memset(&in, 0, sizeof in);
            in.tick = tick;
            in.first = b->count;
            in.held = b->held;
            in.dir = b->dir;
            *out = in;
        }
        return FG_OK;
    }
    fg_tick_input in;
    memset(&in, 0, sizeof in);
    in.tick = tick;
    uint32_t moved = 0;
    while (b->pending_count > 0) {
        fg_edge *e = pslot(b, 0);
        if (e->tick > tick) break;
        b->count++;
        b->pending_count--;
        moved++;
        e->facing = b->facing;
        if (e->kind == FG_EDGE_DIR) {
            uint32_t before = fg_bits_of_numpad(e->prev_dir), after = fg_bits_of_numpad(e->dir);
            uint32_t entered = after & ~before, left = before & ~after;
            in.pressed |= entered;
            in.released |= left;
            for (int d = 0; d < 4; d++)
                if (entered & BIT(d)) b->held_since[d] = e->tick;
            b->held = (b->held & ~FG_IN_DIRECTION_MASK) | after;
            b->dir = e->dir;
        } else if (e->kind == FG_EDGE_PRESS) {
            in.pressed |= BIT(e->action);
            b->held |= BIT(e->action);
            b->held_since[e->action] = e->tick;
        } else {
            in.released |= BIT(e->action);
            b->held &= ~BIT(e->action);
        }
    }
    /* Eviction happens here, at consume time, so what is stored depends only on the ticks
    ** consumed, never on how early input was pushed. */
    while (b->count > b->capacity) {
        const fg_edge *gone = cslot(b, 0);
        if (gone->flags & FG_EDGE_CONSUMED) b->consumed_digest -= fg_edge_consumed_mix(gone->id);
        b->head = ring_index(b, 1);
        b->count--;
        b->dropped++;
    }
    /* With more edges in one tick than the capacity, only the newest survive. */
    in.count = moved < b->count ? moved : b->count;
    in.first = b->count - in.count;
    b->current_tick = tick;
    in.held = b->held;
    in.dir = b->dir;
    if (out) *out = in;
    return FG_OK;
}

static bool is_press_of(const fg_edge *e, int action) {
    if (action >= FG_IN_FIRST_BUTTON) return e->kind == FG_EDGE_PRESS && e->action == action;
    if (e->kind != FG_EDGE_DIR || action < 0) return false;
    uint32_t bit = BIT(action);
    return (fg_bits_of_numpad(e->dir) & bit) && !(fg_bits_of_numpad(e->prev_dir) & bit);
}

bool fg_buffer_find_press(const fg_buffer *b, int action, fg_tick from, fg_tick to,
                          fg_edge_ref *out) {
    if (from > to || action < 0 || action >= FG_INPUT_MAX_ACTIONS) return false;
    /* Stored edges only (pending ones wait for their tick). Windows are short and edges are in
    ** tick order, so walk back from the newest edge to the window's start, then forward: the
    ** cost follows the edges inside the window, not the buffer length. The first match going
    ** forward is the earliest by tick and, within a tick, by id. */
    uint32_t i = b->count;
    while (i > 0 && cslot(b, i - 1)->tick >= from) i--;
    for (; i < b->count; i++) {
        const fg_edge *e = cslot(b, i);
        if (e->tick > to) break;
        if (e->flags & FG_EDGE_CONSUMED) continue;
        if (is_press_of(e, action)) {
            if (out) out->id = e->id;
            return true;
        }
    }
    return false;
}

fg_status fg_buffer_consume(fg_buffer *b, fg_edge_ref ref, fg_error *err) {
    fg_edge *e = (fg_edge *)fg_buffer_find(b, ref.id);
    if (!e)
        return fg_error_set(err, FG_ESTATE, "edge %llu is no longer in the buffer (stale handle)",
                            (unsigned long long)ref.id);
    if (e->flags & FG_EDGE_CONSUMED)
        return fg_error_set(err, FG_ESTATE, "edge %llu was already consumed",
                            (unsigned long long)ref.id);
    e->flags |= FG_EDGE_CONSUMED;
    b->consumed_digest += fg_edge_consumed_mix(e->id);
    return FG_OK;
}

bool fg_buffer_held(const fg_buffer *b, int action) {
    return action >= 0 && action < FG_INPUT_MAX_ACTIONS && (b->held & BIT(action));
}

fg_tick fg_buffer_held_for(const fg_buffer *b, int action) {
    if (!fg_buffer_held(b, action)) return 0;
    return b->current_tick - b->held_since[action] + 1;
}

void fg_buffer_set_facing(fg_buffer *b, fg_facing facing) { b->facing = (uint8_t)facing; }

void fg_buffer_hash(const fg_buffer *b, fg_hasher *hs) {
    fg_hash_u64(hs, b->capacity);
    fg_hash_u64(hs, b->count);
    fg_hash_u64(hs, b->held);
    fg_hash_i64(hs, b->current_tick);
    fg_hash_u64(hs, b->dropped);
    fg_hash_u64(hs, (uint64_t)b->dir | (uint64_t)b->facing << 8);
    for (int a = 0; a < FG_INPUT_MAX_ACTIONS; a++)
        if (b->held & BIT(a)) fg_hash_i64(hs, b->held_since[a]);
    for (uint32_t i = 0; i < b->count; i++) {
        const fg_edge *e = cslot(b, i);
        fg_hash_u64(hs, e->id);
        fg_hash_i64(hs, e->time_us);
        fg_hash_i64(hs, e->tick);
        fg_hash_u64(hs, (uint64_t)e->kind | (uint64_t)e->action << 8 | (uint64_t)e->dir << 16 |
                            (uint64_t)e->prev_dir << 24 | (uint64_t)e->facing << 32 |
                            (uint64_t)e->source << 40 | (uint64_t)e->flags << 48);
    }
}

/* }====================================================================== */

/* {====================================================================== device mapping */

void fg_input_map_init(fg_input_map *m) {
    memset(m, 0, sizeof *m);
    m->stick = fg_stick_config_default();
    m->socd_horizontal = FG_SOCD_NEUTRAL;
    m->socd_vertical = FG_SOCD_UP_WINS;
}

fg_status fg_input_map_bind(fg_input_map *m, uint32_t control, int action, fg_error *err) {
    if (action < 0 || action >= FG_INPUT_MAX_ACTIONS)
        return fg_error_set(err, FG_EINVAL, "bind: action id %d out of range 0..%d", action,
                            FG_INPUT_MAX_ACTIONS - 1);
    for (uint32_t i = 0; i < m->nbindings; i++)
        if (m->bindings[i].control == control) {
            m->bindings[i].action = (uint8_t)action;
            return FG_OK;
        }
    if (m->nbindings == FG_MAP_MAX_BINDINGS)
        return fg_error_set(err, FG_ENOMEM, "bind: all %d bindings are in use",
                            FG_MAP_MAX_BINDINGS);
    m->bindings[m->nbindings].control = control;
    m->bindings[m->nbindings].action = (uint8_t)action;
    m->nbindings++;
    return FG_OK;
}

int fg_input_map_lookup(const fg_input_map *m, uint32_t control) {
    for (uint32_t i = 0; i < m->nbindings; i++)
        if (m->bindings[i].control == control) return m->bindings[i].action;
    return -1;
}

void fg_device_state_init(fg_device_state *d) {
    memset(d, 0, sizeof *d);
    d->camera.y = 1.0f;
}

/* }====================================================================== */
