/*
 * tinyaot hello_world: run the project's small int8 MLP on a few fixed inputs
 * and print inputs, outputs and the time one inference takes.
 */
#include <stdint.h>
#include <string.h>

#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>

#include "hello_world.h"

#define MODEL tinyaot_hello_world_model
#define N_IN 4
#define N_OUT 3
/* Enough runs that a coarse tick (e.g. a 32 kHz RTC) still gives a usable mean. */
#define TIMING_RUNS 2000

/* Same rows as make_model.py's SAMPLE_INPUTS: sample.yaml expects TFLM's
 * outputs for exactly these. */
static const int8_t sample_inputs[][N_IN] = {
	{ 10, -20, 30, 5 },
	{ -100, 45, 7, 90 },
	{ 127, -128, 0, 64 },
};

static void print_row(const char *label, int idx, const int8_t *v, int n)
{
	int i;

	printk("%s %d:", label, idx);
	for (i = 0; i < n; i++) {
		printk(" %d", v[i]);
	}
	printk("\n");
}

int main(void)
{
	static int8_t in[N_IN];
	static int8_t out[N_OUT];
	void *const inputs[1] = { in };
	void *const outputs[1] = { out };
	uint32_t start, cycles, i;
	int r, status = 0;

	printk("tinyaot %s: %u input(s) of %u B, %u output(s) of %u B, arena %u B\n",
	       MODEL.name, (unsigned)MODEL.num_inputs,
	       (unsigned)MODEL.inputs[0].size_bytes,
	       (unsigned)MODEL.num_outputs,
	       (unsigned)MODEL.outputs[0].size_bytes,
	       (unsigned)MODEL.arena_size);

	/* The buffers above are sized for this model; refuse anything else. */
	if (MODEL.inputs[0].size_bytes != N_IN || MODEL.outputs[0].size_bytes != N_OUT) {
		printk("unexpected model shape\n");
		return 0;
	}

	for (r = 0; r < (int)(sizeof(sample_inputs) / sizeof(sample_inputs[0])); r++) {
		memcpy(in, sample_inputs[r], sizeof(in));
		if (MODEL.run(inputs, outputs) != TINYAOT_OK) {
			status = -1;
		}
		print_row("input ", r, in, N_IN);
		print_row("output", r, out, N_OUT);
	}

	start = k_cycle_get_32();
	for (i = 0; i < TIMING_RUNS; i++) {
		(void)MODEL.run(inputs, outputs);
	}
	cycles = k_cycle_get_32() - start;
	printk("time per inference: %u ns (%u runs, %u Hz cycle counter)\n",
	       (unsigned)(k_cyc_to_ns_floor64(cycles) / TIMING_RUNS),
	       (unsigned)TIMING_RUNS, (unsigned)sys_clock_hw_cycles_per_sec());
	printk("%s\n", status == 0 ? "hello_world done" : "hello_world FAILED");
	return 0;
}
