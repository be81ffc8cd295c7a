"""tinyaot_f32_compare.h's bit path (what a core without an FPU runs instead of the soft-float
compare calls) against the host's IEEE compare, on every pair of edge values: signed zeros,
subnormals, the extremes, infinities, NaNs of both signs and ordinary values; and the clamp
(TFLM's ActivationFunctionWithMinMax) and std::max it builds. One C program, one compile."""

import shutil
import subprocess

import pytest

from tinyaot.codegen.emit import KERNEL_DIR
from tinyaot.host.model import WARNING_FLAGS

PROGRAM = r"""
#include <float.h>
#include <math.h>
#include <stdio.h>
#include "tinyaot_f32_compare.h"

static float value(unsigned u) { union { unsigned u; float f; } b; b.u = u; return b.f; }

int main(void)
{
    static const unsigned bits[] = {
        0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u, 0x007fffffu, 0x807fffffu, 0x00800000u,
        0x80800000u, 0x3f800000u, 0xbf800000u, 0x3f800001u, 0xbf800001u, 0x40c00000u, 0xc0c00000u,
        0x7f7fffffu, 0xff7fffffu, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u, 0x7f800001u,
        0xff800001u, 0x7fffffffu, 0x12345678u, 0x92345678u};
    const unsigned n = sizeof bits / sizeof bits[0];
    unsigned i, j, k, pairs = 0, wrong = 0;
    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++) {
            const float a = value(bits[i]), b = value(bits[j]);
            const float m = tinyaot_f32_max(a, b), want_m = (a < b) ? b : a;
            pairs++;
            wrong += tinyaot_f32_less(a, b) != (a < b);
            wrong += !isnan(a) && memcmp(&m, &want_m, 4) != 0;
            for (k = 0; k < n; k++) {
                const float x = value(bits[k]);
                const float got = tinyaot_f32_clamp(x, a, b);
                float want = (x < a) ? a : x;
                want = (b < want) ? b : want;
                wrong += memcmp(&got, &want, 4) != 0;
            }
        }
    }
    printf("%u pairs, %u wrong\n", pairs, wrong);
    return wrong != 0;
}
"""


def test_bit_compare_matches_ieee_on_edge_values(tmp_path):
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    (tmp_path / "main.c").write_text(PROGRAM.replace("#include <stdio.h>", "#include <stdio.h>\n#include <string.h>"))
    exe = tmp_path / "compare"
    subprocess.run([cc, *WARNING_FLAGS, "-O2", "-DTINYAOT_F32_COMPARE_BITS=1", f"-I{KERNEL_DIR}",
                    str(tmp_path / "main.c"), "-lm", "-o", str(exe)], check=True)
    run = subprocess.run([str(exe)], capture_output=True, text=True)
    assert run.stdout.strip() == "625 pairs, 0 wrong"
    assert run.returncode == 0
