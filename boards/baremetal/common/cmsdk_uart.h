/*
 * cmsdk_uart.h - polled Arm CMSDK APB UART, the UART of the MPS2 FPGA images
 * (QEMU's mps2-an386, -an500 and -an505), for a board's board.c.
 */
#ifndef TINYAOT_CMSDK_UART_H
#define TINYAOT_CMSDK_UART_H

#include <stdint.h>

#define CMSDK_UART_REG(base, off) (*(volatile uint32_t *)((base) + (off)))
#define CMSDK_UART_DATA 0x000u
#define CMSDK_UART_STATE 0x004u
#define CMSDK_UART_CTRL 0x008u
#define CMSDK_UART_BAUDDIV 0x010u

#define CMSDK_UART_STATE_TX_FULL (1u << 0)
#define CMSDK_UART_STATE_RX_FULL (1u << 1)
#define CMSDK_UART_CTRL_TX_EN (1u << 0)
#define CMSDK_UART_CTRL_RX_EN (1u << 1)

/* 115200 baud 8N1 from the UART's peripheral clock (the divisor must be 16 or more). */
static inline void cmsdk_uart_init(uint32_t base, uint32_t pclk_hz)
{
    CMSDK_UART_REG(base, CMSDK_UART_CTRL) = 0;
    CMSDK_UART_REG(base, CMSDK_UART_BAUDDIV) = pclk_hz / 115200u;
    CMSDK_UART_REG(base, CMSDK_UART_CTRL) = CMSDK_UART_CTRL_TX_EN | CMSDK_UART_CTRL_RX_EN;
}

static inline void cmsdk_uart_putc(uint32_t base, uint8_t c)
{
    while ((CMSDK_UART_REG(base, CMSDK_UART_STATE) & CMSDK_UART_STATE_TX_FULL) != 0u) {
    }
    CMSDK_UART_REG(base, CMSDK_UART_DATA) = c;
}

/* The receive buffer holds one byte; QEMU holds the rest back until it is read. */
static inline uint8_t cmsdk_uart_getc(uint32_t base)
{
    while ((CMSDK_UART_REG(base, CMSDK_UART_STATE) & CMSDK_UART_STATE_RX_FULL) == 0u) {
    }
    return (uint8_t)(CMSDK_UART_REG(base, CMSDK_UART_DATA) & 0xffu);
}

#endif /* TINYAOT_CMSDK_UART_H */
