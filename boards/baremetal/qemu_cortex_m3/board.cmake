# Stellaris LM3S6965 (Cortex-M3, 256 KB flash, 64 KB RAM) as QEMU's lm3s6965evb.
set(TINYAOT_BOARD_DIR "${CMAKE_CURRENT_LIST_DIR}")
set(TINYAOT_BOARD_CPU_FLAGS -mcpu=cortex-m3 -mthumb -mfloat-abi=soft)
set(TINYAOT_BOARD_FLASH_SIZE 262144)
set(TINYAOT_BOARD_RAM_SIZE 65536)
set(TINYAOT_BOARD_STACK_SIZE 4096)
# Core clock (and SysTick) of QEMU's LM3S6965 after reset, measured against a
# known instruction count under -icount (see boards/baremetal/README.md).
set(TINYAOT_BOARD_CYCLES_HZ 12500000)
set(TINYAOT_BOARD_QEMU_ARGS -machine lm3s6965evb)
include("${CMAKE_CURRENT_LIST_DIR}/../common/baremetal.cmake")
