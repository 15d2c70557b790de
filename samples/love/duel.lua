-- duel.lua: a two-fighter world driven through framegate's C API from LuaJIT's FFI, with no
-- LOVE in it, so main.lua (the game) and a plain `luajit` run share every line that decides
-- anything. The ruleset is built with the C builder (fg_ruleset_builder_*), the world runs on
-- framegate's fixed-step loop (fg_loop), and keys reach it as device controls with their times.
local ffi = require "ffi"

local M = {}

-- Device controls of player 1 (any 32-bit codes the host chooses).
M.KEYS = { left = 1, right = 2, down = 3, up = 4, j = 5, k = 6 }

-- Loads the FFI header and the library. header: path of framegate_ffi.h; lib: path or name of
-- libframegate (as ffi.load takes it).
function M.load(header, lib)
  local f = assert(io.open(header, "rb"), "duel: cannot read " .. header)
  local text = f:read("*a")
  f:close()
  ffi.cdef(text)
  M.C = ffi.load(lib)
  return M.C
end

local function copy(dst, s) ffi.copy(dst, s, #s + 1) end

-- A failed call's whole message; clearing frees the heap copy a long one has.
local function message(err)
  local text = ffi.string(M.C.fg_error_message(err))
  M.C.fg_error_clear(err)
  return text
end

local function check(status, err, what)
  if status ~= 0 then error(("duel: %s: %s"):format(what, message(err)), 2) end
end

-- The fighter: idle, walks both ways, a jab (LP) and a heavier strong (HP), hit and block stun.
local function build_rules(C)
  local err = ffi.new("fg_error")
  local b = C.fg_ruleset_builder_create("love_duelist", nil)
  for _, button in ipairs { "LP", "HP" } do
    check(C.fg_ruleset_add_button(b, button, err), err, "button " .. button)
  end
  local health = ffi.new("fg_resource_def")
  copy(health.name, "health")
  health.max, health.start, health.regen_every = 1000, 1000, 1
  check(C.fg_ruleset_add_resource(b, health, err), err, "health")

  local function action(name, set)
    local a = ffi.new("fg_action_def[1]")
    a[0] = C.fg_action_def_default(name)
    set(a[0])
    check(C.fg_ruleset_add_action(b, a, err), err, "action " .. name)
  end
  action("idle", function(a) a.neutral, a.loop = true, true end)
  for name, dir in pairs { walk_forward = 6, walk_back = 4 } do
    action(name, function(a)
      a.neutral, a.loop, a.hold_dir = true, true, dir
      a.nmoves = 1
      a.moves[0].vx = (dir == 6 and 3 or -2) * C.FG_FX_ONE
    end)
  end
  local function attack(name, input, startup, active, recovery, damage, range)
    action(name, function(a)
      copy(a.input, input)
      a.startup, a.active, a.recovery = startup, active, recovery
      a.nmarkers = 1
      a.markers[0].tick = startup
      copy(a.markers[0].name, "hit")
      a.hit.enabled = true
      a.hit.range = range * C.FG_FX_ONE
      a.hit.damage, a.hit.hitstop, a.hit.hitstun, a.hit.blockstun = damage, 6, 13, 9
    end)
  end
  attack("jab", "LP", 4, 2, 7, 30, 70)
  attack("strong", "HP", 7, 3, 16, 80, 90)
  action("hitstun", function(a) a.interrupts = true end)
  action("blockstun", function() end)

  local out = ffi.new("fg_findings *[1]")
  if C.fg_findings_create(nil, out, err) ~= 0 then error("duel: rules: " .. message(err)) end
  local findings = ffi.gc(out[0], C.fg_findings_destroy)
  local rules = C.fg_ruleset_build(b, findings, err)
  C.fg_ruleset_builder_destroy(b)
  if rules == nil then
    -- Every finding, whole: err holds only the first.
    local lines = {}
    for i = 0, C.fg_findings_count(findings) - 1 do
      local x = C.fg_findings_get(findings, i)
      lines[#lines + 1] = ffi.string(x.path) .. ": " .. ffi.string(x.message)
    end
    error("duel: rules: " .. (#lines > 0 and table.concat(lines, "\n  ") or message(err)))
  end
  return rules
end

local Duel = {}
Duel.__index = Duel

-- A new match: two fighters 100 pixels apart, player 1's keys bound.
function M.new()
  local C = assert(M.C, "duel: call duel.load(header, lib) first")
  local err = ffi.new("fg_error")
  local rules = build_rules(C)
  local cfg = ffi.new("fg_world_config[1]")
  cfg[0] = C.fg_world_config_default()
  cfg[0].rules = rules
  local w = C.fg_world_create(cfg, err)
  C.fg_ruleset_unref(rules) -- the world holds its own reference
  if w == nil then error("duel: world: " .. message(err)) end
  w = ffi.gc(w, C.fg_world_destroy)
  local self = setmetatable({ C = C, w = w, err = err, ids = ffi.new("fg_entity[2]") }, Duel)
  local spawns = { { x = -50, facing = C.FG_FACING_RIGHT }, { x = 50, facing = C.FG_FACING_LEFT } }
  for i, s in ipairs(spawns) do
    local sp = ffi.new("fg_spawn")
    sp.x, sp.facing, sp.grounded = s.x * C.FG_FX_ONE, s.facing, true
    check(C.fg_world_spawn(w, sp, self.ids + (i - 1), err), err, "spawn")
  end
  local map = C.fg_world_input_map(w, self.ids[0])
  local bind = {
    left = C.FG_IN_LEFT, right = C.FG_IN_RIGHT, down = C.FG_IN_DOWN, up = C.FG_IN_UP,
    j = C.fg_world_action_id(w, "LP"), k = C.fg_world_action_id(w, "HP"),
  }
  for key, action in pairs(bind) do
    check(C.fg_input_map_bind(map, M.KEYS[key], action, err), err, "bind " .. key)
  end
  self.health = C.fg_ruleset_find_resource(C.fg_world_rules(w, self.ids[0]), "health")
  self.loop = ffi.new("fg_loop[1]")
  check(C.fg_loop_init(self.loop, nil, err), err, "loop")
  self.due = ffi.new("uint32_t[1]")
  self.events = {}
  return self
end

-- A key went down or up at host time us (microseconds). Keys with no binding are ignored.
function Duel:key(key, down, us)
  local control = M.KEYS[key]
  if not control then return end
  local C = self.C
  local t = C.fg_loop_map_time(self.loop, us)
  check(C.fg_world_device_control(self.w, self.ids[0], control, down, t, self.err), self.err,
    "key " .. key)
end

-- A display frame at host time us: runs the ticks that are due and keeps the committed events.
function Duel:frame(us)
  local C = self.C
  check(C.fg_loop_frame(self.loop, us, self.due, self.err), self.err, "frame")
  for _ = 1, self.due[0] do
    check(C.fg_world_advance(self.w, self.err), self.err, "tick")
    C.fg_loop_tick_done(self.loop)
    for i = 0, C.fg_world_event_count(self.w) - 1 do
      local ev = C.fg_world_event_at(self.w, i)
      self.events[#self.events + 1] = ("t=%d e%d %s"):format(tonumber(ev.tick), ev.entity,
        ffi.string(C.fg_world_marker_name(self.w, ev.entity, ev.marker)))
    end
  end
end

-- What the renderer draws: per fighter its position (pixels, interpolated), facing, health and
-- the state of its body layer ("jab 5/13 active").
function Duel:fighters()
  local C, out = self.C, {}
  local x, y = ffi.new("fg_fx[1]"), ffi.new("fg_fx[1]")
  local buf = ffi.new("char[128]")
  for i = 0, 1 do
    local e = self.ids[i]
    C.fg_world_position(self.w, e, x, y)
    C.fg_world_describe_layer(self.w, e, 0, buf, 128)
    out[i + 1] = {
      x = x[0] / C.FG_FX_ONE, y = y[0] / C.FG_FX_ONE,
      facing = C.fg_world_facing(self.w, e) == C.FG_FACING_LEFT and -1 or 1,
      health = C.fg_world_resource(self.w, e, self.health),
      state = ffi.string(buf),
    }
  end
  return out
end

function Duel:tick() return tonumber(self.C.fg_world_tick(self.w)) end
function Duel:alpha() return self.C.fg_loop_alpha(self.loop) end
function Duel:hash() return ("%016x"):format(self.C.fg_world_hash(self.w)) end

-- The scripted run the CI plays (headless, under LOVE and under plain LuaJIT): key changes at
-- display frames of a fixed 60 fps clock. Frame -> { key, down }.
M.SCRIPT = {
  [10] = { "right", true }, [40] = { "right", false }, [50] = { "j", true }, [51] = { "j", false },
  [80] = { "k", true }, [82] = { "k", false }, [120] = { "left", true }, [150] = { "left", false },
  [160] = { "down", true }, [161] = { "right", true }, [163] = { "down", false },
  [164] = { "j", true }, [165] = { "j", false }, [170] = { "right", false },
}

-- Host time of display frame n on the scripted 60 fps clock.
function M.frame_us(n) return math.floor(n * 1000000 / 60) end

-- Plays frames 0..frames-1 of the script (keys first, then the frame) on a new duel.
function M.play_script(frames, on_frame)
  local d = M.new()
  for n = 0, frames - 1 do
    local k = M.SCRIPT[n]
    if k then d:key(k[1], k[2], M.frame_us(n)) end
    d:frame(M.frame_us(n))
    if on_frame then on_frame(d, n) end
  end
  return d
end

return M
