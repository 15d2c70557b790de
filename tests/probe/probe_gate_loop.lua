-- SPDX-License-Identifier: MIT
-- probe_gate_loop.lua: the loop-point probe written in Lua. A 1000-tick run cycle has FootLeft at
-- 50 and FootRight at 950; playback on slot 2 (generation 7) advances from 920 to 1080 across the
-- loop point. The batch is committed, then retried.
local fg = require "framegate"

local track = fg.cycle_track { duration = 1000, markers = {
  { tick = 50, name = "FootLeft" },
  { tick = 950, name = "FootRight" },
} }
local token = { slot = 2, generation = 7 }
local owner = fg.playback_owner { queue = 8 }
owner:begin(token, 920)

local batch = track:sample(token, 920, 1080)
local first = owner:commit(batch)
local retry = owner:commit(batch)

local events = {}
for i, e in ipairs(owner:delivered()) do events[i] = e.marker .. "@" .. e.tick end
print(string.format("RESULT range=%d..%d events=%s first=%s retry=%s cursor=%d",
  batch.from, batch.to, table.concat(events, ">"), first, retry, owner.cursor))
