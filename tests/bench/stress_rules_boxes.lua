-- SPDX-License-Identifier: MIT
-- The stress fighter with boxes: the same actions, each attack's `range` and hit marker replaced by
-- a hit box live on its active ticks, default hurt and push boxes, a crouching hurt box and
-- combat rules. Used by bench_stress to price the collision phase.
local decl = include "stress_rules.lua"
decl.name = "stress_boxes"
decl.boxes = {
  hurt = { x = -20, y = 0, w = 40, h = 100 },
  push = { x = -15, y = 0, w = 30, h = 90 },
  airborne = { hurt = { x = -20, y = 20, w = 40, h = 70 } },
}
decl.combat = { juggle_limit = 3, scaling = { 100, 100, 80, 70, 60 } }
decl.actions.crouch.boxes = { { "hurt", x = -20, y = 0, w = 40, h = 60 } }
local names = {}
for name in pairs(decl.actions) do names[#names + 1] = name end
table.sort(names)
for _, name in ipairs(names) do
  local a = decl.actions[name]
  if a.hit and a.hit.range then
    local reach = a.hit.range - 20 -- the target's hurt box starts 20 px before its origin
    a.boxes = { { "hit", from = a.startup, to = a.startup + a.active - 1, x = 0, y = 0,
                  w = reach, h = 120 } }
    a.hit.range = nil
    a.markers = nil
  end
end
return decl
