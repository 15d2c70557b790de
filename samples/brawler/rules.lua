-- The brawler: a beat-'em-up hero written from the docs. Two chains share their buttons: the
-- P, P, K target combo (jab, straight, roundhouse) and the three-hit rekka on 236P. Each step
-- after the first is a `followup`: its input asks for it only where the step before has a
-- cancel window into it, so the same P press is a jab from neutral and a straight after a jab.
local fg = require "framegate"

local function hit(damage, hitstop, hitstun)
  return { damage = damage, range = 80, hitstop = hitstop, hitstun = hitstun, blockstun = hitstun - 6 }
end

return fg.ruleset "brawler" {
  buttons   = { "LP", "HP", "LK", "HK" },
  groups    = { P = { "LP", "HP" }, K = { "LK", "HK" } },
  resources = { health = { max = 1000, start = 1000 } },
  motions   = {
    punch = { "P" },
    kick  = { "K" },
    rekka = { "236P", window = 15, priority = 5 }, -- beats the P that ends it
  },
  queue     = { depth = 3, order = "fifo" },          -- the default, written out
  actions   = {
    idle = { neutral = true, loop = true },
    walk_forward = { hold = "6", loop = true, move = { { from = 0, to = 0, vx = 3 } } },

    -- P, P, K
    jab = { input = "punch", startup = 4, active = 2, recovery = 10, tags = { "normal" },
            markers = { { tick = 4, marker = "hit" } }, hit = hit(20, 8, 18),
            cancels = { { from = 4, to = 15, on = "contact", into = { "straight" }, buffer = 4 } } },
    straight = { input = "punch", followup = true, startup = 5, active = 2, recovery = 12,
                 markers = { { tick = 5, marker = "hit" } }, hit = hit(30, 8, 20),
                 cancels = { { from = 5, to = 18, on = "contact", into = { "roundhouse" } } } },
    roundhouse = { input = "kick", followup = true, startup = 7, active = 3, recovery = 18,
                   markers = { { tick = 7, marker = "hit" } }, hit = hit(50, 10, 24) },

    -- 236P, 236P, 236P
    rekka1 = { input = "rekka", startup = 8, active = 3, recovery = 16, tags = { "special" },
               markers = { { tick = 8, marker = "hit" } }, hit = hit(40, 8, 20),
               cancels = { { from = 8, to = 26, on = "contact", into = { "rekka2" }, buffer = 6 } } },
    rekka2 = { input = "rekka", followup = true, startup = 7, active = 3, recovery = 18,
               markers = { { tick = 7, marker = "hit" } }, hit = hit(40, 8, 20),
               cancels = { { from = 7, to = 27, on = "contact", into = { "rekka3" }, buffer = 6 } } },
    rekka3 = { input = "rekka", followup = true, startup = 9, active = 4, recovery = 24,
               markers = { { tick = 9, marker = "hit" } }, hit = hit(60, 12, 26) },

    hitstun = { duration = 1, interrupts = true }, blockstun = { duration = 1 },
  },
}
