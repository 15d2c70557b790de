/* SPDX-License-Identifier: MIT */
/*
** framegate/motion.h: the motion layer. Combo notation (numpad `236P` and MUGEN `~D, DF, F, x`)
** compiles to one pattern form; an incremental matcher turns each entity's new edges into
** semantic commands (`hadouken`), decides between commands that complete on the same tick, and
** explains the patterns that did not fire. It never starts an action: commands go to the request
** layer.
**
** Three kinds of object:
**   fg_motion_set    compiled patterns, immutable after compile, shared by every entity of a
**                    ruleset (read-only, so any number of threads may read it);
**   fg_motion_state  one entity's matcher state: plain data without pointers, of a size fixed by
**                    the set (fg_motion_state_size), saved and restored with memcpy for rollback
**                    and hashed field by field (fg_motion_state_hash);
**   fg_motion_command  what a tick produced: motion id, tick, the edges it used and why it won.
**
** Per tick, after fg_buffer_consume_for_tick, the world calls fg_motion_step once per entity. The
** cost grows with the tick's new edges, not with the buffer's length, and nothing allocates.
** In consume mode (the default), completing a command consumes its edges (fg_buffer_consume),
** so one press never fires two commands and a piano roll over the buttons does not re-fire the
** same motion. In flags mode (MUGEN's semantics, the default for .cmd files) nothing is consumed:
** every command that completed is reported, best-ranked first, and stays true for its buffer.
**
** Facing: the buffer stores absolute directions and stamps each edge with the entity's facing. A
** facing-relative pattern is read in the facing of the edge that completes it: every earlier step
** is read as if the entity already faced that way. A motion done for the old side and finished
** after a side switch does not fire (explain says so); one done for the new side across the switch
** does. See docs/motion.md.
*/
#ifndef FRAMEGATE_MOTION_H
#define FRAMEGATE_MOTION_H

#include "framegate/base.h"
#include "framegate/input.h"

#ifdef __cplusplus
extern "C" {
#endif

/* {====================================================================== limits and defaults */

#define FG_MOTION_MAX_STEPS 12     /* steps of one pattern (after expansion of `66`, `F, F`) */
#define FG_MOTION_MAX_EDGES 16     /* edges one command uses (each button of a chord counts) */
#define FG_MOTION_MAX_CHORD 4      /* buttons in one `P+K` step */
#define FG_MOTION_MAX_PATTERNS 256 /* patterns in one set */
#define FG_MOTION_MAX_GROUPS 16    /* button groups (`P` = LP, MP, HP) */
#define FG_MOTION_NAME_MAX 32      /* command names, including the terminating zero */
#define FG_MOTION_NOTATION_MAX 128 /* notation strings, including the terminating zero */
#define FG_MOTION_LABEL_MAX 12     /* the text of one step, for explanations */
#define FG_MOTION_MAX_TICKS 3600   /* largest time, buffer, gap or charge value */
#define FG_MOTION_NONE 0xFFFFu     /* "no motion" in uint16_t motion fields */

#define FG_MOTION_DEFAULT_TIME 15   /* whole-command window, as MUGEN's command.time */
#define FG_MOTION_DEFAULT_BUFFER 0  /* ticks after its completion a command stays asserted */
#define FG_MOTION_DEFAULT_CHARGE 30 /* ticks a `[4]` charge must be held */
#define FG_MOTION_GAP_SHORT 12      /* numpad: direction step gap in motions of <= 3 directions */
#define FG_MOTION_GAP_LONG 8        /* numpad: direction step gap in longer motions */
#define FG_MOTION_GAP_BUTTON 8      /* numpad: gap before a button step */

/* }====================================================================== */

/* {====================================================================== buttons and groups */

/* A named group of buttons: `P` in `236P` means any button of the group. */
typedef struct fg_motion_group {
    char name[FG_IN_NAME_MAX];
    uint32_t mask; /* action bits (1u << id) of the members */
} fg_motion_group;

/* The names a notation may use: the ruleset's buttons (ids as in fg_action_names) and its groups,
** sorted by name. */
typedef struct fg_motion_buttons {
    fg_action_names names;
    uint32_t ngroups;
    fg_motion_group groups[FG_MOTION_MAX_GROUPS];
} fg_motion_buttons;

/* A group as a ruleset declares it: `P = { "LP", "MP", "HP" }`. */
typedef struct fg_motion_group_def {
    const char *name;
    const char *const *members;
    uint32_t nmembers;
} fg_motion_group_def;

/* Builds the table. groups == NULL asks for the default groups: every upper-case letter that ends
** the names of at least two buttons longer than one character (LP, MP, HP give `P`; LK, HK give
** `K`), unless a button already has that name. groups != NULL declares them explicitly (ngroups
** may be 0 for none). Fails, changing nothing, on a bad button list (see fg_action_names_init), a
** group name that is empty, too long, or clashes with a button or another group, an unknown or
** repeated member, an empty group, or too many groups. */
FG_API fg_status fg_motion_buttons_init(fg_motion_buttons *out, const char *const *buttons,
                                        uint32_t nbuttons, const fg_motion_group_def *groups,
                                        uint32_t ngroups, fg_error *err);
/* The table used when none is given (Lua `fg.motion` without `buttons`). FG_MOTION_NUMPAD: LP MP
** HP LK MK HK with groups P and K. FG_MOTION_MUGEN: MUGEN's a b c x y z s and Ikemen's d w m.
** FG_MOTION_AUTO: both. */
FG_API void fg_motion_buttons_default(fg_motion_buttons *out, int syntax);
/* Group index of a name, or -1. */
FG_API int fg_motion_buttons_group(const fg_motion_buttons *b, const char *name);

/* }====================================================================== */

/* {====================================================================== pattern definitions */

typedef enum fg_motion_syntax {
    FG_MOTION_AUTO = 0,   /* MUGEN if the string has ',' or starts with ~ / $ > or a MUGEN
                             direction name (B, DB, D, DF, F, UF, U, UB, L, R, N); else numpad */
    FG_MOTION_NUMPAD = 1, /* 236P, [4]6P, ]P[, P+K, 66, 2~8 */
    FG_MOTION_MUGEN = 2   /* ~D, DF, F, x ; /X ~X ~30X $D X+Y >X X|Y */
} fg_motion_syntax;

/* How a pattern's windows treat frozen ticks (hitstop, superfreeze; fg_motion_ctx.frozen). */
typedef enum fg_motion_frozen {
    FG_MOTION_FROZEN_DEFAULT = 0, /* = SKIP */
    FG_MOTION_FROZEN_SKIP = 1,    /* frozen ticks do not count: gaps, time, charge and buffer
                                     stand still (MUGEN buffer.hitpause = 1) */
    FG_MOTION_FROZEN_COUNT = 2    /* frozen ticks count like any other */
} fg_motion_frozen;

/* One pattern as written. Zero means "default" for every number. */
typedef struct fg_motion_def {
    const char *name;     /* the command; several defs may share a name (alternatives) */
    const char *notation; /* "236P", "~D, DF, F, x" */
    fg_motion_syntax syntax;
    fg_motion_frozen frozen;
    bool has_priority;    /* false: priority 0, and lint treats the pair as unordered */
    int32_t priority;     /* higher wins when commands complete on shared inputs */
    int32_t time;         /* ticks from the first step to completion; 0 = 15 */
    int32_t buffer;       /* ticks after its completion tick the command is still asserted
                             (asks again): 0 = the completion tick only, 2 = that tick and the
                             next two. Like every window in ticks. A .cmd file's buffer.time
                             counts the completion tick: buffer.time N is buffer N - 1. Hold-only
                             commands are never buffered */
    int32_t gap;          /* max ticks between two steps, every step; 0 = notation default
                             (numpad: 12/8/8, MUGEN: none beyond `time`, as steptime -1) */
    int32_t gaps[FG_MOTION_MAX_STEPS - 1]; /* per step, overriding `gap`: gaps[k] bounds the
                             wait before compiled step k+2 (the steps tostring prints, so 236P's
                             three gaps are gaps[0..2]); 0 = that step keeps its default */
    int32_t charge;       /* ticks for `[4]` and `[P]`; 0 = 30 */
    bool absolute;        /* numpad: directions are screen directions, never mirrored */
    bool no_autogreater;  /* MUGEN: do not expand `F, F` into `F, >~F, >F` */
    bool placeholder;     /* a name declared without an input (IKEMEN's empty `command =`):
                             the notation is ignored and the command never completes */
} fg_motion_def;

/* How a set's commands relate to the input they used (docs/motion.md, "MUGEN and IKEMEN files"). */
typedef enum fg_motion_mode {
    FG_MOTION_MODE_DEFAULT = 0, /* CONSUME for fg_motion_set_compile_with, FLAGS for .cmd files */
    FG_MOTION_MODE_CONSUME = 1, /* a reported command uses its inputs up: one press fires one
                                   command, the best-ranked (numpad rules) */
    FG_MOTION_MODE_FLAGS = 2    /* MUGEN and IKEMEN: nothing is used up; every command that
                                   completed is true for its buffer ticks, several at once */
} fg_motion_mode;

/* Options of a compile. Zero is the default for every field. */
typedef struct fg_motion_options {
    fg_motion_mode mode;
    const char *source; /* .cmd: the file name messages start with ("kfm.cmd:3: ...") */
} fg_motion_options;

typedef struct fg_motion_set fg_motion_set;

/* The notation a string is written in, by the FG_MOTION_AUTO rule above (b decides whether a
** leading name is a button or a MUGEN direction; NULL = the default tables). */
FG_API fg_motion_syntax fg_motion_detect(const char *notation, const fg_motion_buttons *b);

/* Compiles defs into a set. Ids are assigned by sorting on (name, notation) bytewise, so the same
** defs in any order give the same ids. Every def is checked; the first error names the def and the
** position: `hadouken: "23x6P": unexpected 'x' at column 3, expected a direction or button`. On
** failure *out is untouched and nothing stays allocated. Lint runs here (fg_motion_lint). */
FG_API fg_status fg_motion_set_compile(const fg_motion_buttons *buttons, const fg_motion_def *defs,
                                       uint32_t ndefs, const fg_allocator *a,
                                       fg_motion_set **out, fg_error *err);
/* Compiles the [Command] blocks of a MUGEN/IKEMEN .cmd text (name, command, time, buffer.time,
** steptime, buffer.hitpause, autogreater; [Defaults] command.time and command.buffer.time) in
** flags mode: fg_motion_set_load_cmd with only a source. Other sections are ignored. Errors name
** source:line. */
FG_API fg_status fg_motion_set_compile_cmd(const fg_motion_buttons *buttons, const char *text,
                                           size_t len, const char *source, const fg_allocator *a,
                                           fg_motion_set **out, fg_error *err);
/* As fg_motion_set_compile, with options (NULL = defaults: consume mode). */
FG_API fg_status fg_motion_set_compile_with(const fg_motion_buttons *buttons,
                                            const fg_motion_def *defs, uint32_t ndefs,
                                            const fg_motion_options *opts, const fg_allocator *a,
                                            fg_motion_set **out, fg_error *err);
/* As fg_motion_set_compile_cmd, with options (NULL = defaults: flags mode, source "commands").
** What MUGEN reads and ignores loads too, with a note among the findings (FG_MOTION_LINT_NOTE):
** an unknown key in a block, and an empty `command =` (a name that never completes). */
FG_API fg_status fg_motion_set_load_cmd(const fg_motion_buttons *buttons, const char *text,
                                        size_t len, const fg_motion_options *opts,
                                        const fg_allocator *a, fg_motion_set **out,
                                        fg_error *err);
FG_API void fg_motion_set_destroy(fg_motion_set *set);
/* FG_MOTION_MODE_CONSUME or FG_MOTION_MODE_FLAGS. */
FG_API fg_motion_mode fg_motion_set_mode(const fg_motion_set *set);

FG_API uint32_t fg_motion_count(const fg_motion_set *set);
/* Name and notation of a motion id; NULL when out of range. */
FG_API const char *fg_motion_name(const fg_motion_set *set, uint32_t id);
FG_API const char *fg_motion_notation(const fg_motion_set *set, uint32_t id);
/* Lowest id with that name, or -1. */
FG_API int fg_motion_find(const fg_motion_set *set, const char *name);
FG_API const fg_motion_buttons *fg_motion_set_buttons(const fg_motion_set *set);
/* Content hash of the set (defs, options, buttons); states carry it to detect a mismatch. */
FG_API uint64_t fg_motion_set_hash(const fg_motion_set *set);
/* The compiled form in words: `236P: 2 > 3 > 6 > P (numpad; time 15, buffer 0; gaps 12 12 8)`.
** Returns the length it needed (snprintf style). */
FG_API size_t fg_motion_describe(const fg_motion_set *set, uint32_t id, char *buf, size_t n);

/* }====================================================================== */

/* {====================================================================== lint */

typedef enum fg_motion_lint_kind {
    FG_MOTION_LINT_CONTAINED = 0, /* every input completing b also completes a on the same tick
                                     and they have equal priority: b wins only by length or
                                     specificity (236P in 236236P) */
    FG_MOTION_LINT_AMBIGUOUS = 1, /* a short input completes both (6236P for 623P and 236P) with
                                     equal priority and nothing else to tell them apart */
    FG_MOTION_LINT_NEVER = 2,     /* a can never fire (shadowed, duplicate, contradictory) */
    FG_MOTION_LINT_NOTE = 3       /* something read and ignored, or a name without an input
                                     (a may be FG_MOTION_NONE when no pattern is involved) */
} fg_motion_lint_kind;

/* Room for a finding that names a .cmd file by a long path (a deep checkout): 4 KiB, PATH_MAX. */
#define FG_MOTION_LINT_TEXT 4352
typedef struct fg_motion_finding {
    uint8_t kind;  /* fg_motion_lint_kind */
    uint16_t a, b; /* motion ids; b is FG_MOTION_NONE when only a is involved */
    char text[FG_MOTION_LINT_TEXT]; /* "warning: ..." naming both patterns */
} fg_motion_finding;

/* Findings of the set, computed at compile. They are warnings: the set works regardless. Lint
** reasons about which inputs each step accepts; it ignores gaps and windows. */
FG_API const fg_motion_finding *fg_motion_lint(const fg_motion_set *set, uint32_t *count);

/* }====================================================================== */

/* {====================================================================== leniency profiles */

/* A player's leniency, applied as data to the same compiled patterns. */
typedef struct fg_motion_profile {
    char name[16];
    int32_t gap_extra;       /* added to every step gap (a gap never drops below 1) */
    int32_t time_extra;      /* added to every `time` window (never below 1) */
    int32_t chord_window;    /* `P+K`: ticks allowed between the first and the last press */
    bool lenient_directions; /* a diagonal between two cardinals may be skipped: 26P for 236P */
    fg_socd socd_horizontal; /* applied upstream by the input map; carried so a player's whole */
    fg_socd socd_vertical;   /* leniency lives in one place */
} fg_motion_profile;

typedef enum fg_motion_profile_kind {
    FG_MOTION_PROFILE_STRICT = 0,   /* gaps -2, time -3, chord window 1 */
    FG_MOTION_PROFILE_STANDARD = 1, /* the patterns as written, chord window 3 */
    FG_MOTION_PROFILE_LENIENT = 2   /* gaps +3, time +5, chord window 6, diagonals optional */
} fg_motion_profile_kind;

FG_API fg_motion_profile fg_motion_profile_preset(fg_motion_profile_kind kind);
/* "strict", "standard" or "lenient". */
FG_API fg_status fg_motion_profile_named(const char *name, fg_motion_profile *out, fg_error *err);
FG_API fg_status fg_motion_profile_check(const fg_motion_profile *p, fg_error *err);

/* }====================================================================== */

/* {====================================================================== matching */

/* One entity's matcher state. Opaque plain data: allocate fg_motion_state_size(set) bytes with
** 8-byte alignment, call fg_motion_state_init, copy with memcpy. */
typedef struct fg_motion_state fg_motion_state;

FG_API size_t fg_motion_state_size(const fg_motion_set *set);
/* start_tick: the tick before the first one stepped (as fg_buffer_init). */
FG_API void fg_motion_state_init(const fg_motion_set *set, fg_motion_state *st, fg_tick start_tick);
/* Whether `size` bytes from outside (a snapshot read back, at any alignment) are a state of this
** set the matcher can run: FG_OK, or a message naming the field. Nothing is written. */
FG_API fg_status fg_motion_state_check(const fg_motion_set *set, const void *bytes, size_t size,
                                       fg_error *err);
/* Feeds the authoritative part of the state to a hasher, field by field. Diagnostic fields
** (near-miss records) are not hashed. Cheap after fg_motion_state_refresh; correct without it. */
FG_API void fg_motion_state_hash(const fg_motion_set *set, const fg_motion_state *st,
                                 fg_hasher *hs);
/* The fold fg_motion_state_hash mixes into its hasher (fg_hash_fold_end), for a hash that folds
** the state at one time and mixes it in later (the world's, right after the matcher's step). */
FG_API fg_fold fg_motion_state_fold(const fg_motion_set *set, const fg_motion_state *st);
/* Brings the state's cached hash of its patterns up to date after steps changed them: call it
** before hashing every tick (the world does); the hash value is the same either way. */
FG_API void fg_motion_state_refresh(const fg_motion_set *set, fg_motion_state *st);

/* What the world tells the matcher about this tick. */
typedef struct fg_motion_ctx {
    const fg_motion_profile *profile; /* NULL = standard */
    bool frozen;                      /* the entity is in hitstop/superfreeze this tick */
} fg_motion_ctx;

/* Why a command won over the best command it shared inputs with. */
typedef enum fg_motion_why {
    FG_MOTION_WHY_ALONE = 0,       /* nothing else completed on its inputs this tick */
    FG_MOTION_WHY_PRIORITY = 1,    /* higher explicit priority */
    FG_MOTION_WHY_LENGTH = 2,      /* more inputs (each button of a chord counts) */
    FG_MOTION_WHY_SPECIFICITY = 3, /* fewer alternatives: exact over lenient, LP over P */
    FG_MOTION_WHY_ORDER = 4        /* all equal: the lower id won (lint warns about this) */
} fg_motion_why;

#define FG_MOTION_CMD_LEVEL 0x01u   /* a hold-only command (`/D`): asserted while held, no edges */
#define FG_MOTION_CMD_UPGRADE 0x02u /* a chord that took over a press used by `replaces` */

typedef struct fg_motion_command {
    uint16_t motion;   /* id in the set */
    uint16_t beat;     /* the best-ranked motion it beat on shared inputs, or FG_MOTION_NONE */
    uint16_t replaces; /* UPGRADE: the motion whose command this one replaces, or FG_MOTION_NONE */
    uint8_t why;       /* fg_motion_why */
    uint8_t flags;     /* FG_MOTION_CMD_* */
    uint8_t facing;    /* fg_facing the motion was read in */
    uint8_t nedges;
    uint16_t age;      /* 0 on the completing tick; n when re-asserted n ticks later (buffer);
                          the buffer expires on the pattern's clock, so frozen ticks add age
                          without using up a FROZEN_SKIP buffer */
    int32_t priority;
    fg_tick tick;      /* completion tick */
    fg_edge_id edges[FG_MOTION_MAX_EDGES]; /* the edges it used, oldest first */
    fg_tick edge_ticks[FG_MOTION_MAX_EDGES];
} fg_motion_command;

/* Runs one tick for one entity, after fg_buffer_consume_for_tick(buf, tick, in). Reads the tick's
** new edges, updates st, consumes the edges of the commands it reports (consume mode only) and
** writes up to max commands to out: the tick's new commands best first, then commands still
** asserted by their buffer (age > 0; in flags mode one per name). Pass max >= fg_motion_count(set) to never drop one; a dropped completion
** consumes nothing. Fails, changing nothing, when in->tick is not after the previous step's tick
** (FG_ESTATE) or st was initialised for another set (FG_EMISMATCH). */
FG_API fg_status fg_motion_step(const fg_motion_set *set, fg_motion_state *st, fg_buffer *buf,
                                const fg_tick_input *in, const fg_motion_ctx *ctx,
                                fg_motion_command *out, uint32_t max, uint32_t *nout,
                                fg_error *err);
/* Stops re-asserting a buffered command (the request layer used it). */
FG_API void fg_motion_retire(const fg_motion_set *set, fg_motion_state *st, uint32_t motion);

/* One line: `super (236236P) on tick 40 won over hadouken (236P): more inputs (7 > 4)`. Returns
** the length it needed. */
FG_API size_t fg_motion_command_format(const fg_motion_set *set, const fg_motion_command *c,
                                       char *buf, size_t n);

/* }====================================================================== */

/* {====================================================================== explanations */

typedef enum fg_motion_fail {
    FG_MOTION_FAIL_NONE = 0,     /* nothing went wrong yet: waiting for step `step` */
    FG_MOTION_FAIL_GAP = 1,      /* value ticks after the previous step, limit allowed */
    FG_MOTION_FAIL_TIME = 2,     /* value ticks since the first step, limit = time */
    FG_MOTION_FAIL_STRICT = 3,   /* value other inputs came in between, none allowed */
    FG_MOTION_FAIL_CHARGE = 4,   /* held value ticks, limit needed */
    FG_MOTION_FAIL_HOLD = 5,     /* a `/X` hold was not held (value = direction held) */
    FG_MOTION_FAIL_CHORD = 6,    /* value ticks between chord presses, limit = chord window
                                    (value -1: a button of the chord was not pressed) */
    FG_MOTION_FAIL_FACING = 7,   /* completed for facing `facing`, but the entity faced the other
                                    way at the last step */
    FG_MOTION_FAIL_CONSUMED = 8, /* an edge it needed was already used (by `other` if known) */
    FG_MOTION_FAIL_LOST = 9,     /* completed, but `other` won (why in value) */
    FG_MOTION_FAIL_EXPIRED = 10  /* the next step did not come within `time` (limit) */
} fg_motion_fail;

/* Why a pattern has not fired: the furthest step reached and the last thing that went wrong. */
typedef struct fg_motion_miss {
    uint16_t motion;
    uint16_t other;   /* FG_MOTION_FAIL_LOST / CONSUMED: the other motion, or FG_MOTION_NONE */
    uint8_t reason;   /* fg_motion_fail */
    uint8_t reached;  /* steps matched (0..nsteps) */
    uint8_t step;     /* the step that failed or is awaited (0-based) */
    uint8_t nsteps;
    uint8_t facing;   /* the facing the pattern was read in */
    int64_t value, limit;
    fg_tick tick;     /* when it failed (-1 for FG_MOTION_FAIL_NONE) */
} fg_motion_miss;

/* Near-miss report for one motion from the entity's state. profile: as passed to fg_motion_step
** (NULL = standard); it decides which partial matches are still alive. */
FG_API void fg_motion_explain(const fg_motion_set *set, const fg_motion_state *st,
                              const fg_motion_profile *profile, uint32_t motion,
                              fg_motion_miss *out);
/* One line: `236P: step 3 (6) came 9 ticks after 3, max gap 8`. Returns the length it needed. */
FG_API size_t fg_motion_miss_format(const fg_motion_set *set, const fg_motion_miss *m, char *buf,
                                    size_t n);

/* }====================================================================== */

/* {====================================================================== input scripts */

/* A tiny input script for REPL experiments and scenario tests, events at ticks (60 Hz):
**   6@4        the stick moves to numpad 6 (screen direction) at tick 4, and stays
**   LP@5       LP goes down at tick 5 and stays down; a group name presses its first member
**   LP@5-9     LP down at 5, up at 9
**   ~LP@9      LP up at 9
**   face=left@10   the entity faces left from tick 10 (face=right likewise)
**   freeze@12-20   ticks 12..20 are frozen (hitstop); freeze@12 freezes one tick
** Tokens are separated by spaces; ticks never go back and stay at most FG_MOTION_SCRIPT_MAX_TICK.
** Events of one tick apply in script order. */
#define FG_MOTION_SCRIPT_MAX_TICK 1000000
typedef enum fg_motion_script_kind {
    FG_MOTION_SCRIPT_DIR = 0,
    FG_MOTION_SCRIPT_PRESS = 1,
    FG_MOTION_SCRIPT_RELEASE = 2,
    FG_MOTION_SCRIPT_FACE = 3,
    FG_MOTION_SCRIPT_FREEZE = 4
} fg_motion_script_kind;

typedef struct fg_motion_script_event {
    fg_tick tick;
    fg_tick until;  /* FREEZE: last frozen tick */
    uint8_t kind;   /* fg_motion_script_kind */
    uint8_t action; /* PRESS/RELEASE: button id */
    uint8_t value;  /* DIR: numpad; FACE: fg_facing */
    uint8_t reserved[5];
} fg_motion_script_event;

/* Parses a script into events sorted by tick (releases of `LP@5-9` are placed at their tick).
** Errors name the column: `script "2@0 3@x": unexpected 'x' at column 7, expected a tick`. */
FG_API fg_status fg_motion_script_parse(const char *script, const fg_motion_buttons *buttons,
                                        fg_motion_script_event *out, uint32_t max, uint32_t *n,
                                        fg_error *err);

#define FG_MOTION_RUN_MAX 32
/* The commands a script produced, in tick order. */
typedef struct fg_motion_run {
    uint32_t ncommands;
    uint32_t dropped;  /* commands past FG_MOTION_RUN_MAX */
    fg_tick end_tick;  /* the last tick run */
    fg_motion_command commands[FG_MOTION_RUN_MAX];
} fg_motion_run;

/* Runs a script through a fresh buffer and state (allocated from a, freed before returning), from
** tick 0 to the last event plus the largest buffer. misses, if not NULL, has fg_motion_count(set)
** entries and receives fg_motion_explain for every motion at the end. */
FG_API fg_status fg_motion_run_script(const fg_motion_set *set, const char *script,
                                      const fg_motion_profile *profile, const fg_allocator *a,
                                      fg_motion_run *out, fg_motion_miss *misses, fg_error *err);

/* }====================================================================== */

#ifdef __cplusplus
}
#endif
#endif
