/*
 * runner.c - drives any tinyaot model over a serial line (see PROTOCOL.md).
 *
 * Portable: everything platform specific goes through tinyaot_port.h.
 * Uses no dynamic memory; tensors live in the buffer the port provides.
 */
#include <stdint.h>
#include <string.h>

#include "tinyaot.h"
#include "tinyaot_port.h"

#define PROTOCOL_VERSION 1u

#define SYNC0 0xA5u
#define SYNC1 0x5Au
#define MAX_PAYLOAD 256u
#define MAX_TENSORS 16u

/* Requests; a response has the request type | RESPONSE. */
#define CMD_INFO 0x01u
#define CMD_TENSOR 0x02u
#define CMD_WRITE_INPUT 0x03u
#define CMD_RUN 0x04u
#define CMD_READ_OUTPUT 0x05u
#define CMD_RESET 0x06u
#define CMD_PROFILE 0x07u
#define CMD_BLOB_WRITE 0x08u
#define CMD_BLOB_BIND 0x09u
#define CMD_SELECT 0x0Au
#define RESPONSE 0x80u
#define MSG_ERROR 0x7Fu

#define ERR_CRC 1u
#define ERR_UNKNOWN 2u
#define ERR_ARGUMENT 3u
#define ERR_NO_RAM 4u
#define ERR_TOO_LONG 5u
#define ERR_NO_BLOB 6u

static const struct tinyaot_model *const *models;
static uint32_t num_models;
static const struct tinyaot_model *model; /* the one served: models[SELECT's index] */
static void *inputs[MAX_TENSORS];
static void *outputs[MAX_TENSORS];
static uint32_t io_needed;
static uint32_t io_size;
static int io_ok;

#ifdef TINYAOT_RUNNER_BIND
/*
 * Weights blob upload (--weights blob models): the RAM the port gave us beyond
 * the I/O tensors holds the blob the host writes, then binds. Flash would hold
 * a product's blob; RAM lets one firmware take any number of blobs in turn.
 */
int32_t TINYAOT_RUNNER_BIND(const void *blob, size_t size);
static uint8_t *blob_ram;
static uint32_t blob_capacity;
#endif

#ifdef TINYAOT_RUNNER_PROFILE
/*
 * Per-step profile: the generated run() calls TINYAOT_PROFILE_HOOK (defined to
 * tinyaot_runner_profile_step by the build) before each operator step and once
 * after the last; the counter read at each call, minus the one before, is the
 * cost of a step plus one hook call.
 */
#define MAX_STEPS 512u
#define PROFILE_PER_FRAME 60u
static uint64_t step_marks[MAX_STEPS + 1u];
static uint32_t step_count; /* hook calls in the last run */
static uint32_t hook_cost;  /* counter ticks of one hook call with nothing between */

/* Never inlined: measure_hook_cost() must time the same call run() makes. */
void tinyaot_runner_profile_step(uint32_t step) __attribute__((noinline));
void tinyaot_runner_profile_step(uint32_t step)
{
    uint64_t now = tinyaot_port_cycles();
    if (step <= MAX_STEPS) {
        step_marks[step] = now;
        step_count = step + 1u;
    }
}

static void measure_hook_cost(void)
{
    tinyaot_runner_profile_step(0u);
    tinyaot_runner_profile_step(1u);
    hook_cost = (uint32_t)(step_marks[1] - step_marks[0]);
}
#endif

static uint8_t payload[MAX_PAYLOAD];
static uint8_t reply[MAX_PAYLOAD];

/* CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF), bitwise: small, fast enough. */
static uint16_t crc16_update(uint16_t crc, uint8_t byte)
{
    int i;
    crc ^= (uint16_t)((uint16_t)byte << 8);
    for (i = 0; i < 8; i++) {
        crc = (crc & 0x8000u) ? (uint16_t)((crc << 1) ^ 0x1021u) : (uint16_t)(crc << 1);
    }
    return crc;
}

static void put_u16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void put_u32(uint8_t *p, uint32_t v)
{
    put_u16(p, v);
    put_u16(p + 2, v >> 16);
}

static uint32_t get_u16(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8);
}

static uint32_t get_u32(const uint8_t *p)
{
    return get_u16(p) | (get_u16(p + 2) << 16);
}

static void send_frame(uint8_t type, const uint8_t *data, uint32_t len)
{
    uint8_t head[3];
    uint16_t crc = 0xFFFFu;
    uint32_t i;

    head[0] = type;
    put_u16(head + 1, len);
    tinyaot_port_putc(SYNC0);
    tinyaot_port_putc(SYNC1);
    for (i = 0; i < 3; i++) {
        crc = crc16_update(crc, head[i]);
        tinyaot_port_putc(head[i]);
    }
    for (i = 0; i < len; i++) {
        crc = crc16_update(crc, data[i]);
        tinyaot_port_putc(data[i]);
    }
    tinyaot_port_putc((uint8_t)crc);
    tinyaot_port_putc((uint8_t)(crc >> 8));
}

static void send_error(uint8_t code, uint8_t request, const char *message)
{
    uint32_t n = (uint32_t)strlen(message);
    if (n > MAX_PAYLOAD - 2u) {
        n = MAX_PAYLOAD - 2u;
    }
    reply[0] = code;
    reply[1] = request;
    memcpy(reply + 2, message, n);
    send_frame(MSG_ERROR, reply, n + 2u);
}

/*
 * Waits for one frame. Bytes before a sync pair are skipped, so the host can
 * resynchronise. Returns the type (payload and *len filled in), or -1 after
 * answering a frame that is too long or fails its CRC.
 */
static int receive_frame(uint32_t *len)
{
    uint8_t head[3];
    uint16_t crc = 0xFFFFu;
    uint32_t received;
    uint32_t i;
    uint8_t c = tinyaot_port_getc();

    for (;;) {
        if (c == SYNC0) {
            c = tinyaot_port_getc();
            if (c == SYNC1) {
                break;
            }
        } else {
            c = tinyaot_port_getc();
        }
    }
    for (i = 0; i < 3; i++) {
        head[i] = tinyaot_port_getc();
        crc = crc16_update(crc, head[i]);
    }
    *len = get_u16(head + 1);
    if (*len > MAX_PAYLOAD) {
        send_error(ERR_TOO_LONG, head[0], "frame too long");
        return -1;
    }
    for (i = 0; i < *len; i++) {
        payload[i] = tinyaot_port_getc();
        crc = crc16_update(crc, payload[i]);
    }
    received = tinyaot_port_getc();
    received |= (uint32_t)tinyaot_port_getc() << 8;
    if (received != crc) {
        send_error(ERR_CRC, head[0], "bad CRC");
        return -1;
    }
    return head[0];
}

static uint32_t align8(uint32_t n)
{
    return (n + 7u) & ~7u;
}

/* Carves the port's buffer into input and output tensors. */
static void setup_io(void)
{
    uint8_t *pool = tinyaot_port_io_buffer(&io_size);
    uint32_t off = 0;
    uint32_t i;

    io_ok = model->num_inputs <= MAX_TENSORS && model->num_outputs <= MAX_TENSORS;
    for (i = 0; io_ok && i < model->num_inputs; i++) {
        /* An input the generator placed in the arena (--inputs-in-arena) is
         * written in place: no copy and no RAM of ours. */
        inputs[i] = model->input_buffer != NULL ? model->input_buffer(i) : NULL;
        if (inputs[i] == NULL) {
            inputs[i] = pool + off;
            off += align8(model->inputs[i].size_bytes);
        }
    }
    for (i = 0; io_ok && i < model->num_outputs; i++) {
        outputs[i] = pool + off;
        off += align8(model->outputs[i].size_bytes);
    }
    io_needed = off;
    if (off > io_size) {
        io_ok = 0;
    }
    if (io_ok && off > 0u) {
        memset(pool, 0, off);
    }
#ifdef TINYAOT_RUNNER_BIND
    blob_ram = io_ok ? pool + off : NULL;
    blob_capacity = io_ok ? io_size - off : 0u;
#endif
}

/* Length-prefixed string, cut to fit 255 bytes and `room`. */
static uint32_t put_string(uint8_t *p, const char *s, uint32_t room)
{
    uint32_t n = s != NULL ? (uint32_t)strlen(s) : 0u;
    if (room == 0u) {
        return 0u;
    }
    if (n > 255u) {
        n = 255u;
    }
    if (n + 1u > room) {
        n = room - 1u;
    }
    p[0] = (uint8_t)n;
    if (n > 0u) {
        memcpy(p + 1, s, n);
    }
    return n + 1u;
}

static void do_info(void)
{
    uint32_t n;
    reply[0] = PROTOCOL_VERSION;
    reply[1] = (uint8_t)model->num_inputs;
    reply[2] = (uint8_t)model->num_outputs;
    reply[3] = (uint8_t)io_ok;
    put_u32(reply + 4, model->arena_size);
    put_u32(reply + 8, model->state_size);
    put_u32(reply + 12, io_size);
    put_u32(reply + 16, io_needed);
    put_u32(reply + 20, tinyaot_port_cycles_hz());
    n = 24;
    n += put_string(reply + n, model->name, MAX_PAYLOAD - n);
    n += put_string(reply + n, model->generator_version, MAX_PAYLOAD - n);
    send_frame(CMD_INFO | RESPONSE, reply, n);
}

static void do_tensor(uint32_t len)
{
    const struct tinyaot_tensor_info *t;
    uint32_t i;
    uint32_t n;
    uint32_t scale_bits;

    if (len != 2u || payload[0] > 1u ||
        payload[1] >= (payload[0] == 0u ? model->num_inputs : model->num_outputs)) {
        send_error(ERR_ARGUMENT, CMD_TENSOR, "no such tensor");
        return;
    }
    t = payload[0] == 0u ? &model->inputs[payload[1]] : &model->outputs[payload[1]];
    reply[0] = (uint8_t)t->dtype;
    reply[1] = (uint8_t)t->rank;
    put_u16(reply + 2, 0);
    put_u32(reply + 4, t->size_bytes);
    memcpy(&scale_bits, &t->scale, sizeof scale_bits);
    put_u32(reply + 8, scale_bits);
    put_u32(reply + 12, (uint32_t)t->zero_point);
    n = 16;
    for (i = 0; i < t->rank && i < TINYAOT_MAX_RANK; i++) {
        put_u32(reply + n, (uint32_t)t->shape[i]);
        n += 4u;
    }
    n += put_string(reply + n, t->name, MAX_PAYLOAD - n);
    send_frame(CMD_TENSOR | RESPONSE, reply, n);
}

static void do_write_input(uint32_t len)
{
    uint32_t index;
    uint32_t offset;
    uint32_t count;

    if (!io_ok) {
        send_error(ERR_NO_RAM, CMD_WRITE_INPUT, "not enough RAM for input/output tensors");
        return;
    }
    if (len < 5u) {
        send_error(ERR_ARGUMENT, CMD_WRITE_INPUT, "short request");
        return;
    }
    index = payload[0];
    offset = get_u32(payload + 1);
    count = len - 5u;
    if (index >= model->num_inputs || offset > model->inputs[index].size_bytes ||
        count > model->inputs[index].size_bytes - offset) {
        send_error(ERR_ARGUMENT, CMD_WRITE_INPUT, "outside the input tensor");
        return;
    }
    memcpy((uint8_t *)inputs[index] + offset, payload + 5, count);
    send_frame(CMD_WRITE_INPUT | RESPONSE, reply, 0);
}

static void do_read_output(uint32_t len)
{
    uint32_t index;
    uint32_t offset;
    uint32_t count;

    if (!io_ok) {
        send_error(ERR_NO_RAM, CMD_READ_OUTPUT, "not enough RAM for input/output tensors");
        return;
    }
    if (len != 7u) {
        send_error(ERR_ARGUMENT, CMD_READ_OUTPUT, "bad request length");
        return;
    }
    index = payload[0];
    offset = get_u32(payload + 1);
    count = get_u16(payload + 5);
    if (index >= model->num_outputs || count > MAX_PAYLOAD ||
        offset > model->outputs[index].size_bytes ||
        count > model->outputs[index].size_bytes - offset) {
        send_error(ERR_ARGUMENT, CMD_READ_OUTPUT, "outside the output tensor");
        return;
    }
    send_frame(CMD_READ_OUTPUT | RESPONSE, (const uint8_t *)outputs[index] + offset, count);
}

static void do_run(void)
{
    uint64_t start;
    uint64_t end;
    uint64_t overhead;
    int32_t status;
    uint32_t stack;

    if (!io_ok) {
        send_error(ERR_NO_RAM, CMD_RUN, "not enough RAM for input/output tensors");
        return;
    }
    /* Cost of reading the counter itself, subtracted from the measurement. */
    start = tinyaot_port_cycles();
    end = tinyaot_port_cycles();
    overhead = end - start;

#ifdef TINYAOT_RUNNER_PROFILE
    measure_hook_cost();
    step_count = 0u;
#endif
    tinyaot_port_stack_paint();
    start = tinyaot_port_cycles();
    status = model->run(inputs, outputs);
    end = tinyaot_port_cycles();
    stack = tinyaot_port_stack_used();

    end -= start;
    end = end > overhead ? end - overhead : 0u;
    put_u32(reply, (uint32_t)status);
    put_u32(reply + 4, (uint32_t)end);
    put_u32(reply + 8, (uint32_t)(end >> 32));
    put_u32(reply + 12, stack);
    send_frame(CMD_RUN | RESPONSE, reply, 16);
}

/*
 * PROFILE: `first u16` -> `steps u16` (step figures the last RUN recorded, 0 if
 * the firmware has no profile), `hook_cost u32`, then up to PROFILE_PER_FRAME
 * u32 counter ticks of steps first, first + 1, ... (each minus one hook call).
 */
static void do_profile(uint32_t len)
{
    uint32_t n = 0u, steps = 0u, cost = 0u;
    if (len != 2u) {
        send_error(ERR_ARGUMENT, CMD_PROFILE, "payload is first step u16");
        return;
    }
#ifdef TINYAOT_RUNNER_PROFILE
    {
        uint32_t i = get_u16(payload);
        steps = step_count > 0u ? step_count - 1u : 0u;
        cost = hook_cost;
        for (; i < steps && n < PROFILE_PER_FRAME; i++, n++) {
            uint64_t ticks = step_marks[i + 1u] - step_marks[i];
            put_u32(reply + 6u + 4u * n, ticks > cost ? (uint32_t)(ticks - cost) : 0u);
        }
    }
#endif
    put_u16(reply, steps);
    put_u32(reply + 2, cost);
    send_frame(CMD_PROFILE | RESPONSE, reply, 6u + 4u * n);
}

/*
 * BLOB_WRITE: `offset u32`, data -> `capacity u32` (bytes of the blob buffer).
 * BLOB_BIND: `null u8`, `offset u32`, `size u32` -> `status i32`, what bind
 * returned for the buffer at `offset` (or for NULL).
 */
static void do_blob(uint8_t type, uint32_t len)
{
#ifdef TINYAOT_RUNNER_BIND
    uint32_t offset;
    uint32_t count;
    int32_t status;

    if (blob_ram == NULL) {
        send_error(ERR_NO_RAM, type, "not enough RAM for input/output tensors");
        return;
    }
    if (type == CMD_BLOB_WRITE) {
        offset = len >= 4u ? get_u32(payload) : 0u;
        count = len >= 4u ? len - 4u : 0u;
    } else {
        offset = len == 9u ? get_u32(payload + 1) : 0u;
        count = len == 9u ? get_u32(payload + 5) : 0u;
    }
    if (len < 4u || (type == CMD_BLOB_BIND && len != 9u) || offset > blob_capacity ||
        count > blob_capacity - offset) {
        send_error(ERR_ARGUMENT, type, "outside the blob buffer");
        return;
    }
    if (type == CMD_BLOB_WRITE) {
        /* Unbind first (a refused bind unbinds): a half-written blob never runs. */
        (void)TINYAOT_RUNNER_BIND(NULL, 0u);
        memcpy(blob_ram + offset, payload + 4, count);
        put_u32(reply, blob_capacity);
        send_frame(CMD_BLOB_WRITE | RESPONSE, reply, 4);
        return;
    }
    status = TINYAOT_RUNNER_BIND(payload[0] != 0u ? NULL : blob_ram + offset, count);
    put_u32(reply, (uint32_t)status);
    send_frame(CMD_BLOB_BIND | RESPONSE, reply, 4);
#else
    (void)len;
    send_error(ERR_NO_BLOB, type, "the model's weights are linked in");
#endif
}

/* SELECT: `index u8` -> `models u8`; the I/O tensors are carved anew for the model (zeroed). */
static void do_select(uint32_t len)
{
    if (len != 1u || payload[0] >= num_models) {
        send_error(ERR_ARGUMENT, CMD_SELECT, "no such model");
        return;
    }
    model = models[payload[0]];
    setup_io();
    reply[0] = (uint8_t)num_models;
    send_frame(CMD_SELECT | RESPONSE, reply, 1);
}

void tinyaot_runner(const struct tinyaot_model *m)
{
    tinyaot_runner_models(&m, 1u);
}

void tinyaot_runner_models(const struct tinyaot_model *const *list, uint32_t count)
{
    models = list;
    num_models = count;
    model = list[0];
    setup_io();
    for (;;) {
        uint32_t len = 0;
        int type = receive_frame(&len);
        switch (type) {
        case -1:
            break; /* bad frame, already answered */
        case CMD_INFO:
            do_info();
            break;
        case CMD_TENSOR:
            do_tensor(len);
            break;
        case CMD_WRITE_INPUT:
            do_write_input(len);
            break;
        case CMD_RUN:
            do_run();
            break;
        case CMD_READ_OUTPUT:
            do_read_output(len);
            break;
        case CMD_PROFILE:
            do_profile(len);
            break;
        case CMD_SELECT:
            do_select(len);
            break;
        case CMD_BLOB_WRITE:
        case CMD_BLOB_BIND:
            do_blob((uint8_t)type, len);
            break;
        case CMD_RESET:
            model->reset();
            send_frame(CMD_RESET | RESPONSE, reply, 0);
            break;
        default:
            send_error(ERR_UNKNOWN, (uint8_t)type, "unknown command");
            break;
        }
    }
}
