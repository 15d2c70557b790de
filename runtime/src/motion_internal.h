/* SPDX-License-Identifier: MIT */
/*
** motion_internal.h: the pattern form both notations compile to, shared by motion_parse.c and
** motion_cmd.c (text to steps) and the files around motion_set.h (steps to a compiled set,
** matcher, explanations, lint).
**
** A pattern is a sequence of steps. Each step is completed by one kind of event on the edge log:
**   HOLD     numpad direction: the stick enters the set; the step stays "open" while it is held
**            and its time is the last tick it was held (so `236P` works from a crouch)
**   ENTER    MUGEN direction: the stick enters the set; its time is that tick
**   LEAVE    `~D`, `[4]`: the stick leaves the set, after holding it min_hold ticks
**   PRESS    a button of each group goes down (`P+K`: one press per group, within the chord window)
**   RELEASE  `]P[`, `~a`, `[P]`: a button of each group goes up, after min_hold ticks down
**   LEVEL    `/D` alone: true on every tick the set (or the buttons) is held
**   NEVER    a name declared without an input (IKEMEN's empty `command =`): never completes
** A DIR edge (prev -> dir) is read as "leave prev, then enter dir", so `~D, DF` can both use the
** edge 2 -> 3, and `[4]6` the edge 4 -> 6.
*/
#ifndef FG_MOTION_INTERNAL_H
#define FG_MOTION_INTERNAL_H

#include "framegate/motion.h"

enum {
    FG_MT_HOLD = 1,
    FG_MT_ENTER = 2,
    FG_MT_LEAVE = 3,
    FG_MT_PRESS = 4,
    FG_MT_RELEASE = 5,
    FG_MT_LEVEL = 6,
    FG_MT_NEVER = 7
};

#define FG_MS_STRICT 0x01u    /* nothing else may come between the previous step and this one */
#define FG_MS_SKIPPABLE 0x02u /* a diagonal between two cardinals: lenient profiles may skip it */
#define FG_MS_SYNTH 0x04u     /* inserted by an expansion (`66` -> 6 >5 >6) */
#define FG_MS_SETDIR 0x08u    /* the direction set came from `$` or a charge (lenient set) */

/* Direction sets are numpad bit masks: bit d (1..9) accepts numpad d. `rel` bits are read relative
** to the facing (mirrored when facing left), `abs` bits are screen directions. */
typedef struct fg_mstep {
    uint8_t trig;
    uint8_t flags;
    uint8_t ngroups;
    uint8_t reserved;
    uint16_t dirs_rel, dirs_abs;
    uint16_t hold_rel, hold_abs; /* '/X, Y': direction that must be held at Y (0 = none) */
    uint32_t hold_buttons;       /* buttons that must be held at Y */
    uint32_t groups[FG_MOTION_MAX_CHORD];
    int32_t min_hold; /* LEAVE/RELEASE/LEVEL: ticks held at least */
    int32_t gap;      /* max ticks after the previous step; 0 = only the time window */
    char label[FG_MOTION_LABEL_MAX];
} fg_mstep;

typedef struct fg_mir {
    uint8_t nsteps;
    uint8_t syntax;       /* FG_MOTION_NUMPAD or FG_MOTION_MUGEN, after auto-detection */
    uint8_t reserved[2];
    int32_t time_default; /* the window when the def gives none (360: 30, 720: 60); 0 = 15 */
    fg_mstep steps[FG_MOTION_MAX_STEPS];
} fg_mir;

/* Alternatives one notation may expand to: `|` between numpad motions, and the 8 ways into a
** 360 (4 starting cardinals, 2 rotations), each times the alternatives after `|`. */
#define FG_MOTION_MAX_ALTS 16

/* Parses one notation into steps. def supplies the syntax, charge, gap and absolute options;
** errors read `"23x6P": unexpected 'x' at column 3, expected a direction or button`. */
fg_status fg_motion_parse_notation(const char *notation, const fg_motion_def *def,
                                   const fg_motion_buttons *b, fg_mir *out, fg_error *err);

/* Parses one notation into its alternatives (one, unless it has `|` or a 360/720): *n of them
** in out[FG_MOTION_MAX_ALTS]. A def marked placeholder gives one NEVER step. */
fg_status fg_motion_parse_alternatives(const char *notation, const fg_motion_def *def,
                                       const fg_motion_buttons *b, fg_mir *out, uint32_t *n,
                                       fg_error *err);

/* What a .cmd text held: defs, their strings, and the notes about what was read but ignored
** (unknown keys, empty commands), each already prefixed with source:line. */
typedef struct fg_motion_cmd_text {
    fg_motion_def *defs;
    uint32_t ndefs;
    size_t defs_size;
    char *strings;
    size_t strings_size;
    fg_motion_finding *notes; /* FG_MOTION_LINT_NOTE, a = b = FG_MOTION_NONE */
    uint32_t nnotes;
    uint32_t notes_dropped; /* notes past FG_MOTION_MAX_NOTES */
} fg_motion_cmd_text;

#define FG_MOTION_MAX_NOTES 32

/* Reads the [Command] blocks of a .cmd text. Every array is allocated from a; free them with
** fg_motion_cmd_text_free. Notations are checked here so errors carry source:line. */
fg_status fg_motion_cmd_read(const fg_motion_buttons *b, const char *text, size_t len,
                             const char *source, const fg_allocator *a, fg_motion_cmd_text *out,
                             fg_error *err);
void fg_motion_cmd_text_free(const fg_allocator *a, fg_motion_cmd_text *t);

/* Compiles defs into a set in a mode; notes (read from a .cmd text) head its findings. */
fg_status fg_motion_set_build(const fg_motion_buttons *buttons, const fg_motion_def *defs,
                              uint32_t ndefs, fg_motion_mode mode, const fg_motion_finding *notes,
                              uint32_t nnotes, const fg_allocator *a, fg_motion_set **out,
                              fg_error *err);

/* Numpad helpers. */
uint16_t fg_motion_mirror_set(uint16_t set); /* 1<->3, 4<->6, 7<->9 */
uint16_t fg_motion_superset_dirs(int numpad); /* dirs whose bits include numpad's bits */
/* Writes a quoted, escaped copy of s (at most about 160 characters) for messages. */
void fg_motion_quote(char *buf, size_t n, const char *s);

/* Recomputes the region fold of a matcher state and compares it with the cached one (1 when
** they agree): tests use it to prove every change keeps the cache up to date. */
uint64_t fg_motion_state_region_check(const fg_motion_set *set, const fg_motion_state *st);
/* Sets the state's cached region folds aside (after a restore: a snapshot's are not trusted). */
void fg_motion_state_region_forget(fg_motion_state *st);

/* A matcher's part of the state hash as a world keeps it between ticks: its fold, the fold's sum
** without the words every step changes (the last tick, the clock, the sweep cursor), and the
** header's held buttons, direction, facing and region flags (one word) and live count it was
** taken with. A step without an edge that changed none of those (the common tick) moves the fold
** by the three words alone; the press times and the region are not read. */
typedef struct fg_motion_kept {
    fg_fold fold;
    uint64_t rest, look;
    uint16_t nlive;
} fg_motion_kept;
/* Folds st (after fg_motion_state_refresh, when the region is to be kept) and keeps the fold. */
void fg_motion_kept_take(fg_motion_kept *k, const fg_motion_set *set, const fg_motion_state *st);
/* After a step of st: k moved by the step's clocks when `quiet` (k held before the step, as
** nothing but the step changed st since k was taken, and the step read no edge) and the step
** changed none of the words k was taken with; else refreshed and taken. */
void fg_motion_kept_step(fg_motion_kept *k, const fg_motion_set *set, fg_motion_state *st,
                         bool quiet);

#endif
