-- SPDX-License-Identifier: MIT
-- framegate.determinism: what the synctest, replay and trace commands share: finding a ruleset,
-- the two-fighter match they run, loading the rules a replay names, and the reference run that
-- names the fields where a replay diverges.
local fg = require "framegate"

local M = {}

local function exists(path)
  local f = io.open(path, "r")
  if f then f:close() end
  return f ~= nil
end
M.exists = exists

-- A rules file, or a sample directory holding rules.lua.
function M.rules_path(target)
  if target:match("%.lua$") then return exists(target) and target or nil end
  local p = target:gsub("/+$", "") .. "/rules.lua"
  return exists(p) and p or nil
end

-- The two-fighter match the sample duel plays: e1 at -35 facing right, e2 at 35 facing left.
function M.match(rules, seed)
  local w = fg.world { rules = rules, seed = seed }
  w:spawn { x = -35 }
  w:spawn { x = 35, facing = "left" }
  return w
end

local function dirname(path)
  return path:match("^(.*)/[^/]*$") or "."
end

-- The rules a replay was recorded with: --rules PATH, the embedded source (--embedded), or the
-- recorded path, looked for as given, then beside the replay and its parent folder.
-- Returns Rules, a description, or nil and a message.
function M.replay_rules(reader, file, opts)
  local path, files = fg.replay.rules(reader, 0)
  if opts.embedded then
    if #files == 0 then return nil, file .. ": the replay embeds no ruleset source" end
    local ok, rules = pcall(fg.load_rules_source, files[1].path, files[1].text, files)
    if not ok then return nil, file .. ": the embedded ruleset does not load: " .. rules end
    return rules, "the ruleset embedded in the replay (" .. files[1].path .. ")"
  end
  local wanted = opts.rules or path
  if not wanted then
    return nil, file .. ": the replay names no ruleset; pass --rules PATH or --embedded"
  end
  local candidates = { wanted }
  if not opts.rules then
    local here = dirname(file)
    candidates[#candidates + 1] = here .. "/" .. wanted
    local base = wanted:match("[^/]+$")
    candidates[#candidates + 1] = here .. "/" .. base
    candidates[#candidates + 1] = dirname(here) .. "/" .. base
  end
  for _, p in ipairs(candidates) do
    if exists(p) then
      local ok, rules = pcall(fg.rules, p)
      if not ok then return nil, rules end
      return rules, p
    end
  end
  return nil, string.format("%s: cannot find the ruleset %s it was recorded with; pass --rules "
    .. "PATH, or --embedded to use the source stored in the replay", file, wanted)
end

-- True when the loaded rules were read from the same text the replay embeds.
function M.same_source(reader, rules)
  local _, files = fg.replay.rules(reader, 0)
  local mine = rules:sources()
  if #files == 0 or #mine == 0 then return nil end
  for i, f in ipairs(files) do
    if not mine[i] or mine[i].text ~= f.text then return false, f.path end
  end
  return true
end

-- Plays the replay at `file` with `rules` and, in lockstep, with the ruleset embedded in it, and
-- finds the first tick where the two worlds differ. Returns tick, diffs (list of lines) or nil
-- when they never differ (or the replay embeds no source).
function M.reference_diff(file, rules)
  local ra, rb = fg.replay.open(file), fg.replay.open(file)
  local _, files = fg.replay.rules(ra, 0)
  if #files == 0 then return nil end
  local ok, ref_rules = pcall(fg.load_rules_source, files[1].path, files[1].text, files)
  if not ok then return nil end
  local a = fg.replay.world(ra, rules)
  local b = fg.replay.world(rb, ref_rules)
  local pa, pb = a:replay_player(ra), b:replay_player(rb)
  while true do
    local tick = a:tick()
    local oka = pa:step()
    local okb = pb:step()
    if a:hash() ~= b:hash() then
      local diffs, n = a:diff(b:save(), a:save(), 24)
      local lines = {}
      for i, d in ipairs(diffs) do lines[i] = d.text end
      if n > #diffs then lines[#lines + 1] = string.format("... and %d more", n - #diffs) end
      return tick, lines
    end
    if not oka or not okb or pa:status().done or pb:status().done then return nil end
    -- (both players read their own reader: a reader is a cursor)
  end
end

return M
