/* SPDX-License-Identifier: MIT */
/*
** meter.c: the frame meter, as players know it from Street Fighter 6: one character per tick
** and per entity, the same column being the same tick, with startup, total and advantage of the
** first action in the range. The phases come from the world's per-tick records, so a scenario
** test can compare a rendered meter with a golden text.
*/
#include "internal.h"

#include <stdio.h>
#include <string.h>

static uint8_t meter_raw(const fg_world *w, fg_entity e, fg_tick tick) {
    if (!fg_world_entity(w, e) || tick < 0 || tick >= w->state->tick ||
        tick < w->state->tick - FG_METER_TICKS)
        return FG_PHASE_NEUTRAL;
    return *fg_world_meter_cell(w, e - 1, tick);
}

fg_phase fg_world_meter_at(const fg_world *w, fg_entity e, fg_tick tick) {
    uint8_t raw = meter_raw(w, e, tick);
    return raw & FG_METER_BUFFERED ? FG_PHASE_BUFFERED : (fg_phase)(raw & FG_METER_PHASE);
}

static bool busy(fg_phase p) { return p != FG_PHASE_NEUTRAL && p != FG_PHASE_AIRBORNE; }

typedef struct row_stats {
    fg_tick first_busy, free_at;
    int startup, active, total;
    bool cancelled; /* the stretch ended in a cancel into another action */
} row_stats;

/* Counts the first busy stretch of a row: from its first busy tick to the tick it is free
** again, or the tick a request starts the next action (a cancel). Hitstop ticks are not
** counted, as fighting games do not count them. */
static row_stats stats_of(const fg_world *w, fg_entity e, fg_tick from, fg_tick to) {
    row_stats s = {-1, -1, 0, 0, 0, false};
    for (fg_tick t = from; t <= to; t++) {
        uint8_t raw = meter_raw(w, e, t);
        fg_phase p = (fg_phase)(raw & FG_METER_PHASE); /* under a waiting request, too */
        if (s.first_busy < 0) {
            if (!busy(p)) continue;
            s.first_busy = t;
        } else if (raw & FG_METER_STARTED) {
            s.free_at = t;
            s.cancelled = true;
            break;
        }
        if (!busy(p)) {
            s.free_at = t;
            break;
        }
        if (p == FG_PHASE_HITSTOP) continue;
        s.total++;
        if (p == FG_PHASE_STARTUP) s.startup++;
        if (p == FG_PHASE_ACTIVE) s.active++;
    }
    return s;
}

int fg_world_meter_render(const fg_world *w, fg_tick from, fg_tick to, char *buf, size_t size) {
    if (size == 0) return 0;
    buf[0] = '\0';
    if (to >= w->state->tick) to = w->state->tick - 1;
    if (from < w->state->tick - FG_METER_TICKS) from = w->state->tick - FG_METER_TICKS;
    if (from < 0) from = 0;
    size_t at = 0;
#define OUT(...)                                                                          \
    do {                                                                                  \
        int k_ = snprintf(buf + at, at < size ? size - at : 0, __VA_ARGS__);              \
        if (k_ > 0) at += (size_t)k_;                                                     \
    } while (0)
    if (to < from) {
        OUT("(no ticks)\n");
        return (int)at;
    }
    OUT("ticks %lld-%lld\n", (long long)from, (long long)to);
    uint32_t n = w->state->nentities;
    row_stats first = {-1, -1, 0, 0, 0, false};
    fg_entity attacker = 0;
    for (fg_entity e = 1; e <= n; e++) {
        OUT("e%-3u ", e);
        for (fg_tick t = from; t <= to; t++) OUT("%c", fg_phase_char(fg_world_meter_at(w, e, t)));
        row_stats s = stats_of(w, e, from, to);
        if (s.first_busy >= 0 && (attacker == 0 || s.first_busy < first.first_busy)) {
            attacker = e;
            first = s;
        }
        OUT("\n");
    }
    if (attacker) {
        OUT("e%u: startup %d, active %d, %s %d", attacker, first.startup, first.active,
            first.cancelled ? "cancelled after" : "total", first.total);
        /* Advantage: when the other fighter is free again compared with the attacker. */
        const fg_entity_state *a = fg_world_entity(w, attacker);
        if (a && a->opponent && first.free_at >= 0 && !first.cancelled) {
            row_stats d = stats_of(w, a->opponent, first.first_busy, to);
            if (d.first_busy >= 0 && d.free_at >= 0) {
                int adv = (int)(d.free_at - first.free_at);
                OUT(", advantage %+d", adv);
            }
        }
        OUT("\n");
    }
    /* Combos in progress (two hits or more), with the damage after scaling. */
    for (fg_entity e = 1; e <= n; e++) {
        const fg_combat *c = &w->entities[e - 1].combat;
        if (c->combo >= 2) OUT("e%u: combo %d hits, %d damage\n", e, c->combo, c->combo_damage);
    }
    OUT("legend: . neutral  s startup  A active  r recovery  c cancel window  x stun  = hitstop"
        "  b buffered  ^ airborne\n");
#undef OUT
    return (int)at;
}
