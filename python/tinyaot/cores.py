"""The cores tinyaot compiles for, and the instruction-set level of each.

The level picks CMSIS-NN's code path and the portable kernels' folder
(kernels/<level>/); the backends and the lowering both read it.
"""

# -mcpu name -> ISA level: CMSIS-NN's code path (its ARM_MATH_DSP / ARM_MATH_MVEI follow
# __ARM_FEATURE_DSP / __ARM_FEATURE_MVE) and the portable kernels' level (kernels/<level>/).
CPU_ARCH = {
    "cortex-m0": "scalar", "cortex-m0plus": "scalar", "cortex-m1": "scalar", "cortex-m3": "scalar",
    "cortex-m4": "dsp", "cortex-m7": "dsp", "cortex-m33": "dsp", "cortex-m35p": "dsp",
    "cortex-m55": "mve",
    # An M33 built without its DSP extension, as GCC spells it (Zephyr's mps2/an521/cpu0,
    # the SSE-200's CPU0, has none).
    "cortex-m33+nodsp": "scalar",
    # An M55 built without Helium (+nomve; GCC also drops it when the code is built
    # soft-float, as Zephyr builds mps3/corstone300/an547 without CONFIG_FPU).
    "cortex-m55+nomve": "dsp",
}
# The levels with the DSP extension's instructions: Helium (MVE) cores have them too.
DSP_ARCHS = ("dsp", "mve")
# Armv6-M cores: no 32 x 32 -> 64-bit multiply (SMLAL), tinyaot_common.h's TINYAOT_LONG_MULTIPLY 0.
NO_LONG_MULTIPLY = ("cortex-m0", "cortex-m0plus", "cortex-m1")
