/*
 * tinyaot_blob.h - checks a weights blob (see codegen/blob.py for its layout)
 * before a model generated with --weights blob reads it in place.
 */
#ifndef TINYAOT_BLOB_H
#define TINYAOT_BLOB_H

#include <stddef.h>
#include <stdint.h>

#include "tinyaot.h"

#define TINYAOT_BLOB_HEADER_SIZE 32u
#define TINYAOT_BLOB_VERSION 1u

static uint32_t tinyaot_blob_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

/* CRC-32 (IEEE, as zlib) four bits at a time: a 64-byte table instead of 1 KB. */
static uint32_t tinyaot_blob_crc32(const uint8_t *p, uint32_t n)
{
    static const uint32_t nibble[16] = {
        0x00000000u, 0x1db71064u, 0x3b6e20c8u, 0x26d930acu, 0x76dc4190u, 0x6b6b51f4u, 0x4db26158u, 0x5005713cu,
        0xedb88320u, 0xf00f9344u, 0xd6d6a3e8u, 0xcb61b38cu, 0x9b64c2b0u, 0x86d3d2d4u, 0xa00ae278u, 0xbdbdf21cu,
    };
    uint32_t crc = 0xffffffffu;
    uint32_t i;
    for (i = 0; i < n; i++) {
        crc ^= p[i];
        crc = (crc >> 4) ^ nibble[crc & 15u];
        crc = (crc >> 4) ^ nibble[crc & 15u];
    }
    return ~crc;
}

/* TINYAOT_OK, or the first thing wrong with the blob, in the order checked. */
static int32_t tinyaot_blob_check(const void *blob, size_t size, const uint8_t arch_id[8], uint32_t payload_size)
{
    const uint8_t *p = (const uint8_t *)blob;
    uint32_t i;
    if (p == NULL) {
        return TINYAOT_ERROR_NULL_POINTER;
    }
    if (((uintptr_t)p & 3u) != 0u) {
        return TINYAOT_ERROR_BLOB_ALIGNMENT;
    }
    if (size < TINYAOT_BLOB_HEADER_SIZE) {
        return TINYAOT_ERROR_BLOB_TRUNCATED;
    }
    if (p[0] != 'T' || p[1] != 'A' || p[2] != 'O' || p[3] != 'W') {
        return TINYAOT_ERROR_BLOB_MAGIC;
    }
    if (tinyaot_blob_u32(p + 4) != TINYAOT_BLOB_VERSION) {
        return TINYAOT_ERROR_BLOB_VERSION;
    }
    for (i = 0; i < 8u; i++) {
        if (p[8 + i] != arch_id[i]) {
            return TINYAOT_ERROR_BLOB_ARCHITECTURE;
        }
    }
    if (tinyaot_blob_u32(p + 16) != payload_size) {
        return TINYAOT_ERROR_BLOB_ARCHITECTURE; /* same id, other layout: not from this generator */
    }
    if (size - TINYAOT_BLOB_HEADER_SIZE < payload_size) {
        return TINYAOT_ERROR_BLOB_TRUNCATED;
    }
    if (tinyaot_blob_crc32(p + TINYAOT_BLOB_HEADER_SIZE, payload_size) != tinyaot_blob_u32(p + 20)) {
        return TINYAOT_ERROR_BLOB_CRC;
    }
    return TINYAOT_OK;
}

#endif /* TINYAOT_BLOB_H */
