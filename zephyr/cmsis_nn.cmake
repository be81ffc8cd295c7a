# CMSIS-NN for CONFIG_TINYAOT_KERNELS_CMSIS_NN: Zephyr's cmsis-nn module when
# it is built (CONFIG_CMSIS_NN) and has the v7 API the generated code calls,
# else the CMSIS-NN source tree TINYAOT_CMSIS_NN_DIR (CMake variable, or the
# environment variable of the same name), built for the board's core.

set(_tinyaot_v7_function "arm_fully_connected_wrapper_s8")
if(CONFIG_CMSIS_NN AND DEFINED ZEPHYR_CMSIS_NN_MODULE_DIR)
  file(STRINGS "${ZEPHYR_CMSIS_NN_MODULE_DIR}/Include/arm_nnfunctions.h" _tinyaot_v7
       REGEX "${_tinyaot_v7_function}")
  if(NOT _tinyaot_v7)
    message(FATAL_ERROR "CONFIG_TINYAOT_KERNELS_CMSIS_NN: Zephyr's cmsis-nn module "
                        "(${ZEPHYR_CMSIS_NN_MODULE_DIR}) predates the CMSIS-NN v7 API the generated code "
                        "calls (no ${_tinyaot_v7_function}): turn CONFIG_CMSIS_NN off and set "
                        "TINYAOT_CMSIS_NN_DIR to a CMSIS-NN v7.0.0 tree, or update the module")
  endif()
  # The module adds its library to the application itself.
  set_property(GLOBAL PROPERTY TINYAOT_CMSIS_NN_PROVIDED TRUE)
  return()
endif()

if(NOT TINYAOT_CMSIS_NN_DIR AND DEFINED ENV{TINYAOT_CMSIS_NN_DIR})
  set(TINYAOT_CMSIS_NN_DIR "$ENV{TINYAOT_CMSIS_NN_DIR}" CACHE PATH "CMSIS-NN source tree (v7.0.0 API)" FORCE)
endif()
if(NOT EXISTS "${TINYAOT_CMSIS_NN_DIR}/Include/arm_nnfunctions.h")
  message(FATAL_ERROR "CONFIG_TINYAOT_KERNELS_CMSIS_NN needs CMSIS-NN v7: set TINYAOT_CMSIS_NN_DIR "
                      "(-DTINYAOT_CMSIS_NN_DIR=... or the environment) to a CMSIS-NN v7.0.0 source tree "
                      "(github.com/ARM-software/CMSIS-NN), or enable CONFIG_CMSIS_NN with a v7 cmsis-nn "
                      "module; it is '${TINYAOT_CMSIS_NN_DIR}'")
endif()
if(NOT TARGET cmsis-nn)
  add_subdirectory("${TINYAOT_CMSIS_NN_DIR}" "${CMAKE_BINARY_DIR}/tinyaot-cmsis-nn" EXCLUDE_FROM_ALL)
  # Zephyr's compile flags for the board's core (-mcpu, -mthumb, ABI) and its headers;
  # CMP0079 (linking a target made in another directory) is OLD under Zephyr 2.5's minimum.
  cmake_policy(SET CMP0079 NEW)
  target_link_libraries(cmsis-nn PRIVATE zephyr_interface)
endif()
