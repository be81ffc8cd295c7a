/* Classifies a 96x96 grayscale image (raw int8 file) with person_detect.
 * Build: tinyaot compile tflm_person_detect_int8.tflite --name person_detect --out pd
 *        cc -I pd main.c pd/person_detect.c -o classify */
#include <stdio.h>
#include "person_detect.h"

int main(int argc, char **argv)
{
    static int8_t image[TINYAOT_PERSON_DETECT_INPUT0_SIZE], scores[TINYAOT_PERSON_DETECT_OUTPUT0_SIZE];
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
    if (f == NULL || fread(image, 1, sizeof image, f) != sizeof image) return 1;
    struct tinyaot_person_detect_inputs in = { image };
    struct tinyaot_person_detect_outputs out = { scores };
    if (tinyaot_person_detect_run(&in, &out) != TINYAOT_OK) return 1;
    printf("%s (person %d, no person %d)\n", scores[1] > scores[0] ? "person" : "no person", scores[1], scores[0]);
    return 0;
}
