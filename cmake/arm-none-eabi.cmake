# Toolchain file for bare-metal Arm Cortex-M with the GNU Arm toolchain
# (arm-none-eabi-gcc from PATH, or from TINYAOT_ARM_TOOLCHAIN_PREFIX).
# CPU flags are board specific and come from boards/baremetal/<board>/board.cmake.

set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)

set(TINYAOT_ARM_TOOLCHAIN_PREFIX "arm-none-eabi-" CACHE STRING
    "Prefix (optionally with a path) of the GNU Arm toolchain executables")
set(CMAKE_C_COMPILER "${TINYAOT_ARM_TOOLCHAIN_PREFIX}gcc")
set(CMAKE_CXX_COMPILER "${TINYAOT_ARM_TOOLCHAIN_PREFIX}g++")
set(CMAKE_ASM_COMPILER "${TINYAOT_ARM_TOOLCHAIN_PREFIX}gcc")
set(CMAKE_OBJCOPY "${TINYAOT_ARM_TOOLCHAIN_PREFIX}objcopy" CACHE FILEPATH "objcopy")
set(CMAKE_SIZE "${TINYAOT_ARM_TOOLCHAIN_PREFIX}size" CACHE FILEPATH "size")

# No OS to run a test executable on: let CMake's compiler checks build a library.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
