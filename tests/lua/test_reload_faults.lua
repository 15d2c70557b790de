-- SPDX-License-Identifier: MIT
-- test_reload_faults.lua: fault injection. Each bad ruleset of tests/fault/ is saved over the
-- good one in the middle of a running scenario and reloaded. For each: the message names file,
-- line and what went wrong; the world's hash is what it would have been without the fault; and
-- the next good reload works.
local lu = require "luaunit"
local fg = require "framegate"

local FAULTS = "tests/fault"
local faults = dofile(FAULTS .. "/faults.lua")

local function sh(cmd) assert(os.execute(cmd), cmd) end

local function tmpdir()
  local d = os.tmpname()
  os.remove(d)
  sh("mkdir -p '" .. d .. "'")
  return d
end

local function install(from, to) sh(("cp -R '%s'/. '%s'/"):format(from, to)) end

-- A running scenario over a copy of the good rules: two fighters, the jab has connected.
local function start()
  local dir = tmpdir()
  install(FAULTS .. "/good", dir)
  local w = fg.world { rules = dir .. "/rules.lua", seed = 3 }
  local p1 = w:spawn { x = -35 }
  local p2 = w:spawn { x = 35, facing = "left" }
  w:play(p1, "LP@0")
  w:run(30)
  return { dir = dir, w = w, p1 = p1, p2 = p2 }
end

local function assert_message(fault, msg)
  lu.assertIsString(msg, fault.dir .. ": no message")
  for _, part in ipairs(fault.expect) do
    lu.assertStrContains(msg, part, false, fault.dir)
  end
end

-- The good rules come back and work: a jab is accepted again.
local function good_reload_works(s, fault)
  sh(("rm -rf '%s'/*"):format(s.dir))
  install(FAULTS .. "/good", s.dir)
  local info, err = s.w:reload()
  lu.assertNotNil(info, fault.dir .. ": the next good reload failed: " .. tostring(err))
  s.w:run(20)
  s.p1:request("jab")
  s.w:run(1)
  lu.assertEquals(s.p1:decision().decision, "accepted", fault.dir)
end

local function check(fault)
  local s = start()
  local w = s.w
  install(FAULTS .. "/" .. fault.dir, s.dir)
  if fault.stage == "reload" then
    local before = w:hash()
    local info, err = w:reload()
    lu.assertNil(info, fault.dir .. ": the reload should fail")
    assert_message(fault, err)
    lu.assertEquals(w:hash(), before, fault.dir .. ": the failed reload changed the world")
    local traced = false
    for _, r in ipairs(w:trace()) do traced = traced or r.text:find("reload failed:", 1, true) ~= nil end
    lu.assertTrue(traced, fault.dir .. ": the failed reload is not in the trace")
    -- The old rules keep running.
    s.p1:request("jab")
    w:run(1)
    lu.assertEquals(s.p1:decision().decision, "accepted", fault.dir)
  elseif fault.stage == "request" then
    local info, err = w:reload()
    lu.assertNotNil(info, fault.dir .. ": " .. tostring(err))
    local snap = w:save()
    s.p1:request("strong")
    w:run(1)
    local d = s.p1:decision()
    lu.assertEquals(d.reason, "rule_error", fault.dir)
    lu.assertStrContains(d.text, "dropped: strong, the request rule failed: ")
    local msg -- the trace keeps more of the message than the decision
    for _, r in ipairs(w:trace()) do
      if r.text:find("rule error:", 1, true) then msg = r.text end
    end
    assert_message(fault, msg)
    local after = w:hash()
    w:restore(snap)
    w:run(1)
    lu.assertEquals(after, w:hash(), fault.dir .. ": the failing rule changed the world")
  else -- event: the hook fails after the tick; gameplay is the same as with the good hook
    local twin = start()
    local info, err = w:reload()
    lu.assertNotNil(info, fault.dir .. ": " .. tostring(err))
    lu.assertNotNil(twin.w:reload())
    for _, x in ipairs { s, twin } do
      x.w:cues() -- drains the cue of the jab before the reload
      x.w:play(x.p1, "HP@0")
      x.w:run(30)
    end
    local msg
    for _, r in ipairs(w:trace()) do
      if r.text:find("rule error:", 1, true) then msg = r.text end
    end
    assert_message(fault, msg)
    lu.assertEquals(w:hash(), twin.w:hash(), fault.dir .. ": the failing hook changed the world")
    lu.assertEquals(#w:cues(), 0)
    lu.assertEquals(#twin.w:cues(), 1)
  end
  good_reload_works(s, fault)
end

TestReloadFaults = {}

function TestReloadFaults:test_manifest_has_at_least_20_kinds_each_with_a_folder()
  lu.assertTrue(#faults >= 20)
  for _, f in ipairs(faults) do
    local h = io.open(FAULTS .. "/" .. f.dir .. "/rules.lua") or io.open(FAULTS .. "/" .. f.dir .. "/moves/normals.lua")
    lu.assertNotNil(h, f.dir)
    h:close()
  end
end

for _, fault in ipairs(faults) do
  TestReloadFaults["test_" .. fault.dir .. "_is_refused_or_dropped_and_nothing_changes"] = function()
    check(fault)
  end
end

os.exit(lu.LuaUnit.run())
