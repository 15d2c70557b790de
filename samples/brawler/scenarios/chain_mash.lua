-- The brawler's chains as a player mashes them: P, P, K pressed during the jab's hitstop comes
-- out as jab, straight, roundhouse, with one line per press; 236P three times is the rekka; a
-- follow-up pressed from neutral says what it follows; a "latest" queue shows what FIFO keeps.
local scenario = require "framegate.scenario"
local fg = require "framegate"
local lu = require "luaunit"

-- This file's folder, for reading the rules it plays with.
local HERE = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."

TestChainMash = {}

local function duel(rules)
  local s = scenario.new { rules = rules or "../rules.lua", seed = 7 }
  return s, s:spawn { x = -35 }, s:spawn { x = 35, facing = "left" }
end

local function decisions(s, p)
  local out = {}
  for _, d in ipairs(s.world:decisions(p)) do out[#out + 1] = ("t=%d %s"):format(d.tick, d.text) end
  return out
end

function TestChainMash:test_p_p_k_mashed_during_hitstop_keeps_the_chain()
  local s, p1, p2 = duel()
  -- The jab connects on tick 4 and both freeze for 8 ticks (5-12): P, P, K, P, K land in it.
  s:input(p1, "LP@0 LP@6 LP@7 LK@9 LP@10 LK@11")
  s:run(90)
  s:expect_history(p1, { "jab", "straight", "roundhouse" })
  lu.assertEquals(decisions(s, p1), {
    "t=0 accepted: jab from idle",
    "t=6 queued: straight waits 7 ticks of hitstop",
    "t=7 queued: straight waits 6 ticks of hitstop",
    "t=9 queued: roundhouse waits 4 ticks of hitstop, behind straight (fifo queue, 2 of 3)",
    "t=10 queued: straight waits 3 ticks of hitstop",
    "t=11 queued: roundhouse waits 2 ticks of hitstop, behind straight (fifo queue, 2 of 3)",
    "t=13 accepted: straight cancels jab at tick 5 (window 4-15 on contact)",
    "t=14 queued: roundhouse waits 4 ticks for straight's window 5-18",
    "t=27 accepted: roundhouse cancels straight at tick 6 (window 5-18 on contact)",
  })
  s:expect_committed("hit", 3)
  s:expect_resource(p2, "health", 1000 - 20 - 30 - 50)
end

function TestChainMash:test_a_latest_queue_loses_the_chain_and_says_so()
  local f = assert(io.open(HERE .. "/../rules.lua"))
  local src = f:read("a"):gsub('queue     = { depth = 3, order = "fifo" }', 'queue = { order = "latest" }')
  f:close()
  local s, p1 = duel(fg.rules(HERE .. "/../rules.lua", src))
  s:input(p1, "LP@0 LP@6 LK@9")
  s:run(90)
  s:expect_decision(p1, "straight", "replaced", "replaced: straight by roundhouse (queue: latest)", 9)
  s:expect_history(p1, { "jab" })
end

function TestChainMash:test_236p_three_times_is_the_rekka()
  local s, p1 = duel()
  s:input(p1, "2@0 3@1 6@2 LP@3 5@5 2@14 3@15 6@16 LP@17 5@18 2@22 3@23 6@24 HP@25 5@26")
  s:run(90)
  s:expect_history(p1, { "rekka1", "rekka2", "rekka3" })
  s:expect_decision(p1, "rekka3", "accepted", "rekka3 cancels rekka2", 36)
end

function TestChainMash:test_a_followup_from_neutral_names_what_it_follows()
  local s, p1 = duel()
  s.world:request(p1, "straight")
  s:run(2)
  s:expect_decision(p1, "straight", "rejected",
    "rejected: straight is a follow-up: it starts only from a cancel window (of jab), and idle runs")
  -- The P press from neutral is the jab, never the straight.
  s:input(p1, "LP@0")
  s:run(2)
  s:expect_action(p1, "jab")
end
