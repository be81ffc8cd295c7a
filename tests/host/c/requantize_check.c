/*
 * tinyaot_requantize against TFLite's two-step reference (SaturatingRoundingDoublingHighMul,
 * then RoundingDivideByPOT, as tinyaot_common.h keeps them): every shift, edge values of x and
 * the multiplier crossed, then `argv[1]` random cases; where the per-tensor fold applies (long
 * multiply), it too, at several output zero points, and tinyaot_requantize_s8 (which folds
 * the zero point into the rounding on that path) at the same ones; and int8 ADD's input
 * scaling (tinyaot_add_scale_input) for every input value; and the int8 LSTM's saturating gate
 * rescale (tinyaot_lstm_s8_rescale) over every accumulator its clamp bounds, for right shifts
 * 0 to 2, and across the range for 3..14, and its cell products' (tinyaot_lstm_rescale_product).
 * Prints the cases compared;
 * exits 1 on the first difference, naming it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tinyaot_add.h"
#include "tinyaot_common.h"
#include "tinyaot_lstm_s8.h"

#include "check_random.h"

static int32_t reference(int32_t x, int32_t multiplier, int32_t shift)
{
    const int32_t left_shift = shift > 0 ? shift : 0;
    const int32_t right_shift = shift > 0 ? 0 : -shift;
    return tinyaot_rounding_divide_by_pot(
        tinyaot_sat_rounding_doubling_high_mul((int32_t)((uint32_t)x << left_shift), multiplier), right_shift);
}

static unsigned long compared, folded, channel_folded, add_inputs, lstm_rescales;

/* Output zero points across the int8 range, and one past it (the fold's limit). */
static const int32_t zero_points[] = {0, -128, 127, 128, 5, -37};

/* The per-tensor fold (tinyaot_tensor_requant_of) where it applies, at output zero
   points across the int8 range; act range wide open, so the clamp hides nothing. */
static void check_fold(int32_t x, int32_t multiplier, int32_t shift, int32_t want)
{
    struct tinyaot_tensor_requant q;
    int z;
    for (z = 0; z < (int)(sizeof(zero_points) / sizeof(zero_points[0])); z++) {
        int32_t got;
        if (!tinyaot_tensor_requant_of(&q, multiplier, shift, zero_points[z], INT32_MIN, INT32_MAX)) {
            return;
        }
        got = tinyaot_tensor_requantize(&q, x);
        folded++;
        if (got != want + zero_points[z]) {
            printf("DIFFERS: x=%ld multiplier=%ld shift=%ld zero point %ld: reference %ld, folded %ld\n", (long)x,
                   (long)multiplier, (long)shift, (long)zero_points[z], (long)(want + zero_points[z]), (long)got);
            exit(1);
        }
    }
}

/* The per-channel fold (tinyaot_channel_requant_folds, tinyaot_channel_requantize2_folded_s8)
   where it applies, at int8 output zero points (128 is past its limit): before the clamp, then
   through the two-output function with x's neighbour, clamped to int8. */
static void check_channel_fold(int32_t x, int32_t multiplier, int32_t shift, int32_t want)
{
#if TINYAOT_LONG_MULTIPLY
    int z;
    for (z = 0; z < (int)(sizeof(zero_points) / sizeof(zero_points[0])); z++) {
        const struct tinyaot_channel_requant r = tinyaot_channel_requant_of(&multiplier, &shift, 0, zero_points[z],
                                                                            -128, 127);
        int32_t got;
        int8_t out[2];
        if (!tinyaot_channel_requant_folds(&r, 1)) {
            continue;
        }
        got = tinyaot_requantize_channel_folded(x, multiplier, (1 + 2 * zero_points[z]) * (1 << (-shift - 2)), ~shift);
        channel_folded++;
        tinyaot_channel_requantize2_folded_s8(&r, 0, x, x ^ 1, &out[0], &out[1]);
        if (got != want + zero_points[z] || out[0] != tinyaot_clamp_i32(got, -128, 127) ||
            out[1] != tinyaot_clamp_i32(reference(x ^ 1, multiplier, shift) + zero_points[z], -128, 127)) {
            printf("DIFFERS: x=%ld multiplier=%ld shift=%ld zero point %ld: reference %ld, channel fold %ld\n",
                   (long)x, (long)multiplier, (long)shift, (long)zero_points[z], (long)(want + zero_points[z]),
                   (long)got);
            exit(1);
        }
    }
#else
    (void)x, (void)multiplier, (void)shift, (void)want;
#endif
}

/* tinyaot_requantize_s8 (the output zero point added, clamped to int8) at those zero points,
   where adding it cannot overflow (in TFLM's kernels either). */
static void check_s8(int32_t x, int32_t multiplier, int32_t shift, int32_t want)
{
    int z;
    if (want > INT32_MAX - 128 || want < INT32_MIN + 128) {
        return;
    }
    for (z = 0; z < (int)(sizeof(zero_points) / sizeof(zero_points[0])); z++) {
        const int32_t expected = tinyaot_clamp_i32(want + zero_points[z], -128, 127);
        const int32_t got = tinyaot_requantize_s8(x, multiplier, shift, zero_points[z], -128, 127);
        if (got != expected) {
            printf("DIFFERS: x=%ld multiplier=%ld shift=%ld zero point %ld: reference %ld, tinyaot_requantize_s8 %ld\n",
                   (long)x, (long)multiplier, (long)shift, (long)zero_points[z], (long)expected, (long)got);
            exit(1);
        }
    }
}

static void check(int32_t x, int32_t multiplier, int32_t shift)
{
    const int32_t want = reference(x, multiplier, shift);
    const int32_t got = tinyaot_requantize(x, multiplier, shift);
    compared++;
    if (want != got) {
        printf("DIFFERS: x=%ld multiplier=%ld shift=%ld: reference %ld, tinyaot_requantize %ld\n", (long)x,
               (long)multiplier, (long)shift, (long)want, (long)got);
        exit(1);
    }
    check_fold(x, multiplier, shift, want);
    check_channel_fold(x, multiplier, shift, want);
    check_s8(x, multiplier, shift, want);
}

/* tinyaot_add_scale_input (an int8 ADD's input, v << 20 through multiplier m and right shift r;
   an int16 one's, v << 15) for every v of an int8 input plus offset (int16: every int16 v), at
   multiplier m >= 0 and every r below 31. */
static void check_add_input(int32_t m, int32_t headroom, int32_t v_min, int32_t v_max)
{
    int32_t r, v;
    for (r = 0; r < 31; r++) {
        const struct tinyaot_add_input_scale s = tinyaot_add_input_scale_of(0, m, -r, 31 - headroom);
        for (v = v_min; v <= v_max; v++) {
            const int32_t want = reference(v * (1 << headroom), m, -r);
            const int32_t got =
                headroom == 20 ? tinyaot_add_scale_input(&s, v, 11) : tinyaot_add_scale_input(&s, v, 16);
            add_inputs++;
            if (got != want) {
                printf("DIFFERS: ADD input v=%ld multiplier=%ld shift=%ld: reference %ld, tinyaot_add %ld\n", (long)v,
                       (long)m, (long)-r, (long)want, (long)got);
                exit(1);
            }
        }
    }
}

static void check_lstm_rescale_at(int32_t x, int32_t m, int32_t r)
{
    const int32_t want = tinyaot_clamp_i32(reference(x, m, -r), -32768, 32767);
    const int32_t got = tinyaot_lstm_s8_rescale(x, m, -r);
    lstm_rescales++;
    if (got != want) {
        printf("DIFFERS: LSTM gate x=%ld multiplier=%ld shift=%ld: reference %ld, tinyaot_lstm_s8_rescale %ld\n",
               (long)x, (long)m, (long)-r, (long)want, (long)got);
        exit(1);
    }
}

/* Every x within twice the short path's clamp 2^(16+r) of 0 (1.5 times for r = 14), in steps of `step`
   (odd: every low-bit pattern comes round), then the int32 ends. */
static void check_lstm_rescale(int32_t m, int32_t r, int32_t step)
{
    const int32_t clamp = (int32_t)1 << (16 + r);
    const int32_t reach = clamp + (r < 14 ? clamp : clamp >> 1);
    int32_t x;
    for (x = -reach; x <= reach; x += step) {
        check_lstm_rescale_at(x, m, r);
    }
    for (x = -4096; x <= 4096; x++) {  /* around the clamp, both signs */
        check_lstm_rescale_at(clamp + x, m, r);
        check_lstm_rescale_at(-clamp + x, m, r);
    }
    check_lstm_rescale_at(INT32_MIN, m, r);
    check_lstm_rescale_at(INT32_MAX, m, r);
}

/* The cell products' rescale, at multiplier 2^30 (its shift path) and another, every right shift. */
static void check_lstm_product(int32_t x)
{
    static const int32_t m[] = {1 << 30, 1407374976};
    int32_t r;
    int a;
    for (a = 0; a < 2; a++) {
        for (r = 1; r <= 30; r++) {
            const int32_t want = reference(x, m[a], -r);
            const int32_t got = tinyaot_lstm_rescale_product(x, m[a], -r, 1);
            lstm_rescales++;
            if (got != want) {
                printf("DIFFERS: LSTM product x=%ld multiplier=%ld shift=%ld: reference %ld, "
                       "tinyaot_lstm_rescale_product %ld\n", (long)x, (long)m[a], (long)-r, (long)want, (long)got);
                exit(1);
            }
        }
    }
}

int main(int argc, char **argv)
{
    static const int32_t edges[] = {0, 1, -1, 2, -2, 3, 127, -128, 255, 32767, -32768, 65535, 65536, -65536,
                                    (1 << 30) - 1, 1 << 30, -(1 << 30), INT32_MAX, INT32_MIN, INT32_MIN + 1,
                                    INT32_MAX - 1, 0x55555555, -0x55555555, 0x12345678, -0x12345678};
    const int n_edges = (int)(sizeof(edges) / sizeof(edges[0]));
    const unsigned long randoms = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000ul;
    unsigned long i;
    int32_t shift;
    int a, b;

    for (shift = -31; shift <= 31; shift++) {
        for (a = 0; a < n_edges; a++) {
            for (b = 0; b < n_edges; b++) {
                check(edges[a], edges[b], shift);
            }
        }
    }
    /* Rounding ties: x * m exactly at a half of 2^31 or of 2^(31 + r). */
    for (shift = -31; shift <= 0; shift++) {
        for (a = -4096; a <= 4096; a++) {
            check(a, 1 << 30, shift);
            check(a, -(1 << 30), shift);
            check(a * 65536, 1 << 30, shift);
        }
    }
    for (i = 0; i < randoms; i++) {
        const uint32_t r = next_random();
        int32_t x = (int32_t)next_random();
        int32_t m = (int32_t)next_random();
        /* Mostly what kernels see: accumulators of a few bits to 24 bits, multipliers in [2^30, 2^31). */
        if (r & 1u) {
            x >>= (int)(r >> 1 & 31u);
        }
        if (r & 64u) {
            m = (int32_t)(0x40000000u | ((uint32_t)m & 0x3FFFFFFFu));
            if (r & 128u) {
                m = -m;
            }
        }
        shift = (int32_t)(r >> 8 & 63u) - 31;
        if (shift > 31) {
            shift = 31;
        }
        check(x, m, shift);
    }
    /* ADD's inputs: multiplier edges (2^30 is the larger scale's input), then random ones. */
    {
        static const int32_t edges_m[] = {0, 1, 0x7FF, 0x800, 0xFFFF, 0x10000, 1 << 30, INT32_MAX};
        for (a = 0; a < (int)(sizeof(edges_m) / sizeof(edges_m[0])); a++) {
            check_add_input(edges_m[a], 20, -255, 255);
            check_add_input(edges_m[a], 15, -32768, 32767);
        }
    }
    for (i = 0; i < 200; i++) {
        check_add_input((int32_t)(next_random() >> 1), 20, -255, 255);
    }
    for (i = 0; i < 4; i++) {
        check_add_input((int32_t)(next_random() >> 1), 15, -32768, 32767);
    }
    {
        /* The multiplier's ends, a zero and a full low half, lstm_seq28's two gate multipliers. */
        static const int32_t lstm_m[] = {1 << 30, INT32_MAX, 0x40000001, 0x7FFF0000, 0x4000FFFF, 1407374976,
                                         1649267456};
        for (a = 0; a < (int)(sizeof(lstm_m) / sizeof(lstm_m[0])); a++) {
            for (shift = 0; shift <= 14; shift++) {
                check_lstm_rescale(lstm_m[a], shift, shift <= 2 ? 1 : (1 << (shift + 3)) + 1);
            }
        }
    }
    for (a = -(1 << 17); a <= 1 << 17; a += 3) {
        check_lstm_product(a);
    }
    for (a = 0; a < n_edges; a++) {
        check_lstm_product(edges[a]);
    }
    printf("%lu cases, all equal; %lu through the per-tensor fold, %lu through the per-channel fold; "
           "%lu ADD inputs; %lu LSTM rescales\n", compared, folded, channel_folded, add_inputs, lstm_rescales);
    return 0;
}
