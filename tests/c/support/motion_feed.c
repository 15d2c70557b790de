/* SPDX-License-Identifier: MIT */
/*
** motion_feed.c: see motion_feed.h.
*/
#include "motion_feed.h"

#include <stdlib.h>
#include <string.h>

enum { FEED_EVENTS = 512, FEED_EDGES = 256 };

static fg_status push_event(fg_buffer *buf, const fg_motion_script_event *x, int k,
                            fg_error *err) {
    int64_t us = fg_us_of_tick(x->tick, FG_TICK_RATE_DEFAULT) + k;
    switch (x->kind) {
    case FG_MOTION_SCRIPT_DIR:
        return fg_buffer_push(buf, FG_EDGE_DIR, 0, x->value, us, x->tick, FG_SOURCE_SCRIPT, NULL,
                              err);
    case FG_MOTION_SCRIPT_PRESS:
    case FG_MOTION_SCRIPT_RELEASE:
        return fg_buffer_push(buf,
                              x->kind == FG_MOTION_SCRIPT_PRESS ? FG_EDGE_PRESS : FG_EDGE_RELEASE,
                              x->action, 0, us, x->tick, FG_SOURCE_SCRIPT, NULL, err);
    case FG_MOTION_SCRIPT_FACE:
        fg_buffer_set_facing(buf, (fg_facing)x->value);
        return FG_OK;
    default:
        return FG_OK;
    }
}

fg_status fgt_motion_feed(const fg_motion_set *set, const char *script, fg_tick extra,
                          fgt_command_fn fn, void *ud, fg_error *err) {
    fg_motion_script_event *ev = calloc(FEED_EVENTS, sizeof *ev);
    fg_buffer *buf = malloc(fg_buffer_size(FEED_EDGES));
    fg_motion_state *st = malloc(fg_motion_state_size(set));
    uint32_t ncap = fg_motion_count(set) ? fg_motion_count(set) : 1;
    fg_motion_command *cmds = calloc(ncap, sizeof *cmds);
    uint32_t nev = 0;
    fg_status s = !ev || !buf || !st || !cmds
                      ? fg_error_set(err, FG_ENOMEM, "feed: out of memory")
                      : fg_motion_script_parse(script, fg_motion_set_buttons(set), ev,
                                               FEED_EVENTS, &nev, err);
    if (s == FG_OK) {
        fg_buffer_init(buf, FEED_EDGES, -1, NULL);
        fg_motion_state_init(set, st, -1);
        fg_tick end = (nev ? ev[nev - 1].tick : 0) + extra;
        uint32_t e = 0;
        fg_tick frozen_until = -1;
        for (fg_tick t = 0; t <= end && s == FG_OK; t++) {
            for (int k = 0; e < nev && ev[e].tick == t && s == FG_OK; e++, k++) {
                if (ev[e].kind == FG_MOTION_SCRIPT_FREEZE && ev[e].until > frozen_until)
                    frozen_until = ev[e].until;
                s = push_event(buf, &ev[e], k, err);
            }
            bool frozen = t <= frozen_until;
            fg_tick_input in;
            if (s == FG_OK) s = fg_buffer_consume_for_tick(buf, t, &in, err);
            fg_motion_ctx ctx = {NULL, frozen};
            uint32_t nc = 0;
            if (s == FG_OK) s = fg_motion_step(set, st, buf, &in, &ctx, cmds, ncap, &nc, err);
            for (uint32_t i = 0; s == FG_OK && i < nc; i++) fn(ud, &cmds[i], t);
        }
    }
    free(ev);
    free(buf);
    free(st);
    free(cmds);
    return s;
}

static void note_first(void *ud, const fg_motion_command *c, fg_tick now) {
    fg_tick *first = ud;
    if (c->age == 0 && first[c->motion] < 0) first[c->motion] = now;
}

fg_status fgt_motion_first_ticks(const fg_motion_set *set, const char *script, fg_tick *first,
                                 fg_error *err) {
    for (uint32_t i = 0; i < fg_motion_count(set); i++) first[i] = -1;
    return fgt_motion_feed(set, script, 40, note_first, first, err);
}
