/* SPDX-License-Identifier: MIT */
/*
** l_sdl.c: the framegate.sdl module, the window of `framegate-play`. It opens an SDL2 window
** with a renderer, draws filled and outlined rectangles and text, saves screenshots, reads
** SDL's events (keyboard, game controllers with hot-plug, quit) with their timestamps on the
** window's own microsecond clock, and attaches a virtual gamepad for scripted tests. All state
** hangs off the Window userdata; the host script decides what to draw and what input means.
*/
#include <stdint.h>
#include <string.h>

#include "play.h"

#define WINDOW_T "framegate.Window"
#define PAD_T "framegate.VirtualPad"
#define MAX_PADS 8
#define WINDOW_SUBSYSTEMS (SDL_INIT_VIDEO | SDL_INIT_GAMECONTROLLER | SDL_INIT_JOYSTICK)

typedef struct vpad vpad;

typedef struct window {
    SDL_Window *win;
    SDL_Renderer *ren;
    SDL_Texture *font[FG_FONT_SCALES + 1]; /* by scale, made on first use */
    uint64_t perf0, freq; /* performance counter at open, and its rate */
    uint64_t ticks0_us;   /* SDL's millisecond clock at open, in us: event times share it */
    SDL_GameController *pads[MAX_PADS];
    char renderer_name[64];
    vpad *vpads[MAX_PADS]; /* attached virtual pads: detached before SDL shuts down */
} window;

struct vpad {
    SDL_Joystick *joy;
    int device;
    window *owner; /* the window whose SDL it lives in (kept alive by the pad's user value) */
};

static void vpad_detach(vpad *p) {
    if (!p->joy) return;
    SDL_JoystickClose(p->joy);
    SDL_JoystickDetachVirtual(p->device);
    p->joy = NULL;
    for (int i = 0; i < MAX_PADS; i++)
        if (p->owner && p->owner->vpads[i] == p) p->owner->vpads[i] = NULL;
}

static window *check_window(lua_State *L) {
    window *w = luaL_checkudata(L, 1, WINDOW_T);
    luaL_argcheck(L, w->win != NULL, 1, "the window is closed");
    return w;
}

static int sdl_fail(lua_State *L, const char *what) {
    return luaL_error(L, "framegate-play: %s: %s", what, SDL_GetError());
}

static int64_t now_us(const window *w) {
    uint64_t d = SDL_GetPerformanceCounter() - w->perf0;
    return (int64_t)(w->ticks0_us + d / w->freq * 1000000 + d % w->freq * 1000000 / w->freq);
}

/* sdl.open{title=, width=, height=, vsync=, software=} -> Window */
static int sdl_open(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_getfield(L, 1, "title");
    const char *title = luaL_optstring(L, -1, "framegate play");
    lua_getfield(L, 1, "width");
    lua_Integer width = luaL_optinteger(L, -1, 1280);
    lua_getfield(L, 1, "height");
    lua_Integer height = luaL_optinteger(L, -1, 800);
    lua_getfield(L, 1, "vsync");
    int vsync = lua_isnil(L, -1) || lua_toboolean(L, -1);
    lua_getfield(L, 1, "software");
    int software = lua_toboolean(L, -1);
    luaL_argcheck(L, width >= 320 && width <= 8192, 1, "width: expected 320..8192");
    luaL_argcheck(L, height >= 240 && height <= 8192, 1, "height: expected 240..8192");
    window *w = lua_newuserdatauv(L, sizeof *w, 0);
    memset(w, 0, sizeof *w);
    luaL_setmetatable(L, WINDOW_T);
    SDL_SetHint(SDL_HINT_JOYSTICK_ALLOW_BACKGROUND_EVENTS, "1");
    if (SDL_InitSubSystem(WINDOW_SUBSYSTEMS) != 0)
        return sdl_fail(L, "SDL_Init");
    w->freq = SDL_GetPerformanceFrequency();
    w->perf0 = SDL_GetPerformanceCounter();
    w->ticks0_us = (uint64_t)SDL_GetTicks64() * 1000;
    w->win = SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, (int)width,
                              (int)height, 0);
    if (!w->win) return sdl_fail(L, "SDL_CreateWindow");
    Uint32 flags = software ? SDL_RENDERER_SOFTWARE : 0;
    if (vsync) flags |= SDL_RENDERER_PRESENTVSYNC;
    w->ren = SDL_CreateRenderer(w->win, -1, flags);
    if (!w->ren) return sdl_fail(L, "SDL_CreateRenderer");
    SDL_RendererInfo info;
    if (SDL_GetRendererInfo(w->ren, &info) == 0)
        SDL_snprintf(w->renderer_name, sizeof w->renderer_name, "%s", info.name);
    SDL_SetRenderDrawBlendMode(w->ren, SDL_BLENDMODE_BLEND);
    return 1;
}

static Uint8 colour(lua_State *L, int idx, lua_Integer def) {
    lua_Integer v = luaL_optinteger(L, idx, def);
    luaL_argcheck(L, v >= 0 && v <= 255, idx, "a colour component in 0..255 expected");
    return (Uint8)v;
}

static SDL_Rect check_rect(lua_State *L, int idx) {
    SDL_Rect r = {(int)luaL_checkinteger(L, idx), (int)luaL_checkinteger(L, idx + 1),
                  (int)luaL_checkinteger(L, idx + 2), (int)luaL_checkinteger(L, idx + 3)};
    return r;
}

static void set_colour(lua_State *L, window *w, int idx) {
    SDL_SetRenderDrawColor(w->ren, colour(L, idx, 255), colour(L, idx + 1, 255),
                           colour(L, idx + 2, 255), colour(L, idx + 3, 255));
}

/* win:clear(r, g, b) */
static int window_clear(lua_State *L) {
    window *w = check_window(L);
    set_colour(L, w, 2);
    SDL_RenderClear(w->ren);
    return 0;
}

/* win:rect(x, y, w, h, r, g, b, a): a filled rectangle, blended by a. */
static int window_rect(lua_State *L) {
    window *w = check_window(L);
    SDL_Rect r = check_rect(L, 2);
    set_colour(L, w, 6);
    SDL_RenderFillRect(w->ren, &r);
    return 0;
}

/* win:outline(x, y, w, h, r, g, b, a): the rectangle's one-pixel border, inside it. */
static int window_outline(lua_State *L) {
    window *w = check_window(L);
    SDL_Rect r = check_rect(L, 2);
    set_colour(L, w, 6);
    SDL_RenderDrawRect(w->ren, &r);
    return 0;
}

/* win:line(x1, y1, x2, y2, r, g, b, a) */
static int window_line(lua_State *L) {
    window *w = check_window(L);
    SDL_Rect r = check_rect(L, 2);
    set_colour(L, w, 6);
    SDL_RenderDrawLine(w->ren, r.x, r.y, r.w, r.h);
    return 0;
}

/* win:text(x, y, text, r, g, b, scale) -> width in pixels */
static int window_text(lua_State *L) {
    window *w = check_window(L);
    int x = (int)luaL_checkinteger(L, 2), y = (int)luaL_checkinteger(L, 3);
    size_t len;
    const char *s = luaL_checklstring(L, 4, &len);
    lua_Integer scale = luaL_optinteger(L, 8, 2);
    luaL_argcheck(L, scale >= 1 && scale <= FG_FONT_SCALES, 8, "scale: expected 1..4");
    if (!w->font[scale] && !(w->font[scale] = fg_font_atlas(w->ren, (int)scale)))
        return sdl_fail(L, "font texture");
    SDL_SetTextureColorMod(w->font[scale], colour(L, 5, 255), colour(L, 6, 255), colour(L, 7, 255));
    fg_font_draw(w->ren, w->font[scale], x, y, (int)scale, s, len);
    lua_pushinteger(L, (lua_Integer)len * FG_FONT_CELL_W * scale);
    return 1;
}

/* win:flush(): runs the drawing queued so far (SDL batches it), so timing it counts it. */
static int window_flush(lua_State *L) {
    SDL_RenderFlush(check_window(L)->ren);
    return 0;
}

/* win:present() */
static int window_present(lua_State *L) {
    SDL_RenderPresent(check_window(L)->ren);
    return 0;
}

/* win:shot(path): saves what has been drawn since the last present as a 32-bit BMP. */
static int window_shot(lua_State *L) {
    window *w = check_window(L);
    const char *path = luaL_checkstring(L, 2);
    int width, height;
    if (SDL_GetRendererOutputSize(w->ren, &width, &height) != 0) return sdl_fail(L, "output size");
    SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, width, height, 32, SDL_PIXELFORMAT_ARGB8888);
    if (!s) return sdl_fail(L, "screenshot surface");
    int ok = SDL_RenderReadPixels(w->ren, NULL, SDL_PIXELFORMAT_ARGB8888, s->pixels, s->pitch) == 0 &&
             SDL_SaveBMP(s, path) == 0;
    SDL_FreeSurface(s);
    if (!ok) return luaL_error(L, "framegate-play: cannot save '%s': %s", path, SDL_GetError());
    return 0;
}

/* win:now_us(): the window's clock, microseconds; event times are on the same clock. */
static int window_now_us(lua_State *L) {
    lua_pushinteger(L, now_us(check_window(L)));
    return 1;
}

/* win:size() -> width, height; win:renderer() -> the SDL renderer's name */
static int window_size(lua_State *L) {
    window *w = check_window(L);
    int width, height;
    SDL_GetRendererOutputSize(w->ren, &width, &height);
    lua_pushinteger(L, width);
    lua_pushinteger(L, height);
    return 2;
}

static int window_renderer(lua_State *L) {
    lua_pushstring(L, check_window(L)->renderer_name);
    return 1;
}

static void set_int(lua_State *L, const char *k, lua_Integer v) {
    lua_pushinteger(L, v);
    lua_setfield(L, -2, k);
}

static void set_str(lua_State *L, const char *k, const char *v) {
    lua_pushstring(L, v ? v : "");
    lua_setfield(L, -2, k);
}

static void pad_added(window *w, int device) {
    for (int i = 0; i < MAX_PADS; i++)
        if (!w->pads[i]) {
            w->pads[i] = SDL_GameControllerOpen(device);
            return;
        }
}

static void pad_removed(window *w, SDL_JoystickID id) {
    for (int i = 0; i < MAX_PADS; i++)
        if (w->pads[i] &&
            SDL_JoystickInstanceID(SDL_GameControllerGetJoystick(w->pads[i])) == id) {
            SDL_GameControllerClose(w->pads[i]);
            w->pads[i] = NULL;
        }
}

/* One event as a table, or nothing for events the host does not use. */
static int push_event(lua_State *L, window *w, const SDL_Event *e) {
    int64_t t = (int64_t)e->common.timestamp * 1000;
    switch (e->type) {
    case SDL_QUIT:
        lua_createtable(L, 0, 2);
        set_str(L, "type", "quit");
        break;
    case SDL_KEYDOWN:
    case SDL_KEYUP:
        lua_createtable(L, 0, 6);
        set_str(L, "type", "key");
        set_int(L, "scancode", e->key.keysym.scancode);
        set_str(L, "key", SDL_GetScancodeName(e->key.keysym.scancode));
        lua_pushboolean(L, e->type == SDL_KEYDOWN);
        lua_setfield(L, -2, "down");
        lua_pushboolean(L, e->key.repeat);
        lua_setfield(L, -2, "repeated");
        lua_pushboolean(L, (e->key.keysym.mod & KMOD_SHIFT) != 0);
        lua_setfield(L, -2, "shift");
        break;
    case SDL_CONTROLLERDEVICEADDED:
        pad_added(w, e->cdevice.which);
        lua_createtable(L, 0, 3);
        set_str(L, "type", "pad_added");
        set_int(L, "pad", SDL_JoystickGetDeviceInstanceID(e->cdevice.which));
        set_str(L, "name", SDL_GameControllerNameForIndex(e->cdevice.which));
        break;
    case SDL_CONTROLLERDEVICEREMOVED:
        pad_removed(w, e->cdevice.which);
        lua_createtable(L, 0, 2);
        set_str(L, "type", "pad_removed");
        set_int(L, "pad", e->cdevice.which);
        break;
    case SDL_CONTROLLERBUTTONDOWN:
    case SDL_CONTROLLERBUTTONUP:
        lua_createtable(L, 0, 5);
        set_str(L, "type", "pad_button");
        set_int(L, "pad", e->cbutton.which);
        set_int(L, "code", e->cbutton.button);
        set_str(L, "button", SDL_GameControllerGetStringForButton(e->cbutton.button));
        lua_pushboolean(L, e->type == SDL_CONTROLLERBUTTONDOWN);
        lua_setfield(L, -2, "down");
        break;
    case SDL_CONTROLLERAXISMOTION:
        lua_createtable(L, 0, 5);
        set_str(L, "type", "pad_axis");
        set_int(L, "pad", e->caxis.which);
        set_str(L, "axis", SDL_GameControllerGetStringForAxis(e->caxis.axis));
        lua_pushnumber(L, e->caxis.value < 0 ? e->caxis.value / 32768.0 : e->caxis.value / 32767.0);
        lua_setfield(L, -2, "value");
        break;
    case SDL_DROPFILE:
        lua_createtable(L, 0, 3);
        set_str(L, "type", "drop");
        set_str(L, "file", e->drop.file);
        SDL_free(e->drop.file);
        break;
    default:
        return 0;
    }
    set_int(L, "time_us", t);
    return 1;
}

/* win:poll() -> list of events since the last poll, oldest first */
static int window_poll(lua_State *L) {
    window *w = check_window(L);
    lua_newtable(L);
    int n = 0;
    SDL_Event e;
    while (SDL_PollEvent(&e))
        if (push_event(L, w, &e)) lua_rawseti(L, -2, ++n);
    return 1;
}

/* win:mapping(text): adds SDL game controller mappings, one per line (SDL's format). */
static int window_mapping(lua_State *L) {
    check_window(L);
    const char *text = luaL_checkstring(L, 2);
    SDL_RWops *rw = SDL_RWFromConstMem(text, (int)strlen(text));
    int n = rw ? SDL_GameControllerAddMappingsFromRW(rw, 1) : -1;
    if (n < 0) return luaL_error(L, "framegate-play: controller mapping: %s", SDL_GetError());
    lua_pushinteger(L, n);
    return 1;
}

/* win:scancode(name) -> SDL's scancode for a key name ("J", "Left", "Space"), or nil. */
static int window_scancode(lua_State *L) {
    check_window(L);
    SDL_Scancode sc = SDL_GetScancodeFromName(luaL_checkstring(L, 2));
    if (sc == SDL_SCANCODE_UNKNOWN) return 0;
    lua_pushinteger(L, sc);
    return 1;
}

/* win:inject_key(name, down): queues a key event as if the keyboard sent it (scripted tests of
** the keyboard path; SDL stamps it with its clock when it is queued). */
static int window_inject_key(lua_State *L) {
    check_window(L);
    const char *name = luaL_checkstring(L, 2);
    luaL_checktype(L, 3, LUA_TBOOLEAN);
    SDL_Scancode sc = SDL_GetScancodeFromName(name);
    if (sc == SDL_SCANCODE_UNKNOWN) return luaL_error(L, "inject_key: unknown key name '%s'", name);
    SDL_Event e;
    SDL_zero(e);
    e.type = lua_toboolean(L, 3) ? SDL_KEYDOWN : SDL_KEYUP;
    e.key.state = lua_toboolean(L, 3) ? SDL_PRESSED : SDL_RELEASED;
    e.key.keysym.scancode = sc;
    e.key.keysym.sym = SDL_GetKeyFromScancode(sc);
    if (SDL_PushEvent(&e) < 0) return sdl_fail(L, "inject_key");
    return 0;
}

/* win:pad_button(name) -> SDL's button code for a game controller button name, or nil. */
static int window_pad_button(lua_State *L) {
    check_window(L);
    SDL_GameControllerButton b = SDL_GameControllerGetButtonFromString(luaL_checkstring(L, 2));
    if (b == SDL_CONTROLLER_BUTTON_INVALID) return 0;
    lua_pushinteger(L, b);
    return 1;
}

static int window_close(lua_State *L) {
    window *w = luaL_checkudata(L, 1, WINDOW_T);
    if (!w->win) return 0;
    for (int i = 0; i < MAX_PADS; i++)
        if (w->vpads[i]) vpad_detach(w->vpads[i]);
    for (int i = 0; i < MAX_PADS; i++)
        if (w->pads[i]) SDL_GameControllerClose(w->pads[i]);
    for (int i = 0; i <= FG_FONT_SCALES; i++)
        if (w->font[i]) SDL_DestroyTexture(w->font[i]);
    if (w->ren) SDL_DestroyRenderer(w->ren);
    SDL_DestroyWindow(w->win);
    memset(w, 0, sizeof *w);
    /* Counted per subsystem: another window of the same process keeps SDL up. */
    SDL_QuitSubSystem(WINDOW_SUBSYSTEMS);
    return 0;
}

static int window_tostring(lua_State *L) {
    window *w = luaL_checkudata(L, 1, WINDOW_T);
    if (!w->win) {
        lua_pushstring(L, "framegate.Window (closed)");
        return 1;
    }
    int width, height;
    SDL_GetWindowSize(w->win, &width, &height);
    lua_pushfstring(L, "framegate.Window (%dx%d, %s)", width, height, w->renderer_name);
    return 1;
}

/* {====================================================================== virtual gamepad */

static vpad *check_pad(lua_State *L) {
    vpad *p = luaL_checkudata(L, 1, PAD_T);
    luaL_argcheck(L, p->joy != NULL, 1, "the virtual gamepad is detached");
    return p;
}

/* win:virtual_pad() -> VirtualPad: a game controller SDL reports like a real one. */
static int window_virtual_pad(lua_State *L) {
    window *w = check_window(L);
    int slot = 0;
    while (slot < MAX_PADS && w->vpads[slot]) slot++;
    if (slot == MAX_PADS) return luaL_error(L, "virtual pad: %d are attached already", MAX_PADS);
    vpad *p = lua_newuserdatauv(L, sizeof *p, 1);
    memset(p, 0, sizeof *p);
    luaL_setmetatable(L, PAD_T);
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, -2, 1);
    SDL_VirtualJoystickDesc d;
    SDL_zero(d);
    d.version = SDL_VIRTUAL_JOYSTICK_DESC_VERSION;
    d.type = SDL_JOYSTICK_TYPE_GAMECONTROLLER;
    d.naxes = SDL_CONTROLLER_AXIS_MAX;
    d.nbuttons = SDL_CONTROLLER_BUTTON_MAX;
    d.name = "framegate virtual pad";
    p->device = SDL_JoystickAttachVirtualEx(&d);
    if (p->device < 0) return sdl_fail(L, "SDL_JoystickAttachVirtualEx");
    p->joy = SDL_JoystickOpen(p->device);
    if (!p->joy) {
        SDL_JoystickDetachVirtual(p->device);
        return sdl_fail(L, "SDL_JoystickOpen (virtual pad)");
    }
    p->owner = w;
    w->vpads[slot] = p;
    return 1;
}

/* pad:button(name, down): name as SDL spells it ("a", "x", "dpdown", ...). */
static int pad_button(lua_State *L) {
    vpad *p = check_pad(L);
    const char *name = luaL_checkstring(L, 2);
    SDL_GameControllerButton b = SDL_GameControllerGetButtonFromString(name);
    if (b == SDL_CONTROLLER_BUTTON_INVALID)
        return luaL_error(L, "virtual pad: unknown button '%s' (SDL names: a, b, x, y, dpup, "
                             "dpdown, dpleft, dpright, start, ...)", name);
    luaL_checktype(L, 3, LUA_TBOOLEAN);
    if (SDL_JoystickSetVirtualButton(p->joy, b, (Uint8)lua_toboolean(L, 3)) != 0)
        return sdl_fail(L, "virtual pad button");
    return 0;
}

/* pad:axis(name, value): value in [-1, 1]. */
static int pad_axis(lua_State *L) {
    vpad *p = check_pad(L);
    const char *name = luaL_checkstring(L, 2);
    SDL_GameControllerAxis a = SDL_GameControllerGetAxisFromString(name);
    if (a == SDL_CONTROLLER_AXIS_INVALID)
        return luaL_error(L, "virtual pad: unknown axis '%s' (SDL names: leftx, lefty, ...)", name);
    lua_Number v = luaL_checknumber(L, 3);
    luaL_argcheck(L, v >= -1 && v <= 1, 3, "expected a value in [-1, 1]");
    if (SDL_JoystickSetVirtualAxis(p->joy, a, (Sint16)(v * 32767)) != 0)
        return sdl_fail(L, "virtual pad axis");
    return 0;
}

static int pad_close(lua_State *L) {
    vpad_detach(luaL_checkudata(L, 1, PAD_T));
    return 0;
}

static int pad_tostring(lua_State *L) {
    vpad *p = luaL_checkudata(L, 1, PAD_T);
    lua_pushfstring(L, "framegate.VirtualPad (%s)", p->joy ? "attached" : "detached");
    return 1;
}

/* }====================================================================== */

static const luaL_Reg window_methods[] = {
    {"clear", window_clear},       {"rect", window_rect},         {"outline", window_outline},
    {"line", window_line},         {"text", window_text},         {"present", window_present},   {"flush", window_flush},
    {"shot", window_shot},         {"now_us", window_now_us},     {"size", window_size},
    {"renderer", window_renderer}, {"poll", window_poll},         {"mapping", window_mapping},
    {"virtual_pad", window_virtual_pad}, {"scancode", window_scancode},
    {"pad_button", window_pad_button}, {"inject_key", window_inject_key},
    {"close", window_close}, {NULL, NULL}};

static const luaL_Reg pad_methods[] = {
    {"button", pad_button}, {"axis", pad_axis}, {"close", pad_close}, {NULL, NULL}};

static void new_class(lua_State *L, const char *name, const luaL_Reg *methods,
                      lua_CFunction gc, lua_CFunction tostring) {
    luaL_newmetatable(L, name);
    lua_newtable(L);
    luaL_setfuncs(L, methods, 0);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, gc);
    lua_setfield(L, -2, "__gc");
    lua_pushcfunction(L, tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pop(L, 1);
}

int luaopen_framegate_sdl(lua_State *L) {
    new_class(L, WINDOW_T, window_methods, window_close, window_tostring);
    new_class(L, PAD_T, pad_methods, pad_close, pad_tostring);
    lua_newtable(L);
    lua_pushcfunction(L, sdl_open);
    lua_setfield(L, -2, "open");
    SDL_version v;
    SDL_GetVersion(&v);
    lua_pushfstring(L, "%d.%d.%d", v.major, v.minor, v.patch);
    lua_setfield(L, -2, "version");
    return 1;
}

void fg_play_preload(lua_State *L) {
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
    lua_pushcfunction(L, luaopen_framegate_sdl);
    lua_setfield(L, -2, "framegate.sdl");
    lua_pop(L, 1);
}
