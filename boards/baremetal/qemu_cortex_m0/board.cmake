# nRF51822 (Cortex-M0, 256 KB flash, 16 KB RAM) as QEMU's micro:bit.
set(TINYAOT_BOARD_DIR "${CMAKE_CURRENT_LIST_DIR}")
set(TINYAOT_BOARD_CPU_FLAGS -mcpu=cortex-m0 -mthumb -mfloat-abi=soft)
set(TINYAOT_BOARD_FLASH_SIZE 262144)
set(TINYAOT_BOARD_RAM_SIZE 16384)
set(TINYAOT_BOARD_STACK_SIZE 2048)
# QEMU's nRF51 runs the core (and SysTick) at 16 MHz.
set(TINYAOT_BOARD_CYCLES_HZ 16000000)
set(TINYAOT_BOARD_QEMU_ARGS -machine microbit)
include("${CMAKE_CURRENT_LIST_DIR}/../common/baremetal.cmake")
