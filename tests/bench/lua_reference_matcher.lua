-- SPDX-License-Identifier: MIT
-- A pure-Lua input buffer and motion matcher, written for comparison with the C runtime on the
-- same input stream (tests/bench/bench_stress.c). It does what a careful Lua implementation of
-- the same job does: a ring buffer of timestamped edges per fighter, held state, and per new
-- edge a backwards walk over the buffer for every pattern that could end on it, with step gaps
-- and a whole-motion window; completing a pattern consumes its edges. It covers the subset of
-- numpad notation the stress ruleset uses (direction digits, then a button or a button group).
local M = {}

local CAPACITY = 64

-- "236P" -> { steps = { {dir=2}, {dir=3}, {dir=6}, {buttons={[LP]=true,[HP]=true}} }, ... }
function M.compile(name, notation, buttons, groups, opts)
  local steps = {}
  local i = 1
  while i <= #notation do
    local c = notation:sub(i, i)
    if c:match("%d") then
      steps[#steps + 1] = { dir = tonumber(c) }
      i = i + 1
    else
      local word = notation:sub(i)
      local set = {}
      if groups[word] then
        for _, b in ipairs(groups[word]) do set[buttons[b]] = true end
      elseif buttons[word] then
        set[buttons[word]] = true
      else
        error("lua_reference_matcher: cannot read '" .. notation .. "'")
      end
      steps[#steps + 1] = { buttons = set }
      i = #notation + 1
    end
  end
  opts = opts or {}
  local ndirs = #steps - 1
  return {
    name = name,
    steps = steps,
    window = opts.window or 15,
    gap = opts.gap or (ndirs <= 3 and 12 or 8),
    priority = opts.priority or 0,
  }
end

function M.fighter()
  local edges = {}
  for i = 1, CAPACITY do
    edges[i] = { id = 0, tick = 0, kind = 0, action = 0, dir = 5, consumed = false }
  end
  return { edges = edges, head = 1, count = 0, next_id = 1, held = {}, dir = 5, facing = 1 }
end

-- kind: 0 press, 1 release, 2 direction (value = new absolute numpad)
function M.push(f, tick, kind, value)
  local slot
  if f.count == CAPACITY then
    slot = f.head
    f.head = f.head % CAPACITY + 1
  else
    slot = (f.head + f.count - 1) % CAPACITY + 1
    f.count = f.count + 1
  end
  local e = f.edges[slot]
  e.id = f.next_id
  f.next_id = f.next_id + 1
  e.tick = tick
  e.kind = kind
  e.consumed = false
  if kind == 2 then
    e.dir = value
    e.action = 0
    f.dir = value
  else
    e.action = value
    e.dir = f.dir
    f.held[value] = kind == 0 or nil
  end
end

local mirror = { 3, 2, 1, 6, 5, 4, 9, 8, 7 }

local function matches(step, e, facing)
  if e.consumed then return false end
  if step.dir then
    if e.kind ~= 2 then return false end
    local d = facing == 1 and e.dir or mirror[e.dir]
    return d == step.dir
  end
  return e.kind == 0 and step.buttons[e.action] == true
end

-- Tries every pattern against the newest edge; returns the name of the best completion (by
-- priority, then length) and consumes its edges, or nil.
local function try_edge(f, patterns, index, tick)
  local edges, head, facing = f.edges, f.head, f.facing
  local newest = edges[(head + index - 2) % CAPACITY + 1]
  local best, best_used, best_n
  local used = {}
  for p = 1, #patterns do
    local pat = patterns[p]
    local steps = pat.steps
    local n = #steps
    if matches(steps[n], newest, facing) then
      local k = n - 1
      local last_tick = newest.tick
      used[1] = newest
      local nused = 1
      local j = index - 1
      while k >= 1 and j >= 1 do
        local e = edges[(head + j - 2) % CAPACITY + 1]
        if tick - e.tick > pat.window or last_tick - e.tick > pat.gap then break end
        if matches(steps[k], e, facing) then
          nused = nused + 1
          used[nused] = e
          last_tick = e.tick
          k = k - 1
        end
        j = j - 1
      end
      if k == 0 and (not best or pat.priority > best.priority or
                     (pat.priority == best.priority and n > #best.steps)) then
        best = pat
        best_n = nused
        best_used = { table.unpack(used, 1, nused) }
      end
    end
  end
  if best then
    for i = 1, best_n do
      local e = best_used[i]
      e.consumed = true
    end
    return best.name
  end
  return nil
end

-- One tick for one fighter: matches the edges of this tick (the newest `fresh` edges).
function M.step(f, patterns, tick, fresh, out)
  local found = 0
  for i = f.count - fresh + 1, f.count do
    local name = try_edge(f, patterns, i, tick)
    if name then
      found = found + 1
      out[found] = name
    end
  end
  return found
end

return M
