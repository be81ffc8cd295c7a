/*
 * tinyaot_port.h - what the portable serial runner (runner.c) needs from the
 * platform it runs on. Bare metal: port_baremetal.c; other platforms (an RTOS)
 * provide their own implementation of these few functions.
 */
#ifndef TINYAOT_PORT_H
#define TINYAOT_PORT_H

#include <stdint.h>

#include "tinyaot.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Blocking byte I/O on the serial line to the host. */
uint8_t tinyaot_port_getc(void);
void tinyaot_port_putc(uint8_t c);

/* Monotonic cycle counter and its frequency (0 if unknown). */
uint64_t tinyaot_port_cycles(void);
uint32_t tinyaot_port_cycles_hz(void);

/*
 * Stack high-water mark: paint() marks the unused stack below the caller's
 * stack pointer; used() returns how many bytes below that point have been
 * written since (0 if the platform cannot tell).
 */
void tinyaot_port_stack_paint(void);
uint32_t tinyaot_port_stack_used(void);

/* RAM the runner may use for input and output tensors (no malloc). */
uint8_t *tinyaot_port_io_buffer(uint32_t *size);

/* Serves the protocol in PROTOCOL.md for `model`; does not return. */
void tinyaot_runner(const struct tinyaot_model *model);

/* The same for several models, models[0] first; SELECT switches between them. */
void tinyaot_runner_models(const struct tinyaot_model *const *models, uint32_t count);

#ifdef __cplusplus
}
#endif

#endif /* TINYAOT_PORT_H */
