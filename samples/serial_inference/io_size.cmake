# io_size.cmake - cmake -P: writes serial_inference_io.h from the model's JSON.
# The runner keeps every input and output tensor in one static buffer, each
# rounded up to 8 bytes (as runner.c carves it); sizing it from the model
# keeps RAM use exact on small boards. Inputs (-D): JSON OUT.
cmake_minimum_required(VERSION 3.20)
file(READ "${JSON}" doc)
set(total 0)
foreach(list inputs outputs)
  string(JSON n LENGTH "${doc}" ${list})
  if(n GREATER 0)
    math(EXPR last "${n} - 1")
    foreach(i RANGE ${last})
      # "bytes" today; "size_bytes" is the descriptor's name for it.
      string(JSON b ERROR_VARIABLE err GET "${doc}" ${list} ${i} bytes)
      if(err)
        string(JSON b GET "${doc}" ${list} ${i} size_bytes)
      endif()
      math(EXPR total "${total} + ((${b} + 7) / 8) * 8")
    endforeach()
  endif()
endforeach()
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
