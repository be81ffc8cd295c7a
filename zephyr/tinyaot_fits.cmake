# tinyaot_fits.cmake - cmake -P script run by the Zephyr glue before linking.
#
# Adds up what all models of the application need and fails with one clear
# line when that cannot fit the board, instead of a linker overflow later.
# Inputs (-D): JSONS (comma separated <name>.json files) BOARD RAM RAM_RESERVE
# FLASH FLASH_RESERVE (bytes; RAM/FLASH empty = unknown, not checked) STAMP.

cmake_minimum_required(VERSION 3.20)
include("${CMAKE_CURRENT_LIST_DIR}/../cmake/tinyaot_json.cmake")

string(REPLACE "," ";" jsons "${JSONS}")
set(ram_need 0)
set(flash_need 0)
set(ram_detail "")
set(flash_detail "")
foreach(j IN LISTS jsons)
  file(READ "${j}" doc)
  string(JSON name ERROR_VARIABLE err GET "${doc}" name)
  if(err)
    get_filename_component(name "${j}" NAME_WE)
  endif()
  tinyaot_json_number(arena "${doc}" arena_size)
  tinyaot_json_number(state "${doc}" state_size)
  tinyaot_json_flash(weights "${doc}")
  math(EXPR ram_need "${ram_need} + ${arena} + ${state}")
  math(EXPR flash_need "${flash_need} + ${weights}")
  list(APPEND ram_detail "${name}: arena ${arena} + state ${state}")
  list(APPEND flash_detail "${name}: weights and tables ${weights}")
endforeach()
list(JOIN ram_detail ", " ram_detail)
list(JOIN flash_detail ", " flash_detail)

set(problems "")
if(NOT "${RAM}" STREQUAL "")
  math(EXPR ram_avail "${RAM} - ${RAM_RESERVE}")
  if(ram_need GREATER ram_avail)
    string(CONCAT p
      "models need ${ram_need} B of RAM (${ram_detail}) but ${BOARD} has ${RAM} B of SRAM, "
      "${RAM_RESERVE} B of it kept for Zephyr and the app (CONFIG_TINYAOT_RAM_RESERVE), "
      "leaving ${ram_avail} B")
    list(APPEND problems "${p}")
  endif()
endif()
if(NOT "${FLASH}" STREQUAL "")
  math(EXPR flash_avail "${FLASH} - ${FLASH_RESERVE}")
  if(flash_need GREATER flash_avail)
    string(CONCAT p
      "models need ${flash_need} B of flash (${flash_detail}) but ${BOARD} has ${FLASH} B, "
      "${FLASH_RESERVE} B of it kept for code (CONFIG_TINYAOT_FLASH_RESERVE), "
      "leaving ${flash_avail} B")
    list(APPEND problems "${p}")
  endif()
endif()

if(problems)
  list(JOIN problems "; " text)
  # Plain message first: FATAL_ERROR text gets re-wrapped at 80 columns, and
  # one unbroken line is what people and log scrapers search for.
  message(NOTICE "tinyaot: the models do not fit ${BOARD}: ${text}")
  message(FATAL_ERROR "tinyaot: model size check failed for ${BOARD} (see the line above)")
endif()
file(WRITE "${STAMP}" "ram=${ram_need} flash=${flash_need}\n")
