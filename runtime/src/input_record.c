/* SPDX-License-Identifier: MIT */
/*
** input_record.c: one player's input for one tick as a fixed-size record, and its wire form.
**
** A record keeps the end state of the tick (buttons held, direction) and the tick's edges in
** order, one byte each (kind in the top two bits, button id or numpad below), because the order
** inside a tick reaches gameplay: a button edge carries the direction held when it was pushed,
** and a 2-3-6 inside one tick is three steps of a motion. Timestamps inside the tick do not
** reach gameplay and are not kept. The wire form is relative to the previous record, whose end
** state is the start of this one: the end state is sent only when the edges cannot give it.
*/
#include "internal.h"
#include "text.h"

#include "framegate/session.h"

#include <stdio.h>
#include <string.h>

#define BUTTON_BITS (~(uint32_t)FG_IN_DIRECTION_MASK)
#define EDGE_BYTE(kind, value) ((uint8_t)((unsigned)(kind) << 6 | (unsigned)(value)))
#define EDGE_KIND(byte) ((byte) >> 6)
#define EDGE_VALUE(byte) ((byte) & 0x3Fu)

void fg_input_record_start(fg_input_record *r, const fg_input_record *prev) {
    uint32_t held = prev ? prev->held : 0;
    uint8_t dir = prev ? prev->dir : 5;
    memset(r, 0, sizeof *r);
    r->held = held;
    r->dir = dir;
}

bool fg_input_record_equal(const fg_input_record *a, const fg_input_record *b) {
    return a->held == b->held && a->dir == b->dir && a->nedges == b->nedges &&
           a->overflow == b->overflow && memcmp(a->edges, b->edges, a->nedges) == 0;
}

/* Applies one edge to a (held, dir) state, refusing what the buffer would refuse. */
static fg_status step(uint32_t *held, uint8_t *dir, unsigned kind, unsigned value,
                      uint32_t nbuttons, fg_error *err) {
    switch (kind) {
    case FG_EDGE_PRESS:
    case FG_EDGE_RELEASE:
        if (value < FG_IN_FIRST_BUTTON || value >= FG_IN_FIRST_BUTTON + nbuttons)
            return fg_error_set(err, FG_EINVAL, "button id %u: expected %d..%u", value,
                                FG_IN_FIRST_BUTTON, FG_IN_FIRST_BUTTON + nbuttons - 1);
        if (kind == FG_EDGE_PRESS && (*held & (1u << value)))
            return fg_error_set(err, FG_ESTATE, "press of button %u, which is already held", value);
        if (kind == FG_EDGE_RELEASE && !(*held & (1u << value)))
            return fg_error_set(err, FG_ESTATE, "release of button %u, which is not held", value);
        *held ^= 1u << value;
        return FG_OK;
    case FG_EDGE_DIR:
        if (value < 1 || value > 9)
            return fg_error_set(err, FG_EINVAL, "direction %u: expected a numpad value 1..9",
                                value);
        if (value == *dir)
            return fg_error_set(err, FG_ESTATE, "direction %u is already held", value);
        *dir = (uint8_t)value;
        return FG_OK;
    default:
        return fg_error_set(err, FG_EINVAL, "edge kind %u: expected press, release or dir", kind);
    }
}

fg_status fg_input_record_add(fg_input_record *r, fg_edge_kind kind, int value, fg_error *err) {
    if (value < 0 || value > 63)
        return fg_error_set(err, FG_EINVAL, "input record: value %d out of range", value);
    uint32_t held = r->held;
    uint8_t dir = r->dir;
    fg_status st = step(&held, &dir, (unsigned)kind, (unsigned)value,
                        FG_INPUT_MAX_ACTIONS - FG_IN_FIRST_BUTTON, err);
    if (st != FG_OK) return st;
    r->held = held;
    r->dir = dir;
    if (r->nedges < FG_INPUT_RECORD_EDGES)
        r->edges[r->nedges++] = EDGE_BYTE(kind, value);
    else
        r->overflow = 1;
    return FG_OK;
}

fg_status fg_input_record_of_tick(const fg_buffer *b, const fg_tick_input *ti,
                                  const fg_input_record *prev, fg_input_record *out,
                                  fg_error *err) {
    /* Where the tick started: its end state with its edges undone, newest first. */
    fg_input_record start;
    fg_input_record_start(&start, NULL);
    start.held = ti->held & BUTTON_BITS;
    start.dir = ti->dir;
    for (uint32_t i = ti->count; i-- > 0;) {
        const fg_edge *e = fg_buffer_at(b, ti->first + i);
        if (!e) return fg_error_set(err, FG_EINVAL, "input record: edge %u of tick %lld is no "
                                    "longer in the buffer", ti->first + i, (long long)ti->tick);
        if (e->kind == FG_EDGE_DIR) start.dir = e->prev_dir;
        else start.held ^= 1u << e->action;
    }
    fg_input_record r;
    fg_input_record_start(&r, &start);
    for (uint32_t i = 0; i < ti->count; i++) {
        const fg_edge *e = fg_buffer_at(b, ti->first + i);
        int value = e->kind == FG_EDGE_DIR ? e->dir : e->action;
        fg_status st = fg_input_record_add(&r, (fg_edge_kind)e->kind, value, err);
        if (st != FG_OK) {
            fg_error_prefix(err, "input record of tick %lld", (long long)ti->tick);
            return st;
        }
    }
    /* prev did not end where this tick started (or is unknown): the end state decides. */
    if (!r.overflow && fg_input_record_check(&r, prev, FG_INPUT_MAX_ACTIONS - FG_IN_FIRST_BUTTON,
                                             NULL) != FG_OK)
        r.overflow = 1;
    *out = r;
    return FG_OK;
}

fg_status fg_input_record_check(const fg_input_record *r, const fg_input_record *prev,
                                uint32_t nbuttons, fg_error *err) {
    if (nbuttons > FG_INPUT_MAX_ACTIONS - FG_IN_FIRST_BUTTON)
        nbuttons = FG_INPUT_MAX_ACTIONS - FG_IN_FIRST_BUTTON;
    uint32_t valid = nbuttons ? (((uint32_t)-1) >> (32 - nbuttons)) << FG_IN_FIRST_BUTTON : 0;
    if (r->held & ~valid)
        return fg_error_set(err, FG_EINVAL, "held buttons 0x%x: only 0x%x are declared", r->held,
                            valid);
    if (r->dir < 1 || r->dir > 9)
        return fg_error_set(err, FG_EINVAL, "direction %u: expected a numpad value 1..9", r->dir);
    if (r->nedges > FG_INPUT_RECORD_EDGES)
        return fg_error_set(err, FG_EINVAL, "%u edges: at most %d", r->nedges,
                            FG_INPUT_RECORD_EDGES);
    if (r->overflow > 1)
        return fg_error_set(err, FG_EINVAL, "overflow flag %u: expected 0 or 1", r->overflow);
    uint32_t held = prev ? prev->held : 0;
    uint8_t dir = prev ? prev->dir : 5;
    for (uint32_t i = 0; i < r->nedges; i++) {
        fg_status st = step(&held, &dir, EDGE_KIND(r->edges[i]), EDGE_VALUE(r->edges[i]),
                            nbuttons, err);
        if (st != FG_OK) {
            fg_error_prefix(err, "edge %u", i + 1);
            return st;
        }
    }
    if (!r->overflow && (held != r->held || dir != r->dir))
        return fg_error_set(err, FG_EINVAL, "the edges end in held 0x%x, dir %u, the record says "
                            "held 0x%x, dir %u", held, dir, r->held, r->dir);
    return FG_OK;
}

static fg_status push_edge(fg_world *w, fg_entity e, unsigned kind, unsigned value, int64_t t,
                           fg_error *err) {
    if (kind == FG_EDGE_PRESS) return fg_world_press(w, e, (int)value, t, FG_SOURCE_NETWORK, err);
    if (kind == FG_EDGE_RELEASE)
        return fg_world_release(w, e, (int)value, t, FG_SOURCE_NETWORK, err);
    return fg_world_direction(w, e, (int)value, t, FG_SOURCE_NETWORK, err);
}

fg_status fg_input_record_push(const fg_input_record *r, fg_world *w, fg_entity e, fg_tick tick,
                               fg_error *err) {
    if (!fg_world_entity(w, e)) return fg_world_no_entity(w, e, err);
    int64_t t = fg_us_of_tick(tick, w->tick_rate);
    for (uint32_t i = 0; i < r->nedges; i++) {
        fg_status st = push_edge(w, e, EDGE_KIND(r->edges[i]), EDGE_VALUE(r->edges[i]), t, err);
        if (st != FG_OK) return st;
    }
    /* The end state: exact already unless the record overflowed. */
    const fg_buffer *b = fg_world_buffer_at(w, e - 1);
    uint32_t have = b->pushed_held & BUTTON_BITS;
    for (unsigned a = FG_IN_FIRST_BUTTON; a < FG_INPUT_MAX_ACTIONS; a++) {
        uint32_t bit = 1u << a;
        if ((have & bit) && !(r->held & bit)) {
            fg_status st = push_edge(w, e, FG_EDGE_RELEASE, a, t, err);
            if (st != FG_OK) return st;
        }
    }
    for (unsigned a = FG_IN_FIRST_BUTTON; a < FG_INPUT_MAX_ACTIONS; a++) {
        uint32_t bit = 1u << a;
        if (!(have & bit) && (r->held & bit)) {
            fg_status st = push_edge(w, e, FG_EDGE_PRESS, a, t, err);
            if (st != FG_OK) return st;
        }
    }
    if (b->pushed_dir != r->dir) return push_edge(w, e, FG_EDGE_DIR, r->dir, t, err);
    return FG_OK;
}

/* First byte: bits 0-3 the edge count, bit 4 overflow, bit 5 the end state follows. */
size_t fg_input_record_encode(const fg_input_record *r, uint8_t *out) {
    bool state = r->overflow != 0;
    size_t n = 0;
    out[n++] = (uint8_t)(r->nedges | (r->overflow ? 0x10u : 0) | (state ? 0x20u : 0));
    if (state) {
        uint32_t v = (r->held >> FG_IN_FIRST_BUTTON) | (uint32_t)r->dir << 28;
        for (int i = 0; i < 4; i++) out[n++] = (uint8_t)(v >> (8 * i));
    }
    memcpy(out + n, r->edges, r->nedges);
    return n + r->nedges;
}

fg_status fg_input_record_decode(const uint8_t *in, size_t len, size_t *used,
                                 const fg_input_record *prev, uint32_t nbuttons,
                                 fg_input_record *out, fg_error *err) {
    if (len < 1) return fg_error_set(err, FG_EFORMAT, "input record: truncated");
    uint8_t head = in[0];
    if (head & 0xC0u)
        return fg_error_set(err, FG_EFORMAT, "input record: unknown flags 0x%02x", head);
    fg_input_record r;
    fg_input_record_start(&r, prev);
    r.nedges = head & 0x0Fu;
    r.overflow = (head & 0x10u) ? 1 : 0;
    bool state = (head & 0x20u) != 0;
    if (r.nedges > FG_INPUT_RECORD_EDGES)
        return fg_error_set(err, FG_EFORMAT, "input record: %u edges, at most %d", r.nedges,
                            FG_INPUT_RECORD_EDGES);
    if (r.overflow && !state)
        return fg_error_set(err, FG_EFORMAT, "input record: overflow without its end state");
    size_t need = 1 + (state ? 4u : 0u) + r.nedges;
    if (len < need)
        return fg_error_set(err, FG_EFORMAT, "input record: %zu bytes, needs %zu", len, need);
    size_t n = 1;
    if (state) {
        uint32_t v = 0;
        for (int i = 0; i < 4; i++) v |= (uint32_t)in[n++] << (8 * i);
        r.held = (v & 0x0FFFFFFFu) << FG_IN_FIRST_BUTTON;
        r.dir = (uint8_t)(v >> 28);
    }
    memcpy(r.edges, in + n, r.nedges);
    if (!state) { /* the end state is where the edges lead */
        uint32_t held = r.held;
        uint8_t dir = r.dir;
        for (uint32_t i = 0; i < r.nedges; i++) {
            fg_status st = step(&held, &dir, EDGE_KIND(r.edges[i]), EDGE_VALUE(r.edges[i]),
                                nbuttons, err);
            if (st != FG_OK) {
                fg_error_prefix(err, "input record: edge %u", i + 1);
                return st;
            }
        }
        r.held = held;
        r.dir = dir;
    }
    fg_status st = fg_input_record_check(&r, prev, nbuttons, err);
    if (st != FG_OK) {
        fg_error_prefix(err, "input record");
        return st;
    }
    *out = r;
    *used = need;
    return FG_OK;
}

static const char *name_of(const fg_action_names *names, unsigned id, char *tmp, size_t size) {
    const char *n = names ? fg_action_names_get(names, (int)id) : NULL;
    if (n) return n;
    snprintf(tmp, size, "#%u", id);
    return tmp;
}

int fg_input_record_format(const fg_input_record *r, const fg_action_names *names, char *buf,
                           size_t size) {
    size_t len = 0;
    char tmp[16];
    if (size) buf[0] = '\0';
    for (uint32_t i = 0; i < r->nedges; i++) {
        unsigned k = EDGE_KIND(r->edges[i]), v = EDGE_VALUE(r->edges[i]);
        if (k == FG_EDGE_DIR) fg_text_append(buf, size, &len, "%s%u", i ? " " : "", v);
        else fg_text_append(buf, size, &len, "%s%c%s", i ? " " : "",
                            k == FG_EDGE_PRESS ? '+' : '-', name_of(names, v, tmp, sizeof tmp));
    }
    if (r->overflow) fg_text_append(buf, size, &len, " ...");
    fg_text_append(buf, size, &len, "%sheld", r->nedges || r->overflow ? " | " : "");
    bool any = false;
    for (unsigned a = FG_IN_FIRST_BUTTON; a < FG_INPUT_MAX_ACTIONS; a++)
        if (r->held & (1u << a)) {
            fg_text_append(buf, size, &len, "%s%s", any ? "+" : " ",
                           name_of(names, a, tmp, sizeof tmp));
            any = true;
        }
    if (!any) fg_text_append(buf, size, &len, " none");
    fg_text_append(buf, size, &len, ", dir %u", r->dir);
    return (int)len;
}
