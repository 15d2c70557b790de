-- Holding back blocks: the strong is blocked, costs no health, and still cancels on contact.
local scenario = require "framegate.scenario"

TestBlockedStrong = {}

function TestBlockedStrong:test_strong_blocked_by_holding_back_cancels_on_contact()
  local s = scenario.new { rules = "../rules.lua", seed = 7 }
  local p1 = s:spawn { x = -35 }
  local p2 = s:spawn { x = 35, facing = "left" }
  s:input(p1, "HP@0 2@8 3@9 6@10 P@11 5@13")
  s:input(p2, "4@0 5@40")
  s:run(60)
  s:expect_history(p1, { "strong", "hadouken" })
  s:expect_resource(p2, "health", 1000)
  s:expect_decision(p1, "hadouken", "queued", "waits 6 ticks of hitstop", 11)
  s:expect_decision(p1, "hadouken", "accepted", "window 7-16 on contact", 17)
  s:expect_meter("blocked_strong")
end

function TestBlockedStrong:test_blocking_puts_the_defender_in_blockstun()
  local s = scenario.new { rules = "../rules.lua", seed = 7 }
  local p1 = s:spawn { x = -35 }
  local p2 = s:spawn { x = 35, facing = "left" }
  s:input(p1, "HP@0")
  s:input(p2, "4@0 5@40")
  s:run(20)
  s:expect_action(p2, "blockstun")
end
