# tinyaot_firmware.cmake - shared by the bare-metal test firmwares
# (firmware/serial_runner, firmware/tflm_runner and its core). Include it before
# project(): it picks the Arm toolchain and the board, and gives
#   TINYAOT_REPO, BOARD, TINYAOT_FIRMWARE_BOARD_DIR, TINYAOT_CPU_BOARD
#   tinyaot_firmware_board()           (after project(): BOARD's board.cmake, with
#       TINYAOT_CPU_BOARD's CPU flags when that is set)
#   tinyaot_firmware_model_options()   (before project(): the options every model
#       firmware takes: TINYAOT_MODEL, TINYAOT_MODEL_NAME, the optimisation level)
#   tinyaot_firmware_c_setup()         (after project(): the board, tinyaot_add_model, C99)
#   tinyaot_firmware_outputs(<target> <model name> <model json> [<"key": value> ...])
#       runner.bin after the link, and firmware.json: what the host harness
#       (python/tinyaot/harness) needs to know about the build, plus the
#       firmware's own fields
include_guard(GLOBAL)

get_filename_component(TINYAOT_REPO "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
if(NOT CMAKE_TOOLCHAIN_FILE)
  set(CMAKE_TOOLCHAIN_FILE "${TINYAOT_REPO}/cmake/arm-none-eabi.cmake")
endif()

set(BOARD "qemu_cortex_m3" CACHE STRING "Board in boards/baremetal/")
set(TINYAOT_FIRMWARE_BOARD_DIR "${TINYAOT_REPO}/boards/baremetal/${BOARD}")
if(NOT EXISTS "${TINYAOT_FIRMWARE_BOARD_DIR}/board.cmake")
  message(FATAL_ERROR "Unknown BOARD '${BOARD}' (no ${TINYAOT_FIRMWARE_BOARD_DIR}/board.cmake)")
endif()
# Another board whose CPU flags the firmware is compiled with, on BOARD's memory map, UART
# and QEMU machine: `tinyaot bench` runs TFLM built for qemu_cortex_m0 (-mcpu=cortex-m0, its
# multilib's libm) on mps2_an385, a Cortex-M3 with room for it, to compare float32 bit for bit.
set(TINYAOT_CPU_BOARD "" CACHE STRING "Board in boards/baremetal/ whose CPU flags to build with (empty: BOARD's)")
if(TINYAOT_CPU_BOARD AND NOT EXISTS "${TINYAOT_REPO}/boards/baremetal/${TINYAOT_CPU_BOARD}/board.cmake")
  message(FATAL_ERROR "Unknown TINYAOT_CPU_BOARD '${TINYAOT_CPU_BOARD}'")
endif()

function(_tinyaot_cpu_flags_of board out)
  include("${TINYAOT_REPO}/boards/baremetal/${board}/board.cmake")  # in this function's scope only
  set(${out} "${TINYAOT_BOARD_CPU_FLAGS}" PARENT_SCOPE)
endfunction()

macro(tinyaot_firmware_board)
  include("${TINYAOT_FIRMWARE_BOARD_DIR}/board.cmake")
  if(TINYAOT_CPU_BOARD)
    _tinyaot_cpu_flags_of("${TINYAOT_CPU_BOARD}" TINYAOT_BOARD_CPU_FLAGS)
  endif()
endmacro()

macro(tinyaot_firmware_model_options)
  set(TINYAOT_MODEL "" CACHE FILEPATH "Model (.tflite) to build into the firmware")
  set(TINYAOT_MODEL_NAME "" CACHE STRING "C identifier of the model")
  # -O2: the firmware measures inference speed, so optimise for it; -Os is an option.
  set(TINYAOT_FIRMWARE_OPT "-O2" CACHE STRING "Optimisation flag for the firmware")
  # CMSIS-NN at the same level as the rest, not its own default -Ofast: a like-for-like
  # measurement, and -Ofast's unrolling would not fit person_detect in 256 KB.
  set(CMSIS_OPTIMIZATION_LEVEL "${TINYAOT_FIRMWARE_OPT}" CACHE STRING "CMSIS-NN optimisation level")
endmacro()

macro(tinyaot_firmware_c_setup)
  tinyaot_firmware_board()
  include("${TINYAOT_REPO}/cmake/tinyaot.cmake")   # tinyaot_add_model, the generator's Python, CMSIS-NN
  set(CMAKE_C_STANDARD 99)
  set(CMAKE_C_STANDARD_REQUIRED ON)
  set(CMAKE_C_EXTENSIONS OFF)
  set(CMAKE_EXECUTABLE_SUFFIX ".elf")
endmacro()

function(tinyaot_firmware_outputs target model_name model_json)
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND "${CMAKE_OBJCOPY}" -O binary "$<TARGET_FILE:${target}>" "${CMAKE_CURRENT_BINARY_DIR}/runner.bin"
    VERBATIM)
  # Written at configure time.
  string(REPLACE ";" "\", \"" qemu_args "${TINYAOT_BOARD_QEMU_ARGS}")
  set(fields "")
  foreach(field IN LISTS ARGN)
    string(APPEND fields "  ${field},\n")
  endforeach()
  file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/firmware.json" "{
${fields}  \"board\": \"${BOARD}\",
  \"model_name\": \"${model_name}\",
  \"model_json\": \"${model_json}\",
  \"elf\": \"${CMAKE_CURRENT_BINARY_DIR}/runner.elf\",
  \"bin\": \"${CMAKE_CURRENT_BINARY_DIR}/runner.bin\",
  \"cycles_hz\": ${TINYAOT_BOARD_CYCLES_HZ},
  \"flash_size\": ${TINYAOT_BOARD_FLASH_SIZE},
  \"ram_size\": ${TINYAOT_BOARD_RAM_SIZE},
  \"stack_size\": ${TINYAOT_BOARD_STACK_SIZE},
  \"qemu_args\": [\"${qemu_args}\"],
  \"size_tool\": \"${CMAKE_SIZE}\"
}
")
endfunction()
