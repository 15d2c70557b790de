-- The duelist's bread and butter: a jab that connects opens a cancel window into specials.
local scenario = require "framegate.scenario"

TestJabIntoHadouken = {}

local function duel()
  local s = scenario.new { rules = "../rules.lua", seed = 7 }
  return s, s:spawn { x = -35 }, s:spawn { x = 35, facing = "left" }
end

function TestJabIntoHadouken:test_jab_on_hit_cancels_into_hadouken()
  local s, p1, p2 = duel()
  s:input(p1, "LP@0 2@6 3@8 6@10 P@11 5@14")
  s:run(60)
  s:expect_history(p1, { "jab", "hadouken" })
  s:expect_decision(p1, "hadouken", "accepted", "cancels jab at tick 5 (window 4-12 on hit)", 11)
  s:expect_committed("hit", 2)
  s:expect_resource(p2, "health", 1000 - 30 - 60)
  s:expect_resource(p1, "meter", 10 + 30)
  s:expect_meter("jab_into_hadouken")
end

function TestJabIntoHadouken:test_hadouken_runs_its_startup_after_the_cancel()
  local s, p1 = duel()
  s:input(p1, "LP@0 2@6 3@8 6@10 P@11 5@14")
  s:run(14)
  s:expect_action(p1, "hadouken")
  s:expect_state(p1, { contains = "hadouken (startup" })
end
