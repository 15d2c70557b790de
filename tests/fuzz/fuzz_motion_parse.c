/* SPDX-License-Identifier: MIT */
/*
** fuzz_motion_parse.c: fuzzes the notation parsers, the .cmd reader and the input-script parser,
** and runs what compiles. The first byte picks the target:
**   0 numpad, 1 MUGEN, 2 auto: the rest is one notation; the compiled pattern is described, linted
**     and run against a script made from the same bytes
**   3: the rest is a .cmd text (flags mode, the default)
**   4: the rest is "notation\nscript": both are used
**   5: the rest is a .cmd text loaded in consume mode
**   6: the rest is "notation\nscript", compiled in flags mode
**   7: the rest is "notation|notation" (numpad alternatives, circles) with a script after '\n'
** Notations include numpad `|` alternatives and 360/720 circles, and .cmd texts may hold empty
** commands and unknown keys (notes).
** Invariants checked: a failure leaves *out NULL and writes a message naming a column or a line; a
** success describes itself and runs without crashing.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framegate/motion.h"

static void check_error(fg_status s, const fg_motion_set *set, const fg_error *err) {
    if (s == FG_OK) return;
    if (set != NULL || fg_error_message(err)[0] == '\0') abort();
}

static void exercise(fg_motion_set *set, const char *script) {
    char buf[512];
    for (uint32_t i = 0; i < fg_motion_count(set); i++) fg_motion_describe(set, i, buf, sizeof buf);
    uint32_t n;
    fg_motion_lint(set, &n);
    static fg_motion_run run;
    fg_motion_miss miss[FG_MOTION_MAX_PATTERNS];
    fg_error err = {0};
    fg_motion_profile lenient = fg_motion_profile_preset(FG_MOTION_PROFILE_LENIENT);
    if (fg_motion_run_script(set, script, &lenient, NULL, &run, miss, &err) == FG_OK) {
        for (uint32_t i = 0; i < fg_motion_count(set); i++)
            fg_motion_miss_format(set, &miss[i], buf, sizeof buf);
        for (uint32_t i = 0; i < run.ncommands; i++)
            fg_motion_command_format(set, &run.commands[i], buf, sizeof buf);
    } else if (fg_error_message(&err)[0] == '\0') {
        abort();
    }
    fg_error_clear(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > 4096) return 0;
    char *text = malloc(size);
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    fg_motion_buttons b;
    fg_motion_buttons_default(&b, FG_MOTION_AUTO);
    fg_motion_set *set = NULL;
    fg_error err = {0};
    uint8_t mode = data[0] % 8;
    if (mode <= 2) {
        fg_motion_def d;
        memset(&d, 0, sizeof d);
        d.name = "fuzz";
        d.notation = text;
        d.syntax = mode == 0 ? FG_MOTION_NUMPAD : mode == 1 ? FG_MOTION_MUGEN : FG_MOTION_AUTO;
        fg_status s = fg_motion_set_compile(&b, &d, 1, NULL, &set, &err);
        check_error(s, set, &err);
        if (s == FG_OK) exercise(set, "2@0 3@1 6@2 LP@3 x@3 4@5 6@40 a@41 MP@42-44 5@45");
    } else if (mode == 3 || mode == 5) {
        fg_motion_options opts = {mode == 3 ? FG_MOTION_MODE_DEFAULT : FG_MOTION_MODE_CONSUME,
                                  "fuzz.cmd"};
        fg_status s = fg_motion_set_load_cmd(&b, text, strlen(text), &opts, NULL, &set, &err);
        check_error(s, set, &err);
        if (s == FG_OK) {
            if (fg_motion_set_mode(set) != (mode == 3 ? FG_MOTION_MODE_FLAGS
                                                      : FG_MOTION_MODE_CONSUME))
                abort();
            exercise(set, "2@0 3@1 6@2 x@3 6@10 5@11 6@12 a@13 b@13 ~a@20");
        }
    } else {
        char *nl = strchr(text, '\n');
        const char *script = "";
        if (nl) {
            *nl = '\0';
            script = nl + 1;
        }
        fg_motion_def d;
        memset(&d, 0, sizeof d);
        d.name = "fuzz";
        d.notation = text;
        d.syntax = mode == 7 ? FG_MOTION_NUMPAD : FG_MOTION_AUTO;
        fg_motion_options opts = {mode == 6 ? FG_MOTION_MODE_FLAGS : FG_MOTION_MODE_CONSUME, NULL};
        fg_status s = fg_motion_set_compile_with(&b, &d, 1, &opts, NULL, &set, &err);
        check_error(s, set, &err);
        if (s == FG_OK) exercise(set, script);
    }
    fg_motion_set_destroy(set);
    fg_error_clear(&err);
    free(text);
    return 0;
}
