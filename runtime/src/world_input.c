/* SPDX-License-Identifier: MIT */
/*
** world_input.c: input into a world between ticks: presses, releases and directions stamped to
** ticks, device controls and sticks through an entity's input map, and the host's contact
** reports. Every entry point checks the entity and the time before it changes anything.
*/
#include "internal.h"

#include <stdio.h>
#include <string.h>

/* {====================================================================== input */

int fg_world_action_id(const fg_world *w, const char *name) {
    return fg_action_names_find(&w->names, name);
}

static fg_status tick_of_time(const fg_world *w, int64_t time_us, fg_tick *tick, fg_error *err) {
    if (time_us < 0)
        return fg_error_set(err, FG_EINVAL,
                            "input time %lld us is before the world's origin (0); edge refused",
                            (long long)time_us);
    /* time_us > fg_us_max(rate), without the division on the path every edge takes: for
    ** t >= 0 and r >= 1, t > floor(INT64_MAX / r) exactly when t * r overflows. Below that,
    ** fg_tick_of_us(t, r) is floor(t * r / 1e6), the product in hand. */
    int64_t scaled;
    if (__builtin_mul_overflow(time_us, (int64_t)w->tick_rate, &scaled))
        return fg_error_set(err, FG_EINVAL, "input time %lld us is too large for %u Hz",
                            (long long)time_us, w->tick_rate);
    *tick = scaled / FG_US_PER_S;
    /* Time may not go back within a buffer, so one edge far ahead would refuse every later one. */
    int64_t ahead = (int64_t)FG_INPUT_AHEAD_MAX_S * w->tick_rate;
    if (*tick - w->state->tick > ahead)
        return fg_error_set(err, FG_EINVAL, "input time %lld us (tick %lld) is more than %d s "
                            "ahead of the world (tick %lld); edge refused",
                            (long long)time_us, (long long)*tick, FG_INPUT_AHEAD_MAX_S,
                            (long long)w->state->tick);
    return FG_OK;
}

static fg_status push_button(fg_world *w, fg_entity e, fg_edge_kind kind, int action,
                             int64_t time_us, fg_source src, fg_error *err) {
    if (!fg_world_entity(w, e)) return fg_world_no_entity(w, e, err);
    if (action < FG_IN_FIRST_BUTTON || (uint32_t)action >= w->names.count)
        return fg_error_set(err, FG_ENOTFOUND, "input action id %d is not a declared button",
                            action);
    fg_tick tick = 0;
    fg_status st = tick_of_time(w, time_us, &tick, err);
    if (st != FG_OK) return st;
    st = fg_buffer_push(fg_world_buffer_at(w, e - 1), kind, action, 0, time_us, tick, src, NULL,
                        err);
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
    if (!fg_world_entity(w, e)) return fg_world_no_entity(w, e, err);
    if (numpad < 1 || numpad > 9)
        return fg_error_set(err, FG_EINVAL, "direction %d: expected a numpad value 1..9", numpad);
    fg_buffer *b = fg_world_buffer_at(w, e - 1);
    if (b->pushed_dir == numpad) return FG_OK;
    fg_tick tick = 0;
    fg_status st = tick_of_time(w, time_us, &tick, err);
    if (st != FG_OK) return st;
    return fg_buffer_push(b, FG_EDGE_DIR, 0, numpad, time_us, tick, src, NULL, err);
}

fg_input_map *fg_world_input_map(fg_world *w, fg_entity e) {
    return fg_world_entity(w, e) ? &w->maps[e - 1] : NULL;
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
    if (!fg_world_entity(w, e)) return fg_world_no_entity(w, e, err);
    int action = fg_input_map_lookup(&w->maps[e - 1], control);
    if (action < 0)
        return fg_error_set(err, FG_ENOTFOUND, "entity %u: control %u is not bound", e, control);
    fg_tick tick = 0;
    fg_status st = tick_of_time(w, time_us, &tick, err);
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
    if (!fg_world_entity(w, e)) return fg_world_no_entity(w, e, err);
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
    st = tick_of_time(w, time_us, &tick, err);
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
    if (!fg_world_entity(w, e)) return fg_world_no_entity(w, e, err);
    fg_vec2 probe = {0.0f, 1.0f}, out;
    /* Validates the basis the same way a stick sample will use it. */
    fg_status st = fg_stick_camera_relative(probe, fx, fy, fz, &out, err);
    if (st != FG_OK) return st;
    w->devices[e - 1].camera = out;
    return FG_OK;
}

fg_vec2 fg_world_stick(const fg_world *w, fg_entity e) {
    fg_vec2 zero = {0.0f, 0.0f};
    return fg_world_entity(w, e) ? w->devices[e - 1].stick : zero;
}

fg_status fg_world_report_contact(fg_world *w, fg_entity e, bool grounded, fg_error *err) {
    fg_entity_state *es = fg_world_entity(w, e);
    if (!es) return fg_world_no_entity(w, e, err);
    if (w->ground_mode == FG_GROUND_STAGE)
        return fg_error_set(err, FG_ESTATE, "contact: this world's ground comes from its stage "
                            "(ground mode \"stage\"); create it with ground = \"contacts\" "
                            "(FG_GROUND_CONTACTS) to report contacts from your own physics");
    if (es->contact != grounded) fg_world_note_side_input(w, "contact report");
    es->contact = grounded;
    return FG_OK;
}

/* }====================================================================== */
