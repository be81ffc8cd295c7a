/* Two models sharing the arena of group g; g_b's weights come from the blob file argv[1]. */
#include <stdio.h>

#include "g_a.h"
#include "g_b.h"
#include "tinyaot_g_arena.h"

static unsigned char blob[TINYAOT_G_B_WEIGHTS_SIZE] __attribute__((aligned(4)));

int main(int argc, char **argv)
{
    void *a_in[1], *a_out[1], *b_in[1], *b_out[1];
    static int8_t a_x[TINYAOT_G_A_INPUT0_SIZE], a_y[TINYAOT_G_A_OUTPUT0_SIZE];
    static int8_t b_x[TINYAOT_G_B_INPUT0_SIZE], b_y[TINYAOT_G_B_OUTPUT0_SIZE];
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
    size_t n = f ? fread(blob, 1, sizeof blob, f) : 0;
    a_in[0] = a_x; a_out[0] = a_y; b_in[0] = b_x; b_out[0] = b_y;
    printf("group arena=%u a=%u b=%u\n", (unsigned)TINYAOT_G_ARENA_SIZE, (unsigned)TINYAOT_G_A_ARENA_SIZE,
           (unsigned)TINYAOT_G_B_ARENA_SIZE);
    printf("b before bind=%d\n", (int)tinyaot_g_b_model.run(b_in, b_out));
    printf("bind=%d\n", (int)tinyaot_g_b_bind_weights(blob, n));
    printf("a=%d b=%d\n", (int)tinyaot_g_a_model.run(a_in, a_out), (int)tinyaot_g_b_model.run(b_in, b_out));
    return 0;
}
