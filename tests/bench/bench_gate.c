/* SPDX-License-Identifier: MIT */
/*
** bench_gate.c: how fast the gate decides candidates, and how much memory the ledger holds over a
** long looping action. Prints figures; asserts nothing about time.
**
**   bench_gate           full run (build with the release preset to measure)
**   bench_gate --smoke   a tiny run so CI keeps it compiling and working
*/
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 199309L
#endif
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fg_test.h"

enum { FOOTSTEP = 1, DAMAGE = 2, PARRY = 3 };

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static volatile uint64_t sink;

static void report(const char *what, uint64_t n, double secs) {
    printf("%-44s %12llu candidates  %8.2f M/s  %6.2f ns/candidate\n", what, (unsigned long long)n,
           (double)n / secs / 1e6, secs * 1e9 / (double)n);
}

static fg_dispatch_result decide(fg_dispatcher *d, uint32_t ch, int64_t seq, fg_marker m,
                                 uint64_t occ) {
    fg_event_candidate c = {{ch, m, seq, occ}, NULL, NULL, 0.0f};
    fg_dispatch_result r = FG_DISPATCH_DUPLICATE;
    fg_dispatcher_dispatch(d, &c, &r, NULL);
    return r;
}

/* A fighting-game tick on 4 channels: a footstep that loops, the same footstep again from the
** cross-faded clip, a hit once per action, and after every 60 ticks a new action with a late
** callback of the old one. */
static void bench_mixed(int64_t ticks) {
    fg_dispatcher *d = NULL;
    fg_dispatcher_create(4, 8, NULL, &d, NULL);
    int64_t seq[4] = {0, 0, 0, 0};
    uint64_t n = 0, accepted = 0;
    double t0 = now_s();
    for (int64_t t = 0; t < ticks; t++) {
        for (uint32_t ch = 0; ch < 4; ch++) {
            if (t % 60 == 0) {
                fg_dispatcher_begin(d, ch, ++seq[ch], NULL);
                if (seq[ch] > 1) {
                    accepted += decide(d, ch, seq[ch] - 1, DAMAGE, 0) == FG_DISPATCH_ACCEPTED;
                    n++;
                }
            }
            uint64_t occ = (uint64_t)(t % 60);
            accepted += decide(d, ch, seq[ch], FOOTSTEP, occ) == FG_DISPATCH_ACCEPTED;
            accepted += decide(d, ch, seq[ch], FOOTSTEP, occ) == FG_DISPATCH_ACCEPTED;
            accepted += decide(d, ch, seq[ch], DAMAGE, 0) == FG_DISPATCH_ACCEPTED;
            n += 3;
        }
    }
    double secs = now_s() - t0;
    sink += accepted;
    report("mixed (accept, duplicate, stale, begin)", n, secs);
    fg_dispatcher_destroy(d);
}

/* One path at a time: every candidate Accepted, Duplicate, or StaleAction; and the worst lookup,
** a marker at the end of a full ledger of 16. */
static void bench_paths(uint64_t n) {
    fg_dispatcher *d = NULL;
    fg_dispatcher_create(1, 16, NULL, &d, NULL);
    fg_dispatcher_begin(d, 0, 2, NULL);
    uint64_t acc = 0;
    double t0 = now_s();
    for (uint64_t i = 0; i < n; i++) acc += decide(d, 0, 2, FOOTSTEP, i);
    report("accepted (looping footstep, in order)", n, now_s() - t0);
    t0 = now_s();
    for (uint64_t i = 0; i < n; i++) acc += decide(d, 0, 2, FOOTSTEP, i & 63);
    report("duplicate (cross-fade repeat)", n, now_s() - t0);
    t0 = now_s();
    for (uint64_t i = 0; i < n; i++) acc += decide(d, 0, 1, DAMAGE, 0);
    report("stale action (late callback)", n, now_s() - t0);
    for (fg_marker m = 100; m < 115; m++) decide(d, 0, 2, m, 0);
    t0 = now_s();
    for (uint64_t i = 0; i < n; i++) acc += decide(d, 0, 2, 114, i + 1);
    report("accepted, 16th marker of a full ledger", n, now_s() - t0);
    sink += acc;
    fg_dispatcher_destroy(d);
}

/* Sample a cycle track every tick and commit the batch, as a playback would. */
static void bench_playback(int64_t ticks) {
    const fg_track_marker_spec m[] = {{50, 0, "FootLeft"}, {950, 1, "FootRight"}};
    fg_cycle_track t;
    fg_cycle_track_init(&t, 1000, m, 2, NULL);
    fg_playback_owner *o = NULL;
    fg_playback_owner_create(16, NULL, &o, NULL);
    fg_playback_token tok = {2, 7};
    fg_playback_owner_begin(o, tok, 0, NULL);
    fg_track_event ev[8];
    fg_track_batch b;
    uint64_t got = 0;
    double t0 = now_s();
    for (fg_tick tick = 0; tick < ticks; tick++) {
        fg_commit_result r;
        fg_cycle_track_sample(&t, tok, tick, tick + 1, ev, 8, &b, NULL);
        fg_playback_owner_commit(o, &b, &r, NULL);
        got += fg_playback_owner_drain(o, NULL, 16);
    }
    double secs = now_s() - t0;
    sink += got;
    printf("%-44s %12lld ticks       %8.2f M/s  %6.2f ns/tick\n",
           "cycle track sample + commit + drain", (long long)ticks, (double)ticks / secs / 1e6,
           secs * 1e9 / (double)ticks);
    fg_playback_owner_destroy(o);
}

/* Ledger memory over a long looping action, measured through a counting allocator. */
static void bench_memory(int64_t ticks) {
    fg_counting_allocator counter;
    fg_allocator a = fg_test_counting_allocator(&counter);
    fg_dispatcher *d = NULL;
    fg_dispatcher_create(1, 8, &a, &d, NULL);
    fg_dispatcher_begin(d, 0, 1, NULL);
    size_t bytes_before = counter.live_bytes, allocs_before = counter.allocations;
    uint64_t accepted = 0, steps = 0;
    for (int64_t t = 0; t < ticks; t++) {
        if (t % 15 != 0) continue; /* a footstep every 15 ticks */
        uint64_t occ = (uint64_t)(t / 15);
        accepted += decide(d, 0, 1, FOOTSTEP, occ) == FG_DISPATCH_ACCEPTED;
        accepted += decide(d, 0, 1, FOOTSTEP, occ) == FG_DISPATCH_ACCEPTED; /* cross-fade */
        steps++;
    }
    printf("ledger over %lld ticks of looping footsteps in one action: %llu steps, %llu accepted\n",
           (long long)ticks, (unsigned long long)steps, (unsigned long long)accepted);
    printf("  bytes before %zu, after %zu, peak %zu; allocations during the run %zu; entries %u\n",
           bytes_before, counter.live_bytes, counter.peak_bytes,
           counter.allocations - allocs_before, fg_dispatcher_ledger_count(d, 0));
    fg_dispatcher_destroy(d);
}

int main(int argc, char **argv) {
    int smoke = argc > 1 && strcmp(argv[1], "--smoke") == 0;
    int64_t ticks = smoke ? 1000 : 1000000;
    uint64_t n = smoke ? 10000 : 50000000;
    printf("framegate %s gate benchmark%s\n", fg_version(), smoke ? " (smoke)" : "");
    bench_mixed(smoke ? 1000 : 4000000);
    bench_paths(n);
    bench_playback(smoke ? 10000 : 20000000);
    bench_memory(ticks);
    return sink == 0xdeadbeef ? 1 : 0;
}
