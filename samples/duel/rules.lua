-- The duelist: a complete sample fighter. Frame data in ticks at 60 Hz, distances in pixels.
-- Ticks inside an action count from 0: startup 4, active 2, recovery 7 is ticks 0-3 startup,
-- 4-5 active, 6-12 recovery; a marker or a cancel window names those ticks.
local fg = require "framegate"

return fg.ruleset "duelist" {
  buttons = { "LP", "HP", "LK", "HK" },
  groups = { P = { "LP", "HP" }, K = { "LK", "HK" } },
  layers = { "body", "upper" },
  resources = {
    health = { max = 1000, start = 1000 },
    meter = { max = 300, start = 0 },
  },
  physics = { gravity = -0.5, min_gap = 40, stage_min = -400, stage_max = 400 },

  -- Boxes in pixels from the fighter's feet, as if facing right (x toward the opponent, y up).
  -- Every state has these unless its action declares its own hurt box (the crouch does).
  boxes = {
    hurt = { x = -20, y = 0, w = 40, h = 100 },
    push = { x = -15, y = 0, w = 30, h = 90 },
    airborne = { hurt = { x = -20, y = 20, w = 40, h = 70 } },
  },
  -- Two juggle points per combo in the air; the combo's later hits do less damage.
  combat = { juggle_limit = 2, scaling = { 100, 100, 80, 70, 60 } },

  motions = {
    hadouken = { "236P", window = 15, priority = 5 },          -- beats the jab its P completes
    shoryuken = { "623P", window = 15, priority = 10 },   -- beats 236P from a forward walk
    super = { "236236P", window = 30, priority = 20 },
    dash = { "66", window = 10 },
    sweep = { "2HK", priority = 1 },                           -- beats the taunt its HK starts
    launcher = { "3HP", priority = 1 },                        -- beats the strong its HP starts
    grab = { "LP+LK", priority = 2 },                          -- beats the jab and the taunt
  },

  actions = {
    -- Neutral states: chosen by the held direction (relative to facing) while the body is free.
    idle = { neutral = true, loop = true, duration = 1 },
    walk_forward = { hold = "6", loop = true, duration = 1, move = { { from = 0, to = 0, vx = 3.5 } } },
    walk_back = { hold = "4", loop = true, duration = 1, move = { { from = 0, to = 0, vx = -3 } } },
    crouch = { hold = "2", priority = 1, loop = true, duration = 1,
               boxes = { { "hurt", x = -20, y = 0, w = 40, h = 60 } } },

    jump = { input = "8", group = "airborne", requires = "grounded", startup = 4, recovery = 56,
             tags = { "movement" }, move = { { from = 4, to = 4, vy = 11 } } },
    jump_forward = { input = "9", group = "airborne", requires = "grounded", startup = 4, recovery = 56,
                     tags = { "movement" }, move = { { from = 4, to = 4, vx = 4, vy = 11 } } },
    jump_back = { input = "7", group = "airborne", requires = "grounded", startup = 4, recovery = 56,
                  tags = { "movement" }, move = { { from = 4, to = 4, vx = -3.5, vy = 11 } } },
    dash = { requires = "grounded", startup = 2, active = 10, recovery = 6, tags = { "movement" },
             move = { { from = 2, to = 11, vx = 8 } } },

    jab = { input = "LP", requires = "grounded", startup = 4, active = 2, recovery = 7,
            tags = { "normal", "attack" },
            markers = { { tick = 4, marker = "swing" } },
            boxes = { { "hit", from = 4, to = 5, x = 10, y = 40, w = 40, h = 60 } },
            hit = { damage = 30, hitstop = 6, hitstun = 13, blockstun = 9, meter = 10, juggle = 1 },
            cancels = { { from = 4, to = 12, on = "hit", into = { "special", "super" }, buffer = 4 } } },
    strong = { input = "HP", requires = "grounded", startup = 7, active = 3, recovery = 16,
               tags = { "normal", "attack" },
               markers = { { tick = 7, marker = "swing" } },
               boxes = { { "hit", from = 7, to = 9, x = 10, y = 50, w = 60, h = 30 } },
               hit = { damage = 80, hitstop = 9, hitstun = 20, blockstun = 15, meter = 20, juggle = 1 },
               cancels = { { from = 7, to = 16, on = "contact", into = { "special", "super" }, buffer = 6 } } },
    sweep = { input = "sweep", requires = "grounded", startup = 9, active = 4, recovery = 22,
              tags = { "normal", "attack" },
              markers = { { tick = 9, marker = "swing" } },
              boxes = { { "hit", from = 9, to = 12, x = 10, y = 0, w = 70, h = 20 } },
              hit = { damage = 90, hitstop = 8, hitstun = 30, blockstun = 12, meter = 20,
                      guard = "low" } },
    hadouken = { requires = "grounded", startup = 13, active = 2, recovery = 31,
                 tags = { "special", "attack" },
                 boxes = { { "hit", from = 13, to = 14, x = 40, y = 30, w = 340, h = 90 } },
                 hit = { damage = 60, hitstop = 5, hitstun = 18, blockstun = 14, meter = 30,
                         juggle = 1 } },
    shoryuken = { requires = "grounded", group = "airborne", startup = 3, active = 10, recovery = 28,
                  cost = { meter = 100 }, tags = { "special", "attack" },
                  move = { { from = 3, to = 3, vx = 1.5, vy = 10 } },
                  boxes = { { "hit", from = 3, to = 6, x = 0, y = 0, w = 50, h = 140 } },
                  invulnerable = { { from = 0, to = 5 } },        -- a reversal: strikes miss it
                  hit = { damage = 120, hitstop = 10, hitstun = 35, blockstun = 20 } },
    super = { requires = "grounded", startup = 5, active = 6, recovery = 40, cost = { meter = 200 },
              tags = { "super", "attack" }, interrupts = true,
              boxes = { { "hit", from = 5, to = 10, x = 0, y = 0, w = 100, h = 120 } },
              invulnerable = { { from = 0, to = 4, throw = true } },
              hit = { damage = 250, hitstop = 15, hitstun = 45, blockstun = 25, chip = 25,
                      pushback = { hit = 20, block = 16 } } },
    -- A launcher whose hit cancels into the jab for a juggle, and a throw the target can tech by
    -- pressing the throw itself within 7 ticks of the grab.
    launcher = { requires = "grounded", startup = 6, active = 3, recovery = 20, tags = { "attack" },
                 boxes = { { "hit", from = 6, to = 8, x = 0, y = 0, w = 50, h = 140 } },
                 hit = { damage = 70, hitstop = 8, hitstun = 20, blockstun = 10, reaction = "launched",
                         launch = { vy = 9 }, knockdown = "soft" },
                 cancels = { { from = 6, to = 28, on = "hit", into = { "jab" } } } },
    grab = { requires = "grounded", startup = 3, active = 2, recovery = 20, tags = { "throw" },
             boxes = { { "throw", from = 3, to = 4, x = 0, y = 0, w = 45, h = 100 } },
             throw = { damage = 120, tech_window = 7, reaction = "thrown", stun = 25,
                       knockdown = "hard" } },

    -- Put on the target by the gate; their length is the attacker's hitstun or blockstun. A
    -- fighter being hit or blocking cannot start a taunt on the upper layer either.
    hitstun = { duration = 1, tags = { "stun" }, interrupts = true, forbids = { "emote" } },
    blockstun = { duration = 1, tags = { "stun" }, forbids = { "emote" } },
    -- Reactions named by hits: in the air until landing (then a soft knockdown), held by a throw,
    -- down after a knockdown (its length is the wake-up time).
    launched = { group = "airborne", duration = 90, tags = { "stun" }, interrupts = true },
    thrown = { duration = 1, tags = { "stun" }, interrupts = true },
    knockdown = { duration = 1, tags = { "stun" } },

    -- A projectile: the fireball (below) leaves 40 px in front on the "spawn" marker. No input
    -- asks for it: a host or an AI requests it (p:request("fireball")).
    fireball = { requires = "grounded", startup = 12, active = 1, recovery = 30,
                 tags = { "special", "attack" },
                 markers = { { tick = 12, marker = "spawn" } },
                 spawn = { "fireball", x = 40, y = 0 } },

    -- The upper layer: a taunt that runs while the legs keep walking, and forbids dashing.
    upper_idle = { layer = "upper", neutral = true, loop = true, duration = 1 },
    taunt = { layer = "upper", input = "LK+HK", startup = 10, active = 20, recovery = 10,
              tags = { "emote" }, forbids = { "movement" } },
  },

  -- The fireball: 6 px a tick for 90 ticks, one on screen per fighter. Two that meet clash
  -- (durability 1 each: both vanish). Its hit counts for the throwing action's cancel windows.
  projectiles = {
    fireball = { vx = 6, lifetime = 90, durability = 1, limit = 1, opens_cancels = true,
                 boxes = { { x = -15, y = 40, w = 30, h = 30 } },
                 hit = { damage = 60, hitstop = 5, hitstun = 18, blockstun = 14, meter = 30,
                         juggle = 1, pushback = { hit = 8, block = 12 } } },
  },

  -- A rule the data cannot express: the super needs a full bar, not just its cost.
  request = function(me, req)
    if req.action == "super" and me.resources.meter < 300 then
      return fg.reject("super needs a full bar (" .. me.resources.meter .. "/300)")
    end
    return fg.default
  end,

  -- Presentation: sees committed events only; emits cues for the host's effects and audio.
  -- A box contact is a hit event (ev.kind == "hit", with ev.contact, ev.x, ev.y, ev.damage); a
  -- "swing" marker is the sound of an attack coming out, contact or not.
  on_event = function(_, ev)
    if ev.kind == "clash" then
      fg.cue("clash", ev)
    elseif ev.kind == "hit" then
      fg.cue(ev.contact == "hit" and "hitspark" or ev.contact == "block" and "blockspark" or "whoosh", ev)
    elseif ev.kind == "throw" then
      fg.cue("grab", ev)
    elseif ev.marker == "swing" then
      fg.cue("swing", ev)
    end
  end,
}
