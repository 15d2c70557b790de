/* SPDX-License-Identifier: MIT */
/*
** motion_parse.c: text to steps. Button tables and groups, leniency profiles, the numpad and MUGEN
** notations (numpad `|` alternatives and 360/720 circles included) and the input script used by
** REPL experiments and tests. MUGEN .cmd files are read in motion_cmd.c.
**
** Every parser reports the first problem with its 1-based column and what it expected, and writes
** its output only once the whole text has been read, so a failure leaves nothing half-built.
*/
#include "motion_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BIT(a) (1u << (a))
#define DBIT(d) ((uint16_t)(1u << (d)))

/* {====================================================================== helpers */

void fg_motion_quote(char *buf, size_t n, const char *s) {
    size_t o = 0;
    if (n < 4) {
        if (n) buf[0] = '\0';
        return;
    }
    buf[o++] = '"';
    for (size_t i = 0; s && s[i]; i++) {
        unsigned char c = (unsigned char)s[i];
        if (i >= 160 || o + 8 >= n) { /* shortened, and says so */
            o += (size_t)snprintf(buf + o, n - o, "...");
            break;
        }
        if (c == '"' || c == '\\') {
            buf[o++] = '\\';
            buf[o++] = (char)c;
        } else if (c < 0x20 || c >= 0x7f) {
            o += (size_t)snprintf(buf + o, n - o, "\\x%02X", c);
        } else {
            buf[o++] = (char)c;
        }
    }
    if (o + 2 > n) o = n - 2;
    buf[o++] = '"';
    buf[o] = '\0';
}

/* How an unexpected character is shown: 'x', or '\x01' for control bytes. */
static void show_char(char *buf, size_t n, unsigned char c) {
    if (c == '\'' || c == '\\') snprintf(buf, n, "'\\%c'", c);
    else if (c < 0x20 || c >= 0x7f) snprintf(buf, n, "'\\x%02X'", c);
    else snprintf(buf, n, "'%c'", c);
}

uint16_t fg_motion_mirror_set(uint16_t set) {
    uint16_t out = 0;
    for (int d = 1; d <= 9; d++)
        if (set & DBIT(d)) out |= DBIT(fg_numpad_relative(d, FG_FACING_LEFT));
    return out;
}

uint16_t fg_motion_superset_dirs(int numpad) {
    uint32_t need = fg_bits_of_numpad(numpad);
    uint16_t out = 0;
    for (int d = 1; d <= 9; d++)
        if ((fg_bits_of_numpad(d) & need) == need) out |= DBIT(d);
    return out;
}

static bool is_cardinal(int d) { return d == 2 || d == 4 || d == 6 || d == 8; }

/* }====================================================================== */

/* {====================================================================== buttons and groups */

static int cmp_group(const void *a, const void *b) {
    return strcmp(((const fg_motion_group *)a)->name, ((const fg_motion_group *)b)->name);
}

static bool is_direction_word(const char *n) {
    static const char *const words[] = {"up", "down", "left", "right"};
    for (int i = 0; i < 4; i++)
        if (strcmp(n, words[i]) == 0) return true;
    return false;
}

fg_status fg_motion_buttons_init(fg_motion_buttons *out, const char *const *buttons,
                                 uint32_t nbuttons, const fg_motion_group_def *groups,
                                 uint32_t ngroups, fg_error *err) {
    fg_motion_buttons t;
    memset(&t, 0, sizeof t);
    fg_status s = fg_action_names_init(&t.names, buttons, nbuttons, err);
    if (s != FG_OK) return s;
    if (!groups) { /* defaults: upper-case last letters shared by two or more long names */
        for (char c = 'A'; c <= 'Z'; c++) {
            uint32_t mask = 0, count = 0;
            for (uint32_t i = FG_IN_FIRST_BUTTON; i < t.names.count; i++) {
                const char *nm = t.names.names[i];
                size_t len = strlen(nm);
                if (len >= 2 && nm[len - 1] == c) {
                    mask |= BIT(i);
                    count++;
                }
            }
            char name[2] = {c, '\0'};
            if (count < 2 || fg_action_names_find(&t.names, name) >= 0) continue;
            if (t.ngroups == FG_MOTION_MAX_GROUPS) break;
            snprintf(t.groups[t.ngroups].name, FG_IN_NAME_MAX, "%s", name);
            t.groups[t.ngroups].mask = mask;
            t.ngroups++;
        }
        *out = t;
        return FG_OK;
    }
    if (ngroups > FG_MOTION_MAX_GROUPS)
        return fg_error_set(err, FG_EINVAL, "groups: %u declared, at most %d are supported",
                            ngroups, FG_MOTION_MAX_GROUPS);
    for (uint32_t g = 0; g < ngroups; g++) {
        const char *gn = groups[g].name;
        size_t len = gn ? strlen(gn) : 0;
        if (len == 0 || len >= FG_IN_NAME_MAX)
            return fg_error_set(err, FG_EINVAL, "groups[%u]: name '%s' must be 1 to %d characters",
                                g + 1, gn ? gn : "", FG_IN_NAME_MAX - 1);
        if (fg_action_names_find(&t.names, gn) >= 0 || is_direction_word(gn))
            return fg_error_set(err, FG_EINVAL,
                                "groups.%s: the name is already a button or direction; a group "
                                "needs its own name", gn);
        if (groups[g].nmembers == 0 || !groups[g].members)
            return fg_error_set(err, FG_EINVAL, "groups.%s: empty, expected at least one button",
                                gn);
        uint32_t mask = 0;
        for (uint32_t m = 0; m < groups[g].nmembers; m++) {
            const char *mn = groups[g].members[m];
            int id = fg_action_names_find(&t.names, mn);
            if (id < FG_IN_FIRST_BUTTON)
                return fg_error_set(err, FG_ENOTFOUND,
                                    "groups.%s[%u]: '%s' is not a declared button", gn, m + 1,
                                    mn ? mn : "(null)");
            if (mask & BIT(id))
                return fg_error_set(err, FG_EINVAL, "groups.%s: '%s' is listed twice", gn, mn);
            mask |= BIT(id);
        }
        for (uint32_t h = 0; h < t.ngroups; h++)
            if (strcmp(t.groups[h].name, gn) == 0)
                return fg_error_set(err, FG_EINVAL, "groups: '%s' is declared twice", gn);
        snprintf(t.groups[t.ngroups].name, FG_IN_NAME_MAX, "%s", gn);
        t.groups[t.ngroups].mask = mask;
        t.ngroups++;
    }
    qsort(t.groups, t.ngroups, sizeof t.groups[0], cmp_group);
    *out = t;
    return FG_OK;
}

void fg_motion_buttons_default(fg_motion_buttons *out, int syntax) {
    static const char *const names[] = {"LP", "MP", "HP", "LK", "MK", "HK", "a", "b",
                                        "c",  "x",  "y",  "z",  "s",  "d",  "w", "m"};
    const char *const *first = names;
    uint32_t n = (uint32_t)(sizeof names / sizeof names[0]);
    if (syntax == FG_MOTION_NUMPAD) n = 6;
    else if (syntax == FG_MOTION_MUGEN) {
        first = names + 6;
        n -= 6;
    }
    fg_error err = {0};
    if (fg_motion_buttons_init(out, first, n, NULL, 0, &err) != FG_OK) {
        memset(out, 0, sizeof *out); /* unreachable: the lists above are valid */
        fg_error_clear(&err);
    }
}

int fg_motion_buttons_group(const fg_motion_buttons *b, const char *name) {
    for (uint32_t g = 0; name && g < b->ngroups; g++)
        if (strcmp(b->groups[g].name, name) == 0) return (int)g;
    return -1;
}

/* Longest button or group name at s; returns its length and mask, 0 if none. */
static size_t match_name(const fg_motion_buttons *b, const char *s, uint32_t *mask, int *button) {
    size_t best = 0;
    for (uint32_t i = FG_IN_FIRST_BUTTON; i < b->names.count; i++) {
        size_t len = strlen(b->names.names[i]);
        if (len > best && strncmp(s, b->names.names[i], len) == 0) {
            best = len;
            *mask = BIT(i);
            if (button) *button = (int)i;
        }
    }
    for (uint32_t g = 0; g < b->ngroups; g++) {
        size_t len = strlen(b->groups[g].name);
        if (len > best && strncmp(s, b->groups[g].name, len) == 0) {
            best = len;
            *mask = b->groups[g].mask;
            if (button) *button = -1 - (int)g;
        }
    }
    return best;
}

/* }====================================================================== */

/* {====================================================================== profiles */

fg_motion_profile fg_motion_profile_preset(fg_motion_profile_kind kind) {
    fg_motion_profile p;
    memset(&p, 0, sizeof p);
    p.socd_horizontal = FG_SOCD_NEUTRAL;
    p.socd_vertical = FG_SOCD_UP_WINS;
    switch (kind) {
    case FG_MOTION_PROFILE_STRICT:
        snprintf(p.name, sizeof p.name, "strict");
        p.gap_extra = -2;
        p.time_extra = -3;
        p.chord_window = 1;
        p.socd_horizontal = FG_SOCD_NEUTRAL;
        break;
    case FG_MOTION_PROFILE_LENIENT:
        snprintf(p.name, sizeof p.name, "lenient");
        p.gap_extra = 3;
        p.time_extra = 5;
        p.chord_window = 6;
        p.lenient_directions = true;
        p.socd_horizontal = FG_SOCD_LAST_WINS;
        break;
    case FG_MOTION_PROFILE_STANDARD:
    default:
        snprintf(p.name, sizeof p.name, "standard");
        p.chord_window = 3;
        break;
    }
    return p;
}

fg_status fg_motion_profile_named(const char *name, fg_motion_profile *out, fg_error *err) {
    static const char *const names[] = {"strict", "standard", "lenient"};
    for (int i = 0; i < 3; i++)
        if (name && strcmp(name, names[i]) == 0) {
            *out = fg_motion_profile_preset((fg_motion_profile_kind)i);
            return FG_OK;
        }
    return fg_error_set(err, FG_ENOTFOUND,
                        "profile '%s': unknown, expected strict, standard or lenient",
                        name ? name : "(null)");
}

fg_status fg_motion_profile_check(const fg_motion_profile *p, fg_error *err) {
    const char *n = p->name[0] ? p->name : "profile";
    if (p->gap_extra < -FG_MOTION_MAX_TICKS || p->gap_extra > FG_MOTION_MAX_TICKS)
        return fg_error_set(err, FG_EINVAL, "%s.gap_extra: %d, expected -%d..%d", n,
                            (int)p->gap_extra, FG_MOTION_MAX_TICKS, FG_MOTION_MAX_TICKS);
    if (p->time_extra < -FG_MOTION_MAX_TICKS || p->time_extra > FG_MOTION_MAX_TICKS)
        return fg_error_set(err, FG_EINVAL, "%s.time_extra: %d, expected -%d..%d", n,
                            (int)p->time_extra, FG_MOTION_MAX_TICKS, FG_MOTION_MAX_TICKS);
    if (p->chord_window < 0 || p->chord_window > 60)
        return fg_error_set(err, FG_EINVAL, "%s.chord_window: %d, expected 0..60 ticks", n,
                            (int)p->chord_window);
    if ((unsigned)p->socd_horizontal > FG_SOCD_FORWARD_WINS ||
        (unsigned)p->socd_vertical > FG_SOCD_FORWARD_WINS)
        return fg_error_set(err, FG_EINVAL, "%s.socd: unknown mode, expected neutral, last, "
                            "first, up or forward", n);
    return FG_OK;
}

/* }====================================================================== */

/* {====================================================================== notation errors */

typedef struct parser {
    const char *s;
    size_t pos;
    const fg_motion_buttons *b;
    const fg_motion_def *def;
    fg_error *err;
} parser;

static fg_status perr(parser *p, size_t at, const char *expected) {
    char q[200], c[16];
    fg_motion_quote(q, sizeof q, p->s);
    if (p->s[at] == '\0')
        return fg_error_set(p->err, FG_EFORMAT, "%s: unexpected end at column %zu, expected %s", q,
                            at + 1, expected);
    show_char(c, sizeof c, (unsigned char)p->s[at]);
    return fg_error_set(p->err, FG_EFORMAT, "%s: unexpected %s at column %zu, expected %s", q, c,
                        at + 1, expected);
}

static fg_status perr_msg(parser *p, size_t at, const char *what) {
    char q[200];
    fg_motion_quote(q, sizeof q, p->s);
    return fg_error_set(p->err, FG_EFORMAT, "%s: %s at column %zu", q, what, at + 1);
}

static void skip_spaces(parser *p) {
    while (p->s[p->pos] == ' ' || p->s[p->pos] == '\t') p->pos++;
}

static void set_label(fg_mstep *st, const char *src, size_t len) {
    while (len && (src[len - 1] == ' ' || src[len - 1] == '\t')) len--;
    while (len && (*src == ' ' || *src == '\t')) {
        src++;
        len--;
    }
    if (len >= FG_MOTION_LABEL_MAX) len = FG_MOTION_LABEL_MAX - 1;
    memcpy(st->label, src, len);
    st->label[len] = '\0';
}

/* label = a then b, cut to the label size (labels are for messages only). */
static void join_label(char *label, const char *a, const char *b) {
    size_t o = 0;
    for (; *a && o + 1 < FG_MOTION_LABEL_MAX; a++) label[o++] = *a;
    for (; *b && o + 1 < FG_MOTION_LABEL_MAX; b++) label[o++] = *b;
    label[o] = '\0';
}

static int32_t def_charge(const fg_motion_def *d) {
    return d->charge > 0 ? d->charge : FG_MOTION_DEFAULT_CHARGE;
}

/* }====================================================================== */

/* {====================================================================== numpad */

/* Places the steps' direction sets: facing-relative unless the pattern is absolute. */
static void put_dirs(fg_mstep *st, uint16_t set, bool absolute) {
    if (absolute) st->dirs_abs = set;
    else st->dirs_rel = set;
}

static fg_status parse_numpad(parser *p, fg_mir *out) {
    fg_mir ir;
    memset(&ir, 0, sizeof ir);
    ir.syntax = FG_MOTION_NUMPAD;
    bool absolute = p->def->absolute;
    bool separated[FG_MOTION_MAX_STEPS + 2] = {false}; /* '~' before step i */
    bool plain[FG_MOTION_MAX_STEPS + 2] = {false};     /* step i is a single written digit */
    skip_spaces(p);
    if (!p->s[p->pos] || p->s[p->pos] == '|') return perr(p, p->pos, "a direction or button");
    bool sep_pending = false;
    for (;;) {
        skip_spaces(p);
        size_t start = p->pos;
        if (ir.nsteps == FG_MOTION_MAX_STEPS)
            return perr_msg(p, start, "too many steps (at most 12)");
        fg_mstep *st = &ir.steps[ir.nsteps];
        memset(st, 0, sizeof *st);
        char c = p->s[p->pos];
        uint32_t mask = 0;
        size_t len;
        if (c >= '1' && c <= '9') {
            st->trig = FG_MT_HOLD;
            put_dirs(st, DBIT(c - '0'), absolute);
            plain[ir.nsteps] = true;
            p->pos++;
        } else if (c == '[') {
            p->pos++;
            skip_spaces(p);
            char d = p->s[p->pos];
            if (d >= '1' && d <= '9') {
                if (d == '5')
                    return perr(p, p->pos, "a direction other than 5 (neutral cannot be charged)");
                st->trig = FG_MT_LEAVE;
                st->flags |= FG_MS_SETDIR;
                put_dirs(st, fg_motion_superset_dirs(d - '0'), absolute);
                p->pos++;
            } else if ((len = match_name(p->b, p->s + p->pos, &mask, NULL)) > 0) {
                st->trig = FG_MT_RELEASE;
                st->ngroups = 1;
                st->groups[0] = mask;
                p->pos += len;
            } else {
                return perr(p, p->pos, "a direction or button to charge");
            }
            st->min_hold = def_charge(p->def);
            skip_spaces(p);
            if (p->s[p->pos] != ']') return perr(p, p->pos, "']'");
            p->pos++;
        } else if (c == ']') {
            p->pos++;
            skip_spaces(p);
            if ((len = match_name(p->b, p->s + p->pos, &mask, NULL)) == 0)
                return perr(p, p->pos, "a button to release");
            p->pos += len;
            skip_spaces(p);
            if (p->s[p->pos] != '[') return perr(p, p->pos, "'['");
            p->pos++;
            st->trig = FG_MT_RELEASE;
            st->ngroups = 1;
            st->groups[0] = mask;
        } else if ((len = match_name(p->b, p->s + p->pos, &mask, NULL)) > 0) {
            st->trig = FG_MT_PRESS;
            st->groups[st->ngroups++] = mask;
            p->pos += len;
            for (;;) {
                size_t save = p->pos;
                skip_spaces(p);
                if (p->s[p->pos] != '+') {
                    p->pos = save;
                    break;
                }
                p->pos++;
                skip_spaces(p);
                if ((len = match_name(p->b, p->s + p->pos, &mask, NULL)) == 0)
                    return perr(p, p->pos, "a button ('+' joins buttons)");
                if (st->ngroups == FG_MOTION_MAX_CHORD)
                    return perr_msg(p, p->pos, "too many buttons in one chord (at most 4)");
                st->groups[st->ngroups++] = mask;
                p->pos += len;
            }
        } else if (c == '+') {
            return perr(p, p->pos, "a direction or button ('+' joins buttons)");
        } else {
            return perr(p, p->pos, "a direction or button");
        }
        set_label(st, p->s + start, p->pos - start);
        separated[ir.nsteps] = sep_pending;
        sep_pending = false;
        ir.nsteps++;
        skip_spaces(p);
        if (!p->s[p->pos] || p->s[p->pos] == '|') break;
        if (p->s[p->pos] == '~') {
            p->pos++;
            skip_spaces(p);
            if (!p->s[p->pos] || p->s[p->pos] == '|')
                return perr(p, p->pos, "a direction or button after '~'");
            sep_pending = true;
        } else if (p->s[p->pos] == '+') {
            return perr(p, p->pos, "a direction or button ('+' joins buttons)");
        }
    }
    /* `66` means 6, back to neutral, 6 again with nothing in between (a dash), `22` likewise. */
    fg_mir ex;
    memset(&ex, 0, sizeof ex);
    ex.syntax = ir.syntax;
    for (uint8_t i = 0; i < ir.nsteps; i++) {
        const fg_mstep *cur = &ir.steps[i];
        bool repeat = i > 0 && plain[i] && plain[i - 1] && !separated[i] &&
                      cur->dirs_rel == ir.steps[i - 1].dirs_rel &&
                      cur->dirs_abs == ir.steps[i - 1].dirs_abs &&
                      ((cur->dirs_rel | cur->dirs_abs) & DBIT(5)) == 0;
        if (repeat) {
            if (ex.nsteps + 2 > FG_MOTION_MAX_STEPS)
                return perr_msg(p, 0, "too many steps once repeated directions are expanded "
                                      "(at most 12)");
            fg_mstep *n = &ex.steps[ex.nsteps++];
            memset(n, 0, sizeof *n);
            n->trig = FG_MT_HOLD;
            n->flags = FG_MS_STRICT | FG_MS_SYNTH;
            n->dirs_rel = DBIT(5);
            snprintf(n->label, sizeof n->label, "5");
            ex.steps[ex.nsteps] = *cur;
            ex.steps[ex.nsteps].flags |= FG_MS_STRICT;
            ex.nsteps++;
        } else {
            if (ex.nsteps + 1 > FG_MOTION_MAX_STEPS)
                return perr_msg(p, 0, "too many steps once repeated directions are expanded "
                                      "(at most 12)");
            ex.steps[ex.nsteps++] = *cur;
        }
    }
    /* Default gaps (Castagne's intervals): 12 ticks between the directions of short motions, 8 in
    ** longer ones and before a button. */
    int ndir = 0;
    for (uint8_t i = 0; i < ex.nsteps; i++)
        if (ex.steps[i].trig == FG_MT_HOLD || ex.steps[i].trig == FG_MT_LEAVE) ndir++;
    for (uint8_t i = 1; i < ex.nsteps; i++) {
        fg_mstep *st = &ex.steps[i];
        bool dir = st->trig == FG_MT_HOLD || st->trig == FG_MT_LEAVE;
        int gap = dir ? (ndir <= 3 ? FG_MOTION_GAP_SHORT : FG_MOTION_GAP_LONG)
                      : FG_MOTION_GAP_BUTTON;
        st->gap = p->def->gap > 0 ? p->def->gap : gap;
    }
    /* A diagonal between its two cardinals (the 3 of 236) may be skipped by lenient profiles. */
    for (uint8_t i = 1; i + 1 < ex.nsteps; i++) {
        fg_mstep *a = &ex.steps[i - 1], *m = &ex.steps[i], *z = &ex.steps[i + 1];
        if (a->trig != FG_MT_HOLD || m->trig != FG_MT_HOLD || z->trig != FG_MT_HOLD) continue;
        uint16_t sa = a->dirs_rel | a->dirs_abs, sm = m->dirs_rel | m->dirs_abs,
                 sz = z->dirs_rel | z->dirs_abs;
        int da = 0, dm = 0, dz = 0;
        for (int d = 1; d <= 9; d++) {
            if (sa == DBIT(d)) da = d;
            if (sm == DBIT(d)) dm = d;
            if (sz == DBIT(d)) dz = d;
        }
        if (!da || !dm || !dz || !is_cardinal(da) || !is_cardinal(dz) || is_cardinal(dm) ||
            dm == 5)
            continue;
        if ((fg_bits_of_numpad(da) | fg_bits_of_numpad(dz)) == fg_bits_of_numpad(dm) &&
            !(m->flags & FG_MS_STRICT) && !(z->flags & FG_MS_STRICT))
            m->flags |= FG_MS_SKIPPABLE;
    }
    *out = ex;
    return FG_OK;
}

/* }====================================================================== */

/* {====================================================================== MUGEN */

typedef struct mdir {
    const char *name;
    uint8_t numpad;
    bool absolute;
} mdir;

/* Longest first so DB is not read as D then B. */
static const mdir mugen_dirs[] = {
    {"DB", 1, false}, {"DF", 3, false}, {"UB", 7, false}, {"UF", 9, false}, {"DL", 1, true},
    {"DR", 3, true},  {"UL", 7, true},  {"UR", 9, true},  {"B", 4, false},  {"D", 2, false},
    {"F", 6, false},  {"U", 8, false},  {"L", 4, true},   {"R", 6, true},   {"N", 5, false},
};

static const mdir *match_mugen_dir(const char *s) {
    for (size_t i = 0; i < sizeof mugen_dirs / sizeof mugen_dirs[0]; i++) {
        size_t len = strlen(mugen_dirs[i].name);
        if (strncmp(s, mugen_dirs[i].name, len) == 0) return &mugen_dirs[i];
    }
    return NULL;
}

#define MUGEN_EXPECT "a direction (B, DB, D, DF, F, UF, U, UB, L, R, N) or a button"

/* One item of an element: [~[n]] [$] symbol. */
typedef struct mitem {
    bool release, dollar;
    int32_t charge;
    const mdir *dir;
    uint32_t mask;
    size_t at;
} mitem;

static fg_status read_number(parser *p, int32_t *v) {
    size_t at = p->pos;
    long long n = 0;
    while (isdigit((unsigned char)p->s[p->pos])) {
        n = n * 10 + (p->s[p->pos] - '0');
        if (n > FG_MOTION_MAX_TICKS) return perr_msg(p, at, "tick count too large (at most 3600)");
        p->pos++;
    }
    *v = (int32_t)n;
    return FG_OK;
}

static fg_status parse_mugen_item(parser *p, bool allow_release, mitem *it) {
    memset(it, 0, sizeof *it);
    skip_spaces(p);
    it->at = p->pos;
    if (p->s[p->pos] == '~') {
        if (!allow_release) return perr(p, p->pos, "a direction or button to hold ('/' and '~' "
                                                   "cannot be combined)");
        it->release = true;
        p->pos++;
        skip_spaces(p);
        fg_status s = read_number(p, &it->charge);
        if (s != FG_OK) return s;
        skip_spaces(p);
    }
    if (p->s[p->pos] == '$') {
        it->dollar = true;
        p->pos++;
        const mdir *d = match_mugen_dir(p->s + p->pos);
        if (!d || d->numpad == 5) return perr(p, p->pos, "a direction other than N after '$'");
        it->dir = d;
        p->pos += strlen(d->name);
        return FG_OK;
    }
    uint32_t mask = 0;
    size_t blen = match_name(p->b, p->s + p->pos, &mask, NULL);
    const mdir *d = match_mugen_dir(p->s + p->pos);
    if (d && strlen(d->name) >= blen) { /* direction names win over a button of the same text */
        it->dir = d;
        p->pos += strlen(d->name);
        return FG_OK;
    }
    if (blen) {
        it->mask = mask;
        p->pos += blen;
        return FG_OK;
    }
    return perr(p, p->pos, it->release ? "a direction or button to release" : MUGEN_EXPECT);
}

static uint16_t item_set(const mitem *it) {
    return it->dollar ? fg_motion_superset_dirs(it->dir->numpad) : DBIT(it->dir->numpad);
}

static fg_status parse_mugen(parser *p, fg_mir *out) {
    fg_mir ir;
    memset(&ir, 0, sizeof ir);
    ir.syntax = FG_MOTION_MUGEN;
    bool plain[FG_MOTION_MAX_STEPS + 1] = {false};
    /* A pending '/X' hold applies to the next element. */
    bool hold_pending = false;
    uint16_t hold_rel = 0, hold_abs = 0;
    uint32_t hold_buttons = 0;
    size_t hold_at = 0;
    int nelements = 0;
    fg_mstep level;
    memset(&level, 0, sizeof level);
    for (;;) {
        skip_spaces(p);
        size_t start = p->pos;
        if (!p->s[p->pos] || p->s[p->pos] == ',') return perr(p, p->pos, "an element");
        nelements++;
        bool strict = false, slash = false;
        int32_t slash_time = 0;
        if (p->s[p->pos] == '>') {
            strict = true;
            p->pos++;
            skip_spaces(p);
        }
        if (p->s[p->pos] == '/') {
            if (hold_pending)
                return perr(p, p->pos, "an element to press ('/' holds apply to the next "
                                       "element, one per element)");
            slash = true;
            p->pos++;
            skip_spaces(p);
            fg_status s = read_number(p, &slash_time);
            if (s != FG_OK) return s;
        }
        mitem items[FG_MOTION_MAX_CHORD + 4];
        int nitems = 0;
        char joiner = 0;
        for (;;) {
            if (nitems == (int)(sizeof items / sizeof items[0]))
                return perr_msg(p, p->pos, "too many symbols in one element");
            fg_status s = parse_mugen_item(p, !slash, &items[nitems]);
            if (s != FG_OK) return s;
            if (joiner == '+' && items[nitems].dir)
                return perr(p, items[nitems].at, "a button ('+' joins buttons)");
            nitems++;
            skip_spaces(p);
            char c = p->s[p->pos];
            if (c == '+' && items[0].dir && !joiner)
                return perr(p, p->pos, "',' or '|' ('+' joins buttons, not directions)");
            if (c == '+' || c == '|') {
                if (joiner && joiner != c)
                    return perr(p, p->pos, "',' or the same joiner ('+' and '|' cannot be mixed "
                                           "in one element)");
                joiner = c;
                p->pos++;
                continue;
            }
            if (c == '\0' || c == ',') break;
            return perr(p, p->pos, joiner ? "',' or another symbol" : "',' or '+' or '|'");
        }
        size_t end = p->pos;
        /* Items must agree: all directions or all buttons, the same release and charge. */
        for (int i = 1; i < nitems; i++) {
            if ((items[i].dir != NULL) != (items[0].dir != NULL))
                return perr_msg(p, items[i].at, joiner == '+'
                                                    ? "'+' joins buttons only, not directions"
                                                    : "'|' alternatives must all be directions "
                                                      "or all be buttons");
            if (items[i].release != items[0].release || items[i].charge != items[0].charge)
                return perr_msg(p, items[i].at, "the symbols of one element must all be "
                                                "presses or all be releases with the same time");
        }
        if (joiner == '+' && items[0].dir)
            return perr_msg(p, items[0].at, "'+' joins buttons only, not directions");
        if (joiner == '+' && nitems > FG_MOTION_MAX_CHORD)
            return perr_msg(p, items[FG_MOTION_MAX_CHORD].at,
                            "too many buttons in one chord (at most 4)");
        fg_mstep st;
        memset(&st, 0, sizeof st);
        set_label(&st, p->s + start, end - start);
        if (strict) st.flags |= FG_MS_STRICT;
        uint16_t rel = 0, abs = 0;
        uint32_t buttons = 0;
        for (int i = 0; i < nitems; i++) {
            if (items[i].dir) {
                if (items[i].dir->absolute) abs |= item_set(&items[i]);
                else rel |= item_set(&items[i]);
                if (items[i].dollar) st.flags |= FG_MS_SETDIR;
            } else {
                buttons |= items[i].mask;
                if (joiner == '+') st.groups[st.ngroups++] = items[i].mask;
            }
        }
        if (!items[0].dir && joiner != '+') {
            st.ngroups = 1;
            st.groups[0] = buttons;
        }
        if (slash) {
            if (hold_pending)
                return perr(p, start, "an element to press after the '/' hold");
            hold_pending = true;
            hold_at = start;
            hold_rel = rel;
            hold_abs = abs;
            hold_buttons = buttons;
            /* Kept in case it turns out to be the whole command (a hold-only command). */
            level = st;
            level.trig = FG_MT_LEVEL;
            level.dirs_rel = rel;
            level.dirs_abs = abs;
            level.min_hold = slash_time;
            if (items[0].dir) level.ngroups = 0;
            else if (joiner != '+') {
                level.ngroups = 1;
                level.groups[0] = buttons;
            }
        } else {
            if (ir.nsteps == FG_MOTION_MAX_STEPS)
                return perr_msg(p, start, "too many steps (at most 12)");
            if (items[0].dir) {
                st.trig = items[0].release ? FG_MT_LEAVE : FG_MT_ENTER;
                st.dirs_rel = rel;
                st.dirs_abs = abs;
                st.min_hold = items[0].release ? items[0].charge : 0;
            } else {
                st.trig = items[0].release ? FG_MT_RELEASE : FG_MT_PRESS;
                st.min_hold = items[0].release ? items[0].charge : 0;
            }
            if (hold_pending) {
                st.hold_rel = hold_rel;
                st.hold_abs = hold_abs;
                st.hold_buttons = hold_buttons;
                hold_pending = false;
                char step_label[FG_MOTION_LABEL_MAX], hold_label[FG_MOTION_LABEL_MAX + 1];
                memcpy(step_label, st.label, sizeof step_label);
                join_label(hold_label, level.label, ",");
                join_label(st.label, hold_label, step_label);
            }
            plain[ir.nsteps] = items[0].dir && !items[0].release && nitems == 1 && !strict;
            ir.steps[ir.nsteps++] = st;
        }
        if (!p->s[p->pos]) break;
        p->pos++; /* the ',' */
        skip_spaces(p);
        if (!p->s[p->pos]) return perr(p, p->pos, "an element after ','");
    }
    if (hold_pending) {
        if (nelements != 1)
            return perr_msg(p, hold_at, "a '/' hold with nothing after it; a hold-only command "
                                        "must be a single element");
        ir.nsteps = 1;
        ir.steps[0] = level;
    }
    /* `F, F` becomes `F, >~F, >F`: the stick must leave F and come back with nothing between. */
    fg_mir ex;
    memset(&ex, 0, sizeof ex);
    ex.syntax = ir.syntax;
    for (uint8_t i = 0; i < ir.nsteps; i++) {
        const fg_mstep *cur = &ir.steps[i];
        bool repeat = !p->def->no_autogreater && i > 0 && plain[i] && plain[i - 1] &&
                      cur->trig == FG_MT_ENTER && ir.steps[i - 1].trig == FG_MT_ENTER &&
                      cur->dirs_rel == ir.steps[i - 1].dirs_rel &&
                      cur->dirs_abs == ir.steps[i - 1].dirs_abs && !cur->hold_buttons &&
                      !cur->hold_rel && !cur->hold_abs;
        if (ex.nsteps + (repeat ? 2 : 1) > FG_MOTION_MAX_STEPS)
            return perr_msg(p, 0, "too many steps once repeated directions are expanded "
                                  "(at most 12)");
        if (repeat) {
            fg_mstep *n = &ex.steps[ex.nsteps++];
            *n = *cur;
            n->trig = FG_MT_LEAVE;
            n->flags = FG_MS_STRICT | FG_MS_SYNTH | (cur->flags & FG_MS_SETDIR);
            join_label(n->label, ">~", cur->label);
            ex.steps[ex.nsteps] = *cur;
            ex.steps[ex.nsteps].flags |= FG_MS_STRICT;
            join_label(ex.steps[ex.nsteps].label, ">", cur->label);
            ex.nsteps++;
        } else {
            ex.steps[ex.nsteps++] = *cur;
        }
    }
    /* MUGEN has no per-step limit unless steptime is given: only `time` bounds a command. */
    for (uint8_t i = 1; i < ex.nsteps; i++) ex.steps[i].gap = p->def->gap > 0 ? p->def->gap : 0;
    *out = ex;
    return FG_OK;
}

/* }====================================================================== */

/* {====================================================================== entry point */

static bool looks_mugen(const char *s, const fg_motion_buttons *b) {
    if (strchr(s, ',')) return true;
    while (*s == ' ' || *s == '\t') s++;
    if (*s == '~' || *s == '/' || *s == '$' || *s == '>') return true;
    const mdir *d = match_mugen_dir(s);
    if (!d) return false;
    uint32_t mask;
    size_t blen = match_name(b, s, &mask, NULL);
    return strlen(d->name) >= blen;
}

fg_motion_syntax fg_motion_detect(const char *notation, const fg_motion_buttons *b) {
    fg_motion_buttons def;
    if (!b) {
        fg_motion_buttons_default(&def, FG_MOTION_AUTO);
        b = &def;
    }
    return notation && looks_mugen(notation, b) ? FG_MOTION_MUGEN : FG_MOTION_NUMPAD;
}

/* }====================================================================== */

/* {====================================================================== circles and `|` */

/* The four cardinals in turning order (screen directions): a 360 passes each once. */
static const uint8_t circle_order[4] = {6, 2, 4, 8};

/* One cardinal of a 360. The documented leniency: the diagonals between cardinals are never
** required, and the up cardinal may be any upward direction (7, 8 or 9), since a player rolling
** through the top of the circle often touches only a diagonal there. */
static void circle_step(fg_mstep *st, int d, int32_t gap) {
    memset(st, 0, sizeof *st);
    st->trig = FG_MT_HOLD;
    st->dirs_abs = d == 8 ? (uint16_t)(DBIT(7) | DBIT(8) | DBIT(9)) : DBIT(d);
    st->gap = gap;
    snprintf(st->label, sizeof st->label, "%d", d);
}

static fg_status add_alt(parser *p, size_t at, fg_mir *alts, uint32_t *n, const fg_mir *m) {
    if (*n == FG_MOTION_MAX_ALTS)
        return perr_msg(p, at, "too many alternatives (at most 16, and a 360 counts 8)");
    alts[(*n)++] = *m;
    return FG_OK;
}

/* One numpad alternative between `|`s; a leading 360 or 720 expands to its 8 ways round. */
static fg_status parse_numpad_part(parser *p, fg_mir *alts, uint32_t *n) {
    skip_spaces(p);
    size_t at = p->pos;
    int turns = strncmp(p->s + p->pos, "360", 3) == 0 ? 1
                : strncmp(p->s + p->pos, "720", 3) == 0 ? 2
                                                        : 0;
    fg_mir rest;
    memset(&rest, 0, sizeof rest);
    rest.syntax = FG_MOTION_NUMPAD;
    if (turns) {
        p->pos += 3;
        skip_spaces(p);
    }
    if (!turns || (p->s[p->pos] && p->s[p->pos] != '|')) {
        fg_status s = parse_numpad(p, &rest);
        if (s != FG_OK) return s;
    }
    if (!turns) return add_alt(p, at, alts, n, &rest);
    int ncirc = 4 * turns;
    if (ncirc + rest.nsteps > FG_MOTION_MAX_STEPS)
        return perr_msg(p, at, "too many steps once the circle is expanded (at most 12)");
    int32_t gap = p->def->gap > 0 ? p->def->gap : FG_MOTION_GAP_SHORT;
    for (int start = 0; start < 4; start++)
        for (int turn = 1; turn >= -1; turn -= 2) {
            fg_mir m;
            memset(&m, 0, sizeof m);
            m.syntax = FG_MOTION_NUMPAD;
            m.time_default = 30 * turns;
            for (int k = 0; k < ncirc; k++)
                circle_step(&m.steps[k], circle_order[((start + turn * k) % 4 + 4) % 4],
                            k ? gap : 0);
            for (int k = 0; k < rest.nsteps; k++) m.steps[ncirc + k] = rest.steps[k];
            if (rest.nsteps) {
                fg_mstep *f = &m.steps[ncirc];
                bool dir = f->trig == FG_MT_HOLD || f->trig == FG_MT_LEAVE;
                f->gap = p->def->gap > 0 ? p->def->gap
                                         : (dir ? FG_MOTION_GAP_SHORT : FG_MOTION_GAP_BUTTON);
            }
            m.nsteps = (uint8_t)(ncirc + rest.nsteps);
            fg_status s = add_alt(p, at, alts, n, &m);
            if (s != FG_OK) return s;
        }
    return FG_OK;
}

/* }====================================================================== */

/* {====================================================================== alternatives */

/* Per-step gaps index the compiled steps, after `66` and `F, F` expansion: those are the steps a
** designer sees in tostring and in near-miss reports. */
static fg_status apply_gaps(const char *notation, const fg_motion_def *def, fg_mir *ir,
                            fg_error *err) {
    for (uint8_t k = 0; k + 1 < FG_MOTION_MAX_STEPS; k++) {
        if (def->gaps[k] <= 0) continue;
        if (k + 1 >= ir->nsteps) {
            char q[200];
            fg_motion_quote(q, sizeof q, notation);
            return fg_error_set(err, FG_EINVAL, "%s: gaps[%u] = %d, but the motion has %u "
                                "step gap%s (gaps[1..%u])", q, (unsigned)k + 1,
                                (int)def->gaps[k], (unsigned)ir->nsteps - 1,
                                ir->nsteps == 2 ? "" : "s", (unsigned)ir->nsteps - 1);
        }
        ir->steps[k + 1].gap = def->gaps[k];
    }
    return FG_OK;
}

fg_status fg_motion_parse_alternatives(const char *notation, const fg_motion_def *def,
                                       const fg_motion_buttons *b, fg_mir *out, uint32_t *nout,
                                       fg_error *err) {
    if (def->placeholder) { /* declared without an input: one step nothing can complete */
        memset(out, 0, sizeof *out);
        out->syntax = FG_MOTION_MUGEN;
        out->nsteps = 1;
        out->steps[0].trig = FG_MT_NEVER;
        snprintf(out->steps[0].label, sizeof out->steps[0].label, "(none)");
        *nout = 1;
        return FG_OK;
    }
    if (!notation) return fg_error_set(err, FG_EINVAL, "notation: missing, expected a string");
    size_t len = strlen(notation);
    if (len >= FG_MOTION_NOTATION_MAX) {
        char q[200];
        fg_motion_quote(q, sizeof q, notation);
        return fg_error_set(err, FG_EINVAL, "%s: %zu characters, at most %d are supported", q,
                            len, FG_MOTION_NOTATION_MAX - 1);
    }
    parser p = {notation, 0, b, def, err};
    fg_motion_syntax syn = def->syntax;
    if (syn == FG_MOTION_AUTO) syn = looks_mugen(notation, b) ? FG_MOTION_MUGEN : FG_MOTION_NUMPAD;
    if (syn != FG_MOTION_NUMPAD && syn != FG_MOTION_MUGEN)
        return fg_error_set(err, FG_EINVAL, "notation syntax %d: expected auto, numpad or mugen",
                            (int)syn);
    /* Built aside, copied out only when every alternative parsed. */
    fg_mir alts[FG_MOTION_MAX_ALTS];
    uint32_t n = 0;
    fg_status s = FG_OK;
    if (syn == FG_MOTION_MUGEN) {
        s = parse_mugen(&p, &alts[0]);
        n = 1;
    } else {
        for (;;) {
            s = parse_numpad_part(&p, alts, &n);
            if (s != FG_OK || p.s[p.pos] != '|') break;
            p.pos++;
        }
    }
    for (uint32_t i = 0; s == FG_OK && i < n; i++) s = apply_gaps(notation, def, &alts[i], err);
    if (s != FG_OK) return s;
    memcpy(out, alts, n * sizeof alts[0]);
    *nout = n;
    return FG_OK;
}

fg_status fg_motion_parse_notation(const char *notation, const fg_motion_def *def,
                                   const fg_motion_buttons *b, fg_mir *out, fg_error *err) {
    fg_mir alts[FG_MOTION_MAX_ALTS];
    uint32_t n;
    fg_status s = fg_motion_parse_alternatives(notation, def, b, alts, &n, err);
    if (s == FG_OK) *out = alts[0];
    return s;
}

/* }====================================================================== */

/* {====================================================================== input scripts */

#define FG_MOTION_SCRIPT_LIMIT 512

typedef struct pending_release {
    fg_tick tick;
    uint8_t button;
} pending_release;

static fg_status serr(const char *script, size_t at, const char *expected, fg_error *err) {
    char q[200], c[16];
    fg_motion_quote(q, sizeof q, script);
    if (!script[at])
        return fg_error_set(err, FG_EFORMAT, "script %s: unexpected end at column %zu, expected %s",
                            q, at + 1, expected);
    show_char(c, sizeof c, (unsigned char)script[at]);
    return fg_error_set(err, FG_EFORMAT, "script %s: unexpected %s at column %zu, expected %s", q,
                        c, at + 1, expected);
}

static fg_status serr_msg(const char *script, size_t at, fg_error *err, const char *fmt, ...)
    FG_PRINTF(4, 5);
static fg_status serr_msg(const char *script, size_t at, fg_error *err, const char *fmt, ...) {
    char q[200], m[256];
    fg_motion_quote(q, sizeof q, script);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m, sizeof m, fmt, ap);
    va_end(ap);
    return fg_error_set(err, FG_EFORMAT, "script %s: %s at column %zu", q, m, at + 1);
}

/* Reads a tick; 0 when there is none, -1 when it is larger than FG_MOTION_SCRIPT_MAX_TICK. */
static int read_tick(const char *s, size_t *pos, fg_tick *out) {
    size_t p = *pos;
    if (!isdigit((unsigned char)s[p])) return 0;
    long long v = 0;
    while (isdigit((unsigned char)s[p])) {
        v = v * 10 + (s[p] - '0');
        if (v > FG_MOTION_SCRIPT_MAX_TICK) return -1;
        p++;
    }
    *pos = p;
    *out = v;
    return 1;
}

fg_status fg_motion_script_parse(const char *script, const fg_motion_buttons *b,
                                 fg_motion_script_event *out, uint32_t max, uint32_t *nout,
                                 fg_error *err) {
    if (!script) return fg_error_set(err, FG_EINVAL, "script: missing, expected a string");
    /* Events are built here and copied out only when the whole script has been read. */
    fg_motion_script_event evs[FG_MOTION_SCRIPT_LIMIT];
    if (max > FG_MOTION_SCRIPT_LIMIT) max = FG_MOTION_SCRIPT_LIMIT;
    uint32_t n = 0;
    uint32_t held = 0;
    fg_tick held_until[FG_INPUT_MAX_ACTIONS];
    for (int i = 0; i < FG_INPUT_MAX_ACTIONS; i++) held_until[i] = -1;
    pending_release pend[FG_INPUT_MAX_ACTIONS];
    int npend = 0;
    int dir = 5;
    fg_tick last = 0;
    size_t pos = 0;
#define EMIT(ev)                                                                                   \
    do {                                                                                           \
        if (n == max)                                                                              \
            return serr_msg(script, start, err, "more than %u events", (unsigned)max);            \
        evs[n++] = (ev);                                                                           \
    } while (0)
    for (;;) {
        while (script[pos] == ' ' || script[pos] == '\t' || script[pos] == '\n' ||
               script[pos] == ',')
            pos++;
        if (!script[pos]) break;
        size_t start = pos;
        fg_motion_script_event ev;
        memset(&ev, 0, sizeof ev);
        int button = -1;
        bool release = false, range_ok = false;
        const char *s = script;
        if (s[pos] == '~') {
            release = true;
            pos++;
        }
        uint32_t mask = 0;
        size_t len;
        if (!release && s[pos] >= '1' && s[pos] <= '9' && s[pos + 1] == '@') {
            ev.kind = FG_MOTION_SCRIPT_DIR;
            ev.value = (uint8_t)(s[pos] - '0');
            pos++;
        } else if (!release && strncmp(s + pos, "face=left", 9) == 0) {
            ev.kind = FG_MOTION_SCRIPT_FACE;
            ev.value = FG_FACING_LEFT;
            pos += 9;
        } else if (!release && strncmp(s + pos, "face=right", 10) == 0) {
            ev.kind = FG_MOTION_SCRIPT_FACE;
            ev.value = FG_FACING_RIGHT;
            pos += 10;
        } else if (!release && strncmp(s + pos, "freeze", 6) == 0 && s[pos + 6] == '@') {
            ev.kind = FG_MOTION_SCRIPT_FREEZE;
            pos += 6;
            range_ok = true;
        } else if ((len = match_name(b, s + pos, &mask, &button)) > 0) {
            if (button < 0) { /* a group presses its first member */
                for (int i = FG_IN_FIRST_BUTTON; i < FG_INPUT_MAX_ACTIONS; i++)
                    if (mask & BIT(i)) {
                        button = i;
                        break;
                    }
            }
            ev.kind = release ? FG_MOTION_SCRIPT_RELEASE : FG_MOTION_SCRIPT_PRESS;
            ev.action = (uint8_t)button;
            pos += len;
            range_ok = !release;
        } else {
            return serr(script, pos,
                        release ? "a button to release"
                                : "a stick direction 1-9, a button, face=left, face=right or "
                                  "freeze",
                        err);
        }
        if (s[pos] != '@') return serr(script, pos, "'@' and a tick", err);
        pos++;
        size_t tick_at = pos;
        int rt = read_tick(s, &pos, &ev.tick);
        if (rt < 0)
            return serr_msg(script, tick_at, err, "tick too large (at most %d)",
                            FG_MOTION_SCRIPT_MAX_TICK);
        if (rt == 0) return serr(script, pos, "a tick", err);
        ev.until = ev.tick;
        bool ranged = false;
        if (s[pos] == '-') {
            ranged = true;
            if (!range_ok) return serr(script, pos, "a space before the next event", err);
            pos++;
            size_t until_at = pos;
            rt = read_tick(s, &pos, &ev.until);
            if (rt < 0)
                return serr_msg(script, until_at, err, "tick too large (at most %d)",
                                FG_MOTION_SCRIPT_MAX_TICK);
            if (rt == 0) return serr(script, pos, "the last tick", err);
            if (ev.until < ev.tick)
                return serr_msg(script, tick_at, err, "range %lld-%lld ends before it starts",
                                (long long)ev.tick, (long long)ev.until);
        }
        if (s[pos] && s[pos] != ' ' && s[pos] != '\t' && s[pos] != '\n' && s[pos] != ',')
            return serr(script, pos, "a space before the next event", err);
        if (ev.tick < last)
            return serr_msg(script, tick_at, err,
                            "tick %lld is before the previous event's tick %lld; list events in "
                            "time order",
                            (long long)ev.tick, (long long)last);
        last = ev.tick;
        /* Releases of earlier ranges that fall at or before this tick come first. */
        for (;;) {
            int best = -1;
            for (int i = 0; i < npend; i++)
                if (pend[i].tick <= ev.tick &&
                    (best < 0 || pend[i].tick < pend[best].tick ||
                     (pend[i].tick == pend[best].tick && pend[i].button < pend[best].button)))
                    best = i;
            if (best < 0) break;
            fg_motion_script_event r;
            memset(&r, 0, sizeof r);
            r.kind = FG_MOTION_SCRIPT_RELEASE;
            r.tick = r.until = pend[best].tick;
            r.action = pend[best].button;
            EMIT(r);
            held &= ~BIT(pend[best].button);
            held_until[pend[best].button] = -1;
            pend[best] = pend[--npend];
        }
        const char *bn = ev.kind == FG_MOTION_SCRIPT_PRESS || ev.kind == FG_MOTION_SCRIPT_RELEASE
                             ? fg_action_names_get(&b->names, ev.action)
                             : NULL;
        switch (ev.kind) {
        case FG_MOTION_SCRIPT_DIR:
            if (ev.value == dir)
                return serr_msg(script, start, err, "the stick is already at %d", dir);
            dir = ev.value;
            EMIT(ev);
            break;
        case FG_MOTION_SCRIPT_PRESS:
            if (held & BIT(ev.action)) {
                if (held_until[ev.action] >= 0)
                    return serr_msg(script, start, err,
                                    "%s is still held until tick %lld by an earlier range", bn,
                                    (long long)held_until[ev.action]);
                fg_motion_script_event r = ev; /* a second press implies a release just before */
                r.kind = FG_MOTION_SCRIPT_RELEASE;
                EMIT(r);
            }
            EMIT(ev);
            held |= BIT(ev.action);
            if (ranged) {
                held_until[ev.action] = ev.until;
                pend[npend].tick = ev.until;
                pend[npend].button = ev.action;
                npend++;
            }
            break;
        case FG_MOTION_SCRIPT_RELEASE:
            if (!(held & BIT(ev.action)))
                return serr_msg(script, start, err, "~%s releases a button that is not held", bn);
            if (held_until[ev.action] >= 0)
                return serr_msg(script, start, err,
                                "%s is released by its range at tick %lld already", bn,
                                (long long)held_until[ev.action]);
            held &= ~BIT(ev.action);
            EMIT(ev);
            break;
        default:
            EMIT(ev);
            break;
        }
    }
    /* Ranges still open end after the last event. */
    while (npend > 0) {
        int best = 0;
        for (int i = 1; i < npend; i++)
            if (pend[i].tick < pend[best].tick ||
                (pend[i].tick == pend[best].tick && pend[i].button < pend[best].button))
                best = i;
        fg_motion_script_event r;
        memset(&r, 0, sizeof r);
        r.kind = FG_MOTION_SCRIPT_RELEASE;
        r.tick = r.until = pend[best].tick;
        r.action = pend[best].button;
        size_t start = pos;
        EMIT(r);
        pend[best] = pend[--npend];
    }
#undef EMIT
    memcpy(out, evs, n * sizeof evs[0]);
    *nout = n;
    return FG_OK;
}

/* }====================================================================== */
