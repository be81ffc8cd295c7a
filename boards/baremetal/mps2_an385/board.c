/*
 * board.c - Arm MPS2 with the AN385 FPGA image (Cortex-M3, QEMU -machine
 * mps2-an385): UART0, a CMSDK APB UART on the 25 MHz peripheral clock.
 */
#define CMSDK_UART_BASE 0x40004000u
#define CMSDK_UART_PCLK_HZ 25000000u
#include "cmsdk_uart_board.h"
