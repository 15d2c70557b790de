-- SPDX-License-Identifier: MIT
-- test_bounce.lua: wall and ground bounces declared in a Lua ruleset: the bounce reaches
-- on_event with its kind, target and point, counts in w:committed("bounce"), shows in
-- p:combat() and the trace; combat.bounce_limit refuses the ones past it; the declaration reads
-- back; mistakes name their file, path and value;
-- a reload names the changed bounce fields; a save taken mid-bounce restores to the same hashes.
local lu = require "luaunit"
local fg = require "framegate"

-- Walls at -100 and 100, no pushing between bodies, gravity 0.5 a tick.
local RULES = [[
local fg = require "framegate"
return fg.ruleset "bouncer" {
  buttons = { "LP", "HP" },
  resources = { health = { max = 1000, start = 1000 } },
  physics = { stage_min = -100, stage_max = 100, min_gap = 0 },
  boxes = { hurt = { x = -20, y = 0, w = 40, h = 100 } },
  actions = {
    idle = { neutral = true, loop = true, duration = 1 },
    hitstun = { duration = 1, interrupts = true },
    blockstun = { duration = 1 },
    launched = { group = "airborne", duration = 120, interrupts = true },
    wallblast = { input = "HP", startup = 3, active = 2, recovery = 10,
                  boxes = { { "hit", from = 3, to = 4, x = 20, y = 0, w = 60, h = 140 } },
                  hit = { damage = 50, hitstun = 20, hitstop = 0, reaction = "launched",
                          launch = { vx = 8, vy = 6 },
                          wall_bounce = { vx = 10, vy = 10, stun = 60 } } },
    slam = { input = "LP", startup = 3, active = 2, recovery = 10,
             boxes = { { "hit", from = 3, to = 4, x = 20, y = 0, w = 60, h = 140 } },
             hit = { damage = 50, hitstun = 20, hitstop = 0, reaction = "launched",
                     launch = { vx = 2, vy = 6 },
                     ground_bounce = { vx = 3, vy = 5, stun = 25 } } },
    toss = { startup = 1, active = 1, recovery = 5, markers = { { tick = 1, marker = "spawn" } },
             spawn = { "rock", x = 20 } },
  },
  projectiles = {
    rock = { vx = 6, lifetime = 60, boxes = { { x = -10, y = 0, w = 20, h = 100 } },
             hit = { damage = 10, hitstop = 0, hitstun = 20, reaction = "launched",
                     launch = { vx = 8, vy = 6 }, wall_bounce = { vx = 3, vy = 2 } } },
  },
  on_event = function(_, ev)
    if ev.kind == "bounce" then fg.cue("bounce_" .. ev.bounce, ev) end
  end,
}
]]

local function sh(cmd) assert(os.execute(cmd), cmd) end

local function rules_file(text)
  local d = os.tmpname()
  os.remove(d)
  sh("mkdir -p '" .. d .. "'")
  local path = d .. "/rules.lua"
  local function save(t)
    local f = assert(io.open(path, "w"))
    f:write(t)
    f:close()
  end
  save(text or RULES)
  return path, save
end

-- The world, its fighters, a function that saves the rules file, and one that runs n ticks
-- collecting the bounce events (w:events() after each tick) into `bounces`.
local function duel(x1, x2, text)
  local path, save = rules_file(text)
  local w = fg.world { rules = path }
  local p1 = w:spawn { x = x1 }
  local p2 = w:spawn { x = x2, facing = "left" }
  local bounces = {}
  local function run(n)
    for _ = 1, n do
      w:run(1)
      for _, ev in ipairs(w:events()) do
        if ev.kind == "bounce" then
          bounces[#bounces + 1] = { tick = ev.tick, entity = ev.entity, bounce = ev.bounce,
                                    target = ev.target, x = ev.x, y = ev.y, combo = ev.combo,
                                    action = ev.action }
        end
      end
    end
  end
  return { w = w, p1 = p1, p2 = p2, save = save, run = run, bounces = bounces }
end

local function edit(pattern, replacement)
  local out, n = RULES:gsub(pattern:gsub("%p", "%%%0"), replacement)
  assert(n == 1, "edit matched " .. n .. " times: " .. pattern)
  return out
end

TestBounce = {}

function TestBounce:test_a_wall_bounce_reaches_on_event_once_with_the_declared_velocity()
  local d = duel(40, 80)
  local w, p2 = d.w, d.p2
  d.p1:request("wallblast")
  d.run(5) -- the hit on tick 3 moves it that tick: 88, 96, then the wall on tick 5
  lu.assertTrue(p2:combat().wall_bounce)
  lu.assertFalse(p2:combat().ground_bounce)
  d.run(1)
  lu.assertEquals(#d.bounces, 1)
  lu.assertEquals(d.bounces[1], { tick = 5, entity = 2, bounce = "wall", target = 1, x = 100,
                                  y = select(2, p2:position()), combo = 1, action = "launched" })
  local cues = w:cues()
  lu.assertEquals({ #cues, cues[1].name, cues[1].a }, { 1, "bounce_wall", 1 })
  lu.assertFalse(p2:combat().wall_bounce)
  local x0, y0 = p2:position()
  d.run(1)
  local x1, y1 = p2:position()
  lu.assertEquals({ x0 - x1, y1 - y0 }, { 10, 9.5 })
  d.run(80) -- across the stage to the other wall: stopped there, no second bounce
  lu.assertEquals(#d.bounces, 1)
  lu.assertEquals(w:committed("bounce"), 1)
  lu.assertEquals({ p2:position() }, { -100, 0 })
  lu.assertFalse(p2:combat().launched)
  local line
  for _, r in ipairs(w:trace()) do
    if r.text:find("bounce at", 1, true) then line = r.text end
  end
  lu.assertEquals(line, "t=5 e2 wall bounce at x 100 (armed by e1): vx 10, vy 10, stun 60")
end

function TestBounce:test_a_ground_bounce_replaces_the_first_landing()
  local d = duel(-40, 0)
  local p2 = d.p2
  d.p1:request("slam")
  d.run(25)
  lu.assertEquals(#d.bounces, 0)
  lu.assertTrue(p2:combat().ground_bounce)
  d.run(1) -- tick 25: the floor
  lu.assertEquals(#d.bounces, 1)
  lu.assertEquals({ d.bounces[1].bounce, d.bounces[1].y }, { "ground", 0 })
  lu.assertTrue(p2:combat().launched)
  local x0 = p2:position()
  d.run(1)
  local x1, y1 = p2:position()
  lu.assertEquals({ x1 - x0, y1 }, { 3, 4.5 })
  d.run(40)
  lu.assertEquals(#d.bounces, 1)
  lu.assertFalse(p2:combat().launched)
  lu.assertEquals(select(2, p2:position()), 0)
end

function TestBounce:test_no_bounce_without_a_declaration()
  local d = duel(40, 80, edit("wall_bounce = { vx = 10, vy = 10, stun = 60 }", "juggle = 0"))
  d.p1:request("wallblast")
  d.run(60)
  lu.assertEquals(#d.bounces, 0)
  lu.assertEquals(d.w:committed("bounce") or 0, 0)
  lu.assertEquals({ d.p2:position() }, { 100, 0 }) -- pinned at the wall, then landed there
end

function TestBounce:test_the_declaration_reads_back()
  local rules = fg.rules((rules_file()))
  lu.assertEquals(rules:action("wallblast").hit.wall_bounce, { vx = 10, vy = 10, stun = 60 })
  lu.assertNil(rules:action("wallblast").hit.ground_bounce)
  lu.assertEquals(rules:action("slam").hit.ground_bounce, { vx = 3, vy = 5, stun = 25 })
end

local function load_error(text)
  local path = rules_file(text)
  local ok, err = pcall(fg.world, { rules = path })
  lu.assertFalse(ok)
  return tostring(err)
end

function TestBounce:test_mistakes_name_the_file_the_path_and_the_value()
  local err = load_error(edit("wall_bounce = { vx = 10,", "wall_bounce = { vx = -10,"))
  lu.assertStrContains(err, "rules.lua:16: actions.wallblast.hit.wall_bounce.vx: -10, expected "
    .. "0..4096 (pixels per tick away from the wall)") -- line 16: where wallblast is declared
  lu.assertStrContains(load_error(edit("vx = 3, vy = 5,", "vx = 3, vy = 0,")),
    "actions.slam.hit.ground_bounce.vy: 0, expected more than 0, up to 4096")
  lu.assertStrContains(load_error(edit("stun = 25", "stun = 601")),
    "actions.slam.hit.ground_bounce.stun: 601, expected 0..600 ticks (0: the hit's hitstun)")
  lu.assertStrContains(load_error(edit("stun = 60 }", "stun = 60, speed = 3 }")),
    "actions.wallblast.hit.wall_bounce.speed: unknown field")
  lu.assertStrContains(load_error(edit("wall_bounce = { vx = 10, vy = 10, stun = 60 }",
                                       "wall_bounce = 10")),
    "actions.wallblast.hit.wall_bounce: expected { vx =, vy =, stun = }, got 10")
  lu.assertStrContains(load_error(edit("stun = 60 }", "stun = \"long\" }")),
    "actions.wallblast.hit.wall_bounce.stun: expected an integer, got string 'long'")
end

function TestBounce:test_a_reload_names_the_bounce_fields_that_changed()
  local d = duel(40, 80)
  local w, save = d.w, d.save
  w:run(2)
  save(edit("vx = 10, vy = 10, stun = 60", "vx = 12, vy = 10, stun = 40"))
  local info = assert(w:reload())
  lu.assertEquals(info.changes.changed, { "wallblast" })
  lu.assertEquals(info.changes.fields.wallblast, { "hit.wall_bounce.vx", "hit.wall_bounce.stun" })
  save(edit("ground_bounce = { vx = 3, vy = 5, stun = 25 }", "juggle = 0"))
  info = assert(w:reload())
  lu.assertEquals(info.changes.fields.slam, { "hit.ground_bounce", "hit.ground_bounce.vx",
                                             "hit.ground_bounce.vy", "hit.ground_bounce.stun" })
  lu.assertEquals(info.changes.fields.wallblast,
    { "hit.wall_bounce.vx", "hit.wall_bounce.stun" }) -- back to the file's values
end

function TestBounce:test_a_save_in_the_middle_of_a_bounce_restores_to_the_same_hashes()
  local d = duel(40, 80)
  local w = d.w
  d.p1:request("wallblast")
  d.run(4) -- armed, in the air, the wall next tick
  local snap = w:save()
  local hashes = {}
  for t = 1, 40 do
    d.run(1)
    hashes[t] = w:hash()
  end
  lu.assertEquals(#d.bounces, 1)
  w:restore(snap)
  lu.assertTrue(d.p2:combat().wall_bounce)
  for t = 1, 40 do
    d.run(1)
    lu.assertEquals(w:hash(), hashes[t], "tick " .. t)
  end
  lu.assertEquals(#d.bounces, 2) -- committed again by the re-run ticks
end

-- A projectile's hit arms a bounce the same way; stun 0 is the hit's hitstun (20 ticks). The
-- event's target is the projectile's owner.
function TestBounce:test_a_projectile_hit_arms_a_bounce_too()
  local d = duel(20, 80)
  d.p1:request("toss")
  d.run(30)
  lu.assertEquals(#d.bounces, 1)
  local b = d.bounces[1]
  lu.assertEquals({ b.bounce, b.entity, b.target, b.x }, { "wall", 2, 1, 100 })
  local stun
  for _, r in ipairs(d.w:trace()) do
    if r.text:find("wall bounce", 1, true) then stun = r.text:match("stun (%d+)$") end
  end
  lu.assertEquals(stun, "20")
end

-- combat.bounce_limit: one bounce per combo, so a blast that would bounce off the wall and then
-- the ground bounces once and lands; p:combat().bounces counts the combo's.
function TestBounce:test_the_bounce_limit_refuses_what_passes_it()
  local text = edit("wall_bounce = { vx = 10, vy = 10, stun = 60 }",
                    "wall_bounce = { vx = 10, vy = 10, stun = 60 }, ground_bounce = { vy = 3 }")
  text = text:gsub("physics = {", "combat = { bounce_limit = 1 },\n  physics = {", 1)
  local d = duel(40, 80, text)
  d.p1:request("wallblast")
  d.run(6)
  lu.assertEquals(#d.bounces, 1)
  lu.assertEquals(d.p2:combat().bounces, 1)
  lu.assertTrue(d.p2:combat().ground_bounce) -- armed, but the combo has used its bounce
  d.run(80)
  lu.assertEquals(#d.bounces, 1)
  local refused
  for _, r in ipairs(d.w:trace()) do
    if r.text:find("refused", 1, true) then refused = r.text end
  end
  lu.assertStrContains(refused, "e2 ground bounce refused (armed by e1): bounce_limit (1 of 1 "
    .. "bounces this combo)")
  lu.assertEquals(d.p2:combat().bounces, 0) -- the combo is over
  local bad = text:gsub("bounce_limit = 1", "bounce_limit = -1", 1)
  lu.assertStrContains(load_error(bad), "combat.bounce_limit: -1, expected 0..100")
end

-- Every tick rolled back 8 ticks and re-simulated through a wall bounce and a ground bounce.
function TestBounce:test_bounces_under_the_sync_test()
  local d = duel(40, 80)
  local st = d.w:synctest { check = 8 }
  local bounces = 0
  for t = 0, 150 do
    if t == 0 then d.p1:request("wallblast") end
    if t == 70 then
      d.p1:position(-40, 0)
      d.p2:position(0, 0)
    end
    if t == 75 then d.p1:request("slam") end
    local ok, report = st:advance()
    if not ok then lu.fail(report.text) end
    for _, ev in ipairs(d.w:events()) do
      if ev.kind == "bounce" then bounces = bounces + 1 end
    end
  end
  lu.assertEquals(bounces, 2)
end

os.exit(lu.LuaUnit.run())
