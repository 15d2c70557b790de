/* SPDX-License-Identifier: MIT */
/*
** motion_cmd.c: MUGEN and IKEMEN .cmd files to motion defs. Reads [Defaults] and [Command]
** blocks and skips every other section ([Remap], [Statedef -1], [State -1, ...]).
**
** Real command files are written by hand and MUGEN forgives a lot, so this reader does too, but
** never silently: a key MUGEN would ignore (a remap line that landed in a block, a misplaced
** [Defaults] key) and an empty `command =` (IKEMEN's way to declare a name) load with a note that
** names the file and the line. What MUGEN would refuse (a bad symbol, a time of 0) is an error.
*/
#include "motion_internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cmd_entry {
    size_t name, command; /* offsets in the string arena; command 0 = no command line */
    int line, command_line;
    bool empty; /* `command =` with nothing after it */
    int32_t time, buffer, steptime, hitpause, autogreater;
} cmd_entry;

typedef struct cmd_defaults {
    int32_t time, buffer, steptime, hitpause, autogreater;
} cmd_defaults;

typedef struct cmd_reader {
    const char *src;
    const fg_allocator *a;
    fg_error *err;
    fg_motion_finding *notes;
    uint32_t nnotes, dropped;
} cmd_reader;

static bool ieq(const char *a, size_t alen, const char *b) {
    size_t blen = strlen(b);
    if (alen != blen) return false;
    for (size_t i = 0; i < alen; i++)
        if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i])) return false;
    return true;
}

static void note(cmd_reader *r, int line, const char *fmt, ...) FG_PRINTF(3, 4);
static void note(cmd_reader *r, int line, const char *fmt, ...) {
    if (r->nnotes == FG_MOTION_MAX_NOTES) {
        r->dropped++;
        return;
    }
    fg_motion_finding *f = &r->notes[r->nnotes++];
    memset(f, 0, sizeof *f);
    f->kind = FG_MOTION_LINT_NOTE;
    f->a = f->b = FG_MOTION_NONE;
    int o = snprintf(f->text, sizeof f->text, "note: %s:%d: ", r->src, line);
    if (o < 0 || (size_t)o >= sizeof f->text) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->text + o, sizeof f->text - (size_t)o, fmt, ap);
    va_end(ap);
}

static fg_status cmd_int(cmd_reader *r, int line, const char *key, const char *v, size_t vlen,
                         int32_t lo, int32_t hi, int32_t *out) {
    char buf[32];
    if (vlen == 0 || vlen >= sizeof buf)
        return fg_error_set(r->err, FG_EFORMAT, "%s:%d: %s = '%.*s', expected an integer %d..%d",
                            r->src, line, key, (int)(vlen > 40 ? 40 : vlen), v, lo, hi);
    memcpy(buf, v, vlen);
    buf[vlen] = '\0';
    char *end;
    long n = strtol(buf, &end, 10);
    if (*end != '\0' || n < lo || n > hi)
        return fg_error_set(r->err, FG_EFORMAT, "%s:%d: %s = %s, expected an integer %d..%d",
                            r->src, line, key, buf, lo, hi);
    *out = (int32_t)n;
    return FG_OK;
}

/* One key of [Defaults]. */
static fg_status read_default(cmd_reader *r, int line, const char *k, size_t kl, const char *v,
                              size_t vl, cmd_defaults *d) {
    if (ieq(k, kl, "command.time"))
        return cmd_int(r, line, "command.time", v, vl, 1, FG_MOTION_MAX_TICKS, &d->time);
    if (ieq(k, kl, "command.buffer.time"))
        return cmd_int(r, line, "command.buffer.time", v, vl, 1, FG_MOTION_MAX_TICKS, &d->buffer);
    if (ieq(k, kl, "command.steptime"))
        return cmd_int(r, line, "command.steptime", v, vl, -1, FG_MOTION_MAX_TICKS, &d->steptime);
    if (ieq(k, kl, "command.buffer.hitpause"))
        return cmd_int(r, line, "command.buffer.hitpause", v, vl, 0, 1, &d->hitpause);
    if (ieq(k, kl, "command.autogreater"))
        return cmd_int(r, line, "command.autogreater", v, vl, 0, 1, &d->autogreater);
    if (ieq(k, kl, "command.buffer.pauseend") || ieq(k, kl, "command.buffer.shared"))
        return FG_OK; /* pauses and sibling resets are the world's business here */
    note(r, line, "unknown key '%.*s' in [Defaults] ignored, as MUGEN does (expected "
         "command.time, command.buffer.time, command.steptime, command.buffer.hitpause or "
         "command.autogreater)", (int)(kl > 40 ? 40 : kl), k);
    return FG_OK;
}

/* Copies v into the arena; returns its offset. */
static size_t store(char *arena, size_t *used, const char *v, size_t vl) {
    size_t at = *used;
    memcpy(arena + at, v, vl);
    *used += vl;
    arena[(*used)++] = '\0';
    return at;
}

/* One key of a [Command] block. */
static fg_status read_key(cmd_reader *r, int line, const char *k, size_t kl, const char *v,
                          size_t vl, cmd_entry *cur, char *arena, size_t *used) {
    if (ieq(k, kl, "name")) {
        if (vl >= 2 && v[0] == '"' && v[vl - 1] == '"') {
            v++;
            vl -= 2;
        }
        if (vl == 0 || vl >= FG_MOTION_NAME_MAX)
            return fg_error_set(r->err, FG_EFORMAT, "%s:%d: name must be 1 to %d characters",
                                r->src, line, FG_MOTION_NAME_MAX - 1);
        cur->name = store(arena, used, v, vl);
        return FG_OK;
    }
    if (ieq(k, kl, "command")) {
        cur->command = store(arena, used, v, vl);
        cur->command_line = line;
        cur->empty = vl == 0;
        return FG_OK;
    }
    if (ieq(k, kl, "time"))
        return cmd_int(r, line, "time", v, vl, 1, FG_MOTION_MAX_TICKS, &cur->time);
    if (ieq(k, kl, "buffer.time"))
        return cmd_int(r, line, "buffer.time", v, vl, 1, FG_MOTION_MAX_TICKS, &cur->buffer);
    if (ieq(k, kl, "steptime"))
        return cmd_int(r, line, "steptime", v, vl, -1, FG_MOTION_MAX_TICKS, &cur->steptime);
    if (ieq(k, kl, "buffer.hitpause"))
        return cmd_int(r, line, "buffer.hitpause", v, vl, 0, 1, &cur->hitpause);
    if (ieq(k, kl, "autogreater"))
        return cmd_int(r, line, "autogreater", v, vl, 0, 1, &cur->autogreater);
    if (ieq(k, kl, "buffer.pauseend") || ieq(k, kl, "buffer.shared")) return FG_OK;
    note(r, line, "unknown key '%.*s' in [Command] ignored, as MUGEN does (expected name, "
         "command, time, buffer.time, steptime, buffer.hitpause, buffer.pauseend, buffer.shared "
         "or autogreater)", (int)(kl > 40 ? 40 : kl), k);
    return FG_OK;
}

static fg_status block_done(cmd_reader *r, const cmd_entry *cur) {
    if (!cur || (cur->name && cur->command_line)) return FG_OK;
    return fg_error_set(r->err, FG_EFORMAT, "%s:%d: the [Command] block has no %s", r->src,
                        cur->line, cur->name == 0 ? "name" : "command");
}

/* Splits a line into key and value around its first '='; false when it has none. */
static bool split_line(const char *l, size_t ll, size_t *kl, const char **v, size_t *vl) {
    size_t eq = 0;
    while (eq < ll && l[eq] != '=') eq++;
    if (eq == ll) return false;
    *kl = eq;
    while (*kl && (l[*kl - 1] == ' ' || l[*kl - 1] == '\t')) (*kl)--;
    *v = l + eq + 1;
    *vl = ll - eq - 1;
    while (*vl && (**v == ' ' || **v == '\t')) {
        (*v)++;
        (*vl)--;
    }
    return true;
}

/* Strips a comment (';' outside quotes), the carriage return and the blanks around a line. */
static void trim_line(const char **l, size_t *ll) {
    bool inq = false;
    for (size_t i = 0; i < *ll; i++) {
        if ((*l)[i] == '"') inq = !inq;
        else if ((*l)[i] == ';' && !inq) {
            *ll = i;
            break;
        }
    }
    while (*ll && ((*l)[*ll - 1] == '\r' || (*l)[*ll - 1] == ' ' || (*l)[*ll - 1] == '\t'))
        (*ll)--;
    while (*ll && (**l == ' ' || **l == '\t')) {
        (*l)++;
        (*ll)--;
    }
}

/* Turns the entries into defs, checking each notation so errors carry source:line. */
static fg_status make_defs(cmd_reader *r, const fg_motion_buttons *b, const cmd_entry *ents,
                           uint32_t n, char *arena, fg_motion_def *defs) {
    for (uint32_t i = 0; i < n; i++) {
        fg_motion_def *d = &defs[i];
        memset(d, 0, sizeof *d);
        d->name = arena + ents[i].name;
        d->notation = arena + ents[i].command;
        d->syntax = FG_MOTION_MUGEN;
        d->time = ents[i].time;
        d->buffer = ents[i].buffer - 1; /* buffer.time counts the completion tick (>= 1) */
        d->gap = ents[i].steptime > 0 ? ents[i].steptime : 0;
        d->frozen = ents[i].hitpause ? FG_MOTION_FROZEN_SKIP : FG_MOTION_FROZEN_COUNT;
        d->no_autogreater = ents[i].autogreater == 0;
        d->placeholder = ents[i].empty;
        if (d->placeholder) {
            note(r, ents[i].command_line, "%s: empty command: the name is declared without an "
                 "input and never completes", d->name);
            continue;
        }
        fg_mir alts[FG_MOTION_MAX_ALTS];
        uint32_t nalts;
        fg_status s = fg_motion_parse_alternatives(d->notation, d, b, alts, &nalts, r->err);
        if (s != FG_OK) {
            fg_error_prefix(r->err, "%s:%d: %s", r->src, ents[i].command_line, d->name);
            return s;
        }
    }
    return FG_OK;
}

void fg_motion_cmd_text_free(const fg_allocator *a, fg_motion_cmd_text *t) {
    fg_free(a, t->defs, t->defs_size);
    fg_free(a, t->strings, t->strings_size);
    fg_free(a, t->notes, FG_MOTION_MAX_NOTES * sizeof *t->notes);
    memset(t, 0, sizeof *t);
}

fg_status fg_motion_cmd_read(const fg_motion_buttons *b, const char *text, size_t len,
                             const char *source, const fg_allocator *a, fg_motion_cmd_text *out,
                             fg_error *err) {
    cmd_reader r = {source && *source ? source : "commands", a, err, NULL, 0, 0};
    /* First pass: count blocks, so the entries are one exact allocation. */
    uint32_t nblocks = 0;
    for (size_t i = 0; i + 1 < len; i++)
        if (text[i] == '[' && (i == 0 || text[i - 1] == '\n' || text[i - 1] == ' ' ||
                               text[i - 1] == '\t'))
            nblocks++;
    if (nblocks > FG_MOTION_MAX_PATTERNS) nblocks = FG_MOTION_MAX_PATTERNS + 1;
    size_t ecap = nblocks ? nblocks : 1;
    cmd_entry *ents = fg_alloc(a, ecap * sizeof *ents);
    char *arena = fg_alloc(a, len + 2);
    r.notes = fg_alloc(a, FG_MOTION_MAX_NOTES * sizeof *r.notes);
    fg_motion_cmd_text t;
    memset(&t, 0, sizeof t);
    t.strings = arena;
    t.strings_size = len + 2;
    t.notes = r.notes;
    if (!ents || !arena || !r.notes) {
        fg_free(a, ents, ecap * sizeof *ents);
        fg_motion_cmd_text_free(a, &t);
        return fg_error_set(err, FG_ENOMEM, "%s: out of memory reading commands", r.src);
    }
    size_t used = 1; /* offset 0 is the empty string */
    arena[0] = '\0';
    uint32_t n = 0;
    enum { SEC_OTHER, SEC_DEFAULTS, SEC_COMMAND } sec = SEC_OTHER;
    cmd_defaults def = {FG_MOTION_DEFAULT_TIME, 1, 0, 1, 1}; /* buffer.time 1: the completion tick */
    fg_status s = FG_OK;
    size_t pos = 0;
    int line = 0;
    cmd_entry *cur = NULL;
    while (pos < len && s == FG_OK) {
        size_t eol = pos;
        while (eol < len && text[eol] != '\n') eol++;
        line++;
        const char *l = text + pos;
        size_t ll = eol - pos;
        pos = eol + 1;
        trim_line(&l, &ll);
        if (ll == 0) continue;
        if (l[0] == '[') {
            size_t close = 1;
            while (close < ll && l[close] != ']') close++;
            if (close == ll) {
                s = fg_error_set(err, FG_EFORMAT, "%s:%d: section header without ']'", r.src,
                                 line);
                break;
            }
            const char *h = l + 1;
            size_t hl = close - 1;
            while (hl && (*h == ' ')) {
                h++;
                hl--;
            }
            while (hl && h[hl - 1] == ' ') hl--;
            s = block_done(&r, cur);
            if (s != FG_OK) break;
            cur = NULL;
            if (ieq(h, hl, "command")) {
                if (n == FG_MOTION_MAX_PATTERNS || n >= ecap) {
                    s = fg_error_set(err, FG_EINVAL, "%s:%d: more than %d [Command] blocks",
                                     r.src, line, FG_MOTION_MAX_PATTERNS);
                    break;
                }
                sec = SEC_COMMAND;
                cur = &ents[n++];
                memset(cur, 0, sizeof *cur);
                cur->line = line;
                cur->time = def.time;
                cur->buffer = def.buffer;
                cur->steptime = def.steptime;
                cur->hitpause = def.hitpause;
                cur->autogreater = def.autogreater;
            } else {
                sec = ieq(h, hl, "defaults") ? SEC_DEFAULTS : SEC_OTHER;
            }
            continue;
        }
        if (sec == SEC_OTHER) continue;
        size_t kl, vl;
        const char *v;
        if (!split_line(l, ll, &kl, &v, &vl)) {
            s = fg_error_set(err, FG_EFORMAT, "%s:%d: '%.*s': expected key = value", r.src, line,
                             (int)(ll > 60 ? 60 : ll), l);
            break;
        }
        if (sec == SEC_DEFAULTS) s = read_default(&r, line, l, kl, v, vl, &def);
        else s = read_key(&r, line, l, kl, v, vl, cur, arena, &used);
    }
    if (s == FG_OK) s = block_done(&r, cur);
    if (s == FG_OK && n == 0)
        s = fg_error_set(err, FG_EFORMAT, "%s: no [Command] block found", r.src);
    t.defs_size = (size_t)(n ? n : 1) * sizeof *t.defs;
    if (s == FG_OK) {
        t.defs = fg_alloc(a, t.defs_size);
        if (!t.defs) s = fg_error_set(err, FG_ENOMEM, "%s: out of memory reading commands", r.src);
    }
    if (s == FG_OK) s = make_defs(&r, b, ents, n, arena, t.defs);
    fg_free(a, ents, ecap * sizeof *ents);
    if (s != FG_OK) {
        fg_motion_cmd_text_free(a, &t);
        return s;
    }
    t.ndefs = n;
    t.nnotes = r.nnotes;
    t.notes_dropped = r.dropped;
    *out = t;
    return FG_OK;
}

fg_status fg_motion_set_load_cmd(const fg_motion_buttons *buttons, const char *text, size_t len,
                                 const fg_motion_options *opts, const fg_allocator *a,
                                 fg_motion_set **out, fg_error *err) {
    if (!buttons || !text || !out)
        return fg_error_set(err, FG_EINVAL, "motion set: buttons, text and out are required");
    fg_allocator alloc = a ? *a : fg_allocator_default();
    const char *source = opts && opts->source && *opts->source ? opts->source : "commands";
    fg_motion_mode mode = opts && opts->mode ? opts->mode : FG_MOTION_MODE_FLAGS;
    fg_motion_cmd_text t;
    fg_status s = fg_motion_cmd_read(buttons, text, len, source, &alloc, &t, err);
    if (s != FG_OK) return s;
    if (t.notes_dropped && t.nnotes) {
        fg_motion_finding *last = &t.notes[t.nnotes - 1];
        snprintf(last->text, sizeof last->text, "note: %s: %u more notes not shown", source,
                 t.notes_dropped + 1);
    }
    s = fg_motion_set_build(buttons, t.defs, t.ndefs, mode, t.notes, t.nnotes, &alloc, out, err);
    if (s != FG_OK) fg_error_prefix(err, "%s", source);
    fg_motion_cmd_text_free(&alloc, &t);
    return s;
}

fg_status fg_motion_set_compile_cmd(const fg_motion_buttons *buttons, const char *text,
                                    size_t len, const char *source, const fg_allocator *a,
                                    fg_motion_set **out, fg_error *err) {
    fg_motion_options opts = {FG_MOTION_MODE_DEFAULT, source};
    return fg_motion_set_load_cmd(buttons, text, len, &opts, a, out, err);
}
