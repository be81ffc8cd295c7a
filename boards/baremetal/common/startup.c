/*
 * startup.c - vector table, reset handler and fault reporting shared by the
 * bare-metal Cortex-M boards (ARMv6-M, ARMv7-M and ARMv8-M Mainline; only
 * Thumb-1 instructions are used so the same code runs on a Cortex-M0).
 */
#include <stdint.h>
#include <string.h>

#include "board.h"

extern uint32_t __data_load[];
extern uint32_t __data_start[];
extern uint32_t __data_end[];
extern uint32_t __bss_start[];
extern uint32_t __bss_end[];

int main(void);
void Reset_Handler(void);
void Fault_Handler(void);
void SysTick_Handler(void);

/* Weak so a board or application may take over any of them. */
void Default_Handler(void);
void NMI_Handler(void) __attribute__((weak, alias("Fault_Handler")));
void SVC_Handler(void) __attribute__((weak, alias("Default_Handler")));
void PendSV_Handler(void) __attribute__((weak, alias("Default_Handler")));

/* 16 core exceptions + 32 IRQs (enough for both SoCs; no IRQ is enabled). */
typedef void (*vector_fn)(void);
__attribute__((section(".vectors"), used))
const vector_fn vector_table[16 + 32] = {
    (vector_fn)(uintptr_t)__stack_top,
    Reset_Handler,
    NMI_Handler,
    Fault_Handler, /* HardFault */
    Fault_Handler, /* MemManage (ARMv7-M) */
    Fault_Handler, /* BusFault (ARMv7-M) */
    Fault_Handler, /* UsageFault (ARMv7-M) */
    0, 0, 0, 0,
    SVC_Handler,
    Default_Handler, /* DebugMonitor */
    0,
    PendSV_Handler,
    SysTick_Handler,
    /* IRQs: filled below by the designated initialiser range (GNU C). */
    [16 ... 47] = Default_Handler,
};

/* Coprocessor Access Control: CP10 and CP11 (the FPU) full access. */
#define SCB_CPACR (*(volatile uint32_t *)0xE000ED88u)
#define SCB_CPACR_CP10_CP11_FULL (0xFu << 20)

void Reset_Handler(void)
{
#if defined(__ARM_FP)
    /* Built for an FPU (hard float): it is off after reset, and the first
     * floating-point instruction would fault. */
    SCB_CPACR |= SCB_CPACR_CP10_CP11_FULL;
    __asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
    /* Word copies: the linker script keeps these boundaries 4-byte aligned. */
    uint32_t *src = __data_load;
    uint32_t *dst = __data_start;
    while (dst < __data_end) {
        *dst++ = *src++;
    }
    for (dst = __bss_start; dst < __bss_end; dst++) {
        *dst = 0;
    }
    board_init();
    (void)main();
    for (;;) {
    }
}

void board_puts(const char *s)
{
    while (*s != '\0') {
        board_uart_putc((uint8_t)*s++);
    }
}

static void put_hex(uint32_t v)
{
    static const char digits[] = "0123456789abcdef";
    int shift;
    board_puts("0x");
    for (shift = 28; shift >= 0; shift -= 4) {
        board_uart_putc((uint8_t)digits[(v >> shift) & 0xfu]);
    }
}

/*
 * Called with the exception frame the hardware pushed (r0-r3, r12, lr, pc,
 * xpsr). Prints one line the host harness recognises, then stops: a test
 * must see a fault, not a silent reboot.
 */
void fault_report(const uint32_t *frame, uint32_t exc_return);
void fault_report(const uint32_t *frame, uint32_t exc_return)
{
    uint32_t ipsr;
    __asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
    board_puts("\r\nFATAL: ");
    switch (ipsr & 0x1ffu) {
    case 2: board_puts("NMI"); break;
    case 3: board_puts("HardFault"); break;
    case 4: board_puts("MemManage"); break;
    case 5: board_puts("BusFault"); break;
    case 6: board_puts("UsageFault"); break;
    default: board_puts("Exception"); break;
    }
    board_puts(" pc=");
    put_hex(frame[6]);
    board_puts(" lr=");
    put_hex(frame[5]);
    board_puts(" xpsr=");
    put_hex(frame[7]);
    board_puts(" exc_return=");
    put_hex(exc_return);
    board_puts("\r\n");
    for (;;) {
    }
}

/* Picks the stack the frame was pushed on (bit 2 of EXC_RETURN) and reports. */
__attribute__((naked)) void Fault_Handler(void)
{
    __asm__ volatile(
        "movs r0, #4\n"
        "mov r1, lr\n"
        "tst r0, r1\n"
        "beq 1f\n"
        "mrs r0, psp\n"
        "b 2f\n"
        "1: mrs r0, msp\n"
        "2: ldr r2, =fault_report\n"
        "bx r2\n"
        ".ltorg\n");
}

void Default_Handler(void)
{
    board_puts("\r\nFATAL: unexpected interrupt\r\n");
    for (;;) {
    }
}
