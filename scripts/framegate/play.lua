-- SPDX-License-Identifier: MIT
-- framegate.play: the playtest window (`framegate-play DIR`, or `framegate play DIR`). Two
-- duelists fight in an SDL2 window: the keyboard and game controllers drive P1 (a second pad
-- takes P2, otherwise P2 is the training dummy), the rules reload when saved, and the window
-- draws only committed state, interpolated with the loop's alpha. Keys and options are listed
-- in docs/playtest.md; the drawing is framegate.play_view.
--
-- Time: SDL stamps every event on the window's clock; the host turns that into game time
-- (paused, slowed or stepped by the training controls) and the loop maps game time to world
-- time, so a press between two display frames lands on its own tick.
local fg = require "framegate"
local watch = require "framegate.commands.watch"
local view_mod = require "framegate.play_view"
local training = require "framegate.play_training"

local M = {}

-- Default controls. Keys are SDL key names; pad buttons are SDL's game controller names.
M.default_config = {
  keys = { up = "W", down = "S", left = "A", right = "D", LP = "J", HP = "K", LK = "U", HK = "I" },
  arrows = { up = "Up", down = "Down", left = "Left", right = "Right" },
  pad = { up = "dpup", down = "dpdown", left = "dpleft", right = "dpright",
          LP = "x", HP = "y", LK = "a", HK = "b" },
}
local PAD_BASE = 0x1000   -- control codes of pad buttons; keyboard controls are scancodes

local HOST_KEYS = {
  F1 = "help", F2 = "what_if", F3 = "boxes", F4 = "reload", F5 = "pause", F6 = "step",
  F7 = "slow", F8 = "reset", F9 = "dummy", F10 = "record_dummy", F11 = "play_dummy",
  Escape = "quit", PageUp = "seek_back", PageDown = "seek_forward",
}
M.HELP = {
  "P1: W A S D or arrows move, J K U I = LP HP LK HK (first pad: d-pad or left stick, X Y A B)",
  "F1 this help    F2 what-if report of the last reload    F3 boxes on/off",
  "F4 reload now   F5 pause    F6 step one tick (paused)   F7 slow motion 1, 1/2, 1/4",
  "F8 reset positions    F9 dummy: stand, crouch, block, crouch block, block after first hit",
  "F10 record the dummy (P1's inputs, up to 10 s)    F11 play the recording back on the dummy",
  "replays: F5 pause, F6 step, PageUp / PageDown seek 1 s    Esc quit",
}

-- Reads a controls file: a Lua table { keys = { LP = "J", ... }, pad = { LP = "x", ... } }, run
-- in the rules sandbox. Unknown names are errors naming the file, the field and the value.
function M.read_config(path, win)
  local f, err = io.open(path, "r")
  if not f then error(("--config: %s"):format(err), 0) end
  local text = f:read("a")
  f:close()
  local ok, cfg = pcall(fg.sandboxed, text, "@" .. path)
  if not ok then error(("--config: %s"):format(cfg), 0) end
  if type(cfg) ~= "table" then error(("%s: expected the file to return a table, got %s"):format(path, type(cfg)), 0) end
  local out = { keys = {}, pad = {}, arrows = M.default_config.arrows }
  for _, section in ipairs { "keys", "pad" } do
    local t = cfg[section] or M.default_config[section]
    if type(t) ~= "table" then error(("%s: %s: expected a table, got %s"):format(path, section, type(t)), 0) end
    for action, name in pairs(t) do
      local known = section == "keys" and win:scancode(tostring(name)) or win:pad_button(tostring(name))
      if not known then
        error(("%s: %s.%s: '%s' is not a %s"):format(path, section, tostring(action), tostring(name),
          section == "keys" and "key name SDL knows (e.g. J, Left, Space)"
          or "game controller button (a, b, x, y, dpup, leftshoulder, ...)"), 0)
      end
      out[section][action] = name
    end
  end
  for k in pairs(cfg) do
    if k ~= "keys" and k ~= "pad" then
      error(("%s: %s: unknown field (expected keys or pad)"):format(path, tostring(k)), 0)
    end
  end
  return out
end

-- Binds the controls of one player: keyboard scancodes (P1 only) and pad buttons.
local function bind(win, e, cfg, keyboard)
  local bound = {}
  local function try(code, action)
    if pcall(e.bind, e, code, action) then bound[action] = true end
  end
  if keyboard then
    for action, name in pairs(cfg.keys) do try(win:scancode(name), action) end
    for action, name in pairs(cfg.arrows) do try(win:scancode(name), action) end
  end
  for action, name in pairs(cfg.pad) do try(PAD_BASE + win:pad_button(name), action) end
  return bound
end

-- {---------------------------------------------------------------------- what the view reads

local function action_def(s, name)
  if not name then return nil end
  local def = s.defs[name]
  if def == nil then
    def = s.rules_obj:action(name) or false
    s.defs[name] = def
  end
  return def or nil
end

-- The committed state of one entity after a tick.
local function capture(s, e)
  local x, y = e:position()
  local name, elapsed = e:action(0)
  local v = e:view()
  local def = action_def(s, name)
  local _, rel = e:direction()
  local res = {}
  for _, k in ipairs { "health", "meter" } do res[k] = e:resource(k) end
  return { entity = e, x = x, y = y, cx = x, cy = y, facing = v.facing, action = name,
           elapsed = elapsed or 0, def = def, frozen = v.frozen, resources = res, boxes = e:boxes(),
           combat = e:combat(),
           crouching = def and def.neutral and (rel == 1 or rel == 2 or rel == 3) or false }
end

local function trace_after_tick(s, t)
  local w = s.world
  for _, r in ipairs(w:trace_records(t)) do
    if r.tick == t then
      local p = s.players[r.entity]
      local short = r.text:gsub("^t=(%d+) e%d+ ", "t=%1 ")
      if p and r.kind == "command" then
        p.commands[#p.commands + 1] = short:gsub(" command ", " "):gsub(" %(motion.*$", "")
        if #p.commands > 20 then table.remove(p.commands, 1) end
        s.log("command", r.text)
      elseif p and r.kind == "decision" then
        p.decisions[#p.decisions + 1] = { text = short, decision = r.decision }
        if #p.decisions > 30 then table.remove(p.decisions, 1) end
        if r.decision == "accepted" then s.last_move_from = t end
        s.log("decision", r.text)
      elseif r.kind == "hit" then
        training.on_hit(s, r)
        s.log("hit", r.text)
      end
    end
  end
end

-- The input display: one row per change of (direction, buttons), with how long it was held.
local function input_after_tick(s, i, e)
  local inp = e:input()
  local facing = e:facing()
  local buttons = {}
  for _, a in ipairs(inp.held) do
    if a ~= "up" and a ~= "down" and a ~= "left" and a ~= "right" then buttons[#buttons + 1] = a end
  end
  table.sort(buttons)
  local dir = fg.relative(inp.dir, facing)
  local key = dir .. " " .. table.concat(buttons, "+")
  local rows = s.players[i].inputs
  local top = rows[#rows]
  if top and top.key == key then
    top.ticks = top.ticks + 1
  else
    rows[#rows + 1] = { key = key, dir = dir, buttons = table.concat(buttons, "+"), ticks = 1 }
    if #rows > 40 then table.remove(rows, 1) end
  end
end

-- Every entity's committed state: the duelists, then whatever the rules spawned (projectiles).
local function capture_all(s)
  local all = { capture(s, s.p1), capture(s, s.p2) }
  for id = 3, s.world:stats().entities do
    local e = s.world:entity(id)
    if e then all[#all + 1] = capture(s, e) end
  end
  return all
end

-- The combo counter: the world's own count of hits taken, shown on the attacker's side for a
-- second after the combo ends.
local function combo_after_tick(s, t)
  for i = 1, 2 do
    local c = s.cur[i].combat
    if c.combo >= 2 then
      s.combo = { attacker = 3 - i, hits = c.combo, damage = c.combo_damage, tick = t }
    end
  end
  if s.combo and t - s.combo.tick > s.rate then s.combo = nil end
end

-- Reads what the tick that just ran committed: positions, trace, the input display.
local function after_advance(s, t)
  s.prev = s.cur
  s.cur = capture_all(s)
  combo_after_tick(s, t)
  trace_after_tick(s, t)
  input_after_tick(s, 1, s.p1)
  input_after_tick(s, 2, s.p2)
  training.after_tick(s, t)
end

--- Runs one logic tick with everything the host adds around it: the scripted and dummy input,
--- the file watcher (a saved file reloads before the tick), then reads what the tick committed.
--- A replay session steps its player instead.
function M.tick(s)
  local w = s.world
  local t = w:tick()
  if s.replay then
    if not training.replay_step(s) then return end
  else
    if s.on_tick then s.on_tick(s, t) end
    training.before_tick(s, t)
    watch.before_tick(s, t)
    local changed = s.watcher:wait(0)
    if #changed > 0 then M.reload(s) end
    w:advance()
  end
  after_advance(s, t)
end

--- Reloads through the watcher's transaction; the result goes to the banner, the what-if
--- report to the F2 overlay.
function M.reload(s)
  local lines = {}
  local out = s.out
  s.out = function(line) lines[#lines + 1] = line end
  watch.reload(s)
  s.out = out
  local last = s.reloads[#s.reloads]
  local what_if = {}
  local head = {}
  for _, l in ipairs(lines) do
    if l:match("^  ") or l:match("^what%-if") then what_if[#what_if + 1] = l else head[#head + 1] = l end
  end
  if last.ok then
    s.rules_obj = fg.rules(s.rules)
    s.defs = {}
    if last.what_if then
      head[#head + 1] = ("what-if: %d difference%s over ticks %d-%d (F2)"):format(last.what_if.differences,
        last.what_if.differences == 1 and "" or "s", last.what_if.from, last.what_if.to - 1)
    end
  end
  s.what_if_lines = #what_if > 0 and what_if or { "(no what-if: nothing stored before this reload)" }
  s.banner = { ok = last.ok, text = table.concat(head, "\n"), until_frame = s.frames + 300 }
  for _, l in ipairs(lines) do s.log("reload", l) end
end

-- }----------------------------------------------------------------------

-- {---------------------------------------------------------------------- the view

local function lerp(a, b, t) return a + (b - a) * t end

local function build_view(s, alpha)
  local w = s.world
  local v = { tick = w:tick(), physics = s.physics, health_max = s.health_max, entities = {},
              players = s.players, combo = s.combo, projectiles = w:projectiles() }
  for i = 1, #s.cur do
    local cur, prev = s.cur[i], s.prev[i] or s.cur[i]
    local e = {}
    for k, val in pairs(cur) do e[k] = val end
    e.x, e.y = lerp(prev.x, cur.x, alpha), lerp(prev.y, cur.y, alpha)
    v.entities[i] = e
  end
  local now = w:tick()
  if s.meter_tick ~= now then
    s.meter_tick = now
    s.meter = view_mod.parse_meter(w:meter(math.max(0, now - view_mod.METER_TICKS), now - 1))
    if s.last_move_from then
      local m = view_mod.parse_meter(w:meter(s.last_move_from, now - 1))
      s.last_move = m.summary and ("last: " .. m.summary)
    end
  end
  v.meter = s.meter or { rows = {} }
  v.last_move = s.last_move
  return v
end

-- }----------------------------------------------------------------------

-- {---------------------------------------------------------------------- input events

local function player_of_pad(s, pad)
  for i = 1, 2 do if s.players[i].pad == pad then return i end end
end

local function host_key(s, what, shift)
  if what == "quit" then s.quit = true
  elseif what == "help" then s.overlay = s.overlay_kind ~= "help" and { title = "keys", lines = M.HELP } or nil
    s.overlay_kind = s.overlay and "help" or nil
  elseif what == "what_if" then
    s.overlay = s.overlay_kind ~= "what_if" and { title = "what-if: the last seconds against the new rules",
      lines = s.what_if_lines or { "(no reload yet)" } } or nil
    s.overlay_kind = s.overlay and "what_if" or nil
  elseif what == "reload" then M.reload(s)
  else training.key(s, what, shift)
  end
end

-- Game time of an event: the window clock mapped through pause and slow motion.
local function game_time(s, t_us)
  if s.fixed then return s.game_now end
  local t = s.game_prev + math.floor((t_us - s.real_prev) * s.speed)
  return math.max(s.game_prev, math.min(s.game_now, t))
end

local function on_event(s, ev)
  if ev.type == "quit" then s.quit = true; return end
  if ev.type == "key" then
    local what = HOST_KEYS[ev.key]
    if what then
      if ev.down and not ev.repeated then host_key(s, what, ev.shift) end
      return
    end
    if ev.repeated or s.replay then return end
    local t = s.loop:map(game_time(s, ev.time_us))
    pcall(s.p1.key, s.p1, ev.scancode, ev.down, t)  -- unbound keys are not errors
  elseif ev.type == "pad_added" then
    for i = 1, 2 do
      if not s.players[i].pad then
        s.players[i].pad, s.players[i].controller = ev.pad, ev.name
        s.log("pad", ("P%d: %s"):format(i, ev.name))
        if i == 2 then s.dummy_off = true end
        break
      end
    end
  elseif ev.type == "pad_removed" then
    local i = player_of_pad(s, ev.pad)
    if i then
      s.players[i].pad, s.players[i].controller = nil, i == 1 and "keyboard" or "dummy"
      if i == 2 then s.dummy_off = false end
    end
  elseif ev.type == "pad_button" or ev.type == "pad_axis" then
    local i = player_of_pad(s, ev.pad)
    if not i or s.replay then return end
    local e = i == 1 and s.p1 or s.p2
    local t = s.loop:map(game_time(s, ev.time_us))
    if ev.type == "pad_button" then
      pcall(e.key, e, PAD_BASE + ev.code, ev.down, t)
    elseif ev.axis == "leftx" or ev.axis == "lefty" then
      local st = s.players[i]
      if ev.axis == "leftx" then st.sx = ev.value else st.sy = -ev.value end
      pcall(e.stick, e, st.sx or 0, st.sy or 0, t)
    end
  end
end

-- }----------------------------------------------------------------------

local function new_player(controller)
  return { inputs = {}, commands = {}, decisions = {}, controller = controller }
end

--- Opens a session: the world (watch.open's), the window, the loop and the controls.
--- opts: dir, script, ticks, fixed, shots = { [tick] = path }, record, replay, config, stats,
--- software, vsync, what_if, poll, log (print what the window shows), on_tick (tests),
--- out (function(line)).
function M.open(opts)
  local sdl = require "framegate.sdl"
  local out = opts.out or print
  local s
  if opts.replay then
    s = training.open_replay(opts)
  else
    s = watch.open { dir = opts.dir, script = opts.script, poll = opts.poll, what_if = opts.what_if,
                     out = out }
  end
  s.out = out
  s.log = opts.log and function(kind, text) out(kind .. ": " .. text) end or function() end
  s.win = sdl.open { title = "framegate play: " .. (opts.replay or s.rules), software = opts.software,
                     vsync = opts.vsync ~= false, width = view_mod.WIDTH, height = view_mod.HEIGHT }
  if opts.config then
    local ok, cfg = pcall(M.read_config, opts.config, s.win)
    if not ok then
      s.win:close()
      s.watcher:close()
      error(cfg, 0)
    end
    s.config = cfg
  else
    s.config = M.default_config
  end
  s.rules_obj = s.rules_obj or fg.rules(s.rules)
  s.after_advance = after_advance
  s.defs = {}
  s.physics = s.rules_obj:physics()
  s.rate = s.world:rate()
  s.loop = fg.loop { rate = s.rate }
  s.players = s.replay and { new_player("replay"), new_player("replay") }
    or { new_player("keyboard"), new_player("dummy") }
  s.health_max = { s.p1:resource("health") or 1, s.p2:resource("health") or 1 }
  bind(s.win, s.p1, s.config, true)
  bind(s.win, s.p2, s.config, false)
  s.cur = capture_all(s)
  s.prev = s.cur
  s.on_tick = opts.on_tick
  s.ticks = opts.ticks
  s.fixed = opts.fixed
  s.frames, s.speed = 0, 1
  s.real_prev, s.game_prev, s.game_now = 0, 0, 0
  s.boxes = true
  s.shots = {}
  for tick, path in pairs(opts.shots or {}) do s.shots[#s.shots + 1] = { tick = tick, path = path } end
  table.sort(s.shots, function(a, b) return a.tick < b.tick end)
  s.stats = opts.stats and { samples = {}, sum = 0, max = 0, n = 0 } or nil
  training.init(s)
  if opts.record then s.recording = s.world:record(opts.record, { takes = true }) end
  s.log("window", ("%s, renderer %s, SDL %s"):format(tostring(s.win), s.win:renderer(), sdl.version))
  return s
end

local function take_shots(s, alpha)
  while s.shots[1] and s.world:tick() >= s.shots[1].tick do
    local shot = table.remove(s.shots, 1)
    s.win:shot(shot.path)
    s.out(("shot: tick %d alpha %.4f %s"):format(s.world:tick(), alpha, shot.path))
  end
end

local function stats_frame(s, us)
  local st = s.stats
  if s.frames < 30 then return end   -- the first frames build the renderer's caches
  st.n, st.sum = st.n + 1, st.sum + us
  if us > st.max then st.max = us end
  st.samples[#st.samples + 1] = us
  if #st.samples >= s.rate then
    table.sort(st.samples)
    st.text = ("host %.2f ms (p99 %.2f) %s"):format(st.sum / st.n / 1000,
      st.samples[math.max(1, math.floor(#st.samples * 0.99))] / 1000, s.win:renderer())
    st.samples = {}
  end
end

--- One display frame: time, events, due ticks, drawing.
function M.frame(s)
  local win = s.win
  local real_now = s.fixed and fg.us_of_tick(s.frames, 60) or win:now_us()
  local t0 = win:now_us()
  s.game_prev = s.game_now
  s.game_now = s.game_now + math.floor((real_now - s.real_prev) * s.speed)
  if s.frames == 0 then s.game_now = 0 end
  if s.step_pending then s.game_now = s.game_now + fg.us_of_tick(1, s.rate) + 1; s.step_pending = false end
  local due = s.loop:frame(s.game_now)
  for _, ev in ipairs(win:poll()) do on_event(s, ev) end
  s.real_prev = real_now
  local host_us = win:now_us() - t0
  for _ = 1, due do
    if s.ticks and s.world:tick() >= s.ticks then break end
    M.tick(s)
    s.loop:tick_done()
  end
  local t1 = win:now_us()
  if s.banner and s.frames > s.banner.until_frame then s.banner = nil end
  local alpha = s.loop:alpha()
  s.mode_text = training.mode_text(s)
  view_mod.draw(win, build_view(s, alpha), s)
  win:flush()
  host_us = host_us + win:now_us() - t1
  take_shots(s, alpha)
  if s.stats then
    stats_frame(s, host_us)
    s.stats_text = s.stats.text
  end
  win:present()
  s.frames = s.frames + 1
end

function M.close(s)
  if s.recording then
    local files = s.recording:finish()
    if type(files) == "table" then s.out("recorded: " .. table.concat(files, ", ")) end
  end
  if s.stats and s.stats.n > 0 then
    s.out(("stats: %d frames, host work per frame mean %.3f ms, max %.3f ms (renderer %s)"):format(
      s.stats.n, s.stats.sum / s.stats.n / 1000, s.stats.max / 1000, s.win:renderer()))
  end
  s.out(("t=%d hash %s"):format(s.world:tick(), s.world:hash()))
  s.watcher:close()
  s.win:close()
  s.closed = true
end

--- Runs a whole session (see M.open for opts); returns it, closed.
function M.session(opts)
  local s = M.open(opts)
  -- The frame that reaches the last tick draws it (and takes its screenshots).
  while not s.quit and (not opts.ticks or s.world:tick() < opts.ticks) do M.frame(s) end
  M.close(s)
  return s
end

--- framegate-play's entry: the arguments of `framegate play` (framegate.commands.play).
function M.main(...)
  local options = require "framegate.options"
  local cmd = require "framegate.commands.play"
  local args, code = options.parse("play", cmd, { ... })
  if not args then return code end
  local opts, err = cmd.session_options(args)
  if not opts then return options.usage_error("play", err) end
  local ok, msg = pcall(M.session, opts)
  if not ok then
    io.stderr:write("framegate play: " .. tostring(msg) .. "\n")
    return 1
  end
  return 0
end

return M
