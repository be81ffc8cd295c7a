# Arm MPS2 AN505 (Cortex-M33 with DSP and FPU, SSE-200) as QEMU's mps2-an505, run in the
# Secure state it boots in, with the flash and RAM of an nRF9160 (Cortex-M33, 1 MB
# flash, 256 KB RAM).
set(TINYAOT_BOARD_DIR "${CMAKE_CURRENT_LIST_DIR}")
# Hard float, with multiply-add contraction off: float32 models stay bit-exact with
# TFLM built with these same flags (C++ would otherwise contract to VFMA).
set(TINYAOT_BOARD_CPU_FLAGS -mcpu=cortex-m33 -mfpu=fpv5-sp-d16 -mthumb -mfloat-abi=hard -ffp-contract=off)
set(TINYAOT_BOARD_FLASH_SIZE 1048576)
set(TINYAOT_BOARD_RAM_SIZE 262144)
set(TINYAOT_BOARD_STACK_SIZE 8192)
# Core clock (and SysTick) of QEMU's mps2-an505, measured against a known instruction
# count under -icount (see boards/baremetal/README.md).
set(TINYAOT_BOARD_CYCLES_HZ 20000000)
set(TINYAOT_BOARD_QEMU_ARGS -machine mps2-an505)
include("${CMAKE_CURRENT_LIST_DIR}/../common/baremetal.cmake")
