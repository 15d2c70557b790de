/* SPDX-License-Identifier: MIT */
/*
** bench_input.c: edges per second through push + consume_for_tick, with 1,000 entities.
** Prints ns per edge for the bare buffer and for the whole world tick (which also runs the jump
** gate and fills the trace), and counts allocations per tick. Target: <= 50 ns per edge.
*/
#include <stdio.h>

#include "bench_util.h"
#include "fg_test.h"

static const char *BUTTONS[] = {"LP", "HP", "LK", "HK", "jump"};

/* Bare buffers: each entity gets `per_tick` edges per tick, then every buffer consumes the tick. */
static double bench_buffers(int entities, int ticks, int per_tick) {
    size_t size = fg_buffer_size(64);
    unsigned char *mem = calloc((size_t)entities, size);
    for (int e = 0; e < entities; e++) fg_buffer_init((fg_buffer *)(mem + e * size), 64, -1, NULL);
    double t0 = fg_bench_now_ns();
    long edges = 0;
    for (int t = 0; t < ticks; t++) {
        for (int e = 0; e < entities; e++) {
            fg_buffer *b = (fg_buffer *)(mem + e * size);
            for (int k = 0; k < per_tick; k++) {
                int action = FG_IN_FIRST_BUTTON + (k / 2) % 4;
                fg_edge_kind kind = (k % 2) ? FG_EDGE_RELEASE : FG_EDGE_PRESS;
                fg_buffer_push(b, kind, action, 0, (int64_t)t * 16667 + k, t, 0, NULL, NULL);
                edges++;
            }
            fg_buffer_consume_for_tick(b, t, NULL, NULL);
        }
    }
    double ns = fg_bench_now_ns() - t0;
    free(mem);
    return ns / (double)edges;
}

static double bench_world(int entities, int ticks, int per_tick, size_t *allocs_per_tick) {
    fg_counting_allocator counter;
    fg_world_config c = fg_world_config_default();
    c.allocator = fg_test_counting_allocator(&counter);
    c.max_entities = (uint32_t)entities;
    c.buttons = BUTTONS;
    c.nbuttons = 5;
    c.jump_button = "jump";
    c.trace_capacity = 1024;
    fg_world *w = fg_world_create(&c, NULL);
    for (int e = 0; e < entities; e++) fg_world_spawn(w, NULL, NULL, NULL);
    int lp = fg_world_action_id(w, "LP");
    fg_world_advance(w, NULL);
    size_t warm = counter.allocations;
    double t0 = fg_bench_now_ns();
    long edges = 0;
    for (int t = 1; t <= ticks; t++) {
        int64_t us = fg_us_of_tick(t, 60);
        for (fg_entity e = 1; e <= (fg_entity)entities; e++)
            for (int k = 0; k < per_tick; k++) {
                int action = lp + (k / 2) % 4;
                if (k % 2) fg_world_release(w, e, action, us + k, 0, NULL);
                else fg_world_press(w, e, action, us + k, 0, NULL);
                edges++;
            }
        fg_world_advance(w, NULL);
    }
    double ns = fg_bench_now_ns() - t0;
    *allocs_per_tick = (counter.allocations - warm) / (size_t)ticks;
    fg_world_destroy(w);
    return ns / (double)edges;
}

int main(int argc, char **argv) {
    bool smoke = fg_bench_smoke(argc, argv);
    int entities = smoke ? 10 : 1000, ticks = smoke ? 10 : 600, runs = smoke ? 1 : 5;
    printf("input layer: %d entities, %d ticks, median of %d runs\n", entities, ticks, runs);
    printf("%-34s %12s %16s %14s\n", "path", "ns/edge", "edges/s", "allocs/tick");
    int rates[] = {2, 8};
    for (int r = 0; r < 2; r++) {
        double buf[9], world[9];
        size_t allocs = 0;
        for (int i = 0; i < runs; i++) {
            buf[i] = bench_buffers(entities, ticks, rates[r]);
            world[i] = bench_world(entities, ticks, rates[r], &allocs);
        }
        double b = fg_bench_median(buf, runs), wv = fg_bench_median(world, runs);
        char label[64];
        snprintf(label, sizeof label, "buffer push+consume, %d edges/tick", rates[r]);
        printf("%-34s %12.1f %16.0f %14s\n", label, b, 1e9 / b, "-");
        snprintf(label, sizeof label, "world press+advance, %d edges/tick", rates[r]);
        printf("%-34s %12.1f %16.0f %14zu\n", label, wv, 1e9 / wv, allocs);
    }
    return 0;
}
