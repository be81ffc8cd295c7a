# tinyaot_check.cmake - run with cmake -P by tinyaot_add_model(... RAM_BUDGET/FLASH_BUDGET).
#
# Reads the generator's <name>.json and fails, before anything is linked, when
# the model cannot fit the budget. Inputs (-D): JSON MODEL_NAME MODEL_FILE
# RAM_BUDGET FLASH_BUDGET INCLUDE_IO BUDGET_NAME STAMP.
#
# JSON keys read (top level): arena_size, state_size, weight_bytes, table_bytes,
# and inputs[] / outputs[] with bytes (and arena_offset) each.

cmake_minimum_required(VERSION 3.20)
include("${CMAKE_CURRENT_LIST_DIR}/tinyaot_json.cmake")

file(READ "${JSON}" doc)

tinyaot_json_number(arena "${doc}" arena_size)
tinyaot_json_number(state "${doc}" state_size)
tinyaot_json_flash(weights "${doc}")
tinyaot_json_io_bytes(in_bytes "${doc}" inputs 1)
tinyaot_json_io_bytes(out_bytes "${doc}" outputs 1)

set(problems "")
if(NOT "${RAM_BUDGET}" STREQUAL "")
  math(EXPR ram "${arena} + ${state}")
  set(detail "arena ${arena} + state ${state}")
  if(INCLUDE_IO)
    math(EXPR ram "${ram} + ${in_bytes} + ${out_bytes}")
    string(APPEND detail " + inputs ${in_bytes} + outputs ${out_bytes}")
  endif()
  if(ram GREATER RAM_BUDGET)
    list(APPEND problems "needs ${ram} bytes of RAM (${detail}) but only ${RAM_BUDGET} are available")
  endif()
endif()
if(NOT "${FLASH_BUDGET}" STREQUAL "" AND weights GREATER FLASH_BUDGET)
  list(APPEND problems "needs ${weights} bytes of flash for weights and tables but only ${FLASH_BUDGET} are available")
endif()

if(problems)
  list(JOIN problems "; " text)
  # NOTICE is printed as is; FATAL_ERROR text would be re-wrapped over several
  # lines, and build logs and tests look for the one line.
  message(NOTICE "tinyaot: model '${MODEL_NAME}' does not fit ${BUDGET_NAME}: ${text} (model file ${MODEL_FILE})")
  message(FATAL_ERROR "tinyaot: model '${MODEL_NAME}' is too big")
endif()
file(WRITE "${STAMP}" "arena=${arena} state=${state} weights=${weights} io=${in_bytes}+${out_bytes}\n")
