/*
 * board.c - Stellaris LM3S6965 (QEMU -machine lm3s6965evb): polled UART0,
 * an Arm PL011. Clock gating (SYSCTL RCGC1) is set as on the real chip.
 */
#include <stdint.h>

#include "board.h"

#define SYSCTL_RCGC1 (*(volatile uint32_t *)0x400FE104u)
#define SYSCTL_RCGC1_UART0 (1u << 0)

#define UART0_BASE 0x4000C000u
#define UART_REG(off) (*(volatile uint32_t *)(UART0_BASE + (off)))
#define UART_DR UART_REG(0x000)
#define UART_FR UART_REG(0x018)
#define UART_IBRD UART_REG(0x024)
#define UART_FBRD UART_REG(0x028)
#define UART_LCRH UART_REG(0x02C)
#define UART_CR UART_REG(0x030)

#define UART_FR_RXFE (1u << 4)
#define UART_FR_TXFF (1u << 5)
#define UART_LCRH_FEN (1u << 4)
#define UART_LCRH_WLEN8 (3u << 5)
#define UART_CR_UARTEN (1u << 0)
#define UART_CR_TXE (1u << 8)
#define UART_CR_RXE (1u << 9)

void board_init(void)
{
    SYSCTL_RCGC1 |= SYSCTL_RCGC1_UART0;
    UART_CR = 0;
    /* About 115200 baud from the 12.5 MHz clock: 12.5e6 / (16 * 115200) = 6.78. */
    UART_IBRD = 6;
    UART_FBRD = 50;
    UART_LCRH = UART_LCRH_WLEN8 | UART_LCRH_FEN;
    UART_CR = UART_CR_UARTEN | UART_CR_TXE | UART_CR_RXE;
}

void board_uart_putc(uint8_t c)
{
    while ((UART_FR & UART_FR_TXFF) != 0u) {
    }
    UART_DR = c;
}

uint8_t board_uart_getc(void)
{
    while ((UART_FR & UART_FR_RXFE) != 0u) {
    }
    return (uint8_t)(UART_DR & 0xffu);
}
