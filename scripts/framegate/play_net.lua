-- SPDX-License-Identifier: MIT
-- framegate.play_net: a netplay node in the playtest window (`framegate netplay host|join|
-- spectate ... --window`, run by framegate-play). The node is framegate.netplay's; this file
-- adds the window: the keyboard (or a pad) drives this node's player through a scratch world,
-- PageUp/PageDown change the input delay mid-match, and every frame draws the world as the
-- session left it (the predicted present, as rollback games show it) with the playtest
-- window's view, the round trip, delay, rollbacks and frame advantage on the mode line, and the
-- disconnect or desync report in the banner. Keys and options: docs/netplay.md.
local fg = require "framegate"
local netplay = require "framegate.netplay"
local play = require "framegate.play"
local view_mod = require "framegate.play_view"

local M = {}

M.HELP = {
  "this node's player: W A S D or arrows move, J K U I = LP HP LK HK (first pad: d-pad, X Y A B)",
  "PageUp / PageDown: input delay one tick more / less    F3 boxes on/off    F1 this help",
  "Esc quit (the peers see a disconnect)",
}

local HOST_KEYS = { F1 = "help", F3 = "boxes", PageUp = "delay_up", PageDown = "delay_down",
                    Escape = "quit" }

local function host_key(s, what)
  local n = s.node
  if what == "quit" then s.quit = true
  elseif what == "help" then s.overlay = not s.overlay and { title = "keys", lines = M.HELP } or nil
  elseif what == "boxes" then s.boxes = not s.boxes
  elseif what == "delay_up" or what == "delay_down" then
    netplay.set_delay(n, n.session:stats().delay + (what == "delay_up" and 1 or -1))
  end
end

-- Input events go to the scratch world's entity, stamped with the tick it runs next: the session
-- takes that tick's input when it reaches it.
local function on_event(s, ev)
  if ev.type == "quit" then s.quit = true; return end
  local me = s.keyboard
  if ev.type == "key" then
    local what = HOST_KEYS[ev.key]
    if what then
      if ev.down and not ev.repeated then host_key(s, what) end
    elseif me and not ev.repeated then
      pcall(me.entity.key, me.entity, ev.scancode, ev.down, fg.us_of_tick(me.world:tick(), s.rate))
    end
  elseif ev.type == "pad_added" and not s.pad then
    s.pad = ev.pad
  elseif ev.type == "pad_removed" and ev.pad == s.pad then
    s.pad = nil
  elseif ev.type == "pad_button" and me and ev.pad == s.pad then
    pcall(me.entity.key, me.entity, play.PAD_BASE + ev.code, ev.down,
          fg.us_of_tick(me.world:tick(), s.rate))
  end
end

--- Opens the window and the node. c: framegate.netplay.config's; opts: config (controls file),
--- software, shots = { { tick =, path = } }, out, on_frame (tests: called before each frame).
function M.open(c, opts)
  local sdl = require "framegate.sdl"
  local s = { c = c, out = opts.out or print, on_frame = opts.on_frame }
  s.win = sdl.open { title = ("framegate netplay %s: %s"):format(c.mode, c.rules),
                     software = opts.software, vsync = false, width = view_mod.WIDTH,
                     height = view_mod.HEIGHT }
  local ok, config = true, play.default_config
  if opts.config then ok, config = pcall(play.read_config, opts.config, s.win) end
  local me
  if ok and c.mode ~= "spectate" and not c.script then
    me = netplay.scripted(c.rules, c.seed, nil, c.node == 1 and "p1" or "p2")
    play.bind(s.win, me.entity, config, true)
    s.keyboard = me
  end
  local n, err
  if ok then
    c.out = s.out
    n, err = netplay.open(c, me)
  else
    err = config
  end
  if not n then
    s.win:close()
    error(err, 0)
  end
  s.node, s.world, s.rate = n, n.world, n.rate
  s.p1, s.p2 = s.world:entity(1), s.world:entity(2)
  s.rules_obj = fg.rules(c.rules)
  s.defs, s.physics, s.boxes = {}, s.rules_obj:physics(), true
  local mine = c.mode == "spectate" and "spectating" or c.script and "script" or "keyboard"
  s.players = { play.new_player(c.node == 1 and mine or "remote"),
                play.new_player(c.node == 2 and mine or "remote") }
  s.health_max = { s.p1:resource("health") or 1, s.p2:resource("health") or 1 }
  s.cur = play.capture_all(s)
  s.prev = s.cur
  s.shots = {}
  for _, shot in ipairs(opts.shots or {}) do s.shots[#s.shots + 1] = shot end
  table.sort(s.shots, function(a, b) return a.tick < b.tick end)
  s.drawn_tick, s.frames = 0, 0
  return s
end

local function mode_text(s)
  local n = s.node
  local st = n.session:stats()
  local state = n.session:state()
  if state == "syncing" then return ("%s: waiting for the other nodes"):format(n.c.mode) end
  return ("%s %s  ping %d ms  delay %d  %d rollbacks/s  deepest %d  adv %+d"):format(n.c.mode,
    state, math.max(0, st.rtt_us) // 1000, st.delay, n.rollbacks_per_s or 0, st.deepest,
    st.advantage)
end

-- The end of the match in the banner: the message and the report, or the final hash.
local function end_banner(s)
  local n = s.node
  if s.banner then return end
  local report = n.session:report()
  local text = n.message and (n.message .. (report and ("\n" .. report.text) or ""))
    or ("match over: %d ticks, final hash %s"):format(n.session:stats().confirmed, s.world:hash())
  s.banner = { ok = not n.message, text = text }
end

local function take_shots(s)
  local confirmed = s.node.session:stats().confirmed
  while s.shots[1] and confirmed >= s.shots[1].tick do
    local shot = table.remove(s.shots, 1)
    s.win:shot(shot.path)
    s.out(("shot: tick %d confirmed, world at %d, %s"):format(confirmed, s.world:tick(), shot.path))
  end
end

--- One display frame at now (microseconds of match time): events, the node's frame, drawing.
--- Returns true while the match goes on.
function M.frame(s, now, clock)
  if s.on_frame then s.on_frame(s) end
  for _, ev in ipairs(s.win:poll()) do on_event(s, ev) end
  local going = not s.quit and netplay.frame(s.node, now, clock)
  local t = s.world:tick()
  s.prev, s.cur = s.cur, play.capture_all(s)
  if t ~= s.drawn_tick then
    s.drawn_tick = t
    play.input_after_tick(s, 1, s.p1)
    play.input_after_tick(s, 2, s.p2)
  end
  if not going then end_banner(s) end
  s.mode_text = mode_text(s)
  view_mod.draw(s.win, play.build_view(s, 1), s)
  s.win:flush()
  take_shots(s)
  s.win:present()
  s.frames = s.frames + 1
  return going
end

--- Runs the match in the window to its end; returns the node's exit code and the window's state
--- (closed; its world and panels stay readable).
function M.session(c, opts)
  local s = M.open(c, opts)
  local clock = fg.watcher { files = {} }
  local start = clock:clock()
  local frame_us = 1000000 // s.rate
  local frames = 0
  while M.frame(s, (clock:clock() - start) * c.speed, clock) do
    frames = frames + 1
    local wait = (start + frames * frame_us // c.speed - clock:clock()) // 1000
    if wait > 0 then clock:wait(wait) end
  end
  -- The last frame drew the end; leave it on screen for a moment when a person is watching.
  if not c.script and c.mode ~= "spectate" and not s.quit then clock:wait(2000 // c.speed) end
  if s.quit and not s.node.message then
    s.node.message, s.node.code = "quit before the end of the match", 1
  end
  local code = netplay.finish(s.node)
  s.win:close()
  clock:close()
  return code, s
end

--- `framegate netplay ... --window` inside framegate-play: c from framegate.netplay.config, args
--- the parsed arguments (--config, --software).
function M.main(c, args)
  local ok, code = pcall(M.session, c, { config = args.config, software = args.software,
                                         shots = c.shots })
  if not ok then
    io.stderr:write("framegate netplay: " .. tostring(code) .. "\n")
    return 1
  end
  return code
end

return M
