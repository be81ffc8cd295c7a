"""Kernel backends: which library implements each lowered operator.

`portable` is tinyaot's own C99 kernels (ops/). Another backend looks at each
operator after the portable lowering has validated it, and either replaces the
calls with its own or keeps the portable ones, saying why.
"""

KERNEL_BACKENDS = ("portable", "cmsis-nn")

# The portable kernels' code: speed, with their specialised paths (pixel pairs, loops
# instantiated for the model's shapes); size, one pixel at a time: the same arithmetic in less flash.
OPTIMIZE = ("speed", "size")
