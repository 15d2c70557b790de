# SPDX-License-Identifier: MIT
# Builds the framegate CLI with another compiler and optimisation level (just the CLI: runtime,
# bindings, host) and replays every sample replay with it. The replays hold the hashes the
# recording build computed, so this fails if this build computes any tick differently.
#   cmake -DSOURCE=src -DBINARY=dir -DCOMPILER=clang -DBUILD_TYPE=Debug|Release
#         -DREPLAYS="a.fgr;b.fgr" -P cross_build.cmake
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE} -B ${BINARY}
    -DCMAKE_C_COMPILER=${COMPILER} -DCMAKE_BUILD_TYPE=${BUILD_TYPE}
    -DFG_TESTS=OFF -DFG_BENCH=OFF -DFG_WERROR=OFF
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring ${COMPILER} ${BUILD_TYPE} failed:\n${out}${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BINARY} --target framegate_cli -j 2
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building with ${COMPILER} ${BUILD_TYPE} failed:\n${out}${err}")
endif()
foreach(replay ${REPLAYS})
  execute_process(COMMAND ${BINARY}/framegate replay ${replay} --fps 60,144
    WORKING_DIRECTORY ${SOURCE} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${COMPILER} ${BUILD_TYPE}: ${replay} does not replay:\n${out}${err}")
  endif()
  string(REGEX MATCH "final hash ([0-9a-f]+)" m "${out}")
  message(STATUS "${COMPILER} ${BUILD_TYPE}: ${replay}: final hash ${CMAKE_MATCH_1}")
endforeach()
