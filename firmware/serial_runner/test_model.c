/*
 * test_model.c - a hand-written stand-in model for testing the runner and the
 * host harness without the generator. TINYAOT_RUNNER_TEST selects what run()
 * does:
 *   1 echo     output[i] = input[i] + 1 (int8, 4 elements); a working device
 *   2 fault    executes an undefined instruction (HardFault)
 *   3 garbage  writes non-protocol bytes to the serial line, then answers
 *   4 hang     never returns
 */
#include <stdint.h>

#include "tinyaot.h"
#include "tinyaot_port.h"

#define TEST_ECHO 1
#define TEST_FAULT 2
#define TEST_GARBAGE 3
#define TEST_HANG 4

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

const struct tinyaot_model tinyaot_runner_test_model = {
    "runner_test", "test", test_run, test_reset, 1u, 1u,
    &test_input, &test_output, 0u, 0u
};
