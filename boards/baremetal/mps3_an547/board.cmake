# Arm MPS3 AN547 (Cortex-M55 with MVE integer and float and an FPU, Corstone SSE-300) as
# QEMU's mps3-an547, run in the Secure state it boots in: flash is the AN547's whole ITCM
# (512 KB), RAM the DTCM of an Alif Ensemble's high-efficiency Cortex-M55 (256 KB).
set(TINYAOT_BOARD_DIR "${CMAKE_CURRENT_LIST_DIR}")
# Hard float, with multiply-add contraction off: float32 models stay bit-exact with
# TFLM built with these same flags (C++ would otherwise contract to VFMA). GCC's
# -mcpu=cortex-m55 has MVE integer and float (+mve.fp) and the FPU (fp-armv8 with fp16).
set(TINYAOT_BOARD_CPU_FLAGS -mcpu=cortex-m55 -mthumb -mfloat-abi=hard -ffp-contract=off)
set(TINYAOT_BOARD_FLASH_SIZE 524288)
set(TINYAOT_BOARD_RAM_SIZE 262144)
set(TINYAOT_BOARD_STACK_SIZE 8192)
# Core clock (and SysTick) of QEMU's mps3-an547, measured against a known instruction
# count under -icount (see boards/baremetal/README.md).
set(TINYAOT_BOARD_CYCLES_HZ 32000000)
set(TINYAOT_BOARD_QEMU_ARGS -machine mps3-an547)
include("${CMAKE_CURRENT_LIST_DIR}/../common/baremetal.cmake")
