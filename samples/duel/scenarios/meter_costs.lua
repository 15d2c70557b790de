-- Costs are data: the shoryuken needs 100 meter, and the refusal carries the numbers.
local scenario = require "framegate.scenario"

TestMeterCosts = {}

local function duel(meter)
  local s = scenario.new { rules = "../rules.lua", seed = 7 }
  local p1 = s:spawn { x = -35 }
  local p2 = s:spawn { x = 35, facing = "left" }
  p1:resource("meter", meter)
  return s, p1, p2
end

function TestMeterCosts:test_shoryuken_without_meter_is_refused_with_the_numbers()
  local s, p1 = duel(0)
  s:input(p1, "6@0 2@2 3@4 P@5 5@7")
  s:run(20)
  s:expect_decision(p1, "shoryuken", "rejected", "shoryuken costs 100 meter, have 0", 5)
  s:expect_history(p1, {})
  s:expect_resource(p1, "meter", 0)
end

function TestMeterCosts:test_shoryuken_with_meter_spends_it()
  local s, p1, p2 = duel(100)
  s:input(p1, "6@0 2@2 3@4 P@5 5@7")
  s:run(60)
  s:expect_history(p1, { "shoryuken" })
  s:expect_resource(p1, "meter", 0)
  s:expect_resource(p2, "health", 1000 - 120)
end

function TestMeterCosts:test_hits_build_meter()
  local s, p1 = duel(0)
  s:input(p1, "LP@0")
  s:run(20)
  s:expect_resource(p1, "meter", 10)
end
