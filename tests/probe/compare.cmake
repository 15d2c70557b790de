# SPDX-License-Identifier: MIT
# Runs one probe (CMD, or CMD lua SCRIPT) and fails unless its standard output equals the file
# EXPECTED byte for byte.
if(DEFINED SCRIPT)
  execute_process(COMMAND ${CMD} lua ${SCRIPT} OUTPUT_VARIABLE out ERROR_VARIABLE err
    RESULT_VARIABLE rc)
else()
  execute_process(COMMAND ${CMD} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "probe failed (exit ${rc}):\n${err}")
endif()
file(READ ${EXPECTED} want)
if(NOT out STREQUAL want)
  message(FATAL_ERROR "probe output differs from ${EXPECTED}\n--- expected\n${want}--- got\n${out}${err}")
endif()
