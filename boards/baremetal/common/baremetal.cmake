# baremetal.cmake - shared part of boards/baremetal/<board>/board.cmake.
#
# A board.cmake sets these, then includes this file:
#   TINYAOT_BOARD_CPU_FLAGS     compiler flags for the core (-mcpu=..., -mthumb)
#   TINYAOT_BOARD_FLASH_SIZE    bytes
#   TINYAOT_BOARD_RAM_SIZE      bytes
#   TINYAOT_BOARD_STACK_SIZE    bytes (must match __stack_size in linker.ld)
#   TINYAOT_BOARD_CYCLES_HZ     SysTick (processor clock) frequency
#   TINYAOT_BOARD_QEMU_ARGS     how to run it under QEMU (list), or empty
# and gets tinyaot_baremetal_board(<target>), which adds startup code, the
# board's UART driver, flags and the linker script to an executable.

set(TINYAOT_BAREMETAL_COMMON "${CMAKE_CURRENT_LIST_DIR}")

function(tinyaot_baremetal_board target)
  target_sources(${target} PRIVATE
    "${TINYAOT_BAREMETAL_COMMON}/startup.c"
    "${TINYAOT_BAREMETAL_COMMON}/systick.c"
    "${TINYAOT_BOARD_DIR}/board.c")
  target_include_directories(${target} PRIVATE "${TINYAOT_BAREMETAL_COMMON}")
  target_compile_options(${target} PRIVATE ${TINYAOT_BOARD_CPU_FLAGS}
    -ffunction-sections -fdata-sections -ffreestanding)
  target_compile_definitions(${target} PRIVATE
    "TINYAOT_BOARD_CYCLES_HZ=${TINYAOT_BOARD_CYCLES_HZ}u")
  target_link_options(${target} PRIVATE ${TINYAOT_BOARD_CPU_FLAGS}
    -nostartfiles --specs=nano.specs --specs=nosys.specs
    -Wl,--gc-sections -Wl,--print-memory-usage
    "-Wl,-Map=$<TARGET_FILE:${target}>.map"
    "-L${TINYAOT_BAREMETAL_COMMON}" "-T${TINYAOT_BOARD_DIR}/linker.ld")
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS
    "${TINYAOT_BOARD_DIR}/linker.ld" "${TINYAOT_BAREMETAL_COMMON}/sections.ld")
endfunction()
