/*
 * tinyaot.h - types shared by every model that tinyaot generates.
 *
 * Each generated folder carries an identical copy, so several models can be
 * built into one firmware with any of the folders on the include path.
 */
#ifndef TINYAOT_H
#define TINYAOT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Element types of model inputs and outputs. */
enum tinyaot_dtype {
    TINYAOT_INT8 = 0,
    TINYAOT_INT16 = 1,
    TINYAOT_INT32 = 2,
    TINYAOT_FLOAT32 = 3,
    TINYAOT_UINT8 = 4,
    TINYAOT_BOOL = 5,   /* uint8_t: 0 false, anything else true; outputs hold 0 or 1 */
    TINYAOT_INT64 = 6,
    TINYAOT_UINT32 = 7
};

#define TINYAOT_MAX_RANK 6

/* What an application needs to know about one input or output tensor. */
struct tinyaot_tensor_info {
    const char *name;
    enum tinyaot_dtype dtype;
    uint32_t rank;
    int32_t shape[TINYAOT_MAX_RANK];
    uint32_t size_bytes;
    float scale;        /* real = scale * (q - zero_point); 0 if not quantized */
    int32_t zero_point;
};

/*
 * Model descriptor: lets generic code (a test firmware, a benchmark) drive any
 * model without knowing its name at compile time.
 */
struct tinyaot_model {
    const char *name;
    const char *generator_version;
    /* Same as tinyaot_<name>_run: inputs[i] and outputs[i] in model order. */
    int32_t (*run)(void *const *inputs, void *const *outputs);
    /* Resets persistent state (variable tensors) to its initial value. */
    void (*reset)(void);
    uint32_t num_inputs;
    uint32_t num_outputs;
    const struct tinyaot_tensor_info *inputs;
    const struct tinyaot_tensor_info *outputs;
    uint32_t arena_size;  /* bytes of scratch RAM, reused by every call */
    uint32_t state_size;  /* bytes of RAM kept between calls */
    /* Same as tinyaot_<name>_input_buffer: input i's place in the arena, or NULL. */
    void *(*input_buffer)(uint32_t index);
};

/* Return codes of run(). */
#define TINYAOT_OK 0
#define TINYAOT_ERROR_NULL_POINTER (-1)
/* Models generated with --weights blob: run() before a successful bind, and
 * why tinyaot_<name>_bind_weights() refused a blob. */
#define TINYAOT_ERROR_WEIGHTS_NOT_BOUND (-2)
#define TINYAOT_ERROR_BLOB_TRUNCATED (-3)
#define TINYAOT_ERROR_BLOB_MAGIC (-4)
#define TINYAOT_ERROR_BLOB_VERSION (-5)
#define TINYAOT_ERROR_BLOB_ARCHITECTURE (-6)
#define TINYAOT_ERROR_BLOB_CRC (-7)
#define TINYAOT_ERROR_BLOB_ALIGNMENT (-8)
/* run() of a model in an arena group (--shared-arena) while another model of
 * the group runs, when built with -DTINYAOT_ARENA_GROUP_CHECK. */
#define TINYAOT_ERROR_ARENA_BUSY (-9)
/* An index read at run time (GATHER, GATHER_ND, EMBEDDING_LOOKUP) is out of
 * range: TFLM's Invoke() fails too. */
#define TINYAOT_ERROR_INDEX_OUT_OF_RANGE (-10)

/* In a generated step: return a kernel's error code, go on on TINYAOT_OK. */
#define TINYAOT_RETURN_IF_ERROR(call)                \
    do {                                            \
        const int32_t tinyaot_status_ = (call);     \
        if (tinyaot_status_ != TINYAOT_OK) {        \
            return tinyaot_status_;                 \
        }                                           \
    } while (0)

#if defined(__GNUC__) || defined(__clang__)
#define TINYAOT_ALIGNED(n) __attribute__((aligned(n)))
#define TINYAOT_SECTION(s) __attribute__((section(s)))
#else
#define TINYAOT_ALIGNED(n)
#define TINYAOT_SECTION(s)
#endif

/* A generated operator step: never inlined into run(), and (GCC 8+) opaque to
 * run()'s inter-procedural analysis too; GCC 12 at -O1 took a SOFTMAX step for
 * side-effect free and dropped its call when it was only noinline. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 8
#define TINYAOT_STEP __attribute__((noipa))
#elif defined(__GNUC__) || defined(__clang__)
#define TINYAOT_STEP __attribute__((noinline))
#else
#define TINYAOT_STEP
#endif

#ifdef __cplusplus
}
#endif

#endif /* TINYAOT_H */
