/* SPDX-License-Identifier: MIT */
/*
** world_access.c: world_access.h on the world's private state, for the determinism tools.
**
** Each accessor is a plain read or write of one field group; the checks that protect a world
** from a host (range, note of the change) stay in the public functions, since the tools only
** put back what the world itself held or what the host pushed before.
*/
#include "internal.h"

#include <string.h>

/* {====================================================================== layout */

uint64_t fg_world_seed(const fg_world *w) { return w->seed; }

uint32_t fg_world_max_entities(const fg_world *w) { return w->max_entities; }

uint32_t fg_world_buffer_capacity(const fg_world *w) { return w->buffer_capacity; }

uint32_t fg_world_motion_bytes(const fg_world *w) { return (uint32_t)w->motion_stride; }

fg_allocator fg_world_allocator(const fg_world *w) { return w->alloc; }

const char *fg_world_jump_button(const fg_world *w, fg_jump_config *jump) {
    if (jump) *jump = w->jump;
    return w->jump_action >= 0 ? w->names.names[w->jump_action] : NULL;
}

const char *fg_world_jump_action(const fg_world *w) { return w->jump_action_name; }

uint32_t fg_world_slot_count(const fg_world *w) { return w->state->nslots; }

uint32_t fg_world_slot_version(const fg_world *w, uint32_t slot) {
    return w->state->slot_version[slot];
}

fg_ruleset *fg_world_slot_rules(const fg_world *w, uint32_t slot) {
    return w->versions[w->state->slot_version[slot]];
}

/* }====================================================================== */

/* {====================================================================== entities */

fg_spawn fg_world_spawn_of(const fg_world *w, uint32_t slot) {
    const fg_entity_state *es = &w->entities[slot];
    fg_spawn sp = {es->x, es->y, (fg_facing)es->facing, es->contact != 0, es->rules_slot,
                   es->opponent};
    return sp;
}

fg_buffer *fg_world_input_buffer(fg_world *w, uint32_t slot) { return fg_world_buffer_at(w, slot); }

uint32_t fg_world_commands(const fg_world *w, uint32_t slot, const fg_motion_command **out) {
    *out = &w->commands[(size_t)slot * FG_COMMANDS_PER_TICK];
    return w->ncommands[slot];
}

/* }====================================================================== */

/* {====================================================================== host changes */

uint64_t fg_world_edits(const fg_world *w, const char **what) {
    if (what) *what = w->edit_what;
    return w->edits;
}

uint64_t fg_world_side_inputs(const fg_world *w, const char **what) {
    if (what) *what = w->side_input_what;
    return w->side_inputs;
}

void fg_world_watch_boundary(fg_world *w, bool on) { w->watch_boundary = on; }

bool fg_world_boundary_hash(const fg_world *w, fg_tick tick, uint64_t *hash) {
    if (w->watch_boundary || w->boundary_tick != tick) return false;
    *hash = w->boundary_hash;
    return true;
}

/* }====================================================================== */

/* {====================================================================== side input */

uint32_t fg_world_pending_count(const fg_world *w, uint32_t slot) {
    return w->entities[slot].npending;
}

uint32_t fg_world_pending_capture(const fg_world *w, uint32_t slot, uint32_t from,
                                  fg_pending_request *out) {
    const fg_entity_state *es = &w->entities[slot];
    if (from > es->npending) from = es->npending;
    uint32_t n = es->npending - from;
    memcpy(out, &es->pending[from], sizeof(fg_pending_request) * n);
    return n;
}

void fg_world_pending_put(fg_world *w, uint32_t slot, const fg_pending_request *req, uint32_t n) {
    fg_entity_state *es = &w->entities[slot];
    for (uint32_t j = 0; j < n && es->npending < FG_PENDING_REQUESTS; j++)
        es->pending[es->npending++] = req[j];
}

uint8_t fg_world_contact_capture(const fg_world *w, uint32_t slot) {
    return w->entities[slot].contact;
}

void fg_world_contact_put(fg_world *w, uint32_t slot, uint8_t contact) {
    fg_world_hash_forget(w->hash_keep); /* the contact report is hashed */
    w->entities[slot].contact = contact;
}

uint32_t fg_world_host_events_capture(const fg_world *w, fg_candidate *out) {
    memcpy(out, w->host_events, sizeof(fg_candidate) * w->nhost_events);
    return w->nhost_events;
}

void fg_world_host_events_put(fg_world *w, const fg_candidate *ev, uint32_t n) {
    if (n > FG_HOST_EVENTS) n = FG_HOST_EVENTS;
    memcpy(w->host_events, ev, sizeof(fg_candidate) * n);
    w->nhost_events = n;
}

/* }====================================================================== */

void fg_world_restore_quiet(fg_world *w, const void *buf, size_t size) {
    uint64_t edits = w->edits;
    const char *what = w->edit_what;
    fg_world_restore_trusted(w, buf, size);
    w->edits = edits;
    w->edit_what = what;
}
