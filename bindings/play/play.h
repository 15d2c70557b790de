/* SPDX-License-Identifier: MIT */
/*
** play.h: the playtest window's C side. The window, its drawing calls, SDL's input events and
** the virtual gamepad reach the host script (scripts/framegate/play.lua) through the
** framegate.sdl module; the font is drawn by this host. Nothing here knows about gameplay.
*/
#ifndef FG_PLAY_H
#define FG_PLAY_H

#include <SDL.h>
#include <lauxlib.h>
#include <lua.h>

/* The font's cell: 5x7 glyphs with one column and one row of spacing. */
#define FG_FONT_CELL_W 6
#define FG_FONT_CELL_H 8

/* Text sizes: 1 (6x8 cells) to FG_FONT_SCALES. */
#define FG_FONT_SCALES 4

/* One white-on-transparent texture holding every glyph drawn at scale, or NULL (SDL_GetError
** says why). */
SDL_Texture *fg_font_atlas(SDL_Renderer *r, int scale);
/* Draws len characters at (x, y) from the atlas of that scale, in its colour mod. */
void fg_font_draw(SDL_Renderer *r, SDL_Texture *atlas, int x, int y, int scale, const char *text,
                  size_t len);

/* Opens the framegate.sdl module. [-0, +1, m] */
int luaopen_framegate_sdl(lua_State *L);
/* Registers framegate.sdl in package.preload: the host's FG_CLI_PRELOAD. [-0, +0, m] */
void fg_play_preload(lua_State *L);

#endif
