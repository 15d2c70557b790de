/* SPDX-License-Identifier: MIT */
/*
** trace.c: the world's trace: a ring of records (inputs, decisions, transitions, rule errors)
** written as the tick runs, read back and formatted as text. Not authoritative: never hashed,
** never snapshotted; a full ring drops its oldest record and counts it.
**
** Text (rule errors, notes) lives apart from the records, in a byte ring allocated with the
** world, so a record stays small and a message of any length is kept whole while the ring has
** room. Writing a text never allocates; one longer than the whole ring is cut at a word and
** says so, and a text the ring has reused reads as a note saying that, never as other bytes.
*/
#include "internal.h"

#include <stdio.h>
#include <string.h>

/* {====================================================================== trace */

fg_trace_record *fg_world_trace_push(fg_world *w, fg_tick tick, fg_entity e, fg_trace_kind kind,
                                     int code) {
    if (w->trace_cap == 0) return NULL;
    /* A compare rather than a division: every input edge and transition comes through here. */
    uint32_t at;
    if (w->trace_count == w->trace_cap) {
        at = w->trace_head;
        if (++w->trace_head == w->trace_cap) w->trace_head = 0;
        w->trace_dropped++;
    } else {
        at = w->trace_head + w->trace_count++;
        if (at >= w->trace_cap) at -= w->trace_cap;
    }
    fg_trace_record *r = &w->trace[at];
    r->tick = tick;
    r->entity = e;
    fg_entity_state *es = fg_world_entity(w, e);
    r->version = es && w->state->nslots ? w->state->slot_version[es->rules_slot] : 0;
    r->kind = (uint16_t)kind;
    r->code = (uint16_t)code;
    r->a = r->b = r->c = r->d = 0;
    r->text_at = 0;
    r->text_len = 0;
    return r;
}

/* {====================================================================== text */

#define NO_RING UINT64_MAX /* text_at of a text written while the world keeps none */

/* Copies s (NUL-terminated) into the ring; *at and *len say where. A text that cannot fit in
** the ring keeps its head, cut at a word, and a note of what is missing. */
static void text_put(fg_world *w, const char *s, uint64_t *at, uint32_t *len) {
    size_t n = strlen(s);
    uint32_t cap = w->trace_text_cap;
    if (n == 0) {
        *at = 0;
        *len = 0;
        return;
    }
    if (cap == 0) {
        *at = NO_RING;
        *len = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
        return;
    }
    char note[128] = "";
    size_t keep = n, note_len = 0;
    if (n + 1 > cap) {
        /* cap >= 256 (check_config), so the note always fits with some of the text. */
        note_len = (size_t)snprintf(note, sizeof note, " [... %zu more bytes: the message is "
                                    "longer than world.trace_text_bytes (%u)]", n, cap);
        keep = cap - 1 - note_len;
        size_t word = keep;
        while (word > 0 && s[word] != ' ') word--;
        if (word > keep / 2) keep = word;
        snprintf(note, sizeof note, " [... %zu more bytes: the message is longer than "
                 "world.trace_text_bytes (%u)]", n - keep, cap);
        note_len = strlen(note);
    }
    size_t need = keep + note_len + 1;
    uint64_t pos = w->trace_text_head % cap;
    if (pos + need > cap) w->trace_text_head += cap - pos; /* never split a text at the end */
    char *dst = w->trace_text + w->trace_text_head % cap;
    memcpy(dst, s, keep);
    memcpy(dst + keep, note, note_len);
    dst[keep + note_len] = '\0';
    *at = w->trace_text_head;
    *len = (uint32_t)(keep + note_len);
    w->trace_text_head += need;
}

const char *fg_world_trace_text(const fg_world *w, const fg_trace_record *r) {
    if (!r || r->text_len == 0) return "";
    if (r->text_at == NO_RING)
        return "(text not kept: the world was created with trace_text_bytes 0)";
    if (w->trace_text_head - r->text_at > w->trace_text_cap)
        return "(text overwritten by newer trace records: raise world.trace_text_bytes to keep "
               "more)";
    return w->trace_text + r->text_at % w->trace_text_cap;
}

void fg_world_trace_hook_error(fg_world *w, const char *text) {
    if (!w || !text) return;
    text_put(w, text, &w->hook_text_at, &w->hook_text_len);
    w->hook_text = true;
}

void fg_world_trace_rule_error(fg_world *w, fg_tick tick, fg_entity e, const char *msg) {
    fg_trace_record *r = fg_world_trace_push(w, tick, e, FG_TRACE_RULE_ERROR, 0);
    if (r && w->hook_text) {
        r->text_at = w->hook_text_at;
        r->text_len = w->hook_text_len;
    } else if (r) {
        text_put(w, msg, &r->text_at, &r->text_len);
    }
    w->hook_text = false;
}

/* }====================================================================== */

void fg_world_trace4(fg_world *w, fg_tick tick, fg_entity e, fg_trace_kind kind, int code,
                     int64_t a, int64_t b, int64_t c, int64_t d) {
    fg_trace_record *r = fg_world_trace_push(w, tick, e, kind, code);
    if (!r) return;
    r->a = a;
    r->b = b;
    r->c = c;
    r->d = d;
}

uint32_t fg_world_trace_count(const fg_world *w) { return w->trace_count; }

const fg_trace_record *fg_world_trace_at(const fg_world *w, uint32_t i) {
    if (i >= w->trace_count) return NULL;
    return &w->trace[(w->trace_head + i) % w->trace_cap];
}

uint64_t fg_world_trace_dropped(const fg_world *w) { return w->trace_dropped; }

void fg_world_trace_clear(fg_world *w) { w->trace_head = w->trace_count = 0; }

void fg_world_note_error(fg_world *w, fg_entity e, const char *text) {
    fg_trace_record *r = fg_world_trace_push(w, w->state->tick - 1, e, FG_TRACE_RULE_ERROR, 0);
    if (r) text_put(w, text ? text : "", &r->text_at, &r->text_len);
}

const char *fg_transition_reason_name(fg_transition_reason r) {
    static const char *const names[] = {"request", "ended",   "hold",        "landed",
                                        "hit",     "blocked", "interrupted", "spawn",
                                        "fell",    "bounced"};
    return (unsigned)r < 10 ? names[r] : "unknown";
}

static const char *edge_kind_name(int k) {
    return k == FG_EDGE_PRESS ? "press" : k == FG_EDGE_RELEASE ? "release" : "dir";
}

/* Names are read in the ruleset version the record was made with: ids change across reloads. */
static const char *name_in(const fg_world *w, uint32_t version, int64_t action) {
    const fg_ruleset *rules = version < w->nversions ? w->versions[version] : NULL;
    if (!rules || action < 0 || (uint64_t)action >= rules->nactions) return "(none)";
    return rules->defs[action].name;
}

int fg_world_trace_format(const fg_world *w, const fg_trace_record *r, char *buf, size_t size) {
    int n = snprintf(buf, size, "t=%lld e%u ", (long long)r->tick, r->entity);
    if (n < 0 || (size_t)n >= size) return n;
    char *p = buf + n;
    size_t left = size - (size_t)n;
    const fg_ruleset *rules = r->version < w->nversions && w->state->nslots ? w->versions[r->version]
                                                                          : NULL;
    switch (r->kind) {
    case FG_TRACE_INPUT:
        if (r->a == FG_EDGE_DIR)
            return n + snprintf(p, left, "input dir %lld (edge %lld)", (long long)r->c,
                                (long long)r->d);
        return n + snprintf(p, left, "input %s %s (edge %lld)", edge_kind_name((int)r->a),
                            fg_action_names_get(&w->names, (int)r->b), (long long)r->d);
    case FG_TRACE_CONTACT:
        return n + snprintf(p, left, "%s%s", r->a ? "grounded" : "airborne",
                            r->b ? ", jump permission restored" : "");
    case FG_TRACE_JUMP: {
        fg_jump_decision d;
        memset(&d, 0, sizeof d);
        d.result = (fg_jump_result)r->code;
        d.tick = r->tick;
        d.press_tick = r->a;
        d.last_grounded = r->b;
        d.window = r->c;
        d.press_until = r->d;
        return n + fg_jump_describe(&d, p, left);
    }
    case FG_TRACE_DECISION:
        return rules ? n + fg_decision_describe(rules, &r->decision, p, left)
                     : n + snprintf(p, left, "decision");
    case FG_TRACE_TRANSITION: {
        const char *layer = rules && r->a < (int64_t)rules->nlayers ? rules->layers[r->a] : "?";
        uint32_t from_version = r->b < 0 ? r->version : (uint32_t)((uint64_t)r->b >> 32);
        int64_t from = r->b < 0 ? -1 : (int64_t)(r->b & 0xFFFFFFFF);
        return n + snprintf(p, left, "%s: %s -> %s (%s, action #%lld)", layer,
                            name_in(w, from_version, from), name_in(w, r->version, r->c),
                            fg_transition_reason_name((fg_transition_reason)r->code),
                            (long long)r->d);
    }
    case FG_TRACE_HIT:
        return n + snprintf(p, left, "%s by e%lld's %s: %lld damage, hitstop %lld",
                            r->code == FG_ON_HIT ? "hit" : "blocked", (long long)r->a,
                            name_in(w, (uint32_t)((uint64_t)r->b >> 32), r->b & 0xFFFFFFFF),
                            (long long)r->c, (long long)r->d);
    case FG_TRACE_COMMAND:
        return n + snprintf(p, left, "command %s (motion %lld, first edge %lld)",
                            name_in(w, r->version, r->b), (long long)r->a, (long long)r->c);
    case FG_TRACE_EVENT: {
        const char *marker = rules && r->c >= 0 && (uint64_t)r->c < rules->nmarkers
                                 ? rules->marker_names[r->c]
                                 : "?";
        return n + snprintf(p, left, "event %s #%lld of action #%lld: %s", marker,
                            (long long)r->d, (long long)r->b,
                            fg_dispatch_result_name((fg_dispatch_result)r->code));
    }
    case FG_TRACE_TRUE: {
        const fg_motion_set *set = rules ? rules->motion_set : NULL;
        const char *motion = set ? fg_motion_name(set, (uint32_t)r->a) : NULL;
        n += snprintf(p, left, "true: %s", motion ? motion : "?");
        if (r->b > 0 && (size_t)n < size) n += snprintf(buf + n, size - (size_t)n,
                                                        " (completed on tick %lld, age %lld)",
                                                        (long long)r->d, (long long)r->b);
        if (r->c >= 0 && (size_t)n < size)
            n += snprintf(buf + n, size - (size_t)n, " -> %s", name_in(w, r->version, r->c));
        return n;
    }
    case FG_TRACE_RULE_ERROR:
        return n + snprintf(p, left, "rule error: %s", fg_world_trace_text(w, r));
    case FG_TRACE_RELOAD: {
        const fg_ruleset *now = fg_world_rules_version(w, (uint32_t)r->d);
        return n + snprintf(p, left, "reload: slot %u runs '%s' version %lld, content %016llx "
                            "(was %016llx), source %016llx", r->code, now ? now->name : "?",
                            (long long)r->d, (unsigned long long)r->a, (unsigned long long)r->c,
                            (unsigned long long)r->b);
    }
    case FG_TRACE_MISS:
        return n + snprintf(p, left, "missed by e%lld's %s: %s (juggle %lld of %lld)",
                            (long long)r->a,
                            name_in(w, (uint32_t)((uint64_t)r->b >> 32), r->b & 0xFFFFFFFF),
                            fg_miss_reason_name((fg_miss_reason)r->code), (long long)r->c,
                            (long long)r->d);
    case FG_TRACE_THROW:
        return n + snprintf(p, left, "throw %s by e%lld's %s (%s %lld)",
                            fg_throw_step_name((fg_throw_step)r->code), (long long)r->a,
                            name_in(w, (uint32_t)((uint64_t)r->b >> 32), r->b & 0xFFFFFFFF),
                            r->code == FG_THROW_LANDED ? "damage" : "tech window",
                            (long long)r->c);
    case FG_TRACE_PROJECTILE: {
        int k = snprintf(p, left, "projectile %lld of e%u's %s: %s", (long long)r->a, r->entity,
                         name_in(w, (uint32_t)((uint64_t)r->b >> 32), r->b & 0xFFFFFFFF),
                         fg_projectile_step_name((fg_projectile_step)r->code));
        if (r->code == FG_PROJECTILE_CLASHED && k >= 0 && (size_t)k < left)
            k += snprintf(p + k, left - (size_t)k, " with projectile %lld", (long long)r->d);
        else if (r->code == FG_PROJECTILE_STRUCK && k >= 0 && (size_t)k < left)
            k += snprintf(p + k, left - (size_t)k, " by e%lld", (long long)r->d);
        else if ((r->code == FG_PROJECTILE_POOL_FULL || r->code == FG_PROJECTILE_AT_LIMIT) &&
                 k >= 0 && (size_t)k < left)
            k += snprintf(p + k, left - (size_t)k, ", %lld already", (long long)r->d);
        else if (k >= 0 && (size_t)k < left)
            k += snprintf(p + k, left - (size_t)k, " at x %g", (double)r->c / FG_FX_ONE);
        return n + k;
    }
    case FG_TRACE_VAR: {
        const char *var = rules && r->code < rules->nvars ? rules->vars[r->code].name : "?";
        return n + snprintf(p, left, "var %s: %lld -> %lld (%s %lld)", var, (long long)r->a,
                            (long long)r->b, r->c == FG_VAR_ADD ? "add" : "set", (long long)r->d);
    }
    case FG_TRACE_BOUNCE: {
        if (r->code > FG_BOUNCE_REFUSED)
            return n + snprintf(p, left, "%s bounce refused (armed by e%lld): bounce_limit (%lld "
                                "of %lld bounces this combo)",
                                fg_bounce_kind_name((fg_bounce_kind)(r->code - FG_BOUNCE_REFUSED)),
                                (long long)r->a, (long long)r->b, (long long)r->c);
        bool wall = r->code == FG_BOUNCE_WALL;
        return n + snprintf(p, left, "%s bounce at %s %g (armed by e%lld): vx %g, vy %g, stun %d",
                            fg_bounce_kind_name((fg_bounce_kind)r->code), wall ? "x" : "y",
                            (double)(int32_t)(uint32_t)r->b / FG_FX_ONE, (long long)r->a,
                            (double)r->c / FG_FX_ONE, (double)r->d / FG_FX_ONE,
                            (int)(r->b >> 32));
    }
    default: return n + snprintf(p, left, "record kind %u", r->kind);
    }
}

/* }====================================================================== */
