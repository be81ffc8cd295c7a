"""One firmware, many weights blobs: a serial runner built once with --weights blob and no
blob linked in (weights "upload") takes blobs over the serial line into RAM and binds them.

Two blobs of one architecture (a model and a copy with other weights and biases) run
bit-exact with TFLM's result for each model, for a catalog model on both boards and for
micro_speech on the M3 (its 16.8 KB blob does not fit the M0's RAM, which the host is told);
every bad blob is refused with its own error code, on each board.
"""

from pathlib import Path

import numpy as np
import pytest

from conftest import SHARED_NAMES, shared_model
from test_models_on_target import check_against_tflm
from tinyaot.harness import DeviceError
from tinyaot.testing.cli import run_tinyaot
from tinyaot.testing.reweight import reweighted

NAME = "mini_mobilenet"  # conv, depthwise, pooling, FC, softmax: a 1.8 KB blob fits the M0's RAM
SEED = 4321
OK, NULL, NOT_BOUND, TRUNCATED, MAGIC, VERSION, ARCH, CRC, ALIGNMENT = 0, -1, -2, -3, -4, -5, -6, -7, -8
HEADER_SIZE = 32


def tinyaot_cli(*args):
    result = run_tinyaot(*args)
    assert result.returncode == 0, result.stderr
    return result.stdout


def blob_for(model, name, fw, tmp_path):
    """`tinyaot weights MODEL --for <the firmware's generated code>`: what a user runs for a new blob."""
    out = tmp_path / f"{fw.board}-{model.stem}.bin"
    tinyaot_cli("weights", model, "--name", name, "-o", out, "--for", Path(fw.config["model_json"]).parent)
    return out.read_bytes()


def with_other_weights(model, tmp_path):
    """The same model with other weights and biases, built by the project's code."""
    other = tmp_path / f"{model.stem}_b.tflite"
    other.write_bytes(reweighted(model.read_bytes(), seed=99))
    return other


@pytest.fixture(scope="module")
def models(tmp_path_factory, own_models_dir):
    """(model A, model B): B is A with other weights and biases."""
    a = own_models_dir / f"{NAME}.tflite"
    return a, with_other_weights(a, tmp_path_factory.mktemp("upload"))


def run_status(dev):
    return dev.run().status


@pytest.mark.parametrize("name", [NAME, "tflm_micro_speech_quantized"])
def test_one_firmware_runs_two_blobs_bit_exact(target, boards, name, own_models_dir, tmp_path):
    model_a = shared_model(name) if name in SHARED_NAMES else own_models_dir / f"{name}.tflite"
    model_b = with_other_weights(model_a, tmp_path)
    for board in boards:
        fw = target.firmware(board, name=name, model=model_a, weights="upload")
        blob_a = Path(fw.config["weights_blob"]).read_bytes()
        blob_b = blob_for(model_b, name, fw, tmp_path)
        assert blob_a[8:16] == blob_b[8:16] and blob_a[HEADER_SIZE:] != blob_b[HEADER_SIZE:]
        assert blob_a == blob_for(model_a, name, fw, tmp_path)
        with target.open(fw) as dev:
            assert run_status(dev) == NOT_BOUND  # nothing bound at start
            capacity = dev.blob_capacity()
            if capacity < len(blob_a):  # micro_speech's 16.8 KB blob on the 16 KB M0: said, not crashed
                with pytest.raises(DeviceError, match=f"a blob of {len(blob_a)} bytes at offset 0 does not fit"
                                                      f" the {capacity} bytes of RAM the runner has for it"):
                    dev.load_blob(blob_a)
                assert board == "qemu_cortex_m0" and name != NAME
                continue
            outputs = []
            for model, blob in [(model_a, blob_a), (model_b, blob_b), (model_a, blob_a)]:
                assert dev.load_blob(blob) == OK
                check_against_tflm(dev, model, 3, SEED, reset_between=True)
                outputs.append(dev.get_output(0))  # of the same last input each time
            assert (outputs[0] != outputs[1]).any() and (outputs[0] == outputs[2]).all()


def test_bad_blobs_are_refused_with_their_codes(target, boards, models, own_models_dir, tmp_path):
    """Each defect alone gets its own code; a refused blob leaves the model unbound and run() writes nothing."""
    model_a, _ = models
    other_arch = own_models_dir / "fc_relu_per_tensor.tflite"
    for board in boards:
        fw = target.firmware(board, name=NAME, model=model_a, weights="upload")
        good = Path(fw.config["weights_blob"]).read_bytes()
        other_out = tmp_path / f"{board}-other.bin"
        tinyaot_cli("weights", other_arch, "--name", "fc", "-o", other_out)

        def patched(offset, value):
            data = bytearray(good)
            data[offset] ^= value
            return bytes(data)
        with target.open(fw) as dev:
            info = dev.info()
            assert run_status(dev) == NOT_BOUND
            assert dev.bind_blob(len(good), null=True) == NULL
            dev.write_blob(good, offset=1)
            assert dev.bind_blob(len(good), offset=1) == ALIGNMENT
            dev.write_blob(good)
            assert dev.bind_blob(HEADER_SIZE - 1) == TRUNCATED
            assert dev.bind_blob(len(good) - 1) == TRUNCATED
            assert dev.load_blob(patched(0, 1)) == MAGIC
            assert dev.load_blob(patched(4, 2)) == VERSION
            assert dev.load_blob(other_out.read_bytes()) == ARCH
            assert dev.load_blob(patched(HEADER_SIZE + 5, 0x10)) == CRC
            assert dev.load_blob(patched(20, 1)) == CRC  # the CRC field itself
            # A refused blob unbinds: run() refuses and leaves the outputs of the last good run.
            x = info.inputs[0]
            assert dev.load_blob(good) == OK
            dev.set_input(0, np.full(x.shape, 3, x.dtype))
            assert run_status(dev) == OK
            before = dev.get_output(0)
            assert dev.load_blob(patched(HEADER_SIZE + 5, 0x10)) == CRC
            dev.set_input(0, np.full(x.shape, -90, x.dtype))
            assert run_status(dev) == NOT_BOUND
            assert (dev.get_output(0) == before).all()
            assert dev.load_blob(good) == OK and run_status(dev) == OK
            assert (dev.get_output(0) != before).any()  # that input does change the output
