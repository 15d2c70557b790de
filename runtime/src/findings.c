/* SPDX-License-Identifier: MIT */
/*
** findings.c: the validator's list of findings. It grows as findings come, and each finding's
** path and message are stored whole: a ruleset with a thousand faults reports a thousand, and a
** path under a deep folder is not cut. Memory comes from the list's allocator; when it runs out
** the finding is counted as lost, so the build can refuse instead of reporting less.
*/
#include "ruleset_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct entry {
    fg_severity severity;
    uint32_t line;
    char *text; /* "path\0message\0" */
    size_t size;
} entry;

struct fg_findings {
    fg_allocator alloc;
    entry *items;
    uint32_t count, cap, errors, lost;
};

fg_status fg_findings_create(const fg_allocator *alloc, fg_findings **out, fg_error *err) {
    if (!out) return fg_error_set(err, FG_EINVAL, "fg_findings_create: out is required");
    fg_allocator a = alloc ? *alloc : fg_allocator_default();
    fg_findings *f = *out = fg_alloc(&a, sizeof *f);
    if (!f) return fg_error_set(err, FG_ENOMEM, "findings: out of memory");
    f->alloc = a;
    return FG_OK;
}

void fg_findings_clear(fg_findings *f) {
    if (!f) return;
    for (uint32_t i = 0; i < f->count; i++) fg_free(&f->alloc, f->items[i].text, f->items[i].size);
    f->count = f->errors = f->lost = 0;
}

void fg_findings_destroy(fg_findings *f) {
    if (!f) return;
    fg_findings_clear(f);
    fg_free(&f->alloc, f->items, sizeof *f->items * f->cap);
    fg_allocator a = f->alloc;
    fg_free(&a, f, sizeof *f);
}

uint32_t fg_findings_count(const fg_findings *f) { return f ? f->count : 0; }
uint32_t fg_findings_errors(const fg_findings *f) { return f ? f->errors : 0; }
uint32_t fg_findings_lost(const fg_findings *f) { return f ? f->lost : 0; }

const char *fg_severity_name(fg_severity s) {
    return s == FG_SEVERITY_WARNING ? "warning" : "error";
}

fg_finding fg_findings_get(const fg_findings *f, uint32_t i) {
    fg_finding x = {FG_SEVERITY_ERROR, 0, "", ""};
    if (!f || i >= f->count) return x;
    const entry *e = &f->items[i];
    x.severity = e->severity;
    x.line = e->line;
    x.path = e->text;
    x.message = e->text + strlen(e->text) + 1;
    return x;
}

/* A slot for one more finding with `size` bytes of text, or NULL (counted as lost). */
static entry *grow(fg_findings *f, fg_severity severity, size_t size) {
    if (severity == FG_SEVERITY_ERROR) f->errors++;
    if (f->count == f->cap) {
        uint32_t cap = f->cap ? f->cap * 2 : 16;
        entry *items = cap > f->cap ? fg_realloc(&f->alloc, f->items, sizeof *items * f->cap,
                                                 sizeof *items * cap)
                                    : NULL;
        if (!items) {
            f->lost++;
            return NULL;
        }
        f->items = items;
        f->cap = cap;
    }
    entry *e = &f->items[f->count];
    e->text = fg_alloc(&f->alloc, size);
    if (!e->text) {
        f->lost++;
        return NULL;
    }
    e->size = size;
    e->severity = severity;
    e->line = 0;
    f->count++;
    return e;
}

fg_status fg_findings_add(fg_findings *f, fg_severity severity, const char *path, uint32_t line,
                          const char *message, fg_error *err) {
    if (!f) return fg_error_set(err, FG_EINVAL, "fg_findings_add: no list (NULL)");
    if (severity != FG_SEVERITY_ERROR && severity != FG_SEVERITY_WARNING)
        return fg_error_set(err, FG_EINVAL, "fg_findings_add: severity %d, expected "
                            "FG_SEVERITY_ERROR or FG_SEVERITY_WARNING", (int)severity);
    if (!path) path = "";
    if (!message) message = "";
    size_t np = strlen(path), nm = strlen(message);
    entry *e = grow(f, severity, np + nm + 2);
    if (!e)
        return fg_error_set(err, FG_ENOMEM, "findings: out of memory storing a finding of %zu "
                            "bytes (%u lost)", np + nm + 2, f->lost);
    memcpy(e->text, path, np + 1);
    memcpy(e->text + np + 1, message, nm + 1);
    e->line = line;
    return FG_OK;
}

void fg_findings_vaddf(fg_findings *f, bool warning, const char *path, const char *fmt,
                       va_list ap) {
    fg_severity severity = warning ? FG_SEVERITY_WARNING : FG_SEVERITY_ERROR;
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    size_t np = strlen(path);
    entry *e = n < 0 ? NULL : grow(f, severity, np + (size_t)n + 2);
    if (n < 0) f->lost++, f->errors += severity == FG_SEVERITY_ERROR;
    if (e) {
        memcpy(e->text, path, np + 1);
        vsnprintf(e->text + np + 1, (size_t)n + 1, fmt, again);
    }
    va_end(again);
}

void fg_findings_addf(fg_findings *f, bool warning, const char *path, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fg_findings_vaddf(f, warning, path, fmt, ap);
    va_end(ap);
}
