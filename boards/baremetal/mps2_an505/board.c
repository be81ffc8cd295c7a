/*
 * board.c - Arm MPS2 with the AN505 FPGA image (Cortex-M33 in an SSE-200
 * subsystem, QEMU -machine mps2-an505): UART0, a CMSDK APB UART on the 20 MHz
 * peripheral clock. The core boots Secure and the peripheral protection
 * controllers start with every peripheral Secure, so the UART is used at its
 * Secure alias (the Non-secure one is 0x40200000).
 */
#include <stdint.h>

#include "board.h"
#include "cmsdk_uart.h"

#define UART0_BASE 0x50200000u
#define UART0_PCLK_HZ 20000000u

void board_init(void)
{
    cmsdk_uart_init(UART0_BASE, UART0_PCLK_HZ);
}

void board_uart_putc(uint8_t c)
{
    cmsdk_uart_putc(UART0_BASE, c);
}

uint8_t board_uart_getc(void)
{
    return cmsdk_uart_getc(UART0_BASE);
}
