/*
 * board.c - Arm MPS2 with the AN505 FPGA image (Cortex-M33 in an SSE-200
 * subsystem, QEMU -machine mps2-an505): UART0, a CMSDK APB UART on the 20 MHz
 * peripheral clock. The core boots Secure and the peripheral protection
 * controllers start with every peripheral Secure, so the UART is used at its
 * Secure alias (the Non-secure one is 0x40200000).
 */
#define CMSDK_UART_BASE 0x50200000u
#define CMSDK_UART_PCLK_HZ 20000000u
#include "cmsdk_uart_board.h"
