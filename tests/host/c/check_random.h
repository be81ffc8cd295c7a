/*
 * check_random.h - the host checks' random numbers: xorshift32 from a fixed seed, so
 * every run compares the same cases (and their printed counts stay fixed).
 */
#ifndef CHECK_RANDOM_H
#define CHECK_RANDOM_H

#include <stdint.h>

static uint32_t rng_state = 2463534242u;

static uint32_t next_random(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

#endif /* CHECK_RANDOM_H */
