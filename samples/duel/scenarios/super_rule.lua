-- The super costs 200, but the designer's request rule asks for a full bar: the rule decides
-- beyond the data, and says so.
local scenario = require "framegate.scenario"

TestSuperRule = {}

local SUPER = "2@0 3@1 6@2 2@3 3@4 6@5 P@6 5@8"

local function duel(meter)
  local s = scenario.new { rules = "../rules.lua", seed = 7 }
  local p1 = s:spawn { x = -35 }
  local p2 = s:spawn { x = 35, facing = "left" }
  p1:resource("meter", meter)
  return s, p1, p2
end

function TestSuperRule:test_super_with_200_meter_is_refused_by_the_rule()
  local s, p1 = duel(200)
  s:input(p1, SUPER)
  s:run(20)
  local d = s:expect_decision(p1, "super", "rejected", "super needs a full bar (200/300)", 6)
  assert(d.reason == "rule_reject", d.reason)
  s:expect_resource(p1, "meter", 200)
end

function TestSuperRule:test_super_with_a_full_bar_passes_data_and_rule()
  local s, p1, p2 = duel(300)
  s:input(p1, SUPER)
  s:run(70)
  s:expect_history(p1, { "super" })
  s:expect_resource(p1, "meter", 100)
  s:expect_resource(p2, "health", 750)
  s:expect_meter("super_full_bar")
end
