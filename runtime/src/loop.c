/* SPDX-License-Identifier: MIT */
/*
** loop.c: the fixed-step accumulator. Time is integer microseconds throughout, so the number of
** ticks a host runs depends only on its timestamps, never on float rounding.
*/
#include "framegate/loop.h"

fg_loop_config fg_loop_config_default(void) {
    fg_loop_config c = {FG_TICK_RATE_DEFAULT, 250000};
    return c;
}

fg_status fg_loop_init(fg_loop *l, const fg_loop_config *cfg, fg_error *err) {
    fg_loop_config c = cfg ? *cfg : fg_loop_config_default();
    if (c.tick_rate == 0 || c.tick_rate > FG_TICK_RATE_MAX)
        return fg_error_set(err, FG_EINVAL, "loop.tick_rate: %u, expected 1..%u Hz", c.tick_rate,
                            FG_TICK_RATE_MAX);
    int64_t tick_us = fg_us_of_tick(1, c.tick_rate);
    if (c.max_frame_us < tick_us)
        return fg_error_set(err, FG_EINVAL,
                            "loop.max_frame_us: %lld, expected at least one tick (%lld us)",
                            (long long)c.max_frame_us, (long long)tick_us);
    *l = (fg_loop){0};
    l->tick_rate = c.tick_rate;
    l->max_frame_us = c.max_frame_us;
    l->last_mapped_us = INT64_MIN;
    return FG_OK;
}

static fg_tick ticks_elapsed(const fg_loop *l) { return fg_tick_of_us(l->sim_us, l->tick_rate); }

fg_status fg_loop_frame(fg_loop *l, int64_t now, uint32_t *ticks_due, fg_error *err) {
    if (!l->started) {
        l->started = true;
        l->host_origin_us = l->last_host_us = now;
    }
    if (now < l->last_host_us)
        return fg_error_set(err, FG_ESTATE,
                            "host clock went back: frame at %lld us after one at %lld us",
                            (long long)now, (long long)l->last_host_us);
    int64_t dt = now - l->last_host_us;
    if (dt > l->max_frame_us) {
        l->clamped_us += dt - l->max_frame_us;
        l->clamped_frames++;
        dt = l->max_frame_us;
    }
    l->last_host_us = now;
    l->sim_us += dt;
    l->frames++;
    if (ticks_due) *ticks_due = fg_loop_due(l);
    return FG_OK;
}

void fg_loop_tick_done(fg_loop *l) { l->ticks_done++; }

uint32_t fg_loop_due(const fg_loop *l) {
    fg_tick due = ticks_elapsed(l) - l->ticks_done;
    return due > 0 ? (uint32_t)due : 0;
}

int64_t fg_loop_map_time(fg_loop *l, int64_t host_us) {
    int64_t t = host_us - l->host_origin_us - l->clamped_us;
    if (t < l->last_mapped_us) t = l->last_mapped_us;
    l->last_mapped_us = t;
    return t;
}

double fg_loop_alpha(const fg_loop *l) {
    int64_t scaled = l->sim_us * (int64_t)l->tick_rate;
    int64_t rem = scaled % FG_US_PER_S;
    if (rem < 0) rem += FG_US_PER_S;
    return (double)rem / (double)FG_US_PER_S;
}
