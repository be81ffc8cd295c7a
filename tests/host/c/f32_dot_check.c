/*
 * tinyaot_f32_dot (integer multiplies and adds, rounded to nearest even after each)
 * against the C float expression `acc += x[i] * w[i]` from 0.0f, compiled with
 * -ffp-contract=off on an IEEE single-precision FPU: `argv[1]` random dot products of 1 to
 * 12 terms over operands drawn to reach every branch: ordinary values in a narrow exponent
 * range (cancellation, equal exponents), mantissas with few bits (exact products, ties),
 * exponents near overflow and underflow, +-1 (adds alone), zeros, subnormals, infinities,
 * NaN, a term that cancels the previous one or the running sum (a NaN result need only be
 * NaN). Prints the terms compared; exits 1 on the first difference, naming it.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "tinyaot_f32_dot.h"
#include "check_random.h"

static float of_exponent(uint32_t low, uint32_t span, uint32_t mantissa)
{
    return tinyaot_f32_from_bits((next_random() & 0x80000000u) | ((low + next_random() % span) << 23) |
                                 (mantissa & 0x7FFFFFu));
}

static int is_normal(float f)
{
    const uint32_t e = (tinyaot_f32_bits(f) >> 23) & 0xFFu;
    return e != 0u && e != 0xFFu;
}

static float random_operand(void)
{
    /* ... and 1 + 2^-23 times 2 - 2^-22, whose product rounds up to 2 (a carry into the exponent) */
    static const float special[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, FLT_MAX, -FLT_MAX, FLT_MIN, -FLT_MIN,
                                    0x1.000002p0f, -0x1.fffffcp0f};
    const uint32_t kind = next_random() % 20;
    if (kind < 8) {
        return of_exponent(120, 15, next_random());
    }
    if (kind < 13) { /* the low 1 to 23 mantissa bits 0 */
        return of_exponent(118, 20, next_random() & (0xFFFFFFFFu << (1 + next_random() % 23)));
    }
    if (kind < 15) {
        return (kind == 13) ? of_exponent(230, 25, next_random()) : of_exponent(1, 25, next_random());
    }
    if (kind < 17) {
        return (next_random() & 1u) ? 1.0f : -1.0f;
    }
    if (kind < 19) { /* subnormal */
        return tinyaot_f32_from_bits((next_random() & 0x80000000u) | (next_random() & 0x7FFFFFu));
    }
    return special[next_random() % (sizeof special / sizeof special[0])];
}

int main(int argc, char **argv)
{
    const long dots = (argc > 1) ? atol(argv[1]) : 1000;
    long d, terms = 0;
    for (d = 0; d < dots; d++) {
        float x[12], w[12], expected = 0.0f, got;
        struct tinyaot_f32_unpacked xu[12];
        uint32_t mantissas[12];
        const int32_t n = 1 + (int32_t)(next_random() % 12);
        int32_t i;
        for (i = 0; i < n; i++) {
            const uint32_t how = next_random() % 10;
            x[i] = random_operand();
            w[i] = random_operand();
            if (i > 0 && how == 0) { /* minus the previous product, exactly */
                x[i] = x[i - 1];
                w[i] = -w[i - 1];
            } else if (i > 0 && how == 1) { /* about minus the running sum */
                x[i] = -expected;
                w[i] = of_exponent(126, 2, next_random() & (0xFFFFFFFFu << (next_random() % 24)));
            }
            expected += x[i] * w[i];
            /* as tinyaot/ops/lstm.py splits the weights */
            mantissas[i] = is_normal(w[i]) ? ((tinyaot_f32_bits(w[i]) & 0x7FFFFFu) | 0x800000u) << 7 : 0u;
        }
        tinyaot_f32_unpack(x, n, xu);
        got = tinyaot_f32_dot(xu, w, mantissas, n);
        terms += n;
        /* A NaN's sign and payload follow operand order, which the compiler may swap. */
        if (tinyaot_f32_bits(got) != tinyaot_f32_bits(expected) && !(isnan(got) && isnan(expected))) {
            printf("dot %ld: got %08x, expected %08x; terms:", d, (unsigned)tinyaot_f32_bits(got),
                   (unsigned)tinyaot_f32_bits(expected));
            for (i = 0; i < n; i++) {
                printf(" %08x*%08x", (unsigned)tinyaot_f32_bits(x[i]), (unsigned)tinyaot_f32_bits(w[i]));
            }
            printf("\n");
            return 1;
        }
    }
    printf("%ld dots, %ld terms, all equal\n", dots, terms);
    return 0;
}
