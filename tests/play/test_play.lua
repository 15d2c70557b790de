-- SPDX-License-Identifier: MIT
-- test_play.lua: the playtest window, run headless (under xvfb-run) with a scripted input file.
-- Screenshots are read back and checked against the world's own numbers: the hit box where
-- the attacker's reach is, the frame meter strip cell by cell, the reload banner after an
-- edit; the final state hash equals the same script run through `framegate watch`; a virtual
-- gamepad pressing a motion makes its command appear. Run by `framegate-play lua`.
local lu = require "luaunit"
local fg = require "framegate"
local play = require "framegate.play"

local CLI = os.getenv("FG_CLI") or "build/ci/framegate"

-- The documented layout (docs/playtest.md), written out again so a drawing that moves fails.
local ORIGIN_X, GROUND_Y, SCALE = 640, 380, 1.5
local HIT = { 255, 40, 40 }
local METER_X, METER_Y, METER_CELL, METER_ROW, METER_TICKS = 40, 414, 9, 20, 132
local METER_COLOURS = {
  ["."] = { 50, 52, 62 }, s = { 40, 190, 170 }, A = { 240, 70, 110 }, r = { 40, 100, 220 },
  c = { 255, 150, 40 }, x = { 240, 220, 70 }, ["="] = { 200, 200, 200 }, b = { 170, 90, 230 },
  ["^"] = { 120, 200, 255 },
}
local BANNER_OK, BANNER_FAILED = { 20, 100, 50 }, { 130, 24, 30 }

local function sh(cmd) assert(os.execute(cmd), cmd) end

local function copy_duel()
  local d = os.tmpname()
  os.remove(d)
  sh("mkdir -p '" .. d .. "' && cp samples/duel/rules.lua samples/duel/playtest.txt '" .. d .. "'/")
  return d
end

local function rewrite(path, from, to)
  local f = assert(io.open(path))
  local text = f:read("a")
  f:close()
  local edited, n = text:gsub(from, to)
  assert(n == 1, from)
  f = assert(io.open(path, "w"))
  f:write(edited)
  f:close()
end

-- A 32-bit BMP as SDL saves it: pixel(x, y) -> r, g, b (y down from the top).
local function read_bmp(path)
  local f = assert(io.open(path, "rb"))
  local data = f:read("a")
  f:close()
  assert(data:sub(1, 2) == "BM", path .. ": not a BMP")
  local offset = string.unpack("<I4", data, 11)
  local width, height, _, bpp = string.unpack("<i4i4I2I2", data, 19)
  assert(bpp == 32, path .. ": expected 32 bits per pixel")
  local masks = { string.unpack("<I4I4I4", data, 55) }
  local function shift(m) local s = 0; while m & 1 == 0 do m, s = m >> 1, s + 1 end; return s end
  local rs, gs, bs = shift(masks[1]), shift(masks[2]), shift(masks[3])
  local bmp = { width = width, height = math.abs(height) }
  function bmp.pixel(x, y)
    local row = height > 0 and (bmp.height - 1 - y) or y
    local v = string.unpack("<I4", data, offset + (row * width + x) * 4 + 1)
    return (v >> rs) & 255, (v >> gs) & 255, (v >> bs) & 255
  end
  return bmp
end

local function same(r, g, b, c) return r == c[1] and g == c[2] and b == c[3] end

-- Every pixel of colour c, as a bounding box and a count.
local function find_colour(bmp, c, y0, y1)
  local box = { n = 0 }
  for y = y0 or 0, y1 or bmp.height - 1 do
    for x = 0, bmp.width - 1 do
      local r, g, b = bmp.pixel(x, y)
      if same(r, g, b, c) then
        box.n = box.n + 1
        box.x0, box.x1 = math.min(box.x0 or x, x), math.max(box.x1 or x, x)
        box.y0, box.y1 = math.min(box.y0 or y, y), math.max(box.y1 or y, y)
      end
    end
  end
  return box
end

-- The reference run: the same rules and script on a plain world, no window.
local function reference(dir, ticks)
  local w = fg.world { rules = dir .. "/rules.lua", seed = 7, buffer = 512, trace = 16384 }
  local p1 = w:spawn { x = -35 }
  local p2 = w:spawn { x = 35, facing = "left" }
  local events, period = {}, nil
  for line in io.lines(dir .. "/playtest.txt") do
    line = line:gsub("#.*$", "")
    period = tonumber(line:match("^%s*repeat%s+(%d+)")) or period
    local tick, who, input = line:match("^%s*(%d+)%s+(p[12])%s+(.-)%s*$")
    if tick then events[#events + 1] = { tick = tonumber(tick), who = who, input = input } end
  end
  local states = {}
  for t = 0, ticks - 1 do
    local base = period and (t // period) * period or 0
    for _, e in ipairs(events) do
      if base + e.tick == t then w:play(e.who == "p1" and p1 or p2, e.input) end
    end
    w:advance()
    local x1, y1 = p1:position()
    local name, elapsed = p1:action(0)
    states[w:tick()] = { x = x1, y = y1, action = name, elapsed = elapsed, facing = p1:facing(),
                         meter = w:meter(math.max(0, w:tick() - METER_TICKS), w:tick() - 1) }
  end
  return w, states
end

local function session(opts)
  local lines = {}
  opts.out = function(line) lines[#lines + 1] = line end
  opts.fixed = true
  local s = play.session(opts)
  return s, table.concat(lines, "\n")
end

TestPlay = {}

-- Sessions opened frame by frame, closed by tearDown even when an assertion failed.
local open_sessions = {}

function TestPlay:tearDown()
  for _, s in ipairs(open_sessions) do if not s.closed then play.close(s) end end
  open_sessions = {}
end

local function open_fixed(d)
  local s = play.open { dir = d, fixed = true, out = function() end }
  open_sessions[#open_sessions + 1] = s
  local function frames(n) for _ = 1, n do play.frame(s) end end
  local function key(name) s.win:inject_key(name, true); s.win:inject_key(name, false) end
  return s, frames, key
end

local function rows_text(p)
  local t = {}
  for _, row in ipairs(p.inputs) do t[#t + 1] = row.dir .. (row.buttons ~= "" and row.buttons or "") end
  return table.concat(t, " ")
end


function TestPlay:test_the_hit_box_is_drawn_where_the_attackers_reach_is_and_nowhere_else()
  local d = copy_duel()
  local shot = d .. "/t8.bmp"
  local s, text = session { dir = d, script = d .. "/playtest.txt", ticks = 8, shots = { [8] = shot } }
  lu.assertStrContains(text, "shot: tick 8 alpha 0.0000")
  local _, states = reference(d, 8)
  -- At tick 8 the jab is in its hitstop on its first active tick: the box is up.
  local now, before = states[8], states[7]
  lu.assertEquals(now.action, "jab")
  local jab = fg.rules(d .. "/rules.lua"):action("jab")
  lu.assertTrue(now.elapsed >= jab.startup and now.elapsed < jab.startup + jab.active)
  local x = before.x                          -- alpha 0: the previous committed position
  local x0, x1 = x + 10, x + 50               -- the jab's hit box: x 10..50, y 40..100, facing right
  local sx0 = math.floor(ORIGIN_X + SCALE * x0 + 0.5)
  local sx1 = math.floor(ORIGIN_X + SCALE * x1 + 0.5)
  local sy0 = math.floor(GROUND_Y - SCALE * 100 + 0.5)
  local sy1 = math.floor(GROUND_Y - SCALE * 40 + 0.5)
  local box = find_colour(read_bmp(shot), HIT)
  lu.assertTrue(box.n > 0, "no pixel of the hit colour at all")
  lu.assertEquals({ box.x0, box.y0, box.x1, box.y1 }, { sx0, sy0, sx1 - 1, sy1 - 1 })
  lu.assertEquals(s.world:tick(), 8)
end

function TestPlay:test_no_hit_box_when_no_attack_is_active()
  local d = copy_duel()
  local shot = d .. "/t80.bmp"
  session { dir = d, script = d .. "/playtest.txt", ticks = 80, shots = { [80] = shot } }
  local _, states = reference(d, 80)
  lu.assertEquals(states[80].action, "idle")
  lu.assertEquals(find_colour(read_bmp(shot), HIT).n, 0)
end

function TestPlay:test_the_meter_strip_shows_the_text_meter_cell_by_cell()
  local d = copy_duel()
  local shot = d .. "/t100.bmp"
  session { dir = d, script = d .. "/playtest.txt", ticks = 100, shots = { [100] = shot } }
  local _, states = reference(d, 100)
  local bmp = read_bmp(shot)
  local rows = {}
  for id, cells in states[100].meter:gmatch("\ne(%d+)%s+(%S+)") do rows[tonumber(id)] = cells end
  lu.assertEquals(#rows[1], 100)
  lu.assertStrContains(rows[1], "ssssA======")
  for r = 1, 2 do
    for i = 1, #rows[r] do
      local ch = rows[r]:sub(i, i)
      local px, py = METER_X + METER_CELL * (i - 1) + 3, METER_Y + METER_ROW * (r - 1) + 8
      local got = { bmp.pixel(px, py) }
      lu.assertEquals(got, METER_COLOURS[ch], ("row %d cell %d ('%s')"):format(r, i, ch))
    end
    -- past the last tick: no cell drawn
    local px = METER_X + METER_CELL * #rows[r] + 3
    lu.assertNotEquals({ bmp.pixel(px, METER_Y + METER_ROW * (r - 1) + 8) }, METER_COLOURS["."])
  end
end

function TestPlay:test_the_final_hash_equals_the_same_script_through_the_command_line()
  local d = copy_duel()
  local s, text = session { dir = d, script = d .. "/playtest.txt", ticks = 300, stats = true }
  lu.assertStrMatches(text, "stats: %d+ frames, host work per frame mean [%d.]+ ms, max [%d.]+ ms %(renderer %w+%)\n.*")
  local hash = text:match("t=300 hash (%x+)")
  lu.assertNotNil(hash, text)
  lu.assertEquals(hash, s.world:hash())
  local p = io.popen(("%s watch '%s' --script '%s' --ticks 300 --fast"):format(CLI, d, d .. "/playtest.txt"))
  local cli = p:read("a")
  p:close()
  lu.assertEquals(cli:match("t=300 hash (%x+)"), hash)
  -- and the reference world agrees too
  local w = reference(d, 300)
  lu.assertEquals(w:hash(), hash)
end

function TestPlay:test_a_saved_edit_reloads_and_the_window_says_so()
  local d = copy_duel()
  local before, after = d .. "/t59.bmp", d .. "/t70.bmp"
  local s, text = session { dir = d, script = d .. "/playtest.txt", ticks = 70, log = true,
    shots = { [59] = before, [70] = after },
    on_tick = function(_, t)
      if t == 60 then rewrite(d .. "/rules.lua", "damage = 30,", "damage = 55,") end
    end }
  lu.assertEquals(#s.reloads, 1)
  lu.assertTrue(s.reloads[1].ok)
  lu.assertStrContains(text, "reload: t=60 reload: ok, 'duelist' hash ")
  lu.assertStrContains(s.banner.text, "; changed jab")
  lu.assertStrContains(s.banner.text, "what-if: ")
  lu.assertEquals(find_colour(read_bmp(before), BANNER_OK, 90, 100).n, 0)
  lu.assertTrue(find_colour(read_bmp(after), BANNER_OK, 90, 100).n > 1000)
end

function TestPlay:test_a_broken_edit_shows_the_error_with_file_and_line_and_the_old_rules_run()
  local d = copy_duel()
  local after = d .. "/t70.bmp"
  local s = session { dir = d, script = d .. "/playtest.txt", ticks = 70, shots = { [70] = after },
    on_tick = function(_, t)
      if t == 60 then rewrite(d .. "/rules.lua", "startup = 4, active = 2", "startup = 4, active = -2") end
    end }
  lu.assertFalse(s.reloads[1].ok)
  lu.assertStrContains(s.banner.text, "reload failed, the old rules keep running")
  lu.assertStrContains(s.banner.text, "actions.jab.active")
  lu.assertTrue(find_colour(read_bmp(after), BANNER_FAILED, 90, 100).n > 1000)
end

function TestPlay:test_a_virtual_gamepad_motion_is_recognised_as_its_command()
  local d = copy_duel()
  local pad
  -- 2, 3, 6 on the d-pad, then X (LP): the hadouken's 236P.
  local script = {
    [12] = { "dpdown", true }, [14] = { "dpright", true }, [16] = { "dpdown", false },
    [17] = { "x", true }, [19] = { "x", false }, [20] = { "dpright", false },
  }
  local s, text = session { dir = d, ticks = 40, log = true,
    on_tick = function(ss, t)
      if t == 2 then pad = ss.win:virtual_pad() end
      local step = script[t]
      if step then pad:button(step[1], step[2]) end
    end }
  lu.assertStrContains(text, "pad: P1: framegate virtual pad")
  lu.assertStrContains(text, "command: t=")
  lu.assertStrContains(text, "e1 command hadouken")
  local found = false
  for _, c in ipairs(s.players[1].commands) do if c:find("hadouken", 1, true) then found = true end end
  lu.assertTrue(found, "the command list of P1 shows the hadouken")
  -- the input display read the d-pad as numpad notation
  local dirs = {}
  for _, row in ipairs(s.players[1].inputs) do dirs[#dirs + 1] = row.dir end
  lu.assertStrContains(table.concat(dirs), "236")
end

function TestPlay:test_a_gamepad_stick_walks_and_unplugging_gives_the_keyboard_back()
  local s, frames = open_fixed(copy_duel())
  local pad = s.win:virtual_pad()
  frames(2)
  lu.assertEquals(s.players[1].controller, "framegate virtual pad")
  local x0 = s.p1:position()
  pad:axis("leftx", 1.0)
  frames(20)
  lu.assertTrue(s.p1:position() > x0, "the stick pushed forward walks forward")
  pad:axis("leftx", 0)
  pad:close()
  frames(2)
  lu.assertEquals(s.players[1].controller, "keyboard")
end

-- The picture in the README: a strong cancelled into a hadouken whose reach is on screen, the
-- meter strip, the decisions with their reasons and the banner of a reload saved at tick 100.
-- FG_README_SHOT=docs/img/playtest.png writes it as PNG (ImageMagick's convert).
function TestPlay:test_the_readme_screenshot_shows_the_hit_box_the_meter_and_a_reload()
  local d = copy_duel()
  local shot = d .. "/readme.bmp"
  local s = session { dir = d, script = d .. "/playtest.txt", ticks = 124, shots = { [124] = shot },
    on_tick = function(_, t)
      if t == 100 then rewrite(d .. "/rules.lua", "damage = 30,", "damage = 45,") end
    end }
  lu.assertTrue(s.reloads[1].ok)
  local bmp = read_bmp(shot)
  local box = find_colour(bmp, HIT)
  local _, states = reference(d, 124)
  lu.assertEquals(states[124].action, "hadouken")
  -- the hadouken's hit box (40..380 in front of e1) runs from e1 to far past e2
  local sx0 = math.floor(ORIGIN_X + SCALE * (states[123].x + 40) + 0.5)
  lu.assertTrue(math.abs(box.x0 - sx0) <= 1)
  lu.assertTrue(box.x1 - box.x0 >= 340 * SCALE - 1)
  lu.assertTrue(find_colour(bmp, BANNER_OK, 90, 100).n > 1000)
  -- the combo counter is the world's: the strong and the hadouken, 80 + 60 damage
  local w = reference(d, 124)
  local combat = w:entity(2):combat()
  lu.assertEquals(combat.combo, 2)
  lu.assertEquals({ s.combo.attacker, s.combo.hits, s.combo.damage }, { 1, combat.combo, combat.combo_damage })
  local png = os.getenv("FG_README_SHOT")
  if png then sh(("convert '%s' '%s'"):format(shot, png)) end
end

function TestPlay:test_a_recorded_session_replays_in_the_window_to_the_same_hash()
  local d = copy_duel()
  local take = d .. "/take.fgr"
  local s1 = session { dir = d, script = d .. "/playtest.txt", ticks = 150, record = take }
  local s2, text = session { replay = take, ticks = 150, log = true }
  lu.assertEquals(s2.world:tick(), 150)
  lu.assertEquals(s2.world:hash(), s1.world:hash())
  lu.assertStrContains(text, "decision: t=107 e1 accepted: hadouken cancels strong")
  -- seeking back starts over from the replay's first tick and comes back to the same state
  local s3 = play.open { replay = take, fixed = true, out = function() end }
  open_sessions[#open_sessions + 1] = s3
  local training = require "framegate.play_training"
  training.seek(s3, 120)
  local at120 = s3.world:hash()
  training.seek(s3, 30)
  lu.assertEquals(s3.world:tick(), 30)
  training.seek(s3, 120)
  lu.assertEquals(s3.world:hash(), at120)
  play.close(s3)
end

function TestPlay:test_a_controls_file_with_an_unknown_key_names_the_file_field_and_value()
  local d = copy_duel()
  local f = assert(io.open(d .. "/controls.lua", "w"))
  f:write('return { keys = { LP = "Jay" } }\n')
  f:close()
  local ok, err = pcall(play.session, { dir = d, config = d .. "/controls.lua", ticks = 1, fixed = true,
                                         out = function() end })
  lu.assertFalse(ok)
  lu.assertStrContains(err, d .. "/controls.lua: keys.LP: 'Jay' is not a key name SDL knows")
end

-- {---------------------------------------------------------------------- keys, frame by frame

function TestPlay:test_keyboard_presses_reach_their_tick_and_make_commands()
  local s, frames = open_fixed(copy_duel())
  frames(5)
  local at = s.world:tick()
  s.win:inject_key("J", true)
  frames(1)
  s.win:inject_key("J", false)
  frames(20)
  -- stamped with frame 5's time, the press belongs to tick 5, not to tick 4 that the frame runs
  lu.assertEquals(s.players[1].commands[1], ("t=%d jab"):format(at + 1))
  lu.assertStrContains(rows_text(s.players[1]), "5LP")
  play.close(s)
end

function TestPlay:test_pause_stops_the_ticks_step_runs_one_and_slow_motion_halves_them()
  local s, frames, key = open_fixed(copy_duel())
  frames(10)
  key("F5")
  frames(1)
  local t = s.world:tick()
  frames(10)
  lu.assertEquals(s.world:tick(), t)
  key("F6")
  frames(2)
  lu.assertEquals(s.world:tick(), t + 1)
  key("F5")                    -- run again
  key("F7")                    -- at 1/2
  frames(1)
  t = s.world:tick()
  frames(40)
  lu.assertTrue(math.abs(s.world:tick() - t - 20) <= 1, "40 frames at 1/2: " .. (s.world:tick() - t))
  key("F7")                    -- at 1/4
  frames(1)
  t = s.world:tick()
  frames(40)
  lu.assertTrue(math.abs(s.world:tick() - t - 10) <= 1, "40 frames at 1/4: " .. (s.world:tick() - t))
  play.close(s)
end

function TestPlay:test_reset_puts_the_fighters_back()
  local s, frames, key = open_fixed(copy_duel())
  s.win:inject_key("A", true)
  frames(30)
  s.win:inject_key("A", false)
  frames(2)
  lu.assertTrue(s.p1:position() < -60, "walked back")
  key("F8")
  frames(2)
  lu.assertEquals(s.p1:position(), -35)
  lu.assertEquals(s.p2:position(), 35)
  play.close(s)
end

function TestPlay:test_the_dummy_crouches_then_blocks_after_the_first_hit()
  local s, frames, key = open_fixed(copy_duel())
  key("F9")                                  -- crouch
  frames(5)
  lu.assertEquals(select(2, s.p2:direction()), 2)
  for _ = 1, 3 do key("F9") end              -- block, crouch block, block after first hit
  frames(5)
  lu.assertEquals(select(2, s.p2:direction()), 5)
  s.win:inject_key("J", true)
  frames(1)
  s.win:inject_key("J", false)
  frames(8)                                  -- the jab hits at its 4th tick
  lu.assertEquals(select(2, s.p2:direction()), 4, "holds back after the first hit")
  frames(60)                                 -- free for more than 20 ticks
  lu.assertEquals(select(2, s.p2:direction()), 5)
  play.close(s)
end

function TestPlay:test_a_recording_of_p1_plays_back_on_the_dummy()
  local s, frames, key = open_fixed(copy_duel())
  frames(3)
  key("F10")
  frames(2)
  s.win:inject_key("J", true)
  frames(1)
  s.win:inject_key("J", false)
  frames(30)
  key("F10")
  frames(1)
  lu.assertEquals(#s.players[2].commands, 0)
  key("F11")
  frames(40)
  lu.assertStrContains(s.players[2].commands[1] or "", "jab")
  play.close(s)
end

-- }----------------------------------------------------------------------

function TestPlay:test_bad_options_are_refused_with_the_usage()
  lu.assertEquals(play.main("--shot", "x.bmp"), 2)
  lu.assertEquals(play.main("--bogus"), 2)
  lu.assertEquals(play.main(), 2)
end

os.exit(lu.LuaUnit.run())
