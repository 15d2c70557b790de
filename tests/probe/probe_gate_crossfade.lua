-- SPDX-License-Identifier: MIT
-- probe_gate_crossfade.lua: the cross-fade probe written in Lua. Action 100 fades from attack-a
-- into attack-b and both clips report the damage marker; then action 101 begins and a late
-- callback of action 100 arrives. Only Accepted candidates reach the gameplay effect.
local fg = require "framegate"

local function scene()
  local d = fg.dispatcher { channels = 1, capacity = 4, markers = { "damage" } }
  local effects = 0
  local function hit(seq, clip, time)
    local r = d:dispatch { channel = 0, seq = seq, marker = "damage", occurrence = 0,
                           clip = clip, time = time }
    if r == "Accepted" then effects = effects + 1 end
    return r
  end
  return d, hit, function() return effects end
end

local d, hit, effects = scene()
d:begin(0, 100)
local source = hit(100, "attack-a", 0.62)
local target = hit(100, "attack-b", 0.38)
print(string.format("crossfade: action=%d source=%s target=%s effects=%d",
  100, source, target, effects()))

d, hit, effects = scene()
d:begin(0, 100)
d:begin(0, 101)
local late = hit(100, "attack-a", 0.62)
print(string.format("stale: active=%d candidate=%d result=%s effects=%d",
  d:live(0), 100, late, effects()))
