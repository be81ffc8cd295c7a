/*
 * tinyaot shared_arena: two models in one arena group ("voice") run in turn;
 * the group's arena is the larger of their needs.
 */
#include <stdint.h>

#include <zephyr/kernel.h>
#include <zephyr/sys/printk.h>

#include "command.h"
#include "tinyaot_voice_arena.h"
#include "wake.h"

static const int8_t sample_inputs[][4] = {
	{ 10, -20, 30, 5 },
	{ -100, 45, 7, 90 },
	{ 127, -128, 0, 64 },
};

int main(void)
{
	static int8_t in[4], wake_out[3], command_out[3];
	const struct tinyaot_wake_inputs wi = { .input = in };
	const struct tinyaot_wake_outputs wo = { .output = wake_out };
	const struct tinyaot_command_inputs ci = { .input = in };
	const struct tinyaot_command_outputs co = { .output = command_out };
	int r, i, status = 0;

	printk("arena group voice: %u B (wake %u B, command %u B)\n", (unsigned)TINYAOT_VOICE_ARENA_SIZE,
	       (unsigned)TINYAOT_WAKE_ARENA_SIZE, (unsigned)TINYAOT_COMMAND_ARENA_SIZE);
	for (r = 0; r < 3; r++) {
		for (i = 0; i < 4; i++) {
			in[i] = sample_inputs[r][i];
		}
		/* One after the other, never at the same time. */
		status |= tinyaot_wake_run(&wi, &wo);
		status |= tinyaot_command_run(&ci, &co);
		printk("wake %d: %d %d %d; command %d: %d %d %d\n", r, wake_out[0], wake_out[1], wake_out[2],
		       r, command_out[0], command_out[1], command_out[2]);
	}
	printk("%s\n", status == TINYAOT_OK ? "shared_arena done" : "shared_arena FAILED");
	return 0;
}
