"""scripts/setup.sh on a Python that refuses pip installs (PEP 668, Debian 12's
own python3): it must make the project venv .venv, install into it, and the
scripts and CMake must then use it. Runs on a copy of the checkout, as a fresh
clone would be (about 20 s with a local wheel cache)."""

import os
import shutil
import subprocess

import pytest

from conftest import ROOT

SYSTEM_PYTHON = "/usr/bin/python3"
IS_EXTERNALLY_MANAGED = """import os, sys, sysconfig
sys.exit(not (sys.prefix == sys.base_prefix and
              os.path.exists(os.path.join(sysconfig.get_path('stdlib'), 'EXTERNALLY-MANAGED'))))"""


def run(cmd, cwd, env):
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)


@pytest.fixture(scope="module")
def system_python():
    if not os.path.exists(SYSTEM_PYTHON) or \
            subprocess.run([SYSTEM_PYTHON, "-c", IS_EXTERNALLY_MANAGED]).returncode != 0:
        pytest.skip(f"{SYSTEM_PYTHON} is absent or not externally managed (Debian 12's is)")
    if subprocess.run([SYSTEM_PYTHON, "-c", "import ensurepip"], capture_output=True).returncode:
        pytest.skip("python3-venv is not installed (setup.sh would apt-get install it)")
    return SYSTEM_PYTHON


def fresh_copy(dest):
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.split("\n")
    for name in filter(None, files):
        if (ROOT / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, dest / name)
    return dest


def test_setup_makes_and_uses_a_venv_on_an_externally_managed_python(system_python, tmp_path):
    repo = fresh_copy(tmp_path / "tinyaot")
    # Nothing but the system's programs: no other Python on PATH.
    env = {"HOME": os.environ.get("HOME", "/root"), "PYTHON": system_python,
           "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"}
    proc = run(["bash", "scripts/setup.sh"], repo, env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (f"setup: {system_python} is externally managed (PEP 668): creating the project's "
            "virtual environment .venv") in proc.stdout
    assert "externally-managed-environment" not in proc.stdout + proc.stderr
    venv_python = repo / ".venv" / "bin" / "python"
    where = run([venv_python, "-c", "import numpy, tflite, jinja2, tflite_micro, tinyaot; "
                 "print(tinyaot.__file__)"], repo, env)
    assert where.stdout.strip() == str(repo / "python" / "tinyaot" / "__init__.py"), where.stderr

    again = run(["bash", "scripts/setup.sh"], repo, env)
    assert again.returncode == 0 and again.stdout == "", again.stdout + again.stderr

    # The scripts run the venv's Python ...
    chosen = run(["bash", "-c", '. scripts/python-env.sh && echo "$PYTHON" && command -v python3'],
                 repo, env)
    assert chosen.stdout.split() == [str(venv_python), str(repo / ".venv" / "bin" / "python3")]
    # ... and so does CMake's tinyaot_add_model, even when called with the system one first on PATH.
    build = tmp_path / "build"
    configure = run(["cmake", "-G", "Ninja", "-S", str(repo / "tests/target/cmake_project"),
                     "-B", str(build), f"-DTINYAOT_REPO={repo}",
                     f"-DMODEL_A={repo / 'samples/hello_world/hello_world.tflite'}",
                     f"-DMODEL_B={repo / 'samples/hello_world/hello_world.tflite'}",
                     "-DMODEL_B_RAM_BUDGET=100000"], repo, env)
    assert configure.returncode == 0, configure.stdout + configure.stderr
    assert f"{venv_python} -m tinyaot compile" in (build / "build.ninja").read_text()
