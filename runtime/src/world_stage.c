/* SPDX-License-Identifier: MIT */
/*
** world_stage.c: the world's stage and its ground model. The stage lives in the world's state
** (it is hashed and snapshotted with it); the ground mode says whether grounded/airborne comes
** from it or from the host's contact reports. The movement itself is tick.c's, through
** fg_stage_move; what a body stands on after it is the entity's support.
*/
#include "internal.h"

#include <string.h>

fg_ground_mode fg_world_ground_mode(const fg_world *w) { return w->ground_mode; }

const fg_stage *fg_world_stage(const fg_world *w) { return &w->state->stage; }

uint8_t fg_world_support(const fg_world *w, fg_entity e) {
    const fg_entity_state *es = fg_world_entity(w, e);
    return es ? es->support : FG_SUPPORT_NONE;
}

void fg_world_stage_place(fg_world *w, fg_entity_state *es) {
    const fg_stage *s = &w->state->stage;
    if (es->drop > s->nplatforms) es->drop = 0;
    es->support = fg_stage_support(s, es->x, es->y, es->drop);
}

/* Puts a checked stage in the world and re-places every entity on it. */
static void put_stage(fg_world *w, const fg_stage *s) {
    fg_stage *dst = &w->state->stage;
    *dst = *s;
    /* Unused entries are zero, so two equal stages are equal bytes in a snapshot too. */
    memset(dst->platforms + s->nplatforms, 0,
           sizeof dst->platforms[0] * (FG_STAGE_MAX_PLATFORMS - s->nplatforms));
    memset(dst->blocks + s->nblocks, 0, sizeof dst->blocks[0] * (FG_STAGE_MAX_BLOCKS - s->nblocks));
    for (uint32_t i = 0; i < w->state->nentities; i++) {
        fg_entity_state *es = &w->entities[i];
        es->drop = 0;
        fg_world_stage_place(w, es);
    }
}

fg_status fg_world_set_stage(fg_world *w, const fg_stage *s, fg_error *err) {
    if (fg_stage_check(s, err) != FG_OK) return err ? err->code : FG_EINVAL;
    fg_world_note_edit(w, "stage");
    put_stage(w, s);
    return FG_OK;
}

/* A reload that edits the stage moves the world onto the new one, so a designer sees a moved
** platform at once. A stage the host set since (it no longer matches the rules it came from)
** is the host's and stays. The reload itself is what a replay records, so the change replays
** from it without an edit of its own. */
void fg_world_stage_reload(fg_world *w, const fg_ruleset *old, const fg_ruleset *r) {
    if (!fg_stage_equal(&w->state->stage, &old->stage) || fg_stage_equal(&old->stage, &r->stage))
        return;
    put_stage(w, &r->stage);
}

void fg_world_stage_note_version(fg_world *w, uint32_t version) {
    if (version >= FG_MAX_VERSIONS) return;
    int id = w->jump_action_name[0] ? fg_ruleset_find_action(w->versions[version],
                                                             w->jump_action_name)
                                    : -1;
    w->jump_ids[version] = (int16_t)id;
}

bool fg_world_stage_grounded(const fg_world *w, const fg_entity_state *es) {
    return w->ground_mode == FG_GROUND_STAGE ? es->support != FG_SUPPORT_NONE : es->contact != 0;
}

bool fg_world_stage_can_drop(const fg_world *w, const fg_entity_state *es) {
    if (w->ground_mode != FG_GROUND_STAGE || !(es->support & FG_SUPPORT_PLATFORM)) return false;
    uint32_t i = es->support & FG_SUPPORT_INDEX;
    const fg_stage *s = &w->state->stage;
    if (i >= s->nplatforms || !s->platforms[i].one_way) return false;
    /* Down is held: 1, 2 or 3 on the numpad, whichever way the fighter faces. */
    int dir = fg_world_buffer_at(w, es->id - 1)->dir;
    return dir >= 1 && dir <= 3;
}
