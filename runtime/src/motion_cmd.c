/*
** motion_cmd.c: MUGEN .cmd files: reads the [Command] blocks of a .cmd text into motion
** definitions, checking each notation as it goes so an error carries source:line.
*/
#include "motion_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* {====================================================================== .cmd files */

typedef struct cmd_entry {
    size_t name, command; /* offsets in the string arena */
    int line, command_line;
    int32_t time, buffer, steptime, hitpause, autogreater;
} cmd_entry;

static bool ieq(const char *a, size_t alen, const char *b) {
    size_t blen = strlen(b);
    if (alen != blen) return false;
    for (size_t i = 0; i < alen; i++)
        if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i])) return false;
    return true;
}

static fg_status cmd_int(const char *src, int line, const char *key, const char *v, size_t vlen,
                         int32_t lo, int32_t hi, int32_t *out, fg_error *err) {
    char buf[32];
    if (vlen == 0 || vlen >= sizeof buf)
        return fg_error_set(err, FG_EFORMAT, "%s:%d: %s = '%.*s', expected an integer %d..%d",
                            src, line, key, (int)(vlen > 40 ? 40 : vlen), v, lo, hi);
    memcpy(buf, v, vlen);
    buf[vlen] = '\0';
    char *end;
    long n = strtol(buf, &end, 10);
    if (*end != '\0' || n < lo || n > hi)
        return fg_error_set(err, FG_EFORMAT, "%s:%d: %s = %s, expected an integer %d..%d", src,
                            line, key, buf, lo, hi);
    *out = (int32_t)n;
    return FG_OK;
}

fg_status fg_motion_cmd_read(const fg_motion_buttons *b, const char *text, size_t len,
                             const char *source, const fg_allocator *a, fg_motion_def **defs_out,
                             size_t *defs_size, uint32_t *ndefs_out, char **strings_out,
                             size_t *strings_size, fg_error *err) {
    const char *src = source && *source ? source : "commands";
    /* First pass: count blocks and string bytes, so both allocations are exact. */
    uint32_t nblocks = 0;
    for (size_t i = 0; i + 1 < len; i++)
        if (text[i] == '[' && (i == 0 || text[i - 1] == '\n' || text[i - 1] == ' ' ||
                               text[i - 1] == '\t'))
            nblocks++;
    if (nblocks > FG_MOTION_MAX_PATTERNS) nblocks = FG_MOTION_MAX_PATTERNS + 1;
    size_t ecap = nblocks ? nblocks : 1;
    cmd_entry *ents = fg_alloc(a, ecap * sizeof *ents);
    char *arena = fg_alloc(a, len + 2);
    if (!ents || !arena) {
        fg_free(a, ents, ecap * sizeof *ents);
        fg_free(a, arena, len + 2);
        return fg_error_set(err, FG_ENOMEM, "%s: out of memory reading commands", src);
    }
    size_t used = 1; /* offset 0 is the empty string */
    arena[0] = '\0';
    uint32_t n = 0;
    enum { SEC_OTHER, SEC_DEFAULTS, SEC_COMMAND } sec = SEC_OTHER;
    int32_t def_time = FG_MOTION_DEFAULT_TIME, def_buffer = FG_MOTION_DEFAULT_BUFFER,
            def_steptime = 0, def_hitpause = 1, def_autogreater = 1;
    int block_line = 0;
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
        /* Strip a comment (';' outside quotes), the carriage return and the blanks. */
        bool inq = false;
        for (size_t i = 0; i < ll; i++) {
            if (l[i] == '"') inq = !inq;
            else if (l[i] == ';' && !inq) {
                ll = i;
                break;
            }
        }
        while (ll && (l[ll - 1] == '\r' || l[ll - 1] == ' ' || l[ll - 1] == '\t')) ll--;
        while (ll && (*l == ' ' || *l == '\t')) {
            l++;
            ll--;
        }
        if (ll == 0) continue;
        if (l[0] == '[') {
            size_t close = 1;
            while (close < ll && l[close] != ']') close++;
            if (close == ll) {
                s = fg_error_set(err, FG_EFORMAT, "%s:%d: section header without ']'", src, line);
                break;
            }
            const char *h = l + 1;
            size_t hl = close - 1;
            while (hl && (*h == ' ')) {
                h++;
                hl--;
            }
            while (hl && h[hl - 1] == ' ') hl--;
            if (cur && (cur->name == 0 || cur->command == 0)) {
                s = fg_error_set(err, FG_EFORMAT, "%s:%d: the [Command] block has no %s", src,
                                 block_line, cur->name == 0 ? "name" : "command");
                break;
            }
            cur = NULL;
            if (ieq(h, hl, "command")) {
                if (n == FG_MOTION_MAX_PATTERNS || n >= ecap) {
                    s = fg_error_set(err, FG_EINVAL, "%s:%d: more than %d [Command] blocks", src,
                                     line, FG_MOTION_MAX_PATTERNS);
                    break;
                }
                sec = SEC_COMMAND;
                cur = &ents[n++];
                memset(cur, 0, sizeof *cur);
                cur->line = line;
                cur->time = def_time;
                cur->buffer = def_buffer;
                cur->steptime = def_steptime;
                cur->hitpause = def_hitpause;
                cur->autogreater = def_autogreater;
                block_line = line;
            } else if (ieq(h, hl, "defaults")) {
                sec = SEC_DEFAULTS;
            } else {
                sec = SEC_OTHER;
            }
            continue;
        }
        if (sec == SEC_OTHER) continue;
        size_t eq = 0;
        while (eq < ll && l[eq] != '=') eq++;
        if (eq == ll) {
            s = fg_error_set(err, FG_EFORMAT, "%s:%d: '%.*s': expected key = value", src, line,
                             (int)(ll > 60 ? 60 : ll), l);
            break;
        }
        size_t kl = eq;
        while (kl && (l[kl - 1] == ' ' || l[kl - 1] == '\t')) kl--;
        const char *v = l + eq + 1;
        size_t vl = ll - eq - 1;
        while (vl && (*v == ' ' || *v == '\t')) {
            v++;
            vl--;
        }
        if (sec == SEC_DEFAULTS) {
            if (ieq(l, kl, "command.time"))
                s = cmd_int(src, line, "command.time", v, vl, 1, FG_MOTION_MAX_TICKS, &def_time,
                            err);
            else if (ieq(l, kl, "command.buffer.time"))
                s = cmd_int(src, line, "command.buffer.time", v, vl, 1, FG_MOTION_MAX_TICKS,
                            &def_buffer, err);
            else if (ieq(l, kl, "command.steptime"))
                s = cmd_int(src, line, "command.steptime", v, vl, -1, FG_MOTION_MAX_TICKS,
                            &def_steptime, err);
            else if (ieq(l, kl, "command.buffer.hitpause"))
                s = cmd_int(src, line, "command.buffer.hitpause", v, vl, 0, 1, &def_hitpause, err);
            else if (ieq(l, kl, "command.autogreater"))
                s = cmd_int(src, line, "command.autogreater", v, vl, 0, 1, &def_autogreater, err);
            else if (ieq(l, kl, "command.buffer.pauseend") || ieq(l, kl, "command.buffer.shared"))
                continue; /* pauses and sibling resets are the world's business here */
            else
                s = fg_error_set(err, FG_EFORMAT,
                                 "%s:%d: unknown key '%.*s' in [Defaults], expected "
                                 "command.time, command.buffer.time, command.steptime, "
                                 "command.buffer.hitpause or command.autogreater",
                                 src, line, (int)(kl > 40 ? 40 : kl), l);
            continue;
        }
        /* [Command] */
        if (ieq(l, kl, "name")) {
            if (vl >= 2 && v[0] == '"' && v[vl - 1] == '"') {
                v++;
                vl -= 2;
            }
            if (vl == 0 || vl >= FG_MOTION_NAME_MAX) {
                s = fg_error_set(err, FG_EFORMAT, "%s:%d: name must be 1 to %d characters", src,
                                 line, FG_MOTION_NAME_MAX - 1);
                break;
            }
            cur->name = used;
            memcpy(arena + used, v, vl);
            used += vl;
            arena[used++] = '\0';
        } else if (ieq(l, kl, "command")) {
            if (vl == 0) {
                s = fg_error_set(err, FG_EFORMAT, "%s:%d: command is empty, expected a command "
                                 "string such as ~D, DF, F, x", src, line);
                break;
            }
            cur->command = used;
            cur->command_line = line;
            memcpy(arena + used, v, vl);
            used += vl;
            arena[used++] = '\0';
        } else if (ieq(l, kl, "time")) {
            s = cmd_int(src, line, "time", v, vl, 1, FG_MOTION_MAX_TICKS, &cur->time, err);
        } else if (ieq(l, kl, "buffer.time")) {
            s = cmd_int(src, line, "buffer.time", v, vl, 1, FG_MOTION_MAX_TICKS, &cur->buffer,
                        err);
        } else if (ieq(l, kl, "steptime")) {
            s = cmd_int(src, line, "steptime", v, vl, -1, FG_MOTION_MAX_TICKS, &cur->steptime,
                        err);
        } else if (ieq(l, kl, "buffer.hitpause")) {
            s = cmd_int(src, line, "buffer.hitpause", v, vl, 0, 1, &cur->hitpause, err);
        } else if (ieq(l, kl, "autogreater")) {
            s = cmd_int(src, line, "autogreater", v, vl, 0, 1, &cur->autogreater, err);
        } else if (ieq(l, kl, "buffer.pauseend") || ieq(l, kl, "buffer.shared")) {
            continue;
        } else {
            s = fg_error_set(err, FG_EFORMAT,
                             "%s:%d: unknown key '%.*s' in [Command], expected name, command, "
                             "time, buffer.time, steptime, buffer.hitpause, buffer.pauseend, "
                             "buffer.shared or autogreater",
                             src, line, (int)(kl > 40 ? 40 : kl), l);
        }
    }
    if (s == FG_OK && cur && (cur->name == 0 || cur->command == 0))
        s = fg_error_set(err, FG_EFORMAT, "%s:%d: the [Command] block has no %s", src, block_line,
                         cur->name == 0 ? "name" : "command");
    if (s == FG_OK && n == 0)
        s = fg_error_set(err, FG_EFORMAT, "%s: no [Command] block found", src);
    fg_motion_def *defs = NULL;
    size_t dsize = (size_t)(n ? n : 1) * sizeof *defs;
    if (s == FG_OK) {
        defs = fg_alloc(a, dsize);
        if (!defs) s = fg_error_set(err, FG_ENOMEM, "%s: out of memory reading commands", src);
    }
    for (uint32_t i = 0; s == FG_OK && i < n; i++) {
        fg_motion_def *d = &defs[i];
        d->name = arena + ents[i].name;
        d->notation = arena + ents[i].command;
        d->syntax = FG_MOTION_MUGEN;
        d->time = ents[i].time;
        d->buffer = ents[i].buffer;
        d->gap = ents[i].steptime > 0 ? ents[i].steptime : 0;
        d->frozen = ents[i].hitpause ? FG_MOTION_FROZEN_SKIP : FG_MOTION_FROZEN_COUNT;
        d->no_autogreater = ents[i].autogreater == 0;
        fg_mir ir;
        s = fg_motion_parse_notation(d->notation, d, b, &ir, err);
        if (s != FG_OK) fg_error_prefix(err, "%s:%d: %s", src, ents[i].command_line, d->name);
    }
    fg_free(a, ents, ecap * sizeof *ents);
    if (s != FG_OK) {
        fg_free(a, defs, dsize);
        fg_free(a, arena, len + 2);
        return s;
    }
    *defs_out = defs;
    *defs_size = dsize;
    *ndefs_out = n;
    *strings_out = arena;
    *strings_size = len + 2;
    return FG_OK;
}

/* }====================================================================== */
