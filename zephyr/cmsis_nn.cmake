# CMSIS-NN for CONFIG_TINYAOT_KERNELS_CMSIS_NN: Zephyr's cmsis-nn module when
# it is built (CONFIG_CMSIS_NN) and has the v7 API the generated code calls,
# else the CMSIS-NN source tree TINYAOT_CMSIS_NN_DIR (CMake variable, or the
# environment variable of the same name), built for the board's core. Anything
# else stops at configure time, naming the CMSIS-NN found and the way out.

set(_tinyaot_v7_function "arm_fully_connected_wrapper_s8")
string(CONCAT _tinyaot_way_out "set TINYAOT_CMSIS_NN_DIR (-DTINYAOT_CMSIS_NN_DIR=... or the environment) "
              "to a CMSIS-NN v7.0.0 source tree (github.com/ARM-software/CMSIS-NN)")

# "<dir> (arm_nnfunctions.h V.16.0.0)" into ${out_name}; ${v7_name} true when the
# tree has the v7 API (the header's revision alone does not say which release it is).
function(_tinyaot_cmsis_nn_describe dir out_name v7_name)
  set(header "${dir}/Include/arm_nnfunctions.h")
  file(STRINGS "${header}" revision REGEX "\\$Revision:")
  string(REGEX MATCH "V\\.[0-9.]+" revision "${revision}")
  if(NOT revision)
    set(revision "no $Revision line")
  endif()
  file(STRINGS "${header}" v7 REGEX "${_tinyaot_v7_function}")
  set(${out_name} "${dir} (arm_nnfunctions.h ${revision})" PARENT_SCOPE)
  if(v7)
    set(${v7_name} TRUE PARENT_SCOPE)
  else()
    set(${v7_name} FALSE PARENT_SCOPE)
  endif()
endfunction()

if(DEFINED ZEPHYR_CMSIS_NN_MODULE_DIR AND EXISTS "${ZEPHYR_CMSIS_NN_MODULE_DIR}/Include/arm_nnfunctions.h")
  _tinyaot_cmsis_nn_describe("${ZEPHYR_CMSIS_NN_MODULE_DIR}" _tinyaot_module _tinyaot_module_v7)
  set(_tinyaot_module_note "; Zephyr's cmsis-nn module ${_tinyaot_module} ")
  if(_tinyaot_module_v7)
    string(APPEND _tinyaot_module_note "has the v7 API: enable CONFIG_CMSIS_NN to use it")
  else()
    string(APPEND _tinyaot_module_note "predates the v7 API the generated code calls "
                                       "(no ${_tinyaot_v7_function})")
  endif()
else()
  set(_tinyaot_module_note "; this workspace has no cmsis-nn module")
endif()

if(CONFIG_CMSIS_NN AND DEFINED _tinyaot_module_v7)
  if(NOT _tinyaot_module_v7)
    message(FATAL_ERROR "CONFIG_TINYAOT_KERNELS_CMSIS_NN with CONFIG_CMSIS_NN: Zephyr's cmsis-nn module "
                        "${_tinyaot_module} predates the CMSIS-NN v7 API the generated code calls "
                        "(no ${_tinyaot_v7_function}): turn CONFIG_CMSIS_NN off and ${_tinyaot_way_out}, "
                        "or update the module")
  endif()
  # The module adds its library to the application itself.
  set_property(GLOBAL PROPERTY TINYAOT_CMSIS_NN_PROVIDED TRUE)
  return()
endif()

if(NOT TINYAOT_CMSIS_NN_DIR AND DEFINED ENV{TINYAOT_CMSIS_NN_DIR})
  set(TINYAOT_CMSIS_NN_DIR "$ENV{TINYAOT_CMSIS_NN_DIR}" CACHE PATH "CMSIS-NN source tree (v7.0.0 API)" FORCE)
endif()
if(NOT EXISTS "${TINYAOT_CMSIS_NN_DIR}/Include/arm_nnfunctions.h")
  message(FATAL_ERROR "CONFIG_TINYAOT_KERNELS_CMSIS_NN needs CMSIS-NN v7: ${_tinyaot_way_out}; "
                      "TINYAOT_CMSIS_NN_DIR is '${TINYAOT_CMSIS_NN_DIR}'${_tinyaot_module_note}")
endif()
_tinyaot_cmsis_nn_describe("${TINYAOT_CMSIS_NN_DIR}" _tinyaot_dir _tinyaot_dir_v7)
if(NOT _tinyaot_dir_v7)
  message(FATAL_ERROR "CONFIG_TINYAOT_KERNELS_CMSIS_NN: TINYAOT_CMSIS_NN_DIR ${_tinyaot_dir} predates "
                      "the CMSIS-NN v7 API the generated code calls (no ${_tinyaot_v7_function}): "
                      "point it at a CMSIS-NN v7.0.0 source tree (github.com/ARM-software/CMSIS-NN)")
endif()
if(NOT TARGET cmsis-nn)
  add_subdirectory("${TINYAOT_CMSIS_NN_DIR}" "${CMAKE_BINARY_DIR}/tinyaot-cmsis-nn" EXCLUDE_FROM_ALL)
  # Zephyr's compile flags for the board's core (-mcpu, -mthumb, ABI) and its headers;
  # (CMP0079 NEW: linking a target made in another directory, whatever the app's cmake_minimum_required).
  cmake_policy(SET CMP0079 NEW)
  # CMSIS-NN's MVE paths do arithmetic on void pointers (GCC's extension, e.g.
  # arm_depthwise_conv_wrapper_s8's ctx->buf + n), which Zephyr's -Wpointer-arith
  # turns into an error with CONFIG_COMPILER_WARNINGS_AS_ERRORS (Twister's default):
  # linked after zephyr_interface, so the option lands after Zephyr's.
  add_library(tinyaot_cmsis_nn_warnings INTERFACE)
  target_compile_options(tinyaot_cmsis_nn_warnings INTERFACE -Wno-pointer-arith)
  target_link_libraries(cmsis-nn PRIVATE zephyr_interface tinyaot_cmsis_nn_warnings)
endif()
