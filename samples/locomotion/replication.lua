-- samples/locomotion/replication.lua: who sees what, when, across the three roles.
--
--   framegate lua samples/locomotion/replication.lua
--
-- The owning client locks on and switches weapon (persistent state), dashes (a predicted action),
-- dashes again while the authority still has it on cooldown (rejected, rolled back), and an
-- observer joins late: it gets the current lock and weapon, but none of the earlier dashes.

local fg = require "framegate"

local s -- the session; hooks print with its tick

local function hooks(who)
  return {
    on_replicated = function(name, value)
      print(("%4d  %-10s applies %s = %s"):format(s:tick(), who, name, tostring(value)))
    end,
    on_action = function(name, seq, how)
      print(("%4d  %-10s %s #%d (%s)"):format(s:tick(), who, name, seq, how))
    end,
    on_rollback = function(name, seq, reason, text)
      print(("%4d  %-10s rolls back %s #%d: %s [%s]"):format(s:tick(), who, name, seq, text, reason))
    end,
  }
end

local owner = hooks "owner"
owner.latency, owner.loss = 4, 0.2

s = fg.replication {
  properties = {
    target_locked = "bool",
    weapon = { values = { "fists", "sword", "bow" }, initial = "fists" },
  },
  actions = { dash = { cooldown = 45 } },
  owner = owner,
  authority = hooks "authority",
  seed = 2024,
}
local early = hooks "observer"
early.latency, early.loss = 3, 0.2
s:join(early)

local script = {
  [0] = function() s:set("owner", "target_locked", true); s:set("owner", "weapon", "bow") end,
  [2] = function() print("      owner tries dash:", s:try "dash") end,
  [30] = function()
    s:set_cooldown("authority", "dash", 120) -- say the authority stunned the character
    print("      authority: dash held until tick 120")
  end,
  [50] = function() print("      owner tries dash:", s:try "dash") end,
  [80] = function()
    local late = hooks "late"
    late.latency = 2
    print("      a late observer joins as node " .. s:join(late))
  end,
  [130] = function() print("      owner tries dash:", s:try "dash") end,
}

for t = 0, 160 do
  if script[t] then script[t]() end
  s:advance()
end

for _, node in ipairs { "authority", "owner", 2, 3 } do
  local st = s:stats(node)
  print(("%-9s  weapon=%-5s locked=%-5s sent=%d lost=%d resent=%d"):format(tostring(node),
    s:get(node, "weapon"), tostring(s:get(node, "target_locked")), st.sent, st.lost, st.retransmitted))
end
