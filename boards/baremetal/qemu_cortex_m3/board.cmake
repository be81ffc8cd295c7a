# Stellaris LM3S6965 (Cortex-M3, 256 KB flash, 64 KB RAM) as QEMU's lm3s6965evb.
set(TINYAOT_BOARD_DIR "${CMAKE_CURRENT_LIST_DIR}")
set(TINYAOT_BOARD_CPU_FLAGS -mcpu=cortex-m3 -mthumb -mfloat-abi=soft)
set(TINYAOT_BOARD_FLASH_SIZE 262144)
set(TINYAOT_BOARD_RAM_SIZE 65536)
set(TINYAOT_BOARD_STACK_SIZE 4096)
# Reset clock of the LM3S6965 as QEMU models it (measured, see README).
set(TINYAOT_BOARD_CYCLES_HZ 12000000)
set(TINYAOT_BOARD_QEMU_ARGS -machine lm3s6965evb)
include("${CMAKE_CURRENT_LIST_DIR}/../common/baremetal.cmake")
