/*
** framegate/world.h: the world, which owns every piece of authoritative state: entities, their
** input buffers and grounded history, the tick counter, the RNG, and the trace of decisions.
**
** All authoritative state lives in one block allocated when the world is created and holds no
** pointers, so a snapshot is a copy of that block and a restore copies it back. The state hash is
** fed field by field over the same state, in entity-id order. Nothing on the tick path allocates.
**
** Input goes in between ticks, stamped in microseconds since the world's origin (see loop.h for
** mapping a host clock); fg_world_advance runs exactly one tick.
*/
#ifndef FRAMEGATE_WORLD_H
#define FRAMEGATE_WORLD_H

#include "framegate/base.h"
#include "framegate/behavior.h"
#include "framegate/input.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fg_world fg_world;
typedef uint32_t fg_entity; /* 1, 2, ... in spawn order; 0 is "no entity" */

/* {====================================================================== creation */

typedef struct fg_world_config {
    uint32_t tick_rate;       /* Hz, default 60 */
    uint64_t seed;            /* RNG seed, default 1 */
    uint32_t max_entities;    /* capacity, default 8 */
    uint32_t buffer_capacity; /* edges kept per entity, default 64 */
    uint32_t trace_capacity;  /* trace records kept, default 4096 (0 disables the trace) */
    fg_allocator allocator;   /* default: malloc/free */
    /* Semantic buttons, any order (ids follow sorted names). */
    const char *const *buttons;
    uint32_t nbuttons;
    /* The jump gate, used when jump_button names a button; windows in ticks. */
    const char *jump_button;
    fg_jump_config jump;
} fg_world_config;

FG_API fg_world_config fg_world_config_default(void);
/* Validates the whole config before allocating; on failure nothing is allocated. */
FG_API fg_world *fg_world_create(const fg_world_config *cfg, fg_error *err);
FG_API void fg_world_destroy(fg_world *w);

/* }====================================================================== */

/* {====================================================================== entities */

typedef struct fg_spawn {
    fg_fx x, y;
    fg_facing facing;
    bool grounded; /* false: spawned in the air, with no grounded history */
} fg_spawn;

FG_API fg_status fg_world_spawn(fg_world *w, const fg_spawn *s, fg_entity *out, fg_error *err);
FG_API uint32_t fg_world_entity_count(const fg_world *w);
FG_API bool fg_world_entity_exists(const fg_world *w, fg_entity e);

/* Read-only views of one entity's state (NULL for an unknown entity). */
FG_API const fg_buffer *fg_world_buffer(const fg_world *w, fg_entity e);
FG_API const fg_ground *fg_world_ground(const fg_world *w, fg_entity e);
FG_API const fg_action_names *fg_world_action_names(const fg_world *w);
FG_API fg_facing fg_world_facing(const fg_world *w, fg_entity e);
FG_API fg_status fg_world_set_facing(fg_world *w, fg_entity e, fg_facing f, fg_error *err);

/* }====================================================================== */

/* {====================================================================== input */

/* Semantic input, stamped in microseconds since the world's origin. The tick is computed exactly
** (fg_tick_of_us). Refused with a message and no change: unknown entity, unknown action, negative
** time, time going back, press of a held button. */
FG_API fg_status fg_world_press(fg_world *w, fg_entity e, int action, int64_t time_us,
                                fg_source src, fg_error *err);
FG_API fg_status fg_world_release(fg_world *w, fg_entity e, int action, int64_t time_us,
                                  fg_source src, fg_error *err);
/* Sets the held direction (absolute numpad 1..9). Same direction again is a no-op. */
FG_API fg_status fg_world_direction(fg_world *w, fg_entity e, int numpad, int64_t time_us,
                                    fg_source src, fg_error *err);
/* By name: "LP", "jump", or a direction name ("up", "down", "left", "right"). */
FG_API int fg_world_action_id(const fg_world *w, const char *name);

/* Device input through the entity's input map (bindings, SOCD, stick shaping). */
FG_API fg_input_map *fg_world_input_map(fg_world *w, fg_entity e);
FG_API fg_status fg_world_device_control(fg_world *w, fg_entity e, uint32_t control, bool down,
                                         int64_t time_us, fg_error *err);
/* An analog stick sample (raw device values). With camera_relative set in the map, the stick is
** projected with the camera set by fg_world_device_camera. */
FG_API fg_status fg_world_device_stick(fg_world *w, fg_entity e, float x, float y,
                                       int64_t time_us, fg_error *err);
FG_API fg_status fg_world_device_camera(fg_world *w, fg_entity e, float fx, float fy, float fz,
                                        fg_error *err);
/* The shaped (and projected) stick value, for movement and presentation. */
FG_API fg_vec2 fg_world_stick(const fg_world *w, fg_entity e);

/* Contact report from the host's physics, applied at the start of the next tick. */
FG_API fg_status fg_world_report_contact(fg_world *w, fg_entity e, bool grounded, fg_error *err);

/* }====================================================================== */

/* {====================================================================== simulation */

/* Runs one tick: consumes each entity's input for the tick, applies contact reports, runs the
** jump gate, records decisions in the trace. */
FG_API fg_status fg_world_advance(fg_world *w, fg_error *err);
/* The next tick to run (ticks run so far, counting from 0). */
FG_API fg_tick fg_world_tick(const fg_world *w);
FG_API uint32_t fg_world_tick_rate(const fg_world *w);
/* What the last tick consumed for an entity. */
FG_API const fg_tick_input *fg_world_last_input(const fg_world *w, fg_entity e);
/* The jump decision of the last tick for an entity (result NO_PRESS when nothing happened). */
FG_API const fg_jump_decision *fg_world_last_jump(const fg_world *w, fg_entity e);

/* 64-bit hash of all authoritative state, fed field by field in entity-id order. */
FG_API uint64_t fg_world_hash(const fg_world *w);

/* Snapshot into a caller-provided buffer of fg_world_snapshot_size bytes (no allocation), and
** restore. A restored world continues bit-identically. Restore checks the size and a header
** that identifies the world's layout. */
FG_API size_t fg_world_snapshot_size(const fg_world *w);
FG_API fg_status fg_world_save(const fg_world *w, void *buf, size_t size, fg_error *err);
FG_API fg_status fg_world_restore(fg_world *w, const void *buf, size_t size, fg_error *err);

/* }====================================================================== */

/* {====================================================================== trace */

typedef enum fg_trace_kind {
    FG_TRACE_INPUT = 0, /* a = edge kind, b = action, c = dir, d = edge id */
    FG_TRACE_JUMP = 1,  /* code = fg_jump_result, a = press tick, b = last grounded, c = window,
                           d = last tick the press stays buffered */
    FG_TRACE_CONTACT = 2 /* a = grounded (0/1), b = permission restored (0/1) */
} fg_trace_kind;

typedef struct fg_trace_record {
    fg_tick tick;
    fg_entity entity;
    uint16_t kind;
    uint16_t code;
    int64_t a, b, c, d;
} fg_trace_record;

/* Records kept (oldest first); older ones are overwritten and counted as dropped. */
FG_API uint32_t fg_world_trace_count(const fg_world *w);
FG_API const fg_trace_record *fg_world_trace_at(const fg_world *w, uint32_t i);
FG_API uint64_t fg_world_trace_dropped(const fg_world *w);
FG_API void fg_world_trace_clear(fg_world *w);
/* Readable line for a record, e.g. "t=12 e1 rejected: jump ...". */
FG_API int fg_world_trace_format(const fg_world *w, const fg_trace_record *r, char *buf,
                                 size_t size);

/* }====================================================================== */

#ifdef __cplusplus
}
#endif
#endif
