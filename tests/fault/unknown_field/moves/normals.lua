-- Included by rules.lua.
return {
  jab = { input = "LP", startup = 4, active = 2, recovery = 7, tags = { "attack" },
          markers = { { tick = 4, marker = "hit" } },
          hit = { damage = 30, range = 70, hitstop = 6, hitstun = 13, blockstun = 9, meter = 10 } },
  strong = { input = "HP", startup = 7, active = 3, recovery = 16, recvery = 3, tags = { "attack" },
             markers = { { tick = 7, marker = "hit" } },
             hit = { damage = 80, range = 90, hitstop = 9, hitstun = 20, blockstun = 15 } },
}
