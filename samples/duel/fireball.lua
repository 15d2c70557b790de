-- SPDX-License-Identifier: MIT
-- The duelist's fireball, tick by tick: both fighters throw one (requested by this script, as an
-- AI or a host would: no input asks for the fireball action), the two meet and clash; then e1
-- throws one alone and it hits e2.
--
--   framegate run samples/duel/fireball.lua
local fg = require "framegate"

local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$")
local rules = (here and here ~= "" and here .. "/" or "samples/duel/") .. "rules.lua"
if not io.open(rules) then rules = "samples/duel/rules.lua" end

local w = fg.world { rules = rules, seed = 7 }
local p1 = w:spawn { x = -150 }
local p2 = w:spawn { x = 150, facing = "left" }

local function show(title, ticks)
  print("\n== " .. title)
  for _ = 1, ticks do
    w:advance()
    local line = {}
    for _, p in ipairs(w:projectiles()) do
      line[#line + 1] = string.format("#%d (e%d) x %g", p.id, p.owner:id(), p.x)
    end
    for _, ev in ipairs(w:events()) do
      if ev.kind == "clash" then line[#line + 1] = string.format("clash of #%d and #%d", ev.projectile, ev.other) end
      if ev.kind == "hit" and ev.projectile then
        line[#line + 1] = string.format("#%d %s e%d for %d", ev.projectile, ev.contact, ev.target, ev.damage)
      end
    end
    if #line > 0 then print(string.format("   t=%-3d %s", w:tick() - 1, table.concat(line, "   "))) end
  end
end

print("framegate duel: the fireball, rules " .. rules)
p1:request("fireball")
p2:request("fireball")
show("both throw: the fireballs clash (durability 1 each) and vanish together", 50)
p1:request("fireball")
show("e1 throws alone: the fireball hits e2", 60)
print(string.format("\n   health e1 %d  e2 %d   meter e1 %d", p1:resource("health"), p2:resource("health"),
  p1:resource("meter")))
