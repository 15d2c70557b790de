-- Requests made too early wait: in the jab's startup for its window, and during hitstop.
local scenario = require "framegate.scenario"

TestHitstopQueueing = {}

local function duel()
  local s = scenario.new { rules = "../rules.lua", seed = 7 }
  return s, s:spawn { x = -35 }, s:spawn { x = 35, facing = "left" }
end

function TestHitstopQueueing:test_hadouken_in_the_jabs_startup_waits_for_the_window()
  local s, p1 = duel()
  s:input(p1, "LP@0 2@0 3@1 6@2 LP@3 5@5")
  s:run(50)
  s:expect_decision(p1, "hadouken", "queued", "waits 1 tick for jab's window 4-12", 3)
  s:expect_decision(p1, "hadouken", "accepted", "cancels jab", 11)
  s:expect_history(p1, { "jab", "hadouken" })
  s:expect_meter("startup_queue")
end

function TestHitstopQueueing:test_both_fighters_freeze_for_the_hitstop()
  local s, p1, p2 = duel()
  s:input(p1, "LP@0")
  s:run(5)
  assert(p1:frozen() > 0 and p2:frozen() > 0, "both frozen after the jab connects")
  s:run(6)
  s:expect_meter_line(p1, "ssssA======")
  s:expect_meter_line(p2, "....x======")
end
