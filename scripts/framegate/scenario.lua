-- SPDX-License-Identifier: MIT
-- framegate.scenario: scenario tests on a virtual clock. A scenario owns a world; inputs and
-- actions are placed at ticks counted from the scenario's start, run() advances the clock, and
-- the expect_* helpers assert on what happened, with messages that show what did.
--
--   local scenario = require "framegate.scenario"
--   local s = scenario.new { rules = "../rules.lua" }   -- relative to the scenario file
--   local p1, p2 = s:spawn { x = -35 }, s:spawn { x = 35, facing = "left" }
--   s:input(p1, "LP@0 2@6 3@8 6@10 P@11")
--   s:run(40)
--   s:expect_history(p1, { "jab", "hadouken" })
--   s:expect_meter("jab_into_hadouken")    -- golden text next to the scenario file
--
-- Golden files live in a folder named after the scenario file (<file>.golden/<name>.txt). Set
-- FG_UPDATE_GOLDEN=1 (or run `framegate test --update-golden`) to write them instead of
-- comparing.
local fg = require "framegate"
local lu = require "luaunit"

local M = {}
local Scenario = {}
Scenario.__index = Scenario

-- Set by `framegate test --update-golden`.
M.update_golden = os.getenv("FG_UPDATE_GOLDEN") == "1"

-- The file of the first caller outside this module: scenarios resolve paths against it.
local function caller_file()
  for level = 2, 20 do
    local info = debug.getinfo(level, "S")
    if not info then break end
    if info.source:sub(1, 1) == "@" and not info.source:find("framegate/scenario%.lua$") then
      return info.source:sub(2)
    end
  end
  return nil
end

local function dir_of(path)
  return path and path:match("^(.*)/[^/]*$") or "."
end

local function resolve(base_dir, path)
  if path:sub(1, 1) == "/" then return path end
  local candidate = base_dir .. "/" .. path
  local f = io.open(candidate, "r")
  if f then f:close(); return candidate end
  return path -- relative to the working directory
end

--- scenario.new{ rules = path|Rules|table, seed =, rate =, buffer =, trace = } -> Scenario
function M.new(opts)
  opts = opts or {}
  local file = caller_file()
  local self = setmetatable({ file = file, dir = dir_of(file), start = 0, schedule = {} }, Scenario)
  local rules = opts.rules
  if type(rules) == "string" then rules = resolve(self.dir, rules) end
  self.world = fg.world { rules = rules, seed = opts.seed or 1, rate = opts.rate,
                          buffer = opts.buffer, trace = opts.trace or 16384 }
  self.start = self.world:tick()
  return self
end

--- The scenario's clock: ticks since it started.
function Scenario:now() return self.world:tick() - self.start end

function Scenario:spawn(opts) return self.world:spawn(opts) end

--- Runs fn when the clock reaches tick `at` (before that tick is simulated).
function Scenario:at(at, fn)
  assert(math.type(at) == "integer", "scenario:at: tick must be an integer")
  if at < self:now() then error(("scenario:at(%d): the clock is already at %d"):format(at, self:now()), 2) end
  self.schedule[#self.schedule + 1] = { tick = at, fn = fn, order = #self.schedule }
  table.sort(self.schedule, function(a, b)
    if a.tick ~= b.tick then return a.tick < b.tick end
    return a.order < b.order
  end)
end

--- Places an input script ("LP@0 2@6 3@8 6@10 P@11") for an entity; its ticks count from `at`
--- (default: now).
function Scenario:input(entity, script, at, opts)
  at = at or self:now()
  self:at(at, function() self.world:play(entity, script, opts) end)
end

--- Advances the clock n ticks, running what was scheduled.
function Scenario:run(n)
  for _ = 1, n do
    while self.schedule[1] and self.schedule[1].tick <= self:now() do
      table.remove(self.schedule, 1).fn(self)
    end
    self.world:advance(1)
  end
  return self:now()
end

--- Runs until the clock reads `tick`.
function Scenario:run_until(tick) return self:run(math.max(0, tick - self:now())) end

--- Reloads the rules (see world:reload) and fails the test if the reload fails.
function Scenario:reload(source, slot)
  local info, err = self.world:reload(source, slot)
  if not info then lu.fail("reload failed: " .. tostring(err)) end
  return info
end

-- {---------------------------------------------------------------------- expectations

local function decisions_of(self, entity)
  local out = {}
  for _, d in ipairs(self.world:decisions(entity)) do
    d.tick = d.tick - self.start
    out[#out + 1] = d
  end
  return out
end

local function describe_decisions(list)
  local lines = {}
  for _, d in ipairs(list) do lines[#lines + 1] = ("  t=%d e%d %s"):format(d.tick, d.entity, d.text) end
  return #lines > 0 and table.concat(lines, "\n") or "  (none)"
end

function Scenario:expect_history(entity, names)
  lu.assertEquals(entity:history(), names, "actions started by requests")
end

--- The action running on a layer now (nil: nothing).
function Scenario:expect_action(entity, name, layer)
  lu.assertEquals((entity:action(layer)), name, "current action")
end

--- The state line ("grounded/jab (recovery, tick 9 of 13)"); a string is matched exactly, a
--- table { contains = "..." } as a substring.
function Scenario:expect_state(entity, want, layer)
  local got = entity:state(layer)
  if type(want) == "table" then lu.assertStrContains(got, want.contains)
  else lu.assertEquals(got, want) end
end

--- A decision about a request: expect_decision(p1, "hadouken", "accepted" [, "text part"] [, tick]).
--- Returns the decision found.
function Scenario:expect_decision(entity, action, kind, text, tick)
  local all = decisions_of(self, entity)
  for _, d in ipairs(all) do
    if d.action == action and (not tick or d.tick == tick) then
      if d.decision == kind and (not text or d.text:find(text, 1, true)) then return d end
    end
  end
  lu.fail(("no decision '%s %s'%s%s for e%d; decisions:\n%s"):format(kind, action,
    text and (" with '" .. text .. "'") or "", tick and (" at tick " .. tick) or "",
    entity:id(), describe_decisions(all)))
end

--- No request of `action` was accepted.
function Scenario:expect_not_accepted(entity, action)
  for _, d in ipairs(decisions_of(self, entity)) do
    if d.action == action and d.decision == "accepted" then
      lu.fail(("%s was accepted at tick %d: %s"):format(action, d.tick, d.text))
    end
  end
end

--- How many events of a marker the gate committed.
function Scenario:expect_committed(marker, count)
  lu.assertEquals(self.world:committed(marker), count, "committed '" .. marker .. "' events")
end

function Scenario:expect_resource(entity, name, value)
  lu.assertEquals(entity:resource(name), value, "resource '" .. name .. "'")
end

--- The frame meter's row of one entity over [from, to] (scenario ticks), e.g. "ssssAArrrrrrr".
function Scenario:meter_row(entity, from, to)
  local text = self.world:meter(self.start + (from or 0), self.start + (to or self:now() - 1))
  for line in text:gmatch("[^\n]+") do
    local id, row = line:match("^%s*e(%d+)%s+(%S+)$")
    if id and tonumber(id) == entity:id() then return row end
  end
  return nil
end

function Scenario:expect_meter_line(entity, row, from, to)
  lu.assertEquals(self:meter_row(entity, from, to), row, "frame meter of e" .. entity:id())
end

--- Compares the frame meter of [from, to] with the golden file <scenario>.golden/<name>.txt.
function Scenario:expect_meter(name, from, to)
  local text = self.world:meter(self.start + (from or 0), self.start + (to or self:now() - 1))
  assert(self.file, "scenario:expect_meter: cannot tell which file the scenario is in")
  assert(name:match("^[%w_%-]+$"), "golden names are letters, digits, - and _")
  local base = self.file:gsub("%.lua$", "") .. ".golden"
  local path = base .. "/" .. name .. ".txt"
  if M.update_golden then
    os.execute(("mkdir -p '%s'"):format(base))
    local f = assert(io.open(path, "w"))
    f:write(text)
    f:close()
    return
  end
  local f = io.open(path, "r")
  if not f then
    lu.fail(("golden file %s is missing; run with FG_UPDATE_GOLDEN=1 to write it. The meter is:\n%s")
      :format(path, text))
  end
  local want = f:read("a")
  f:close()
  if want ~= text then
    lu.fail(("frame meter differs from %s (FG_UPDATE_GOLDEN=1 rewrites it)\nexpected:\n%s\nactual:\n%s")
      :format(path, want, text))
  end
end

-- }----------------------------------------------------------------------

M.Scenario = Scenario
return M
