/*
 * systick.c - 64-bit cycle counter from the 24-bit SysTick timer.
 *
 * SysTick counts down from 0xFFFFFF at the processor clock; its interrupt
 * counts the wraps. Under QEMU with -icount the count is deterministic
 * (virtual time advances by a fixed amount per instruction).
 */
#include <stdint.h>

#include "board.h"

#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)

#define SYST_CSR_ENABLE (1u << 0)
#define SYST_CSR_TICKINT (1u << 1)
#define SYST_CSR_CLKSOURCE (1u << 2) /* processor clock */

#define SYST_MAX 0x00FFFFFFu

static volatile uint32_t wraps;

void SysTick_Handler(void)
{
    wraps++;
}

void board_cycles_init(void)
{
    SYST_RVR = SYST_MAX;
    SYST_CVR = 0; /* any write clears the counter and COUNTFLAG */
    SYST_CSR = SYST_CSR_ENABLE | SYST_CSR_TICKINT | SYST_CSR_CLKSOURCE;
}

uint64_t board_cycles(void)
{
    uint32_t hi;
    uint32_t val;
    /*
     * Read wraps, then the counter, then wraps again: if a wrap was counted in
     * between, the counter value may belong to either side, so read again.
     */
    do {
        hi = wraps;
        val = SYST_CVR;
    } while (hi != wraps);
    return ((uint64_t)hi << 24) + (uint64_t)(SYST_MAX - val);
}
