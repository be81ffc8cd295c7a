# Arm MPS2 AN385 (Cortex-M3) as QEMU's mps2-an385, with the whole 4 MB of its ZBT SSRAMs as
# flash and RAM: the same core as qemu_cortex_m3 with room for what does not fit there.
# `tinyaot bench` runs TFLM here, built with the small board's CPU flags (TINYAOT_CPU_BOARD),
# when TFLM does not fit qemu_cortex_m3 or qemu_cortex_m0: the same-core oracle of float32
# outputs (an Armv6-M firmware runs unchanged on this Armv7-M core).
set(TINYAOT_BOARD_DIR "${CMAKE_CURRENT_LIST_DIR}")
set(TINYAOT_BOARD_CPU_FLAGS -mcpu=cortex-m3 -mthumb -mfloat-abi=soft)
set(TINYAOT_BOARD_FLASH_SIZE 4194304)
set(TINYAOT_BOARD_RAM_SIZE 4194304)
set(TINYAOT_BOARD_STACK_SIZE 8192)
# Core clock (and SysTick) of QEMU's mps2-an385: the MPS2 FPGA images' 25 MHz (mps2-an386's,
# measured; QEMU's hw/arm/mps2.c gives every image the same SYSCLK).
set(TINYAOT_BOARD_CYCLES_HZ 25000000)
set(TINYAOT_BOARD_QEMU_ARGS -machine mps2-an385)
include("${CMAKE_CURRENT_LIST_DIR}/../common/baremetal.cmake")
