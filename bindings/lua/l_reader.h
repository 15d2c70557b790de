/*
** l_reader.h: reading a ruleset declaration's tables with paths in every message
** (`actions.jab.startup: expected an integer, got string 'fast'`). Findings that can be read past
** are noted and reading goes on; a structure that cannot be read stops it (fg_rd_fail).
** Used by l_rules.c (the declaration) and l_hits.c (boxes and hit data).
*/
#ifndef FG_L_READER_H
#define FG_L_READER_H

#include "fg_lua.h"

typedef struct fg_rd {
    lua_State *L;
    char path[160];
    const char *chunk; /* where the declaration came from, for messages */
    const char *name;  /* the ruleset's name, once read */
    int notes;         /* stack index of the list of "path: message" findings so far */
    int shaky;         /* stack index of { [action name] = true }: its ticks could not be read */
} fg_rd;

/* A field that cannot be read: noted; reading goes on with its default. */
void fg_rd_note(fg_rd *rd, const char *fmt, ...) FG_PRINTF(2, 3);
/* Pushes "CHUNK: invalid ruleset 'NAME':" and the noted findings, then `more` (may be NULL). */
void fg_rd_push_invalid(fg_rd *rd, const fg_findings *more);
/* A structure that cannot be read: raises with the findings so far. */
int fg_rd_fail(fg_rd *rd, const char *fmt, ...) FG_PRINTF(2, 3);
/* Pushes a path segment; returns the old length for fg_rd_path_pop. */
size_t fg_rd_path_push(fg_rd *rd, const char *fmt, ...) FG_PRINTF(2, 3);
void fg_rd_path_pop(fg_rd *rd, size_t old);
const char *fg_rd_describe(lua_State *L, int idx, char *buf, size_t size);
/* Pushes the table's string keys, sorted, as a list; returns how many. */
int fg_rd_sorted_keys(fg_rd *rd, int idx);
void fg_rd_only_fields(fg_rd *rd, int idx, const char *const *allowed);
/* Pushes field k (nil included); true when it is not nil. */
bool fg_rd_get(fg_rd *rd, int t, const char *k);
lua_Integer fg_rd_int(fg_rd *rd, int t, const char *k, lua_Integer def, lua_Integer lo,
                      lua_Integer hi);
/* Pixels (fractions allowed) as 16.16 fixed point. */
fg_fx fg_rd_fx(fg_rd *rd, int t, const char *k, fg_fx def);
bool fg_rd_bool(fg_rd *rd, int t, const char *k, bool def);
void fg_rd_str(fg_rd *rd, int t, const char *k, char *out, size_t size);
uint32_t fg_rd_names(fg_rd *rd, int t, const char *k, char (*out)[FG_NAME_MAX], uint32_t max);
void fg_rd_check_table(fg_rd *rd, int idx, const char *what);

/* l_hits.c: an action's boxes, invulnerability, hit and throw; the ruleset's default boxes and
** combat rules. */
void fg_lua_read_action_hits(fg_rd *rd, int t, fg_action_def *a);
void fg_lua_read_ruleset_hits(fg_rd *rd, int idx, fg_ruleset_builder *b);

#endif
