# SPDX-License-Identifier: MIT
# The same replay in separate processes (address randomisation on, as the system runs them) must
# end on one final hash: the hash may not depend on addresses, Lua's string hash seed, or the
# order pairs() walks a table in.
#   cmake -DCLI=framegate -DREPLAY=file.fgr -DRUNS=10 -P processes.cmake
set(hashes "")
foreach(i RANGE 1 ${RUNS})
  execute_process(COMMAND ${CLI} replay ${REPLAY} RESULT_VARIABLE rc OUTPUT_VARIABLE out
    ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "run ${i}: framegate replay failed (${rc}):\n${out}${err}")
  endif()
  string(REGEX MATCH "final hash ([0-9a-f]+)" m "${out}")
  if(NOT m)
    message(FATAL_ERROR "run ${i}: no final hash in:\n${out}")
  endif()
  list(APPEND hashes ${CMAKE_MATCH_1})
endforeach()
list(REMOVE_DUPLICATES hashes)
list(LENGTH hashes n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "${RUNS} processes gave ${n} different final hashes: ${hashes}")
endif()
message(STATUS "${RUNS} processes, one final hash: ${hashes}")
