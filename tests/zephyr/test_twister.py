"""Twister on the samples with the README's own command, on its three QEMU boards.

    ZEPHYR_BASE=<ws>/zephyr pytest tests/zephyr/test_twister.py

Every configuration of samples/*/sample.yaml must pass, or be built only where
its sample.yaml says so. The CMSIS-NN variant runs when a CMSIS-NN v7 tree is
at hand (TINYAOT_CMSIS_NN_DIR, else ../shared/third_party/CMSIS-NN) and must be
filtered out, not fail, without one (checked by hand on 4.0: "1 configurations
filtered (0 by static filter, 1 at runtime)"). On the Cortex-M33 board only the
serial_inference pytest variants run (sample.yaml), and the generated models say the
core Zephyr builds for: -mcpu=cortex-m33+nodsp (the SSE-200's CPU0 has no DSP extension).
The same on the Cortex-M55 board, whose models are generated for cortex-m55 (Helium), its
CMSIS-NN variant only with TINYAOT_ZEPHYR_ALL=1 (CI's time budget: a Twister quarantine
entry filters it out otherwise).
"""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from zephyr_env import ALL_ENV, REPO, lane_skip_reason

if lane_skip_reason():
    pytest.skip(lane_skip_reason(), allow_module_level=True)

from tinyaot.harness.build import cmsis_nn_dir  # noqa: E402
import yaml  # noqa: E402  (a lane package: checked above)

# Scenario -> Twister's status on each board, from the samples' sample.yaml.
EXPECTED = {
    "sample.tinyaot.hello_world": "passed",
    "sample.tinyaot.shared_arena": "passed",
    "sample.tinyaot.weights_blob": "passed",
    "sample.tinyaot.serial_inference": "not run",  # build_only
    "sample.tinyaot.serial_inference.pytest": "passed",
    "sample.tinyaot.serial_inference.selftest": "passed",
}
CMSIS_NN_SCENARIO = "sample.tinyaot.serial_inference.cmsis_nn"
# The Cortex-M33 board, named so from Zephyr 3.7 on (hardware model v2); older trees call
# it mps2_an521, which the samples do not list. Scenario -> the --cpu its model is generated
# for there (tinyaot JSON; None: the portable kernels' plain C, no SIMD without DSP); the
# other scenarios are not allowed there.
M33 = "mps2/an521/cpu0"
M33_CPUS = {"sample.tinyaot.serial_inference.pytest": None, CMSIS_NN_SCENARIO: "cortex-m33+nodsp"}
# The Cortex-M55 board (Zephyr >= 3.7's name; mps3_an547 before, not listed either), built
# with its FPU (the sample's boards/mps3_corstone300_an547.conf), so with Helium: both
# backends' models are generated for cortex-m55. Its CMSIS-NN build (the whole library,
# 97 s of CPU) runs only with TINYAOT_ZEPHYR_ALL=1.
M55 = "mps3/corstone300/an547"
M55_CPUS = {"sample.tinyaot.serial_inference.pytest": "cortex-m55", CMSIS_NN_SCENARIO: "cortex-m55"}
M55_OPT_IN = (CMSIS_NN_SCENARIO,)
# The boards the samples list only from Zephyr 3.7 on, with the scenarios they run.
HWMV2_BOARDS = {M33: M33_CPUS, M55: M55_CPUS}


def readme_twister_command():
    """The README's Twister line (section Samples), as the words a shell would pass."""
    readme = (REPO / "README.md").read_text()
    m = re.search(r"^\$ZEPHYR_BASE/scripts/twister -T tinyaot/samples(?: -p \S+)+$", readme, re.M)
    assert m, "README has no `$ZEPHYR_BASE/scripts/twister -T tinyaot/samples -p ...` line"
    return m.group(0).split()


def twister_env(zephyr, cmsis_nn):
    env = dict(zephyr.env)
    # Twister's builds and its pytest harness take python3 and pytest from PATH:
    # the interpreter running this lane, whose packages were checked.
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    if not zephyr.in_workspace:
        env["ZEPHYR_EXTRA_MODULES"] = str(REPO)
    env.pop("TINYAOT_CMSIS_NN_DIR", None)
    if cmsis_nn:
        env["TINYAOT_CMSIS_NN_DIR"] = str(cmsis_nn)
    return env


def model_cpus(out, board):
    """The --cpu of each model the board's builds generated (their tinyaot JSON), by scenario."""
    found = {}
    for report in (out / board.replace("/", "_")).rglob("*.json"):
        scenario = next((p for p in report.relative_to(out).parts if p.startswith("sample.")), None)
        data = json.loads(report.read_text())
        if scenario and isinstance(data, dict) and "generator_version" in data:
            found[scenario] = data["cpu"]
    return found


def opt_in_quarantine(out):
    """Without TINYAOT_ZEPHYR_ALL=1, a Twister quarantine list that filters out the M55's
    opt-in scenarios (Twister's one way to leave out a scenario on one board); else None."""
    if os.environ.get(ALL_ENV) == "1":
        return None
    path = out.parent / "twister-opt-in.yaml"
    # Patterns Twister full-matches (its scenario ids may start with the sample's folder).
    path.write_text(yaml.safe_dump([{"scenarios": [rf"(.*/)?{re.escape(s)}" for s in M55_OPT_IN],
                                     "platforms": [re.escape(M55)],
                                     "comment": f"CI time; {ALL_ENV}=1 runs it"}]))
    return path


def test_readme_twister_command_passes_on_every_board(zephyr):
    words = readme_twister_command()
    if tuple(int(v) for v in zephyr.version.split(".")[:2]) < (3, 7):
        for board in HWMV2_BOARDS:
            words = " ".join(words).replace(f" -p {board}", "").split()
    boards = words[words.index("-p") + 1::2]
    # The README's words, with the workspace's paths; this lane's output folder and jobs.
    args = [sys.executable, str(zephyr.base / "scripts" / "twister"),
            *(str(REPO / "samples") if w == "tinyaot/samples" else w for w in words[1:])]
    out = zephyr.build_root / "twister"
    shutil.rmtree(out, ignore_errors=True)  # else Twister keeps it as twister.1 and so on
    out.parent.mkdir(parents=True, exist_ok=True)
    args += ["-O", str(out), "-j", "2", "--inline-logs"]
    quarantine = opt_in_quarantine(out) if M55 in boards else None
    if quarantine:
        args += ["--quarantine-list", str(quarantine)]
    # The snapshot workspaces DEVELOPERS.md assembles for 3.5 have no zephyr/tests/; their
    # make-workspace.sh writes Twister's test config beside the tree instead.
    if not (zephyr.base / "tests" / "test_config.yaml").exists() and \
            (zephyr.base.parent / "test_config.yaml").exists():
        args += ["--test-config", str(zephyr.base.parent / "test_config.yaml")]
    cmsis_nn = cmsis_nn_dir()
    env = twister_env(zephyr, cmsis_nn)
    pytest_cmd = shutil.which("pytest", path=env["PATH"])
    if not pytest_cmd or Path(pytest_cmd).parent != Path(sys.executable).parent:
        pytest.fail(f"Twister's pytest harness runs `pytest` from PATH, here {pytest_cmd}, not "
                    f"{sys.executable}'s: {sys.executable} -m pip install --ignore-installed pytest")
    proc = subprocess.run(args, env=env, capture_output=True, text=True, cwd=zephyr.build_root,
                          timeout=3600)
    log = proc.stdout + proc.stderr
    # 4.x: "12 of 14 executed test configurations passed"; 3.5: "14 of 14 test configurations passed".
    summary = re.search(r"^INFO\s+- (\d+) of (\d+) (?:executed )?test configurations passed.*$", log, re.M)
    assert proc.returncode == 0 and summary, "Twister failed:\n" + "\n".join(log.splitlines()[-60:])

    report = json.loads((out / "twister.json").read_text())
    # Zephyr 4 names board targets in full (qemu_cortex_m3/ti_lm3s6965): by the -p they match.
    got = {(next(b for b in boards if s["platform"] == b or s["platform"].startswith(b + "/")),
            s["name"].rsplit("/", 1)[-1]): s["status"] for s in report["testsuites"]}
    # Filtered configurations are left out of twister.json: None.
    expected = {**EXPECTED, CMSIS_NN_SCENARIO: "passed" if cmsis_nn else None}
    if int(zephyr.version.split(".")[0]) < 4:  # Twister 3.5 reports a build-only configuration as passed
        expected = {k: "passed" if v == "not run" else v for k, v in expected.items()}
    # Not run: the scenarios a board's list leaves out, and the quarantined ones.
    left_out = {(b, name) for b, cpus in HWMV2_BOARDS.items() for name in expected if name not in cpus}
    left_out |= {(M55, name) for name in M55_OPT_IN} if quarantine else set()
    want = {(b, name): None if (b, name) in left_out else status
            for b in boards for name, status in expected.items()}
    assert {k: got.get(k) for k in want} == want, summary.group(0)
    for board, cpus in HWMV2_BOARDS.items():  # the core as Zephyr builds it (M33: no DSP; M55: MVE)
        if board in boards:
            assert model_cpus(out, board) == {k: cpu for k, cpu in cpus.items() if want[board, k]}
    print(f"\n{summary.group(0).split('- ', 1)[1]} (CMSIS-NN: {cmsis_nn or 'none, filtered'})")
