/* SPDX-License-Identifier: MIT */
/*
** test_determinism_replay.c: recording a world and playing it back. A recording replays to the
** same checkpoints tick by tick and through the host loop at 30, 60, 120, 144 and 240 fps with
** jittered frames; a changed rule is caught at the first tick it changes something; hot reloads
** are recorded with their source and replayed; what input records cannot carry is refused with
** the tick named; bad replays and wrong rules are refused with nothing changed; recording
** allocates nothing per tick.
*/
#include "fg_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fg_det_fixture.h"

typedef struct mem {
    unsigned char *b;
    size_t n, cap;
} mem;

static fg_status mem_sink(void *ud, const void *data, size_t len, fg_error *err) {
    mem *m = ud;
    if (m->n + len > m->cap) return fg_error_set(err, FG_ENOMEM, "test sink full");
    memcpy(m->b + m->n, data, len);
    m->n += len;
    return FG_OK;
}

static mem mem_new(void) {
    mem m = {malloc(4u << 20), 0, 4u << 20};
    assert_non_null(m.b);
    return m;
}

static fg_world_hooks no_hooks(void) {
    fg_world_hooks h;
    memset(&h, 0, sizeof h);
    return h;
}

/* Records `ticks` ticks of random input from a fresh fixture world; returns its final hash. */
static uint64_t record(fg_ruleset *r, uint64_t seed, int ticks, uint32_t every, mem *out) {
    fg_world *w = fg_det_world(r, seed, NULL, no_hooks());
    fg_record_options o;
    memset(&o, 0, sizeof o);
    o.checkpoint_every = every;
    fg_recorder *rec;
    fg_error err;
    if (fg_recorder_create_sink(w, mem_sink, out, &o, &rec, &err) != FG_OK) fail_msg("%s", fg_error_message(&err));
    fg_input_fuzz fz;
    fg_input_fuzz_init(&fz, seed);
    for (int t = 0; t < ticks; t++) {
        fg_input_fuzz_tick(&fz, w, NULL);
        fg_world_advance(w, NULL);
        if (fg_recorder_tick(rec, &err) != FG_OK) fail_msg("tick %d: %s", t, fg_error_message(&err));
    }
    assert_int_equal(fg_recorder_finish(rec, &err), FG_OK);
    fg_recorder_destroy(rec);
    uint64_t h = fg_world_hash(w);
    fg_world_destroy(w);
    return h;
}

static fg_world *setup(fg_ruleset *r, fg_replay_reader *rd, fg_world_hooks hooks) {
    fg_world_config c = fg_world_config_default();
    fg_error err;
    assert_int_equal(fg_replay_world_config(rd, &c, &err), FG_OK);
    c.rules = r;
    c.hooks = hooks;
    fg_world *w = fg_world_create(&c, &err);
    assert_non_null(w);
    if (fg_replay_setup(w, rd, &err) != FG_OK) fail_msg("%s", fg_error_message(&err));
    return w;
}

static fg_replay_reader *open_mem(const mem *m) {
    fg_replay_reader *rd;
    fg_error err;
    if (fg_replay_reader_create_memory(m->b, m->n, NULL, &rd, &err) != FG_OK)
        fail_msg("%s", fg_error_message(&err));
    return rd;
}

/* Tick by tick and through the host loop at every display rate: the same checkpoints, the same
** final hash as the recording. */
static void replay_matches_at_every_display_rate(void **state) {
    (void)state;
    fg_ruleset *r = fg_det_rules(20);
    mem m = mem_new();
    uint64_t final = record(r, 21, 1500, 30, &m);
    fg_replay_reader *rd = open_mem(&m);
    assert_true(fg_replay_reader_stats(rd)->by_type[FG_REPLAY_COMMAND] > 10);
    static const uint32_t rates[] = {0, 30, 60, 120, 144, 240};
    for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++) {
        fg_world *w = setup(r, rd, no_hooks());
        fg_player_options o;
        memset(&o, 0, sizeof o);
        o.fps = rates[i];
        o.jitter_pct = 35;
        o.jitter_seed = 100 + i;
        fg_player *p;
        fg_error err;
        assert_int_equal(fg_player_create(w, rd, &o, &p, &err), FG_OK);
        if (fg_player_run(p, &err) != FG_OK) fail_msg("%u fps: %s", rates[i], fg_error_message(&err));
        const fg_player_status *s = fg_player_get_status(p);
        assert_true(s->done);
        assert_int_equal(s->checkpoints, 51); /* 50 checkpoints and the final hash */
        assert_int_equal(fg_world_hash(w), final);
        if (rates[i]) assert_true(s->frames > 0);
        assert_int_equal(fg_player_step(p, &err), FG_ESTATE);
        assert_non_null(strstr(fg_error_message(&err), "the replay has ended (tick 1499)"));
        fg_player_destroy(p);
        fg_world_destroy(w);
    }
    fg_replay_reader_destroy(rd);
    free(m.b);
    fg_ruleset_unref(r);
}

/* A request rule that did not run in the recording changes a decision: the player stops at the
** first tick whose commands or hash differ from the recording and says what. */
typedef struct veto {
    int calls;
} veto;
static bool always(void *ud, const fg_world *w, uint32_t slot) {
    (void)ud;
    (void)w;
    (void)slot;
    return true;
}
static fg_status veto_fireballs(void *ud, fg_world *w, const fg_decision *d, fg_verdict *out,
                                fg_error *err) {
    (void)err;
    veto *v = ud;
    v->calls++;
    const fg_ruleset *r = fg_world_rules(w, d->entity);
    bool fireball = strcmp(fg_ruleset_action(r, d->action)->name, "fireball") == 0;
    out->kind = fireball ? FG_VERDICT_REJECT : FG_VERDICT_DEFAULT;
    return FG_OK;
}

static void player_reports_the_first_tick_that_differs(void **state) {
    (void)state;
    fg_ruleset *r = fg_det_rules(20);
    mem m = mem_new();
    record(r, 21, 1500, 60, &m);
    fg_replay_reader *rd = open_mem(&m);
    veto v = {0};
    fg_world_hooks h = {&v, always, veto_fireballs};
    fg_world *w = setup(r, rd, h);
    fg_player *p;
    fg_error err;
    assert_int_equal(fg_player_create(w, rd, NULL, &p, &err), FG_OK);
    assert_int_equal(fg_player_run(p, &err), FG_EMISMATCH);
    const fg_player_status *s = fg_player_get_status(p);
    assert_true(s->diverged);
    assert_true(s->divergent_tick > s->last_good_tick);
    char want[64];
    snprintf(want, sizeof want, "replay: tick %lld: ", (long long)s->divergent_tick);
    assert_non_null(strstr(fg_error_message(&err), want));
    assert_true(strstr(fg_error_message(&err), "state hash") || strstr(fg_error_message(&err), "motion command"));
    assert_int_equal(fg_player_step(p, &err), FG_ESTATE);
    assert_non_null(strstr(fg_error_message(&err), "diverged at tick"));
    fg_player_destroy(p);
    fg_world_destroy(w);
    fg_replay_reader_destroy(rd);
    free(m.b);
    fg_ruleset_unref(r);
}

/* The same diverging world fed the recorded input only (a what-if): nothing is verified, every
** edge goes in on its tick and the replay runs to its end with the world's own outcome. */
static void inputs_only_runs_other_rules_to_the_end(void **state) {
    (void)state;
    fg_ruleset *r = fg_det_rules(20);
    mem m = mem_new();
    uint64_t recorded = record(r, 21, 1500, 60, &m);
    fg_replay_reader *rd = open_mem(&m);
    fg_error err;
    /* The reference: the recorded world, verified. */
    fg_world *ref = setup(r, rd, no_hooks());
    fg_player *p;
    assert_int_equal(fg_player_create(ref, rd, NULL, &p, &err), FG_OK);
    assert_int_equal(fg_player_run(p, &err), FG_OK);
    uint64_t inputs = fg_player_get_status(p)->inputs;
    fg_player_destroy(p);
    veto v = {0};
    fg_world_hooks h = {&v, always, veto_fireballs};
    fg_world *w = setup(r, rd, h);
    fg_player_options o;
    memset(&o, 0, sizeof o);
    o.inputs_only = true;
    assert_int_equal(fg_player_create(w, rd, &o, &p, &err), FG_OK);
    assert_int_equal(fg_player_run(p, &err), FG_OK);
    const fg_player_status *s = fg_player_get_status(p);
    assert_true(s->done);
    assert_false(s->diverged);
    assert_int_equal(s->checkpoints, 0);
    assert_int_equal(s->commands, 0);
    assert_int_equal(s->inputs, inputs);
    assert_int_equal(fg_world_tick(w), fg_world_tick(ref));
    assert_true(v.calls > 0);
    /* Without the fireballs the match ends elsewhere. */
    assert_true(fg_world_hash(w) != recorded);
    assert_true(fg_world_hash(ref) == recorded);
    fg_player_destroy(p);
    fg_world_destroy(w);
    fg_world_destroy(ref);
    fg_replay_reader_destroy(rd);
    free(m.b);
    fg_ruleset_unref(r);
}

/* A hot reload: recorded with its tick, both hashes and the new source; replayed by loading it. */
static fg_status reload_from_text(void *ud, fg_world *w, uint32_t slot,
                                  const fg_replay_reload *rec, fg_error *err) {
    int *calls = ud;
    (*calls)++;
    int damage = 0;
    if (rec->nfiles != 1 || sscanf(rec->files[0].text.s, "jab damage %d", &damage) != 1)
        return fg_error_set(err, FG_EFORMAT, "unexpected reload source");
    fg_ruleset *nr = fg_det_rules(damage);
    fg_status s = fg_world_replace_rules(w, slot, nr, err);
    fg_ruleset_unref(nr);
    return s;
}

static void reload_is_recorded_with_its_source_and_replayed(void **state) {
    (void)state;
    fg_ruleset *a = fg_det_rules(20), *b = fg_det_rules(45);
    fg_world *w = fg_det_world(a, 8, NULL, no_hooks());
    mem m = mem_new();
    fg_recorder *rec;
    fg_error err;
    assert_int_equal(fg_recorder_create_sink(w, mem_sink, &m, NULL, &rec, &err), FG_OK);
    fg_input_fuzz fz;
    fg_input_fuzz_init(&fz, 8);
    fg_replay_file file = {fg_replay_str_of("boxer.rules"), fg_replay_str_of("jab damage 45")};
    for (int t = 0; t < 900; t++) {
        if (t == 300) {
            assert_int_equal(fg_world_replace_rules(w, 0, b, &err), FG_OK);
            assert_int_equal(fg_world_record_reload(rec, 0, &file, 1, &err), FG_OK);
        }
        fg_input_fuzz_tick(&fz, w, NULL);
        fg_world_advance(w, NULL);
        assert_int_equal(fg_recorder_tick(rec, &err), FG_OK);
    }
    assert_int_equal(fg_recorder_finish(rec, &err), FG_OK);
    fg_recorder_destroy(rec);
    uint64_t final = fg_world_hash(w);
    fg_world_destroy(w);

    fg_replay_reader *rd = open_mem(&m);
    fg_replay_record r;
    bool found = false;
    while (fg_replay_next(rd, &r, NULL) == FG_OK && r.type != FG_REPLAY_END)
        if (r.type == FG_REPLAY_RELOAD) {
            found = true;
            assert_int_equal(r.as.reload.tick, 300);
            assert_int_equal(r.as.reload.old_hash, fg_ruleset_hash(a));
            assert_int_equal(r.as.reload.new_hash, fg_ruleset_hash(b));
            assert_string_equal(r.as.reload.files[0].text.s, "jab damage 45");
        }
    assert_true(found);
    int calls = 0;
    fg_world *p1 = setup(a, rd, no_hooks());
    fg_player_options o;
    memset(&o, 0, sizeof o);
    o.reload = reload_from_text;
    o.ud = &calls;
    fg_player *p;
    assert_int_equal(fg_player_create(p1, rd, &o, &p, &err), FG_OK);
    if (fg_player_run(p, &err) != FG_OK) fail_msg("%s", fg_error_message(&err));
    assert_int_equal(calls, 1);
    assert_int_equal(fg_player_get_status(p)->reloads, 1);
    assert_int_equal(fg_world_hash(p1), final);
    fg_player_destroy(p);
    fg_world_destroy(p1);
    /* A player that cannot load rules says so at the reload's tick. */
    fg_world *p2 = setup(a, rd, no_hooks());
    assert_int_equal(fg_player_create(p2, rd, NULL, &p, &err), FG_OK);
    assert_int_equal(fg_player_run(p, &err), FG_ESTATE);
    assert_non_null(strstr(fg_error_message(&err), "a hot reload at tick 300"));
    assert_int_equal(fg_world_tick(p2), 300);
    fg_player_destroy(p);
    fg_world_destroy(p2);
    fg_replay_reader_destroy(rd);
    free(m.b);
    fg_ruleset_unref(a);
    fg_ruleset_unref(b);
}

/* What input records cannot carry is refused at the next tick, naming it; after that the
** recorder refuses everything. */
static void recorder_refuses_what_a_replay_cannot_carry(void **state) {
    (void)state;
    fg_ruleset *r = fg_det_rules(20), *b = fg_det_rules(30);
    struct {
        const char *what;
        const char *message;
    } cases[] = {
        {"position", "recording: the world was edited (position) before tick 5; a replay "
                     "carries input, not edits"},
        {"request", "recording: a request was made before tick 5; a replay carries input edges "
                    "only"},
        {"contact", "recording: a contact report was made before tick 5"},
        {"reload", "recording: the rules of slot 0 changed before tick 5 without "
                   "fg_world_record_reload"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        /* Contact reports come from a host with its own physics: a world in contacts mode. */
        fg_world *w = fg_det_world_in(r, 1, NULL, no_hooks(),
                                      i == 2 ? FG_GROUND_CONTACTS : FG_GROUND_DEFAULT);
        mem m = mem_new();
        fg_recorder *rec;
        fg_error err;
        assert_int_equal(fg_recorder_create_sink(w, mem_sink, &m, NULL, &rec, &err), FG_OK);
        for (int t = 0; t < 5; t++) {
            fg_world_advance(w, NULL);
            assert_int_equal(fg_recorder_tick(rec, &err), FG_OK);
        }
        if (i == 0) fg_world_set_position(w, 1, FG_FX(3), 0, NULL);
        if (i == 1) fg_world_request(w, 1, 3, FG_REQ_SCRIPT, NULL);
        if (i == 2) fg_world_report_contact(w, 1, false, NULL);
        if (i == 3) fg_world_replace_rules(w, 0, b, NULL);
        fg_world_advance(w, NULL);
        assert_int_equal(fg_recorder_tick(rec, &err), FG_ESTATE);
        assert_non_null(strstr(fg_error_message(&err), cases[i].message));
        size_t bytes = m.n;
        assert_int_equal(fg_recorder_tick(rec, &err), FG_ESTATE);
        assert_non_null(strstr(fg_error_message(&err), "stopped by an earlier error"));
        assert_int_equal(fg_recorder_finish(rec, &err), FG_ESTATE);
        assert_int_equal(m.n, bytes);
        fg_recorder_destroy(rec);
        fg_world_destroy(w);
        free(m.b);
    }
    fg_ruleset_unref(r);
    fg_ruleset_unref(b);
}

/* A world that already ran ticks cannot be rebuilt from a setup: refused, nothing written. */
static void recorder_refuses_a_world_that_is_not_freshly_set_up(void **state) {
    (void)state;
    fg_ruleset *r = fg_det_rules(20);
    fg_world *w = fg_det_world(r, 1, NULL, no_hooks());
    fg_world_press(w, 1, fg_world_action_id(w, "LP"), 10, FG_SOURCE_DEVICE, NULL);
    for (int t = 0; t < 6; t++) fg_world_advance(w, NULL);
    mem m = mem_new();
    fg_recorder *rec = (fg_recorder *)&m;
    fg_error err;
    assert_int_equal(fg_recorder_create_sink(w, mem_sink, &m, NULL, &rec, &err), FG_ESTATE);
    assert_null(rec);
    assert_int_equal(m.n, 0);
    assert_non_null(strstr(fg_error_message(&err), "recording: the state at tick 6 cannot be rebuilt from its "
                                    "setup"));
    assert_non_null(strstr(fg_error_message(&err), "tick: 0 vs 6"));
    /* Set up anew (positions, facing, resources) is fine. */
    fg_world *f = fg_det_world(r, 1, NULL, no_hooks());
    fg_world_set_position(f, 2, FG_FX(120), 0, NULL);
    fg_world_set_resource(f, 1, 1, 99, NULL);
    assert_int_equal(fg_recorder_create_sink(f, mem_sink, &m, NULL, &rec, &err), FG_OK);
    fg_world_advance(f, NULL);
    assert_int_equal(fg_recorder_tick(rec, &err), FG_OK);
    assert_int_equal(fg_recorder_finish(rec, &err), FG_OK);
    fg_recorder_destroy(rec);
    fg_replay_reader *rd = open_mem(&m);
    fg_world *back = setup(r, rd, no_hooks());
    fg_fx x;
    fg_world_position(back, 2, &x, NULL);
    assert_int_equal(x, FG_FX(120));
    assert_int_equal(fg_world_resource(back, 1, 1), 99);
    fg_replay_reader_destroy(rd);
    fg_world_destroy(back);
    fg_world_destroy(f);
    fg_world_destroy(w);
    free(m.b);
    fg_ruleset_unref(r);
}

/* The wrong rules, or a world not fresh: refused with a message, the world unchanged. */
static void setup_refuses_the_wrong_rules_and_changes_nothing(void **state) {
    (void)state;
    fg_ruleset *r = fg_det_rules(20), *other = fg_det_rules(21);
    mem m = mem_new();
    record(r, 3, 100, 60, &m);
    fg_replay_reader *rd = open_mem(&m);
    fg_world_config c = fg_world_config_default();
    assert_int_equal(fg_replay_world_config(rd, &c, NULL), FG_OK);
    c.rules = other;
    fg_world *w = fg_world_create(&c, NULL);
    uint64_t h = fg_world_hash(w);
    fg_error err;
    assert_int_equal(fg_replay_setup(w, rd, &err), FG_EMISMATCH);
    char want[160];
    snprintf(want, sizeof want, "replay: replay was recorded with ruleset 0x%016llx in slot 0, "
             "loaded ruleset is 0x%016llx", (unsigned long long)fg_ruleset_hash(r),
             (unsigned long long)fg_ruleset_hash(other));
    assert_string_equal(fg_error_message(&err), want);
    assert_int_equal(fg_world_entity_count(w), 0);
    assert_int_equal(fg_world_hash(w), h);
    fg_world_destroy(w);
    fg_world *used = fg_det_world(r, 3, NULL, no_hooks());
    h = fg_world_hash(used);
    assert_int_equal(fg_replay_setup(used, rd, &err), FG_ESTATE);
    assert_non_null(strstr(fg_error_message(&err), "the world must be fresh (tick 0, no entity)"));
    assert_int_equal(fg_world_hash(used), h);
    fg_world_destroy(used);
    fg_replay_reader_destroy(rd);
    free(m.b);
    fg_ruleset_unref(r);
    fg_ruleset_unref(other);
}

/* A recording cut short (the process died) plays up to its last complete chunk with
** FG_REPLAY_READ_PARTIAL; damage is refused when the file is opened. */
static void cut_and_damaged_replays(void **state) {
    (void)state;
    fg_ruleset *r = fg_det_rules(20);
    mem m = mem_new();
    record(r, 4, 600, 60, &m);
    fg_replay_read_options ro = {NULL, "cut.fgr", FG_REPLAY_READ_PARTIAL};
    fg_replay_reader *rd;
    fg_error err;
    size_t cut = m.n / 2;
    assert_int_equal(fg_replay_reader_create_memory(m.b, cut, &ro, &rd, &err), FG_OK);
    fg_world *w = setup(r, rd, no_hooks());
    fg_player *p;
    assert_int_equal(fg_player_create(w, rd, NULL, &p, &err), FG_OK);
    assert_int_equal(fg_player_run(p, &err), FG_OK);
    const fg_player_status *s = fg_player_get_status(p);
    assert_true(s->done);
    assert_int_equal(s->last_tick, -1);
    assert_true(s->tick > 60 && s->tick < 600);
    assert_true(s->checkpoints >= 1);
    fg_player_destroy(p);
    fg_world_destroy(w);
    fg_replay_reader_destroy(rd);
    ro.flags = 0;
    assert_int_equal(fg_replay_reader_create_memory(m.b, cut, &ro, &rd, &err), FG_EFORMAT);
    assert_non_null(strstr(fg_error_message(&err), "cut.fgr: "));
    m.b[m.n - 40] ^= 0x10;
    assert_int_equal(fg_replay_reader_create_memory(m.b, m.n, &ro, &rd, &err), FG_EFORMAT);
    assert_non_null(strstr(fg_error_message(&err), "CRC mismatch"));
    free(m.b);
    fg_ruleset_unref(r);
}

/* Clamped time the host reports goes into the replay; the player adds it up. */
static void clamped_time_is_recorded(void **state) {
    (void)state;
    fg_ruleset *r = fg_det_rules(20);
    fg_world *w = fg_det_world(r, 1, NULL, no_hooks());
    mem m = mem_new();
    fg_recorder *rec;
    assert_int_equal(fg_recorder_create_sink(w, mem_sink, &m, NULL, &rec, NULL), FG_OK);
    fg_loop loop;
    fg_loop_init(&loop, NULL, NULL);
    int64_t host = 0, clamped = 0;
    for (int frame = 0; frame < 100; frame++) {
        host += frame == 50 ? 900000 : 16667; /* one hitch of 0.9 s */
        uint32_t due;
        fg_loop_frame(&loop, host, &due, NULL);
        assert_int_equal(fg_recorder_clamp(rec, loop.clamped_us - clamped, NULL), FG_OK);
        clamped = loop.clamped_us;
        while (due--) {
            fg_world_advance(w, NULL);
            assert_int_equal(fg_recorder_tick(rec, NULL), FG_OK);
            fg_loop_tick_done(&loop);
        }
    }
    assert_int_equal(fg_recorder_finish(rec, NULL), FG_OK);
    fg_recorder_destroy(rec);
    fg_replay_reader *rd = open_mem(&m);
    fg_world *back = setup(r, rd, no_hooks());
    fg_player *p;
    assert_int_equal(fg_player_create(back, rd, NULL, &p, NULL), FG_OK);
    assert_int_equal(fg_player_run(p, NULL), FG_OK);
    assert_int_equal(fg_player_get_status(p)->clamped_us, 650000);
    assert_int_equal(fg_world_hash(back), fg_world_hash(w));
    fg_player_destroy(p);
    fg_replay_reader_destroy(rd);
    fg_world_destroy(back);
    fg_world_destroy(w);
    free(m.b);
    fg_ruleset_unref(r);
}

static void recording_and_playback_do_not_allocate_per_tick(void **state) {
    (void)state;
    fg_counting_allocator counter;
    fg_allocator alloc = fg_test_counting_allocator(&counter);
    fg_ruleset *r = fg_det_rules(20);
    fg_world *w = fg_det_world(r, 6, &alloc, no_hooks());
    mem m = mem_new();
    fg_record_options o;
    memset(&o, 0, sizeof o);
    o.alloc = &alloc;
    fg_recorder *rec;
    assert_int_equal(fg_recorder_create_sink(w, mem_sink, &m, &o, &rec, NULL), FG_OK);
    fg_input_fuzz fz;
    fg_input_fuzz_init(&fz, 6);
    size_t warm = counter.allocations;
    for (int t = 0; t < 600; t++) {
        fg_input_fuzz_tick(&fz, w, NULL);
        fg_world_advance(w, NULL);
        assert_int_equal(fg_recorder_tick(rec, NULL), FG_OK);
    }
    assert_int_equal(counter.allocations, warm);
    assert_int_equal(fg_recorder_finish(rec, NULL), FG_OK);
    fg_recorder_destroy(rec);
    fg_replay_reader *rd = open_mem(&m);
    fg_world_config c = fg_world_config_default();
    fg_replay_world_config(rd, &c, NULL);
    c.rules = r;
    c.allocator = alloc;
    fg_world *back = fg_world_create(&c, NULL);
    assert_int_equal(fg_replay_setup(back, rd, NULL), FG_OK);
    fg_player_options po;
    memset(&po, 0, sizeof po);
    po.alloc = &alloc;
    po.fps = 144;
    fg_player *p;
    assert_int_equal(fg_player_create(back, rd, &po, &p, NULL), FG_OK);
    warm = counter.allocations;
    assert_int_equal(fg_player_run(p, NULL), FG_OK);
    assert_int_equal(counter.allocations, warm);
    fg_player_destroy(p);
    fg_replay_reader_destroy(rd);
    fg_world_destroy(back);
    fg_world_destroy(w);
    free(m.b);
    fg_ruleset_unref(r);
    assert_int_equal(counter.live_bytes, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(replay_matches_at_every_display_rate),
        cmocka_unit_test(player_reports_the_first_tick_that_differs),
        cmocka_unit_test(inputs_only_runs_other_rules_to_the_end),
        cmocka_unit_test(reload_is_recorded_with_its_source_and_replayed),
        cmocka_unit_test(recorder_refuses_what_a_replay_cannot_carry),
        cmocka_unit_test(recorder_refuses_a_world_that_is_not_freshly_set_up),
        cmocka_unit_test(setup_refuses_the_wrong_rules_and_changes_nothing),
        cmocka_unit_test(cut_and_damaged_replays),
        cmocka_unit_test(clamped_time_is_recorded),
        cmocka_unit_test(recording_and_playback_do_not_allocate_per_tick),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
