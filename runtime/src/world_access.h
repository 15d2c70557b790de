/* SPDX-License-Identifier: MIT */
/*
** world_access.h: the part of a world the determinism tools see (record.c, replay_verify.c,
** synctest.c). Not installed.
**
** The tools include this header and not internal.h, so struct fg_world stays opaque to them:
** they read the layout a replay must rebuild, the host's changes between ticks, the input a
** rollback re-pushes, and nothing else. world_access.c implements it on the private state.
** Entities are addressed by slot (entity id - 1) and slot < fg_world_entity_count(w).
*/
#ifndef FG_WORLD_ACCESS_H
#define FG_WORLD_ACCESS_H

#include "framegate/determinism.h"
#include "framegate/gate.h"
#include "framegate/world.h"

#define FG_MAX_RULE_SLOTS 8   /* rulesets (characters) side by side */
#define FG_PENDING_REQUESTS 8 /* script/AI requests waiting for the next tick */
#define FG_HOST_EVENTS 64     /* animation events a host may report between two ticks */

/* A request (fg_world_request) waiting for the next tick. */
typedef struct fg_pending_request {
    uint16_t action;
    uint8_t source;
    uint8_t reserved;
} fg_pending_request;

/* A gate candidate of the current tick; between ticks, an animation event the host reported. */
typedef struct fg_candidate {
    uint32_t slot;  /* entity slot */
    uint8_t layer;
    uint8_t from_host; /* reported by the host's animation system */
    uint16_t action;
    uint16_t marker_index; /* index in the action's markers, for hit data */
    fg_event_stamp stamp;
} fg_candidate;

/* {====================================================================== layout */

uint64_t fg_world_seed(const fg_world *w);
uint32_t fg_world_max_entities(const fg_world *w);
uint32_t fg_world_buffer_capacity(const fg_world *w);
uint32_t fg_world_motion_bytes(const fg_world *w); /* matcher state bytes per entity */
fg_allocator fg_world_allocator(const fg_world *w);
/* The jump gate's windows (as configured, gate or not) and its button name, NULL without one. */
const char *fg_world_jump_button(const fg_world *w, fg_jump_config *jump);
/* The action the jump gate starts through the request layer, "" when none. */
const char *fg_world_jump_action(const fg_world *w);
/* Rules slots loaded, and the ruleset version each runs now (and that version's ruleset, which
** a fresh world may take a reference to). */
uint32_t fg_world_slot_count(const fg_world *w);
uint32_t fg_world_slot_version(const fg_world *w, uint32_t slot);
fg_ruleset *fg_world_slot_rules(const fg_world *w, uint32_t slot);

/* }====================================================================== */

/* {====================================================================== entities */

/* The spawn that recreates the entity in `slot` as it stands: position, facing, contact (as
** grounded), rules slot and opponent as stored (the opponent is not filtered). */
fg_spawn fg_world_spawn_of(const fg_world *w, uint32_t slot);
/* The input buffer of an entity slot, to push recorded or re-simulated edges into. */
fg_buffer *fg_world_input_buffer(fg_world *w, uint32_t slot);
/* The motion commands the last tick left for an entity slot (age 0: new this tick). */
uint32_t fg_world_commands(const fg_world *w, uint32_t slot, const fg_motion_command **out);

/* }====================================================================== */

/* {====================================================================== host changes */

/* Host actions between ticks that input records cannot carry, counted (internal.h): edits
** (state set directly) and side inputs (requests, contact and animation reports). *what, when
** not NULL, gets the latest one's name. */
uint64_t fg_world_edits(const fg_world *w, const char **what);
uint64_t fg_world_side_inputs(const fg_world *w, const char **what);
/* Asks the world to hash itself just before the next change a host makes, so a recorder knows
** the hash after its last tick without hashing every tick. */
void fg_world_watch_boundary(fg_world *w, bool on);
/* The hash taken by that watch, when it fired with the world at `tick`. */
bool fg_world_boundary_hash(const fg_world *w, fg_tick tick, uint64_t *hash);

/* }====================================================================== */

/* {====================================================================== side input */

/* What a rollback captures before a tick and puts back before re-running it: the requests of an
** entity slot from index `from` on (returns how many it copied, at most FG_PENDING_REQUESTS), its
** contact report, and the animation events reported for the next tick (at most FG_HOST_EVENTS).
** The puts write what the host pushed, as it pushed it, without counting a side input again. */
uint32_t fg_world_pending_count(const fg_world *w, uint32_t slot);
uint32_t fg_world_pending_capture(const fg_world *w, uint32_t slot, uint32_t from,
                                  fg_pending_request *out);
void fg_world_pending_put(fg_world *w, uint32_t slot, const fg_pending_request *req, uint32_t n);
uint8_t fg_world_contact_capture(const fg_world *w, uint32_t slot);
void fg_world_contact_put(fg_world *w, uint32_t slot, uint8_t contact);
uint32_t fg_world_host_events_capture(const fg_world *w, fg_candidate *out);
void fg_world_host_events_put(fg_world *w, const fg_candidate *ev, uint32_t n);

/* }====================================================================== */

/* {====================================================================== snapshots */

/* Save and restore for snapshots that never leave the world's own code (the sync test's ring):
** no checksum, no field checks. Anything a host hands in goes through fg_world_restore. */
void fg_world_save_trusted(const fg_world *w, void *buf, size_t size);
void fg_world_restore_trusted(fg_world *w, const void *buf, size_t size);
/* The same restore, not counted as a host edit (a rollback puts back the world's own past). */
void fg_world_restore_quiet(fg_world *w, const void *buf, size_t size);

/* }====================================================================== */

/* statediff.c: "path: a vs b, ..." for the first n differences, for a message. out must hold
** FG_DIFF_LIST_MAX(n) bytes, the longest such list, so none is cut. Returns its length. */
#define FG_DIFF_LIST_MAX(n) ((size_t)(n) * (sizeof(fg_state_diff) + 8) + 1)
size_t fg_state_diff_list(char *out, const fg_state_diff *d, uint32_t n);

#endif
