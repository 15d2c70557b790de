/* SPDX-License-Identifier: MIT */
/*
** motion_script.c: the script runner: feeds a text script of timed inputs through a fresh buffer
** and matcher and reports the commands and near-misses, for tests and the motion tools.
*/
#include "motion_set.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* {====================================================================== script runner */

fg_status fg_motion_run_script(const fg_motion_set *set, const char *script,
                               const fg_motion_profile *profile, const fg_allocator *a,
                               fg_motion_run *out, fg_motion_miss *misses, fg_error *err) {
    if (!set || !out) return fg_error_set(err, FG_EINVAL, "run: set and out are required");
    fg_allocator alloc = a ? *a : fg_allocator_default();
    enum { MAXEV = 512 };
    fg_motion_script_event *ev = fg_alloc(&alloc, MAXEV * sizeof *ev);
    if (!ev) return fg_error_set(err, FG_ENOMEM, "run: out of memory");
    uint32_t nev = 0;
    fg_status s = fg_motion_script_parse(script, &set->buttons, ev, MAXEV, &nev, err);
    if (s == FG_OK && profile) s = fg_motion_profile_check(profile, err);
    const uint32_t cap = 256;
    size_t bsize = fg_buffer_size(cap);
    fg_buffer *buf = NULL;
    fg_motion_state *st = NULL;
    fg_motion_command *cmds = NULL;
    size_t csize = (size_t)(set->npatterns ? set->npatterns : 1) * sizeof *cmds;
    if (s == FG_OK) {
        buf = fg_alloc(&alloc, bsize);
        st = fg_alloc(&alloc, set->state_size);
        cmds = fg_alloc(&alloc, csize);
        if (!buf || !st || !cmds) s = fg_error_set(err, FG_ENOMEM, "run: out of memory");
    }
    fg_motion_run run;
    memset(&run, 0, sizeof run);
    if (s == FG_OK) {
        fg_buffer_init(buf, cap, -1, NULL);
        fg_motion_state_init(set, st, -1);
        fg_tick last = nev ? ev[nev - 1].tick : 0;
        for (uint32_t i = 0; i < nev; i++)
            if (ev[i].kind == FG_MOTION_SCRIPT_FREEZE && ev[i].until > last) last = ev[i].until;
        fg_tick end = last + set->max_buffer + 1;
        uint32_t e = 0;
        fg_tick freeze_from[16], freeze_to[16];
        int nfreeze = 0;
        for (fg_tick t = 0; t <= end && s == FG_OK; t++) {
            int k = 0;
            for (; e < nev && ev[e].tick == t && s == FG_OK; e++, k++) {
                const fg_motion_script_event *x = &ev[e];
                int64_t us = fg_us_of_tick(t, FG_TICK_RATE_DEFAULT) + k;
                switch (x->kind) {
                case FG_MOTION_SCRIPT_DIR:
                    s = fg_buffer_push(buf, FG_EDGE_DIR, 0, x->value, us, t, FG_SOURCE_SCRIPT,
                                       NULL, err);
                    break;
                case FG_MOTION_SCRIPT_PRESS:
                case FG_MOTION_SCRIPT_RELEASE:
                    s = fg_buffer_push(buf,
                                       x->kind == FG_MOTION_SCRIPT_PRESS ? FG_EDGE_PRESS
                                                                         : FG_EDGE_RELEASE,
                                       x->action, 0, us, t, FG_SOURCE_SCRIPT, NULL, err);
                    break;
                case FG_MOTION_SCRIPT_FACE:
                    fg_buffer_set_facing(buf, (fg_facing)x->value);
                    break;
                case FG_MOTION_SCRIPT_FREEZE:
                    if (nfreeze < 16) {
                        freeze_from[nfreeze] = x->tick;
                        freeze_to[nfreeze] = x->until;
                        nfreeze++;
                    }
                    break;
                default:
                    break;
                }
            }
            if (s != FG_OK) break;
            fg_tick_input in;
            s = fg_buffer_consume_for_tick(buf, t, &in, err);
            if (s != FG_OK) break;
            fg_motion_ctx ctx = {profile, false};
            for (int f = 0; f < nfreeze; f++)
                if (t >= freeze_from[f] && t <= freeze_to[f]) ctx.frozen = true;
            uint32_t nc = 0;
            s = fg_motion_step(set, st, buf, &in, &ctx, cmds, set->npatterns, &nc, err);
            for (uint32_t i = 0; s == FG_OK && i < nc; i++) {
                if (run.ncommands < FG_MOTION_RUN_MAX) run.commands[run.ncommands++] = cmds[i];
                else run.dropped++;
            }
            run.end_tick = t;
        }
        if (s == FG_OK && misses)
            for (uint32_t i = 0; i < set->npatterns; i++)
                fg_motion_explain(set, st, profile, i, &misses[i]);
    }
    fg_free(&alloc, ev, MAXEV * sizeof *ev);
    fg_free(&alloc, buf, bsize);
    fg_free(&alloc, st, set->state_size);
    fg_free(&alloc, cmds, csize);
    if (s != FG_OK) return s;
    *out = run;
    return FG_OK;
}

/* }====================================================================== */
