/*
 * cmsdk_uart_board.h - board_init() and the polled UART of a board whose
 * console is an Arm CMSDK APB UART, as on the MPS2 FPGA images (QEMU's
 * mps2-an386, -an500 and -an505). A board's board.c defines CMSDK_UART_BASE
 * and CMSDK_UART_PCLK_HZ, then includes this file (once: it defines the
 * functions board.h declares).
 */
#ifndef TINYAOT_CMSDK_UART_BOARD_H
#define TINYAOT_CMSDK_UART_BOARD_H

#include <stdint.h>

#include "board.h"

#define CMSDK_UART_REG(off) (*(volatile uint32_t *)(CMSDK_UART_BASE + (off)))
#define CMSDK_UART_DATA CMSDK_UART_REG(0x000u)
#define CMSDK_UART_STATE CMSDK_UART_REG(0x004u)
#define CMSDK_UART_CTRL CMSDK_UART_REG(0x008u)
#define CMSDK_UART_BAUDDIV CMSDK_UART_REG(0x010u)

#define CMSDK_UART_STATE_TX_FULL (1u << 0)
#define CMSDK_UART_STATE_RX_FULL (1u << 1)
#define CMSDK_UART_CTRL_TX_EN (1u << 0)
#define CMSDK_UART_CTRL_RX_EN (1u << 1)

void board_init(void)
{
    CMSDK_UART_CTRL = 0;
    /* 115200 baud 8N1 from the peripheral clock (the divisor must be 16 or more). */
    CMSDK_UART_BAUDDIV = CMSDK_UART_PCLK_HZ / 115200u;
    CMSDK_UART_CTRL = CMSDK_UART_CTRL_TX_EN | CMSDK_UART_CTRL_RX_EN;
}

void board_uart_putc(uint8_t c)
{
    while ((CMSDK_UART_STATE & CMSDK_UART_STATE_TX_FULL) != 0u) {
    }
    CMSDK_UART_DATA = c;
}

/* The receive buffer holds one byte; QEMU holds the rest back until it is read. */
uint8_t board_uart_getc(void)
{
    while ((CMSDK_UART_STATE & CMSDK_UART_STATE_RX_FULL) == 0u) {
    }
    return (uint8_t)(CMSDK_UART_DATA & 0xffu);
}

#endif /* TINYAOT_CMSDK_UART_BOARD_H */
