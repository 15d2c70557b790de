/* SPDX-License-Identifier: MIT */
/*
** text.h: the one helper every describe/explain function shares. Not installed.
**
** Describe functions write into a caller's fixed buffer and return the length they needed, the
** snprintf contract, so a caller can size a second call; fg_text_append keeps that count going
** across many pieces without ever writing past the buffer.
*/
#ifndef FG_TEXT_H
#define FG_TEXT_H

#include "framegate/base.h"

#include <stddef.h>

/* Appends a formatted piece at buf+*len (cut at size) and adds its full length to *len. */
void fg_text_append(char *buf, size_t size, size_t *len, const char *fmt, ...) FG_PRINTF(4, 5);

#endif
