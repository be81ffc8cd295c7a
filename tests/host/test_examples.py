"""examples/: the ten-line person_detect classifier, built as the README says."""

import subprocess
import sys

import numpy as np

from conftest import ROOT, shared_model
from tinyaot.host.oracle import tflm_interpreter


def test_classify_image_example_agrees_with_tflm(tmp_path):
    model = shared_model("tflm_person_detect_int8")
    out = tmp_path / "pd"
    subprocess.run([sys.executable, "-m", "tinyaot", "compile", str(model), "--name", "person_detect", "--out", str(out)],
                   check=True, env={"PYTHONPATH": str(ROOT / "python"), "PATH": "/usr/bin:/bin"})
    exe = tmp_path / "classify"
    subprocess.run(["cc", "-std=c99", "-O2", "-Wall", "-Wextra", "-Werror", "-I", str(out),
                    str(ROOT / "examples/classify_image/main.c"), str(out / "person_detect.c"), "-o", str(exe)],
                   check=True)
    interp = tflm_interpreter(model)
    rng = np.random.default_rng(5)
    # A bright disc on a dark background, and plain noise: two different images.
    yy, xx = np.mgrid[:96, :96]
    disc = np.where((yy - 40) ** 2 + (xx - 48) ** 2 < 30 ** 2, 100, -100).astype(np.int8)
    noise = rng.integers(-128, 128, size=(96, 96)).astype(np.int8)
    for image in (disc, noise):
        (tmp_path / "image.raw").write_bytes(image.tobytes())
        result = subprocess.run([str(exe), str(tmp_path / "image.raw")], capture_output=True, text=True)
        assert result.returncode == 0
        interp.set_input(image.reshape(1, 96, 96, 1), 0)
        interp.invoke()
        no_person, person = (int(v) for v in interp.get_output(0).reshape(-1))
        label = "person" if person > no_person else "no person"
        assert result.stdout.strip() == f"{label} (person {person}, no person {no_person})"
