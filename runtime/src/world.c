/*
** world.c: the world: creation, entities, input entry points, the tick pipeline, the state hash,
** snapshots and the trace.
**
** Authoritative state is one arena: a header, the entity records, then one fixed-size input
** buffer per entity slot. Offsets are fixed at creation, so the arena never holds a pointer and
** a snapshot is a plain copy. Host-side state (device maps, SOCD history) and the trace live
** outside the arena: they are not authoritative.
*/
#include "framegate/world.h"

#include <stdio.h>
#include <string.h>

#define SNAPSHOT_MAGIC 0x46475753u /* "FGWS" */

typedef struct entity_state {
    fg_entity id;
    uint8_t facing;
    uint8_t contact; /* the latest contact report: 1 grounded, 0 airborne */
    uint8_t reserved[2];
    fg_fx x, y;
    fg_ground ground;
    fg_tick_input last_input;
    fg_jump_decision last_jump;
} entity_state;

typedef struct world_state {
    uint64_t layout; /* identifies capacities and sizes; a snapshot must match it */
    fg_tick tick;
    fg_rng rng;
    uint32_t nentities;
    uint32_t reserved;
} world_state;

typedef struct snapshot_header {
    uint32_t magic;
    uint32_t reserved;
    uint64_t layout;
    uint64_t size;
} snapshot_header;

struct fg_world {
    fg_allocator alloc;
    uint32_t tick_rate;
    uint32_t max_entities;
    uint32_t buffer_capacity;
    uint64_t seed;
    fg_action_names names;
    int jump_action;
    fg_jump_config jump;

    unsigned char *arena;
    size_t arena_size;
    world_state *state;
    entity_state *entities;
    unsigned char *buffers;
    size_t buffer_stride;

    fg_input_map *maps;
    fg_device_state *devices;

    fg_trace_record *trace;
    uint32_t trace_cap, trace_head, trace_count;
    uint64_t trace_dropped;
};

/* {====================================================================== helpers */

static size_t align16(size_t n) { return (n + 15) & ~(size_t)15; }

static fg_buffer *buffer_of(const fg_world *w, uint32_t slot) {
    return (fg_buffer *)(w->buffers + (size_t)slot * w->buffer_stride);
}

/* Entity ids are 1-based spawn order, so an id is its slot + 1. */
static entity_state *entity_of(const fg_world *w, fg_entity e) {
    if (e == 0 || e > w->state->nentities) return NULL;
    return &w->entities[e - 1];
}

static fg_status no_entity(fg_error *err, fg_entity e, const fg_world *w) {
    return fg_error_set(err, FG_ENOTFOUND, "entity %u does not exist (%u spawned)", e,
                        w->state->nentities);
}

static void trace_push(fg_world *w, fg_tick tick, fg_entity e, fg_trace_kind kind, int code,
                       int64_t a, int64_t b, int64_t c, int64_t d) {
    if (w->trace_cap == 0) return;
    uint32_t at;
    if (w->trace_count == w->trace_cap) {
        at = w->trace_head;
        w->trace_head = (w->trace_head + 1) % w->trace_cap;
        w->trace_dropped++;
    } else {
        at = (w->trace_head + w->trace_count++) % w->trace_cap;
    }
    fg_trace_record *r = &w->trace[at];
    r->tick = tick;
    r->entity = e;
    r->kind = (uint16_t)kind;
    r->code = (uint16_t)code;
    r->a = a;
    r->b = b;
    r->c = c;
    r->d = d;
}

/* }====================================================================== */

/* {====================================================================== creation */

fg_world_config fg_world_config_default(void) {
    fg_world_config c;
    memset(&c, 0, sizeof c);
    c.tick_rate = FG_TICK_RATE_DEFAULT;
    c.seed = 1;
    c.max_entities = 8;
    c.buffer_capacity = 64;
    c.trace_capacity = 4096;
    c.allocator = fg_allocator_default();
    c.jump.buffer_ticks = 6;
    c.jump.coyote_ticks = 6;
    return c;
}

static fg_status check_config(const fg_world_config *c, fg_error *err) {
    if (c->tick_rate == 0 || c->tick_rate > FG_TICK_RATE_MAX)
        return fg_error_set(err, FG_EINVAL, "world.tick_rate: %u, expected 1..%u Hz", c->tick_rate,
                            FG_TICK_RATE_MAX);
    if (c->max_entities == 0 || c->max_entities > 1000000)
        return fg_error_set(err, FG_EINVAL, "world.max_entities: %u, expected 1..1000000",
                            c->max_entities);
    if (c->buffer_capacity == 0 || c->buffer_capacity > 65536)
        return fg_error_set(err, FG_EINVAL,
                            "world.buffer_capacity: %u edges, expected 1..65536", c->buffer_capacity);
    return fg_jump_config_check(&c->jump, err);
}

fg_world *fg_world_create(const fg_world_config *cfg, fg_error *err) {
    fg_world_config c = cfg ? *cfg : fg_world_config_default();
    if (!c.allocator.realloc) c.allocator = fg_allocator_default();
    if (check_config(&c, err) != FG_OK) return NULL;
    fg_action_names names;
    if (fg_action_names_init(&names, c.buttons, c.nbuttons, err) != FG_OK) return NULL;
    int jump_action = -1;
    if (c.jump_button) {
        jump_action = fg_action_names_find(&names, c.jump_button);
        if (jump_action < 0) {
            fg_error_set(err, FG_ENOTFOUND, "world.jump_button: '%s' is not a declared button",
                         c.jump_button);
            return NULL;
        }
    }

    fg_world *w = fg_alloc(&c.allocator, sizeof *w);
    if (!w) {
        fg_error_set(err, FG_ENOMEM, "world: out of memory");
        return NULL;
    }
    w->alloc = c.allocator;
    w->tick_rate = c.tick_rate;
    w->max_entities = c.max_entities;
    w->buffer_capacity = c.buffer_capacity;
    w->seed = c.seed;
    w->names = names;
    w->jump_action = jump_action;
    w->jump = c.jump;

    size_t off_entities = align16(sizeof(world_state));
    size_t off_buffers = off_entities + align16(sizeof(entity_state) * c.max_entities);
    w->buffer_stride = align16(fg_buffer_size(c.buffer_capacity));
    w->arena_size = off_buffers + w->buffer_stride * c.max_entities;
    w->arena = fg_alloc(&w->alloc, w->arena_size);
    w->maps = fg_alloc(&w->alloc, sizeof(fg_input_map) * c.max_entities);
    w->devices = fg_alloc(&w->alloc, sizeof(fg_device_state) * c.max_entities);
    w->trace_cap = c.trace_capacity;
    if (w->trace_cap) w->trace = fg_alloc(&w->alloc, sizeof(fg_trace_record) * w->trace_cap);
    if (!w->arena || !w->maps || !w->devices || (w->trace_cap && !w->trace)) {
        fg_world_destroy(w);
        fg_error_set(err, FG_ENOMEM, "world: out of memory (state of %zu bytes)", w->arena_size);
        return NULL;
    }
    w->state = (world_state *)w->arena;
    w->entities = (entity_state *)(w->arena + off_entities);
    w->buffers = w->arena + off_buffers;

    fg_hasher hs = fg_hasher_begin(0);
    fg_hash_u64(&hs, w->arena_size);
    fg_hash_u64(&hs, c.max_entities);
    fg_hash_u64(&hs, c.buffer_capacity);
    fg_hash_u64(&hs, c.tick_rate);
    w->state->layout = fg_hasher_end(&hs);
    w->state->tick = 0;
    w->state->rng = fg_rng_seeded(c.seed);
    return w;
}

void fg_world_destroy(fg_world *w) {
    if (!w) return;
    fg_allocator a = w->alloc;
    fg_free(&a, w->arena, w->arena_size);
    fg_free(&a, w->maps, sizeof(fg_input_map) * w->max_entities);
    fg_free(&a, w->devices, sizeof(fg_device_state) * w->max_entities);
    fg_free(&a, w->trace, sizeof(fg_trace_record) * w->trace_cap);
    fg_free(&a, w, sizeof *w);
}

/* }====================================================================== */

/* {====================================================================== entities */

fg_status fg_world_spawn(fg_world *w, const fg_spawn *s, fg_entity *out, fg_error *err) {
    if (w->state->nentities == w->max_entities)
        return fg_error_set(err, FG_ENOMEM, "spawn: the world is full (%u entities)",
                            w->max_entities);
    fg_spawn sp = {0};
    if (s) sp = *s;
    if (sp.facing != FG_FACING_RIGHT && sp.facing != FG_FACING_LEFT)
        return fg_error_set(err, FG_EINVAL, "spawn.facing: %d, expected right (0) or left (1)",
                            (int)sp.facing);
    uint32_t slot = w->state->nentities;
    fg_buffer *b = buffer_of(w, slot);
    fg_status st = fg_buffer_init(b, w->buffer_capacity, w->state->tick - 1, err);
    if (st != FG_OK) return st;
    fg_buffer_set_facing(b, sp.facing);
    entity_state *es = &w->entities[slot];
    memset(es, 0, sizeof *es);
    es->id = slot + 1;
    es->facing = (uint8_t)sp.facing;
    es->x = sp.x;
    es->y = sp.y;
    es->contact = sp.grounded;
    fg_ground_init(&es->ground, sp.grounded, w->state->tick - 1);
    es->last_jump.result = FG_JUMP_NO_PRESS;
    fg_input_map_init(&w->maps[slot]);
    fg_device_state_init(&w->devices[slot]);
    w->state->nentities++;
    if (out) *out = es->id;
    return FG_OK;
}

uint32_t fg_world_entity_count(const fg_world *w) { return w->state->nentities; }
bool fg_world_entity_exists(const fg_world *w, fg_entity e) { return entity_of(w, e) != NULL; }

const fg_buffer *fg_world_buffer(const fg_world *w, fg_entity e) {
    return entity_of(w, e) ? buffer_of(w, e - 1) : NULL;
}

const fg_ground *fg_world_ground(const fg_world *w, fg_entity e) {
    entity_state *es = entity_of(w, e);
    return es ? &es->ground : NULL;
}

const fg_action_names *fg_world_action_names(const fg_world *w) { return &w->names; }

fg_facing fg_world_facing(const fg_world *w, fg_entity e) {
    entity_state *es = entity_of(w, e);
    return es ? (fg_facing)es->facing : FG_FACING_RIGHT;
}

fg_status fg_world_set_facing(fg_world *w, fg_entity e, fg_facing f, fg_error *err) {
    entity_state *es = entity_of(w, e);
    if (!es) return no_entity(err, e, w);
    if (f != FG_FACING_RIGHT && f != FG_FACING_LEFT)
        return fg_error_set(err, FG_EINVAL, "facing: %d, expected right (0) or left (1)", (int)f);
    es->facing = (uint8_t)f;
    fg_buffer_set_facing(buffer_of(w, e - 1), f);
    return FG_OK;
}

/* }====================================================================== */

/* {====================================================================== input */

int fg_world_action_id(const fg_world *w, const char *name) {
    return fg_action_names_find(&w->names, name);
}

static fg_status stamp(const fg_world *w, int64_t time_us, fg_tick *tick, fg_error *err) {
    if (time_us < 0)
        return fg_error_set(err, FG_EINVAL,
                            "input time %lld us is before the world's origin (0); edge refused",
                            (long long)time_us);
    if (time_us > fg_us_max(w->tick_rate))
        return fg_error_set(err, FG_EINVAL, "input time %lld us is too large for %u Hz",
                            (long long)time_us, w->tick_rate);
    *tick = fg_tick_of_us(time_us, w->tick_rate);
    return FG_OK;
}

static fg_status push_button(fg_world *w, fg_entity e, fg_edge_kind kind, int action,
                             int64_t time_us, fg_source src, fg_error *err) {
    if (!entity_of(w, e)) return no_entity(err, e, w);
    if (action < FG_IN_FIRST_BUTTON || (uint32_t)action >= w->names.count)
        return fg_error_set(err, FG_ENOTFOUND, "input action id %d is not a declared button",
                            action);
    fg_tick tick = 0;
    fg_status st = stamp(w, time_us, &tick, err);
    if (st != FG_OK) return st;
    st = fg_buffer_push(buffer_of(w, e - 1), kind, action, 0, time_us, tick, src, NULL, err);
    if (st != FG_OK) fg_error_prefix(err, "entity %u %s '%s'", e,
                                     kind == FG_EDGE_PRESS ? "press" : "release",
                                     w->names.names[action]);
    return st;
}

fg_status fg_world_press(fg_world *w, fg_entity e, int action, int64_t time_us, fg_source src,
                         fg_error *err) {
    return push_button(w, e, FG_EDGE_PRESS, action, time_us, src, err);
}

fg_status fg_world_release(fg_world *w, fg_entity e, int action, int64_t time_us, fg_source src,
                           fg_error *err) {
    return push_button(w, e, FG_EDGE_RELEASE, action, time_us, src, err);
}

fg_status fg_world_direction(fg_world *w, fg_entity e, int numpad, int64_t time_us, fg_source src,
                             fg_error *err) {
    if (!entity_of(w, e)) return no_entity(err, e, w);
    if (numpad < 1 || numpad > 9)
        return fg_error_set(err, FG_EINVAL, "direction %d: expected a numpad value 1..9", numpad);
    fg_buffer *b = buffer_of(w, e - 1);
    if (b->pushed_dir == numpad) return FG_OK;
    fg_tick tick = 0;
    fg_status st = stamp(w, time_us, &tick, err);
    if (st != FG_OK) return st;
    return fg_buffer_push(b, FG_EDGE_DIR, 0, numpad, time_us, tick, src, NULL, err);
}

fg_input_map *fg_world_input_map(fg_world *w, fg_entity e) {
    return entity_of(w, e) ? &w->maps[e - 1] : NULL;
}

/* Digital directions win over the stick while any is held. */
static fg_status push_device_direction(fg_world *w, fg_entity e, int64_t time_us, fg_error *err) {
    uint32_t slot = e - 1;
    const fg_input_map *m = &w->maps[slot];
    fg_device_state *d = &w->devices[slot];
    uint32_t bits = fg_socd_resolve(&d->socd, m->socd_horizontal, m->socd_vertical,
                                    (fg_facing)w->entities[slot].facing);
    if (bits == 0) bits = d->stick_bits;
    return fg_world_direction(w, e, fg_numpad_of_bits(bits), time_us, FG_SOURCE_DEVICE, err);
}

fg_status fg_world_device_control(fg_world *w, fg_entity e, uint32_t control, bool down,
                                  int64_t time_us, fg_error *err) {
    if (!entity_of(w, e)) return no_entity(err, e, w);
    int action = fg_input_map_lookup(&w->maps[e - 1], control);
    if (action < 0)
        return fg_error_set(err, FG_ENOTFOUND, "entity %u: control %u is not bound", e, control);
    fg_tick tick = 0;
    fg_status st = stamp(w, time_us, &tick, err);
    if (st != FG_OK) return st;
    fg_device_state *d = &w->devices[e - 1];
    if (action <= FG_IN_RIGHT) {
        fg_socd_state saved = d->socd;
        const fg_input_map *m = &w->maps[e - 1];
        fg_socd_update(&d->socd, action, down, m->socd_horizontal, m->socd_vertical,
                       (fg_facing)w->entities[e - 1].facing);
        st = push_device_direction(w, e, time_us, err);
        if (st != FG_OK) d->socd = saved;
        return st;
    }
    /* Key repeat sends "down" again for a held key: that is not a new press. */
    bool held = d->held & (1u << action);
    if (held == down) return FG_OK;
    st = push_button(w, e, down ? FG_EDGE_PRESS : FG_EDGE_RELEASE, action, time_us,
                     FG_SOURCE_DEVICE, err);
    if (st == FG_OK) d->held ^= 1u << action;
    return st;
}

fg_status fg_world_device_stick(fg_world *w, fg_entity e, float x, float y, int64_t time_us,
                                fg_error *err) {
    if (!entity_of(w, e)) return no_entity(err, e, w);
    fg_device_state *d = &w->devices[e - 1];
    const fg_input_map *m = &w->maps[e - 1];
    fg_vec2 shaped;
    fg_vec2 raw = {x, y};
    fg_status st = fg_stick_shape(raw, &m->stick, &shaped, err);
    if (st != FG_OK) return st;
    if (m->camera_relative) {
        st = fg_stick_camera_relative(shaped, d->camera.x, d->camera.y, 0.0f, &shaped, err);
        if (st != FG_OK) return st;
    }
    fg_tick tick = 0;
    st = stamp(w, time_us, &tick, err);
    if (st != FG_OK) return st;
    fg_vec2 old_stick = d->stick;
    uint32_t old_bits = d->stick_bits;
    d->stick = shaped;
    d->stick_bits = fg_bits_of_numpad(fg_numpad_of_vec(shaped, m->stick.direction_threshold));
    st = push_device_direction(w, e, time_us, err);
    if (st != FG_OK) {
        d->stick = old_stick;
        d->stick_bits = old_bits;
    }
    return st;
}

fg_status fg_world_device_camera(fg_world *w, fg_entity e, float fx, float fy, float fz,
                                 fg_error *err) {
    if (!entity_of(w, e)) return no_entity(err, e, w);
    fg_vec2 probe = {0.0f, 1.0f}, out;
    /* Validates the basis the same way a stick sample will use it. */
    fg_status st = fg_stick_camera_relative(probe, fx, fy, fz, &out, err);
    if (st != FG_OK) return st;
    w->devices[e - 1].camera = out;
    return FG_OK;
}

fg_vec2 fg_world_stick(const fg_world *w, fg_entity e) {
    fg_vec2 zero = {0.0f, 0.0f};
    return entity_of(w, e) ? w->devices[e - 1].stick : zero;
}

fg_status fg_world_report_contact(fg_world *w, fg_entity e, bool grounded, fg_error *err) {
    entity_state *es = entity_of(w, e);
    if (!es) return no_entity(err, e, w);
    es->contact = grounded;
    return FG_OK;
}

/* }====================================================================== */

/* {====================================================================== simulation */

static void advance_entity(fg_world *w, uint32_t slot, fg_tick tick) {
    entity_state *es = &w->entities[slot];
    fg_buffer *b = buffer_of(w, slot);
    fg_buffer_set_facing(b, (fg_facing)es->facing);
    fg_buffer_consume_for_tick(b, tick, &es->last_input, NULL);
    for (uint32_t i = 0; i < es->last_input.count; i++) {
        const fg_edge *e = fg_buffer_at(b, es->last_input.first + i);
        trace_push(w, tick, es->id, FG_TRACE_INPUT, 0, e->kind, e->action, e->dir, (int64_t)e->id);
    }
    bool was_grounded = es->ground.grounded;
    fg_tick landed_before = es->ground.landed_at;
    fg_ground_report(&es->ground, tick, es->contact);
    if (es->ground.grounded != was_grounded || es->ground.landed_at != landed_before)
        trace_push(w, tick, es->id, FG_TRACE_CONTACT, 0, es->ground.grounded,
                   es->ground.landed_at != landed_before, 0, 0);
    if (w->jump_action >= 0) {
        fg_jump_decision prev = es->last_jump;
        es->last_jump = fg_jump_try(&es->ground, b, w->jump_action, tick, &w->jump);
        /* A refused press stays buffered and is refused again each tick: report it once. */
        bool repeat = es->last_jump.result != FG_JUMP_OK && prev.result == es->last_jump.result &&
                      prev.press.id == es->last_jump.press.id;
        if (es->last_jump.result != FG_JUMP_NO_PRESS && !repeat)
            trace_push(w, tick, es->id, FG_TRACE_JUMP, es->last_jump.result,
                       es->last_jump.press_tick, es->last_jump.last_grounded,
                       es->last_jump.window, es->last_jump.press_until);
    }
}

fg_status fg_world_advance(fg_world *w, fg_error *err) {
    (void)err;
    fg_tick tick = w->state->tick;
    for (uint32_t slot = 0; slot < w->state->nentities; slot++) advance_entity(w, slot, tick);
    w->state->tick = tick + 1;
    return FG_OK;
}

fg_tick fg_world_tick(const fg_world *w) { return w->state->tick; }
uint32_t fg_world_tick_rate(const fg_world *w) { return w->tick_rate; }

const fg_tick_input *fg_world_last_input(const fg_world *w, fg_entity e) {
    entity_state *es = entity_of(w, e);
    return es ? &es->last_input : NULL;
}

const fg_jump_decision *fg_world_last_jump(const fg_world *w, fg_entity e) {
    entity_state *es = entity_of(w, e);
    return es ? &es->last_jump : NULL;
}

uint64_t fg_world_hash(const fg_world *w) {
    fg_hasher hs = fg_hasher_begin(0x66726D67u);
    const world_state *s = w->state;
    fg_hash_i64(&hs, s->tick);
    fg_hash_u64(&hs, s->rng.s[0]);
    fg_hash_u64(&hs, s->rng.s[1]);
    fg_hash_u64(&hs, s->nentities);
    for (uint32_t slot = 0; slot < s->nentities; slot++) {
        const entity_state *es = &w->entities[slot];
        fg_hash_u64(&hs, es->id);
        fg_hash_u64(&hs, (uint64_t)es->facing | (uint64_t)es->contact << 8);
        fg_hash_i64(&hs, es->x);
        fg_hash_i64(&hs, es->y);
        fg_ground_hash(&es->ground, &hs);
        fg_hash_u64(&hs, es->last_jump.result);
        fg_buffer_hash(buffer_of(w, slot), &hs);
    }
    return fg_hasher_end(&hs);
}

size_t fg_world_snapshot_size(const fg_world *w) {
    return sizeof(snapshot_header) + w->arena_size;
}

fg_status fg_world_save(const fg_world *w, void *buf, size_t size, fg_error *err) {
    if (!buf || size < fg_world_snapshot_size(w))
        return fg_error_set(err, FG_EINVAL, "snapshot buffer: %zu bytes, need %zu", size,
                            fg_world_snapshot_size(w));
    snapshot_header h = {SNAPSHOT_MAGIC, 0, w->state->layout, w->arena_size};
    memcpy(buf, &h, sizeof h);
    memcpy((unsigned char *)buf + sizeof h, w->arena, w->arena_size);
    return FG_OK;
}

fg_status fg_world_restore(fg_world *w, const void *buf, size_t size, fg_error *err) {
    snapshot_header h;
    if (!buf || size < sizeof h)
        return fg_error_set(err, FG_EINVAL, "snapshot: %zu bytes is too short for a header", size);
    memcpy(&h, buf, sizeof h);
    if (h.magic != SNAPSHOT_MAGIC)
        return fg_error_set(err, FG_EFORMAT, "snapshot: bad magic 0x%08x, not a world snapshot",
                            h.magic);
    if (h.layout != w->state->layout || h.size != w->arena_size ||
        size < sizeof h + w->arena_size)
        return fg_error_set(err, FG_EMISMATCH,
                            "snapshot: taken from a world with another layout (%llu bytes, "
                            "layout %016llx; this world has %zu bytes, layout %016llx)",
                            (unsigned long long)h.size, (unsigned long long)h.layout,
                            w->arena_size, (unsigned long long)w->state->layout);
    memcpy(w->arena, (const unsigned char *)buf + sizeof h, w->arena_size);
    /* Trace records of ticks that are now in the future did not happen. */
    while (w->trace_count > 0) {
        uint32_t last = (w->trace_head + w->trace_count - 1) % w->trace_cap;
        if (w->trace[last].tick < w->state->tick) break;
        w->trace_count--;
    }
    return FG_OK;
}

/* }====================================================================== */

/* {====================================================================== trace */

uint32_t fg_world_trace_count(const fg_world *w) { return w->trace_count; }

const fg_trace_record *fg_world_trace_at(const fg_world *w, uint32_t i) {
    if (i >= w->trace_count) return NULL;
    return &w->trace[(w->trace_head + i) % w->trace_cap];
}

uint64_t fg_world_trace_dropped(const fg_world *w) { return w->trace_dropped; }

void fg_world_trace_clear(fg_world *w) {
    w->trace_head = w->trace_count = 0;
}

static const char *edge_kind_name(int k) {
    return k == FG_EDGE_PRESS ? "press" : k == FG_EDGE_RELEASE ? "release" : "dir";
}

int fg_world_trace_format(const fg_world *w, const fg_trace_record *r, char *buf, size_t size) {
    int n = snprintf(buf, size, "t=%lld e%u ", (long long)r->tick, r->entity);
    if (n < 0 || (size_t)n >= size) return n;
    char *p = buf + n;
    size_t left = size - (size_t)n;
    switch (r->kind) {
    case FG_TRACE_INPUT:
        if (r->a == FG_EDGE_DIR)
            return n + snprintf(p, left, "input dir %lld (edge %lld)", (long long)r->c,
                                (long long)r->d);
        return n + snprintf(p, left, "input %s %s (edge %lld)", edge_kind_name((int)r->a),
                            fg_action_names_get(&w->names, (int)r->b), (long long)r->d);
    case FG_TRACE_CONTACT:
        return n + snprintf(p, left, "%s%s", r->a ? "grounded" : "airborne",
                            r->b ? ", jump permission restored" : "");
    case FG_TRACE_JUMP: {
        fg_jump_decision d;
        memset(&d, 0, sizeof d);
        d.result = (fg_jump_result)r->code;
        d.tick = r->tick;
        d.press_tick = r->a;
        d.last_grounded = r->b;
        d.window = r->c;
        d.press_until = r->d;
        return n + fg_jump_describe(&d, p, left);
    }
    default: return n + snprintf(p, left, "record kind %u", r->kind);
    }
}

/* }====================================================================== */
