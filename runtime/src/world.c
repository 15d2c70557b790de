/* SPDX-License-Identifier: MIT */
/*
** world.c: the world: creation, rulesets and their versions, entities and snapshots. The state
** hash is in world_hash.c, input entry points in world_input.c, the trace in trace.c, the tick
** pipeline in tick.c.
**
** Authoritative state is one arena: a header, the entity records, one input buffer and one event
** dispatcher per entity slot. Offsets are fixed at creation, so the arena never holds a pointer
** and a snapshot is a plain copy. Rulesets live outside it and are referred to by version number;
** host-side state (device maps), the trace, the frame meter and the cue queue are outside it too:
** they are not authoritative.
*/
#include "internal.h"
#include "motion_internal.h"
#include "snapshot.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef fg_snapshot_header snapshot_header;
#define SNAPSHOT_MAGIC FG_SNAPSHOT_MAGIC

/* {====================================================================== helpers */

static size_t align16(size_t n) { return (n + 15) & ~(size_t)15; }
/* Per-entity sections start on a cache line and their strides are whole lines: a tick reads the
** head of each record, buffer and matcher state of thousands of entities, one line each. */
#define CACHE_LINE 64u
static size_t align64(size_t n) { return (n + CACHE_LINE - 1) & ~(size_t)(CACHE_LINE - 1); }

static size_t hash_keep_bytes(uint32_t max_entities) {
    return sizeof(fg_hash_keep) + (sizeof(fg_hash_part) + sizeof(fg_hash_kept)) * max_entities +
           2 * CACHE_LINE; /* to align it and its kept folds */
}

fg_status fg_world_no_entity(const fg_world *w, fg_entity e, fg_error *err) {
    return fg_error_set(err, FG_ENOTFOUND, "entity %u does not exist (%u spawned)", e,
                        w->state->nentities);
}

/* }====================================================================== */

/* {====================================================================== creation */

fg_world_config fg_world_config_default(void) {
    fg_world_config c;
    memset(&c, 0, sizeof c);
    c.tick_rate = FG_TICK_RATE_DEFAULT;
    c.seed = 1;
    c.max_entities = 8;
    /* 32 stored edges cover well over a second of a fighter's input, longer than any motion
    ** window; a snapshot copies the ring (twice the capacity, for pending edges) per entity, so
    ** the capacity is what makes save + restore of a match cost about a microsecond. */
    c.buffer_capacity = 32;
    c.trace_capacity = 4096;
    c.trace_text_bytes = 65536;
    c.max_projectiles = 64;
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
    if (c->max_projectiles > 65536)
        return fg_error_set(err, FG_EINVAL, "world.max_projectiles: %u, expected 0..65536",
                            c->max_projectiles);
    if (c->buffer_capacity == 0 || c->buffer_capacity > 65536)
        return fg_error_set(err, FG_EINVAL,
                            "world.buffer_capacity: %u edges, expected 1..65536", c->buffer_capacity);
    if (c->trace_text_bytes != 0 &&
        (c->trace_text_bytes < 256 || c->trace_text_bytes > FG_TRACE_TEXT_MAX))
        return fg_error_set(err, FG_EINVAL, "world.trace_text_bytes: %u, expected 0 or 256..%u",
                            c->trace_text_bytes, FG_TRACE_TEXT_MAX);
    if ((unsigned)c->ground > FG_GROUND_CONTACTS)
        return fg_error_set(err, FG_EINVAL, "world.ground: %d, expected FG_GROUND_DEFAULT, "
                            "FG_GROUND_STAGE or FG_GROUND_CONTACTS", (int)c->ground);
    if (c->jump_action && !c->jump_button)
        return fg_error_set(err, FG_EINVAL, "world.jump_action: '%s' needs a jump_button",
                            c->jump_action);
    if (c->jump_action && (!c->rules || fg_ruleset_find_action(c->rules, c->jump_action) < 0))
        return fg_error_set(err, FG_ENOTFOUND, "world.jump_action: '%s' is not an action of %s%s%s",
                            c->jump_action, c->rules ? "rules '" : "the world (it has no rules)",
                            c->rules ? c->rules->name : "", c->rules ? "'" : "");
    return fg_jump_config_check(&c->jump, err);
}

/* What a tick derives from each ruleset version, noted once when the version joins the world. */
static void note_version(fg_world *w, uint32_t version) {
    fg_world_stage_note_version(w, version);
    if (w->versions[version]->hurtable_kinds) w->hurtable_projectiles = true;
    if (w->versions[version]->attack_boxes) w->attack_boxes = true;
    if (fg_push_declared(w->versions[version])) w->push_boxes = true;
}

fg_world *fg_world_create(const fg_world_config *cfg, fg_error *err) {
    fg_world_config c = cfg ? *cfg : fg_world_config_default();
    if (!c.allocator.realloc) c.allocator = fg_allocator_default();
    if (check_config(&c, err) != FG_OK) return NULL;
    fg_action_names names;
    if (c.rules) {
        names = c.rules->buttons;
    } else if (fg_action_names_init(&names, c.buttons, c.nbuttons, err) != FG_OK) {
        return NULL;
    }
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
    w->hooks = c.hooks;
    w->ground_mode = c.ground != FG_GROUND_DEFAULT ? c.ground
                     : c.rules                     ? FG_GROUND_STAGE
                                                   : FG_GROUND_CONTACTS;
    if (c.jump_action)
        snprintf(w->jump_action_name, sizeof w->jump_action_name, "%s", c.jump_action);
    for (uint32_t i = 0; i < FG_MAX_VERSIONS; i++) w->jump_ids[i] = -1;

    /* The projectile pool sits in the header section: every snapshot copies it whole. */
    size_t off_pool = align16(sizeof(fg_world_state));
    size_t off_entities = align64(off_pool + fg_projectile_pool_bytes(c.max_projectiles));
    size_t off_buffers = off_entities + align64(sizeof(fg_entity_state) * c.max_entities);
    w->buffer_stride = align64(fg_buffer_size(c.buffer_capacity));
    size_t off_ledgers = off_buffers + w->buffer_stride * c.max_entities;
    w->ledger_stride = align64(fg_dispatcher_size(FG_MAX_LAYERS, FG_MAX_MARKERS));
    size_t off_motions = off_ledgers + w->ledger_stride * c.max_entities;
    size_t need = c.rules ? fg_motion_state_size(c.rules->motion_set) : 0;
    /* Headroom for a reload that adds patterns: a quarter more than the rules need (at least
    ** 1 KiB); a larger reload asks for a world created with more. It is copied by every snapshot,
    ** so it is kept small. */
    size_t headroom = need / 4 > 1024 ? need / 4 : 1024;
    size_t motion_bytes = c.motion_bytes ? c.motion_bytes : need + headroom;
    if (motion_bytes < need) {
        fg_error_set(err, FG_EINVAL, "world.motion_bytes: %u, the rules need %zu per entity",
                     c.motion_bytes, need);
        fg_free(&c.allocator, w, sizeof *w);
        return NULL;
    }
    w->motion_stride = align64(motion_bytes);
    w->arena_size = off_motions + w->motion_stride * c.max_entities;
    w->arena = fg_alloc(&w->alloc, w->arena_size + CACHE_LINE - 1);
    w->arena_skew = 0;
    if (w->arena) {
        w->arena_skew = (CACHE_LINE - (uintptr_t)w->arena % CACHE_LINE) % CACHE_LINE;
        w->arena += w->arena_skew;
    }
    w->maps = fg_alloc(&w->alloc, sizeof(fg_input_map) * c.max_entities);
    w->devices = fg_alloc(&w->alloc, sizeof(fg_device_state) * c.max_entities);
    w->meter = fg_alloc(&w->alloc, (size_t)FG_METER_TICKS * c.max_entities);
    w->trace_cap = c.trace_capacity;
    if (w->trace_cap) w->trace = fg_alloc(&w->alloc, sizeof(fg_trace_record) * w->trace_cap);
    w->trace_text_cap = w->trace_cap ? c.trace_text_bytes : 0;
    if (w->trace_text_cap) w->trace_text = fg_alloc(&w->alloc, w->trace_text_cap);
    w->cap_cands = c.max_entities * FG_MAX_LAYERS * FG_MAX_MARKERS;
    w->cands = fg_alloc(&w->alloc, sizeof(fg_candidate) * w->cap_cands);
    bool coll = fg_collide_space_init(&w->coll, &w->alloc, c.max_entities) &&
                fg_projectile_space_init(&w->pspace, &w->alloc, c.max_projectiles);
    w->cap_proposals = c.max_entities * FG_VAR_PROPOSALS;
    w->nproposals = w->rule_entity = w->rule_first = 0;
    w->proposals = fg_alloc(&w->alloc, sizeof(fg_var_proposal) * w->cap_proposals);
    w->cap_events = w->cap_cands + FG_HOST_EVENTS + w->coll.cap_contacts;
    w->events = fg_alloc(&w->alloc, sizeof(fg_event) * w->cap_events);
    w->commands = fg_alloc(&w->alloc, sizeof(fg_motion_command) * FG_COMMANDS_PER_TICK *
                                          c.max_entities);
    w->ncommands = fg_alloc(&w->alloc, c.max_entities);
    w->dirs = fg_alloc(&w->alloc, c.max_entities);
    w->true_commands = fg_alloc(&w->alloc, sizeof(fg_motion_command) * FG_MOTION_MAX_PATTERNS);
    w->hash_keep = fg_alloc(&w->alloc, hash_keep_bytes(c.max_entities));
    if (w->hash_keep) {
        w->hash_keep_skew = (CACHE_LINE - (uintptr_t)w->hash_keep % CACHE_LINE) % CACHE_LINE;
        w->hash_keep = (fg_hash_keep *)((unsigned char *)w->hash_keep + w->hash_keep_skew);
    }
    if (!w->arena || !w->maps || !w->devices || !w->meter || (w->trace_cap && !w->trace) ||
        (w->trace_text_cap && !w->trace_text) || !w->cands || !w->events || !w->commands ||
        !w->ncommands || !w->dirs || !coll || !w->true_commands || !w->proposals || !w->hash_keep) {
        fg_world_destroy(w);
        fg_error_set(err, FG_ENOMEM, "world: out of memory (state of %zu bytes)", w->arena_size);
        return NULL;
    }
    memset(w->hash_keep, 0, hash_keep_bytes(c.max_entities) - CACHE_LINE); /* none ready */
    w->hash_keep->changes = 1;                                          /* nor any fold kept */
    w->hash_keep->kept =
        (fg_hash_kept *)align64((uintptr_t)(w->hash_keep->parts + c.max_entities));
    w->state = (fg_world_state *)w->arena;
    fg_projectile_pool_bind(w, w->arena + off_pool);
    w->ppool->next_id = 1;
    w->entities = (fg_entity_state *)(w->arena + off_entities);
    w->buffers = w->arena + off_buffers;
    w->ledgers = w->arena + off_ledgers;
    w->motions = w->arena + off_motions;

    fg_hasher hs = fg_hasher_begin(0);
    fg_hash_u64(&hs, FG_SNAPSHOT_LAYOUT);
    fg_hash_u64(&hs, w->arena_size);
    fg_hash_u64(&hs, c.max_entities);
    fg_hash_u64(&hs, c.buffer_capacity);
    fg_hash_u64(&hs, c.tick_rate);
    fg_hash_u64(&hs, c.max_projectiles);
    w->state->layout = fg_hasher_end(&hs);
    w->state->tick = 0;
    w->state->rng = fg_rng_seeded(c.seed);
    w->state->stage = c.rules ? c.rules->stage : fg_stage_default();
    if (c.rules) {
        fg_ruleset_ref(c.rules);
        w->versions[0] = c.rules;
        w->nversions = 1;
        w->state->nslots = 1;
        w->state->slot_version[0] = 0;
        note_version(w, 0);
    }
    return w;
}

void fg_world_destroy(fg_world *w) {
    if (!w) return;
    fg_allocator a = w->alloc;
    for (uint32_t i = 0; i < w->nversions; i++) fg_ruleset_unref(w->versions[i]);
    if (w->arena) fg_free(&a, w->arena - w->arena_skew, w->arena_size + CACHE_LINE - 1);
    fg_free(&a, w->maps, sizeof(fg_input_map) * w->max_entities);
    fg_free(&a, w->devices, sizeof(fg_device_state) * w->max_entities);
    fg_free(&a, w->meter, (size_t)FG_METER_TICKS * w->max_entities);
    fg_free(&a, w->trace, sizeof(fg_trace_record) * w->trace_cap);
    fg_free(&a, w->trace_text, w->trace_text_cap);
    fg_free(&a, w->cands, sizeof(fg_candidate) * w->cap_cands);
    fg_free(&a, w->events, sizeof(fg_event) * w->cap_events);
    fg_free(&a, w->commands, sizeof(fg_motion_command) * FG_COMMANDS_PER_TICK * w->max_entities);
    fg_free(&a, w->ncommands, w->max_entities);
    fg_free(&a, w->dirs, w->max_entities);
    fg_free(&a, w->true_commands, sizeof(fg_motion_command) * FG_MOTION_MAX_PATTERNS);
    if (w->hash_keep)
        fg_free(&a, (unsigned char *)w->hash_keep - w->hash_keep_skew,
                hash_keep_bytes(w->max_entities));
    fg_collide_space_free(&w->coll, &a, w->max_entities);
    fg_projectile_space_free(&w->pspace, &a);
    fg_free(&a, w->proposals, sizeof(fg_var_proposal) * w->cap_proposals);
    fg_free(&a, w, sizeof *w);
}

/* }====================================================================== */

/* {====================================================================== rulesets */

static bool same_shape(const fg_ruleset *a, const fg_ruleset *b, fg_error *err) {
    if (memcmp(&a->buttons, &b->buttons, sizeof a->buttons) != 0) {
        fg_error_set(err, FG_EMISMATCH, "rules '%s': buttons differ from the world's (%u vs %u "
                     "declared); input ids must stay the same", b->name, b->buttons.count - 4,
                     a->buttons.count - 4);
        return false;
    }
    if (a->nlayers != b->nlayers || memcmp(a->layers, b->layers, sizeof a->layers) != 0) {
        fg_error_set(err, FG_EMISMATCH, "rules '%s': layers differ from the running rules'; "
                     "running actions would lose their layer", b->name);
        return false;
    }
    return true;
}

static fg_status add_version(fg_world *w, fg_ruleset *r, uint32_t *version, fg_error *err) {
    if (fg_motion_state_size(r->motion_set) > w->motion_stride)
        return fg_error_set(err, FG_ENOMEM, "rules '%s': its motions need %zu bytes of matcher "
                            "state per entity, this world has %zu (create the world with a "
                            "larger motion_bytes)", r->name, fg_motion_state_size(r->motion_set),
                            w->motion_stride);
    if (w->nversions == FG_MAX_VERSIONS)
        return fg_error_set(err, FG_ENOMEM, "rules: this world holds %d ruleset versions, the "
                            "most it keeps (each reload adds one); create a new world to reload "
                            "again", FG_MAX_VERSIONS);
    fg_ruleset_ref(r);
    w->versions[w->nversions] = r;
    *version = w->nversions++;
    note_version(w, *version);
    return FG_OK;
}

fg_status fg_world_add_rules(fg_world *w, fg_ruleset *r, uint32_t *slot, fg_error *err) {
    if (w->state->nslots == FG_MAX_RULE_SLOTS)
        return fg_error_set(err, FG_ENOMEM, "rules: at most %d rulesets side by side",
                            FG_MAX_RULE_SLOTS);
    if (w->nversions > 0 && !same_shape(w->versions[0], r, err)) return err ? err->code : FG_EMISMATCH;
    if (w->nversions == 0 && memcmp(&w->names, &r->buttons, sizeof w->names) != 0)
        return fg_error_set(err, FG_EMISMATCH, "rules '%s': buttons differ from the world's",
                            r->name);
    uint32_t version = 0;
    fg_status st = add_version(w, r, &version, err);
    if (st != FG_OK) return st;
    fg_world_note_edit(w, "rules added");
    uint32_t s = w->state->nslots++;
    w->state->slot_version[s] = (uint16_t)version;
    if (slot) *slot = s;
    return FG_OK;
}

fg_status fg_world_replace_rules(fg_world *w, uint32_t slot, fg_ruleset *r, fg_error *err) {
    if (slot >= w->state->nslots)
        return fg_error_set(err, FG_ENOTFOUND, "rules slot %u does not exist (%u loaded)", slot,
                            w->state->nslots);
    const fg_ruleset *old = w->versions[w->state->slot_version[slot]];
    if (!same_shape(old, r, err)) return err ? err->code : FG_EMISMATCH;
    uint32_t version = 0;
    fg_status st = add_version(w, r, &version, err);
    if (st != FG_OK) return st;
    fg_world_hash_forget(w->hash_keep);
    w->state->slot_version[slot] = (uint16_t)version;
    /* Recorded so a trace (and a replay made from it) shows which rules ran from which tick. */
    fg_world_trace4(w, w->state->tick, 0, FG_TRACE_RELOAD, (int)slot, (int64_t)r->hash,
                    (int64_t)r->source_hash, (int64_t)old->hash, (int64_t)version);
    /* The world's stage came from the first rules: an edited stage there moves the world. */
    if (slot == 0) fg_world_stage_reload(w, old, r);
    /* Waiting requests name actions by id: carry them over by name, or drop them with a note. */
    for (uint32_t i = 0; i < w->state->nentities; i++) {
        fg_entity_state *es = &w->entities[i];
        if (es->rules_slot != slot) continue;
        fg_vars_reload(old, r, es);
        for (uint32_t l = 0; l < FG_MAX_LAYERS; l++) {
            fg_queued *q = es->queued[l];
            uint32_t kept = 0;
            for (uint32_t j = 0; j < FG_QUEUE_MAX && q[j].action != FG_NO_ACTION; j++) {
                int id = fg_ruleset_find_action(r, old->defs[q[j].action].name);
                if (id < 0) {
                    char note[128];
                    snprintf(note, sizeof note, "reload: the queued request for '%s' was dropped, "
                             "the new rules have no such action", old->defs[q[j].action].name);
                    fg_world_note_error(w, es->id, note);
                    continue;
                }
                q[kept] = q[j];
                q[kept++].action = (uint16_t)id;
            }
            /* A shallower queue in the new rules keeps the requests that came first. */
            uint32_t depth = r->queue.order == FG_QUEUE_LATEST ? 1 : r->queue.depth;
            if (kept > depth) kept = depth;
            for (uint32_t j = kept; j < FG_QUEUE_MAX; j++) q[j].action = FG_NO_ACTION;
            fg_entity_queue_changed(es, l);
        }
        uint32_t kept = 0;
        for (uint32_t k = 0; k < es->npending; k++) {
            int id = fg_ruleset_find_action(r, old->defs[es->pending[k].action].name);
            if (id < 0) continue;
            es->pending[kept] = es->pending[k];
            es->pending[kept++].action = (uint16_t)id;
        }
        es->npending = (uint8_t)kept;
    }
    /* Motions in progress belong to the old patterns; the edges themselves stay buffered. */
    if (fg_motion_set_hash(old->motion_set) != fg_motion_set_hash(r->motion_set))
        for (uint32_t i = 0; i < w->state->nentities; i++)
            if (w->entities[i].rules_slot == slot)
                fg_motion_state_init(r->motion_set, fg_world_motion_at(w, i), w->state->tick - 1);
    return FG_OK;
}

fg_world *fg_world_clone(const fg_world *src, const fg_world_hooks *hooks, fg_error *err) {
    fg_world_config c = fg_world_config_default();
    c.tick_rate = src->tick_rate;
    c.seed = src->seed;
    c.max_entities = src->max_entities;
    c.buffer_capacity = src->buffer_capacity;
    c.trace_capacity = src->trace_cap;
    c.trace_text_bytes = src->trace_cap ? src->trace_text_cap : c.trace_text_bytes;
    c.max_projectiles = src->pspace.cap;
    c.motion_bytes = (uint32_t)src->motion_stride;
    c.allocator = src->alloc;
    c.rules = src->nversions > 0 ? src->versions[0] : NULL;
    if (hooks) c.hooks = *hooks;
    fg_world *w = fg_world_create(&c, err);
    if (!w) return NULL;
    /* Same semantic buttons and jump gate, and the same version numbers for every ruleset, so
    ** instances in flight in a snapshot of src find their definitions here. */
    w->names = src->names;
    w->jump_action = src->jump_action;
    w->jump = src->jump;
    w->ground_mode = src->ground_mode;
    memcpy(w->jump_action_name, src->jump_action_name, sizeof w->jump_action_name);
    for (uint32_t i = w->nversions; i < src->nversions; i++) {
        fg_ruleset_ref(src->versions[i]);
        w->versions[w->nversions++] = src->versions[i];
    }
    memcpy(w->jump_ids, src->jump_ids, sizeof w->jump_ids);
    w->hurtable_projectiles |= src->hurtable_projectiles;
    w->attack_boxes |= src->attack_boxes;
    w->push_boxes |= src->push_boxes;
    memcpy(w->arena, src->arena, src->arena_size);
    memcpy(w->maps, src->maps, sizeof(fg_input_map) * src->max_entities);
    memcpy(w->devices, src->devices, sizeof(fg_device_state) * src->max_entities);
    memcpy(w->meter, src->meter, (size_t)FG_METER_TICKS * src->max_entities);
    return w;
}

uint32_t fg_world_version_count(const fg_world *w) { return w->nversions; }

const fg_ruleset *fg_world_rules_version(const fg_world *w, uint32_t version) {
    return version < w->nversions ? w->versions[version] : NULL;
}

const fg_ruleset *fg_world_rules(const fg_world *w, fg_entity e) {
    fg_entity_state *es = fg_world_entity(w, e);
    if (!es || w->state->nslots == 0) return NULL;
    return w->versions[w->state->slot_version[es->rules_slot]];
}

uint32_t fg_world_rules_slot(const fg_world *w, fg_entity e) {
    fg_entity_state *es = fg_world_entity(w, e);
    return es ? es->rules_slot : 0;
}

/* }====================================================================== */

/* {====================================================================== entities */

static fg_status check_position(const char *what, fg_fx x, fg_fx y, fg_error *err) {
    if (x < -FG_POSITION_MAX || x > FG_POSITION_MAX || y < -FG_POSITION_MAX || y > FG_POSITION_MAX)
        return fg_error_set(err, FG_EINVAL, "%s: (%d, %d) in 1/65536 units is out of range "
                            "(expected -%d..%d each)", what, x, y, FG_POSITION_MAX,
                            FG_POSITION_MAX);
    return FG_OK;
}

fg_status fg_world_spawn(fg_world *w, const fg_spawn *s, fg_entity *out, fg_error *err) {
    if (w->state->nentities == w->max_entities)
        return fg_error_set(err, FG_ENOMEM, "spawn: the world is full (%u entities)",
                            w->max_entities);
    fg_spawn sp = {0};
    if (s) sp = *s;
    if (sp.facing != FG_FACING_RIGHT && sp.facing != FG_FACING_LEFT)
        return fg_error_set(err, FG_EINVAL, "spawn.facing: %d, expected right (0) or left (1)",
                            (int)sp.facing);
    if (w->state->nslots > 0 && sp.rules >= w->state->nslots)
        return fg_error_set(err, FG_ENOTFOUND, "spawn.rules: slot %u does not exist (%u loaded)",
                            sp.rules, w->state->nslots);
    if (sp.opponent != 0 && !fg_world_entity(w, sp.opponent))
        return fg_error_set(err, FG_ENOTFOUND, "spawn.opponent: entity %u does not exist",
                            sp.opponent);
    if (check_position("spawn", sp.x, sp.y, err) != FG_OK) return FG_EINVAL;
    fg_world_note_edit(w, "spawn");
    uint32_t slot = w->state->nentities;
    fg_buffer *b = fg_world_buffer_at(w, slot);
    fg_status st = fg_buffer_init(b, w->buffer_capacity, w->state->tick - 1, err);
    if (st != FG_OK) return st;
    st = fg_dispatcher_init(fg_world_ledger_at(w, slot), FG_MAX_LAYERS, FG_MAX_MARKERS, err);
    if (st != FG_OK) return st;
    fg_buffer_set_facing(b, sp.facing);
    fg_entity_state *es = &w->entities[slot];
    memset(es, 0, sizeof *es);
    es->id = slot + 1;
    es->facing = (uint8_t)sp.facing;
    es->x = es->prev_x = sp.x;
    es->y = es->prev_y = sp.y;
    es->contact = sp.grounded;
    es->rules_slot = (uint8_t)sp.rules;
    fg_entity_state *prev = slot > 0 ? &w->entities[slot - 1] : NULL;
    fg_entity_state *opp = sp.opponent ? &w->entities[sp.opponent - 1]
                                       : (prev && prev->opponent == 0 ? prev : NULL);
    if (opp) {
        es->opponent = opp->id;
        if (opp->opponent == 0) opp->opponent = es->id;
    }
    /* On a stage, the position says whether it stands: a fighter spawned at y = 80 over the
    ** floor is airborne, with no grounded history until it lands. */
    fg_world_stage_place(w, es);
    bool grounded = w->ground_mode == FG_GROUND_STAGE ? es->support != FG_SUPPORT_NONE
                                                      : sp.grounded;
    fg_ground_init(&es->ground, grounded, w->state->tick - 1);
    es->last_jump.result = FG_JUMP_NO_PRESS;
    es->last_decision.action = FG_NO_ACTION;
    for (int l = 0; l < FG_MAX_LAYERS; l++) {
        es->layers[l].action = FG_NO_ACTION;
        for (uint32_t j = 0; j < FG_QUEUE_MAX; j++) es->queued[l][j].action = FG_NO_ACTION;
        es->started_tick[l] = -1;
    }
    fg_input_map_init(&w->maps[slot]);
    fg_device_state_init(&w->devices[slot]);
    for (fg_tick k = 0; k < FG_METER_TICKS; k++) *fg_world_meter_cell(w, slot, k) = 0;
    w->state->nentities++;
    w->pairs = 0; /* opponents changed: tick.c looks again */
    w->grabs = 0;
    w->teams = 0;
    if (w->state->nslots > 0) {
        const fg_ruleset *r = w->versions[w->state->slot_version[es->rules_slot]];
        for (uint32_t k = 0; k < r->nresources; k++) es->res[k] = r->resources[k].start;
        fg_vars_spawn(r, es);
        fg_motion_state_init(r->motion_set, fg_world_motion_at(w, slot), w->state->tick - 1);
        fg_world_start_neutral(w, es, w->state->tick, FG_TR_SPAWN);
    }
    if (out) *out = es->id;
    return FG_OK;
}

uint32_t fg_world_entity_count(const fg_world *w) { return w->state->nentities; }

size_t fg_world_memory(const fg_world *w) {
    return sizeof *w + w->arena_size + CACHE_LINE - 1 + sizeof(fg_input_map) * w->max_entities +
           sizeof(fg_device_state) * w->max_entities + (size_t)FG_METER_TICKS * w->max_entities +
           sizeof(fg_trace_record) * w->trace_cap + w->trace_text_cap +
           sizeof(fg_candidate) * w->cap_cands +
           sizeof(fg_event) * w->cap_events +
           (sizeof(fg_motion_command) * FG_COMMANDS_PER_TICK + 1) * w->max_entities +
           hash_keep_bytes(w->max_entities) +
           fg_collide_space_bytes(w->max_entities) + fg_projectile_space_bytes(w->pspace.cap) +
           sizeof(fg_var_proposal) * w->cap_proposals;
}
bool fg_world_entity_exists(const fg_world *w, fg_entity e) { return fg_world_entity(w, e) != NULL; }

const fg_buffer *fg_world_buffer(const fg_world *w, fg_entity e) {
    return fg_world_entity(w, e) ? fg_world_buffer_at(w, e - 1) : NULL;
}

const fg_ground *fg_world_ground(const fg_world *w, fg_entity e) {
    fg_entity_state *es = fg_world_entity(w, e);
    return es ? &es->ground : NULL;
}

const fg_action_names *fg_world_action_names(const fg_world *w) { return &w->names; }

fg_entity fg_world_opponent(const fg_world *w, fg_entity e) {
    const fg_entity_state *es = fg_world_entity(w, e);
    return es ? es->opponent : 0;
}

fg_facing fg_world_facing(const fg_world *w, fg_entity e) {
    fg_entity_state *es = fg_world_entity(w, e);
    return es ? (fg_facing)es->facing : FG_FACING_RIGHT;
}

fg_status fg_world_set_facing(fg_world *w, fg_entity e, fg_facing f, fg_error *err) {
    fg_entity_state *es = fg_world_entity(w, e);
    if (!es) return fg_world_no_entity(w, e, err);
    if (f != FG_FACING_RIGHT && f != FG_FACING_LEFT)
        return fg_error_set(err, FG_EINVAL, "facing: %d, expected right (0) or left (1)", (int)f);
    fg_world_note_edit(w, "facing");
    es->facing = (uint8_t)f;
    fg_buffer_set_facing(fg_world_buffer_at(w, e - 1), f);
    return FG_OK;
}

void fg_world_position(const fg_world *w, fg_entity e, fg_fx *x, fg_fx *y) {
    fg_entity_state *es = fg_world_entity(w, e);
    if (x) *x = es ? es->x : 0;
    if (y) *y = es ? es->y : 0;
}

fg_status fg_world_set_position(fg_world *w, fg_entity e, fg_fx x, fg_fx y, fg_error *err) {
    fg_entity_state *es = fg_world_entity(w, e);
    if (!es) return fg_world_no_entity(w, e, err);
    if (check_position("set_position", x, y, err) != FG_OK) return FG_EINVAL;
    fg_world_note_edit(w, "position");
    es->x = es->prev_x = x;
    es->y = es->prev_y = y;
    fg_world_stage_place(w, es);
    return FG_OK;
}

int32_t fg_world_resource(const fg_world *w, fg_entity e, uint32_t resource) {
    fg_entity_state *es = fg_world_entity(w, e);
    return es && resource < FG_MAX_RESOURCES ? es->res[resource] : 0;
}

fg_status fg_world_set_resource(fg_world *w, fg_entity e, uint32_t resource, int32_t value,
                                fg_error *err) {
    fg_entity_state *es = fg_world_entity(w, e);
    if (!es) return fg_world_no_entity(w, e, err);
    const fg_ruleset *r = fg_world_rules(w, e);
    if (!r || resource >= r->nresources)
        return fg_error_set(err, FG_ENOTFOUND, "resource id %u does not exist", resource);
    const fg_resource_def *d = &r->resources[resource];
    if (value < 0 || value > d->max)
        return fg_error_set(err, FG_EINVAL, "resource %s: %d, expected 0..%d", d->name, value,
                            d->max);
    fg_world_note_edit(w, "resource");
    es->res[resource] = value;
    return FG_OK;
}

int32_t fg_world_frozen_for(const fg_world *w, fg_entity e) {
    fg_entity_state *es = fg_world_entity(w, e);
    if (!es || es->frozen_until <= w->state->tick) return 0; /* frozen_from is <= tick here */
    return (int32_t)(es->frozen_until - w->state->tick);
}

const fg_instance *fg_world_instance(const fg_world *w, fg_entity e, uint32_t layer) {
    fg_entity_state *es = fg_world_entity(w, e);
    return es && layer < FG_MAX_LAYERS ? &es->layers[layer] : NULL;
}

const fg_decision *fg_world_last_decision(const fg_world *w, fg_entity e) {
    fg_entity_state *es = fg_world_entity(w, e);
    return es && es->last_decision.action != FG_NO_ACTION ? &es->last_decision : NULL;
}

fg_phase fg_world_phase(const fg_world *w, fg_entity e, uint32_t layer) {
    fg_entity_state *es = fg_world_entity(w, e);
    if (!es || layer >= FG_MAX_LAYERS || es->layers[layer].action == FG_NO_ACTION)
        return FG_PHASE_NEUTRAL;
    const fg_instance *inst = &es->layers[layer];
    return fg_instance_phase(w->versions[inst->version], inst, es, w->state->tick - 1, layer);
}

int fg_world_describe_layer(const fg_world *w, fg_entity e, uint32_t layer, char *buf,
                            size_t size) {
    fg_entity_state *es = fg_world_entity(w, e);
    if (!es || layer >= FG_MAX_LAYERS || es->layers[layer].action == FG_NO_ACTION)
        return snprintf(buf, size, "(none)");
    const fg_instance *inst = &es->layers[layer];
    const fg_ruleset *r = w->versions[inst->version];
    const fg_action_rt *a = &r->rt[inst->action];
    fg_phase p = fg_instance_phase(r, inst, es, w->state->tick - 1, layer);
    return snprintf(buf, size, "%s/%s (%s, tick %d of %d)", r->groups[a->group],
                    r->defs[inst->action].name, fg_phase_name(p), inst->elapsed, inst->duration);
}

fg_decision fg_world_evaluate(const fg_world *w, fg_entity e, uint32_t action,
                              fg_request_source src) {
    fg_entity_state *es = fg_world_entity(w, e);
    fg_decision d;
    memset(&d, 0, sizeof d);
    d.action = (uint16_t)action;
    d.current = d.other = FG_NO_ACTION;
    d.kind = FG_DECIDE_REJECTED;
    d.reason = FG_R_UNKNOWN_ACTION;
    if (!es || w->state->nslots == 0) return d;
    fg_decide_ctx c = fg_world_ctx(w, es, w->state->tick);
    return fg_decide(&c, es, action, src);
}

fg_status fg_world_request(fg_world *w, fg_entity e, uint32_t action, fg_request_source src,
                           fg_error *err) {
    fg_entity_state *es = fg_world_entity(w, e);
    if (!es) return fg_world_no_entity(w, e, err);
    const fg_ruleset *r = fg_world_rules(w, e);
    if (!r) return fg_error_set(err, FG_ESTATE, "request: the world has no rules loaded");
    if (action >= r->nactions)
        return fg_error_set(err, FG_ENOTFOUND, "request: action id %u does not exist (%u "
                            "actions)", action, r->nactions);
    if (es->npending == FG_PENDING_REQUESTS)
        return fg_error_set(err, FG_ENOMEM, "request: %d requests already wait for the next tick",
                            FG_PENDING_REQUESTS);
    fg_world_note_side_input(w, "request");
    es->pending[es->npending].action = (uint16_t)action;
    es->pending[es->npending].source = (uint8_t)src;
    es->npending++;
    return FG_OK;
}

/* }====================================================================== */

/* {====================================================================== hash and snapshots */

fg_tick fg_world_tick(const fg_world *w) { return w->state->tick; }
uint32_t fg_world_tick_rate(const fg_world *w) { return w->tick_rate; }

const fg_tick_input *fg_world_last_input(const fg_world *w, fg_entity e) {
    fg_entity_state *es = fg_world_entity(w, e);
    return es ? &es->last_input : NULL;
}

const fg_jump_decision *fg_world_last_jump(const fg_world *w, fg_entity e) {
    fg_entity_state *es = fg_world_entity(w, e);
    return es ? &es->last_jump : NULL;
}

uint64_t fg_world_fold_edge(uint64_t digest, const fg_edge *e) {
    fg_hasher hs = {digest, 0};
    fg_hash_mix(&hs, e->id);
    fg_hash_mix(&hs, (uint64_t)e->time_us);
    fg_hash_mix(&hs, (uint64_t)e->tick);
    fg_hash_mix(&hs, (uint64_t)e->kind | (uint64_t)e->action << 8 | (uint64_t)e->dir << 16 |
                         (uint64_t)e->prev_dir << 24 | (uint64_t)e->facing << 32 |
                         (uint64_t)e->source << 40 | (uint64_t)(e->flags & FG_EDGE_LATE) << 48);
    return hs.h;
}

int64_t fg_world_random(fg_world *w, int64_t lo, int64_t hi) {
    return fg_rng_range(&w->state->rng, lo, hi);
}

/* A snapshot is the header below, then the arena's sections for the spawned entities only (the
** unused slots of a world sized for more are not copied): world state (with the projectile
** pool), entity records, input buffers, dispatch ledgers, matcher states. */
static size_t state_section(const fg_world *w) {
    return align16(sizeof(fg_world_state)) + fg_projectile_pool_bytes(w->pspace.cap);
}

size_t fg_world_snapshot_bytes(const fg_world *w, uint32_t n) {
    return state_section(w) + (size_t)n * (sizeof(fg_entity_state) + w->buffer_stride +
                                          w->ledger_stride + w->motion_stride);
}

size_t fg_world_snapshot_size(const fg_world *w) {
    return sizeof(snapshot_header) + fg_world_snapshot_bytes(w, w->state->nentities);
}

size_t fg_world_snapshot_capacity(const fg_world *w) {
    return sizeof(snapshot_header) + fg_world_snapshot_bytes(w, w->max_entities);
}

static fg_status save_snapshot(const fg_world *w, void *buf, size_t size, bool seal,
                               fg_error *err) {
    size_t need = fg_world_snapshot_size(w);
    if (!buf || size < need)
        return fg_error_set(err, FG_EINVAL, "snapshot buffer: %zu bytes, need %zu", size, need);
    uint32_t n = w->state->nentities;
    snapshot_header h = {SNAPSHOT_MAGIC, n, w->state->layout, need - sizeof h, 0};
    unsigned char *p = buf, *body = p + sizeof h;
    p += sizeof h;
    memcpy(p, w->state, state_section(w));
    p += state_section(w);
    memcpy(p, w->entities, sizeof(fg_entity_state) * n);
    p += sizeof(fg_entity_state) * n;
    memcpy(p, w->buffers, w->buffer_stride * n);
    p += w->buffer_stride * n;
    memcpy(p, w->ledgers, w->ledger_stride * n);
    p += w->ledger_stride * n;
    memcpy(p, w->motions, w->motion_stride * n);
    if (seal) h.check = fg_snapshot_checksum(&h, body);
    memcpy(buf, &h, sizeof h);
    return FG_OK;
}

fg_status fg_world_save(const fg_world *w, void *buf, size_t size, fg_error *err) {
    return save_snapshot(w, buf, size, true, err);
}

void fg_world_save_trusted(const fg_world *w, void *buf, size_t size) {
    save_snapshot(w, buf, size, false, NULL);
}

static fg_status restore_snapshot(fg_world *w, const void *buf, size_t size, bool trusted,
                                  fg_error *err) {
    snapshot_header h;
    if (!buf || size < sizeof h)
        return fg_error_set(err, FG_EINVAL, "snapshot: %zu bytes is too short for a header", size);
    memcpy(&h, buf, sizeof h);
    if (h.magic != SNAPSHOT_MAGIC)
        return fg_error_set(err, FG_EFORMAT, "snapshot: bad magic 0x%08x, not a world snapshot",
                            h.magic);
    if (h.layout != w->state->layout || h.entities > w->max_entities)
        return fg_error_set(err, FG_EMISMATCH,
                            "snapshot: taken from a world with another layout (layout "
                            "%016llx, %u entities; this world has layout %016llx, room for %u)",
                            (unsigned long long)h.layout, h.entities,
                            (unsigned long long)w->state->layout, w->max_entities);
    size_t body = fg_world_snapshot_bytes(w, h.entities);
    if (h.size != body || size < sizeof h + body)
        return fg_error_set(err, FG_EFORMAT, "snapshot: %zu bytes for %u entities, expected %zu",
                            size, h.entities, sizeof h + body);
    const unsigned char *p = (const unsigned char *)buf + sizeof h;
    fg_status st = trusted ? FG_OK : fg_snapshot_check(w, &h, p, err);
    if (st != FG_OK) return st;
    fg_world_note_edit(w, "restore");
    w->pairs = 0; /* opponents may differ: tick.c looks again */
    w->grabs = 0; /* and who is held: throw.c looks again */
    w->teams = 0; /* and who has a team */
    uint32_t n = h.entities;
    memcpy(w->state, p, state_section(w));
    p += state_section(w);
    memcpy(w->entities, p, sizeof(fg_entity_state) * n);
    p += sizeof(fg_entity_state) * n;
    memcpy(w->buffers, p, w->buffer_stride * n);
    p += w->buffer_stride * n;
    memcpy(w->ledgers, p, w->ledger_stride * n);
    p += w->ledger_stride * n;
    memcpy(w->motions, p, w->motion_stride * n);
    /* The hash's kept folds are recomputed, never trusted from the bytes. */
    for (uint32_t i = 0; i < n; i++) {
        fg_dispatcher_refold(fg_world_ledger_at(w, i));
        const fg_ruleset *r = w->state->nslots ? fg_world_rules_of(w, &w->entities[i]) : NULL;
        if (r && r->motion_set) fg_motion_state_region_forget(fg_world_motion_at(w, i));
    }
    /* Trace records of ticks that are now in the future did not happen. */
    while (w->trace_count > 0) {
        uint32_t last = (w->trace_head + w->trace_count - 1) % w->trace_cap;
        if (w->trace[last].tick < w->state->tick) break;
        w->trace_count--;
    }
    return FG_OK;
}

fg_status fg_world_restore(fg_world *w, const void *buf, size_t size, fg_error *err) {
    return restore_snapshot(w, buf, size, false, err);
}

void fg_world_restore_trusted(fg_world *w, const void *buf, size_t size) {
    restore_snapshot(w, buf, size, true, NULL);
}

/* }====================================================================== */
