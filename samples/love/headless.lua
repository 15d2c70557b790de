-- headless.lua: the LOVE sample's scripted run under plain LuaJIT, no window:
--   luajit samples/love/headless.lua [--header PATH] [--lib PATH] [--frames N]
-- It prints the same closing line as `love samples/love --frames N`, so the two can be compared.
local here = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/"
package.path = here .. "?.lua;" .. package.path
local duel = require "duel"
local locate = require "locate"

local o = locate.options(arg)
local header, lib = locate.find(o)
if not header then
  io.stderr:write("headless: ", lib, "\n")
  os.exit(2)
end
duel.load(header, lib)
local frames = tonumber(o.frames or "240")
local d = duel.play_script(frames)
for _, e in ipairs(d.events) do print(e) end
local f = d:fighters()
print(("frames %d, tick %d, e1 health %d, e2 health %d, state hash %s"):format(frames, d:tick(),
  f[1].health, f[2].health, d:hash()))
