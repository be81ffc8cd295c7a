"""float32 test models of the operators whose float32 kernels came after the first
float32 set (models_float.py): SVDF, ... TFLM's float reference kernels are the
oracle: results must be identical. Most are float32 forms of the int8 models
(tinyaot.testing.variants), so they cover the same parameter space."""

import numpy as np

from tinyaot.modelbuilder import ModelBuilder
from tinyaot.testing import models_svdf
from tinyaot.testing.catalog import CATALOG, test_model
from tinyaot.testing.variants import variant_of

NONE, RELU, RELU_N1_TO_1, RELU6 = 0, 1, 2, 3


def svdf_activations():
    """Three SVDF layers on one input: RELU_N1_TO_1 and RELU6 (which TFLM's float
    SVDF applies, unlike its integer one), and a memory of 1. Built in int8 and
    registered in float32 form only. (No bias: tests/host/test_errors_svdf.py,
    since TFLM crashes on it.)"""
    rng = np.random.default_rng(45)
    mb = ModelBuilder()
    in_scale = np.float32(0.05)
    x = mb.input("x", "int8", [2, 10], scale=in_scale, zero_point=0)
    for act, rank, memory in ((RELU_N1_TO_1, 1, 3), (RELU6, 3, 2), (NONE, 2, 1)):
        y, _ = models_svdf.svdf(mb, rng, x, in_scale, 2, 10, 4, rank, memory, out_zp=0, act=act)
        mb.output(y)
    return mb.build()


# The SVDF models are stateful: the host test calls them again and again without a reset.
SVDF_FORMS = ["svdf_rank1_relu", "svdf_rank2_batch2", "svdf_rank2_batch2_relu", "svdf_rank1_batch2_saturating",
              "svdf_keyword_like_stack"]
# On the QEMU boards: one SVDF stack.
ON_TARGET = {"svdf_keyword_like_stack"}
for _name in SVDF_FORMS:
    test_model(f"{_name}_float32", targets=_name in ON_TARGET, form=True)(variant_of(CATALOG[_name][0], "float32"))
test_model("svdf_activations_float32", targets=False, form=True)(
    variant_of(svdf_activations, "float32"))
