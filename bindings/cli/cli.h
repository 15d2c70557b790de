/* SPDX-License-Identifier: MIT */
/*
** cli.h: the pieces of the `framegate` command-line host that main.c puts together.
*/
#ifndef FG_CLI_H
#define FG_CLI_H

#include <lauxlib.h>
#include <lua.h>

/* Registers `framegate.fs` (fs.c) in package.preload. [-0, +0, m] */
void fg_cli_preload_fs(lua_State *L);

/* Pushes the folder holding the CLI's Lua scripts (the one with framegate/cli.lua), found
** relative to the running executable; argv0 is the fallback when the system cannot say where
** the executable is. Pushes nil and a message listing the places tried when none has them.
** [-0, +2, m] */
void fg_cli_push_scripts_dir(lua_State *L, const char *argv0);

#endif
