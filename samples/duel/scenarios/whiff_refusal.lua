-- A jab that whiffs keeps its cancel window shut, and the refusal says why.
local scenario = require "framegate.scenario"

TestWhiffRefusal = {}

function TestWhiffRefusal:test_whiffed_jab_refuses_the_hadouken_with_its_reason()
  local s = scenario.new { rules = "../rules.lua", seed = 7 }
  local p1 = s:spawn { x = -35 }
  local p2 = s:spawn { x = 35, facing = "left" }
  p2:position(120, 0)
  s:input(p1, "LP@0 2@6 3@8 6@10 P@11 5@14")
  s:run(40)
  s:expect_history(p1, { "jab" })
  s:expect_decision(p1, "hadouken", "rejected",
    "jab is in recovery (tick 11 of 13); cancel window 4-12 opens on hit, last attack whiffed", 11)
  s:expect_not_accepted(p1, "hadouken")
  s:expect_committed("hit", 0) -- a whiff: no box touched, nothing committed
  s:expect_resource(p2, "health", 1000)
  s:expect_meter_line(p1, "ssssAArrrrrrr" .. ("."):rep(27))
end
