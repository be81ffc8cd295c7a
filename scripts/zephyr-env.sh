# Sourced by scripts/test.sh (after python-env.sh): the Zephyr lane's tree and Python.
# ZEPHYR_BASE set: that tree. Else, with the trimmed Zephyr 4.0.0 workspace beside
# the repository (../shared/zephyr, read-only), unpacks it once per archive into
# build/zephyr-ws and uses it with Debian's arm-none-eabi-gcc. Either way installs
# the Python packages Zephyr's scripts and Twister need (the `zephyr` extra) into
# $PYTHON's environment when one is missing. Without either, tests/zephyr skip,
# saying how to get Zephyr.
ZEPHYR_ARCHIVE="$PWD/../shared/zephyr/zephyr-4.0.0-ws.tar.xz"

if [ -z "${ZEPHYR_BASE:-}" ] && [ -f "$ZEPHYR_ARCHIVE" ]; then
    ws="$PWD/build/zephyr-ws"
    stamp="$ws.archive"  # the sha256 of the archive the workspace came from
    sum=$(sha256sum "$ZEPHYR_ARCHIVE" | cut -d' ' -f1)
    if [ ! -f "$ws/zephyr/VERSION" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$sum" ]; then
        rm -rf "$ws" "$stamp"
        bash "$PWD/../shared/zephyr/unpack.sh" "$ZEPHYR_ARCHIVE" "$ws" >/dev/null
        echo "$sum" >"$stamp"
    fi
    export ZEPHYR_BASE="$ws/zephyr"
    export ZEPHYR_TOOLCHAIN_VARIANT="${ZEPHYR_TOOLCHAIN_VARIANT:-gnuarmemb}"
    export GNUARMEMB_TOOLCHAIN_PATH="${GNUARMEMB_TOOLCHAIN_PATH:-/usr}"
    echo "test: Zephyr lane on $ZEPHYR_BASE (unpacked from $(basename "$ZEPHYR_ARCHIVE"))"
fi

if [ -n "${ZEPHYR_BASE:-}" ]; then
    if ! "$PYTHON" -c "import west, elftools, yaml, pykwalify, packaging, anytree, intelhex, psutil, \
colorama, ply, tabulate, junitparser, natsort, mock, jsonschema, requests, serial" 2>/dev/null; then
        echo "test: installing the Python packages Zephyr's scripts and Twister need"
        "$PYTHON" -m pip install --quiet --disable-pip-version-check --pre -e ".[test,zephyr]"
    fi
else
    echo "test: Zephyr lane skipped: no ZEPHYR_BASE and no $ZEPHYR_ARCHIVE;" \
         "get Zephyr with west update from west.yml (README, Two ways in)"
fi
