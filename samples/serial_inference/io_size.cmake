# io_size.cmake - cmake -P: writes serial_inference_io.h from the model's JSON.
# The runner keeps the input and output tensors that are not in the arena in
# one static buffer, each rounded up to 8 bytes (as runner.c carves it); sizing
# it from the model keeps RAM use exact on small boards. Inputs (-D): JSON OUT.
cmake_minimum_required(VERSION 3.20)
include("${CMAKE_CURRENT_LIST_DIR}/../../cmake/tinyaot_json.cmake")
file(READ "${JSON}" doc)
tinyaot_json_io_bytes(in_bytes "${doc}" inputs 8)
tinyaot_json_io_bytes(out_bytes "${doc}" outputs 8)
math(EXPR total "${in_bytes} + ${out_bytes}")
# At least 8: a zero-length array is not C99.
if(total LESS 8)
  set(total 8)
endif()
set(text "/* Generated from ${JSON} by io_size.cmake. */\n#define SERIAL_INFERENCE_IO_BYTES ${total}u\n")
# Rewrite only on change, so sources including it do not rebuild needlessly.
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT "${old}" STREQUAL "${text}")
  file(WRITE "${OUT}" "${text}")
endif()
