-- SPDX-License-Identifier: MIT
-- framegate.play_training: the training-mode side of the playtest window. Pause, step, slow
-- motion and reset change the host's clock or the fighters' start positions; the dummy (P2 when
-- no second pad is plugged in) holds directions, blocks, or plays back up to ten seconds of P1's
-- inputs, mirrored to its side. Replays open here too: a world set up from the replay, stepped
-- by its player, with pause, step and seek. None of this decides gameplay: it is input.
local fg = require "framegate"

local T = {}

T.DUMMY_MODES = { "stand", "crouch", "block", "crouch block", "block after first hit" }
local DUMMY_DIR = { stand = 5, crouch = 2, block = 4, ["crouch block"] = 1, ["block after first hit"] = 5 }
T.RECORD_TICKS = 600
local SPEEDS = { 1, 0.5, 0.25 }

function T.init(s)
  s.dummy_mode, s.slow = 1, 1
  s.dummy_dir = 5   -- the stick starts at neutral; stand adds no input
end

local function speed(s) return s.paused and 0 or SPEEDS[s.slow] end

local function dummy_free(s) return not s.dummy_off and not s.playback and not s.replay end

-- Holds a direction (numpad, relative to the dummy's facing) from the tick about to run.
local function set_dummy_dir(s, dir)
  if s.dummy_dir ~= dir then
    local rel = select(2, s.p2:direction())
    if rel ~= dir then
      pcall(s.p2.dir, s.p2, fg.relative(dir, s.p2:facing()), fg.us_of_tick(s.world:tick(), s.rate))
    end
    s.dummy_dir = dir
  end
end

-- Dummy playback: the recorded rows of P1 (relative directions, held buttons) on P2.
local function playback_tick(s, t)
  local pb = s.playback
  local row = s.recorded[pb.i]
  if not row then
    s.playback = nil
    set_dummy_dir(s, 5)
    for b in pairs(pb.held) do pcall(s.p2.release, s.p2, b, fg.us_of_tick(t, s.rate)) end
    s.dummy_dir = nil
    return
  end
  local us = fg.us_of_tick(t, s.rate)
  local abs = fg.relative(row.dir, s.p2:facing())
  if abs ~= pb.dir then pcall(s.p2.dir, s.p2, abs, us); pb.dir = abs end
  for b in pairs(pb.held) do
    if not row.held[b] then pcall(s.p2.release, s.p2, b, us); pb.held[b] = nil end
  end
  for b in pairs(row.held) do
    if not pb.held[b] then pcall(s.p2.press, s.p2, b, us); pb.held[b] = true end
  end
  pb.i = pb.i + 1
end

function T.before_tick(s, t)
  if s.playback then playback_tick(s, t); return end
  if not dummy_free(s) then return end
  local mode = T.DUMMY_MODES[s.dummy_mode]
  if mode == "block after first hit" then
    local a = s.after_hit
    if a and a.free_since and t - a.free_since >= 20 then s.after_hit = nil end
    set_dummy_dir(s, s.after_hit and 4 or 5)
  else
    set_dummy_dir(s, DUMMY_DIR[mode])
  end
end

local function in_stun(state)
  local def = state.def
  if state.frozen > 0 then return true end
  for _, tag in ipairs(def and def.tags or {}) do if tag == "stun" then return true end end
  return false
end

function T.after_tick(s, t)
  if s.recording_dummy then
    local inp = s.p1:input()
    local held = {}
    for _, a in ipairs(inp.held) do
      if a ~= "up" and a ~= "down" and a ~= "left" and a ~= "right" then held[a] = true end
    end
    s.recorded[#s.recorded + 1] = { dir = fg.relative(inp.dir, s.p1:facing()), held = held }
    if #s.recorded >= T.RECORD_TICKS then s.recording_dummy = false end
  end
  if s.after_hit and not s.after_hit.free_since and not in_stun(s.cur[2]) then
    s.after_hit.free_since = t
  end
end

-- A committed hit: the dummy that blocks after the first one starts blocking.
function T.on_hit(s, r)
  if r.entity == 2 and r.text:find(" hit by ", 1, true)
      and T.DUMMY_MODES[s.dummy_mode] == "block after first hit" then
    s.after_hit = {}
  end
end

local function reset(s)
  s.p1:position(-35, 0)
  s.p2:position(35, 0)
  s.p1:facing("right")
  s.p2:facing("left")
  s.p1:resource("health", s.health_max[1])
  s.p2:resource("health", s.health_max[2])
  pcall(s.p1.resource, s.p1, "meter", 0)
  pcall(s.p2.resource, s.p2, "meter", 0)
  s.combo, s.after_hit = nil, nil
  s.log("training", ("t=%d reset positions"):format(s.world:tick()))
end

function T.key(s, what, _shift)
  if what == "pause" then s.paused = not s.paused
  elseif what == "step" then
    if s.paused then s.step_pending = true end
  elseif what == "slow" then s.slow = s.slow % #SPEEDS + 1
  elseif what == "boxes" then s.boxes = not s.boxes
  elseif s.replay then
    if what == "seek_back" then T.seek(s, s.world:tick() - s.rate)
    elseif what == "seek_forward" then T.seek(s, s.world:tick() + s.rate) end
  elseif what == "reset" then reset(s)
  elseif what == "dummy" then
    s.dummy_mode = s.dummy_mode % #T.DUMMY_MODES + 1
    s.after_hit = nil
  elseif what == "record_dummy" then
    s.recording_dummy = not s.recording_dummy
    if s.recording_dummy then s.recorded = {} end
  elseif what == "play_dummy" then
    if s.recorded and #s.recorded > 0 and not s.recording_dummy then
      s.playback = { i = 1, held = {} }
      s.dummy_dir = nil
    end
  end
  s.speed = speed(s)
end

function T.mode_text(s)
  local parts = {}
  if s.replay then
    local st = s.replay.player:status()
    parts[#parts + 1] = ("replay %d/%d%s"):format(st.tick, st.last_tick, st.done and " end" or "")
    if st.diverged then parts[#parts + 1] = "DIVERGED at " .. st.divergent_tick end
  end
  if s.paused then parts[#parts + 1] = "PAUSED" end
  if s.slow > 1 then parts[#parts + 1] = ("slow x%s"):format(SPEEDS[s.slow] == 0.5 and "1/2" or "1/4") end
  if not s.replay then
    if s.playback then parts[#parts + 1] = "dummy: playback"
    elseif s.dummy_off then parts[#parts + 1] = "P2: pad"
    else parts[#parts + 1] = "dummy: " .. T.DUMMY_MODES[s.dummy_mode] end
    if s.recording_dummy then parts[#parts + 1] = ("REC %.1fs"):format(#s.recorded / s.rate) end
  end
  if not s.boxes then parts[#parts + 1] = "boxes off" end
  if s.stats_text then parts[#parts + 1] = s.stats_text end
  return table.concat(parts, "  ")
end

-- {---------------------------------------------------------------------- replays

local function replay_world(s)
  local r = s.replay
  r.reader:rewind()
  r.world = fg.replay.world(r.reader, r.rules, { trace = 16384 })
  r.player = r.world:replay_player(r.reader)
  s.world = r.world
  s.p1, s.p2 = r.world:entity(1), r.world:entity(2)
end

--- A session over a replay file: the world as the recording started, and its player.
function T.open_replay(opts)
  local reader = fg.replay.open(opts.replay)
  local path, files = fg.replay.rules(reader)
  local text
  for _, f in ipairs(files) do if f.path == path then text = f.text end end
  if not path or not text then error(("%s: the replay embeds no rules to play it with"):format(opts.replay), 0) end
  local s = { rules = path, reloads = {}, snapshots = {}, what_if = 0,
              watcher = fg.watcher { files = {} } }
  s.replay = { reader = reader, path = opts.replay, rules = fg.load_rules_source(path, text, files) }
  s.rules_obj = s.replay.rules
  replay_world(s)
  return s
end

--- One tick of the replay (nothing when it has ended: the window pauses on the last tick).
function T.replay_step(s)
  local st = s.replay.player:status()
  if st.done then s.paused = true; s.speed = 0; return false end
  local ok, msg = s.replay.player:step(1)
  if not ok then s.log("replay", msg); s.replay.error = msg end
  return true
end

--- Seeks to a tick: forward by stepping, backward by starting over from the replay's first tick.
function T.seek(s, target)
  target = math.max(0, target)
  if target < s.world:tick() then
    replay_world(s)
    for i = 1, 2 do s.players[i].inputs, s.players[i].commands, s.players[i].decisions = {}, {}, {} end
    s.last_move_from, s.combo = nil, nil
  end
  while s.world:tick() < target and not s.replay.player:status().done do
    local t = s.world:tick()
    s.replay.player:step(1)
    s.after_advance(s, t)
  end
end

-- }----------------------------------------------------------------------

return T
