"""--weights blob: weights apart from code, bound at run time, bit-exact with TFLM;
another blob of the same architecture through the same compiled code; bad blobs refused."""

import json
import os
import re
import shutil
import subprocess
import sys

import numpy as np
import pytest

from conftest import ROOT, SHARED_MODEL_NAMES, shared_model
from host.test_codegen import COMPILERS
from sanitized import sanitizer_env
from host.test_models_host import STATEFUL
from tinyaot.codegen.blob import HEADER_SIZE
from tinyaot.codegen.emit import emit
from tinyaot.compiler import Options, compile_model
from tinyaot.host.model import HostModel
from tinyaot.host.oracle import compare_with_tflm
from tinyaot.testing import catalog
from tinyaot.testing.cli import run_tinyaot
from tinyaot.testing.reweight import requantized, reweighted

# Set in the child that test_blob_lane_runs_clean_under_sanitizers starts with libasan preloaded.
SANITIZE = os.environ.get("TINYAOT_TEST_SANITIZE") == "1"
only_sanitized = pytest.mark.skipif(not SANITIZE, reason="runs under ASan/UBSan in "
                                    "test_blob_lane_runs_clean_under_sanitizers (one child for the whole lane)")
OK, NULL, NOT_BOUND, TRUNCATED, MAGIC, VERSION, ARCH, CRC, ALIGNMENT = 0, -1, -2, -3, -4, -5, -6, -7, -8


def compile_blob(path, name, out_dir):
    emit(compile_model(path, Options(name, weights="blob")), out_dir)
    return out_dir / f"{name}.weights.bin"


def assert_matches_tflm(host, path, calls=5):
    def run(inputs):
        for i, x in enumerate(inputs):
            host.set_input(i, x)
        host.run()
        return [host.get_output(i) for i in range(len(host.outputs))]
    host.reset()
    stateful = host._desc.state_size > 0 or path.stem in STATEFUL
    mismatches = compare_with_tflm(path, run, host.inputs, calls=calls, reset_between=not stateful)
    assert not mismatches, f"{len(mismatches)} outputs differ from TFLM"



# The float32 and 16x8 forms put the same kinds of tables in the blob; one of each, the
# 16x8 one with int64 biases (which the blob aligns to 4 bytes only), stand for them.
# The target lane runs every model's blob on the M3 (bit-exact); here, under the sanitizers,
# a sample reaches every kind of table (convolution and depthwise layouts, band fusions,
# fully connected, SVDF and LSTM state, gathers, resize tables, quantize thresholds, bool
# and resource variables, int64 tables read by 8-byte copies), every model with TINYAOT_BLOB_ALL_MODELS=1.
BLOB_SAMPLE = ["ds_cnn_kws", "mini_mobilenet", "conv_pixel_pairs", "depthwise_multipliers", "fusion_conv_1x1_stride2",
               "residual_u_first_remainder", "fc_batched_per_channel_relu6", "svdf_rank2_batch2", "lstm_seq28",
               "gathers", "resize_bilinear", "dnn_kws_float_io", "compare_logic", "resource_variables", "int64_moves"]
BLOB_MODELS = catalog.names(forms=False) if os.environ.get("TINYAOT_BLOB_ALL_MODELS") == "1" else BLOB_SAMPLE


@only_sanitized
@pytest.mark.parametrize("name", BLOB_MODELS + ["mini_mobilenet_float32", "resnet8_16x8"])
def test_own_model_with_bound_blob_matches_tflm(name, own_model, tmp_path):
    compile_blob(own_model(name), name, tmp_path)
    c_text = (tmp_path / f"{name}.c").read_text()
    # No weight data in the C: no constant arrays at all but the 8-byte architecture id.
    assert re.findall(r"static const \w+ (\w+)\[", c_text) == [f"tinyaot_{name}_arch_id"]
    with HostModel(tmp_path, name, sanitize=SANITIZE) as host:
        assert_matches_tflm(host, own_model(name), calls=3)


@only_sanitized
@pytest.mark.parametrize("name", SHARED_MODEL_NAMES)
def test_published_model_with_bound_blob_matches_tflm(name, tmp_path):
    path = shared_model(name)
    blob = compile_blob(path, name, tmp_path)
    linked_dir = tmp_path / "linked"
    emit(compile_model(path, Options(name)), linked_dir)
    plan = json.loads((linked_dir / f"{name}.json").read_text())
    # The blob holds the weights and the tables, each once, plus the header and alignment padding.
    assert HEADER_SIZE + plan["weight_bytes"] + plan["table_bytes"] <= blob.stat().st_size
    assert blob.stat().st_size < HEADER_SIZE + plan["weight_bytes"] + plan["table_bytes"] + 4 * 64 + 4 * len(
        plan["tables"]) + 4 * len(plan["weights"])
    with HostModel(tmp_path, name, sanitize=SANITIZE) as host:
        assert_matches_tflm(host, path, calls=3)


@pytest.mark.parametrize("name", ["fc_batched_per_channel_relu6", "mini_mobilenet", "ds_cnn_kws"])
def test_second_blob_of_same_architecture_runs_through_same_code(name, own_model, tmp_path):
    first = own_model(name)
    second = tmp_path / f"{name}_b.tflite"
    second.write_bytes(reweighted(first.read_bytes(), seed=99))
    code = tmp_path / "code"
    blob_a = compile_blob(first, name, code)
    result = run_tinyaot("weights", second, "--name", name, "-o", tmp_path / "b.bin", "--for", code)
    assert result.returncode == 0, result.stderr
    blob_b = (tmp_path / "b.bin").read_bytes()
    assert blob_b[8:16] == blob_a.read_bytes()[8:16] and blob_b != blob_a.read_bytes()
    with HostModel(code, name, sanitize=SANITIZE) as host:
        assert host.bind_weights(blob_b) == OK
        assert_matches_tflm(host, second)
        assert host.bind_weights(blob_a.read_bytes()) == OK
        assert_matches_tflm(host, first)


def test_weights_accepts_new_scales_the_code_does_not_hold(own_model, tmp_path):
    """Per-tensor weight scales only change multipliers, which live in the blob."""
    first = own_model("fc_relu_per_tensor")
    compile_blob(first, "fc", tmp_path / "code")
    other = tmp_path / "other.tflite"
    other.write_bytes(requantized(reweighted(first.read_bytes(), seed=5), "w4", scale_factor=1.7))
    result = run_tinyaot("weights", other, "--name", "fc", "-o", tmp_path / "b.bin", "--for", tmp_path / "code")
    assert result.returncode == 0, result.stderr
    with HostModel(tmp_path / "code", "fc", sanitize=SANITIZE) as host:
        assert host.bind_weights((tmp_path / "b.bin").read_bytes()) == OK
        assert_matches_tflm(host, other)


@pytest.mark.parametrize("tensor,change,expected", [
    ("fc3", {"zero_point_shift": 3}, "operator 0 (FULLY_CONNECTED): tensor 'fc3' quantization changes "
                                     "act_min -128 -> -125, output_offset -128 -> -125; operator 1 (FULLY_CONNECTED): tensor 'fc3' "
                                     "quantization changes input_offset 128 -> 125"),
    ("fc6", {"scale_factor": 2.0}, "output 'fc6' quantization (the descriptor holds it)"),
])
def test_weights_names_operator_and_tensor_the_code_is_specialised_on(own_model, tmp_path, tensor, change,
                                                                      expected):
    first = own_model("fc_relu_per_tensor")
    compile_blob(first, "fc", tmp_path / "code")
    other = tmp_path / "other.tflite"
    other.write_bytes(requantized(first.read_bytes(), tensor, **change))
    result = run_tinyaot("weights", other, "--name", "fc", "-o", tmp_path / "b.bin", "--for", tmp_path / "code")
    assert result.returncode == 1 and not (tmp_path / "b.bin").exists()
    line = result.stderr.strip()
    assert line == (f"tinyaot: error: {other}: architecture differs from {tmp_path / 'code' / 'fc.json'} "
                    f"(the code is specialised on it): {expected}")


def test_bad_blobs_get_their_own_error_codes(own_model, tmp_path):
    path = own_model("fc_relu_per_tensor")
    good = compile_blob(path, "fc", tmp_path).read_bytes()
    other_arch = tmp_path / "other"
    other = compile_blob(own_model("fc_no_bias_relu_n1_to_1"), "fc", other_arch).read_bytes()
    with HostModel(tmp_path, "fc", sanitize=SANITIZE) as host:
        def patched(offset, value):
            data = bytearray(good)
            data[offset] ^= value
            return bytes(data)
        assert host.bind_weights(None) == NULL
        assert host.bind_weights(good, offset=2) == ALIGNMENT
        assert host.bind_weights(good[:HEADER_SIZE - 1]) == TRUNCATED
        assert host.bind_weights(good[:-1]) == TRUNCATED
        assert host.bind_weights(patched(0, 1)) == MAGIC
        assert host.bind_weights(patched(4, 2)) == VERSION
        assert host.bind_weights(other) == ARCH
        assert host.bind_weights(patched(HEADER_SIZE + 5, 0x10)) == CRC
        assert host.bind_weights(patched(20, 1)) == CRC
        # A refused blob leaves the model unbound: run() refuses and writes nothing.
        host._out[0][...] = 77
        assert host._desc.run(host._in_ptrs, host._out_ptrs) == NOT_BOUND
        assert np.all(host.get_output(0) == 77)
        assert host.bind_weights(good + b"\0" * 8) == OK  # a larger flash partition is fine
        assert_matches_tflm(host, path, calls=2)


def test_linked_output_unchanged_and_blob_deterministic(own_model, tmp_path):
    path = own_model("mini_mobilenet")
    emit(compile_model(path, Options("m")), tmp_path / "linked")
    assert not (tmp_path / "linked" / "m.weights.bin").exists()
    assert "bind_weights" not in (tmp_path / "linked" / "m.c").read_text()
    a = compile_blob(path, "m", tmp_path / "a").read_bytes()
    b = compile_blob(path, "m", tmp_path / "b").read_bytes()
    assert a == b and (tmp_path / "a" / "m.c").read_text() == (tmp_path / "b" / "m.c").read_text()


def test_blob_lane_runs_clean_under_sanitizers(tmp_path):
    env = dict(sanitizer_env(), TINYAOT_TEST_SANITIZE="1")
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", __file__,
                             "-k", "bound_blob or bad_blobs or second_blob", "--basetemp", str(tmp_path / "t")],
                            capture_output=True, text=True, env=env, cwd=ROOT)
    assert result.returncode == 0 and " passed" in result.stdout, result.stdout[-4000:] + result.stderr[-4000:]


@pytest.mark.parametrize("compiler,flags", COMPILERS)
def test_blob_code_compiles_without_warnings(own_model, tmp_path, compiler, flags):
    from tinyaot.host.model import WARNING_FLAGS
    if not shutil.which(compiler):
        pytest.skip(f"{compiler} is not installed (scripts/setup.sh installs it)")
    for name in ["fc_relu_per_tensor", "mini_mobilenet", "svdf_rank2_batch2", "gathers", "resize_bilinear"]:
        compile_blob(own_model(name), name, tmp_path / name)
        result = subprocess.run([compiler, *WARNING_FLAGS, "-pedantic", *flags, "-c", "-I", str(tmp_path / name),
                                 str(tmp_path / name / f"{name}.c"), "-o", str(tmp_path / f"{name}.o")],
                                capture_output=True, text=True)
        assert result.returncode == 0, f"{name}:\n{result.stderr}"


@pytest.mark.parametrize("name", ["mini_mobilenet", "ds_cnn_kws"])
def test_cmsis_nn_tables_live_in_the_blob(name, own_model, tmp_path, cmsis_nn):
    emit(compile_model(own_model(name), Options(name, kernels="cmsis-nn", weights="blob")), tmp_path)
    c_text = (tmp_path / f"{name}.c").read_text()
    assert "arm_" in c_text and re.findall(r"static const \w+ (\w+)\[", c_text) == [f"tinyaot_{name}_arch_id"]
    with HostModel(tmp_path, name) as host:
        assert_matches_tflm(host, own_model(name), calls=3)
