-- SPDX-License-Identifier: MIT
-- test_gate.lua: the gate primitives from Lua: the seeds' cases (cross-fade, stale callback,
-- loop point, retries, gaps), channels, snapshots, hashes and the errors a script can cause.
-- luacheck: allow defined top
local lu = require "luaunit"
local fg = require "framegate"

-- The line a pcall'd call sits on, to check that errors point at the caller.
local function here() return debug.getinfo(2, "l").currentline end
local SRC = debug.getinfo(1, "S").short_src

local function fails(fn, ...)
  local ok, msg = pcall(fn, ...)
  lu.assertFalse(ok, "expected an error")
  return msg
end

local function run_cycle()
  return fg.cycle_track { duration = 1000, markers = {
    { tick = 950, name = "FootRight" },
    { tick = 50, name = "FootLeft" },
  } }
end

local function names(events)
  local out = {}
  for i, e in ipairs(events) do out[i] = e.marker .. "@" .. e.tick end
  return table.concat(out, ">")
end

local GEN7 = { slot = 2, generation = 7 }
local GEN8 = { slot = 2, generation = 8 }

TestDispatcher = {}

function TestDispatcher:setUp()
  self.d = fg.dispatcher { channels = 2, capacity = 4, markers = { "footstep", "damage" } }
  self.effects = 0
end

function TestDispatcher:hit(seq, clip, time, channel)
  local r = self.d:dispatch { channel = channel or 0, seq = seq, marker = "damage",
                              occurrence = 0, clip = clip, time = time }
  if r == "Accepted" then self.effects = self.effects + 1 end
  return r
end

function TestDispatcher:test_cross_fade_applies_damage_once_seed_line()
  self.d:begin(0, 100)
  local source = self:hit(100, "attack-a", 0.62)
  local target = self:hit(100, "attack-b", 0.38)
  lu.assertEquals(string.format("crossfade: action=%d source=%s target=%s effects=%d",
    100, source, target, self.effects),
    "crossfade: action=100 source=Accepted target=Duplicate effects=1")
end

function TestDispatcher:test_late_callback_after_next_action_is_stale_seed_line()
  self.d:begin(0, 100)
  self.d:begin(0, 101)
  local late = self:hit(100, "attack-a", 0.62)
  lu.assertEquals(string.format("stale: active=%d candidate=%d result=%s effects=%d",
    self.d:live(0), 100, late, self.effects),
    "stale: active=101 candidate=100 result=StaleAction effects=0")
end

function TestDispatcher:test_loop_occurrences_0_and_1_both_dispatch_once()
  local d = self.d
  d:begin(0, 100)
  lu.assertEquals(d:dispatch { seq = 100, marker = "footstep", occurrence = 0 }, "Accepted")
  lu.assertEquals(d:dispatch { seq = 100, marker = "footstep", occurrence = 1 }, "Accepted")
  lu.assertEquals(d:dispatch { seq = 100, marker = "footstep", occurrence = 1 }, "Duplicate")
  lu.assertEquals(d:dispatch { seq = 100, marker = "footstep" }, "Duplicate") -- occurrence 0
end

function TestDispatcher:test_new_action_may_use_damage_0_again()
  self.d:begin(0, 100)
  lu.assertEquals(self:hit(100), "Accepted")
  self.d:begin(0, 101)
  lu.assertEquals(self:hit(101), "Accepted")
  lu.assertEquals(self:hit(101), "Duplicate")
  lu.assertEquals(self.effects, 2)
end

function TestDispatcher:test_channels_have_independent_live_sequences()
  local d = self.d
  d:begin(0, 100)
  d:begin(1, 5)
  d:begin(1, 6)
  lu.assertEquals(self:hit(100, nil, nil, 0), "Accepted")
  lu.assertEquals(self:hit(6, nil, nil, 1), "Accepted")
  lu.assertEquals(self:hit(5, nil, nil, 1), "StaleAction")
  lu.assertEquals(d:live(0), 100)
  lu.assertEquals(d:live(1), 6)
end

function TestDispatcher:test_marker_ids_follow_sorted_names_and_integers_work()
  local d = self.d
  d:begin(0, 1)
  -- "damage" < "footstep": damage is id 0 whatever the declaration order.
  lu.assertEquals(d:dispatch { seq = 1, marker = 0 }, "Accepted")
  lu.assertEquals(d:dispatch { seq = 1, marker = "damage" }, "Duplicate")
  lu.assertEquals(d:ledger(0), { { marker = "damage", id = 0, closed_below = 1, window = 0 } })
end

function TestDispatcher:test_classify_answers_without_recording()
  local d = self.d
  d:begin(0, 1)
  local h = d:hash()
  lu.assertEquals(d:classify { seq = 1, marker = "damage" }, "Accepted")
  lu.assertEquals(d:hash(), h)
  lu.assertEquals(d:dispatch { seq = 1, marker = "damage" }, "Accepted")
  lu.assertEquals(d:classify { seq = 1, marker = "damage" }, "Duplicate")
end

function TestDispatcher:test_snapshot_restore_accepts_once_per_timeline()
  local d = self.d
  d:begin(0, 100)
  local before = d:snapshot()
  lu.assertEquals(#before, d.bytes)
  lu.assertEquals(self:hit(100), "Accepted")
  lu.assertEquals(self:hit(100), "Duplicate")
  local after = d:snapshot()
  d:restore(before)
  lu.assertEquals(self:hit(100), "Accepted")
  lu.assertEquals(self:hit(100), "Duplicate")
  lu.assertEquals(self.effects, 2) -- once in each timeline
  lu.assertEquals(d:snapshot(), after)
  d:restore(after)
  lu.assertEquals(self:hit(100), "Duplicate")
end

function TestDispatcher:test_hash_changes_with_state_and_not_with_refused_candidates()
  local d = self.d
  local h0 = d:hash()
  d:begin(0, 100)
  local h1 = d:hash()
  lu.assertNotEquals(h1, h0)
  self:hit(100)
  local h2 = d:hash()
  lu.assertNotEquals(h2, h1)
  self:hit(100)
  self:hit(99)
  lu.assertEquals(d:hash(), h2)
  lu.assertStrContains(d:describe(), "channel[0].live 100\nchannel[0].marker[0] closed_below 1")
end

function TestDispatcher:test_a_long_loop_keeps_the_ledger_at_one_entry()
  local d = self.d
  d:begin(0, 1)
  local bytes = d.bytes
  for occ = 0, 99999 do
    assert(d:dispatch { seq = 1, marker = "footstep", occurrence = occ } == "Accepted")
    assert(d:dispatch { seq = 1, marker = "footstep", occurrence = occ } == "Duplicate")
  end
  lu.assertEquals(#d:ledger(0), 1)
  lu.assertEquals(d:ledger(0)[1].closed_below, 100000)
  lu.assertEquals(d.bytes, bytes)
end

function TestDispatcher:test_begin_not_newer_raises_at_the_caller_and_changes_nothing()
  local d = self.d
  d:begin(0, 100)
  local h = d:hash()
  local line
  local msg = fails(function() line = here(); d:begin(0, 100) end)
  lu.assertEquals(msg, SRC .. ":" .. line .. ": begin: channel 0: action sequence 100 " ..
    "is not newer than the live sequence 100")
  lu.assertEquals(d:hash(), h)
  msg = fails(function() d:dispatch { seq = 101, marker = "damage" } end)
  lu.assertStrContains(msg, "dispatch: damage (marker 0) occurrence 0 of action 101: action 101 " ..
    "has not begun on channel 0 (live sequence 100)")
  lu.assertEquals(d:hash(), h)
end

function TestDispatcher:test_argument_errors_name_the_field_and_value()
  local d = self.d
  d:begin(0, 1)
  lu.assertStrContains(fails(function() d:dispatch { seq = 1, marker = "kick" } end),
    "dispatch.marker: 'kick' is not a declared marker of this dispatcher")
  lu.assertStrContains(fails(function() d:dispatch { seq = "x", marker = "damage" } end),
    "dispatch.seq: expected an integer, got string 'x'")
  lu.assertStrContains(fails(function() d:dispatch { seq = 1.5, marker = "damage" } end),
    "dispatch.seq: expected an integer, got 1.5")
  lu.assertStrContains(
    fails(function() d:dispatch { seq = 1, marker = "damage", occurrence = -1 } end),
    "dispatch.occurrence: -1 is out of range, expected 0-9223372036854775807")
  lu.assertStrContains(fails(function() d:dispatch { seq = 1, marker = "damage", channel = 2 } end),
    "dispatch.channel: 2 is out of range, expected 0-1")
  lu.assertStrContains(fails(function() d:dispatch { seq = 1, marker = "damage", clip = 4 } end),
    "dispatch.clip: expected a string, got 4")
  lu.assertStrContains(fails(function() d:begin(7, 2) end),
    "channel: 7 is out of range, expected 0-1")
  lu.assertStrContains(fails(function() d:dispatch() end),
    "bad argument #1 to 'dispatch' (table expected, got no value)")
  lu.assertStrContains(fails(function() d.dispatch({}, {}) end),
    "bad argument #1 to 'dispatch' (framegate.Dispatcher expected, got table)")
  lu.assertStrContains(fails(fg.dispatcher, { capacity = 0 }),
    "dispatcher.capacity: 0 is out of range, expected 1-4096")
  lu.assertStrContains(fails(fg.dispatcher, { markers = { "a", 3 } }),
    "dispatcher.markers: [2] expected a non-empty name, got number")
  lu.assertStrContains(fails(function() d:restore("short") end),
    "dispatcher snapshot: 5 bytes, expected")
end

function TestDispatcher:test_userdata_has_a_name_and_prints()
  local d = self.d
  lu.assertEquals(getmetatable(d).__name, "framegate.Dispatcher")
  lu.assertEquals(tostring(d), "framegate.Dispatcher (channels 2, capacity 4)")
  lu.assertEquals(d.channels, 2)
  lu.assertEquals(d.capacity, 4)
  lu.assertIsFunction(getmetatable(d).__gc)
  lu.assertNil(d.no_such_method)
end

TestCycleTrack = {}

function TestCycleTrack.test_same_cycle_hit()
  local b = run_cycle():sample(GEN7, 0, 100)
  lu.assertEquals(b.events, { { tick = 50, marker = "FootLeft", id = 0, occurrence = 0 } })
  lu.assertEquals(#run_cycle():sample(GEN7, 100, 900).events, 0)
end

function TestCycleTrack.test_two_cycle_interval_yields_both_feet_in_order()
  local b = run_cycle():sample(GEN7, 920, 1080)
  lu.assertEquals(names(b.events), "FootRight@950>FootLeft@1050")
  lu.assertEquals(b.events[2].occurrence, 1)
  lu.assertEquals(b.token, GEN7)
  lu.assertEquals({ b.from, b.to }, { 920, 1080 })
end

function TestCycleTrack.test_reversed_interval_raises_at_the_caller()
  local t = run_cycle()
  local line
  local msg = fails(function() line = here(); t:sample(GEN7, 1080, 920) end)
  lu.assertEquals(msg, SRC .. ":" .. line ..
    ": cycle track: interval (1080, 920] is reversed (expected to >= from)")
end

function TestCycleTrack.test_marker_outside_the_duration_raises()
  local msg = fails(fg.cycle_track, { duration = 1000, markers = {
    { tick = 50, name = "FootLeft" }, { tick = 1000, name = "FootRight" } } })
  lu.assertStrContains(msg, "cycle track: markers[2] FootRight (marker 1): tick 1000 is outside " ..
    "the duration (expected 0 to 999)")
  lu.assertStrContains(fails(fg.cycle_track, { duration = 0 }),
    "cycle track: duration 0, expected at least 1 tick")
  lu.assertStrContains(fails(fg.cycle_track, { markers = {} }),
    "cycle_track.duration: expected an integer, got nil")
  lu.assertStrContains(fails(fg.cycle_track, { duration = 10, markers = { { tick = 1 } } }),
    "cycle_track.markers: [1].name: expected a non-empty string, got nil")
end

function TestCycleTrack.test_prints_and_lists_markers_in_tick_order()
  local t = run_cycle()
  lu.assertEquals(tostring(t), "framegate.CycleTrack (duration 1000, markers 2)")
  lu.assertEquals(getmetatable(t).__name, "framegate.CycleTrack")
  lu.assertEquals(t.duration, 1000)
  lu.assertEquals(t:markers(), { { tick = 50, name = "FootLeft", id = 0 },
                                 { tick = 950, name = "FootRight", id = 1 } })
end

TestPlaybackOwner = {}

function TestPlaybackOwner:setUp()
  self.track = run_cycle()
  self.owner = fg.playback_owner { queue = 8 }
  self.owner:begin(GEN7, 920)
end

function TestPlaybackOwner:test_seed_result_line()
  local o, batch = self.owner, self.track:sample(GEN7, 920, 1080)
  local first, retry = o:commit(batch), o:commit(batch)
  lu.assertEquals(string.format("RESULT range=%d..%d events=%s first=%s retry=%s cursor=%d",
    batch.from, batch.to, names(o:delivered()), first, retry, o.cursor),
    "RESULT range=920..1080 events=FootRight@950>FootLeft@1050 first=Committed " ..
    "retry=AlreadyCommitted cursor=1080")
end

function TestPlaybackOwner:test_retry_is_idempotent()
  local o, batch = self.owner, self.track:sample(GEN7, 920, 1080)
  lu.assertEquals(o:commit(batch), "Committed")
  lu.assertEquals(o:commit(batch), "AlreadyCommitted")
  lu.assertEquals(o:commit(batch), "AlreadyCommitted")
  lu.assertEquals(o.pending, 2)
  lu.assertEquals(o.delivered_total, 2)
end

function TestPlaybackOwner:test_old_generation_is_refused()
  local o = self.owner
  local old = self.track:sample(GEN7, 920, 1080)
  o:begin(GEN8, 920)
  lu.assertEquals(o:commit(old), "StalePlayback")
  lu.assertEquals(o.cursor, 920)
  lu.assertEquals(o.pending, 0)
  lu.assertEquals(o.token, GEN8)
  lu.assertStrContains(fails(function() o:begin(GEN7) end),
    "playback owner: begin slot 2 generation 7: generation is not newer than 8 (slot 2)")
  o:stop()
  lu.assertFalse(o.live)
  lu.assertNil(o.token)
  lu.assertEquals(o:commit(self.track:sample(GEN8, 920, 1080)), "StalePlayback")
end

function TestPlaybackOwner:test_cursor_gap_is_refused_and_foot_right_is_not_lost()
  local o = self.owner
  local late, missing = self.track:sample(GEN7, 1000, 1080), self.track:sample(GEN7, 920, 1000)
  local h = o:hash()
  lu.assertEquals(o:commit(late), "CursorGap")
  lu.assertEquals(o:hash(), h)
  lu.assertEquals(o:commit(missing), "Committed")
  lu.assertEquals(o:commit(late), "Committed")
  lu.assertEquals(names(o:drain()), "FootRight@950>FootLeft@1050")
  lu.assertEquals(o.pending, 0)
  lu.assertEquals(o.cursor, 1080)
end

function TestPlaybackOwner:test_empty_interval_advances_the_cursor()
  local o = fg.playback_owner()
  o:begin(GEN7, 100)
  local empty = self.track:sample(GEN7, 100, 200)
  lu.assertEquals(#empty.events, 0)
  lu.assertEquals(o:commit(empty), "Committed")
  lu.assertEquals(o.cursor, 200)
  lu.assertEquals(o:commit(self.track:sample(GEN7, 200, 960)), "Committed")
end

function TestPlaybackOwner:test_snapshot_restore_delivers_once_per_timeline()
  local o, batch = self.owner, self.track:sample(GEN7, 920, 1080)
  local before = o:snapshot()
  lu.assertEquals(o:commit(batch), "Committed")
  o:restore(before)
  lu.assertEquals(o.pending, 0)
  lu.assertEquals(o:commit(batch), "Committed")
  lu.assertEquals(o:commit(batch), "AlreadyCommitted")
  lu.assertEquals(o.pending, 2)
end

function TestPlaybackOwner:test_full_queue_raises_and_changes_nothing()
  local o = fg.playback_owner { queue = 1 }
  o:begin(GEN7, 920)
  local batch = self.track:sample(GEN7, 920, 1080)
  local h = o:hash()
  lu.assertStrContains(fails(o.commit, o, batch),
    "commit: batch (920, 1080] brings 2 events but the delivery queue has 1 free of 1 " ..
    "(drain it first)")
  lu.assertEquals(o:hash(), h)
end

function TestPlaybackOwner:test_batch_errors_name_the_field()
  local o = self.owner
  lu.assertStrContains(fails(function() o:commit { from = 920, to = 1000 } end),
    "commit.token: expected {slot =, generation =}, got nil")
  lu.assertStrContains(fails(function() o:commit { token = GEN7, from = 920 } end),
    "commit.to: expected an integer, got nil")
  lu.assertStrContains(fails(function()
    o:commit { token = GEN7, from = 920, to = 1000, events = { { tick = 5, id = 0 } } }
  end), "commit: batch (920, 1000] events[1] at tick 5 is outside the interval")
  lu.assertEquals(tostring(o), "framegate.PlaybackOwner (slot 2 generation 7, cursor 920)")
  lu.assertEquals(getmetatable(o).__name, "framegate.PlaybackOwner")
end

return lu.LuaUnit.run(...)
