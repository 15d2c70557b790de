/* SPDX-License-Identifier: MIT */
/*
** framegate/input.h: the input layer. Raw device values become semantic actions; every press,
** release and direction change becomes an edge with a stable id and a tick; each entity keeps its
** edges in a fixed-capacity ring that the motion matcher and the jump gate read.
**
** Directions are stored absolute (numpad notation, 6 = +x, 8 = up) together with the facing the
** entity had when the edge was consumed for its tick, so a motion can be read relative to the side
** the player was on at every step.
*/
#ifndef FRAMEGATE_INPUT_H
#define FRAMEGATE_INPUT_H

#include "framegate/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* {====================================================================== semantic actions */

/* Semantic input actions are small ids, one bit each in a held mask. The four digital
** directions are fixed; buttons follow, numbered by their names in sorted order. */
#define FG_INPUT_MAX_ACTIONS 32
enum {
    FG_IN_UP = 0,
    FG_IN_DOWN = 1,
    FG_IN_LEFT = 2,
    FG_IN_RIGHT = 3,
    FG_IN_FIRST_BUTTON = 4
};
#define FG_IN_DIRECTION_MASK 0xFu
#define FG_IN_NAME_MAX 16

typedef enum fg_facing { FG_FACING_RIGHT = 0, FG_FACING_LEFT = 1 } fg_facing;

/* Where an edge came from. Replays and AI produce the same edges as devices. */
typedef enum fg_source {
    FG_SOURCE_DEVICE = 0,
    FG_SOURCE_AI = 1,
    FG_SOURCE_REPLAY = 2,
    FG_SOURCE_NETWORK = 3,
    FG_SOURCE_SCRIPT = 4
} fg_source;

/* A list of semantic action names: the four directions, then buttons sorted bytewise. */
typedef struct fg_action_names {
    uint32_t count;
    char names[FG_INPUT_MAX_ACTIONS][FG_IN_NAME_MAX];
} fg_action_names;

/* Builds the name table from button names in any order; ids follow sorted order, so two callers
** that list the same buttons differently get the same ids. Fails on duplicates, empty or long
** names, names that clash with a direction, or more than FG_INPUT_MAX_ACTIONS - 4 buttons. */
FG_API fg_status fg_action_names_init(fg_action_names *out, const char *const *buttons,
                                      uint32_t nbuttons, fg_error *err);
/* Id of a name ("LP", "up"), or -1. */
FG_API int fg_action_names_find(const fg_action_names *names, const char *name);
FG_API const char *fg_action_names_get(const fg_action_names *names, int id);

/* }====================================================================== */

/* {====================================================================== directions */

/* Numpad direction (1..9, 5 = neutral) of four digital direction bits (FG_IN_* bits). Opposites
** must already be resolved by SOCD cleaning; if both remain set they cancel. */
FG_API int fg_numpad_of_bits(uint32_t dir_bits);
/* Direction bits (FG_IN_* bits) of a numpad direction. */
FG_API uint32_t fg_bits_of_numpad(int numpad);
/* Mirrors a numpad direction horizontally when facing left: absolute <-> facing-relative. */
FG_API int fg_numpad_relative(int numpad, fg_facing facing);

/* SOCD cleaning: what simultaneous opposite cardinal directions resolve to. Chosen per player and
** per axis. */
typedef enum fg_socd {
    FG_SOCD_NEUTRAL = 0,    /* both held = neither (the common left+right rule) */
    FG_SOCD_LAST_WINS = 1,  /* the most recent press wins */
    FG_SOCD_FIRST_WINS = 2, /* the earlier press keeps winning */
    FG_SOCD_UP_WINS = 3,    /* vertical only: up+down = up */
    FG_SOCD_FORWARD_WINS = 4 /* horizontal only: forward (by facing) beats back */
} fg_socd;

/* Raw digital direction state of one player, before cleaning. */
typedef struct fg_socd_state {
    uint32_t raw;         /* FG_IN_* bits physically held */
    uint32_t order[4];    /* press order per direction (a count of presses), for last/first wins */
    uint32_t presses;     /* presses so far: the next order number */
} fg_socd_state;

/* Records a raw direction change and returns the cleaned direction bits. */
FG_API uint32_t fg_socd_update(fg_socd_state *st, int dir_action, bool down, fg_socd horizontal,
                               fg_socd vertical, fg_facing facing);
FG_API uint32_t fg_socd_resolve(const fg_socd_state *st, fg_socd horizontal, fg_socd vertical,
                                fg_facing facing);
FG_API const char *fg_socd_name(fg_socd mode);
FG_API int fg_socd_parse(const char *name); /* -1 if unknown */

/* }====================================================================== */

/* {====================================================================== analog sticks */

typedef struct fg_vec2 {
    float x, y;
} fg_vec2;

/* Radial deadzone: magnitudes below deadzone read 0; [deadzone, outer] is rescaled to [0, 1];
** the rescaled magnitude is raised to exponent (1 = linear, 2 = finer control near the centre).
** direction_threshold is the shaped magnitude from which the stick counts as a digital direction. */
typedef struct fg_stick_config {
    float deadzone;            /* default 0.15 */
    float outer;               /* default 0.95 */
    float exponent;            /* default 1.0 */
    float direction_threshold; /* default 0.5 */
} fg_stick_config;

FG_API fg_stick_config fg_stick_config_default(void);
FG_API fg_status fg_stick_config_check(const fg_stick_config *cfg, fg_error *err);
/* Applies deadzone, rescale and curve. Rejects NaN or infinite components (out unchanged). */
FG_API fg_status fg_stick_shape(fg_vec2 raw, const fg_stick_config *cfg, fg_vec2 *out,
                                fg_error *err);
/* Projects a shaped stick onto the ground plane relative to a camera: camera_forward is the
** camera's forward vector (x, y horizontal, z up); its horizontal part, normalised, is the
** stick's up; the perpendicular to its right is the stick's right. A camera looking straight
** down or up keeps the previous basis (returns FG_EINVAL and leaves out unchanged). */
FG_API fg_status fg_stick_camera_relative(fg_vec2 stick, float cam_fx, float cam_fy, float cam_fz,
                                          fg_vec2 *out, fg_error *err);
/* 8-way quantisation to numpad (5 when the magnitude is below threshold). Sectors are 45 degrees
** centred on each direction. */
FG_API int fg_numpad_of_vec(fg_vec2 v, float threshold);

/* }====================================================================== */

/* {====================================================================== edges and the buffer */

typedef enum fg_edge_kind {
    FG_EDGE_PRESS = 0,   /* a button went down */
    FG_EDGE_RELEASE = 1, /* a button went up */
    FG_EDGE_DIR = 2      /* the cleaned direction changed: dir = new, prev_dir = old (absolute) */
} fg_edge_kind;

#define FG_EDGE_CONSUMED 0x01u
#define FG_EDGE_LATE 0x02u /* arrived after its tick had run; moved to the next tick */

typedef struct fg_edge {
    fg_edge_id id;    /* per buffer, in arrival order, never reused */
    int64_t time_us;  /* device time since the world's origin */
    fg_tick tick;     /* the tick the edge belongs to */
    uint8_t kind;     /* fg_edge_kind */
    uint8_t action;   /* button id for PRESS/RELEASE; 0 for DIR */
    uint8_t dir;      /* DIR: new absolute numpad; buttons: absolute numpad held at push */
    uint8_t prev_dir; /* DIR: previous absolute numpad */
    uint8_t facing;   /* fg_facing when the edge's tick was consumed */
    uint8_t source;   /* fg_source */
    uint8_t flags;    /* FG_EDGE_* */
    uint8_t reserved;
} fg_edge;

/* A reference to one edge. Stale once the edge is consumed or dropped. */
typedef struct fg_edge_ref {
    fg_edge_id id;
} fg_edge_ref;

/* What one tick consumed: its edges are buffer positions [first, first + count) counted from
** the oldest stored edge at the time of the call (use fg_buffer_at). */
typedef struct fg_tick_input {
    fg_tick tick;
    uint32_t first, count;
    uint32_t pressed;  /* actions with a press this tick (direction bits: entered) */
    uint32_t released; /* actions with a release this tick (direction bits: left) */
    uint32_t held;     /* held at the end of the tick */
    uint8_t dir;       /* absolute numpad at the end of the tick */
} fg_tick_input;

/* The buffer keeps up to `capacity` stored (consumed) edges and up to `capacity` pending ones,
** which wait for their tick. Consuming a tick turns its pending edges into stored ones and drops
** the oldest stored edges beyond capacity (counted). Only stored edges and the held state are
** authoritative: how far ahead a host polled input leaves no trace in them, so the state hash is
** the same at every display rate. The struct holds no pointers; allocate fg_buffer_size(capacity)
** bytes and call fg_buffer_init. */
typedef struct fg_buffer {
    /* The first 64 bytes are what a tick reads (consume, the stick, the state hash) and what a
    ** push checks first, in one cache line; the push side's clock and counters and the held
    ** times follow. The push side (pushed_dir, pending_count, pushed_held, next_id,
    ** last_time_us, late, refused) is not authoritative and not hashed. */
    uint32_t capacity;
    uint32_t head;  /* slot of the oldest stored edge in the ring of 2 * capacity slots */
    uint32_t count; /* stored (consumed) edges */
    uint32_t held;  /* action bits held as of current_tick */
    fg_tick current_tick;  /* the last consumed tick */
    uint64_t dropped;      /* stored edges lost to overflow */
    uint64_t consumed_digest; /* sum of a mix of the ids of the stored edges gameplay consumed:
                                 kept up to date on consume and on eviction, so a state hash
                                 covers every CONSUMED flag without reading the edges */
    uint8_t dir;           /* absolute numpad as of current_tick */
    uint8_t facing;        /* the entity's facing, stamped on edges as they are consumed */
    uint8_t pushed_dir;    /* absolute numpad after the newest pushed edge */
    uint8_t reserved;
    uint32_t pending_count; /* edges after the stored ones, waiting for their tick */
    uint32_t pushed_held;  /* held bits after the newest pushed edge */
    uint32_t reserved2;
    fg_edge_id next_id;
    int64_t last_time_us;  /* the newest timestamp pushed; time may not go back */
    uint64_t late;         /* edges that arrived after their tick and were moved forward */
    uint64_t refused;      /* pushes refused because the pending ring was full */
    fg_tick held_since[FG_INPUT_MAX_ACTIONS]; /* tick each held action went down */
    fg_edge edges[];       /* the ring: stored edges from head, then pending ones */
} fg_buffer;

FG_API size_t fg_buffer_size(uint32_t capacity);
/* capacity must be at least 1. start_tick is the tick before the first one to be consumed. */
FG_API fg_status fg_buffer_init(fg_buffer *b, uint32_t capacity, fg_tick start_tick,
                                fg_error *err);

/* Queues a button edge (kind PRESS or RELEASE) or a direction edge (kind DIR, action ignored,
** dir = new absolute numpad) until its tick. Assigns the id. Rules, each with its own error and
** no change: time may not go back; ticks may not go back; a press of a held button or a release
** of a free one is refused (FG_ESTATE); a DIR edge to the current direction is refused; a full
** pending ring refuses (FG_ENOMEM, counted in `refused`). An edge whose tick has already been
** consumed is moved to the next tick and flagged FG_EDGE_LATE. */
FG_API fg_status fg_buffer_push(fg_buffer *b, fg_edge_kind kind, int action, int dir,
                                int64_t time_us, fg_tick tick, fg_source source, fg_edge_id *id_out,
                                fg_error *err);

/* Moves the pending edges of `tick` (which must be after current_tick) to the stored ring,
** stamps them with the current facing and updates the held state. Ticks may be skipped; the
** edges of skipped ticks are consumed with it (out->tick is still `tick`). */
FG_API fg_status fg_buffer_consume_for_tick(fg_buffer *b, fg_tick tick, fg_tick_input *out,
                                            fg_error *err);

/* The earliest unconsumed press of `action` with from <= tick <= to (and not in the future),
** ties broken by id. For a direction action (FG_IN_UP...) a press is a DIR edge that enters it. */
FG_API bool fg_buffer_find_press(const fg_buffer *b, int action, fg_tick from, fg_tick to,
                                 fg_edge_ref *out);
/* Marks exactly that edge consumed. FG_ESTATE for a stale ref (dropped, never existed) or one
** already consumed; nothing changes then. */
FG_API fg_status fg_buffer_consume(fg_buffer *b, fg_edge_ref ref, fg_error *err);

FG_API uint32_t fg_buffer_count(const fg_buffer *b);
/* i-th stored edge, oldest first; NULL when out of range. */
FG_API const fg_edge *fg_buffer_at(const fg_buffer *b, uint32_t i);
/* Edges waiting for their tick, oldest first. */
FG_API uint32_t fg_buffer_pending_count(const fg_buffer *b);
FG_API const fg_edge *fg_buffer_pending_at(const fg_buffer *b, uint32_t i);
FG_API const fg_edge *fg_buffer_find(const fg_buffer *b, fg_edge_id id);
FG_API bool fg_buffer_held(const fg_buffer *b, int action);
/* Ticks `action` has been held as of current_tick (0 when not held). */
FG_API fg_tick fg_buffer_held_for(const fg_buffer *b, int action);
FG_API void fg_buffer_set_facing(fg_buffer *b, fg_facing facing);
/* The mix of one consumed edge's id in consumed_digest. */
static inline uint64_t fg_edge_consumed_mix(fg_edge_id id) {
    uint64_t z = id * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    return z ^ (z >> 31);
}
/* Feeds the authoritative state (stored edges, held state) to a hasher, field by field. */
FG_API void fg_buffer_hash(const fg_buffer *b, fg_hasher *hs);

/* }====================================================================== */

/* {====================================================================== device mapping */

/* Binds device controls to semantic actions for one player. A control is any 32-bit code the
** host chooses (a key code, a pad button); each is bound to one action. */
#define FG_MAP_MAX_BINDINGS 64

typedef struct fg_binding {
    uint32_t control;
    uint8_t action;
} fg_binding;

typedef struct fg_input_map {
    uint32_t nbindings;
    fg_binding bindings[FG_MAP_MAX_BINDINGS];
    fg_stick_config stick;
    fg_socd socd_horizontal; /* default FG_SOCD_NEUTRAL */
    fg_socd socd_vertical;   /* default FG_SOCD_UP_WINS */
    bool camera_relative;
} fg_input_map;

FG_API void fg_input_map_init(fg_input_map *m);
FG_API fg_status fg_input_map_bind(fg_input_map *m, uint32_t control, int action, fg_error *err);
/* The action bound to control, or -1. */
FG_API int fg_input_map_lookup(const fg_input_map *m, uint32_t control);

/* Per-player device state: what the mapper needs to turn device events into edges. It lives with
** the host, not in the authoritative state: replays record the edges it produced. */
typedef struct fg_device_state {
    fg_socd_state socd;
    uint32_t stick_bits; /* direction bits from the stick */
    uint32_t held;       /* buttons held, as pushed */
    fg_vec2 stick;       /* last shaped (and camera-projected) stick value */
    fg_vec2 camera;      /* horizontal camera forward in use (unit) */
} fg_device_state;

FG_API void fg_device_state_init(fg_device_state *d);

/* }====================================================================== */

#ifdef __cplusplus
}
#endif
#endif
