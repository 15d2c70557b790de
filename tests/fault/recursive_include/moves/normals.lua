return include "moves/normals.lua"
