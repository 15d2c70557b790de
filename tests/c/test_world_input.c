/* SPDX-License-Identifier: MIT */
/*
** test_world_input.c: input through the world and the fixed-step loop: no lost presses at any
** display rate, identical per-tick state at every display rate, bad input refused with no change,
** no allocation per tick, exact snapshots.
*/
#include "fg_test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct ev {
    int64_t us;
    int kind; /* 0 press, 1 release, 2 direction */
    int value;
} ev;

static const char *BUTTONS[] = {"LP", "HP", "jump"};

static fg_world *make_world(uint32_t rate, fg_allocator *alloc) {
    fg_world_config c = fg_world_config_default();
    c.tick_rate = rate;
    c.buttons = BUTTONS;
    c.nbuttons = 3;
    c.jump_button = "jump";
    c.buffer_capacity = 64;
    if (alloc) c.allocator = *alloc;
    fg_world *w = fg_world_create(&c, NULL);
    assert_non_null(w);
    fg_spawn sp = {0};
    sp.grounded = true;
    assert_int_equal(fg_world_spawn(w, &sp, NULL, NULL), FG_OK);
    return w;
}

static void push_event(fg_world *w, const ev *e, int64_t t) {
    fg_error err;
    fg_status st;
    if (e->kind == 0) st = fg_world_press(w, 1, e->value, t, FG_SOURCE_DEVICE, &err);
    else if (e->kind == 1) st = fg_world_release(w, 1, e->value, t, FG_SOURCE_DEVICE, &err);
    else st = fg_world_direction(w, 1, e->value, t, FG_SOURCE_DEVICE, &err);
    if (st != FG_OK) fail_msg("push failed: %s", fg_error_message(&err));
}

/* Short presses (1..4 ms, shorter than any display frame) at seeded random times. */
static size_t short_presses(ev *out, size_t n, uint64_t seed, int button) {
    fg_rng r = fg_rng_seeded(seed);
    int64_t t = 1000;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        t += fg_rng_range(&r, 5000, 90000);
        out[k++] = (ev){t, 0, button};
        out[k++] = (ev){t + fg_rng_range(&r, 1000, 4000), 1, button};
        t = out[k - 1].us;
    }
    return k;
}

/* Runs a host at `fps` with frame times jittered by up to +-jitter_pct percent. Input is polled
** at each frame (everything stamped up to the frame's time), then the due ticks run. `per_tick`
** receives the world after each tick. */
typedef void (*tick_fn)(fg_world *w, void *ud);
static void run_host(fg_world *w, const ev *evs, size_t nev, int fps, int jitter_pct,
                     fg_tick ticks, uint64_t seed, tick_fn per_tick, void *ud) {
    fg_loop loop;
    fg_loop_config lc = fg_loop_config_default();
    lc.tick_rate = fg_world_tick_rate(w);
    assert_int_equal(fg_loop_init(&loop, &lc, NULL), FG_OK);
    fg_rng r = fg_rng_seeded(seed);
    int64_t host = 0;
    size_t next = 0;
    const int64_t frame = 1000000 / fps;
    while (fg_world_tick(w) < ticks) {
        uint32_t due;
        assert_int_equal(fg_loop_frame(&loop, host, &due, NULL), FG_OK);
        while (next < nev && evs[next].us <= host) {
            push_event(w, &evs[next], fg_loop_map_time(&loop, evs[next].us));
            next++;
        }
        while (due-- > 0 && fg_world_tick(w) < ticks) {
            assert_int_equal(fg_world_advance(w, NULL), FG_OK);
            fg_loop_tick_done(&loop);
            if (per_tick) per_tick(w, ud);
        }
        int64_t j = jitter_pct ? fg_rng_range(&r, -frame * jitter_pct / 100,
                                              frame * jitter_pct / 100)
                               : 0;
        host += frame + j;
    }
}

typedef struct press_log {
    int64_t ticks[2100];
    size_t n;
    int button;
} press_log;

static void log_presses(fg_world *w, void *ud) {
    press_log *log = ud;
    const fg_tick_input *in = fg_world_last_input(w, 1);
    const fg_buffer *b = fg_world_buffer(w, 1);
    for (uint32_t i = 0; i < in->count; i++) {
        const fg_edge *e = fg_buffer_at(b, in->first + i);
        if (e->kind == FG_EDGE_PRESS && e->action == log->button) log->ticks[log->n++] = e->tick;
    }
    assert_true(in->count == 0 || fg_buffer_at(b, in->first)->tick == in->tick);
}

/* Input-loss regression (seed 004): 1,000 one-frame short presses at random times become exactly
** one press each, in the tick its timestamp belongs to, at 30, 60, 120 and 144 fps. */
static void short_presses_are_never_lost_at_any_display_rate(void **state) {
    (void)state;
    static ev evs[2000];
    const int fps_list[] = {30, 60, 120, 144};
    for (size_t f = 0; f < 4; f++) {
        fg_world *w = make_world(60, NULL);
        int lp = fg_world_action_id(w, "LP");
        size_t n = short_presses(evs, 1000, 7 + f, lp);
        fg_tick last = fg_tick_of_us(evs[n - 1].us, 60) + 2;
        press_log *log = calloc(1, sizeof *log);
        log->button = lp;
        run_host(w, evs, n, fps_list[f], 20, last, 99, log_presses, log);
        assert_int_equal(log->n, 1000);
        for (size_t i = 0; i < 1000; i++)
            if (log->ticks[i] != fg_tick_of_us(evs[2 * i].us, 60))
                fail_msg("%d fps: press %zu at %lld us landed on tick %lld, expected %lld",
                         fps_list[f], i, (long long)evs[2 * i].us, (long long)log->ticks[i],
                         (long long)fg_tick_of_us(evs[2 * i].us, 60));
        assert_int_equal(fg_world_buffer(w, 1)->late, 0);
        free(log);
        fg_world_destroy(w);
    }
}

typedef struct digests {
    uint64_t h[4096];
    size_t n;
} digests;

static void log_hash(fg_world *w, void *ud) {
    digests *d = ud;
    assert_true(d->n < 4096);
    d->h[d->n++] = fg_world_hash(w);
}

/* Frame-rate independence: one timestamped stream, hosts at 30/60/120/144/240 fps with jittered
** frame times: the per-tick state hash is identical. The tick rates 60, 120 and 144 Hz are
** each checked the same way. */
static void per_tick_state_is_identical_at_every_display_rate(void **state) {
    (void)state;
    static ev evs[4000];
    fg_rng r = fg_rng_seeded(2024);
    size_t n = 0;
    int64_t t = 500;
    int held[3] = {0, 0, 0};
    int dir = 5;
    while (n < 600) {
        t += fg_rng_range(&r, 300, 40000);
        int kind = (int)fg_rng_range(&r, 0, 2);
        if (kind == 2) {
            int d = (int)fg_rng_range(&r, 1, 9);
            if (d == dir) continue;
            dir = d;
            evs[n++] = (ev){t, 2, d};
        } else {
            int b = (int)fg_rng_range(&r, 0, 2);
            evs[n++] = (ev){t, held[b] ? 1 : 0, FG_IN_FIRST_BUTTON + b};
            held[b] = !held[b];
        }
    }
    const uint32_t rates[] = {60, 120, 144};
    const int fps_list[] = {30, 60, 120, 144, 240};
    for (size_t ri = 0; ri < 3; ri++) {
        fg_tick ticks = fg_tick_of_us(t, rates[ri]) + 5;
        digests *ref = calloc(1, sizeof *ref);
        for (size_t f = 0; f < 5; f++) {
            digests *d = calloc(1, sizeof *d);
            fg_world *w = make_world(rates[ri], NULL);
            run_host(w, evs, n, fps_list[f], 35, ticks, 1000 + f, log_hash, d);
            if (f == 0) {
                memcpy(ref, d, sizeof *d);
            } else {
                assert_int_equal(d->n, ref->n);
                for (size_t i = 0; i < d->n; i++)
                    if (d->h[i] != ref->h[i])
                        fail_msg("%u Hz: tick %zu differs between 30 fps and %d fps", rates[ri],
                                 i, fps_list[f]);
            }
            fg_world_destroy(w);
            free(d);
        }
        free(ref);
    }
}

/* The loop: ticks due follow exact time; an over-long frame is clamped and the clamped time is
** counted; alpha is the exact fraction; a clock going back is refused. */
static void loop_clamps_counts_and_interpolates(void **state) {
    (void)state;
    fg_loop l;
    fg_loop_config c = {60, 100000};
    assert_int_equal(fg_loop_init(&l, &c, NULL), FG_OK);
    uint32_t due;
    fg_loop_frame(&l, 5000000, &due, NULL); /* origin */
    assert_int_equal(due, 0);
    fg_loop_frame(&l, 5000000 + 16666, &due, NULL);
    assert_int_equal(due, 0);
    assert_float_equal(fg_loop_alpha(&l), 0.99996, 1e-9);
    fg_loop_frame(&l, 5000000 + 16667, &due, NULL);
    assert_int_equal(due, 1);
    assert_float_equal(fg_loop_alpha(&l), 0.00002, 1e-9);
    fg_loop_tick_done(&l);
    /* A 2 s breakpoint: only 100 ms are simulated, 1.9 s counted as clamped. */
    fg_loop_frame(&l, 5000000 + 16667 + 2000000, &due, NULL);
    assert_int_equal(l.clamped_us, 1900000);
    assert_int_equal(l.clamped_frames, 1);
    assert_int_equal(due, 6); /* ticks 1..6 of 116667 us */
    /* Input time maps to world time with the clamped interval removed, never backwards. */
    int64_t a = fg_loop_map_time(&l, 5000000 + 16667 + 2000000);
    assert_int_equal(a, 116667);
    int64_t b = fg_loop_map_time(&l, 5000000 + 20000); /* inside the clamped gap */
    assert_int_equal(b, 116667);
    fg_error err;
    assert_int_equal(fg_loop_frame(&l, 100, &due, &err), FG_ESTATE);
    assert_non_null(strstr(fg_error_message(&err), "host clock went back"));
    fg_loop_config bad = {0, 100000};
    assert_int_equal(fg_loop_init(&l, &bad, &err), FG_EINVAL);
    assert_string_equal(fg_error_message(&err), "loop.tick_rate: 0, expected 1..100000 Hz");
}

/* Bad input through the world: each gets a clear error and the world's hash is unchanged. */
static void bad_input_is_refused_and_changes_nothing(void **state) {
    (void)state;
    fg_world *w = make_world(60, NULL);
    int lp = fg_world_action_id(w, "LP");
    assert_int_equal(fg_world_press(w, 1, lp, 20000, 0, NULL), FG_OK);
    fg_world_advance(w, NULL);
    fg_world_advance(w, NULL);
    uint64_t before = fg_world_hash(w);
    fg_error err;
    assert_int_equal(fg_world_device_stick(w, 1, NAN, 0.5f, 40000, &err), FG_EINVAL);
    assert_non_null(strstr(fg_error_message(&err), "not finite"));
    assert_int_equal(fg_world_device_stick(w, 1, 0.2f, INFINITY, 40000, &err), FG_EINVAL);
    assert_int_equal(fg_world_release(w, 1, lp, 10000, 0, &err), FG_ESTATE);
    assert_non_null(strstr(fg_error_message(&err), "time may not go back"));
    assert_non_null(strstr(fg_error_message(&err), "entity 1 release 'LP'"));
    assert_int_equal(fg_world_press(w, 1, 31, 40000, 0, &err), FG_ENOTFOUND);
    assert_int_equal(fg_world_action_id(w, "MK"), -1);
    assert_int_equal(fg_world_press(w, 7, lp, 40000, 0, &err), FG_ENOTFOUND);
    assert_string_equal(fg_error_message(&err), "entity 7 does not exist (1 spawned)");
    assert_int_equal(fg_world_press(w, 1, lp, -5, 0, &err), FG_EINVAL);
    assert_non_null(strstr(fg_error_message(&err), "before the world's origin"));
    assert_int_equal(fg_world_direction(w, 1, 0, 40000, 0, &err), FG_EINVAL);
    assert_int_equal(fg_world_device_control(w, 1, 77, true, 40000, &err), FG_ENOTFOUND);
    assert_int_equal(fg_world_hash(w), before);
    fg_world_destroy(w);

    fg_world_config c = fg_world_config_default();
    c.tick_rate = 0;
    assert_null(fg_world_create(&c, &err));
    assert_string_equal(fg_error_message(&err), "world.tick_rate: 0, expected 1..100000 Hz");
    c = fg_world_config_default();
    c.buffer_capacity = 0;
    assert_null(fg_world_create(&c, &err));
    assert_string_equal(fg_error_message(&err), "world.buffer_capacity: 0 edges, expected 1..65536");
    c = fg_world_config_default();
    c.jump_button = "jump";
    assert_null(fg_world_create(&c, &err));
    assert_string_equal(fg_error_message(&err), "world.jump_button: 'jump' is not a declared button");
    c = fg_world_config_default();
    c.jump.coyote_ticks = -1;
    assert_null(fg_world_create(&c, &err));
    assert_string_equal(fg_error_message(&err), "jump.coyote: -1 ticks, expected >= 0");
}

/* Device mapping: bound keys go through SOCD cleaning; key repeat is not a new press; sticks
** are shaped and quantised into direction edges. */
static void device_input_goes_through_the_map(void **state) {
    (void)state;
    fg_world *w = make_world(60, NULL);
    fg_input_map *m = fg_world_input_map(w, 1);
    fg_input_map_bind(m, 'a', FG_IN_LEFT, NULL);
    fg_input_map_bind(m, 'd', FG_IN_RIGHT, NULL);
    fg_input_map_bind(m, 'j', fg_world_action_id(w, "LP"), NULL);
    assert_int_equal(fg_world_device_control(w, 1, 'a', true, 1000, NULL), FG_OK);
    assert_int_equal(fg_world_device_control(w, 1, 'd', true, 2000, NULL), FG_OK); /* neutral */
    assert_int_equal(fg_world_device_control(w, 1, 'j', true, 3000, NULL), FG_OK);
    assert_int_equal(fg_world_device_control(w, 1, 'j', true, 3500, NULL), FG_OK); /* repeat */
    fg_world_advance(w, NULL);
    const fg_buffer *b = fg_world_buffer(w, 1);
    assert_int_equal(fg_buffer_count(b), 3); /* dir 4, dir 5, press LP */
    assert_int_equal(fg_buffer_at(b, 0)->dir, 4);
    assert_int_equal(fg_buffer_at(b, 1)->dir, 5);
    assert_int_equal(fg_buffer_at(b, 2)->kind, FG_EDGE_PRESS);
    m->socd_horizontal = FG_SOCD_LAST_WINS;
    assert_int_equal(fg_world_device_control(w, 1, 'd', false, 20000, NULL), FG_OK);
    assert_int_equal(fg_world_device_control(w, 1, 'd', true, 21000, NULL), FG_OK);
    fg_world_advance(w, NULL);
    assert_int_equal(b->dir, 6);
    fg_world_device_control(w, 1, 'a', false, 40000, NULL);
    fg_world_device_control(w, 1, 'd', false, 40000, NULL);
    assert_int_equal(fg_world_device_stick(w, 1, -0.9f, -0.9f, 41000, NULL), FG_OK);
    fg_world_advance(w, NULL);
    assert_int_equal(b->dir, 1);
    fg_world_destroy(w);
}

/* No heap allocation per tick once warm: the counting allocator sees none while input flows. */
static void no_allocation_per_tick(void **state) {
    (void)state;
    fg_counting_allocator counter;
    fg_allocator a = fg_test_counting_allocator(&counter);
    fg_world *w = make_world(60, &a);
    int lp = fg_world_action_id(w, "LP"), jump = fg_world_action_id(w, "jump");
    for (int i = 0; i < 10; i++) fg_world_advance(w, NULL);
    size_t warm = counter.allocations;
    for (int t = 10; t < 2010; t++) {
        int64_t us = fg_us_of_tick(t, 60);
        if (t % 7 == 0) fg_world_press(w, 1, lp, us, 0, NULL);
        if (t % 7 == 3) fg_world_release(w, 1, lp, us, 0, NULL);
        if (t % 11 == 0) fg_world_press(w, 1, jump, us, 0, NULL);
        if (t % 11 == 1) fg_world_release(w, 1, jump, us, 0, NULL);
        fg_world_report_contact(w, 1, (t / 30) % 2 == 0, NULL);
        fg_world_advance(w, NULL);
        (void)fg_world_hash(w);
    }
    assert_int_equal(counter.allocations, warm);
    fg_world_destroy(w);
    assert_int_equal(counter.live_bytes, 0);
}

/* A restored snapshot continues bit-identically; a snapshot of another layout is refused. */
static void snapshot_restore_is_exact(void **state) {
    (void)state;
    fg_world *w = make_world(60, NULL);
    int lp = fg_world_action_id(w, "LP");
    size_t size = fg_world_snapshot_size(w);
    void *snap = malloc(size);
    uint64_t hashes[100];
    for (int t = 0; t < 100; t++) {
        if (t == 50) assert_int_equal(fg_world_save(w, snap, size, NULL), FG_OK);
        if (t >= 50) {
            int64_t us = fg_us_of_tick(t, 60) + 100;
            if (t % 4 == 0) fg_world_press(w, 1, lp, us, 0, NULL);
            if (t % 4 == 2) fg_world_release(w, 1, lp, us, 0, NULL);
        }
        fg_world_advance(w, NULL);
        hashes[t] = fg_world_hash(w);
    }
    assert_int_equal(fg_world_restore(w, snap, size, NULL), FG_OK);
    assert_int_equal(fg_world_tick(w), 50);
    for (int t = 50; t < 100; t++) {
        int64_t us = fg_us_of_tick(t, 60) + 100;
        if (t % 4 == 0) fg_world_press(w, 1, lp, us, 0, NULL);
        if (t % 4 == 2) fg_world_release(w, 1, lp, us, 0, NULL);
        fg_world_advance(w, NULL);
        assert_int_equal(fg_world_hash(w), hashes[t]);
    }
    fg_error err;
    fg_world_config c = fg_world_config_default();
    c.buffer_capacity = 32;
    fg_world *other = fg_world_create(&c, NULL);
    uint64_t h = fg_world_hash(other);
    assert_int_equal(fg_world_restore(other, snap, size, &err), FG_EMISMATCH);
    assert_non_null(strstr(fg_error_message(&err), "another layout"));
    assert_int_equal(fg_world_hash(other), h);
    assert_int_equal(fg_world_restore(w, snap, 10, &err), FG_EINVAL);
    memset(snap, 0, 4);
    assert_int_equal(fg_world_restore(w, snap, size, &err), FG_EFORMAT);
    fg_world_destroy(other);
    fg_world_destroy(w);
    free(snap);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(short_presses_are_never_lost_at_any_display_rate),
        cmocka_unit_test(per_tick_state_is_identical_at_every_display_rate),
        cmocka_unit_test(loop_clamps_counts_and_interpolates),
        cmocka_unit_test(bad_input_is_refused_and_changes_nothing),
        cmocka_unit_test(device_input_goes_through_the_map),
        cmocka_unit_test(no_allocation_per_tick),
        cmocka_unit_test(snapshot_restore_is_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
