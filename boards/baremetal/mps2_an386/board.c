/*
 * board.c - Arm MPS2 with the AN386 FPGA image (Cortex-M4, QEMU -machine
 * mps2-an386): UART0, a CMSDK APB UART on the 25 MHz peripheral clock.
 */
#include <stdint.h>

#include "board.h"
#include "cmsdk_uart.h"

#define UART0_BASE 0x40004000u
#define UART0_PCLK_HZ 25000000u

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
