/* SPDX-License-Identifier: MIT */
/*
** bench_session.c: what a rollback session costs on the sample duel (Lua rules and hooks on):
** CPU time of one displayed frame (fg_session_advance: receive, restore, re-simulate, send) as a
** fraction of a 16.7 ms frame, typical and worst, and the bytes each player sends per second.
**
** Two cases, both nodes in this process through the in-memory link, both players mashing
** (seeded random input at full activity) with no input delay, so every frame has something to
** roll back:
**   150 ms   a 150 ms round trip (75 ms each way, 8 ms jitter, 2% loss);
**   worst    8 ticks each way (133 ms, no jitter, no loss): every frame receives the input of the
**            tick 8 ticks back, so it restores the state before it and re-simulates 8 ticks (then
**            runs the new one), the whole prediction window, every frame.
** Only node 0's frames are timed, in CPU time of the thread (a preempted frame is not counted as
** work).
**
** Usage: bench_session [--smoke]. Prints figures; asserts nothing about time.
*/
#include "bench_util.h"
#include "fg_sample_world.h"

#include <stdio.h>

#define FRAME_US 16667

static double cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

typedef struct node {
    fg_sample s, scratch;
    fg_session *session;
    fg_input_fuzz fz;
    fg_input_record prev;
    fg_tick fed;
    uint32_t player;
} node;

static void feed(node *n) {
    fg_tick t = fg_session_input_tick(n->session);
    while (n->fed < t) {
        fg_input_fuzz_tick(&n->fz, n->scratch.w, NULL);
        fg_sample_step(&n->scratch, NULL);
        fg_input_record r;
        fg_entity e = n->player + 1;
        fg_input_record_of_tick(fg_world_buffer(n->scratch.w, e), fg_world_last_input(n->scratch.w, e),
                                &n->prev, &r, NULL);
        fg_session_input_record(n->session, &r, NULL);
        n->prev = r;
        n->fed++;
    }
}

static void run(const char *name, int64_t one_way_us, uint32_t loss, uint32_t frames) {
    fg_link_config lc = fg_link_config_default();
    lc.latency_us = one_way_us;
    lc.jitter_us = loss ? 8000 : 0;
    lc.loss_pct = loss;
    lc.seed = 5;
    fg_link *link;
    fg_error err;
    if (fg_link_create(&lc, &link, &err) != FG_OK) {
        fprintf(stderr, "%s\n", fg_error_message(&err));
        exit(1);
    }
    node n[2];
    for (uint32_t i = 0; i < 2; i++) {
        n[i].s = fg_sample_open(7);
        n[i].scratch = fg_sample_open(7);
        fg_input_fuzz_init(&n[i].fz, 100 + i);
        fg_input_record_start(&n[i].prev, NULL);
        n[i].fed = -1;
        n[i].player = i;
        fg_session_config c = fg_session_config_default();
        c.local = i;
        c.input_delay = 0;
        c.transport = fg_link_transport(link, i);
        c.advance = fg_sample_advance;
        c.ud = &n[i].s;
        if (fg_session_create(n[i].s.w, &c, &n[i].session, &err) != FG_OK) {
            fprintf(stderr, "%s\n", fg_error_message(&err));
            exit(1);
        }
    }
    double *t = malloc(sizeof(double) * frames);
    double sum = 0, worst = 0;
    for (uint32_t f = 0; f < frames; f++) {
        int64_t now = (int64_t)f * FRAME_US;
        fg_link_set_time(link, now);
        for (uint32_t i = 0; i < 2; i++) {
            feed(&n[i]);
            double t0 = cpu_ns();
            fg_status st = fg_session_advance(n[i].session, now, &err);
            double dt = cpu_ns() - t0;
            if (st != FG_OK) {
                fprintf(stderr, "%s: %s\n", name, fg_error_message(&err));
                exit(1);
            }
            if (i == 0) {
                t[f] = dt;
                sum += dt;
                if (dt > worst && f > 60) worst = dt;
            }
        }
    }
    fg_session_stats st = fg_session_get_stats(n[0].session);
    double seconds = frames / 60.0;
    double median = fg_bench_median(t, (int)frames);
    double p99 = t[(size_t)(frames * 0.99)];
    printf("%-6s %4lld ms one way, %2u%% loss: %u frames, %llu rollbacks, %.1f ticks "
           "re-simulated per frame, deepest %u, %llu stalls\n",
           name, (long long)(one_way_us / 1000), loss, frames, (unsigned long long)st.rollbacks,
           (double)st.resimulated / frames, st.deepest, (unsigned long long)st.stalls);
    printf("       CPU per displayed frame: median %.1f us, mean %.1f us, 99th %.1f us, worst "
           "%.1f us = %.2f%% / %.2f%% / %.2f%% of 16.7 ms (median / 99th / worst)\n",
           median / 1e3, sum / frames / 1e3, p99 / 1e3, worst / 1e3, median / 16.667e6 * 100,
           p99 / 16.667e6 * 100, worst / 16.667e6 * 100);
    printf("       per player: %.0f bytes/s of datagrams (%.1f per frame), %.0f bytes/s with "
           "UDP/IPv4 headers (28 B each)\n",
           st.bytes_sent / seconds, (double)st.bytes_sent / st.datagrams_sent,
           (st.bytes_sent + 28.0 * st.datagrams_sent) / seconds);
    free(t);
    for (uint32_t i = 0; i < 2; i++) {
        fg_session_destroy(n[i].session);
        fg_sample_close(&n[i].s);
        fg_sample_close(&n[i].scratch);
    }
    fg_link_destroy(link);
}

int main(int argc, char **argv) {
    bool smoke = fg_bench_smoke(argc, argv);
    uint32_t frames = smoke ? 120 : 3600;
    printf("bench_session: the sample duel (Lua rules and hooks), two nodes in one process, both "
           "players mashing, input delay 0\n");
    run("150ms", 75000, 2, frames);
    run("worst", 8 * FRAME_US, 0, frames);
    return 0;
}
