-- SPDX-License-Identifier: MIT
-- The stress fighter: the sample duelist grown to 40 actions and 30 motion patterns on two
-- layers, with a Lua request rule and a Lua presentation hook. Used by bench_stress.
local fg = require "framegate"

local motions = {
  hadouken = { "236P", priority = 5 }, shoryuken = { "623P", priority = 10 },
  tatsu = { "214K", priority = 5 }, dash = { "66", window = 10 }, backdash = { "44", window = 10 },
  super = { "236236P", window = 30, priority = 20 }, super_kick = { "214214K", window = 30, priority = 20 },
  half_circle = { "41236P", window = 20, priority = 8 }, half_circle_back = { "63214P", window = 20, priority = 8 },
  rising_kick = { "623K", priority = 10 }, fireball_kick = { "236K", priority = 5 },
  palm = { "214P", priority = 5 }, stomp = { "22P", priority = 4 }, stomp_kick = { "22K", priority = 4 },
  reverse_dp = { "421P", priority = 9 }, reverse_dp_kick = { "421K", priority = 9 },
  half_circle_kick = { "41236K", window = 20, priority = 8 },
  half_circle_back_kick = { "63214K", window = 20, priority = 8 },
  hadouken_light = { "236LP", priority = 6 }, hadouken_heavy = { "236HP", priority = 6 },
  shoryuken_light = { "623LP", priority = 11 }, shoryuken_heavy = { "623HP", priority = 11 },
  tatsu_light = { "214LK", priority = 6 }, tatsu_heavy = { "214HK", priority = 6 },
  overhead = { "6HP", priority = 2 }, slide = { "3HK", priority = 2 }, low_short = { "2LK", priority = 1 },
  low_jab = { "2LP", priority = 1 }, step_kick = { "6LK", priority = 2 }, sweep = { "2HK", priority = 1 },
}

local actions = {
  idle = { neutral = true, loop = true, duration = 1 },
  walk_forward = { hold = "6", loop = true, duration = 1, move = { { from = 0, to = 0, vx = 3.5 } } },
  walk_back = { hold = "4", loop = true, duration = 1, move = { { from = 0, to = 0, vx = -3 } } },
  crouch = { hold = "2", priority = 1, loop = true, duration = 1 },
  jump = { input = "8", group = "airborne", requires = "grounded", startup = 4, recovery = 56,
           tags = { "movement" }, move = { { from = 4, to = 4, vy = 11 } } },
  jump_forward = { input = "9", group = "airborne", requires = "grounded", startup = 4, recovery = 56,
                   tags = { "movement" }, move = { { from = 4, to = 4, vx = 4, vy = 11 } } },
  jump_back = { input = "7", group = "airborne", requires = "grounded", startup = 4, recovery = 56,
                tags = { "movement" }, move = { { from = 4, to = 4, vx = -3.5, vy = 11 } } },
  hitstun = { duration = 1, tags = { "stun" }, interrupts = true },
  blockstun = { duration = 1, tags = { "stun" } },
  upper_idle = { layer = "upper", neutral = true, loop = true, duration = 1 },
  taunt = { layer = "upper", input = "LK+HK", startup = 10, active = 20, recovery = 10,
            tags = { "emote" }, forbids = { "movement" } },
}

-- Button normals: quick, cancellable into specials on hit.
local normals = { jab = "LP", strong = "HP", short = "LK", forward = "HK" }
for name, button in pairs(normals) do
  local heavy = button:sub(1, 1) == "H"
  actions[name] = {
    input = button, requires = "grounded", startup = heavy and 7 or 4, active = heavy and 3 or 2,
    recovery = heavy and 16 or 7, tags = { "normal", "attack" },
    markers = { { tick = heavy and 7 or 4, marker = "hit" } },
    hit = { damage = heavy and 80 or 30, range = heavy and 90 or 70, hitstop = heavy and 9 or 6,
            hitstun = heavy and 20 or 13, blockstun = heavy and 15 or 9, meter = 10 },
    cancels = { { from = heavy and 7 or 4, to = heavy and 16 or 10, on = "contact",
                  into = { "special", "super" }, buffer = 4 } },
  }
end

-- Every motion requests the action of its name.
for name in pairs(motions) do
  local super = name:find("super", 1, true) ~= nil
  local move = name == "dash" or name == "backdash"
  actions[name] = {
    requires = "grounded",
    startup = super and 5 or (move and 2 or 10), active = super and 6 or (move and 10 or 3),
    recovery = super and 40 or (move and 6 or 24),
    tags = { super and "super" or (move and "movement" or "special"), "attack" },
    cost = super and { meter = 100 } or nil,
    markers = (not move) and { { tick = super and 5 or 10, marker = "hit" } } or nil,
    hit = (not move) and { damage = super and 200 or 60, range = 120, hitstop = 6, hitstun = 18,
                           blockstun = 12, meter = 20 } or nil,
    move = move and { { from = 2, to = 11, vx = name == "dash" and 8 or -6 } } or nil,
  }
end

return fg.ruleset "stress" {
  buttons = { "LP", "HP", "LK", "HK" },
  groups = { P = { "LP", "HP" }, K = { "LK", "HK" } },
  layers = { "body", "upper" },
  resources = { health = { max = 100000, start = 100000 }, meter = { max = 300, start = 0 } },
  physics = { gravity = -0.5, min_gap = 40, stage_min = -400, stage_max = 400 },
  motions = motions,
  actions = actions,
  request = function(me, req)
    if req.action == "taunt" and me.resources.meter >= 300 then
      return fg.reject("no taunting with a full bar")
    end
    return fg.default
  end,
  on_event = function(_, ev)
    if ev.contact == "hit" then fg.cue("hitspark", ev) end
  end,
}
