/*
 * board.h - the little a bare-metal board provides to the firmware.
 *
 * Implemented once per board in boards/baremetal/<board>/board.c, plus the
 * shared Cortex-M pieces in this folder (startup.c, systick.c).
 */
#ifndef TINYAOT_BOARD_H
#define TINYAOT_BOARD_H

#include <stdint.h>

/* Called by the reset handler before main(): clocks, UART. */
void board_init(void);

/* Polled UART, 8N1. putc waits for room; getc waits for a byte. */
void board_uart_putc(uint8_t c);
uint8_t board_uart_getc(void);

/* Free-running 64-bit count of SysTick (processor clock) ticks. */
void board_cycles_init(void);
uint64_t board_cycles(void);

/* Writes a NUL-terminated string to the UART (used for fatal reports). */
void board_puts(const char *s);

/* RAM between the end of .bss and the bottom of the stack (from the linker script). */
extern uint8_t __free_ram_start[];
extern uint8_t __free_ram_end[];
/* Main stack: [__stack_limit, __stack_top). */
extern uint8_t __stack_limit[];
extern uint8_t __stack_top[];

#endif /* TINYAOT_BOARD_H */
