# tinyaot.cmake - turn a .tflite model into C at build time and add it to a target.
#
#   include(<repo>/cmake/tinyaot.cmake)
#   tinyaot_add_model(<target> MODEL <file.tflite> NAME <id>
#                     [OUTPUT_DIR <dir>] [ALIGNMENT <n>]
#                     [WEIGHTS_SECTION <s>] [ARENA_SECTION <s>]
#                     [RAM_BUDGET <bytes> [RAM_BUDGET_INCLUDES_IO]]
#                     [FLASH_BUDGET <bytes>] [BUDGET_NAME <text>]
#                     [KERNELS portable|cmsis-nn] [CPU <cortex-mN>]
#                     [WEIGHTS linked|blob] [ARENA_GROUP <group>]
#                     [OPTIMIZE speed|size] [GENERATOR_ARGS <arg>...])
#
# The generator runs from add_custom_command, so it runs again only when the
# model file or a generator source file changes (the generator sources are
# globbed with CONFIGURE_DEPENDS, so a new generator file is noticed too).
#
# RAM_BUDGET / FLASH_BUDGET add a build-time check (before linking) that fails
# with a message naming the model and the sizes when the model cannot fit:
# arena + state (+ the input and output tensors with RAM_BUDGET_INCLUDES_IO)
# against RAM_BUDGET, weights against FLASH_BUDGET. Sizes come from <id>.json.
#
# KERNELS cmsis-nn lowers what CMSIS-NN supports to Arm's kernels and links
# CMSIS-NN: the target `cmsis-nn` when the project already has it (Zephyr's
# module, or your own), else the CMSIS-NN source tree TINYAOT_CMSIS_NN_DIR,
# built as a subdirectory. CMSIS-NN's code path and scratch sizes depend on the
# core: CPU names it (default: the -mcpu in the target's compile options, the
# compiler flags, or Zephyr's GCC_M_CPU). With the portable kernels, a core with
# the DSP extension (Cortex-M4, M7, M33, M35P, M55; not +nodsp) found there gets the
# kernels for its SIMD instructions, and the M55 its Helium (MVE) kernels unless it
# is built without them (+nomve, or soft-float: -mfloat-abi=soft, Zephyr without
# CONFIG_FPU; then --cpu cortex-m55+nomve), and an Armv6-M core (Cortex-M0, M0+, M1:
# no long multiply) the weight layouts that pay off without it; CPU overrides it.
#
# WEIGHTS blob generates C without weight data and <out>/<id>.weights.bin (the
# target property TINYAOT_WEIGHTS_BLOBS lists the blobs); the program hands it to
# tinyaot_<id>_bind_weights(). ARENA_GROUP <group>: the models given the same
# group (in one directory) share one arena, tinyaot_<group>_arena, of the largest
# need, written into <build>/tinyaot/<group>_arena/ and compiled into the target
# (its plan: the target property TINYAOT_ARENA_GROUP_JSON). OPTIMIZE size drops
# the portable kernels' specialised paths (pixel pairs, loops instantiated per
# shape): less flash, the same results, more instructions (default speed).
#
# Defaults that an integration (e.g. Zephyr's Kconfig) may set as cache
# variables: TINYAOT_DEFAULT_ALIGNMENT, TINYAOT_DEFAULT_WEIGHTS_SECTION,
# TINYAOT_DEFAULT_ARENA_SECTION, TINYAOT_DEFAULT_KERNELS, TINYAOT_DEFAULT_WEIGHTS,
# TINYAOT_DEFAULT_ARENA_GROUP, TINYAOT_DEFAULT_OPTIMIZE. Empty means "the
# generator's default".
# TINYAOT_PYTHONPATH overrides where the generator package is found,
# TINYAOT_PYTHON the interpreter that runs it.

include_guard(GLOBAL)
cmake_minimum_required(VERSION 3.20)

get_filename_component(TINYAOT_ROOT "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)

set(TINYAOT_DEFAULT_ALIGNMENT "" CACHE STRING
    "Byte alignment of arena buffers passed to the tinyaot generator (empty: generator default)")
set(TINYAOT_DEFAULT_WEIGHTS_SECTION "" CACHE STRING
    "Linker section for model weights (empty: generator default)")
set(TINYAOT_DEFAULT_ARENA_SECTION "" CACHE STRING
    "Linker section for the model arena (empty: generator default)")
set(TINYAOT_DEFAULT_KERNELS "" CACHE STRING
    "Kernel backend for models without KERNELS: portable or cmsis-nn (empty: portable)")
set(TINYAOT_DEFAULT_WEIGHTS "" CACHE STRING
    "Weights of models without WEIGHTS: linked or blob (empty: linked)")
set(TINYAOT_DEFAULT_ARENA_GROUP "" CACHE STRING
    "Arena group of models without ARENA_GROUP (empty: each model its own arena)")
set(TINYAOT_DEFAULT_OPTIMIZE "" CACHE STRING
    "Optimisation of models without OPTIMIZE: speed or size (empty: speed)")
set(TINYAOT_CMSIS_NN_DIR "" CACHE PATH
    "CMSIS-NN source tree (v7.0.0 API) for KERNELS cmsis-nn, when the project has no cmsis-nn target")
set(TINYAOT_PYTHONPATH "${TINYAOT_ROOT}/python" CACHE PATH
    "Directory holding the tinyaot Python package used as generator")

# The Python that runs the generator: TINYAOT_PYTHON when given; else the
# project's virtual environment, which scripts/setup.sh creates when the system
# Python is externally managed (PEP 668); else Zephyr's PYTHON_EXECUTABLE; else
# CMake's Python3.
set(TINYAOT_PYTHON "" CACHE FILEPATH "Python interpreter that runs the tinyaot generator (empty: found)")
set(_tinyaot_python "${TINYAOT_PYTHON}")
if("${_tinyaot_python}" STREQUAL "" AND EXISTS "${TINYAOT_ROOT}/.venv/bin/python")
  set(_tinyaot_python "${TINYAOT_ROOT}/.venv/bin/python")
endif()
if("${_tinyaot_python}" STREQUAL "" AND NOT "${PYTHON_EXECUTABLE}" STREQUAL "")
  set(_tinyaot_python "${PYTHON_EXECUTABLE}")
endif()
if("${_tinyaot_python}" STREQUAL "")
  if(NOT DEFINED Python3_EXECUTABLE)
    find_package(Python3 REQUIRED COMPONENTS Interpreter)
  endif()
  set(_tinyaot_python "${Python3_EXECUTABLE}")
endif()
# Global properties, not variables: the function may be called from a
# directory that does not see this file's variables (include_guard(GLOBAL)).
set_property(GLOBAL PROPERTY TINYAOT_PYTHON "${_tinyaot_python}")

# Every missing package at once, with the pip line for this interpreter, now
# rather than as a ModuleNotFoundError from the first model build.
execute_process(
  COMMAND "${CMAKE_COMMAND}" -E env "PYTHONPATH=${TINYAOT_PYTHONPATH}"
          "${_tinyaot_python}" -m tinyaot.requirements
  RESULT_VARIABLE _tinyaot_rc OUTPUT_VARIABLE _tinyaot_out ERROR_VARIABLE _tinyaot_out)
if(NOT _tinyaot_rc EQUAL 0)
  string(STRIP "${_tinyaot_out}" _tinyaot_out)
  # NOTICE keeps the pip line on one line; FATAL_ERROR text is re-wrapped.
  message(NOTICE "${_tinyaot_out}")
  message(FATAL_ERROR "tinyaot: Python packages missing for ${_tinyaot_python} (see the line above)")
endif()

# Generator sources: the package's Python, kernel headers and templates,
# except the parts that do not influence generated code (target test harness,
# host execution, measuring, test-model builders). Only source patterns are
# globbed: Python's bytecode caches appearing would otherwise re-run CMake.
set(_tinyaot_pkg "${TINYAOT_PYTHONPATH}/tinyaot")
file(GLOB_RECURSE _tinyaot_all_sources CONFIGURE_DEPENDS
     "${_tinyaot_pkg}/*.py" "${_tinyaot_pkg}/*.h" "${_tinyaot_pkg}/*.c" "${_tinyaot_pkg}/*.j2")
set(TINYAOT_GENERATOR_SOURCES "")
foreach(_f IN LISTS _tinyaot_all_sources)
  if(_f MATCHES "/tinyaot/(harness|host|measure|testing)/|/tinyaot/modelbuilder\\.py$")
    continue()
  endif()
  list(APPEND TINYAOT_GENERATOR_SOURCES "${_f}")
endforeach()
set_property(GLOBAL PROPERTY TINYAOT_GENERATOR_SOURCES "${TINYAOT_GENERATOR_SOURCES}")

function(tinyaot_add_model target)
  set(options RAM_BUDGET_INCLUDES_IO)
  set(one MODEL NAME OUTPUT_DIR ALIGNMENT WEIGHTS_SECTION ARENA_SECTION
          RAM_BUDGET FLASH_BUDGET BUDGET_NAME KERNELS CPU WEIGHTS ARENA_GROUP OPTIMIZE)
  set(multi GENERATOR_ARGS)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "${options}" "${one}" "${multi}")
  get_property(python GLOBAL PROPERTY TINYAOT_PYTHON)
  get_property(gen_sources GLOBAL PROPERTY TINYAOT_GENERATOR_SOURCES)
  set(check_script "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/tinyaot_check.cmake")

  if(NOT TARGET ${target})
    message(FATAL_ERROR "tinyaot_add_model: '${target}' is not a target")
  endif()
  if(NOT ARG_MODEL OR NOT ARG_NAME)
    message(FATAL_ERROR "tinyaot_add_model(${target}): MODEL and NAME are required")
  endif()
  if(NOT ARG_NAME MATCHES "^[a-z_][a-z0-9_]*$")
    message(FATAL_ERROR "tinyaot_add_model(${target}): NAME '${ARG_NAME}' must be a lower-case C identifier")
  endif()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tinyaot_add_model(${target}): unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()

  get_filename_component(model "${ARG_MODEL}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(NOT EXISTS "${model}")
    message(FATAL_ERROR "tinyaot_add_model(${target}): model file not found: ${model}")
  endif()

  if(ARG_OUTPUT_DIR)
    get_filename_component(out "${ARG_OUTPUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  else()
    set(out "${CMAKE_CURRENT_BINARY_DIR}/tinyaot/${ARG_NAME}")
  endif()

  # One generated folder per model name: two models must not overwrite each other.
  get_property(seen GLOBAL PROPERTY TINYAOT_MODEL_OUTPUTS)
  if("${out}/${ARG_NAME}" IN_LIST seen)
    message(FATAL_ERROR "tinyaot_add_model(${target}): model '${ARG_NAME}' already generated into ${out}")
  endif()
  set_property(GLOBAL APPEND PROPERTY TINYAOT_MODEL_OUTPUTS "${out}/${ARG_NAME}")

  foreach(opt ALIGNMENT WEIGHTS_SECTION ARENA_SECTION KERNELS WEIGHTS ARENA_GROUP OPTIMIZE)
    if(NOT DEFINED ARG_${opt} AND NOT "${TINYAOT_DEFAULT_${opt}}" STREQUAL "")
      set(ARG_${opt} "${TINYAOT_DEFAULT_${opt}}")
    endif()
  endforeach()
  set(gen_args "")
  if(DEFINED ARG_ALIGNMENT)
    list(APPEND gen_args --alignment "${ARG_ALIGNMENT}")
  endif()
  if(DEFINED ARG_WEIGHTS_SECTION)
    list(APPEND gen_args --weights-section "${ARG_WEIGHTS_SECTION}")
  endif()
  if(DEFINED ARG_ARENA_SECTION)
    list(APPEND gen_args --arena-section "${ARG_ARENA_SECTION}")
  endif()
  if(DEFINED ARG_KERNELS AND NOT ARG_KERNELS STREQUAL "portable")
    if(NOT ARG_KERNELS STREQUAL "cmsis-nn")
      message(FATAL_ERROR "tinyaot_add_model(${target}): KERNELS '${ARG_KERNELS}' must be portable or cmsis-nn")
    endif()
    _tinyaot_target_cpu(${target} ARG_CPU)
    _tinyaot_link_cmsis_nn(${target})
    list(APPEND gen_args --kernels cmsis-nn --cpu "${ARG_CPU}")
  else()
    _tinyaot_portable_cpu(${target} ARG_CPU)
    if(ARG_CPU)  # the portable kernels' SIMD paths for the DSP extension, Armv6-M's weight layouts
      list(APPEND gen_args --cpu "${ARG_CPU}")
    endif()
  endif()
  set(byproducts "${out}/tinyaot.h")
  if(DEFINED ARG_WEIGHTS AND NOT ARG_WEIGHTS STREQUAL "linked")
    if(NOT ARG_WEIGHTS STREQUAL "blob")
      message(FATAL_ERROR "tinyaot_add_model(${target}): WEIGHTS '${ARG_WEIGHTS}' must be linked or blob")
    endif()
    list(APPEND gen_args --weights blob)
    list(APPEND byproducts "${out}/${ARG_NAME}.weights.bin")
    set_property(TARGET ${target} APPEND PROPERTY TINYAOT_WEIGHTS_BLOBS "${out}/${ARG_NAME}.weights.bin")
  endif()
  if(DEFINED ARG_ARENA_GROUP)
    if(NOT ARG_ARENA_GROUP MATCHES "^[a-z_][a-z0-9_]*$")
      message(FATAL_ERROR "tinyaot_add_model(${target}): ARENA_GROUP '${ARG_ARENA_GROUP}' must be a lower-case C identifier")
    endif()
    list(APPEND gen_args --arena-group "${ARG_ARENA_GROUP}")
  endif()
  if(DEFINED ARG_OPTIMIZE AND NOT ARG_OPTIMIZE STREQUAL "speed")
    if(NOT ARG_OPTIMIZE STREQUAL "size")
      message(FATAL_ERROR "tinyaot_add_model(${target}): OPTIMIZE '${ARG_OPTIMIZE}' must be speed or size")
    endif()
    list(APPEND gen_args --optimize size)
  endif()
  list(APPEND gen_args ${ARG_GENERATOR_ARGS})

  set(c_file "${out}/${ARG_NAME}.c")
  set(h_file "${out}/${ARG_NAME}.h")
  set(json_file "${out}/${ARG_NAME}.json")
  add_custom_command(
    OUTPUT "${c_file}" "${h_file}" "${json_file}"
    BYPRODUCTS ${byproducts}
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${out}"
    COMMAND "${CMAKE_COMMAND}" -E env "PYTHONPATH=${TINYAOT_PYTHONPATH}"
            "${python}" -m tinyaot compile "${model}"
            --name "${ARG_NAME}" --out "${out}" ${gen_args}
    # The generator may leave unchanged files untouched; the outputs must be
    # newer than the inputs or the build tool would rerun this every time.
    COMMAND "${CMAKE_COMMAND}" -E touch "${c_file}" "${h_file}" "${json_file}"
    DEPENDS "${model}" ${gen_sources}
    COMMENT "tinyaot: generating ${ARG_NAME} from ${model}"
    VERBATIM)

  target_sources(${target} PRIVATE "${c_file}")
  target_include_directories(${target} PRIVATE "${out}")
  # float32 SOFTMAX, LOGISTIC and TANH call the C library's expf/tanhf (an unused
  # libm adds nothing). Zephyr's C libraries bring their math functions themselves.
  if(NOT DEFINED ZEPHYR_BASE AND NOT MSVC)
    target_link_libraries(${target} PRIVATE m)
  endif()
  set_property(TARGET ${target} APPEND PROPERTY TINYAOT_MODELS "${ARG_NAME}")
  set_property(TARGET ${target} APPEND PROPERTY TINYAOT_MODEL_JSON "${json_file}")

  if(DEFINED ARG_ARENA_GROUP)
    _tinyaot_arena_group(${target} "${ARG_ARENA_GROUP}" "${json_file}" "${ARG_ARENA_SECTION}")
  endif()

  if(DEFINED ARG_RAM_BUDGET OR DEFINED ARG_FLASH_BUDGET)
    if(NOT ARG_BUDGET_NAME)
      set(ARG_BUDGET_NAME "${target}")
    endif()
    # A separate stamp: a failing check leaves no stamp, so it fails again on
    # the next build instead of being forgotten.
    set(stamp "${out}/${ARG_NAME}.fits")
    add_custom_command(
      OUTPUT "${stamp}"
      COMMAND "${CMAKE_COMMAND}"
              "-DJSON=${json_file}" "-DMODEL_NAME=${ARG_NAME}" "-DMODEL_FILE=${model}"
              "-DRAM_BUDGET=${ARG_RAM_BUDGET}" "-DFLASH_BUDGET=${ARG_FLASH_BUDGET}"
              "-DINCLUDE_IO=${ARG_RAM_BUDGET_INCLUDES_IO}"
              "-DBUDGET_NAME=${ARG_BUDGET_NAME}" "-DSTAMP=${stamp}"
              -P "${check_script}"
      DEPENDS "${json_file}" "${check_script}"
      COMMENT "tinyaot: checking that ${ARG_NAME} fits ${ARG_BUDGET_NAME}"
      VERBATIM)
    # Listing the stamp as a source makes the target depend on it (nothing compiles it).
    target_sources(${target} PRIVATE "${stamp}")
  endif()
endfunction()

# The group's arena: one custom command writing it from every member's plan; each
# new member adds its plan to the command's inputs.
function(_tinyaot_arena_group target group json_file section)
  get_property(python GLOBAL PROPERTY TINYAOT_PYTHON)
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/tinyaot/${group}_arena")
  set(arena_c "${dir}/tinyaot_${group}_arena.c")
  get_property(plans GLOBAL PROPERTY TINYAOT_ARENA_GROUP_${group})
  set_property(GLOBAL APPEND PROPERTY TINYAOT_ARENA_GROUP_${group} "${json_file}")
  if(plans)
    # The command reads plans.txt; a later member adds its plan there and to the inputs.
    add_custom_command(OUTPUT "${arena_c}" APPEND DEPENDS "${json_file}")
    file(APPEND "${dir}/plans.txt" "${json_file}\n")
  else()
    set(section_args "")
    if(NOT "${section}" STREQUAL "")  # the first member's ARENA_SECTION (e.g. Zephyr's no-init default)
      set(section_args --arena-section "${section}")
    endif()
    file(MAKE_DIRECTORY "${dir}")
    file(WRITE "${dir}/plans.txt" "${json_file}\n")
    add_custom_command(
      OUTPUT "${arena_c}" "${dir}/tinyaot_${group}_arena.h"
      COMMAND "${CMAKE_COMMAND}" -E env "PYTHONPATH=${TINYAOT_PYTHONPATH}"
              "${python}" -m tinyaot arena-group --group "${group}" --out "${dir}" --plans-file "${dir}/plans.txt"
              ${section_args}
      COMMAND "${CMAKE_COMMAND}" -E touch "${arena_c}" "${dir}/tinyaot_${group}_arena.h"
      DEPENDS "${json_file}"
      COMMENT "tinyaot: arena of group ${group}"
      VERBATIM)
  endif()
  get_target_property(sources ${target} SOURCES)
  if(NOT "${arena_c}" IN_LIST sources)
    target_sources(${target} PRIVATE "${arena_c}")
    target_include_directories(${target} PRIVATE "${dir}")
    set_property(TARGET ${target} PROPERTY TINYAOT_ARENA_GROUP_JSON "${dir}/tinyaot_${group}_arena.json")
  endif()
endfunction()

# The -mcpu= the target is built for, with its +feature modifiers (or Zephyr's GCC_M_CPU), or "".
# A Helium core built soft-float (-mfloat-abi=soft, or Zephyr without CONFIG_FPU) has no
# MVE, as GCC turns it on only with a floating-point ABI: that is +nomve.
function(_tinyaot_mcpu target out_var)
  get_target_property(options ${target} COMPILE_OPTIONS)
  set(flags "${options} ${CMAKE_C_FLAGS}")
  if(flags MATCHES "-mcpu=([a-z0-9+.-]+)")
    set(mcpu "${CMAKE_MATCH_1}")
    set(soft_float FALSE)
    if(flags MATCHES "-mfloat-abi=soft([ ;]|$)")
      set(soft_float TRUE)
    endif()
  elseif(DEFINED GCC_M_CPU)
    set(mcpu "${GCC_M_CPU}")
    set(soft_float TRUE)
    if(CONFIG_FPU)
      set(soft_float FALSE)
    endif()
  else()
    set(${out_var} "" PARENT_SCOPE)
    return()
  endif()
  if(soft_float AND mcpu MATCHES "^cortex-m(55|85)" AND NOT mcpu MATCHES "\\+no(mve|dsp)([+]|$)")
    string(APPEND mcpu "+nomve")
  endif()
  set(${out_var} "${mcpu}" PARENT_SCOPE)
endfunction()

# The core as the generator's --cpu spells it: the -mcpu name, and +nodsp or +nomve when
# the target is built without those instructions (other modifiers, e.g. +nofp, dropped).
function(_tinyaot_core mcpu out_var)
  string(REGEX REPLACE "\\+.*" "" cpu "${mcpu}")
  if(mcpu MATCHES "\\+nodsp([+]|$)")
    string(APPEND cpu "+nodsp")
  elseif(mcpu MATCHES "\\+nomve([+]|$)")
    string(APPEND cpu "+nomve")
  endif()
  set(${out_var} "${cpu}" PARENT_SCOPE)
endfunction()

# For the portable kernels: the core when their code depends on it (unless CPU was given): with
# the DSP extension (SIMD paths), or Armv6-M (no long multiply: the LSTM keeps its int8 weights);
# else "" (the generator's default, kernels without SIMD instructions).
function(_tinyaot_portable_cpu target out_var)
  if(${out_var})
    return()
  endif()
  _tinyaot_mcpu(${target} mcpu)
  _tinyaot_core("${mcpu}" cpu)
  if(cpu MATCHES "^cortex-m(0|0plus|1|4|7|33|35p|55)$" OR cpu STREQUAL "cortex-m55+nomve")
    set(${out_var} "${cpu}" PARENT_SCOPE)
  endif()
endfunction()

# The core the code is built for, from -mcpu=, unless CPU was given.
function(_tinyaot_target_cpu target out_var)
  if(${out_var})
    return()
  endif()
  _tinyaot_mcpu(${target} mcpu)
  if(NOT mcpu)
    message(FATAL_ERROR "tinyaot_add_model(${target}): KERNELS cmsis-nn needs the core it runs on "
                        "(CMSIS-NN's code path and buffer sizes depend on it): pass CPU cortex-m<N>")
  endif()
  _tinyaot_core("${mcpu}" cpu)  # cortex-m4+nofp -> cortex-m4; cortex-m33+nodsp stays
  set(${out_var} "${cpu}" PARENT_SCOPE)
endfunction()

# Links CMSIS-NN into target: the project's cmsis-nn target, else TINYAOT_CMSIS_NN_DIR's.
function(_tinyaot_link_cmsis_nn target)
  get_property(provided GLOBAL PROPERTY TINYAOT_CMSIS_NN_PROVIDED)
  if(provided)  # e.g. Zephyr's CMSIS-NN module, which adds its library to the app itself
    return()
  endif()
  if(NOT TARGET cmsis-nn)
    if(NOT EXISTS "${TINYAOT_CMSIS_NN_DIR}/Include/arm_nnfunctions.h")
      message(FATAL_ERROR "tinyaot_add_model(${target}): KERNELS cmsis-nn needs CMSIS-NN: set "
                          "TINYAOT_CMSIS_NN_DIR to a CMSIS-NN source tree (v7.0.0, "
                          "github.com/ARM-software/CMSIS-NN); it is '${TINYAOT_CMSIS_NN_DIR}'")
    endif()
    add_subdirectory("${TINYAOT_CMSIS_NN_DIR}" "${CMAKE_BINARY_DIR}/tinyaot-cmsis-nn" EXCLUDE_FROM_ALL)
    # Built for the same core as the target: its machine flags (-mcpu, -mthumb, -mfloat-abi).
    get_target_property(options ${target} COMPILE_OPTIONS)
    list(FILTER options INCLUDE REGEX "^-m")
    target_compile_options(cmsis-nn PRIVATE ${options})
  endif()
  target_link_libraries(${target} PRIVATE cmsis-nn)
endfunction()
