/* tinyaot_copy.h - a reshape that cannot share its input's storage. */
#ifndef TINYAOT_COPY_H
#define TINYAOT_COPY_H

#include <stdint.h>

static void tinyaot_copy(void *dst, const void *src, uint32_t nbytes)
{
    uint8_t *d = (uint8_t *)dst;
    const uint8_t *s = (const uint8_t *)src;
    uint32_t i;
    for (i = 0; i < nbytes; i++) {
        d[i] = s[i];
    }
}

#endif /* TINYAOT_COPY_H */
