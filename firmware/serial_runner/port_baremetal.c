/*
 * port_baremetal.c - tinyaot_port.h for the bare-metal boards in
 * boards/baremetal/, and main().
 */
#include <stddef.h>
#include <stdint.h>

#include "board.h"
#include "tinyaot_port.h"

#ifdef TINYAOT_RUNNER_MODEL_SETUP
/* A model set up at run time (the TFLM firmware: AllocateTensors()) returns its descriptor. */
const struct tinyaot_model *TINYAOT_RUNNER_MODEL_SETUP(void);
#else
/* Set by CMake to the descriptor symbol, e.g. tinyaot_hello_model. */
extern const struct tinyaot_model TINYAOT_RUNNER_MODEL;
#endif

#ifdef TINYAOT_RUNNER_MODEL_LIST
/* runner_models.c, written by CMake: every model of the firmware (TINYAOT_RUNNER_MORE_MODELS). */
extern const struct tinyaot_model *const tinyaot_runner_model_list[];
extern const uint32_t tinyaot_runner_model_count;
#endif

#define STACK_PAINT 0xA5A5A5A5u

/* An address, not a pointer: it is a local's, kept after its function returned. */
static uintptr_t paint_top;

uint8_t tinyaot_port_getc(void)
{
    return board_uart_getc();
}

void tinyaot_port_putc(uint8_t c)
{
    board_uart_putc(c);
}

uint64_t tinyaot_port_cycles(void)
{
    return board_cycles();
}

uint32_t tinyaot_port_cycles_hz(void)
{
    return TINYAOT_BOARD_CYCLES_HZ;
}

/*
 * Fills the stack from its limit up to this function's frame with a pattern:
 * (within a few words) the caller's SP at the call to run(). The frame's end
 * is a local in memory, below the registers the prologue saves (GCC may save
 * LR only after reading SP itself: on ARMv8.1-M its low-overhead loops take LR).
 */
void tinyaot_port_stack_paint(void)
{
    volatile uint32_t frame_end = 0u;
    uint32_t *p = (uint32_t *)(void *)__stack_limit;

    paint_top = (uintptr_t)&frame_end;
    while ((uintptr_t)p < paint_top) {
        *p++ = STACK_PAINT;
    }
}

/* Bytes below paint_top that no longer hold the pattern: the deepest use. */
uint32_t tinyaot_port_stack_used(void)
{
    const uint32_t *p = (const uint32_t *)(const void *)__stack_limit;
    while ((uintptr_t)p < paint_top && *p == STACK_PAINT) {
        p++;
    }
    return (uint32_t)(paint_top - (uintptr_t)p);
}

uint8_t *tinyaot_port_io_buffer(uint32_t *size)
{
    *size = (uint32_t)(__free_ram_end - __free_ram_start);
    return __free_ram_start;
}

#ifdef TINYAOT_RUNNER_BLOB_LINKED
/* weights_blob.S: the model's weights blob, in its own section. */
extern const uint8_t tinyaot_runner_blob[];
extern const uint8_t tinyaot_runner_blob_end[];
int32_t TINYAOT_RUNNER_BIND(const void *blob, size_t size);
#endif

int main(void)
{
    board_cycles_init();
#ifdef TINYAOT_RUNNER_BLOB_LINKED
    /* A refused blob leaves the model unbound: every RUN then reports the error. */
    (void)TINYAOT_RUNNER_BIND(tinyaot_runner_blob, (size_t)(tinyaot_runner_blob_end - tinyaot_runner_blob));
#endif
#ifdef TINYAOT_RUNNER_MODEL_SETUP
    tinyaot_runner(TINYAOT_RUNNER_MODEL_SETUP());
#elif defined(TINYAOT_RUNNER_MODEL_LIST)
    tinyaot_runner_models(tinyaot_runner_model_list, tinyaot_runner_model_count);
#else
    tinyaot_runner(&TINYAOT_RUNNER_MODEL);
#endif
    return 0;
}
