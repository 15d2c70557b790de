-- SPDX-License-Identifier: MIT
-- framegate.whatif: a recorded match's inputs against other rules. Two worlds run side by side
-- from the replay's start: one with the recorded rules, verified against the replay as it goes,
-- and one fed the same recorded inputs that switches to the new rules at the branch tick (as a
-- hot reload does) and then runs on with them, without ever being reset to the recorded state.
-- Every tick the two are compared: the request decisions that differ, the first tick the
-- fighters' state differs and how, and how the match ends with each. Nothing here reads the
-- clock or walks a table in hash order, so the report is the same on every run.
local fg = require "framegate"

local M = {}

-- The fields of a fighter that say where a match stands: its body action and where it is in it,
-- its position and facing, every resource. The view's own sorted order, copied right away (a
-- view is re-pointed by the next call).
local FIELDS = { "action", "phase", "elapsed", "group", "x", "y", "facing" }

local function standing(w)
  local out = {}
  for id = 1, math.huge do
    local e = w:entity(id)
    if not e then break end
    local v = e:view()
    local rows = {}
    for _, k in ipairs(FIELDS) do rows[#rows + 1] = { k, tostring(v[k]) } end
    for k, amount in pairs(v.resources) do -- a view's pairs() is in sorted order
      rows[#rows + 1] = { "resources." .. k, tostring(amount) }
    end
    out[id] = rows
  end
  return out
end

-- Lines "e1 x: -35 -> -20 (recorded -> what-if)" for the fields that differ.
local function standing_diff(was, now)
  local lines = {}
  for id = 1, math.max(#was, #now) do
    local a, b = was[id] or {}, now[id] or {}
    for i = 1, math.max(#a, #b) do
      local ka, kb = a[i] and a[i][1], b[i] and b[i][1]
      local va, vb = a[i] and a[i][2] or "-", b[i] and b[i][2] or "-"
      if ka ~= kb or va ~= vb then
        lines[#lines + 1] = string.format("e%d %s: %s -> %s", id, ka or kb, va, vb)
      end
    end
  end
  return lines
end

-- The decisions of the tick that just ran, in the trace's order, then an empty trace.
local function decisions(w)
  local list = w:decisions()
  w:trace_clear()
  return list
end

-- The differences between the decisions of one tick: matched in order by (entity, action); what
-- is left unmatched happened only with one of the rulesets.
local function compare(tick, was, now, out)
  local used = {}
  local function add(fmt, ...) out[#out + 1] = string.format("tick %d: " .. fmt, tick, ...) end
  local only_new = {}
  for _, d in ipairs(now) do
    local match
    for j, o in ipairs(was) do
      if not used[j] and o.entity == d.entity and o.action == d.action then
        match = o
        used[j] = true
        break
      end
    end
    if not match then
      only_new[#only_new + 1] = d
    elseif match.decision ~= d.decision then
      add("e%d %s now %s (was %s)", d.entity, d.action, d.text, match.text)
    elseif match.reason ~= d.reason then
      add("e%d %s still %s, now %s (was %s)", d.entity, d.action, d.decision, d.text, match.text)
    end
  end
  for _, d in ipairs(only_new) do
    add("e%d %s is now requested: %s (no such request before)", d.entity, d.action, d.text)
  end
  for j, o in ipairs(was) do
    if not used[j] then
      add("e%d %s is no longer requested (was %s)", o.entity, o.action, o.text)
    end
  end
end

-- Runs the what-if of the replay at `file`: `recorded` are the rules it replays with, `new_rules`
-- the rules to try; opts.from is the branch tick (default: the replay's first). Returns a report
-- or nil and a message when the recorded rules themselves do not replay:
--   { from, to, branch, differences, lines (every decision that differs, in tick order),
--     first_decision (tick or nil), first_state (tick or nil), state_lines (how the fighters
--     differ at first_state), final_lines (how they differ at the end), stopped (a message when
--     the new rules' world could not take the recorded input) }
function M.run(file, recorded, new_rules, opts)
  opts = opts or {}
  local ra, rb = fg.replay.open(file), fg.replay.open(file)
  local a = fg.replay.world(ra, recorded)
  local b = fg.replay.world(rb, recorded)
  local pa, pb = a:replay_player(ra), b:replay_player(rb, { verify = false })
  local start = a:tick()
  local branch = math.max(start, opts.from or start)
  local last = ra:stats().final_tick
  if last and branch > last then
    return nil, string.format("the branch tick %d is past the replay's last tick %d", branch, last)
  end
  local report = { from = start, branch = branch, differences = 0, lines = {}, state_lines = {},
    final_lines = {} }
  local branched = false
  a:trace_clear()
  b:trace_clear()
  while not pa:status().done do
    local tick = a:tick()
    if not branched and tick >= branch then
      local info, msg = b:reload(new_rules)
      if not info then return nil, "the new rules do not take over: " .. tostring(msg) end
      branched = true
    end
    local ok, msg = pa:step()
    if not ok then return nil, msg end
    local okb, okstep, msgb = pcall(pb.step, pb)
    if not okb or not okstep then
      report.stopped = string.format("tick %d: %s", tick, tostring(okb and msgb or okstep))
      break
    end
    local before = #report.lines
    compare(tick, decisions(a), decisions(b), report.lines)
    if #report.lines > before and not report.first_decision then report.first_decision = tick end
    if branched and not report.first_state then
      local lines = standing_diff(standing(a), standing(b))
      if #lines > 0 then
        report.first_state = tick
        report.state_lines = lines
      end
    end
  end
  report.to = a:tick()
  report.differences = #report.lines
  report.final_lines = standing_diff(standing(a), standing(b))
  report.hash, report.new_hash = a:hash(), b:hash()
  return report
end

-- The report as lines for a terminal: at most `limit` decision lines (default 20).
function M.format(report, limit)
  limit = limit or 20
  local out = {}
  local function put(fmt, ...) out[#out + 1] = string.format(fmt, ...) end
  put("  ticks %d-%d, the new rules from tick %d on, run continuously (never reset to the "
    .. "recorded state)", report.from, report.to - 1, report.branch)
  if report.differences == 0 and not report.first_state then
    put("  no decision and no fighter's state differs")
  end
  if report.first_decision then
    put("  first different decision at tick %d; %d decision(s) differ in all%s:",
      report.first_decision, report.differences,
      report.differences > limit and string.format(" (the first %d)", limit) or "")
    for i = 1, math.min(limit, #report.lines) do put("    %s", report.lines[i]) end
  end
  if report.first_state then
    put("  the fighters first differ after tick %d (recorded -> what-if):", report.first_state)
    for _, l in ipairs(report.state_lines) do put("    %s", l) end
  end
  if #report.final_lines > 0 then
    put("  at the end, tick %d (recorded -> what-if):", report.to - 1)
    for _, l in ipairs(report.final_lines) do put("    %s", l) end
  elseif report.first_state then
    put("  at the end, tick %d: the fighters stand the same", report.to - 1)
  end
  if report.stopped then put("  the what-if stopped early: %s", report.stopped) end
  return out
end

return M
