-- SPDX-License-Identifier: MIT
-- test_replay.lua: the replay bindings: reading a replay into tables or iterating it, writing one
-- from tables, and how refusals and damage reach Lua (messages at the caller's line).
-- luacheck: globals TestReplay
local lu = require "luaunit"
local fg = require "framegate"
local replay = fg.replay

local THIS_FILE = "test_replay.lua"

local function sample_header()
  return {
    runtime_version = "test",
    tick_rate = 60,
    seed = 0x1234,
    start_tick = 0,
    ruleset_hash = 0x7777000000000001,
    hashes = { ["rules/ryu.lua"] = -1, ["rules/ken.lua"] = 42 },
    meta = { ruleset = "samples/ryu", note = "" },
  }
end

local function sample_records()
  return {
    { type = "input", entity = 1, tick = 1, time_us = 16667, kind = "press", action = 4, dir = 5,
      source = "device" },
    { type = "input", entity = 2, tick = 1, time_us = 20000, kind = "dir", action = 0, dir = 3,
      source = "ai" },
    { type = "command", entity = 1, tick = 2, motion = 7 },
    { type = "checkpoint", tick = 2, hash = 0x0123456789abcdef },
    { type = "clamp", tick = 3, clamped_us = 250000 },
    { type = "reload", tick = 4, old_hash = 0x7777000000000001, new_hash = -2,
      files = { { path = "rules/ryu.lua", text = "return { a = 1 }\0binary" },
                { path = "rules/shared.lua", text = "" } } },
    { type = "input", entity = 1, tick = 5, time_us = 83335, kind = "release", action = 4, dir = 6,
      source = "script" },
    { type = "final", tick = 6, hash = 0x7fffffffffffffff },
  }
end

local function encode()
  return replay.write(nil, { header = sample_header(), records = sample_records() })
end

-- Asserts that f raises an error whose message starts at this file (the caller's level) and
-- contains `expected` literally.
local function expect_error_at_caller(expected, f, ...)
  local ok, msg = pcall(f, ...)
  lu.assertFalse(ok)
  lu.assertStrContains(msg, THIS_FILE .. ":")
  lu.assertStrContains(msg, expected)
  return msg
end

TestReplay = {}

-- Rule: every record type written from a table reads back as the same table.
function TestReplay.test_every_record_type_round_trips_through_tables()
  local t = replay.decode(encode())
  local want = sample_records()
  lu.assertEquals(#t.records, #want)
  for i, rec in ipairs(t.records) do
    for k, v in pairs(want[i]) do
      lu.assertEquals(rec[k], v, ("records[%d].%s"):format(i, k))
    end
    lu.assertEquals(rec.index, i)
  end
  lu.assertEquals(t.header.tick_rate, 60)
  lu.assertEquals(t.header.seed, 0x1234)
  lu.assertEquals(t.header.ruleset_hash, 0x7777000000000001)
  lu.assertEquals(t.header.hashes, { ["rules/ryu.lua"] = -1, ["rules/ken.lua"] = 42 })
  lu.assertEquals(t.header.meta, { ruleset = "samples/ryu", note = "" })
  lu.assertEquals(t.stats.final_hash, 0x7fffffffffffffff)
  lu.assertEquals(t.stats.counts.input, 3)
  lu.assertEquals(t.stats.records, #want + 2)
  lu.assertTrue(t.stats.complete)
  lu.assertEquals(t.stats.version, ("%d.%d"):format(replay.format_major, replay.format_minor))
end

-- Rule: decoding and re-encoding gives the same bytes (tools can rewrite replays losslessly).
function TestReplay.test_decode_then_write_gives_the_same_bytes()
  local bytes = encode()
  local again = replay.write(nil, replay.decode(bytes))
  lu.assertEquals(#again, #bytes)
  lu.assertTrue(again == bytes)
end

-- Rule: header maps are written in bytewise key order, whatever order pairs() visits them in.
function TestReplay.test_header_maps_are_written_in_bytewise_key_order()
  local meta = {}
  local names = {}
  for i = 1, 24 do
    names[#names + 1] = ("key%02d"):format(i)
  end
  for i = #names, 1, -1 do
    meta[names[i]] = "v"
  end
  local bytes = replay.write(nil, { header = { meta = meta }, records = {} })
  local last = 0
  for _, name in ipairs(names) do
    local at = bytes:find(name, 1, true)
    lu.assertNotNil(at, name)
    lu.assertTrue(at > last, name .. " is out of order")
    last = at
  end
end

-- Rule: a header map too big is refused at once, whatever its size (sorting its keys is n log n;
-- it was an insertion sort, so 100,000 keys held the writer for minutes), and a key that is not
-- a string is named.
function TestReplay.test_header_maps_refuse_huge_or_bad_keys_at_once()
  local meta = {}
  for i = 1, 100000 do meta["k" .. i] = "v" end
  local t0 = os.clock()
  lu.assertErrorMsgContains("header.meta: 100000 entries (at most 1024)", replay.write, nil,
    { header = { meta = meta }, records = {} })
  lu.assertTrue(os.clock() - t0 < 5, "refused in bounded time")
  lu.assertErrorMsgContains("header.meta: keys must be strings, got number", replay.write, nil,
    { header = { meta = { a = "x", [7] = "y" } }, records = {} })
end

-- Rule: reader:records() iterates from the first record every time it is called.
function TestReplay.test_records_iterator_starts_over_each_time()
  local r = replay.load(encode(), { name = "sample.fgr" })
  for _ = 1, 2 do
    local n = 0
    local first
    for rec in r:records() do
      n = n + 1
      first = first or rec
    end
    lu.assertEquals(n, #sample_records())
    lu.assertEquals(first.type, "input")
    lu.assertEquals(first.time_us, 16667)
  end
  r:rewind()
  lu.assertEquals(r:peek().index, 1)
  lu.assertEquals(r:next().index, 1)
  lu.assertEquals(r:peek().index, 2)
  lu.assertEquals(r:name(), "sample.fgr")
  lu.assertStrContains(tostring(r), "framegate.ReplayReader: sample.fgr (10 records)")
  r:close()
  lu.assertEquals(tostring(r), "framegate.ReplayReader (closed)")
  expect_error_at_caller("replay reader is closed", function() return r:next() end)
end

-- Rule: a damaged replay raises the reader's message, with the byte offset, at the caller.
function TestReplay.test_damaged_bytes_raise_the_offset_at_the_caller()
  local bytes = encode()
  -- chunk 0 starts at byte 84 (after the file header and record table); its length is its first
  -- field; chunk 1 follows its 16-byte header, payload and 4-byte CRC
  local chunk1 = 84 + 16 + string.unpack("<I4", bytes, 84 + 1) + 4
  local at = chunk1 + 16 + 2 -- 1-based: inside the first record of chunk 1
  local damaged = bytes:sub(1, at - 1) .. string.char((bytes:byte(at) ~ 0x10)) .. bytes:sub(at + 1)
  expect_error_at_caller(("match.fgr: chunk 1 at byte %d: CRC mismatch (stored 0x"):format(chunk1),
    function() return replay.decode(damaged, { name = "match.fgr" }) end)
  expect_error_at_caller("replay: truncated: the record table of 8 types needs bytes 16..84",
    function() return replay.load(bytes:sub(1, 40)) end)
end

-- Rule: an unfinished recording (flushed, no end marker) is refused unless read with partial.
function TestReplay.test_partial_option_reads_an_unfinished_recording()
  local w = replay.writer(nil, sample_header())
  w:input { entity = 1, tick = 1, action = 4 }
  w:checkpoint(1, 99)
  w:flush()
  w:input { entity = 1, tick = 2, action = 4, kind = "release" } -- buffered, never flushed
  local bytes = w:bytes()
  expect_error_at_caller("without an end marker (the recording was cut short)",
    function() return replay.load(bytes) end)
  local t = replay.decode(bytes, { partial = true })
  lu.assertFalse(t.stats.complete)
  lu.assertEquals(#t.records, 2)
  lu.assertEquals(t.records[2].hash, 99)
  w:close()
end

-- Rule: the ruleset check answers true, or false with both hashes named.
function TestReplay.test_check_ruleset_names_both_hashes()
  local r = replay.load(encode())
  lu.assertTrue(r:check_ruleset(0x7777000000000001))
  local ok, msg = r:check_ruleset(0x10)
  lu.assertFalse(ok)
  lu.assertEquals(msg, "replay: replay was recorded with ruleset 0x7777000000000001, "
    .. "loaded ruleset is 0x0000000000000010")
end

-- Rule: writer refusals raise the writer's message at the caller and write nothing.
function TestReplay.test_writer_refusals_raise_at_the_caller_and_write_nothing()
  local w = replay.writer(nil, sample_header())
  w:input { entity = 1, tick = 10, action = 4 }
  expect_error_at_caller("replay writer: input.tick 9 is before the previous record's tick 10",
    function() w:input { entity = 1, tick = 9, action = 4 } end)
  expect_error_at_caller("replay writer: input.action 40 is out of range (expected 0..31)",
    function() w:input { entity = 1, tick = 10, action = 40 } end)
  expect_error_at_caller([[kind: "punch" is not one of press, release, dir]],
    function() w:input { entity = 1, tick = 10, kind = "punch" } end)
  expect_error_at_caller("tick: expected an integer, got nil",
    function() w:command { entity = 1, motion = 2 } end)
  expect_error_at_caller([=[reload.files[1].path "a.lua" repeats files[0]]=],
    function()
      w:reload { tick = 11, old_hash = 1, new_hash = 2,
                 files = { { path = "a.lua", text = "" }, { path = "a.lua", text = "" } } }
    end)
  local bytes = w:finish()
  local t = replay.decode(bytes)
  lu.assertEquals(#t.records, 1)
  lu.assertStrContains(tostring(w), "3 records")
  expect_error_at_caller("already finished", function() w:checkpoint(12, 1) end)
  w:close()
  expect_error_at_caller("replay writer is closed", function() w:checkpoint(12, 1) end)
end

-- Rule: replay.write to a path writes the file replay.read reads; a refused record leaves no file.
function TestReplay.test_files_round_trip_and_a_refused_write_leaves_no_file()
  local path = os.tmpname()
  os.remove(path)
  lu.assertTrue(replay.write(path, { header = sample_header(), records = sample_records() }))
  local t = replay.read(path)
  lu.assertEquals(#t.records, #sample_records())
  lu.assertEquals(t.records[6].files[1].text, "return { a = 1 }\0binary")
  os.remove(path)
  local bad = sample_records()
  bad[3].tick = 0
  expect_error_at_caller("command.tick 0 is before the previous record's tick 1",
    function() return replay.write(path, { header = sample_header(), records = bad }) end)
  lu.assertNil(io.open(path, "rb"))
  expect_error_at_caller(path .. ": cannot open: No such file or directory",
    function() return replay.open(path) end)
end

-- Rule: a streaming file writer produces the same bytes as the memory writer.
function TestReplay.test_file_writer_matches_the_memory_writer()
  local path = os.tmpname()
  local w = replay.writer(path, sample_header(), { chunk_size = 64 })
  for _, rec in ipairs(sample_records()) do
    w:record(rec)
  end
  lu.assertTrue(w:finish())
  w:close()
  local f = assert(io.open(path, "rb"))
  local on_disk = f:read("a")
  f:close()
  os.remove(path)
  local m = replay.writer(nil, sample_header(), { chunk_size = 64 })
  for _, rec in ipairs(sample_records()) do
    m:record(rec)
  end
  lu.assertTrue(m:finish() == on_disk)
  lu.assertTrue(replay.decode(on_disk).stats.chunks > 3)
end

return lu.LuaUnit.run(...)
