-- SPDX-License-Identifier: MIT
-- framegate.play_view: what the playtest window draws, from committed state only. The layout
-- and the colours are fixed and documented (docs/playtest.md), so a test can find a box or a
-- meter cell in a screenshot from the world's numbers alone:
--
--   stage:  screen x = 640 + 1.5 * x, screen y = 380 - 1.5 * y (world pixels, y up)
--   meter:  row r (0 = e1) at y = 414 + 20 * r, 16 high; tick `from + i` at x = 40 + 9 * i, 8 wide
--   reload banner: from y = 88, 1200 wide at x = 40
--
-- Boxes come from one function, M.boxes(view, entity, state): a list of
-- { kind = "hurt"|"hit"|"push"|"throw", x0 =, y0 =, x1 =, y1 = } in world pixels, read from the
-- world (entity:boxes()) with stand-ins where the world has none; projectiles' hit boxes come
-- from view.projectiles (w:projectiles()).
local fg = require "framegate"

local M = {}

M.WIDTH, M.HEIGHT = 1280, 800
M.ORIGIN_X, M.GROUND_Y, M.SCALE = 640, 380, 1.5
M.METER_X, M.METER_Y, M.METER_CELL, M.METER_ROW, M.METER_TICKS = 40, 414, 9, 20, 132
-- Fighters have no drawn body yet: the push box is min_gap wide and this tall (crouching:
-- CROUCH_H); the hit range is a band at HIT_Y0..HIT_Y1 above the attacker's feet.
M.BODY_H, M.CROUCH_H, M.HIT_Y0, M.HIT_Y1 = 100, 64, 50, 74
-- The reload banner's top edge: under the bars, the mode line and the combo counter.
M.BANNER_Y = 88

M.colours = {
  background = { 16, 18, 26 }, floor = { 58, 60, 72 }, text = { 225, 228, 235 },
  dim = { 140, 146, 160 }, p1 = { 90, 190, 255 }, p2 = { 255, 150, 90 },
  hurt = { 60, 140, 255 }, hit = { 255, 40, 40 }, push = { 255, 210, 0 }, throw = { 230, 0, 230 },
  health = { 90, 210, 120 }, meter = { 80, 170, 255 }, bar_back = { 44, 46, 58 },
  ok = { 20, 100, 50 }, failed = { 130, 24, 30 }, panel = { 52, 56, 74 },
  accepted = { 150, 225, 150 }, rejected = { 255, 160, 150 }, queued = { 240, 220, 130 },
}
-- One colour per frame meter character (the legend of w:meter).
M.meter_colours = {
  ["."] = { 50, 52, 62 }, s = { 40, 190, 170 }, A = { 240, 70, 110 }, r = { 40, 100, 220 },
  c = { 255, 150, 40 }, x = { 240, 220, 70 }, ["="] = { 200, 200, 200 }, b = { 170, 90, 230 },
  ["^"] = { 120, 200, 255 },
}

function M.project(x, y)
  return M.ORIGIN_X + M.SCALE * x, M.GROUND_Y - M.SCALE * y
end

-- A world rectangle as the integer screen rectangle the window fills (x, y, w, h).
function M.screen_rect(x0, y0, x1, y1)
  local ax, ay = M.project(math.min(x0, x1), math.max(y0, y1))
  local bx, by = M.project(math.max(x0, x1), math.min(y0, y1))
  ax, ay, bx, by = math.floor(ax + 0.5), math.floor(ay + 0.5), math.floor(bx + 0.5), math.floor(by + 0.5)
  return ax, ay, math.max(1, bx - ax), math.max(1, by - ay)
end

-- World boxes reach "every height" with huge extents (the default hurt line, the range
-- shorthand); on screen they span the fighter's body instead.
local TALL = 10000

-- The boxes of one entity. state: what capture() read after the tick ({ x =, y =, cx =, cy =,
-- facing =, elapsed =, def =, boxes = entity:boxes() }), x and y interpolated, cx and cy the
-- committed position the world placed the boxes at. The world's boxes come first; where it has
-- none of a kind, what the gate uses stands in: the push box spans min_gap, and an action with
-- the `range` shorthand reaches that far in front of the attacker during its active ticks.
function M.boxes(view, _entity, state)
  local list, has = {}, {}
  local dx, dy = state.x - (state.cx or state.x), state.y - (state.cy or state.y)
  for _, b in ipairs(state.boxes or {}) do
    local y0, y1 = b.y0 + dy, b.y1 + dy
    if y1 - y0 > TALL then y0, y1 = state.y, state.y + M.BODY_H end
    list[#list + 1] = { kind = b.kind, x0 = b.x0 + dx, y0 = y0, x1 = b.x1 + dx, y1 = y1 }
    has[b.kind] = true
  end
  if not has.push then
    local half = view.physics.min_gap / 2
    local h = state.crouching and M.CROUCH_H or M.BODY_H
    list[#list + 1] = { kind = "push", x0 = state.x - half, y0 = state.y, x1 = state.x + half, y1 = state.y + h }
  end
  local def = state.def
  if not has.hit and def and def.hit and def.hit.range > 0
      and state.elapsed >= def.startup and state.elapsed < def.startup + def.active then
    local dir = state.facing == "left" and -1 or 1
    list[#list + 1] = { kind = "hit", x0 = state.x, y0 = state.y + M.HIT_Y0,
                        x1 = state.x + dir * def.hit.range, y1 = state.y + M.HIT_Y1 }
  end
  return list
end

local function rgb(c, a) return c[1], c[2], c[3], a or 255 end

function M.text(win, x, y, s, c, scale)
  return win:text(math.floor(x), math.floor(y), s, c[1], c[2], c[3], scale or 2)
end

-- Splits text into lines of at most width characters, at spaces where it can: nothing a user
-- reads is cut off.
function M.wrap(s, width)
  local lines = {}
  for para in (s .. "\n"):gmatch("(.-)\n") do
    while #para > width do
      local cut = para:sub(1, width + 1):match("^.*() ") or width + 1
      if cut <= 1 then cut = width + 1 end
      lines[#lines + 1] = para:sub(1, cut - 1)
      para = "  " .. para:sub(cut):gsub("^ +", "")
    end
    lines[#lines + 1] = para
  end
  return lines
end

local function bar(win, x, y, w, h, frac, colour, right_to_left)
  win:rect(x, y, w, h, rgb(M.colours.bar_back))
  local fw = math.floor(w * math.max(0, math.min(1, frac)) + 0.5)
  if fw > 0 then win:rect(right_to_left and x + w - fw or x, y, fw, h, rgb(colour)) end
end

local function draw_bars(win, view, p)
  for i = 1, 2 do
    local e = view.entities[i]
    local res = e.resources
    local left = i == 1
    local x = left and 40 or 700
    local health, hmax = res.health or 0, view.health_max[i] or 1
    bar(win, x, 8, 540, 14, health / math.max(1, hmax), M.colours.health, not left)
    bar(win, x, 26, 540, 6, (res.meter or 0) / 300, M.colours.meter, not left)
    local label = ("P%d %s  %d  meter %d"):format(i, e.action or "", health, res.meter or 0)
    M.text(win, left and x or x + 540 - #label * 6, 36, label, i == 1 and M.colours.p1 or M.colours.p2, 1)
  end
  local mode = ("tick %d  %s"):format(view.tick, p.mode_text or "")
  M.text(win, 640 - #mode * 6, 48, mode, M.colours.text)
end

local function draw_stage(win, view, p)
  local c = M.colours
  local sx0 = M.project(view.physics.stage_min, 0)
  local sx1 = M.project(view.physics.stage_max, 0)
  win:rect(math.floor(sx0), M.GROUND_Y, math.floor(sx1 - sx0), 12, rgb(c.floor))
  -- Boxes of every entity, hit boxes last so nothing blends over them.
  if p.boxes then
    local all = {}
    for _, e in ipairs(view.entities) do
      for _, b in ipairs(M.boxes(view, e.entity, e)) do all[#all + 1] = b end
    end
    -- Projectiles: their hit boxes as the next tick tests them (w:projectiles()).
    for _, pr in ipairs(view.projectiles or {}) do
      for _, b in ipairs(pr.boxes) do all[#all + 1] = b end
    end
    for _, kind in ipairs { "push", "hurt", "throw", "hit" } do
      for _, b in ipairs(all) do
        if b.kind == kind then
          local x, y, w, h = M.screen_rect(b.x0, b.y0, b.x1, b.y1)
          local bc = c[kind]
          win:rect(x, y, w, h, bc[1], bc[2], bc[3], 60)
          win:outline(x, y, w, h, rgb(bc))
        end
      end
    end
  end
  for i, e in ipairs(view.entities) do
    local sx, sy = M.project(e.x, e.y)
    local colour = i == 1 and c.p1 or i == 2 and c.p2 or c.dim
    -- facing: a short line from the feet towards the opponent's side
    local dir = e.facing == "left" and -1 or 1
    win:line(math.floor(sx), math.floor(sy) - 4, math.floor(sx + dir * 30), math.floor(sy) - 4, rgb(colour))
    M.text(win, sx - 12, sy - M.BODY_H * M.SCALE - 20, i <= 2 and ("P" .. i) or ("e" .. i), colour)
    if e.frozen > 0 then M.text(win, sx - 24, sy + 16, "stop " .. e.frozen, c.dim, 1) end
  end
  if view.combo and view.combo.hits > 1 then
    local s = ("%d hits  %d damage"):format(view.combo.hits, view.combo.damage)
    M.text(win, view.combo.attacker == 1 and 40 or 1240 - #s * 12, 66, s, c.queued)
  end
end

-- Parses w:meter's text: { rows = { "ssssA==..." per entity }, summary = "e1: startup ..." }
function M.parse_meter(text)
  local m = { rows = {} }
  for line in text:gmatch("[^\n]+") do
    local id, cells = line:match("^e(%d+)%s+(%S+)$")
    if id then
      m.rows[tonumber(id)] = cells
    elseif line:match("^e%d+: ") then
      m.summary = line
    end
  end
  return m
end

local function draw_meter(win, view)
  local m = view.meter
  for r = 1, 2 do
    local cells = m.rows[r] or ""
    local y = M.METER_Y + M.METER_ROW * (r - 1)
    M.text(win, 8, y + 4, "P" .. r, r == 1 and M.colours.p1 or M.colours.p2, 1)
    for i = 1, #cells do
      local col = M.meter_colours[cells:sub(i, i)] or M.colours.text
      win:rect(M.METER_X + M.METER_CELL * (i - 1), y, M.METER_CELL - 1, 16, rgb(col))
    end
  end
  local s = view.last_move or m.summary
  if s then M.text(win, M.METER_X, M.METER_Y + 2 * M.METER_ROW + 2, s, M.colours.text) end
end

-- A column of lines from the bottom up, newest last; returns the y it stopped at.
local function draw_lines(win, x, y_top, y_bottom, lines, width, colour_of)
  local y = y_bottom
  for i = #lines, 1, -1 do
    local wrapped = M.wrap(lines[i].text or lines[i], width)
    for j = #wrapped, 1, -1 do
      y = y - 16
      if y < y_top then return y end
      M.text(win, x, y, wrapped[j], colour_of and colour_of(lines[i]) or M.colours.text)
    end
  end
  return y
end

local function decision_colour(d)
  local c = M.colours
  return d.decision == "accepted" and c.accepted or d.decision == "rejected" and c.rejected
    or d.decision and c.queued or c.text
end

local function draw_player_panel(win, view, i)
  local p = view.players[i]
  local x = i == 1 and 8 or 648
  local c = M.colours
  win:outline(x - 4, 480, 628, 316, rgb(c.panel))
  M.text(win, x, 484, ("P%d  %s"):format(i, p.controller or ""), i == 1 and c.p1 or c.p2)
  -- input history: numpad (relative to facing), buttons held, ticks held
  local y = 504
  for k = #p.inputs, math.max(1, #p.inputs - 17), -1 do
    local row = p.inputs[k]
    M.text(win, x, y, ("%3d %d %s"):format(math.min(row.ticks, 999), row.dir, row.buttons), c.text)
    y = y + 16
  end
  local cx = x + 200
  M.text(win, cx, 504, "commands", c.dim, 1)
  local cy = 516
  for k = #p.commands, math.max(1, #p.commands - 3), -1 do
    M.text(win, cx, cy, p.commands[k], c.queued)
    cy = cy + 16
  end
  M.text(win, cx, 600, "decisions", c.dim, 1)
  draw_lines(win, cx, 612, 792, p.decisions, 35, decision_colour)
end

local function draw_banner(win, p)
  local b = p.banner
  if not b then return end
  local lines = M.wrap(b.text, 96)
  local h = 8 + 16 * math.min(#lines, 12)
  win:rect(40, M.BANNER_Y, 1200, h, rgb(b.ok and M.colours.ok or M.colours.failed))
  for k = 1, math.min(#lines, 12) do M.text(win, 48, M.BANNER_Y + 4 + 16 * (k - 1), lines[k], M.colours.text) end
end

local function draw_overlay(win, title, lines)
  local rows = {}
  for _, l in ipairs(lines) do
    for _, w in ipairs(M.wrap(l, 94)) do rows[#rows + 1] = w end
  end
  local n = math.min(#rows, 18)
  win:rect(40, 110, 1200, 28 + 16 * n, 10, 12, 18, 235)
  win:outline(40, 110, 1200, 28 + 16 * n, rgb(M.colours.dim))
  M.text(win, 48, 116, title, M.colours.queued)
  for k = 1, n do M.text(win, 48, 132 + 16 * (k - 1), rows[k], M.colours.text) end
end

--- Draws one frame. view: what the host read from the committed world (see play.lua);
--- p: presentation options { boxes =, banner =, overlay = { title =, lines = }, mode_text =, stats = }.
function M.draw(win, view, p)
  win:clear(rgb(M.colours.background))
  draw_stage(win, view, p)
  draw_bars(win, view, p)
  draw_meter(win, view)
  draw_player_panel(win, view, 1)
  draw_player_panel(win, view, 2)
  draw_banner(win, p)
  if p.overlay then draw_overlay(win, p.overlay.title, p.overlay.lines) end
end

M.fg = fg
return M
