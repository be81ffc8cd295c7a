# Arm MPS2 AN500 (Cortex-M7 with a double-precision FPU) as QEMU's mps2-an500, with the
# flash and RAM of an STM32F765VG (Cortex-M7 with FPv5-D16, 1 MB flash, 512 KB RAM).
set(TINYAOT_BOARD_DIR "${CMAKE_CURRENT_LIST_DIR}")
# Hard float, with multiply-add contraction off: float32 models stay bit-exact with
# TFLM built with these same flags (C++ would otherwise contract to VFMA).
set(TINYAOT_BOARD_CPU_FLAGS -mcpu=cortex-m7 -mfpu=fpv5-d16 -mthumb -mfloat-abi=hard -ffp-contract=off)
set(TINYAOT_BOARD_FLASH_SIZE 1048576)
set(TINYAOT_BOARD_RAM_SIZE 524288)
set(TINYAOT_BOARD_STACK_SIZE 8192)
# Core clock (and SysTick) of QEMU's mps2-an500, measured against a known instruction
# count under -icount (see boards/baremetal/README.md).
set(TINYAOT_BOARD_CYCLES_HZ 25000000)
set(TINYAOT_BOARD_QEMU_ARGS -machine mps2-an500)
include("${CMAKE_CURRENT_LIST_DIR}/../common/baremetal.cmake")
