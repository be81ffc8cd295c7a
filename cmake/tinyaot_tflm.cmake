# tinyaot_tflm.cmake - TensorFlow Lite Micro built from its source tree, for the
# TFLM firmware (firmware/tflm_runner) that `tinyaot bench` measures tinyaot
# against on the same board. TFLM is not part of tinyaot: point
# TINYAOT_TFLM_DIR at a tflite-micro tree (github.com/tensorflow/tflite-micro).
#
# Include after the board's board.cmake (TINYAOT_BOARD_CPU_FLAGS). Gives
#   tinyaot_tflm_flags          INTERFACE target: include paths, defines and flags
#                               (TFLM's Makefile, BUILD_TYPE=release) for the board's core
#   tinyaot_tflm_add_core(<t>)  static library <t>: TFLM's interpreter, allocator,
#                               planner and kernel utilities, without any operator kernel

include_guard(GLOBAL)

set(TINYAOT_TFLM_DIR "" CACHE PATH "TensorFlow Lite Micro source tree (github.com/tensorflow/tflite-micro)")
set(TINYAOT_TFLM_OPT "-O2" CACHE STRING "Optimisation flag for TFLM (the same as tinyaot's firmware)")

if(NOT EXISTS "${TINYAOT_TFLM_DIR}/tensorflow/lite/micro/micro_interpreter.h")
  message(FATAL_ERROR "tinyaot: the TFLM firmware needs TensorFlow Lite Micro's source tree: set "
                      "TINYAOT_TFLM_DIR to a tflite-micro tree (github.com/tensorflow/tflite-micro, "
                      "with third_party/flatbuffers, gemmlowp and ruy); it is '${TINYAOT_TFLM_DIR}'")
endif()

add_library(tinyaot_tflm_flags INTERFACE)
# SYSTEM: TFLM's headers are not held to our -Wextra -Werror.
target_include_directories(tinyaot_tflm_flags SYSTEM INTERFACE
  "${TINYAOT_TFLM_DIR}"
  "${TINYAOT_TFLM_DIR}/third_party/flatbuffers/include"
  "${TINYAOT_TFLM_DIR}/third_party/gemmlowp"
  "${TINYAOT_TFLM_DIR}/third_party/ruy")
# TFLM's Makefile: TF_LITE_STATIC_MEMORY, TF_LITE_DISABLE_X86_NEON; BUILD_TYPE=release
# (NDEBUG, TF_LITE_STRIP_ERROR_STRINGS: its smallest and fastest build); the two defines
# its flatbuffers patch makes.
target_compile_definitions(tinyaot_tflm_flags INTERFACE
  TF_LITE_STATIC_MEMORY TF_LITE_DISABLE_X86_NEON NDEBUG TF_LITE_STRIP_ERROR_STRINGS
  FLATBUFFERS_LOCALE_INDEPENDENT=0 FLATBUFFERS_PREFER_PRINTF=1)
target_compile_options(tinyaot_tflm_flags INTERFACE
  ${TINYAOT_BOARD_CPU_FLAGS} ${TINYAOT_TFLM_OPT}
  -fno-unwind-tables -ffunction-sections -fdata-sections
  $<$<COMPILE_LANGUAGE:CXX>:-std=c++17 -fno-rtti -fno-exceptions -fno-threadsafe-statics>)

# Every TFLM source but the operator kernels (PROVENANCE.md of the trimmed tree: all but
# tensorflow/lite/array.cc, the Cortex-M micro_time.cc and one of the two debug_log.cc).
function(tinyaot_tflm_add_core target)
  set(lite "${TINYAOT_TFLM_DIR}/tensorflow/lite")
  file(GLOB sources
    "${TINYAOT_TFLM_DIR}/tensorflow/compiler/mlir/lite/core/api/*.cc"
    "${TINYAOT_TFLM_DIR}/tensorflow/compiler/mlir/lite/schema/*.cc"
    "${lite}/core/api/*.cc" "${lite}/core/c/*.cc" "${lite}/kernels/*.cc"
    "${lite}/kernels/internal/*.cc" "${lite}/kernels/internal/reference/*.cc"
    "${lite}/micro/*.cc" "${lite}/micro/arena_allocator/*.cc" "${lite}/micro/memory_planner/*.cc"
    "${lite}/micro/tflite_bridge/*.cc")
  list(REMOVE_ITEM sources "${lite}/micro/debug_log.cc")
  list(APPEND sources "${lite}/micro/cortex_m_generic/debug_log.cc"
    "${lite}/micro/kernels/kernel_util.cc" "${lite}/micro/kernels/micro_tensor_utils.cc")
  add_library(${target} STATIC ${sources})
  target_link_libraries(${target} PUBLIC tinyaot_tflm_flags)
endfunction()
