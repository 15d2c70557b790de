-- LOVE configuration of the framegate duel sample: a small window, no sound (CI runs it
-- headless, where no audio device exists).
function love.conf(t)
  t.identity = "framegate-duel"
  t.window.title = "framegate duel (LuaJIT FFI)"
  t.window.width, t.window.height = 800, 360
  t.window.vsync = 1
  t.modules.audio, t.modules.sound = false, false
  t.modules.joystick, t.modules.physics = false, false
end
