/*
 * board.c - Arm MPS2 with the AN500 FPGA image (Cortex-M7, QEMU -machine
 * mps2-an500): UART0, a CMSDK APB UART on the 25 MHz peripheral clock.
 */
#define CMSDK_UART_BASE 0x40004000u
#define CMSDK_UART_PCLK_HZ 25000000u
#include "cmsdk_uart_board.h"
