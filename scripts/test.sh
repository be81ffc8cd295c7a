#!/usr/bin/env bash
# The whole test suite on a fresh machine: installs what is missing, then runs
# pytest: the host lane (tests/host), the QEMU target lane (tests/target) and the
# Zephyr lane with Twister (tests/zephyr: on ZEPHYR_BASE, else on ../shared's
# Zephyr 4.0 workspace when it is there).
#
# Without arguments two lanes run side by side, a pytest per core: the host lane
# then tests/zephyr, Twister included, beside the target lane (the QEMU firmware
# runs, the longer part: the lanes end at about the same time; they share no build folder; ccache and the host CMSIS-NN library are safe to share), each line marked with
# its lane, with its 15 slowest tests; then the seconds per test file in each lane
# and a last line adding up both.
# TINYAOT_TEST_JOBS=1 runs one pytest over tests/; so do arguments, which go to
# that pytest (scripts/test.sh -k conv).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
. scripts/python-env.sh
. scripts/zephyr-env.sh
if [ $# -gt 0 ] || [ "${TINYAOT_TEST_JOBS:-2}" = 1 ]; then
    exec "$PYTHON" -m pytest -q -ra "$@" tests
fi

logs=build/test-lanes
mkdir -p "$logs"
lane() {  # lane NAME PATHS...: one pytest, its lines marked, its output kept for the count
    local name=$1
    shift
    "$PYTHON" -m pytest -q -ra -p no:cacheprovider --durations=15 --junitxml="$logs/$name.xml" "$@" 2>&1 | tee "$logs/$name.log" | sed -u "s/^/$name | /"
}
# Each lane collects from tests/ (so conftest modules load as in one run), less the other's folders.
lane host tests --ignore=tests/target &
host=$!
lane target tests --ignore=tests/host --ignore=tests/zephyr &
target=$!
status=0
wait "$host" || status=1
wait "$target" || status=1
"$PYTHON" scripts/lane_totals.py "$logs/host.xml" "$logs/target.xml" || status=1
exit "$status"
