/* SPDX-License-Identifier: MIT */
/*
** inputfuzz.c: seeded random input for sync tests, replays and benchmarks. Each entity keeps a
** short plan of edges for the coming ticks (the rest of a motion, the release of a tapped
** button); every tick may start a new plan or change the stick. Timestamps fall inside the tick,
** and now and then just before it, after that tick ran: a late edge the buffer moves forward.
*/
#include "internal.h"

#include "framegate/determinism.h"

#include <string.h>

void fg_input_fuzz_init(fg_input_fuzz *f, uint64_t seed) {
    memset(f, 0, sizeof *f);
    f->rng = fg_rng_seeded(seed ? seed : 1);
    f->activity = 100;
    for (int i = 0; i < FG_FUZZ_ENTITIES; i++) {
        f->e[i].dir = 5;
        f->e[i].last_us = -1;
    }
}

static void plan(fg_input_fuzz *f, uint32_t i, fg_tick tick, int kind, int value) {
    if (f->e[i].nplan == FG_FUZZ_PLAN) return;
    fg_input_fuzz_step *s = &f->e[i].plan[f->e[i].nplan++];
    s->tick = tick;
    s->kind = (uint8_t)kind;
    s->value = (uint8_t)value;
}

/* A motion shape relative to facing right; mirrored for an entity facing left. */
static void plan_motion(fg_input_fuzz *f, uint32_t i, fg_tick t, fg_facing facing, int nbuttons) {
    static const char *const shapes[] = {"236", "623", "214", "66", "2", "236236", "41236", "8"};
    const char *s = shapes[fg_rng_range(&f->rng, 0, 7)];
    fg_tick at = t;
    for (; *s; s++) {
        plan(f, i, at, FG_EDGE_DIR, fg_numpad_relative(*s - '0', facing));
        at += fg_rng_range(&f->rng, 1, 3);
    }
    if (nbuttons > 0 && fg_rng_range(&f->rng, 0, 3) > 0) {
        int b = FG_IN_FIRST_BUTTON + (int)fg_rng_range(&f->rng, 0, nbuttons - 1);
        plan(f, i, at, FG_EDGE_PRESS, b);
        plan(f, i, at + fg_rng_range(&f->rng, 1, 4), FG_EDGE_RELEASE, b);
    }
    plan(f, i, at + fg_rng_range(&f->rng, 1, 6), FG_EDGE_DIR, 5);
}

fg_status fg_input_fuzz_tick(fg_input_fuzz *f, fg_world *w, fg_error *err) {
    fg_tick t = w->state->tick;
    uint32_t n = w->state->nentities < FG_FUZZ_ENTITIES ? w->state->nentities : FG_FUZZ_ENTITIES;
    int nbuttons = (int)w->names.count - FG_IN_FIRST_BUTTON;
    int64_t t0 = fg_us_of_tick(t, w->tick_rate), t1 = fg_us_of_tick(t + 1, w->tick_rate);
    for (uint32_t i = 0; i < n; i++) {
        fg_facing facing = (fg_facing)w->entities[i].facing;
        /* A roll of 0..99 at full activity; less busy players roll higher, into "nothing". */
        uint32_t activity = f->activity ? f->activity : 1;
        int64_t roll = fg_rng_range(&f->rng, 0, 9999 / (int64_t)(activity > 100 ? 100 : activity));
        if (f->e[i].nplan == 0 && roll < 12) plan_motion(f, i, t, facing, nbuttons);
        else if (roll < 22 && nbuttons > 0) {
            int b = FG_IN_FIRST_BUTTON + (int)fg_rng_range(&f->rng, 0, nbuttons - 1);
            if (!(f->e[i].held & (1u << b))) {
                plan(f, i, t, FG_EDGE_PRESS, b);
                plan(f, i, t + fg_rng_range(&f->rng, 1, 8), FG_EDGE_RELEASE, b);
            }
        } else if (roll < 30 && f->e[i].nplan == 0) {
            plan(f, i, t, FG_EDGE_DIR, (int)fg_rng_range(&f->rng, 1, 9));
        }
        /* Edges due now, in plan order, at increasing times inside the tick. */
        uint32_t keep = 0;
        for (uint32_t j = 0; j < f->e[i].nplan; j++) {
            fg_input_fuzz_step s = f->e[i].plan[j];
            if (s.tick > t) {
                f->e[i].plan[keep++] = s;
                continue;
            }
            int64_t lo = f->e[i].last_us + 1 > t0 ? f->e[i].last_us + 1 : t0;
            /* One edge in 40 arrives late: stamped inside the tick before, which already ran. */
            if (t > 0 && fg_rng_range(&f->rng, 0, 39) == 0) {
                int64_t plo = fg_us_of_tick(t - 1, w->tick_rate);
                if (f->e[i].last_us + 1 > plo) plo = f->e[i].last_us + 1;
                if (plo < t0) lo = plo;
            }
            if (lo >= t1) lo = t1 - 1;
            int64_t us = lo + fg_rng_range(&f->rng, 0, (t1 - lo) / 4);
            if (us <= f->e[i].last_us) us = f->e[i].last_us + 1;
            fg_status st = FG_OK;
            fg_buffer *b = fg_world_buffer_at(w, i);
            fg_tick tick = fg_tick_of_us(us, w->tick_rate);
            if (s.kind == FG_EDGE_DIR) {
                if (s.value == f->e[i].dir) continue;
                st = fg_buffer_push(b, FG_EDGE_DIR, 0, s.value, us, tick, FG_SOURCE_AI, NULL, err);
                if (st == FG_OK) f->e[i].dir = s.value;
            } else if (s.kind == FG_EDGE_PRESS) {
                if (f->e[i].held & (1u << s.value)) continue;
                st = fg_buffer_push(b, FG_EDGE_PRESS, s.value, 0, us, tick, FG_SOURCE_AI, NULL, err);
                if (st == FG_OK) f->e[i].held |= 1u << s.value;
            } else {
                if (!(f->e[i].held & (1u << s.value))) continue;
                st = fg_buffer_push(b, FG_EDGE_RELEASE, s.value, 0, us, tick, FG_SOURCE_AI, NULL,
                                    err);
                if (st == FG_OK) f->e[i].held &= ~(1u << s.value);
            }
            if (st != FG_OK) return st;
            f->e[i].last_us = us;
        }
        f->e[i].nplan = keep;
    }
    return FG_OK;
}
