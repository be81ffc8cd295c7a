"""Measuring tinyaot against TFLM on a board: `tinyaot bench` (bench.py, shared_arena.py for
models sharing one arena), `tinyaot profile` (per-layer instructions), and the sources of the
TFLM firmware bench compares with (tflm_app.py)."""
