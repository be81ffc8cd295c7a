/*
 * board.c - nRF51822 (QEMU -machine microbit): polled UART0.
 * Register offsets from the nRF51 Series Reference Manual, UART chapter.
 */
#include <stdint.h>

#include "board.h"

#define UART0_BASE 0x40002000u
#define UART_REG(off) (*(volatile uint32_t *)(UART0_BASE + (off)))

#define UART_TASKS_STARTRX UART_REG(0x000)
#define UART_TASKS_STARTTX UART_REG(0x008)
#define UART_EVENTS_RXDRDY UART_REG(0x108)
#define UART_EVENTS_TXDRDY UART_REG(0x11C)
#define UART_ENABLE UART_REG(0x500)
#define UART_PSELTXD UART_REG(0x50C)
#define UART_PSELRXD UART_REG(0x514)
#define UART_RXD UART_REG(0x518)
#define UART_TXD UART_REG(0x51C)
#define UART_BAUDRATE UART_REG(0x524)

#define UART_ENABLE_ENABLED 4u
#define UART_BAUDRATE_115200 0x01D7E000u
/* micro:bit USB-serial pins. */
#define PIN_TX 24u
#define PIN_RX 25u

void board_init(void)
{
    UART_PSELTXD = PIN_TX;
    UART_PSELRXD = PIN_RX;
    UART_BAUDRATE = UART_BAUDRATE_115200;
    UART_ENABLE = UART_ENABLE_ENABLED;
    UART_EVENTS_RXDRDY = 0;
    UART_EVENTS_TXDRDY = 0;
    UART_TASKS_STARTTX = 1;
    UART_TASKS_STARTRX = 1;
}

void board_uart_putc(uint8_t c)
{
    UART_TXD = c;
    while (UART_EVENTS_TXDRDY == 0) {
    }
    UART_EVENTS_TXDRDY = 0;
}

uint8_t board_uart_getc(void)
{
    while (UART_EVENTS_RXDRDY == 0) {
    }
    /* Clear the event before reading RXD: reading refills RXD from the FIFO
     * and raises the event again if more bytes are waiting. */
    UART_EVENTS_RXDRDY = 0;
    return (uint8_t)UART_RXD;
}
