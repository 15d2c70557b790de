-- The good ruleset every fault starts from and goes back to.
local fg = require "framegate"
local normals = include "moves/normals.lua"

local actions = {
  idle = { neutral = true, loop = true, duration = 1 },
  hitstun = { duration = 1, tags = { "stun" }, interrupts = true },
  blockstun = { duration = 1, tags = { "stun" } },
}
for name, def in pairs(normals) do actions[name] = def end

return fg.ruleset "target" {
  buttons = { "LP", "HP" },
  resources = { health = { max = 1000, start = 1000 }, meter = { max = 300 } },
  actions = actions,
  request = function(_, req)
    if req.action == "strong" then return fg.default end
    return fg.default
  end,
  on_event = function(_, ev)
    if ev.marker == "hit" then fg.cue("spark", ev) end
  end,
}
