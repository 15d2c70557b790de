/* SPDX-License-Identifier: MIT */
/*
** framegate/loop.h: the host's fixed-step loop. Real frame time goes into an accumulator kept in
** integer microseconds; the simulation consumes whole ticks; the remainder is the interpolation
** alpha for presentation. An over-long frame (a breakpoint, a window drag) is clamped, and the
** clamped-off time is counted, never dropped silently.
**
**     fg_loop_frame(&loop, now_us, &due);             once per display frame
**     ... push input stamped fg_loop_map_time(&loop, device_us) ...
**     while (due--) { fg_world_advance(w); fg_loop_tick_done(&loop); }
**     render(fg_loop_alpha(&loop));
*/
#ifndef FRAMEGATE_LOOP_H
#define FRAMEGATE_LOOP_H

#include "framegate/base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fg_loop_config {
    uint32_t tick_rate;   /* Hz, default 60 */
    int64_t max_frame_us; /* longest frame accepted before clamping; default 250000 */
} fg_loop_config;

typedef struct fg_loop {
    uint32_t tick_rate;
    int64_t max_frame_us;
    bool started;
    int64_t host_origin_us; /* host clock at the first frame: the world's time 0 */
    int64_t last_host_us;   /* host clock at the previous frame */
    int64_t sim_us;         /* simulated time since the origin */
    int64_t clamped_us;     /* total time clamped off over-long frames */
    uint64_t clamped_frames;
    uint64_t frames;
    int64_t last_mapped_us; /* newest input time handed out; keeps input times monotonic */
    fg_tick ticks_done;
} fg_loop;

FG_API fg_loop_config fg_loop_config_default(void);
FG_API fg_status fg_loop_init(fg_loop *l, const fg_loop_config *cfg, fg_error *err);

/* Feeds a display frame's host timestamp and returns how many whole ticks are due. The first call
** sets the origin. A host clock that goes back is an error (nothing changes). */
FG_API fg_status fg_loop_frame(fg_loop *l, int64_t host_now_us, uint32_t *ticks_due,
                               fg_error *err);
/* Marks one due tick as simulated. */
FG_API void fg_loop_tick_done(fg_loop *l);
/* Ticks due now (whole ticks elapsed minus ticks simulated). */
FG_API uint32_t fg_loop_due(const fg_loop *l);

/* Maps a host timestamp of an input to world time. Clamped-off time is removed, and the result
** never goes below a previously mapped time: input that fell inside a clamped interval lands at
** the start of the next tick instead of being lost or reordered. */
FG_API int64_t fg_loop_map_time(fg_loop *l, int64_t host_us);

/* Fraction of the next tick already elapsed, for interpolating between the last two committed
** states: exactly (sim_us * rate mod 1e6) / 1e6, in [0, 1). */
FG_API double fg_loop_alpha(const fg_loop *l);

#ifdef __cplusplus
}
#endif
#endif
