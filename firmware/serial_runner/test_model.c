/*
 * test_model.c - a hand-written stand-in model for testing the runner and the
 * host harness without the generator. TINYAOT_RUNNER_TEST selects what run()
 * does:
 *   1 echo     output[i] = input[i] + 1 (int8, 4 elements); a working device
 *   2 fault    executes an undefined instruction (HardFault)
 *   3 garbage  writes non-protocol bytes to the serial line, then answers
 *   4 hang     never returns
 *   5 spin     a loop of exactly TEST_SPIN_INSTRUCTIONS instructions, then
 *              echo: checks the cycle counter, its 24-bit wrap included
 */
#include <stdint.h>

#include "tinyaot.h"
#include "tinyaot_port.h"

#define TEST_ECHO 1
#define TEST_FAULT 2
#define TEST_GARBAGE 3
#define TEST_HANG 4
#define TEST_SPIN 5

/* 12e6 iterations of subs + bne: more than 2^24 SysTick ticks on every board. */
#define TEST_SPIN_ITERATIONS 12000000u

static int32_t test_run(void *const *inputs, void *const *outputs)
{
    const int8_t *in = (const int8_t *)inputs[0];
    int8_t *out = (int8_t *)outputs[0];
    int i;

#if TINYAOT_RUNNER_TEST == TEST_FAULT
    __asm__ volatile("udf #0");
#elif TINYAOT_RUNNER_TEST == TEST_GARBAGE
    {
        static const char noise[] = "Hello from a confused firmware\r\n";
        for (i = 0; noise[i] != '\0'; i++) {
            tinyaot_port_putc((uint8_t)noise[i]);
        }
    }
#elif TINYAOT_RUNNER_TEST == TEST_HANG
    for (;;) {
        __asm__ volatile("" ::: "memory");
    }
#elif TINYAOT_RUNNER_TEST == TEST_SPIN
    {
        uint32_t n = TEST_SPIN_ITERATIONS;
        __asm__ volatile(".syntax unified\n"
                         "1: subs %0, %0, #1\n"
                         "bne 1b"
                         : "+l"(n));
    }
#endif
    for (i = 0; i < 4; i++) {
        out[i] = (int8_t)(in[i] + 1);
    }
    return TINYAOT_OK;
}

static void test_reset(void)
{
}

static const struct tinyaot_tensor_info test_input = {
    "x", TINYAOT_INT8, 2u, {1, 4, 0, 0, 0, 0}, 4u, 0.5f, -3
};
static const struct tinyaot_tensor_info test_output = {
    "y", TINYAOT_INT8, 2u, {1, 4, 0, 0, 0, 0}, 4u, 0.5f, -2
};

/* Designated initialisers: fields added to the descriptor later stay zero. */
const struct tinyaot_model tinyaot_runner_test_model = {
    .name = "runner_test",
    .generator_version = "test",
    .run = test_run,
    .reset = test_reset,
    .num_inputs = 1u,
    .num_outputs = 1u,
    .inputs = &test_input,
    .outputs = &test_output,
};
