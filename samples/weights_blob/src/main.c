/*
 * tinyaot weights_blob: the model's weights live apart from its code, in a
 * section of their own; bind them at start, refuse bad blobs (each with its
 * own error code), then run.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>

#include "hello_world.h"

extern const uint8_t weights_blob[];
extern const uint8_t weights_blob_end[];

/* A RAM copy of the blob with one defect at a time (as a bad update would bring). */
static uint8_t bad_blob[TINYAOT_HELLO_WORLD_WEIGHTS_SIZE] __aligned(4);

static int bind_with_defect(size_t offset, uint8_t flip)
{
	memcpy(bad_blob, weights_blob, sizeof(bad_blob));
	bad_blob[offset] ^= flip;
	return (int)tinyaot_hello_world_bind_weights(bad_blob, sizeof(bad_blob));
}

static const int8_t sample_inputs[][4] = {
	{ 10, -20, 30, 5 },
	{ -100, 45, 7, 90 },
	{ 127, -128, 0, 64 },
};

int main(void)
{
	static int8_t in[TINYAOT_HELLO_WORLD_INPUT0_SIZE];
	static int8_t out[TINYAOT_HELLO_WORLD_OUTPUT0_SIZE];
	const struct tinyaot_hello_world_inputs inputs = { .input = in };
	const struct tinyaot_hello_world_outputs outputs = { .output = out };
	size_t size = (size_t)(weights_blob_end - weights_blob);
	int r, i;

	printk("run before bind: %d\n", (int)tinyaot_hello_world_run(&inputs, &outputs));
	printk("bind NULL: %d\n", (int)tinyaot_hello_world_bind_weights(NULL, size));
	printk("bind misaligned: %d\n", (int)tinyaot_hello_world_bind_weights(weights_blob + 1, size - 1));
	printk("bind truncated: %d\n", (int)tinyaot_hello_world_bind_weights(weights_blob, size - 1));
	/* Header: magic at 0, version at 4, architecture id at 8; the payload from 32. */
	printk("bind wrong magic: %d\n", bind_with_defect(0, 0x01));
	printk("bind wrong version: %d\n", bind_with_defect(4, 0x02));
	printk("bind other architecture: %d\n", bind_with_defect(8, 0x01));
	printk("bind bad CRC: %d\n", bind_with_defect(32 + 5, 0x10));
	printk("bind: %d (%u bytes)\n", (int)tinyaot_hello_world_bind_weights(weights_blob, size), (unsigned)size);
	for (r = 0; r < 3; r++) {
		for (i = 0; i < 4; i++) {
			in[i] = sample_inputs[r][i];
		}
		if (tinyaot_hello_world_run(&inputs, &outputs) != TINYAOT_OK) {
			printk("run failed\n");
			return 0;
		}
		printk("output %d: %d %d %d\n", r, out[0], out[1], out[2]);
	}
	printk("weights_blob done\n");
	return 0;
}
