-- SPDX-License-Identifier: MIT
-- A platformer runner on a stage: a ledge (a solid block), a one-way platform, a run, a jump
-- with a buffer and coyote time that the jump gate starts as an action, a fall, an air attack
-- that lands into recovery, a thrown spark (a projectile). The stage is the one ground model:
-- grounded or airborne comes from it every tick. See docs/stage.md.
local fg = require "framegate"

return fg.ruleset "runner" {
  buttons = { "jump", "attack", "shoot" },
  -- The gate: a press counts 6 ticks early (buffer), a ledge 6 ticks late (coyote); it starts
  -- the action `jump`, which the request layer decides like any other.
  jump = { button = "jump", buffer = 6, coyote = 6, action = "jump" },
  physics = { gravity = -0.5, min_gap = 0 },
  stage = {
    floor = 0,
    walls = { -400, 800 },
    -- The ledge: a solid block 40 high from x = -400 to x = 100.
    blocks = { { x = -400, y = 0, w = 500, h = 40 } },
    -- A one-way platform: land on it from above, jump through it from below, down + jump
    -- drops through it.
    platforms = { { x = 260, y = 70, w = 160, one_way = true } },
  },
  boxes = { hurt = { x = -10, y = 0, w = 20, h = 40 } },
  -- A spark the runner throws: it flies straight for 60 ticks, or until a wall or a hit.
  projectiles = {
    spark = { vx = 8, lifetime = 60, boxes = { { x = -4, y = 16, w = 8, h = 8 } },
              hit = { damage = 10, hitstop = 0, hitstun = 12, blockstun = 6 } },
  },
  actions = {
    idle = { neutral = true, loop = true, duration = 1 },
    run = { hold = "6", loop = true, duration = 1, move = { { from = 0, to = 0, vx = 4 } } },
    -- Nothing holds the runner up: the stage puts it here (the airborne neutral), keeping the
    -- speed it had.
    fall = { neutral = true, group = "airborne", loop = true, duration = 1 },
    -- Started by the jump gate: up at 9 px a tick, the run's speed kept (no vx), under a lighter
    -- gravity than the ruleset's while it lasts.
    jump = { group = "airborne", duration = 120, gravity = -0.4,
             move = { { from = 0, to = 0, vy = 9 } },
             cancels = { { from = 2, to = 119, into = { "air_attack" } } } },
    land = { duration = 4 },
    -- On the ground: the spark leaves on tick 6 of the throw.
    shoot = { input = "shoot", requires = "grounded", startup = 6, active = 1, recovery = 14,
              markers = { { tick = 6, marker = "spawn" } }, spawn = { "spark", x = 12, y = 0 } },
    hitstun = { duration = 1, interrupts = true },
    blockstun = { duration = 1 },
    -- An air attack: landing during it costs 10 ticks of recovery (a jump or a fall lands free).
    air_attack = { input = "attack", group = "airborne", requires = "airborne",
                   startup = 4, active = 6, recovery = 30,
                   landing = "land", landing_recovery = 10,
                   boxes = { { "hit", from = 4, to = 9, x = 0, y = 10, w = 30, h = 20 } },
                   hit = { damage = 40, hitstop = 4, hitstun = 14, blockstun = 8 },
                   markers = { { tick = 4, marker = "swing" } } },
  },
}
