"""The `tinyaot` command line: compile, run, inspect."""

import argparse
import json
import os
import sys
import tempfile
import time

from tinyaot import __version__
from tinyaot.backends import KERNEL_BACKENDS, OPTIMIZE
from tinyaot.cores import CPU_ARCH
from tinyaot.errors import TinyAotError


def main(argv=None):
    parser = argparse.ArgumentParser(prog="tinyaot", description=__doc__)
    parser.add_argument("--version", action="version", version=f"tinyaot {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("compile", help="generate C for a .tflite model (or several sharing one arena)")
    p.add_argument("model", nargs="+")
    _add_codegen_args(p, several=True)
    p.add_argument("--out", required=True, help="output folder")
    p.add_argument("--plan-svg", action="store_true", help="also draw the memory plan: <out>/<name>.plan.svg")
    p.add_argument("--shared-arena", nargs="?", const="shared", metavar="GROUP",
                   help="the models (one --name each) share one arena, tinyaot_<GROUP>_arena (default group: "
                        "shared), of the largest need; their runs must not overlap")
    p.add_argument("--arena-group", metavar="GROUP",
                   help="generate this one model to use the arena of GROUP; the build writes the group's arena "
                        "with `tinyaot arena-group` (tinyaot_add_model's ARENA_GROUP does both)")

    p = sub.add_parser("arena-group", help="write the shared arena of models generated with --arena-group")
    p.add_argument("plans", nargs="*", help="the <name>.json of each model of the group")
    p.add_argument("--plans-file", help="a file naming one <name>.json per line (what the CMake build writes)")
    p.add_argument("--group", required=True)
    p.add_argument("--out", required=True, help="output folder")
    p.add_argument("--arena-section", help="linker section for the arena (e.g. a no-init section)")

    p = sub.add_parser("run", help="compile, run on the host, print the outputs")
    p.add_argument("model")
    p.add_argument("--input", action="append", default=[], help=".npy file, once per model input")
    _add_codegen_args(p, name_required=False)

    p = sub.add_parser("inspect", help="print operators, tensors and the memory plan (of a group's models and "
                                       "its shared arena with --shared-arena)")
    p.add_argument("model", nargs="+")
    _add_codegen_args(p, name_required=False, several=True)
    p.add_argument("--shared-arena", nargs="?", const="shared", metavar="GROUP",
                   help="the models share one arena: print the group's RAM next to separate arenas'")
    p.add_argument("--plan-svg", metavar="FILE", help="draw the memory plan into this SVG file (one model)")

    p = sub.add_parser("weights", help="write the weights blob of a model for code compiled with --weights blob")
    p.add_argument("model")
    _add_codegen_args(p)
    p.add_argument("-o", "--output", required=True, help="the blob file to write")
    p.add_argument("--for", dest="compiled", metavar="DIR",
                   help="folder of the compiled code: refuse, saying what differs, unless the architecture matches")

    sub.add_parser("bench", help="footprint and speed table on the QEMU boards (see tinyaot bench -h)",
                   add_help=False)

    sub.add_parser("profile", help="instructions per operator and kernel on a board (see tinyaot profile -h)",
                   add_help=False)

    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["bench"]:  # bench has its own parser; hand it every argument as given
        from tinyaot.measure import bench
        return bench.main(argv[1:])
    if argv[:1] == ["profile"]:
        from tinyaot.measure import profile
        return profile.main(argv[1:])
    args = parser.parse_args(argv)
    from tinyaot import requirements
    lacking = requirements.missing()
    if lacking:
        print(requirements.message(lacking), file=sys.stderr)
        return 1
    try:
        return COMMANDS[args.command](args)
    except TinyAotError as e:
        print(f"tinyaot: error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as e:  # a bug in tinyaot, not in the input: say so without a traceback
        if os.environ.get("TINYAOT_DEBUG"):
            raise
        print(f"tinyaot: internal error ({type(e).__name__}: {e}); "
              "rerun with TINYAOT_DEBUG=1 for a traceback and please report it", file=sys.stderr)
        return 2


def _add_codegen_args(p, name_required=True, several=False):
    if several:
        p.add_argument("--name", required=name_required, action="append",
                       help="model name: prefix of every generated symbol (once per model)")
    else:
        p.add_argument("--name", required=name_required, default="model",
                       help="model name: prefix of every generated symbol")
    p.add_argument("--alignment", type=int, default=16, help="arena buffer alignment in bytes")
    p.add_argument("--weights-section", help="linker section for weights")
    p.add_argument("--arena-section", help="linker section for the arena (e.g. a no-init section)")
    p.add_argument("--inputs-in-arena", action="store_true",
                   help="place inputs in the arena (less RAM; write them via <name>_input_buffer())")
    p.add_argument("--kernels", default="portable", choices=KERNEL_BACKENDS,
                   help="kernel backend: tinyaot's portable C99 kernels (default), or Arm's CMSIS-NN "
                        "where it supports the operator (the generated C then needs CMSIS-NN)")
    p.add_argument("--weights", default="linked", choices=["linked", "blob"],
                   help="linked: weights are static const arrays in the .c (default); blob: they go to "
                        "<name>.weights.bin, which the program hands to tinyaot_<name>_bind_weights() at run time")
    p.add_argument("--no-fusion", action="store_true",
                   help="keep a convolution's output that only a FULLY_CONNECTED reads in the arena instead of "
                        "computing it in bands inside that layer (band fusion, on by default)")
    p.add_argument("--cpu", default="cortex-m3", choices=sorted(CPU_ARCH),
                   help="the core: with the DSP extension (cortex-m4/m7/m33/m35p) the portable kernels use its "
                        "SIMD instructions (the C then needs such a core, or the host); with --kernels cmsis-nn it "
                        "decides CMSIS-NN's code path and scratch sizes (default cortex-m3: any core without DSP "
                        "instructions, and the host)")
    p.add_argument("--optimize", default="speed", choices=OPTIMIZE,
                   help="speed: the portable kernels' specialised paths (pixel pairs, loops instantiated for the "
                        "model's shapes; default); size: one pixel at a time, less flash, the same results")
    p.add_argument("--cmsis-nn-1x1", default="auto", choices=["auto", "wrapper", "im2col"],
                   help="with --kernels cmsis-nn: 1x1 convolutions on tinyaot's portable 1x1 kernel on cores "
                        "without DSP (faster than CMSIS-NN's plain C; its output may overlap its input) and on "
                        "CMSIS-NN's 1x1 kernels on DSP cores (auto, default), on CMSIS-NN's 1x1 kernels (wrapper), "
                        "or on arm_convolve_s8 (im2col)")
    p.add_argument("--cmsis-nn-conv", default="auto", choices=["auto", "im2col"],
                   help="with --kernels cmsis-nn: other convolutions on tinyaot's portable kernel on cores without "
                        "DSP where arm_convolve_s8's scratch would raise the arena and tinyaot's is not slower "
                        "(auto, default), or on arm_convolve_s8 wherever CMSIS-NN takes them (im2col)")
    p.add_argument("--cmsis-nn-lstm", default="auto", choices=["auto", "step"],
                   help="with --kernels cmsis-nn: integer LSTMs on tinyaot's LSTM kernels on cores without DSP "
                        "where they are faster than CMSIS-NN's plain C (int8 and 16x8) (auto, default), "
                        "or on CMSIS-NN's LSTM step wherever it is exact (step)")


def _options(args, name=None):
    from tinyaot.compiler import Options
    return Options(name or args.name, args.alignment, args.weights_section, args.arena_section, args.inputs_in_arena,
                   args.kernels, args.cpu, getattr(args, "weights", "linked"), getattr(args, "arena_group", None),
                   fusion=not args.no_fusion, cmsis_nn_1x1=args.cmsis_nn_1x1, optimize=args.optimize,
                   cmsis_nn_conv=args.cmsis_nn_conv, cmsis_nn_lstm=args.cmsis_nn_lstm)


def cmd_compile(args):
    from tinyaot.codegen.emit import emit
    from tinyaot.compiler import compile_model
    _check_group_arguments(args)
    plans = []
    for path, name in zip(args.model, args.name):
        start = time.perf_counter()
        model = compile_model(path, _options(args, name))
        emit(model, args.out)
        plans.append(json.loads(open(os.path.join(args.out, f"{name}.json"), encoding="utf-8").read()))
        if args.plan_svg:
            _write_plan_svg(model, os.path.join(args.out, f"{name}.plan.svg"))
        print(f"{args.out}: {name}: arena {model.arena_size} bytes (lower bound {model.lower_bound}{_overlap_bound(model)}), "
              f"state {model.state_size} bytes, {len(model.graph.operators)} operators, "
              f"{time.perf_counter() - start:.2f} s")
        for note in model.notes:
            print(f"note: {note}")
    if args.shared_arena:
        from tinyaot.codegen.arena_group import emit_group
        _print_group(emit_group(args.shared_arena, plans, args.out, args.arena_section))
    return 0


def _check_group_arguments(args):
    """One --name per model, several models only in an arena group (--shared-arena)."""
    if len(args.model) != len(args.name):
        raise TinyAotError(f"give one --name per model ({len(args.model)} models, {len(args.name)} names)")
    if len(args.model) > 1 and not args.shared_arena:
        raise TinyAotError("several models are compiled together only with --shared-arena")
    if args.shared_arena:
        args.arena_group = args.shared_arena


def cmd_arena_group(args):
    from tinyaot.codegen.arena_group import emit_group_from_plans
    plans = list(args.plans)
    if args.plans_file:
        try:
            with open(args.plans_file, encoding="utf-8") as f:
                plans += [line.strip() for line in f if line.strip()]
        except OSError as e:
            raise TinyAotError(f"cannot read the list of plans: {e.strerror}", file=args.plans_file) from None
    if not plans:
        raise TinyAotError(f"arena group '{args.group}' has no models")
    _print_group(emit_group_from_plans(args.group, plans, args.out, args.arena_section))
    return 0


def _print_group(g):
    print(f"arena group {g['group']}: arena {g['arena_size']} bytes shared by {', '.join(g['models'])} "
          f"(separate arenas: {g['separate_arenas']}); RAM {g['ram']} bytes with state "
          f"(separate: {g['ram_separate']})")


def cmd_run(args):
    import numpy as np

    from tinyaot.codegen.emit import emit
    from tinyaot.compiler import compile_model
    from tinyaot.host.model import HostModel
    model = compile_model(args.model, _options(args))
    with tempfile.TemporaryDirectory() as out:
        emit(model, out)
        with HostModel(out, args.name) as host:
            if len(args.input) != len(host.inputs):
                raise TinyAotError(f"the model has {len(host.inputs)} inputs; give one --input FILE.npy each "
                                   f"({', '.join(i['name'] for i in host.inputs)})")
            for i, path in enumerate(args.input):
                try:
                    host.set_input(i, np.load(path))
                except (OSError, ValueError) as e:
                    raise TinyAotError(f"cannot load input {i}: {e}", file=path) from None
            host.run()
            np.set_printoptions(threshold=64)
            for i, spec in enumerate(host.outputs):
                print(f"{spec['name']}: {host.get_output(i)}")
    return 0


def cmd_inspect(args):
    from tinyaot.compiler import compile_model
    from tinyaot.report import print_inspection
    args.name = args.name or ["model"]
    _check_group_arguments(args)
    if args.plan_svg and len(args.model) > 1:
        raise TinyAotError("--plan-svg draws one model's plan; inspect the models one at a time for pictures")
    plans = []
    for i, (path, name) in enumerate(zip(args.model, args.name)):
        model = compile_model(path, _options(args, name))
        if args.shared_arena:
            print(("\n" if i else "") + f"== {name} ==")
        print_inspection(model)
        plans.append({"name": name, "alignment": model.options.alignment, "arena_size": model.arena_size,
                      "state_size": model.state_size})
        if args.plan_svg:
            _write_plan_svg(model, args.plan_svg)
    if args.shared_arena:
        from tinyaot.codegen.arena_group import group_figures
        print()
        _print_group(group_figures(args.shared_arena, plans))
    return 0


def _overlap_bound(model):
    """', overlap-aware N' where declared overlaps lower the bound."""
    bound = model.plan.overlap_bound
    return "" if bound == model.lower_bound else f", overlap-aware {bound}"


def _write_plan_svg(model, path):
    from tinyaot.planner.svg import plan_svg
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(plan_svg(model))
    except OSError as e:
        raise TinyAotError(f"cannot write the plan picture: {e.strerror}", file=path) from None
    print(f"plan picture: {path}")


def cmd_weights(args):
    from tinyaot.weights import write_weights
    write_weights(args.model, _options(args), args.output, args.compiled)
    return 0


COMMANDS = {"compile": cmd_compile, "run": cmd_run, "inspect": cmd_inspect, "weights": cmd_weights,
            "arena-group": cmd_arena_group}
