/* SPDX-License-Identifier: MIT */
/*
** jump.c: the jump gate of the behavior layer (jump buffer + coyote time + jump permission).
*/
#include "framegate/behavior.h"

#include <stdio.h>
#include <string.h>

fg_status fg_jump_config_check(const fg_jump_config *c, fg_error *err) {
    if (c->buffer_ticks < 0)
        return fg_error_set(err, FG_EINVAL, "jump.buffer: %lld ticks, expected >= 0",
                            (long long)c->buffer_ticks);
    if (c->coyote_ticks < 0)
        return fg_error_set(err, FG_EINVAL, "jump.coyote: %lld ticks, expected >= 0",
                            (long long)c->coyote_ticks);
    return FG_OK;
}

void fg_ground_init(fg_ground *g, bool grounded, fg_tick tick) {
    memset(g, 0, sizeof *g);
    if (grounded) {
        g->has_history = g->grounded = true;
        g->last_grounded = g->landed_at = tick;
    }
}

void fg_ground_report(fg_ground *g, fg_tick tick, bool grounded) {
    g->grounded = grounded;
    if (!grounded) {
        if (g->permission_spent) g->left_ground = true;
        return;
    }
    if (!g->has_history || (g->permission_spent && g->left_ground)) {
        g->permission_spent = false;
        g->left_ground = false;
        g->landed_at = tick;
    }
    g->has_history = true;
    g->last_grounded = tick;
}

fg_jump_decision fg_jump_check(const fg_ground *g, const fg_buffer *buf, int jump_action,
                                fg_tick now, const fg_jump_config *cfg) {
    fg_jump_decision d;
    memset(&d, 0, sizeof d);
    d.tick = now;
    d.last_grounded = g->last_grounded;
    fg_edge_ref press;
    if (!fg_buffer_find_press(buf, jump_action, now - cfg->buffer_ticks, now, &press)) {
        d.result = FG_JUMP_NO_PRESS;
        d.window = cfg->buffer_ticks;
        return d;
    }
    d.press = press;
    const fg_edge *e = fg_buffer_find(buf, press.id);
    d.press_tick = e ? e->tick : now;
    d.press_until = d.press_tick + cfg->buffer_ticks;
    if (!g->has_history) {
        d.result = FG_JUMP_NEVER_GROUNDED;
    } else if (g->permission_spent) {
        d.result = FG_JUMP_PERMISSION_SPENT;
    } else if (g->last_grounded > now || g->last_grounded < now - cfg->coyote_ticks) {
        d.result = FG_JUMP_COYOTE_EXPIRED;
        d.window = cfg->coyote_ticks;
    } else {
        d.result = FG_JUMP_OK;
    }
    return d;
}

void fg_jump_commit(fg_ground *g, fg_buffer *buf, const fg_jump_decision *d) {
    fg_buffer_consume(buf, d->press, NULL);
    g->permission_spent = true;
    g->left_ground = false;
}

fg_jump_decision fg_jump_try(fg_ground *g, fg_buffer *buf, int jump_action, fg_tick now,
                             const fg_jump_config *cfg) {
    fg_jump_decision d = fg_jump_check(g, buf, jump_action, now, cfg);
    if (d.result == FG_JUMP_OK) fg_jump_commit(g, buf, &d);
    return d;
}

const char *fg_jump_result_name(fg_jump_result r) {
    switch (r) {
    case FG_JUMP_OK: return "jump";
    case FG_JUMP_NO_PRESS: return "no_press";
    case FG_JUMP_NEVER_GROUNDED: return "never_grounded";
    case FG_JUMP_PERMISSION_SPENT: return "permission_spent";
    case FG_JUMP_COYOTE_EXPIRED: return "coyote_expired";
    case FG_JUMP_DROP: return "drop";
    case FG_JUMP_REFUSED: return "refused";
    }
    return "unknown";
}

int fg_jump_describe(const fg_jump_decision *d, char *buf, size_t size) {
    switch (d->result) {
    case FG_JUMP_OK:
        return snprintf(buf, size, "accepted: jump (press at tick %lld, last grounded tick %lld)",
                        (long long)d->press_tick, (long long)d->last_grounded);
    case FG_JUMP_NO_PRESS:
        return snprintf(buf, size, "no jump press in the last %lld ticks", (long long)d->window);
    case FG_JUMP_NEVER_GROUNDED:
        return snprintf(buf, size,
                        "rejected: jump (press at tick %lld): never grounded since spawn; "
                        "press buffered until tick %lld",
                        (long long)d->press_tick, (long long)d->press_until);
    case FG_JUMP_PERMISSION_SPENT:
        return snprintf(buf, size,
                        "rejected: jump (press at tick %lld): permission already used, "
                        "no landing since; press buffered until tick %lld",
                        (long long)d->press_tick, (long long)d->press_until);
    case FG_JUMP_COYOTE_EXPIRED:
        return snprintf(buf, size,
                        "rejected: jump (press at tick %lld): last grounded at tick %lld, "
                        "%lld ticks ago, coyote window %lld; press buffered until tick %lld",
                        (long long)d->press_tick, (long long)d->last_grounded,
                        (long long)(d->tick - d->last_grounded), (long long)d->window,
                        (long long)d->press_until);
    case FG_JUMP_DROP:
        return snprintf(buf, size, "accepted: drop through the platform (down + jump, press at "
                        "tick %lld)", (long long)d->press_tick);
    case FG_JUMP_REFUSED:
        return snprintf(buf, size,
                        "rejected: jump (press at tick %lld): the jump action was refused (see "
                        "the request decision); press buffered until tick %lld",
                        (long long)d->press_tick, (long long)d->press_until);
    }
    return snprintf(buf, size, "unknown jump result");
}

void fg_ground_hash(const fg_ground *g, fg_hasher *hs) {
    fg_hash_u64(hs, (uint64_t)g->has_history | (uint64_t)g->permission_spent << 1 |
                        (uint64_t)g->left_ground << 2 | (uint64_t)g->grounded << 3);
    fg_hash_i64(hs, g->last_grounded);
    fg_hash_i64(hs, g->landed_at);
}
