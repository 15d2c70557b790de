-- A scripted exchange between two duelists: each round plays an input script, then prints the
-- frame meter and every request decision with its reason. Rounds start from the same snapshot.
--
--   framegate run samples/duel
local fg = require "framegate"

local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$")
local rules_path = (here and here ~= "" and here .. "/" or "samples/duel/") .. "rules.lua"
local here_rules = io.open(rules_path) and rules_path or "samples/duel/rules.lua"

local w = fg.world { rules = here_rules, seed = 7 }
local p1 = w:spawn { x = -35 }
local p2 = w:spawn { x = 35, facing = "left" }
local start = w:save()

local rounds = {
  { title = "jab, cancelled into hadouken on hit (the jab-into-fireball link)",
    p1 = "LP@0 2@6 3@8 6@10 P@11 5@14", ticks = 60 },
  { title = "the same input at range: the jab whiffs, so its cancel window stays shut",
    p1 = "LP@0 2@6 3@8 6@10 P@11 5@14", ticks = 40, setup = function() p2:position(120, 0) end },
  { title = "hadouken pressed during the jab's startup waits in the queue for its window",
    p1 = "LP@0 2@0 3@1 6@2 LP@3 5@5", ticks = 50 },
  { title = "hadouken completed on the jab's first active tick waits for the jab to connect",
    p1 = "LP@0 2@1 3@2 6@3 LP@4 5@6", ticks = 50 },
  { title = "e2 holds back and blocks a strong; strong cancels into hadouken on contact",
    p1 = "HP@0 2@8 3@9 6@10 P@11 5@13", p2 = "4@0 5@40", ticks = 60 },
  { title = "shoryuken without meter is refused with the numbers",
    p1 = "6@0 2@2 3@4 P@5 5@7", ticks = 20 },
  { title = "a full bar: the super passes the data and the rule",
    p1 = "2@0 3@1 6@2 2@3 3@4 6@5 P@6 5@8", ticks = 70, setup = function() p1:resource("meter", 300) end },
  { title = "200 meter pays for the super, but the designer's rule asks for a full bar",
    p1 = "2@0 3@1 6@2 2@3 3@4 6@5 P@6 5@8", ticks = 20, setup = function() p1:resource("meter", 200) end },
  { title = "e2 crouch-blocks the sweep (a low)", p1 = "2@0 HK@1 5@3", p2 = "1@0 5@40", ticks = 50 },
  -- Hits as boxes: a juggle, a throw and its tech, a trade, an invulnerable reversal.
  { title = "launcher, cancelled on hit into a jab in the air, into a hadouken: a 3-hit juggle",
    p1 = "3@0 HP@0 5@2 LP@16 2@22 3@23 6@24 P@25 5@27", ticks = 80 },
  { title = "a throw: the tech window (7 ticks) passes and the throw lands",
    p1 = "LP@0 LK@0", ticks = 40, setup = function() p2:position(20, 0) end },
  { title = "the same throw teched: e2 asks for the throw on the 5th tick of the window",
    p1 = "LP@0 LK@0", p2 = "LP@8 LK@8", ticks = 40,
    setup = function() p2:position(20, 0) end },
  { title = "a trade: both jab on the same tick, both are hit",
    p1 = "LP@0", p2 = "LP@0", ticks = 30 },
  { title = "e2's shoryuken starts invulnerable: e1's jab passes through it",
    p1 = "LP@2", p2 = "6@0 2@1 3@2 P@3 5@4", ticks = 50, setup = function() p2:resource("meter", 100) end },
  -- The corner (samples/duel/fireball.lua shows the fireball).
  { title = "e2 blocks the super in the corner: the wall keeps it there, e1 slides back the pushback",
    p1 = "2@0 3@1 6@2 2@3 3@4 6@5 P@6 5@8", p2 = "4@0 5@60", ticks = 70,
    setup = function() p1:resource("meter", 300) p1:position(355, 0) p2:position(400, 0) end,
    after = function() return string.format("e1 x %g, e2 x %g", p1:position(), (p2:position())) end },
}

print("framegate duel: two duelists, " .. w:rate() .. " Hz, rules " .. here_rules)
for i, round in ipairs(rounds) do
  w:restore(start, { fresh = true })   -- each round is a new take, not a rollback
  w:cues()
  if round.setup then round.setup() end
  local from = w:tick()
  if round.p1 then w:play(p1, round.p1) end
  if round.p2 then w:play(p2, round.p2) end
  w:run(round.ticks)
  print(string.format("\n== %d. %s", i, round.title))
  local inputs = {}
  if round.p1 then inputs[#inputs + 1] = "e1 input: " .. round.p1 end
  if round.p2 then inputs[#inputs + 1] = "e2 input: " .. round.p2 end
  print("   " .. table.concat(inputs, "    "))
  io.write((w:meter(from, w:tick() - 1):gsub("\n(.)", "\n   %1"):gsub("^", "   ")))
  for _, d in ipairs(w:decisions()) do
    print(string.format("   t=%-3d e%d %s", d.tick, d.entity, d.text))
  end
  local cues = {}
  for _, c in ipairs(w:cues()) do cues[#cues + 1] = c.name .. "@" .. c.tick end
  if #cues > 0 then print("   cues: " .. table.concat(cues, " ")) end
  print(string.format("   health e1 %d  e2 %d   meter e1 %d", p1:resource("health"),
    p2:resource("health"), p1:resource("meter")))
  if round.after then print("   " .. round.after()) end
end
