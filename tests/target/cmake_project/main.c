/* Links two generated models into one program and prints their descriptors. */
#include <stdio.h>

#include "model_a.h"
#include "model_b.h"

static void show(const struct tinyaot_model *m)
{
    printf("%s inputs=%u outputs=%u arena=%u\n", m->name, (unsigned)m->num_inputs,
           (unsigned)m->num_outputs, (unsigned)m->arena_size);
}

int main(void)
{
    show(&tinyaot_model_a_model);
    show(&tinyaot_model_b_model);
    return 0;
}
