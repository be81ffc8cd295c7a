/*
 * tflm_model.cc - a TFLM MicroInterpreter behind the model descriptor the
 * serial runner drives (tinyaot.h), so TFLM runs on the same board, under the
 * same protocol and the same instruction and stack measurement as tinyaot.
 *
 *   run()          Invoke(); the outputs are copied to the runner's buffers
 *   reset()        MicroInterpreter::Reset() (variable tensors to their start)
 *   input_buffer() the input tensors in TFLM's arena: the runner writes them in place
 *   arena_size     arena_used_bytes() after AllocateTensors(), on this 32-bit core
 *
 * The arena is the board's free RAM (between .bss and the stack) less the
 * runner's output buffers, which it carves from the start of that RAM: the
 * largest arena the board can give. A model that does not fit (AllocateTensors
 * fails) is served with no inputs and says so in generator_version.
 */
#include <new>
#include <stdint.h>
#include <string.h>

extern "C" {
#include "board.h"
}
#include "tensorflow/lite/micro/micro_interpreter.h"
#include "tensorflow/lite/micro/micro_mutable_op_resolver.h"
#include "tensorflow/lite/schema/schema_generated.h"
#include "tflm_model_ops.h"
#include "tinyaot.h"

extern "C" const struct tinyaot_model *tinyaot_tflm_setup(void);

namespace {

using Resolver = tflite::MicroMutableOpResolver<TINYAOT_TFLM_OP_COUNT>;

/* Placement storage: the startup code runs no C++ constructors. */
alignas(Resolver) uint8_t resolver_storage[sizeof(Resolver)];
alignas(tflite::MicroInterpreter) uint8_t interpreter_storage[sizeof(tflite::MicroInterpreter)];
tflite::MicroInterpreter *interpreter;

/* Sized for this model: RAM here is RAM TFLM's arena does not get. */
struct tinyaot_tensor_info input_info[TINYAOT_TFLM_NUM_INPUTS];
struct tinyaot_tensor_info output_info[TINYAOT_TFLM_NUM_OUTPUTS];
struct tinyaot_model descriptor;
char status_text[64];

uint32_t element_bytes(tflite::TensorType type)
{
    switch (type) {
    case tflite::TensorType_INT8:
    case tflite::TensorType_UINT8:
    case tflite::TensorType_BOOL:
        return 1u;
    case tflite::TensorType_INT16:
        return 2u;
    case tflite::TensorType_INT32:
    case tflite::TensorType_FLOAT32:
        return 4u;
    default:
        return 8u;
    }
}

/* What the runner takes from the start of free RAM for the outputs (it rounds each up to 8). */
uint32_t output_buffers_bytes(const tflite::Model *model)
{
    const tflite::SubGraph *graph = model->subgraphs()->Get(0);
    uint32_t total = 0u;
    for (uint32_t i = 0; i < graph->outputs()->size(); i++) {
        const tflite::Tensor *t = graph->tensors()->Get(graph->outputs()->Get(i));
        uint32_t bytes = element_bytes(t->type());
        if (t->shape() != nullptr) {
            for (uint32_t d = 0; d < t->shape()->size(); d++) {
                bytes *= (uint32_t)t->shape()->Get(d);
            }
        }
        total += (bytes + 7u) & ~7u;
    }
    return total;
}

enum tinyaot_dtype dtype_of(TfLiteType type)
{
    switch (type) {
    case kTfLiteInt16:
        return TINYAOT_INT16;
    case kTfLiteInt32:
        return TINYAOT_INT32;
    case kTfLiteFloat32:
        return TINYAOT_FLOAT32;
    case kTfLiteUInt8:
        return TINYAOT_UINT8;
    default:
        return TINYAOT_INT8;
    }
}

void describe(struct tinyaot_tensor_info *info, const TfLiteTensor *t, const char *name)
{
    info->name = name;
    info->dtype = dtype_of(t->type);
    info->rank = (uint32_t)t->dims->size;
    for (int d = 0; d < t->dims->size && d < TINYAOT_MAX_RANK; d++) {
        info->shape[d] = t->dims->data[d];
    }
    info->size_bytes = (uint32_t)t->bytes;
    info->scale = t->params.scale;
    info->zero_point = t->params.zero_point;
}

const char *tensor_name(const tflite::Model *model, int32_t index)
{
    const flatbuffers::String *name = model->subgraphs()->Get(0)->tensors()->Get(index)->name();
    return name != nullptr ? name->c_str() : "";
}

int32_t run(void *const *inputs, void *const *outputs)
{
    uint32_t i;
    for (i = 0; i < descriptor.num_inputs; i++) {
        void *data = interpreter->input(i)->data.data;
        if (inputs[i] != data) { /* the runner writes inputs in place; others are copied */
            memcpy(data, inputs[i], input_info[i].size_bytes);
        }
    }
    TfLiteStatus status = interpreter->Invoke();
    for (i = 0; i < descriptor.num_outputs; i++) {
        memcpy(outputs[i], interpreter->output(i)->data.data, output_info[i].size_bytes);
    }
    return status == kTfLiteOk ? TINYAOT_OK : -100 - (int32_t)status;
}

void reset(void)
{
    (void)interpreter->Reset();
}

void *input_buffer(uint32_t index)
{
    return interpreter->input(index)->data.data;
}

/* "<what> (arena N B)" into status_text, without printf. */
const char *status(const char *what, uint32_t arena)
{
    char digits[12];
    int n = 0;
    size_t len = strlen(what);
    memcpy(status_text, what, len);
    memcpy(status_text + len, " (arena ", 8);
    len += 8;
    do {
        digits[n++] = (char)('0' + arena % 10u);
        arena /= 10u;
    } while (arena != 0u);
    while (n > 0) {
        status_text[len++] = digits[--n];
    }
    memcpy(status_text + len, " B)", 4);
    return status_text;
}

}  // namespace

/*
 * TFLM calls abort() on a failed internal check. newlib's would pull in signal
 * handling and malloc; here it faults, and the fault handler reports over serial.
 */
extern "C" void abort(void)
{
    for (;;) {
        __asm__ volatile("udf #1");
    }
}

const struct tinyaot_model *tinyaot_tflm_setup(void)
{
    const tflite::Model *model = tflite::GetModel(tinyaot_tflm_model_data);
    uint8_t *arena = __free_ram_start + output_buffers_bytes(model);
    uint32_t arena_bytes = (uint32_t)(__free_ram_end - arena);
    Resolver *resolver = new (resolver_storage) Resolver();

    descriptor.name = TINYAOT_TFLM_MODEL_NAME;
    descriptor.generator_version = "TFLM " TINYAOT_TFLM_KERNELS;
    descriptor.run = run;
    descriptor.reset = reset;
    descriptor.inputs = input_info;
    descriptor.outputs = output_info;
    if (!TINYAOT_TFLM_ADD_OPS((*resolver))) {
        descriptor.generator_version = "TFLM: op resolver refused an operator";
        return &descriptor;
    }
    interpreter = new (interpreter_storage) tflite::MicroInterpreter(model, *resolver, arena, arena_bytes);
    if (interpreter->AllocateTensors() != kTfLiteOk) {
        descriptor.generator_version = status("TFLM: AllocateTensors failed", arena_bytes);
        return &descriptor;
    }
    const tflite::SubGraph *graph = model->subgraphs()->Get(0);
    descriptor.num_inputs = (uint32_t)interpreter->inputs_size();
    descriptor.num_outputs = (uint32_t)interpreter->outputs_size();
    for (uint32_t i = 0; i < descriptor.num_inputs; i++) {
        describe(&input_info[i], interpreter->input(i), tensor_name(model, graph->inputs()->Get(i)));
    }
    for (uint32_t i = 0; i < descriptor.num_outputs; i++) {
        describe(&output_info[i], interpreter->output(i), tensor_name(model, graph->outputs()->Get(i)));
    }
    descriptor.arena_size = (uint32_t)interpreter->arena_used_bytes();
    descriptor.input_buffer = input_buffer;
    return &descriptor;
}
