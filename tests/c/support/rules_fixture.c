/* SPDX-License-Identifier: MIT */
/* rules_fixture.c: the test fighter and duel helpers declared in rules_fixture.h. */
#include "rules_fixture.h"

#include <stdio.h>
#include <string.h>

/* {====================================================================== actions */

fg_action_def fgt_action(const char *name, int startup, int active, int recovery) {
    fg_action_def a = fg_action_def_default(name);
    a.startup = startup;
    a.active = active;
    a.recovery = recovery;
    a.duration = startup + active + recovery;
    return a;
}

fg_action_def fgt_neutral(const char *name, int hold) {
    fg_action_def a = fg_action_def_default(name);
    a.neutral = true;
    a.loop = true;
    a.hold_dir = hold;
    return a;
}

void fgt_tag(fg_action_def *a, const char *tag) {
    assert_true(a->ntags < FG_MAX_TAGS);
    snprintf(a->tags[a->ntags++], FG_NAME_MAX, "%s", tag);
}

void fgt_cancel(fg_action_def *a, int from, int to, fg_contact on, int buffer, const char *into) {
    assert_true(a->ncancels < FG_MAX_CANCELS);
    fg_cancel_def *c = &a->cancels[a->ncancels++];
    memset(c, 0, sizeof *c);
    c->from = from;
    c->to = to;
    c->on = on;
    c->buffer = buffer;
    const char *p = into;
    while (*p) {
        while (*p == ' ') p++;
        size_t n = strcspn(p, " ");
        if (n == 0) break;
        assert_true(c->ntargets < FG_MAX_TARGETS && n < FG_NAME_MAX);
        memcpy(c->targets[c->ntargets], p, n);
        c->targets[c->ntargets++][n] = '\0';
        p += n;
    }
}

void fgt_marker(fg_action_def *a, int tick, const char *name) {
    assert_true(a->nmarkers < FG_MAX_MARKERS);
    fg_marker_def *m = &a->markers[a->nmarkers++];
    memset(m, 0, sizeof *m);
    m->tick = tick;
    snprintf(m->name, sizeof m->name, "%s", name);
}

void fgt_cost(fg_action_def *a, const char *resource, int amount) {
    assert_true(a->ncosts < FG_MAX_RESOURCES);
    snprintf(a->cost_names[a->ncosts], FG_NAME_MAX, "%s", resource);
    a->cost[a->ncosts++] = amount;
}

void fgt_hit(fg_action_def *a, int tick, int range, int damage, int hitstop, int hitstun,
             int blockstun) {
    fgt_marker(a, tick, "hit");
    a->hit.enabled = true;
    a->hit.range = FG_FX(range);
    a->hit.damage = damage;
    a->hit.hitstop = hitstop;
    a->hit.hitstun = hitstun;
    a->hit.blockstun = blockstun;
}

void fgt_add(fg_ruleset_builder *b, const fg_action_def *a) {
    fg_error err;
    if (fg_ruleset_add_action(b, a, &err) != FG_OK) fail_msg("add %s: %s", a->name, fg_error_message(&err));
}

void fgt_resource(fg_ruleset_builder *b, const char *name, int max, int start) {
    fg_resource_def r;
    memset(&r, 0, sizeof r);
    snprintf(r.name, sizeof r.name, "%s", name);
    r.max = max;
    r.start = start;
    r.regen_every = 1;
    fg_error err;
    if (fg_ruleset_add_resource(b, &r, &err) != FG_OK) fail_msg("resource: %s", fg_error_message(&err));
}

fg_findings *fgt_findings(void) {
    fg_findings *f = NULL;
    fg_error err;
    if (fg_findings_create(NULL, &f, &err) != FG_OK) fail_msg("%s", fg_error_message(&err));
    return f;
}

fg_ruleset *fgt_build(fg_ruleset_builder *b) {
    fg_findings *f = fgt_findings();
    fg_error err;
    fg_ruleset *r = fg_ruleset_build(b, f, &err);
    fg_ruleset_builder_destroy(b);
    if (!r) {
        for (uint32_t i = 0; i < fg_findings_count(f); i++)
            print_error("finding: %s: %s\n", fg_findings_get(f, i).path,
                        fg_findings_get(f, i).message);
        fg_findings_destroy(f);
        fail_msg("build: %s", fg_error_message(&err));
    }
    fg_findings_destroy(f);
    return r;
}

fg_ruleset_builder *fgt_fighter_builder(const fg_allocator *alloc) {
    fg_ruleset_builder *b = fg_ruleset_builder_create("tester", alloc);
    assert_non_null(b);
    fg_ruleset_add_button(b, "LP", NULL);
    fg_ruleset_add_button(b, "HP", NULL);
    fg_ruleset_add_layer(b, "body", NULL);
    fg_ruleset_add_layer(b, "upper", NULL);
    fgt_resource(b, "health", 1000, 1000);
    fgt_resource(b, "meter", 300, 0);

    fg_action_def a = fgt_neutral("idle", 0);
    fgt_add(b, &a);
    a = fgt_neutral("walk_back", 4);
    fgt_add(b, &a);
    a = fgt_neutral("crouch", 2);
    a.priority = 1;
    fgt_add(b, &a);

    a = fgt_action("jab", 4, 2, 7);
    snprintf(a.input, sizeof a.input, "LP");
    fgt_tag(&a, "normal");
    fgt_hit(&a, 4, 70, 30, 6, 13, 9);
    fgt_cancel(&a, 4, 12, FG_ON_HIT, 4, "special");
    snprintf(a.requires, sizeof a.requires, "grounded");
    fgt_add(b, &a);

    a = fgt_action("probe", 4, 2, 14);
    fgt_tag(&a, "normal");
    fgt_hit(&a, 4, 70, 10, 0, 30, 30);
    fgt_cancel(&a, 6, 9, FG_ON_HIT, 0, "a_hit");
    fgt_cancel(&a, 7, 10, FG_ON_BLOCK, 0, "a_block");
    fgt_cancel(&a, 8, 11, FG_ON_WHIFF, 0, "a_whiff");
    fgt_cancel(&a, 9, 12, FG_ON_CONTACT, 0, "a_contact");
    fgt_cancel(&a, 10, 14, FG_ON_ALWAYS, 0, "a_always");
    fgt_add(b, &a);
    static const char *const follow[] = {"a_hit", "a_block", "a_whiff", "a_contact", "a_always"};
    for (int i = 0; i < 5; i++) {
        a = fgt_action(follow[i], 1, 1, 1);
        fgt_add(b, &a);
    }

    a = fgt_action("stance", 2, 0, 20);
    fgt_cancel(&a, 2, 21, FG_ON_ALWAYS, 0, "normal");
    fgt_add(b, &a);

    a = fgt_action("fireball", 13, 2, 31);
    fgt_tag(&a, "special");
    fgt_add(b, &a);
    a = fgt_action("shoryuken", 3, 10, 28);
    fgt_tag(&a, "special");
    fgt_cost(&a, "meter", 100);
    snprintf(a.requires, sizeof a.requires, "grounded");
    fgt_add(b, &a);
    a = fgt_action("super", 5, 6, 40);
    fgt_cost(&a, "meter", 200);
    a.interrupts = true;
    fgt_add(b, &a);

    a = fgt_action("jump", 4, 0, 56);
    snprintf(a.group, sizeof a.group, "airborne");
    snprintf(a.requires, sizeof a.requires, "grounded");
    fgt_tag(&a, "movement");
    a.nmoves = 1;
    a.moves[0] = (fg_move_def){.from = 4, .to = 4, .vy = FG_FX(11)};
    fgt_add(b, &a);
    a = fgt_action("dash", 2, 10, 6);
    fgt_tag(&a, "movement");
    fgt_add(b, &a);

    a = fgt_action("hitstun", 0, 0, 1);
    a.interrupts = true;
    fgt_add(b, &a);
    a = fgt_action("blockstun", 0, 0, 1);
    fgt_add(b, &a);

    a = fgt_neutral("upper_idle", 0);
    snprintf(a.layer, sizeof a.layer, "upper");
    fgt_add(b, &a);
    a = fgt_action("taunt", 10, 20, 10);
    snprintf(a.layer, sizeof a.layer, "upper");
    a.nforbids = 1;
    snprintf(a.forbids[0], FG_NAME_MAX, "movement");
    fgt_add(b, &a);
    return b;
}

fg_ruleset *fgt_fighter(void) { return fgt_build(fgt_fighter_builder(NULL)); }

/* }====================================================================== */

/* {====================================================================== duels */

fgt_duel fgt_duel_new(fg_ruleset *r, int distance, const fg_world_hooks *hooks,
                      const fg_allocator *alloc) {
    fgt_duel d;
    memset(&d, 0, sizeof d);
    d.r = r;
    fg_world_config c = fg_world_config_default();
    c.rules = r;
    if (hooks) c.hooks = *hooks;
    if (alloc) c.allocator = *alloc;
    fg_error err;
    d.w = fg_world_create(&c, &err);
    if (!d.w) fail_msg("world: %s", fg_error_message(&err));
    fg_spawn s;
    memset(&s, 0, sizeof s);
    s.grounded = true;
    s.x = FG_FX(-35);
    s.facing = FG_FACING_RIGHT;
    if (fg_world_spawn(d.w, &s, &d.p1, &err) != FG_OK) fail_msg("spawn: %s", fg_error_message(&err));
    s.x = FG_FX(-35 + distance);
    s.facing = FG_FACING_LEFT;
    if (fg_world_spawn(d.w, &s, &d.p2, &err) != FG_OK) fail_msg("spawn: %s", fg_error_message(&err));
    return d;
}

void fgt_duel_free(fgt_duel *d) {
    fg_world_destroy(d->w);
    fg_ruleset_unref(d->r);
    memset(d, 0, sizeof *d);
}

uint32_t fgt_id(const fg_ruleset *r, const char *name) {
    int id = fg_ruleset_find_action(r, name);
    if (id < 0) fail_msg("no action '%s'", name);
    return (uint32_t)id;
}

const char *fgt_name(const fg_ruleset *r, uint32_t id) {
    const fg_action_def *a = fg_ruleset_action(r, id);
    return a ? a->name : "(none)";
}

void fgt_request(fgt_duel *d, fg_entity e, const char *action) {
    fg_error err;
    if (fg_world_request(d->w, e, fgt_id(d->r, action), FG_REQ_AI, &err) != FG_OK)
        fail_msg("request %s: %s", action, fg_error_message(&err));
}

void fgt_run(fgt_duel *d, int ticks) {
    fg_error err;
    for (int i = 0; i < ticks; i++)
        if (fg_world_advance(d->w, &err) != FG_OK) fail_msg("advance: %s", fg_error_message(&err));
}

void fgt_hold(fgt_duel *d, fg_entity e, int numpad) {
    fg_error err;
    int abs = fg_numpad_relative(numpad, fg_world_facing(d->w, e));
    int64_t us = fg_us_of_tick(fg_world_tick(d->w), fg_world_tick_rate(d->w));
    if (fg_world_direction(d->w, e, abs, us, FG_SOURCE_SCRIPT, &err) != FG_OK)
        fail_msg("direction: %s", fg_error_message(&err));
}

void fgt_set_meter(fgt_duel *d, fg_entity e, int value) {
    fg_error err;
    int k = fg_ruleset_find_resource(d->r, "meter");
    assert_true(k >= 0);
    if (fg_world_set_resource(d->w, e, (uint32_t)k, value, &err) != FG_OK)
        fail_msg("meter: %s", fg_error_message(&err));
}

const fg_decision *fgt_decision(const fgt_duel *d, fg_entity e, fg_tick t, int nth) {
    for (uint32_t i = 0; i < fg_world_trace_count(d->w); i++) {
        const fg_trace_record *rec = fg_world_trace_at(d->w, i);
        if (rec->kind != FG_TRACE_DECISION || rec->entity != e || rec->tick != t) continue;
        if (nth-- == 0) return &rec->decision;
    }
    return NULL;
}

int fgt_decision_count(const fgt_duel *d, fg_entity e) {
    int n = 0;
    for (uint32_t i = 0; i < fg_world_trace_count(d->w); i++) {
        const fg_trace_record *rec = fg_world_trace_at(d->w, i);
        n += rec->kind == FG_TRACE_DECISION && rec->entity == e;
    }
    return n;
}

const char *fgt_text(const fgt_duel *d, const fg_decision *dec, char *buf, size_t size) {
    if (!dec) return "(no decision)";
    fg_decision_describe(d->r, dec, buf, size);
    return buf;
}

const char *fgt_running(const fgt_duel *d, fg_entity e, uint32_t layer) {
    const fg_instance *inst = fg_world_instance(d->w, e, layer);
    if (!inst || inst->action == FG_NO_ACTION) return "(none)";
    return fgt_name(fg_world_rules_version(d->w, inst->version), inst->action);
}

/* }====================================================================== */

/* }====================================================================== */
