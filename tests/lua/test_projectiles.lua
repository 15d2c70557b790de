-- SPDX-License-Identifier: MIT
-- test_projectiles.lua: projectiles declared in Lua: spawned on their marker's tick, moving,
-- hitting once and vanishing, clashing by durability, leaving the stage or their lifetime,
-- refused at their limit or with the pool full, opening the owner's cancel windows when their
-- data says so; in snapshots and under the sync test; mistakes reported with path and value.
local lu = require "luaunit"
local fg = require "framegate"

local function hit(damage) return { damage = damage, hitstop = 0, hitstun = 20, blockstun = 10 } end
local ball = { { x = -10, y = 40, w = 20, h = 20 } }

local function declaration(over, slow_hurt)
  local decl = {
    buttons = { "LP", "HP" },
    resources = { health = { max = 1000, start = 1000 } },
    physics = { gravity = -0.5, stage_min = -400, stage_max = 400 },
    boxes = { hurt = { x = -20, y = 0, w = 40, h = 100 }, push = { x = -15, y = 0, w = 30, h = 90 } },
    projectiles = {
      fireball = { vx = 10, lifetime = 80, limit = 1, boxes = ball, hit = hit(50) },
      heavy = { vx = 10, lifetime = 80, durability = 2, boxes = ball, hit = hit(70) },
      high = { vx = 10, lifetime = 200, boxes = { { x = -10, y = 150, w = 20, h = 20 } }, hit = hit(1) },
      puff = { vx = 0, lifetime = 5, boxes = ball, hit = hit(1) },
      opener = { vx = 10, lifetime = 80, opens_cancels = true, boxes = ball, hit = hit(10) },
      -- A slow one with a hurt box: a fighter's swing can take its durability away.
      slow = { vx = 2, lifetime = 200, durability = 2,
               boxes = { ball[1], slow_hurt ~= false and { "hurt", x = -12, y = 38, w = 24, h = 24 } or nil },
               hit = hit(40) },
    },
    actions = {
      idle = { neutral = true, loop = true, duration = 1 },
      hitstun = { duration = 1, interrupts = true },
      blockstun = { duration = 1 },
      jab = { startup = 3, active = 2, recovery = 6,
              boxes = { { "hit", from = 3, to = 4, x = 20, y = 50, w = 40, h = 20 } }, hit = hit(5) },
    },
  }
  for _, kind in ipairs { "fireball", "heavy", "high", "puff", "opener", "slow" } do
    decl.actions["fire_" .. kind] = {
      startup = 10, active = 1, recovery = 50, markers = { { tick = 10, marker = "spawn" } },
      spawn = { kind, x = 30, y = 0 },
      cancels = { { from = 11, to = 60, on = "hit", into = { "jab" } } } }
  end
  for k, v in pairs(over or {}) do decl[k] = v end
  return fg.ruleset "thrower"(decl)
end

local function duel(x1, x2, opts)
  opts = opts or {}
  local w = fg.world { rules = declaration(opts.decl), projectiles = opts.pool, seed = 3 }
  local p1 = w:spawn { x = x1 }
  local p2 = w:spawn { x = x2, facing = "left" }
  return w, p1, p2
end

local function trace_with(w, text)
  local found = {}
  for _, r in ipairs(w:trace()) do
    if r.text:find(text, 1, true) then found[#found + 1] = r.text end
  end
  return found
end

TestProjectiles = {}

function TestProjectiles:test_spawns_on_the_marker_tick_and_travels()
  local w, p1 = duel(-300, 300)
  p1:request("fire_fireball") -- decided on the next tick, t0: the marker is on t0 + 10
  local t0 = w:tick()
  w:run(10)
  lu.assertEquals(#w:projectiles(), 0, "not before the marker's tick")
  w:run(1)
  local list = w:projectiles()
  lu.assertEquals(#list, 1)
  local p = list[1]
  lu.assertEquals({ p.id, p.name, p.owner:id(), p.x, p.y, p.age, p.hits, p.durability, p.facing },
    { 1, "fireball", 1, -270, 0, 0, 1, 1, "right" })
  lu.assertEquals(#trace_with(w, "projectile 1 of e1's fire_fireball: spawned at x -270"), 1)
  lu.assertEquals(w:tick(), t0 + 11)
  w:run(3)
  p = w:projectiles()[1]
  lu.assertEquals({ p.x, p.prev_x, p.age }, { -240, -250, 3 })
  lu.assertEquals(p.boxes[1], { kind = "hit", x0 = -250, y0 = 40, x1 = -230, y1 = 60, index = 1 })
end

function TestProjectiles:test_hits_once_and_vanishes()
  local hits = {}
  local w, p1, p2 = duel(-300, 0, { decl = { on_event = function(_, ev)
    if ev.kind == "hit" then hits[#hits + 1] = ev end
  end } })
  p1:request("fire_fireball")
  w:run(11)
  -- from -270 at 10 px a tick, its box (x +-10) meets p2's hurt box (-20..20) at x = -30,
  -- reached by the 24th movement; the collision of the tick after tests it
  w:run(24)
  lu.assertEquals(w:projectiles()[1].x, -30)
  lu.assertEquals(p2:resource("health"), 1000)
  w:run(1)
  lu.assertEquals(p2:resource("health"), 950)
  lu.assertEquals(#w:projectiles(), 0, "spent: gone at the end of its hit's tick")
  lu.assertEquals(#hits, 1)
  lu.assertEquals({ hits[1].entity, hits[1].target, hits[1].projectile, hits[1].contact, hits[1].damage },
    { 1, 2, 1, "hit", 50 })
  lu.assertEquals(#trace_with(w, "projectile 1 of e1's fire_fireball: spent"), 1)
  w:run(40)
  lu.assertEquals(p2:resource("health"), 950)
end

function TestProjectiles:test_equal_durability_clash_and_vanish_together()
  local clashes = {}
  local w, p1, p2 = duel(-200, 200, { decl = { on_event = function(_, ev)
    if ev.kind == "clash" then clashes[#clashes + 1] = ev end
  end } })
  p1:request("fire_fireball")
  p2:request("fire_fireball")
  w:run(11)
  lu.assertEquals(#w:projectiles(), 2)
  w:run(30)
  lu.assertEquals(#w:projectiles(), 0)
  lu.assertEquals(#clashes, 1)
  lu.assertEquals({ clashes[1].entity, clashes[1].target, clashes[1].projectile, clashes[1].other },
    { 1, 2, 1, 2 })
  lu.assertEquals(#trace_with(w, "clashed with projectile"), 2)
  w:run(40)
  lu.assertEquals({ p1:resource("health"), p2:resource("health") }, { 1000, 1000 })
end

function TestProjectiles:test_the_stronger_one_goes_on_weakened()
  local w, p1, p2 = duel(-200, 200)
  p1:request("fire_heavy")
  p2:request("fire_fireball")
  w:run(11)
  w:run(20)
  local list = w:projectiles()
  lu.assertEquals(#list, 1)
  lu.assertEquals({ list[1].name, list[1].durability, list[1].owner:id() }, { "heavy", 1, 1 })
  w:run(40)
  lu.assertEquals({ p1:resource("health"), p2:resource("health") }, { 1000, 930 })
end

function TestProjectiles:test_leaves_the_stage_and_is_removed()
  local w, p1 = duel(200, 300)
  p1:request("fire_high") -- flies over e2's head (150 up), on to the wall at 400
  w:run(11)
  lu.assertEquals(w:projectiles()[1].x, 230)
  w:run(17) -- 230 + 17 * 10 = 400: still on the stage
  lu.assertEquals(w:projectiles()[1].x, 400)
  w:run(1)
  lu.assertEquals(#w:projectiles(), 0)
  lu.assertEquals(#trace_with(w, "fire_high: left the stage"), 1)
end

function TestProjectiles:test_lifetime_ends_it()
  local w, p1 = duel(-300, 300)
  p1:request("fire_puff")
  w:run(11)
  w:run(4)
  lu.assertEquals(w:projectiles()[1].age, 4)
  w:run(1)
  lu.assertEquals(#w:projectiles(), 0)
  lu.assertEquals(#trace_with(w, "fire_puff: expired"), 1)
end

function TestProjectiles:test_limit_and_a_full_pool_refuse_with_a_trace()
  local w, p1 = duel(-300, 300)
  p1:request("fire_fireball")
  w:run(11)
  w:spawn_projectile(p1, "heavy")
  lu.assertErrorMsgContains("spawn_projectile: e1 has 1 'fireball' already (limit)",
    w.spawn_projectile, w, p1, "fireball")
  w:run(70) -- the first one is gone at the wall
  local small, q1, q2 = duel(-300, 300, { pool = 1 })
  q1:request("fire_fireball")
  q2:request("fire_high")
  small:run(11)
  lu.assertEquals(#small:projectiles(), 1)
  lu.assertEquals(#trace_with(small, "refused (pool full), 1 already"), 1)
  lu.assertErrorMsgContains("spawn_projectile: the pool is full (1 projectiles",
    small.spawn_projectile, small, q2, "puff")
  lu.assertErrorMsgContains("spawn_projectile: 'nope' is not a projectile of 'thrower'",
    w.spawn_projectile, w, p1, "nope")
end

-- With opens_cancels, the projectile's hit opens the window "on hit" of the action that threw
-- it; without, the window stays shut.
local function jab_after_hit(kind)
  local w, p1, p2 = duel(-150, 0)
  p1:request("fire_" .. kind)
  w:run(11 + 10) -- -120 + 9 * 10 meets p2 at -30: hit on the 9th tick after the spawn
  lu.assertTrue(p2:resource("health") < 1000)
  p1:request("jab")
  w:run(1)
  return p1:state()
end

function TestProjectiles:test_a_hit_opens_the_owners_cancels_only_when_the_data_says_so()
  lu.assertStrContains(jab_after_hit("opener"), "jab")
  lu.assertStrContains(jab_after_hit("fireball"), "fire_fireball")
end

-- p2's jab (hit box x -60..-20 facing left, y 50..70) meets the slow one's hurt box while it
-- flies from -70 at 2 px a tick: each swing takes one durability, however many of its active
-- ticks touch, and the second swing ends it before it reaches p2. A strike is no contact: no
-- hit event, no damage either way.
function TestProjectiles:test_a_swing_on_a_hurt_box_takes_one_durability()
  local struck, hits = {}, 0
  local w, p1, p2 = duel(-100, 0, { decl = { on_event = function(_, ev)
    if ev.kind == "struck" then struck[#struck + 1] = ev end
    if ev.kind == "hit" then hits = hits + 1 end
  end } })
  p1:request("fire_slow")
  w:run(11)
  local pr = w:projectiles()[1]
  lu.assertEquals({ pr.name, pr.x, pr.durability }, { "slow", -70, 2 })
  lu.assertEquals(pr.boxes[2], { kind = "hurt", x0 = -82, y0 = 38, x1 = -58, y1 = 62, index = 2 })
  p2:request("jab")
  w:run(8)
  lu.assertEquals(#struck, 1, "one swing, one strike")
  lu.assertEquals(w:projectiles()[1].durability, 1)
  lu.assertEquals({ struck[1].entity, struck[1].target, struck[1].projectile, struck[1].action },
    { 2, 1, 1, "jab" })
  lu.assertEquals(#trace_with(w, "projectile 1 of e1's fire_slow: struck by e2"), 1)
  w:run(4)
  p2:request("jab")
  w:run(8)
  lu.assertEquals(#struck, 2)
  lu.assertEquals(#w:projectiles(), 0, "struck to 0 durability: gone")
  w:run(60)
  lu.assertEquals({ hits, p1:resource("health"), p2:resource("health") }, { 0, 1000, 1000 })
end

-- A world whose first rules have no hurt boxes on any kind, then a reload that adds one: the
-- strikes start with the new rules (the world notes each ruleset version as it joins).
function TestProjectiles:test_a_reload_that_adds_hurt_boxes_makes_strikes_happen()
  local struck = 0
  local hook = function(_, ev) if ev.kind == "struck" then struck = struck + 1 end end
  local w = fg.world { rules = declaration({ on_event = hook }, false), seed = 3 }
  local p1 = w:spawn { x = -100 }
  local p2 = w:spawn { x = 0, facing = "left" }
  local with_hurt = declaration { on_event = hook }
  assert(w:reload(with_hurt))
  p1:request("fire_slow")
  w:run(11)
  p2:request("jab")
  w:run(8)
  lu.assertEquals(struck, 1)
  lu.assertEquals(w:projectiles()[1].durability, 1)
end

function TestProjectiles:test_without_hurt_boxes_a_swing_passes_through()
  local struck = 0
  local w, p1, p2 = duel(-100, 0, { decl = { on_event = function(_, ev)
    if ev.kind == "struck" then struck = struck + 1 end
  end } })
  p1:request("fire_heavy")
  w:run(11)
  p2:request("jab")
  w:run(30)
  lu.assertEquals(struck, 0)
  lu.assertTrue(p2:resource("health") < 1000)
end

function TestProjectiles:test_strikes_under_snapshots_and_the_sync_test()
  local w, p1, p2 = duel(-100, 0)
  p1:request("fire_slow")
  w:run(11)
  p2:request("jab")
  w:run(8)
  lu.assertEquals(w:projectiles()[1].durability, 1)
  local snap, h = w:save(), w:hash()
  p2:request("jab")
  w:run(20)
  local after = w:hash()
  w:restore(snap)
  lu.assertEquals(w:hash(), h)
  p2:request("jab")
  w:run(20)
  lu.assertEquals(w:hash(), after)

  local s, q1, q2 = duel(-100, 0)
  local st = s:synctest { check = 8 }
  local script = { [0] = { q1, "fire_slow" }, [11] = { q2, "jab" }, [23] = { q2, "jab" },
                   [70] = { q1, "fire_slow" }, [81] = { q2, "jab" } }
  local struck = 0
  for t = 0, 150 do
    if script[t] then script[t][1]:request(script[t][2]) end
    local ok, report = st:advance()
    if not ok then lu.fail(report.text) end
  end
  for _, r in ipairs(s:trace()) do
    if r.text:find("struck by e2", 1, true) then struck = struck + 1 end
  end
  lu.assertEquals(struck, 3, "strikes under the sync test")
end

function TestProjectiles:test_snapshots_and_the_sync_test_cover_them()
  local w, p1, p2 = duel(-200, 200)
  p1:request("fire_heavy")
  p2:request("fire_fireball")
  w:run(15)
  local snap, h = w:save(), w:hash()
  w:run(30)
  local after = w:hash()
  w:restore(snap)
  lu.assertEquals(w:hash(), h)
  lu.assertEquals(#w:projectiles(), 2)
  w:run(30)
  lu.assertEquals(w:hash(), after)

  local s, q1, q2 = duel(-200, 200)
  local st = s:synctest { check = 8 }
  local script = { [0] = { q1, "fire_heavy" }, [2] = { q2, "fire_fireball" },
                   [70] = { q2, "fire_opener" }, [75] = { q1, "fire_fireball" } }
  for t = 0, 160 do
    if script[t] then script[t][1]:request(script[t][2]) end
    local ok, report = st:advance()
    if not ok then lu.fail(report.text) end
  end
  lu.assertTrue(q2:resource("health") < 1000)
end

function TestProjectiles:test_mistakes_name_their_path_and_value()
  local function fails(over, msg)
    local ok, err = pcall(declaration, over)
    if ok then ok, err = pcall(fg.world, { rules = err }) end
    lu.assertFalse(ok)
    lu.assertStrContains(tostring(err), msg)
  end
  lu.assertNotNil(fg.world { rules = declaration() })
  fails({ projectiles = { f = { vx = 1, lifetime = 0, boxes = ball, hit = hit(1) } } },
    "projectiles.f.lifetime: 0, expected 1..3600")
  fails({ projectiles = { f = { vx = 1, boxes = ball, hit = hit(1), durability = 300 } } },
    "projectiles.f.durability: 300, expected 1..255")
  fails({ projectiles = { f = { vx = 1, hit = hit(1) } } },
    "projectiles.f.boxes: 0 boxes, expected 1..4 boxes")
  local function only(kind) return { { kind, x = 0, y = 0, w = 5, h = 5 } } end
  fails({ projectiles = { f = { vx = 1, boxes = only("hurt"), hit = hit(1) } } },
    "projectiles.f.boxes: only hurt boxes: a projectile needs a hit box to strike with")
  fails({ projectiles = { f = { vx = 1, boxes = only("push"), hit = hit(1) } } },
    "projectiles.f.boxes[1]: kind push, a projectile's boxes are hit boxes or hurt boxes")
  fails({ projectiles = { f = { vx = 1, boxes = ball } } }, "projectiles.f.hit: a projectile needs a hit definition")
  fails({ projectiles = { f = { speed = 1, boxes = ball, hit = hit(1) } } }, "projectiles.f.speed")
  fails({ actions = { idle = { neutral = true, loop = true, duration = 1 },
                      hitstun = { duration = 1 }, blockstun = { duration = 1 },
                      f = { startup = 2, recovery = 2, markers = { { tick = 1, marker = "go" } },
                            spawn = { "fireblal" } } } },
    "actions.f.spawn.projectile: 'fireblal' is not a projectile "
      .. "(projectiles: fireball, heavy, high, opener, puff, slow)")
  fails({ actions = { idle = { neutral = true, loop = true, duration = 1 },
                      hitstun = { duration = 1 }, blockstun = { duration = 1 },
                      f = { startup = 2, recovery = 2, spawn = { "fireball" } } } },
    "actions.f.spawn.marker: 'spawn' is not a marker of f")
end

-- The sample duelist: fireballs that clash, one that hits, the super blocked in the corner, all
-- under the sync test at distance 8 on every tick.
function TestProjectiles:test_the_duel_sample_under_the_sync_test()
  local samples = os.getenv("FG_SAMPLES") or "samples"
  local w = fg.world { rules = samples .. "/duel/rules.lua", seed = 7 }
  local p1 = w:spawn { x = -150 }
  local p2 = w:spawn { x = 150, facing = "left" }
  local st = w:synctest { check = 8 }
  local requests = { [0] = { p1, p2 }, [60] = { p1 } }
  local seen, clashes, hits = {}, 0, 0
  for t = 0, 150 do
    for _, p in ipairs(requests[t] or {}) do p:request("fireball") end
    local ok, report = st:advance()
    if not ok then lu.fail(report.text) end
    for _, p in ipairs(w:projectiles()) do seen[p.id] = true end
    for _, ev in ipairs(w:events()) do
      if ev.kind == "clash" then clashes = clashes + 1 end
      if ev.kind == "hit" and ev.projectile then hits = hits + 1 end
    end
  end
  lu.assertEquals(#seen, 3, "two clashed, the third flew")
  lu.assertEquals({ clashes, hits }, { 1, 1 })
  lu.assertEquals(p2:resource("health"), 940)
  lu.assertEquals(#w:projectiles(), 0)
  -- The corner: e2 at the wall blocks the super, e1 slides back the block's pushback (16).
  p1:resource("meter", 300)
  p1:position(355, 0)
  p2:position(400, 0)
  w:play(p2, "4@0 5@60")
  w:play(p1, "2@0 3@1 6@2 2@3 3@4 6@5 P@6 5@8")
  for _ = 1, 70 do
    local ok, report = st:advance()
    if not ok then lu.fail(report.text) end
  end
  lu.assertEquals({ p1:position(), (p2:position()) }, { 346, 400 }) -- 362 when the super met e2
end

os.exit(lu.LuaUnit.run())
