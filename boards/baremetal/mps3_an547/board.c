/*
 * board.c - Arm MPS3 with the AN547 FPGA image (Cortex-M55 in a Corstone SSE-300
 * subsystem, QEMU -machine mps3-an547): UART0, a CMSDK APB UART on the 25 MHz
 * peripheral clock. The core boots Secure with every peripheral Secure, so the
 * UART is used at its Secure alias (the Non-secure one is 0x49303000).
 */
#define CMSDK_UART_BASE 0x59303000u
#define CMSDK_UART_PCLK_HZ 25000000u
#include "cmsdk_uart_board.h"
